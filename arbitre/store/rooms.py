"""The store's timi rooms (``timi-rooms.md``): each room held by one worker's lease (the
worker whose IRC session is in it), every room ever opened kept (its number never used
again), and the workers that referee rooms, so that they share them evenly."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError

from tournoyons_gui.arbitre.store.base import aware
from tournoyons_gui.arbitre.store.records import Game, Room, record_of
from tournoyons_gui.arbitre.store.schema import GameRow, RoomRefereeRow, RoomRow
from tournoyons_gui.arbitre.store.tournaments import TournamentStore

__all__ = ["OPEN_TRIES", "RoomStore"]

#: Tries at opening a slot's room with the next number when other workers take numbers
#: meanwhile.
OPEN_TRIES = 5


class RoomStore(TournamentStore):
    """Rooms, their leases, and the workers refereeing them."""

    async def referee_alive(self, name: str, seconds: float) -> int:
        """Say that worker ``name`` referees rooms for ``seconds`` more; return how many
        workers do now (itself included)."""
        at = self.now()
        async with self.session() as session:
            row = await session.get(RoomRefereeRow, name, with_for_update=True)
            until = at + dt.timedelta(seconds=seconds)
            if row is None:
                session.add(RoomRefereeRow(name=name, until=until))
            else:
                row.until = until
            await session.flush()
            alive = await session.scalar(
                select(func.count()).select_from(RoomRefereeRow).where(RoomRefereeRow.until > at)
            )
            return max(1, int(alive or 0))

    async def referee_gone(self, name: str) -> None:
        """Say that worker ``name`` referees no room any more, and give up its rooms."""
        async with self.session() as session:
            row = await session.get(RoomRefereeRow, name)
            if row is not None:
                await session.delete(row)
            await session.execute(
                update(RoomRow)
                .where(RoomRow.lease_owner == name)
                .values(lease_owner=None, lease_until=None)
            )

    async def take_room(self, prefix: str, slot: int, owner: str, seconds: float) -> Room | None:
        """Take the lease of ``slot``'s open room when it is free (no lease, an expired one,
        or ``owner``'s), or open the slot a room with the next number never used; return
        it, or ``None`` when another worker holds it."""
        for _ in range(OPEN_TRIES):
            at = self.now()
            until = at + dt.timedelta(seconds=seconds)
            try:
                async with self.session() as session:
                    row = (
                        await session.scalars(
                            select(RoomRow)
                            .where(
                                RoomRow.prefix == prefix,
                                RoomRow.slot == slot,
                                RoomRow.status == "open",
                            )
                            .with_for_update()
                        )
                    ).one_or_none()
                    if row is not None:
                        free = (
                            row.lease_until is None
                            or aware(row.lease_until) < at
                            or row.lease_owner == owner
                        )
                        if not free:
                            return None
                        row.lease_owner, row.lease_until = owner, until
                        return record_of(Room, row)
                    last = await session.scalar(
                        select(func.max(RoomRow.number)).where(RoomRow.prefix == prefix)
                    )
                    number = int(last or 0) + 1
                    row = RoomRow(
                        channel=f"{prefix}{number}",
                        prefix=prefix,
                        number=number,
                        slot=slot,
                        status="open",
                        game_id=None,
                        people={"players": [], "spectators": []},
                        opened_at=at,
                        lease_owner=owner,
                        lease_until=until,
                    )
                    session.add(row)
                    await session.flush()
                    return record_of(Room, row)
            except IntegrityError:
                continue  # another worker opened a room meanwhile: look again
        return None

    async def renew_rooms(
        self, owner: str, seconds: float, people: dict[str, dict[str, Any]]
    ) -> list[str]:
        """Extend ``owner``'s leases of the rooms in ``people`` (channel -> who is in it,
        written as it is); return the channels it still holds."""
        if not people:
            return []
        until = self.now() + dt.timedelta(seconds=seconds)
        held = []
        async with self.session() as session:
            rows = await session.scalars(
                select(RoomRow).where(
                    RoomRow.channel.in_(list(people)),
                    RoomRow.lease_owner == owner,
                    RoomRow.status == "open",
                )
            )
            for row in rows:
                row.lease_until = until
                row.people = people[row.channel]
                held.append(row.channel)
        return held

    async def room_seen(
        self,
        channel: str,
        owner: str,
        people: dict[str, Any],
        referee: str,
        referee_op: bool | None,
    ) -> bool:
        """Write who is in ``channel`` (``people``), its referee's nick and whether it is
        the room's operator, as ``owner`` (its lease holder) sees them now; return whether
        ``owner`` still holds the room (nothing is written otherwise)."""
        statement = (
            update(RoomRow)
            .where(
                RoomRow.channel == channel,
                RoomRow.lease_owner == owner,
                RoomRow.status == "open",
            )
            .values(people=people, referee=referee[:60], referee_op=referee_op)
        )
        return await self.write(lambda connection: connection.execute(statement).rowcount == 1)

    async def room_game(self, channel: str, game_id: str) -> None:
        """Record the game in play in ``channel``."""
        async with self.session() as session:
            await session.execute(
                update(RoomRow).where(RoomRow.channel == channel).values(game_id=game_id)
            )

    async def close_room(self, channel: str, owner: str, *, archive: bool) -> None:
        """Give up ``owner``'s lease of ``channel``; ``archive``: the room is over for good
        (its game played), a new one fills its slot."""
        values: dict[str, Any] = {"lease_owner": None, "lease_until": None}
        if archive:
            values.update(status="archived", closed_at=self.now())
        async with self.session() as session:
            await session.execute(
                update(RoomRow)
                .where(RoomRow.channel == channel, RoomRow.lease_owner == owner)
                .values(**values)
            )

    async def open_rooms(self, prefix: str | None = None) -> list[tuple[Room, Game | None]]:
        """Return the open rooms (of ``prefix``, or all) held by a live lease, by number,
        each with the game it last recorded (``None``: none yet), in one query."""
        at = self.now()
        async with self.sessions() as session:
            query = (
                select(RoomRow, GameRow)
                .outerjoin(GameRow, GameRow.id == RoomRow.game_id)
                .where(
                    RoomRow.status == "open",
                    RoomRow.lease_until.is_not(None),
                    RoomRow.lease_until > at,
                )
            )
            if prefix is not None:
                query = query.where(RoomRow.prefix == prefix)
            rows = await session.execute(query.order_by(RoomRow.prefix, RoomRow.number))
            return [
                (record_of(Room, room), None if game is None else record_of(Game, game))
                for room, game in rows.all()
            ]

    async def rooms_of(self, owner: str) -> list[str]:
        """Return the channels ``owner`` holds a lease on (open rooms)."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(RoomRow.channel).where(
                    RoomRow.lease_owner == owner,
                    RoomRow.status == "open",
                    or_(RoomRow.lease_until.is_(None), RoomRow.lease_until > self.now()),
                )
            )
            return list(rows)
