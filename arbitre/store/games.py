"""The store's games: games and their seats, moves and exchange log, the leases, and the
added Sets (the asks awaiting an answer: :mod:`.pending`).

Save, then publish: a move is appended with its exchanges and the game's new Turn in one
transaction (``moves`` has a unique ``(game, number)``, so a move cannot be recorded twice)
before anyone hears of it; a game's end, each seat's Status and the final calls are
written in one transaction too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import cast

from sqlalchemy import (
    Connection,
    Table,
    bindparam,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from tournoyons_gui.arbitre.store.appends import (
    GroupedAppends,
    LeaseLost,
    PgAppend,
    sqlite_append,
)
from tournoyons_gui.arbitre.store.kept_lists import count_game, game_over
from tournoyons_gui.arbitre.store.kept_records import EndedSeat, keep_game_end
from tournoyons_gui.arbitre.store.kept_standings import TableSeat, keep_tournament_end
from tournoyons_gui.arbitre.store.ladder import LadderPlace, SlotTaken, ladder_game_made
from tournoyons_gui.arbitre.store.ladder_ends import LadderSeat, keep_ladder_end
from tournoyons_gui.arbitre.store.leases import LeaseStore
from tournoyons_gui.arbitre.store.packed import ArchiveStore
from tournoyons_gui.arbitre.store.pending import CLOSE_PENDING, DETAIL_CAP
from tournoyons_gui.arbitre.store.records import (
    AddedSetRecord,
    Exchange,
    Game,
    GameEnd,
    GamePage,
    LogEntry,
    MatchGame,
    Move,
    NewMove,
    Seat,
    SeatEnd,
    record_of,
)
from tournoyons_gui.arbitre.store.schema import (
    GAME_IN_PLAY,
    SEAT_NAME_KEY,
    AddedSetRow,
    ExchangeRow,
    GameRow,
    MatchGameRow,
    MoveRow,
    SeatRow,
)
from tournoyons_gui.arbitre.tables import FILLER

__all__ = ["MAX_PAGE", "Conflict", "GameStore", "LeaseLost"]

#: The highest page of games read: a page past it is read as it (and is empty); the
#: databases' OFFSET is a signed 64-bit integer, which an asked page must not overflow.
MAX_PAGE = 2**31


#: The tables the move path writes with SQLAlchemy Core (no ORM unit of work per move).
_GAMES = cast(Table, GameRow.__table__)
_MOVES = cast(Table, MoveRow.__table__)
_EXCHANGES = cast(Table, ExchangeRow.__table__)
_SEATS = cast(Table, SeatRow.__table__)
#: A seat's end, written for every seat of a game in one ``executemany``.
_SEAT_END = (
    update(_SEATS)
    .where(_SEATS.c.game_id == bindparam("seat_game"), _SEATS.c.index == bindparam("seat_index"))
    .values(
        final_status=bindparam("end_status"),
        error=bindparam("end_error"),
        rank=bindparam("end_rank"),
        score=bindparam("end_score"),
        fault=bindparam("end_fault"),
    )
)


#: A game ended by its lease holder while it is in play.
_END_GAME = (
    update(_GAMES)
    .where(
        _GAMES.c.id == bindparam("g_id"),
        _GAMES.c.status == "playing",
        _GAMES.c.lease_owner == bindparam("g_owner"),
    )
    .values(
        lease_owner=None,
        lease_until=None,
        status=bindparam("g_status"),
        winner=bindparam("g_winner"),
        result=bindparam("g_result"),
        reason=bindparam("g_reason"),
        ended_at=bindparam("g_at"),
    )
)


#: A game by id (``g_id``), and its seats in play order.
_GAME = select(_GAMES).where(_GAMES.c.id == bindparam("g_id"))
_SEATS_OF = select(_SEATS).where(_SEATS.c.game_id == bindparam("g_id")).order_by(_SEATS.c.index)


class Conflict(Exception):
    """A unique name or key is taken (by another worker meanwhile, say)."""


class GameStore(ArchiveStore, LeaseStore):
    """Games, seats, moves, exchanges, asks, leases and added Sets."""

    #: PostgreSQL's appends grouped (made at the first one).
    _grouped: GroupedAppends | None = None

    # --- games -----------------------------------------------------------------------------

    async def create_game(
        self,
        game: Game,
        seats: Sequence[Seat],
        place: MatchGame | None = None,
        ladder: LadderPlace | None = None,
    ) -> None:
        """Store a new game and its seats in one transaction, with its ``place`` in a
        match when it has one, its ``ladder`` place (:func:`.ladder.ladder_game_made`:
        its pair, the engines' slots) when it is a ladder game; raise :class:`Conflict`
        when a unique key is taken (a tournament's pairing or a ladder pair made meanwhile
        by another worker) or a ladder engine has no slot left."""
        row = _values(game)
        # Each seat carries its game's time and Set: the seat filters page along them.
        copied = {"created_at": game.created_at, "set_name": game.set_name}
        rows = [
            {**{k: v for k, v in _values(seat).items() if k != "id"}, **copied} for seat in seats
        ]
        places = [] if place is None else [_values(place)]

        def create(connection: Connection) -> None:
            connection.execute(insert(_GAMES), [row])
            _insert(connection, _SEATS, rows)
            _insert(connection, cast(Table, MatchGameRow.__table__), places)
            if ladder is not None:
                ladder_game_made(connection, ladder, game.id, game.created_at)
            count_game(connection, game.set_name)

        try:
            await self.write(create)
        except (IntegrityError, SlotTaken) as taken:
            raise Conflict(game.id) from taken

    async def game(self, game_id: str) -> tuple[Game, list[Seat]] | None:
        """Return a game and its seats in play order, or ``None`` (one read)."""
        named = {"g_id": game_id}

        def game(connection: Connection) -> tuple[Game, list[Seat]] | None:
            row = connection.execute(_GAME, named).one_or_none()
            if row is None:
                return None
            seats = connection.execute(_SEATS_OF, named)
            found = record_of(Game, row)
            if found.status != "playing" and not found.turn and not found.first:
                # A packed game's Turns are in its document (.archives).
                positions = self.positions_of(connection, game_id)
                if positions is not None:
                    found.first, found.turn = positions
            return found, [record_of(Seat, s) for s in seats]

        return await self.read(game)

    async def moves(self, game_id: str) -> list[Move]:
        """Return a game's moves in order (its rows, and its document once it is over:
        :mod:`.archives`)."""
        return await self.kept_moves(game_id)

    async def move(self, game_id: str, number: int) -> Move | None:
        """Return move ``number`` (from 1) of a game, or ``None``."""
        statement = select(_MOVES).where(_MOVES.c.game_id == game_id, _MOVES.c.number == number)
        row = await self.read(lambda connection: connection.execute(statement).one_or_none())
        if row is not None:
            return record_of(Move, row)
        return next((m for m in await self.kept_moves(game_id) if m.number == number), None)

    async def exchanges(self, game_id: str) -> list[Exchange]:
        """Return a game's exchange log in order (its rows, and its document once it is
        over: :mod:`.archives`)."""
        return await self.kept_exchanges(game_id)

    async def seat_by_token(self, token: str) -> Seat | None:
        """Return the person seat holding ``token``."""
        async with self.sessions() as session:
            row = (
                await session.scalars(select(SeatRow).where(SeatRow.token == token))
            ).one_or_none()
            return None if row is None else record_of(Seat, row)

    async def playing(self) -> list[str]:
        """Return the ids of the games still marked in progress."""
        async with self.sessions() as session:
            rows = await session.scalars(select(GameRow.id).where(GAME_IN_PLAY))
            return list(rows)

    async def has_moved(self, game_id: str, seat: int) -> bool:
        """Return whether seat ``seat`` (its index) has a move recorded in the game."""
        statement = (
            select(_MOVES.c.id).where(_MOVES.c.game_id == game_id, _MOVES.c.seat == seat).limit(1)
        )
        return await self.read(lambda connection: connection.scalar(statement) is not None)

    async def list_games(
        self, *, set_name: str = "", seat: str = "", page: int = 1, per_page: int = 25
    ) -> GamePage:
        """Return a page of games, newest first, filtered by Set (its name as games hold
        it) and by a seat's name (any case) or URL, whole (``page`` 1 the first,
        :data:`MAX_PAGE` at most), and whether more follow: for programs and tests (the
        web reads :mod:`.lists`). Nothing is counted: a page reads its rows and one more,
        along the lists' indexes (:meth:`~.lists.ListStore.games_page`)."""
        page = max(1, min(page, MAX_PAGE))
        offset = (page - 1) * per_page
        async with self.sessions() as session:
            query = select(GameRow)
            if set_name:
                query = query.where(GameRow.set_name == set_name)
            if seat:
                named = (func.lower(seat) == SEAT_NAME_KEY) | (SeatRow.url == seat)
                query = query.where(GameRow.id.in_(select(SeatRow.game_id).where(named)))
            rows = list(
                await session.scalars(
                    query.order_by(GameRow.created_at.desc(), GameRow.id)
                    .offset(offset)
                    .limit(per_page + 1)
                )
            )
            more = len(rows) > per_page
            rows = rows[:per_page]
            seats: dict[str, list[Seat]] = {row.id: [] for row in rows}
            if rows:
                for seat_row in await session.scalars(
                    select(SeatRow).where(SeatRow.game_id.in_(list(seats))).order_by(SeatRow.index)
                ):
                    seats[seat_row.game_id].append(record_of(Seat, seat_row))
            return GamePage([record_of(Game, r) for r in rows], seats, more)

    # --- writing a game's moves, log and end --------------------------------------------

    async def log(
        self, game_id: str, seat: int, kind: str, move_id: str = "", detail: str = ""
    ) -> None:
        """Append one exchange to the log, stamped now (``detail`` capped at 8 KiB)."""
        rows = [_exchange(game_id, seat, kind, move_id, detail, self.now())]
        await self.write(lambda connection: _insert(connection, _EXCHANGES, rows))

    async def log_many(self, game_id: str, entries: Sequence[LogEntry]) -> None:
        """Append exchanges stamped by this host's clock (:meth:`from_host`), in one
        transaction."""
        rows = [
            _exchange(game_id, seat, kind, "", detail, self.from_host(at))
            for seat, kind, detail, at in entries
        ]
        if rows:
            await self.write(lambda connection: _insert(connection, _EXCHANGES, rows))

    async def append_moves(
        self, game_id: str, owner: str, moves: Sequence[NewMove]
    ) -> tuple[dict[str, object], int]:
        """Append ``moves`` (numbered on from the game's last) with their exchanges, and set
        the game's Turn to the last one's, in one transaction; return (that Turn, the
        game's move count). Raises :class:`LeaseLost` when ``owner`` no longer holds the
        game's lease, ``RuntimeError`` when the game changed under its driver.

        The move path's one write (:meth:`write`): the game's row is updated only if
        ``owner`` holds its lease and it has the moves its driver knows of (which takes the
        row's lock, as ``SELECT ... FOR UPDATE`` did), then the moves and their exchanges
        are inserted, each table in one ``executemany``; nothing is read back. On SQLite
        three statements, given to the driver straight (:func:`sqlite_append`), grouped
        with the other games' in the writer thread's transaction; on PostgreSQL one
        statement in autocommit for the appends of every game asked meanwhile
        (:class:`~.appends.GroupedAppends`)."""
        at = self.now()
        first, last = moves[0], moves[-1]
        if not self.postgres:
            await self.write(sqlite_append(game_id, owner, moves, at, self.clock_offset))
            return dict(last.turn), last.number
        stamp = at.isoformat()
        asked = PgAppend(
            game_id,
            owner,
            first.number - 1,
            last.number,
            last.turn,
            [
                {
                    "game_id": game_id,
                    "number": move.number,
                    "seat": move.seat,
                    "value": move.value,
                    "turn": move.turn,
                    "tray": move.tray,
                    "ms": move.ms,
                    "query": move.query[:DETAIL_CAP],
                    "error": "",
                    "at": stamp,
                }
                for move in moves
            ],
            [
                {
                    "game_id": game_id,
                    "seat": index,
                    "kind": kind,
                    "move_id": str(move.number),
                    "detail": detail[:DETAIL_CAP],
                    "at": self.from_host(stamped).isoformat(),
                }
                for move in moves
                for index, kind, detail, stamped in move.exchanges
            ],
        )
        if self._grouped is None:
            self._grouped = GroupedAppends(self.statement)
        await self._grouped.append(asked)
        return dict(last.turn), last.number

    async def finish_game(
        self,
        game_id: str,
        owner: str,
        end: GameEnd,
        ends: Sequence[tuple[Seat, SeatEnd]],
        finals: Sequence[tuple[int, str]],
    ) -> bool:
        """End a game ``owner`` drives as ``end`` says, with each seat's end and the final
        calls to be sent (seat index, URL), logged, and its asks still open closed (an
        answer arriving later, at any worker, is refused as late); all in one transaction.
        Return ``False`` and change nothing when the game is over already or driven by
        another worker. The records of its registered engines are kept up to date in the
        same transaction (:func:`~.kept_records.keep_game_end`)."""
        at = self.now()
        seat_ends = [
            {
                "seat_game": game_id,
                "seat_index": seat.index,
                "end_status": seat_end.status,
                "end_error": seat_end.error,
                "end_rank": seat_end.rank,
                "end_score": seat_end.score,
                "end_fault": seat_end.fault,
            }
            for seat, seat_end in ends
        ]
        logged = [_exchange(game_id, index, "final", "", url, at) for index, url in finals]
        seated = [EndedSeat(seat.index, seat.name, seat.registration) for seat, _ in ends]
        laddered = [
            LadderSeat(seat.index, seat.registration, seat_end.rank, seat_end.fault, seat_end.error)
            for seat, seat_end in ends
        ]
        failed = end.status != "over" or end.result == "error"
        at_table = [
            TableSeat(
                FILLER if seat.entrant is None else seat.entrant,
                None if failed else seat_end.rank,
                seat_end.score,
                seat_end.status == 9,
            )
            for seat, seat_end in ends
        ]

        named = {
            "g_id": game_id,
            "g_owner": owner,
            "g_status": end.status,
            "g_winner": end.winner,
            "g_result": end.result,
            "g_reason": end.reason[:2000],
            "g_at": at,
        }

        def finish(connection: Connection) -> bool:
            if connection.execute(_END_GAME, named).rowcount != 1:
                return False
            # The registered engines' kept records (.kept_records).
            keep_game_end(
                connection,
                game_id=game_id,
                clock=self.now,
                status=end.status,
                result=end.result,
                winner=end.winner,
                seats=seated,
            )
            # The ladder's standings, pairs, rests and faults (.ladder_ends).
            keep_ladder_end(
                connection,
                game_id=game_id,
                clock=self.now,
                status=end.status,
                result=end.result,
                winner=end.winner,
                seats=laddered,
            )
            # The tournament's kept standings (.kept_standings), after the engines' and the
            # ladder's: its lock is the last taken, its stamp of the game's end the last made.
            keep_tournament_end(
                connection,
                game_id=game_id,
                clock=self.now,
                status=end.status,
                result=end.result,
                winner=end.winner,
                seats=at_table,
            )
            game_over(connection, game_id)
            if seat_ends:
                connection.execute(_SEAT_END, seat_ends)
            _insert(connection, _EXCHANGES, logged)
            # The game's asks end with it: an answer arriving later, at any worker, is
            # refused as late and logged against the game.
            connection.execute(CLOSE_PENDING, {"p_game": game_id, "p_at": at})
            return True

        return await self.write(finish)

    # --- added Sets (chapter VI) -----------------------------------------------------------

    async def added_sets(self) -> list[AddedSetRecord]:
        """Return the added Sets, by name."""
        async with self.sessions() as session:
            rows = await session.scalars(select(AddedSetRow).order_by(AddedSetRow.key))
            return [record_of(AddedSetRecord, row) for row in rows]

    async def add_set(self, added: AddedSetRecord) -> bool:
        """Store an added Set; return ``False`` when its name is taken (by another worker
        meanwhile, say)."""
        try:
            async with self.session() as session:
                session.add(AddedSetRow(**_values(added)))
        except IntegrityError:
            return False
        return True


def _values(record: object) -> dict[str, object]:
    """Return a record's fields by name (slots dataclasses have no ``__dict__``)."""
    return {name: getattr(record, name) for name in record.__dataclass_fields__}  # type: ignore[attr-defined]


def _exchange(
    game_id: str, seat: int, kind: str, move_id: str, detail: str, at: dt.datetime
) -> dict[str, object]:
    """Return an exchange's row values (``detail`` capped at :data:`DETAIL_CAP`)."""
    return {
        "game_id": game_id,
        "seat": seat,
        "kind": kind,
        "move_id": move_id,
        "detail": detail[:DETAIL_CAP],
        "at": at,
    }


def _insert(connection: Connection, table: Table, rows: list[dict[str, object]]) -> None:
    """Insert ``rows`` into ``table`` in one ``executemany`` (nothing when there are none)."""
    if rows:
        connection.execute(insert(table), rows)
