"""The store's leases: one driver per game, one scheduler per tournament, and the workers
alive with the connections they hold.

A game is driven by the worker holding its **lease** (``games.lease_owner`` and
``lease_until``), renewed while it drives it; a game whose lease expired (its worker died
or gave it up) is taken over by the next worker's scan (:meth:`LeaseStore.orphans`).

Some games cannot be driven by just any worker: their players are reached through a
connection one process holds (a timi room's players over its IRC session, MaitreTarot
clients over their sockets). Such a game is **bound** (``games.bound``: the seat kind)
and, once its players are connected, **held** (``games.holder``: that process's worker).
Each worker says it is alive, and which bound kinds it holds connections of, in
``workers`` (:meth:`LeaseStore.alive`, renewed with its leases): a held game is taken by
no other worker while its holder is alive, even when its lease ran out (a holder that
stalled, or whose renewal failed, keeps its games); a bound game is taken only by a
worker holding its kind (or by any, when none does: its seats then fail at once, and
the game ends with a reason rather than wait forever).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any, cast

from sqlalchemy import Connection, Table, and_, delete, not_, or_, select, update

from tournoyons_gui.arbitre.store.pending import PendingStore
from tournoyons_gui.arbitre.store.schema import (
    GAME_IN_PLAY,
    GameRow,
    TournamentRow,
    WorkerRow,
)

__all__ = ["LeaseStore", "holds_text"]

_GAMES = cast(Table, GameRow.__table__)
_WORKERS = cast(Table, WorkerRow.__table__)


def holds_text(kinds: Iterable[str]) -> str:
    """Return ``workers.holds`` for ``kinds``: each name between commas (``",irc,"``), so
    that one kind is matched whole; ``""`` for none."""
    names = sorted({k for k in kinds if k})
    return f",{','.join(names)}," if names else ""


class LeaseStore(PendingStore):
    """Leases of games and tournaments, and the workers alive (see the module)."""

    # --- the workers alive ------------------------------------------------------------------

    async def alive(self, name: str, seconds: float, holds: Iterable[str] = ()) -> None:
        """Say that worker ``name`` is alive for ``seconds`` more and holds the connections
        of the bound seat kinds ``holds``."""
        until = self.now() + dt.timedelta(seconds=seconds)
        held = holds_text(holds)

        def alive(connection: Connection) -> None:
            changed = connection.execute(
                update(_WORKERS).where(_WORKERS.c.name == name).values(until=until, holds=held)
            )
            if changed.rowcount == 0:
                connection.execute(_WORKERS.insert().values(name=name, until=until, holds=held))

        await self.write(alive)

    async def gone(self, name: str) -> None:
        """Say that worker ``name`` stopped: the games it held are taken over at once."""
        statement = delete(_WORKERS).where(_WORKERS.c.name == name)
        await self.write(lambda connection: connection.execute(statement))

    async def workers_alive(self) -> dict[str, frozenset[str]]:
        """Return the workers alive now, each with the bound kinds it holds."""
        statement = select(_WORKERS.c.name, _WORKERS.c.holds).where(_WORKERS.c.until >= self.now())

        def read(connection: Connection) -> dict[str, frozenset[str]]:
            return {
                str(name): frozenset(k for k in str(holds).split(",") if k)
                for name, holds in connection.execute(statement)
            }

        return await self.read(read)

    async def hold(self, game_id: str, owner: str) -> bool:
        """Make ``owner`` the holder of the bound game ``game_id`` in play (its players'
        connections are now ``owner``'s) unless another worker alive holds it; return
        whether ``owner`` holds it."""
        statement = (
            update(_GAMES)
            .where(_GAMES.c.id == game_id, GAME_IN_PLAY, self._holder_free(owner))
            .values(holder=owner)
        )
        return await self.write(lambda connection: connection.execute(statement).rowcount == 1)

    def _holder_free(self, owner: str) -> Any:
        """Return the condition that a game is not held by a worker alive other than
        ``owner`` (no holder, ``owner`` itself, or a holder whose heartbeat expired)."""
        living = select(_WORKERS.c.name).where(_WORKERS.c.until >= self.now())
        return or_(
            _GAMES.c.holder.is_(None),
            _GAMES.c.holder == owner,
            _GAMES.c.holder.not_in(living),
        )

    # --- leases: one driver per game --------------------------------------------------------

    async def acquire(self, game_id: str, owner: str, seconds: float) -> bool:
        """Take the lease of a game in play for ``seconds`` when it is free, expired or
        already ``owner``'s, and not held by another worker alive; return whether
        ``owner`` holds it."""
        return await self.take_lease(
            GameRow, game_id, "playing", owner, seconds, self._holder_free(owner)
        )

    async def take_lease(
        self,
        table: type[GameRow | TournamentRow],
        key: str,
        status: str,
        owner: str,
        seconds: float,
        *more: Any,
    ) -> bool:
        """Take the lease of row ``key`` of ``table`` (games, tournaments) while its status
        is ``status`` (and the conditions ``more`` hold), for ``seconds``, when it is free,
        expired or already ``owner``'s; return whether ``owner`` holds it (one driver, one
        scheduler at a time)."""
        at = self.now()
        leased = cast(Table, table.__table__)
        statement = (
            update(leased)
            .where(
                leased.c.id == key,
                leased.c.status == status,
                or_(
                    leased.c.lease_until.is_(None),
                    leased.c.lease_until < at,
                    leased.c.lease_owner == owner,
                ),
                *more,
            )
            .values(lease_owner=owner, lease_until=at + dt.timedelta(seconds=seconds))
        )
        return await self.write(lambda connection: connection.execute(statement).rowcount == 1)

    async def renew(self, owner: str, seconds: float, games: Sequence[str]) -> None:
        """Extend the leases ``owner`` holds on ``games`` (those it drives now: a game whose
        driver died is left to expire, and be taken over)."""
        if not games:
            return
        until = self.now() + dt.timedelta(seconds=seconds)
        statement = (
            update(_GAMES)
            .where(_GAMES.c.lease_owner == owner, _GAMES.c.id.in_(list(games)))
            .values(lease_until=until)
        )
        await self.write(lambda connection: connection.execute(statement))

    async def release_game(self, game_id: str, owner: str) -> None:
        """Give up ``owner``'s lease of one game (another worker may take it at once)."""
        statement = (
            update(_GAMES)
            .where(_GAMES.c.id == game_id, _GAMES.c.lease_owner == owner)
            .values(lease_owner=None, lease_until=None)
        )
        await self.write(lambda connection: connection.execute(statement))

    async def release(self, owner: str) -> None:
        """Give up every lease ``owner`` holds (another worker may take them at once)."""

        def release(connection: Connection) -> None:
            for row in (GameRow, TournamentRow):
                table = cast(Table, row.__table__)
                connection.execute(
                    update(table)
                    .where(table.c.lease_owner == owner)
                    .values(lease_owner=None, lease_until=None)
                )

        await self.write(release)

    async def orphans(
        self, limit: int, owner: str = "", holds: Iterable[str] = (), bound: Iterable[str] = ()
    ) -> list[str]:
        """Return up to ``limit`` games in play that no worker drives (no lease, or an
        expired one), oldest first, that worker ``owner`` may take: a game bound to a
        seat kind (``bound``: every kind that binds) only when ``owner`` holds that kind
        (``holds``) or no worker alive does, and never one held by another worker alive."""
        at = self.now()
        living = await self.workers_alive()
        held_elsewhere = {k for name, kinds in living.items() if name != owner for k in kinds}
        unheld = [k for k in bound if k not in held_elsewhere]
        takeable = sorted({*holds, *unheld})
        statement = (
            select(_GAMES.c.id)
            .where(
                GAME_IN_PLAY,
                or_(_GAMES.c.lease_until.is_(None), _GAMES.c.lease_until < at),
                or_(
                    _GAMES.c.bound.is_(None),
                    and_(
                        _GAMES.c.bound.in_(takeable),
                        or_(
                            _GAMES.c.holder.is_(None),
                            _GAMES.c.holder == owner,
                            not_(_GAMES.c.holder.in_(sorted(living))),
                        ),
                    ),
                ),
            )
            .order_by(_GAMES.c.created_at, _GAMES.c.id)
            .limit(limit)
        )
        return await self.read(lambda connection: list(connection.scalars(statement)))
