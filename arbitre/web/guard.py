"""What guards the routes that start work (issue 20): a same-origin check on every
``POST``, the limits per client address, and the organiser tokens that lift them.

- **Same origin**: a route that starts work takes a ``POST`` only, and a browser's
  ``POST`` whose ``Origin`` (or, without one, ``Referer``) names another site is refused
  ``403``: no game, check or call from a link, an image tag or another site's form. A
  program (no ``Origin``, no ``Referer``) is not a browser led astray and may post.
- **Limits** (:class:`Limits`, on a public server: a loopback one has none): at most
  :attr:`Limits.work` requests that start work per client address per
  :attr:`Limits.window` seconds (games, engine checks and tester calls, registrations,
  added games, tournaments); past it ``429`` with ``Retry-After`` and the
  JSON ``{"error", "retry_after"}`` (lichess's answer). An anonymous organiser's
  tournament has at most :attr:`Limits.entrants` entrants, :attr:`Limits.games` games per
  pairing and :attr:`Limits.concurrency` games at once.
- **Organiser tokens**: ``serve --admin-token T`` or a token made by ``tournoyons-gui
  token`` (stored hashed), sent as ``Authorization: Bearer T``, lift the limits and may
  cancel a tournament or a game.

The client address is the connection's, or the first ``X-Forwarded-For`` hop's when
``serve --trust-proxy`` names the reverse proxy (uvicorn's ``forwarded_allow_ips``): a
header anyone can send is never trusted by default.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import time
import urllib.parse
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from tournoyons_gui.arbitre.tournaments import TournamentError

__all__ = [
    "CROSS_SITE",
    "MAX_CLIENTS",
    "UNLIMITED",
    "WORK_PATHS",
    "Guard",
    "GuardedApp",
    "Limits",
    "check_tournament",
    "hash_token",
    "is_organiser",
    "same_origin",
]

#: Client addresses remembered at once by the limiter (the oldest forgotten first).
MAX_CLIENTS = 10_000
#: The routes whose ``POST`` starts work (games, checks, tester calls, registrations of
#: engines and interfaces, interface checks, added games, tournaments, cancellations):
#: each is guarded.
WORK_PATHS = re.compile(
    r"/api/games(/[^/]+/cancel)?|/arbitre/games|/engine-check|/engine-tester"
    r"|/api/engines(/[^/]+(/key)?)?|/engines(/[A-Za-z0-9]+)?|/api/sets|/arbitre/sets"
    r"|/api/tournaments(/[^/]+/cancel)?|/tournaments"
    r"|(/api)?/interfaces(/[^/]+(/check)?)?"
)
#: The error of a ``POST`` from another site.
CROSS_SITE = "a request from another site may not start work here"


@dataclass(frozen=True)
class Limits:
    """The limits per client address of one server (issue 20), each documented in the
    README's *Security*: ``work`` requests starting work per ``window`` seconds, and an
    anonymous organiser's tournament's ``entrants``, ``games`` per pairing and
    ``concurrency``."""

    work: int = 30
    window: float = 60.0
    entrants: int = 8
    games: int = 4
    concurrency: int = 4


#: The limits of a loopback server (local development): none.
UNLIMITED = Limits(work=10**9, entrants=10**9, games=10**9, concurrency=10**9)


def hash_token(token: str) -> str:
    """Return how an organiser token is stored: its SHA-256 in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def same_origin(request: Request) -> bool:
    """Whether ``request`` comes from this site or from a program: its ``Origin`` (else
    its ``Referer``) is absent or names this request's own scheme, host and port."""
    origin = request.headers.get("origin")
    if origin is None:
        referer = request.headers.get("referer")
        if not referer:
            return True
        parts = urllib.parse.urlsplit(referer)
        origin = f"{parts.scheme}://{parts.netloc}"
    host = request.headers.get("host", "")
    return origin.lower() in (
        f"{request.url.scheme}://{host}".lower(),
        f"http://{host}".lower(),
        f"https://{host}".lower(),
    )


class Guard:
    """The limiter and the organiser tokens of one process (``tokens``: the
    ``--admin-token`` values; ``stored``: hashes of the tokens made by ``tournoyons-gui
    token``, read through ``lookup``)."""

    def __init__(
        self,
        limits: Limits | None = None,
        tokens: Iterable[str] = (),
        lookup: Callable[[str], Awaitable[bool]] | None = None,
    ) -> None:
        self.limits = limits or Limits()
        self.tokens = {hash_token(t) for t in tokens if t}
        self.lookup = lookup
        self._windows: OrderedDict[str, tuple[float, int]] = OrderedDict()

    @staticmethod
    def client(request: Request) -> str:
        """Return the client address the limits count (uvicorn's, which reads
        ``X-Forwarded-For`` only from a trusted proxy)."""
        return request.client.host if request.client else "?"

    async def organiser(self, request: Request) -> bool:
        """Whether ``request`` carries an organiser token (``Authorization: Bearer T``): an
        ``--admin-token`` or one in the records (``lookup``)."""
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip() or len(token) > 200:
            return False
        digest = hash_token(token.strip())
        if any(hmac.compare_digest(digest, known) for known in self.tokens):
            return True
        return self.lookup is not None and await self.lookup(digest)

    def retry_after(self, request: Request) -> float:
        """Count one request that starts work for ``request``'s client; return 0 when it
        is within the limit, else the seconds to wait."""
        now = time.monotonic()
        key = self.client(request)
        start, count = self._windows.pop(key, (now, 0))
        if now - start >= self.limits.window:
            start, count = now, 0
        count += 1
        self._windows[key] = (start, min(count, self.limits.work + 1))
        while len(self._windows) > MAX_CLIENTS:
            self._windows.popitem(last=False)
        if count > self.limits.work:
            return max(1.0, start + self.limits.window - now)
        return 0.0

    async def refuse(self, request: Request) -> Response | None:
        """Return the answer refusing a request that starts work (``403`` from another
        site, ``429`` past the limit), or ``None`` to go on; mark an organiser's request
        (``request.state.organiser``)."""
        if not same_origin(request):
            return JSONResponse({"error": CROSS_SITE}, 403)
        request.state.organiser = await self.organiser(request)
        if request.state.organiser:
            return None
        wait = self.retry_after(request)
        if wait:
            seconds = math.ceil(wait)
            return JSONResponse(
                {"error": "too many requests: try again later", "retry_after": seconds},
                429,
                headers={"Retry-After": str(seconds)},
            )
        return None


def is_organiser(request: Request) -> bool:
    """Whether the guard found an organiser token on ``request``."""
    return bool(getattr(request.state, "organiser", False))


def check_tournament(
    request: Request, limits: Limits, entrants: int, games: int, concurrency: int
) -> None:
    """Raise :class:`TournamentError` when an anonymous organiser asks for more entrants,
    games per pairing or games at once than ``limits`` allow (an organiser token lifts
    them)."""
    if is_organiser(request):
        return
    for asked, most, what in (
        (entrants, limits.entrants, "entrants"),
        (games, limits.games, "games per pairing"),
        (concurrency, limits.concurrency, "games at once"),
    ):
        if asked > most:
            raise TournamentError(
                f"without an organiser token a tournament has at most {most} {what}"
            )


class GuardedApp:
    """The ASGI middleware putting :class:`Guard` before every route that starts work:
    a ``POST`` to a path of :data:`WORK_PATHS` passes :meth:`Guard.refuse` first."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    @property
    def state(self) -> Any:
        """Return the wrapped application's ``state`` (what the command line and the tests
        read the running Arbitre from)."""
        return getattr(self.app, "state", None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a guarded request, or pass it on."""
        if (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and WORK_PATHS.fullmatch(scope["path"])
        ):
            request = Request(scope)
            refused = await self.guard.refuse(request)
            if refused is not None:
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)
