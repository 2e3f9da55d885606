"""Calling the ASGI application in-process, without a client or a socket: fast enough to
send tens of thousands of query strings in a test."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

__all__ = ["get_many"]


async def _get(app: Any, path: str, query: bytes) -> tuple[int, bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query,
        "headers": [(b"host", b"fuzz.test")],
        "client": ("127.0.0.1", 1),
        "server": ("fuzz.test", 80),
    }
    status = 0
    body = bytearray()

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            body.extend(message.get("body", b""))

    await app(scope, receive, send)
    return status, bytes(body)


def get_many(
    app: Any, path: str, queries: Iterable[bytes], answer: Callable[[bytes, int, bytes], None]
) -> None:
    """Call ``answer(query, status, body)`` for each ``GET path?query``, one event loop.

    The loop runs in a thread of its own: the thread that calls may already run one (the
    Playwright sync API leaves its loop in the thread of the browser tests).
    """

    async def run() -> None:
        for query in queries:
            status, body = await _get(app, path, query)
            answer(query, status, body)

    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, run()).result()
