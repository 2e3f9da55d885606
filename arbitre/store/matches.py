"""The store's matches: a match of ``play`` and its games in order.

A match is written when it starts (``running``), each of its games is linked to it in the
transaction that creates the game (:meth:`~.games.GameStore.create_game`'s ``place``), and
the match is ended with its SPRT's last LLR and verdict (``over``, or ``interrupted`` by
Ctrl-C). Its games are read in order along ``match_games``' primary key (match, number),
their seats along ``seats``' game index: two statements whatever the games' count, or a
page of them after a game's number (keyset paging, as the lists are: a page costs its rows
whatever its depth). The matches are listed newest first along ``ix_matches_created_id``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import (
    Connection,
    Select,
    Table,
    case,
    exists,
    func,
    insert,
    select,
    tuple_,
    update,
)

from tournoyons_gui.arbitre.store.base import Database
from tournoyons_gui.arbitre.store.lists import Listed, NewestKey
from tournoyons_gui.arbitre.store.packed import played_moves
from tournoyons_gui.arbitre.store.records import (
    Game,
    Match,
    MatchEntry,
    MatchGame,
    MatchResult,
    Seat,
    record_of,
)
from tournoyons_gui.arbitre.store.schema import (
    GameRow,
    MatchGameRow,
    MatchRow,
    SeatRow,
)

__all__ = ["MatchStore"]

_MATCHES = cast(Table, MatchRow.__table__)
_PLACES = cast(Table, MatchGameRow.__table__)
_GAMES = cast(Table, GameRow.__table__)
_SEATS = cast(Table, SeatRow.__table__)
#: A game's columns but its positions (the bulk of a row: a Tarot deal's state).
_LIGHT = [c for c in _GAMES.c if c.name not in ("turn", "first")]


class MatchStore(Database):
    """Matches and their games."""

    async def create_match(self, match: Match) -> None:
        """Store a new match (its games are linked as they are made)."""
        row = {name: getattr(match, name) for name in Match.__dataclass_fields__}
        await self.write(lambda connection: connection.execute(insert(_MATCHES), [row]))

    async def end_match(
        self, match_id: str, status: str, llr: float | None = None, verdict: str = ""
    ) -> None:
        """End a match as ``status`` (``over``, ``interrupted``) with its SPRT's last
        ``llr`` and ``verdict`` (``H0``, ``H1``, ``""``)."""
        statement = (
            update(_MATCHES)
            .where(_MATCHES.c.id == match_id)
            .values(status=status, llr=llr, verdict=verdict, ended_at=self.now())
        )
        await self.write(lambda connection: connection.execute(statement))

    async def match(self, match_id: str) -> Match | None:
        """Return a match, or ``None``."""
        statement = select(_MATCHES).where(_MATCHES.c.id == match_id)

        def read(connection: Connection) -> Match | None:
            row = connection.execute(statement).one_or_none()
            return None if row is None else record_of(Match, row)

        return await self.read(read)

    async def match_games(self, match_id: str) -> list[MatchEntry]:
        """Return a match's games in order (``number``), each with its place, the game
        (no positions) and its seats in play order: two statements, along the primary key
        of ``match_games`` and the index of ``seats.game_id``."""
        return await self.read(lambda connection: _entries(connection, match_id))

    async def match_results(self, match_id: str) -> list[MatchResult]:
        """Return a match's games in order as its summary counts them
        (:class:`MatchResult`: the columns it reads, no record made whole): two
        statements, as :meth:`match_games`, a fraction of its time on a long match."""
        names = _place_fields()
        games = (
            select(
                *(_PLACES.c[name] for name in names),
                _GAMES.c.status,
                _GAMES.c.result,
                _GAMES.c.ended_at,
                _GAMES.c.reason,
                _GAMES.c.moves,
            )
            .join_from(_PLACES, _GAMES, _GAMES.c.id == _PLACES.c.game_id)
            .where(_PLACES.c.match_id == match_id)
            .order_by(_PLACES.c.number)
        )
        seats = (
            select(
                _SEATS.c.game_id, _SEATS.c.entrant, _SEATS.c.rank, _SEATS.c.score, _SEATS.c.fault
            )
            .join_from(_PLACES, _SEATS, _SEATS.c.game_id == _PLACES.c.game_id)
            .where(_PLACES.c.match_id == match_id)
            .order_by(_PLACES.c.number, _SEATS.c.index)
        )

        def read(connection: Connection) -> list[MatchResult]:
            by_game: dict[str, list[tuple[int | None, int | None, int | None, str]]] = {}
            for game_id, entrant, rank, score, fault in connection.execute(seats):
                by_game.setdefault(game_id, []).append((entrant, rank, score, fault))
            found = []
            for row in connection.execute(games):
                place = MatchGame(*row[: len(names)])
                status, result, ended_at, reason, moves = row[len(names) :]
                if isinstance(ended_at, dt.datetime) and ended_at.tzinfo is None:
                    ended_at = ended_at.replace(tzinfo=dt.UTC)
                seated = tuple(by_game.get(place.game_id, ()))
                found.append(
                    MatchResult(
                        place, place.game_id, status, result, ended_at, reason, moves, seated
                    )
                )
            return found

        return await self.read(read)

    async def match_games_page(
        self, match_id: str, *, after: int | None = None, limit: int = 50, faulted: bool = False
    ) -> Listed[MatchEntry]:
        """Return up to ``limit`` games of a match in order after the game number ``after``
        (``None``: from the first), as :meth:`match_games` gives them; ``faulted``: only
        the games a seat lost by fault (each game's seats looked up along their index, the
        match's games walked in order until the page is full)."""

        def read(connection: Connection) -> Listed[MatchEntry]:
            found = _entries(connection, match_id, after=after, limit=limit + 1, faulted=faulted)
            return Listed(found[:limit], len(found) > limit)

        return await self.read(read)

    async def match_moves(self, match_id: str) -> dict[str, list[str]]:
        """Return the values played in each game of a match, by game id, in the match's
        order and move order (:func:`~.packed.played_moves`: its games' rows and
        documents)."""

        def read(connection: Connection) -> dict[str, list[str]]:
            ids = list(
                connection.scalars(
                    select(_PLACES.c.game_id)
                    .where(_PLACES.c.match_id == match_id)
                    .order_by(_PLACES.c.number)
                )
            )
            played = played_moves(connection, ids)
            return {game_id: [m[2] for m in played.get(game_id, [])] for game_id in ids}

        return await self.read(read)

    async def match_think(self, match_id: str) -> dict[int, list[int]]:
        """Return each entrant's thinking times of a match: the milliseconds from request
        to answer of every move it played (``ms``, measured by the Arbitre), by entrant
        (its index in the match), in no order: its games' seats, then their moves from
        their rows and documents (:func:`~.packed.played_moves`)."""

        def read(connection: Connection) -> dict[int, list[int]]:
            seats = connection.execute(
                select(_SEATS.c.game_id, _SEATS.c.index, _SEATS.c.entrant)
                .join_from(_PLACES, _SEATS, _SEATS.c.game_id == _PLACES.c.game_id)
                .where(_PLACES.c.match_id == match_id)
            )
            entrants = {(g, i): e for g, i, e in seats if e is not None}
            found: dict[int, list[int]] = {}
            games = {game_id for game_id, _ in entrants}
            for game_id, moves in played_moves(connection, sorted(games)).items():
                for _, seat, _, ms in moves:
                    entrant = entrants.get((game_id, seat))
                    if entrant is not None:
                        found.setdefault(int(entrant), []).append(ms)
            return found

        return await self.read(read)

    async def moves_of(self, game_ids: Sequence[str]) -> dict[str, list[str]]:
        """Return the values played in each of ``game_ids`` (a page's), by game id, in move
        order, from their rows and documents (:func:`~.packed.played_moves`)."""
        if not game_ids:
            return {}

        def read(connection: Connection) -> dict[str, list[str]]:
            played = played_moves(connection, game_ids)
            return {game_id: [m[2] for m in played.get(game_id, [])] for game_id in game_ids}

        return await self.read(read)

    async def matches_page(
        self, *, after: NewestKey | None = None, limit: int = 25
    ) -> Listed[Match]:
        """Return up to ``limit`` matches newest first (``created_at``, then ``id``, both
        descending) after the position ``after`` (the last match of the page before)."""
        statement = select(_MATCHES)
        if after is not None:
            statement = statement.where(
                tuple_(_MATCHES.c.created_at, _MATCHES.c.id) < tuple_(*after)
            )
        statement = statement.order_by(_MATCHES.c.created_at.desc(), _MATCHES.c.id.desc())

        def read(connection: Connection) -> Listed[Match]:
            rows = list(connection.execute(statement.limit(limit + 1)))
            return Listed([record_of(Match, row) for row in rows[:limit]], len(rows) > limit)

        return await self.read(read)

    async def match_counts(self, match_ids: Sequence[str]) -> dict[str, tuple[int, int]]:
        """Return, per match of ``match_ids`` (a page's), its games made and those played
        to an end (``over``): one grouped count over those matches' games."""
        if not match_ids:
            return {}
        over = func.sum(_ended())
        statement = (
            select(_PLACES.c.match_id, func.count(), over)
            .join_from(_PLACES, _GAMES, _GAMES.c.id == _PLACES.c.game_id)
            .where(_PLACES.c.match_id.in_(list(match_ids)))
            .group_by(_PLACES.c.match_id)
        )

        def read(connection: Connection) -> dict[str, tuple[int, int]]:
            return {
                str(match_id): (int(made), int(ended or 0))
                for match_id, made, ended in connection.execute(statement)
            }

        return await self.read(read)

    async def game_place(self, game_id: str) -> MatchGame | None:
        """Return the match place of a game (``None``: the game belongs to no match)."""
        statement = select(_PLACES).where(_PLACES.c.game_id == game_id)

        def read(connection: Connection) -> MatchGame | None:
            row = connection.execute(statement).one_or_none()
            return None if row is None else record_of(MatchGame, row)

        return await self.read(read)


def _ended() -> Any:
    """Return 1 for a game played to an end (``over``), else 0, as SQL."""
    return case((_GAMES.c.status == "over", 1), else_=0)


def _entries(
    connection: Connection,
    match_id: str,
    *,
    after: int | None = None,
    limit: int | None = None,
    faulted: bool = False,
) -> list[MatchEntry]:
    """Return a match's games in order after the number ``after``, at most ``limit``
    (``faulted``: only those a seat lost by fault), with their seats (see
    :meth:`MatchStore.match_games`)."""
    places: Select[Any] = select(_PLACES.c.match_id, _PLACES.c.number, _PLACES.c.game_id).where(
        _PLACES.c.match_id == match_id
    )
    if after is not None:
        places = places.where(_PLACES.c.number > after)
    if faulted:
        places = places.where(
            exists().where(_SEATS.c.game_id == _PLACES.c.game_id, _SEATS.c.fault != "")
        )
    places = places.order_by(_PLACES.c.number)
    if limit is not None:
        places = places.limit(limit)
    chosen = places.subquery()
    games = (
        select(*_PLACES.c, *_LIGHT)
        .join_from(
            chosen,
            _PLACES,
            (_PLACES.c.match_id == chosen.c.match_id) & (_PLACES.c.number == chosen.c.number),
        )
        .join(_GAMES, _GAMES.c.id == _PLACES.c.game_id)
        .order_by(_PLACES.c.number)
    )
    seats = (
        select(_SEATS)
        .join_from(chosen, _SEATS, _SEATS.c.game_id == chosen.c.game_id)
        .order_by(chosen.c.number, _SEATS.c.index)
    )
    by_game: dict[str, list[Seat]] = {}
    for row in connection.execute(seats):
        by_game.setdefault(row.game_id, []).append(record_of(Seat, row))
    entries = []
    for row in connection.execute(games):
        values = row._mapping
        place = MatchGame(**{name: values[_PLACES.c[name]] for name in _place_fields()})
        game = Game(**{c.name: values[c] for c in _LIGHT}, turn={}, first={})
        entries.append(MatchEntry(place, _aware(game), by_game.get(place.game_id, [])))
    return entries


def _place_fields() -> Sequence[str]:
    return tuple(MatchGame.__dataclass_fields__)


def _aware(game: Game) -> Game:
    """Return ``game`` with its times made aware (SQLite gives back UTC without a zone)."""
    for name in ("created_at", "ended_at", "lease_until"):
        value = getattr(game, name)
        if isinstance(value, dt.datetime) and value.tzinfo is None:
            setattr(game, name, value.replace(tzinfo=dt.UTC))
    return game
