"""What every part of the Arbitre's web side shares: a page rendered with ``no-store``
headers, a request body read up to a limit, a form or a JSON body decoded from it, a whole
number read from a field, and the games' options read from a JSON object.

A request these helpers refuse raises :class:`~tournoyons_gui.arbitre.match.GameError`
with a message fit to show (the pages show it above their form, the API answers 400
``{"error"}``).
"""

from __future__ import annotations

import contextlib
import json
import re
import urllib.parse
from collections.abc import Callable, Mapping
from typing import Any

import jinja2
from starlette.requests import Request
from starlette.responses import Response

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.match import DEFAULT_BOT_TIMEOUT, DEFAULT_TIMEOUT, GameError, Options

__all__ = [
    "MAX_FORM",
    "NO_STORE",
    "Part",
    "read_body",
    "read_deals",
    "read_form",
    "read_int",
    "read_json",
    "read_options",
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


def read_flag(raw: Any, name: str) -> bool:
    """Return a JSON option that is true or false (absent or ``null``: false); raise
    :class:`GameError` ``"<name> is true or false"`` for anything else (``"yes"``, ``1``)."""
    if raw is None or isinstance(raw, bool):
        return raw is True
    raise GameError(f"{name} is true or false")


def read_json(body: bytes) -> Any:
    """Decode a JSON request body (empty: ``None``); raise :class:`GameError` when it is
    not JSON (nested too deep included) or holds a string that is not Unicode text (a lone
    surrogate such as ``"\\ud800"``: no record, page or answer could carry it)."""
    try:
        data = json.loads(body or b"null")
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise GameError("the body holds a lone surrogate (\\ud800-\\udfff): not text") from None
    except (ValueError, RecursionError):
        raise GameError("the body is not JSON") from None
    return data


async def read_body(request: Request, limit: int = MAX_FORM) -> bytes:
    """Return the request's body; raise :class:`GameError` as soon as it is over ``limit``
    bytes (the rest is not read)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise GameError(f"request body over {limit} bytes")
    return body


async def read_form(request: Request, limit: int = MAX_FORM) -> list[tuple[str, str]]:
    """Return the urlencoded form posted, its names and values in order (blank values
    kept, broken UTF-8 replaced); raise :class:`GameError` over ``limit`` bytes."""
    body = await read_body(request, limit)
    return urllib.parse.parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)


def read_options(raw: Any) -> Options:
    """Return a match's :class:`Options` from a JSON object (``timeout``, ``level``,
    ``wait``, ``init_as_board`` (JSON ``true``), ``person_timeout`` (``null`` or absent: no
    limit), ``bot_timeout``, ``deals`` (``null`` or absent: the Set's default), ``open_table``
    (JSON ``true``), ``seed`` (``null`` or absent: none; a whole number makes the game
    reproducible)); ``None`` gives the defaults. Raise :class:`GameError` for
    another type or a number that is not whole; the ranges are checked by the Arbitre."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise GameError("options is an object")
    person_timeout = raw.get("person_timeout")
    return Options(
        timeout=read_int(raw.get("timeout"), DEFAULT_TIMEOUT, "timeout"),
        level=read_int(raw.get("level"), 1, "level"),
        wait=read_int(raw.get("wait"), 0, "wait"),
        init_as_board=read_flag(raw.get("init_as_board"), "init_as_board"),
        person_timeout=None
        if person_timeout in (None, "")
        else read_int(person_timeout, 0, "person_timeout"),
        bot_timeout=read_int(raw.get("bot_timeout"), DEFAULT_BOT_TIMEOUT, "bot_timeout"),
        deals=read_deals(raw.get("deals")),
        open_table=read_flag(raw.get("open_table"), "open_table"),
        seed=read_deals(raw.get("seed"), "seed"),
    )


def read_deals(raw: Any, name: str = "deals") -> int | None:
    """Return the match option ``deals`` (or another optional whole number, ``name``:
    ``seed``) from a field or a JSON value: ``None`` when missing or blank (the Set's
    default), else a whole number (the Arbitre checks its range); raise
    :class:`GameError` otherwise."""
    if raw is None or not str(raw).strip():
        return None
    return read_int(raw, 0, name)
