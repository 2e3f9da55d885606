"""The URLs the Arbitre calls: checking an engine's (or a bot's, a referee's, an added
interface's) URL when it is given, writing a request's query in the engine protocol's
order, and holding redirects to the same hosts (decision 13).
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping

__all__ = [
    "MAX_BODY",
    "MAX_REDIRECTS",
    "check_engine_url",
    "engine_url",
    "host_allowed",
    "same_endpoint",
]

#: The most of an answer's body ever read (the tester, a bot, a referee's page).
MAX_BODY = 64 * 1024
#: Redirects followed from one URL given (decision 13).
MAX_REDIRECTS = 5

_SAFE = "-._~:/?*"


def engine_url(url: str, params: Mapping[str, str]) -> str:
    """Return ``url`` with ``params`` appended in order (``&`` when it has a query); ``A-Z
    a-z 0-9 - . _ ~ : / ? *`` are written as they are (decision 3)."""
    query = "&".join(
        f"{name}={urllib.parse.quote(value, safe=_SAFE)}" for name, value in params.items()
    )
    return f"{url}{'&' if '?' in url else '?'}{query}"


def check_engine_url(url: str, allowed_hosts: frozenset[str] | None = None) -> str:
    """Return ``url`` stripped when it is an absolute http(s) URL an engine may have.

    Raises ``ValueError`` for another scheme, no host, a user or password in it (decision
    13), a broken port, more than 2000 characters, or a host outside ``allowed_hosts`` when
    that list is given.
    """
    url = url.strip()
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 (reading it checks it)
    except ValueError as broken:
        raise ValueError(f"not a URL: {broken}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("an engine URL is http:// or https:// with a host")
    if parts.username or parts.password:
        raise ValueError("an engine URL carries no user or password")
    if len(url) > 2000:
        raise ValueError("an engine URL is at most 2000 characters")
    if allowed_hosts is not None and parts.hostname.lower() not in allowed_hosts:
        raise ValueError(f"engines on {parts.hostname} are not allowed on this server")
    return url


def host_allowed(url: str, allowed_hosts: frozenset[str] | None) -> bool:
    """Whether ``url``'s host is one of ``allowed_hosts`` (``None``: any host): redirects
    are held to the same list as the URLs given (decision 13)."""
    if allowed_hosts is None:
        return True
    host = urllib.parse.urlsplit(url).hostname
    return host is not None and host.lower() in allowed_hosts


def same_endpoint(url: str, other: str) -> bool:
    """Whether ``url`` and ``other`` name the same host, port and path (a query aside)."""
    parts, ref = urllib.parse.urlsplit(url), urllib.parse.urlsplit(other)
    return (
        parts.hostname == ref.hostname
        and (parts.port or _port(parts.scheme)) == (ref.port or _port(ref.scheme))
        and parts.path.rstrip("/") == ref.path.rstrip("/")
    )


def _port(scheme: str) -> int:
    return 443 if scheme == "https" else 80
