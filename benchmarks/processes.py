"""A benchmark's helper server in a process of its own (the bots of ``bots.py``, the hostile
engine of ``hostile.py``): started, awaited until it answers, stopped."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent


@contextlib.asynccontextmanager
async def helper_server(
    script: Path, args: list[str], said: str, probe: str
) -> AsyncIterator[tuple[str, aiohttp.ClientSession]]:
    """Run ``script`` with ``args`` (it prints ``<said> <base URL>`` once its socket is
    bound), wait up to 60 s until ``GET <base><probe>`` answers; yield the base URL and a
    session of kept connections; terminate the process at the end. Raises
    ``aiohttp.ClientError`` when it never answers."""
    process = subprocess.Popen(
        [sys.executable, str(script), *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = await asyncio.to_thread(process.stdout.readline)
        base = line.split(f"{said} ", 1)[1].strip()
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
            deadline = time.monotonic() + 60
            while True:  # the socket is bound before the server serves
                try:
                    async with session.get(f"{base}{probe}") as answer:
                        await answer.read()
                    break
                except aiohttp.ClientError:
                    if time.monotonic() > deadline:
                        raise
                    await asyncio.sleep(0.1)
            yield base, session
    finally:
        process.terminate()
        process.wait(10)
