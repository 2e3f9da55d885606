"""One-pile Nim's rules: the tester's hot-seat games and the engines' view of a game.

A pile of 12 matches; the players alternate, player one first, each taking 1, 2 or 3
matches (no more than are left); who takes the last match wins. Engines get ``Turn`` (odd:
first player, who gets the opponent's last take in ``Move2``; even: ``Move1``), the matches
left as ``Tray`` (``Init`` on Turn 1, or ``12`` with the match option ``InitAsBoard``), and
answer the matches they take, ``1``..``3``. A third party's Set: it needs no edit elsewhere
to be played by the Arbitre (engine protocol sections 2 and 4, applied to an added Set).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournoyons_gui.interfaces import EngineRequest, IllegalMove, Player, RefereeCall, Result, Turn

PILE = 12
TAKES = ("1", "2", "3")
_INPUT = {Player.ONE: "One", Player.TWO: "Two"}


def _matches(state: Mapping[str, Any]) -> int:
    raw = state.get("matches")
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw <= PILE:
        raise IllegalMove("the game's pile is corrupt")
    return raw


def _count(state: Mapping[str, Any]) -> int:
    raw = state.get("count", 0)
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < 0:
        raise IllegalMove("the game's move count is corrupt")
    return raw


def _mover(state: Mapping[str, Any]) -> Player:
    """Return the player to take: player one after an even number of moves."""
    return Player.ONE if _count(state) % 2 == 0 else Player.TWO


class NimRules:
    """The game: ``state`` is ``{"matches": left, "count": moves played, "move1",
    "move2": each player's last take or absent}``."""

    engine_set = "Nim"
    levels: tuple[int, ...] = (1,)

    def new_game(self) -> Turn:
        """Return the full pile, player one to take."""
        return Turn(
            state={"matches": PILE, "count": 0},
            params={"Tray": "Init", "Input": "One", "Count": "0"},
        )

    #: A game may start from a pile (``TrayStarts``, decision 15).
    tray_starts = True

    def start(self, level: int = 1, tray: str | None = None) -> Turn:
        """Return the first turn of a game for the Arbitre (one level only), from the pile
        ``tray`` when given (decision 15): the matches left, ``1``..``12`` (``Init`` or
        ``12``: the usual start). **Decision**: the pile is the whole position, as both
        players have the same takes, so player one takes first (``Turn`` 1) from any pile.
        Raise :class:`IllegalMove` when ``tray`` is not a number 1-12 (``0``: the game is
        over)."""
        if tray is None or tray in ("Init", str(PILE)):
            return self.new_game()
        if not (tray.isascii() and tray.isdigit()) or int(tray) > PILE:
            raise IllegalMove(f"a Nim Tray is the matches left, 1 to {PILE}")
        if int(tray) == 0:
            raise IllegalMove("no match is left: the game is over")
        matches = int(tray)
        return Turn(
            state={"matches": matches, "count": 0},
            params={"Tray": str(matches), "Input": "One", "Count": "0"},
        )

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Take ``value`` matches (``1``..``3``) for the player to move.

        Params: ``Tray`` (matches left), the mover's ``Move1``/``Move2``, ``Count``, then
        ``Input`` for the opponent or ``Method=End`` once the pile is empty.
        """
        matches = _matches(state)
        if matches == 0:
            raise IllegalMove("the game is over")
        take = self._take(matches, value)
        player = _mover(state)
        matches -= take
        count = _count(state) + 1
        params = {"Tray": str(matches), f"Move{player}": value, "Count": str(count)}
        new_state = {**state, "matches": matches, "count": count, f"move{player}": value}
        if matches == 0:
            params["Method"] = "End"
            return Turn(state=new_state, params=params, over=True)
        params["Input"] = _INPUT[player.opponent]
        return Turn(state=new_state, params=params)

    # --- the Arbitre's part -----------------------------------------------------------------

    def asked(self, state: Mapping[str, Any]) -> tuple[Player, ...]:
        """Return the player to take, or nobody once the pile is empty."""
        return () if _matches(state) == 0 else (_mover(state),)

    def request(
        self, state: Mapping[str, Any], player: Player, *, init_as_board: bool = False
    ) -> EngineRequest:
        """Return ``Turn``, the opponent's last take, and ``Tray`` = the matches left
        (``Init`` on Turn 1 unless ``init_as_board``, then ``12``)."""
        turn = _count(state) + 1
        matches = _matches(state)
        tray = "Init" if turn == 1 and matches == PILE and not init_as_board else str(matches)
        params = {"Turn": str(turn), **self._last_move(state, player), "Tray": tray}
        return EngineRequest(move_id=turn, params=params)

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return ``value`` when ``player`` is asked and it takes 1-3 matches, no more than
        are left."""
        if _matches(state) == 0:
            raise IllegalMove("the game is over")
        if player not in self.asked(state):
            raise IllegalMove(f"player {int(player)} is not asked to take now")
        self._take(_matches(state), value)
        return value

    person_value = engine_value

    def result(self, state: Mapping[str, Any]) -> Result | None:
        """Return the player who took the last match once the pile is empty, else ``None``."""
        if _matches(state) > 0:
            return None
        return Result(_mover(state).opponent, "took the last match")

    def final(self, state: Mapping[str, Any], player: Player) -> Mapping[str, str]:
        """Return ``Turn`` (moves played), the opponent's last take and the final ``Tray``."""
        return {
            "Turn": str(_count(state)),
            **self._last_move(state, player),
            "Tray": str(_matches(state)),
        }

    def page(
        self, turn: Turn, viewer: Player | None, *, asking: bool, reveal: bool = False
    ) -> Mapping[str, str]:
        """Return the hot-seat page's parameters without ``Input``: nothing is hidden."""
        return {name: value for name, value in turn.params.items() if name != "Input"}

    # --- the chapter VI referee (engine protocol section 6) ------------------------------

    def referee_position(self, call: RefereeCall) -> Mapping[str, Any]:
        """Read the engines' Tray, the matches left ``0``..``12`` (``Init`` or empty: 12).

        The pile does not tell who is to take, so ``MoveId``, the move number, does, as
        ``Turn`` does for engines: odd, player one; the moves played are ``MoveId`` - 1,
        which must be able to take the matches gone (1 to 3 each). Nim keeps no gains.
        Raise :class:`IllegalMove` when the Tray or ``MoveId`` cannot be read."""
        tray = str(PILE) if call.tray.lower() in ("", "init") else call.tray
        if not (tray.isascii() and tray.isdigit()) or int(tray) > PILE:
            raise IllegalMove(f"a Nim Tray is the matches left, 0 to {PILE}")
        move_id = call.move_id.strip()
        if not (move_id.isascii() and move_id.isdigit()) or int(move_id) < 1:
            raise IllegalMove("MoveId is the move number, 1 or more: odd when player one takes")
        matches, count = int(tray), int(move_id) - 1
        if not count <= PILE - matches <= 3 * count:
            raise IllegalMove(f"{count} moves of 1 to 3 matches cannot leave {matches}")
        return {"matches": matches, "count": count}

    def referee_tray(self, state: Mapping[str, Any]) -> tuple[str, str, str]:
        """Return the matches left (never ``Init``); Nim keeps no gains."""
        return str(_matches(state)), "", ""

    @staticmethod
    def _take(matches: int, value: str) -> int:
        if value not in TAKES:
            raise IllegalMove(f"{value!r} is not a take of 1, 2 or 3 matches")
        if int(value) > matches:
            raise IllegalMove(f"only {matches} matches are left")
        return int(value)

    @staticmethod
    def _last_move(state: Mapping[str, Any], player: Player) -> dict[str, str]:
        opponent = player.opponent
        last = state.get(f"move{opponent}")
        return {f"Move{opponent}": str(last)} if last in TAKES else {}
