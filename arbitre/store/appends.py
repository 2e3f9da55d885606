"""The move path's append, and why an append is refused.

On SQLite, :func:`sqlite_append` gives the append's three statements (the game's row moved
on by its lease holder knowing its last move, the moves, their exchanges) to SQLite's
driver straight, with the values SQLAlchemy's types would store (its JSON text, its SQLite
time text): half the CPU of the same statements through Core (a profile of
``benchmarks/arbitre.py``); the writer thread groups the games' appends in one commit
(:meth:`~.base.Database.write`).

On PostgreSQL, :class:`GroupedAppends` groups them the same way: the appends
asked while one is being committed (the other games' moves, when several are in flight)
go together in the next **one statement** (:data:`GROUP_APPEND`, in autocommit: one round
trip and one commit for the moves of every game in flight), each game's rows written only
if its driver holds its lease and knows its last move, so that a game refused there
refuses only itself. A statement that fails (a constraint or a value refused, a lost
connection) is tried again game by game, each alone, so that one game's failure fails no
other's move; a game whose moves are found recorded by then (the lost connection's commit
went through) counts as appended, never twice (``moves`` has a unique ``(game,
number)``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Connection,
    Integer,
    Select,
    String,
    Table,
    bindparam,
    column,
    func,
    insert,
    select,
    update,
)

from tournoyons_gui.arbitre.store.base import json_text, sqlite_time
from tournoyons_gui.arbitre.store.pending import DETAIL_CAP
from tournoyons_gui.arbitre.store.records import NewMove
from tournoyons_gui.arbitre.store.schema import ExchangeRow, GameRow, MoveRow

__all__ = [
    "GROUP_APPEND",
    "MAX_GROUP",
    "GroupedAppends",
    "LeaseLost",
    "PgAppend",
    "not_appended",
    "sqlite_append",
]

_GAMES = cast(Table, GameRow.__table__)
_MOVES = cast(Table, MoveRow.__table__)
_EXCHANGES = cast(Table, ExchangeRow.__table__)
#: The most games' appends in one PostgreSQL statement (the others wait for the next).
MAX_GROUP = 256
_MOVE_COLUMNS = ("game_id", "number", "seat", "value", "turn", "tray", "ms", "query", "error", "at")
_EXCHANGE_COLUMNS = ("game_id", "seat", "kind", "move_id", "detail", "at")
_MOVE_ON_SQL = (
    "UPDATE games SET turn = ?, moves = ? "
    "WHERE id = ? AND lease_owner = ? AND status = 'playing' AND moves = ?"
)
_INSERT_MOVES_SQL = f"INSERT INTO moves ({', '.join(_MOVE_COLUMNS)}) VALUES ({', '.join('?' * 10)})"
_INSERT_EXCHANGES_SQL = (
    f"INSERT INTO exchanges ({', '.join(_EXCHANGE_COLUMNS)}) VALUES ({', '.join('?' * 6)})"
)


class LeaseLost(RuntimeError):
    """This worker no longer holds the lease of the game it was driving."""


def not_appended(connection: Connection, game_id: str, owner: str) -> Exception:
    """Return why a game's moves could not be appended: its lease is ``owner``'s no more
    (:class:`LeaseLost`), or it changed under its driver (``RuntimeError``)."""
    row = connection.execute(
        select(_GAMES.c.lease_owner).where(_GAMES.c.id == game_id)
    ).one_or_none()
    if row is None or row.lease_owner != owner:
        return LeaseLost(game_id)
    return RuntimeError(f"game {game_id} changed under its driver")


def sqlite_append(
    game_id: str,
    owner: str,
    moves: Sequence[NewMove],
    at: dt.datetime,
    offset: dt.timedelta = dt.timedelta(0),
) -> Callable[[Connection], None]:
    """Return the write (for ``Database.write``) appending ``moves`` (numbered on from the
    game's last, ``at`` their time) and their exchanges (stamped by this host's clock,
    ``offset`` behind the database's) to ``game_id`` if ``owner`` holds its lease and it
    has the moves before them; it raises :func:`not_appended`'s error otherwise, having
    written nothing."""
    first, last = moves[0], moves[-1]
    turn = json_text(last.turn)
    move_on = (turn, last.number, game_id, owner, first.number - 1)
    stamp = sqlite_time(at)
    move_rows = [
        (
            game_id,
            move.number,
            move.seat,
            move.value,
            turn if move is last else json_text(move.turn),
            move.tray,
            move.ms,
            move.query[:DETAIL_CAP],
            "",
            stamp,
        )
        for move in moves
    ]
    exchange_rows = [
        (game_id, index, kind, str(move.number), detail[:DETAIL_CAP], sqlite_time(stamp + offset))
        for move in moves
        for index, kind, detail, stamp in move.exchanges
    ]

    def append(connection: Connection) -> None:
        driver = connection.connection.driver_connection
        assert driver is not None
        if driver.execute(_MOVE_ON_SQL, move_on).rowcount != 1:
            raise not_appended(connection, game_id, owner)
        driver.executemany(_INSERT_MOVES_SQL, move_rows)
        if exchange_rows:
            driver.executemany(_INSERT_EXCHANGES_SQL, exchange_rows)

    return append


@dataclass
class PgAppend:
    """One game's append as :data:`GROUP_APPEND` takes it: the game, its driver
    (``owner``), the moves it knows of (``before``) and will have (``after``), the Turn
    after them, and the rows of its moves and exchanges (JSON-ready: times in ISO 8601,
    ``game_id`` in each)."""

    game_id: str
    owner: str
    before: int
    after: int
    new_turn: dict[str, Any]
    moves: list[dict[str, Any]]
    exchanges: list[dict[str, Any]]
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


def _future() -> asyncio.Future[None]:
    return asyncio.get_running_loop().create_future()


def _from_json(name: str, table: Table, *extra: Any) -> Any:
    """Return ``json_to_recordset`` of the JSON parameter ``name`` as rows of ``table``'s
    columns (its ``id`` aside) and ``extra`` columns, typed."""
    columns = [column(c.name, c.type) for c in table.c if c.name != "id"]
    return (
        func.json_to_recordset(bindparam(name, type_=JSON))
        .table_valued(*columns, *extra)
        .render_derived(name=f"new_{name}", with_types=True)
    )


def _group_append() -> Select[tuple[str]]:
    """Return the one PostgreSQL statement appending the moves of several games: data-
    modifying ``WITH`` queries, each game's row updated only if its driver holds its lease,
    it is in play and it has the moves its driver knows of (which takes the row's lock);
    the moves and exchanges of the games updated inserted from JSON arrays in the order
    given (``ord``: ids grow in that order, the log's order); the ids of the games updated
    selected. Parameters: ``games`` (``game_id``, ``owner``, ``before``, ``after``,
    ``new_turn``), ``moves`` and ``exchanges`` (rows of those tables with ``ord``)."""
    asked = (
        func.json_to_recordset(bindparam("games", type_=JSON))
        .table_valued(
            column("game_id", String),
            column("owner", String),
            column("before", Integer),
            column("after", Integer),
            column("new_turn", _GAMES.c.turn.type),
        )
        .render_derived(name="asked", with_types=True)
    )
    game = (
        update(_GAMES)
        .where(
            _GAMES.c.id == asked.c.game_id,
            _GAMES.c.lease_owner == asked.c.owner,
            _GAMES.c.status == "playing",
            _GAMES.c.moves == asked.c.before,
        )
        .values(turn=asked.c.new_turn, moves=asked.c.after)
        .returning(_GAMES.c.id)
        .cte("game")
    )
    inserts = []
    for table in (_MOVES, _EXCHANGES):
        rows = _from_json(table.name, table, column("ord", Integer))
        names = [c.name for c in table.c if c.name != "id"]
        chosen = (
            select(*[rows.c[name] for name in names])
            .where(rows.c.game_id.in_(select(game.c.id)))
            .order_by(rows.c.ord)
        )
        inserts.append(insert(table).from_select(names, chosen).cte(f"{table.name}_inserted"))
    return select(game.c.id).add_cte(*inserts)


#: The statement of :func:`_group_append`, made and compiled once.
GROUP_APPEND = _group_append()

#: What runs one statement in autocommit (``Database.statement``).
Statement = Callable[[Callable[[Connection], Any]], Awaitable[Any]]


class GroupedAppends:
    """PostgreSQL's appends grouped (see the module): :meth:`append` returns once the
    game's moves are committed, or raises why they were not (:class:`LeaseLost`,
    ``RuntimeError``: the game changed under its driver, or the database's error)."""

    def __init__(self, statement: Statement) -> None:
        self.statement = statement
        self.queue: list[PgAppend] = []
        self.flusher: asyncio.Task[None] | None = None
        #: Statements run and games appended (for the benchmark's figures).
        self.statements = 0
        self.grouped = 0

    async def append(self, asked: PgAppend) -> None:
        """Append ``asked`` with the others asked meanwhile; return once committed."""
        self.queue.append(asked)
        if self.flusher is None:
            self.flusher = asyncio.get_running_loop().create_task(self._flush())
        await asked.done

    async def _flush(self) -> None:
        batch: list[PgAppend] = []
        try:
            while self.queue:
                batch = []
                seen: set[str] = set()
                later: list[PgAppend] = []
                for asked in self.queue:  # one append a game a statement
                    if asked.game_id in seen or len(batch) >= MAX_GROUP:
                        later.append(asked)
                    else:
                        seen.add(asked.game_id)
                        batch.append(asked)
                self.queue = later
                await self._run(batch)
        except BaseException as stopped:  # cancelled (closing): no caller waits forever
            for asked in [*batch, *self.queue]:
                _settle(asked, RuntimeError(f"the appends stopped: {stopped!r}"))
            self.queue = []
            raise
        finally:
            self.flusher = None

    async def _run(self, batch: list[PgAppend]) -> None:
        """Run ``batch`` in one statement; on its failure, each game alone."""
        try:
            appended = await self._statement(batch)
        except Exception:
            for asked in batch:
                await self._alone(asked)
            return
        missing = [a for a in batch if a.game_id not in appended]
        refused = await self._why(missing, recorded_counts=False) if missing else {}
        for asked in batch:
            _settle(asked, refused.get(asked.game_id))

    async def _alone(self, asked: PgAppend) -> None:
        """Append one game alone (its group's statement failed): a game whose moves are
        recorded already (the failed statement's commit went through) counts as
        appended."""
        try:
            appended = await self._statement([asked])
            refused = {} if appended else await self._why([asked], recorded_counts=True)
        except Exception as failed:
            _settle(asked, failed)
            return
        _settle(asked, refused.get(asked.game_id))

    async def _statement(self, batch: list[PgAppend]) -> set[str]:
        """Run :data:`GROUP_APPEND` for ``batch``; return the ids of the games appended."""
        moves, exchanges = [], []
        for asked in batch:
            moves += asked.moves
            exchanges += asked.exchanges
        named = {
            "games": [
                {
                    "game_id": a.game_id,
                    "owner": a.owner,
                    "before": a.before,
                    "after": a.after,
                    "new_turn": a.new_turn,
                }
                for a in batch
            ],
            "moves": [{**row, "ord": n} for n, row in enumerate(moves)],
            "exchanges": [{**row, "ord": n} for n, row in enumerate(exchanges)],
        }
        self.statements += 1
        self.grouped += len(batch)
        appended: set[str] = await self.statement(
            lambda connection: set(connection.execute(GROUP_APPEND, named).scalars())
        )
        return appended

    async def _why(
        self, missing: list[PgAppend], *, recorded_counts: bool
    ) -> dict[str, Exception | None]:
        """Return why each of ``missing`` was not appended (:func:`not_appended`'s errors),
        read in one statement; ``recorded_counts``: a game with its moves recorded already
        by its owner was appended (``None``)."""
        by_id = {a.game_id: a for a in missing}
        statement = select(_GAMES.c.id, _GAMES.c.lease_owner, _GAMES.c.moves).where(
            _GAMES.c.id.in_(list(by_id))
        )
        rows = await self.statement(lambda connection: list(connection.execute(statement)))
        found: dict[str, Exception | None] = {game_id: LeaseLost(game_id) for game_id in by_id}
        for game_id, owner, count in rows:
            asked = by_id[game_id]
            if owner != asked.owner:
                continue
            if recorded_counts and count == asked.after:
                found[game_id] = None
            else:
                found[game_id] = RuntimeError(f"game {game_id} changed under its driver")
        return found


def _settle(asked: PgAppend, error: BaseException | None) -> None:
    """Give ``asked``'s caller its result (``error``, or none: appended)."""
    if asked.done.done():
        return
    if error is None:
        asked.done.set_result(None)
    else:
        asked.done.set_exception(error)
