"""Seafight's built-in engines: each reads the request an engine receives and answers a fleet
(Turns 1 and 2) or a cell to fire at.

- ``random``: a random legal fleet; then a random cell not fired at yet.
- ``hunter``: a random legal fleet; then, after a hit that did not sink, the neighbours of
  the hit cells (along the line once two hits are aligned); otherwise a random cell of a
  parity pattern (every ship covers at least one cell of a checkerboard colour).

Both read only the engine protocol's parameters (``Turn``: 1 or 2 asks for the fleet;
``Tray``: 200 characters, this engine's own shots then the shots on its own board, or
``Init``), as an outside engine would (engine protocol section 4, SeaFight; decision 17).
"""

from __future__ import annotations

from collections.abc import Mapping

from tournoyons_gui.interfaces.engine_kit import RNG, turn_number
from tournoyons_gui.interfaces.seafight.fleet import (
    CELLS,
    EMPTY_SHOTS,
    HIT,
    SIZE,
    cell_name,
    format_fleet,
    random_fleet,
)


def _fleet_turn(params: Mapping[str, str]) -> bool:
    """Return whether the request asks for the fleet (``Turn`` 1 or 2)."""
    turn = turn_number(params)
    return turn is not None and turn <= 2


def _own_shots(params: Mapping[str, str]) -> str:
    """Return this engine's shots on the opponent's board (the Tray's first 100 codes)."""
    tray = params.get("Tray", "")
    if len(tray) != 2 * CELLS or set(tray) - set("0123"):
        return EMPTY_SHOTS  # Init (or anything unreadable): nothing fired yet
    return tray[:CELLS]


def _fleet() -> str:
    return format_fleet(random_fleet(RNG))


def _free(shots: str) -> list[int]:
    return [i for i, code in enumerate(shots) if code == "0"]


def random_engine(params: Mapping[str, str]) -> str:
    """Answer a random fleet, then a random cell not fired at yet."""
    if _fleet_turn(params):
        return _fleet()
    free = _free(_own_shots(params))
    return cell_name(RNG.choice(free)) if free else "A0"


def _neighbours(index: int) -> list[int]:
    row, column = divmod(index, SIZE)
    out = []
    for d_row, d_column in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + d_row, column + d_column
        if 0 <= r < SIZE and 0 <= c < SIZE:
            out.append(r * SIZE + c)
    return out


def _line_targets(shots: str, hits: set[int]) -> list[int]:
    """Return the free cells extending a line of two or more aligned hits, at both ends."""
    out: set[int] = set()
    for index in hits:
        row, column = divmod(index, SIZE)
        for d_row, d_column in ((0, 1), (1, 0)):
            r, c = row + d_row, column + d_column
            if not (r < SIZE and c < SIZE and r * SIZE + c in hits):
                continue
            for sign in (1, -1):  # walk both ways along the line past the hits
                r, c = row, column
                while 0 <= r < SIZE and 0 <= c < SIZE and shots[r * SIZE + c] == HIT:
                    r, c = r + sign * d_row, c + sign * d_column
                if 0 <= r < SIZE and 0 <= c < SIZE and shots[r * SIZE + c] == "0":
                    out.add(r * SIZE + c)
    return sorted(out)


def hunter_engine(params: Mapping[str, str]) -> str:
    """Answer a random fleet; then hunt around hits not sunk, else fire on a parity pattern."""
    if _fleet_turn(params):
        return _fleet()
    shots = _own_shots(params)
    free = _free(shots)
    if not free:
        return "A0"
    hits = {i for i, code in enumerate(shots) if code == HIT}
    if hits:
        targets = _line_targets(shots, hits) or sorted(
            {n for i in hits for n in _neighbours(i) if shots[n] == "0"}
        )
        if targets:
            return cell_name(RNG.choice(targets))
    parity = [i for i in free if (i // SIZE + i % SIZE) % 2 == 0]
    return cell_name(RNG.choice(parity or free))


ENGINES = {"random": random_engine, "hunter": hunter_engine}
