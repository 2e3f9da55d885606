"""The ladder's scheduler: a step per Set, run by whichever driver holds the Set's lease
in the store (no process owns the ladder), at every scan of the drivers run with ``serve
--ladder`` (a ladder game's end wakes their scans: its pair's next game starts at once).

A step reads the Set's open pairs and the engines that may play
(:meth:`~tournoyons_gui.arbitre.store.Store.ladder_state`) and plans (:class:`Plan`): an idle
ladder costs a read, no write. When there is something to do it takes the lease, reads
again and, up to the Set's games in flight (``--ladder-games``):

1. gives up a pair waiting for its next game when one of its engines may no longer
   play (paused by its faults, taken off the ladder or retired by its owner), its slots
   given back;
2. makes the next game of each other waiting pair once its engines' rest is over, the
   seats swapped (rotated at four);
3. makes new pairs (:func:`~.pairing.pairings`), each first game with its pair in one
   transaction (:func:`~tournoyons_gui.arbitre.store.ladder.ladder_game_made`): the
   engines' slots are taken there, and the pair's number is unique in its Set, so two
   drivers whose leases crossed never make a game twice (the second is refused and
   skipped).

Games are made for the workers' scans to take (``start=False``, as a tournament's), each
pair from one opening of the Set's built-in suite (``interfaces/<set>/openings.txt``, in an
order drawn once from the Set's ladder seed) and with one seed (a Set that deals deals both
games alike: a duplicate deal; a Set played in deals, Tarot, plays one deal a game), its
engines told their ``Opponent`` (decision 27). A driver killed mid-step leaves its lease to
expire; its games in play are taken over as any game is.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.catalogue import PlayedSet
from tournoyons_gui.arbitre.ladder.pairing import FILLER, Waiting, pairings
from tournoyons_gui.arbitre.ladder.settings import DEFAULT_GAMES
from tournoyons_gui.arbitre.match import DEFAULT_TIMEOUT, GameError, Options, SeatSpec
from tournoyons_gui.arbitre.seats.engine import BuiltinSeat
from tournoyons_gui.arbitre.store import Conflict, LadderPlace
from tournoyons_gui.arbitre.store.ladder_board import LadderEngine, LadderState, OpenPair
from tournoyons_gui.interfaces.openings import Opening, builtin_openings, ordered, pair_seed
from tournoyons_gui.interfaces.plugin import SetInterface, match_deals, seat_count, starts_from_tray

__all__ = ["FILLER_ENGINE", "SEATS", "LadderScheduler", "Plan"]

log = logging.getLogger(__name__)

#: The seats of a game a ladder is run for: two, or tables of four (Tarot).
SEATS = (2, 4)
#: The built-in engine that fills a table of four short of engines (else the Set's first).
FILLER_ENGINE = "random"
#: Seconds an engine whose game the Arbitre refused to make (its URL no longer allowed,
#: say) is left out of this driver's new pairs, rather than tried at every step.
REFUSED_FOR = 300.0


@dataclass
class Plan:
    """What a step does: the open pairs it gives up (an engine may no longer play), those
    whose next game it makes, the new pairs (tables) it makes."""

    give_up: list[OpenPair] = field(default_factory=list)
    legs: list[OpenPair] = field(default_factory=list)
    tables: list[tuple[str, ...]] = field(default_factory=list)

    @property
    def idle(self) -> bool:
        """Whether the step has nothing to do."""
        return not (self.give_up or self.legs or self.tables)


class LadderScheduler:
    """Schedules every Set's ladder over the :class:`Arbitre`'s store; hooked into the
    worker's scan and into the end of its games. ``games``: ladder games in flight per
    Set; ``timeout``: the ladder games' ``TimeOut`` (seconds, 4-54)."""

    def __init__(
        self, arbitre: Arbitre, *, games: int = DEFAULT_GAMES, timeout: int = DEFAULT_TIMEOUT
    ) -> None:
        self.arbitre = arbitre
        self.store = arbitre.store
        self.games = games
        self.timeout = timeout
        self._running: dict[str, asyncio.Lock] = {}
        self._again: set[str] = set()
        self._openings: dict[tuple[str, int], list[Opening]] = {}
        self._refused: dict[str, float] = {}
        arbitre.on_scan.append(self.tick)

    async def tick(self) -> None:
        """Run a step of every Set's ladder (those that ever had an engine on it)."""
        for set_name in await self.store.ladder_set_names():
            await self.step(set_name)

    async def step(self, set_name: str) -> int:
        """Run one step of the Set's ladder when this worker can take its lease; return
        the games made. A step asked while one runs here is run again after it."""
        lock = self._running.setdefault(set_name, asyncio.Lock())
        if lock.locked():
            self._again.add(set_name)
            return 0
        made = 0
        async with lock:
            while True:
                self._again.discard(set_name)
                made += await self._leased(set_name)
                if set_name not in self._again:
                    break
        if made:
            await self.arbitre.nudge()  # the workers' scans take them now
        return made

    async def _leased(self, set_name: str) -> int:
        """Run a step of the Set's ladder under its lease, when there is something to do:
        the step is planned from a read first (no write while the ladder is idle), then
        again once the lease is held."""
        interface = await self.arbitre.find_set(set_name)
        if (
            interface is None
            or interface.arbitre is None
            or seat_count(interface.arbitre) not in SEATS
        ):
            await self._close(set_name)  # a Set no longer played here: its pairs end
            return 0
        seats = seat_count(interface.arbitre)
        state = await self.store.ladder_state(set_name, self.store.now())
        if state is None or self._plan(state, self.store.now(), seats).idle:
            return 0
        owner = self.arbitre.worker.name
        if not await self.store.take_ladder_step(set_name, owner, self.arbitre.lease_seconds):
            return 0
        try:
            now = self.store.now()
            state = await self.store.ladder_state(set_name, now)
            if state is None:
                return 0
            return await self._act(interface, state, self._plan(state, now, seats))
        except Exception:
            log.exception("the ladder of %s", set_name)
            return 0
        finally:
            await self.store.end_ladder_step(set_name, owner)

    async def _close(self, set_name: str) -> None:
        """Give up the open pairs of a Set this server no longer plays (their games, ended
        as interrupted, have no next one): their engines' slots come back."""
        state = await self.store.ladder_state(set_name, self.store.now())
        for pair in state.open if state is not None else ():
            if pair.playing is None:
                await self.store.give_up_pair(set_name, pair.number)

    def _plan(self, state: LadderState, now: dt.datetime, seats: int) -> Plan:
        """Return what a step does with ``state`` at ``now`` (see the module)."""
        room = self.games - sum(1 for pair in state.open if pair.playing is not None)
        plan = Plan()
        for pair in state.open:
            if pair.playing is not None:
                continue
            engines = [state.seated.get(engine) for engine in pair.engines if engine]
            if any(engine is None or not engine.playable for engine in engines):
                plan.give_up.append(pair)
            elif room > 0 and all(
                e is not None and (e.rest_until is None or e.rest_until <= now) for e in engines
            ):
                plan.legs.append(pair)
                room -= 1
        clock = time.monotonic()
        waiting = [
            Waiting(c.id, c.mu, c.sigma, c.games, c.held, c.concurrency, c.rest_until, c.since)
            for c in state.candidates
            if self._refused.get(c.id, 0.0) < clock
        ]
        plan.tables = pairings(waiting, now=now, room=max(0, room), seats=seats)
        return plan

    async def _act(self, interface: PlayedSet, state: LadderState, plan: Plan) -> int:
        """Do what ``plan`` says (its pairs given up, its next games and new pairs made);
        return the games made."""
        for pair in plan.give_up:
            await self.store.give_up_pair(interface.name, pair.number)
        made = 0
        for pair in plan.legs:
            if await self._make(interface, pair, state.seated):
                made += 1
        by_id = {c.id: c for c in state.candidates}
        number = state.next_pair
        for table in plan.tables:
            opening = self._opening(interface, state.seed, number)
            pair = OpenPair(
                number,
                table,
                len(table),
                0,
                None,
                opening.line if opening else None,
                opening.tray if opening else "",
                pair_seed(state.seed, number + 1),
            )
            if not await self._make(interface, pair, by_id):
                break  # the Set's numbers moved (another driver): the next step goes on
            made += 1
            number += 1
        return made

    def _opening(self, interface: PlayedSet, seed: int, number: int) -> Opening | None:
        """Return pair ``number``'s opening: the Set's built-in suite in the order its
        ladder's seed draws, one after the other (``None``: the Set ships none)."""
        key = (interface.name, seed)
        if key not in self._openings:
            suite: Sequence[Opening] = ()
            if isinstance(interface, SetInterface) and starts_from_tray(interface.rules):
                try:
                    suite = builtin_openings(interface)
                except Exception:
                    log.exception("the openings of %s", interface.name)
            self._openings[key] = ordered(suite, seed)
        found = self._openings[key]
        return found[number % len(found)] if found else None

    async def _make(
        self, interface: PlayedSet, pair: OpenPair, engines: dict[str, LadderEngine]
    ) -> bool:
        """Make game ``pair.made`` of the pair (its seats rotated that many times); return
        whether it was made. A game refused by the Arbitre gives its pair up."""
        leg = pair.made
        turn = leg % len(pair.engines)
        order = pair.engines[turn:] + pair.engines[:turn]
        filler = (
            FILLER_ENGINE
            if FILLER_ENGINE in interface.engines
            else next(iter(interface.engines), "")
        )
        seats: list[SeatSpec] = []
        for engine_id in order:
            if engine_id == FILLER:
                seats.append(SeatSpec(BuiltinSeat.name, filler, f"{filler} (filler)"))
                continue
            engine = engines[engine_id]
            seats.append(SeatSpec(engine.kind, engine.url, engine.name))
        # A Set played in deals plays one deal a game: a pair is that deal at every seat.
        deals = 1 if match_deals(interface.arbitre) is not None else None
        place = LadderPlace(
            interface.name,
            pair.number,
            leg,
            pair.games,
            pair.engines,
            pair.line,
            pair.tray,
            pair.seed,
        )
        try:
            await self.arbitre.make(
                interface.name,
                seats,
                Options(timeout=self.timeout, seed=pair.seed, deals=deals),
                start=False,
                registrations=list(order),
                start_tray=pair.tray or None,
                ladder=place,
            )
        except Conflict:
            log.info("ladder of %s: pair %d game %d not made", interface.name, pair.number, leg)
            return False
        except GameError as refused:
            log.error(
                "ladder of %s: pair %d cannot be played: %s", interface.name, pair.number, refused
            )
            if leg:
                await self.store.give_up_pair(interface.name, pair.number)
            else:
                until = time.monotonic() + REFUSED_FOR
                self._refused.update((engine, until) for engine in pair.engines if engine)
            return False
        return True
