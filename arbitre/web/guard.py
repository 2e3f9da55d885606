"""What guards the routes that start work on a public Arbitre: a same-origin check on every
``POST``, the limits per client address, and the organiser tokens that lift them.

- **Same origin**: a route that starts work takes a ``POST`` only, and a browser's
  ``POST`` whose ``Origin`` (or, without one, ``Referer``) names another site is refused
  ``403``: no game, check or call from a link, an image tag or another site's form. A
  program (no ``Origin``, no ``Referer``) is not a browser led astray and may post.
- **Limits** (:class:`Limits`, on a public server: a loopback one has none): at most
  :attr:`Limits.work` requests that start work per client address per
  :attr:`Limits.window` seconds (games, engine checks and tester calls, registrations,
  added games, tournaments), of which at most :attr:`Limits.registrations` registrations
  (engines, interfaces, added games) per :attr:`Limits.registration_window` seconds; past
  either ``429`` with ``Retry-After`` and the JSON ``{"error", "retry_after"}`` (lichess's
  answer). An anonymous organiser's tournament has at most :attr:`Limits.entrants`
  entrants, :attr:`Limits.games` games per pairing and :attr:`Limits.concurrency` games
  at once.
- **Organiser tokens**: ``serve --admin-token T`` or a token made by ``tournoyons-gui
  token`` (stored hashed), sent as ``Authorization: Bearer T``, lift the limits per
  address and the tournaments' caps, and may cancel a tournament or a game (without
  one: ``401`` and ``WWW-Authenticate: Bearer``); each token is held to
  :attr:`Limits.token_work` requests per window (a leaked token floods nothing).
- **A token that is not one**: on a program's path (the API's, the document's), an
  ``Authorization`` header that is not ``Bearer <token>``, or a token this server does
  not know, is ``401`` with ``WWW-Authenticate: Bearer error="invalid_token"`` (RFC 6750,
  section 3.1), whatever the route: a mistyped token is never taken as anonymous. A
  ``Basic`` header is left alone (a reverse proxy's own password).

**Counted in the store**, not in a process's memory: every worker of one
database counts in the same rows (``hits``, one upsert a counted request:
:meth:`~tournoyons_gui.arbitre.store.Store.count_hits`), so two ``serve`` processes on one
PostgreSQL refuse at the same total as one; SQLite serves one process. Windows ended are
swept once a window by each worker.

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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from tournoyons_gui.arbitre.store import Store
from tournoyons_gui.arbitre.tournaments import TournamentError
from tournoyons_gui.arbitre.web.cors import Cors

__all__ = [
    "BAD_TOKEN",
    "BEARER",
    "CROSS_SITE",
    "INVALID_TOKEN",
    "NO_ORGANISER",
    "REGISTRATION_PATHS",
    "TOO_MANY",
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

#: The routes whose ``POST`` starts work (games, checks, tester calls, registrations of
#: engines and interfaces, interface checks, added games, tournaments, cancellations):
#: each is guarded.
WORK_PATHS = re.compile(
    r"/api/games(/[^/]+/cancel)?|/arbitre/games|/engine-check|/engine-tester"
    r"|/api/engines(/[^/]+(/key)?)?|/engines(/[A-Za-z0-9]+)?|/api/sets|/arbitre/sets"
    r"|/api/tournaments(/[^/]+/cancel)?|/tournaments"
    r"|(/api)?/interfaces(/[^/]+(/check)?)?"
)
#: The routes whose ``POST`` registers something lasting (an engine, an interface, an added
#: game): counted against :attr:`Limits.registrations` too.
REGISTRATION_PATHS = re.compile(r"(/api)?/engines|(/api)?/interfaces|/api/sets|/arbitre/sets")
#: The error of a request past a limit.
TOO_MANY = "too many requests: try again later"
#: The error of a ``POST`` from another site.
CROSS_SITE = "a request from another site may not start work here"
#: The answer (401) to a request that needs an organiser token and has none that is known.
NO_ORGANISER = {"error": "cancelling takes an organiser token"}
#: What a 401 says the client should send (RFC 6750, section 3).
BEARER = {"WWW-Authenticate": 'Bearer realm="tournoyons"'}
#: The answer (401) to a token that is malformed or unknown here.
BAD_TOKEN = {"error": "the bearer token is not one this server knows (send none to be anonymous)"}
#: Its header (RFC 6750, section 3.1).
INVALID_TOKEN = {"WWW-Authenticate": 'Bearer realm="tournoyons", error="invalid_token"'}
#: A bearer token's syntax (RFC 6750, section 2.1: b64token), at most 200 characters.
TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]{1,200}=*")


@dataclass(frozen=True)
class Limits:
    """The limits of one public Arbitre, shared by its workers, each documented in
    docs/how-to/security.md: ``work`` requests starting work per client address per
    ``window`` seconds, ``registrations`` of them per ``registration_window`` seconds,
    ``token_work`` per organiser token per ``window``; an anonymous organiser's
    tournament's ``entrants``, ``games`` per pairing and ``concurrency``. ``counted``:
    whether requests are counted at all (a loopback server's are not)."""

    work: int = 30
    window: float = 60.0
    entrants: int = 8
    games: int = 4
    concurrency: int = 4
    registrations: int = 20
    registration_window: float = 86400.0
    token_work: int = 600
    counted: bool = True


#: The limits of a loopback server (local development): none, nothing counted.
UNLIMITED = Limits(
    work=10**9,
    entrants=10**9,
    games=10**9,
    concurrency=10**9,
    registrations=10**9,
    token_work=10**9,
    counted=False,
)


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
    """The limits and the organiser tokens of one process (``tokens``: the
    ``--admin-token`` values), counting in the store ``store()`` returns (that of the
    running Arbitre: its tokens made by ``tournoyons-gui token`` and its ``hits``)."""

    def __init__(
        self,
        limits: Limits | None = None,
        tokens: Iterable[str] = (),
        store: Callable[[], Store | None] = lambda: None,
        cors: Cors | None = None,
    ) -> None:
        self.limits = limits or Limits()
        self.tokens = {hash_token(t) for t in tokens if t}
        self.store = store
        self.cors = cors or Cors()
        self._swept = time.monotonic()

    @staticmethod
    def client(request: Request) -> str:
        """Return the client address the limits count (uvicorn's, which reads
        ``X-Forwarded-For`` only from a trusted proxy)."""
        return request.client.host if request.client else "?"

    @staticmethod
    def bearer(request: Request) -> str | None:
        """Return the SHA-256 of the token ``request`` carries (``Authorization: Bearer
        T``), or ``None``."""
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip() or len(token) > 200:
            return None
        return hash_token(token.strip())

    async def organiser(self, request: Request) -> str | None:
        """Return the SHA-256 of the organiser token ``request`` carries (an
        ``--admin-token`` or one in the records), or ``None``."""
        digest = self.bearer(request)
        if digest is None:
            return None
        return digest if await self.known(digest) else None

    async def known(self, digest: str) -> bool:
        """Whether ``digest`` is an organiser token's (an ``--admin-token``, or one in the
        records)."""
        if any(hmac.compare_digest(digest, known) for known in self.tokens):
            return True
        store = self.store()
        return store is not None and await store.is_organiser(digest)

    async def invalid_token(self, request: Request) -> Response | None:
        """Return the ``401`` of a request whose ``Authorization`` is not a token this
        server knows (not ``Bearer <token>``, or a token unknown here), or ``None``: no
        such header, a ``Basic`` one (a proxy's), or a known token."""
        header = request.headers.get("authorization")
        if header is None:
            return None
        scheme, _, token = header.strip().partition(" ")
        if scheme.lower() == "basic":
            return None
        token = token.strip()
        bearer = scheme.lower() == "bearer" and TOKEN.fullmatch(token) is not None
        if bearer and await self.known(hash_token(token)):
            return None
        return JSONResponse(BAD_TOKEN, 401, headers=INVALID_TOKEN)

    def counted(self, request: Request, organiser: str | None) -> list[tuple[str, float, int]]:
        """Return the keys one request that starts work counts against, each with its
        window (seconds) and its limit: the organiser token's, or the client address's
        (and its registrations', for a registration)."""
        limits = self.limits
        if organiser is not None:
            return [(f"token:{organiser[:32]}", limits.window, limits.token_work)]
        client = self.client(request)[:60]
        keys = [(f"addr:{client}", limits.window, limits.work)]
        if REGISTRATION_PATHS.fullmatch(request.url.path):
            keys.append((f"reg:{client}", limits.registration_window, limits.registrations))
        return keys

    async def retry_after(self, request: Request, organiser: str | None = None) -> float:
        """Count one request that starts work for ``request``'s client (or its organiser
        token) in the store; return 0 when every count is within its limit, else the
        seconds to wait (the latest window to end of those over)."""
        store = self.store()
        if not self.limits.counted or store is None:
            return 0.0
        keys = self.counted(request, organiser)
        hits = await store.count_hits([(key, window) for key, window, _ in keys])
        now = store.epoch()
        wait = 0.0
        for (_, _, most), (_, count, until) in zip(keys, hits, strict=True):
            if count > most:
                wait = max(wait, 1.0, until - now)
        if time.monotonic() - self._swept >= self.limits.window:
            self._swept = time.monotonic()
            await store.sweep_hits()
        return wait

    async def refuse(self, request: Request) -> Response | None:
        """Return the answer refusing a request that starts work (``403`` from another
        site, ``429`` past a limit), or ``None`` to go on; mark an organiser's request
        (``request.state.organiser``)."""
        if not same_origin(request) and not self.cors.may(
            request.headers.get("origin", ""), "POST"
        ):
            return JSONResponse({"error": CROSS_SITE}, 403)
        organiser = await self.organiser(request)
        request.state.organiser = organiser is not None
        wait = await self.retry_after(request, organiser)
        if wait:
            seconds = math.ceil(wait)
            return JSONResponse(
                {"error": TOO_MANY, "retry_after": seconds},
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
    a ``POST`` to a path of :data:`WORK_PATHS` passes :meth:`Guard.refuse` first; a
    request to a path ``programs(path)`` says is a program's, or to a path of
    :data:`WORK_PATHS`, passes :meth:`Guard.invalid_token`."""

    def __init__(
        self, app: ASGIApp, guard: Guard, programs: Callable[[str], bool] = lambda _: False
    ) -> None:
        self.app = app
        self.guard = guard
        self.programs = programs

    @property
    def state(self) -> Any:
        """Return the wrapped application's ``state`` (what the command line and the tests
        read the running Arbitre from)."""
        return getattr(self.app, "state", None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a guarded request, or pass it on."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        work = scope["method"] == "POST" and WORK_PATHS.fullmatch(path) is not None
        refused: Response | None = None
        if work or self.programs(path):
            refused = await self.guard.invalid_token(Request(scope))
        if refused is None and work:
            refused = await self.guard.refuse(Request(scope))
        if refused is not None:
            await refused(scope, receive, send)
            return
        await self.app(scope, receive, send)
