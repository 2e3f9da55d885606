"""The Arbitre benchmark's rows on real ``serve`` processes: games in flight on
``serve --workers 1`` then ``--workers 2``, one SQLite file each time, the engines served
by another ``serve`` process (as outsiders' engines would be).

Each setup starts its ``serve`` in a subprocess (``python -m tournoyons_gui.server.cli``,
the code on ``PYTHONPATH`` first: ``--before``'s revision when asked), waits until its
workers have opened the records, then plays:

- *TicTacToe, engines over HTTP*, 16 games in flight for a fixed time: each of 16 slots
  creates a game (``POST /api/games``), follows its live events until it is over
  (``/games/<id>/events``), and starts the next;
- *5 Sets × 10*, built-in ``random`` against ``random``: 50 games created together,
  followed until the last one is over.

Every game's record is read back and checked (over with a result, no seat in error,
moves 1..n). The CPU is the ``serve`` processes' (the supervisor and its workers: user +
system, from ``/proc``), per move; *Arbitre ms/move* as in the in-process rows.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent

#: The in-flight games of the loop row (the figure the goals are set at).
IN_FLIGHT = 16
MIXED_SETS = ("TicTacToe", "Reversi", "Rochambeau", "Seafight", "MasterMind")


@dataclass
class Run:
    """One row: what was played, the wall and CPU seconds, the records."""

    label: str
    workers: int
    concurrency: int
    ids: list[str]
    records: list[dict[str, Any]]
    wall: float
    cpu: float
    failures: list[str]


def cpu_of(pids: list[int]) -> float:
    """Return the CPU seconds (user + system) the processes ``pids`` have used (a gone one
    counts 0)."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def family(pid: int) -> list[int]:
    """Return ``pid`` and its children (a ``serve`` supervisor and its workers)."""
    found = [pid]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError):
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                if int(stat[1]) == pid:
                    found.append(int(entry))
    return found


@contextlib.asynccontextmanager
async def serve(
    database: Path | str, workers: int | None, env: dict[str, str]
) -> AsyncIterator[tuple[str, int]]:
    """Run ``serve`` on ``database`` (a SQLite file, or a PostgreSQL URL; ``--workers``
    when given) while the block runs; yield its base URL and pid once its workers have
    opened the records (on PostgreSQL: once they are all started and one answers)."""
    args = [sys.executable, "-m", "tournoyons_gui.server.cli", "serve", "--port", "0"]
    args += ["--database", str(database), "--log-level", "warning", "--no-access-log"]
    if workers is not None:
        args += ["--workers", str(workers)]
    process = subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        assert process.stdout is not None
        line = await asyncio.to_thread(process.stdout.readline)
        if "serving on " not in line:
            raise RuntimeError(f"serve did not start: {line}")
        base = line.split("serving on ", 1)[1].strip().rstrip("/")
        threading_drain(process)
        deadline = time.monotonic() + 120
        wanted = workers or 1
        while True:
            if isinstance(database, Path):
                opened = [p for p in family(process.pid) if _has_open(p, database)]
            else:  # the supervisor and its workers (one process alone: itself)
                opened = family(process.pid)[1:] or ([process.pid] if wanted == 1 else [])
            if len(opened) >= wanted and await _healthy(base):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("serve's workers did not start")
            await asyncio.sleep(0.2)
        yield base, process.pid
    finally:
        process.terminate()
        try:
            await asyncio.to_thread(process.wait, 30)
        except subprocess.TimeoutExpired:
            process.kill()


def threading_drain(process: subprocess.Popen[str]) -> None:
    """Read (and drop) the process's output in a thread, so that it never blocks on it."""
    import threading

    def drain() -> None:
        assert process.stdout is not None
        for _ in process.stdout:
            pass

    threading.Thread(target=drain, daemon=True).start()


def _has_open(pid: int, path: Path) -> bool:
    with contextlib.suppress(OSError):
        return any(
            os.readlink(f"/proc/{pid}/fd/{fd}") == str(path) for fd in os.listdir(f"/proc/{pid}/fd")
        )
    return False


async def _healthy(base: str) -> bool:
    with contextlib.suppress(aiohttp.ClientError, OSError):
        async with aiohttp.ClientSession() as session, session.get(f"{base}/healthz") as answer:
            return answer.status == 200
    return False


class Client:
    """The benchmark's client of one ``serve``: makes games, follows them, reads records."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.session = aiohttp.ClientSession(
            cookie_jar=aiohttp.DummyCookieJar(),
            connector=aiohttp.TCPConnector(limit=200),
            timeout=aiohttp.ClientTimeout(total=300),
        )

    async def close(self) -> None:
        """Close the session."""
        await self.session.close()

    async def create(self, set_name: str, seat: dict[str, str]) -> str:
        """Start a game of two ``seat``; return its id."""
        body = {"set": set_name, "seats": [seat, seat]}
        async with self.session.post(f"{self.base}/api/games", json=body) as answer:
            text = await answer.text()
        if answer.status != 201:
            raise RuntimeError(f"POST /api/games {set_name}: {answer.status} {text[:200]}")
        return str(json.loads(text)["id"])

    async def over(self, game_id: str) -> None:
        """Return once the game's live events say it is over."""
        async with self.session.get(f"{self.base}/games/{game_id}/events") as stream:
            async for line in stream.content:
                if line.startswith(b"data:") and json.loads(line[5:]).get("over"):
                    return

    async def record(self, game_id: str) -> dict[str, Any]:
        """Return the game's record."""
        async with self.session.get(f"{self.base}/games/{game_id}.json") as answer:
            if answer.status != 200:
                return {"id": game_id, "status": f"HTTP {answer.status}", "moves": []}
            return dict(json.loads(await answer.text()))


async def loop_row(
    client: Client, seat: dict[str, str], seconds: float, pids: list[int], workers: int
) -> Run:
    """Play TicTacToe games ``IN_FLIGHT`` at a time for ``seconds``."""
    ids: list[str] = []
    failures: list[str] = []
    deadline = time.monotonic() + seconds

    async def slot() -> None:
        while time.monotonic() < deadline:
            try:
                game_id = await client.create("TicTacToe", seat)
            except (RuntimeError, aiohttp.ClientError) as failed:
                failures.append(str(failed)[:200])
                return
            ids.append(game_id)
            await client.over(game_id)

    cpu, started = cpu_of(pids), time.monotonic()
    await asyncio.gather(*(slot() for _ in range(IN_FLIGHT)))
    wall, cpu = time.monotonic() - started, cpu_of(pids) - cpu
    records = [await client.record(i) for i in ids]
    label = "TicTacToe, engines over HTTP"
    return Run(label, workers, IN_FLIGHT, ids, records, wall, cpu, failures)


async def mixed_row(client: Client, per_set: int, pids: list[int], workers: int) -> Run:
    """Create ``per_set`` built-in games of every mixed Set together; follow them all."""
    names = [name for name in MIXED_SETS for _ in range(per_set)]
    failures: list[str] = []
    seat = {"kind": "builtin", "engine": "random"}
    cpu, started = cpu_of(pids), time.monotonic()

    async def one(name: str) -> str | None:
        try:
            game_id = await client.create(name, seat)
        except (RuntimeError, aiohttp.ClientError) as failed:
            failures.append(str(failed)[:200])
            return None
        await client.over(game_id)
        return game_id

    found = await asyncio.gather(*(one(n) for n in names))
    wall, cpu = time.monotonic() - started, cpu_of(pids) - cpu
    ids = [i for i in found if i is not None]
    records = [await client.record(i) for i in ids]
    label = f"{len(MIXED_SETS)} Sets × {per_set}, random–random"
    return Run(label, workers, len(names), ids, records, wall, cpu, failures)


async def worker_rows(
    seconds: float,
    per_set: int,
    env: dict[str, str],
    workers: tuple[int, ...],
    note: Callable[[str], None],
    *,
    flag: bool = True,
) -> list[Run]:
    """Start an engines' ``serve`` (this tree's code: the same outsider for every run),
    then for each count of ``workers`` a ``serve`` of ``env``'s code on a fresh SQLite
    file; play the loop row and the mixed row on each. ``flag``: pass ``--workers`` (a
    revision from before the workers has no such option: one process)."""
    runs: list[Run] = []
    own = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    with tempfile.TemporaryDirectory(prefix="arbitre-workers-") as work:
        folder = Path(work)
        async with serve(folder / "engines.sqlite3", 1, own) as (engines, _):
            seat = {"kind": "engine", "engine": f"{engines}/engines/tictactoe/random"}
            for count in workers:
                database = folder / f"arbitre-{count}.sqlite3"
                note(f"serve --workers {count}")
                async with serve(database, count if flag else None, env) as (base, pid):
                    client = Client(base)
                    try:
                        pids = family(pid)
                        # warm-up: a few games on every worker
                        for _ in range(2 * count):
                            await client.over(await client.create("TicTacToe", seat))
                        note(f"serve --workers {count}: {IN_FLIGHT} in flight")
                        runs.append(await loop_row(client, seat, seconds, pids, count))
                        note(f"serve --workers {count}: {per_set * len(MIXED_SETS)} at once")
                        runs.append(await mixed_row(client, per_set, pids, count))
                    finally:
                        await client.close()
    return runs
