"""Live events of the games played in this process, for the watch pages (Server-Sent Events).

Published only after the store has the move (save, then publish). An event says how many
moves the game has, whether it is over and, while a person is asked, which seat: a page
receiving it reads the position from the store, so a watcher who missed events (or
reconnects with ``Last-Event-ID``) loses nothing.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

__all__ = ["Hub"]

QUEUE_SIZE = 64


class Hub:
    """Subscribers by game; each gets its own bounded queue (a slow one loses old events,
    never blocks the game: the next event carries the whole news)."""

    def __init__(self) -> None:
        self._queues: defaultdict[str, set[asyncio.Queue[dict[str, Any]]]] = defaultdict(set)

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

    async def publish(self, game_id: str, event: dict[str, Any]) -> None:
        """Send ``event`` to every subscriber of ``game_id``."""
        for queue in list(self._queues.get(game_id, ())):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(event)
