"""The one path of every registration, engines and graphical interfaces alike (they
were near-copies): register, change with the edit token, list a page at a time,
through the JSON API and through the pages' forms.

A kind of registration (:class:`Kind`) says only what differs: its fields, its service's
``register`` and ``update``, its JSON, what is shown once at registration (the edit token,
an engine's key). Everything else is here:

- ``POST /api/<plural>`` (JSON): 201 the registration and its secrets, shown this once;
  400 ``{"error"}`` for bad input (a field of the wrong type, a name taken, a URL refused
  ...), nothing stored.
- ``POST /api/<plural>/<id>`` (JSON with ``token`` and the fields to change): 200, 403
  without the right token, 404 for no such id, 400 otherwise.
- ``GET /api/<plural>[?after=CURSOR][&limit=N]``: a page by name, ``Link`` to the next.
- ``POST /<plural>`` (a form): 303 to ``/<plural>/<id>?token=...`` (the person who
  registered keeps the token in that address); the form again with the error (400).
- ``POST /<plural>/<id>`` (``action`` ``edit``, ``retire`` or ``unretire``, ``token``): 303
  to the same address; the page again with the error (403 wrong token, 400), a 404 page.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from tournoyons_gui.arbitre.match import GameError, Taken
from tournoyons_gui.arbitre.paging import CursorError
from tournoyons_gui.arbitre.tournaments import TournamentError
from tournoyons_gui.arbitre.web.bodies import Body, changes, parse
from tournoyons_gui.arbitre.web.common import read_body, read_form, refusal

__all__ = [
    "MAX_BODY",
    "WRONG_TOKEN",
    "Kind",
    "Refill",
    "RefillOne",
    "form_change",
    "form_register",
    "whole_number",
]

#: The largest body a registration's request may have.
MAX_BODY = 64 * 1024
#: The error of a change asked without the edit token (engines' and interfaces' alike).
WRONG_TOKEN = "wrong edit token"
#: What a registration's service refuses with (its message fit to show).
Refused = (TournamentError, GameError, CursorError)
#: Renders the registration form again with its values, an error and a status.
Refill = Callable[[Mapping[str, Any], str, int], Awaitable[Response]]
#: Renders a registration's page again with the values of its edit form (``None``: as
#: registered), an error, a status and the edit token given.
RefillOne = Callable[[Mapping[str, Any] | None, str, int, str], Awaitable[Response]]


@dataclass(frozen=True)
class Kind:
    """A kind of registration: its ``noun`` (``engine``), its pages' ``path``
    (``/engines``), its service's ``register(**fields)`` and ``update(id, token=...,
    **changes)`` (each raising a :data:`Refused` error; :data:`WRONG_TOKEN` and
    ``not_found`` are 403 and 404), ``to_json(row)``, ``shown_once(row)`` (the secrets of
    a new registration); the JSON bodies of a ``registration`` and of a ``change``
    (:mod:`.bodies`: their field names are the service's arguments) and the forms' fields:
    ``texts`` (form name -> field), ``flags`` (form name -> field, a checkbox),
    ``choices`` (form name -> field: ``yes`` true, ``no`` false, anything else left as it
    is), ``numbers`` (form name -> field: a whole number, blank left as it is);
    ``changed(body, changes)`` adds a kind's own changes (an engine's ``renew_key``) and
    returns what the answer shows of them."""

    noun: str
    path: str
    not_found: str
    register: Callable[..., Awaitable[Any]]
    update: Callable[..., Awaitable[Any]]
    to_json: Callable[[Any], dict[str, Any]]
    shown_once: Callable[[Any], dict[str, Any]]
    registration: type[Body]
    change: type[Body]
    texts: Mapping[str, str] = field(default_factory=lambda: {"name": "name", "url": "url"})
    flags: Mapping[str, str] = field(default_factory=dict)
    choices: Mapping[str, str] = field(default_factory=dict)
    numbers: Mapping[str, str] = field(default_factory=dict)
    changed: Callable[[Body, dict[str, Any]], dict[str, Any]] = lambda _body, _changes: {}

    def status(self, refused: Exception) -> int:
        """Return the status of a refusal: 404 no such registration, 403 wrong token, 409
        a name taken (:class:`~tournoyons_gui.arbitre.match.Taken`), 400."""
        if isinstance(refused, Taken):
            return 409
        return {self.not_found: 404, WRONG_TOKEN: 403}.get(str(refused), 400)

    # --- the JSON API ------------------------------------------------------------------

    async def api_register(self, request: Request) -> Response:
        """``POST /api/<plural>``: register (201 with the secrets shown once) or 400."""
        try:
            body = parse(self.registration, await read_body(request, MAX_BODY))
            row = await self.register(**body.model_dump())
        except Refused as refused:
            return refusal(refused, self.status(refused))
        return JSONResponse({**self.to_json(row), **self.shown_once(row)}, 201)

    async def api_change(self, request: Request, row_id: str) -> Response:
        """``POST /api/<plural>/<id>``: change a registration with its edit token."""
        try:
            body = parse(self.change, await read_body(request, MAX_BODY))
            given = changes(body)
            shown = self.changed(body, given)
            row = await self.update(row_id, token=getattr(body, "token", ""), **given)
        except Refused as refused:
            return refusal(refused, self.status(refused))
        return JSONResponse({**self.to_json(row), **{k: v(row) for k, v in shown.items()}})

    # --- the forms ---------------------------------------------------------------------

    def form_values(self, pairs: Sequence[tuple[str, str]]) -> dict[str, Any]:
        """Return a registration form's values: its texts (the first of each name), its
        Sets (a list), its flags (checkboxes: ``on``), its choices (``yes``, ``no``; else
        ``None``: left as it is) and numbers (their text, ``None`` when blank: the kind's
        service reads them, :func:`whole_number`)."""
        first = {name: value for name, value in reversed(pairs)}
        values: dict[str, Any] = {target: first.get(target, "") for target in self.texts.values()}
        values["sets"] = [value for name, value in pairs if name == "sets" and value]
        for target in self.flags.values():
            if target != "retired":
                values[target] = first.get(target, "") in ("on", "1", "true")
        for name, target in self.choices.items():
            values[target] = {"yes": True, "no": False}.get(first.get(name, ""))
        for name, target in self.numbers.items():
            values[target] = first.get(name, "").strip() or None
        return values

    def blank(self) -> dict[str, Any]:
        """Return an empty registration form's values."""
        return self.form_values([])

    def address(self, row_id: str, token: str) -> str:
        """Return a registration's page with its edit token in the address."""
        query = urllib.parse.urlencode({"token": token})
        return f"{self.path}/{urllib.parse.quote(row_id)}?{query}"


def whole_number(value: Any, field: str) -> int | None:
    """Return a number field's value: ``None`` as it is, a JSON integer, or a form's text
    read as a whole number; raise :class:`~tournoyons_gui.arbitre.match.GameError`
    naming ``field`` otherwise."""
    if value is None or type(value) is int:
        return value
    text = str(value).strip()
    if text.isascii() and text.lstrip("-").isdigit() and len(text) <= 9:
        return int(text)
    raise GameError(f"{field} is a whole number")


async def form_register(kind: Kind, request: Request, refill: Refill) -> Response:
    """``POST /<plural>``: register from the form; 303 to its page (the edit token in the
    address), or the form again with the error (400)."""
    values = kind.blank()
    try:
        values = kind.form_values(await read_form(request, MAX_BODY))
        row = await kind.register(**values)
    except Refused as refused:
        return await refill(values, str(refused), 400)
    return RedirectResponse(kind.address(row.id, row.secret), 303)


async def form_change(
    kind: Kind, request: Request, row_id: str, refill: RefillOne, missing: Callable[[], Response]
) -> Response:
    """``POST /<plural>/<id>``: edit, retire or unretire with the edit token; 303 to its
    page, ``missing()`` for no such id, else the page again with the error (the token kept
    in its form; 403 wrong token, 400)."""
    values: dict[str, Any] | None = None
    token = ""
    try:
        pairs = await read_form(request, MAX_BODY)
        action = dict(pairs).get("action", "edit")
        token = dict(pairs).get("token", "")[:40]
        if action in ("retire", "unretire"):
            await kind.update(row_id, token=token, retired=action == "retire")
        elif action == "edit":
            values = kind.form_values(pairs)
            await kind.update(row_id, token=token, **values)
        else:
            raise GameError(f"no action {action!r}")
    except Refused as refused:
        status = kind.status(refused)
        if status == 404:
            return missing()
        return await refill(values, str(refused), status, token)
    return RedirectResponse(kind.address(row_id, token), 303)
