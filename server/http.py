"""HTTP plumbing shared by every route: security headers, conditional GET, rendered pages.

- :class:`SecurityHeaders`: a pure ASGI middleware adding the Content-Security-Policy and
  ``nosniff`` to every answer (no per-request allocation beyond one list).
- :func:`is_not_modified` and :class:`NotModifiedResponse`: the one ETag/304 helper, for
  pages and assets alike (as Starlette's ``StaticFiles.is_not_modified``).
- :class:`Page` and :func:`respond`: an HTML page rendered once, kept in memory with its
  strong ETag and (made on first demand) its gzip form, answered whole, gzipped or 304.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "RETURN_PATHS",
    "NotModifiedResponse",
    "Page",
    "PreparedResponse",
    "SecurityHeaders",
    "content_security_policy",
    "is_not_modified",
    "make_page",
    "respond",
]


def content_security_policy(frame_ancestors: str | None) -> str:
    """Return the CSP: our own scripts and styles only, return frames to any http(s) URL;
    ``frame_ancestors`` ``None``: no ``frame-ancestors`` directive."""
    policy = (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-src http: https:; base-uri 'none'; form-action 'self'"
    )
    return policy if frame_ancestors is None else f"{policy}; frame-ancestors {frame_ancestors}"


#: The paths of the persons' returns (``/play/...``): framed by any page, a sandboxed one
#: included (an outside interface's hidden return frame, whose origin is opaque and which
#: no ``frame-ancestors`` source matches); they show one word and no control.
RETURN_PATHS = "/play/"


class SecurityHeaders:
    """ASGI middleware adding the CSP and ``nosniff`` to every response; never a cookie.

    ``frame_ancestors`` is the CSP source list of the hosts allowed to embed the pages. It
    takes the shape of a Starlette middleware (``SecurityHeaders(app, frame_ancestors=...)``)
    but :func:`tournoyons_gui.server.app.create_app` wraps the whole application with it rather than
    registering it with ``Middleware``: registered middleware runs inside Starlette's
    ``ServerErrorMiddleware``, whose 500 answer would then go out without these headers.
    """

    def __init__(self, app: ASGIApp, frame_ancestors: str = "*") -> None:
        self.app = app
        self.headers = [
            (b"content-security-policy", content_security_policy(frame_ancestors).encode()),
            (b"x-content-type-options", b"nosniff"),
        ]
        self.return_headers = [
            (b"content-security-policy", content_security_policy(None).encode()),
            (b"x-content-type-options", b"nosniff"),
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to the answer's start, cookies taken out."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        added = (
            self.return_headers if scope.get("path", "").startswith(RETURN_PATHS) else self.headers
        )

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0] != b"set-cookie"]
                message["headers"] = headers + added
            await send(message)

        await self.app(scope, receive, send_with_headers)


def is_not_modified(if_none_match: str, *etags: str) -> bool:
    """Whether a request's ``If-None-Match`` value says the client holds one of ``etags``.

    ``*`` holds anything; otherwise the value is a comma-separated list of entity tags,
    weak ones (``W/"..."``) compared as strong (RFC 9110 13.1.2: If-None-Match uses the
    weak comparison). An empty value holds nothing.
    """
    if not if_none_match:
        return False
    if if_none_match == "*" or if_none_match in etags:  # the usual case: one tag sent back
        return True
    held = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return any(etag in held for etag in etags)


class PreparedResponse(Response):
    """A response whose raw headers are given complete, with no per-request normalising.

    ``raw_headers`` are lower-case ``(name, value)`` byte pairs, ``Content-Length`` and
    ``Content-Type`` included; the security headers come from :class:`SecurityHeaders`.
    Relies on Starlette's ``Response`` attributes (``status_code``, ``body``, ``background``,
    ``raw_headers``), hence the bound on Starlette's major version.
    """

    def __init__(self, body: bytes, status: int, raw_headers: list[tuple[bytes, bytes]]) -> None:
        self.status_code = status
        self.body = body
        self.background = None
        self.raw_headers = raw_headers


class NotModifiedResponse(Response):
    """A 304 carrying only the headers a 304 may (RFC 9110 15.4.5), as Starlette's own.

    ``headers`` are the raw ``(name, value)`` byte pairs, lower-case names, that the full
    answer would have had; the others (``Content-Length``, ``Content-Encoding`` ...) are
    dropped. The body is empty and no ``Content-Length`` is added.
    """

    NOT_MODIFIED_HEADERS = frozenset(
        {b"cache-control", b"content-location", b"date", b"etag", b"expires", b"vary"}
    )

    def __init__(self, headers: Iterable[tuple[bytes, bytes]]) -> None:
        super().__init__(status_code=304)
        self.raw_headers = [h for h in headers if h[0] in self.NOT_MODIFIED_HEADERS]


@dataclass
class Page:
    """A rendered page: body, strong ETag, status, and (made on first use) its gzip form."""

    body: bytes
    etag: str
    status: int = 200

    @cached_property
    def gzipped(self) -> bytes | None:
        """Return the body gzipped, or ``None`` when that is not smaller.

        Made when a client first accepts gzip, then kept with the page. Level 1: 25 us for
        TicTacToe's 6 KB (1.4 KB out), 0.1 ms for Pente's 30 KB (5.5 KB); level 6 saves a
        tenth more bytes for up to five times the time.
        """
        squeezer = zlib.compressobj(1, zlib.DEFLATED, 31)
        packed = squeezer.compress(self.body) + squeezer.flush()
        return packed if len(packed) < len(self.body) else None

    @cached_property
    def gzip_etag(self) -> str:
        """Return the gzip form's strong ETag: each representation its own (RFC 9110 8.8.3)."""
        return self.etag[:-1] + '-gz"'


def make_page(body: bytes, status: int = 200) -> Page:
    """Return the :class:`Page` of ``body``, its ETag a 96-bit BLAKE2b digest of it."""
    return Page(body, '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"', status)


def respond(request: Request, page: Page, cache_control: str) -> Response:
    """Answer ``page`` (gzipped when the client accepts it), or 304 when it holds it.

    A page answered 200 is 304 when ``If-None-Match`` names either representation's ETag
    (or ``*``); any other status is always answered whole. Every page is negotiated on
    ``Accept-Encoding`` (``Vary``), even when identity is what it gets.
    """
    match = ""
    encoding = b""
    for name, value in request.scope["headers"]:
        if name == b"if-none-match":
            match = value.decode("latin-1")
        elif name == b"accept-encoding":
            encoding = value
    headers = [
        (b"etag", page.etag.encode()),
        (b"cache-control", cache_control.encode()),
        (b"vary", b"Accept-Encoding"),
    ]
    gzipped = page.gzipped if b"gzip" in encoding else None
    if gzipped is not None:
        headers[0] = (b"etag", page.gzip_etag.encode())
    if page.status == 200 and match and is_not_modified(match, page.etag, page.gzip_etag):
        return NotModifiedResponse(headers)
    body = page.body
    if gzipped is not None:
        body = gzipped
        headers.append((b"content-encoding", b"gzip"))
    headers += [
        (b"content-length", str(len(body)).encode()),
        (b"content-type", b"text/html; charset=utf-8"),
    ]
    return PreparedResponse(body, page.status, headers)
