"""The ladder as its pages and its JSON read it: a Set's leaderboard a page at a time
(ranked by the conservative rating, openskill's ordinal mu - 3 sigma; then the
provisional engines, fewer than :data:`~tournoyons_gui.arbitre.store.ladder.PROVISIONAL_GAMES`
rated games in the Set; then the paused ones, with why), every Set's leaders, an engine's
standing and meetings. Everything is read from what the store keeps as games end
(:mod:`~tournoyons_gui.arbitre.store.ladder`): a page costs its rows, whatever the number
of engines.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.catalogue import PlayedSet
from tournoyons_gui.arbitre.ladder.scheduler import SEATS
from tournoyons_gui.arbitre.store.ladder import PAUSED, PROVISIONAL, RANKED
from tournoyons_gui.arbitre.store.ladder_board import BoardLine, Meeting, SetSummary, Standing
from tournoyons_gui.interfaces.plugin import seat_count

__all__ = [
    "MAX_SET_NAME",
    "BoardPage",
    "LadderBoard",
    "Position",
    "entry_json",
    "reason_text",
]

#: The longest Set name looked up (a Set's name is at most 40 characters).
MAX_SET_NAME = 40
#: A position in a leaderboard: the last row's tier, minus its ordinal, its id, and the
#: ranked rows up to it (the next ranked row's rank is one more).
Position = tuple[int, float, str, int]


def reason_text(row: BoardLine) -> str:
    """Return why an engine is paused, in words: the last fault's kind and message, and
    its game (``""``: not paused)."""
    if row.tier != PAUSED:
        return ""
    message = row.reason if row.reason and row.reason != row.paused else ""
    text = f"{row.paused}: {message}" if message else row.paused
    return f"{text} (game {row.paused_game})" if row.paused_game else text


def entry_json(row: BoardLine, rank: int | None) -> dict[str, Any]:
    """Return a leaderboard row as ``GET /api/ladder/<set>`` gives it: ``rank`` (``None``
    for a provisional or paused engine), ``id``, ``name``, ``rating`` (the ordinal),
    ``mu``, ``sigma``, ``games`` (rated, in the Set), ``wins``, ``draws``, ``losses``,
    ``provisional``, ``paused``, ``reason`` and ``last_game`` (its last ladder game,
    ``""`` none)."""
    return {
        "rank": rank,
        "id": row.engine_id,
        "name": row.name,
        "rating": round(row.ordinal, 3) + 0.0,  # never -0.0
        "mu": round(row.mu, 3),
        "sigma": round(row.sigma, 3),
        "games": row.rated,
        "wins": row.won,
        "draws": row.drawn,
        "losses": row.lost,
        "provisional": row.tier == PROVISIONAL,
        "paused": row.tier == PAUSED,
        "reason": reason_text(row),
        "last_game": row.last_game,
    }


@dataclass(frozen=True)
class BoardPage:
    """A page of a leaderboard: its rows with their ranks, and the position after its
    last row when more follow (``None``: the last page)."""

    rows: list[tuple[BoardLine, int | None]]
    next: Position | None


class LadderBoard:
    """The ladder's reads for the pages and the API, over the :class:`Arbitre`'s store."""

    def __init__(self, arbitre: Arbitre) -> None:
        self.arbitre = arbitre
        self.store = arbitre.store

    async def find(self, name: str) -> PlayedSet | None:
        """Return the Set called ``name`` (any case) when it has a ladder (two seats, or
        tables of four), else ``None``: an unknown name, one too long or holding a
        control character is none."""
        if not name or len(name) > MAX_SET_NAME:
            return None
        if any(unicodedata.category(c) in ("Cc", "Cs", "Cf") for c in name):
            return None
        found = await self.arbitre.find_set(name)
        if found is None or found.arbitre is None or seat_count(found.arbitre) not in SEATS:
            return None
        return found

    def sets(self) -> list[PlayedSet]:
        """Return the Sets that have a ladder, in the catalogue's order."""
        return [s for s in self.arbitre.playable() if seat_count(s.arbitre) in SEATS]

    async def page(
        self, set_name: str, after: Position | None = None, limit: int = 100
    ) -> BoardPage:
        """Return a page of the Set's leaderboard after ``after`` (``None``: the first),
        each ranked row with its rank."""
        key = None if after is None else (after[0], after[1], after[2])
        rows, more = await self.store.ladder_board(set_name, after=key, limit=limit)
        ranked = 0 if after is None else after[3]
        shown: list[tuple[BoardLine, int | None]] = []
        for row in rows:
            rank = None
            if row.tier == RANKED:
                ranked += 1
                rank = ranked
            shown.append((row, rank))
        last = rows[-1] if rows else None
        position = None
        if more and last is not None:
            position = (last.tier, -last.ordinal, last.engine_id, ranked)
        return BoardPage(shown, position)

    async def summaries(self, leaders: int = 3) -> list[SetSummary]:
        """Return every Set with a ladder at a glance (its leaders, games today and in
        flight), in the catalogue's order; a Set no engine was ever on is read as empty
        without asking the store."""
        opened = set(await self.store.ladder_set_names())
        names = [s.name for s in self.sets()]
        found = {
            s.set_name: s
            for s in await self.store.ladder_summaries([n for n in names if n in opened], leaders)
        }
        return [found.get(name) or SetSummary(name, [], 0, 0) for name in names]

    async def standings(self, engine_id: str) -> list[Standing]:
        """Return an engine's standing in each Set's ladder it is on."""
        return await self.store.engine_standings(engine_id)

    async def meetings(self, engine_id: str) -> dict[str, list[Meeting]]:
        """Return an engine's results against each ladder opponent, per Set."""
        return await self.store.engine_meetings(engine_id)

    async def above(
        self, set_name: str, rows: Sequence[BoardLine], before: str | None
    ) -> dict[str, Meeting]:
        """Return each row's ladder meetings against the engine just above it (``before``:
        the row above the page's first; ``None``: none), by the row's engine id."""
        pairs = []
        previous = before
        for row in rows:
            if previous is not None:
                pairs.append((row.engine_id, previous))
            previous = row.engine_id
        met = await self.store.meetings_of(set_name, pairs)
        return {engine: meeting for (engine, _), meeting in met.items()}
