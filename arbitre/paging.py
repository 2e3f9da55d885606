"""The lists' cursors: a page of a list is asked with ``?after=<cursor>``, the
cursor naming the position of the last row of the page before, as GitHub's API pages
(``Link: <...?after=...>; rel="next"``).

A cursor is opaque to clients and signed: ``<payload>.<signature>``, both base64url without
padding, the payload the JSON ``[version, list, position...]`` and the signature the first
16 bytes of its HMAC-SHA256 under the database's paging key (the same for every worker of
one database, :meth:`~tournoyons_gui.arbitre.store.Store.paging_key`). ``list`` is a short
digest of the list and its filters (``games|set=reversi|seat=ann``), so a cursor is good
for the list that gave it only. Reading refuses, each with its reason
(:class:`CursorError`, answered 400):

- a cursor this Arbitre did not give (forged, damaged, cut, too long): :data:`FORGED`;
- one given for another list, or the same list with other filters: :data:`OTHER_LIST`;
- one whose position is not one of the list's (a shape or a value it cannot hold, an
  index past the end of a computed list): :data:`OUT_OF_RANGE`.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import hashlib
import hmac
import json
from collections.abc import Sequence
from typing import Any

__all__ = [
    "DEFAULT_LIMIT",
    "FORGED",
    "MAX_CURSOR",
    "MAX_LIMIT",
    "OTHER_LIST",
    "OUT_OF_RANGE",
    "CursorError",
    "Cursors",
    "index_position",
    "newest_position",
    "read_limit",
]

#: The page size of a list when none is asked (``?limit=``), and the largest one.
DEFAULT_LIMIT = 50
MAX_LIMIT = 100
#: The longest cursor read (ours are far shorter).
MAX_CURSOR = 400
#: The cursors' layout; a cursor of another layout is refused as out of range.
VERSION = 1
#: The reasons a cursor is refused.
FORGED = "the cursor was not given by this Arbitre (forged, damaged or cut)"
OTHER_LIST = "the cursor belongs to another list, or to this list with other filters"
OUT_OF_RANGE = "the cursor points outside the list"


class CursorError(ValueError):
    """A cursor or a page size that cannot be read; its message says why (answered 400)."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def read_limit(raw: str | None, default: int = DEFAULT_LIMIT, most: int = MAX_LIMIT) -> int:
    """Return the page size asked (``?limit=``): ``default`` when absent, else a whole
    number from 1 to ``most``; raise :class:`CursorError` otherwise (a blank one too)."""
    if raw is None:
        return default
    text = raw.strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 6 and 1 <= int(text) <= most):
        raise CursorError(f"limit is a whole number from 1 to {most}")
    return int(text)


class Cursors:
    """Makes and reads the cursors of every list under one ``key`` (bytes)."""

    def __init__(self, key: bytes) -> None:
        self.key = key

    @staticmethod
    def list_id(name: str, filters: Sequence[tuple[str, str]] = ()) -> str:
        """Return the identity of list ``name`` with its ``filters`` (name, value) as
        cursors carry it: 8 bytes of its SHA-256, base64url."""
        described = "|".join([name, *(f"{k}={v}" for k, v in filters)])
        return _b64(hashlib.sha256(described.encode("utf-8", "replace")).digest()[:8])

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self.key, payload.encode(), hashlib.sha256).digest()[:16])

    def make(self, list_id: str, position: Sequence[Any]) -> str:
        """Return the cursor of ``position`` (JSON values: the last row's sort key) in the
        list ``list_id`` (:meth:`list_id`)."""
        payload = _b64(json.dumps([VERSION, list_id, *position], separators=(",", ":")).encode())
        return f"{payload}.{self._sign(payload)}"

    def read(self, list_id: str, cursor: str, size: int) -> list[Any]:
        """Return the position a cursor of list ``list_id`` holds (``size`` values); raise
        :class:`CursorError` with the reason (see the module)."""
        if len(cursor) > MAX_CURSOR or cursor.count(".") != 1:
            raise CursorError(FORGED)
        payload, signature = cursor.split(".")
        if not hmac.compare_digest(
            self._sign(payload).encode(), signature.encode("utf-8", "replace")
        ):
            raise CursorError(FORGED)
        try:
            data = json.loads(_unb64(payload))
        except (ValueError, binascii.Error):
            raise CursorError(FORGED) from None
        if not isinstance(data, list) or len(data) < 2 or data[0] != VERSION:
            raise CursorError(OUT_OF_RANGE)
        if data[1] != list_id:
            raise CursorError(OTHER_LIST)
        position = data[2:]
        if len(position) != size:
            raise CursorError(OUT_OF_RANGE)
        return position


def newest_position(position: Sequence[Any]) -> tuple[dt.datetime, str]:
    """Return a newest-first list's position (``[created_at in ISO 8601, id]``) as the
    store reads it; raise :class:`CursorError` (:data:`OUT_OF_RANGE`) for another shape."""
    at, row_id = position
    if not isinstance(at, str) or not isinstance(row_id, str) or len(row_id) > 40:
        raise CursorError(OUT_OF_RANGE)
    try:
        moment = dt.datetime.fromisoformat(at)
    except ValueError:
        raise CursorError(OUT_OF_RANGE) from None
    if moment.tzinfo is None:
        raise CursorError(OUT_OF_RANGE)
    return moment, row_id


def index_position(position: Sequence[Any], length: int) -> int:
    """Return a computed list's position (``[the index of the next row]``, from 1: the
    first page has no cursor) when the list of ``length`` rows has it; raise
    :class:`CursorError` (:data:`OUT_OF_RANGE`) otherwise."""
    (index,) = position
    if type(index) is not int or not 1 <= index < max(1, length):
        raise CursorError(OUT_OF_RANGE)
    return index
