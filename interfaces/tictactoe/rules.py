"""TicTacToe rules, as the Arbitre applies them: the tester's hot-seat games and the
engines' view of a game.

Players alternate, player one first, one mark per turn on an empty cell; three in a row,
column or diagonal wins (those cells become ``3``/``4`` in the Tray); a full board without
a line is a draw. Engines get the 9-character Tray ``0``/``1``/``2`` (``000000000`` on Turn
1, never ``Init``: decision 14) and the opponent's last cell in ``Move1``/``Move2``.
Source: manual chapter V, "TicTacToe"; engine protocol section 4, TicTacToe.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournoyons_gui.interfaces.plugin import (
    EngineRequest,
    IllegalMove,
    RefereeCall,
    Result,
    Turn,
)
from tournoyons_gui.interfaces.protocol import PageParams, Player, opponent_move
from tournoyons_gui.interfaces.tictactoe.board import (
    EMPTY_TRAY,
    LINES,
    MARK,
    WINNING,
    player_to_move,
    read_move,
)


def winning_cells(tray: str, player: Player) -> set[int]:
    """Return the indexes (0..8) of every line ``player`` completed on ``tray``."""
    mark = MARK[player]
    return {i for line in LINES if all(tray[i] == mark for i in line) for i in line}


def _tray(state: Mapping[str, Any]) -> str:
    tray = str(state.get("tray", ""))
    if len(tray) != len(EMPTY_TRAY) or set(tray) - set("012"):
        raise IllegalMove("the game's Tray is corrupt")
    return tray


class TicTacToeRules:
    """The game: ``state`` is ``{"tray": 9 chars 0/1/2, "count": moves played, "move1",
    "move2": each player's last cell or absent}``."""

    engine_set = "TicTacToe"
    levels = (1,)

    def new_game(self) -> Turn:
        """Return the empty board, player one to play."""
        return Turn(
            state={"tray": EMPTY_TRAY, "count": 0},
            params=PageParams().tray("Init").input(Player.ONE).count(0).params,
        )

    def start(self, level: int = 1) -> Turn:
        """Return the first turn of a game for the Arbitre (one level only)."""
        return self.new_game()

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Put the mark of the player to move on cell ``value`` (``1``..``9``)."""
        tray = _tray(state)
        if winning_cells(tray, Player.ONE) or winning_cells(tray, Player.TWO):
            raise IllegalMove("the game is over")
        number = read_move(value)
        if number is None:
            raise IllegalMove(f"{value!r} is not a cell 1-9")
        if tray[number - 1] != "0":
            raise IllegalMove(f"cell {number} is taken")
        player = player_to_move(tray)
        tray = tray[: number - 1] + MARK[player] + tray[number:]
        count = int(state.get("count", 0)) + 1
        new_state = {**state, "tray": tray, "count": count, f"move{player}": str(number)}
        won = winning_cells(tray, player)
        shown = "".join(WINNING[player] if i in won else code for i, code in enumerate(tray))
        over = bool(won) or "0" not in tray
        params = (
            PageParams()
            .tray(shown)
            .move(player, str(number))
            .count(count)
            .ask(None if over else player.opponent)
            .params
        )
        return Turn(state=new_state, params=params, over=over)

    # --- the Arbitre's part (engine protocol section 4, TicTacToe) ------------------------

    def asked(self, state: Mapping[str, Any]) -> tuple[Player, ...]:
        """Return the player to move, or nobody once the game is over."""
        if self.result(state) is not None:
            return ()
        return (player_to_move(_tray(state)),)

    def request(
        self, state: Mapping[str, Any], player: Player, *, init_as_board: bool = False
    ) -> EngineRequest:
        """Return ``Turn``, the opponent's last cell and the Tray (always explicit)."""
        turn = int(state.get("count", 0)) + 1
        params = {"Turn": str(turn), **opponent_move(state, player), "Tray": _tray(state)}
        return EngineRequest(move_id=turn, params=params)

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return ``value`` when it is an empty cell ``1``..``9``."""
        tray = _tray(state)
        number = read_move(value)
        if number is None or value != str(number):
            raise IllegalMove(f"{value!r} is not a cell 1-9")
        if tray[number - 1] != "0":
            raise IllegalMove(f"cell {number} is taken")
        return value

    person_value = engine_value

    def result(self, state: Mapping[str, Any]) -> Result | None:
        """Return the winner of a line, a draw on a full board, else ``None``."""
        tray = _tray(state)
        for player in Player:
            if winning_cells(tray, player):
                return Result(player, "three in a row")
        if "0" not in tray:
            return Result(None, "full board")
        return None

    def final(self, state: Mapping[str, Any], player: Player) -> Mapping[str, str]:
        """Return ``Turn`` (moves played), the opponent's last cell, the final Tray."""
        return {
            "Turn": str(int(state.get("count", 0))),
            **opponent_move(state, player),
            "Tray": _tray(state),
        }

    def page(
        self, turn: Turn, viewer: Player | None, *, asking: bool, reveal: bool = False
    ) -> Mapping[str, str]:
        """Return the hot-seat page's parameters without ``Input``: nothing is hidden."""
        return PageParams.shown(turn.params).params

    # --- the chapter VI referee (engine protocol section 6) --------------------------------

    def referee_position(self, call: RefereeCall) -> Mapping[str, Any]:
        """Read the engines' Tray (``Init`` or empty: the empty board); the player to move
        follows from the marks' count, as on the page."""
        tray = EMPTY_TRAY if call.tray in ("", "Init") else call.tray
        if len(tray) != len(EMPTY_TRAY) or set(tray) - set("012"):
            raise IllegalMove("a TicTacToe Tray is 9 characters 0, 1 or 2")
        ones, twos = tray.count("1"), tray.count("2")
        if ones - twos not in (0, 1):
            raise IllegalMove(f"{ones} marks of player one against {twos} of player two")
        return {"tray": tray, "count": ones + twos}

    def referee_tray(self, state: Mapping[str, Any]) -> tuple[str, str, str]:
        """Return the engines' Tray; TicTacToe keeps no gains (the call's are echoed)."""
        return _tray(state), "", ""
