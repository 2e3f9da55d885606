"""The move path's append on SQLite, and why an append is refused.

:func:`sqlite_append` gives the append's three statements (the game's row moved on by its
lease holder knowing its last move, the moves, their exchanges) to SQLite's driver
straight, with the values SQLAlchemy's types would store (its JSON text, its SQLite time
text): half the CPU of the same statements through Core (a profile of
``benchmarks/arbitre.py``). PostgreSQL's append is one Core statement (:mod:`.games`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import cast

from sqlalchemy import Connection, Table, select

from tournoyons_gui.arbitre.store.base import json_text, sqlite_time
from tournoyons_gui.arbitre.store.pending import DETAIL_CAP
from tournoyons_gui.arbitre.store.records import NewMove
from tournoyons_gui.arbitre.store.schema import GameRow

__all__ = ["LeaseLost", "not_appended", "sqlite_append"]

_GAMES = cast(Table, GameRow.__table__)
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
