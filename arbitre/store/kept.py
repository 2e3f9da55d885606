"""The kept aggregates (issue 34): what a page of a large database reads instead of
counting or scanning rows, kept up to date by the writes that change it (in their
transaction) and filled from the rows already there by :func:`backfill` (the schema 12
upgrade, and ``benchmarks/scale.py`` after its bulk fill).

Each part of the store that keeps one adds its filler to :data:`FILLERS`: a function of a
synchronous SQLAlchemy ``Connection`` inside a transaction, that empties its tables and
fills them anew from the base rows (so that running it twice gives the same result).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection

__all__ = ["FILLERS", "backfill"]

#: The kept aggregates' fillers, in the order they run.
FILLERS: list[Callable[[Connection], None]] = []


def backfill(connection: Connection) -> None:
    """Fill every kept aggregate anew from the base rows (see the module), in the
    caller's transaction."""
    for filler in FILLERS:
        filler(connection)
