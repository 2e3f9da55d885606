"""The store's registered graphical interfaces: registrations with their edit
token, read by id, a page at a time (:mod:`.lists`), or those of one Set
(:meth:`InterfaceStore.interfaces_for`, along the kept ``interface_sets``:
:mod:`.kept_lists`, written with the registration in its transaction)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from tournoyons_gui.arbitre.store.base import Database
from tournoyons_gui.arbitre.store.games import Conflict
from tournoyons_gui.arbitre.store.kept_lists import InterfaceSetRow, interface_set_rows
from tournoyons_gui.arbitre.store.records import InterfaceRecord, record_of
from tournoyons_gui.arbitre.store.schema import InterfaceRow

__all__ = ["InterfaceStore"]


class InterfaceStore(Database):
    """Registered interfaces: add, change with the edit token, list, read."""

    async def add_interface(self, interface: InterfaceRecord) -> None:
        """Store a registration; raise :class:`Conflict` when its name is taken."""
        async with self.sessions() as session:
            taken = await session.scalar(
                select(InterfaceRow.id).where(InterfaceRow.name == interface.name).limit(1)
            )
        if taken is not None:
            raise Conflict(interface.name)
        fields = InterfaceRecord.__dataclass_fields__
        try:
            async with self.session() as session:
                session.add(InterfaceRow(**{n: getattr(interface, n) for n in fields}))
                await session.flush()
                await _set_sets(session, interface.id, interface.sets)
        except IntegrityError as taken_meanwhile:
            raise Conflict(interface.name) from taken_meanwhile

    async def update_interface(
        self, interface_id: str, token: str, changes: Mapping[str, Any]
    ) -> InterfaceRecord:
        """Change a registration's fields ``changes`` (by name) when ``token`` is its edit
        token. Raises ``LookupError`` (no such interface), ``PermissionError`` (wrong
        token), :class:`Conflict` (the new name is taken)."""
        try:
            async with self.session() as session:
                row = await session.get(InterfaceRow, interface_id)
                if row is None:
                    raise LookupError(interface_id)
                if not row.secret or not secrets.compare_digest(
                    token.encode("utf-8", "replace"), row.secret.encode()
                ):
                    raise PermissionError(interface_id)
                for name, value in changes.items():
                    setattr(row, name, value)
                await session.flush()
                if "sets" in changes:
                    await _set_sets(session, interface_id, row.sets)
                return record_of(InterfaceRecord, row)
        except IntegrityError as taken:
            raise Conflict(str(changes.get("name", ""))) from taken

    async def interfaces_for(self, set_name: str, *, limit: int = 200) -> list[InterfaceRecord]:
        """Return up to ``limit`` registered interfaces not retired that draw Set
        ``set_name`` (its canonical name), by name: one range of ``interface_sets``'s key
        and those interfaces' rows, whatever the number of interfaces registered."""
        async with self.sessions() as session:
            query = (
                select(InterfaceRow)
                .join(InterfaceSetRow, InterfaceSetRow.interface_id == InterfaceRow.id)
                .where(InterfaceSetRow.set_name == set_name, InterfaceRow.retired.is_(False))
                .order_by(InterfaceRow.name)
                .limit(limit)
            )
            return [record_of(InterfaceRecord, row) for row in await session.scalars(query)]

    async def interface(self, interface_id: str) -> InterfaceRecord | None:
        """Return a registered interface, or ``None``."""
        async with self.sessions() as session:
            row = await session.get(InterfaceRow, interface_id, populate_existing=True)
            return None if row is None else record_of(InterfaceRecord, row)


async def _set_sets(session: AsyncSession, interface_id: str, sets: Sequence[Any]) -> None:
    """Make ``interface_sets`` say that ``interface_id`` draws ``sets``, in ``session``'s
    transaction (:mod:`.kept_lists`)."""
    await session.execute(
        delete(InterfaceSetRow).where(InterfaceSetRow.interface_id == interface_id)
    )
    rows = interface_set_rows(interface_id, sets)
    if rows:
        await session.execute(insert(InterfaceSetRow), rows)
