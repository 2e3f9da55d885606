"""The store's ladder, for its scheduler and its pages (:mod:`.ladder` has its tables and
the writes other transactions make): the lease of a Set's scheduling step, what a step
reads (the open pairs, the engines that may play), giving up a pair, and the reads of
the leaderboard, each bounded whatever the number of engines: a page of a Set's table
along its index, its leaders, its games today and in flight, an engine's standings and
meetings, the counts ``/metrics`` shows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, or_, select, tuple_, update

from tournoyons_gui.arbitre.store.base import Database, aware
from tournoyons_gui.arbitre.store.kept_records import POINTS
from tournoyons_gui.arbitre.store.ladder import (
    DAYS,
    ENGINES,
    LADDER_SETS,
    MEETINGS,
    OFF,
    PAIRS,
    PAUSED,
    RANKED,
    STANDINGS,
    release_slots,
)

__all__ = [
    "BoardLine",
    "LadderCandidate",
    "LadderEngine",
    "LadderState",
    "LadderStore",
    "Meeting",
    "OpenPair",
    "SetSummary",
    "Standing",
]

#: The engines a step reads at most (the fewest games first): the pairing's choice.
CANDIDATES = 200


@dataclass(frozen=True, slots=True)
class OpenPair:
    """A pair not over: its ``number``, ``engines`` (the first game's seats, ``""`` a
    filler), its ``games`` and those ``made``, the game in play (``None``: between
    two), its opening (``line``, ``tray``) and ``seed``."""

    number: int
    engines: tuple[str, ...]
    games: int
    made: int
    playing: str | None
    line: int | None
    tray: str
    seed: int


@dataclass(frozen=True, slots=True)
class LadderEngine:
    """A registered engine as a ladder step seats it: ``id``, ``name``, ``url``, seat
    ``kind``, whether it may play the Set now (``playable``: on the ladder, not retired,
    not paused, the Set among its own), its rating (``mu``, ``sigma``), ladder ``games``
    in the Set, pairs ``held`` and ``concurrency``, the end of its rest and since when
    it waits."""

    id: str
    name: str
    url: str
    kind: str
    playable: bool
    mu: float
    sigma: float
    games: int
    held: int
    concurrency: int
    rest_until: dt.datetime | None
    since: dt.datetime


#: What the pairing reads of an engine (the same record).
LadderCandidate = LadderEngine


@dataclass(frozen=True, slots=True)
class LadderState:
    """What a Set's scheduling step reads: the Set's ``seed`` and ``next_pair`` number,
    its ``open`` pairs, the engines that may meet (the fewest games first), and the
    engines of the open pairs (``seated``, by id)."""

    seed: int
    next_pair: int
    open: list[OpenPair]
    candidates: list[LadderEngine]
    seated: dict[str, LadderEngine]


@dataclass(frozen=True, slots=True)
class BoardLine:
    """A row of a Set's leaderboard: the engine (``engine_id``, ``name``), its ``tier``,
    its rating (``ordinal`` = mu - 3 sigma, ``mu``, ``sigma``) and record in the Set
    (``rated`` games: ``won``, ``drawn``, ``lost``), its ladder ``games``, its last
    ladder game, why it is paused (``paused`` the fault's kind, ``reason``, ``game``;
    ``""`` not paused) and its position in the order (``key``: tier, minus the ordinal,
    id)."""

    set_name: str
    engine_id: str
    name: str
    tier: int
    ordinal: float
    mu: float
    sigma: float
    rated: int
    won: int
    drawn: int
    lost: int
    games: int
    last_game: str
    paused: str
    reason: str
    paused_game: str

    @property
    def key(self) -> tuple[int, float, str]:
        """Return its position in the leaderboard's order."""
        return (self.tier, -self.ordinal, self.engine_id)


@dataclass(frozen=True, slots=True)
class Standing:
    """A registered engine's standing in one Set's ladder (its page): the Set, its row of
    the board and its ``rank`` among the ranked (``None``: provisional or paused)."""

    set_name: str
    row: BoardLine
    rank: int | None


@dataclass(frozen=True, slots=True)
class Meeting:
    """An engine's ladder games against one opponent in a Set: the opponent's id and
    name, the ``games`` and how they went for the engine."""

    set_name: str
    opponent: str
    name: str
    games: int
    won: int
    drawn: int
    lost: int


@dataclass(frozen=True, slots=True)
class SetSummary:
    """A Set's ladder at a glance: its ``leaders`` (the first ranked rows), its engines
    on the ladder by tier (``ranked``, ``provisional``, ``paused``), its ladder games made
    ``today`` (UTC) and in flight (``playing``)."""

    set_name: str
    leaders: list[BoardLine]
    today: int
    playing: int


_BOARD_COLUMNS = (
    STANDINGS.c.set_name,
    STANDINGS.c.engine_id,
    ENGINES.c.name,
    STANDINGS.c.tier,
    STANDINGS.c.rank_key,
    STANDINGS.c.mu,
    STANDINGS.c.sigma,
    STANDINGS.c.rated,
    STANDINGS.c.won,
    STANDINGS.c.drawn,
    STANDINGS.c.lost,
    STANDINGS.c.games,
    STANDINGS.c.last_game,
    ENGINES.c.ladder_paused,
    ENGINES.c.ladder_reason,
    ENGINES.c.ladder_paused_game,
)
_BOARD = select(*_BOARD_COLUMNS).join_from(
    STANDINGS, ENGINES, ENGINES.c.id == STANDINGS.c.engine_id
)


def _row(row: Any) -> BoardLine:
    return BoardLine(
        row.set_name,
        row.engine_id,
        row.name,
        row.tier,
        -row.rank_key,
        row.mu,
        row.sigma,
        row.rated,
        row.won,
        row.drawn,
        row.lost,
        row.games,
        row.last_game,
        row.ladder_paused if row.tier == PAUSED else "",
        row.ladder_reason if row.tier == PAUSED else "",
        row.ladder_paused_game if row.tier == PAUSED else "",
    )


_ENGINE_COLUMNS = (
    ENGINES.c.id,
    ENGINES.c.name,
    ENGINES.c.url,
    ENGINES.c.kind,
    ENGINES.c.ladder,
    ENGINES.c.retired,
    ENGINES.c.ladder_paused,
    ENGINES.c.ladder_held,
    ENGINES.c.ladder_concurrency,
    ENGINES.c.ladder_rest_until,
    STANDINGS.c.tier,
    STANDINGS.c.mu,
    STANDINGS.c.sigma,
    STANDINGS.c.games,
    STANDINGS.c.since,
)


def _engine(row: Any) -> LadderEngine:
    playable = bool(row.ladder) and not row.retired and not row.ladder_paused and row.tier < PAUSED
    rest = aware(row.ladder_rest_until) if row.ladder_rest_until is not None else None
    return LadderEngine(
        row.id,
        row.name,
        row.url,
        row.kind,
        playable,
        row.mu,
        row.sigma,
        row.games,
        row.ladder_held,
        row.ladder_concurrency,
        rest,
        aware(row.since),
    )


class LadderStore(Database):
    """The ladder's scheduling and its reads (see the module)."""

    async def ladder_set_names(self) -> list[str]:
        """Return the Sets that have had an engine on their ladder (a row each)."""
        statement = select(LADDER_SETS.c.set_name).order_by(LADDER_SETS.c.set_name)
        return await self.read(lambda connection: list(connection.scalars(statement)))

    async def take_ladder_step(self, set_name: str, owner: str, seconds: float) -> bool:
        """Take the lease of a Set's scheduling step for ``seconds`` when it is free,
        expired or ``owner``'s already; return whether ``owner`` holds it."""
        at = self.now()
        statement = (
            update(LADDER_SETS)
            .where(
                LADDER_SETS.c.set_name == set_name,
                or_(
                    LADDER_SETS.c.lease_until.is_(None),
                    LADDER_SETS.c.lease_until < at,
                    LADDER_SETS.c.lease_owner == owner,
                ),
            )
            .values(lease_owner=owner, lease_until=at + dt.timedelta(seconds=seconds))
        )
        return await self.write(lambda connection: connection.execute(statement).rowcount == 1)

    async def end_ladder_step(self, set_name: str, owner: str) -> None:
        """Give back the lease of a Set's scheduling step (the next step may run at once,
        on any driver)."""
        statement = (
            update(LADDER_SETS)
            .where(LADDER_SETS.c.set_name == set_name, LADDER_SETS.c.lease_owner == owner)
            .values(lease_owner=None, lease_until=None)
        )
        await self.write(lambda connection: connection.execute(statement))

    async def ladder_state(self, set_name: str, now: dt.datetime) -> LadderState | None:
        """Return what a Set's scheduling step reads (:class:`LadderState`; ``None``: no
        ladder in that Set): the candidates are the playable engines with a slot free and
        their rest over, :data:`CANDIDATES` at most, the fewest ladder games first."""
        joined = select(*_ENGINE_COLUMNS).join_from(
            STANDINGS, ENGINES, ENGINES.c.id == STANDINGS.c.engine_id
        )
        candidates = (
            joined.where(
                STANDINGS.c.set_name == set_name,
                STANDINGS.c.tier < PAUSED,
                ENGINES.c.ladder_held < ENGINES.c.ladder_concurrency,
                or_(ENGINES.c.ladder_rest_until.is_(None), ENGINES.c.ladder_rest_until <= now),
            )
            .order_by(STANDINGS.c.games, STANDINGS.c.since, STANDINGS.c.engine_id)
            .limit(CANDIDATES)
        )

        def read(connection: Connection) -> LadderState | None:
            found = connection.execute(
                select(LADDER_SETS.c.seed, LADDER_SETS.c.next_pair).where(
                    LADDER_SETS.c.set_name == set_name
                )
            ).one_or_none()
            if found is None:
                return None
            pairs = [
                OpenPair(
                    r.number,
                    tuple(str(e) for e in r.engines),
                    r.games,
                    r.made,
                    r.playing,
                    r.line,
                    r.tray,
                    r.seed,
                )
                for r in connection.execute(
                    select(PAIRS)
                    .where(PAIRS.c.set_name == set_name, PAIRS.c.status == "open")
                    .order_by(PAIRS.c.number)
                )
            ]
            ids = sorted({e for p in pairs for e in p.engines if e})
            seated: dict[str, LadderEngine] = {}
            if ids:
                for row in connection.execute(
                    joined.where(STANDINGS.c.set_name == set_name, ENGINES.c.id.in_(ids))
                ):
                    seated[row.id] = _engine(row)
            return LadderState(
                found.seed,
                found.next_pair,
                pairs,
                [_engine(row) for row in connection.execute(candidates)],
                seated,
            )

        return await self.read(read)

    async def give_up_pair(self, set_name: str, number: int) -> bool:
        """End an open pair between two of its games (an engine of it may no longer
        play) and give its engines' slots back; return whether it was ended here."""
        at = self.now()

        def give_up(connection: Connection) -> bool:
            ended = connection.execute(
                update(PAIRS)
                .where(
                    PAIRS.c.set_name == set_name,
                    PAIRS.c.number == number,
                    PAIRS.c.status == "open",
                    PAIRS.c.playing.is_(None),
                )
                .values(status="over", ended_at=at)
                .returning(PAIRS.c.engines)
            ).one_or_none()
            if ended is None:
                return False
            release_slots(connection, [str(e) for e in ended.engines])
            return True

        return await self.write(give_up)

    # --- the leaderboard ----------------------------------------------------------------

    async def ladder_board(
        self, set_name: str, *, after: tuple[int, float, str] | None = None, limit: int = 100
    ) -> tuple[list[BoardLine], bool]:
        """Return a page of a Set's leaderboard (ranked, then provisional, then paused;
        each by ordinal, highest first, then id) after the position ``after`` (a row's
        :attr:`BoardLine.key`), and whether more follow: one range of the board's index."""
        where = [STANDINGS.c.set_name == set_name, STANDINGS.c.tier < OFF]
        if after is not None:
            where.append(
                tuple_(STANDINGS.c.tier, STANDINGS.c.rank_key, STANDINGS.c.engine_id)
                > tuple_(*after)
            )
        statement = (
            _BOARD.where(*where)
            .order_by(STANDINGS.c.tier, STANDINGS.c.rank_key, STANDINGS.c.engine_id)
            .limit(limit + 1)
        )

        def read(connection: Connection) -> list[BoardLine]:
            return [_row(row) for row in connection.execute(statement)]

        rows = await self.read(read)
        return rows[:limit], len(rows) > limit

    async def ladder_summaries(
        self, set_names: Sequence[str], leaders: int = 3
    ) -> list[SetSummary]:
        """Return each Set's ladder at a glance (:class:`SetSummary`): a few reads of
        their indexes per Set (its ``leaders`` first ranked rows, its day's count, its
        pairs in play)."""
        today = self.now().date()

        def read(connection: Connection) -> list[SetSummary]:
            found = []
            for set_name in set_names:
                top = connection.execute(
                    _BOARD.where(STANDINGS.c.set_name == set_name, STANDINGS.c.tier == RANKED)
                    .order_by(STANDINGS.c.rank_key, STANDINGS.c.engine_id)
                    .limit(leaders)
                )
                day = connection.scalar(
                    select(DAYS.c.games).where(DAYS.c.set_name == set_name, DAYS.c.day == today)
                )
                playing = connection.scalar(
                    select(func.count()).where(
                        PAIRS.c.set_name == set_name,
                        PAIRS.c.status == "open",
                        PAIRS.c.playing.is_not(None),
                    )
                )
                found.append(
                    SetSummary(set_name, [_row(r) for r in top], int(day or 0), int(playing or 0))
                )
            return found

        return await self.read(read)

    async def engine_standings(self, engine_id: str) -> list[Standing]:
        """Return a registered engine's standing in each Set's ladder it is on (by Set),
        its rank counted along the board's index (the ranked rows before it)."""

        def read(connection: Connection) -> list[Standing]:
            found = []
            rows = connection.execute(
                _BOARD.where(STANDINGS.c.engine_id == engine_id, STANDINGS.c.tier < OFF).order_by(
                    STANDINGS.c.set_name
                )
            ).all()
            for row in rows:
                set_name = row.set_name
                rank = None
                if row.tier == RANKED:
                    before = connection.scalar(
                        select(func.count()).where(
                            STANDINGS.c.set_name == set_name,
                            STANDINGS.c.tier == RANKED,
                            tuple_(STANDINGS.c.rank_key, STANDINGS.c.engine_id)
                            < tuple_(row.rank_key, row.engine_id),
                        )
                    )
                    rank = int(before or 0) + 1
                found.append(Standing(str(set_name), _row(row), rank))
            return found

        return await self.read(read)

    async def engine_meetings(self, engine_id: str, most: int = 50) -> dict[str, list[Meeting]]:
        """Return a registered engine's ladder meetings per Set, at most ``most`` a Set
        (those of the most games first), with the opponents' names."""

        def read(connection: Connection) -> dict[str, list[Meeting]]:
            sets = connection.scalars(
                select(MEETINGS.c.set_name).where(MEETINGS.c.engine_id == engine_id).distinct()
            ).all()
            found: dict[str, list[Meeting]] = {}
            for set_name in sorted(sets):
                rows = connection.execute(
                    select(MEETINGS, ENGINES.c.name)
                    .join_from(MEETINGS, ENGINES, ENGINES.c.id == MEETINGS.c.opponent)
                    .where(MEETINGS.c.engine_id == engine_id, MEETINGS.c.set_name == set_name)
                    .order_by(MEETINGS.c.games.desc(), MEETINGS.c.opponent)
                    .limit(most)
                )
                found[set_name] = [
                    Meeting(set_name, r.opponent, r.name, r.games, r.won, r.drawn, r.lost)
                    for r in rows
                ]
            return found

        return await self.read(read)

    async def meetings_of(
        self, set_name: str, pairs: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], Meeting]:
        """Return the ladder meetings of each ``(engine, opponent)`` of ``pairs`` in a
        Set (those that met), in one read along the primary key."""
        if not pairs:
            return {}
        statement = select(MEETINGS).where(
            MEETINGS.c.set_name == set_name,
            tuple_(MEETINGS.c.engine_id, MEETINGS.c.opponent).in_(list(pairs)),
        )

        def read(connection: Connection) -> dict[tuple[str, str], Meeting]:
            return {
                (r.engine_id, r.opponent): Meeting(
                    set_name, r.opponent, "", r.games, r.won, r.drawn, r.lost
                )
                for r in connection.execute(statement)
            }

        return await self.read(read)

    async def ladder_sparklines(
        self, set_name: str, rated: Mapping[str, int], most: int
    ) -> dict[str, list[tuple[int, float]]]:
        """Return each engine's ordinal (mu - 3 sigma) after at most about ``most`` of its
        rated games in the Set, as ``(number, ordinal)`` oldest first: the first one and
        those of a level spread evenly (as the engine's chart reads them, along the
        ``(engine, Set, level, number)`` index: a bounded range per engine), in one
        statement per level needed (a page's engines need a few). The last one is the
        engine's rating now, which its standing holds."""
        by_level: dict[int, list[str]] = {}
        for engine, count in rated.items():
            level = 0
            while count >> level > most:
                level += 1
            by_level.setdefault(level, []).append(engine)
        statements = [
            select(POINTS.c.engine_id, POINTS.c.number, POINTS.c.mu, POINTS.c.sigma).where(
                POINTS.c.engine_id.in_(engines),
                POINTS.c.set_name == set_name,
                or_(POINTS.c.level >= level, POINTS.c.number == 1),
            )
            for level, engines in sorted(by_level.items())
        ]

        def read(connection: Connection) -> dict[str, list[tuple[int, float]]]:
            found: dict[str, dict[int, float]] = {engine: {} for engine in rated}
            for statement in statements:
                for r in connection.execute(statement):
                    found[r.engine_id][r.number] = r.mu - 3 * r.sigma
            return {e: sorted(kept.items()) for e, kept in found.items()}

        return await self.read(read)

    async def ladder_counts(self) -> dict[str, tuple[int, int]]:
        """Return per Set with a ladder its games in flight and engines paused (two
        grouped counts over small ranges: the open pairs, the paused tier)."""

        def read(connection: Connection) -> dict[str, tuple[int, int]]:
            found = {}
            for name in connection.scalars(select(LADDER_SETS.c.set_name)).all():
                flying = connection.scalar(
                    select(func.count()).where(
                        PAIRS.c.set_name == name,
                        PAIRS.c.status == "open",
                        PAIRS.c.playing.is_not(None),
                    )
                )
                paused = connection.scalar(
                    select(func.count()).where(
                        STANDINGS.c.set_name == name, STANDINGS.c.tier == PAUSED
                    )
                )
                found[str(name)] = (int(flying or 0), int(paused or 0))
            return dict(sorted(found.items()))

        return await self.read(read)
