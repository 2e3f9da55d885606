"""The reads of a registered engine's page and JSON record, each bounded at any number of
games: its records per Set, a page of its opponents, a bounded number of rating points, a
page of its games (keyset on its seats). What they read is kept as games end by
:mod:`.kept_records`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Connection, Select, Table, select, tuple_, union_all

from tournoyons_gui.arbitre.store.base import Database
from tournoyons_gui.arbitre.store.kept_records import (
    OPPONENTS,
    POINTS,
    SETS,
    EndedSeat,
    opponent_of,
    outcome,
)
from tournoyons_gui.arbitre.store.schema import GameRow, SeatRow

__all__ = [
    "OPPONENT_ORDERS",
    "EngineGame",
    "EngineOpponent",
    "EngineSet",
    "RatingPoint",
    "RecordStore",
    "games_page_statement",
    "opponents_statement",
]

_SEATS = cast(Table, SeatRow.__table__)
_GAMES = cast(Table, GameRow.__table__)


@dataclass(frozen=True, slots=True)
class EngineSet:
    """A registered engine's record in one Set: the games ``won``, ``drawn``, ``lost``
    and in ``error``, and its rating (``mu``, ``sigma``, openskill units) after its
    ``rated`` rated games."""

    set_name: str
    won: int
    drawn: int
    lost: int
    error: int
    rated: int
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class EngineOpponent:
    """A registered engine's results against one opponent (every Set): ``opponent`` its
    key (registration, else name), its ``name``, the ``games`` and how they went."""

    opponent: str
    name: str
    sort_name: str
    games: int
    won: int
    drawn: int
    lost: int
    error: int


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A registered engine's rating in a Set after its rated game ``number`` (from 1):
    the game, when it ended, ``mu`` and ``sigma``."""

    number: int
    game_id: str
    at: dt.datetime
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class EngineGame:
    """A finished game of a registered engine as its page lists it: ``seat_id`` (the
    position in the list: newest first), the game, its Set, the engine's seat ``index``,
    the ``opponent``'s name (``""`` none), the ``outcome`` for the engine, the moves, when
    it ended and its tournament."""

    seat_id: int
    game_id: str
    set_name: str
    index: int
    opponent: str
    outcome: str
    moves: int
    ended_at: dt.datetime | None
    tournament_id: str | None


#: The orders of an engine's opponents: by name (A to Z), by games (most first).
OPPONENT_ORDERS = ("name", "games")


def _aware(moment: dt.datetime | None) -> dt.datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=dt.UTC)


def games_page_statement(engine_id: str, before: int | None, limit: int) -> Select[Any]:
    """Return the statement of a page of ``limit`` finished games of a registered engine,
    newest made first, before its seat ``before`` (the ``(registration, id)`` index of
    the seats, then each game by its key)."""
    seats, games = _SEATS, _GAMES
    where = [seats.c.registration == engine_id, games.c.status != "playing"]
    if before is not None:
        where.append(seats.c.id < before)
    return (
        select(
            seats.c.id.label("seat_id"),
            seats.c.index.label("seat_index"),
            games.c.id,
            games.c.set_name,
            games.c.status,
            games.c.result,
            games.c.winner,
            games.c.moves,
            games.c.ended_at,
            games.c.tournament_id,
        )
        .select_from(seats.join(games, games.c.id == seats.c.game_id))
        .where(*where)
        .order_by(seats.c.id.desc())
        .limit(limit)
    )


def opponents_statement(
    engine_id: str, order: str, after: tuple[Any, str] | None, limit: int
) -> Select[Any]:
    """Return the statement of a page of ``limit`` opponents of a registered engine in
    ``order`` (``name`` or ``games``) after the position ``after`` (one of its indexes).
    Raises ``ValueError`` for another order."""
    if order not in OPPONENT_ORDERS:
        raise ValueError(f"order by {' or '.join(OPPONENT_ORDERS)}")
    table = OPPONENTS
    statement = select(table).where(table.c.engine_id == engine_id)
    if order == "name":
        if after is not None:
            statement = statement.where(
                tuple_(table.c.sort_name, table.c.opponent) > tuple_(*after)
            )
        statement = statement.order_by(table.c.sort_name, table.c.opponent)
    else:
        if after is not None:
            statement = statement.where(tuple_(table.c.games, table.c.opponent) < tuple_(*after))
        statement = statement.order_by(table.c.games.desc(), table.c.opponent.desc())
    return statement.limit(limit)


class RecordStore(Database):
    """The reads of a registered engine's page and JSON record, each bounded: its
    records per Set, a page of its opponents, a bounded number of rating points, a page
    of its games (keyset on its seats)."""

    async def engine_sets(self, engine_id: str) -> list[EngineSet]:
        """Return a registered engine's records per Set (by Set name)."""
        statement = select(SETS).where(SETS.c.engine_id == engine_id).order_by(SETS.c.set_name)

        def read(connection: Connection) -> list[EngineSet]:
            return [
                EngineSet(r.set_name, r.won, r.drawn, r.lost, r.error, r.rated, r.mu, r.sigma)
                for r in connection.execute(statement)
            ]

        return await self.read(read)

    async def engine_opponents(
        self,
        engine_id: str,
        *,
        order: str = "name",
        after: tuple[Any, str] | None = None,
        limit: int = 100,
    ) -> tuple[list[EngineOpponent], bool]:
        """Return a page of a registered engine's opponents and whether more follow:
        ``order`` ``name`` (lower-case name, then key) or ``games`` (most first, then
        key), after the position ``after`` (the last row's ``(sort_name, opponent)`` or
        ``(games, opponent)``). Raises ``ValueError`` for another order."""
        statement = opponents_statement(engine_id, order, after, limit + 1)

        def read(connection: Connection) -> list[EngineOpponent]:
            return [
                EngineOpponent(
                    r.opponent, r.name, r.sort_name, r.games, r.won, r.drawn, r.lost, r.error
                )
                for r in connection.execute(statement)
            ]

        rows = await self.read(read)
        return rows[:limit], len(rows) > limit

    async def rating_points(
        self, engine_id: str, rated: Mapping[str, int], most: int
    ) -> dict[str, list[RatingPoint]]:
        """Return at most ``most`` (3 or more) of a registered engine's rating points in
        each Set of ``rated`` (``{Set: its rated games}``), by number, in one read: every
        one when they are that few, else the first, the last and every ``2**level``-th
        between, the level the lowest that keeps them that few: evenly spread, read along
        the ``(engine, Set, level, number)`` index (a bounded range, whatever the number
        of games)."""
        statements = []
        # Only what a point shows (not the engine and its Set's name again on every row):
        # a long history's thousand rows are read in a third less time.
        shown = select(
            POINTS.c.set_name,
            POINTS.c.number,
            POINTS.c.game_id,
            POINTS.c.at,
            POINTS.c.mu,
            POINTS.c.sigma,
        )
        for set_name, count in rated.items():
            level = 0
            while count > most and count >> level > most - 2:
                level += 1
            where = [POINTS.c.engine_id == engine_id, POINTS.c.set_name == set_name]
            statements.append((set_name, shown.where(*where, POINTS.c.level >= level)))
            if level:
                ends = shown.where(*where, POINTS.c.number.in_([1, count]))
                statements.append((set_name, ends))

        # One statement, one round trip: each Set's range, side by side.
        together = union_all(*(statement for _, statement in statements)) if statements else None

        def read(connection: Connection) -> dict[str, list[RatingPoint]]:
            found: dict[str, dict[int, RatingPoint]] = {name: {} for name in rated}
            if together is None:
                return {}
            for set_name, number, game_id, at, mu, sigma in connection.execute(together):
                kept = found.get(set_name)
                if kept is not None:
                    kept[number] = RatingPoint(number, game_id, _aware(at) or at, mu, sigma)
            return {name: [kept[n] for n in sorted(kept)] for name, kept in found.items()}

        return await self.read(read)

    async def engine_games_page(
        self, engine_id: str, *, before: int | None = None, limit: int = 50
    ) -> tuple[list[EngineGame], bool]:
        """Return a page of a registered engine's finished games, newest made first (its
        seats by id: the ``(registration, id)`` index), those before the seat id
        ``before``, and whether more follow."""
        seats = _SEATS
        statement = games_page_statement(engine_id, before, limit + 1)

        def read(connection: Connection) -> list[EngineGame]:
            rows = connection.execute(statement).all()[: limit + 1]
            named: dict[str, list[EndedSeat]] = {}
            if rows:
                for seat in connection.execute(
                    select(
                        seats.c.game_id,
                        seats.c.index.label("seat_index"),
                        seats.c.name,
                        seats.c.registration,
                    )
                    .where(seats.c.game_id.in_({r.id for r in rows}))
                    .order_by(seats.c.game_id, seats.c.index)
                ):
                    named.setdefault(seat.game_id, []).append(
                        EndedSeat(seat.seat_index, seat.name, seat.registration)
                    )
            listed = []
            for r in rows:
                other = opponent_of(named.get(r.id, []), r.seat_index)
                listed.append(
                    EngineGame(
                        r.seat_id,
                        r.id,
                        r.set_name,
                        r.seat_index,
                        "" if other is None else other.name,
                        outcome(r.status, r.result, r.winner, r.seat_index),
                        r.moves,
                        _aware(r.ended_at),
                        r.tournament_id,
                    )
                )
            return listed

        rows = await self.read(read)
        return rows[:limit], len(rows) > limit
