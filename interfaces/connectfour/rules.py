"""ConnectFour rules, as the Arbitre applies them: the tester's hot-seat games, the engines'
view of a game and the chapter VI referee.

Players alternate, player one first, dropping one disc per turn in a column that is not
full (it lands on the column's topmost disc); four of one's discs in a row, column or
diagonal win (they become ``3``/``4`` in the pages' Tray); a full board without a line is
a draw. Engines get the 42-character Tray ``0``/``1``/``2``, bottom row first (the explicit
empty board on Turn 1, never ``Init``, as for TicTacToe: decision 14), the opponent's last
column in ``Move1``/``Move2``, and answer a column letter ``A``..``G``.
Source: spec ``interface-protocol.md`` section 5 (ConnectFour); engine protocol sections 4
(ConnectFour) and 6 (the referee).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournoyons_gui.interfaces.connectfour.board import (
    COLUMNS,
    EMPTY_TRAY,
    GRID,
    HEIGHT,
    WIDTH,
    WINNING,
    column_of,
    counts,
    drop,
    landing,
    player_to_move,
    winning_cells,
)
from tournoyons_gui.interfaces.plugin import (
    EngineRequest,
    IllegalMove,
    RefereeCall,
    Result,
    Turn,
)
from tournoyons_gui.interfaces.protocol import PageParams, Player, opponent_move

__all__ = ["ConnectFourRules", "check_tray"]


def check_tray(tray: str) -> str:
    """Return ``tray`` when it is a position of a game: 42 codes ``0``/``1``/``2``, no disc
    above an empty cell, player one's discs as many as player two's or one more. Raise
    :class:`IllegalMove` with the reason otherwise."""
    if len(tray) != len(EMPTY_TRAY) or set(tray) - set("012"):
        raise IllegalMove("a ConnectFour Tray is 42 characters 0, 1 or 2, bottom row first")
    for column in range(WIDTH):
        for row in range(1, HEIGHT):
            if tray[GRID.at(column, row)] != "0" and tray[GRID.at(column, row - 1)] == "0":
                raise IllegalMove(f"the disc on {GRID.name(GRID.at(column, row))} floats")
    ones, twos = counts(tray)
    if ones - twos not in (0, 1):
        raise IllegalMove(f"{ones} discs of player one against {twos} of player two")
    return tray


def _tray(state: Mapping[str, Any]) -> str:
    tray = str(state.get("tray", ""))
    if len(tray) != len(EMPTY_TRAY) or set(tray) - set("012"):
        raise IllegalMove("the game's Tray is corrupt")
    return tray


def _over(tray: str) -> bool:
    return bool(
        winning_cells(tray, Player.ONE) or winning_cells(tray, Player.TWO) or "0" not in tray
    )


def _column(tray: str, value: str) -> int:
    """Return the column a value plays: a letter ``A``..``G``; raise :class:`IllegalMove`
    when it is not one or the column is full."""
    column = column_of(value) if value == value.upper() else None
    if column is None:
        raise IllegalMove(f"{value!r} is not a column A-G")
    if landing(tray, column) is None:
        raise IllegalMove(f"column {COLUMNS[column]} is full")
    return column


class ConnectFourRules:
    """The game: ``state`` is ``{"tray": 42 chars 0/1/2 bottom row first, "count": moves
    played, "move1", "move2": each player's last column or absent}``."""

    engine_set = "ConnectFour"
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
        """Drop the disc of the player to move in column ``value`` (``A``..``G``); raise
        :class:`IllegalMove` when it is not a column, the column is full or the game over."""
        tray = _tray(state)
        if _over(tray):
            raise IllegalMove("the game is over")
        column = _column(tray, value)
        player = player_to_move(tray)
        tray, _ = drop(tray, column, player)
        letter = COLUMNS[column]
        count = int(state.get("count", 0)) + 1
        new_state = {**state, "tray": tray, "count": count, f"move{player}": letter}
        won = winning_cells(tray, player)
        shown = "".join(WINNING[player] if i in won else code for i, code in enumerate(tray))
        over = bool(won) or "0" not in tray
        params = (
            PageParams()
            .tray(shown)
            .move(player, letter)
            .count(count)
            .ask(None if over else player.opponent)
            .params
        )
        return Turn(state=new_state, params=params, over=over)

    # --- the Arbitre's part (engine protocol section 4, ConnectFour) ----------------------

    def asked(self, state: Mapping[str, Any]) -> tuple[Player, ...]:
        """Return the player to move, or nobody once the game is over."""
        if self.result(state) is not None:
            return ()
        return (player_to_move(_tray(state)),)

    def request(
        self, state: Mapping[str, Any], player: Player, *, init_as_board: bool = False
    ) -> EngineRequest:
        """Return ``Turn``, the opponent's last column and the Tray (always explicit: the 42
        zeros on Turn 1, whatever ``init_as_board``)."""
        turn = int(state.get("count", 0)) + 1
        params = {"Turn": str(turn), **opponent_move(state, player), "Tray": _tray(state)}
        return EngineRequest(move_id=turn, params=params)

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return ``value`` when it is a column letter ``A``..``G`` that is not full and
        ``player`` is to move; raise :class:`IllegalMove` otherwise."""
        tray = _tray(state)
        if _over(tray):
            raise IllegalMove("the game is over")
        if player is not player_to_move(tray):
            raise IllegalMove(f"player {int(player)} is not to move")
        return COLUMNS[_column(tray, value)]

    def person_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return the column a person's ``ReturnValue`` plays: a column letter (any case), or
        the cell where the disc would land (``D3``); raise :class:`IllegalMove` otherwise."""
        tray = _tray(state)
        text = value.strip().upper()
        index = GRID.read(text)
        if index is not None:
            column = index % WIDTH
            if landing(tray, column) != index:
                raise IllegalMove(f"a disc dropped in column {COLUMNS[column]} lands elsewhere")
            text = COLUMNS[column]
        return self.engine_value(state, player, text)

    def result(self, state: Mapping[str, Any]) -> Result | None:
        """Return the winner of a line of four, a draw on a full board, else ``None``."""
        tray = _tray(state)
        for player in Player:
            if winning_cells(tray, player):
                return Result(player, "four in a row")
        if "0" not in tray:
            return Result(None, "full board")
        return None

    def final(self, state: Mapping[str, Any], player: Player) -> Mapping[str, str]:
        """Return ``Turn`` (moves played), the opponent's last column, the final Tray."""
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
        """Read the engines' Tray (``Init`` or empty: the empty board): 42 codes
        ``0``/``1``/``2`` with no floating disc and as many discs of each player, or one
        more of player one's (:func:`check_tray`); the player to move follows from the
        count. Raise :class:`IllegalMove` otherwise."""
        tray = EMPTY_TRAY if call.tray in ("", "Init") else check_tray(call.tray)
        ones, twos = counts(tray)
        return {"tray": tray, "count": ones + twos}

    def referee_tray(self, state: Mapping[str, Any]) -> tuple[str, str, str]:
        """Return the engines' Tray; ConnectFour keeps no gains (the call's are echoed)."""
        return _tray(state), "", ""
