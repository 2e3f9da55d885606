"""The HTTP side: routing, headers, caching, the return sink and the tester's API.

Nothing here knows a game: a page is ``query string -> Context -> the Set's build() -> its
template``, the same for every Set in the registry (interface protocol sections 1-3 and 6).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import zlib
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arbitre.game import Arbitre
from arbitre.store import Store
from arbitre.web import ArbitreWeb
from interfaces.fragments import FragmentExtension
from interfaces.plugin import IllegalMove, SetInterface, Turn, View
from interfaces.protocol import Method, ParamError, error_codes, parse_query, read_context
from interfaces.registry import Registry, load_registry
from server.assets import AssetStore

__all__ = ["create_app"]

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent
SHARED_STATIC = ROOT / "static"
SERVER_TEMPLATES = Path(__file__).resolve().parent / "templates"
INTERFACE_TEMPLATES = ROOT / "interfaces" / "templates"

# An interface page depends on its query string alone: a shared cache may keep it a while.
PAGE_CACHE_CONTROL = "public, max-age=60"
IMMUTABLE = "public, max-age=31536000, immutable"
# Rendered pages kept in memory, by (Set key, raw query string): many spectators of one
# game ask for the same page.
PAGE_CACHE_SIZE = 256
SINK_LOG_SIZE = 1000


def content_security_policy(frame_ancestors: str) -> str:
    """Return the CSP: our own scripts and styles only, return frames to any http(s) URL."""
    return (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-src http: https:; base-uri 'none'; form-action 'self'; "
        f"frame-ancestors {frame_ancestors}"
    )


class SecurityHeaders:
    """ASGI middleware adding the CSP and ``nosniff`` to every response; never a cookie."""

    def __init__(self, app: ASGIApp, frame_ancestors: str) -> None:
        self.app = app
        self.headers = [
            (b"content-security-policy", content_security_policy(frame_ancestors).encode()),
            (b"x-content-type-options", b"nosniff"),
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0] != b"set-cookie"]
                message["headers"] = headers + self.headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


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


class PageResponse(Response):
    """A page answer whose headers are built without Starlette's per-request normalising.

    Same headers as ``Response(body, status, {...}, media_type="text/html")`` plus ``Vary``
    and, when gzipped, ``Content-Encoding``; the security headers come from the middleware.
    """

    def __init__(self, body: bytes, status: int, raw_headers: list[tuple[bytes, bytes]]) -> None:
        self.status_code = status
        self.body = body
        self.background = None
        self.raw_headers = raw_headers


class Interfaces:
    """The application's state and endpoints."""

    def __init__(self, registry: Registry, frame_ancestors: str, sink: bool = False) -> None:
        self.registry = registry
        self.frame_ancestors = frame_ancestors
        self.sink_enabled = sink
        self.assets = AssetStore()
        self.assets.add_folder("shared", SHARED_STATIC)
        loaders: list[jinja2.BaseLoader] = [
            jinja2.FileSystemLoader([SERVER_TEMPLATES, INTERFACE_TEMPLATES]),
            jinja2.PackageLoader("arbitre", "templates"),
        ]
        for interface in registry:
            self.assets.add_folder(interface.key, interface.resources("static"))
            loaders.append(jinja2.PackageLoader(interface.package, "templates"))
        self.env = jinja2.Environment(
            loader=jinja2.ChoiceLoader(loaders),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            # Templates are package files: no stat() of three files on every render.
            auto_reload=False,
            extensions=[FragmentExtension],
        )
        self.env.globals["static"] = self.static_url
        self.pages: OrderedDict[tuple[str, bytes], Page] = OrderedDict()
        self.sink: deque[dict[str, Any]] = deque(maxlen=SINK_LOG_SIZE)
        self.sink_count = 0

    def static_url(self, namespace: str, name: str) -> str:
        """Return an asset's hashed URL (a Jinja global)."""
        return self.assets.url(namespace, name)

    # --- interface pages -----------------------------------------------------------------

    def render_interface(self, interface: SetInterface | None, query: bytes) -> Page:
        """Render the page of ``interface`` (``None``: the empty page) for ``query``."""
        params = parse_query(query)
        ctx = read_context(params)
        errors = list(ctx.errors)
        view: View | None = None
        method = ctx.method
        if interface is None:
            if ctx.method is not Method.NONE:
                errors.append(ParamError("set", "no Set"))
            method = Method.NONE
        else:
            if method not in interface.methods:
                errors.append(ParamError("method", f"{interface.name} has no Method {method}"))
                method = Method.STANDARD
                ctx = replace(ctx, method=method)
            try:
                view = interface.build(ctx)
                errors.extend(view.errors)
            except Exception:
                log.exception("Set %s failed on %r", interface.name, query[:500])
                errors.append(ParamError("set", "the Set could not draw this context"))
                view = None
                method = Method.NONE

        asks = bool(
            view is not None
            and view.player is not None
            and (view.playable or view.composed)
            and method.takes_input
        )
        config = {
            "set": interface.name if interface else "",
            "method": method.value,
            "player": int(view.player) if asks and view and view.player else None,
            # Input asks for a move; Method=Prepare asks for a preparation (spec section 3).
            "input": asks and (ctx.input is not None or method is Method.PREPARE),
            "playable": list(view.playable) if asks and view else [],
            "composed": bool(asks and view and view.composed),
            "tray": view.tray if view else "",
            "urlReturn": ctx.url_return,
            "wait": ctx.wait,
            "mute": ctx.mute,
            "webtest": ctx.webtest,
            "sound": view.sound if view else None,
        }
        template = interface.template if interface and view else "_empty.html"
        body = self.env.get_template(template).render(
            ctx=ctx,
            view=view,
            interface=interface,
            method=method.value,
            config=config,
            errors=error_codes(errors),
            asks=asks,
        )
        return _page(body.encode())

    def cached_interface(self, interface: SetInterface | None, query: bytes) -> Page:
        """Return the page for ``query``, from the in-memory cache when already rendered."""
        key = (interface.key if interface else "", query)
        page = self.pages.get(key)
        if page is None:
            page = self.render_interface(interface, query)
            self.pages[key] = page
            if len(self.pages) > PAGE_CACHE_SIZE:
                self.pages.popitem(last=False)
        else:
            self.pages.move_to_end(key)
        return page

    def respond(self, request: Request, page: Page, cache_control: str) -> Response:
        """Answer ``page`` (gzipped when the client accepts it), or 304 when it holds it."""
        match = ""
        encoding = b""
        for name, value in request.scope["headers"]:
            if name == b"if-none-match":
                match = value.decode("latin-1")
            elif name == b"accept-encoding":
                encoding = value
        # Every page is negotiated on Accept-Encoding, even when identity is what it gets.
        headers = [(b"etag", page.etag.encode()), (b"cache-control", cache_control.encode()),
                   (b"vary", b"Accept-Encoding")]
        zipped = b"gzip" in encoding and page.gzipped is not None
        if zipped:  # each representation its own strong ETag (RFC 9110 8.8.3)
            headers[0] = (b"etag", page.etag[:-1].encode() + b'-gz"')
        if page.status == 200 and match and (match == "*" or _holds(match, page.etag)):
            return PageResponse(b"", 304, headers)
        body = page.body
        if zipped and page.gzipped is not None:
            body = page.gzipped
            headers.append((b"content-encoding", b"gzip"))
        headers += [
            (b"content-length", str(len(body)).encode()),
            (b"content-type", b"text/html; charset=utf-8"),
        ]
        return PageResponse(body, page.status, headers)

    def unknown_set(self, request: Request, name: str) -> Response:
        """Answer 404 with the list of Sets, each linked with the same query string."""
        query = request.url.query
        body = self.env.get_template("unknown_set.html").render(
            name=name, sets=list(self.registry), query=f"?{query}" if query else ""
        )
        return self.respond(request, _page(body.encode(), 404), "no-cache")

    async def root(self, request: Request) -> Response:
        """``GET /``: the tester without a query string, else the page of ``Set``."""
        query: bytes = request.scope["query_string"]
        if not query:
            return self.tester(request)
        name = read_context(query).set_name
        interface = self.registry.get(name)
        if name and interface is None:
            return self.unknown_set(request, name)
        return self.respond(request, self.cached_interface(interface, query), PAGE_CACHE_CONTROL)

    async def set_page(self, request: Request) -> Response:
        """``GET /<set>/``: the page of that Set, whatever ``Set`` the query says."""
        name = request.path_params["set"]
        interface = self.registry.get(name)
        if interface is None:
            return self.unknown_set(request, name)
        query: bytes = request.scope["query_string"]
        return self.respond(request, self.cached_interface(interface, query), PAGE_CACHE_CONTROL)

    # --- the tester ----------------------------------------------------------------------

    def tester(self, request: Request) -> Response:
        """The host page that embeds interfaces and plays hot-seat games with their rules."""
        sets = [
            {"name": s.name, "key": s.key, "rules": s.rules is not None,
             "methods": sorted(m.value for m in s.methods), "sample": dict(s.sample)}
            for s in self.registry
        ]
        body = self.env.get_template("tester.html").render(sets=sets, config={"sets": sets})
        return self.respond(request, _page(body.encode()), "no-cache")

    async def tester_turn(self, request: Request) -> Response:
        """``POST /tester/<set>/new`` or ``/play``: the next context from the Set's rules."""
        interface = self.registry.get(request.path_params["set"])
        action = request.path_params["action"]
        if interface is None or interface.rules is None or action not in ("new", "play"):
            return JSONResponse({"error": "this Set has no rules"}, 404)
        try:
            turn: Turn
            if action == "new":
                turn = interface.rules.new_game()
            else:
                data = json.loads(await request.body() or b"{}")
                state, value = data.get("state"), data.get("value")
                if not isinstance(state, dict) or not isinstance(value, str):
                    return JSONResponse({"error": "send {state: {...}, value: '...'}"}, 400)
                turn = interface.rules.play(state, value)
        except IllegalMove as refused:
            return JSONResponse({"error": str(refused)}, 422)
        except (ValueError, TypeError) as broken:
            return JSONResponse({"error": f"unreadable request: {broken}"}, 400)
        return JSONResponse(
            {"state": dict(turn.state), "params": dict(turn.params), "over": turn.over}
        )

    # --- the return sink -----------------------------------------------------------------

    async def return_sink(self, request: Request) -> Response:
        """``GET /return?ReturnValue=...``: record the value; the page tells the tester.

        Only with the ``sink`` option (``serve --sink``): a public server records nothing.
        """
        if not self.sink_enabled:
            return Response("the return sink is off (serve --sink)", 404,
                            media_type="text/plain")
        params = parse_query(request.scope["query_string"])
        self.sink_count += 1
        entry = {"id": self.sink_count, "value": params.get("returnvalue"), "params": params}
        self.sink.append(entry)
        body = self.env.get_template("sink.html").render(entry=entry)
        return Response(body, media_type="text/html", headers={"Cache-Control": "no-store"})

    async def return_log(self, request: Request) -> Response:
        """``GET /return/log?tag=T[&tag=U]``: the values the sink received whose query had
        one of these ``tag``s, oldest first (JSON). A caller reads only the returns it
        tagged itself: there is no list of everything."""
        if not self.sink_enabled:
            return JSONResponse({"error": "the return sink is off (serve --sink)"}, 404)
        tags = set(request.query_params.getlist("tag"))
        if not tags:
            return JSONResponse({"error": "name your tags: /return/log?tag=..."}, 400)
        found = [entry for entry in self.sink if entry["params"].get("tag") in tags]
        return JSONResponse(found, headers={"Cache-Control": "no-store"})

    # --- assets and health ---------------------------------------------------------------

    async def static(self, request: Request) -> Response:
        """``GET /static/<digest>/<namespace>/<file>``: an asset, immutable when current."""
        asset = self.assets.get(request.path_params["namespace"], request.path_params["name"])
        if asset is None:
            return Response("not found", 404, media_type="text/plain")
        current = request.path_params["digest"] == asset.digest
        headers = {
            "Cache-Control": IMMUTABLE if current else "no-cache",
            "ETag": f'"{asset.digest}"',
            "Vary": "Accept-Encoding",
        }
        if f'"{asset.digest}"' in _etags(request.headers.get("if-none-match", "")):
            return Response(status_code=304, headers=headers)
        body = asset.body
        if asset.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
            body = asset.gzipped
            headers["Content-Encoding"] = "gzip"
        return Response(body, media_type=asset.media_type, headers=headers)

    async def healthz(self, request: Request) -> Response:
        """``GET /healthz``: 200 ``{"status": "ok", "sets": [names]}`` while the server runs."""
        return JSONResponse({"status": "ok", "sets": [s.name for s in self.registry]})


def _page(body: bytes, status: int = 200) -> Page:
    return Page(body, '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"', status)


def _holds(header: str, etag: str) -> bool:
    """Whether ``If-None-Match: header`` names ``etag`` or its gzip form."""
    if header == etag:
        return True
    tags = _etags(header)
    return etag in tags or etag[:-1] + '-gz"' in tags


def _etags(header: str) -> set[str]:
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}


class _Holder:
    """The Arbitre, made when the application starts (its store is opened then)."""

    def __init__(self) -> None:
        self.arbitre: Arbitre | None = None

    def __call__(self) -> Arbitre:
        if self.arbitre is None:
            raise RuntimeError("the Arbitre starts with the application's lifespan")
        return self.arbitre


def create_app(
    sets: Iterable[SetInterface] = (),
    *,
    frame_ancestors: str = "*",
    registry: Registry | None = None,
    database: str | None = None,
    public_url: str = "http://127.0.0.1:8000",
    engine_hosts: frozenset[str] | None = None,
    sink: bool = False,
) -> ASGIApp:
    """Return the ASGI application serving every registered Set, and the Arbitre.

    ``sets`` are added after the entry-point group ``tournoyons.interfaces``; ``registry``
    replaces the group altogether. ``frame_ancestors`` is the CSP source list of the hosts
    allowed to embed the pages (default ``*``: any). ``database``: the Arbitre's records
    (a SQLite file, default ``arbitre.sqlite3``, or ``postgresql://...``); ``public_url``:
    this server's base URL as engines reach it (the Referee URL and the built-in engines
    are under it); ``engine_hosts``: when given, the only hosts engine URLs may name;
    ``sink``: serve the tester's return sink (``/return``, ``/return/log``).
    """
    state = Interfaces(registry if registry is not None else load_registry(sets),
                       frame_ancestors, sink)
    holder = _Holder()
    web = ArbitreWeb(holder, state.env)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await Store.open(database)
        arbitre = Arbitre(state.registry, store, public_url, engine_hosts=engine_hosts)
        holder.arbitre = arbitre
        interrupted = await arbitre.recover()
        if interrupted:
            log.warning("%d game(s) left in progress were ended as interrupted",
                        len(interrupted))
        try:
            yield
        finally:
            await arbitre.close()
            await store.close()

    routes = [
        Route("/", state.root),
        *web.routes(),
        # Pages first: "/{set}/" matches no other route's path ("/return/" and "/healthz/"
        # already named no Set), and the routes are tried in order on every request.
        Route("/{set}/", state.set_page),
        Route("/healthz", state.healthz),
        Route("/return", state.return_sink),
        Route("/return/log", state.return_log),
        Route("/tester/{set}/{action:str}", state.tester_turn, methods=["POST"]),
        Route("/static/{digest}/{namespace}/{name:path}", state.static),
        Route("/{set}", state.set_page),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.arbitre_holder = holder
    return SecurityHeaders(app, frame_ancestors)
