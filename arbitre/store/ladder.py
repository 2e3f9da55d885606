"""The standing ladder's records (:mod:`~tournoyons_gui.arbitre.ladder`): its tables and
what the other writes of the store do to them in their own transactions.

Six tables, made by ``create_all`` (schema 14):

- ``ladder_sets``: one row per Set that has had an engine on its ladder: its ``seed``
  (each pair's deal and built-in engines' choices are derived from it), the next pair's
  number, and the lease of whoever runs its scheduling step (one at a time);
- ``ladder_pairs``: a pair (the games of one opening or deal, seats swapped, or rotated
  at four), its number unique in its Set: the engines in the seats of its first game,
  the games it plays and those made, the one in play, ``open`` until its last game ends;
- ``ladder_games``: each ladder game's pair and leg, ``(set, pair, leg)`` unique: a game
  is made once, whichever driver made it;
- ``ladder_standings``: per engine and Set, what the leaderboard reads without counting:
  its ``tier`` (ranked, provisional, paused, off), its rating copied from the engine's
  record (``engine_sets``, :mod:`.kept_records`: the one rating the engine's page
  charts, fed by every game) and the order key (minus openskill's ordinal), its ladder
  games, since when it waits, its last ladder game;
- ``ladder_meetings``: per Set, engine and ladder opponent, the ladder games between them;
- ``ladder_days``: ladder games made per Set and day (UTC).

**Slots.** An engine's ladder pairs not over are counted on its registration
(``engines.ladder_held``); a pair is made in one transaction (:func:`ladder_game_made`)
that takes a slot of each engine by a conditional update (``held < concurrency``, on
the ladder, not paused, rested: the row's lock orders two drivers) and inserts the pair
under its unique number: two drivers, or two Sets' schedulers, never seat an engine
beyond its concurrency nor make a pair twice. A pair's games are played one after the
other, so an engine of concurrency 1 plays one ladder game at a time.

**A game's end** is :mod:`.ladder_ends`': its engines' standings, its pair, their rests,
faults and meetings, in the transaction that ends the game.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Connection,
    Date,
    DateTime,
    Float,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, mapped_column

from tournoyons_gui.arbitre.store.kept_records import NEW_RATING, SETS
from tournoyons_gui.arbitre.store.schema import Base, EngineRow, GameRow

__all__ = [
    "FAULTS_TO_PAUSE",
    "OFF",
    "PAUSED",
    "PROVISIONAL",
    "PROVISIONAL_GAMES",
    "RANKED",
    "LadderPlace",
    "SlotTaken",
    "insert_or",
    "ladder_game_made",
    "ordinal",
    "release_slots",
    "standing_record",
    "sync_engine_ladder",
    "tier_of",
]

#: The tiers of a standing, in the leaderboard's order: ranked, provisional (fewer than
#: :data:`PROVISIONAL_GAMES` rated games in the Set), paused (by its faults), off the
#: ladder (its owner took it off, retired it, or it no longer plays the Set: kept for
#: its counts, never shown).
RANKED, PROVISIONAL, PAUSED, OFF = 0, 1, 2, 3
#: Rated games in a Set before an engine is ranked there.
PROVISIONAL_GAMES = 10
#: Ladder games lost by fault in a row that pause an engine.
FAULTS_TO_PAUSE = 3


class LadderSetRow(Base):
    """``ladder_sets``: a Set that has had an engine on its ladder: its ``seed`` (the
    pairs' seeds are derived from it), its next pair's number, the lease of its
    scheduling step (one driver at a time, given back at the step's end)."""

    __tablename__ = "ladder_sets"
    set_name: Mapped[str] = mapped_column(String(40), primary_key=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    next_pair: Mapped[int] = mapped_column(Integer, default=0)
    lease_owner: Mapped[str | None] = mapped_column(String(16), nullable=True)
    lease_until: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class LadderPairRow(Base):
    """``ladder_pairs``: a pair of a Set's ladder, ``number`` unique in the Set: its
    ``engines`` in the seats of its first game (``""`` a built-in filler at a table of
    four), the ``games`` it plays (its seats swapped or rotated) and those ``made``, the
    one in play (``playing``, ``None`` between two), its opening (``line`` in the Set's
    suite and ``tray``; ``None`` and ``""`` without) and ``seed``; ``status`` ``open``
    until its last game ends (or it is given up: an engine paused, taken off, retired)."""

    __tablename__ = "ladder_pairs"
    __table_args__ = (
        Index(
            "ix_ladder_pairs_open",
            "set_name",
            "number",
            sqlite_where=text("status = 'open'"),
            postgresql_where=text("status = 'open'"),
        ),
    )
    set_name: Mapped[str] = mapped_column(String(40), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    engines: Mapped[list[Any]] = mapped_column(JSON)
    games: Mapped[int] = mapped_column(Integer)
    made: Mapped[int] = mapped_column(Integer, default=0)
    playing: Mapped[str | None] = mapped_column(String(12), nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="open")
    line: Mapped[int | None] = mapped_column(Integer, nullable=True)
    tray: Mapped[str] = mapped_column(Text, default="")
    seed: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class LadderGameRow(Base):
    """``ladder_games``: a ladder game's pair and ``leg`` (0 the first); ``(set, pair,
    leg)`` is unique, so a game is made once whatever the drivers do."""

    __tablename__ = "ladder_games"
    __table_args__ = (UniqueConstraint("set_name", "pair", "leg"),)
    game_id: Mapped[str] = mapped_column(String(12), primary_key=True)
    set_name: Mapped[str] = mapped_column(String(40))
    pair: Mapped[int] = mapped_column(Integer)
    leg: Mapped[int] = mapped_column(Integer)


class LadderStandingRow(Base):
    """``ladder_standings``: a registered engine in a Set's ladder: its ``tier``
    (:data:`RANKED`, :data:`PROVISIONAL`, :data:`PAUSED`, :data:`OFF`), ``rank_key``
    (minus its ordinal, mu - 3 sigma: the leaderboard reads the index in order), its
    rating and record copied from ``engine_sets`` (``mu``, ``sigma``, ``rated`` games,
    ``won``, ``drawn``, ``lost``), its ladder ``games`` (the fewest play first), since
    when it waits (``since``: its last ladder game's end, or its coming on) and its
    ``last_game``."""

    __tablename__ = "ladder_standings"
    __table_args__ = (
        Index("ix_ladder_standings_board", "set_name", "tier", "rank_key", "engine_id"),
        Index("ix_ladder_standings_fewest", "set_name", "games", "since"),
    )
    engine_id: Mapped[str] = mapped_column(String(12), primary_key=True)
    set_name: Mapped[str] = mapped_column(String(40), primary_key=True)
    tier: Mapped[int] = mapped_column(Integer)
    rank_key: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rated: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    drawn: Mapped[int] = mapped_column(Integer, default=0)
    lost: Mapped[int] = mapped_column(Integer, default=0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    since: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    last_game: Mapped[str] = mapped_column(String(12), default="")


class LadderMeetingRow(Base):
    """``ladder_meetings``: the ladder games of an engine against one opponent in a Set
    (both registered), and how they went for the engine (at a table of four: its rank
    against the opponent's)."""

    __tablename__ = "ladder_meetings"
    __table_args__ = (Index("ix_ladder_meetings_games", "engine_id", "set_name", "games"),)
    set_name: Mapped[str] = mapped_column(String(40), primary_key=True)
    engine_id: Mapped[str] = mapped_column(String(12), primary_key=True)
    opponent: Mapped[str] = mapped_column(String(12), primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    drawn: Mapped[int] = mapped_column(Integer, default=0)
    lost: Mapped[int] = mapped_column(Integer, default=0)


class LadderDayRow(Base):
    """``ladder_days``: the ladder games made in a Set on a day (UTC)."""

    __tablename__ = "ladder_days"
    set_name: Mapped[str] = mapped_column(String(40), primary_key=True)
    day: Mapped[dt.date] = mapped_column(Date, primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)


LADDER_SETS = cast(Table, LadderSetRow.__table__)
PAIRS = cast(Table, LadderPairRow.__table__)
LADDER_GAMES = cast(Table, LadderGameRow.__table__)
STANDINGS = cast(Table, LadderStandingRow.__table__)
MEETINGS = cast(Table, LadderMeetingRow.__table__)
DAYS = cast(Table, LadderDayRow.__table__)
ENGINES = cast(Table, EngineRow.__table__)
GAMES = cast(Table, GameRow.__table__)


class SlotTaken(Exception):
    """A ladder game that cannot be made as planned: an engine has no slot left (another
    driver or Set took it, its owner changed it meanwhile), the pair's number or leg is
    made already. Nothing is stored."""


@dataclass(frozen=True, slots=True)
class LadderPlace:
    """A ladder game's place, stored with the game in one transaction: its Set, its
    pair's ``number`` and the game's ``leg`` (0 the first), the pair's ``games`` and
    ``engines`` (in the first game's seats, ``""`` a filler), its opening (``line``,
    ``tray``) and ``seed``."""

    set_name: str
    pair: int
    leg: int
    games: int
    engines: tuple[str, ...]
    line: int | None
    tray: str
    seed: int


def ordinal(mu: float, sigma: float) -> float:
    """Return openskill's conservative rating, its ``ordinal``: mu - 3 sigma."""
    return mu - 3 * sigma


def tier_of(rated: int, *, on: bool, paused: bool) -> int:
    """Return the tier of a standing: :data:`OFF` when not ``on`` the ladder, else
    :data:`PAUSED`, else :data:`RANKED` from :data:`PROVISIONAL_GAMES` rated games on,
    else :data:`PROVISIONAL`."""
    if not on:
        return OFF
    if paused:
        return PAUSED
    return RANKED if rated >= PROVISIONAL_GAMES else PROVISIONAL


def insert_or(connection: Connection, table: Table) -> Any:
    """Return an INSERT of ``table`` that knows ``ON CONFLICT`` (PostgreSQL, SQLite)."""
    if connection.dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


def standing_record(connection: Connection, engine_id: str, set_name: str) -> dict[str, Any]:
    """Return an engine's record in a Set as a standing copies it (a new rating when it
    has none yet)."""
    row = connection.execute(
        select(SETS.c.mu, SETS.c.sigma, SETS.c.rated, SETS.c.won, SETS.c.drawn, SETS.c.lost).where(
            SETS.c.engine_id == engine_id, SETS.c.set_name == set_name
        )
    ).one_or_none()
    if row is None:
        mu, sigma = NEW_RATING
        return {"mu": mu, "sigma": sigma, "rated": 0, "won": 0, "drawn": 0, "lost": 0}
    return dict(row._mapping)


def sync_engine_ladder(connection: Connection, engine_id: str, at: dt.datetime) -> None:
    """Bring an engine's standings in line with its registration (in the caller's
    transaction, after a registration or a change): a standing in each Set of its
    ``sets`` while it is on the ladder and not retired, each in its tier; the others
    :data:`OFF` (kept: their ladder games count still when it comes back). A Set's first
    engine makes its ``ladder_sets`` row."""
    engine = connection.execute(
        select(ENGINES.c.sets, ENGINES.c.ladder, ENGINES.c.retired, ENGINES.c.ladder_paused)
        .where(ENGINES.c.id == engine_id)
        .with_for_update()
    ).one_or_none()
    if engine is None:
        return
    on = bool(engine.ladder) and not engine.retired
    wanted = {str(s) for s in engine.sets or []} if on else set()
    paused = bool(engine.ladder_paused)
    kept = {
        row.set_name: row
        for row in connection.execute(
            select(STANDINGS.c.set_name, STANDINGS.c.tier, STANDINGS.c.rated).where(
                STANDINGS.c.engine_id == engine_id
            )
        )
    }
    for set_name in sorted(wanted | set(kept)):
        playing = set_name in wanted
        row = kept.get(set_name)
        if row is None:
            record = standing_record(connection, engine_id, set_name)
            connection.execute(
                insert(STANDINGS).values(
                    engine_id=engine_id,
                    set_name=set_name,
                    tier=tier_of(record["rated"], on=True, paused=paused),
                    rank_key=-ordinal(record["mu"], record["sigma"]),
                    games=0,
                    since=at,
                    last_game="",
                    **record,
                )
            )
        else:
            tier = tier_of(row.rated, on=playing, paused=paused)
            if tier == row.tier:
                continue
            changes: dict[str, Any] = {"tier": tier}
            if row.tier == OFF:
                changes["since"] = at  # back on: it waits from now
            connection.execute(
                update(STANDINGS)
                .where(STANDINGS.c.engine_id == engine_id, STANDINGS.c.set_name == set_name)
                .values(**changes)
            )
        if playing:
            connection.execute(
                insert_or(connection, LADDER_SETS)
                .values(set_name=set_name, seed=_set_seed(set_name, at), next_pair=0)
                .on_conflict_do_nothing()
            )


def _set_seed(set_name: str, at: dt.datetime) -> int:
    """Return a new Set ladder's seed: from its name and the time it opened, 63 bits."""
    import hashlib

    digest = hashlib.sha256(f"ladder-{set_name}-{at.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def ladder_game_made(
    connection: Connection, place: LadderPlace, game_id: str, at: dt.datetime
) -> None:
    """Store a ladder game's place with the game (in :meth:`~.games.GameStore.create_game`'s
    transaction): a first leg makes its pair (each engine's slot taken, the pair's number
    the Set's next), a later leg follows the pair's last; the day's count. Raise
    :class:`SlotTaken` when that cannot be (the whole transaction is then rolled back)."""
    engines = sorted({engine for engine in place.engines if engine})
    if place.leg == 0:
        for engine in engines:
            taken = connection.execute(
                update(ENGINES)
                .where(
                    ENGINES.c.id == engine,
                    ENGINES.c.ladder.is_(True),
                    ENGINES.c.retired.is_(False),
                    ENGINES.c.ladder_paused == "",
                    ENGINES.c.ladder_held < ENGINES.c.ladder_concurrency,
                    or_(ENGINES.c.ladder_rest_until.is_(None), ENGINES.c.ladder_rest_until <= at),
                )
                .values(ladder_held=ENGINES.c.ladder_held + 1)
            )
            if taken.rowcount != 1:
                raise SlotTaken(f"engine {engine} has no ladder slot free")
        numbered = connection.execute(
            update(LADDER_SETS)
            .where(
                LADDER_SETS.c.set_name == place.set_name,
                LADDER_SETS.c.next_pair == place.pair,
            )
            .values(next_pair=place.pair + 1)
        )
        if numbered.rowcount != 1:
            raise SlotTaken(f"pair {place.pair} of {place.set_name} is made already")
        connection.execute(
            insert(PAIRS).values(
                set_name=place.set_name,
                number=place.pair,
                engines=list(place.engines),
                games=place.games,
                made=1,
                playing=game_id,
                status="open",
                line=place.line,
                tray=place.tray,
                seed=place.seed,
                created_at=at,
            )
        )
    else:
        followed = connection.execute(
            update(PAIRS)
            .where(
                PAIRS.c.set_name == place.set_name,
                PAIRS.c.number == place.pair,
                PAIRS.c.status == "open",
                PAIRS.c.made == place.leg,
                PAIRS.c.playing.is_(None),
            )
            .values(made=place.leg + 1, playing=game_id)
        )
        if followed.rowcount != 1:
            raise SlotTaken(f"leg {place.leg} of pair {place.pair} is made already")
    connection.execute(
        insert(LADDER_GAMES).values(
            game_id=game_id, set_name=place.set_name, pair=place.pair, leg=place.leg
        )
    )
    connection.execute(
        insert_or(connection, DAYS)
        .values(set_name=place.set_name, day=at.date(), games=1)
        .on_conflict_do_update(
            index_elements=[DAYS.c.set_name, DAYS.c.day], set_={"games": DAYS.c.games + 1}
        )
    )


def release_slots(connection: Connection, engines: Iterable[str]) -> None:
    """Give back one slot of each engine (a pair over or given up), in order of engine."""
    for engine in sorted({e for e in engines if e}):
        connection.execute(
            update(ENGINES)
            .where(ENGINES.c.id == engine, ENGINES.c.ladder_held > 0)
            .values(ladder_held=ENGINES.c.ladder_held - 1)
        )
