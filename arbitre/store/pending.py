"""The store's asks awaiting an answer, shared by the workers: an engine request or a
person's ask, recorded so that whichever worker receives the answer takes it (the first
one only, in time), and a worker taking a game over finds an answer received but not yet
applied.
"""

from __future__ import annotations

import datetime as dt
from typing import cast

from sqlalchemy import Connection, Table, bindparam, delete, insert, select, update

from tournoyons_gui.arbitre.store.base import Database
from tournoyons_gui.arbitre.store.records import Received, record_of
from tournoyons_gui.arbitre.store.schema import PendingRow

__all__ = ["CLOSE_PENDING", "DETAIL_CAP", "PENDING_KEPT", "PendingStore"]

#: How long an ask is kept after its deadline, so that a late answer is logged against its
#: game by whichever worker receives it.
PENDING_KEPT = dt.timedelta(hours=1)
#: The longest detail kept in the exchange log (a URL, a query, an error).
DETAIL_CAP = 8192


_PENDING = cast(Table, PendingRow.__table__)
#: An ask, by (``p_key``, ``p_move``).
_ASK = select(_PENDING).where(
    _PENDING.c.key == bindparam("p_key"), _PENDING.c.move_id == bindparam("p_move")
)
#: An ask not answered yet given a new deadline (``p_expires``): asked again.
_EXTEND = (
    update(_PENDING)
    .where(
        _PENDING.c.key == bindparam("p_key"),
        _PENDING.c.move_id == bindparam("p_move"),
        _PENDING.c.value.is_(None),
    )
    .values(expires_at=bindparam("p_expires"))
)
#: The first answer in time to an ask (``p_value``, ``p_query``, ``p_redirect`` at ``p_at``).
_ANSWER = (
    update(_PENDING)
    .where(
        _PENDING.c.key == bindparam("p_key"),
        _PENDING.c.move_id == bindparam("p_move"),
        _PENDING.c.value.is_(None),
        _PENDING.c.expires_at > bindparam("p_at"),
    )
    .values(
        value=bindparam("p_value"),
        query=bindparam("p_query"),
        redirect=bindparam("p_redirect"),
        received_at=bindparam("p_at"),
    )
)
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
        its value was already received (a game taken over: apply it, ask nothing). One
        write (:meth:`write`), grouped with the other games'."""
        values = {
            "key": key,
            "move_id": move_id,
            "game_id": game_id,
            "seat": seat,
            "expires_at": expires_at,
            "value": None,
            "query": "",
            "redirect": False,
        }
        named = {"p_key": key, "p_move": move_id, "p_expires": expires_at}

        def expect(connection: Connection) -> Received | None:
            if connection.execute(_EXTEND, named).rowcount == 1:
                return None  # asked again (a game taken over), not answered yet
            row = connection.execute(_ASK, named).one_or_none()
            if row is not None:
                return record_of(Received, row)  # answered before this worker took over
            connection.execute(insert(_PENDING), [values])
            return None

        return await self.write(expect)

    async def answer(
        self, key: str, move_id: str, value: str, query: str, *, redirect: bool = False
    ) -> tuple[str, Received | None]:
        """Record the answer to (``key``, ``move_id``) if it is the first one and in time.

        Returns ``("taken", ask)``, or ``("duplicate" | "late", ask)`` and changes nothing,
        or ``("unknown", None)`` when nothing was asked under that name (decision 9). One
        write (:meth:`write`)."""
        at = self.now()
        named = {
            "p_key": key,
            "p_move": move_id,
            "p_at": at,
            "p_value": value,
            "p_query": query[:DETAIL_CAP],
            "p_redirect": redirect,
        }

        def answer(connection: Connection) -> tuple[str, Received | None]:
            taken = connection.execute(_ANSWER, named).rowcount == 1
            row = connection.execute(_ASK, named).one_or_none()
            found = None if row is None else record_of(Received, row)
            if taken:
                return "taken", found
            if found is None:
                return "unknown", None
            return ("duplicate" if found.value is not None else "late"), found

        return await self.write(answer)

    async def pending(self, key: str, move_id: str) -> Received | None:
        """Return the ask (``key``, ``move_id``), fresh from the database."""
        named = {"p_key": key, "p_move": move_id}

        def pending(connection: Connection) -> Received | None:
            row = connection.execute(_ASK, named).one_or_none()
            return None if row is None else record_of(Received, row)

        return await self.read(pending)

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
        statement = delete(PendingRow).where(PendingRow.expires_at < self.now() - after)
        return await self.write(lambda connection: int(connection.execute(statement).rowcount))
