"""A match of ``play`` for programs: the match pages' JSON twins, and its games' records.

Routes:

- ``GET /api/matches[?after=CURSOR][&limit=N]``: a page of the matches, newest first
  (``Link: <...>; rel="next"`` to the next).
- ``GET /matches/<id>/games.jsonl``: every game's record of the match (the JSON of
  ``/games/<id>.json``), one a line in match order (JSON Lines), streamed: read
  :data:`JSONL_BATCH` games at a time and written as they come, whatever the match's
  length (``play --games-file`` writes the same lines).
- ``GET /matches/<id>.json`` = ``GET /api/matches/<id>`` ``[?after=CURSOR][&limit=N]``:
  the match document ``play --json`` writes (``docs/reference/match-json.md``), computed
  from the records, its ``games_list`` a page of the games in match order with their
  moves (100 by default and at most), ``games_next`` the next page's path (``null`` on
  the last; the ``Link`` header names it too). A long match is read a page at a time
  whatever its length; the summary is the same on every page.

No such match: 404 ``{"error"}``; a cursor or a limit that cannot be read: 400.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from tournoyons_gui.arbitre.match_summary import game_line
from tournoyons_gui.arbitre.paging import MAX_LIMIT, CursorError
from tournoyons_gui.arbitre.store import Match
from tournoyons_gui.arbitre.web.common import NO_STORE
from tournoyons_gui.arbitre.web.match_pages import matches_page
from tournoyons_gui.arbitre.web.match_records import MatchPart, games_page, names_of
from tournoyons_gui.arbitre.web.paging import link_header, listed_json, next_path

__all__ = ["JSONL", "JSONL_BATCH", "MatchApi", "match_row"]

#: The games read at a time for ``games.jsonl``.
JSONL_BATCH = 50
#: The media type of JSON Lines (one JSON document a line).
JSONL = "application/x-ndjson; charset=utf-8"

#: The summary's keys a page of ``/matches/<id>.json`` leaves out (the pages' own).
_PAGES_ONLY = ("faulted", "stopped", "made")


def match_row(match: Match, counts: tuple[int, int]) -> dict[str, Any]:
    """Return a match as ``GET /api/matches`` lists it, with its games made and over
    (``counts``)."""
    return {
        "id": match.id,
        "set": match.set_name,
        "status": match.status,
        "entrants": names_of(match),
        "seed": match.seed,
        "openings": match.openings or None,
        "games": match.games,
        "made": counts[0],
        "over": counts[1],
        "sprt": match.sprt,
        "llr": match.llr,
        "verdict": match.verdict or None,
        "created_at": match.created_at.isoformat(),
        "ended_at": match.ended_at.isoformat() if match.ended_at else None,
        "url": f"/matches/{match.id}",
    }


class MatchApi(MatchPart):
    """The matches' JSON (see the module); ``summaries`` is shared with their pages."""

    def routes(self) -> list[Route]:
        """Return the routes (``/matches/<id>.json`` before the page's ``/matches/<id>``)."""
        return [
            Route("/api/matches", self.listing),
            Route("/api/matches/{match_id}", self.document),
            Route("/matches/{match_id}.json", self.document),
            Route("/matches/{match_id}/games.jsonl", self.records),
        ]

    async def records(self, request: Request) -> Response:
        """``GET /matches/<id>/games.jsonl``: every game's record, one a line, streamed."""
        arbitre = self.arbitre
        match = await arbitre.store.match(request.path_params["match_id"][:40])
        if match is None:
            return JSONResponse({"error": "no such match"}, 404)
        match_id = match.id

        async def lines() -> AsyncIterator[str]:
            after: int | None = None
            while True:
                page = await arbitre.store.match_games_page(
                    match_id, after=after, limit=JSONL_BATCH
                )
                written = []
                for entry in page.rows:
                    record = await arbitre.record(entry.game.id)
                    if record is not None:
                        written.append(
                            json.dumps(record, ensure_ascii=False, separators=(",", ":"))
                        )
                if written:
                    yield "\n".join(written) + "\n"
                if not page.more or not page.rows:
                    return
                after = page.rows[-1].place.number

        return StreamingResponse(
            lines(),
            media_type=JSONL,
            headers={
                **NO_STORE,
                "Content-Disposition": f'attachment; filename="{match_id}-games.jsonl"',
            },
        )

    async def listing(self, request: Request) -> Response:
        """``GET /api/matches``: a page of the matches, newest first."""
        try:
            rows, counts, cursor = await matches_page(request, self.arbitre.store)
        except CursorError as refused:
            return JSONResponse({"error": str(refused)}, 400)
        listed = [match_row(m, counts.get(m.id, (0, 0))) for m in rows]
        return listed_json(request, listed, cursor, NO_STORE)

    async def document(self, request: Request) -> Response:
        """``GET /matches/<id>.json``: the match document, a page of its games."""
        store = self.arbitre.store
        match = await store.match(request.path_params["match_id"][:40])
        if match is None:
            return JSONResponse({"error": "no such match"}, 404)
        try:
            page = await games_page(
                request, store, match.id, name="match-document", default=MAX_LIMIT
            )
        except CursorError as refused:
            return JSONResponse({"error": str(refused)}, 400)
        summary = await self.summaries.of(store, match)
        moves = await store.moves_of([e.game.id for e in page.entries])
        document = {k: v for k, v in summary.items() if k not in _PAGES_ONLY}
        document["games_list"] = [game_line(o, moves) for o in page.outcomes]
        document["games_next"] = next_path(request, page.cursor)
        return JSONResponse(document, headers={**NO_STORE, **link_header(request, page.cursor)})
