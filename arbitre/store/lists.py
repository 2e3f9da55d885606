"""The store's lists read a page at a time: games, registered engines,
registered interfaces and tournaments, each in a fixed order along an index, from the
position of the last row of the page before (**keyset paging**: ``WHERE (created_at, id)
< (:at, :id) ORDER BY created_at DESC, id DESC LIMIT n``). A page costs the rows it shows
whatever the list's length or the page's depth, where ``OFFSET`` reads and drops every row
before it. Each read asks for one row more than the page holds, to tell whether a next
page exists without counting.

At a million games every filter of the games list is one range of one index:
a Set's games along ``games (set_name, created_at, id)`` (the Set's canonical name, as
games hold it: the web resolves what was asked), a seat's along ``seats``' copies of its
game's time and Set (``(lower(name), created_at, game_id)``, ``(url, ...)`` and the
same led by ``set_name``). A seat filter matches a seat's whole name (any case) or its
whole URL, not a part of either: a part cannot be found along an index in the list's
order. The totals the games page shows are kept per Set (:mod:`.kept_lists`); a seat
filter has none (its page links the next, as every page does).

Also the counts an operator watches (:meth:`ListStore.lease_counts`): the games driven
under a live lease and those waiting for a worker.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from sqlalchemy import Select, func, literal, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from tournoyons_gui.arbitre.store.base import Database
from tournoyons_gui.arbitre.store.kept_lists import SetCountRow, TournamentEndsRow
from tournoyons_gui.arbitre.store.records import (
    Engine,
    Game,
    InterfaceRecord,
    Seat,
    Tournament,
    record_of,
)
from tournoyons_gui.arbitre.store.schema import (
    GAME_IN_PLAY,
    SEAT_NAME_KEY,
    SEAT_URL_KEY,
    URL_KEPT,
    EngineRow,
    EntrantRow,
    GameRow,
    InterfaceRow,
    SeatRow,
    TournamentRow,
)

__all__ = ["MAX_OFFSET", "GameList", "ListStore", "Listed", "NewestKey", "SeatFilter"]

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


#: The games an old ``?page=N`` link reaches (:meth:`ListStore.games_page`'s ``offset``
#: is below it): ``OFFSET`` reads every row it skips, so a page from this deep is empty.
MAX_OFFSET = 1000


@dataclass(frozen=True)
class SeatFilter:
    """The games list's seat filter: a seat named ``name`` (compared in any case: SQL's
    ``lower()``, ASCII letters only on SQLite) or whose URL is ``url``, whole (an
    engine's URL, a built-in engine's name). Either may be ``""`` (not compared)."""

    name: str
    url: str


def _newest(query: Select[Any], at: Any, row_id: Any, after: NewestKey | None) -> Select[Any]:
    """Return ``query`` after the position ``after`` and ordered newest first along the
    columns ``at`` and ``row_id``."""
    if after is not None:
        query = query.where(tuple_(at, row_id) < tuple_(*after))
    return query.order_by(at.desc(), row_id.desc())


def _seat_ranges(set_name: str, seat: SeatFilter) -> list[Select[Any]]:
    """Return the seats' reads a seat filter is made of: each one range of one index of
    ``seats`` (``ix_seats[_set]_name_newest``, ``ix_seats[_set]_url_newest``), giving
    ``(created_at, game_id)``."""
    reads: list[Select[Any]] = []
    conditions = []
    if seat.name:
        conditions.append([func.lower(seat.name) == SEAT_NAME_KEY])
    if seat.url:
        # The index holds a URL's first 500 characters (SEAT_URL_KEY): a shorter URL
        # is matched whole by them alone; a longer one is compared whole too, as an
        # expression (``url || ''``), which SQLite's constant propagation leaves alone
        # (a plain ``url = ?`` would turn the indexed expression into a constant).
        conditions.append([literal(seat.url[:URL_KEPT]) == SEAT_URL_KEY])
        if len(seat.url) >= URL_KEPT:
            conditions[-1].append(SeatRow.url.concat("") == seat.url)
    for condition in conditions:
        query = cast("Select[Any]", select(SeatRow.created_at, SeatRow.game_id))
        query = query.where(*condition)
        if set_name:
            query = query.where(SeatRow.set_name == set_name)
        reads.append(query)
    return reads


async def _seat_matches(
    session: AsyncSession, reads: list[Select[Any]], after: NewestKey | None, want: int
) -> list[tuple[Any, str]]:
    """Return the first ``want`` games (``(created_at, id)``, newest first, each once)
    the seat ``reads`` find after ``after``: each read in order along its index, a chunk
    at a time, until it has given ``want`` games or none are left (a game appears once per
    matching seat: at most its seats' number of rows per game are read)."""
    found: set[tuple[Any, str]] = set()
    for read in reads:
        games: set[str] = set()
        position = after
        while len(games) < want:
            chunk = max(8, 2 * (want - len(games)))
            rows = (
                await session.execute(
                    _newest(read, SeatRow.created_at, SeatRow.game_id, position).limit(chunk)
                )
            ).all()
            for at, game_id in rows:
                games.add(game_id)
                found.add((at, game_id))
            if len(rows) < chunk:
                break
            position = (rows[-1][0], rows[-1][1])
    return sorted(found, reverse=True)[:want]


class ListStore(Database):
    """The lists, a page at a time (see the module)."""

    async def games_page(
        self,
        *,
        set_name: str = "",
        seat: SeatFilter | None = None,
        after: NewestKey | None = None,
        offset: int = 0,
        limit: int = 25,
    ) -> GameList:
        """Return up to ``limit`` games newest first (``created_at``, then ``id``, both
        descending) after the position ``after`` (the last game of the page before),
        filtered by Set (``set_name``: the name as games hold it, the Set's canonical
        name) and by ``seat`` (:class:`SeatFilter`); ``offset`` skips rows (the old
        ``?page=N`` links only), below :data:`MAX_OFFSET` (a page deeper is empty).

        Every filter reads one range of one index in order, newest first: the games'
        ``(created_at, id)`` or ``(set_name, created_at, id)``, the seats' ``(lower(name)
        | url, created_at, game_id)`` or the same led by ``set_name``: a page costs the
        rows it shows (and those ``offset`` skips), whatever the number of games."""
        if offset >= MAX_OFFSET:
            return GameList([], {}, False)
        async with self.sessions() as session:
            if seat is not None and (seat.name or seat.url):
                want = offset + limit + 1
                matched = await _seat_matches(session, _seat_ranges(set_name, seat), after, want)
                matched = matched[offset:]
                ids = [game_id for _, game_id in matched]
                by_id = {
                    row.id: row
                    for row in await session.scalars(select(GameRow).where(GameRow.id.in_(ids)))
                }
                rows = [by_id[game_id] for game_id in ids if game_id in by_id]
            else:
                query = select(GameRow)
                if set_name:
                    query = query.where(GameRow.set_name == set_name)
                query = _newest(query, GameRow.created_at, GameRow.id, after)
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

    async def games_in_play(self, limit: int = 6) -> list[Game]:
        """Return the ``limit`` newest games in play (the front page's), read backwards
        along the index of the games in play (``ix_games_in_play``: the finished games
        are not in it)."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(GameRow)
                .where(GAME_IN_PLAY)
                .order_by(GameRow.created_at.desc(), GameRow.id.desc())
                .limit(limit)
            )
            return [record_of(Game, row) for row in rows]

    async def count_games(self, *, set_name: str = "") -> int:
        """Return how many games the records hold (every status), of Set ``set_name``
        (its name as games hold it) when given: read from the kept ``set_counts``
        (:mod:`.kept_lists`), one row, or the sum of one row per Set; never a count of
        ``games``. A seat filter has no total (see the module)."""
        async with self.sessions() as session:
            query = select(func.coalesce(func.sum(SetCountRow.games), 0))
            if set_name:
                query = query.where(SetCountRow.set_name == set_name)
            return int(await session.scalar(query) or 0)

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
        and of games over: a grouped count of those tournaments' entrants (along
        ``entrants (tournament_id)``) and their kept games over (``tournament_ends``,
        :mod:`.kept_lists`: one row each, never their games)."""
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
                select(TournamentEndsRow.tournament_id, TournamentEndsRow.games).where(
                    TournamentEndsRow.tournament_id.in_(ids)
                )
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
                select(live.label("live"), func.count()).where(GAME_IN_PLAY).group_by(live)
            )
            counts = {bool(held): int(count) for held, count in rows.all()}
        return counts.get(True, 0), counts.get(False, 0)
