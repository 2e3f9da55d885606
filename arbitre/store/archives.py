"""A finished game's moves and exchanges kept as one compressed document: a tenth of the
disk their rows take (a row of ``moves`` holds the whole Turn after the move, the
spectators' Tray and the engine's query; a row of ``exchanges`` the whole URL asked).

While a game is played its moves and exchanges are rows (the move path appends them, a
watcher reads them as they come). Once it is over, :meth:`~.packed.ArchiveStore.compact` packs
them into one row of ``game_archives`` and deletes the rows, in one transaction: a
**document** of columns (each field of every move one list, then each field of every
exchange), times as microseconds from the game's creation, a Tray left out where it is
the Turn's own ``Tray`` parameter, and each move's Turn left out when the Set's rules give
it back from the Turn before (the caller says which, having replayed them:
:mod:`~tournoyons_gui.arbitre.compaction`), as JSON (orjson) compressed with Zstandard
(level :data:`LEVEL`). Columns of like values compress far better than rows.

Reads (:mod:`.packed`: ``kept_moves``, ``kept_exchanges``) give the same records as
before, whatever the game's state: the rows and the document, merged.
A row can arrive after its game was packed (an engine's late callback is logged against
the game); the next compaction packs it too. The document keeps the ids of the exchanges
it holds and the moves are numbered, so a read that meets a compaction halfway (the rows
read, then the document written with them) counts each entry once: the rows are read
first, then the document, and an entry in both is taken from the document. Nothing is
lost or doubled: a compaction deletes exactly the rows it packed, and writes its document
only over the version it read (``version``), in the same transaction.

An operator's retention (``serve --keep-logs DAYS``) drops the exchanges of games that
ended long ago (:meth:`~.packed.ArchiveStore.drop_logs`): the document keeps its moves and says
when its exchanges were dropped (``logs_dropped_at``).
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import orjson
import zstandard
from sqlalchemy import (
    DDL,
    DateTime,
    Integer,
    LargeBinary,
    String,
    Table,
    event,
)
from sqlalchemy.orm import Mapped, mapped_column

from tournoyons_gui.arbitre.store.base import aware
from tournoyons_gui.arbitre.store.records import Exchange, Move
from tournoyons_gui.arbitre.store.schema import (
    Base,
    ExchangeRow,
    GameRow,
    MoveRow,
)

__all__ = [
    "FORMAT",
    "LEVEL",
    "REPLAYS_KEPT",
    "ArchiveRow",
    "TurnsDeriver",
    "Unpacked",
    "compress",
    "fill_trays",
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
#: Each thread's compressor. python-zstandard's compressor wraps one zstd context, which
#: two threads may not use at once (its documentation: "assume instances are not thread
#: safe"): shared, two packs at once crashed the process or wrote a corrupt document. One
#: per thread, made once, keeps the context's set-up out of each pack.
_COMPRESSORS = threading.local()


def compress(data: bytes) -> bytes:
    """Return ``data`` compressed with Zstandard at :data:`LEVEL` (one frame), by the
    calling thread's own compressor; safe from any number of threads at once."""
    compressor: zstandard.ZstdCompressor | None = getattr(_COMPRESSORS, "compressor", None)
    if compressor is None:
        compressor = _COMPRESSORS.compressor = zstandard.ZstdCompressor(level=LEVEL)
    return compressor.compress(data)


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
    return compress(orjson.dumps(document))


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
        fill_trays(moves, m["y"])
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


def fill_trays(moves: list[Move], trays: Sequence[str | None]) -> None:
    """Give each move whose Tray was left out its Turn's ``Tray`` parameter."""
    for move, tray in zip(moves, trays, strict=True):
        if tray is None:
            move.tray = str(move.turn.get("params", {}).get("Tray", ""))
