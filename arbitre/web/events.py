"""The live events (Server-Sent Events, ``text/event-stream``) a program or a page follows
to wait for a game or a tournament without asking again and again.

Routes:

- ``GET /games/<id>/events``: ``move`` events, data ``{"moves", "over"}`` (and
  ``"asked"``, the seat's index from 0, while a person is asked), each event's id the
  game's move count; the first tells where the game is now, the stream ends after the
  one with ``"over": true``. A game over already: that one event.
- ``GET /tournaments/<id>/events``: ``progress`` events, data ``{"status", "planned",
  "over", "playing"}`` (the tournament's games: planned in all, over, in play), one now and
  one at each change; ``game`` events, data ``{"id", "status", "result", "winner"}``, one
  for each game of it that ends; then, when it is over, a last ``progress`` with
  ``"status": "over"`` and the stream ends.

Every event is sent after the records hold what it tells (save, then publish:
:mod:`~tournoyons_gui.arbitre.live`), and says only where to read: a client that missed
events (it reconnects with ``Last-Event-ID``, or its connection was slow) loses nothing by
reading the record. Both streams also read the records again every :data:`RECHECK`
seconds without news: a worker of another process whose news did not reach this one (its
watchers' word still on its way when the game ended, say) delays an event, never loses
it. A comment line is sent every 15 s, so that a
proxy keeps the connection open. An unknown id is ``404 {"error"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tournoyons_gui.arbitre.live import tournament_key
from tournoyons_gui.arbitre.store import Game, Tournament
from tournoyons_gui.arbitre.tournaments.service import Tournaments
from tournoyons_gui.arbitre.web.common import NO_STORE, Part

__all__ = ["PING", "RECHECK", "Events", "game_news", "progress"]

#: Seconds between the comment lines that keep a quiet stream open.
PING = 15
#: Seconds after which a stream reads its records again without news.
RECHECK = 10.0


def progress(row: Tournament, entrants: int, games: list[Game]) -> dict[str, Any]:
    """Return a tournament's ``progress`` event's data: its status and its games planned in
    all, over and in play (as its summary's ``progress``)."""
    return {
        "status": row.status,
        "planned": Tournaments.planned(row, entrants),
        "over": sum(1 for g in games if g.status != "playing"),
        "playing": sum(1 for g in games if g.status == "playing"),
    }


def game_news(game: Game) -> dict[str, Any]:
    """Return a ``game`` event's data: the game that ended, its status (``over``,
    ``interrupted``), its result (``seat1``, ``seat2``, ``draw``, ``error`` ... or null) and
    the winning seat's index from 0 (or null)."""
    return {"id": game.id, "status": game.status, "result": game.result, "winner": game.winner}


def _event(name: str, data: dict[str, Any], event_id: int | None = None) -> ServerSentEvent:
    return ServerSentEvent(
        json.dumps(data, separators=(",", ":")),
        event=name,
        id=None if event_id is None else str(event_id),
    )


class Events(Part):
    """The live events' routes (see the module)."""

    def routes(self) -> list[Route]:
        """Return the routes."""
        return [
            Route("/games/{game_id}/events", self.game),
            Route("/tournaments/{tournament_id}/events", self.tournament),
        ]

    async def game(self, request: Request) -> Response:
        """``GET /games/<id>/events``: the game's ``move`` events (see the module)."""
        game_id = request.path_params["game_id"]
        store, hub = self.arbitre.store, self.arbitre.hub
        # Subscribed before the record is read: a move recorded in between is heard.
        queue = hub.subscribe(game_id)
        found = await store.game(game_id)
        if found is None:
            hub.unsubscribe(game_id, queue)
            return JSONResponse({"error": "no such game"}, 404)

        async def stream() -> AsyncIterator[ServerSentEvent]:
            try:
                game = found[0]
                # What the client was told: the move count, whether the game is over, and
                # the seat asked at that count (an ask comes as its own event, after the
                # move's, with the same count).
                shown: tuple[int, bool, int | None] = (game.moves, game.status != "playing", None)
                yield _event("move", {"moves": shown[0], "over": shown[1]}, shown[0])
                while not shown[1]:
                    try:
                        event = await asyncio.wait_for(queue.get(), RECHECK)
                    except TimeoutError:
                        # No news: read the record again (news from a worker of another
                        # process may not have reached this one).
                        again = await store.game(game_id)
                        if again is None:
                            return
                        event = {"moves": again[0].moves, "over": again[0].status != "playing"}
                    asked = event.get("asked")
                    now = (int(event["moves"]), bool(event.get("over")), asked)
                    if now[0] < shown[0] or (
                        now[:2] == shown[:2] and (asked is None or asked == shown[2])
                    ):
                        continue  # told already (heard as the record was read)
                    shown = now
                    yield _event("move", event, shown[0])
            finally:
                hub.unsubscribe(game_id, queue)

        return EventSourceResponse(stream(), ping=PING, headers=NO_STORE)

    async def tournament(self, request: Request) -> Response:
        """``GET /tournaments/<id>/events``: the tournament's ``progress`` and ``game``
        events (see the module)."""
        tournament_id = request.path_params["tournament_id"]
        store = self.arbitre.store
        found = await store.tournament(tournament_id, positions=False)
        if found is None:
            return JSONResponse({"error": "no such tournament"}, 404)
        hub = self.arbitre.hub
        key = tournament_key(tournament_id)
        queue = hub.subscribe(key)

        async def stream() -> AsyncIterator[ServerSentEvent]:
            try:
                row, entrants, games = found
                ended = {g.id for g in games if g.status != "playing"}
                shown = progress(row, len(entrants), games)
                yield _event("progress", shown)
                while row.status == "running":
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(queue.get(), RECHECK)
                    again = await store.tournament(tournament_id, positions=False)
                    if again is None:
                        return
                    row, entrants, games = again
                    for game in games:
                        if game.status != "playing" and game.id not in ended:
                            ended.add(game.id)
                            yield _event("game", game_news(game))
                    now = progress(row, len(entrants), games)
                    if now != shown:
                        shown = now
                        yield _event("progress", now)
            finally:
                hub.unsubscribe(key, queue)

        return EventSourceResponse(stream(), ping=PING, headers=NO_STORE)
