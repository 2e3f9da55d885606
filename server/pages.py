"""The interface pages: ``query string -> Context -> the Set's build() -> its template``.

Nothing here knows a game: the same for every Set in the registry (interface protocol
sections 1-3 and 6). A page depends on its query string alone, so rendered pages are kept
in memory by ``(Set key, raw query string)``: many spectators of one game ask for the same
page. A name that is no Set answers 404 with the list of Sets.
"""

from __future__ import annotations

import logging
import urllib.parse
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace

import jinja2
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tournoyons_gui.interfaces.plugin import SetInterface, View, seat_count
from tournoyons_gui.interfaces.protocol import (
    Method,
    ParamError,
    error_codes,
    parse_query,
    read_context,
)
from tournoyons_gui.interfaces.registry import Registry
from tournoyons_gui.interfaces.runtime import RuntimeConfig
from tournoyons_gui.server.http import Page, make_page, respond

__all__ = ["PAGE_CACHE_CONTROL", "PAGE_CACHE_SIZE", "Pages"]

log = logging.getLogger(__name__)

# An interface page depends on its query string alone: a shared cache may keep it a while.
PAGE_CACHE_CONTROL = "public, max-age=60"
# Rendered pages kept in memory, least recently asked dropped first.
PAGE_CACHE_SIZE = 256


class Pages:
    """The Sets' pages and the routes that answer them.

    ``env`` renders the templates (:func:`tournoyons_gui.server.environment.make_environment`);
    ``home``
    answers ``GET /`` without a query string (the tester).
    """

    def __init__(
        self, registry: Registry, env: jinja2.Environment, home: Callable[[Request], Response]
    ) -> None:
        self.registry = registry
        self.env = env
        self.home = home
        self.cache: OrderedDict[tuple[str, bytes], Page] = OrderedDict()

    def render(self, interface: SetInterface | None, query: bytes) -> Page:
        """Render the page of ``interface`` (``None``: the empty page) for ``query``.

        Never raises on the query: an unreadable parameter, a Method the Set does not draw
        (drawn as ``Standard``) or a Set whose ``build()`` raises (logged; the empty page)
        shows as ``data-error`` codes on the page.
        """
        seats = 2 if interface is None else seat_count(interface.rules)
        ctx = read_context(parse_query(query), seats)
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

        runtime = RuntimeConfig.from_view(ctx, view, method, interface.name if interface else "")
        template = interface.template if interface and view else "_empty.html"
        body = self.env.get_template(template).render(
            ctx=ctx,
            view=view,
            interface=interface,
            method=method.value,
            config=runtime.to_json(),
            errors=error_codes(errors),
            asks=runtime.asks,
        )
        return make_page(body.encode())

    def cached(self, interface: SetInterface | None, query: bytes) -> Page:
        """Return the page for ``query``, from the in-memory cache when already rendered."""
        key = (interface.key if interface else "", query)
        page = self.cache.get(key)
        if page is None:
            page = self.render(interface, query)
            self.cache[key] = page
            if len(self.cache) > PAGE_CACHE_SIZE:
                self.cache.popitem(last=False)
        else:
            self.cache.move_to_end(key)
        return page

    def unknown_set(self, request: Request, name: str) -> Response:
        """Answer 404 with the list of Sets, each linked with the same query string."""
        query = _query_text(request)
        body = self.env.get_template("unknown_set.html").render(
            name=name, sets=list(self.registry), query=f"?{query}" if query else ""
        )
        return respond(request, make_page(body.encode(), 404), "no-cache")

    async def root(self, request: Request) -> Response:
        """``GET /``: the tester without a query string, else the page of ``Set``."""
        query: bytes = request.scope["query_string"]
        if not query:
            return self.home(request)
        name = read_context(query).set_name
        interface = self.registry.get(name)
        if name and interface is None:
            return self.unknown_set(request, name)
        return respond(request, self.cached(interface, query), PAGE_CACHE_CONTROL)

    async def set_page(self, request: Request) -> Response:
        """``GET /<set>/``: the page of that Set, whatever ``Set`` the query says."""
        name = request.path_params["set"]
        interface = self.registry.get(name)
        if interface is None:
            return self.unknown_set(request, name)
        query: bytes = request.scope["query_string"]
        return respond(request, self.cached(interface, query), PAGE_CACHE_CONTROL)

    async def healthz(self, request: Request) -> Response:
        """``GET /healthz``: 200 ``{"status": "ok", "sets": [names]}`` while the server runs."""
        return JSONResponse({"status": "ok", "sets": [s.name for s in self.registry]})


# What stays as it is when a query that is not UTF-8 is percent-encoded for a link.
_QUERY_SAFE = "!$%&'()*+,-./:;=?@[]_~"


def _query_text(request: Request) -> str:
    """Return the request's query string as text for a link: Starlette's reading when it is
    UTF-8, else percent-encoded (a link then sends the same bytes back)."""
    try:
        return request.url.query
    except UnicodeDecodeError:
        return urllib.parse.quote(request.scope["query_string"], safe=_QUERY_SAFE)
