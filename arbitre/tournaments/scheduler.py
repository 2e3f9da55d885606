"""A tournament's scheduling: one worker at a time (a lease, as for games) makes the next
games up to the tournament's concurrency, gives Swiss byes, computes the next Swiss round
once a round is over, seats tables of four (format ``tables``: every round is known from
the start, :func:`~tournoyons_gui.arbitre.tables.tables_schedule`, fillers being the
Set's built-in engine), and ends the tournament once every game is over. A worker killed
(or a whole restart) loses nothing: the schedule is recomputed from the records, and the
games are taken over from their last recorded move.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.live import tournament_key
from tournoyons_gui.arbitre.match import GameError, Options, SeatSpec
from tournoyons_gui.arbitre.pairing import Pairing, round_robin, swiss_round
from tournoyons_gui.arbitre.seats.engine import BuiltinSeat
from tournoyons_gui.arbitre.standings import BYE, GameResult
from tournoyons_gui.arbitre.store import Conflict, Entrant, Game, Seat, Tournament
from tournoyons_gui.arbitre.tables import FILLER, TABLE_SEATS, Table, TableResult, tables_schedule

__all__ = ["FILLER_ENGINE", "ROUND_STRIDE", "Scheduler", "game_results", "table_results"]

log = logging.getLogger(__name__)

#: Swiss pairings of round ``r`` are numbered ``r * ROUND_STRIDE + board``; a table's
#: games ``r * ROUND_STRIDE + table * TABLE_SEATS + game`` (at most 4 games a table).
ROUND_STRIDE = 1000
#: The built-in engine that fills a table short of entrants, when the Set has it (else
#: the Set's first); its seat is named ``"<engine> (filler)"`` and its results do not count.
FILLER_ENGINE = "random"


@functools.lru_cache(maxsize=32)
def _schedule(entrants: int, rounds: int) -> tuple[Table, ...]:
    """Return :func:`tables_schedule`, computed once per shape (the scheduler runs every
    second; the schedule depends on the shape alone)."""
    return tuple(tables_schedule(entrants, rounds))


def table_results(games: Sequence[Game], seats: Mapping[str, Sequence[Seat]]) -> list[TableResult]:
    """Return the finished games of a tournament at tables as :class:`TableResult`, in the
    order they ended: each seat's entrant (:data:`FILLER` for a filler), rank (``None``
    for all when the game ended without a result), total and failure (Status 9)."""
    done = [g for g in games if g.status != "playing" and g.id in seats]
    done.sort(key=lambda g: (g.ended_at or g.created_at, g.id))
    results = []
    for game in done:
        seated = seats[game.id]
        error = game.status != "over" or game.result == "error"
        results.append(
            TableResult(
                seats=tuple(FILLER if s.entrant is None else s.entrant for s in seated),
                ranks=tuple(None if error else s.rank for s in seated),
                scores=tuple(s.score for s in seated),
                failed=tuple(s.final_status == 9 for s in seated),
                round=game.round or 0,
            )
        )
    return results


def game_results(
    games: Sequence[Game],
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


class Scheduler:
    """Schedules the running tournaments of the :class:`Arbitre`'s store; hooked into the
    worker's scan (every ``scan_every`` seconds, and when a tournament's game ends)."""

    def __init__(self, arbitre: Arbitre) -> None:
        self.arbitre = arbitre
        self.store = arbitre.store
        # The games over of each tournament at its last scheduling here: its events tell
        # their watchers when it changes.
        self._over: dict[str, int] = {}
        arbitre.on_scan.append(self.tick)

    async def tick(self) -> None:
        """Schedule every running tournament this worker holds or can take (a lease)."""
        for tournament_id in await self.store.running_tournaments():
            owner, seconds = self.arbitre.worker.name, self.arbitre.lease_seconds
            if await self.store.acquire_tournament(tournament_id, owner, seconds):
                try:
                    await self.schedule(tournament_id)
                except Exception:
                    log.exception("scheduling tournament %s", tournament_id)

    async def schedule(self, tournament_id: str) -> None:
        """Make the tournament's next games (up to its concurrency), its Swiss byes and
        rounds, and end it once every game is over."""
        found = await self.store.tournament(tournament_id, positions=False)
        if found is None:
            return
        row, entrants, games = found
        if row.status != "running":
            return
        over = sum(1 for g in games if g.status != "playing")
        if self._over.get(row.id, over) != over:  # a game of it ended: tell its watchers
            await self.arbitre.hub.publish(tournament_key(row.id), {"games_over": over})
        self._over[row.id] = over
        count = len(entrants)
        made = {g.pairing for g in games if g.pairing is not None}
        playing = sum(1 for g in games if g.status == "playing")
        wanted: list[tuple[int, Pairing | Table]] = []
        if row.format == "round-robin":
            wanted = list(enumerate(round_robin(count, row.games)))
        elif row.format == "tables":
            schedule = await asyncio.to_thread(_schedule, count, row.rounds)
            for table in schedule:
                for game in range(row.games):  # seats rotate from one game to the next
                    index = table.round * ROUND_STRIDE + table.number * TABLE_SEATS + game
                    seats = table.seats[game:] + table.seats[:game]
                    wanted.append((index, replace(table, seats=seats)))
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
                results = game_results(games, byes, before_round=round_)
                pairings = swiss_round(round_, count, results)
                board = 0
                for pairing in pairings:
                    if pairing.second == BYE:
                        if [round_, pairing.first] not in byes:
                            byes.append([round_, pairing.first])
                            await self.store.save_byes(row.id, byes)
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
        for index, planned in wanted:
            if index in made:
                continue
            if playing >= row.concurrency:
                break
            await self._make_game(row, entrants, index, planned)
            made.add(index)
            playing += 1
            fresh += 1
        if fresh:
            await self.arbitre.nudge()
            await self.arbitre.hub.publish(tournament_key(row.id), {"made": fresh})
        if playing == 0 and all(index in made for index, _ in wanted):
            found = await self.store.tournament(tournament_id, positions=False)
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
            await self.store.end_tournament(row.id)
            await self.arbitre.hub.publish(tournament_key(row.id), {"over": True})
            self._over.pop(row.id, None)

    async def _make_game(
        self, row: Tournament, entrants: Sequence[Entrant], index: int, pairing: Pairing | Table
    ) -> None:
        if isinstance(pairing, Table):
            await self._make_table(row, entrants, index, pairing)
            return
        first, second = entrants[pairing.first], entrants[pairing.second]
        options = Options.from_json(row.options)
        if options.level == 2 and not (await self._level2(first) and await self._level2(second)):
            options = replace(options, level=1)
        seats = [SeatSpec(e.kind, e.url, e.name) for e in (first, second)]
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
        except Conflict:
            # Made meanwhile by another worker that scheduled this tournament (a lease that
            # ran out while it worked): the unique (tournament, pairing) keeps one.
            log.info("tournament %s: game %d was already made", row.id, index)

    async def _make_table(
        self, row: Tournament, entrants: Sequence[Entrant], index: int, table: Table
    ) -> None:
        """Make the game of ``table``: its entrants in seat order, fillers for the rest."""
        interface = await self.arbitre.find_set(row.set_name)
        engines = list(interface.engines) if interface is not None else []
        filler = FILLER_ENGINE if FILLER_ENGINE in engines else next(iter(engines), "")
        seats, registrations = [], []
        for entrant in table.seats:
            if entrant == FILLER:
                seats.append(SeatSpec(BuiltinSeat.name, filler, f"{filler} (filler)"))
                registrations.append("")
            else:
                found = entrants[entrant]
                seats.append(SeatSpec(found.kind, found.url, found.name))
                registrations.append(found.registration)
        seated = [None if e == FILLER else e for e in table.seats]
        try:
            await self.arbitre.create(
                row.set_name,
                seats,
                Options.from_json(row.options),
                start=False,
                registrations=registrations,
                tournament=(row.id, table.round, index, seated[0], seated[1]),
                entrants=seated,
            )
        except GameError as refused:
            log.error("tournament %s: table %d cannot be made: %s", row.id, index, refused)
            raise
        except Conflict:
            log.info("tournament %s: table %d was already made", row.id, index)

    async def _level2(self, entrant: Entrant) -> bool:
        if entrant.kind == BuiltinSeat.name:
            return True  # our engines play every level
        found = await self.store.registered(entrant.registration) if entrant.registration else None
        return bool(found and found.poker_level2)
