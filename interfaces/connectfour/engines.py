"""ConnectFour's built-in engines: each reads the request an engine receives and answers a
column letter ``A``..``G``.

- ``random``: a column that is not full, at random.
- ``strong``: a bounded negamax with alpha-beta pruning over bitboards and a transposition
  table, deepened one ply at a time to :data:`DEPTH` plies (up to 4 more while half of
  the :data:`NODE_BUDGET` nodes is left), which plays a winning column at once, blocks the
  opponent's, never fills the cell under an opponent's winning cell when it can help it,
  and orders moves centre first, then by the threats they make. Leaves are scored by the
  cells each player could complete (threats) and the discs in the centre column. A move
  searches at most :data:`NODE_BUDGET` nodes (and :data:`BUDGET_OVERRUN` more, see
  :func:`searched`): about 0.1 s in CPython on a 2-core machine (``benchmarks/arbitre.py``
  prints the figure).

Both read only the engine protocol's parameters (``Tray`` 42 characters ``0``/``1``/``2``,
bottom row first; the side to move is the one with fewer discs, player one on equal
counts, which is also what ``Turn``'s parity says), as an outside engine would (engine
protocol section 4, ConnectFour).
"""

from __future__ import annotations

from collections.abc import Mapping

from tournoyons_gui.interfaces.connectfour.board import (
    COLUMNS,
    EMPTY_TRAY,
    HEIGHT,
    WIDTH,
    landing,
    playable_columns,
)
from tournoyons_gui.interfaces.engine_kit import RNG

__all__ = [
    "BUDGET_OVERRUN",
    "DEPTH",
    "ENGINES",
    "NODE_BUDGET",
    "Position",
    "choose",
    "random_engine",
    "searched",
    "strong_engine",
]


#: The plies ``strong`` looks ahead at least (when the budget allows).
DEPTH = 7
#: Nodes searched per move at most: past it, the deepening stops (the last depth completed
#: is played). A node costs about 10 microseconds in CPython.
NODE_BUDGET = 10_000

# The bitboard: column c holds bits c*7 .. c*7+5 (row 0 at the bottom), bit c*7+6 a
# sentinel always 0, so that the shifts below never wrap a line from one column to the next.
_H1 = HEIGHT + 1
_BOTTOM = sum(1 << (c * _H1) for c in range(WIDTH))
_FULL = _BOTTOM * ((1 << HEIGHT) - 1)
_COLUMN_MASK = tuple(((1 << HEIGHT) - 1) << (c * _H1) for c in range(WIDTH))
_TOP = tuple(1 << (HEIGHT - 1 + c * _H1) for c in range(WIDTH))
_BOTTOM_OF = tuple(1 << (c * _H1) for c in range(WIDTH))
_ORDER = (3, 2, 4, 1, 5, 0, 6)  # centre first
_WIN = 10_000


def _popcount(bits: int) -> int:
    return bin(bits).count("1")


def _wins(bits: int) -> bool:
    """Return whether ``bits`` hold four in a line."""
    for shift in (1, _H1, _H1 - 1, _H1 + 1):
        pairs = bits & (bits >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def _threats(bits: int, mask: int) -> int:
    """Return the empty cells that would complete four for the discs ``bits`` (``mask``: all
    discs on the board)."""
    found = (bits << 1) & (bits << 2) & (bits << 3)  # vertical: three below
    for shift in (_H1, _H1 - 1, _H1 + 1):
        pair = (bits << shift) & (bits << (2 * shift))
        found |= pair & (bits << (3 * shift))
        found |= pair & (bits >> shift)
        pair = (bits >> shift) & (bits >> (2 * shift))
        found |= pair & (bits << shift)
        found |= pair & (bits >> (3 * shift))
    return found & (_FULL ^ mask)


class Position:
    """A position for the side to move: ``mine`` its discs, ``mask`` all discs (bitboards),
    ``moves`` the discs played."""

    __slots__ = ("mask", "mine", "moves")

    def __init__(self, mine: int, mask: int, moves: int) -> None:
        self.mine = mine
        self.mask = mask
        self.moves = moves

    @classmethod
    def from_tray(cls, tray: str) -> Position:
        """Return the position of a Tray of 42 codes ``0``/``1``/``2`` (bottom row first),
        seen by the side to move (player one on equal counts)."""
        ones = twos = 0
        for index, code in enumerate(tray):
            row, column = divmod(index, WIDTH)
            bit = 1 << (column * _H1 + row)
            if code == "1":
                ones |= bit
            elif code == "2":
                twos |= bit
        count_one, count_two = _popcount(ones), _popcount(twos)
        mine = ones if count_one <= count_two else twos
        return cls(mine, ones | twos, count_one + count_two)


def _playable(mask: int) -> list[int]:
    return [c for c in _ORDER if not mask & _TOP[c]]


_EXACT, _LOWER, _UPPER = 0, 1, 2


class _Search:
    """One move's search: the nodes left (:data:`NODE_BUDGET`) and a transposition table
    keyed by ``mine + mask`` (unique per position) -> ``(depth, bound, value)``."""

    __slots__ = ("budget", "table")

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.table: dict[int, tuple[int, int, int]] = {}

    def negamax(self, mine: int, mask: int, moves: int, depth: int, alpha: int, beta: int) -> int:
        """Return the value of the position for the side to move (``mine``, ``mask``),
        searched ``depth`` plies: ``_WIN`` minus the plies to a win, its negation for a
        loss, else a heuristic score well inside those."""
        self.budget -= 1
        if moves == WIDTH * HEIGHT:
            return 0
        reachable = (mask + _BOTTOM) & _FULL  # the cell each column's next disc fills
        own_threats = _threats(mine, mask)
        if own_threats & reachable:
            return _WIN - moves - 1  # a win on this move
        theirs = mine ^ mask
        their_threats = _threats(theirs, mask)
        forced = their_threats & reachable
        if forced & (forced - 1):
            return -(_WIN - moves - 2)  # two threats at once: lost next move
        if depth <= 0 or self.budget <= 0:
            centre = _COLUMN_MASK[3]
            # Threats just above a cell a disc can fill now weigh more.
            above = reachable << 1
            return (
                3 * (_popcount(own_threats) - _popcount(their_threats))
                + 2 * (_popcount(own_threats & above) - _popcount(their_threats & above))
                + _popcount(mine & centre)
                - _popcount(theirs & centre)
            )
        # Never fill the cell right under an opponent's winning cell; block a threat.
        safe = reachable & ~(their_threats >> 1)
        if forced:
            safe &= forced
        if not safe:
            return -(_WIN - moves - 2)  # every move hands the opponent a win
        key = mine + mask
        entry = self.table.get(key)
        if entry is not None and entry[0] >= depth:
            _, bound, stored = entry
            if bound == _EXACT:
                return stored
            if bound == _LOWER and stored > alpha:
                alpha = stored
            elif bound == _UPPER and stored < beta:
                beta = stored
            if alpha >= beta:
                return stored
        start_alpha = alpha
        columns = [c for c in _ORDER if safe & _COLUMN_MASK[c]]
        if depth >= 3 and len(columns) > 1:
            free = _FULL ^ mask
            # The moves that make the most threats first (stable: centre first among equals).
            columns.sort(
                key=lambda c: -_popcount(_threats(mine | (safe & _COLUMN_MASK[c]), mask) & free)
            )
        best = -_WIN
        for column in columns:
            move = safe & _COLUMN_MASK[column]
            value = -self.negamax(theirs, mask | move, moves + 1, depth - 1, -beta, -alpha)
            if value > best:
                best = value
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        if self.budget > 0:
            bound = _UPPER if best <= start_alpha else _LOWER if best >= beta else _EXACT
            self.table[key] = (depth, bound, best)
        return best


#: The most nodes one move may search beyond :data:`NODE_BUDGET`: once the budget is spent,
#: each node still open on the path (at most ``DEPTH`` + 4 plies deep, and the root) visits
#: its remaining columns once more, each as a leaf.
BUDGET_OVERRUN = WIDTH * (DEPTH + 5)


def choose(tray: str, depth: int = DEPTH) -> int:
    """Return the column (0..6) ``strong`` plays on ``tray``: a winning column, else the block
    of the opponent's, else the best by iterative deepening up to ``depth`` plies (further
    while the budget allows), centre first among equals."""
    return searched(tray, depth)[0]


def searched(tray: str, depth: int = DEPTH) -> tuple[int, int]:
    """Return ``(column, nodes)``: the column :func:`choose` plays on ``tray`` and the nodes
    its search visited, at most :data:`NODE_BUDGET` + :data:`BUDGET_OVERRUN` (0 when a
    column is forced: the only one, a win, or the block of the opponent's win). The node
    count is the engine's cost, whatever the machine's speed."""
    position = Position.from_tray(tray)
    mine, mask, moves = position.mine, position.mask, position.moves
    columns = _playable(mask)
    if len(columns) == 1:
        return columns[0], 0
    for column in columns:
        move = (mask + _BOTTOM_OF[column]) & _COLUMN_MASK[column]
        if _wins(mine | move):
            return column, 0
    theirs = mine ^ mask
    for column in columns:
        move = (mask + _BOTTOM_OF[column]) & _COLUMN_MASK[column]
        if _wins(theirs | move):
            return column, 0
    best_column = columns[0]
    search = _Search(NODE_BUDGET)
    limit = max(depth, 2)
    for plies in range(1, WIDTH * HEIGHT - moves + 1):
        if plies > limit and search.budget < NODE_BUDGET // 2:
            break
        scores: list[tuple[int, int]] = []
        alpha = -_WIN - 1
        for column in columns:
            move = (mask + _BOTTOM_OF[column]) & _COLUMN_MASK[column]
            value = -search.negamax(theirs, mask | move, moves + 1, plies - 1, -_WIN - 1, -alpha)
            scores.append((value, column))
            alpha = max(alpha, value)
        if search.budget <= 0 and plies > 1:
            break  # this depth was cut short: keep the last one completed
        top = max(value for value, _ in scores)
        best_column = next(column for value, column in scores if value == top)
        if abs(top) >= _WIN - WIDTH * HEIGHT or plies >= limit + 4:
            break  # a forced end found, or deep enough
        # The best first at the next depth (better pruning; stable among equals).
        ranked = dict((column, value) for value, column in scores)
        columns.sort(key=lambda c: -ranked[c])
    return best_column, NODE_BUDGET - search.budget


def _read(params: Mapping[str, str]) -> str | None:
    """Return the request's Tray (``Init`` or none: the empty board), ``None`` when it is
    not 42 codes ``0``/``1``/``2``."""
    tray = params.get("Tray", "")
    if tray in ("", "Init"):
        return EMPTY_TRAY
    if len(tray) != len(EMPTY_TRAY) or set(tray) - set("012"):
        return None
    return tray


def random_engine(params: Mapping[str, str]) -> str:
    """Answer a column that is not full, at random."""
    tray = _read(params)
    if tray is None:
        return "D"
    columns = [c for c in range(WIDTH) if landing(tray, c) is not None]
    return COLUMNS[RNG.choice(columns)] if columns else "D"


def strong_engine(params: Mapping[str, str]) -> str:
    """Answer the column :func:`choose` finds."""
    tray = _read(params)
    if tray is None or not playable_columns(tray):
        return "D"
    return COLUMNS[choose(tray)]


ENGINES = {"random": random_engine, "strong": strong_engine}
