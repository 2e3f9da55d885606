"""What this server offers other Arbitres (and any program): its built-in engines over the
engine protocol, the same engines as botsarena bots, and each Set's rules as a chapter VI
referee.

Routes:

- ``GET /engines/<set>/<name>``: a built-in engine speaking the engine protocol (it calls
  the Referee back before answering; in tester mode, empty ``Referee``, its answer is the
  value alone; a final call is answered ``OK``).
- ``POST /engines/<set>/<name>/botsarena``: the same engine as a botsarena bot (seed 003).
- ``GET /referee/<set>``: the Set's rules as a chapter VI referee (engine protocol 6).
"""

from __future__ import annotations

import asyncio
import logging
import urllib.parse
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from tournoyons_gui.arbitre.botsarena import answer_message
from tournoyons_gui.arbitre.client import BrokenAnswer, Unreachable
from tournoyons_gui.arbitre.match import GameError
from tournoyons_gui.arbitre.query import QueryTooLong, read_query
from tournoyons_gui.arbitre.urls import engine_url, same_endpoint
from tournoyons_gui.arbitre.web.bodies import parse
from tournoyons_gui.arbitre.web.common import Part, TooLarge, read_body, refusal
from tournoyons_gui.arbitre.web.served_bodies import BotsarenaMessage
from tournoyons_gui.interfaces.plugin import IllegalMove
from tournoyons_gui.interfaces.protocol import safe_return_url
from tournoyons_gui.interfaces.referee import read_call, referee

__all__ = ["MAX_REFEREE_QUERY", "Served"]

log = logging.getLogger(__name__)

#: The longest query a chapter VI referee call may have (its Tray can be long).
MAX_REFEREE_QUERY = 64 * 1024
#: The bytes of a Referee's answer to a callback read (the rest is not: a short answer
#: read whole keeps its connection for the next callback).
MAX_CALLBACK_ANSWER = 4096
#: What stays literal when a ReturnURL is put in a Location header (the rest is escaped).
_URL_SAFE = ":/?#[]@!$&'()*+,;=%~-._"


class Served(Part):
    """What other Arbitres call here (see the module); ``holder()`` returns the running
    Arbitre (its registry, and its HTTP client for the engines' callbacks)."""

    def routes(self) -> list[Route]:
        """Return the routes (the botsarena route first, as it was)."""
        return [
            Route("/referee/{set}", self.set_referee),
            Route("/engines/{set}/{name}/botsarena", self.botsarena_engine, methods=["POST"]),
            Route("/engines/{set}/{name}", self.builtin_engine),
        ]

    async def builtin_engine(self, request: Request) -> Response:
        """``GET /engines/<set>/<name>``: one of our engines, speaking the engine protocol
        (:meth:`engine_answer`)."""
        status, text = await self.engine_answer(
            request.path_params["set"], request.path_params["name"], request.scope["query_string"]
        )
        return PlainTextResponse(text, status)

    async def engine_answer(self, set_key: str, name: str, query: bytes) -> tuple[int, str]:
        """Answer ``GET /engines/<set_key>/<name>?<query>`` as one of our engines (the
        HTTP status and the text): it calls the Referee back before answering, as real
        engines do; in tester mode (empty ``Referee``) its answer is the value alone; a
        final call (no ``MoveId``, no ``Referee``) is answered ``OK``. 404 for no such
        engine, 500 when the engine fails. The query's parameters are read as Starlette
        reads them (the last of a repeated name wins), names as sent."""
        interface = self.arbitre.registry.get(set_key)
        engine = interface.engines.get(name) if interface else None
        if interface is None or engine is None:
            return 404, "no such engine"
        params = dict(urllib.parse.parse_qsl(query.decode("latin-1"), keep_blank_values=True))
        if "MoveId" not in params and "Referee" not in params:
            return 200, "OK"  # a final call: nothing to answer
        try:
            # Off the event loop when slow: a strong engine thinks for tens of
            # milliseconds, which the games and pages this server drives need not wait for.
            value = await self.arbitre.services.engines.call((interface.key, name), engine, params)
        except Exception:
            log.exception("built-in engine %s/%s failed", interface.key, name)
            return 500, "engine error"
        referee_url = params.get("Referee", "")
        if not referee_url:
            return 200, value
        url = engine_url(
            referee_url,
            {"Game": params.get("Game", ""), "MoveId": params.get("MoveId", ""), "Value": value},
        )
        try:
            async with asyncio.timeout(10):
                await self.arbitre.caller.kept.get(url, read=MAX_CALLBACK_ANSWER)
        except (TimeoutError, Unreachable, BrokenAnswer) as broken:
            log.warning("built-in engine could not call back: %s", broken or "timeout")
        return 200, "OK"

    async def botsarena_engine(self, request: Request) -> Response:
        """``POST /engines/<set>/<name>/botsarena``: one of our engines as a botsarena bot
        (seed 003): ``init`` -> ``{"name"}``, ``play-turn`` -> ``{"play": <column>}``; a
        malformed message gets 400 ``{"error"}``, no such bot 404."""
        interface = self.arbitre.registry.get(request.path_params["set"])
        name = request.path_params["name"]
        engine = interface.engines.get(name) if interface else None
        if interface is None or engine is None or interface.botsarena is None:
            return JSONResponse({"error": "no such botsarena bot"}, 404)
        try:
            message = parse(BotsarenaMessage, await read_body(request)).message()
            bots = interface.botsarena
            answer = await self.arbitre.services.engines.run(
                (interface.key, name),
                lambda told: answer_message(bots, engine, name, told),
                message,
            )
        except TooLarge as refused:
            return refusal(refused)
        except (GameError, ValueError, IllegalMove) as refused:
            return JSONResponse({"error": str(refused)[:300]}, 400)
        return JSONResponse(answer)

    async def set_referee(self, request: Request) -> Response:
        """``GET /referee/<set>?Game=..&MoveId=..&Tray=..&Move1=..&ReturnURL=..``: the Set's
        rules as a chapter VI referee (engine protocol section 6). Answers ``303`` to a
        ``ReturnURL`` this Arbitre issued (``<public_url>/added/return``) with ``Game``,
        ``MoveId``, ``Method``, ``Move1``/``Move2`` echoed and ``Gain1``, ``Gain2``, ``Tray``
        and ``ReturnCode`` after the move, and a page with the same link (and a refresh);
        for any other ``ReturnURL``, ``200`` and the page with the link alone (no open
        redirect). Without a
        usable ``ReturnURL``: ``400`` and the verdict on the page; 414 past 64 KiB of
        query; 404 for a Set without a referee."""
        interface = self.arbitre.registry.get(request.path_params["set"])
        rules = interface.referee if interface else None
        if interface is None or rules is None:
            return self._referee_page(404, error="no referee for this Set")
        try:
            params = read_query(request.scope["query_string"], MAX_REFEREE_QUERY)
        except QueryTooLong:
            return self._referee_page(414, error="query over 64 KiB")
        call = read_call(params)
        answer = referee(rules, call)
        back: dict[str, str] = {"Game": call.game, "MoveId": call.move_id}
        if call.method:
            back["Method"] = call.method
        for name, move in (("Move1", call.move1), ("Move2", call.move2)):
            if move is not None:
                back[name] = move
        back.update(
            Gain1=answer.gain1,
            Gain2=answer.gain2,
            Tray=answer.tray,
            ReturnCode=str(answer.return_code),
        )
        target = safe_return_url(params.get("returnurl", ""))
        if not target or not target.lower().startswith(("http://", "https://")):
            return self._referee_page(
                400,
                error="give ReturnURL, an absolute http(s) URL",
                answer=back,
                set_name=interface.name,
            )
        if not call.game or not call.move_id:
            # A referee answers a move of a game: no redirect for anything else (it would
            # make this server an open redirect).
            return self._referee_page(
                400, error="give Game and MoveId", answer=back, set_name=interface.name
            )
        location = engine_url(urllib.parse.quote(target, safe=_URL_SAFE), back)
        if not same_endpoint(target, self.arbitre.services.added_return_url):
            # Not a ReturnURL this Arbitre issued: the verdict and a link on the page, no
            # redirect (this server is no open redirect). Another Arbitre reads
            # the return from the page, as the original did.
            return self._referee_page(200, link=location, answer=back, set_name=interface.name)
        return self._referee_page(
            303,
            location=location,
            link=location,
            answer=back,
            set_name=interface.name,
            headers={"Location": location},
        )

    def _referee_page(
        self, status: int, headers: Mapping[str, str] | None = None, **context: Any
    ) -> Response:
        full = {"error": "", "answer": None, "location": "", "link": "", "set_name": "", **context}
        return self.html("arbitre/referee.html", status, headers, **full)
