"""The move path's HTTP client: aiohttp sessions held to the one outbound policy.

Every engine request, final call, botsarena ``POST`` and built-in engine's callback goes
through a :class:`Calls`: a new connection per call for the engine protocol (its
``Connection: close``), kept connections where the protocol allows them (bots' ``POST``,
our engines' callbacks to a Referee). aiohttp's client (its parser in C) costs a quarter
of httpx's CPU per request on this path (``benchmarks/arbitre.py``'s profile); httpx stays
for every other call (added games' referees, the tester, the interface check), held to
the same policy through :class:`~tournoyons_gui.arbitre.outbound.CheckedTransport`.

Each request (each hop of a redirect, which the caller follows) has its host resolved once
and checked by :meth:`Outbound.address_for`, then is sent to that address, its ``Host``
header and, over TLS, its SNI and certificate check keeping the name; the URL is sent
exactly as given (``yarl``'s ``encoded=True``: the protocol's parameter order and a signed
query stay byte for byte). A signed call (its query's last parameter ``Signature``,
manual VII) carries the signature in the ``X-Tournoyons-Signature`` header too.

Failures are two exceptions of this module, whatever the library raises:
:class:`Unreachable` (no connection: refused by the policy, a name that does not resolve,
a port that refuses, a URL that is not one; decision 12) and :class:`BrokenAnswer` (a
connection, then an answer that is not HTTP, cut, or headers over 16 KiB). Time is the
caller's to bound (``asyncio.timeout``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

from tournoyons_gui.arbitre.outbound import Outbound, OutboundRefused
from tournoyons_gui.arbitre.signing import SIGNATURE_HEADER

if TYPE_CHECKING:
    import aiohttp

__all__ = ["MAX_HEADER", "BrokenAnswer", "Calls", "Reply", "Unreachable"]

#: The longest header line (status line included) an answer may have, bytes.
MAX_HEADER = 16 * 1024
USER_AGENT = "Tournoyons-Arbitre"


class Unreachable(Exception):
    """No connection was made (decision 12): the reason, for the record."""


class BrokenAnswer(Exception):
    """A connection was made and what came back is not a usable HTTP answer."""


class Reply(NamedTuple):
    """An HTTP answer: its ``status``, its ``Location`` header (``None``: none) and at most
    the bytes of body asked for (``b""`` when none were)."""

    status: int
    location: str | None
    body: bytes


class Calls:
    """HTTP calls through one aiohttp session (made at the first call, in the running event
    loop), each connection held to ``outbound`` (``None``: no policy, the benchmark's and
    command-line tools' own calls). ``keepalive``: connections are kept between calls (an
    idle one for 5 s; a kept connection must have its answer read whole to be kept); else
    each call has its own, closed after it."""

    def __init__(self, outbound: Outbound | None, *, keepalive: bool) -> None:
        self.outbound = outbound
        self.keepalive = keepalive
        self._session: aiohttp.ClientSession | None = None

    def _open(self) -> aiohttp.ClientSession:
        import aiohttp

        connector = (
            aiohttp.TCPConnector(limit=1000, limit_per_host=0, keepalive_timeout=5.0)
            if self.keepalive
            else aiohttp.TCPConnector(limit=1000, limit_per_host=0, force_close=True)
        )
        headers = {"User-Agent": USER_AGENT}
        if not self.keepalive:
            headers["Connection"] = "close"
        self._session = aiohttp.ClientSession(
            connector=connector,
            headers=headers,
            skip_auto_headers=("Accept-Encoding",),
            auto_decompress=False,
            cookie_jar=aiohttp.DummyCookieJar(),
            trust_env=False,
            requote_redirect_url=False,
            timeout=aiohttp.ClientTimeout(total=None),
            max_line_size=MAX_HEADER,
            max_field_size=MAX_HEADER,
        )
        return self._session

    async def close(self) -> None:
        """Close the session and its connections."""
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def get(self, url: str, *, read: int = 0) -> Reply:
        """``GET url``; return the answer with at most ``read`` bytes of its body (none by
        default: an engine's answer is not read, and its connection is closed at once)."""
        return await self.request("GET", url, read=read)

    async def post(
        self, url: str, body: bytes, content_type: str = "application/json", *, read: int = 0
    ) -> Reply:
        """``POST body`` to ``url``; return the answer with at most ``read`` bytes of body."""
        return await self.request(
            "POST", url, data=body, headers={"Content-Type": content_type}, read=read
        )

    async def request(
        self,
        method: str,
        url: str,
        *,
        data: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        read: int = 0,
    ) -> Reply:
        """Send one request (no redirect followed) and return its :class:`Reply`; raise
        :class:`Unreachable` or :class:`BrokenAnswer`."""
        import aiohttp
        import yarl

        try:
            target = yarl.URL(url, encoded=True)
            host, port = target.raw_host, target.port
        except (ValueError, TypeError) as broken:
            raise Unreachable(f"InvalidURL: {broken}") from None
        if target.scheme not in ("http", "https") or not host or port is None:
            raise Unreachable(f"UnsupportedProtocol: {url[:100]}")
        sent = dict(headers or {})
        last = target.raw_query_string.rpartition("&")[2]
        if last.startswith("Signature="):  # a signed call (manual VII): the header too
            sent[SIGNATURE_HEADER] = last.removeprefix("Signature=")
        options: dict[str, object] = {}
        if self.outbound is not None:
            try:
                address = await self.outbound.address_for(host, port)
            except OutboundRefused as refused:
                raise Unreachable(f"OutboundRefused: {refused}") from None
            if address != host.strip("[]"):
                sent["Host"] = target.host_port_subcomponent or host
                if target.scheme == "https":
                    options["server_hostname"] = host
                target = target.with_host(address)
        session = self._session or self._open()
        try:
            async with session.request(
                method,
                target,
                data=data,
                headers=sent,
                allow_redirects=False,
                **options,  # type: ignore[arg-type]
            ) as answer:
                body = await _read(answer, read) if read > 0 else b""
                return Reply(answer.status, answer.headers.get("Location"), body)
        except aiohttp.ClientConnectorError as refused:
            raise Unreachable(f"ConnectError: {refused.os_error or refused}") from None
        except (aiohttp.InvalidURL, ValueError) as broken:
            raise Unreachable(f"InvalidURL: {broken}") from None
        except (aiohttp.ClientError, asyncio.IncompleteReadError) as broken:
            raise BrokenAnswer(f"{type(broken).__name__}: {broken}") from None


async def _read(answer: aiohttp.ClientResponse, limit: int) -> bytes:
    """Return at most ``limit`` bytes of ``answer``'s body (the rest is left unread)."""
    data = bytearray()
    while len(data) < limit:
        chunk = await answer.content.read(limit - len(data))
        if not chunk:
            break
        data += chunk
    return bytes(data)
