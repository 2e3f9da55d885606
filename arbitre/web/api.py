"""The Arbitre's JSON API, for programs: start a game, read its record, add a game of
one's own (chapter VI). Bad input is answered 400 ``{"error"}`` (413 for a body over its
limit, 409 for an added game's name taken) and stores nothing; the
bodies are the models of :mod:`.bodies`, the whole API described by :mod:`.openapi`.

Routes:

- ``POST /api/games`` (JSON ``{"set", "seats": [{"kind", "engine", "name"}], "options",
  "start_tray"}``) -> 201 ``{"id", "urls", "persons"}``.
- ``GET /api/games[?set=S][&seat=NAME][&after=CURSOR][&limit=N]``: a page of the games,
  newest first (``{"rows", "next", "next_url"}`` and ``Link`` to the next); ``seat`` a
  seat's whole name (any case) or whole URL.
- ``GET /api/games/<id>`` and ``GET /games/<id>.json``: the record (one document).
- ``POST /api/sets`` (JSON ``{"name", "interface_url", "referee_url", "start_tray",
  "simultaneous"}``) -> 201 ``{"name", "key"}``.
- ``POST /api/games/<id>/cancel`` (an organiser token): end a game as interrupted.
- ``GET /api/openapi.json``: the OpenAPI 3.1 document of every route for programs.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tournoyons_gui.arbitre.match import GameError, Taken
from tournoyons_gui.arbitre.paging import DEFAULT_LIMIT, CursorError
from tournoyons_gui.arbitre.seats import through_pages
from tournoyons_gui.arbitre.web.bodies import AddedSetBody, GameBody, options_of, parse
from tournoyons_gui.arbitre.web.common import NO_STORE, Part, read_body, refusal
from tournoyons_gui.arbitre.web.guard import BEARER, NO_ORGANISER, is_organiser
from tournoyons_gui.arbitre.web.openapi import openapi_json
from tournoyons_gui.arbitre.web.pages import games_page, read_filters
from tournoyons_gui.arbitre.web.paging import listed_json

__all__ = ["GameApi", "start_tray"]


def start_tray(raw: str | None) -> str | None:
    """Return the position a game starts from (decision 15): a body's ``start_tray``, a
    ``Tray`` as a string, or ``None`` when absent, ``null`` or blank."""
    return (raw or "").strip() or None


class GameApi(Part):
    """The JSON API (see the module); ``holder()`` returns the running Arbitre."""

    def routes(self) -> list[Route]:
        """Return the API's routes (``/games/<id>.json`` before the pages'
        ``/games/<id>``, which would take it)."""
        return [
            Route("/api/games", self.games, methods=["GET", "POST"]),
            Route("/api/games/{game_id}", self.export),
            Route("/games/{game_id}.json", self.export),
            Route("/api/sets", self.add_set, methods=["POST"]),
            Route("/api/games/{game_id}/cancel", self.cancel, methods=["POST"]),
            Route("/api/openapi.json", self.openapi),
        ]

    async def openapi(self, request: Request) -> Response:
        """``GET /api/openapi.json``: the API's OpenAPI 3.1 document (:mod:`.openapi`),
        its Sets those this server plays now (the added ones too)."""
        del request
        await self.arbitre.load_added()
        sets = tuple(s.name for s in self.arbitre.playable())
        return Response(openapi_json(sets), media_type="application/json")

    async def games(self, request: Request) -> Response:
        """``GET /api/games[?set=S][&seat=NAME][&after=CURSOR][&limit=N]``: a page of the
        games, newest first (:func:`~.paging.listed_json`; ``seat`` a seat's whole name, any case,
        or whole URL; 400 ``{"error"}`` for a filter, a cursor or a limit that cannot be
        read: :func:`~.pages.read_filters`); ``POST``: start a game (:meth:`create`)."""
        if request.method == "POST":
            return await self.create(request)
        try:
            filters = await read_filters(request, self.arbitre)
            listed, cursor, _ = await games_page(request, self.arbitre, filters, DEFAULT_LIMIT)
        except CursorError as refused:
            return JSONResponse({"error": str(refused)}, 400)
        rows = [
            {
                "id": game.id,
                "set": game.set_name,
                "status": game.status,
                "result": game.result,
                "winner": game.winner,
                "moves": game.moves,
                "created_at": game.created_at.isoformat(),
                "ended_at": game.ended_at.isoformat() if game.ended_at else None,
                "tournament": game.tournament_id,
                "ladder": game.ladder,
                "seats": [
                    {"index": s.index, "kind": s.kind, "name": s.name}
                    for s in listed.seats[game.id]
                ],
                "url": f"/games/{game.id}",
            }
            for game in listed.games
        ]
        return listed_json(request, rows, cursor, NO_STORE)

    async def create(self, request: Request) -> Response:
        """``POST /api/games``: start a game; 201 with its id, its URLs and the URLs of the
        seats played through the pages (``persons``, each with its secret token)."""
        try:
            body = parse(GameBody, await read_body(request))
            game, made = await self.arbitre.make(
                body.set,
                [seat.spec() for seat in body.seats],
                options_of(body.options),
                start_tray=start_tray(body.start_tray),
            )
        except GameError as refused:
            return refusal(refused)
        game_id = game.id
        return JSONResponse(
            {
                "id": game_id,
                "urls": {
                    "game": f"/games/{game_id}",
                    "json": f"/games/{game_id}.json",
                    "events": f"/games/{game_id}/events",
                    "log": f"/games/{game_id}/log",
                },
                "persons": [
                    {"seat": s.index, "url": f"/games/{game_id}?seat={s.token}"}
                    for s in made
                    if through_pages(s)
                ],
            },
            201,
        )

    async def cancel(self, request: Request) -> Response:
        """``POST /api/games/<id>/cancel`` with an organiser token: end the game as
        interrupted, here or through the worker driving it; 200 ``{"id", "status"}``, 401
        without the token, 409 when it is not in play (over, or its driver did not end it
        within a few seconds)."""
        if not is_organiser(request):
            return JSONResponse(NO_ORGANISER, 401, headers=BEARER)
        game_id = request.path_params["game_id"]
        if not await self.arbitre.cancel(game_id):
            return JSONResponse(
                {"error": "no game in play by that id (or its driver did not end it)"}, 409
            )
        return JSONResponse({"id": game_id, "status": "interrupted"})

    async def export(self, request: Request) -> Response:
        """``GET /api/games/<id>``, ``GET /games/<id>.json``: the whole record as JSON
        (:mod:`~tournoyons_gui.arbitre.record`); 404 ``{"error"}``."""
        record = await self.arbitre.record(request.path_params["game_id"])
        if record is None:
            return JSONResponse({"error": "no such game"}, 404)
        return JSONResponse(record, headers=NO_STORE)

    async def add_set(self, request: Request) -> Response:
        """``POST /api/sets``: add a game (chapter VI); 201 ``{"name", "key"}`` or 400."""
        try:
            body = parse(AddedSetBody, await read_body(request))
            added = await self.arbitre.catalogue.add(
                body.name,
                body.interface_url,
                body.referee_url,
                start_tray=start_tray(body.start_tray) or "",
                simultaneous=body.simultaneous is True,
            )
        except (GameError, ValueError) as refused:
            return refusal(refused, 409 if isinstance(refused, Taken) else 400)
        return JSONResponse({"name": added.name, "key": added.key}, 201)
