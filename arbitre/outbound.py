"""The one outbound policy: which URLs and addresses the Arbitre may call, so that a
public Arbitre cannot be turned against its host, its network or its users.

Every request the server makes (engines, botsarena bots, added games' referees and
interfaces, the engine tester, the server-run interface check, the built-in engines'
callbacks to a ``Referee``, and the rooms referee's IRC connection through
:meth:`Outbound.create_connection`) goes through :class:`Outbound`:

- **Given** (:meth:`Outbound.check_url`): an http(s) URL without credentials, at most
  2000 characters, never one of this server's own, whatever its path (its public URL, its
  listen address, any loopback spelling of its port: an engine that is the Arbitre's own
  ``/engine-check`` would multiply games, and its own built-in engines, referees and
  Sets' pages are offered as seats and interfaces of their own), on a public server
  never a host whose spelling
  alone shows it internal (``localhost``, ``10.0.0.1``, ``2130706433``, ``[::1]``,
  ``metadata.google.internal`` ...), and within ``--engine-hosts`` when that list is given.
- **Connected** (every hop of every redirect: :class:`~tournoyons_gui.arbitre.client.Calls`
  on the move path, :class:`~tournoyons_gui.arbitre.checked.CheckedTransport` for httpx):
  the name is resolved once, each address checked, and the connection made to the checked address
  (the ``Host`` header and TLS's SNI keep the name), so a name that resolves to a public
  address when given and to ``127.0.0.1`` when called (DNS rebinding) does not pass.

A **public** server (listening, or reached through its public URL, on anything but
loopback) refuses every address that is not globally routable: loopback, private (10/8,
172.16/12, 192.168/16), link-local (169.254/16, ``fe80::/10``), unique-local
(``fc00::/7``), multicast, unspecified (``0.0.0.0``, ``::``), shared and reserved ranges,
and the same inside IPv4-mapped IPv6, unless its name or address is listed in
``--allow-hosts`` (names, addresses or networks such as ``10.1.0.0/16``). A loopback
server, for local development, may call any address but its own.

No call to this server's own port is let through (no amplification: an engine or a referee
that is one of its own URLs would make one request start games that start more): its
built-in engines are ``builtin`` seats, called in process, final calls included.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import re
import socket
import urllib.parse
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

from tournoyons_gui.arbitre.processes import SERVER_REFUSES, is_command

__all__ = [
    "CONTROL",
    "MAX_URL",
    "RESOLVE_TIMEOUT",
    "Outbound",
    "OutboundRefused",
    "internal_address",
    "is_loopback_host",
]

#: The longest URL the Arbitre accepts to call (characters).
MAX_URL = 2000
#: A control character (C0, DEL, C1): no URL the Arbitre calls, stores or frames has one
#: (an HTTP client refuses it, PostgreSQL's text cannot hold a NUL).
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
#: Seconds a name's resolution may take before the call is refused as unreachable.
RESOLVE_TIMEOUT = 5.0
#: Names that are internal whatever they resolve to (cloud metadata, loopback).
INTERNAL_NAMES = re.compile(
    r"(.*\.)?localhost|localhost\.localdomain|metadata|metadata\.google\.internal"
    r"|(.*\.)?internal|(.*\.)?local|instance-data(\..*)?"
)

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
#: Resolves ``(host, port)`` to its addresses (text), as ``getaddrinfo`` would.
Resolver = Callable[[str, int], Awaitable[list[str]]]


class OutboundRefused(Exception):
    """A call the outbound policy refuses: the engine is *unreachable* to the game master
    (decision 12). Through httpx it is also an ``httpx.ConnectError``
    (:class:`~tournoyons_gui.arbitre.checked.RefusedConnect`)."""


@functools.lru_cache(maxsize=4096)
def _address(host: str) -> Address | None:
    """Return ``host`` as an address when it spells one (``127.1``, ``2130706433``,
    ``0x7f000001`` and ``[::1]`` included: what the C library would connect to), IPv4
    inside IPv4-mapped IPv6 unwrapped; ``None`` for a name."""
    host = host.strip("[]")
    try:
        found = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        try:
            found = ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


@functools.lru_cache(maxsize=4096)
def internal_address(address: Address) -> bool:
    """Whether ``address`` is not globally routable: loopback, private, link-local,
    unique-local, multicast, unspecified, shared (100.64/10) or reserved (IPv4-mapped IPv6
    read as its IPv4)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return (
        not address.is_global
        or address.is_multicast
        or address.is_unspecified
        or address.is_loopback
        or address.is_link_local
        or address.is_private
    )


def is_loopback_host(host: str) -> bool:
    """Whether a listen or public host is loopback (``127.0.0.1``, ``::1``, ``localhost``)."""
    if host.lower().strip("[]") in ("localhost", "localhost.localdomain"):
        return True
    address = _address(host)
    return address is not None and address.is_loopback


async def _getaddrinfo(host: str, port: int) -> list[str]:
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(RESOLVE_TIMEOUT):
        found = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def _split_allowed(entries: Iterable[str]) -> tuple[frozenset[str], tuple[Network, ...]]:
    names: set[str] = set()
    networks: list[Network] = []
    for entry in entries:
        entry = entry.strip().lower().strip("[]")
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            names.add(entry)
    return frozenset(names), tuple(networks)


@dataclass
class Outbound:
    """The outbound policy of one server (see the module).

    ``public``: refuse internal addresses (:func:`internal_address`) not allowed;
    ``allowed``: ``--allow-hosts`` names (lower case) and ``networks``; ``engine_hosts``:
    when given, the only hosts a URL may name (``--engine-hosts``, decision 13);
    ``own_hosts`` and ``own_ports``: this server's names and ports (its public URL's and
    its listen address's); ``resolver``: how names are resolved (``getaddrinfo``)."""

    public: bool = False
    allowed: frozenset[str] = frozenset()
    networks: tuple[Network, ...] = ()
    engine_hosts: frozenset[str] | None = None
    own_hosts: frozenset[str] = frozenset()
    own_ports: frozenset[int] = frozenset()
    resolver: Resolver = _getaddrinfo
    _own_addresses: set[Address] | None = field(default=None, repr=False)

    @classmethod
    def for_server(
        cls,
        public_url: str,
        listen: tuple[str, int] | None = None,
        *,
        allow_hosts: Iterable[str] = (),
        engine_hosts: frozenset[str] | None = None,
        public: bool | None = None,
        resolver: Resolver | None = None,
    ) -> Outbound:
        """Return the policy of a server reached at ``public_url`` and listening on
        ``listen`` (host, port; ``None``: the public URL's). ``public`` (default: the
        listen host or the public URL's host is not loopback) chooses the public mode;
        ``allow_hosts``: the ``--allow-hosts`` entries."""
        parts = urllib.parse.urlsplit(public_url)
        url_host = (parts.hostname or "127.0.0.1").lower()
        url_port = parts.port or (443 if parts.scheme == "https" else 80)
        listen_host, listen_port = listen or (url_host, url_port)
        listen_host = listen_host.lower().strip("[]")
        if public is None:
            public = not (is_loopback_host(listen_host) and is_loopback_host(url_host))
        names, networks = _split_allowed(allow_hosts)
        return cls(
            public=public,
            allowed=names,
            networks=networks,
            engine_hosts=engine_hosts,
            own_hosts=frozenset({url_host, listen_host, "localhost"}),
            own_ports=frozenset({url_port, listen_port}),
            resolver=resolver or _getaddrinfo,
        )

    # --- URLs given -------------------------------------------------------------------

    def is_allowed(self, host: str, address: Address | None = None) -> bool:
        """Whether ``host`` (or its ``address``) is listed in ``--allow-hosts``."""
        host = host.lower().strip("[]")
        if host in self.allowed or (address is not None and str(address) in self.allowed):
            return True
        return address is not None and any(address in network for network in self.networks)

    def check_url(self, url: str, what: str = "an engine URL") -> str:
        """Return ``url`` stripped when the Arbitre may call it; raise ``ValueError`` (a
        message naming ``what``) for another scheme than http(s), no host, a user or
        password (decision 13), a broken port, more than 2000 characters, a control
        character (:data:`CONTROL`), this server's own URL, an internal host on a public
        server (unless allowed), or a host outside ``--engine-hosts``; a ``cmd:`` process
        engine with :data:`~tournoyons_gui.arbitre.processes.SERVER_REFUSES` (only the
        command line of ``play`` and ``tournament`` starts one)."""
        url = url.strip()
        if is_command(url):
            raise ValueError(SERVER_REFUSES)
        if CONTROL.search(url):
            raise ValueError(f"{what} has no control character")
        try:
            parts = urllib.parse.urlsplit(url)
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError as broken:
            raise ValueError(f"not a URL: {broken}") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{what} is http:// or https:// with a host")
        if parts.username or parts.password:
            raise ValueError(f"{what} carries no user or password")
        if len(url) > MAX_URL:
            raise ValueError(f"{what} is at most {MAX_URL} characters")
        host = parts.hostname.lower().rstrip(".")
        address = _address(host)
        own = port in self.own_ports and (
            host in self.own_hosts
            or (address is not None and (address.is_loopback or address.is_unspecified))
        )
        if own:
            raise ValueError(
                f"{what} may not be this Arbitre's own {parts.path or '/'}"
                " (its built-in engines are seats of their own: builtin)"
            )
        if self.engine_hosts is not None and host not in self.engine_hosts:
            raise ValueError(f"engines on {parts.hostname} are not allowed on this server")
        internal = (address is not None and internal_address(address)) or bool(
            INTERNAL_NAMES.fullmatch(host)
        )
        if self.public and internal and not self.is_allowed(host, address):
            raise ValueError(f"{what} may not name an internal host ({parts.hostname})")
        return url

    def host_allowed(self, url: str) -> bool:
        """Whether a redirect to ``url`` stays within ``--engine-hosts`` (decision 13);
        addresses are checked when it is called (:meth:`address_for`)."""
        if self.engine_hosts is None:
            return True
        host = urllib.parse.urlsplit(url).hostname
        return host is not None and host.lower() in self.engine_hosts

    # --- connections ------------------------------------------------------------------

    async def own_addresses(self) -> set[Address]:
        """Return this server's addresses (its names resolved once, this host's name)."""
        if self._own_addresses is None:
            found: set[Address] = set()
            for host in {*self.own_hosts, socket.gethostname()}:
                try:
                    texts = [host] if _address(host) else await self.resolver(host, 80)
                except (OSError, TimeoutError):
                    continue
                found.update(a for a in map(_address, texts) if a is not None)
            self._own_addresses = found
        return self._own_addresses

    async def address_for(self, host: str, port: int, *, listed: bool = True) -> str:
        """Return the address to connect to for ``host:port``:
        the name resolved once and every address it gives checked. Raise
        :class:`OutboundRefused` for this server's own port on one of its addresses, an
        internal address on a public server (unless allowed), a host outside
        ``--engine-hosts`` (``listed``: held to that list, as engines, bots, referees and
        interfaces are; the operator's own chat server is not), or a name that does not
        resolve."""
        host = host.lower().strip("[]").rstrip(".")
        literal = _address(host)
        try:
            texts = [str(literal)] if literal is not None else await self.resolver(host, port)
        except (OSError, TimeoutError) as failed:
            raise OutboundRefused(f"{host} does not resolve: {failed}") from None
        addresses = [a for a in map(_address, texts) if a is not None]
        if not addresses:
            raise OutboundRefused(f"{host} does not resolve")
        own = await self.own_addresses()
        for address in addresses:
            if port in self.own_ports and (
                address in own or address.is_loopback or address.is_unspecified
            ):
                raise OutboundRefused("this Arbitre's own URL is not a target")
        if listed and self.engine_hosts is not None and host not in self.engine_hosts:
            raise OutboundRefused(f"{host} is not in this server's --engine-hosts")
        for address in addresses:
            if self.public and internal_address(address) and not self.is_allowed(host, address):
                raise OutboundRefused(f"{host} is an internal address ({address}): refused")
        return str(addresses[0])

    async def create_connection(
        self, protocol: asyncio.BaseProtocol, host: str, port: int, *, listed: bool = True
    ) -> tuple[asyncio.BaseTransport, asyncio.BaseProtocol]:
        """Connect ``protocol`` over TCP to ``host:port`` under the policy (raw TCP clients:
        the rooms referee's chat server): the name resolved once, the checked address
        connected to (``listed``: as :meth:`address_for`); return the transport and the
        protocol as ``loop.create_connection`` does. Raises :class:`OutboundRefused` or
        ``OSError``."""
        address = await self.address_for(host, port, listed=listed)
        loop = asyncio.get_running_loop()
        return await loop.create_connection(lambda: protocol, address, port)
