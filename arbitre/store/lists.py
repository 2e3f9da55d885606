"""The store's lists read a page at a time (issue 29): games, registered engines,
registered interfaces and tournaments, each in a fixed order along an index, from the
position of the last row of the page before (**keyset paging**: ``WHERE (created_at, id)
< (:at, :id) ORDER BY created_at DESC, id DESC LIMIT n``). A page costs the rows it shows
whatever the list's length or the page's depth, where ``OFFSET`` reads and drops every row
before it. Each read asks for one row more than the page holds, to tell whether a next
page exists without counting.

Also the counts an operator watches (:meth:`ListStore.lease_counts`): the games driven
under a live lease and those waiting for a worker.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import Select, func, select, tuple_

from tournoyons_gui.arbitre.store.base import Database
from tournoyons_gui.arbitre.store.records import (
    Engine,
    Game,
    InterfaceRecord,
    Seat,
    Tournament,
    record_of,
)
from tournoyons_gui.arbitre.store.schema import (
    EngineRow,
    EntrantRow,
    GameRow,
    InterfaceRow,
    SeatRow,
    TournamentRow,
)

__all__ = ["GameList", "ListStore", "Listed", "NewestKey"]

R = TypeVar("R")
#: The position in a list ordered newest first: the last row's (created_at, id).
NewestKey = tuple[dt.datetime, str]


@dataclass(frozen=True)
class Listed(Generic[R]):
    """A page of a list: its ``rows`` and whether more follow the last (``more``)."""

    rows: list[R]
    more: bool


@dataclass(frozen=True)
class GameList:
    """A page of the games list, newest first: the ``games``, each game's ``seats`` by
    game id, and whether more follow (``more``)."""

    games: list[Game]
    seats: dict[str, list[Seat]]
    more: bool


def _games_where(query: Select[Any], set_name: str, seat: str) -> Select[Any]:
    """Return ``query`` filtered by Set (any case) and by a seat's name or URL (a part of
    it, any case)."""
    if set_name:
        query = query.where(func.lower(GameRow.set_name) == set_name.lower())
    if seat:
        pattern = f"%{seat.lower()}%"
        named = func.lower(SeatRow.name).like(pattern) | func.lower(SeatRow.url).like(pattern)
        query = query.where(GameRow.id.in_(select(SeatRow.game_id).where(named)))
    return query


class ListStore(Database):
    """The lists, a page at a time (see the module)."""

    async def games_page(
        self,
        *,
        set_name: str = "",
        seat: str = "",
        after: NewestKey | None = None,
        offset: int = 0,
        limit: int = 25,
    ) -> GameList:
        """Return up to ``limit`` games newest first (``created_at``, then ``id``, both
        descending), filtered by Set and seat (:func:`_games_where`), after the position
        ``after`` (the last game of the page before); ``offset`` skips rows (the old
        ``?page=N`` links only: it reads what it skips)."""
        async with self.sessions() as session:
            query = _games_where(select(GameRow), set_name, seat)
            if after is not None:
                query = query.where(tuple_(GameRow.created_at, GameRow.id) < tuple_(*after))
            query = query.order_by(GameRow.created_at.desc(), GameRow.id.desc())
            rows = list(await session.scalars(query.offset(offset).limit(limit + 1)))
            more = len(rows) > limit
            rows = rows[:limit]
            seats: dict[str, list[Seat]] = {row.id: [] for row in rows}
            if rows:
                for seat_row in await session.scalars(
                    select(SeatRow).where(SeatRow.game_id.in_(list(seats))).order_by(SeatRow.index)
                ):
                    seats[seat_row.game_id].append(record_of(Seat, seat_row))
            return GameList([record_of(Game, r) for r in rows], seats, more)

    async def count_games(self, *, set_name: str = "", seat: str = "") -> int:
        """Return how many games the filters match (the games page says it)."""
        async with self.sessions() as session:
            query = _games_where(select(GameRow.id), set_name, seat)
            total = await session.scalar(select(func.count()).select_from(query.subquery()))
            return int(total or 0)

    async def engines_page(
        self, *, after: str | None = None, limit: int = 50, retired: bool = True
    ) -> Listed[Engine]:
        """Return up to ``limit`` registered engines by name (unique) after the name
        ``after`` (the retired ones too unless told)."""
        async with self.sessions() as session:
            query = select(EngineRow)
            if after is not None:
                query = query.where(EngineRow.name > after)
            if not retired:
                query = query.where(EngineRow.retired.is_(False))
            rows = list(await session.scalars(query.order_by(EngineRow.name).limit(limit + 1)))
            return Listed([record_of(Engine, r) for r in rows[:limit]], len(rows) > limit)

    async def interfaces_page(
        self, *, after: str | None = None, limit: int = 50, retired: bool = True
    ) -> Listed[InterfaceRecord]:
        """Return up to ``limit`` registered interfaces by name (unique) after the name
        ``after`` (the retired ones too unless told)."""
        async with self.sessions() as session:
            query = select(InterfaceRow)
            if after is not None:
                query = query.where(InterfaceRow.name > after)
            if not retired:
                query = query.where(InterfaceRow.retired.is_(False))
            rows = list(await session.scalars(query.order_by(InterfaceRow.name).limit(limit + 1)))
            return Listed([record_of(InterfaceRecord, r) for r in rows[:limit]], len(rows) > limit)

    async def tournaments_page(
        self, *, after: NewestKey | None = None, limit: int = 25
    ) -> Listed[Tournament]:
        """Return up to ``limit`` tournaments newest first (``created_at``, then ``id``,
        both descending) after the position ``after``."""
        async with self.sessions() as session:
            query = select(TournamentRow)
            if after is not None:
                query = query.where(
                    tuple_(TournamentRow.created_at, TournamentRow.id) < tuple_(*after)
                )
            query = query.order_by(TournamentRow.created_at.desc(), TournamentRow.id.desc())
            rows = list(await session.scalars(query.limit(limit + 1)))
            return Listed([record_of(Tournament, r) for r in rows[:limit]], len(rows) > limit)

    async def counts_of(self, tournament_ids: Sequence[str]) -> dict[str, tuple[int, int]]:
        """Return, per tournament of ``tournament_ids`` (a page's), its number of entrants
        and of games over: two grouped counts over those tournaments only."""
        if not tournament_ids:
            return {}
        ids = list(tournament_ids)
        async with self.sessions() as session:
            entrants = await session.execute(
                select(EntrantRow.tournament_id, func.count())
                .where(EntrantRow.tournament_id.in_(ids))
                .group_by(EntrantRow.tournament_id)
            )
            over = await session.execute(
                select(GameRow.tournament_id, func.count())
                .where(GameRow.tournament_id.in_(ids), GameRow.status != "playing")
                .group_by(GameRow.tournament_id)
            )
            ended = {str(tournament): int(count) for tournament, count in over.all()}
            return {
                str(tournament): (int(count), ended.get(str(tournament), 0))
                for tournament, count in entrants.all()
            }

    async def lease_counts(self) -> tuple[int, int]:
        """Return the games in play driven under a live lease (by any worker) and those
        waiting for a worker (no lease, or an expired one): one grouped count."""
        at = self.now()
        live = GameRow.lease_until.is_not(None) & (GameRow.lease_until >= at)
        async with self.sessions() as session:
            rows = await session.execute(
                select(live.label("live"), func.count())
                .where(GameRow.status == "playing")
                .group_by(live)
            )
            counts = {bool(held): int(count) for held, count in rows.all()}
        return counts.get(True, 0), counts.get(False, 0)
