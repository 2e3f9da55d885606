"""The store's tournaments and registered engines: registrations (with their edit token),
tournaments and their entrants, the tournaments' leases (one scheduler at a time), and the
reads behind standings and an engine's record."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Select, select, tuple_
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from tournoyons_gui.arbitre.store.engine_records import RecordStore
from tournoyons_gui.arbitre.store.games import Conflict, GameStore
from tournoyons_gui.arbitre.store.kept_standings import Kept, read_kept
from tournoyons_gui.arbitre.store.ladder import sync_engine_ladder
from tournoyons_gui.arbitre.store.records import (
    Engine,
    Entrant,
    Game,
    Seat,
    Tournament,
    record_of,
)
from tournoyons_gui.arbitre.store.schema import (
    GAME_IN_PLAY,
    EngineRow,
    EntrantRow,
    GameRow,
    OrganiserRow,
    SeatRow,
    TournamentRow,
)

__all__ = ["TournamentStore", "tournament_games_statement"]

#: The columns of a game but its positions (the bulk of a row), for the scheduler.
_LIGHT = [c for c in GameRow.__table__.columns if c.name not in ("turn", "first")]


class TournamentStore(RecordStore, GameStore):
    """Registered engines (their records: :class:`~.engine_records.RecordStore`),
    tournaments and their entrants."""

    # --- registered engines ------------------------------------------------------------

    async def add_engine(self, engine: Engine) -> None:
        """Store a registration (on the ladder when it asks: its standings made in the
        same transaction); raise :class:`Conflict` when its name is taken."""
        async with self.sessions() as session:
            taken = await session.scalar(
                select(EngineRow.id).where(EngineRow.name == engine.name).limit(1)
            )
        if taken is not None:
            raise Conflict(engine.name)
        try:
            async with self.session() as session:
                session.add(EngineRow(**{n: getattr(engine, n) for n in _fields(Engine)}))
                await session.flush()
                if engine.ladder:
                    at = self.now()
                    await session.run_sync(
                        lambda sync: sync_engine_ladder(sync.connection(), engine.id, at)
                    )
        except IntegrityError as taken_meanwhile:
            raise Conflict(engine.name) from taken_meanwhile

    async def update_engine(self, engine_id: str, token: str, changes: Mapping[str, Any]) -> Engine:
        """Change a registration's fields ``changes`` (by name) when ``token`` is its edit
        token, its ladder standings brought in line in the same transaction
        (:func:`~.ladder.sync_engine_ladder`). Raises ``LookupError`` (no such engine),
        ``PermissionError`` (wrong token), :class:`Conflict` (the new name is taken)."""
        try:
            async with self.session() as session:
                row = await session.get(EngineRow, engine_id)
                if row is None:
                    raise LookupError(engine_id)
                if not row.secret or not secrets.compare_digest(
                    token.encode("utf-8", "replace"), row.secret.encode()
                ):
                    raise PermissionError(engine_id)
                for name, value in changes.items():
                    setattr(row, name, value)
                await session.flush()
                at = self.now()
                await session.run_sync(
                    lambda sync: sync_engine_ladder(sync.connection(), engine_id, at)
                )
                await session.refresh(row)
                return record_of(Engine, row)
        except IntegrityError as taken:
            raise Conflict(str(changes.get("name", ""))) from taken

    async def add_organiser(self, digest: str, note: str = "") -> None:
        """Store an organiser token's SHA-256 ``digest``."""
        async with self.session() as session:
            session.add(OrganiserRow(digest=digest, note=note[:100], created_at=self.now()))

    async def is_organiser(self, digest: str) -> bool:
        """Whether ``digest`` is a stored organiser token's SHA-256."""
        async with self.sessions() as session:
            return await session.get(OrganiserRow, digest) is not None

    async def registered(self, engine_id: str) -> Engine | None:
        """Return a registered engine, or ``None``."""
        async with self.sessions() as session:
            row = await session.get(EngineRow, engine_id, populate_existing=True)
            return None if row is None else record_of(Engine, row)

    async def engine_by_url(self, url: str) -> Engine | None:
        """Return the first registration of ``url``, or ``None``."""
        async with self.sessions() as session:
            row = await session.scalar(select(EngineRow).where(EngineRow.url == url).limit(1))
            return None if row is None else record_of(Engine, row)

    # --- tournaments ---------------------------------------------------------------------

    async def create_tournament(self, tournament: Tournament, entrants: Sequence[Entrant]) -> None:
        """Store a tournament and its entrants (in seed order) in one transaction."""
        async with self.session() as session:
            session.add(TournamentRow(**{n: getattr(tournament, n) for n in _fields(Tournament)}))
            await session.flush()
            for index, entrant in enumerate(entrants):
                session.add(
                    EntrantRow(
                        tournament_id=tournament.id,
                        index=index,
                        kind=entrant.kind,
                        name=entrant.name,
                        url=entrant.url,
                        registration=entrant.registration or "",
                    )
                )

    async def tournament(
        self, tournament_id: str, *, positions: bool = True
    ) -> tuple[Tournament, list[Entrant], list[Game]] | None:
        """Return a tournament, its entrants by index and its games in creation order;
        without ``positions`` the games' positions (``turn`` and ``first``, the bulk of a
        row) are not read and are empty (the scheduler's view, every second)."""
        async with self.sessions() as session:
            row = await session.get(TournamentRow, tournament_id, populate_existing=True)
            if row is None:
                return None
            entrants = await _entrants(session, tournament_id)
            order = (GameRow.created_at, GameRow.id)
            where = GameRow.tournament_id == tournament_id
            if positions:
                games = [
                    record_of(Game, g)
                    for g in await session.scalars(select(GameRow).where(where).order_by(*order))
                ]
            else:
                games = [
                    _light(r)
                    for r in await session.execute(select(*_LIGHT).where(where).order_by(*order))
                ]
            return record_of(Tournament, row), entrants, games

    async def tournament_entrants(
        self, tournament_id: str
    ) -> tuple[Tournament, list[Entrant]] | None:
        """Return a tournament and its entrants by index (not its games), or ``None``."""
        async with self.sessions() as session:
            row = await session.get(TournamentRow, tournament_id, populate_existing=True)
            if row is None:
                return None
            entrants = await _entrants(session, tournament_id)
            return record_of(Tournament, row), entrants

    async def tournament_games(
        self,
        tournament_id: str,
        *,
        after: tuple[dt.datetime, str] | None = None,
        limit: int = 500,
    ) -> list[Game]:
        """Return up to ``limit`` of a tournament's games in the order they were made,
        after the position ``after`` (the last one's ``(created_at, id)``), without their
        positions (``turn`` and ``first`` empty): a batch of its games list or CSV, read
        along the ``(tournament_id, created_at, id)`` index."""
        statement = tournament_games_statement(tournament_id, after, limit)
        return await self.read(
            lambda connection: [_light(r) for r in connection.execute(statement)]
        )

    async def tournament_seats(self, tournament_id: str) -> dict[str, list[Seat]]:
        """Return the seats of a tournament's games, in play order, by game id (tables of
        four: each seat's entrant, rank, Status and total)."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(SeatRow)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(GameRow.tournament_id == tournament_id)
                .order_by(SeatRow.game_id, SeatRow.index)
            )
            seats: dict[str, list[Seat]] = {}
            for row in rows:
                seats.setdefault(row.game_id, []).append(record_of(Seat, row))
            return seats

    async def kept_standings(self, tournament_id: str) -> Kept:
        """Return a tournament's kept standings (:mod:`.kept_standings`): its entrants'
        lines and the pairs that met, at most 64 and 64 x 63 rows, whatever its games."""
        return await self.read(lambda connection: read_kept(connection, tournament_id))

    async def tournament_in_play(self, tournament_id: str) -> list[Game]:
        """Return a tournament's games in play (without their positions), in the order
        made: along the games in play's own index (at most a few hundred games), never
        the tournament's other games."""
        statement = (
            select(*_LIGHT)
            .where(GAME_IN_PLAY, GameRow.tournament_id == tournament_id)
            .order_by(GameRow.created_at, GameRow.id)
        )
        return await self.read(
            lambda connection: [_light(r) for r in connection.execute(statement)]
        )

    async def seats_of(self, game_ids: Sequence[str]) -> dict[str, list[Seat]]:
        """Return the seats of the games ``game_ids`` (a page's), in play order, by game
        id."""
        if not game_ids:
            return {}
        statement = (
            select(SeatRow.__table__)
            .where(SeatRow.game_id.in_(list(game_ids)))
            .order_by(SeatRow.game_id, SeatRow.index)
        )

        def read(connection: Any) -> dict[str, list[Seat]]:
            seats: dict[str, list[Seat]] = {}
            for row in connection.execute(statement):
                seats.setdefault(row.game_id, []).append(record_of(Seat, row))
            return seats

        return await self.read(read)

    async def running_tournaments(self) -> list[str]:
        """Return the ids of the tournaments still running (every worker's scan asks, each
        second: one read)."""
        statement = select(TournamentRow.id).where(TournamentRow.status == "running")
        return await self.read(lambda connection: list(connection.scalars(statement)))

    async def acquire_tournament(self, tournament_id: str, owner: str, seconds: float) -> bool:
        """Take a running tournament's lease (its scheduling) for ``seconds`` when it is
        free, expired or ``owner``'s already; return whether ``owner`` holds it."""
        return await self.take_lease(TournamentRow, tournament_id, "running", owner, seconds)

    async def save_byes(self, tournament_id: str, byes: Sequence[Sequence[int]]) -> None:
        """Record a Swiss tournament's byes (``[[round, entrant], ...]``)."""
        async with self.session() as session:
            stored = await session.get(TournamentRow, tournament_id, with_for_update=True)
            if stored is not None:
                stored.byes = [list(b) for b in byes]

    async def end_tournament(self, tournament_id: str) -> None:
        """Mark a running tournament over and give up its lease."""
        async with self.session() as session:
            stored = await session.get(TournamentRow, tournament_id, with_for_update=True)
            if stored is not None and stored.status == "running":
                stored.status = "over"
                stored.ended_at = self.now()
                stored.lease_owner = stored.lease_until = None


def tournament_games_statement(
    tournament_id: str, after: tuple[dt.datetime, str] | None, limit: int
) -> Select[Any]:
    """Return the statement of up to ``limit`` of a tournament's games (without their
    positions) in the order made, after the position ``after`` (``(created_at, id)``),
    along the ``(tournament_id, created_at, id)`` index."""
    statement = select(*_LIGHT).where(GameRow.tournament_id == tournament_id)
    if after is not None:
        statement = statement.where(tuple_(GameRow.created_at, GameRow.id) > tuple_(*after))
    return statement.order_by(GameRow.created_at, GameRow.id).limit(limit)


def _light(row: Any) -> Game:
    """Return a game read without its positions (:data:`_LIGHT`), times made aware."""
    game = Game(**{**dict(row._mapping), "turn": {}, "first": {}})
    for name in ("created_at", "ended_at", "lease_until"):
        moment = getattr(game, name)
        if moment is not None and moment.tzinfo is None:
            setattr(game, name, moment.replace(tzinfo=dt.UTC))
    return game


def _fields(cls: type[object]) -> list[str]:
    return list(cls.__dataclass_fields__)  # type: ignore[attr-defined]


async def _entrants(session: AsyncSession, tournament_id: str) -> list[Entrant]:
    """Return a tournament's entrants in seed order, read in ``session``."""
    rows = await session.scalars(
        select(EntrantRow)
        .where(EntrantRow.tournament_id == tournament_id)
        .order_by(EntrantRow.index)
    )
    return [record_of(Entrant, e) for e in rows]
