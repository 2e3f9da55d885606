"""The worker: this process's share of the games of one database.

Several workers (on one host or several) may share one PostgreSQL database: each game is
driven by one worker at a time, the holder of its **lease** (renewed every
``lease_seconds`` / 3 s); a worker looks every ``scan_every`` seconds for games whose
lease expired (their worker died or stopped) and takes them over from their last
recorded move, at most ``max_games`` at a time, a few at a time in random order so that
workers scanning together share them. Each worker says it is alive, with the bound seat
kinds whose connections it holds, as it renews its leases: a game bound to such a
connection (a timi room's, a MaitreTarot table's) is driven by its holder alone while it
lives (:mod:`~tournoyons_gui.arbitre.store.leases`). The workers tell each other over the bus
(:mod:`~tournoyons_gui.arbitre.live`): an answer recorded for a game another worker drives,
a game's live events for its watchers (and which games have watchers where), "scan
now". Once a minute the worker reads the
database's clock again and forgets asks older than an hour.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from tournoyons_gui.arbitre.asks import Asks
from tournoyons_gui.arbitre.compaction import Compactor
from tournoyons_gui.arbitre.live import WATCH_IDS, Bus, Hub
from tournoyons_gui.arbitre.master import GameMaster
from tournoyons_gui.arbitre.store import Game, Seat, Store
from tournoyons_gui.arbitre.turns import turn_from

__all__ = ["CANCEL_WAIT", "CLOCK_SYNC_EVERY", "SCAN_BATCH", "Worker"]

log = logging.getLogger(__name__)

#: Games a scan takes at a time before letting the other workers take theirs.
SCAN_BATCH = 2
#: Seconds between two readings of the database's clock (``Store.sync_clock``).
CLOCK_SYNC_EVERY = 60.0
#: Seconds a cancel asked of the worker driving a game is waited for.
CANCEL_WAIT = 5.0


class Worker:
    """The games this process drives (``tasks``, by game id) and the background work that
    shares them with the other workers: leases, scans, the bus. ``name`` is the worker's
    lease owner's name; ``on_scan`` hooks run after every scan (the tournaments'
    scheduler); ``compactor`` packs finished games while the worker drives games."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        hub: Hub,
        asks: Asks,
        master: GameMaster,
        *,
        name: str,
        lease_seconds: float = 15.0,
        scan_every: float = 1.0,
        max_games: int = 500,
        compactor: Compactor | None = None,
    ) -> None:
        self.store = store
        self.bus = bus
        self.hub = hub
        self.asks = asks
        self.master = master
        self.name = name
        self.lease_seconds = lease_seconds
        self.scan_every = scan_every
        self.max_games = max_games
        self.tasks: dict[str, asyncio.Task[None]] = {}
        #: Finished games packed, old logs dropped: a driving worker's background work.
        self.compactor = compactor
        #: The games this process is cancelling now (their task stopped, their end under
        #: way): a room whose game's task stopped leaves their end to the cancel.
        self.cancelling: set[str] = set()
        #: Called after every scan (the tournaments' scheduler hooks in here).
        self.on_scan: list[Callable[[], Awaitable[None]]] = []
        self._background: list[asyncio.Task[None]] = []
        self._nudged = asyncio.Event()

    @property
    def holding(self) -> set[str]:
        """Return the bound seat kinds whose connections this process holds now (its
        rooms' IRC session, its MaitreTarot listener: :attr:`Services.holding`)."""
        return self.master.services.holding

    @property
    def bound_kinds(self) -> list[str]:
        """Return the seat kinds that bind a game to the process holding its players'
        connections (:attr:`SeatKind.bound`)."""
        return sorted(name for name, kind in self.master.kinds.items() if kind.bound)

    async def hold(self, kind: str, held: bool = True) -> None:
        """Say that this process now holds (``held``) or no longer holds the connections
        of seat kind ``kind``, at once: the other workers leave its games to it."""
        if held:
            self.holding.add(kind)
        else:
            self.holding.discard(kind)
        await self.store.alive(self.name, self.lease_seconds, self.holding)

    async def run(self) -> None:
        """Say this worker is alive, then start the bus, lease renewal and the scan for
        games no worker drives."""
        await self.store.alive(self.name, self.lease_seconds, self.holding)
        await self.bus.start(self.heard)
        self._background = [
            asyncio.create_task(self._renew_leases(), name="leases"),
            asyncio.create_task(self._scan_loop(), name="scan"),
        ]
        if self.compactor is not None and self.max_games:
            self.compactor.start()

    async def close(self) -> None:
        """Stop the games in play (they stay in progress, their leases given up so that
        another worker, or this server restarted, takes them over at once) and the bus."""
        if self.compactor is not None:
            await self.compactor.stop()
        for task in [*self._background, *self.tasks.values()]:
            task.cancel()
        await asyncio.gather(*self._background, *self.tasks.values(), return_exceptions=True)
        try:
            await self.store.release(self.name)
            await self.store.gone(self.name)
        except Exception:
            log.exception("giving up the leases")
        await self.bus.close()

    def start(
        self, game_id: str, *, resumed: bool = False, made: tuple[Game, list[Seat]] | None = None
    ) -> None:
        """Drive ``game_id`` in a task of this process (``resumed``: taken over from a
        driver that died; ``made``: the game and its seats just stored by this worker,
        with its lease, :meth:`GameMaster.drive`). A game driven here already is left to
        its task: a ``drive`` message and a scan may both take a game, each holding its
        lease (a lease already this worker's is taken again), and two tasks of one game
        would record its moves against each other."""
        running = self.tasks.get(game_id)
        if running is not None and not running.done():
            return
        task = asyncio.create_task(
            self.master.drive(game_id, resumed=resumed, made=made), name=f"game {game_id}"
        )
        self.tasks[game_id] = task

        def ended(done: asyncio.Task[None]) -> None:
            if self.tasks.get(game_id) is done:
                del self.tasks[game_id]

        task.add_done_callback(ended)

    async def wait(self, game_id: str) -> None:
        """Return when ``game_id``'s task in this process has ended."""
        task = self.tasks.get(game_id)
        if task is not None:
            await asyncio.wait({task})

    async def cancel(self, game_id: str, why: str, status: str = "interrupted") -> bool:
        """End the game ``game_id`` in play with no result (Status 9 to its engines,
        decision 11) for ``why``, as ``status`` (``interrupted``; ``over`` for a game that
        ended in error: a room's whose driver gave it up): here, its task stopped, when
        this worker can take its lease; else by the worker driving it (or holding its
        players' connections), asked over the bus and waited for up to
        :data:`CANCEL_WAIT` seconds. Return whether it ended so (``False``: no such game
        in play, or its driver did not end it in time)."""
        if await self._cancel_here(game_id, why, status):
            return True
        found = await self.store.game(game_id)
        if found is None or found[0].status != "playing":
            return False
        driver = found[0].holder or found[0].lease_owner
        if driver is None or driver == self.name:
            return False
        await self.bus.send_to(driver, {"t": "cancel", "id": game_id, "why": why, "status": status})
        deadline = time.monotonic() + CANCEL_WAIT
        while time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            found = await self.store.game(game_id)
            if found is None:
                return False
            if found[0].status != "playing":
                return found[0].status == status and found[0].reason == why
        return False

    async def _cancel_here(self, game_id: str, why: str, status: str) -> bool:
        """End ``game_id`` in this worker when it can take its lease (see :meth:`cancel`)."""
        self.cancelling.add(game_id)
        try:
            task = self.tasks.get(game_id)
            if task is not None:
                task.cancel()
                await self.wait(game_id)
            if not await self.store.acquire(game_id, self.name, self.lease_seconds):
                return False
            found = await self.store.game(game_id)
            if found is None:
                return False
            game, seats = found
            interface = await self.master.catalogue.find(game.set_name)
            rules = interface.arbitre if interface is not None else None
            turn = turn_from(game.turn)
            await self.master.finish(game, seats, rules, turn, None, why, status=status)
            return True
        finally:
            self.cancelling.discard(game_id)

    async def nudge(self) -> None:
        """Have every worker scan now (games were made for whoever takes them)."""
        self._nudged.set()
        await self.bus.send({"t": "scan"})

    async def scan(self) -> list[str]:
        """Take over the games in play that no worker drives (up to ``max_games`` here, a
        few at a time in random order); return their ids. Then run the scan hooks."""
        taken: list[str] = []
        while (room := self.max_games - len(self.tasks)) > 0:
            orphans = await self.store.orphans(
                room + SCAN_BATCH, self.name, self.holding, self.bound_kinds
            )
            found = [g for g in orphans if g not in self.tasks]
            if not found:
                break
            random.shuffle(found)
            for game_id in found[: min(room, SCAN_BATCH)]:
                if await self.store.acquire(game_id, self.name, self.lease_seconds):
                    self.start(game_id, resumed=True)
                    taken.append(game_id)
            await asyncio.sleep(0.005 * SCAN_BATCH)  # the other workers' turn
        for hook in self.on_scan:
            await hook()
        return taken

    async def heard(self, message: dict[str, Any]) -> None:
        """Take a message from another worker: scan now, a game's event for our
        watchers, the games it has watchers of, or an answer to an ask of this worker."""
        kind = message.get("t")
        if kind == "scan":
            self._nudged.set()
        elif kind == "watch":
            ids = message.get("ids")
            if isinstance(ids, list):
                self.hub.watched([i for i in ids[:WATCH_IDS] if isinstance(i, str)])
        elif kind == "game":
            event = message.get("event")
            if isinstance(event, dict):
                self.hub.deliver(str(message.get("id", "")), event)
        elif kind == "answer":
            await self.asks.heard(str(message.get("key", "")), str(message.get("move_id", "")))
        elif kind == "drive":
            game_id = str(message.get("id", ""))
            if (
                self.max_games > 0
                and game_id not in self.tasks
                and await self.store.acquire(game_id, self.name, self.lease_seconds)
            ):
                self.start(game_id)
        elif kind == "cancel":
            why, status = message.get("why"), message.get("status")
            if isinstance(why, str) and status in ("interrupted", "over"):
                await self._cancel_here(str(message.get("id", "")), why, str(status))
        elif kind == "callback":
            await self.asks.routed_callback(message)
        elif kind == "verdict":
            self.asks.verdict(message)

    async def _renew_leases(self) -> None:
        synced = time.monotonic()
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            if time.monotonic() - synced >= CLOCK_SYNC_EVERY:
                synced = time.monotonic()
                try:
                    await self.store.sync_clock()
                    await self.store.purge_pending()
                except Exception:
                    log.exception("reading the database's clock, purging old asks")
            try:
                await self.store.alive(self.name, self.lease_seconds, self.holding)
                await self.store.renew(self.name, self.lease_seconds, list(self.tasks))
            except Exception:
                log.exception("renewing the leases")
            await self.bus.check()

    async def _scan_loop(self) -> None:
        while True:
            try:
                await self.scan()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scanning for games")
            try:
                await self.hub.announce()
            except Exception:
                log.exception("telling the other workers which games are watched here")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._nudged.wait(), self.scan_every)
            self._nudged.clear()
