"""The store's reads and writes of packed games (:mod:`.archives` says how a game is
packed): a game's moves and exchanges read whole from its rows and its document, finished
games packed, old logs dropped. See :mod:`.archives` for what is guaranteed: nothing
lost or doubled, a read meeting a compaction counting each entry once."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import orjson
import zstandard
from sqlalchemy import Connection, Table, and_, delete, insert, select, update

from tournoyons_gui.arbitre.store.archives import (
    FORMAT,
    REPLAYS_KEPT,
    ArchiveRow,
    TurnsDeriver,
    Unpacked,
    compress,
    fill_trays,
    unpack,
    unpack_positions,
)
from tournoyons_gui.arbitre.store.base import Database, aware
from tournoyons_gui.arbitre.store.records import Exchange, Move, record_of
from tournoyons_gui.arbitre.store.schema import GAME_IN_PLAY, ExchangeRow, GameRow, MoveRow

__all__ = ["ArchiveStore", "Compactable", "PlayedMove", "played_moves"]

_ARCHIVES = cast(Table, ArchiveRow.__table__)
_GAMES = cast(Table, GameRow.__table__)
_MOVES = cast(Table, MoveRow.__table__)
_EXCHANGES = cast(Table, ExchangeRow.__table__)


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


#: A move as the match pages read it: (number, seat index, value, milliseconds).
PlayedMove = tuple[int, int, str, int]


def played_moves(connection: Connection, game_ids: Sequence[str]) -> dict[str, list[PlayedMove]]:
    """Return the moves of each of ``game_ids`` in order, as :data:`PlayedMove`, from the
    rows of the games in play and the documents of the packed ones (no Turn replayed: the
    values and times are in the document as played); read in the caller's
    ``connection``, rows first (a compaction meanwhile moves an entry into the document,
    where the merge finds it). Three statements, whatever the count of games."""
    ids = list(dict.fromkeys(game_ids))
    found: dict[str, dict[int, PlayedMove]] = {game_id: {} for game_id in ids}
    if not ids:
        return {}
    rows = connection.execute(
        select(_MOVES.c.game_id, _MOVES.c.number, _MOVES.c.seat, _MOVES.c.value, _MOVES.c.ms).where(
            _MOVES.c.game_id.in_(ids)
        )
    )
    for game_id, number, seat, value, ms in rows:
        found[game_id][number] = (number, seat, value, int(ms or 0))
    packed = connection.execute(
        select(_ARCHIVES.c.game_id, _ARCHIVES.c.data, _GAMES.c.created_at)
        .join_from(_ARCHIVES, _GAMES, _GAMES.c.id == _ARCHIVES.c.game_id)
        .where(_ARCHIVES.c.game_id.in_(ids))
    )
    for game_id, data, created_at in packed:
        for move in unpack(data, game_id, created_at).moves:
            found[game_id][move.number] = (move.number, move.seat, move.value, int(move.ms or 0))
    return {game_id: [moves[n] for n in sorted(moves)] for game_id, moves in found.items()}


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
        fill_trays(moves, unpacked.trays)

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
            return compress(orjson.dumps(document))

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
