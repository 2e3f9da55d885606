"""The move path's two routes, answered before the framework's routing.

Every move over HTTP is one engine request and one callback: ``GET /engines/<set>/<name>``
(our built-in engines, served to other Arbitres) and ``GET /referee`` (engines' callbacks).
:class:`HotRoutes` answers these two ``GET``\\ s itself, with the same answers as their
Starlette routes (:meth:`Served.engine_answer`, :meth:`Returns.callback`), and passes every
other request on: the router's matching of every route in turn, its request and response
objects and its two error middlewares were a third of a move's server time (a profile of
``benchmarks/arbitre.py``). A handler's failure is logged and answered 500, as Starlette's
``ServerErrorMiddleware`` does.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable

from starlette.types import ASGIApp, Receive, Scope, Send

from tournoyons_gui.arbitre.web.returns import Returns
from tournoyons_gui.arbitre.web.served import Served

__all__ = ["HotRoutes"]

log = logging.getLogger(__name__)

_TEXT = (b"content-type", b"text/plain; charset=utf-8")


class HotRoutes:
    """ASGI middleware answering ``GET /referee`` and ``GET /engines/<set>/<name>`` (see
    the module) before ``app``."""

    def __init__(self, app: ASGIApp, returns: Returns, served: Served) -> None:
        self.app = app
        self.returns = returns
        self.served = served

    @property
    def state(self) -> object:
        """Return the wrapped application's ``state``."""
        return getattr(self.app, "state", None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a hot route, or pass the request on."""
        if scope["type"] == "http" and scope["method"] == "GET" and not scope.get("root_path"):
            path: str = scope["path"]
            if path == "/referee":
                await self._answer(send, self.returns.callback(scope["query_string"]))
                return
            if path.startswith("/engines/"):
                parts = path.split("/")
                if len(parts) == 4 and parts[2] and parts[3]:
                    answer = self.served.engine_answer(parts[2], parts[3], scope["query_string"])
                    await self._answer(send, answer)
                    return
        await self.app(scope, receive, send)

    @staticmethod
    async def _answer(send: Send, answer: Awaitable[tuple[int, str]]) -> None:
        """Send the (status, text) ``answer`` as a plain text response (500 when it fails:
        nothing is sent before it is known)."""
        try:
            status, text = await answer
        except Exception:
            log.exception("a hot route failed")
            status, text = 500, "Internal Server Error"
        body = text.encode("utf-8")
        headers = [_TEXT, (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
