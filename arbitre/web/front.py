"""The Arbitre's front page: what a visitor sees going on, and the new-game form one click
away. Complete without JavaScript; ``arbitre/static/front.js`` keeps the games in play
live over one stream of events.

Routes:

- ``GET /arbitre``: the games in play now (each drawn small through its Set's interface,
  linked), the ladder's top three of each Set, the latest tournaments and matches, the
  count of games played. The address with a query (``/arbitre?set=Reversi``, the
  new-game form's old links and presets) is redirected to the form, query kept.
- ``GET /arbitre/events?game=ID[&game=ID...]``: the live events (SSE) of the games
  named (at most :data:`MAX_WATCHED`), one stream: ``move`` events ``{"id", "moves",
  "over"}``, each game's state first.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from tournoyons_gui.arbitre.ladder import LadderBoard
from tournoyons_gui.arbitre.store import Game
from tournoyons_gui.arbitre.web.common import NO_STORE, Part
from tournoyons_gui.arbitre.web.match_records import names_of
from tournoyons_gui.arbitre.web.pages import is_outside, position_query

__all__ = ["IN_PLAY", "LATEST", "MAX_WATCHED", "FrontPage"]

#: Games in play the front page draws.
IN_PLAY = 6
#: Tournaments and matches it lists.
LATEST = 5
#: Games one stream of events follows at most.
MAX_WATCHED = 12
#: What a game's id looks like (:func:`~tournoyons_gui.arbitre.store.new_id`).
_GAME_ID = re.compile(r"[A-Z2-7]{1,12}")


class FrontPage(Part):
    """The front page and its live stream (see the module)."""

    def routes(self) -> list[Route]:
        """Return the routes (before the game pages': ``/arbitre`` is this one's)."""
        return [
            Route("/arbitre", self.front),
            Route("/arbitre/events", self.events),
        ]

    async def front(self, request: Request) -> Response:
        """``GET /arbitre``: the front page; with a query, the new-game form's old
        address: 308 to ``/arbitre/new`` with the same query."""
        query = request.url.query
        if query:
            return RedirectResponse(f"/arbitre/new?{query}", 308)
        arbitre = self.arbitre
        store = arbitre.store
        playing = [await self._tile(game) for game in await store.games_in_play(IN_PLAY)]
        summaries = [s for s in await LadderBoard(arbitre).summaries() if s.leaders]
        tournaments = (await store.tournaments_page(limit=LATEST)).rows
        matches = (await store.matches_page(limit=LATEST)).rows
        return self.html(
            "arbitre/front.html",
            playing=[tile for tile in playing if tile is not None],
            summaries=summaries,
            tournaments=tournaments,
            matches=[{"match": m, "names": names_of(m)} for m in matches],
            total=await store.count_games(),
            config={"events": "/arbitre/events"},
        )

    async def _tile(self, game: Game) -> dict[str, Any] | None:
        """Return what the front page shows of a game in play: its Set, its seats' names,
        its moves and the frame drawing it through the Set's own interface (``None``:
        its Set is not played here any more)."""
        arbitre = self.arbitre
        found = await arbitre.position(game.id, None)
        interface = await arbitre.find_set(game.set_name)
        if found is None or interface is None or interface.arbitre is None:
            return None
        game, seats, turn, number = found
        chosen = await arbitre.interfaces.choose(interface, None)
        outside = is_outside(chosen, interface)
        query, _ = await position_query(
            arbitre, (game, seats, turn, number, interface), [], outside=outside
        )
        return {
            "id": game.id,
            "set": game.set_name,
            "names": [seat.name for seat in seats],
            "moves": game.moves,
            "ladder": game.ladder,
            "src": chosen.frame(query),
            "outside": outside,
        }

    async def events(self, request: Request) -> Response:
        """``GET /arbitre/events?game=ID...``: the named games' live events in one stream
        (see the module); 400 for no game, more than :data:`MAX_WATCHED`, or an id that
        cannot be one."""
        ids = list(dict.fromkeys(request.query_params.getlist("game")))
        if not ids or len(ids) > MAX_WATCHED or not all(_GAME_ID.fullmatch(i) for i in ids):
            return PlainTextResponse(
                f"name 1 to {MAX_WATCHED} games: ?game=ID&game=ID", 400, headers=NO_STORE
            )
        hub, store = self.arbitre.hub, self.arbitre.store
        queues = {game_id: hub.subscribe(game_id) for game_id in ids}
        merged: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def forward(game_id: str, queue: asyncio.Queue[dict[str, Any]]) -> None:
            while True:
                event = await queue.get()
                await merged.put({"id": game_id, **event})

        async def stream() -> AsyncIterator[ServerSentEvent]:
            tasks = [asyncio.create_task(forward(i, q)) for i, q in queues.items()]
            try:
                open_games = set()
                for game_id in ids:
                    found = await store.game(game_id)
                    if found is None:
                        continue
                    game = found[0]
                    over = game.status != "playing"
                    if not over:
                        open_games.add(game_id)
                    state = {"id": game_id, "moves": game.moves, "over": over}
                    yield ServerSentEvent(json.dumps(state), event="move")
                while open_games:
                    event = await merged.get()
                    yield ServerSentEvent(
                        json.dumps({k: event[k] for k in ("id", "moves", "over") if k in event}),
                        event="move",
                    )
                    if event.get("over"):
                        open_games.discard(str(event["id"]))
            finally:
                for task in tasks:
                    task.cancel()
                for game_id, queue in queues.items():
                    hub.unsubscribe(game_id, queue)

        return EventSourceResponse(stream(), ping=15, headers=NO_STORE)
