"""A header timeout for slow clients: uvicorn closes an idle connection only
between requests (``timeout_keep_alive``), so a client sending its request line and
headers a byte at a time (slowloris) would hold a connection for ever. The HTTP protocol
here is uvicorn's httptools protocol that closes a connection whose request headers are
not complete within :data:`HEADER_TIMEOUT` seconds of its start or of the previous
response.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["HEADER_TIMEOUT", "HeaderTimeoutProtocol", "header_timeout_protocol"]

#: Seconds a client has to send a request's line and headers.
HEADER_TIMEOUT = 10.0


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline on each request's headers
    (:attr:`header_timeout` seconds, :data:`HEADER_TIMEOUT` by default)."""

    header_timeout: float = HEADER_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the headers' deadline with the connection."""
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Drop the deadline."""
        self._disarm()
        super().connection_lost(exc)

    def on_headers_complete(self) -> None:
        """The headers came in time: no deadline while the request is served."""
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        """A kept-alive connection's next request has its own deadline."""
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()


def header_timeout_protocol(seconds: float = HEADER_TIMEOUT) -> type[HeaderTimeoutProtocol]:
    """Return the protocol class (uvicorn's ``http=``) with a deadline of ``seconds``."""
    return type("HeaderTimeout", (HeaderTimeoutProtocol,), {"header_timeout": seconds})
