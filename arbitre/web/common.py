"""What every part of the Arbitre's web side shares: a page rendered with ``no-store``
headers, a request body read up to a limit, a form decoded from it, a whole number read
from a field. JSON bodies are read by the models of :mod:`.bodies`.

A request these helpers refuse raises :class:`~tournoyons_gui.arbitre.match.GameError`
with a message fit to show (the pages show it above their form, the API answers 400
``{"error"}``).
"""

from __future__ import annotations

import contextlib
import re
import urllib.parse
from collections.abc import Callable, Mapping
from typing import Any

import jinja2
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.match import GameError

__all__ = [
    "MAX_FORM",
    "NO_STORE",
    "Part",
    "TooLarge",
    "read_body",
    "read_deals",
    "read_form",
    "read_int",
    "refusal",
    "render",
]

#: The largest form or JSON body a game's or an added Set's request may have.
MAX_FORM = 16 * 1024
#: Pages and records change with every move: never cached.
NO_STORE = {"Cache-Control": "no-store"}


def render(
    env: jinja2.Environment,
    template: str,
    status: int = 200,
    headers: Mapping[str, str] | None = None,
    **context: Any,
) -> Response:
    """Return ``template`` rendered with ``context`` as an HTML response, ``no-store``
    (``headers`` added, or replacing it)."""
    body = env.get_template(template).render(**context)
    return Response(body, status, media_type="text/html", headers={**NO_STORE, **(headers or {})})


class Part:
    """A part of the Arbitre's web side: ``holder()`` returns the running
    :class:`~tournoyons_gui.arbitre.arbitre.Arbitre` (the server starts it with its
    lifespan); ``env`` renders the pages."""

    def __init__(self, holder: Callable[[], Arbitre], env: jinja2.Environment) -> None:
        self.holder = holder
        self.env = env

    @property
    def arbitre(self) -> Arbitre:
        """Return the running Arbitre."""
        return self.holder()

    def html(
        self,
        template: str,
        status: int = 200,
        headers: Mapping[str, str] | None = None,
        **context: Any,
    ) -> Response:
        """Return ``template`` rendered, ``no-store`` (:func:`render`)."""
        return render(self.env, template, status, headers, **context)


#: A whole number as the forms and the JSON API take it: ASCII digits and an optional
#: sign (``int()`` alone would also take ``1_0`` and ``٣``); the ranges are the callers'.
WHOLE = re.compile(r"[+-]?[0-9]+")


def read_int(raw: Any, default: int, name: str, *, strict: bool = True) -> int:
    """Return ``raw`` (a field's text, a JSON number) as a whole number, ``default`` when
    it is missing or blank (spaces only too); for anything else (``true`` included) raise
    :class:`GameError` ``"<name> is a whole number"``, or return ``default`` when not
    ``strict``."""
    text = "" if raw is None else str(raw).strip()
    if not text:
        return default
    if WHOLE.fullmatch(text):
        with contextlib.suppress(ValueError):  # past Python's 4,300 digits
            return int(text)
    if strict:
        raise GameError(f"{name} is a whole number")
    return default


class TooLarge(GameError):
    """A request body over its route's limit: the API answers it ``413``."""


def refusal(refused: Exception, status: int = 400) -> JSONResponse:
    """Return the API's answer to a refused request: ``{"error": <its sentence>}`` with
    ``status``, or ``413`` for a body over its limit (:class:`TooLarge`)."""
    return JSONResponse({"error": str(refused)}, 413 if isinstance(refused, TooLarge) else status)


async def read_body(request: Request, limit: int = MAX_FORM) -> bytes:
    """Return the request's body; raise :class:`TooLarge` as soon as it is over ``limit``
    bytes (the rest is not read)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise TooLarge(f"request body over {limit} bytes")
    return body


async def read_form(request: Request, limit: int = MAX_FORM) -> list[tuple[str, str]]:
    """Return the urlencoded form posted, its names and values in order (blank values
    kept, broken UTF-8 replaced); raise :class:`GameError` over ``limit`` bytes."""
    body = await read_body(request, limit)
    return urllib.parse.parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)


def read_deals(raw: Any, name: str = "deals") -> int | None:
    """Return the match option ``deals`` (or another optional whole number, ``name``)
    from a field or a JSON value: ``None`` when missing or blank (the Set's default), else
    a whole number (the Arbitre checks its range); raise :class:`GameError` otherwise."""
    if raw is None or not str(raw).strip():
        return None
    return read_int(raw, 0, name)
