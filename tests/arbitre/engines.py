"""Engines of the tests' own, on 127.0.0.1, that reproduce real engines' quirks.

A raw asyncio HTTP server (so that it can also send what no framework would: a malformed
status line, an endless body), run in a thread of its own. Each path is one behaviour; all
play TicTacToe (the first free cell) and record every request they receive.

- ``/good``: calls the Referee back **before** answering (as real engines do), then 200.
- ``/answer-first``: answers 200, then calls back 0.2 s later.
- ``/redirect-callback``: answers ``302 Location: <Referee>?Game=..&MoveId=..&Value=..``.
- ``/slash``: ``308`` to ``/slash/``, which is ``/good``.
- ``/late``: calls back 1.5 s after the deadline (TimeOut + 1.5 s).
- ``/never``: never calls back and keeps the connection open.
- ``/twice``: calls back twice, a legal value then another one.
- ``/illegal``: calls back with ``Value=0``.
- ``/malformed``: calls back, then answers a broken status line.
- ``/huge``: calls back, then answers a 10 MB body.
- ``/endless``: calls back, then sends a body that never ends.
- ``/redirects``: redirects to itself, forever; never calls back.
- ``/flood``: sends 200 callbacks with wrong ids, then the right one.
"""

from __future__ import annotations

import asyncio
import threading
import urllib.parse
from dataclasses import dataclass, field

import httpx


@dataclass
class Received:
    """One request an engine received: its path and query parameters (in order)."""

    path: str
    params: list[tuple[str, str]]

    @property
    def query(self) -> dict[str, str]:
        """Return the parameters as a dict (first occurrence)."""
        found: dict[str, str] = {}
        for name, value in self.params:
            found.setdefault(name, value)
        return found


def first_free(tray: str) -> str:
    """Return TicTacToe's first free cell (1-9) on an engine Tray."""
    if len(tray) != 9:
        return "1"
    return str(tray.index("0") + 1) if "0" in tray else "1"


def callback_query(
    params: dict[str, str],
    value: str | None = None,
    move_id: str | None = None,
    game: str | None = None,
) -> str:
    """Return the query of the callback answering the request of ``params``: its Game,
    MoveId and the first free cell of its Tray, unless ``game``, ``move_id``, ``value``
    say otherwise."""
    return urllib.parse.urlencode(
        {
            "Game": params.get("Game", "") if game is None else game,
            "MoveId": params.get("MoveId", "") if move_id is None else move_id,
            "Value": first_free(params.get("Tray", "")) if value is None else value,
        }
    )


def _redirect(status: str, location: str) -> bytes:
    """Return a whole response with no body: ``status`` (code and reason) to ``location``."""
    return (
        f"HTTP/1.1 {status}\r\nLocation: {location}\r\n"
        "Content-Length: 0\r\nConnection: close\r\n\r\n"
    ).encode()


@dataclass
class QuirkyEngines:
    """The server; ``base`` is its URL once :meth:`start` returned."""

    base: str = ""
    received: list[Received] = field(default_factory=list)
    #: The Referee's answer to ``/twice``'s second callback (404: refused).
    second_status: int = 0
    _loop: asyncio.AbstractEventLoop | None = None
    _thread: threading.Thread | None = None
    _server: asyncio.Server | None = None

    def start(self) -> None:
        """Start serving on a free port of 127.0.0.1."""
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            self._server = loop.run_until_complete(
                asyncio.start_server(self._handle, "127.0.0.1", 0)
            )
            port = self._server.sockets[0].getsockname()[1]
            self.base = f"http://127.0.0.1:{port}"
            self._client = httpx.AsyncClient(trust_env=False)
            ready.set()
            loop.run_forever()
            self._server.close()
            for task in asyncio.all_tasks(loop):
                task.cancel()
            loop.run_until_complete(asyncio.sleep(0))
            loop.run_until_complete(self._client.aclose())
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        ready.wait(10)

    def stop(self) -> None:
        """Stop the server."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(5)

    def requests_to(self, path: str) -> list[Received]:
        """Return the requests received on ``path``."""
        return [r for r in self.received if r.path == path]

    async def _callback(
        self,
        params: dict[str, str],
        value: str | None = None,
        move_id: str | None = None,
        game: str | None = None,
    ) -> int:
        referee = params.get("Referee", "")
        query = callback_query(params, value, move_id, game)
        try:
            answer = await self._client.get(f"{referee}?{query}", timeout=10)
            return answer.status_code
        except httpx.HTTPError:
            return 0

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            writer.close()
            return
        target = head.split(b"\r\n", 1)[0].split(b" ")[1].decode()
        parts = urllib.parse.urlsplit(target)
        pairs = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
        self.received.append(Received(parts.path, pairs))
        params = dict(reversed(pairs))
        in_progress = bool(params.get("Referee"))
        try:
            await self._behave(parts.path, params, in_progress, writer)
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def _behave(
        self, path: str, params: dict[str, str], in_progress: bool, writer: asyncio.StreamWriter
    ) -> None:
        ok = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nOK"
        if not in_progress:
            writer.write(ok)
            await writer.drain()
            return
        if path in ("/good", "/slash/"):
            await self._callback(params)
            writer.write(ok)
        elif path == "/answer-first":
            writer.write(ok)
            await writer.drain()
            await asyncio.sleep(0.2)
            await self._callback(params)
        elif path == "/redirect-callback":
            writer.write(_redirect("302 Found", f"{params['Referee']}?{callback_query(params)}"))
        elif path == "/slash":
            query = urllib.parse.urlencode(params)
            writer.write(_redirect("308 Permanent Redirect", f"/slash/?{query}"))
        elif path == "/late":
            await asyncio.sleep(int(params.get("TimeOut", "4")) + 1.5)
            await self._callback(params)
            writer.write(ok)
        elif path == "/never":
            await asyncio.sleep(120)
        elif path == "/twice":
            await self._callback(params)
            tray = params.get("Tray", "")
            other = str(tray.rindex("0") + 1) if "0" in tray else "9"
            self.second_status = await self._callback(params, value=other)
            writer.write(ok)
        elif path == "/illegal":
            await self._callback(params, value="0")
            writer.write(ok)
        elif path == "/malformed":
            await self._callback(params)
            writer.write(b"HTTP/1.1 OK-ish garbage\r\nthis is not a header\r\n\r\n")
        elif path == "/huge":
            await self._callback(params)
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 10485760\r\n\r\n")
            chunk = b"x" * 65536
            for _ in range(160):
                writer.write(chunk)
                await writer.drain()
        elif path == "/endless":
            await self._callback(params)
            writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            for _ in range(600):
                writer.write(b"400\r\n" + b"y" * 1024 + b"\r\n")
                await writer.drain()
                await asyncio.sleep(0.05)
        elif path == "/redirects":
            writer.write(_redirect("302 Found", f"/redirects?{urllib.parse.urlencode(params)}"))
        elif path == "/flood":
            for n in range(200):
                await self._callback(params, move_id=str(1000 + n))
            await self._callback(params)
            writer.write(ok)
        else:
            writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
