"""The store's shared counts: the requests counted against the limits, the work
slots held (interface checks running), and the key the lists' cursors are signed with.
Every worker of one database reads and writes the same rows, so N workers on one
PostgreSQL allow exactly what one allows.

Each counted request is **one statement**: an upsert of one row per key counted
(``INSERT ... ON CONFLICT DO UPDATE ... RETURNING``, on PostgreSQL in autocommit, one round
trip; on SQLite in the writer thread), which starts a new window in the same row once the
last one ended. A key is one row whatever its traffic; rows of windows ended are swept
(:meth:`LimitStore.sweep_hits`), so a burst from many addresses leaves no lasting rows.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import Connection, Table, case, delete, select, update

from tournoyons_gui.arbitre.store.base import Database
from tournoyons_gui.arbitre.store.schema import HitRow, MetaRow, SlotRow

__all__ = ["Hit", "LimitStore"]

_HITS = cast(Table, HitRow.__table__)
_SLOTS = cast(Table, SlotRow.__table__)
#: The ``meta`` row holding the key the lists' cursors are signed with.
_PAGING_KEY = "paging_key"

#: A counted key's state after a request: (key, requests in its window, the window's end
#: in seconds since the epoch by the database's clock).
Hit = tuple[str, int, float]


class LimitStore(Database):
    """Requests counted per key (``hits``), slots of work held (``slots``), the paging key."""

    _paging_key: bytes | None = None

    def _upsert(self) -> Any:
        """Return the dialect's ``insert`` that knows ``ON CONFLICT`` (PostgreSQL, SQLite)."""
        if self.engine.dialect.name == "postgresql":
            from sqlalchemy.dialects import postgresql

            return postgresql.insert
        from sqlalchemy.dialects import sqlite

        return sqlite.insert

    def epoch(self) -> float:
        """Return the time now by the database's clock, in seconds since the epoch."""
        return self.now().timestamp()

    async def count_hits(self, keys: Sequence[tuple[str, float]]) -> list[Hit]:
        """Count one request against each ``(key, window)`` (``window`` in seconds) in one
        statement; return each key's count in its window and the window's end, in the
        order asked. A key whose window ended starts a new one with this request."""
        if not keys:
            return []
        at = self.epoch()
        rows = [
            {"key": key[:80], "started": at, "until": at + window, "count": 1}
            for key, window in keys
        ]
        statement = self._upsert()(_HITS).values(rows)
        ended = _HITS.c.until <= statement.excluded.started
        statement = statement.on_conflict_do_update(
            index_elements=[_HITS.c.key],
            set_={
                "count": case((ended, 1), else_=_HITS.c.count + 1),
                "started": case((ended, statement.excluded.started), else_=_HITS.c.started),
                "until": case((ended, statement.excluded.until), else_=_HITS.c.until),
            },
        ).returning(_HITS.c.key, _HITS.c.count, _HITS.c.until)

        def upsert(connection: Connection) -> list[Hit]:
            found = {
                str(key): (int(count), float(until))
                for key, count, until in connection.execute(statement)
            }
            return [(str(row["key"]), *found[str(row["key"])]) for row in rows]

        return await self.statement(upsert)

    async def sweep_hits(self) -> int:
        """Delete the counts whose window ended; return how many."""
        statement = delete(_HITS).where(_HITS.c.until < self.epoch())
        return await self.statement(lambda connection: connection.execute(statement).rowcount)

    async def take_slot(self, kind: str, slots: int, owner: str, seconds: float) -> str | None:
        """Take one of the ``slots`` slots of ``kind`` (``check/1`` ...) for ``owner`` and
        ``seconds``: a free one, one whose holder let it expire, or one ``owner`` holds;
        return its name, or ``None`` when every one is held."""
        at = self.epoch()
        for number in range(1, slots + 1):
            name = f"{kind}/{number}"
            statement = self._upsert()(_SLOTS).values(name=name, owner=owner, until=at + seconds)
            statement = statement.on_conflict_do_update(
                index_elements=[_SLOTS.c.name],
                set_={"owner": statement.excluded.owner, "until": statement.excluded.until},
                where=(_SLOTS.c.until < at) | (_SLOTS.c.owner == owner),
            ).returning(_SLOTS.c.name)

            def take(connection: Connection, statement: Any = statement) -> bool:
                return connection.execute(statement).first() is not None

            if await self.statement(take):
                return name
        return None

    async def renew_slot(self, name: str, owner: str, seconds: float) -> bool:
        """Extend ``owner``'s hold of slot ``name`` by ``seconds`` from now; return whether
        it still held it."""
        statement = (
            update(_SLOTS)
            .where(_SLOTS.c.name == name, _SLOTS.c.owner == owner)
            .values(until=self.epoch() + seconds)
        )
        return await self.statement(lambda connection: connection.execute(statement).rowcount == 1)

    async def release_slot(self, name: str, owner: str) -> None:
        """Give up ``owner``'s slot ``name`` (another worker may take it at once)."""
        statement = delete(_SLOTS).where(_SLOTS.c.name == name, _SLOTS.c.owner == owner)
        await self.statement(lambda connection: connection.execute(statement))

    async def slots_held(self, kind: str) -> int:
        """Return how many slots of ``kind`` are held now."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(SlotRow.name).where(
                    SlotRow.name.like(f"{kind}/%"), SlotRow.until >= self.epoch()
                )
            )
            return len(list(rows))

    async def paging_key(self) -> bytes:
        """Return the key the lists' cursors are signed with: made once for the database
        (the first worker to ask stores it) and the same for every worker, so that a cursor
        given by one worker is read by another."""
        if self._paging_key is not None:
            return self._paging_key
        made = secrets.token_urlsafe(32)
        statement = (
            self._upsert()(MetaRow)
            .values(key=_PAGING_KEY, value=made)
            .on_conflict_do_nothing(index_elements=["key"])
        )
        await self.statement(lambda connection: connection.execute(statement))
        async with self.sessions() as session:
            value = await session.scalar(select(MetaRow.value).where(MetaRow.key == _PAGING_KEY))
        self._paging_key = str(value).encode()
        return self._paging_key
