"""A list's page as the web asks for it and links the next: ``?after=<cursor>`` and
``?limit=N`` read from the query (:mod:`~tournoyons_gui.arbitre.paging`), and the next
page: in the API both in the body (``"next"``, the cursor, and ``"next_url"``) and in the
``Link`` header as GitHub's API writes it (``Link: <https://host/api/engines?after=...>;
rel="next"``), in the pages a plain link that works without JavaScript.

A cursor or a limit that cannot be read is answered ``400`` with the reason: the API's
``{"error"}``, a page's message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tournoyons_gui.arbitre.paging import DEFAULT_LIMIT, MAX_LIMIT, CursorError, Cursors, read_limit
from tournoyons_gui.arbitre.store import Store

__all__ = ["Asked", "asked_page", "cursors", "link_header", "listed_json", "next_path"]


async def cursors(store: Store) -> Cursors:
    """Return the cursors of ``store``'s lists (signed with its paging key)."""
    return Cursors(await store.paging_key())


@dataclass(frozen=True)
class Asked:
    """A page asked for: the list's identity (``list_id``), the ``cursors``, the position
    after which it starts (``None``: the first page) and its size."""

    list_id: str
    cursors: Cursors
    after: list[Any] | None
    limit: int

    def cursor(self, position: Sequence[Any]) -> str:
        """Return the cursor of ``position`` in this list."""
        return self.cursors.make(self.list_id, position)


async def asked_page(
    request: Request,
    store: Store,
    name: str,
    filters: Sequence[tuple[str, str]] = (),
    *,
    size: int,
    default: int = DEFAULT_LIMIT,
    most: int = MAX_LIMIT,
) -> Asked:
    """Return the page ``request`` asks of list ``name`` with ``filters`` (its position
    holding ``size`` values); raise :class:`~tournoyons_gui.arbitre.paging.CursorError`
    for a cursor or a limit that cannot be read, or either given twice."""
    for once in ("limit", "after"):
        if len(request.query_params.getlist(once)) > 1:
            raise CursorError(f"give {once} once")
    found = await cursors(store)
    list_id = Cursors.list_id(name, filters)
    limit = read_limit(request.query_params.get("limit"), default, most)
    raw = request.query_params.get("after")
    after = found.read(list_id, raw, size) if raw else None
    return Asked(list_id, found, after, limit)


def next_path(request: Request, cursor: str | None) -> str | None:
    """Return the path and query of the page after this one (``after`` set to ``cursor``,
    the old ``page`` dropped, every other parameter kept), or ``None`` on the last page."""
    if cursor is None:
        return None
    url = request.url.remove_query_params("page").include_query_params(after=cursor)
    return f"{url.path}?{url.query}"


def link_header(request: Request, cursor: str | None) -> dict[str, str]:
    """Return the ``Link`` header naming the next page's absolute URL (none on the last)."""
    if cursor is None:
        return {}
    url = request.url.remove_query_params("page").include_query_params(after=cursor)
    return {"Link": f'<{url}>; rel="next"'}


def listed_json(
    request: Request, rows: list[Any], cursor: str | None, headers: dict[str, str]
) -> Response:
    """Return a page of a list as the API answers it: ``{"rows": [...], "next": <the next
    page's cursor, or null on the last>, "next_url": <its URL, or null>}`` (Datasette's
    shape: a generated client, which drops headers, still finds the next page), with the
    ``Link`` header to the next page when there is one (GitHub's)."""
    link = link_header(request, cursor)
    url = link["Link"][1:].split(">", 1)[0] if link else None
    page = {"rows": rows, "next": cursor, "next_url": url}
    return JSONResponse(page, headers={**headers, **link})
