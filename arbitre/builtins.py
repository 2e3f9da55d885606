"""Our built-in engines called in this process: the same pure functions their HTTP
endpoint serves (``/engines/<set>/<name>``), by the built-in seats and by that endpoint.

A thread hop costs more than most of our engines take (``random`` answers in microseconds),
and a slow one (ConnectFour ``strong``, MasterMind ``consistent``: tens of milliseconds)
must not hold the event loop the games and pages share. So each engine's first
:data:`TIMED_CALLS` calls run in a thread and are timed, and every call after: an engine
whose recent calls took less than :data:`INLINE_LIMIT` on average (an exponential moving
average, :data:`WEIGHT` the last call's) runs on the event loop, and in a thread while
they take more. One slow call (a pause of the whole process, a collection) sends an
engine to a thread for a few calls, not for good, as the slowest call ever once did: a
profile found ``random`` in a thread, a hop per move, for a pause in its first calls.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from typing import TypeVar

from tournoyons_gui.interfaces.plugin import Engine

A = TypeVar("A")
R = TypeVar("R")

__all__ = ["INLINE_LIMIT", "TIMED_CALLS", "EngineRunner"]

#: A built-in engine whose calls all took less than this (seconds) runs on the event loop.
INLINE_LIMIT = 0.002
#: The calls of a built-in engine timed in a thread before it may run on the event loop.
TIMED_CALLS = 20
#: The weight of a call's time in the engine's moving average.
WEIGHT = 0.1


class EngineRunner:
    """Calls built-in engines, each on the event loop or in a thread by its own timings
    (see the module)."""

    def __init__(self) -> None:
        # By (Set key, engine name): the calls timed so far and their moving average (s).
        self._timed: dict[tuple[str, str], tuple[int, float]] = {}

    def inline(self, name: tuple[str, str]) -> bool:
        """Whether the engine ``name`` (Set key, engine name) runs on the event loop."""
        calls, average = self._timed.get(name, (0, 0.0))
        return calls >= TIMED_CALLS and average < INLINE_LIMIT

    async def call(self, name: tuple[str, str], engine: Engine, params: Mapping[str, str]) -> str:
        """Return ``engine``'s ``Value`` for the request ``params``; whatever the engine
        raises is raised here."""
        return await self.run(name, engine, params)

    async def run(self, name: tuple[str, str], work: Callable[[A], R], argument: A) -> R:
        """Return ``work(argument)``, an engine ``name``'s work (a botsarena answer, say),
        on the event loop or in a thread by that engine's recent calls; whatever it raises
        is raised here."""
        if self.inline(name):
            value, took = _timed(work, argument)
        else:
            value, took = await asyncio.to_thread(_timed, work, argument)
        calls, average = self._timed.get(name, (0, took))
        self._timed[name] = (calls + 1, average + WEIGHT * (took - average))
        return value


def _timed(work: Callable[[A], R], argument: A) -> tuple[R, float]:
    """Return ``work(argument)`` and the seconds it took."""
    started = time.perf_counter()
    value = work(argument)
    return value, time.perf_counter() - started
