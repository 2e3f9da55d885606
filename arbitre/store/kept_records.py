"""A registered engine's record, kept as its games end: what its page and its
JSON record read instead of every game it played.

Four tables, defined here as :mod:`.kept_lists` defines its own: ``engine_sets`` (per
engine and Set: the games won, drawn, lost and in error, and its openskill rating after
its rated games), ``engine_opponents`` (per engine and opponent, every Set together: the
same counts), ``engine_opponent_ratings`` (each opponent's rating as the engine's record
sees it, per Set) and ``engine_rating_points`` (the engine's rating after each rated
game, per Set, numbered from 1). A game's end updates them in its own transaction
(:func:`keep_game_end`, called by :meth:`~.games.GameStore.finish_game`): a few rows per
registered seat, whatever the number of games before. :func:`fill_records` fills them
anew from the games already there (the schema 12 upgrade, ``Store.backfill_kept``), a
batch of engines at a time.

The rating is the one the record has always shown: openskill's Plackett-Luce model with
its defaults, the engine (seat ``registration``) against each opponent (keyed by its
registration, else its name; ``"?"`` when the game has no other seat), every opponent
starting new in each engine's record and Set; a game in error (not ``over``, or
``result`` ``error``) is counted but not rated; the games in the order they ended (the
upgrade: by ``ended_at``, else ``created_at``, then id). The opponent of a seat is the
game's first other seat in play order.

A game's end locks its engines' ``engine_sets`` rows (in order of engine: no deadlock;
PostgreSQL, SQLite has one writer) before reading their rating and stamping the game's
``ended_at``, so that two games of one engine ending at once are rated one after the
other, in the order of their ``ended_at``. The chart reads a bounded number of points
along an index: each point keeps its ``level`` (the power of two dividing its number).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, cast

from openskill.models import PlackettLuce
from sqlalchemy import (
    Connection,
    DateTime,
    Float,
    Index,
    Integer,
    String,
    Table,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, mapped_column

from tournoyons_gui.arbitre.store.kept import BATCHED, Batched
from tournoyons_gui.arbitre.store.schema import Base, GameRow, SeatRow

__all__ = [
    "NEW_RATING",
    "NO_OPPONENT",
    "OUTCOMES",
    "RECORDS_FILL",
    "EndedSeat",
    "fill_records",
    "fill_records_step",
    "keep_game_end",
    "level_of",
    "outcome",
]

#: The outcomes of a game for one seat, as the record counts them.
OUTCOMES = ("won", "drawn", "lost", "error")
#: The opponent's key in the ratings when a game has no other seat.
NO_OPPONENT = "?"


class EngineSetRow(Base):
    """``engine_sets``: a registered engine's record in one Set, kept as its games end
    (:mod:`.kept_records`): the games won, drawn, lost and in error (an
    unfinished or failed game), its openskill rating (``mu``, ``sigma``) after its
    ``rated`` rated games (errors are not rated), each point kept in
    ``engine_rating_points``. ``engine_id`` is a seat's ``registration``."""

    __tablename__ = "engine_sets"
    engine_id: Mapped[str] = mapped_column(String(12), primary_key=True)
    set_name: Mapped[str] = mapped_column(String(40), primary_key=True)
    won: Mapped[int] = mapped_column(Integer, default=0)
    drawn: Mapped[int] = mapped_column(Integer, default=0)
    lost: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[int] = mapped_column(Integer, default=0)
    rated: Mapped[int] = mapped_column(Integer, default=0)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)


class EngineOpponentRow(Base):
    """``engine_opponents``: a registered engine's results against one opponent, every
    Set together, kept as its games end: ``opponent`` the opponent's key (its
    registration, else its name), ``name`` its name in the first game that ended,
    ``sort_name`` that name in lower case (the order by name), ``games`` and the games
    won, drawn, lost and in error. Read a page at a time by name or by games."""

    __tablename__ = "engine_opponents"
    __table_args__ = (
        Index("ix_engine_opponents_name", "engine_id", "sort_name", "opponent"),
        Index("ix_engine_opponents_games", "engine_id", "games", "opponent"),
    )
    engine_id: Mapped[str] = mapped_column(String(12), primary_key=True)
    opponent: Mapped[str] = mapped_column(String(200), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    sort_name: Mapped[str] = mapped_column(String(200))
    games: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    drawn: Mapped[int] = mapped_column(Integer, default=0)
    lost: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[int] = mapped_column(Integer, default=0)


class EngineOpponentRatingRow(Base):
    """``engine_opponent_ratings``: an opponent's openskill rating as a registered engine's
    record sees it in one Set (every opponent starts new in each engine's record, as the
    record has always computed it), kept so that a game's end updates the engine's rating
    in a few rows."""

    __tablename__ = "engine_opponent_ratings"
    engine_id: Mapped[str] = mapped_column(String(12), primary_key=True)
    set_name: Mapped[str] = mapped_column(String(40), primary_key=True)
    opponent: Mapped[str] = mapped_column(String(200), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)


class EngineRatingPointRow(Base):
    """``engine_rating_points``: a registered engine's rating in one Set after its rated
    game ``number`` (from 1, in the order its games ended): the ``game_id``, when it ended
    (``at``), ``mu`` and ``sigma``. ``level`` is the power of two dividing
    ``number`` (0 for an odd number, 3 for 8, 24, 40 ...): the chart reads the points of a
    level and above, a bounded number of them evenly spread, along its index."""

    __tablename__ = "engine_rating_points"
    __table_args__ = (
        Index("ix_engine_rating_points_level", "engine_id", "set_name", "level", "number"),
    )
    engine_id: Mapped[str] = mapped_column(String(12), primary_key=True)
    set_name: Mapped[str] = mapped_column(String(40), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    level: Mapped[int] = mapped_column(Integer, default=0)
    game_id: Mapped[str] = mapped_column(String(12))
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)


SETS = cast(Table, EngineSetRow.__table__)
OPPONENTS = cast(Table, EngineOpponentRow.__table__)
OPPONENT_RATINGS = cast(Table, EngineOpponentRatingRow.__table__)
POINTS = cast(Table, EngineRatingPointRow.__table__)
_SEATS = cast(Table, SeatRow.__table__)
_GAMES = cast(Table, GameRow.__table__)

_MODEL = PlackettLuce()
_NEW = _MODEL.rating()
#: A new rating (openskill's defaults: 25, 25/3).
NEW_RATING = (float(_NEW.mu), float(_NEW.sigma))
_RANKS = {"won": [1.0, 2.0], "lost": [2.0, 1.0], "drawn": [1.0, 1.0]}
#: Engines read per batch, and rows inserted per statement, by the filler; the seats a
#: batch of engines holds at most (unless one engine has more).
_BATCH = 1000
_BATCH_SEATS = 20_000
#: Seconds between the filler's progress lines (a large database takes minutes).
_SAY_EVERY = 5.0

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class EndedSeat:
    """A seat of a game that ends: its ``index`` in play order, the ``name`` shown and
    its ``registration`` (a registered engine's id, ``""`` none)."""

    index: int
    name: str
    registration: str


def outcome(status: str, result: str, winner: int | None, index: int) -> str:
    """Return what a game ended with ``status``, ``result`` and ``winner`` (a seat index
    or ``None``) is for seat ``index``: ``won``, ``drawn``, ``lost`` or ``error`` (not
    ``over``, or without a result)."""
    if status != "over" or result == "error":
        return "error"
    if winner is None:
        return "drawn"
    return "won" if winner == index else "lost"


def rate(
    mine: tuple[float, float], theirs: tuple[float, float], result: str
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Return the engine's and its opponent's ratings ``(mu, sigma)`` after a game the
    engine ``won``, ``drew`` or ``lost`` (``result``), from ``mine`` and ``theirs``."""
    [[me], [them]] = _MODEL.rate(
        [
            [_MODEL.rating(mu=mine[0], sigma=mine[1])],
            [_MODEL.rating(mu=theirs[0], sigma=theirs[1])],
        ],
        ranks=_RANKS[result],
    )
    return (float(me.mu), float(me.sigma)), (float(them.mu), float(them.sigma))


def level_of(number: int) -> int:
    """Return a rating point's level: the power of two dividing ``number`` (from 1)."""
    return (number & -number).bit_length() - 1


def opponent_of(seats: Sequence[EndedSeat], index: int) -> EndedSeat | None:
    """Return the opponent of seat ``index``: the first other seat in play order."""
    return next((s for s in sorted(seats, key=lambda s: s.index) if s.index != index), None)


def _key(seat: EndedSeat | None) -> str:
    return NO_OPPONENT if seat is None else (seat.registration or seat.name)


def _insert(connection: Connection, table: Table) -> Any:
    """Return an INSERT of ``table`` that knows ``ON CONFLICT`` (PostgreSQL, SQLite)."""
    if connection.dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


def keep_game_end(
    connection: Connection,
    *,
    game_id: str,
    clock: Callable[[], dt.datetime],
    status: str,
    result: str,
    winner: int | None,
    seats: Sequence[EndedSeat],
) -> None:
    """Update the records of the registered engines seated in a game that ends (in the
    caller's transaction, once the game's row is ended): their counts per Set and per
    opponent, and each one's rating in the Set with its new point (see the module).
    Nothing for a game without a registered seat.

    The engines' rows of the Set are locked first (in order of engine), then the game's
    end is stamped by ``clock`` (its ``ended_at`` set again): two games of one engine
    ending at once are rated in the order of their ``ended_at``, the order the upgrade
    and :func:`fill_records` rate them in."""
    mine = sorted((s.registration, s.index) for s in seats if s.registration)
    if not mine:
        return
    set_name = str(connection.scalar(select(_GAMES.c.set_name).where(_GAMES.c.id == game_id)))
    for engine in sorted({engine for engine, _ in mine}):
        connection.execute(
            _insert(connection, SETS)
            .values(
                engine_id=engine,
                set_name=set_name,
                won=0,
                drawn=0,
                lost=0,
                error=0,
                rated=0,
                mu=NEW_RATING[0],
                sigma=NEW_RATING[1],
            )
            .on_conflict_do_nothing()
        )
        connection.execute(
            select(SETS.c.rated)
            .where(SETS.c.engine_id == engine, SETS.c.set_name == set_name)
            .with_for_update()
        )
    at = clock()
    connection.execute(update(_GAMES).where(_GAMES.c.id == game_id).values(ended_at=at))
    for engine, index in mine:
        state = connection.execute(
            select(SETS.c.mu, SETS.c.sigma, SETS.c.rated).where(
                SETS.c.engine_id == engine, SETS.c.set_name == set_name
            )
        ).one()
        other = opponent_of(seats, index)
        got = outcome(status, result, winner, index)
        changes: dict[str, Any] = {got: SETS.c[got] + 1}
        if other is not None:
            counts = {name: int(name == got) for name in OUTCOMES}
            upsert = _insert(connection, OPPONENTS).values(
                engine_id=engine,
                opponent=_key(other),
                name=other.name,
                sort_name=other.name.lower(),
                games=1,
                **counts,
            )
            connection.execute(
                upsert.on_conflict_do_update(
                    index_elements=[OPPONENTS.c.engine_id, OPPONENTS.c.opponent],
                    set_={"games": OPPONENTS.c.games + 1, got: OPPONENTS.c[got] + 1},
                )
            )
        if got != "error":
            key = _key(other)
            where = (
                OPPONENT_RATINGS.c.engine_id == engine,
                OPPONENT_RATINGS.c.set_name == set_name,
                OPPONENT_RATINGS.c.opponent == key,
            )
            found = connection.execute(
                select(OPPONENT_RATINGS.c.mu, OPPONENT_RATINGS.c.sigma).where(*where)
            ).one_or_none()
            theirs = NEW_RATING if found is None else (found.mu, found.sigma)
            now_mine, now_theirs = rate((state.mu, state.sigma), theirs, got)
            if found is None:
                connection.execute(
                    insert(OPPONENT_RATINGS).values(
                        engine_id=engine,
                        set_name=set_name,
                        opponent=key,
                        mu=now_theirs[0],
                        sigma=now_theirs[1],
                    )
                )
            else:
                connection.execute(
                    update(OPPONENT_RATINGS)
                    .where(*where)
                    .values(mu=now_theirs[0], sigma=now_theirs[1])
                )
            number = state.rated + 1
            connection.execute(
                insert(POINTS).values(
                    engine_id=engine,
                    set_name=set_name,
                    number=number,
                    level=level_of(number),
                    game_id=game_id,
                    at=at,
                    mu=now_mine[0],
                    sigma=now_mine[1],
                )
            )
            changes.update(mu=now_mine[0], sigma=now_mine[1], rated=number)
        connection.execute(
            update(SETS)
            .where(SETS.c.engine_id == engine, SETS.c.set_name == set_name)
            .values(**changes)
        )


# --- the filler: the records anew from the games ----------------------------------------


def _next_engines(connection: Connection, after: str) -> list[str]:
    """Return the next registrations seated in a game after ``after``, in order: those
    whose seats are all among the next :data:`_BATCH_SEATS` seats along the seats'
    ``(registration, id)`` index (the last one read may have more: it waits for the next
    step), or the next one alone when it has more seats than that. A step reads what it
    fills, never the engines after it."""
    read = list(
        connection.scalars(
            select(_SEATS.c.registration)
            .where(_SEATS.c.registration > after)
            .order_by(_SEATS.c.registration)
            .limit(_BATCH_SEATS)
        )
    )
    if not read:
        return []
    engines = list(dict.fromkeys(read))
    if len(read) < _BATCH_SEATS:
        return engines[:_BATCH]  # the last seats: every engine read is whole
    if len(engines) > 1:
        return engines[:-1][:_BATCH]  # the last one may go on past the seats read
    return engines


def _chunks(rows: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, len(rows), _BATCH):
        yield rows[start : start + _BATCH]


class _Filled:
    """The kept rows computed for a batch of engines, to be inserted."""

    def __init__(self) -> None:
        self.sets: list[dict[str, Any]] = []
        self.opponents: list[dict[str, Any]] = []
        self.ratings: list[dict[str, Any]] = []
        self.points: list[dict[str, Any]] = []

    def insert(self, connection: Connection) -> None:
        for table, rows in (
            (SETS, self.sets),
            (OPPONENTS, self.opponents),
            (OPPONENT_RATINGS, self.ratings),
            (POINTS, self.points),
        ):
            for chunk in _chunks(rows):
                connection.execute(insert(table), chunk)


def _fill_engines(connection: Connection, engines: list[str]) -> None:
    """Compute a batch of engines' records from their finished games and insert them:
    their seats along ``(registration, id)``, their games and those games' seats by key
    (each read of a batch is its own rows, whatever the size of the tables)."""
    mine = connection.execute(
        select(_SEATS.c.registration, _SEATS.c.index.label("seat_index"), _SEATS.c.game_id).where(
            _SEATS.c.registration.in_(engines)
        )
    ).all()
    ids = sorted({seat.game_id for seat in mine})
    games: dict[str, Any] = {}
    seated: dict[str, list[EndedSeat]] = {}
    for start in range(0, len(ids), _BATCH):
        chunk = ids[start : start + _BATCH]
        for game in connection.execute(
            select(
                _GAMES.c.id,
                _GAMES.c.set_name,
                _GAMES.c.status,
                _GAMES.c.result,
                _GAMES.c.winner,
                _GAMES.c.ended_at,
                _GAMES.c.created_at,
            ).where(_GAMES.c.id.in_(chunk), _GAMES.c.status != "playing")
        ):
            games[game.id] = game
        for seat in connection.execute(
            select(
                _SEATS.c.game_id,
                _SEATS.c.index.label("seat_index"),
                _SEATS.c.name,
                _SEATS.c.registration,
            ).where(_SEATS.c.game_id.in_(chunk))
        ):
            seated.setdefault(seat.game_id, []).append(
                EndedSeat(seat.seat_index, seat.name, seat.registration)
            )
    by_engine: dict[str, list[Any]] = {}
    for mine_seat in mine:
        found = games.get(mine_seat.game_id)
        if found is not None:
            by_engine.setdefault(mine_seat.registration, []).append(
                _Played(mine_seat.seat_index, found)
            )
    filled = _Filled()
    for engine, rows in sorted(by_engine.items()):
        rows.sort(key=lambda r: (r.ended_at or r.created_at, r.id, r.seat_index))
        _fill_engine(engine, rows, seated, filled)
    filled.insert(connection)


class _Played:
    """One game of an engine as its record's fill reads it: the engine's seat index and
    the game's columns."""

    __slots__ = (
        "created_at",
        "ended_at",
        "id",
        "result",
        "seat_index",
        "set_name",
        "status",
        "winner",
    )

    def __init__(self, seat_index: int, game: Any) -> None:
        self.seat_index = seat_index
        self.id = game.id
        self.set_name = game.set_name
        self.status = game.status
        self.result = game.result
        self.winner = game.winner
        self.ended_at = game.ended_at
        self.created_at = game.created_at


def _fill_engine(
    engine: str, played: list[Any], seated: dict[str, list[EndedSeat]], filled: _Filled
) -> None:
    """Compute one engine's record from its finished games (``played``, in the order they
    ended) and the games' seats; add its rows to ``filled``."""
    sets: dict[str, dict[str, Any]] = {}
    opponents: dict[str, dict[str, Any]] = {}
    ratings: dict[tuple[str, str], tuple[float, float]] = {}
    points: list[dict[str, Any]] = []
    for row in played:
        seats = seated.get(row.id, [])
        other = opponent_of(seats, row.seat_index)
        got = outcome(row.status, row.result, row.winner, row.seat_index)
        kept = sets.setdefault(
            row.set_name,
            {
                "engine_id": engine,
                "set_name": row.set_name,
                **dict.fromkeys(OUTCOMES, 0),
                "rated": 0,
                "mu": NEW_RATING[0],
                "sigma": NEW_RATING[1],
            },
        )
        kept[got] += 1
        if other is not None:
            against = opponents.setdefault(
                _key(other),
                {
                    "engine_id": engine,
                    "opponent": _key(other),
                    "name": other.name,
                    "sort_name": other.name.lower(),
                    "games": 0,
                    **dict.fromkeys(OUTCOMES, 0),
                },
            )
            against["games"] += 1
            against[got] += 1
        if got == "error":
            continue
        pair = (row.set_name, _key(other))
        (kept["mu"], kept["sigma"]), ratings[pair] = rate(
            (kept["mu"], kept["sigma"]), ratings.get(pair, NEW_RATING), got
        )
        kept["rated"] += 1
        points.append(
            {
                "engine_id": engine,
                "set_name": row.set_name,
                "number": kept["rated"],
                "level": level_of(kept["rated"]),
                "game_id": row.id,
                "at": row.ended_at or row.created_at,
                "mu": kept["mu"],
                "sigma": kept["sigma"],
            }
        )
    filled.sets += sets.values()
    filled.opponents += opponents.values()
    filled.ratings += [
        {"engine_id": engine, "set_name": s, "opponent": o, "mu": mu, "sigma": sigma}
        for (s, o), (mu, sigma) in ratings.items()
    ]
    filled.points += points


def start_records(connection: Connection) -> None:
    """Empty the kept records (their fill starts anew: :func:`fill_records_step`)."""
    for table in (POINTS, OPPONENT_RATINGS, OPPONENTS, SETS):
        connection.execute(delete(table))


def fill_records_step(connection: Connection, after: str) -> str | None:
    """Fill the records of the next batch of registered engines after ``after`` anew from
    their finished games, in the caller's transaction; return the last engine filled, or
    ``None`` when none is left (then gather the tables' statistics on PostgreSQL).

    The batch's kept rows are deleted first: games of its engines that ended while the
    fill had not reached them (the upgrade fills while the server serves) were kept by
    :func:`keep_game_end` on rows that the fill makes anew. On PostgreSQL the games'
    ends wait meanwhile (``engine_sets`` locked: a game's end locks its rows first), so
    that an end is either in the games read or kept on the rows written."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql("LOCK TABLE engine_sets IN EXCLUSIVE MODE")
    engines = _next_engines(connection, after)
    if not engines:
        if connection.dialect.name == "postgresql":
            # Their statistics (and the seats', bulk loaded before a fill), that the
            # pages' plans be made for what is there now.
            connection.exec_driver_sql(
                "ANALYZE seats, engine_sets, engine_opponents, engine_opponent_ratings,"
                " engine_rating_points"
            )
        log.info("the engines' records: filled")
        return None
    for table in (POINTS, OPPONENT_RATINGS, OPPONENTS, SETS):
        connection.execute(delete(table).where(table.c.engine_id.in_(engines)))
    _fill_engines(connection, engines)
    return engines[-1]


def fill_records(connection: Connection) -> None:
    """Empty the kept records and fill them anew, every batch in the caller's
    transaction (a small database's, the tests')."""
    start_records(connection)
    position: str | None = ""
    while position is not None:
        position = fill_records_step(connection, position)


#: The name of the records' fill in ``kept_fills``.
RECORDS_FILL = "engine_records"
BATCHED.append(Batched(RECORDS_FILL, start_records, fill_records_step))
