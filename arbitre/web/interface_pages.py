"""Registered graphical interfaces: their pages and their JSON API.

Routes:

- ``GET /interfaces[?after=CURSOR]``: ours (built-in, on the first page) and a page of the
  registered ones by name, and the form to register one; ``POST /interfaces`` registers it
  (303 to its page, whose address carries the edit token; 400 with the form refilled and
  the error shown).
- ``GET /interfaces/<id>``: an interface, a link to watch a game of each of its Sets
  through it, the interface check's form (when the server has a Chromium) and, for a
  registered one, the forms to edit, retire or bring it back (``POST /interfaces/<id>``,
  ``action`` ``edit``, ``retire``, ``unretire``, with ``token``).
- ``POST /api/interfaces`` ``{"name", "url", "sets": [...]}`` -> 201 the interface and its
  ``edit_token`` (shown this once); ``GET /api/interfaces``: ours, then a page of the
  registered ones by name (``?after=``, ``?limit=``, ``Link`` to the next);
  ``GET /api/interfaces/<id>``; ``POST /api/interfaces/<id>`` (``token`` and any of
  ``name``, ``url``, ``sets``, ``retired``; 403 without the right token, 404 no such).

Registering and changing go through the one registration path engines take too
(:mod:`.registering`). Bad input is answered 400 ``{"error"}`` (a page: the form with the
error) and stores nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import jinja2
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.guis import NO_SUCH, Interface, Interfaces, interface_json
from tournoyons_gui.arbitre.paging import OUT_OF_RANGE, CursorError
from tournoyons_gui.arbitre.web.bodies import InterfaceChange, InterfaceRegistration
from tournoyons_gui.arbitre.web.common import NO_STORE, Part
from tournoyons_gui.arbitre.web.paging import asked_page, listed_json, next_path
from tournoyons_gui.arbitre.web.registering import Kind, form_change, form_register

__all__ = ["InterfacePages"]


def interface_kind(interfaces: Interfaces) -> Kind:
    """Return the registered interfaces as a kind of registration (the one path of
    :mod:`~tournoyons_gui.arbitre.web.registering`): ``name``, ``url``, ``sets``; the edit
    token is shown once."""
    return Kind(
        noun="interface",
        path="/interfaces",
        not_found=NO_SUCH,
        register=interfaces.register,
        update=interfaces.update,
        to_json=interface_json,
        shown_once=lambda row: {"edit_token": row.secret},
        registration=InterfaceRegistration,
        change=InterfaceChange,
    )


class InterfacePages(Part):
    """The interfaces' pages and API (see the module); ``can_check()`` says whether this
    server runs interface checks (it has a Chromium)."""

    def __init__(
        self,
        holder: Callable[[], Arbitre],
        env: jinja2.Environment,
        *,
        can_check: Callable[[], bool] = lambda: False,
    ) -> None:
        super().__init__(holder, env)
        self.can_check = can_check

    def routes(self) -> list[Route]:
        """Return the routes."""
        return [
            Route("/interfaces", self.listing, methods=["GET", "POST"]),
            Route("/interfaces/{interface_id}", self.one, methods=["GET", "POST"]),
            Route("/api/interfaces", self.api_listing, methods=["GET", "POST"]),
            Route("/api/interfaces/{interface_id}", self.api_one, methods=["GET", "POST"]),
        ]

    async def _set_names(self) -> list[str]:
        await self.arbitre.load_added()
        return [s.name for s in self.arbitre.playable()]

    # --- pages -------------------------------------------------------------------------

    async def listing(self, request: Request) -> Response:
        """``GET``: ours, a page of the registered interfaces and the registration form;
        ``POST``: register one."""
        kind = interface_kind(self.arbitre.interfaces)
        if request.method == "POST":
            return await form_register(
                kind,
                request,
                lambda values, error, status: self._listing(request, values, error, status),
            )
        return await self._listing(request, kind.blank(), "", 200)

    async def _page(self, request: Request) -> tuple[list[Interface], str | None]:
        """Return ours (on the first page) and the page of registered interfaces
        ``request`` asks, and the next page's cursor; raise :class:`CursorError`."""
        asked = await asked_page(request, self.arbitre.store, "interfaces", size=1)
        after = asked.after[0] if asked.after else None
        if after is not None and not isinstance(after, str):
            raise CursorError(OUT_OF_RANGE)
        page = await self.arbitre.interfaces.page(after=after, limit=asked.limit)
        cursor = asked.cursor([page.rows[-1].name]) if page.more else None
        return page.rows, cursor

    async def _listing(
        self, request: Request, values: Mapping[str, Any], error: str, status: int
    ) -> Response:
        try:
            rows, cursor = await self._page(request)
        except CursorError as refused:
            return self.html("arbitre/bad_page.html", 400, error=refused, first_page="/interfaces")
        return self.html(
            "arbitre/interfaces.html",
            status,
            interfaces=rows,
            next_page=next_path(request, cursor) if request.method == "GET" else None,
            first_page="/interfaces" if request.query_params.get("after") else None,
            sets=await self._set_names(),
            values=values,
            error=error,
        )

    async def one(self, request: Request) -> Response:
        """``GET``: an interface and its forms; ``POST``: edit, retire or unretire it."""
        interface_id = request.path_params["interface_id"]
        if request.method == "GET":
            token = request.query_params.get("token", "")[:40]
            return await self._one(interface_id, None, "", 200, token)
        return await form_change(
            interface_kind(self.arbitre.interfaces),
            request,
            interface_id,
            lambda values, error, status, token: self._one(
                interface_id, values, error, status, token
            ),
            lambda: self.html("arbitre/missing.html", 404),
        )

    async def _one(
        self,
        interface_id: str,
        values: Mapping[str, Any] | None,
        error: str,
        status: int,
        token: str,
    ) -> Response:
        found = await self.arbitre.interfaces.find(interface_id)
        if found is None:
            return self.html("arbitre/missing.html", 404)
        games = {}
        for set_name in found.sets:
            listed = await self.arbitre.store.games_page(set_name=set_name, limit=1)
            if listed.games:
                games[set_name] = listed.games[0].id
        return self.html(
            "arbitre/interface.html",
            status,
            interface=found,
            games=games,
            sets=await self._set_names(),
            values=values or {"name": found.name, "url": found.url, "sets": list(found.sets)},
            error=error,
            token=token,
            can_check=self.can_check(),
        )

    # --- the API -----------------------------------------------------------------------

    async def api_listing(self, request: Request) -> Response:
        """``GET``: ours, then a page of the registered interfaces by name (``Link`` to
        the next); ``POST``: register one (201)."""
        if request.method == "POST":
            return await interface_kind(self.arbitre.interfaces).api_register(request)
        try:
            rows, cursor = await self._page(request)
        except CursorError as refused:
            return JSONResponse({"error": str(refused)}, 400)
        return listed_json(request, [interface_json(r) for r in rows], cursor, NO_STORE)

    async def api_one(self, request: Request) -> Response:
        """``GET``: an interface; ``POST``: change its registration."""
        interface_id = request.path_params["interface_id"]
        if request.method == "POST":
            return await interface_kind(self.arbitre.interfaces).api_change(request, interface_id)
        found = await self.arbitre.interfaces.find(interface_id)
        if found is None:
            return JSONResponse({"error": NO_SUCH}, 404)
        return JSONResponse(interface_json(found), headers=NO_STORE)
