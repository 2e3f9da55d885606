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

from tournoyons_gui.interfaces import grid
from tournoyons_gui.interfaces.plugin import View
from tournoyons_gui.interfaces.protocol import PAIR, Context, ParamError, Player

__all__ = [
    "CENTRE",
    "EMPTY_TRAY",
    "GRID",
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
]

LETTERS = "ABCDEFGHIJKLMNOPQRS"
GRID = grid.Grid.lettered(LETTERS, LETTERS)
SIZE, POINTS, EMPTY_TRAY = GRID.width, GRID.size, GRID.empty
CENTRE = (SIZE // 2) * SIZE + SIZE // 2  # JJ
MAX_GAIN = 5

EMPTY, FORBIDDEN = "0", "9"
CODES = frozenset("01234569")
STONE = {Player.ONE: "1", Player.TWO: "2"}
WINNING = {Player.ONE: "3", Player.TWO: "4"}
CAPTURED = {Player.ONE: "5", Player.TWO: "6"}
# Whose stone a code is (a captured stone is still its owner's until it is removed).
OWNER = {
    "1": Player.ONE,
    "3": Player.ONE,
    "5": Player.ONE,
    "2": Player.TWO,
    "4": Player.TWO,
    "6": Player.TWO,
}
OWN = {player: "".join(code for code, owner in OWNER.items() if owner is player) for player in PAIR}


#: The name of point ``index`` (0..360, row by row from the top): ``AA``..``SS``.
point_name = GRID.name
#: The index 0..360 of a point ``AA``..``SS`` (any case), ``None`` if not one.
read_point = GRID.read


class Point(grid.Cell):
    """One point of the board (:class:`tournoyons_gui.interfaces.grid.Cell`): ``index``
    0..360 row by row from the top, named column letter then row letter (``CH``).

    ``state`` is the code shown once every impact is drawn (a captured stone is then gone:
    ``0``); ``before`` the code shown until ``Wait`` has elapsed: the captured stone, or the
    winning stone as an ordinary one.
    """

    __slots__ = ()

    @property
    def captured(self) -> Player | None:
        """Return whose stone is removed here (shown ``before``, gone after), or ``None``."""
        return OWNER.get(self.before) if self.before and self.state == EMPTY else None


# The point of each index in each plain code, made once: most points of a board are these.
PLAIN_POINTS = Point.table(GRID, CODES)


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
    position = GRID.read_position(
        ctx,
        CODES,
        own=OWN,
        mark=STONE,
        tray_error="Tray is 361 codes 0-6 or 9, or Init",
        move_error="Move is a free or own point AA-SS",
    )
    board, last, errors = position.board, position.moves, position.errors

    gains: list[int | None] = []
    for scorer in PAIR:
        gain = read_gain(ctx.gain(scorer))
        if gain is None:
            errors.append(ParamError(f"gain{scorer}", "Gain is a number of pairs 0-5"))
        gains.append(gain)

    winners = {OWNER[code] for code in board if code in "34"}
    winners |= {scorer for scorer, gain in zip(PAIR, gains, strict=True) if gain == MAX_GAIN}
    winner = winners.pop() if len(winners) == 1 else None

    points = []
    for index, code in enumerate(board):
        owner = OWNER.get(code)
        # A captured stone, or a winning stone a Move made, is first shown as a plain stone.
        delayed = owner is not None and (code in "56" or (code in "34" and bool(last)))
        if not delayed and index not in last:
            points.append(PLAIN_POINTS[index][code])
            continue
        before = STONE[owner] if delayed and owner is not None else None
        state = EMPTY if code in "56" else code
        points.append(Point.on(GRID, index, state, before, last.get(index)))

    shown = "".join(point.state for point in points)
    over = winner is not None or position.tray is None or EMPTY not in shown
    player, playable = GRID.offer(
        ctx, shown, over=over, to_move=lambda: player_to_move(shown, gains[0] or 0, gains[1] or 0)
    )
    return PenteView(
        tray=shown,
        player=player,
        playable=playable,
        errors=tuple(errors),
        sound=position.sound(winner is not None),
        points=tuple(points),
        gains=(gains[0], gains[1]),
        last_moves=tuple((mover, points[index]) for index, mover in last.items()),
        winner=winner,
    )
