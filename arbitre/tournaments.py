"""Tournaments between engines ("matchs de compétition", engine manual: each engine is told
its ``Opponent``): registered engines, round-robin and Swiss tournaments, their scheduling
over the workers, standings, ratings and cross tables.

Game-agnostic like the rest of the Arbitre: a tournament names a Set and its entrants
(registered engines, engine URLs, built-in engines); its games are ordinary games, made
here and driven by whichever worker's scan finds them (:meth:`Arbitre.scan`), at most
``concurrency`` at a time. One worker at a time schedules a tournament (a lease, as for
games), every ``scan_every`` seconds: it makes the next games, gives Swiss byes, computes
the next Swiss round once a round is over, and ends the tournament once every game is over.
A worker killed (or a whole restart) loses nothing: the schedule is recomputed from the
records, the games are taken over from their last recorded move.

Standings are always computed from the records (:mod:`~tournoyons_gui.arbitre.standings`):
points (win 1, draw 0.5), the tie-breaks, openskill ratings with their uncertainty.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import defer

from tournoyons_gui.arbitre.calls import check_engine_url
from tournoyons_gui.arbitre.game import Arbitre, GameError, Options, PlayedSet, SeatSpec
from tournoyons_gui.arbitre.naming import engine_names
from tournoyons_gui.arbitre.pairing import Pairing, round_robin, swiss_round, swiss_rounds_needed
from tournoyons_gui.arbitre.standings import (
    BYE,
    GameResult,
    Standing,
    cross_table,
    rating_history,
    standings,
)
from tournoyons_gui.arbitre.store import (
    EngineRow,
    EntrantRow,
    GameRow,
    SeatRow,
    TournamentRow,
    new_id,
)

__all__ = [
    "FORMATS",
    "EntrantSpec",
    "TournamentError",
    "Tournaments",
]

log = logging.getLogger(__name__)

FORMATS = ("round-robin", "swiss")
#: The error of a change asked without the engine's edit token.
WRONG_TOKEN = "wrong edit token"
MAX_ENTRANTS = 64
#: Swiss pairings of round ``r`` are numbered ``r * ROUND_STRIDE + board``.
ROUND_STRIDE = 1000
_NAME = re.compile(r"[^\x00-\x1f\x7f]{1,60}")


class TournamentError(ValueError):
    """A tournament or a registration that cannot be made as asked."""


@dataclass(frozen=True)
class EntrantSpec:
    """An entrant as asked for: ``kind`` ``registered`` (``engine`` a registration id),
    ``engine`` (an engine URL; registered on the way when no registration has it, so that
    its opponents get a permanent ``Opponent``), ``builtin`` (a built-in engine's name) or
    ``botsarena`` (a botsarena bot's URL, ConnectFour);
    ``name`` shown (default: the registration's, :func:`engine_names`'s, the built-in's)."""

    kind: str
    engine: str
    name: str = ""


def builtin_registration(name: str) -> str:
    """Return the ``Opponent`` id of a built-in engine (public, the same everywhere)."""
    return f"B-{name}"[:12]


class Tournaments:
    """Registered engines and tournaments, over the :class:`Arbitre`'s store. Hooks its
    scheduler into the Arbitre's scan."""

    def __init__(self, arbitre: Arbitre) -> None:
        self.arbitre = arbitre
        self.store = arbitre.store
        arbitre.on_scan.append(self.tick)

    # --- registered engines ------------------------------------------------------------

    async def _check_sets(self, sets: Sequence[str]) -> list[str]:
        names = []
        for name in sets:
            found = await self.arbitre.find_set(name)
            if found is None or found.arbitre is None:
                raise TournamentError(f"unknown Set {name!r}")
            if found.name not in names:
                names.append(found.name)
        if not names:
            raise TournamentError("an engine plays at least one Set")
        return names

    def _check_url(self, url: str) -> str:
        try:
            return check_engine_url(url, self.arbitre.engine_hosts)
        except ValueError as refused:
            raise TournamentError(str(refused)) from None

    @staticmethod
    def _check_name(name: str) -> str:
        name = " ".join(name.split())
        if not _NAME.fullmatch(name):
            raise TournamentError("a name is 1-60 characters")
        return name

    async def register(
        self, name: str, url: str, sets: Sequence[str], *, poker_level2: bool = False
    ) -> EngineRow:
        """Register an engine; return it, with its edit token (``secret``: to be given to
        whoever registered it, and to nobody else). Raises :class:`TournamentError` for a
        name taken or malformed, a URL an engine may not have (decision 13), an unknown
        Set."""
        row = EngineRow(
            id=new_id(10),
            name=self._check_name(name),
            url=self._check_url(url),
            sets=await self._check_sets(sets),
            poker_level2=poker_level2,
            retired=False,
            created_at=self.store.now(),
            secret=new_id(26),
        )
        async with self.store.sessions() as session:
            taken = await session.scalar(
                select(EngineRow.id).where(EngineRow.name == row.name).limit(1)
            )
        if taken is not None:
            raise TournamentError(f"an engine is already registered as {row.name!r}")
        try:
            async with self.store.session() as session:
                session.add(row)
        except Exception as failed:  # the unique name, taken meanwhile by another worker
            raise TournamentError(f"an engine is already registered as {row.name!r}") from failed
        return row

    async def update(
        self,
        engine_id: str,
        *,
        token: str,
        name: str | None = None,
        url: str | None = None,
        sets: Sequence[str] | None = None,
        poker_level2: bool | None = None,
        retired: bool | None = None,
    ) -> EngineRow:
        """Change a registration (its id, what opponents know it by, never changes); only
        with its edit ``token`` (:class:`TournamentError` "wrong edit token" otherwise)."""
        checked_sets = await self._check_sets(sets) if sets is not None else None
        try:
            async with self.store.session() as session:
                row = await session.get(EngineRow, engine_id)
                if row is None:
                    raise TournamentError("no such engine")
                if not row.secret or not secrets.compare_digest(
                    token.encode("utf-8", "replace"), row.secret.encode()
                ):
                    raise TournamentError(WRONG_TOKEN)
                if name is not None:
                    row.name = self._check_name(name)
                if url is not None:
                    row.url = self._check_url(url)
                if checked_sets is not None:
                    row.sets = checked_sets
                if poker_level2 is not None:
                    row.poker_level2 = poker_level2
                if retired is not None:
                    row.retired = retired
                await session.flush()
        except TournamentError:
            raise
        except Exception as failed:
            raise TournamentError("that name is taken by another engine") from failed
        return row

    async def engines(self, *, retired: bool = True) -> list[EngineRow]:
        """Return the registered engines by name (the retired ones too unless told)."""
        async with self.store.sessions() as session:
            query = select(EngineRow).order_by(EngineRow.name)
            if not retired:
                query = query.where(EngineRow.retired.is_(False))
            return list(await session.scalars(query))

    async def engine(self, engine_id: str) -> EngineRow | None:
        """Return a registered engine."""
        async with self.store.sessions() as session:
            return await session.get(EngineRow, engine_id)

    async def registration_for(self, url: str, set_name: str, name: str = "") -> EngineRow:
        """Return the registration of engine ``url``, registering it (as ``name``, default
        :func:`engine_names`'s) when it has none, and adding ``set_name`` to its Sets."""
        url = self._check_url(url)
        async with self.store.sessions() as session:
            found = await session.scalar(select(EngineRow).where(EngineRow.url == url).limit(1))
        if found is not None:
            if set_name not in found.sets:
                found = await self.update(
                    found.id, token=found.secret, sets=[*found.sets, set_name]
                )
            return found
        base = name or engine_names([url])[0]
        for attempt in range(100):
            name = base if attempt == 0 else f"{base} {attempt + 1}"
            try:
                return await self.register(name, url, [set_name])
            except TournamentError as taken:
                if "already registered" not in str(taken):
                    raise
        raise TournamentError("no free name for this engine")

    # --- tournaments ---------------------------------------------------------------------

    async def create(
        self,
        set_name: str,
        entrants: Sequence[EntrantSpec],
        *,
        format: str = "round-robin",
        games: int = 2,
        rounds: int = 0,
        concurrency: int = 4,
        options: Options | None = None,
        name: str = "",
    ) -> str:
        """Store a tournament; return its id. Its games start at the next scan.

        ``games``: games per pairing (round-robin; colours alternate) or per Swiss pairing;
        ``rounds``: Swiss rounds (0: enough to tell a winner, ceil(log2 n)); Poker Level 2
        is played only between two entrants that both play it (registrations declaring
        it, or built-in engines). Raises :class:`TournamentError`; stores nothing then."""
        options = options or Options()
        interface = await self.arbitre.find_set(set_name)
        if interface is None or interface.arbitre is None:
            raise TournamentError(f"unknown Set {set_name!r}")
        if format not in FORMATS:
            raise TournamentError(f"the format is {' or '.join(FORMATS)}")
        if not 2 <= len(entrants) <= MAX_ENTRANTS:
            raise TournamentError(f"a tournament has 2 to {MAX_ENTRANTS} entrants")
        if not 1 <= games <= 100:
            raise TournamentError("1 to 100 games per pairing")
        if not 1 <= concurrency <= 500:
            raise TournamentError("1 to 500 games at once")
        count = len(entrants)
        if format == "swiss":
            rounds = rounds or swiss_rounds_needed(count)
            if not 1 <= rounds <= max(1, count - 1 if count % 2 == 0 else count):
                raise TournamentError(f"a Swiss tournament of {count} has 1 to {count} rounds")
        else:
            rounds = 0
        try:
            self.arbitre.check_options(interface, options)
        except GameError as refused:
            raise TournamentError(str(refused)) from None
        made = await self._entrants(interface, entrants)
        tournament_id = new_id(12)
        title = " ".join(name.split())[:100] or f"{interface.name} {format}"
        async with self.store.session() as session:
            session.add(
                TournamentRow(
                    id=tournament_id,
                    name=title,
                    set_name=interface.name,
                    format=format,
                    games=games,
                    rounds=rounds,
                    concurrency=concurrency,
                    options=options.to_json(),
                    status="running",
                    byes=[],
                    created_at=self.store.now(),
                    ended_at=None,
                    lease_owner=None,
                    lease_until=None,
                )
            )
            await session.flush()
            for index, entrant in enumerate(made):
                session.add(replace_row(entrant, tournament_id, index))
        return tournament_id

    async def _entrants(
        self, interface: PlayedSet, entrants: Sequence[EntrantSpec]
    ) -> list[EntrantRow]:
        made: list[EntrantRow] = []
        names: set[str] = set()
        urls = [spec.engine for spec in entrants if spec.kind in ("engine", "botsarena")]
        default = dict(zip(urls, engine_names(urls), strict=True))
        for number, spec in enumerate(entrants, 1):
            if spec.kind == "registered":
                found = await self.engine(spec.engine)
                if found is None:
                    raise TournamentError(f"entrant {number}: no registered engine {spec.engine!r}")
                if found.retired:
                    raise TournamentError(f"entrant {number}: {found.name} is retired")
                if interface.name not in found.sets:
                    raise TournamentError(
                        f"entrant {number}: {found.name} does not play {interface.name}"
                    )
                row = EntrantRow(kind="engine", name=spec.name or found.name, url=found.url)
                row.registration = found.id
            elif spec.kind == "engine":
                registration = await self.registration_for(
                    spec.engine, interface.name, default[spec.engine]
                )
                row = EntrantRow(
                    kind="engine", name=spec.name or registration.name, url=registration.url
                )
                row.registration = registration.id
            elif spec.kind == "botsarena":
                if interface.botsarena is None:
                    raise TournamentError(
                        f"entrant {number}: {interface.name} has no botsarena bots"
                    )
                url = self._check_url(spec.engine)
                row = EntrantRow(kind="botsarena", name=spec.name or default[spec.engine], url=url)
                row.registration = ""
            elif spec.kind == "builtin":
                engine = spec.engine or next(iter(interface.engines), "")
                if engine not in interface.engines:
                    raise TournamentError(
                        f"entrant {number}: {interface.name} has no built-in engine {engine!r}"
                    )
                row = EntrantRow(kind="builtin", name=spec.name or engine, url=engine)
                row.registration = builtin_registration(engine)
            else:
                raise TournamentError(
                    f"entrant {number} is registered, an engine URL or builtin, not {spec.kind!r}"
                )
            row.name = self._check_name(row.name)
            base, suffix = row.name, 2
            while row.name.lower() in names:
                row.name = f"{base[:55]} {suffix}"
                suffix += 1
            names.add(row.name.lower())
            made.append(row)
        return made

    async def tournament(
        self, tournament_id: str, *, positions: bool = True
    ) -> tuple[TournamentRow, list[EntrantRow], list[GameRow]] | None:
        """Return a tournament, its entrants by index and its games in creation order;
        without ``positions`` the games' positions (``turn`` and ``first``, the bulk of a
        row) are not read, and reading them raises (the scheduler's view, every second)."""
        async with self.store.sessions() as session:
            row = await session.get(TournamentRow, tournament_id, populate_existing=True)
            if row is None:
                return None
            entrants = list(
                await session.scalars(
                    select(EntrantRow)
                    .where(EntrantRow.tournament_id == tournament_id)
                    .order_by(EntrantRow.index)
                )
            )
            games = list(
                await session.scalars(
                    select(GameRow)
                    .where(GameRow.tournament_id == tournament_id)
                    .order_by(GameRow.created_at, GameRow.id)
                    .options(
                        *(
                            ()
                            if positions
                            else (
                                defer(GameRow.turn, raiseload=True),
                                defer(GameRow.first, raiseload=True),
                            )
                        )
                    )
                    .execution_options(populate_existing=True)
                )
            )
            return row, entrants, games

    async def listed(self) -> list[TournamentRow]:
        """Return every tournament, newest first."""
        async with self.store.sessions() as session:
            return list(
                await session.scalars(
                    select(TournamentRow).order_by(TournamentRow.created_at.desc())
                )
            )

    async def counts(self) -> dict[str, tuple[int, int]]:
        """Return, per tournament id, its number of entrants and of games over: two grouped
        counts, whatever the number of tournaments and games."""
        async with self.store.sessions() as session:
            entrants = await session.execute(
                select(EntrantRow.tournament_id, func.count()).group_by(EntrantRow.tournament_id)
            )
            over = await session.execute(
                select(GameRow.tournament_id, func.count())
                .where(GameRow.tournament_id.is_not(None), GameRow.status != "playing")
                .group_by(GameRow.tournament_id)
            )
            ended = {str(tournament): int(count) for tournament, count in over.all()}
            return {
                str(tournament): (int(count), ended.get(str(tournament), 0))
                for tournament, count in entrants.all()
            }

    # --- scheduling ----------------------------------------------------------------------

    async def tick(self) -> None:
        """Schedule every running tournament this worker holds or can take (a lease)."""
        async with self.store.sessions() as session:
            running = list(
                await session.scalars(
                    select(TournamentRow.id).where(TournamentRow.status == "running")
                )
            )
        for tournament_id in running:
            if await self._acquire(tournament_id):
                try:
                    await self.schedule(tournament_id)
                except Exception:
                    log.exception("scheduling tournament %s", tournament_id)

    async def _acquire(self, tournament_id: str) -> bool:
        at = self.store.now()
        me = self.arbitre.worker
        async with self.store.session() as session:
            done = await session.execute(
                update(TournamentRow)
                .where(
                    TournamentRow.id == tournament_id,
                    TournamentRow.status == "running",
                    or_(
                        TournamentRow.lease_until.is_(None),
                        TournamentRow.lease_until < at,
                        TournamentRow.lease_owner == me,
                    ),
                )
                .values(
                    lease_owner=me,
                    lease_until=at + dt.timedelta(seconds=self.arbitre.lease_seconds),
                )
            )
            return getattr(done, "rowcount", 0) == 1

    async def schedule(self, tournament_id: str) -> None:
        """Make the tournament's next games (up to its concurrency), its Swiss byes and
        rounds, and end it once every game is over."""
        found = await self.tournament(tournament_id, positions=False)
        if found is None:
            return
        row, entrants, games = found
        if row.status != "running":
            return
        count = len(entrants)
        made = {g.pairing for g in games if g.pairing is not None}
        playing = sum(1 for g in games if g.status == "playing")
        wanted: list[tuple[int, Pairing]] = []
        if row.format == "round-robin":
            wanted = list(enumerate(round_robin(count, row.games)))
        else:
            rounds_made = max((g.round or 0 for g in games), default=0)
            byes = [list(b) for b in row.byes or []]
            rounds_made = max([rounds_made, *(b[0] for b in byes)])
            current = {g.pairing for g in games if g.round == rounds_made}
            if rounds_made and len(current) < (count // 2) * row.games:
                round_ = rounds_made  # the round is still being made
            elif playing == 0 and rounds_made < row.rounds:
                round_ = rounds_made + 1
            else:
                round_ = 0
            if round_:
                results = self._results(games, byes, before_round=round_)
                pairings = swiss_round(round_, count, results)
                board = 0
                for pairing in pairings:
                    if pairing.second == BYE:
                        if [round_, pairing.first] not in byes:
                            byes.append([round_, pairing.first])
                            await self._save_byes(row.id, byes)
                        continue
                    for game in range(row.games):
                        first, second = (
                            (pairing.first, pairing.second)
                            if game % 2 == 0
                            else (pairing.second, pairing.first)
                        )
                        wanted.append(
                            (round_ * ROUND_STRIDE + board, Pairing(round_, first, second))
                        )
                        board += 1
        fresh = 0
        for index, pairing in wanted:
            if index in made:
                continue
            if playing >= row.concurrency:
                break
            await self._make_game(row, entrants, index, pairing)
            made.add(index)
            playing += 1
            fresh += 1
        if fresh:
            await self.arbitre.nudge()
        if playing == 0 and all(index in made for index, _ in wanted):
            found = await self.tournament(tournament_id, positions=False)
            if found is None:
                return
            row, entrants, games = found
            if any(g.status == "playing" for g in games):
                return
            if row.format == "swiss":
                rounds_made = max(
                    [0, *(g.round or 0 for g in games), *(b[0] for b in row.byes or [])]
                )
                if rounds_made < row.rounds:
                    return
            async with self.store.session() as session:
                stored = await session.get(TournamentRow, row.id, with_for_update=True)
                if stored is not None and stored.status == "running":
                    stored.status = "over"
                    stored.ended_at = self.store.now()
                    stored.lease_owner = stored.lease_until = None

    async def _save_byes(self, tournament_id: str, byes: list[list[int]]) -> None:
        async with self.store.session() as session:
            stored = await session.get(TournamentRow, tournament_id, with_for_update=True)
            if stored is not None:
                stored.byes = [list(b) for b in byes]

    async def _make_game(
        self, row: TournamentRow, entrants: Sequence[EntrantRow], index: int, pairing: Pairing
    ) -> None:
        first, second = entrants[pairing.first], entrants[pairing.second]
        options = Options.from_json(row.options)
        if options.level == 2 and not (await self._level2(first) and await self._level2(second)):
            options = replace(options, level=1)
        seats = [
            SeatSpec(e.kind if e.kind in ("builtin", "botsarena") else "engine", e.url, e.name)
            for e in (first, second)
        ]
        try:
            await self.arbitre.create(
                row.set_name,
                seats,
                options,
                start=False,
                registrations=(first.registration, second.registration),
                tournament=(row.id, pairing.round, index, pairing.first, pairing.second),
            )
        except GameError as refused:
            log.error("tournament %s: game %d cannot be made: %s", row.id, index, refused)
            raise
        except IntegrityError:
            # Made meanwhile by another worker that scheduled this tournament (a lease that
            # ran out while it worked): the unique (tournament, pairing) keeps one.
            log.info("tournament %s: game %d was already made", row.id, index)

    async def _level2(self, entrant: EntrantRow) -> bool:
        if entrant.kind == "builtin":
            return True
        found = await self.engine(entrant.registration) if entrant.registration else None
        return bool(found and found.poker_level2)

    # --- results -------------------------------------------------------------------------

    @staticmethod
    def _results(
        games: Sequence[GameRow],
        byes: Sequence[Sequence[int]],
        *,
        before_round: int | None = None,
    ) -> list[GameResult]:
        """Return the finished games' results in the order they ended, with the byes."""
        done = [
            g
            for g in games
            if g.status != "playing"
            and g.entrant1 is not None
            and g.entrant2 is not None
            and (before_round is None or (g.round or 0) < before_round)
        ]
        done.sort(key=lambda g: (g.ended_at or g.created_at, g.id))
        results: list[GameResult] = []
        for game in done:
            assert game.entrant1 is not None and game.entrant2 is not None
            error = game.status != "over" or game.result == "error"
            winner = None
            if not error and game.winner is not None:
                winner = game.entrant1 if game.winner == 0 else game.entrant2
            results.append(
                GameResult(
                    first=game.entrant1,
                    second=game.entrant2,
                    winner=winner,
                    error=error,
                    round=game.round or 0,
                )
            )
        for round_, entrant in byes:
            if before_round is None or round_ < before_round:
                results.append(GameResult(first=entrant, second=BYE, winner=entrant, round=round_))
        return results

    async def summary(self, tournament_id: str) -> dict[str, Any] | None:
        """Return a tournament's whole state as JSON-ready data: its settings, progress,
        entrants, standings (with ratings), cross table and games."""
        found = await self.tournament(tournament_id)
        if found is None:
            return None
        row, entrants, games = found
        results = self._results(games, row.byes or [])
        names = [e.name for e in entrants]
        table = standings(names, results)
        planned = self.planned(row, len(entrants))
        over = sum(1 for g in games if g.status != "playing")
        playing = sum(1 for g in games if g.status == "playing")
        return {
            "id": row.id,
            "name": row.name,
            "set": row.set_name,
            "format": row.format,
            "games_per_pairing": row.games,
            "rounds": row.rounds,
            "concurrency": row.concurrency,
            "options": row.options,
            "status": row.status,
            "created_at": row.created_at.isoformat(),
            "ended_at": row.ended_at.isoformat() if row.ended_at else None,
            "progress": {"planned": planned, "over": over, "playing": playing},
            "entrants": [
                {
                    "index": e.index,
                    "name": e.name,
                    "kind": e.kind,
                    "builtin": e.url if e.kind == "builtin" else "",
                    "registration": e.registration if e.kind == "engine" else "",
                }
                for e in entrants
            ],
            "standings": [standing_json(s) for s in table],
            "cross_table": cross_table(len(entrants), results),
            "byes": [list(b) for b in row.byes or []],
            "games": [
                {
                    "id": g.id,
                    "round": g.round,
                    "pairing": g.pairing,
                    "first": g.entrant1,
                    "second": g.entrant2,
                    "status": g.status,
                    "result": g.result,
                    "winner": g.winner,
                    "moves": g.moves,
                    "reason": g.reason,
                }
                for g in games
            ],
        }

    @staticmethod
    def planned(row: TournamentRow, count: int) -> int:
        """Return the number of games the tournament plays in all."""
        if row.format == "round-robin":
            return count * (count - 1) // 2 * row.games
        return row.rounds * (count // 2) * row.games

    async def table(self, tournament_id: str) -> list[Standing] | None:
        """Return the standings computed from the records."""
        found = await self.tournament(tournament_id)
        if found is None:
            return None
        row, entrants, games = found
        return standings([e.name for e in entrants], self._results(games, row.byes or []))

    # --- an engine's record ----------------------------------------------------------------

    async def engine_record(self, engine_id: str) -> dict[str, Any] | None:
        """Return a registered engine's games, its results per Set and per opponent, and
        its rating over time per Set (openskill over its games in the order they ended)."""
        engine = await self.engine(engine_id)
        if engine is None:
            return None
        async with self.store.sessions() as session:
            mine = list(
                await session.scalars(select(SeatRow).where(SeatRow.registration == engine_id))
            )
            ids = [s.game_id for s in mine]
            games = (
                {
                    g.id: g
                    for g in await session.scalars(
                        select(GameRow).where(GameRow.id.in_(ids), GameRow.status != "playing")
                    )
                }
                if ids
                else {}
            )
            seats = (
                list(await session.scalars(select(SeatRow).where(SeatRow.game_id.in_(ids))))
                if ids
                else []
            )
        by_game: dict[str, list[SeatRow]] = {}
        for seat in seats:
            by_game.setdefault(seat.game_id, []).append(seat)
        rows = []
        per_set: dict[str, dict[str, int]] = {}
        per_opponent: dict[str, dict[str, Any]] = {}
        for seat in mine:
            game = games.get(seat.game_id)
            if game is None:
                continue
            other = next((s for s in by_game.get(game.id, []) if s.index != seat.index), None)
            outcome = _outcome(game, seat.index)
            rows.append((game, seat, other, outcome))
            counts = per_set.setdefault(
                game.set_name, {"won": 0, "drawn": 0, "lost": 0, "error": 0}
            )
            counts[outcome] += 1
            if other is not None:
                key = other.registration or other.name
                entry = per_opponent.setdefault(
                    key,
                    {"name": other.name, "won": 0, "drawn": 0, "lost": 0, "error": 0},
                )
                entry[outcome] += 1
        rows.sort(key=lambda r: (r[0].ended_at or r[0].created_at, r[0].id))
        history: dict[str, list[dict[str, Any]]] = {}
        for set_name in per_set:
            played = [r for r in rows if r[0].set_name == set_name]
            opponents = sorted({(r[2].registration or r[2].name) if r[2] else "?" for r in played})
            index = {key: number + 1 for number, key in enumerate(opponents)}
            results = []
            for _game, _seat, other, outcome in played:
                them = index[(other.registration or other.name) if other else "?"]
                winner = {"won": 0, "lost": them, "drawn": None, "error": None}[outcome]
                results.append(
                    GameResult(first=0, second=them, winner=winner, error=outcome == "error")
                )
            points = rating_history(len(opponents) + 1, results)[0]
            history[set_name] = [
                {
                    "game": played[number][0].id,
                    "at": (played[number][0].ended_at or played[number][0].created_at).isoformat(),
                    "mu": round(mu, 3),
                    "sigma": round(sigma, 3),
                }
                for number, mu, sigma in points
            ]
        return {
            "id": engine.id,
            "name": engine.name,
            "url": engine.url,
            "sets": list(engine.sets),
            "poker_level2": engine.poker_level2,
            "retired": engine.retired,
            "created_at": engine.created_at.isoformat(),
            "per_set": per_set,
            "per_opponent": sorted(per_opponent.values(), key=lambda e: str(e["name"]).lower()),
            "ratings": history,
            "games": [
                {
                    "id": game.id,
                    "set": game.set_name,
                    "seat": seat.index,
                    "opponent": other.name if other else "",
                    "outcome": outcome,
                    "moves": game.moves,
                    "ended_at": game.ended_at.isoformat() if game.ended_at else None,
                    "tournament": game.tournament_id,
                }
                for game, seat, other, outcome in reversed(rows)
            ],
        }


def _outcome(game: GameRow, index: int) -> str:
    if game.status != "over" or game.result == "error":
        return "error"
    if game.winner is None:
        return "drawn"
    return "won" if game.winner == index else "lost"


def standing_json(standing: Standing) -> dict[str, Any]:
    """Return one row of the standings as JSON-ready data."""
    return {
        "rank": standing.rank,
        "entrant": standing.entrant,
        "name": standing.name,
        "played": standing.played,
        "wins": standing.wins,
        "draws": standing.draws,
        "losses": standing.losses,
        "errors": standing.errors,
        "points": standing.points,
        "buchholz": standing.buchholz,
        "sonneborn_berger": standing.sonneborn_berger,
        "mu": round(standing.mu, 3),
        "sigma": round(standing.sigma, 3),
        "ordinal": round(standing.ordinal, 3),
    }


def replace_row(entrant: EntrantRow, tournament_id: str, index: int) -> EntrantRow:
    """Return ``entrant`` placed in tournament ``tournament_id`` at ``index``."""
    entrant.tournament_id = tournament_id
    entrant.index = index
    if entrant.registration is None:
        entrant.registration = ""
    return entrant
