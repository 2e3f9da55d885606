"""Cross-origin reads and calls of the JSON API (``serve --cors ORIGIN``, off by default):
a page on another site may read the API, and, from an origin named, call it.

The browser asks first (a *preflight*: ``OPTIONS`` with ``Access-Control-Request-Method``)
for anything but a plain ``GET``; this middleware answers it before the routes, and adds
``Access-Control-Allow-Origin`` to the answers of the origins allowed (the Fetch
standard's CORS protocol, https://fetch.spec.whatwg.org/#http-cors-protocol):

- ``--cors https://club.example.org`` (repeatable): that origin may ``GET`` and ``POST``
  the API's paths, with ``Authorization`` and ``Content-Type``; its ``POST`` is no longer
  a cross-site request to the guard (:mod:`.guard`), which still counts it.
- ``--cors '*'``: any origin may read (``GET``, ``HEAD``), nothing more; a ``POST``
  from another site is still refused ``403``.

Only the programs' paths (``/api/...`` and every path of the OpenAPI document) are
concerned: the pages for people are never opened to another origin. Answers that are not
credentialed (no cookies: the API's token travels in ``Authorization``), so
``Access-Control-Allow-Credentials`` is never sent. Starlette's own ``CORSMiddleware``
cannot give ``*`` fewer methods than the origins named, nor keep to some paths: hence
these few lines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["ANYONE", "READ", "Cors", "CorsApp"]

#: The origin that names any origin: reads only.
ANYONE = "*"
#: The methods any origin may use under ``--cors '*'``.
READ = frozenset({"GET", "HEAD"})
#: The methods a named origin may use.
CALL = frozenset({"GET", "HEAD", "POST"})
#: The request headers a page may send.
HEADERS = "Authorization, Content-Type"
#: The answer headers a page may read besides the simple ones.
EXPOSED = "Link, Retry-After, WWW-Authenticate"
#: Seconds a browser keeps a preflight's answer.
MAX_AGE = "600"


class Cors:
    """The origins allowed (``serve --cors``): ``*`` reads, each origin named (its scheme,
    host and port, as a browser's ``Origin`` header gives it) reads and calls."""

    def __init__(self, origins: Iterable[str] = ()) -> None:
        given = [o.strip() for o in origins if o.strip()]
        self.anyone = ANYONE in given
        self.named = frozenset(o.rstrip("/").lower() for o in given if o != ANYONE)

    def __bool__(self) -> bool:
        return self.anyone or bool(self.named)

    def methods(self, origin: str) -> frozenset[str]:
        """Return the methods ``origin`` may use (none: not allowed)."""
        if origin.lower() in self.named:
            return CALL
        return READ if self.anyone else frozenset()

    def may(self, origin: str, method: str) -> bool:
        """Whether ``origin`` may send a request of ``method``."""
        return method.upper() in self.methods(origin)


class CorsApp:
    """The ASGI middleware of :class:`Cors` before ``app``, on the paths ``programs(path)``
    says are the programs'."""

    def __init__(self, app: ASGIApp, cors: Cors, programs: Callable[[str], bool]) -> None:
        self.app = app
        self.cors = cors
        self.programs = programs

    @property
    def state(self) -> object:
        """Return the wrapped application's ``state``."""
        return getattr(self.app, "state", None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a preflight, or pass the request on and mark its answer."""
        if scope["type"] != "http" or not self.cors or not self.programs(scope["path"]):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if origin is None:
            await self.app(scope, receive, send)
            return
        asked = headers.get("access-control-request-method")
        if scope["method"] == "OPTIONS" and asked is not None:
            await self._preflight(origin, asked)(scope, receive, send)
            return
        if not self.cors.may(origin, scope["method"]):
            await self.app(scope, receive, send)
            return

        async def marked(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer = MutableHeaders(scope=message)
                answer["Access-Control-Allow-Origin"] = self._allowed(origin)
                answer["Access-Control-Expose-Headers"] = EXPOSED
                answer.add_vary_header("Origin")
            await send(message)

        await self.app(scope, receive, marked)

    def _allowed(self, origin: str) -> str:
        """Return the ``Access-Control-Allow-Origin`` of ``origin``: itself when named,
        ``*`` for anyone's reads."""
        return origin if origin.lower() in self.cors.named else ANYONE

    def _preflight(self, origin: str, asked: str) -> Response:
        """Return the answer to a preflight: ``204`` with what ``origin`` may do, or
        ``403`` ``{"error"}`` when it may not send ``asked``."""
        methods = self.cors.methods(origin)
        vary = {"Vary": "Origin"}
        if asked.upper() not in methods:
            return Response(
                b'{"error":"this origin may not send this request here"}',
                403,
                headers=vary,
                media_type="application/json",
            )
        return Response(
            status_code=204,
            headers={
                **vary,
                "Access-Control-Allow-Origin": self._allowed(origin),
                "Access-Control-Allow-Methods": ", ".join(sorted(methods)),
                "Access-Control-Allow-Headers": HEADERS,
                "Access-Control-Max-Age": MAX_AGE,
            },
        )
