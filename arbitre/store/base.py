"""The database under the store: opening, the schema's creation and upgrades, sessions,
and the database's clock.

SQLAlchemy 2 (async: aiosqlite, asyncpg): a SQLite file by default, in WAL mode with
``synchronous=NORMAL`` (readers never wait for the writer; one writer at a time, queued
in this process), or PostgreSQL by URL, which several workers share.

Durability: in WAL mode a commit appends the transaction to the log; with
``synchronous=NORMAL`` the log is synced to the disk at checkpoints rather than at every
commit, so a committed move survives any crash of this process (SIGKILL included: the
log is in the operating system's hands once written) and is lost only by a crash of the
operating system or a power cut before the next checkpoint (SQLite's "WAL mode" and
"PRAGMA synchronous" pages). PostgreSQL keeps its own settings (``synchronous_commit``
on by default: a commit is on the disk).

The move path writes through :meth:`Database.write`: a function of a synchronous
SQLAlchemy connection run in one transaction. On SQLite it runs whole in the one writer
thread (one hand-off between the event loop and the database's thread a transaction,
where aiosqlite makes about ten: one per cursor, statement and commit), **grouped**: the
writes asked while the writer thread is busy (the other games' moves, when several are in
flight) are run together in the next transaction, each in a savepoint of its own (one
that fails is rolled back alone and fails alone), and committed once (group commit:
one ``COMMIT`` for a batch of moves, each awaited until it is committed, so a move is
still recorded before the next one is asked). On PostgreSQL writes run on the
asynchronous connection (asyncpg), statement by statement; and there a move is
appended by one statement in autocommit (:meth:`Database.statement`), one round trip where
a transaction takes five (``BEGIN``, the game's row, the moves, their exchanges, ``COMMIT``);
PostgreSQL groups concurrent commits itself.

Several processes may share one SQLite file (``serve --workers N``, ``shared=True``): the
writer thread's transactions start with ``BEGIN IMMEDIATE`` under an exclusive ``flock``
of ``<file>-writer.lock``, so the processes' writers queue in the kernel and wake at
once, rather than poll on SQLite's busy timeout (its sleeps of 1 to 100 ms).

A pooled PostgreSQL connection is checked with a ping before use only when it has been
idle :data:`PING_IDLE` seconds or more (asyncpg's ping is three round trips: the move
path would pay them at every transaction); one whose server went away while it was in
constant use fails its next statement instead, which invalidates the pool, and the game
it served is given up and taken over from its last recorded move.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import datetime as dt
import fcntl
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self, TypeVar

import orjson
from sqlalchemy import Connection, Engine, create_engine, event, insert, select, update
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from tournoyons_gui.arbitre.store.kept import (
    backfill,
    fill_step,
    filling,
    start_fills,
    under_way,
)
from tournoyons_gui.arbitre.store.migrations import MIGRATIONS
from tournoyons_gui.arbitre.store.schema import SCHEMA_VERSION, Base, MetaRow

__all__ = [
    "DEFAULT_DATABASE",
    "Database",
    "aware",
    "database_url",
    "json_text",
    "new_id",
    "now",
    "sqlite_time",
]

_SCHEMA_LOCK = 0x70756E6F79
#: The schema version that brought the kept aggregates: upgrading to it fills the one-pass
#: ones and starts the batched ones (:func:`.kept.backfill`), which a driving worker then
#: fills a step per transaction while the server serves (:meth:`Database.fill_kept_step`).
_KEPT_SINCE = 12
#: Batched fills started by the upgrade to a version (the kept aggregates it adds), filled
#: after it like the others: the tournaments' standings kept (schema 15).
_FILLS_SINCE: dict[int, tuple[str, ...]] = {15: ("tournament_standings",)}
#: Seconds a pooled PostgreSQL connection may sit idle and still be used without a ping.
PING_IDLE = 5.0
DEFAULT_DATABASE = "arbitre.sqlite3"
_BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def new_id(length: int = 10) -> str:
    """Return ``length`` base32 characters from a cryptographic generator (decision 8):
    RFC 4648's alphabet over random bytes read at once, each character 5 random bits (a
    game makes five ids: one read each, not one per character)."""
    return base64.b32encode(secrets.token_bytes((length * 5 + 7) // 8)).decode()[:length]


def now() -> dt.datetime:
    """Return the current UTC time."""
    return dt.datetime.now(dt.UTC)


def aware(moment: dt.datetime) -> dt.datetime:
    """Return ``moment`` with its time zone: SQLite gives back UTC times without one."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def json_text(value: Any) -> str:
    """Return ``value`` as a JSON column holds it (orjson, non-text keys as text, as the
    standard library's ``json`` would write them)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def sqlite_time(moment: dt.datetime) -> str:
    """Return ``moment`` as SQLAlchemy's SQLite ``DateTime`` stores it (its fields as text,
    the zone left out: the store's times are UTC)."""
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f")


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


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _writer_transactions(engine: Engine) -> None:
    """Have ``engine`` (the SQLite writer thread's) begin every transaction with ``BEGIN
    IMMEDIATE`` (the write lock taken at once, not at the first write) and let savepoints
    work: pysqlite's own transaction handling is turned off (SQLAlchemy's documentation,
    "Serializable isolation / Savepoints / Transactional DDL" for pysqlite)."""

    def connect(connection: Any, _record: Any) -> None:
        connection.isolation_level = None

    def begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    event.listen(engine, "connect", connect)
    event.listen(engine, "begin", begin)


class _Failed:
    """A grouped write's exception, carried back from the writer thread to its caller."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _ping_when_idle(engine: AsyncEngine) -> None:
    """Have ``engine``'s pool ping a connection at checkout only when it has been idle
    :data:`PING_IDLE` seconds or more (see the module)."""
    dialect: Dialect = engine.dialect

    def stamp(_connection: Any, record: Any, *_: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    def checkout(connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("idle_since")
        if since is not None and time.monotonic() - since < PING_IDLE:
            return
        try:
            dialect.do_ping(connection)
        except Exception as gone:
            raise DisconnectionError(str(gone)) from gone

    event.listen(engine.sync_engine, "connect", stamp)
    event.listen(engine.sync_engine, "checkin", stamp)
    event.listen(engine.sync_engine, "checkout", checkout)


#: What a NUL in a text sent to PostgreSQL becomes: its text holds no NUL and refuses one
#: even to compare it, so an id or a filter from a request holding one finds nothing
#: rather than failing (the replacement character, as broken bytes become elsewhere).
NUL_STANDIN = "\ufffd"


def _without_nul(value: Any) -> Any:
    """Return ``value`` (a parameter, or a row or a list of them) with every NUL of its
    texts replaced by :data:`NUL_STANDIN`."""
    if isinstance(value, str):
        return value.replace("\x00", NUL_STANDIN) if "\x00" in value else value
    if isinstance(value, (tuple, list)):
        return type(value)(_without_nul(item) for item in value)
    if isinstance(value, dict):
        return {key: _without_nul(item) for key, item in value.items()}
    return value


def _no_nul(engine: AsyncEngine) -> None:
    """Have ``engine`` (PostgreSQL) send no NUL in a text parameter (:data:`NUL_STANDIN`)."""

    def before(
        _conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool
    ) -> tuple[str, Any]:
        return statement, _without_nul(parameters)

    event.listen(engine.sync_engine, "before_cursor_execute", before, retval=True)


T = TypeVar("T")


class Database:
    """The database: sessions, schema creation and upgrades, the database's clock."""

    def __init__(self, engine: AsyncEngine, *, shared: bool = False) -> None:
        self.engine = engine
        self._shared = shared or engine.dialect.name == "postgresql"
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        # SQLite has one writer at a time: this process's writers queue here rather than
        # meet "database is locked"; other processes wait on SQLite's busy timeout.
        self._writer = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        # SQLite's writer thread and its synchronous engine on the same file (write()).
        self._sync: Engine | None = None
        # PostgreSQL's connections in autocommit (statement()), from the same pool.
        self._autocommit: AsyncEngine | None = None
        if engine.dialect.name == "postgresql":
            self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._thread: ThreadPoolExecutor | None = None
        self._held: Connection | None = None  # the writer thread's, once it wrote
        self._readers: ThreadPoolExecutor | None = None
        self._reading: Engine | None = None
        if self._writer is not None and engine.url.database not in (None, "", ":memory:"):
            coded = {"json_serializer": json_text, "json_deserializer": orjson.loads}
            self._sync = create_engine(
                engine.url.set(drivername="sqlite"), connect_args={"timeout": 30}, **coded
            )
            event.listen(self._sync, "connect", _sqlite_pragmas)
            _writer_transactions(self._sync)
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")
            # Readers have connections of their own, in pysqlite's own transaction mode:
            # a read takes no lock a writer waits for (WAL).
            self._reading = create_engine(
                engine.url.set(drivername="sqlite"), connect_args={"timeout": 30}, **coded
            )
            event.listen(self._reading, "connect", _sqlite_pragmas)
            self._readers = ThreadPoolExecutor(2, thread_name_prefix="sqlite-reader")
        # The writes waiting for the writer thread's next transaction (write()), and
        # whether a task is running them.
        self._queue: list[tuple[Callable[[Connection], Any], asyncio.Future[Any]]] = []
        self._drainer: asyncio.Task[None] | None = None
        self._lock_path: str | None = None
        if self._sync is not None and shared:
            self._lock_path = f"{engine.url.database}-writer.lock"
        #: The database's clock less this host's (:meth:`sync_clock`); zero on SQLite.
        self.clock_offset = dt.timedelta(0)
        # The database's time at the last sync and this process's monotonic clock then.
        self._synced: tuple[dt.datetime, float] | None = None

    @classmethod
    async def open(cls, url: str | None = None, *, shared: bool = False) -> Self:
        """Open (and create or upgrade) the database at ``url`` (see :func:`database_url`).

        A SQLite file is used in WAL mode (readers never wait for the writer) with a 30 s
        busy timeout; ``shared``: other processes write to the same file too (``serve
        --workers N``). PostgreSQL is always shared.
        """
        full = database_url(url)
        coded = {"json_serializer": json_text, "json_deserializer": orjson.loads}
        if full.startswith("sqlite"):
            engine = create_async_engine(full, connect_args={"timeout": 30}, **coded)
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        else:
            engine = create_async_engine(full, **coded)
            _ping_when_idle(engine)
            _no_nul(engine)
        store = cls(engine, shared=shared)
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
        if self._sync is not None and self._thread is not None:
            sync = self._sync

            def closing() -> None:
                self._drop_writer_connection()
                sync.dispose()

            await asyncio.get_running_loop().run_in_executor(self._thread, closing)
            self._thread.shutdown()
        if self._readers is not None and self._reading is not None:
            await asyncio.get_running_loop().run_in_executor(self._readers, self._reading.dispose)
            self._readers.shutdown()

    @property
    def shared(self) -> bool:
        """Whether several workers may share the database: PostgreSQL, or a SQLite file
        opened ``shared`` (several processes of one machine)."""
        return self._shared

    @property
    def postgres(self) -> bool:
        """Whether the records are in PostgreSQL (else a SQLite file)."""
        return self.engine.dialect.name == "postgresql"

    @property
    def dsn(self) -> str:
        """Return the database's URL for a plain driver (``postgresql://...``, password
        included: the bus's own connection)."""
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

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
        if await self._schema_current():
            return  # every table made and upgraded already: no table to look for
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
                if version + 1 == _KEPT_SINCE:
                    await conn.run_sync(backfill)
                started = _FILLS_SINCE.get(version + 1)
                if started:
                    await conn.run_sync(start_fills, started)
                version += 1
                await conn.execute(
                    update(MetaRow).where(MetaRow.key == "schema").values(value=str(version))
                )

    async def backfill_kept(
        self, progress: Callable[[str], None] | None = None, *, resume: bool = False
    ) -> None:
        """Fill the kept aggregates anew from the rows (:mod:`.kept`): the one-pass ones
        in one transaction, then the batched ones a step per transaction (``progress``
        told each step's filler): after a bulk load that wrote the base rows only
        (``benchmarks/scale.py``). ``resume``: a batched fill under way (one killed) goes
        on from its last step committed instead."""
        async with self.engine.begin() as conn:
            if not (resume and await conn.run_sync(under_way)):
                await conn.run_sync(backfill)
        while await self.fill_kept_step():
            if progress is not None:
                progress("kept")

    async def fill_kept_step(self) -> bool:
        """Run one step of the batched kept aggregates' fill, if one is under way (after
        an upgrade, or a fill killed: it resumes where it committed), in a transaction of
        its own; return whether there was one."""
        return await self.write(fill_step) is not None

    async def kept_filling(self, name: str) -> str | None:
        """Return how far the batched fill ``name`` got while it is under way (its last
        key filled), else ``None`` (:func:`.kept.filling`)."""
        return await self.read(lambda connection: filling(connection, name))

    async def _schema_current(self) -> bool:
        """Whether the records hold this program's schema version (a read; ``False`` when
        there is no ``meta`` table yet)."""
        try:
            async with self.engine.connect() as conn:
                row = await conn.execute(select(MetaRow.value).where(MetaRow.key == "schema"))
                found = row.scalar_one_or_none()
        except DBAPIError:
            return False
        return found is not None and found.isdigit() and int(found) == SCHEMA_VERSION

    async def statement(self, work: Callable[[Connection], T]) -> T:
        """Return ``work(connection)`` on PostgreSQL in autocommit: ``work`` runs one
        statement, atomic by itself, in one round trip (no ``BEGIN``, no ``COMMIT``); on
        SQLite as :meth:`write` does."""
        if self._autocommit is None:
            return await self.write(work)
        async with self._autocommit.connect() as connection:
            return await connection.run_sync(work)

    async def write(self, work: Callable[[Connection], T]) -> T:
        """Return ``work(connection)`` run in one transaction, committed at the end (rolled
        back when it raises): on SQLite in the writer thread, grouped with the writes asked
        meanwhile (see the module: each in a savepoint, one ``COMMIT`` for all; the result
        comes once committed); on PostgreSQL on the asynchronous connection. ``work`` runs
        SQLAlchemy Core statements and nothing else (no waiting, no other I/O)."""
        if self._sync is None or self._thread is None or self._writer is None:
            async with self.transaction() as connection:
                return await connection.run_sync(work)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.append((work, future))
        if self._drainer is None:
            self._drainer = loop.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        """Run the queued writes, batch after batch, in the writer thread (each batch
        gathers what was asked while the last one ran)."""
        assert self._thread is not None and self._writer is not None
        loop = asyncio.get_running_loop()
        try:
            while self._queue:
                jobs, self._queue = self._queue, []
                try:
                    async with self._writer:
                        done = await loop.run_in_executor(self._thread, self._batch, jobs)
                except BaseException as failed:  # the commit failed: every write did
                    done = [_Failed(failed)] * len(jobs)
                for (_, future), result in zip(jobs, done, strict=True):
                    if future.done():
                        continue
                    if isinstance(result, _Failed):
                        future.set_exception(result.error)
                    else:
                        future.set_result(result)
        finally:
            self._drainer = None

    def _batch(self, jobs: list[tuple[Callable[[Connection], Any], Any]]) -> list[Any]:
        """Run ``jobs`` in one transaction (the writer thread); return each one's result
        or :class:`_Failed`. A job alone has the transaction to itself; several each have
        a savepoint, rolled back alone when the job raises."""
        results: list[Any] = []
        connection = self._writer_connection()
        try:
            with self._interprocess(), connection.begin() as transaction:
                if len(jobs) == 1:
                    try:
                        results.append(jobs[0][0](connection))
                    except Exception as failed:
                        transaction.rollback()
                        return [_Failed(failed)]
                    return results
                # Each job in a savepoint of its own, written to the driver: SQLAlchemy's
                # nested transactions compile two statements a job, a tenth of a move's
                # CPU when the games in flight write together.
                driver = connection.connection.driver_connection
                assert driver is not None
                for work, _ in jobs:
                    driver.execute("SAVEPOINT grouped")
                    try:
                        results.append(work(connection))
                    except Exception as failed:
                        driver.execute("ROLLBACK TO SAVEPOINT grouped")
                        results.append(_Failed(failed))
                    driver.execute("RELEASE SAVEPOINT grouped")
        except BaseException:  # the transaction itself failed: a new connection next time
            self._drop_writer_connection()
            raise
        return results

    def _writer_connection(self) -> Connection:
        """Return the writer thread's connection, kept from one transaction to the next
        (a pool's check-out and check-in cost a third of an empty write's CPU)."""
        assert self._sync is not None
        if self._held is None:
            self._held = self._sync.connect()
        return self._held

    def _drop_writer_connection(self) -> None:
        """Close the writer thread's connection (in that thread), if it has one."""
        held, self._held = self._held, None
        if held is not None:
            with contextlib.suppress(Exception):
                held.close()

    @contextlib.contextmanager
    def _interprocess(self) -> Iterator[None]:
        """Hold the writers' ``flock`` across processes sharing the SQLite file."""
        if self._lock_path is None:
            yield
            return
        with open(self._lock_path, "a+b") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    async def read(self, work: Callable[[Connection], T]) -> T:
        """Return ``work(connection)`` run on a connection of its own, outside the
        writer's transaction: on SQLite in a reader thread (one hand-off, where an
        asynchronous session makes several: a file's reads are microseconds, their trips
        through aiosqlite's thread were not), on PostgreSQL on the asynchronous
        connection. ``work`` runs SQLAlchemy Core statements and nothing else."""
        if self._reading is None or self._readers is None:
            async with self.engine.connect() as connection:
                return await connection.run_sync(work)
        sync = self._reading

        def reading() -> T:
            with sync.connect() as connection:
                return work(connection)

        return await asyncio.get_running_loop().run_in_executor(self._readers, reading)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """Yield a connection inside a transaction, committed at the end: the writers' way
        for SQLAlchemy Core statements (the move path: no ORM unit of work, no identity
        map, several rows in one ``executemany``)."""
        if self._writer is None:
            async with self.engine.begin() as connection:
                yield connection
            return
        async with self._writer, self.engine.begin() as connection:
            yield connection

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """Yield a session inside a transaction, committed at the end (the writers' way)."""
        if self._writer is None:
            async with self.sessions() as session, session.begin():
                yield session
            return
        async with self._writer, self.sessions() as session, session.begin():
            yield session
