"""The kept aggregates: what a page of a large database reads instead of counting or
scanning rows, kept up to date by the writes that change it (in their transaction) and
filled from the rows already there (the upgrade that adds them, and
``benchmarks/scale.py`` after its bulk load).

Two kinds of fillers:

- :data:`FILLERS`: one pass each over a base table (a grouped count, a copy), a function
  of a synchronous SQLAlchemy ``Connection`` that empties its tables and fills them anew,
  run in one transaction (:func:`backfill`);
- :data:`BATCHED`: fillers too long for one transaction (the registered engines'
  records: a rating replayed game by game), each a :class:`Batched`: ``start`` empties
  its tables, ``step`` fills the next range of keys after a position and returns the
  position reached (``None``: done). Each step commits with its position in
  ``kept_fills``, so that a fill killed (SIGKILL) resumes after the last range it
  committed, nothing lost or doubled, while the server serves: a page whose record is
  not filled yet says so (:func:`filling`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Boolean, Connection, String, Table, delete, insert, select, update
from sqlalchemy.orm import Mapped, mapped_column

from tournoyons_gui.arbitre.store.schema import Base

__all__ = [
    "BATCHED",
    "FILLERS",
    "Batched",
    "KeptFillRow",
    "backfill",
    "fill_step",
    "filling",
    "start_fills",
    "under_way",
]

#: The one-pass fillers, in the order they run.
FILLERS: list[Callable[[Connection], None]] = []


@dataclass(frozen=True)
class Batched:
    """A filler run a range at a time (see the module): ``name`` (its row of
    ``kept_fills``), ``start(connection)`` empties its tables, ``step(connection,
    position)`` fills the next range after ``position`` (``""``: from the first key) and
    returns the position reached, ``None`` once every key is filled."""

    name: str
    start: Callable[[Connection], None]
    step: Callable[[Connection, str], str | None]


#: The batched fillers, in the order they run.
BATCHED: list[Batched] = []


class KeptFillRow(Base):
    """``kept_fills``: a batched filler's progress: the last key it filled
    (``position``, ``""`` none yet) and whether it is ``done``."""

    __tablename__ = "kept_fills"
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    position: Mapped[str] = mapped_column(String(200), default="")
    done: Mapped[bool] = mapped_column(Boolean, default=False)


_FILLS = cast(Table, KeptFillRow.__table__)


def backfill(connection: Connection) -> None:
    """Fill every one-pass aggregate anew from the base rows and start every batched
    filler anew (see the module), in the caller's transaction; the batched fillers' steps
    follow, each in a transaction of its own (:func:`fill_step`)."""
    for filler in FILLERS:
        filler(connection)
    start_fills(connection)


def start_fills(connection: Connection, names: Sequence[str] | None = None) -> None:
    """Start the batched fillers ``names`` (default: every one) anew: their tables
    emptied, their positions at the start."""
    for filler in BATCHED:
        if names is not None and filler.name not in names:
            continue
        filler.start(connection)
        connection.execute(delete(_FILLS).where(_FILLS.c.name == filler.name))
        connection.execute(insert(_FILLS).values(name=filler.name, position="", done=False))


def fill_step(connection: Connection) -> str | None:
    """Run the next step of the first batched filler not done, in the caller's
    transaction (its position written with what it filled); return its name, or
    ``None`` when every filler is done."""
    for filler in BATCHED:
        row = connection.execute(
            select(_FILLS.c.position, _FILLS.c.done).where(_FILLS.c.name == filler.name)
        ).one_or_none()
        if row is None or row.done:
            continue
        reached = filler.step(connection, row.position)
        connection.execute(
            update(_FILLS)
            .where(_FILLS.c.name == filler.name)
            .values(position=reached or row.position, done=reached is None)
        )
        return filler.name
    return None


def under_way(connection: Connection) -> bool:
    """Whether a batched fill is under way (started and not done)."""
    found = connection.execute(select(_FILLS.c.name).where(_FILLS.c.done.is_(False))).first()
    return found is not None


def filling(connection: Connection, name: str) -> str | None:
    """Return how far filler ``name`` got (its last key filled, ``""`` none yet) while it
    is not done, else ``None``: a key above it is not filled yet."""
    row = connection.execute(
        select(_FILLS.c.position, _FILLS.c.done).where(_FILLS.c.name == name)
    ).one_or_none()
    if row is None or row.done:
        return None
    return str(row.position)
