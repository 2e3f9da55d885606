"""Seafight (battleship): cells, ships, fleets and shots, the syntax of manual chapter V.

The board is 10x10, columns ``A``..``J`` left to right, rows ``0``..``9`` top to bottom; a
cell is named column first (``C5``) and numbered 0..99 row by row (``index = 10 * row +
column``).

- A ship (``Navire``) is 5 characters: direction ``V``/``H``, size ``2``..``5``, leftmost
  column ``A``..``J``, topmost row ``0``..``9``, state ``1`` intact, ``2`` hit, ``3`` sunk.
  The manual's own example ``V3C5I`` writes the state as the letter ``I``: it is read as
  ``1`` (spec section 4, Decision).
- A fleet (``Flotte``) is ships concatenated, possibly none.
- Shots (``Tirs``) are 100 characters: ``0`` not fired at, ``1`` water, ``2`` hit, ``3`` sunk
  (every cell of a sunk ship).
- A shot with its result (``Valeur``) is a cell and a result: ``C53``.

The fleet a player prepares is the classic one, sizes 5, 4, 3, 3, 2, every ship inside the
board and no two ships on one cell (spec section 4, Decision).

This module is shared by the page's view model
(:mod:`tournoyons_gui.interfaces.seafight.board`) and the rules
(:mod:`tournoyons_gui.interfaces.seafight.rules`).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tournoyons_gui.interfaces.grid import Grid

__all__ = [
    "CELLS",
    "CLASSIC_FLEET",
    "COLUMNS",
    "EMPTY_SHOTS",
    "GRID",
    "SIZE",
    "FleetError",
    "Ship",
    "cell_index",
    "cell_name",
    "check_classic",
    "check_layout",
    "format_fleet",
    "random_fleet",
    "read_cell",
    "read_fleet",
    "read_shot",
    "read_shots",
    "ship_at",
    "ship_state",
    "with_state",
]

COLUMNS = "ABCDEFGHIJ"
GRID = Grid.lettered(COLUMNS, "0123456789")
SIZE, CELLS, EMPTY_SHOTS = GRID.width, GRID.size, GRID.empty
SHOT_CODES = frozenset("0123")

# Ship sizes of the fleet a player prepares, largest first.
CLASSIC_FLEET: tuple[int, ...] = (5, 4, 3, 3, 2)

INTACT, HIT, SUNK = "1", "2", "3"

_SHIP = re.compile(r"([VH])([2-5])([A-J])([0-9])([123I])")


class FleetError(ValueError):
    """A fleet that cannot be read or laid out: the message says why (for logs and tests)."""


#: The name (``A0``..``J9``) of the cell numbered ``index`` 0..99.
cell_name = GRID.name
#: The number 0..99 of the cell at ``column``, ``row`` (each 0..9).
cell_index = GRID.at
#: The number 0..99 of a cell written ``C5`` (upper case), or ``None`` if it is not one.
read_cell = GRID.index


def read_shot(value: str | None) -> tuple[int, str] | None:
    """Return ``(cell number, result code)`` of a shot written ``C53``, or ``None``."""
    if value is None or len(value) != 3 or value[2] not in "123":  # water, hit, sunk
        return None
    index = GRID.index(value[:2])
    return None if index is None else (index, value[2])


def read_shots(value: str) -> str | None:
    """Return ``value`` if it is 100 shot codes ``0``..``3``, else ``None``."""
    return GRID.board(value, SHOT_CODES)


@dataclass(frozen=True)
class Ship:
    """One ship: ``vertical``, ``size`` 2..5, top-left ``column``/``row`` 0..9, ``state``.

    ``state`` is ``"1"`` intact, ``"2"`` hit or ``"3"`` sunk. A ship may reach past the
    board's edge as read; :func:`check_layout` says whether a fleet fits.
    """

    vertical: bool
    size: int
    column: int
    row: int
    state: str = INTACT

    @property
    def code(self) -> str:
        """Return the ship in the manual's 5-character syntax (``V3C51``)."""
        return (
            f"{'V' if self.vertical else 'H'}{self.size}{COLUMNS[self.column]}{self.row}"
            f"{self.state}"
        )

    @property
    def inside(self) -> bool:
        """Return whether every cell of the ship is on the board."""
        end = (self.row if self.vertical else self.column) + self.size - 1
        return 0 <= self.column < SIZE and 0 <= self.row < SIZE and end < SIZE

    def cells(self) -> tuple[int, ...]:
        """Return the numbers of the cells the ship covers, head (top or left) first.

        Cells past the board's edge are left out; see :attr:`inside`.
        """
        found = _SHIP_CELLS.get((self.vertical, self.size, self.column, self.row))
        if found is None:  # a ship no fleet can hold (size 1, off the board ...)
            return _cells_of(self.vertical, self.size, self.column, self.row)
        return found


def _cells_of(vertical: bool, size: int, column: int, row: int) -> tuple[int, ...]:
    """Return the cells of the ship at ``column``, ``row`` (:meth:`Ship.cells`)."""
    step_column, step_row = (0, 1) if vertical else (1, 0)
    out = []
    for k in range(size):
        at_column, at_row = column + k * step_column, row + k * step_row
        if at_column < SIZE and at_row < SIZE:
            out.append(cell_index(at_column, at_row))
    return tuple(out)


#: The cells of every ship a fleet can write (``V``/``H``, size 2..5, column and row
#: 0..9), keyed ``(vertical, size, column, row)``: :meth:`Ship.cells` is a look-up.
_SHIP_CELLS: dict[tuple[bool, int, int, int], tuple[int, ...]] = {
    (vertical, size, column, row): _cells_of(vertical, size, column, row)
    for vertical in (False, True)
    for size in range(2, 6)
    for column in range(SIZE)
    for row in range(SIZE)
}


def read_fleet(value: str | None) -> tuple[Ship, ...]:
    """Read a fleet: ships of 5 characters concatenated; empty or ``None`` is no ship.

    Letters are read in any case and the state ``I`` is read as ``1`` (the manual's
    ``V3C5I``). Raises :class:`FleetError` when the text is not whole ships; it does not
    check the layout (:func:`check_layout`). The fleets read last are kept (by their text,
    a bounded cache): a game's two fleets are read at every call of its rules.
    """
    return _read_fleet((value or "").strip().upper())


@functools.lru_cache(maxsize=1024)
def _read_fleet(text: str) -> tuple[Ship, ...]:
    """Return the ships of ``text`` (upper case, stripped): :func:`read_fleet`."""
    if len(text) % 5:
        raise FleetError(f"a fleet is ships of 5 characters, not {len(text)} characters")
    ships = []
    for start in range(0, len(text), 5):
        match = _SHIP.fullmatch(text[start : start + 5])
        if match is None:
            raise FleetError(f"{text[start : start + 5]!r} is not a ship (V3C51)")
        direction, size, column, row, state = match.groups()
        ships.append(
            Ship(
                vertical=direction == "V",
                size=int(size),
                column=COLUMNS.index(column),
                row=int(row),
                state=INTACT if state == "I" else state,
            )
        )
    return tuple(ships)


def check_layout(ships: Iterable[Ship]) -> None:
    """Raise :class:`FleetError` unless every ship is inside the board and none overlap."""
    taken: set[int] = set()
    for ship in ships:
        if not ship.inside:
            raise FleetError(f"{ship.code} reaches past the board's edge")
        cells = set(ship.cells())
        if cells & taken:
            raise FleetError(f"{ship.code} overlaps another ship")
        taken |= cells


def check_classic(ships: Sequence[Ship]) -> None:
    """Raise :class:`FleetError` unless ``ships`` are a legal prepared fleet.

    Legal: the classic sizes 5, 4, 3, 3, 2 (in any order), inside the board, no overlap.
    """
    if sorted(ship.size for ship in ships) != _CLASSIC_SIZES:
        sizes = ", ".join(str(ship.size) for ship in ships) or "none"
        raise FleetError(f"the fleet is ships of sizes 5, 4, 3, 3, 2, not {sizes}")
    check_layout(ships)


#: The classic fleet's sizes in increasing order: :func:`check_classic` compares with them.
_CLASSIC_SIZES = sorted(CLASSIC_FLEET)


def format_fleet(ships: Iterable[Ship]) -> str:
    """Return ships in the manual's syntax, concatenated."""
    return "".join(ship.code for ship in ships)


def ship_at(ships: Iterable[Ship], index: int) -> Ship | None:
    """Return the ship covering cell ``index``, or ``None``."""
    for ship in ships:
        if index in ship.cells():
            return ship
    return None


def random_fleet(
    rng: random.Random | None = None, sizes: Sequence[int] = CLASSIC_FLEET
) -> tuple[Ship, ...]:
    """Return a random legal fleet of ``sizes``, every ship intact.

    Each ship is drawn uniformly among the positions still free; with the classic fleet a
    free position always remains, so this never fails.
    """
    rng = rng or random.Random()
    ships: list[Ship] = []
    taken: set[int] = set()
    for size in sizes:
        options = [
            ship
            for vertical in (False, True)
            for row in range(SIZE - (size - 1 if vertical else 0))
            for column in range(SIZE - (0 if vertical else size - 1))
            if not set((ship := Ship(vertical, size, column, row)).cells()) & taken
        ]
        if not options:
            raise FleetError("no room left for a ship")
        chosen = rng.choice(options)
        ships.append(chosen)
        taken |= set(chosen.cells())
    return tuple(ships)


def with_state(ship: Ship, state: str) -> Ship:
    """Return ``ship`` with ``state``."""
    return Ship(ship.vertical, ship.size, ship.column, ship.row, state)


def ship_state(ship: Ship, shots: str) -> str:
    """Return the state ``ship`` is in on a board fired at with ``shots``.

    Sunk when every cell of it is ``3``; at least hit when one is ``2`` or ``3``; else the
    state the fleet gives (which may already say hit or sunk).
    """
    cut = _SHIP_SLICES.get((ship.vertical, ship.size, ship.column, ship.row))
    if cut is not None and len(shots) == CELLS:  # the ship's cells: one slice of the shots
        codes: str | list[str] = shots[cut]
    else:
        codes = [shots[index] for index in ship.cells()]
    if codes and codes.count(SUNK) == len(codes):
        return SUNK
    if HIT in codes or SUNK in codes:
        return max(ship.state, HIT)
    return ship.state


#: The cells of every ship inside the board as a slice of a board's 100 codes (``step``
#: 10 for a vertical ship), keyed as :data:`_SHIP_CELLS`.
_SHIP_SLICES: dict[tuple[bool, int, int, int], slice] = {
    key: slice(cells[0], cells[-1] + 1, cells[1] - cells[0])
    for key, cells in _SHIP_CELLS.items()
    if len(cells) == key[1]
}
