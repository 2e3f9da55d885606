"""A match's summary as its pages keep it (``arbitre/web/match_records.py``): computed once
for a match that has ended, a while for a running one, once for two readers at a time."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

import tournoyons_gui.arbitre.web.match_records as records
from tournoyons_gui.arbitre.store import Match, MatchResult
from tournoyons_gui.arbitre.web.match_records import Summaries


class CountingStore:
    """A store that lists no game and counts how often it was asked (slowly)."""

    def __init__(self) -> None:
        self.reads = 0

    async def match_results(self, match_id: str) -> list[MatchResult]:
        self.reads += 1
        await asyncio.sleep(0.01)
        return []

    async def match_think(self, match_id: str) -> dict[int, list[int]]:
        return {}


def match(status: str, match_id: str = "M1") -> Match:
    return Match(
        match_id,
        "TicTacToe",
        [{"name": "a", "kind": "builtin", "engine": "random"}] * 2,
        {"timeout": 20, "level": 1},
        1,
        "",
        10,
        None,
        None,
        "",
        status,
        dt.datetime(2026, 12, 1, tzinfo=dt.UTC),
    )


def test_an_ended_match_is_summarized_once_a_running_one_a_while() -> None:
    clock = [1000.0]

    async def run() -> None:
        store: Any = CountingStore()
        summaries = Summaries(most=2, clock=lambda: clock[0])
        running = match("running")
        first = await summaries.of(store, running)
        assert first["games"] == 0 and first["made"] == 0 and store.reads == 1
        clock[0] += records.FRESH / 2
        await summaries.of(store, running)
        assert store.reads == 1  # fresh enough
        clock[0] += records.FRESH
        await summaries.of(store, running)
        assert store.reads == 2  # too old for a running match
        over = match("over")
        await summaries.of(store, over)
        assert store.reads == 3  # it ended since
        clock[0] += 3600
        await summaries.of(store, over)
        assert store.reads == 3  # an ended match never changes
        # Two readers at once: one read.
        await asyncio.gather(*(summaries.of(store, match("over", "M2")) for _ in range(3)))
        assert store.reads == 4
        # Past the most kept, the least recently read is dropped.
        await summaries.of(store, match("over", "M3"))
        await summaries.of(store, over)
        assert store.reads == 6

    asyncio.run(run())
