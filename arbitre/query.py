"""One reader of a query string for the engine protocol's incoming calls: engines'
callbacks (``/referee``), persons' returns (``/play``), chapter VI referees' calls and
returns (``/referee/<set>``, an added game's referee answer).

Decision 5: parameter names are case-insensitive (``value``, ``VALUE`` and ``Value`` are
one), the first occurrence of a name wins, ``%``-escapes and ``+`` are decoded as UTF-8
(a broken escape becomes U+FFFD, never an error).
"""

from __future__ import annotations

import urllib.parse

__all__ = ["QueryTooLong", "read_query"]


class QueryTooLong(ValueError):
    """A query string longer than the reader's limit."""


def read_query(query: bytes | str, limit: int | None = None) -> dict[str, str]:
    """Return ``query``'s parameters by lower-cased name, the first occurrence of each
    (decision 5); values decoded, blank values kept. Raises :class:`QueryTooLong` when
    ``query`` has more than ``limit`` bytes (characters for a ``str``)."""
    if limit is not None and len(query) > limit:
        raise QueryTooLong(f"query over {limit} bytes")
    text = query.decode("latin-1") if isinstance(query, bytes) else query
    found: dict[str, str] = {}
    for name, value in urllib.parse.parse_qsl(
        text, keep_blank_values=True, encoding="utf-8", errors="replace"
    ):
        found.setdefault(name.lower(), value)
    return found
