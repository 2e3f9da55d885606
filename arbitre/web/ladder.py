"""The standing ladder on the web (:mod:`~tournoyons_gui.arbitre.ladder`): its pages for
people and its JSON for programs, read from what the store keeps (a page costs its rows,
whatever the number of engines). Every page works without JavaScript.

Routes:

- ``GET /ladder``: every Set's ladder: its leaders, its ladder games today and in flight;
- ``GET /ladder/<set>[?after=CURSOR]``: a Set's whole table a page at a time: ranked
  engines, then provisional ones, then paused ones with why; each engine linked to its
  page, a sparkline of its rating, its record against the engine just above it;
- ``GET /api/ladder/<set>[?after=CURSOR][&limit=N]``: the table as JSON, ``{"set",
  "engines": [...], "next", "next_url"}`` (each engine:
  :func:`~tournoyons_gui.arbitre.ladder.entry_json`; the next page's cursor and URL,
  ``null`` on the last, and a ``Link`` header). An unknown Set, or a name no Set has
  (odd characters, too long), is a 404.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jinja2
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.ladder import LadderBoard, entry_json
from tournoyons_gui.arbitre.ladder.service import BoardPage, Position, reason_text
from tournoyons_gui.arbitre.paging import OUT_OF_RANGE, CursorError
from tournoyons_gui.arbitre.store.ladder import PAUSED, PROVISIONAL_GAMES
from tournoyons_gui.arbitre.web.chart import sparkline
from tournoyons_gui.arbitre.web.common import NO_STORE, Part
from tournoyons_gui.arbitre.web.paging import asked_page, link_header, next_path

__all__ = ["PER_PAGE", "SPARK_POINTS", "LadderPages"]

#: Engines a page of a Set's table shows.
PER_PAGE = 50
#: Points of a sparkline at most (evenly spread over the engine's rated games).
SPARK_POINTS = 24
_NO_SET = "no such Set (or one without a ladder)"


def _position(raw: list[Any]) -> Position:
    """Return a leaderboard position read from a cursor; raise :class:`CursorError` for
    one that cannot be a position (the cursor is signed: a forged one never reaches here,
    an old one of another shape might)."""
    tier, key, engine, ranked = raw
    if type(tier) is not int or not 0 <= tier < PAUSED + 1:
        raise CursorError(OUT_OF_RANGE)
    if type(key) not in (int, float) or not -1e9 < key < 1e9:
        raise CursorError(OUT_OF_RANGE)
    if not isinstance(engine, str) or len(engine) > 12:
        raise CursorError(OUT_OF_RANGE)
    if type(ranked) is not int or not 0 <= ranked < 2**31:
        raise CursorError(OUT_OF_RANGE)
    return (tier, float(key), engine, ranked)


class LadderPages(Part):
    """The ladder's pages and JSON (see the module); ``holder()`` returns the running
    Arbitre."""

    def __init__(self, holder: Callable[[], Arbitre], env: jinja2.Environment) -> None:
        super().__init__(holder, env)

    @property
    def board(self) -> LadderBoard:
        """Return the ladder's reads over the running Arbitre."""
        return LadderBoard(self.arbitre)

    def routes(self) -> list[Route]:
        """Return the routes."""
        return [
            Route("/api/ladder/{set_name}", self.api_table),
            Route("/ladder", self.overview),
            Route("/ladder/{set_name}", self.table),
        ]

    async def _page(
        self, request: Request, set_name: str, default: int
    ) -> tuple[BoardPage, Position | None, str | None]:
        """Return the page of the Set's table ``request`` asks, the position it starts
        after and the next page's cursor; raise :class:`CursorError`."""
        store = self.arbitre.store
        asked = await asked_page(
            request, store, "ladder", [("set", set_name)], size=4, default=default
        )
        after = _position(asked.after) if asked.after else None
        page = await self.board.page(set_name, after, asked.limit)
        cursor = asked.cursor(list(page.next)) if page.next is not None else None
        return page, after, cursor

    async def api_table(self, request: Request) -> Response:
        """``GET /api/ladder/<set>``: the Set's table as JSON, a page at a time (``Link``
        to the next); 404 for no such Set, 400 for a cursor or a limit that cannot be
        read."""
        found = await self.board.find(request.path_params["set_name"])
        if found is None:
            return JSONResponse({"error": _NO_SET}, 404)
        try:
            page, _, cursor = await self._page(request, found.name, 100)
        except CursorError as refused:
            return JSONResponse({"error": str(refused)}, 400)
        link = link_header(request, cursor)
        body = {
            "set": found.name,
            "engines": [entry_json(row, rank) for row, rank in page.rows],
            # The next page in the body too, as every list of the API gives it.
            "next": cursor,
            "next_url": link["Link"][1:].split(">", 1)[0] if link else None,
        }
        return JSONResponse(body, headers={**NO_STORE, **link})

    async def overview(self, request: Request) -> Response:
        """``GET /ladder``: every Set's ladder at a glance."""
        del request
        summaries = await self.board.summaries()
        return self.html(
            "arbitre/ladder.html",
            summaries=summaries,
            provisional_games=PROVISIONAL_GAMES,
        )

    async def table(self, request: Request) -> Response:
        """``GET /ladder/<set>[?after=CURSOR]``: the Set's whole table, a page at a time
        (a plain link to the next); 404 page for no such Set."""
        found = await self.board.find(request.path_params["set_name"])
        if found is None:
            return self.html("arbitre/ladder_missing.html", 404)
        first = f"/ladder/{found.name}"
        try:
            page, after, cursor = await self._page(request, found.name, PER_PAGE)
        except CursorError as refused:
            return self.html("arbitre/bad_page.html", 400, error=refused, first_page=first)
        rows = [row for row, _ in page.rows]
        above = await self.board.above(found.name, rows, after[2] if after else None)
        lines = await self.arbitre.store.ladder_sparklines(
            found.name, {row.engine_id: row.rated for row in rows}, SPARK_POINTS
        )
        entries = []
        for row, rank in page.rows:
            points = lines.get(row.engine_id, [])
            values = [value for _, value in points]
            if points and points[-1][0] != row.rated:
                values.append(row.ordinal)  # its rating now, after its last rated game
            entries.append(
                {
                    "row": row,
                    "rank": rank,
                    "reason": reason_text(row),
                    "spark": sparkline(values),
                    "above": above.get(row.engine_id),
                }
            )
        return self.html(
            "arbitre/ladder_set.html",
            set_name=found.name,
            entries=entries,
            next_page=next_path(request, cursor),
            first_page=first if after is not None else None,
            provisional_games=PROVISIONAL_GAMES,
        )
