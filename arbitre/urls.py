"""The URLs the Arbitre calls: checking an engine's (or a bot's, a referee's, an added
interface's) URL when it is given, writing a request's query in the engine protocol's
order, and holding redirects to the same hosts (decision 13).
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Mapping

from tournoyons_gui.arbitre.outbound import Outbound

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
#: A value made only of what is written as it is (most: numbers, Trays, ids, URLs).
_PLAIN = re.compile(r"[A-Za-z0-9\-._~:/?*]*")


def engine_url(url: str, params: Mapping[str, str]) -> str:
    """Return ``url`` with ``params`` appended in order (``&`` when it has a query); ``A-Z
    a-z 0-9 - . _ ~ : / ? *`` are written as they are (decision 3), the rest escaped."""
    plain, quote = _PLAIN.fullmatch, urllib.parse.quote
    query = "&".join(
        f"{name}={value if plain(value) else quote(value, safe=_SAFE)}"
        for name, value in params.items()
    )
    return f"{url}{'&' if '?' in url else '?'}{query}"


def check_engine_url(
    url: str, allowed_hosts: Outbound | frozenset[str] | None = None, what: str = "an engine URL"
) -> str:
    """Return ``url`` stripped when it is an absolute http(s) URL an engine (a bot, a
    referee, an interface) may have under the outbound policy ``allowed_hosts``
    (:meth:`Outbound.check_url`; a set of hosts is ``--engine-hosts`` alone, ``None`` a
    loopback server's policy).

    Raises ``ValueError`` for another scheme, no host, a user or password in it (decision
    13), a broken port, more than 2000 characters, this server's own URL, an internal host
    on a public server, or a host outside ``--engine-hosts``.
    """
    policy = (
        allowed_hosts
        if isinstance(allowed_hosts, Outbound)
        else Outbound(engine_hosts=allowed_hosts)
    )
    return policy.check_url(url, what)


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
