"""The records: games, seats, moves and the exchange log, in SQLite or PostgreSQL.

SQLAlchemy 2 (async: aiosqlite, asyncpg). A game's whole state lives here, written before
anything is published (save, then publish): the current
:class:`~tournoyons_gui.interfaces.plugin.Turn`
after every move, each move as a row with a unique ``(game, number)`` so that a move cannot
be recorded twice, and every request, callback, redirect and final call (engine protocol
decision 28). The schema carries a version (``meta.schema``); :func:`Store.open` creates a
new database and upgrades an older one step by step, never dropping a record.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "DEFAULT_DATABASE",
    "PENDING_KEPT",
    "SCHEMA_VERSION",
    "AddedSetRow",
    "EngineRow",
    "EntrantRow",
    "ExchangeRow",
    "GameRow",
    "MoveRow",
    "PendingRow",
    "SeatRow",
    "Store",
    "TournamentRow",
    "database_url",
    "new_id",
]

SCHEMA_VERSION = 2
#: How long an ask is kept after its deadline, so that a late answer is logged against its
#: game by whichever worker receives it.
PENDING_KEPT = dt.timedelta(hours=1)
#: The PostgreSQL advisory lock taken while the schema is made or upgraded.
_SCHEMA_LOCK = 0x70756E6F79
DEFAULT_DATABASE = "arbitre.sqlite3"
_BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def new_id(length: int = 10) -> str:
    """Return ``length`` base32 characters from a cryptographic generator (decision 8)."""
    return "".join(secrets.choice(_BASE32) for _ in range(length))


def now() -> dt.datetime:
    """Return the current UTC time."""
    return dt.datetime.now(dt.UTC)


def aware(moment: dt.datetime) -> dt.datetime:
    """Return ``moment`` with its time zone: SQLite gives back UTC times without one."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def database_url(value: str | None) -> str:
    """Return the SQLAlchemy async URL for ``--database``.

    ``None`` or a plain path: a SQLite file (default ``tournoyons_gui.arbitre.sqlite3`` in the
    current
    folder); ``sqlite:///path``; ``postgresql://user@host/db`` (asyncpg). Raises
    ``ValueError`` for any other scheme.
    """
    if not value:
        value = DEFAULT_DATABASE
    if "://" not in value:
        return "sqlite+aiosqlite:///" + str(Path(value).expanduser().resolve())
    scheme, rest = value.split("://", 1)
    if scheme in ("sqlite", "sqlite+aiosqlite"):
        return "sqlite+aiosqlite://" + rest
    if scheme in ("postgresql", "postgres", "postgresql+asyncpg"):
        return "postgresql+asyncpg://" + rest
    raise ValueError(f"unknown database {scheme!r}: give a file, sqlite:/// or postgresql://")


class Base(DeclarativeBase):
    """The tables' base."""

    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class MetaRow(Base):
    """``meta``: one row per setting; ``schema`` holds the schema version."""

    __tablename__ = "meta"
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class GameRow(Base):
    """``games``: one game. ``turn`` is the current Turn (``{"state", "params", "over"}``).

    ``first`` is the Turn the game started from (a replay's position 0: a Poker deal is
    random). ``status``: ``playing``, ``over`` or ``interrupted``; ``winner`` the winning seat
    index (0 first player) or ``None`` (a draw, or no result); ``options`` the match options
    (``timeout`` s, ``level``, ``wait`` tenths, ``init_as_board``, ``person_timeout`` s).
    """

    __tablename__ = "games"
    # A tournament's pairing is played once, whichever worker schedules it.
    __table_args__ = (
        Index("ix_games_tournament_pairing", "tournament_id", "pairing", unique=True),
    )
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    set_name: Mapped[str] = mapped_column(String(40), index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    turn: Mapped[dict[str, Any]] = mapped_column(JSON)
    first: Mapped[dict[str, Any]] = mapped_column(JSON)
    moves: Mapped[int] = mapped_column(Integer, default=0)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result: Mapped[str] = mapped_column(String(16), default="")
    reason: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    ended_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: The worker driving the game and until when (a lease: one driver at a time).
    lease_owner: Mapped[str | None] = mapped_column(String(16), nullable=True)
    lease_until: Mapped[dt.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    #: The tournament the game belongs to, its round and its pairing's number.
    tournament_id: Mapped[str | None] = mapped_column(String(12), nullable=True, index=True)
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    pairing: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The tournament's entrants (their indexes) in seat 0 and seat 1.
    entrant1: Mapped[int | None] = mapped_column(Integer, nullable=True)
    entrant2: Mapped[int | None] = mapped_column(Integer, nullable=True)


class SeatRow(Base):
    """``seats``: a game's seats in play order (index 0 is the first player).

    ``kind``: ``engine`` (a Tournoyons engine URL), ``builtin`` (one of ours, by name, also
    called over HTTP), ``person``. ``key``: the seat's secret ``Game`` id sent to its engine
    (decision 8); ``token``: a person's secret seat token (decision 24). ``final_status``:
    the Status of the final call (engine protocol 3.3).
    """

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "index"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(200))
    url: Mapped[str] = mapped_column(Text, default="")
    key: Mapped[str] = mapped_column(String(10), unique=True)
    token: Mapped[str] = mapped_column(String(32), unique=True)
    final_status: Mapped[int | None] = mapped_column(Integer, nullable=True)
    error: Mapped[str] = mapped_column(Text, default="")
    #: The registered engine's id (``EngineRow.id``) or ``""``; sent to the opponent as
    #: ``Opponent`` in competition matches (decision 27).
    registration: Mapped[str] = mapped_column(String(12), default="")


class MoveRow(Base):
    """``moves``: one applied value. ``number`` counts from 1 and is unique in its game.

    ``turn``: the Turn after it (``{"state", "params", "over"}``); ``tray`` the spectators'
    page Tray after it; ``ms``: from the request (or the page's ask) to the answer;
    ``query``: an engine callback's raw query string; ``error``: what was wrong.
    """

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("game_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    value: Mapped[str] = mapped_column(Text)
    turn: Mapped[dict[str, Any]] = mapped_column(JSON)
    tray: Mapped[str] = mapped_column(Text, default="")
    ms: Mapped[int] = mapped_column(Integer, default=0)
    query: Mapped[str] = mapped_column(Text, default="")
    error: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ExchangeRow(Base):
    """``exchanges``: every request, callback, redirect and final call (decision 28).

    ``kind``: ``request``, ``callback``, ``duplicate``, ``late``, ``redirect``, ``answer``
    (the engine's HTTP answer, status only), ``final``, ``error``; ``detail`` the URL or
    query (capped), or the error.
    """

    __tablename__ = "exchanges"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    move_id: Mapped[str] = mapped_column(String(20), default="")
    detail: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class AddedSetRow(Base):
    """``added_sets``: a Set added by a person (chapter VI): its name (``key``, the
    lower-case name, is unique), its outside interface URL and referee URL, the Tray it
    starts from and whether both players move at once."""

    __tablename__ = "added_sets"
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    interface_url: Mapped[str] = mapped_column(Text)
    referee_url: Mapped[str] = mapped_column(Text)
    start_tray: Mapped[str] = mapped_column(Text, default="Init")
    simultaneous: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class PendingRow(Base):
    """``pending``: a value asked and not yet applied, shared by the workers: an engine
    request (``key`` the seat's ``Game`` id, ``move_id`` its ``MoveId``) or a person's
    ask (``key`` the seat token, ``move_id`` the move number). Whichever worker receives
    the answer records it here, the first one only (``value IS NULL``), before
    ``expires_at``; the driving worker reads it. A worker taking a game over finds a value
    received but not applied, so no answered move is lost."""

    __tablename__ = "pending"
    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    move_id: Mapped[str] = mapped_column(String(20), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(12), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    value: Mapped[str | None] = mapped_column(Text, nullable=True)
    query: Mapped[str] = mapped_column(Text, default="")
    redirect: Mapped[bool] = mapped_column(Boolean, default=False)
    received_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class EngineRow(Base):
    """``engines``: a registered engine. ``id`` is its permanent opaque id (what opponents
    receive as ``Opponent``, decision 27); ``sets`` the Sets it plays (canonical names);
    ``poker_level2`` whether it plays Poker at level 2; ``retired`` engines keep their
    records but enter no new tournament; ``secret`` its edit token."""

    __tablename__ = "engines"
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    name: Mapped[str] = mapped_column(String(60), unique=True)
    url: Mapped[str] = mapped_column(Text)
    sets: Mapped[list[Any]] = mapped_column(JSON)
    poker_level2: Mapped[bool] = mapped_column(Boolean, default=False)
    retired: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    #: The edit token given to whoever registered it: needed to change or retire it (the
    #: id is public: opponents receive it as ``Opponent``).
    secret: Mapped[str] = mapped_column(String(32), default="")


class TournamentRow(Base):
    """``tournaments``: one tournament. ``format`` ``round-robin`` or ``swiss``; ``games``
    per pairing (round-robin) and ``rounds`` (Swiss); ``concurrency`` games at once;
    ``options`` the games' options; ``status`` ``running`` or ``over``; a lease as games
    have (the worker scheduling its games)."""

    __tablename__ = "tournaments"
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    set_name: Mapped[str] = mapped_column(String(40))
    format: Mapped[str] = mapped_column(String(16))
    games: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    concurrency: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    #: Swiss byes given: ``[[round, entrant], ...]`` (a bye scores as a win).
    byes: Mapped[list[Any]] = mapped_column(JSON, default=list)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    lease_owner: Mapped[str | None] = mapped_column(String(16), nullable=True)
    lease_until: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class EntrantRow(Base):
    """``entrants``: a tournament's engines in seed order: ``kind`` ``engine`` (``url``,
    ``registration`` its :class:`EngineRow` id when registered) or ``builtin`` (``url`` the
    built-in engine's name)."""

    __tablename__ = "entrants"
    __table_args__ = (UniqueConstraint("tournament_id", "index"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(60))
    url: Mapped[str] = mapped_column(Text)
    registration: Mapped[str] = mapped_column(String(12), default="")


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


# Upgrades: MIGRATIONS[v] takes a database from version v to v + 1. New tables are made by
# ``create_all`` before the upgrades run: version 2 adds ``added_sets``, ``pending``,
# ``engines``, ``tournaments`` and ``entrants``, and the columns below.
MIGRATIONS: dict[int, Sequence[str]] = {
    1: (
        "ALTER TABLE games ADD COLUMN lease_owner VARCHAR(16)",
        "ALTER TABLE games ADD COLUMN lease_until TIMESTAMP WITH TIME ZONE",
        "ALTER TABLE games ADD COLUMN tournament_id VARCHAR(12)",
        "ALTER TABLE games ADD COLUMN round INTEGER",
        "ALTER TABLE games ADD COLUMN pairing INTEGER",
        "ALTER TABLE games ADD COLUMN entrant1 INTEGER",
        "ALTER TABLE games ADD COLUMN entrant2 INTEGER",
        "ALTER TABLE seats ADD COLUMN registration VARCHAR(12) NOT NULL DEFAULT ''",
        "CREATE INDEX IF NOT EXISTS ix_games_lease_until ON games (lease_until)",
        "CREATE INDEX IF NOT EXISTS ix_games_tournament_id ON games (tournament_id)",
        "CREATE UNIQUE INDEX IF NOT EXISTS ix_games_tournament_pairing"
        " ON games (tournament_id, pairing)",
    )
}


@dataclass(frozen=True)
class GamePage:
    """One page of the games list, newest first."""

    games: list[GameRow]
    seats: dict[str, list[SeatRow]]
    total: int


class Store:
    """The database: sessions, schema creation and upgrades, and the queries we need."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        # SQLite has one writer at a time: this process's writers queue here rather than
        # meet "database is locked"; other processes wait on SQLite's busy timeout.
        self._writer = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        #: The database's clock less this host's (:meth:`sync_clock`); zero on SQLite.
        self.clock_offset = dt.timedelta(0)
        # The database's time at the last sync and this process's monotonic clock then.
        self._synced: tuple[dt.datetime, float] | None = None

    @classmethod
    async def open(cls, url: str | None = None) -> Store:
        """Open (and create or upgrade) the database at ``url`` (see :func:`database_url`).

        A SQLite file is used in WAL mode (readers never wait for the writer) with a 30 s
        busy timeout.
        """
        full = database_url(url)
        if full.startswith("sqlite"):
            engine = create_async_engine(full, connect_args={"timeout": 30})
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        else:
            engine = create_async_engine(full, pool_pre_ping=True)
        store = cls(engine)
        try:
            await store._migrate()
            await store.sync_clock()
        except BaseException:
            await engine.dispose()
            raise
        return store

    async def close(self) -> None:
        """Close every connection."""
        await self.engine.dispose()

    def now(self) -> dt.datetime:
        """Return the current UTC time by the database's clock: leases, the deadlines of
        asks and the records are measured with it, so that workers on hosts whose clocks
        differ agree on when a lease or a deadline passes. On PostgreSQL it runs from the
        last :meth:`sync_clock` on this process's monotonic clock (a step of the host's
        clock changes nothing); SQLite is a file on this host, whose clock it is."""
        if self._synced is None:
            return now()
        at, monotonic = self._synced
        return at + dt.timedelta(seconds=time.monotonic() - monotonic)

    def from_host(self, at: dt.datetime) -> dt.datetime:
        """Return a time stamped by this host's clock (an exchange's log entry) as the
        database's clock tells it (as of the last :meth:`sync_clock`)."""
        return at + self.clock_offset

    async def sync_clock(self) -> dt.timedelta:
        """Read the database's clock and keep it, and its difference with this host's
        clock (in :attr:`clock_offset`): PostgreSQL's ``clock_timestamp()``, taken as of the
        middle of the round trip, so within half of it (a millisecond on a LAN). SQLite is a
        file on this host: its clock is this host's. Done at :meth:`open` and every minute
        by a worker (:class:`~tournoyons_gui.arbitre.game.Arbitre`)."""
        if self.engine.dialect.name != "postgresql":
            return self.clock_offset
        async with self.engine.connect() as conn:
            before, started = now(), time.monotonic()
            theirs = aware((await conn.exec_driver_sql("SELECT clock_timestamp()")).scalar_one())
            after, ended = now(), time.monotonic()
        self._synced = (theirs, (started + ended) / 2)
        self.clock_offset = theirs - (before + (after - before) / 2)
        return self.clock_offset

    async def _migrate(self) -> None:
        async with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # Workers starting together create and upgrade the schema one at a time.
                await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_SCHEMA_LOCK})")
            await conn.run_sync(Base.metadata.create_all)
            row = await conn.execute(select(MetaRow.value).where(MetaRow.key == "schema"))
            found = row.scalar_one_or_none()
            version = int(found) if found is not None else None
            if version is None:
                await conn.execute(insert(MetaRow).values(key="schema", value=str(SCHEMA_VERSION)))
                return
            if version > SCHEMA_VERSION:
                raise RuntimeError(
                    f"the database has schema {version}, newer than this program's "
                    f"{SCHEMA_VERSION}: upgrade the program"
                )
            while version < SCHEMA_VERSION:
                for statement in MIGRATIONS[version]:
                    await conn.exec_driver_sql(statement)
                version += 1
                await conn.execute(
                    update(MetaRow).where(MetaRow.key == "schema").values(value=str(version))
                )

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """Yield a session inside a transaction, committed at the end (the writers' way)."""
        if self._writer is None:
            async with self.sessions() as session, session.begin():
                yield session
            return
        async with self._writer, self.sessions() as session, session.begin():
            yield session

    async def added_sets(self) -> list[AddedSetRow]:
        """Return the added Sets, by name."""
        async with self.sessions() as session:
            return list(
                (await session.scalars(select(AddedSetRow).order_by(AddedSetRow.key))).all()
            )

    # --- values asked, shared by the workers ---------------------------------------------

    async def expect(
        self, key: str, move_id: str, game_id: str, seat: int, expires_at: dt.datetime
    ) -> PendingRow | None:
        """Record that (``key``, ``move_id``) is asked until ``expires_at``; return the row
        when its value was already received (a game taken over: apply it, ask nothing)."""
        async with self.session() as session:
            row = await session.get(PendingRow, (key, move_id), with_for_update=True)
            if row is not None and row.value is not None:
                return row
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
    ) -> tuple[str, PendingRow | None]:
        """Record the answer to (``key``, ``move_id``) if it is the first one and in time.

        Returns ``("taken", row)``, or ``("duplicate" | "late", row)`` and changes nothing,
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
                .values(value=value, query=query[:8192], redirect=redirect, received_at=at)
            )
            row = await session.get(PendingRow, (key, move_id))
            if getattr(done, "rowcount", 0) == 1:
                return "taken", row
        if row is None:
            return "unknown", None
        return ("duplicate" if row.value is not None else "late"), row

    async def pending(self, key: str, move_id: str) -> PendingRow | None:
        """Return the row of (``key``, ``move_id``), fresh from the database."""
        async with self.sessions() as session:
            return await session.get(PendingRow, (key, move_id), populate_existing=True)

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

    async def has_moved(self, game_id: str, seat: int) -> bool:
        """Return whether seat ``seat`` (its index) has a move recorded in the game."""
        async with self.sessions() as session:
            found = await session.scalar(
                select(MoveRow.id).where(MoveRow.game_id == game_id, MoveRow.seat == seat).limit(1)
            )
            return found is not None

    async def close_pending(self, game_id: str) -> None:
        """End a finished game's asks: their deadline is now, so an answer arriving later,
        at any worker, is refused as late and logged against the game (until
        :meth:`purge_pending` forgets them)."""
        async with self.session() as session:
            await session.execute(
                update(PendingRow)
                .where(PendingRow.game_id == game_id, PendingRow.value.is_(None))
                .values(expires_at=self.now())
            )

    async def purge_pending(self, after: dt.timedelta = PENDING_KEPT) -> int:
        """Forget the asks whose deadline passed more than ``after`` ago (answered or not);
        return how many. A late answer to one of them is then unknown (404, not logged)."""
        async with self.session() as session:
            done = await session.execute(
                delete(PendingRow).where(PendingRow.expires_at < self.now() - after)
            )
            return int(getattr(done, "rowcount", 0) or 0)

    # --- leases: one driver per game -------------------------------------------------------

    async def acquire(self, game_id: str, owner: str, seconds: float) -> bool:
        """Take the lease of a game in play for ``seconds`` when it is free, expired or
        already ``owner``'s; return whether ``owner`` holds it."""
        at = self.now()
        async with self.session() as session:
            done = await session.execute(
                update(GameRow)
                .where(
                    GameRow.id == game_id,
                    GameRow.status == "playing",
                    or_(
                        GameRow.lease_until.is_(None),
                        GameRow.lease_until < at,
                        GameRow.lease_owner == owner,
                    ),
                )
                .values(lease_owner=owner, lease_until=at + dt.timedelta(seconds=seconds))
            )
            return getattr(done, "rowcount", 0) == 1

    async def renew(self, owner: str, seconds: float, games: Sequence[str]) -> None:
        """Extend the leases ``owner`` holds on ``games`` (those it drives now: a game whose
        driver died is left to expire, and be taken over)."""
        if not games:
            return
        until = self.now() + dt.timedelta(seconds=seconds)
        async with self.session() as session:
            await session.execute(
                update(GameRow)
                .where(GameRow.lease_owner == owner, GameRow.id.in_(list(games)))
                .values(lease_until=until)
            )

    async def release_game(self, game_id: str, owner: str) -> None:
        """Give up ``owner``'s lease of one game (another worker may take it at once)."""
        async with self.session() as session:
            await session.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.lease_owner == owner)
                .values(lease_owner=None, lease_until=None)
            )

    async def release(self, owner: str) -> None:
        """Give up every lease ``owner`` holds (another worker may take them at once)."""
        async with self.session() as session:
            for table in (GameRow, TournamentRow):
                await session.execute(
                    update(table)
                    .where(table.lease_owner == owner)
                    .values(lease_owner=None, lease_until=None)
                )

    async def orphans(self, limit: int) -> list[str]:
        """Return up to ``limit`` games in play that no worker drives (no lease, or an
        expired one), oldest first."""
        at = self.now()
        async with self.sessions() as session:
            rows = await session.scalars(
                select(GameRow.id)
                .where(
                    GameRow.status == "playing",
                    or_(GameRow.lease_until.is_(None), GameRow.lease_until < at),
                )
                .order_by(GameRow.created_at, GameRow.id)
                .limit(limit)
            )
            return list(rows)

    async def game(self, game_id: str) -> tuple[GameRow, list[SeatRow]] | None:
        """Return a game and its seats in play order, or ``None``."""
        async with self.sessions() as session:
            game = await session.get(GameRow, game_id)
            if game is None:
                return None
            seats = (
                await session.scalars(
                    select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.index)
                )
            ).all()
            return game, list(seats)

    async def moves(self, game_id: str) -> list[MoveRow]:
        """Return a game's moves in order."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(MoveRow).where(MoveRow.game_id == game_id).order_by(MoveRow.number)
            )
            return list(rows)

    async def exchanges(self, game_id: str) -> list[ExchangeRow]:
        """Return a game's exchange log in order."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(ExchangeRow).where(ExchangeRow.game_id == game_id).order_by(ExchangeRow.id)
            )
            return list(rows)

    async def seat_by_token(self, token: str) -> SeatRow | None:
        """Return the person seat holding ``token``."""
        async with self.sessions() as session:
            return (
                await session.scalars(select(SeatRow).where(SeatRow.token == token))
            ).one_or_none()

    async def log(
        self, game_id: str, seat: int, kind: str, move_id: str = "", detail: str = ""
    ) -> None:
        """Append one exchange to the log (``detail`` capped at 8 KiB)."""
        async with self.session() as session:
            session.add(
                ExchangeRow(
                    game_id=game_id,
                    seat=seat,
                    kind=kind,
                    move_id=move_id,
                    detail=detail[:8192],
                    at=self.now(),
                )
            )

    async def playing(self) -> list[str]:
        """Return the ids of the games still marked in progress."""
        async with self.sessions() as session:
            rows = await session.scalars(select(GameRow.id).where(GameRow.status == "playing"))
            return list(rows)

    async def list_games(
        self, *, set_name: str = "", seat: str = "", page: int = 1, per_page: int = 25
    ) -> GamePage:
        """Return a page of games, newest first, filtered by Set and by a seat's name/URL."""
        async with self.sessions() as session:
            query = select(GameRow)
            if set_name:
                query = query.where(func.lower(GameRow.set_name) == set_name.lower())
            if seat:
                pattern = f"%{seat.lower()}%"
                named = func.lower(SeatRow.name).like(pattern) | func.lower(SeatRow.url).like(
                    pattern
                )
                query = query.where(GameRow.id.in_(select(SeatRow.game_id).where(named)))
            total = await session.scalar(select(func.count()).select_from(query.subquery()))
            rows = list(
                await session.scalars(
                    query.order_by(GameRow.created_at.desc(), GameRow.id)
                    .offset((page - 1) * per_page)
                    .limit(per_page)
                )
            )
            seats: dict[str, list[SeatRow]] = {row.id: [] for row in rows}
            if rows:
                for seat_row in await session.scalars(
                    select(SeatRow).where(SeatRow.game_id.in_(list(seats))).order_by(SeatRow.index)
                ):
                    seats[seat_row.game_id].append(seat_row)
            return GamePage(rows, seats, int(total or 0))
