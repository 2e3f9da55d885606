"""The Arbitre benchmark's ``play`` row: ``tournoyons-gui play`` as a user runs
it, whole process, on a local pair of botsarena bots (:mod:`benchmarks.bots`, a process of
their own), against what the bots themselves take.

- *bare round trip*: ``POST /bare`` to the bots' server, one at a time over a kept
  connection (the bots answer it at once), mean ms;
- *play*: ``tournoyons-gui play --set ConnectFour --engine botsarena:<bot 1> --engine
  botsarena:<bot 2> --games N`` (records in a fresh SQLite file), its wall time; the bots'
  own time summed over the run and the posts they answered (``GET /stats``), so that the
  reference is the bots' own time plus a bare round trip per post: what any referee
  asking these bots one post at a time needs at least. Goal: play's wall ≤ 1.5 × that;
- *start-up*: ``play`` of one TicTacToe game between built-in seats, whole process (the
  interpreter, the imports, the records opened, the game, the exit), the median of three.
  Goal ≤ 1 s. ``python -X importtime -m tournoyons_gui.server.cli play ...`` says where
  an import's time goes.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from benchmarks.processes import helper_server

ROOT = Path(__file__).resolve().parent.parent
#: The goals: play within this factor of the bots' own time and bare round trips;
#: its start-up at most this many seconds.
PLAY_FACTOR = 1.5
STARTUP_GOAL = 1.0


@dataclass
class PlayRow:
    """The play row's figures."""

    games: int
    wall: float
    posts: int
    bots_seconds: float
    bare_ms: float
    startup: float
    ok: bool
    detail: str

    @property
    def reference(self) -> float:
        """Return the bots' own seconds plus a bare round trip per post."""
        return self.bots_seconds + self.posts * self.bare_ms / 1000


async def _stats(session: aiohttp.ClientSession, base: str) -> tuple[float, int]:
    async with session.get(f"{base}/stats") as answer:
        data = json.loads(await answer.text())
    return float(data["seconds"]), int(data["posts"])


async def _bare(session: aiohttp.ClientSession, base: str, count: int) -> float:
    """Return the mean ms of ``count`` bare POSTs, one at a time."""
    body = json.dumps({"action": "play-turn", "board": "", "you": "X"}).encode()
    for _ in range(20):
        async with session.post(f"{base}/bare", data=body) as answer:
            await answer.read()
    started = time.perf_counter()
    for _ in range(count):
        async with session.post(f"{base}/bare", data=body) as answer:
            await answer.read()
    return (time.perf_counter() - started) * 1000 / count


def _play(args: list[str], env: dict[str, str], database: Path) -> tuple[float, str, int]:
    """Run ``play ARGS`` on ``database``; return its wall time, output and exit status."""
    command = [sys.executable, "-m", "tournoyons_gui.server.cli", "play", *args]
    command += ["--database", str(database)]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    return time.perf_counter() - started, done.stdout + done.stderr, done.returncode


async def play_row(games: int, env: dict[str, str]) -> PlayRow:
    """Start the bots, measure the bare round trip, run ``play``, measure the start-up."""
    script = ROOT / "benchmarks" / "bots.py"
    async with helper_server(script, [], "bots on", "/stats") as (base, session):
        bare = await _bare(session, base, 500)
        seconds, posts = await _stats(session, base)
        with tempfile.TemporaryDirectory(prefix="arbitre-play-") as work:
            args = ["--set", "ConnectFour", "--games", str(games)]
            args += ["--engine", f"botsarena:{base}/bot/1"]
            args += ["--engine", f"botsarena:{base}/bot/2"]
            wall, output, status = await asyncio.to_thread(
                _play, args, env, Path(work) / "play.sqlite3"
            )
            after, posted = await _stats(session, base)
            startups = []
            for number in range(3):
                one = ["--set", "TicTacToe", "--games", "1"]
                one += ["--engine", "builtin:random", "--engine", "builtin:random"]
                took, _, _ = await asyncio.to_thread(
                    _play, one, env, Path(work) / f"one-{number}.sqlite3"
                )
                startups.append(took)
    ok = status == 0 and output.count(" moves ") >= games
    detail = "" if ok else output[-500:]
    return PlayRow(
        games,
        wall,
        posted - posts,
        after - seconds,
        bare,
        statistics.median(startups),
        ok,
        detail,
    )


def play_lines(row: PlayRow) -> list[str]:
    """Return the play row as Markdown lines, with its goals."""
    ratio = row.wall / row.reference if row.reference else float("nan")
    mark = "✓" if ratio <= PLAY_FACTOR and row.ok else "✗"
    start = "✓" if row.startup <= STARTUP_GOAL else "✗"
    return [
        "| play | games | wall s | bots' posts | bots' own s | bare round trip ms | "
        "reference s | ÷ reference | start-up s | checked |",
        "|" + "---|" * 10,
        f"| ConnectFour, 2 local botsarena bots | {row.games} | {row.wall:.2f} | {row.posts} "
        f"| {row.bots_seconds:.2f} | {row.bare_ms:.3f} | {row.reference:.2f} | {ratio:.2f} "
        f"| {row.startup:.2f} | {'✓' if row.ok else '✗ ' + row.detail[-200:]} |",
        "",
        f"Goals: play's wall ≤ {PLAY_FACTOR:g} × (the bots' own time + a bare round "
        f"trip per post): {ratio:.2f} {mark}; start-up (play of one game, whole process) ≤ "
        f"{STARTUP_GOAL:g} s: {row.startup:.2f} s {start}.",
    ]
