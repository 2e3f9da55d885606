"""Added-game referees of the tests' own (engine protocol section 6), on 127.0.0.1.

A Starlette application served by uvicorn in a thread. Each path is one behaviour; the
well-behaved ones apply TicTacToe by asking our own ``/referee/tictactoe`` (given as
``upstream``) and pass its verdict on in their own way:

- ``/redirect``: the upstream verdict as a ``302`` to ``ReturnURL`` (a proxy).
- ``/page``: a ``200`` page whose script sets ``location.href`` to the return URL (read, not
  run, by the Arbitre).
- ``/silent``: never answers.
- ``/code7``: a ``ReturnCode`` of 7.
- ``/slash``: a Tray with ``/`` in it.
- ``/loop``: redirects to itself, forever.
- ``/noecho``: returns another ``Game``.
- ``/error5``: ``ReturnCode=5`` with a reason: the move's player loses.
- ``/unreadable``: a Tray no interface reads (``zzz``) on move 1, then a draw.
"""

from __future__ import annotations

import asyncio
import json
import urllib.parse

import httpx
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from tests.arbitre.threaded import Threaded


def _back(request: Request, **changes: str) -> str:
    """Return ``ReturnURL`` with the request's echo and ``changes``."""
    params = dict(request.query_params)
    back = {
        "Game": params.get("Game", ""),
        "MoveId": params.get("MoveId", ""),
        "Gain1": params.get("Gain1", "0"),
        "Gain2": params.get("Gain2", "0"),
        "Tray": params.get("Tray", ""),
        "ReturnCode": "3",
        **changes,
    }
    return params.get("ReturnURL", "") + "?" + urllib.parse.urlencode(back)


class Referees(Threaded):
    """The referees; ``base`` is their URL, ``upstream`` our TicTacToe referee's."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.calls: list[dict[str, str]] = []
        routes = [
            Route("/redirect", self.redirect),
            Route("/page", self.page),
            Route("/silent", self.silent),
            Route("/code7", lambda r: RedirectResponse(_back(r, ReturnCode="7"), 302)),
            Route("/slash", lambda r: RedirectResponse(_back(r, Tray="1/2"), 302)),
            Route("/loop", lambda r: RedirectResponse(str(r.url), 302)),
            Route("/noecho", lambda r: RedirectResponse(_back(r, Game="SOMEONE"), 302)),
            Route(
                "/error5",
                lambda r: RedirectResponse(
                    _back(r, ReturnCode="5", Tray="cell 5 is not yours"), 302
                ),
            ),
            Route("/unreadable", self.unreadable),
        ]
        super().__init__(routes)

    async def _upstream(self, request: Request) -> str:
        self.calls.append(dict(request.query_params))
        async with httpx.AsyncClient(trust_env=False) as client:
            answer = await client.get(
                self.upstream + "?" + request.url.query, follow_redirects=False
            )
        return answer.headers["location"]

    async def redirect(self, request: Request) -> Response:
        """Our verdict, passed on as a 302."""
        return RedirectResponse(await self._upstream(request), 302)

    async def page(self, request: Request) -> Response:
        """Our verdict, in a page a browser's script would follow."""
        target = json.dumps(await self._upstream(request))
        return HTMLResponse(f"<!doctype html><script>location.href = {target};</script>")

    async def silent(self, request: Request) -> Response:
        """Never answer (within the tests' time)."""
        await asyncio.sleep(120)
        return Response("")

    async def unreadable(self, request: Request) -> Response:
        """``zzz`` as the Tray after move 1, then a draw."""
        self.calls.append(dict(request.query_params))
        if request.query_params.get("MoveId") == "1":
            return RedirectResponse(_back(request, Tray="zzz"), 302)
        return RedirectResponse(_back(request, ReturnCode="4"), 302)
