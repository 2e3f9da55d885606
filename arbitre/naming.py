"""Default names of engines given by URL: what a tournament calls an entrant, and what an
engine is registered as, when nobody named it.

A name is ``host[:port][/path]``: the host always; the port and the path only when they
tell apart engines of the same host among those named together, so that two engines of one
machine are never both called ``127.0.0.1``, and a lone engine is just its host.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["MAX_NAME", "engine_names"]

# Room for the " 2" ... " 99" that tells apart two entrants (or registrations) of one name
# within the 60 characters a name may have.
MAX_NAME = 50

_DEFAULT_PORTS = {"http": 80, "https": 443}


class _Parts(NamedTuple):
    host: str
    port: str
    path: str


def _parts(url: str) -> _Parts:
    """Split ``url`` into its host (IPv6 in brackets), its port (empty when it is none or the
    scheme's default) and its path without its outer slashes; never raises."""
    parts = urllib.parse.urlsplit(url.strip())
    host = parts.hostname or "engine"
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:  # the URL's check says so later, with the reason
        port = None
    shown = "" if port is None or port == _DEFAULT_PORTS.get(parts.scheme.lower()) else str(port)
    return _Parts(host, shown, parts.path.strip("/"))


def engine_names(urls: Sequence[str]) -> list[str]:
    """Return a default name for each of ``urls`` (engine URLs named together, one name per
    URL, in order): ``host``, with ``:port`` when the ports of that host's URLs differ and
    ``/path`` when their paths do.

    ``["http://127.0.0.1:8001/tictactoe/", "http://127.0.0.1:8080/"]`` gives
    ``["127.0.0.1:8001/tictactoe", "127.0.0.1:8080"]``; ``["http://a.example/x",
    "http://b.example/y"]`` gives ``["a.example", "b.example"]``. URLs that differ in none
    of the three (the same engine twice, or only the scheme or the query apart) get the same
    name: the caller tells them apart. A name longer than :data:`MAX_NAME` characters is
    cut to it. A malformed URL gets a name all the same (``engine`` when it has no host).
    """
    split = [_parts(url) for url in urls]
    ports: dict[str, set[str]] = {}
    paths: dict[str, set[str]] = {}
    for host, port, path in split:
        ports.setdefault(host, set()).add(port)
        paths.setdefault(host, set()).add(path)
    names = []
    for host, port, path in split:
        name = host
        if len(ports[host]) > 1 and port:
            name += f":{port}"
        if len(paths[host]) > 1 and path:
            name += f"/{path}"
        names.append(name[:MAX_NAME])
    return names
