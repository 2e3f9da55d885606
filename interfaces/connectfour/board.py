"""ConnectFour: reading ``Tray`` and ``Move1``/``Move2`` into the board drawn on the page.

The board is 7 columns ``A``..``G`` (left to right) by 6 rows ``1``..``6`` counted from
the **bottom** (discs fall); a cell is named column first, ``D1`` being column D's bottom
cell. ``Tray`` is 42 characters, the **bottom row first**, each row from A to G (index =
``(row - 1) * 7 + column``):

- ``0`` empty; ``1`` a disc of player one; ``2`` a disc of player two;
- ``3`` / ``4`` a winning disc of player one / two (pages only: engines see ``0``/``1``/``2``).

``Move1``/``Move2`` is a column letter (the topmost disc of that player in the column) or a
cell holding that player's disc (``D3``). The value a person returns is a column letter.

The game logic here (gravity, the lines of four) is shared with
:mod:`tournoyons_gui.interfaces.connectfour.rules` and the built-in engines.

Sources: spec ``interface-protocol.md`` section 5 (ConnectFour), engine protocol section 4
(ConnectFour); seeds 003 (botsarena) and 004 (timi's "P4").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tournoyons_gui.interfaces import grid
from tournoyons_gui.interfaces.grid import Codes, Lines, cells_of
from tournoyons_gui.interfaces.lines import MARK, OWN, OWNER, WINNING
from tournoyons_gui.interfaces.plugin import View
from tournoyons_gui.interfaces.protocol import PAIR, Context, ParamError, Player

__all__ = [
    "CELL",
    "CODES",
    "COLUMNS",
    "EMPTY_TRAY",
    "GRID",
    "HEIGHT",
    "MARK",
    "OWNER",
    "WIDTH",
    "WINDOWS",
    "WINNING",
    "Cell",
    "ConnectFourView",
    "Line",
    "build",
    "column_of",
    "counts",
    "drop",
    "fours",
    "landing",
    "playable_columns",
    "player_to_move",
    "read_tray",
    "settle",
    "winning_cells",
]

WIDTH, HEIGHT = 7, 6
COLUMNS = "ABCDEFG"
ROWS = "123456"
# Cells in Tray order: A1..G1 (the bottom row), then A2..G2, ... up to A6..G6. The grid's
# ``row`` is therefore counted from the bottom here (0 is row 1), not from the top.
GRID = grid.Grid(WIDTH, HEIGHT, [column + row for row in ROWS for column in COLUMNS])
EMPTY_TRAY = GRID.empty
CODES = "01234"

# Tray codes 0 empty, 1/2 a player's disc, 3/4 a winning one: MARK, WINNING, OWNER, OWN
# (interfaces/lines.py).
# A Tray as the rules and engines see it: winning discs are plain discs.
SETTLED = {"0": "0", "1": "1", "2": "2", "3": "1", "4": "2"}

# The page's geometry (SVG user units): 60-unit cells, the top row's top at y = 68, the
# column A's left at x = 40; a strip above the board for the disc about to drop.
CELL = 60
LEFT = 40
TOP = 68


def _windows() -> tuple[tuple[int, int, int, int], ...]:
    """Every four cells in a line (69 of them): rows, columns and both diagonals."""
    found: list[tuple[int, int, int, int]] = []
    for row in range(HEIGHT):
        for column in range(WIDTH):
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                end_x, end_y = column + 3 * dx, row + 3 * dy
                if 0 <= end_x < WIDTH and 0 <= end_y < HEIGHT:
                    found.append(
                        (
                            GRID.at(column, row),
                            GRID.at(column + dx, row + dy),
                            GRID.at(column + 2 * dx, row + 2 * dy),
                            GRID.at(column + 3 * dx, row + 3 * dy),
                        )
                    )
    return tuple(found)


#: Every line of four cells, as Tray indexes.
WINDOWS = _windows()


def read_tray(tray: str | None) -> str | None:
    """Return the 42-character Tray (``Init`` or absent: the empty board), ``None`` when it
    is not 42 codes ``0``-``4``."""
    return GRID.read_tray(tray, CODES)


def settle(tray: str) -> str:
    """Return a readable ``tray`` with winning discs as plain ones (codes ``0``/``1``/``2``)."""
    return "".join(SETTLED[code] for code in tray)


def counts(tray: str) -> tuple[int, int]:
    """Return the number of discs of player one and of player two on ``tray`` (plain or
    winning: ``1``/``3`` and ``2``/``4``)."""
    return tray.count("1") + tray.count("3"), tray.count("2") + tray.count("4")


def player_to_move(tray: str) -> Player:
    """Return whose turn it is on ``tray``: player one when both have as many discs."""
    ones, twos = counts(tray)
    return Player.ONE if ones <= twos else Player.TWO


def landing(tray: str, column: int) -> int | None:
    """Return the index where a disc dropped in ``column`` (0..6) comes to rest: the cell just
    above the column's topmost disc (any code but ``0``); ``None`` when the column is full."""
    # The column bottom-up is every WIDTH-th code; its height is up to its topmost disc.
    height = len(tray[column : GRID.size : WIDTH].rstrip("0"))
    return None if height == HEIGHT else GRID.at(column, height)


def playable_columns(tray: str) -> tuple[int, ...]:
    """Return the columns (0..6) that are not full, left to right."""
    return tuple(column for column in range(WIDTH) if tray[GRID.at(column, HEIGHT - 1)] == "0")


def column_of(value: str | None) -> int | None:
    """Return the column 0..6 of a column letter ``A``..``G`` (any case), else ``None``."""
    if value is None or len(value) != 1:
        return None
    column = COLUMNS.find(value.upper())
    return None if column < 0 else column


def drop(tray: str, column: int, player: Player) -> tuple[str, int]:
    """Drop ``player``'s disc in ``column`` of ``tray``; return the new Tray and the index
    where it landed. Raises :class:`ValueError` when the column is full."""
    index = landing(tray, column)
    if index is None:
        raise ValueError(f"column {COLUMNS[column]} is full")
    return tray[:index] + MARK[player] + tray[index + 1 :], index


#: Each player's discs, plain or winning, read as a bitboard (bit ``i``: Tray index ``i``).
_DISCS = {player: Codes(OWN[player]) for player in PAIR}
#: The lines of four (:data:`WINDOWS`), found on bitboards.
_FOURS = Lines(GRID, 4, ((1, 0), (0, 1), (1, 1), (1, -1)))


def winning_cells(tray: str, player: Player) -> set[int]:
    """Return the indexes of every disc of ``player`` (plain or winning) in a line of four or
    more on ``tray`` (42 codes); empty when there is none. A few shifts of a bitboard
    (:class:`~tournoyons_gui.interfaces.grid.Lines`) check the 69 lines at once."""
    return set(cells_of(_FOURS.completed(_DISCS[player].bits(tray))))


class Line(tuple[int, int, int, int]):
    """A run of four or more discs of one player in a line: ``(first, last, dx, dy)`` cell
    indexes and the step between them (``dy`` upward). Drawn as a line through the discs."""

    __slots__ = ()

    @property
    def points(self) -> tuple[float, float, float, float]:
        """Return the SVG ``x1, y1, x2, y2`` of the line, from the centre of its first disc to
        the centre of its last."""
        first, last = GRID.places[self[0]], GRID.places[self[1]]
        return (*_centre(first[2], first[1]), *_centre(last[2], last[1]))


def _centre(column: int, row: int) -> tuple[float, float]:
    return LEFT + CELL * column + CELL / 2, TOP + CELL * (HEIGHT - 1 - row) + CELL / 2


def fours(tray: str, player: Player) -> Iterator[Line]:
    """Yield each maximal run of four or more discs of ``player`` on ``tray``, once, in Tray
    order of its first disc."""
    own = OWN[player]
    for index in range(GRID.size):
        if tray[index] not in own:
            continue
        for dx, dy in ((1, 0), (0, 1), (1, 1), (-1, 1)):
            # The run starts here only if the cell before it is not the player's.
            behind = GRID.ray(index, -dx, -dy)
            if behind and tray[behind[0]] in own:
                continue
            run = [index]
            for cell in GRID.ray(index, dx, dy):
                if tray[cell] not in own:
                    break
                run.append(cell)
            if len(run) >= 4:
                yield Line((index, run[-1], dx, dy))


class Cell(grid.Cell):
    """One cell (:class:`tournoyons_gui.interfaces.grid.Cell`): ``index`` 0..41 in Tray order,
    ``row`` 0..5 from the **bottom**, ``column`` 0..6 from the left, named ``A1``..``G6``.

    The disc that just dropped is first shown empty (``before`` ``0``); a winning disc after
    a Move first as a plain one (``before`` ``1``/``2``).
    """

    __slots__ = ()

    @property
    def letter(self) -> str:
        """Return the cell's column letter, the value that plays it."""
        return COLUMNS[self.column]

    @property
    def x(self) -> int:
        """Return the left of the cell on the page (SVG user units)."""
        return LEFT + CELL * self.column

    @property
    def y(self) -> int:
        """Return the top of the cell on the page (SVG user units); row 6 is at the top."""
        return TOP + CELL * (HEIGHT - 1 - self.row)


PLAIN_CELLS = Cell.table(GRID, CODES)


@dataclass(frozen=True, kw_only=True)
class ConnectFourView(View):
    """The board as drawn.

    - ``cells``: the 42 cells in Tray order (bottom row first); :attr:`top_down` is the order
      the page lays them out (the top row first, so that keyboard arrows move as seen).
    - ``lines``: the runs of four drawn through the winning discs, with ``delayed`` true when
      they light up ``Wait`` tenths after the Move (the ``data-before`` of the page).
    - ``winner``: the player whose winning discs (``3``/``4``) the Tray shows, else ``None``.
    """

    cells: tuple[Cell, ...]
    lines: tuple[tuple[Line, Player], ...] = ()
    delayed: bool = False
    winner: Player | None = None

    @property
    def top_down(self) -> tuple[Cell, ...]:
        """Return the cells row by row from the top (``A6``..``G6``, ..., ``A1``..``G1``)."""
        cells = self.cells
        return tuple(
            cell
            for row in range(HEIGHT - 1, -1, -1)
            for cell in cells[row * WIDTH : row * WIDTH + WIDTH]
        )


def _read_move(board: str | None, value: str, player: Player) -> tuple[bool, int | None]:
    """Read a Move of ``player``: ``(readable, index)``. A column letter names the topmost
    disc of ``player`` in that column, a cell must hold one of their discs; ``index`` is
    ``None`` when ``board`` is unknown (an unreadable Tray) and the Move is well formed.
    ``readable`` is false when the Move is neither a column nor a cell, or points at no disc
    of ``player``."""
    column = column_of(value)
    index = GRID.read(value) if column is None else None
    if column is None and index is None:
        return False, None
    if board is None:
        return True, None
    own = OWN[player]
    if index is not None:
        return board[index] in own, index
    assert column is not None
    for row in range(HEIGHT - 1, -1, -1):
        at = GRID.at(column, row)
        if board[at] in own:
            return True, at
    return False, None


def build(ctx: Context) -> ConnectFourView:
    """Build the page's view model from the Context; never raises.

    An unreadable ``Tray`` draws an empty board with nothing playable and the error code
    ``tray``. An unreadable ``Move1``/``Move2``, or one that points at no disc of that player
    (or at the other Move's disc), is not drawn and gives ``move1``/``move2``. The disc of
    the last Move drops (it is ``0`` until ``Wait`` has elapsed), then the winning discs
    light up. The player asked may play the columns that are not full, unless the game is
    over (a line of four, a full board) or the Method takes no input.
    """
    tray = read_tray(ctx.tray)
    errors: list[ParamError] = []
    if tray is None:
        errors.append(ParamError("tray", "Tray is 42 characters 0-4, bottom row first, or Init"))
    board = tray or EMPTY_TRAY

    moves: dict[int, Player] = {}
    for mover in PAIR:
        raw = ctx.move(mover)
        if raw is None:
            continue
        readable, index = _read_move(tray, raw, mover)
        if not readable or (index is not None and index in moves):
            errors.append(
                ParamError(f"move{mover}", "Move is a column A-G or a cell of the player's disc")
            )
        elif index is not None:
            moves[index] = mover

    # The disc that drops: the only Move shown, or of two the one played last (the player
    # not to move now).
    dropping: int | None = None
    if len(moves) == 1:
        dropping = next(iter(moves))
    elif moves:
        last = player_to_move(board).opponent
        dropping = next(index for index, mover in moves.items() if mover is last)

    winners = {OWNER[code] for code in board if code in "34"}
    winner = winners.pop() if len(winners) == 1 else None
    # The winning discs are the impact of the move that made them: lit Wait tenths later.
    delayed = bool(moves) and winner is not None
    cells: list[Cell] = []
    for i, code in enumerate(board):
        if i == dropping:
            before: str | None = "0"
        elif delayed and code in "34":
            before = MARK[OWNER[code]]
        else:
            before = None
        cells.append(
            PLAIN_CELLS[i][code]
            if before is None and i not in moves
            else Cell.on(GRID, i, code, before, moves.get(i))
        )

    lit = "".join(code if code in "34" else "0" for code in board)
    lines = tuple((line, p) for p in PAIR for line in fours(lit, p))
    settled = settle(board)
    over = (
        tray is None
        or winner is not None
        or bool(winning_cells(settled, Player.ONE) or winning_cells(settled, Player.TWO))
    )
    columns = () if over else playable_columns(board)
    playable = tuple(COLUMNS[c] for c in columns) if ctx.method.takes_input else ()
    player = ctx.input
    if player is None and ctx.webtest and playable:
        player = player_to_move(board)
    return ConnectFourView(
        tray=board,
        player=player if playable else None,
        playable=playable,
        errors=tuple(errors),
        sound="win" if winner is not None else ("move" if moves else None),
        cells=tuple(cells),
        lines=lines,
        delayed=delayed,
        winner=winner,
    )
