"""Registered graphical interfaces (issue 24): their pages and their JSON API.

Routes:

- ``GET /interfaces``: ours (built-in, listed first) and the registered ones, and the form
  to register one; ``POST /interfaces`` registers it (303 to its page, whose address
  carries the edit token; 400 with the form refilled and the error shown).
- ``GET /interfaces/<id>``: an interface, a link to watch a game of each of its Sets
  through it, the interface check's form (when the server has a Chromium) and, for a
  registered one, the forms to edit, retire or bring it back (``POST /interfaces/<id>``,
  ``action`` ``edit``, ``retire``, ``unretire``, with ``token``).
- ``POST /api/interfaces`` ``{"name", "url", "sets": [...]}`` -> 201 the interface and its
  ``edit_token`` (shown this once); ``GET /api/interfaces``: every interface, ours first;
  ``GET /api/interfaces/<id>``; ``POST /api/interfaces/<id>`` (``token`` and any of
  ``name``, ``url``, ``sets``, ``retired``; 403 without the right token, 404 no such).

Bad input is answered 400 ``{"error"}`` (a page: the form with the error) and stores
nothing.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import jinja2
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.guis import NO_SUCH, WRONG_TOKEN, interface_json
from tournoyons_gui.arbitre.match import GameError
from tournoyons_gui.arbitre.web.common import NO_STORE, Part, read_body, read_form, read_json

__all__ = ["InterfacePages"]

#: The status of each refusal a change can meet; anything else is 400.
_STATUS = {NO_SUCH: 404, WRONG_TOKEN: 403}


def _values(pairs: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """Return a registration form's values: name, url, sets (a list)."""
    first = {name: value for name, value in reversed(pairs)}
    return {
        "name": first.get("name", ""),
        "url": first.get("url", ""),
        "sets": [value for name, value in pairs if name == "sets" and value],
    }


def _text(data: dict[str, Any], name: str) -> str:
    """Return the JSON field ``name`` as text (``""`` when absent); raise
    :class:`GameError` for a number, a list, an object or ``null``."""
    raw = data.get(name, "")
    if not isinstance(raw, str):
        raise GameError(f"{name} is a string")
    return raw


def _strings(raw: Any, name: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise GameError(f"{name} is a list of strings")
    return list(raw)


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
        """``GET``: the interfaces and the registration form; ``POST``: register one."""
        values: dict[str, Any] = {"name": "", "url": "", "sets": []}
        if request.method == "POST":
            try:
                values = _values(await read_form(request))
                row = await self.arbitre.interfaces.register(
                    values["name"], values["url"], values["sets"]
                )
            except GameError as refused:
                return await self._listing(values, str(refused), 400)
            # The edit token, in the page's address: the person who registered keeps it.
            query = urllib.parse.urlencode({"token": row.secret})
            return RedirectResponse(f"/interfaces/{urllib.parse.quote(row.id)}?{query}", 303)
        return await self._listing(values, "", 200)

    async def _listing(self, values: Mapping[str, Any], error: str, status: int) -> Response:
        return self.html(
            "arbitre/interfaces.html",
            status,
            interfaces=await self.arbitre.interfaces.listed(),
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
        values: dict[str, Any] | None = None
        token = ""
        try:
            pairs = await read_form(request)
            action = dict(pairs).get("action", "edit")
            token = dict(pairs).get("token", "")[:40]
            service = self.arbitre.interfaces
            if action in ("retire", "unretire"):
                await service.update(interface_id, token=token, retired=action == "retire")
            elif action == "edit":
                values = _values(pairs)
                await service.update(interface_id, token=token, **values)
            else:
                raise GameError(f"no action {action!r}")
        except GameError as refused:
            status = _STATUS.get(str(refused), 400)
            if status == 404:
                return self.html("arbitre/missing.html", 404)
            return await self._one(interface_id, values, str(refused), status, token)
        query = urllib.parse.urlencode({"token": token})
        return RedirectResponse(f"/interfaces/{urllib.parse.quote(interface_id)}?{query}", 303)

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
            listed = await self.arbitre.store.list_games(set_name=set_name, per_page=1)
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
        """``GET``: every interface, ours first; ``POST``: register one (201)."""
        service = self.arbitre.interfaces
        if request.method == "GET":
            rows = await service.listed()
            return JSONResponse([interface_json(r) for r in rows], headers=NO_STORE)
        try:
            data = read_json(await read_body(request))
            if not isinstance(data, dict):
                raise GameError("send a JSON object {name, url, sets}")
            row = await service.register(
                _text(data, "name"), _text(data, "url"), _strings(data.get("sets", []), "sets")
            )
        except GameError as refused:
            return JSONResponse({"error": str(refused)}, 400)
        # The edit token is shown once, to whoever registered the interface.
        return JSONResponse({**interface_json(row), "edit_token": row.secret}, 201)

    async def api_one(self, request: Request) -> Response:
        """``GET``: an interface; ``POST``: change its registration."""
        service = self.arbitre.interfaces
        interface_id = request.path_params["interface_id"]
        if request.method == "GET":
            found = await service.find(interface_id)
            if found is None:
                return JSONResponse({"error": NO_SUCH}, 404)
            return JSONResponse(interface_json(found), headers=NO_STORE)
        try:
            data = read_json(await read_body(request))
            if not isinstance(data, dict):
                raise GameError("send a JSON object")
            changes: dict[str, Any] = {}
            for name in ("name", "url"):
                if name in data:
                    changes[name] = _text(data, name)
            if "sets" in data:
                changes["sets"] = _strings(data["sets"], "sets")
            if "retired" in data:
                if not isinstance(data["retired"], bool):
                    raise GameError("retired is true or false")
                changes["retired"] = data["retired"]
            token = data.get("token")
            row = await service.update(
                interface_id, token=token if isinstance(token, str) else "", **changes
            )
        except GameError as refused:
            return JSONResponse({"error": str(refused)}, _STATUS.get(str(refused), 400))
        return JSONResponse(interface_json(row))
