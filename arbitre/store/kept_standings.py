"""A tournament's standings kept as its games end: what its page, its JSON and its
standings exports read instead of every game it played (an organiser may make a
tournament of two hundred thousand games).

Two tables, per tournament: ``tournament_scores`` (each entrant's games played, won,
drawn, lost and in error, first places, points, total score and its openskill rating
after its rated games) and ``tournament_pairs`` (each ordered pair of entrants that met:
the games, and how they went for the first of the pair: won, drawn, lost; at tables:
ahead, level, behind). Everything the standings show derives from them in a number of
steps bounded by the entrants (64 at most): Buchholz and Sonneborn-Berger are sums over
the pairs of the opponents' points, the head-to-head tie-break the pairs among the tied,
the cross table and the table of meetings the pairs themselves
(:func:`~tournoyons_gui.arbitre.standings.kept_standings`,
:func:`~tournoyons_gui.arbitre.tables.kept_table_standings`).

A game's end updates them in its own transaction (:func:`keep_tournament_end`, called by
:meth:`~.games.GameStore.finish_game`), exactly as the standings computed from the games
count it (:func:`~tournoyons_gui.arbitre.tournaments.scheduler.game_results`,
:func:`~tournoyons_gui.arbitre.tournaments.scheduler.table_results`): a game of two seats
between its entrants ``entrant1`` and ``entrant2`` (an error: not ``over``, or result
``error``: played, scores nothing, not rated); a game at a table for each seat's entrant
(a filler's seat aside, rated as a new player). Ratings follow the games in the order
they ended: the tournament's rows are locked before the game's end is stamped again, as
:mod:`.kept_records` does for an engine's. :func:`step` fills them anew from the games
already there, a batch of tournaments per transaction (the upgrade, the scale fill).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from openskill.models import PlackettLuce
from sqlalchemy import (
    Connection,
    Float,
    Integer,
    String,
    Table,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, mapped_column

from tournoyons_gui.arbitre.store.kept import BATCHED, Batched
from tournoyons_gui.arbitre.store.schema import Base, GameRow, SeatRow, TournamentRow
from tournoyons_gui.arbitre.tables import FILLER, rank_points

__all__ = [
    "PAIRS",
    "SCORES",
    "STANDINGS_FILL",
    "Kept",
    "TableSeat",
    "keep_tournament_end",
    "read_kept",
]


class TournamentScoreRow(Base):
    """``tournament_scores``: an entrant's kept line in a tournament (see the module)."""

    __tablename__ = "tournament_scores"
    tournament_id: Mapped[str] = mapped_column(String(12), primary_key=True)
    entrant: Mapped[int] = mapped_column(Integer, primary_key=True)
    played: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    errors: Mapped[int] = mapped_column(Integer, default=0)
    firsts: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[float] = mapped_column(Float, default=0.0)
    score: Mapped[int] = mapped_column(Integer, default=0)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)


class TournamentPairRow(Base):
    """``tournament_pairs``: two entrants of a tournament that met (ordered: both ways
    are kept), the games they met in and how those went for ``entrant``: ``won``,
    ``drawn``, ``lost`` (at tables: ahead, level, behind; a game without a result
    counts in ``games`` only)."""

    __tablename__ = "tournament_pairs"
    tournament_id: Mapped[str] = mapped_column(String(12), primary_key=True)
    entrant: Mapped[int] = mapped_column(Integer, primary_key=True)
    opponent: Mapped[int] = mapped_column(Integer, primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    drawn: Mapped[int] = mapped_column(Integer, default=0)
    lost: Mapped[int] = mapped_column(Integer, default=0)


SCORES = cast(Table, TournamentScoreRow.__table__)
PAIRS = cast(Table, TournamentPairRow.__table__)
_GAMES = cast(Table, GameRow.__table__)
_SEATS = cast(Table, SeatRow.__table__)
_TOURNAMENTS = cast(Table, TournamentRow.__table__)
_MODEL = PlackettLuce()
_SCORE_FIELDS = ("played", "wins", "draws", "losses", "errors", "firsts", "points", "score")
_PAIR_FIELDS = ("games", "won", "drawn", "lost")
#: Tournaments, and games, a fill's step reads at most (one tournament alone if larger).
_STEP_TOURNAMENTS = 50
_STEP_GAMES = 20_000
#: The name of the standings' fill in ``kept_fills``.
STANDINGS_FILL = "tournament_standings"


@dataclass(frozen=True)
class TableSeat:
    """A seat of a game at a table as the standings count it: its ``entrant``
    (:data:`~tournoyons_gui.arbitre.tables.FILLER` a filler), ``rank`` (``None``: no
    result), total ``score`` and whether it ``failed`` (Status 9)."""

    entrant: int
    rank: int | None
    score: int | None
    failed: bool


@dataclass
class Kept:
    """A tournament's kept standings in memory: ``scores`` by entrant, ``pairs`` by
    ``(entrant, opponent)``, each a dict of its table's columns."""

    tournament_id: str
    scores: dict[int, dict[str, Any]] = field(default_factory=dict)
    pairs: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)

    def score(self, entrant: int) -> dict[str, Any]:
        """Return ``entrant``'s line (made new when it has none)."""
        new = _MODEL.rating()
        return self.scores.setdefault(
            entrant,
            {
                "tournament_id": self.tournament_id,
                "entrant": entrant,
                **dict.fromkeys(_SCORE_FIELDS, 0),
                "points": 0.0,
                "mu": float(new.mu),
                "sigma": float(new.sigma),
            },
        )

    def pair(self, entrant: int, opponent: int) -> dict[str, Any]:
        """Return the pair's line (made new when it has none)."""
        return self.pairs.setdefault(
            (entrant, opponent),
            {
                "tournament_id": self.tournament_id,
                "entrant": entrant,
                "opponent": opponent,
                **dict.fromkeys(_PAIR_FIELDS, 0),
            },
        )

    def two_seats(self, first: int, second: int, winner: int | None, error: bool) -> None:
        """Count a game of two seats between entrants ``first`` and ``second`` won by
        entrant ``winner`` (``None``: a draw), or in ``error`` (as
        :func:`~tournoyons_gui.arbitre.standings.standings` counts it)."""
        for player, opponent in ((first, second), (second, first)):
            line, pair = self.score(player), self.pair(player, opponent)
            line["played"] += 1
            pair["games"] += 1
            if error:
                line["errors"] += 1
            elif winner is None:
                line["draws"] += 1
                line["points"] += 0.5
                pair["drawn"] += 1
            elif winner == player:
                line["wins"] += 1
                line["points"] += 1.0
                pair["won"] += 1
            else:
                line["losses"] += 1
                pair["lost"] += 1
        if error:
            return
        ranks = [1.0, 1.0] if winner is None else [1.0, 2.0] if winner == first else [2.0, 1.0]
        one, two = self.score(first), self.score(second)
        [[a], [b]] = _MODEL.rate(
            [
                [_MODEL.rating(mu=one["mu"], sigma=one["sigma"])],
                [_MODEL.rating(mu=two["mu"], sigma=two["sigma"])],
            ],
            ranks=ranks,
        )
        one["mu"], one["sigma"] = float(a.mu), float(a.sigma)
        two["mu"], two["sigma"] = float(b.mu), float(b.sigma)

    def at_table(self, seats: Sequence[TableSeat]) -> None:
        """Count a game at a table (as
        :func:`~tournoyons_gui.arbitre.tables.table_standings` counts it)."""
        error = any(s.rank is None for s in seats)
        seated = [(index, s) for index, s in enumerate(seats) if s.entrant != FILLER]
        for _, seat in seated:
            line = self.score(seat.entrant)
            line["played"] += 1
            if error or seat.failed:
                line["errors"] += 1
        for i, one in seated:
            for j, other in seated:
                if one.entrant == other.entrant:
                    continue
                pair = self.pair(one.entrant, other.entrant)
                pair["games"] += 1
                if error:
                    continue
                mine, theirs = seats[i].rank or 0, seats[j].rank or 0
                pair["won" if mine < theirs else "drawn" if mine == theirs else "lost"] += 1
        if error:
            return
        ranks = [int(s.rank or 0) for s in seats]
        earned = rank_points(ranks)
        for index, seat in seated:
            line = self.score(seat.entrant)
            line["points"] += earned[index]
            line["firsts"] += ranks[index] == 1
            line["score"] += seat.score or 0
        teams = [
            [
                _MODEL.rating()
                if s.entrant == FILLER
                else _MODEL.rating(
                    mu=self.score(s.entrant)["mu"], sigma=self.score(s.entrant)["sigma"]
                )
            ]
            for s in seats
        ]
        rated = _MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
        for index, seat in seated:
            line = self.score(seat.entrant)
            line["mu"], line["sigma"] = float(rated[index][0].mu), float(rated[index][0].sigma)


def _insert(connection: Connection, table: Table) -> Any:
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def _load(connection: Connection, tournament_id: str, entrants: Sequence[int]) -> Kept:
    """Read the kept lines of ``entrants`` and their pairs, their rows locked first (in
    order of entrant) on PostgreSQL."""
    kept = Kept(tournament_id)
    for entrant in sorted(set(entrants)):
        kept.score(entrant)
    connection.execute(
        _insert(connection, SCORES).values(list(kept.scores.values())).on_conflict_do_nothing()
    )
    where = (SCORES.c.tournament_id == tournament_id, SCORES.c.entrant.in_(list(kept.scores)))
    lock = select(SCORES.c.entrant).where(*where).order_by(SCORES.c.entrant)
    if connection.dialect.name == "postgresql":
        lock = lock.with_for_update()
    connection.execute(lock).all()
    for row in connection.execute(select(SCORES).where(*where)):
        kept.scores[row.entrant] = dict(row._mapping)
    for row in connection.execute(
        select(PAIRS).where(
            PAIRS.c.tournament_id == tournament_id,
            PAIRS.c.entrant.in_(list(kept.scores)),
            PAIRS.c.opponent.in_(list(kept.scores)),
        )
    ):
        kept.pairs[(row.entrant, row.opponent)] = dict(row._mapping)
    return kept


def _save(connection: Connection, kept: Kept, changed: Sequence[int]) -> None:
    """Write ``kept``'s lines of the ``changed`` entrants and their pairs among them
    (upserts)."""
    for entrant in set(changed):
        line = kept.scores[entrant]
        connection.execute(
            update(SCORES)
            .where(SCORES.c.tournament_id == kept.tournament_id, SCORES.c.entrant == entrant)
            .values({name: line[name] for name in (*_SCORE_FIELDS, "mu", "sigma")})
        )
    for (entrant, opponent), pair in kept.pairs.items():
        if entrant not in changed or opponent not in changed:
            continue
        statement = _insert(connection, PAIRS).values(pair)
        connection.execute(
            statement.on_conflict_do_update(
                index_elements=[PAIRS.c.tournament_id, PAIRS.c.entrant, PAIRS.c.opponent],
                set_={name: statement.excluded[name] for name in _PAIR_FIELDS},
            )
        )


def keep_tournament_end(
    connection: Connection,
    *,
    game_id: str,
    clock: Callable[[], dt.datetime],
    status: str,
    result: str,
    winner: int | None,
    seats: Sequence[TableSeat],
) -> None:
    """Update the kept standings of the tournament of a game that ends (in the caller's
    transaction, once the game's row is ended; nothing outside a tournament): the
    tournament's rows of its entrants locked, the game's end stamped again by ``clock``,
    then counted (see the module). ``winner`` is the winning seat's index; ``seats``
    each seat's entrant, rank, score and failure (a game at a table)."""
    game = connection.execute(
        select(_GAMES.c.tournament_id, _GAMES.c.entrant1, _GAMES.c.entrant2).where(
            _GAMES.c.id == game_id
        )
    ).one_or_none()
    if game is None or game.tournament_id is None:
        return
    kind = connection.scalar(
        select(_TOURNAMENTS.c.format).where(_TOURNAMENTS.c.id == game.tournament_id)
    )
    error = status != "over" or result == "error"
    if kind == "tables":
        entrants = [s.entrant for s in seats if s.entrant != FILLER]
        if not seats:
            return
    else:
        if game.entrant1 is None or game.entrant2 is None:
            return
        entrants = [game.entrant1, game.entrant2]
    kept = _load(connection, game.tournament_id, entrants)
    connection.execute(update(_GAMES).where(_GAMES.c.id == game_id).values(ended_at=clock()))
    if kind == "tables":
        kept.at_table(seats)
    else:
        won = None
        if not error and winner is not None:
            won = game.entrant1 if winner == 0 else game.entrant2
        kept.two_seats(game.entrant1, game.entrant2, won, error)
    _save(connection, kept, entrants)


# --- reads --------------------------------------------------------------------------------


def read_kept(connection: Connection, tournament_id: str) -> Kept:
    """Return a tournament's kept standings (at most its entrants' lines and pairs)."""
    kept = Kept(tournament_id)
    for row in connection.execute(select(SCORES).where(SCORES.c.tournament_id == tournament_id)):
        kept.scores[row.entrant] = dict(row._mapping)
    for row in connection.execute(select(PAIRS).where(PAIRS.c.tournament_id == tournament_id)):
        kept.pairs[(row.entrant, row.opponent)] = dict(row._mapping)
    return kept


# --- the fill: the standings anew from the games -----------------------------------------


def start(connection: Connection) -> None:
    """Empty the kept standings (their fill starts anew: :func:`step`)."""
    connection.execute(delete(PAIRS))
    connection.execute(delete(SCORES))


def _fill_one(connection: Connection, tournament_id: str, kind: str) -> Kept:
    """Return a tournament's standings computed from its finished games, in the order
    they ended."""
    kept = Kept(tournament_id)
    games = connection.execute(
        select(
            _GAMES.c.id,
            _GAMES.c.status,
            _GAMES.c.result,
            _GAMES.c.winner,
            _GAMES.c.entrant1,
            _GAMES.c.entrant2,
            _GAMES.c.ended_at,
            _GAMES.c.created_at,
        ).where(_GAMES.c.tournament_id == tournament_id, _GAMES.c.status != "playing")
    ).all()
    games = sorted(games, key=lambda g: (g.ended_at or g.created_at, g.id))
    seats: dict[str, list[TableSeat]] = {}
    if kind == "tables":
        for seat in connection.execute(
            select(
                _SEATS.c.game_id,
                _SEATS.c.entrant,
                _SEATS.c.rank,
                _SEATS.c.score,
                _SEATS.c.final_status,
            )
            .join(_GAMES, _GAMES.c.id == _SEATS.c.game_id)
            .where(_GAMES.c.tournament_id == tournament_id, _GAMES.c.status != "playing")
            .order_by(_SEATS.c.game_id, _SEATS.c.index)
        ):
            seats.setdefault(seat.game_id, []).append(
                TableSeat(
                    FILLER if seat.entrant is None else seat.entrant,
                    seat.rank,
                    seat.score,
                    seat.final_status == 9,
                )
            )
    for game in games:
        error = game.status != "over" or game.result == "error"
        if kind == "tables":
            seated = seats.get(game.id)
            if seated:
                if error:
                    seated = [TableSeat(s.entrant, None, s.score, s.failed) for s in seated]
                kept.at_table(seated)
        elif game.entrant1 is not None and game.entrant2 is not None:
            won = None
            if not error and game.winner is not None:
                won = game.entrant1 if game.winner == 0 else game.entrant2
            kept.two_seats(game.entrant1, game.entrant2, won, error)
    return kept


def step(connection: Connection, after: str) -> str | None:
    """Fill the standings of the next tournaments after ``after`` (by id) anew from
    their finished games, in the caller's transaction (their rows deleted first: games
    that ended while the fill had not reached them were kept on rows made anew here; on
    PostgreSQL the games' ends wait meanwhile); return the last tournament filled, or
    ``None`` when none is left."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql("LOCK TABLE tournament_scores IN EXCLUSIVE MODE")
    rows = connection.execute(
        select(_TOURNAMENTS.c.id, _TOURNAMENTS.c.format)
        .where(_TOURNAMENTS.c.id > after)
        .order_by(_TOURNAMENTS.c.id)
        .limit(_STEP_TOURNAMENTS)
    ).all()
    if not rows:
        return None
    counted: dict[str, int] = dict(
        connection.execute(
            select(_GAMES.c.tournament_id, func.count())
            .where(_GAMES.c.tournament_id.in_([r.id for r in rows]))
            .group_by(_GAMES.c.tournament_id)
        ).all()
    )
    batch: list[Any] = []
    games = 0
    for row in rows:
        if batch and games + counted.get(row.id, 0) > _STEP_GAMES:
            break
        batch.append(row)
        games += counted.get(row.id, 0)
    ids = [row.id for row in batch]
    connection.execute(delete(PAIRS).where(PAIRS.c.tournament_id.in_(ids)))
    connection.execute(delete(SCORES).where(SCORES.c.tournament_id.in_(ids)))
    for row in batch:
        kept = _fill_one(connection, row.id, row.format)
        if kept.scores:
            connection.execute(insert(SCORES), list(kept.scores.values()))
        if kept.pairs:
            connection.execute(insert(PAIRS), list(kept.pairs.values()))
    return str(ids[-1])


BATCHED.append(Batched(STANDINGS_FILL, start, step))
