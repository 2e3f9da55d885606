"""A finished game's moves and exchanges kept as one compressed document: a tenth of the
disk their rows take (a row of ``moves`` holds the whole Turn after the move, the
spectators' Tray and the engine's query; a row of ``exchanges`` the whole URL asked).

While a game is played its moves and exchanges are rows (the move path appends them, a
watcher reads them as they come). Once it is over, :meth:`ArchiveStore.compact` packs
them into one row of ``game_archives`` and deletes the rows, in one transaction: a
**document** of columns (each field of every move one list, then each field of every
exchange), times as microseconds from the game's creation, a Tray left out where it is
the Turn's own ``Tray`` parameter, and each move's Turn left out when the Set's rules give
it back by replaying the game from its first Turn (the caller says so, having replayed
it: :mod:`~tournoyons_gui.arbitre.compaction`), as JSON (orjson) compressed with
Zstandard (level :data:`LEVEL`). Columns of like values compress far better than rows.

Reads (:meth:`ArchiveStore.kept_moves`, :meth:`ArchiveStore.kept_exchanges`) give the
same records as before, whatever the game's state: the rows and the document, merged.
A row can arrive after its game was packed (an engine's late callback is logged against
the game); the next compaction packs it too. The document keeps the ids of the exchanges
it holds and the moves are numbered, so a read that meets a compaction halfway (the rows
read, then the document written with them) counts each entry once: the rows are read
first, then the document, and an entry in both is taken from the document. Nothing is
lost or doubled: a compaction deletes exactly the rows it packed, and writes its document
only over the version it read (``version``), in the same transaction.

An operator's retention (``serve --keep-logs DAYS``) drops the exchanges of games that
ended long ago (:meth:`ArchiveStore.drop_logs`): the document keeps its moves and says
when its exchanges were dropped (``logs_dropped_at``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import orjson
import zstandard
from sqlalchemy import (
    DDL,
    Connection,
    DateTime,
    Integer,
    LargeBinary,
    String,
    Table,
    and_,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from tournoyons_gui.arbitre.store.base import Database, aware
from tournoyons_gui.arbitre.store.records import Exchange, Move, record_of
from tournoyons_gui.arbitre.store.schema import (
    GAME_IN_PLAY,
    Base,
    ExchangeRow,
    GameRow,
    MoveRow,
)

__all__ = [
    "FORMAT",
    "LEVEL",
    "ArchiveRow",
    "ArchiveStore",
    "Compactable",
    "TurnsDeriver",
    "pack",
    "unpack",
    "unpack_positions",
]

#: The document's format (``game_archives.format``); a reader refuses one it does not know.
FORMAT = 1
#: Zstandard's level: 19 packs a tenth smaller than 10 for ten times the time (tens of
#: milliseconds for a game of a hundred moves, in a thread: a game is packed once).
LEVEL = 19
_MICRO = dt.timedelta(microseconds=1)
#: The replayed Turns of this many documents kept in a process (a few megabytes).
REPLAYS_KEPT = 64

#: What replays a game's Turns: ``(set_name, first, values, kept)`` -> each move's Turn
#: as stored: ``kept[i]`` where it is not ``None``, else the rules' play of value ``i``
#: on the Turn before; ``None`` when the rules cannot (the Arbitre gives it: the store
#: knows no game).
TurnsDeriver = Callable[
    [str, dict[str, Any], Sequence[str], Sequence[dict[str, Any] | None]],
    list[dict[str, Any]] | None,
]


class ArchiveRow(Base):
    """``game_archives``: a finished game's moves and exchanges as one compressed
    document (see the module): ``data`` (Zstandard), its ``format``, the ``moves`` and
    ``exchanges`` it holds, the moves whose Turn is in it (``turns``: 0, each is
    replayed from the game's first Turn), its ``version`` (one more at each rewrite) and
    when its exchanges were dropped by the operator's retention (``logs_dropped_at``)."""

    __tablename__ = "game_archives"
    game_id: Mapped[str] = mapped_column(String(12), primary_key=True)
    format: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer, default=1)
    moves: Mapped[int] = mapped_column(Integer)
    exchanges: Mapped[int] = mapped_column(Integer)
    turns: Mapped[int] = mapped_column(Integer)
    logs_dropped_at: Mapped[dt.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    data: Mapped[bytes] = mapped_column(LargeBinary)


_ARCHIVES = cast(Table, ArchiveRow.__table__)
# Compressed already: PostgreSQL keeps the documents in the row (no TOAST table's chunks
# and index beside it, nor a second compression tried), as long as the row fits a page.
_MAIN = DDL("ALTER TABLE game_archives ALTER COLUMN data SET STORAGE MAIN")  # type: ignore[no-untyped-call]
event.listen(_ARCHIVES, "after_create", _MAIN.execute_if(dialect="postgresql"))
_GAMES = cast(Table, GameRow.__table__)
_MOVES = cast(Table, MoveRow.__table__)
_EXCHANGES = cast(Table, ExchangeRow.__table__)
_COMPRESS = zstandard.ZstdCompressor(level=LEVEL)


def unpack_positions(data: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return the first and last Turns of a packed game (its document ``data``), which
    its row holds empty once packed."""
    found = orjson.loads(zstandard.ZstdDecompressor().decompress(data))["p"]
    return dict(found["first"]), dict(found["turn"])


def _differences(values: Sequence[int]) -> list[int]:
    """Return each value less the one before (the first less 0): times an entry apart
    are short numbers, which compress to little."""
    return [b - a for a, b in zip([0, *values], values, strict=False)]


def _sums(steps: Sequence[int]) -> list[int]:
    """Return the running sums of ``steps`` (what :func:`_differences` took apart)."""
    total, found = 0, []
    for step in steps:
        total += step
        found.append(total)
    return found


def _offset(at: dt.datetime, start: dt.datetime) -> int:
    return (aware(at) - aware(start)) // _MICRO


def pack(
    created_at: dt.datetime,
    moves: Sequence[Move],
    exchanges: Sequence[Exchange],
    *,
    first: dict[str, Any],
    turn: dict[str, Any],
    kept_turns: Sequence[dict[str, Any] | None],
    logs_dropped_at: dt.datetime | None = None,
) -> bytes:
    """Return the compressed document of a game made at ``created_at`` from Turn
    ``first`` to Turn ``turn``, holding ``moves`` (in order) and ``exchanges`` (in log
    order, each with its id), and ``kept_turns``: each move's Turn where the rules do
    not give it back from the Turn before, else ``None`` (see the module). An engine's
    callback is the move's own query most of the time: left out then (``None``); a Tray
    that is its Turn's own ``Tray`` parameter too."""
    trays = [None if m.tray == m.turn.get("params", {}).get("Tray") else m.tray for m in moves]
    queries = {str(m.number): m.query for m in moves}
    document = {
        "v": FORMAT,
        "p": {"first": first, "turn": turn},
        "m": {
            "n": [m.number for m in moves],
            "s": [m.seat for m in moves],
            "v": [m.value for m in moves],
            "t": list(kept_turns),
            "y": trays,
            "ms": [m.ms for m in moves],
            "q": [m.query for m in moves],
            "er": [m.error for m in moves],
            "at": _differences([_offset(m.at, created_at) for m in moves]),
        },
        "x": {
            "id": _differences([int(e.id or 0) for e in exchanges]),
            "s": [e.seat for e in exchanges],
            "k": [e.kind for e in exchanges],
            "mv": [e.move_id for e in exchanges],
            "d": [
                None if e.kind == "callback" and queries.get(e.move_id) == e.detail else e.detail
                for e in exchanges
            ],
            "at": _differences([_offset(e.at, created_at) for e in exchanges]),
        },
        "dropped": logs_dropped_at.isoformat() if logs_dropped_at else None,
    }
    return _COMPRESS.compress(orjson.dumps(document))


@dataclass(frozen=True)
class Unpacked:
    """A document read back: its moves (their Turns ``{}`` where left out, ``None`` in
    ``turns``; the Trays left out, ``None`` in ``trays``, are ``""`` until the Turns are
    replayed), exchanges, and when the exchanges were dropped."""

    moves: list[Move]
    exchanges: list[Exchange]
    turns: list[dict[str, Any] | None]
    trays: list[str | None]
    logs_dropped_at: dt.datetime | None
    first: dict[str, Any]
    turn: dict[str, Any]


def unpack(data: bytes, game_id: str, created_at: dt.datetime) -> Unpacked:
    """Return the document ``data`` of game ``game_id`` made at ``created_at``; raise
    ``ValueError`` for a format this program does not know."""
    document = orjson.loads(zstandard.ZstdDecompressor().decompress(data))
    if document.get("v") != FORMAT:
        raise ValueError(f"game {game_id}: an archive of format {document.get('v')!r}")
    start = aware(created_at)
    m, x = document["m"], document["x"]
    turns = m["t"]
    moves = [
        Move(
            game_id,
            number,
            seat,
            value,
            turns[i] if turns[i] is not None else {},
            tray if tray is not None else "",
            ms,
            query,
            error,
            start + at * _MICRO,
        )
        for i, (number, seat, value, tray, ms, query, error, at) in enumerate(
            zip(
                m["n"],
                m["s"],
                m["v"],
                m["y"],
                m["ms"],
                m["q"],
                m["er"],
                _sums(m["at"]),
                strict=True,
            )
        )
    ]
    if all(turn is not None for turn in turns):
        _fill_trays(moves, m["y"])
    queries = {str(move.number): move.query for move in moves}
    exchanges = [
        Exchange(
            game_id,
            seat,
            kind,
            move_id,
            queries.get(move_id, "") if detail is None else detail,
            start + at * _MICRO,
            number,
        )
        for number, seat, kind, move_id, detail, at in zip(
            _sums(x["id"]), x["s"], x["k"], x["mv"], x["d"], _sums(x["at"]), strict=True
        )
    ]
    dropped = document.get("dropped")
    return Unpacked(
        moves,
        exchanges,
        turns,
        m["y"],
        dt.datetime.fromisoformat(dropped) if dropped else None,
        dict(document["p"]["first"]),
        dict(document["p"]["turn"]),
    )


def _fill_trays(moves: list[Move], trays: Sequence[str | None]) -> None:
    """Give each move whose Tray was left out its Turn's ``Tray`` parameter."""
    for move, tray in zip(moves, trays, strict=True):
        if tray is None:
            move.tray = str(move.turn.get("params", {}).get("Tray", ""))


@dataclass
class Compactable:
    """A finished game as a compaction reads it: the game's Set, first and last Turns and
    time, its
    moves and exchanges merged (rows and document), the rows read (their move ids and
    exchange ids: those the compaction deletes), the document's version (0: none) and
    when its exchanges were dropped."""

    game_id: str
    set_name: str
    first: dict[str, Any]
    turn: dict[str, Any]
    created_at: dt.datetime
    moves: list[Move]
    exchanges: list[Exchange]
    move_rows: list[int]
    exchange_rows: list[int]
    version: int
    logs_dropped_at: dt.datetime | None


def _read(connection: Connection, game_id: str, exchanges: bool) -> tuple[list[Any], Any, Any]:
    """Read a game's rows (moves or exchanges, in order) first, then its document and
    game row (see the module: an entry met in both is the document's)."""
    if exchanges:
        rows = list(
            connection.execute(
                select(_EXCHANGES).where(_EXCHANGES.c.game_id == game_id).order_by(_EXCHANGES.c.id)
            )
        )
    else:
        rows = list(
            connection.execute(
                select(_MOVES).where(_MOVES.c.game_id == game_id).order_by(_MOVES.c.number)
            )
        )
    archive = connection.execute(
        select(_ARCHIVES.c.data, _ARCHIVES.c.version).where(_ARCHIVES.c.game_id == game_id)
    ).one_or_none()
    game = None
    if archive is not None:
        game = connection.execute(
            select(_GAMES.c.set_name, _GAMES.c.first, _GAMES.c.created_at).where(
                _GAMES.c.id == game_id
            )
        ).one_or_none()
    return rows, archive, game


def _first(game: Any, unpacked: Unpacked) -> dict[str, Any]:
    """Return a game's first Turn: its row's, or its document's once packed."""
    return unpacked.first if unpacked.first else dict(game.first)


def _merge_moves(rows: list[Any], archive: Unpacked | None) -> list[Move]:
    kept = list(archive.moves) if archive else []
    numbers = {m.number for m in kept}
    kept += [record_of(Move, r) for r in rows if r.number not in numbers]
    return sorted(kept, key=lambda m: m.number)


def _merge_exchanges(rows: list[Any], archive: Unpacked | None) -> list[Exchange]:
    kept = list(archive.exchanges) if archive else []
    ids = {e.id for e in kept}
    kept += [record_of(Exchange, r) for r in rows if r.id not in ids]
    return sorted(kept, key=lambda e: e.id or 0)


class ArchiveStore(Database):
    """A game's moves and exchanges read whole from its rows and its document, finished
    games packed, old logs dropped (see the module)."""

    #: Replays a game's Turns for a document that left them out (the Arbitre sets it).
    derive_turns: TurnsDeriver | None = None

    def _replayed(
        self,
        unpacked: Unpacked | None,
        set_name: str,
        first: dict[str, Any],
        key: tuple[str, int] | None = None,
    ) -> None:
        """Give a document's moves whose Turns were left out their Turns, replayed from
        the game's ``first`` Turn by its rules (:attr:`derive_turns`), and their Trays.
        The Turns of the last :data:`REPLAYS_KEPT` documents replayed (``key``: the game
        and its document's version) are kept in this process: a replay's steps read the
        same game again and again, and a long game's replay takes milliseconds."""
        if unpacked is None or all(turn is not None for turn in unpacked.turns):
            return
        if self.derive_turns is None:
            raise RuntimeError("this game's Turns are replayed by its rules: open an Arbitre")
        moves = unpacked.moves
        replays = self.__dict__.setdefault("_replays", OrderedDict())
        turns = replays.get(key) if key is not None else None
        if turns is None:
            turns = self.derive_turns(set_name, first, [m.value for m in moves], unpacked.turns)
            if key is not None and turns is not None:
                replays[key] = turns
                while len(replays) > REPLAYS_KEPT:
                    replays.popitem(last=False)
        else:
            replays.move_to_end(key)
        if turns is None or len(turns) != len(moves):
            raise RuntimeError(f"the rules of {set_name} cannot replay this game")
        for move, turn in zip(moves, turns, strict=True):
            move.turn = turn
        _fill_trays(moves, unpacked.trays)

    async def kept_moves(self, game_id: str) -> list[Move]:
        """Return a game's moves in order, from its rows and its document."""

        def read(connection: Connection) -> tuple[list[Any], Unpacked | None, str, Any, int]:
            rows, archive, game = _read(connection, game_id, exchanges=False)
            if archive is None or game is None:
                return rows, None, "", None, 0
            unpacked = unpack(archive.data, game_id, game.created_at)
            return rows, unpacked, game.set_name, _first(game, unpacked), archive.version

        rows, unpacked, set_name, first, version = await self.read(read)
        if unpacked is not None:
            self._replayed(unpacked, set_name, first, (game_id, version))
        return _merge_moves(rows, unpacked)

    async def kept_exchanges(self, game_id: str) -> list[Exchange]:
        """Return a game's exchange log in order, from its rows and its document."""

        def read(connection: Connection) -> list[Exchange]:
            rows, archive, game = _read(connection, game_id, exchanges=True)
            unpacked = None
            if archive is not None and game is not None:
                unpacked = unpack(archive.data, game_id, game.created_at)
            return _merge_exchanges(rows, unpacked)

        return await self.read(read)

    def positions_of(self, connection: Connection, game_id: str) -> Any:
        """Return a packed game's first and last Turns (``(first, turn)``), or ``None``:
        what its row holds empty once packed (read in the caller's ``connection``, after
        the row: the compaction empties the row in the transaction writing them)."""
        data = connection.scalar(select(_ARCHIVES.c.data).where(_ARCHIVES.c.game_id == game_id))
        return None if data is None else unpack_positions(data)

    async def logs_dropped(self, game_id: str) -> dt.datetime | None:
        """Return when the operator's retention dropped a game's exchanges, or ``None``."""
        statement = select(_ARCHIVES.c.logs_dropped_at).where(_ARCHIVES.c.game_id == game_id)
        found = await self.read(lambda connection: connection.scalar(statement))
        return aware(found) if found is not None else None

    # --- compaction -------------------------------------------------------------------------

    async def to_compact(self, after: str, limit: int) -> list[str]:
        """Return up to ``limit`` finished games (by id, after ``after``) that still have
        rows of moves or exchanges: the rows of the games in play and of those not yet
        packed, read along the rows' ``game_id`` indexes."""

        def read(connection: Connection) -> list[str]:
            found: set[str] = set()
            for table in (_MOVES, _EXCHANGES):
                found.update(
                    connection.scalars(
                        select(table.c.game_id)
                        .where(table.c.game_id > after)
                        .group_by(table.c.game_id)
                        .order_by(table.c.game_id)
                        .limit(limit)
                    )
                )
            ids = sorted(found)[:limit]
            if not ids:
                return []
            playing = set(
                connection.scalars(select(_GAMES.c.id).where(_GAMES.c.id.in_(ids), GAME_IN_PLAY))
            )
            # The last id is returned even when in play: the caller pages on from it.
            return [i for i in ids if i not in playing or i == ids[-1]]

        return await self.read(read)

    async def compactable(self, game_id: str) -> Compactable | None:
        """Return a finished game as a compaction reads it (its rows and document merged),
        or ``None`` for a game in play or not there."""

        def read(connection: Connection) -> tuple[Compactable, Unpacked | None] | None:
            game = connection.execute(
                select(
                    _GAMES.c.set_name,
                    _GAMES.c.first,
                    _GAMES.c.turn,
                    _GAMES.c.created_at,
                    _GAMES.c.status,
                ).where(_GAMES.c.id == game_id)
            ).one_or_none()
            if game is None or game.status == "playing":
                return None
            moves, archive, _ = _read(connection, game_id, exchanges=False)
            exchanges = list(
                connection.execute(
                    select(_EXCHANGES)
                    .where(_EXCHANGES.c.game_id == game_id)
                    .order_by(_EXCHANGES.c.id)
                )
            )
            unpacked = None
            version = 0
            first, turn = dict(game.first), dict(game.turn)
            if archive is not None:
                version = archive.version
                unpacked = unpack(archive.data, game_id, game.created_at)
                if unpacked.first:
                    first, turn = unpacked.first, unpacked.turn
            kept = Compactable(
                game_id,
                game.set_name,
                first,
                turn,
                aware(game.created_at),
                _merge_moves(moves, unpacked),
                _merge_exchanges(exchanges, unpacked),
                [r.id for r in moves],
                [r.id for r in exchanges],
                version,
                unpacked.logs_dropped_at if unpacked else None,
            )
            return kept, unpacked

        found = await self.read(read)
        if found is None:
            return None
        kept, unpacked = found
        # The merged moves are the document's own objects: replayed there, whole here.
        self._replayed(unpacked, kept.set_name, kept.first)
        return kept

    async def compact(self, packed: Sequence[tuple[Compactable, bytes, int]]) -> int:
        """Write each game's document (``(game, data, Turns kept)``) and its first and
        last Turns, empty its row's, and delete the rows it packed, in one transaction; a
        game whose document changed since it was read (another compaction, a retention's
        drop) is left as it is. Return the games written."""

        def write(connection: Connection) -> int:
            written = 0
            for game, data, turns in packed:
                values = {
                    "format": FORMAT,
                    "moves": len(game.moves),
                    "exchanges": len(game.exchanges),
                    "turns": turns,
                    "logs_dropped_at": game.logs_dropped_at,
                    "data": data,
                }
                if game.version == 0:
                    taken = connection.execute(
                        select(_ARCHIVES.c.game_id).where(_ARCHIVES.c.game_id == game.game_id)
                    ).first()
                    if taken is not None:
                        continue
                    connection.execute(
                        insert(_ARCHIVES).values(game_id=game.game_id, version=1, **values)
                    )
                else:
                    done = connection.execute(
                        update(_ARCHIVES)
                        .where(
                            _ARCHIVES.c.game_id == game.game_id,
                            _ARCHIVES.c.version == game.version,
                        )
                        .values(version=game.version + 1, **values)
                    )
                    if done.rowcount != 1:
                        continue
                connection.execute(
                    update(_GAMES)
                    .where(_GAMES.c.id == game.game_id, _GAMES.c.status != "playing")
                    .values(turn={}, first={})
                )
                if game.move_rows:
                    connection.execute(delete(_MOVES).where(_MOVES.c.id.in_(game.move_rows)))
                if game.exchange_rows:
                    connection.execute(
                        delete(_EXCHANGES).where(_EXCHANGES.c.id.in_(game.exchange_rows))
                    )
                written += 1
            return written

        return await self.write(write)

    # --- retention --------------------------------------------------------------------------

    async def drop_exchanges(self, game_ids: Sequence[str], at: dt.datetime) -> int:
        """Drop the exchanges of the packed games ``game_ids`` (their documents rewritten
        without them, saying ``at``; their rows deleted: a late callback's), each only
        over the version read; return the games written. The moves and Turns are left as
        they are: nothing is replayed."""

        def read(connection: Connection) -> list[tuple[str, int, bytes, list[int]]]:
            found = []
            for game_id in game_ids:
                archive = connection.execute(
                    select(_ARCHIVES.c.version, _ARCHIVES.c.data).where(
                        _ARCHIVES.c.game_id == game_id
                    )
                ).one_or_none()
                if archive is None:
                    continue
                rows = list(
                    connection.scalars(
                        select(_EXCHANGES.c.id).where(_EXCHANGES.c.game_id == game_id)
                    )
                )
                found.append((game_id, archive.version, archive.data, rows))
            return found

        def without(data: bytes) -> bytes:
            document = orjson.loads(zstandard.ZstdDecompressor().decompress(data))
            document["x"] = {name: [] for name in document["x"]}
            document["dropped"] = at.isoformat()
            return _COMPRESS.compress(orjson.dumps(document))

        found = await self.read(read)
        rewritten = [
            (game_id, version, await asyncio.to_thread(without, data), rows)
            for game_id, version, data, rows in found
        ]

        def write(connection: Connection) -> int:
            written = 0
            for game_id, version, data, rows in rewritten:
                done = connection.execute(
                    update(_ARCHIVES)
                    .where(_ARCHIVES.c.game_id == game_id, _ARCHIVES.c.version == version)
                    .values(version=version + 1, exchanges=0, logs_dropped_at=at, data=data)
                )
                if done.rowcount != 1:
                    continue
                if rows:
                    connection.execute(delete(_EXCHANGES).where(_EXCHANGES.c.id.in_(rows)))
                written += 1
            return written

        return await self.write(write) if rewritten else 0

    async def logs_to_drop(self, before: dt.datetime, limit: int) -> list[str]:
        """Return up to ``limit`` games packed, ended before ``before``, whose exchanges
        are still kept (the operator's retention drops them)."""
        statement = (
            select(_ARCHIVES.c.game_id)
            .join(_GAMES, _GAMES.c.id == _ARCHIVES.c.game_id)
            .where(
                and_(
                    _ARCHIVES.c.logs_dropped_at.is_(None),
                    _ARCHIVES.c.exchanges > 0,
                    _GAMES.c.ended_at < before,
                )
            )
            .limit(limit)
        )
        return await self.read(lambda connection: list(connection.scalars(statement)))
