"""A small HTTP/1.1 load client on asyncio streams: paced (open loop) or as fast as it can.

wrk cannot pace its requests; this client sends each request at its scheduled time and
measures latency from that time, so a slow server cannot hide its queue (no coordinated
omission). Loopback only: the caller passes 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass
class LoadResult:
    """What one load run saw, per label (each path has a label, e.g. its Set)."""

    sent: int = 0
    errors: int = 0
    seconds: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)

    def percentile(self, q: float, label: str | None = None) -> float:
        """Return the ``q`` quantile (0-1) of the latencies in seconds (all labels: None)."""
        values = sorted(v for key, vs in self.latencies.items() if label in (None, key) for v in vs)
        if not values:
            return float("nan")
        return values[min(len(values) - 1, int(q * len(values)))]


async def _request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, raw: bytes) -> int:
    writer.write(raw)
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    if length:
        await reader.readexactly(length)
    return status


async def run_load(
    port: int,
    targets: Sequence[tuple[str, str]],
    *,
    total: int,
    connections: int,
    rate: float | None,
    timeout: float = 5.0,
) -> LoadResult:
    """Send ``total`` GETs for ``targets`` (label, path), round robin, on ``connections``.

    ``rate`` requests/s paces them (open loop); ``None`` sends each as soon as the previous
    one on its connection is answered. A status other than 200, a timeout or a broken
    connection counts as an error (the connection is then reopened).
    """
    result = LoadResult()
    start = time.perf_counter()

    async def connect() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.open_connection("127.0.0.1", port)

    async def worker(index: int) -> None:
        conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        for k in range(index, total, connections):
            label, path = targets[k % len(targets)]
            raw = (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                "Accept-Encoding: gzip, deflate, br\r\n\r\n"
            ).encode()
            scheduled = start + k / rate if rate else time.perf_counter()
            delay = scheduled - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            result.sent += 1
            try:
                if conn is None:
                    conn = await asyncio.wait_for(connect(), timeout)
                status = await asyncio.wait_for(_request(*conn, raw), timeout)
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
                status = 0
                if conn is not None:
                    conn[1].close()
                conn = None
            latency = time.perf_counter() - scheduled
            result.latencies.setdefault(label, []).append(latency)
            if status != 200:
                result.errors += 1
                result.failures[label] = result.failures.get(label, 0) + 1
        if conn is not None:
            conn[1].close()

    await asyncio.gather(*(worker(i) for i in range(connections)))
    result.seconds = time.perf_counter() - start
    return result
