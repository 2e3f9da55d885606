"""Tournaments between engines ("matchs de compétition", engine manual: each engine is told
its ``Opponent``): round-robin and Swiss tournaments, tournaments at tables of four
(format ``tables``, Sets of four seats: Tarot), their standings, ratings and cross tables
(tables of meetings at four), and registered engines' records.

Game-agnostic like the rest of the Arbitre: a tournament names a Set and its entrants
(registered engines, engine URLs, built-in engines, botsarena bots); its games are
ordinary games, made by the scheduler (:mod:`.scheduler`) and driven by whichever worker's
scan finds them, at most ``concurrency`` at a time. Standings are always computed from the
records (:mod:`~tournoyons_gui.arbitre.standings`): points (win 1, draw 0.5), the
tie-breaks, openskill ratings with their uncertainty; at tables
(:mod:`~tournoyons_gui.arbitre.tables`), match points by rank, then total score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.catalogue import PlayedSet
from tournoyons_gui.arbitre.match import GameError, Options, check_text
from tournoyons_gui.arbitre.naming import engine_names
from tournoyons_gui.arbitre.pairing import swiss_rounds_needed
from tournoyons_gui.arbitre.processes import PREFIX, CommandError, is_command
from tournoyons_gui.arbitre.record import result_text
from tournoyons_gui.arbitre.standings import Standing, kept_cross_table, kept_standings
from tournoyons_gui.arbitre.store import Engine, Entrant, Game, Seat, Tournament, new_id
from tournoyons_gui.arbitre.tables import (
    TABLE_SEATS,
    TableStanding,
    kept_meetings,
    kept_table_standings,
)
from tournoyons_gui.arbitre.tournaments.engine_record import RecordPage, engine_record
from tournoyons_gui.arbitre.tournaments.registrations import (
    EntrantSpec,
    Registrations,
    TournamentError,
    builtin_registration,
)
from tournoyons_gui.arbitre.tournaments.scheduler import Scheduler
from tournoyons_gui.interfaces.plugin import seat_count

__all__ = [
    "ENTRANT_KINDS",
    "FORMATS",
    "GAMES_SHOWN",
    "MAX_CONCURRENCY",
    "MAX_ENTRANTS",
    "MAX_GAMES",
    "MAX_TABLE_ROUNDS",
    "MAX_TOURNAMENT_NAME",
    "Tournaments",
    "standing_json",
    "table_standing_json",
]

FORMATS = ("round-robin", "swiss", "tables")
#: The games a tournament's summary (its page, its JSON) lists, in the order made: the
#: rest are a page away (``/tournaments/<id>/games.json``).
GAMES_SHOWN = 200
MAX_ENTRANTS = 64
#: What an entrant may be: a registered engine (its id), an engine's URL (registered on
#: the way), a botsarena bot's URL, or one of our built-in engines (its name).
ENTRANT_KINDS = ("registered", "engine", "botsarena", "builtin")
#: The most characters of a tournament's name.
MAX_TOURNAMENT_NAME = 100
#: The most games at once a tournament may ask for.
MAX_CONCURRENCY = 500
#: The most games per pairing (round-robin, Swiss).
MAX_GAMES = 100
#: The most rounds a tournament at tables may have (its schedule is computed at once).
MAX_TABLE_ROUNDS = 20


class Tournaments:
    """Registered engines and tournaments, over the :class:`Arbitre`'s store; its
    scheduler hooks into the Arbitre's scan."""

    def __init__(self, arbitre: Arbitre) -> None:
        self.arbitre = arbitre
        self.store = arbitre.store
        self.registrations = Registrations(arbitre)
        self.scheduler = Scheduler(arbitre)

    # --- registered engines (Registrations) --------------------------------------------

    async def register(self, name: str, url: str, sets: Sequence[str], **settings: Any) -> Engine:
        """Register an engine (:meth:`Registrations.register`: ``poker_level2``,
        ``open_entry``, ``call_key``, ``kind``)."""
        return await self.registrations.register(name, url, sets, **settings)

    async def update(self, engine_id: str, *, token: str, **changes: Any) -> Engine:
        """Change a registration with its edit token (:meth:`Registrations.update`)."""
        return await self.registrations.update(engine_id, token=token, **changes)

    async def engine(self, engine_id: str) -> Engine | None:
        """Return a registered engine."""
        return await self.registrations.engine(engine_id)

    async def engine_record(
        self,
        engine_id: str,
        page: RecordPage | None = None,
        cursor: Callable[[str, Sequence[Any]], str] | None = None,
    ) -> dict[str, Any] | None:
        """Return a page of a registered engine's record: results, ratings, opponents and
        games (:func:`engine_record`)."""
        return await engine_record(self.store, engine_id, page, cursor)

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
        seats = seat_count(interface.arbitre)
        if (format == "tables") != (seats == TABLE_SEATS):
            raise TournamentError(
                f"{interface.name} is played by {seats} seats: "
                + ("format tables" if seats == TABLE_SEATS else "round-robin or swiss")
            )
        if not 1 <= games <= (TABLE_SEATS if format == "tables" else MAX_GAMES):
            raise TournamentError(
                f"1 to {TABLE_SEATS} games per table"
                if format == "tables"
                else f"1 to {MAX_GAMES} games per pairing"
            )
        if rounds < 0:
            raise TournamentError("rounds is 0 (enough to tell a winner) or more")
        if not 1 <= concurrency <= MAX_CONCURRENCY:
            raise TournamentError(f"1 to {MAX_CONCURRENCY} games at once")
        count = len(entrants)
        if format == "swiss":
            rounds = rounds or swiss_rounds_needed(count)
            if not 1 <= rounds <= max(1, count - 1 if count % 2 == 0 else count):
                raise TournamentError(f"a Swiss tournament of {count} has 1 to {count} rounds")
        elif format == "tables":
            if count < TABLE_SEATS:
                raise TournamentError("a tournament at tables of four has 4 entrants or more")
            rounds = rounds or -(-(count - 1) // (TABLE_SEATS - 1))  # each pair about once
            if not 1 <= rounds <= MAX_TABLE_ROUNDS:
                raise TournamentError(f"a tournament at tables has 1 to {MAX_TABLE_ROUNDS} rounds")
        else:
            rounds = 0
        try:
            self.arbitre.check_options(interface, options)
        except GameError as refused:
            raise TournamentError(str(refused)) from None
        try:
            name = check_text(name, "the tournament's name", MAX_TOURNAMENT_NAME)
        except GameError as refused:
            raise TournamentError(str(refused)) from None
        made = await self._entrants(interface, entrants)
        tournament_id = new_id(12)
        title = " ".join(name.split())[:MAX_TOURNAMENT_NAME] or f"{interface.name} {format}"
        tournament = Tournament(
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
        )
        await self.store.create_tournament(tournament, made)
        return tournament_id

    async def _entrants(
        self, interface: PlayedSet, entrants: Sequence[EntrantSpec]
    ) -> list[Entrant]:
        made: list[Entrant] = []
        new: list[Engine] = []
        names: set[str] = set()
        urls = [
            spec.engine
            for spec in entrants
            if spec.kind in ("engine", "botsarena") and not is_command(spec.engine)
        ]
        default = dict(zip(urls, engine_names(urls), strict=True))
        for number, spec in enumerate(entrants, 1):
            if spec.kind == "registered":
                found = await self.registrations.engine(spec.engine)
                if found is None:
                    raise TournamentError(f"entrant {number}: no registered engine {spec.engine!r}")
                self.registrations.consent(found, spec.token, interface.name, number)
                # Only its owner (its token) names it otherwise in a tournament.
                shown = spec.name if spec.token == found.secret else ""
                row = Entrant(found.kind, shown or found.name, found.url, found.id)
            elif spec.kind == "engine" and is_command(spec.engine):
                # A process engine of this command line: never registered (it is a
                # program of this machine, not an engine others may reach).
                try:
                    command = self.arbitre.services.processes.check(spec.engine)
                except CommandError as refused:
                    raise TournamentError(f"entrant {number}: {refused}") from None
                row = Entrant("engine", spec.name or command[:60], PREFIX + command)
            elif spec.kind == "engine":
                planned = {e.url: e for e in new}
                url = self.registrations.check_url(spec.engine)
                if url in planned:
                    registration, fresh = planned[url], True
                else:
                    registration, fresh = await self.registrations.registration_for(
                        url, interface.name, default[spec.engine], token=spec.token, number=number
                    )
                    if fresh:
                        new.append(registration)
                shown = spec.name if fresh or spec.token == registration.secret else ""
                row = Entrant(
                    registration.kind, shown or registration.name, registration.url, registration.id
                )
            elif spec.kind == "botsarena":
                if interface.botsarena is None:
                    raise TournamentError(
                        f"entrant {number}: {interface.name} has no botsarena bots"
                    )
                url = self.registrations.check_url(spec.engine)
                row = Entrant("botsarena", spec.name or default[spec.engine], url)
            elif spec.kind == "builtin":
                engine = spec.engine or next(iter(interface.engines), "")
                if engine not in interface.engines:
                    raise TournamentError(
                        f"entrant {number}: {interface.name} has no built-in engine {engine!r}"
                    )
                row = Entrant("builtin", spec.name or engine, engine, builtin_registration(engine))
            else:
                raise TournamentError(
                    f"entrant {number} is one of {', '.join(ENTRANT_KINDS)}, not {spec.kind!r}"
                )
            row.name = self.registrations.check_name(row.name)
            base, suffix = row.name, 2
            while row.name.lower() in names:
                row.name = f"{base[:55]} {suffix}"
                suffix += 1
            names.add(row.name.lower())
            made.append(row)
        # Registered only once every entrant is accepted: a refused request stores nothing.
        for fresh_engine in new:
            await self.registrations.store_new(fresh_engine)
        return made

    async def tournament(
        self, tournament_id: str, *, positions: bool = True
    ) -> tuple[Tournament, list[Entrant], list[Game]] | None:
        """Return a tournament, its entrants by index and its games in creation order."""
        return await self.store.tournament(tournament_id, positions=positions)

    async def summary(
        self,
        tournament_id: str,
        cursor: Callable[[Sequence[Any]], str] | None = None,
    ) -> dict[str, Any] | None:
        """Return a tournament's state as JSON-ready data: its settings, progress,
        entrants, standings (with ratings) and cross table, from its kept counts
        (:meth:`table`), its games in play and the first :data:`GAMES_SHOWN` of its games
        in the order made (``games``; ``games_next``: the cursor of the next page of
        ``/tournaments/<id>/games.json``, made by ``cursor(position)``, ``None`` on the
        last page or without ``cursor``): bounded by the page, whatever the tournament's
        size."""
        found = await self.store.tournament_entrants(tournament_id)
        if found is None:
            return None
        row, entrants = found
        names = [e.name for e in entrants]
        kept = await self.store.kept_standings(tournament_id)
        if row.format == "tables":
            lines = [
                table_standing_json(s) for s in kept_table_standings(names, kept.scores, kept.pairs)
            ]
            crossed = kept_meetings(len(entrants), kept.pairs)
        else:
            lines = [
                standing_json(s) for s in kept_standings(names, kept.scores, kept.pairs, row.byes)
            ]
            crossed = kept_cross_table(len(entrants), kept.pairs)
        shown = await self.store.tournament_games(tournament_id, limit=GAMES_SHOWN + 1)
        games = shown[:GAMES_SHOWN]
        next_page = None
        if len(shown) > GAMES_SHOWN and cursor is not None:
            next_page = cursor([games[-1].created_at.isoformat(), games[-1].id])
        in_play = await self.store.tournament_in_play(tournament_id)
        seats: dict[str, list[Seat]] = {}
        if row.format == "tables":
            seats = await self.store.seats_of([g.id for g in games])
        counted = await self.store.counts_of([tournament_id])
        over = counted.get(tournament_id, (0, 0))[1]
        planned = self.planned(row, len(entrants))
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
            "progress": {"planned": planned, "over": over, "playing": len(in_play)},
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
            "standings": lines,
            "cross_table": crossed,
            "byes": [list(b) for b in row.byes or []],
            "games": [_game_json(g, seats) for g in games],
            "games_next": next_page,
            "in_play": [_game_json(g, {}) for g in in_play],
        }

    @staticmethod
    def planned(row: Tournament, count: int) -> int:
        """Return the number of games the tournament plays in all."""
        if row.format == "round-robin":
            return count * (count - 1) // 2 * row.games
        if row.format == "tables":
            return row.rounds * -(-count // TABLE_SEATS) * row.games
        return row.rounds * (count // 2) * row.games

    async def table(self, tournament_id: str) -> list[Standing] | list[TableStanding] | None:
        """Return the standings from the tournament's kept counts (at tables: by match
        points): entrants' lines and pairs, never its games."""
        found = await self.store.tournament_entrants(tournament_id)
        if found is None:
            return None
        row, entrants = found
        names = [e.name for e in entrants]
        kept = await self.store.kept_standings(tournament_id)
        if row.format == "tables":
            return kept_table_standings(names, kept.scores, kept.pairs)
        return kept_standings(names, kept.scores, kept.pairs, row.byes or [])


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


def table_standing_json(standing: TableStanding) -> dict[str, Any]:
    """Return one row of the standings at tables as JSON-ready data."""
    return {
        "rank": standing.rank,
        "entrant": standing.entrant,
        "name": standing.name,
        "played": standing.played,
        "firsts": standing.firsts,
        "errors": standing.errors,
        "points": standing.points,
        "score": standing.score,
        "buchholz": standing.buchholz,
        "mu": round(standing.mu, 3),
        "sigma": round(standing.sigma, 3),
        "ordinal": round(standing.ordinal, 3),
    }


def _game_json(game: Game, seats: dict[str, list[Seat]]) -> dict[str, Any]:
    """Return a game as the summary lists it (at tables, with its seats)."""
    return {
        "id": game.id,
        "round": game.round,
        "pairing": game.pairing,
        "first": game.entrant1,
        "second": game.entrant2,
        "status": game.status,
        "result": game.result,
        "winner": game.winner,
        "moves": game.moves,
        "reason": game.reason,
        **_seated(game, seats.get(game.id)),
    }


def _seated(game: Game, seats: list[Seat] | None) -> dict[str, Any]:
    """Return what a game at tables adds to the summary: its ``seats`` (each seat's entrant,
    ``None`` a filler, and its name) and its ``result_text``; nothing for two seats."""
    if seats is None:
        return {}
    return {
        "seats": [{"entrant": s.entrant, "name": s.name, "rank": s.rank} for s in seats],
        "result_text": result_text(game, seats),
    }
