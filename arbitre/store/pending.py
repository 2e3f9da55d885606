"""The store's asks awaiting an answer, shared by the workers: an engine request or a
person's ask, recorded so that whichever worker receives the answer takes it (the first
one only, in time), and a worker taking a game over finds an answer received but not yet
applied.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import bindparam, delete, select, update

from tournoyons_gui.arbitre.store.base import Database
from tournoyons_gui.arbitre.store.records import Received, record_of
from tournoyons_gui.arbitre.store.schema import PendingRow

__all__ = ["CLOSE_PENDING", "DETAIL_CAP", "PENDING_KEPT", "PendingStore"]

#: How long an ask is kept after its deadline, so that a late answer is logged against its
#: game by whichever worker receives it.
PENDING_KEPT = dt.timedelta(hours=1)
#: The longest detail kept in the exchange log (a URL, a query, an error).
DETAIL_CAP = 8192


#: A game's open asks closed: their deadline is now (``p_game``, ``p_at``).
CLOSE_PENDING = (
    update(PendingRow)
    .where(PendingRow.game_id == bindparam("p_game"), PendingRow.value.is_(None))
    .values(expires_at=bindparam("p_at"))
)


class PendingStore(Database):
    """The asks awaiting an answer (table ``pending``)."""

    async def expect(
        self, key: str, move_id: str, game_id: str, seat: int, expires_at: dt.datetime
    ) -> Received | None:
        """Record that (``key``, ``move_id``) is asked until ``expires_at``; return it when
        its value was already received (a game taken over: apply it, ask nothing)."""
        async with self.session() as session:
            row = await session.get(PendingRow, (key, move_id), with_for_update=True)
            if row is not None and row.value is not None:
                return record_of(Received, row)
            if row is None:
                session.add(
                    PendingRow(
                        key=key,
                        move_id=move_id,
                        game_id=game_id,
                        seat=seat,
                        expires_at=expires_at,
                        value=None,
                        query="",
                        redirect=False,
                    )
                )
            else:
                row.expires_at = expires_at
            return None

    async def answer(
        self, key: str, move_id: str, value: str, query: str, *, redirect: bool = False
    ) -> tuple[str, Received | None]:
        """Record the answer to (``key``, ``move_id``) if it is the first one and in time.

        Returns ``("taken", ask)``, or ``("duplicate" | "late", ask)`` and changes nothing,
        or ``("unknown", None)`` when nothing was asked under that name (decision 9)."""
        at = self.now()
        async with self.session() as session:
            done = await session.execute(
                update(PendingRow)
                .where(
                    PendingRow.key == key,
                    PendingRow.move_id == move_id,
                    PendingRow.value.is_(None),
                    PendingRow.expires_at > at,
                )
                .values(value=value, query=query[:DETAIL_CAP], redirect=redirect, received_at=at)
            )
            row = await session.get(PendingRow, (key, move_id))
            found = None if row is None else record_of(Received, row)
            if getattr(done, "rowcount", 0) == 1:
                return "taken", found
        if found is None:
            return "unknown", None
        return ("duplicate" if found.value is not None else "late"), found

    async def pending(self, key: str, move_id: str) -> Received | None:
        """Return the ask (``key``, ``move_id``), fresh from the database."""
        async with self.sessions() as session:
            row = await session.get(PendingRow, (key, move_id), populate_existing=True)
            return None if row is None else record_of(Received, row)

    async def asked_move(self, key: str) -> int | None:
        """Return the move number asked now of the person seat ``key`` (its token)."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(PendingRow.move_id).where(
                    PendingRow.key == key,
                    PendingRow.value.is_(None),
                    PendingRow.expires_at > self.now(),
                )
            )
            numbers = [int(m) for m in rows if m.isdigit()]
            return max(numbers) if numbers else None

    async def close_pending(self, game_id: str) -> None:
        """End a finished game's asks: their deadline is now, so an answer arriving later,
        at any worker, is refused as late and logged against the game (until
        :meth:`purge_pending` forgets them)."""
        named = {"p_game": game_id, "p_at": self.now()}
        await self.write(lambda connection: connection.execute(CLOSE_PENDING, named))

    async def purge_pending(self, after: dt.timedelta = PENDING_KEPT) -> int:
        """Forget the asks whose deadline passed more than ``after`` ago (answered or not);
        return how many. A late answer to one of them is then unknown (404, not logged)."""
        async with self.session() as session:
            done = await session.execute(
                delete(PendingRow).where(PendingRow.expires_at < self.now() - after)
            )
            return int(getattr(done, "rowcount", 0) or 0)
