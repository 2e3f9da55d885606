"""Live events of the games, for the watch pages (Server-Sent Events), and the messages
between the workers that share one database.

Published only after the store has the move (save, then publish). An event says how many
moves the game has, whether it is over and, while a person is asked, which seat: a page
receiving it reads the position from the store, so a watcher who missed events (or
reconnects with ``Last-Event-ID``) loses nothing.

Several ``serve`` processes on one PostgreSQL database are told of each other's events by
PostgreSQL's ``LISTEN``/``NOTIFY`` (:class:`PgBus`, on the channel ``tournoyons``): a watcher
connected to any worker sees every move, and an answer (an engine's callback, a person's
move) received by one worker reaches the worker driving the game. The workers of one
``serve --workers N`` on a SQLite file tell each other through datagrams on Unix sockets
in a folder of their own (:class:`SocketBus`); one process alone keeps its bus to itself
(:class:`LocalBus`).

A move's event goes on the bus only when another worker has said, within
:data:`WATCHED_FOR` seconds, that it has watchers of the game (``{"t": "watch", "ids"}``,
sent at a game's first watcher there and every :data:`WATCH_EVERY` seconds while it has
some); a game's end and a person's ask always go. A watcher whose word has not reached
the driver yet misses at most the events of that moment: the next one carries the whole
news, and the page reads the position from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

__all__ = [
    "CHANNEL",
    "WATCHED_FOR",
    "WATCH_EVERY",
    "Bus",
    "Hub",
    "LocalBus",
    "PgBus",
    "SocketBus",
    "tournament_key",
]

log = logging.getLogger(__name__)

QUEUE_SIZE = 64
#: The PostgreSQL channel of the workers' messages.
CHANNEL = "tournoyons"
#: NOTIFY payloads are limited to 8000 bytes; ours are a few dozen.
MAX_PAYLOAD = 7000
#: Seconds between a worker's words that it has watchers of games (while it has some).
WATCH_EVERY = 10.0
#: Seconds a worker's word that it has watchers of a game holds for the game's driver.
WATCHED_FOR = 3 * WATCH_EVERY
#: Seconds a machine's bus waits for a full queue before dropping a message.
SEND_FOR = 2.0
#: Game ids in one ``watch`` message (12 characters each: well under :data:`MAX_PAYLOAD`).
WATCH_IDS = 300

Handler = Callable[[dict[str, Any]], Awaitable[None]]


def tournament_key(tournament_id: str) -> str:
    """Return the key a tournament's news is published under in the :class:`Hub` (beside
    the games', which are their ids): a game of it ended, it ended."""
    return f"tournament:{tournament_id}"


class Bus:
    """Messages between the workers: JSON objects, each carrying ``from`` (the sending
    worker's id). A worker's own messages are not delivered back to it. ``shared``:
    whether other workers may hear them."""

    shared = False

    def __init__(self, worker: str) -> None:
        self.worker = worker
        self.handler: Handler | None = None

    async def start(self, handler: Handler) -> None:
        """Deliver the other workers' messages to ``handler`` from now on."""
        self.handler = handler

    async def send(self, message: dict[str, Any]) -> int:
        """Send ``message`` to the other workers; return to how many (``-1``: unknown, a
        broadcast; none here)."""
        return 0

    async def send_to(self, worker: str, message: dict[str, Any]) -> None:
        """Send ``message`` to the worker ``worker`` alone (none here)."""

    async def check(self) -> None:
        """Listen again if the connection was lost (called now and then)."""

    async def close(self) -> None:
        """Stop listening."""


class LocalBus(Bus):
    """One worker alone (SQLite): nothing to send to anyone."""


class PgBus(Bus):
    """PostgreSQL ``LISTEN``/``NOTIFY`` through two asyncpg connections of its own (one
    listens, one sends), reconnected when lost (the sender on its next message, the
    listener at the next :meth:`check`). ``dsn``: ``postgresql://user@host/db``."""

    shared = True

    def __init__(self, worker: str, dsn: str) -> None:
        super().__init__(worker)
        self.dsn = dsn
        self._listener: Any = None
        self._sender: Any = None
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, handler: Handler) -> None:
        """Connect and ``LISTEN``."""
        import asyncpg  # type: ignore[import-untyped]

        await super().start(handler)
        self._listener = await asyncpg.connect(self.dsn)
        await self._listener.add_listener(CHANNEL, self._heard)

    async def check(self) -> None:
        """Reconnect and ``LISTEN`` again when the listening connection was lost (a
        PostgreSQL restart); a failure is logged and tried again at the next check."""
        import asyncpg

        if self._listener is not None and not self._listener.is_closed():
            return
        try:
            self._listener = await asyncpg.connect(self.dsn)
            await self._listener.add_listener(CHANNEL, self._heard)
            log.info("bus: listening again")
        except (OSError, asyncpg.PostgresError) as failed:
            self._listener = None
            log.warning("bus: cannot listen: %s", failed)

    def _heard(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            message = json.loads(payload)
        except (ValueError, RecursionError):
            return
        if not isinstance(message, dict) or message.get("from") == self.worker:
            return
        if message.get("to", self.worker) != self.worker:
            return
        if self.handler is not None:
            task = asyncio.get_running_loop().create_task(self._deliver(message))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _deliver(self, message: dict[str, Any]) -> None:
        assert self.handler is not None
        try:
            await self.handler(message)
        except Exception:
            log.exception("bus message %s", message.get("t"))

    async def send(self, message: dict[str, Any]) -> int:
        """``NOTIFY`` the other workers; a failure is logged (watchers read the store on
        their next event, and a driver polls the store for answers). Return ``-1``: how
        many listen is PostgreSQL's to know."""
        await self._notify(message)
        return -1

    async def send_to(self, worker: str, message: dict[str, Any]) -> None:
        """``NOTIFY`` ``message`` addressed to ``worker`` (the others drop it)."""
        await self._notify({**message, "to": worker})

    async def _notify(self, message: dict[str, Any]) -> None:
        import asyncpg

        payload = json.dumps({**message, "from": self.worker}, separators=(",", ":"))
        if len(payload) > MAX_PAYLOAD:
            raise ValueError("bus message too long")
        async with self._lock:
            try:
                if self._sender is None or self._sender.is_closed():
                    self._sender = await asyncpg.connect(self.dsn)
                await self._sender.execute("SELECT pg_notify($1, $2)", CHANNEL, payload)
            except (OSError, asyncpg.PostgresError) as failed:
                log.warning("bus: %s", failed)
                self._sender = None

    async def close(self) -> None:
        """Close both connections."""
        for connection in (self._listener, self._sender):
            if connection is not None and not connection.is_closed():
                await connection.close()
        self._listener = self._sender = None


class SocketBus(Bus):
    """The workers of one machine (``serve --workers N`` on a SQLite file): each binds a
    Unix datagram socket ``<folder>/bus-<worker>.sock`` and sends each message to every
    other socket of the folder (a socket whose worker is gone is removed). A datagram is
    delivered whole or not at all. A receiver's queue holds few datagrams (Linux's
    ``net.unix.max_dgram_qlen``, 10 by default): a sender finding it full waits and sends
    again (the receiver empties it whole at each wake), for :data:`SEND_FOR` seconds
    at most, then drops the message and logs it, as a missed ``NOTIFY`` would be: a game
    not taken is taken by the next scan, a watcher's next event carries the whole
    news."""

    shared = True

    def __init__(self, worker: str, folder: str) -> None:
        super().__init__(worker)
        self.folder = folder
        self.path = os.path.join(folder, f"bus-{worker}.sock")
        self._sock: socket.socket | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, handler: Handler) -> None:
        """Bind this worker's socket and read what the others send."""
        await super().start(handler)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(self.path)
        sock.setblocking(False)
        self._sock = sock
        asyncio.get_running_loop().add_reader(sock.fileno(), self._readable)

    def _readable(self) -> None:
        assert self._sock is not None
        while True:
            try:
                payload = self._sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            try:
                message = json.loads(payload)
            except (ValueError, RecursionError):
                continue
            if not isinstance(message, dict) or message.get("from") == self.worker:
                continue
            if self.handler is not None:
                task = asyncio.get_running_loop().create_task(self._deliver(message))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _deliver(self, message: dict[str, Any]) -> None:
        assert self.handler is not None
        try:
            await self.handler(message)
        except Exception:
            log.exception("bus message %s", message.get("t"))

    async def send(self, message: dict[str, Any]) -> int:
        """Send ``message`` to every other worker's socket in the folder; return to how
        many it went."""
        if self._sock is None:
            return 0
        payload = json.dumps({**message, "from": self.worker}, separators=(",", ":")).encode()
        try:
            names = os.listdir(self.folder)
        except OSError as failed:
            log.warning("bus: %s", failed)
            return 0
        sent = 0
        for name in names:
            path = os.path.join(self.folder, name)
            if name.startswith("bus-") and path != self.path and await self._sendto(payload, path):
                sent += 1
        return sent

    def peers(self) -> list[str]:
        """Return the workers of the folder (this one included), by name."""
        try:
            names = os.listdir(self.folder)
        except OSError:
            return [self.worker]
        found = {n[4:-5] for n in names if n.startswith("bus-") and n.endswith(".sock")}
        return sorted(found | {self.worker})

    async def send_to(self, worker: str, message: dict[str, Any]) -> None:
        """Send ``message`` to ``worker``'s socket alone."""
        if self._sock is not None:
            payload = json.dumps({**message, "from": self.worker}, separators=(",", ":"))
            await self._sendto(payload.encode(), os.path.join(self.folder, f"bus-{worker}.sock"))

    async def _sendto(self, payload: bytes, path: str) -> bool:
        """Send one datagram to ``path``, waiting while its queue is full; return whether
        it went."""
        deadline = time.monotonic() + SEND_FOR
        pause = 0.0005
        while self._sock is not None:
            try:
                self._sock.sendto(payload, path)
            except (ConnectionRefusedError, FileNotFoundError):
                with contextlib.suppress(OSError):
                    os.unlink(path)  # its worker is gone
                return False
            except BlockingIOError:
                if time.monotonic() < deadline:
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, 0.05)
                    continue
                log.warning("bus: a message to %s dropped: its queue stayed full", path)
                return False
            except OSError as failed:
                log.warning("bus: a message to %s dropped: %s", os.path.basename(path), failed)
                return False
            return True
        return False

    async def close(self) -> None:
        """Stop reading and remove this worker's socket."""
        if self._sock is not None:
            with contextlib.suppress(ValueError, RuntimeError):
                asyncio.get_running_loop().remove_reader(self._sock.fileno())
            self._sock.close()
            self._sock = None
        with contextlib.suppress(OSError):
            os.unlink(self.path)


class Hub:
    """Subscribers by game; each gets its own bounded queue (a slow one loses old events,
    never blocks the game: the next event carries the whole news). Events published here
    are also sent on the ``bus`` to the other workers' hubs that have watchers of the game
    (see the module)."""

    def __init__(self, bus: Bus | None = None) -> None:
        self._queues: defaultdict[str, set[asyncio.Queue[dict[str, Any]]]] = defaultdict(set)
        self.bus = bus
        # Games another worker has watchers of, until when (time.monotonic()).
        self._elsewhere: dict[str, float] = {}
        self._announced = 0.0
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def _shared(self) -> bool:
        return self.bus is not None and self.bus.shared

    def subscribe(self, game_id: str) -> asyncio.Queue[dict[str, Any]]:
        """Return a new queue receiving ``game_id``'s events (the other workers are told
        at the game's first watcher here)."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_SIZE)
        first = game_id not in self._queues
        self._queues[game_id].add(queue)
        if first and self._shared:
            self._spawn(self._say_watched([game_id]))
        return queue

    def unsubscribe(self, game_id: str, queue: asyncio.Queue[dict[str, Any]]) -> None:
        """Stop sending to ``queue``."""
        queues = self._queues.get(game_id)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self._queues[game_id]

    def deliver(self, game_id: str, event: dict[str, Any]) -> None:
        """Send ``event`` to this worker's subscribers of ``game_id``."""
        for queue in list(self._queues.get(game_id, ())):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(event)

    async def publish(self, game_id: str, event: dict[str, Any]) -> None:
        """Send ``event`` to every subscriber of ``game_id``: here, and on the workers
        that have watchers of it (a game's end and a person's ask: on every worker)."""
        self.deliver(game_id, event)
        if not self._shared or self.bus is None:
            return
        if event.get("over") or "asked" in event or self._watched_elsewhere(game_id):
            await self.bus.send({"t": "game", "id": game_id, "event": event})

    def watched(self, ids: list[str]) -> None:
        """Take another worker's word that it has watchers of the games ``ids``."""
        until = time.monotonic() + WATCHED_FOR
        for game_id in ids:
            self._elsewhere[game_id] = until

    async def announce(self) -> None:
        """Say again to the other workers which games have watchers here, at most every
        :data:`WATCH_EVERY` seconds; forget the others' words that have expired."""
        now = time.monotonic()
        if not self._shared or now - self._announced < WATCH_EVERY:
            return
        self._announced = now
        for game_id, until in list(self._elsewhere.items()):
            if until < now:
                del self._elsewhere[game_id]
        ids = list(self._queues)
        for start in range(0, len(ids), WATCH_IDS):
            await self._say_watched(ids[start : start + WATCH_IDS])

    def _watched_elsewhere(self, game_id: str) -> bool:
        until = self._elsewhere.get(game_id)
        return until is not None and until >= time.monotonic()

    async def _say_watched(self, ids: list[str]) -> None:
        if self.bus is not None:
            await self.bus.send({"t": "watch", "ids": ids})

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
