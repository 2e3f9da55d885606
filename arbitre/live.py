"""Live events of the games, for the watch pages (Server-Sent Events), and the messages
between the workers that share one database.

Published only after the store has the move (save, then publish). An event says how many
moves the game has, whether it is over and, while a person is asked, which seat: a page
receiving it reads the position from the store, so a watcher who missed events (or
reconnects with ``Last-Event-ID``) loses nothing.

Several ``serve`` processes on one PostgreSQL database are told of each other's events by
PostgreSQL's ``LISTEN``/``NOTIFY`` (:class:`PgBus`, on the channel ``tournoyons``): a watcher
connected to any worker sees every move, and an answer (an engine's callback, a person's
move) received by one worker reaches the worker driving the game. With SQLite (one
process) the bus stays in the process (:class:`LocalBus`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["CHANNEL", "Bus", "Hub", "LocalBus", "PgBus"]

log = logging.getLogger(__name__)

QUEUE_SIZE = 64
#: The PostgreSQL channel of the workers' messages.
CHANNEL = "tournoyons"
#: NOTIFY payloads are limited to 8000 bytes; ours are a few dozen.
MAX_PAYLOAD = 7000

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class Bus:
    """Messages between the workers: JSON objects, each carrying ``from`` (the sending
    worker's id). A worker's own messages are not delivered back to it."""

    def __init__(self, worker: str) -> None:
        self.worker = worker
        self.handler: Handler | None = None

    async def start(self, handler: Handler) -> None:
        """Deliver the other workers' messages to ``handler`` from now on."""
        self.handler = handler

    async def send(self, message: dict[str, Any]) -> None:
        """Send ``message`` to the other workers (none here)."""

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

    async def send(self, message: dict[str, Any]) -> None:
        """``NOTIFY`` the other workers; a failure is logged (watchers read the store on
        their next event, and a driver polls the store for answers)."""
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


class Hub:
    """Subscribers by game; each gets its own bounded queue (a slow one loses old events,
    never blocks the game: the next event carries the whole news). Events published here
    are also sent on the ``bus`` to the other workers' hubs."""

    def __init__(self, bus: Bus | None = None) -> None:
        self._queues: defaultdict[str, set[asyncio.Queue[dict[str, Any]]]] = defaultdict(set)
        self.bus = bus

    def subscribe(self, game_id: str) -> asyncio.Queue[dict[str, Any]]:
        """Return a new queue receiving ``game_id``'s events."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_SIZE)
        self._queues[game_id].add(queue)
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
        """Send ``event`` to every subscriber of ``game_id``, on every worker."""
        self.deliver(game_id, event)
        if self.bus is not None:
            await self.bus.send({"t": "game", "id": game_id, "event": event})
