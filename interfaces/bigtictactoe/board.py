"""BigTicTacToe (Morpion, 10x10): reading the context into the board drawn on the page.

``Tray`` is 100 characters ``0`` empty, ``1``/``2`` a player's mark, the ten rows top row
first; a cell is a column letter ``A``..``J`` then a row digit ``0``..``9`` (``C5``);
``Gain1``/``Gain2`` are the player's alignments, 4 characters each (``D3H3`` = D3 to H3),
concatenated. Source: manual chapter V, "Morpion"; spec section 4 (BigTicTacToe).

Decisions (where the manual says nothing):

- An alignment is exactly five cells in a row, a column or a diagonal, written by its two
  end cells in either order; it is kept with its first cell in Tray order first. Each of a
  player's alignments must lie on that player's marks (when the Tray is readable) and may
  not share a cell with another of that player's alignments in the same direction (the
  rule of :mod:`tournoyons_gui.interfaces.bigtictactoe.rules`). Any other is not drawn
  nor counted, and the page shows the error ``gain1``/``gain2``; the score shown is the
  number drawn.
- A ``Move`` on an empty cell puts the mover's mark there, as the original TicTacToe page
  does (annex B); on the other player's mark it is an error (``move1``/``move2``).
- The alignments of the last mover that run through their ``Move`` are that move's impact:
  they appear ``Wait`` tenths of a second after the move. When both Moves are given, the
  last mover is player one if they hold more marks than player two, else player two.
- The game is over at ``Method=End`` or on a full board; the winner, the player with more
  alignments, is then shown (none on a tie).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tournoyons_gui.interfaces.grid import Cell, Grid
from tournoyons_gui.interfaces.plugin import View
from tournoyons_gui.interfaces.protocol import PAIR, Context, Method, ParamError, Player

__all__ = [
    "CELLS",
    "DIRECTIONS",
    "EMPTY_TRAY",
    "GRID",
    "LENGTH",
    "MARK",
    "SIZE",
    "Alignment",
    "BigTicTacToeView",
    "Cell",
    "Direction",
    "build",
    "cell_name",
    "line_cells",
    "player_to_move",
    "read_alignment",
    "read_alignments",
    "read_cell",
    "read_tray",
]

# Columns A..J left to right, rows 0..9 top to bottom: A0 top left.
GRID = Grid.lettered("ABCDEFGHIJ", "0123456789")
SIZE, CELLS, EMPTY_TRAY = GRID.width, GRID.size, GRID.empty
CODES = "012"
LENGTH = 5  # cells in an alignment

MARK = {Player.ONE: "1", Player.TWO: "2"}
OWNER = {"1": Player.ONE, "2": Player.TWO}

# (column step, row step) of the four directions, each walking forward in Tray order:
# horizontal, vertical, diagonal (down-right), anti-diagonal (down-left).
Direction = tuple[int, int]
DIRECTIONS: tuple[Direction, ...] = ((1, 0), (0, 1), (1, 1), (-1, 1))


#: The name (``C5``) of the cell at Tray index ``index`` (0..99).
cell_name = GRID.name
#: The Tray index of a cell ``A0``..``J9`` (any case), ``None`` if not one.
read_cell = GRID.read


def line_cells(start: int, direction: Direction, length: int = LENGTH) -> tuple[int, ...]:
    """Return the Tray indexes of ``length`` cells from ``start`` in ``direction``.

    The caller makes sure the line stays on the board (:func:`read_alignment` does).
    """
    step = direction[1] * SIZE + direction[0]
    return tuple(start + k * step for k in range(length))


def read_alignment(text: str) -> tuple[int, Direction] | None:
    """Return ``(first cell in Tray order, direction)`` of a 4-character alignment.

    ``D3H3`` and ``H3D3`` both give ``(33, (1, 0))``. ``None`` when ``text`` is not two
    cells five apart in a row, a column or a diagonal.
    """
    if len(text) != 4:
        return None
    first, last = read_cell(text[:2]), read_cell(text[2:])
    if first is None or last is None:
        return None
    if last < first:
        first, last = last, first
    rows = last // SIZE - first // SIZE
    columns = last % SIZE - first % SIZE
    span = LENGTH - 1
    for direction in DIRECTIONS:
        if (columns, rows) == (direction[0] * span, direction[1] * span):
            return first, direction
    return None


@dataclass(frozen=True)
class Alignment:
    """One alignment of ``player``: five cells from ``start`` (a Tray index) in ``direction``.

    ``new`` is true for an alignment the ``Move`` shown completed: drawn ``Wait`` tenths
    after the move.
    """

    player: Player
    start: int
    direction: Direction
    new: bool = False

    @property
    def cells(self) -> tuple[int, ...]:
        """Return the five Tray indexes, in Tray order."""
        return line_cells(self.start, self.direction)

    @property
    def end(self) -> int:
        """Return the Tray index of the last cell."""
        return self.cells[-1]

    @property
    def code(self) -> str:
        """Return the alignment as the Arbitre writes it, first cell first: ``D3H3``."""
        return cell_name(self.start) + cell_name(self.end)

    @property
    def start_xy(self) -> tuple[int, int]:
        """Return ``(column, row)`` of the first cell."""
        return self.start % SIZE, self.start // SIZE

    @property
    def end_xy(self) -> tuple[int, int]:
        """Return ``(column, row)`` of the last cell."""
        return self.end % SIZE, self.end // SIZE


def read_alignments(
    gain: str | None, player: Player, board: str | None
) -> tuple[tuple[Alignment, ...], bool]:
    """Read ``Gain1``/``Gain2``: return ``(the readable alignments, whether any was not)``.

    ``gain`` is zero or more 4-character alignments concatenated (``None``: zero). An
    alignment is left out when it is not five cells in a line, when ``board`` (the Tray
    drawn, or ``None`` if unknown) does not hold ``player``'s mark on each of its cells, or
    when it shares a cell with an alignment of ``player`` already read in the same
    direction; a trailing piece shorter than 4 characters is left out too. Never raises.
    """
    if not gain:
        return (), False
    found: list[Alignment] = []
    used: set[tuple[int, Direction]] = set()
    bad = False
    for offset in range(0, len(gain), 4):
        read = read_alignment(gain[offset : offset + 4])
        if read is None:
            bad = True
            continue
        alignment = Alignment(player, *read)
        claimed = {(cell, alignment.direction) for cell in alignment.cells}
        on_own_marks = board is None or all(board[i] == MARK[player] for i in alignment.cells)
        if not on_own_marks or claimed & used:
            bad = True
            continue
        used |= claimed
        found.append(alignment)
    return tuple(found), bad


def read_tray(tray: str | None) -> str | None:
    """Return the 100-character Tray (``Init`` or absent: empty), ``None`` if unreadable."""
    return GRID.read_tray(tray, CODES)


def player_to_move(tray: str) -> Player:
    """Return whose turn it is on ``tray``: player one when both have as many marks."""
    return Player.ONE if tray.count("1") <= tray.count("2") else Player.TWO


#: Each cell (:class:`tournoyons_gui.interfaces.grid.Cell`) in each code, made once.
PLAIN_CELLS = Cell.table(GRID, CODES)


@dataclass(frozen=True, kw_only=True)
class BigTicTacToeView(View):
    """The board as drawn: 100 cells, the alignments of both players, the scores.

    ``scores`` are the numbers of alignments drawn for player one and player two;
    ``winner`` is set once the game is over and one player has more alignments.
    """

    cells: tuple[Cell, ...]
    alignments: tuple[Alignment, ...] = ()
    scores: tuple[int, int] = (0, 0)
    winner: Player | None = None


def build(ctx: Context) -> BigTicTacToeView:
    """Build the page's view model from the Context; never raises.

    Errors (``View.errors``): ``tray`` (not 100 characters ``0``/``1``/``2`` nor ``Init``:
    an empty board is drawn and nothing is playable), ``move1``/``move2`` (not a cell, or
    on the other player's mark: not drawn), ``gain1``/``gain2`` (an alignment that could not
    be read: see :func:`read_alignments`). Input is on the empty cells, unless the Method
    is ``End``/``None`` or the game is over.
    """
    position = GRID.read_position(
        ctx,
        CODES,
        own=MARK,
        mark=MARK,
        tray_error="Tray is 100 characters 0, 1 or 2, or Init",
        move_error="Move is an empty or own cell A0-J9",
    )
    tray, board, last, errors = position.tray, position.board, position.moves, position.errors
    moves = {mover: index for index, mover in last.items()}
    shown = "".join(board)

    latest: Player | None = None
    if len(moves) == 1:
        latest = next(iter(moves))
    elif moves:
        latest = Player.ONE if shown.count("1") > shown.count("2") else Player.TWO

    alignments: list[Alignment] = []
    scores: list[int] = []
    for owner in PAIR:
        found, bad = read_alignments(ctx.gain(owner), owner, shown if tray is not None else None)
        if bad:
            errors.append(ParamError(f"gain{owner}", "Gain is alignments of 5 in a line"))
        if owner is latest:
            found = tuple(replace(a, new=moves[owner] in a.cells) for a in found)
        alignments.extend(found)
        scores.append(len(found))

    over = ctx.method is Method.END or (tray is not None and "0" not in shown)
    winner: Player | None = None
    if over and scores[0] != scores[1]:
        winner = Player.ONE if scores[0] > scores[1] else Player.TWO

    cells = tuple(
        Cell.on(GRID, i, code, last_move=last[i]) if i in last else PLAIN_CELLS[i][code]
        for i, code in enumerate(shown)
    )
    player, playable = GRID.offer(
        ctx, shown, over=over or tray is None, to_move=lambda: player_to_move(shown)
    )
    scored = any(a.new for a in alignments)
    return BigTicTacToeView(
        tray=shown,
        player=player,
        playable=playable,
        errors=tuple(errors),
        sound=position.sound(scored or winner is not None),
        cells=cells,
        alignments=tuple(alignments),
        scores=(scores[0], scores[1]),
        winner=winner,
    )
