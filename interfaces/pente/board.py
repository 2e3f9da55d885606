"""Pente: reading ``Tray``, ``Move1``/``Move2`` and ``Gain1``/``Gain2`` into the board drawn.

A point is named by its column letter then its row letter, ``AA`` (top left) to ``SS``
(bottom right); the centre is ``JJ``. The Tray is 361 codes, row by row from the top:
``0`` empty, ``1``/``2`` a stone of player one/two, ``3``/``4`` a winning stone of one/two,
``5``/``6`` a stone of one/two captured by the move just played (shown, then removed
``Wait`` tenths later), ``9`` a forbidden point (the first player's second move). Gains are
the pairs a player captured, 0 to 5.

Sources: manual chapter V, "Pente"; spec ``interface-protocol.md`` section 4 (Pente).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from interfaces.plugin import View
from interfaces.protocol import Context, Method, ParamError, Player

__all__ = [
    "CENTRE",
    "EMPTY_TRAY",
    "LETTERS",
    "POINTS",
    "SIZE",
    "PenteView",
    "Point",
    "build",
    "player_to_move",
    "point_name",
    "read_gain",
    "read_point",
    "read_tray",
]

SIZE = 19
POINTS = SIZE * SIZE
LETTERS = "ABCDEFGHIJKLMNOPQRS"
EMPTY_TRAY = "0" * POINTS
CENTRE = (SIZE // 2) * SIZE + SIZE // 2  # JJ
MAX_GAIN = 5

EMPTY, FORBIDDEN = "0", "9"
CODES = frozenset("01234569")
STONE = {Player.ONE: "1", Player.TWO: "2"}
WINNING = {Player.ONE: "3", Player.TWO: "4"}
CAPTURED = {Player.ONE: "5", Player.TWO: "6"}
# Whose stone a code is (a captured stone is still its owner's until it is removed).
OWNER = {
    "1": Player.ONE, "3": Player.ONE, "5": Player.ONE,
    "2": Player.TWO, "4": Player.TWO, "6": Player.TWO,
}


def point_name(index: int) -> str:
    """Return the name of point ``index`` (0..360, row by row from the top): ``AA``..``SS``."""
    row, column = divmod(index, SIZE)
    return LETTERS[column] + LETTERS[row]


class Point(NamedTuple):
    """One point of the board, ``number`` 0..360, row by row from the top.

    ``state`` is the Tray code shown once every impact is drawn (a captured stone is then
    gone: ``0``); ``before`` the code shown from the move until ``Wait`` has elapsed (the
    captured stone, or the winning stone as an ordinary one), or ``None``; ``captured`` whose
    stone is removed here; ``last_move`` the player whose ``Move`` this point is. A tuple:
    361 of them are drawn per page, hashed by the fragment cache at C speed.
    """

    number: int
    state: str
    before: str | None = None
    captured: Player | None = None
    last_move: Player | None = None

    @property
    def name(self) -> str:
        """Return the point's name, column letter then row letter (``CH``)."""
        return POINT_NAMES[self.number]

    @property
    def row(self) -> int:
        """Return the row, 0 at the top."""
        return self.number // SIZE

    @property
    def column(self) -> int:
        """Return the column, 0 at the left."""
        return self.number % SIZE


POINT_NAMES = tuple(point_name(index) for index in range(POINTS))
# The point of each index in each plain code, made once: most points of a board are these,
# and one shared object draws from the fragment cache without a comparison.
PLAIN_POINTS = tuple({code: Point(index, code) for code in CODES} for index in range(POINTS))


@dataclass(frozen=True, kw_only=True)
class PenteView(View):
    """The board as drawn: 361 points, both gains, the last moves and the winner.

    ``gains`` are the pairs captured by player one and two (``None``: unreadable);
    ``last_moves`` the ``(player, point)`` of each Move drawn; ``winner`` the player whose
    winning stones are shown, or who has five pairs, once the game is won.
    """

    points: tuple[Point, ...]
    gains: tuple[int | None, int | None] = (0, 0)
    last_moves: tuple[tuple[Player, Point], ...] = ()
    winner: Player | None = None

    def gain(self, player: int) -> int | None:
        """Return the pairs captured by player 1 or 2 (the template's ``p``)."""
        return self.gains[0] if player == 1 else self.gains[1]


def read_tray(tray: str | None) -> str | None:
    """Return the 361-code Tray (``Init`` or absent: empty), ``None`` if unreadable."""
    if tray is None or tray.lower() == "init":
        return EMPTY_TRAY
    if len(tray) == POINTS and set(tray) <= CODES:
        return tray
    return None


def read_point(value: str | None) -> int | None:
    """Return the index 0..360 of a point ``AA``..``SS`` (any case), ``None`` if not one."""
    if value is None or len(value) != 2:
        return None
    column, row = LETTERS.find(value[0].upper()), LETTERS.find(value[1].upper())
    if column < 0 or row < 0:
        return None
    return row * SIZE + column


def read_gain(value: str | None) -> int | None:
    """Return the pairs captured, 0..5 (absent: 0), ``None`` if unreadable."""
    if value is None:
        return 0
    if len(value) == 1 and value in "012345":
        return int(value)
    return None


def player_to_move(tray: str, gain1: int, gain2: int) -> Player:
    """Return whose turn it is: the player who has placed fewer stones, one on a tie.

    A player's stones placed are those on the board plus those the other player captured
    (two per pair of the other's gain); stones shown as captured (``5``/``6``) are already
    in the gain, so they are not counted on the board.
    """
    ones = sum(1 for code in tray if code in "13") + 2 * gain2
    twos = sum(1 for code in tray if code in "24") + 2 * gain1
    return Player.ONE if ones <= twos else Player.TWO


def build(ctx: Context) -> PenteView:
    """Build the page's view model from the Context; never raises.

    An unreadable ``Tray`` (not 361 codes of ``01234569``, nor ``Init``) draws an empty board
    with nothing playable and the error code ``tray``. An unreadable ``Move1``/``Move2``
    (not a point ``AA``..``SS``, or a point the other player holds or that is forbidden) is
    not drawn and gives ``move1``/``move2``; a valid Move on an empty point puts that
    player's stone there, as the manual's annex B does. A ``Gain`` not 0..5 gives
    ``gain1``/``gain2`` and is drawn as nothing.

    Impacts wait ``Wait`` tenths: captured stones (``5``/``6``) always, winning stones
    (``3``/``4``) when a Move made them. Input is offered on every point empty once the
    impacts are shown (captured points included), never on a forbidden one.
    """
    errors: list[ParamError] = []
    tray = read_tray(ctx.tray)
    if tray is None:
        errors.append(ParamError("tray", "Tray is 361 codes 0-6 or 9, or Init"))
    board = list(tray or EMPTY_TRAY)

    last: dict[int, Player] = {}
    for mover in Player:
        raw = ctx.move(mover)
        if raw is None:
            continue
        index = read_point(raw)
        code = board[index] if index is not None else ""
        if index is None or code == FORBIDDEN or OWNER.get(code, mover) is not mover:
            errors.append(ParamError(f"move{mover}", "Move is a free or own point AA-SS"))
            continue
        if code == EMPTY:
            board[index] = STONE[mover]
        last[index] = mover

    gains: list[int | None] = []
    for scorer in Player:
        gain = read_gain(ctx.gain(scorer))
        if gain is None:
            errors.append(ParamError(f"gain{scorer}", "Gain is a number of pairs 0-5"))
        gains.append(gain)

    winners = {OWNER[code] for code in board if code in "34"}
    winners |= {scorer for scorer, gain in zip(Player, gains, strict=True) if gain == MAX_GAIN}
    winner = winners.pop() if len(winners) == 1 else None

    points = []
    for index, code in enumerate(board):
        owner = OWNER.get(code)
        if code in "56" and owner is not None:
            point = Point(index, EMPTY, before=STONE[owner], captured=owner)
        elif code in "34" and owner is not None and last:
            point = Point(index, code, before=STONE[owner])
        else:
            point = PLAIN_POINTS[index][code]
        if index in last:
            point = Point(point.number, point.state, point.before, point.captured, last[index])
        points.append(point)

    shown = "".join(point.state for point in points)
    over = winner is not None or tray is None or EMPTY not in shown
    playable: tuple[str, ...] = ()
    if ctx.method not in (Method.END, Method.NONE) and not over:
        playable = tuple(POINT_NAMES[index] for index, code in enumerate(shown) if code == EMPTY)
    player: Player | None = ctx.input
    if player is None and ctx.webtest:
        player = player_to_move(shown, gains[0] or 0, gains[1] or 0)
    return PenteView(
        tray=shown,
        player=player if playable else None,
        playable=playable,
        errors=tuple(errors),
        sound="win" if winner else ("move" if last else None),
        points=tuple(points),
        gains=(gains[0], gains[1]),
        last_moves=tuple((mover, points[index]) for index, mover in last.items()),
        winner=winner,
    )
