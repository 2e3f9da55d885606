"""Pente rules, as the Arbitre applies them, for the tester's hot-seat games.

Standard Pente with the tournament opening (manual chapter V, "Pente"; spec section 4):

- players alternate, player one first, one stone per turn on an empty point;
- player one's first stone is on the centre ``JJ``; player one's second stone is at least
  3 points from the centre (outside the 5x5 square around it);
- a stone that flanks exactly two of the opponent's stones in a line (``X O O X``, in any of
  the 8 directions) captures them: they are removed and the capturing player's Gain grows
  by one pair; a player who puts their own pair between two enemy stones loses nothing;
- five or more stones in a row (row, column or diagonal), or five captured pairs, wins;
  a full board without a winner is a draw.

**Decision** (what the next page is sent): the points a rule forbids are sent as ``9`` in
that turn's Tray (every point but ``JJ`` for the first stone, the empty points of the 5x5
square for player one's second), so the page offers only legal points; the stones a move
captured are sent as ``5``/``6`` so they are shown, then removed ``Wait`` tenths later; the
winning stones are sent as ``3``/``4``: the five or more in a row, or, for a win by
captures, the stones that closed the last pincers (the stone played and the far stone of
each pair it took).

The Arbitre's part (engine protocol section 4, Pente; decisions 14, 20): engines get only
``0``/``1``/``2`` with captured stones already removed, ``Init`` while nothing is played, the
pairs captured in ``Gain1``/``Gain2`` and the opponent's last point.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournoyons_gui.interfaces.grid import Codes
from tournoyons_gui.interfaces.pente.board import (
    CAPTURED,
    CENTRE,
    EMPTY_TRAY,
    FORBIDDEN,
    GRID,
    LETTERS,
    MAX_GAIN,
    POINTS,
    SIZE,
    STONE,
    WINNING,
    point_name,
    read_point,
)
from tournoyons_gui.interfaces.plugin import EngineRequest, IllegalMove, RefereeCall, Result, Turn
from tournoyons_gui.interfaces.protocol import PAIR, PageParams, Player, opponent_move
from tournoyons_gui.interfaces.referee import referee_number

__all__ = [
    "DIRECTIONS",
    "RULES",
    "PenteRules",
    "captures",
    "five_of",
    "forbidden_points",
    "rows_of_five",
]

# The 4 lines through a point; each is walked both ways, so captures see all 8 directions.
LINES = ((1, 0), (0, 1), (1, 1), (1, -1))
DIRECTIONS = tuple(d for dx, dy in LINES for d in ((dx, dy), (-dx, -dy)))
# Player one's second stone must be at least this many points from the centre.
SECOND_STONE_DISTANCE = 3
# The codes of the engines' Tray, read at C speed.
_ENGINE_CODES = Codes("012")


def _distance_from_centre(index: int) -> int:
    row, column = divmod(index, SIZE)
    centre_row, centre_column = divmod(CENTRE, SIZE)
    return max(abs(row - centre_row), abs(column - centre_column))


#: The points less than 3 from the centre (the 5x5 square ``HH``-``LL``), in index order.
_SQUARE = tuple(i for i in range(POINTS) if _distance_from_centre(i) < SECOND_STONE_DISTANCE)
_IN_SQUARE = frozenset(_SQUARE)


def forbidden_points(tray: str, count: int) -> set[int]:
    """Return the empty points the player to move may not play after ``count`` moves.

    Move 1 (``count`` 0): every point but the centre. Move 3 (player one's second stone):
    the empty points less than 3 from the centre. Otherwise none.
    """
    if count == 0:
        return set(range(POINTS)) - {CENTRE}
    if count == 2:
        return {i for i in _SQUARE if tray[i] == "0"}
    return set()


def _forbidden(index: int, count: int) -> bool:
    """Return whether an empty point ``index`` is in :func:`forbidden_points` after
    ``count`` moves, without making the set."""
    if count == 0:
        return index != CENTRE
    return count == 2 and index in _IN_SQUARE


#: For each point, in each of the 8 directions where the board holds three more points:
#: the two next to it and the one beyond (a pincer's cells, nearest first).
_PINCERS = tuple(
    tuple(path[:3] for dx, dy in DIRECTIONS if len(path := GRID.ray(index, dx, dy)) >= 3)
    for index in range(POINTS)
)


def captures(tray: str, index: int, player: Player) -> list[tuple[int, int, int]]:
    """Return the pairs a stone of ``player`` on ``index`` captures on ``tray``.

    Each is ``(first, second, closing)``: the two enemy stones next to ``index`` in one
    direction, and ``player``'s stone beyond them.
    """
    own, enemy = STONE[player], STONE[player.opponent]
    return [
        (first, second, closing)
        for first, second, closing in _PINCERS[index]
        if tray[first] == enemy and tray[second] == enemy and tray[closing] == own
    ]


def rows_of_five(tray: str, index: int) -> set[int]:
    """Return the stones of every line of five or more through ``index`` (empty if none)."""
    won: set[int] = set()
    for dx, dy in LINES:
        if GRID.span(tray, index, dx, dy) >= 5:  # most lines hold no five: count first
            won.update((index, *GRID.run(tray, index, dx, dy), *GRID.run(tray, index, -dx, -dy)))
    return won


def _with(tray: str, codes: Mapping[int, str]) -> str:
    """Return ``tray`` with each of ``codes``' points (index -> code) recoded."""
    if not codes:
        return tray
    if len(codes) == 1:
        ((index, code),) = codes.items()
        return tray[:index] + code + tray[index + 1 :]
    cells = list(tray)
    for index, code in codes.items():
        cells[index] = code
    return "".join(cells)


def _legal_point(tray: str, count: int, value: str) -> int:
    """Return the index of point ``value`` if the player to move may play it after ``count``
    moves; raise IllegalMove with the reason otherwise."""
    index = read_point(value)
    if index is None or value != value.upper():
        raise IllegalMove(f"{value!r} is not a point AA-SS")
    if tray[index] != "0":
        raise IllegalMove(f"point {value} is taken")
    if _forbidden(index, count):
        if count == 0:
            raise IllegalMove(f"point {value} is forbidden: the first stone is on JJ")
        raise IllegalMove(
            f"point {value} is forbidden: player one's second stone is outside "
            "the 5x5 square HH-LL around the centre"
        )
    return index


def _read_state(state: Mapping[str, Any]) -> tuple[str, int, dict[Player, int]]:
    """Return ``(tray, count, gains)`` from a game's state; raise IllegalMove if corrupt."""
    tray = str(state.get("tray", ""))
    if len(tray) != POINTS or not _ENGINE_CODES.only(tray):
        raise IllegalMove("the game's Tray is corrupt")
    try:
        count = int(state.get("count", 0))
        gains = {Player.ONE: int(state.get("gain1", 0)), Player.TWO: int(state.get("gain2", 0))}
    except (TypeError, ValueError) as broken:
        raise IllegalMove("the game's counts are corrupt") from broken
    return tray, count, gains


def _moves(state: Mapping[str, Any], count: int) -> int:
    """Return the moves the position of ``state`` stands for, which the opening rule
    reads: ``count`` plus ``offset``, the moves a start position (decision 15) stood for
    beyond its ``count`` (an even number; 0 in a game from the empty board)."""
    try:
        return count + int(state.get("offset", 0))
    except (TypeError, ValueError) as broken:
        raise IllegalMove("the game's counts are corrupt") from broken


def five_of(tray: str, player: Player) -> int | None:
    """Return a stone of ``player`` in a line of five or more on ``tray``, else ``None``."""
    stone = STONE[player]
    for index, code in enumerate(tray):
        if code == stone and any(len(GRID.run(tray, index, dx, dy)) >= 4 for dx, dy in LINES):
            return index
    return None


class PenteRules:
    """The game: ``state`` is ``{"tray": 361 codes 0/1/2, "count", "gain1", "gain2", "over",
    "winner", "move1", "move2"}``, and ``"offset"`` in a game started from a position
    (:meth:`start`: the moves it stood for beyond ``count``, which the opening rule reads).

    ``winner`` is the winning player (``1``/``2``) once ``over``, ``None`` for a draw or
    while the game runs; ``move1``/``move2`` each player's last point (absent before their
    first stone), which the engines are sent.
    """

    engine_set = "Pente"
    levels: tuple[int, ...] = (1,)

    def new_game(self) -> Turn:
        """Return the empty board, player one to put the first stone on the centre."""
        tray = _with(EMPTY_TRAY, dict.fromkeys(forbidden_points(EMPTY_TRAY, 0), FORBIDDEN))
        return Turn(
            state={"tray": EMPTY_TRAY, "count": 0, "gain1": 0, "gain2": 0, "over": False},
            params=PageParams().tray(tray).input(Player.ONE).count(0).gains(0, 0).params,
        )

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Put the stone of the player to move on point ``value`` (``AA``..``SS``).

        Raises :class:`IllegalMove` for a value that is not a point, a point taken or
        forbidden now, a game over, or a corrupt ``state``.
        """
        tray, count, gains = _read_state(state)
        if state.get("over"):
            raise IllegalMove("the game is over")
        index = _legal_point(tray, _moves(state, count), value)

        player = Player.ONE if count % 2 == 0 else Player.TWO
        tray = _with(tray, {index: STONE[player]})
        taken = captures(tray, index, player)
        removed = {stone for first, second, _ in taken for stone in (first, second)}
        tray = _with(tray, dict.fromkeys(removed, "0"))
        # Gain is 0..5 (spec section 4): a double capture from 4 pairs still shows 5.
        gains[player] = min(gains[player] + len(taken), MAX_GAIN)
        count += 1

        won = rows_of_five(tray, index)
        if not won and gains[player] >= MAX_GAIN:
            won = {index} | {closing for _, _, closing in taken}
        over = bool(won) or "0" not in tray
        shown = _with(
            tray,
            {
                **dict.fromkeys(won, WINNING[player]),
                **dict.fromkeys(removed, CAPTURED[player.opponent]),
            },
        )
        if not over:
            forbidden = forbidden_points(tray, _moves(state, count))
            shown = _with(shown, dict.fromkeys(forbidden, FORBIDDEN))
        pairs = (gains[Player.ONE], gains[Player.TWO])
        params = PageParams().played(player, point_name(index), shown, count, over, pairs).params
        new_state = {
            **state,
            "tray": tray,
            "count": count,
            "gain1": gains[Player.ONE],
            "gain2": gains[Player.TWO],
            "over": over,
            "winner": int(player) if won else None,
            f"move{player}": point_name(index),
        }
        return Turn(state=new_state, params=params, over=over)

    def text(self, state: Mapping[str, Any]) -> str:
        """Return the position drawn as text (``tournoyons-gui diff`` prints it): the 19
        rows, the top one first, of ``X`` (player one's stones), ``O`` and ``.``, with the
        rows' and the columns' letters."""
        board = str(state.get("tray", ""))
        return GRID.drawn(board, {"1": "X", "2": "O"}, columns=LETTERS, rows=LETTERS)

    # --- the Arbitre's part (engine protocol section 4, Pente; decisions 14, 20) -----------

    #: A game may start from a position (``TrayStarts``, decision 15).
    tray_starts = True

    def start(self, level: int = 1, tray: str | None = None) -> Turn:
        """Return the first turn of a game for the Arbitre (one level only), from the
        position ``tray`` when given (decision 15).

        ``tray``: the engines' Tray, 361 characters ``0``/``1``/``2`` (``Init`` or the
        empty board: the usual start). **Decision**: no stone was captured before the
        position (a Tray does not say how many were), so both Gains start at 0 and the
        stones on the board are the moves played: player one has as many as player two
        (player one moves, ``Turn`` 1) or one more (player two moves, ``Turn`` 2). The
        opening rule (decision 20) must hold: player one's first stone is on ``JJ``, and
        once it has two stones one is outside the 5x5 square ``HH``-``LL``; it still
        applies after the position (player one's second stone, when it has one stone and
        player two one). No line of five (the game would be over), not a full board.
        Raise :class:`IllegalMove` otherwise. ``count`` starts at ``Turn`` - 1 (0 or 1) so
        odd ``Turn`` means player one; ``offset`` keeps the stones' count for the opening
        rule.
        """
        if tray is None or tray in ("Init", EMPTY_TRAY):
            return self.new_game()
        if len(tray) != POINTS or set(tray) - set("012"):
            raise IllegalMove(f"a Pente Tray is {POINTS} characters 0, 1 or 2")
        ones, twos = tray.count(STONE[Player.ONE]), tray.count(STONE[Player.TWO])
        if ones - twos not in (0, 1):
            raise IllegalMove(
                f"{ones} stones of player one against {twos} of player two "
                "(no capture before the position)"
            )
        if tray[CENTRE] != STONE[Player.ONE]:
            raise IllegalMove("player one's first stone is on JJ")
        far = [
            i
            for i, code in enumerate(tray)
            if code == STONE[Player.ONE] and _distance_from_centre(i) >= SECOND_STONE_DISTANCE
        ]
        if ones >= 2 and not far:
            raise IllegalMove("player one's second stone is outside the 5x5 square HH-LL")
        for player in PAIR:
            if five_of(tray, player) is not None:
                raise IllegalMove(f"player {int(player)} has already won: five in a row")
        if "0" not in tray:
            raise IllegalMove("the board is full: the game is over")
        count = (ones + twos) % 2
        state = {
            "tray": tray,
            "count": count,
            "offset": ones + twos - count,
            "gain1": 0,
            "gain2": 0,
            "over": False,
        }
        player = Player.ONE if count == 0 else Player.TWO
        shown = _with(tray, dict.fromkeys(forbidden_points(tray, ones + twos), FORBIDDEN))
        params = PageParams().tray(shown).input(player).count(count).gains(0, 0).params
        return Turn(state=state, params=params)

    def asked(self, state: Mapping[str, Any]) -> tuple[Player, ...]:
        """Return the player to move (one on even counts), or nobody once the game is over."""
        if self.result(state) is not None:
            return ()
        _, count, _ = _read_state(state)
        return (Player.ONE if count % 2 == 0 else Player.TWO,)

    def request(
        self, state: Mapping[str, Any], player: Player, *, init_as_board: bool = False
    ) -> EngineRequest:
        """Return ``Turn`` (moves played, the one asked included), the pairs captured
        ``Gain1``/``Gain2`` once a move is played, the opponent's last point, and the Tray
        of ``0``/``1``/``2``: ``Init`` while nothing is played (361 ``0`` with
        ``init_as_board``). A game started from a position (:meth:`start`) sends the Gains
        and its Tray from Turn 1."""
        tray, count, gains = _read_state(state)
        turn = count + 1
        begun = bool(count) or tray != EMPTY_TRAY
        params = {"Turn": str(turn)}
        if begun:
            params.update(Gain1=str(gains[Player.ONE]), Gain2=str(gains[Player.TWO]))
        params.update(opponent_move(state, player))
        params["Tray"] = tray if begun or init_as_board else "Init"
        return EngineRequest(move_id=turn, params=params)

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return ``value`` when it is a point ``AA``..``SS`` (upper case), empty, not
        forbidden now (first stone on ``JJ``, player one's second outside ``HH``-``LL``),
        and ``player`` is to move."""
        tray, count, _ = _read_state(state)
        if player not in self.asked(state):
            raise IllegalMove(f"player {int(player)} is not to move")
        _legal_point(tray, _moves(state, count), value)
        return value

    person_value = engine_value

    def result(self, state: Mapping[str, Any]) -> Result | None:
        """Return the winner of five in a row or of five pairs, a draw on a full board, or
        ``None`` while the game runs (``state["over"]``, set by :meth:`play`)."""
        if not state.get("over"):
            return None
        tray, _, gains = _read_state(state)
        winner = state.get("winner")
        if winner is None:
            return Result(None, "full board")
        player = Player(int(winner))
        last = read_point(state.get(f"move{player}"))
        if last is not None and tray[last] == STONE[player] and rows_of_five(tray, last):
            return Result(player, "five in a row")
        return Result(player, f"{gains[player]} pairs captured")

    def final(self, state: Mapping[str, Any], player: Player) -> Mapping[str, str]:
        """Return ``Turn`` (moves played), both Gains, the opponent's last point and the
        final Tray of ``0``/``1``/``2`` (decision 10)."""
        tray, count, gains = _read_state(state)
        return {
            "Turn": str(count),
            "Gain1": str(gains[Player.ONE]),
            "Gain2": str(gains[Player.TWO]),
            **opponent_move(state, player),
            "Tray": tray,
        }

    def page(
        self, turn: Turn, viewer: Player | None, *, asking: bool, reveal: bool = False
    ) -> Mapping[str, str]:
        """Return the hot-seat page's parameters without ``Input``: nothing is hidden (the
        Tray carries the page codes: ``3``-``6`` and ``9``)."""
        return PageParams.shown(turn.params).params

    # --- the chapter VI referee (engine protocol section 6) --------------------------------

    def referee_position(self, call: RefereeCall) -> Mapping[str, Any]:
        """Read the engines' Tray (361 characters ``0``/``1``/``2``, captured stones
        removed; ``Init`` or empty: the empty board) and the pairs captured
        ``Gain1``/``Gain2`` (``0``..``5``; empty: 0).

        ``MoveId`` is not needed: each player's moves are its stones on the board plus two
        per pair the opponent took, so the moves played (which say who is to move, player
        one after an even number, and which opening rule applies) follow from the Tray and
        the Gains; they must differ by at most one, player one's first. A line of five, or
        five pairs, is a game over (the referee then answers the error "already over").
        Raise :class:`IllegalMove` when the Tray or a Gain cannot be read."""
        tray = EMPTY_TRAY if call.tray.lower() in ("", "init") else call.tray
        if len(tray) != POINTS or set(tray) - set("012"):
            raise IllegalMove(f"a Pente Tray is {POINTS} characters 0, 1 or 2")
        gains = {
            Player.ONE: referee_number(call.gain1, "Gain1 (pairs captured)", MAX_GAIN),
            Player.TWO: referee_number(call.gain2, "Gain2 (pairs captured)", MAX_GAIN),
        }
        moves = {player: tray.count(STONE[player]) + 2 * gains[player.opponent] for player in PAIR}
        if MAX_GAIN not in gains.values() and moves[Player.ONE] - moves[Player.TWO] not in (0, 1):
            raise IllegalMove(
                f"{moves[Player.ONE]} moves of player one against {moves[Player.TWO]} of "
                "player two (stones on the board plus two per pair lost)"
            )
        fives = {player: five_of(tray, player) for player in PAIR}
        winners = [p for p in PAIR if fives[p] is not None or gains[p] >= MAX_GAIN]
        if len(winners) > 1:
            raise IllegalMove("both players have won")
        winner = winners[0] if winners else None
        state: dict[str, Any] = {
            "tray": tray,
            "count": moves[Player.ONE] + moves[Player.TWO],
            "gain1": gains[Player.ONE],
            "gain2": gains[Player.TWO],
            "over": winner is not None or "0" not in tray,
            "winner": None if winner is None else int(winner),
        }
        last = None if winner is None else fives[winner]
        if winner is not None and last is not None:
            state[f"move{winner}"] = point_name(last)
        return state

    def referee_tray(self, state: Mapping[str, Any]) -> tuple[str, str, str]:
        """Return the engines' Tray (never ``Init``) and the pairs captured."""
        tray, _, gains = _read_state(state)
        return tray, str(gains[Player.ONE]), str(gains[Player.TWO])


#: The rules the Set plays by (found by :class:`SetInterface`'s convention).
RULES = PenteRules()
