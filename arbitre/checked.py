"""The outbound policy's httpx transport (:class:`CheckedTransport`), for the calls still
made with httpx (tester mode, added games' referees, engines behind a school's wall, the
interface check); the move path's calls go through aiohttp
(:class:`~tournoyons_gui.arbitre.client.Calls`). Imported when first needed, so that a
process that makes no such call does not load httpx.
"""

from __future__ import annotations

import httpx

from tournoyons_gui.arbitre.outbound import Outbound, OutboundRefused, _address
from tournoyons_gui.arbitre.signing import SIGNATURE_HEADER

__all__ = ["CheckedTransport", "RefusedConnect"]


class RefusedConnect(httpx.ConnectError, OutboundRefused):
    """A call the outbound policy refused, as httpx's callers see it: both an
    ``httpx.ConnectError`` (unreachable) and an :class:`OutboundRefused`."""


class CheckedTransport(httpx.AsyncBaseTransport):
    """An httpx transport that connects only to addresses :class:`Outbound` allows: each
    request (each hop of a redirect, whoever follows it) has its host resolved once and
    checked, then is sent to that address with its ``Host`` header and, over TLS, its SNI
    and certificate check on the name. A signed call (its query's last parameter
    ``Signature``, :mod:`~tournoyons_gui.arbitre.signing`) carries the signature in the
    ``X-Tournoyons-Signature`` header too."""

    def __init__(self, policy: Outbound, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.policy = policy
        self.inner = inner or httpx.AsyncHTTPTransport(
            limits=httpx.Limits(max_connections=1000, max_keepalive_connections=0),
            trust_env=False,
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` to its checked address; raise :class:`OutboundRefused`."""
        url = request.url
        host = url.host
        port = url.port or (443 if url.scheme == "https" else 80)
        try:
            address = await self.policy.address_for(host, port)
        except OutboundRefused as refused:
            raise RefusedConnect(str(refused), request=request) from None
        last = url.query.rpartition(b"&")[2]
        if last.startswith(b"Signature="):  # a signed call (manual VII): the header too
            request.headers[SIGNATURE_HEADER] = last.removeprefix(b"Signature=").decode()
        if url.scheme == "https" and _address(host) is None:
            request.extensions = {**request.extensions, "sni_hostname": host}
            # Pooled by address, a kept TLS connection would serve another name on the
            # same address without its certificate checked: one connection per request.
            request.headers["Connection"] = "close"
        request.url = url.copy_with(host=address)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        """Close the transport that sends."""
        await self.inner.aclose()
