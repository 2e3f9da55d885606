"""The board Sets' grid: cells named by column and row, a Tray of one code a cell, the Moves.

TicTacToe, BigTicTacToe, Pente, Reversi and Seafight draw a rectangular board whose cells
are numbered row by row from the top left (``index = width * row + column``) and named in
the Set's syntax: a column label then a row label (``C5``, ``CH``), or TicTacToe's numbers
``1``..``9``. Their ``Tray`` is one code a cell in that order (Seafight: one such board per
player), and each ``Move1``/``Move2`` names the cell a player just played. What is each
Set's own (the codes, the start position, the names' alphabet, what a Move may point at,
the directions its lines run in) is given to these functions; what they share is here:

- :class:`Grid`: names to indexes and back (:meth:`Grid.read`, :meth:`Grid.name`), the
  Tray read (:meth:`Grid.read_tray`), the Tray and Moves read into the board drawn
  (:meth:`Grid.read_position`), the cells offered to the player asked (:meth:`Grid.offer`),
  the walk along a line (:meth:`Grid.ray`, :meth:`Grid.run`) and the lines of a given
  length (:meth:`Grid.windows`, :meth:`Grid.through`);
- :class:`Cell`: one cell as a page draws it, hashable, most of them made once;
- :class:`Codes` and :class:`Lines`: the rules' fast path, a board as bitboards (an ``int``
  whose bit ``i`` is cell ``i``) and the lines of a given length found on one with a few
  shifts, where walking the cells in Python cost a Set's ``play`` hundreds of µs.

Sources: manual chapter V (each Set's cells and ``Tray``); spec ``interface-protocol.md``
section 4 (each Set) and annex B (a Move's mark on its cell).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import NamedTuple, Self

from tournoyons_gui.interfaces.protocol import PAIR, Context, ParamError, Player

__all__ = ["Cell", "Codes", "Grid", "Lines", "Position", "cells_of"]


class Grid:
    """A board of ``width`` x ``height`` cells and their names, row by row from the top left.

    Shapes: ``names[index]`` is the name of cell ``index`` (0 .. ``size - 1``);
    ``places[index]`` its ``(name, row, column)``, row 0 at the top, column 0 at the left;
    ``empty`` the board of ``size`` codes ``0``. Every name has the same length. Built once
    per Set, at import.
    """

    __slots__ = (
        "_index",
        "_length",
        "_rays",
        "empty",
        "height",
        "names",
        "places",
        "size",
        "width",
    )

    def __init__(self, width: int, height: int, names: Sequence[str]) -> None:
        if len(names) != width * height or len({len(name) for name in names}) != 1:
            raise ValueError("a grid names its width x height cells, all names as long")
        self.width = width
        self.height = height
        self.size = width * height
        self.empty = "0" * self.size
        self.names = tuple(names)
        self.places = tuple((name, *divmod(index, width)) for index, name in enumerate(self.names))
        self._index = {name: index for index, name in enumerate(self.names)}
        self._length = len(self.names[0])
        self._rays: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}

    @classmethod
    def lettered(cls, columns: str, rows: str) -> Grid:
        """Return the grid whose cell is named by its column's label then its row's:
        ``Grid.lettered("ABCDEFGHIJ", "0123456789")`` names ``A0``, ``B0`` ... ``J9``."""
        return cls(len(columns), len(rows), [column + row for row in rows for column in columns])

    @classmethod
    def numbered(cls, width: int, height: int) -> Grid:
        """Return the grid whose cells are numbered from ``1``: TicTacToe's ``1``..``9``."""
        return cls(width, height, [str(number) for number in range(1, width * height + 1)])

    def drawn(
        self,
        tray: str,
        marks: Mapping[str, str],
        *,
        columns: str = "",
        rows: str = "",
        bottom_up: bool = False,
    ) -> str:
        """Return ``tray`` (one code a cell, row by row from its first) drawn as text for a
        terminal: a line per row, the top one first, each cell its code's mark
        (``marks``; ``.`` for any other code), separated by spaces; each row's label
        (``rows``, one character a row in the Tray's order) on its left and the columns'
        (``columns``) under the last, when given. ``bottom_up``: the Tray's first row is
        the board's bottom (ConnectFour), so it is drawn last."""
        order = range(self.height - 1, -1, -1) if bottom_up else range(self.height)
        lines = []
        for row in order:
            cells = tray[row * self.width : (row + 1) * self.width].ljust(self.width)
            drawn = " ".join(marks.get(code, ".") for code in cells)
            lines.append(f"{rows[row]} {drawn}" if len(rows) == self.height else drawn)
        if len(columns) == self.width:
            lines.append(("  " if len(rows) == self.height else "") + " ".join(columns))
        return "\n".join(lines)

    def name(self, index: int) -> str:
        """Return the name of cell ``index``; ``IndexError`` when it is off the board."""
        return self.names[index]

    def index(self, name: str | None) -> int | None:
        """Return the index of the cell named exactly ``name`` (case counts), else ``None``."""
        return None if name is None else self._index.get(name)

    def read(self, value: str | None) -> int | None:
        """Return the index of the cell ``value`` names in any case (``c5``), else ``None``."""
        if value is None or len(value) != self._length:
            return None
        return self._index.get(value.upper())

    def at(self, column: int, row: int) -> int:
        """Return the index of the cell at ``column``, ``row`` (the caller keeps them on the
        board)."""
        return row * self.width + column

    def ray(self, index: int, dx: int, dy: int) -> tuple[int, ...]:
        """Return the cells met stepping ``dx`` columns and ``dy`` rows at a time from cell
        ``index`` (left out) to the board's edge, nearest first: ``()`` at the edge.
        ``ValueError`` for the step ``(0, 0)``. Each ray is computed once (:meth:`rays`)."""
        return self.rays(dx, dy)[index]

    def rays(self, dx: int, dy: int) -> tuple[tuple[int, ...], ...]:
        """Return :meth:`ray` from each cell, in index order, for the step ``(dx, dy)``;
        computed once a step. ``ValueError`` for the step ``(0, 0)``."""
        rays = self._rays.get((dx, dy))
        if rays is None:
            if dx == dy == 0:
                raise ValueError("a ray steps somewhere")
            width, height = self.width, self.height
            found: list[tuple[int, ...]] = []
            for index in range(self.size):
                row, column = divmod(index, width)
                cells: list[int] = []
                while True:
                    row, column = row + dy, column + dx
                    if not (0 <= row < height and 0 <= column < width):
                        break
                    cells.append(row * width + column)
                found.append(tuple(cells))
            rays = self._rays[(dx, dy)] = tuple(found)
        return rays

    def run(self, board: str, index: int, dx: int, dy: int) -> list[int]:
        """Return the cells along :meth:`ray` that hold ``board[index]``'s code, nearest
        first, up to the first that does not: one side of a line of stones or marks."""
        code = board[index]
        cells: list[int] = []
        for cell in self.ray(index, dx, dy):
            if board[cell] != code:
                break
            cells.append(cell)
        return cells

    def span(self, board: str, index: int, dx: int, dy: int) -> int:
        """Return how many cells the unbroken line of ``board[index]``'s code through
        ``index`` holds along the step ``(dx, dy)``, both ways, ``index`` included: the
        length of :meth:`run` each way plus one, counted without making the lists (most
        lines through a move are short: a rule checks this before collecting them)."""
        code = board[index]
        length = 1
        for cell in self.rays(dx, dy)[index]:
            if board[cell] != code:
                break
            length += 1
        for cell in self.rays(-dx, -dy)[index]:
            if board[cell] != code:
                break
            length += 1
        return length

    def windows(
        self, length: int, directions: Iterable[tuple[int, int]]
    ) -> tuple[tuple[tuple[int, int], tuple[int, ...]], ...]:
        """Return every line of ``length`` cells on the board as ``((dx, dy), cells)``, for
        each direction in order, then from each first cell in index order; ``cells`` are
        the indexes from the first. The lines a built-in engine weighs (BigTicTacToe's and
        Pente's lines of five)."""
        return tuple(
            ((dx, dy), (index, *self.ray(index, dx, dy)[: length - 1]))
            for dx, dy in directions
            for index in range(self.size)
            if len(self.ray(index, dx, dy)) >= length - 1
        )

    def through(
        self, windows: Sequence[tuple[tuple[int, int], tuple[int, ...]]]
    ) -> tuple[tuple[int, ...], ...]:
        """Return, for each cell, the positions in ``windows`` (:meth:`windows`) of the lines
        holding it, in order."""
        through: list[list[int]] = [[] for _ in range(self.size)]
        for position, (_, cells) in enumerate(windows):
            for cell in cells:
                through[cell].append(position)
        return tuple(map(tuple, through))

    def board(self, value: str, codes: Collection[str]) -> str | None:
        """Return ``value`` when it is one code a cell, each among ``codes``, else ``None``."""
        if len(value) == self.size and set(value).issubset(codes):
            return value
        return None

    def read_tray(
        self, tray: str | None, codes: Collection[str], start: str | None = None
    ) -> str | None:
        """Read a ``Tray`` of one code a cell: ``Init`` (any case) or no Tray is ``start``
        (by default :attr:`empty`); ``None`` when it is not :meth:`board` of ``codes``."""
        if tray is None or tray.lower() == "init":
            return start if start is not None else self.empty
        return self.board(tray, codes)

    def holding(self, board: str, code: str) -> tuple[str, ...]:
        """Return the names of the cells of ``board`` whose code is ``code``, row-major (the
        order keyboard navigation visits them)."""
        names = self.names
        return tuple(names[index] for index, held in enumerate(board) if held == code)

    def offer(
        self, ctx: Context, board: str, *, over: bool, to_move: Callable[[], Player]
    ) -> tuple[Player | None, tuple[str, ...]]:
        """Return the player asked and the cells they may play (``View.player`` and
        ``View.playable``): the empty cells (``0``) of ``board``, none once ``over`` or at a
        Method that takes no input. The player is ``Input``, or under ``WebTest`` the player
        to move (``to_move()``); ``None`` when nothing is playable."""
        playable = self.holding(board, "0") if ctx.method.takes_input and not over else ()
        player = ctx.input
        if player is None and ctx.webtest and playable:
            player = to_move()
        return (player if playable else None), playable

    def read_position(
        self,
        ctx: Context,
        codes: Collection[str],
        *,
        start: str | None = None,
        own: Mapping[Player, Collection[str]],
        mark: Mapping[Player, str] | None = None,
        passing: str | None = None,
        tray_error: str,
        move_error: str,
    ) -> Position:
        """Read ``Tray``, then ``Move1`` and ``Move2``: the board drawn and the Moves' cells.

        The Tray is :meth:`read_tray` of ``codes`` and ``start``; one that cannot be read
        gives the error ``tray`` (``tray_error`` for detail), and the empty board is drawn.

        A Move is a cell name in any case (:meth:`read`), or ``passing`` (any case) when
        the Set has a pass (Reversi's ``XX``). It is refused, with the error
        ``move1``/``move2`` (``move_error``), and not drawn, when it is not one, when the
        Tray holds there a code not in ``own[player]`` (nor empty, ``0``, with ``mark``),
        or when the other Move names the same cell. With ``mark`` a Move on an empty cell
        puts ``mark[player]`` there, as annex B does, on an unreadable Tray too; without,
        a Move on an unreadable Tray is read but not drawn (what it points at is unknown).
        """
        tray = self.read_tray(ctx.tray, codes, start)
        errors: list[ParamError] = []
        if tray is None:
            errors.append(ParamError("tray", tray_error))
        board = list(tray or self.empty)
        checked = board if tray is not None or mark is not None else None
        cells: dict[int, Player] = {}
        passed: list[Player] = []
        for mover in PAIR:
            raw = ctx.move(mover)
            if raw is None:
                continue
            if passing is not None and raw.upper() == passing:
                passed.append(mover)
                continue
            index = self.read(raw)
            if index is not None and checked is not None:
                code = checked[index]
                if mark is not None and code == "0":
                    checked[index] = mark[mover]
                elif code not in own[mover] or index in cells:
                    index = None
            if index is None:
                errors.append(ParamError(f"move{mover}", move_error))
            elif checked is not None:
                cells[index] = mover
        return Position(tray, board, cells, tuple(passed), errors)


class Position(NamedTuple):
    """A board read from ``Tray`` and ``Move1``/``Move2`` (:meth:`Grid.read_position`).

    - ``tray``: the Tray read, ``None`` when it could not be;
    - ``board``: the codes drawn, one a cell: the Tray's (:attr:`Grid.empty` when it is
      unreadable) with the marks the Moves put;
    - ``moves``: cell index -> the player whose Move it is, player one's first;
    - ``passed``: the players whose Move is the pass;
    - ``errors``: ``tray``, then the Moves refused.
    """

    tray: str | None
    board: list[str]
    moves: dict[int, Player]
    passed: tuple[Player, ...]
    errors: list[ParamError]

    def sound(self, won: bool) -> str | None:
        """Return the page's sound (``View.sound``): ``"win"`` when ``won``, else
        ``"move"`` when a Move is drawn (a pass too), else ``None``."""
        return "win" if won else ("move" if self.moves or self.passed else None)


class Cell(NamedTuple):
    """One cell of a board as drawn.

    ``index``, ``name``, ``row`` and ``column`` are the cell's place (:attr:`Grid.places`);
    ``state`` is the Tray code shown once every impact is drawn; ``before`` the code shown
    from the move until ``Wait`` has elapsed, or ``None``; ``last_move`` the player whose
    ``Move`` this cell is, or ``None``. A tuple whose every field a template reads at C
    speed and the fragment cache hashes at C speed; a Set's cell type may subclass it with
    properties (``__slots__ = ()``) and draws most cells from its :meth:`table`.
    """

    index: int  # type: ignore[assignment]  # the cell's index, shadowing tuple.index
    name: str
    row: int
    column: int
    state: str
    before: str | None = None
    last_move: Player | None = None

    @classmethod
    def on(
        cls,
        grid: Grid,
        index: int,
        state: str,
        before: str | None = None,
        last_move: Player | None = None,
    ) -> Self:
        """Return cell ``index`` of ``grid`` in ``state``."""
        return cls(index, *grid.places[index], state, before, last_move)

    @classmethod
    def table(cls, grid: Grid, codes: Collection[str]) -> tuple[dict[str, Self], ...]:
        """Return, for each cell of ``grid``, its cell in each plain code of ``codes`` (no
        ``before``, no ``last_move``): made once, so most cells of a page are these shared
        objects, drawn from the fragment cache without even a comparison."""
        return tuple(
            {code: cls.on(grid, index, code) for code in codes} for index in range(grid.size)
        )


class Codes:
    """Some Tray codes (ASCII characters, ``"13"``), to read a board with at C speed.

    :meth:`only` says whether a board holds nothing else (a Tray's syntax), :meth:`bits`
    which cells hold one of them, as a bitboard: an ``int`` whose bit ``i`` (value
    ``1 << i``) is cell ``i`` of the board, its first character bit 0. Made once per Set
    and code, at import. Any other character, non-ASCII included, is none of the codes.
    """

    __slots__ = ("_delete", "_table", "codes")

    def __init__(self, codes: str) -> None:
        if not codes.isascii() or "?" in codes:
            raise ValueError("Tray codes are ASCII characters, never '?'")
        self.codes = codes
        self._delete = codes.encode("ascii")
        self._table = bytes(0x31 if chr(byte) in codes else 0x30 for byte in range(256))

    @staticmethod
    def _bytes(board: str) -> bytes:
        # One byte a character: what Latin-1 cannot spell becomes "?", which no code is.
        return board.encode("latin-1", "replace")

    def only(self, board: str) -> bool:
        """Return whether every character of ``board`` is one of the codes (``""`` too)."""
        return not self._bytes(board).translate(None, self._delete)

    def bits(self, board: str) -> int:
        """Return the cells of ``board`` holding one of the codes: bit ``i`` set when
        ``board[i]`` is one; ``0`` for an empty board."""
        return int(self._bytes(board).translate(self._table)[::-1] or b"0", 2)


def cells_of(bits: int) -> tuple[int, ...]:
    """Return the cells of a bitboard (:class:`Codes`), in index order: ``0b101`` gives
    ``(0, 2)``."""
    cells: list[int] = []
    while bits:
        low = bits & -bits
        cells.append(low.bit_length() - 1)
        bits ^= low
    return tuple(cells)


class Lines:
    """Every line of ``length`` cells of ``grid`` in ``directions``, found on bitboards.

    ``directions`` are ``(dx, dy)`` steps, a line and its reverse being the same line (so
    ``(1, -1)`` and ``(-1, 1)`` name the same diagonals). A line starting at cell ``i``
    with the step ``s`` between its cells' indexes (``dy * width + dx``, taken positive)
    holds the cells ``i``, ``i + s`` ... ``i + (length - 1) s``; a bitboard holds it when
    it holds each cell, which :meth:`completed` checks for every start at once with
    ``length - 1`` shifts per direction, the starts kept to those whose line stays on the
    board (no wrapping from one row to the next). Made once per Set, at import.
    """

    __slots__ = ("_steps", "length")

    def __init__(self, grid: Grid, length: int, directions: Iterable[tuple[int, int]]) -> None:
        if length < 1:
            raise ValueError("a line holds a cell at least")
        self.length = length
        # Each direction once, walking to higher indexes (on a narrow board two directions
        # may share a step: a row and an anti-diagonal 2 cells wide both step by 1).
        steps: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        for dx, dy in directions:
            step = dy * grid.width + dx
            if step < 0:
                dx, dy, step = -dx, -dy, -step
            starts = 0
            for index in range(grid.size):
                if len(grid.ray(index, dx, dy)) >= length - 1:
                    starts |= 1 << index
            steps[(dx, dy)] = (starts, tuple(step * k for k in range(1, length)))
        self._steps = tuple(steps.values())

    def completed(self, bits: int) -> int:
        """Return the cells of every line ``bits`` holds whole (a bitboard, ``0`` when there
        is none): the cells of a line of more than ``length`` too."""
        cells = 0
        for starts, shifts in self._steps:
            found = bits & starts
            for shift in shifts:
                found &= bits >> shift
            if found:
                cells |= found
                for shift in shifts:
                    cells |= found << shift
        return cells
