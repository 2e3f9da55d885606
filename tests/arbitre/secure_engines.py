"""Engines and targets of the tests' own for a public Arbitre that can be trusted, a
Starlette application on 127.0.0.1 (:class:`~tests.arbitre.threaded.Threaded`). Each path is
one behaviour; the engines play TicTacToe's first free cell.

- ``/to?u=URL``: a ``302`` to ``URL`` (an engine that redirects anywhere).
- ``/secret``: a page no outsider should read (``SECRET-BODY`` and more lines).
- ``/hit``: records that it was called (a target the Arbitre must not reach).
- ``/signed``: an engine that checks the Arbitre's signature (manual VII) with
  :data:`KEY`: a call without it, or wrongly signed, gets ``403`` and no callback; a signed
  one is played (callback first, then ``OK``). A final call is answered ``OK`` when signed.
- ``/service``: a ``service`` engine (manual VIII): ``POST`` of the context as JSON with
  ``Key``; answers ``{"Value": <first free cell>}``, or ``403`` when a key is expected
  (``?key=K`` in its URL) and another comes.
- ``/sync``: a ``sync`` engine: answers the Value in its body to a request whose
  ``Referee`` is empty.
"""

from __future__ import annotations

import json

import httpx
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from tests.arbitre.engines import first_free
from tests.arbitre.threaded import Threaded

__all__ = ["KEY", "SecureEngines"]

#: The key the ``/signed`` engine was registered with.
KEY = "k3y-of-the-signed-engine"


class SecureEngines(Threaded):
    """The engines and targets (see the module); what each received is kept."""

    def __init__(self) -> None:
        self.hits: list[str] = []
        self.refused: list[str] = []
        self.signed: list[str] = []
        self.headers: list[str] = []
        self.service_calls: list[dict[str, object]] = []
        self.sync_calls: list[dict[str, str]] = []
        super().__init__(
            [
                Route("/to", self.to),
                Route("/secret", lambda r: PlainTextResponse("SECRET-BODY\nline 2\nline 3")),
                Route("/hit", self.hit),
                Route("/signed", self.signed_engine),
                Route("/service", self.service, methods=["POST"]),
                Route("/sync", self.sync),
            ]
        )

    async def to(self, request: Request) -> Response:
        """Redirect to ``u``."""
        return RedirectResponse(request.query_params.get("u", "/"), 302)

    async def hit(self, request: Request) -> Response:
        """Record the call."""
        self.hits.append(request.url.query)
        return PlainTextResponse("hit")

    async def signed_engine(self, request: Request) -> Response:
        """Play only when the query is signed with :data:`KEY` (see the module)."""
        from tournoyons_gui.arbitre.signing import SIGNATURE_HEADER, verify_query

        raw = request.scope["query_string"].decode("latin-1")
        if not verify_query(raw, KEY):
            self.refused.append(raw)
            return PlainTextResponse("unsigned", 403)
        self.signed.append(raw)
        self.headers.append(request.headers.get(SIGNATURE_HEADER, ""))
        params = request.query_params
        referee = params.get("Referee", "")
        if referee:
            callback = {
                "Game": params.get("Game", ""),
                "MoveId": params.get("MoveId", ""),
                "Value": first_free(params.get("Tray", "")),
            }
            async with httpx.AsyncClient(trust_env=False) as client:
                await client.get(referee, params=callback)
        return PlainTextResponse("OK")

    async def service(self, request: Request) -> Response:
        """Answer the JSON context with ``{"Value"}`` (see the module)."""
        context = json.loads(await request.body())
        self.service_calls.append(context)
        expected = request.query_params.get("key")
        if expected is not None and context.get("Key") != expected:
            return JSONResponse({"error": "wrong key"}, 403)
        return JSONResponse({"Value": first_free(str(context.get("Tray", "")))})

    async def sync(self, request: Request) -> Response:
        """Answer the Value in the body (an empty ``Referee``)."""
        params = dict(request.query_params)
        self.sync_calls.append(params)
        if params.get("Referee") != "":
            return PlainTextResponse("a sync engine is called with an empty Referee", 400)
        return PlainTextResponse(first_free(params.get("Tray", "")) + "\n")
