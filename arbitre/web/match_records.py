"""What the match pages and their JSON twins read of the records: a match's
summary, kept once the match has ended, and its games a page at a time.

A match may hold 20,000 games. Its summary (W/D/L, faults, Elo, the SPRT's LLR pair by
pair, each entrant's thinking times: :func:`~tournoyons_gui.arbitre.match_summary.
summarize`) needs every game's outcome (read as little as it counts:
:meth:`~tournoyons_gui.arbitre.store.Store.match_results`) and every move's time,
so it is computed in a thread, that the server's loop goes on, and kept (the :data:`KEPT`
latest, the least recently read dropped first): a match that has ended is computed once
(its records no longer change); a running match's is kept a while, five times as long as
it took to compute and :data:`FRESH` seconds at least, so that however often its page is
asked, its summary takes at most a sixth of a core (a 20,000-game SPRT: some 4 s to
compute on this project's 2-core test machine). One read of a match at a time: a second
asking meanwhile waits for the first's. The games themselves are read a page at a time,
in match order after a cursor (a game's number, signed: :mod:`~tournoyons_gui.arbitre.
paging`).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jinja2
from starlette.requests import Request

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.faults import stopped_answering
from tournoyons_gui.arbitre.match_summary import Outcome, outcome_of, summarize
from tournoyons_gui.arbitre.paging import OUT_OF_RANGE, CursorError
from tournoyons_gui.arbitre.store import Match, MatchEntry, MatchResult, Store
from tournoyons_gui.arbitre.web.common import Part
from tournoyons_gui.arbitre.web.paging import asked_page

__all__ = ["FRESH", "KEPT", "GamesPage", "MatchPart", "Summaries", "games_page", "names_of"]

#: The matches whose summaries are kept.
KEPT = 32
#: The fewest seconds a running match's summary is kept (see the module).
FRESH = 2.0


def names_of(match: Match) -> list[str]:
    """Return the entrants' names in command line order."""
    return [str(entrant.get("name", "")) for entrant in match.entrants]


def _summary(
    match: Match, entries: Sequence[MatchResult], think: Mapping[int, Sequence[int]]
) -> dict[str, Any]:
    """Return the match's summary document without its games (``games_list`` empty), with
    its entrants' thinking times (``think``), ``faulted`` (the games lost by fault) and
    ``stopped`` (the entrants that stopped answering:
    :func:`~tournoyons_gui.arbitre.faults.stopped_answering`) added."""
    outcomes = [outcome_of(entry) for entry in entries]
    document = summarize(match, outcomes, listed=False, think=think)
    document["faulted"] = sum(1 for o in outcomes if o.fault)
    document["stopped"] = stopped_answering(outcomes, names_of(match))
    document["made"] = len(outcomes)
    return document


class Summaries:
    """The matches' summaries (see the module), ``most`` kept; ``clock`` gives seconds."""

    def __init__(self, most: int = KEPT, clock: Callable[[], float] = time.monotonic) -> None:
        self.most = most
        self.clock = clock
        # By match: the document, when it was computed, how long it took, the status then.
        self._kept: OrderedDict[str, tuple[dict[str, Any], float, float, str]] = OrderedDict()
        self._reading: dict[str, asyncio.Future[dict[str, Any]]] = {}

    def _still(self, match: Match) -> dict[str, Any] | None:
        """Return the kept summary of ``match`` when it still holds (see the module)."""
        kept = self._kept.get(match.id)
        if kept is None:
            return None
        document, when, cost, status = kept
        if status != match.status:
            return None
        if status == "running" and self.clock() - when > max(FRESH, 5 * cost):
            return None
        self._kept.move_to_end(match.id)
        return document

    async def of(self, store: Store, match: Match) -> dict[str, Any]:
        """Return ``match``'s summary document (see :func:`_summary`)."""
        kept = self._still(match)
        if kept is not None:
            return kept
        reading = self._reading.get(match.id)
        if reading is not None:
            return await asyncio.shield(reading)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._reading[match.id] = future
        started = self.clock()
        try:
            entries = await store.match_results(match.id)
            think = await store.match_think(match.id)
            document = await asyncio.to_thread(_summary, match, entries, think)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as failed:
            future.set_exception(failed)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._reading[match.id]
        future.set_result(document)
        now = self.clock()
        self._kept[match.id] = (document, now, now - started, match.status)
        self._kept.move_to_end(match.id)
        while len(self._kept) > self.most:
            self._kept.popitem(last=False)
        return document


class MatchPart(Part):
    """A part of the web side that shows matches: ``summaries`` is shared by the parts
    (the pages and their JSON twin), so that a match's summary is computed once."""

    def __init__(
        self, holder: Callable[[], Arbitre], env: jinja2.Environment, summaries: Summaries
    ) -> None:
        super().__init__(holder, env)
        self.summaries = summaries


@dataclass(frozen=True)
class GamesPage:
    """A page of a match's games: their records (``entries``), their ``outcomes``, and
    the next page's cursor (``None`` on the last)."""

    entries: list[MatchEntry]
    outcomes: list[Outcome]
    cursor: str | None


async def games_page(
    request: Request,
    store: Store,
    match_id: str,
    *,
    name: str = "match-games",
    faulted: bool = False,
    default: int = 50,
) -> GamesPage:
    """Return the page of the match's games ``request`` asks (``?after=``, ``?limit=``;
    ``faulted``: only the games lost by fault), in match order; raise
    :class:`~tournoyons_gui.arbitre.paging.CursorError` for a cursor or a limit that
    cannot be read (a cursor of another match's list among them)."""
    asked = await asked_page(request, store, name, [("match", match_id)], size=1, default=default)
    after = None
    if asked.after is not None:
        (number,) = asked.after
        if type(number) is not int or number < 0:
            raise CursorError(OUT_OF_RANGE)
        after = number
    listed = await store.match_games_page(match_id, after=after, limit=asked.limit, faulted=faulted)
    entries = listed.rows
    cursor = asked.cursor([entries[-1].place.number]) if listed.more and entries else None
    return GamesPage(entries, [outcome_of(entry) for entry in entries], cursor)
