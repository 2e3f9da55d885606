"""Benchmark the Arbitre: moves per second through its whole loop, against floors measured
in the same run on the same stack.

    .venv/bin/python benchmarks/arbitre.py            # the full run (about 3 minutes)
    .venv/bin/python benchmarks/arbitre.py --quick    # a smoke run, a few seconds

Everything runs in this process, on 127.0.0.1, in one event loop (uvloop when installed,
as ``uvicorn.run`` would choose), which also runs the benchmark's own client: the real
server (``create_app``: the interfaces, the Arbitre, the built-in engines) under uvicorn with
a SQLite file in a temporary folder, a second one whose built-in engines the first one's
seats reach over HTTP, and a tiny Starlette app served the same way. Every
measure is bounded in time or count; the table goes to stdout, progress to stderr.

1. The whole loop, games created by ``POST /api/games`` and awaited in the process, one at
   a time, then 16 at a time (16 games in flight), for a fixed time (the games under way
   then finish), ``random`` against ``random``:

   - *TicTacToe, engines over HTTP*: each seat an ``engine`` at ``/engines/tictactoe/random``
     of a second Arbitre served the same way (the Arbitre's own URLs are never its
     targets): the built-in engine as an outsider reaches it. A move is
     an engine request (a new connection, ``Connection: close``, as the protocol has it),
     the engine's callback to ``/referee`` (a kept connection), the rules, and the move
     committed to SQLite;
   - *TicTacToe, built-in in process*: each seat a ``builtin`` seat: the same engine
     called in the Arbitre's process, no HTTP;
   - *ConnectFour, botsarena bots*: each seat a ``botsarena`` bot at the second Arbitre's
     ``/engines/connectfour/random/botsarena`` (a ``POST`` per move over a kept
     connection).

   Reported: games/s and moves/s (over the wall time from the first creation to the last
   game's end), the process's CPU time per move (user + system, every thread: what a
   move costs whatever else the machine runs), and from the records
   (``/games/<id>.json``):

   - *engine ms*: each move's ``ms``, from the engine request's start to its callback's
     arrival (a bot: its ``POST``);
   - *Arbitre ms/move*: ``(at[n] - at[n-1]) - ms[n]`` for moves 2..n of each game, where
     ``at`` stamps a move as it is saved: one turn of the loop less the engine's part
     (the commit of the previous move and its publication, the rules' next question,
     building and starting the request, then taking the answer, checking and playing
     the value, and with several games at once, waiting for the event loop). ``ms`` is
     truncated to whole milliseconds, so these read up to 1 ms high.

2. The floors, in the same run on the same stack, for a fixed time each:

   - *pairs*: ``GET /ask`` on a Starlette app that, before answering, calls ``GET /back``
     on the same server: ``/ask`` through the client the Arbitre sends engine requests
     with (a new connection each), ``/back`` through the one our engines call back with
     (kept connections); pairs/s, one at a time and 16 at a time. A move over HTTP needs
     one such pair, so ``÷ floor`` (moves/s ÷ pairs/s) is the share of the bare
     round-trip rate the whole loop keeps;
   - *POSTs*: the same ``play-turn`` message posted to the same botsarena bot in a loop,
     one at a time, through the client the Arbitre calls bots with: the bots' floor.

   Then the 16-in-flight row over HTTP again, one of its 16 slots playing a hostile
   engine (:mod:`benchmarks.hostile`, a process of its own) against ``random``: for each
   request it floods the Referee with forged callbacks, sits on every fifth for half a
   second, and plays through the genuine engine. Its goal: the 15 other slots'
   *Arbitre ms/move* p50 within 20% of the row without it.

3. Games at once: 10 each of TicTacToe, Reversi, Rochambeau, Seafight and MasterMind,
   built-in ``random`` against ``random``, all 50 created together; the wall time to the
   last game's end, moves and moves/s.

4. Built-in engines' own time, in process without HTTP (the tests count their work, not
   their time): ConnectFour ``strong``, each move of a game against a player that plays a
   random column 4 times in 10 (seeded), slowest and median ms a move (its docstring says
   about 0.1 s at most on a 2-core machine); MasterMind ``consistent``, mean ms a guess
   from three lines of marks (once about 50 ms at most).

Then, beyond this process (:mod:`benchmarks.arbitre_more`): the rows on real ``serve``
processes on SQLite, the ``play`` row, and the rows on PostgreSQL
(:mod:`benchmarks.arbitre_postgres`: ``serve --workers 2`` on a PostgreSQL server started
for the run with ``fsync`` on, 16 games in flight and the mixed games, against the rate
that server commits one statement at a time, with its commits and WAL syncs per move;
``--postgres-only`` runs them alone, ``--no-postgres`` leaves them out).

The goals are printed under the table, each met (✓) or not (✗): one game at a time,
engines over HTTP and botsarena bots, a move's own CPU (CPU ms/move less the floor's)
≤ 1 ms and ≥ 0.7 of the floor (pairs, POSTs); the hostile row's, above; and under the rows
on real ``serve`` processes, 16 games in flight on two workers, the Arbitre's own time per
move p50 ≤ 5 ms and p99 ≤ 25 ms.

Every game of every measure is checked: created (``201``), and from its record: status
``over`` with a result (a win or a draw, not ``error``: the Arbitre failing on the game), no
seat in error (a late, unreachable or illegal engine), moves numbered 1..n with no gap. The
failures are listed under the table, and the exit status is 1 when there is one.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import importlib.util
import json
import math
import os
import random
import resource
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import uvicorn
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.hostile import FLOOD, SLOW_EVERY, SLOW_S, hostile_engine  # noqa: E402
from tournoyons_gui.arbitre.arbitre import Arbitre  # noqa: E402
from tournoyons_gui.arbitre.calls import engine_client  # noqa: E402
from tournoyons_gui.interfaces.connectfour.board import (  # noqa: E402
    COLUMNS,
    EMPTY_TRAY,
    drop,
    playable_columns,
    player_to_move,
    winning_cells,
)
from tournoyons_gui.interfaces.connectfour.engines import strong_engine  # noqa: E402
from tournoyons_gui.interfaces.mastermind.engines import consistent_engine  # noqa: E402
from tournoyons_gui.interfaces.protocol import Player  # noqa: E402
from tournoyons_gui.server.app import create_app  # noqa: E402
from tournoyons_gui.server.cli import bind  # noqa: E402

LOOP_SET = "TicTacToe"
BOT_SET = "ConnectFour"
MIXED_SETS = ("TicTacToe", "Reversi", "Rochambeau", "Seafight", "MasterMind")
ENGINE = "random"
#: Games in flight in the concurrent measures (the figure the goals are set at).
IN_FLIGHT = 16
#: The goals: one game at a time, a share of the floor and a move's own CPU (ms,
#: over the floor's); with IN_FLIGHT games at once on two workers, the Arbitre's own ms
#: per move (p50, p99).
FLOOR_SHARE = 0.7
OWN_CPU = 1.0
OWN_P50, OWN_P99 = 5.0, 25.0


@dataclass(frozen=True)
class Loop:
    """A whole-loop measure: its label, Set, seat kind (the seats' ``engine`` is a path
    on this server for ``engine`` and ``botsarena`` seats), games at once, and the floor
    it is divided by (``pairs``, ``posts`` or ``""``)."""

    label: str
    set_name: str
    kind: str
    path: str
    concurrency: int
    floor: str


LOOPS = (
    Loop(
        "TicTacToe, engines over HTTP", LOOP_SET, "engine", "/engines/tictactoe/random", 1, "pairs"
    ),
    Loop("TicTacToe, built-in in process", LOOP_SET, "builtin", "", 1, "pairs"),
    Loop(
        "ConnectFour, botsarena bots",
        BOT_SET,
        "botsarena",
        "/engines/connectfour/random/botsarena",
        1,
        "posts",
    ),
    Loop(
        "TicTacToe, engines over HTTP",
        LOOP_SET,
        "engine",
        "/engines/tictactoe/random",
        IN_FLIGHT,
        "pairs",
    ),
    Loop("TicTacToe, built-in in process", LOOP_SET, "builtin", "", IN_FLIGHT, ""),
)


def cpu_seconds() -> float:
    """Return this process's CPU time so far (user + system, every thread), seconds."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass(frozen=True)
class Plan:
    """How long each measure runs."""

    warmup_games: int
    loop_seconds: float  # each whole-loop measure (games are started until then)
    floor_seconds: float  # each floor measure
    per_set: int  # games of each Set in the games-at-once measure


FULL = Plan(warmup_games=4, loop_seconds=15, floor_seconds=6, per_set=10)
QUICK = Plan(warmup_games=1, loop_seconds=1, floor_seconds=0.5, per_set=1)


@dataclass
class Games:
    """A measure of games: what was played, how long it took, what the records say."""

    label: str
    concurrency: int
    floor: str = ""  # the floor it is divided by
    asked: int = 0  # games asked for
    ids: list[str] = field(default_factory=list)  # games created
    wall: float = 0.0
    cpu: float = 0.0  # the process's CPU seconds over the measure
    moves: int = 0
    own_ms: list[float] = field(default_factory=list)
    engine_ms: list[float] = field(default_factory=list)
    by_set: dict[str, tuple[int, int]] = field(default_factory=dict)  # games, moves
    failures: list[str] = field(default_factory=list)
    hostile: dict[str, Any] = field(default_factory=dict)  # the hostile row's figures


@dataclass
class Pairs:
    """A floor measure: round-trip pairs, their latencies, bad answers."""

    concurrency: int
    wall: float = 0.0
    cpu: float = 0.0
    ms: list[float] = field(default_factory=list)
    bad: int = 0

    @property
    def rate(self) -> float:
        """Return pairs per second."""
        return len(self.ms) / self.wall if self.wall else 0.0


# --- serving --------------------------------------------------------------------------------


@asynccontextmanager
async def serving(app: ASGIApp, sock: socket.socket) -> AsyncIterator[None]:
    """Serve ``app`` on the bound ``sock`` with uvicorn in this event loop until the end."""
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    )
    task = asyncio.create_task(server.serve(sockets=[sock]))
    deadline = time.monotonic() + 30
    while not server.started:
        if task.done() or time.monotonic() > deadline:
            server.should_exit = True
            await task
            raise RuntimeError("the server did not start")
        await asyncio.sleep(0.02)
    try:
        yield
    finally:
        server.should_exit = True
        await task


class Floor:
    """The floors' app: ``GET /ask`` calls ``GET /back`` on the same server, then answers.

    Both go through the clients the Arbitre's move path uses: ``/ask`` through the one it
    sends engine requests with (a new connection each), ``/back`` through the one our
    engines call back with and the Arbitre calls bots with (kept connections). The code of
    a revision before the move path's client (``--before``) has its own: httpx's
    (:func:`engine_client`, and one keeping connections)."""

    def __init__(self, base: str) -> None:
        self.base = base
        from benchmarks.arbitre_more import before_workers

        if before_workers():  # httpx on the move path then
            self.fresh: Any = _HttpxCalls(engine_client())
            self.kept: Any = _HttpxCalls(httpx.AsyncClient(trust_env=False))
        else:
            from tournoyons_gui.arbitre.client import Calls

            self.fresh, self.kept = Calls(None, keepalive=False), Calls(None, keepalive=True)

    def app(self) -> Starlette:
        """Return the Starlette app."""

        async def back(request: Request) -> Response:
            return PlainTextResponse("OK")

        async def ask(request: Request) -> Response:
            answer = await self.kept.get(f"{self.base}/back?{request.url.query}", read=4096)
            return PlainTextResponse("OK", 200 if answer.status == 200 else 502)

        return Starlette(routes=[Route("/ask", ask), Route("/back", back)])

    async def close(self) -> None:
        """Close both clients."""
        await self.fresh.close()
        await self.kept.close()


class _HttpxCalls:
    """The move path's client's calls (``get``, ``post``) made with httpx, for the code
    before it."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def get(self, url: str, *, read: int = 0) -> Any:
        answer = await self.client.get(url, timeout=10)
        return _Reply(answer.status_code, answer.content[:read])

    async def post(self, url: str, body: bytes, *, read: int = 0) -> Any:
        answer = await self.client.post(
            url, content=body, headers={"Content-Type": "application/json"}, timeout=10
        )
        return _Reply(answer.status_code, answer.content[:read])

    async def close(self) -> None:
        await self.client.aclose()


@dataclass(frozen=True)
class _Reply:
    status: int
    body: bytes


# --- measures -------------------------------------------------------------------------------


async def for_a_while(
    seconds: float, concurrency: int, one: Callable[[], Awaitable[None]]
) -> float:
    """Run ``one`` in ``concurrency`` workers, each starting again until ``seconds`` have
    passed; return the wall time until the last one ended."""
    started = time.monotonic()
    deadline = started + seconds

    async def worker() -> None:
        while time.monotonic() < deadline:
            await one()

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return time.monotonic() - started


async def floor_pairs(
    floor: Floor,
    seconds: float,
    concurrency: int,
    progress: Progress,
    bar: TaskID,
    bot: tuple[str, bytes] | None = None,
) -> Pairs:
    """Measure ``GET /ask`` (and its ``GET /back``) for ``seconds`` at ``concurrency``;
    with ``bot`` (its URL and a ``play-turn`` message), ``POST``s of the message instead."""
    pairs = Pairs(concurrency)
    started = time.monotonic()

    async def one() -> None:
        sent = time.perf_counter()
        try:
            if bot is None:
                url = f"{floor.base}/ask?Game=FLOOR&MoveId=1"
                answer = await floor.fresh.get(url)
                ok = answer.status == 200
            else:
                answer = await floor.kept.post(bot[0], bot[1], read=65536)
                ok = answer.status == 200 and "play" in json.loads(answer.body)
        except Exception:
            ok = False
        if ok:
            pairs.ms.append((time.perf_counter() - sent) * 1000)
        else:
            pairs.bad += 1
        progress.update(
            bar, completed=min(seconds, time.monotonic() - started), note=f"{len(pairs.ms)} pairs"
        )

    cpu = cpu_seconds()
    pairs.wall = await for_a_while(seconds, concurrency, one)
    pairs.cpu = cpu_seconds() - cpu
    return pairs


class Bench:
    """The Arbitre's server as the benchmark drives it: a client for its API and the
    Arbitre itself, to await a game's end in the process (no polling)."""

    def __init__(self, base: str, app: Any, engines: str) -> None:
        self.base = base
        self.app = app
        self.engines = engines
        self.http = httpx.AsyncClient(
            base_url=base, timeout=60, trust_env=False, limits=httpx.Limits(max_connections=200)
        )
        # Games are created with aiohttp's client (kept connections): a user's own client,
        # cheaper than httpx in the process whose CPU is measured.
        self.maker: aiohttp.ClientSession | None = None

    @property
    def arbitre(self) -> Arbitre:
        """Return the running Arbitre (the security-headers middleware wraps the app)."""
        arbitre: Arbitre = self.app.app.state.arbitre_holder()
        return arbitre

    async def create(
        self,
        set_name: str,
        kind: str = "builtin",
        path: str = "",
        seats: list[dict[str, str]] | None = None,
    ) -> str:
        """Start a game of ``set_name``, two seats of ``kind``: built-in ``random``, or an
        ``engine`` or ``botsarena`` seat at ``path`` on the engines' server (or ``seats``
        as given); return its id."""
        seat = {"kind": kind, "engine": f"{self.engines}{path}" if path else ENGINE}
        if self.maker is None:
            self.maker = aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar())
        body = {"set": set_name, "seats": seats or [seat, seat]}
        async with self.maker.post(f"{self.base}/api/games", json=body) as answer:
            text = await answer.text()
        if answer.status != 201:
            raise RuntimeError(f"POST /api/games {set_name}: {answer.status} {text}")
        return str(json.loads(text)["id"])

    async def close(self) -> None:
        """Close the clients."""
        await self.http.aclose()
        if self.maker is not None:
            await self.maker.close()

    async def try_create(
        self,
        set_name: str,
        games: Games,
        kind: str = "builtin",
        path: str = "",
        seats: list[dict[str, str]] | None = None,
    ) -> str | None:
        """Start a game for ``games``; return its id, or ``None`` with the failure noted."""
        games.asked += 1
        try:
            game_id = await self.create(set_name, kind, path, seats)
        except (RuntimeError, aiohttp.ClientError) as failed:
            games.failures.append(f"{set_name}: not created: {failed}"[:300])
            return None
        games.ids.append(game_id)
        return game_id

    async def records(self, ids: list[str]) -> list[dict[str, Any]]:
        """Return the records of ``ids``, four requests at a time."""
        limit = asyncio.Semaphore(4)

        async def one(game_id: str) -> dict[str, Any]:
            async with limit:
                answer = await self.http.get(f"/games/{game_id}.json")
            if answer.status_code != 200:
                return {
                    "id": game_id,
                    "status": f"HTTP {answer.status_code}",
                    "moves": [],
                    "seats": [],
                    "set": "?",
                }
            return dict(answer.json())

        return list(await asyncio.gather(*(one(i) for i in ids)))

    def simultaneous(self, set_name: str) -> bool:
        """Whether the Set's rules ask both players at once from the start."""
        interface = self.arbitre.registry.get(set_name)
        rules = interface.arbitre if interface else None
        return rules is not None and len(rules.asked(rules.start(rules.levels[0]).state)) > 1

    async def analyse(self, games: Games) -> None:
        """Fill ``games`` from the records: moves, times, per-Set counts, failures."""
        for record in await self.records(games.ids):
            moves = record["moves"]
            problem = check(record)
            if problem:
                games.failures.append(f"{record['set']} {record['id']}: {problem}")
            count, total = games.by_set.get(record["set"], (0, 0))
            games.by_set[record["set"]] = (count + 1, total + len(moves))
            games.moves += len(moves)
            games.engine_ms += [float(m["ms"]) for m in moves]
            if not self.simultaneous(record["set"]):
                games.own_ms += own_times(moves)


def check(record: dict[str, Any]) -> str:
    """Return what is wrong with a finished game's record, or ``""``."""
    if record["status"] != "over" or record.get("result") not in ("draw", "seat1", "seat2"):
        return (
            f"status {record['status']!r}, result {record.get('result')!r}: "
            f"{record.get('reason', '')}"
        )
    errors = [f"seat {s['index'] + 1}: {s['error']}" for s in record["seats"] if s["error"]]
    if errors:
        return "; ".join(errors)
    numbers = [m["number"] for m in record["moves"]]
    if not numbers or numbers != list(range(1, len(numbers) + 1)):
        return f"moves numbered {numbers[:5]}... ({len(numbers)}), not 1..n"
    return ""


def own_times(moves: list[dict[str, Any]]) -> list[float]:
    """Return the Arbitre's own ms per move, ``(at[n] - at[n-1]) - ms[n]`` for n >= 2."""
    stamps = [dt.datetime.fromisoformat(m["at"]) for m in moves]
    return [
        (stamps[n] - stamps[n - 1]).total_seconds() * 1000 - moves[n]["ms"]
        for n in range(1, len(moves))
    ]


async def loop_games(
    bench: Bench, loop: Loop, seconds: float, progress: Progress, bar: TaskID
) -> Games:
    """Play ``loop``'s games for ``seconds``, ``loop.concurrency`` at a time."""
    games = Games(loop.label, loop.concurrency, loop.floor)
    started = time.monotonic()

    async def one() -> None:
        game_id = await bench.try_create(loop.set_name, games, loop.kind, loop.path)
        if game_id is not None:
            await bench.arbitre.wait(game_id)
        progress.update(
            bar, completed=min(seconds, time.monotonic() - started), note=f"{len(games.ids)} games"
        )

    cpu = cpu_seconds()
    games.wall = await for_a_while(seconds, loop.concurrency, one)
    games.cpu = cpu_seconds() - cpu
    return games


async def hostile_games(
    bench: Bench, url: str, seconds: float, progress: Progress, bar: TaskID
) -> Games:
    """Play the 16-in-flight row over HTTP for ``seconds`` again, but with one slot's games
    seating the hostile engine at ``url`` (:mod:`benchmarks.hostile`) against ``random``:
    return the row, its own times the 15 other slots' alone (``hostile``: the hostile
    slot's games, moves and own times)."""
    loop = LOOPS[3]
    row = Games(f"{loop.label}, 1 of {IN_FLIGHT} hostile", IN_FLIGHT, loop.floor)
    bad = Games("hostile", 1)
    seats = [
        {"kind": "engine", "engine": url},
        {"kind": "engine", "engine": bench.engines + loop.path},
    ]
    started = time.monotonic()
    deadline = started + seconds

    async def slot(index: int) -> None:
        games = bad if index == 0 else row
        while time.monotonic() < deadline:
            game_id = await bench.try_create(
                loop.set_name, games, loop.kind, loop.path, seats if index == 0 else None
            )
            if game_id is not None:
                await bench.arbitre.wait(game_id)
            progress.update(bar, completed=min(seconds, time.monotonic() - started))

    cpu = cpu_seconds()
    await asyncio.gather(*(slot(index) for index in range(IN_FLIGHT)))
    row.wall = time.monotonic() - started
    row.cpu = cpu_seconds() - cpu
    await bench.analyse(row)
    await bench.analyse(bad)
    row.asked += bad.asked
    row.ids += bad.ids
    row.moves += bad.moves
    row.failures += [f"hostile slot: {failure}" for failure in bad.failures]
    row.hostile = {"games": len(bad.ids), "moves": bad.moves}
    return row


async def at_once(bench: Bench, per_set: int, progress: Progress, bar: TaskID) -> Games:
    """Create ``per_set`` games of every mixed Set together; wait for them all."""
    names = [name for name in MIXED_SETS for _ in range(per_set)]
    games = Games(f"{len(MIXED_SETS)} Sets × {per_set}, {ENGINE}–{ENGINE}", len(names))
    started = time.monotonic()

    async def one(name: str) -> None:
        game_id = await bench.try_create(name, games)
        if game_id is not None:
            await bench.arbitre.wait(game_id)
        progress.advance(bar)

    cpu = cpu_seconds()
    await asyncio.gather(*(one(name) for name in names))
    games.wall = time.monotonic() - started
    games.cpu = cpu_seconds() - cpu
    return games


# --- the run --------------------------------------------------------------------------------


Floors = dict[tuple[str, int], Pairs]


def bot_message(bench: Bench) -> dict[str, Any]:
    """Return a ``play-turn`` message of the bots' Set at its start, as the Arbitre sends."""
    interface = bench.arbitre.registry.get(BOT_SET)
    rules = interface.arbitre if interface else None
    if interface is None or rules is None or interface.botsarena is None:
        raise RuntimeError(f"{BOT_SET} has no botsarena bots")
    request = rules.request(rules.start(rules.levels[0]).state, Player.ONE)
    bots = interface.botsarena
    return {
        "game-id": "FLOOR",
        "action": "play-turn",
        "game": bots.game,
        "players": 2,
        "board": bots.board(request.params),
        "you": "X",
        "player-index": 0,
    }


async def run(
    plan: Plan, console: Console, profiled: bool = False
) -> tuple[list[Games], Floors, str, list[str]]:
    """Serve both apps, run every measure; return the games, the floors, the header and
    (``profiled``) the profiles' summaries."""
    loadavg = os.getloadavg()
    started = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    floors: Floors = {}
    measures: list[Games] = []
    with tempfile.TemporaryDirectory(prefix="arbitre-bench-") as work:
        arbitre_sock, arbitre_base = bind("127.0.0.1", 0)
        app = create_app(database=str(Path(work) / "arbitre.sqlite3"), public_url=arbitre_base)
        # Another Arbitre serves the built-in engines the seats reach over HTTP.
        engines_sock, engines_base = bind("127.0.0.1", 0)
        engines_app = create_app(
            database=str(Path(work) / "engines.sqlite3"), public_url=engines_base
        )
        floor_sock, floor_base = bind("127.0.0.1", 0)
        floor = Floor(floor_base)
        bench = Bench(arbitre_base, app, engines_base)
        columns = (
            TextColumn("{task.description:<40}"),
            BarColumn(),
            TextColumn("{task.fields[note]}"),
            TimeElapsedColumn(),
        )
        try:
            async with (
                serving(app, arbitre_sock),
                serving(engines_app, engines_sock),
                serving(floor.app(), floor_sock),
            ):
                message = json.dumps(bot_message(bench)).encode()
                bot = (f"{engines_base}{LOOPS[2].path}", message)
                # Few refreshes: the bar's drawing is CPU of the process measured.
                with Progress(
                    *columns, console=console, transient=True, refresh_per_second=2
                ) as progress:
                    bar = progress.add_task(
                        "warm-up", total=len(LOOPS) * plan.warmup_games, note=""
                    )
                    for loop in LOOPS:
                        for _ in range(plan.warmup_games):
                            game_id = await bench.create(loop.set_name, loop.kind, loop.path)
                            await bench.arbitre.wait(game_id)
                            await floor.fresh.get(f"{floor_base}/ask")
                            progress.advance(bar)
                    for name, concurrency in (("pairs", 1), ("posts", 1), ("pairs", IN_FLIGHT)):
                        bar = progress.add_task(
                            f"floor: {name}, {concurrency} at a time",
                            total=plan.floor_seconds,
                            note="",
                        )
                        floors[(name, concurrency)] = await floor_pairs(
                            floor,
                            plan.floor_seconds,
                            concurrency,
                            progress,
                            bar,
                            bot if name == "posts" else None,
                        )
                    for loop in LOOPS:
                        bar = progress.add_task(
                            f"{loop.label}, {loop.concurrency} at a time",
                            total=plan.loop_seconds,
                            note="",
                        )
                        games = await loop_games(bench, loop, plan.loop_seconds, progress, bar)
                        await bench.analyse(games)
                        measures.append(games)
                    bar = progress.add_task(
                        f"{LOOPS[3].label}, 1 of {IN_FLIGHT} hostile",
                        total=plan.loop_seconds,
                        note="",
                    )
                    async with hostile_engine(engines_base + LOOPS[3].path) as (url, session):
                        games = await hostile_games(bench, url, plan.loop_seconds, progress, bar)
                        async with session.get(url.replace("/engine", "/counts")) as answer:
                            games.hostile.update(json.loads(await answer.text()))
                    if games.hostile.get("forged 200"):
                        games.failures.append(
                            f"{games.hostile['forged 200']} forged callback(s) answered 200"
                        )
                    measures.append(games)
                    count = plan.per_set * len(MIXED_SETS)
                    bar = progress.add_task(f"{count} games at once", total=count, note="")
                    games = await at_once(bench, plan.per_set, progress, bar)
                    await bench.analyse(games)
                    measures.append(games)
                    summaries: list[str] = []
                    if profiled:
                        for loop in (LOOPS[0], LOOPS[2]):
                            bar = progress.add_task(
                                f"profile: {loop.label}", total=plan.loop_seconds, note=""
                            )
                            summaries += await profile(
                                bench, loop, plan.loop_seconds, progress, bar
                            )
        finally:
            await bench.close()
            await floor.close()
    end = os.getloadavg()[0]
    stack = (
        ", ".join(
            name for name in ("uvloop", "httptools") if importlib.util.find_spec(name) is not None
        )
        or "asyncio, h11"
    )
    header = (
        f"Arbitre benchmark {started}, {os.cpu_count()} CPUs, load average "
        f"{loadavg[0]:.2f} {loadavg[1]:.2f} {loadavg[2]:.2f} at start, {end:.2f} at "
        f"end; one process, uvicorn ({stack}) on 127.0.0.1, SQLite file; "
        f"{plan.loop_seconds:g} s per loop measure, {plan.floor_seconds:g} s per "
        "floor measure."
    )
    return measures, floors, header, summaries


async def profile(
    bench: Bench, loop: Loop, seconds: float, progress: Progress, bar: TaskID
) -> list[str]:
    """Play ``loop``'s games for ``seconds`` under yappi (CPU clock, every thread); return
    the ten functions of most own time per move, as a Markdown table. yappi's own cost
    makes every figure larger than without it: the shares, not the sums, are the news."""
    import yappi

    yappi.clear_stats()
    yappi.set_clock_type("cpu")
    yappi.start(builtins=False, profile_threads=True)
    try:
        games = await loop_games(bench, loop, seconds, progress, bar)
    finally:
        yappi.stop()
    await bench.analyse(games)
    moves = max(1, games.moves)
    stats = list(yappi.get_func_stats())
    total = sum(f.tsub for f in stats)
    lines = [
        f"Profile (yappi, CPU clock): {loop.label}, one at a time, {games.moves} moves; "
        f"{total * 1e6 / moves:.0f} µs of profiled CPU per move in all; the ten functions "
        "of most own time:",
        "",
        "| function | where | calls/move | own µs/move | share |",
        "|---|---|---|---|---|",
    ]
    for f in sorted(stats, key=lambda f: f.tsub, reverse=True)[:10]:
        where = f"{Path(f.module).parent.name}/{Path(f.module).name}:{f.lineno}"
        lines.append(
            f"| {f.name} | {where} | {f.ncall / moves:.1f} | {f.tsub * 1e6 / moves:.0f} "
            f"| {f.tsub / total:.1%} |"
        )
    yappi.clear_stats()
    return [*lines, ""]


def percentile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile (0-1) of ``values`` by nearest rank, NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def table(measures: list[Games], floors: Floors, header: str) -> str:
    """Return the results as a Markdown table under ``header``, with the floors, the
    goals met or not, and a few notes."""
    lines = [
        header,
        "",
        "| Games | at once | games | moves | wall s | moves/s | CPU ms/move "
        "| floor /s (CPU ms) | ÷ floor | engine ms p50/p99 | Arbitre ms/move p50/p99 "
        "| checked |",
        "|" + "---|" * 12,
    ]
    for g in measures:
        rate = g.moves / g.wall if g.wall else 0.0
        floor = floors.get((g.floor, g.concurrency))
        floor_cell = (
            f"{g.floor} {floor.rate:.0f} ({_per(floor.cpu, len(floor.ms))})" if floor else "—"
        )
        ratio = f"{rate / floor.rate:.2f}" if floor and floor.rate else "—"
        good = g.asked - len(g.failures)
        lines.append(
            f"| {g.label} | {g.concurrency} | {len(g.ids)} | {g.moves} | {g.wall:.1f} "
            f"| {rate:.0f} | {_per(g.cpu, g.moves)} | {floor_cell} | {ratio} "
            f"| {percentile(g.engine_ms, 0.5):.0f}/{percentile(g.engine_ms, 0.99):.0f} "
            f"| {percentile(g.own_ms, 0.5):.1f}/{percentile(g.own_ms, 0.99):.1f} "
            f"| {good}/{g.asked} {'✓' if not g.failures else '✗'} |"
        )
    mixed = measures[-1]
    order = sorted(
        mixed.by_set,
        key=lambda name: (MIXED_SETS.index(name) if name in MIXED_SETS else len(MIXED_SETS), name),
    )
    per_set = ", ".join(
        f"{name} {_count(mixed.by_set[name][0], 'game')} {_count(mixed.by_set[name][1], 'move')}"
        for name in order
    )
    bad = sum(p.bad for p in floors.values())
    lines += [
        "",
        goals(measures, floors),
        "",
        f"Games at once: {per_set}. Floors: pairs, GET /ask (a new connection) calling "
        "GET /back (a kept connection) on the same server before answering; posts, the "
        f"same play-turn POSTed to the same bot (a kept connection); bad answers {bad}. "
        "CPU ms: the process's CPU time (every thread) over the measure, per move or per "
        "floor round trip. engine ms: engine request start to callback (a bot: its POST); "
        "Arbitre ms/move: (at[n] − at[n−1]) − ms[n], the loop's own time per move (whole "
        "ms, up to 1 ms high; simultaneous Sets left out); checked: created, status over "
        "with a result, no seat in error, moves 1..n.",
    ]
    failures = [f for g in measures for f in g.failures]
    if failures:
        lines += ["", f"**{len(failures)} game(s) failed:**", ""]
        lines += [f"- {failure}" for failure in failures[:10]]
        if len(failures) > 10:
            lines.append(f"- and {len(failures) - 10} more")
    return "\n".join(lines)


def goals(measures: list[Games], floors: Floors) -> str:
    """Return the goals for the in-process rows, each with its figure in this run
    and ✓ (met) or ✗: one game at a time, engines over HTTP and bots, a move's own CPU
    (CPU ms/move less the floor's) at most 1 ms and at least 0.7 of the floor's rate."""
    said = []
    for g in measures:
        floor = floors.get((g.floor, g.concurrency))
        if g.concurrency == 1 and floor is not None and floor.rate and g.label != LOOPS[1].label:
            share = g.moves / g.wall / floor.rate if g.wall else 0.0
            own = (g.cpu / g.moves - floor.cpu / len(floor.ms)) * 1000 if g.moves else math.nan
            mark = "✓" if share >= FLOOR_SHARE and own <= OWN_CPU else "✗"
            said.append(
                f"{g.label}, one at a time: a move's own CPU {own:.2f} ms (≤ {OWN_CPU:g}), "
                f"{share:.2f} of the {g.floor} floor (≥ {FLOOR_SHARE:g}) {mark}"
            )
    said += _hostile_goal(measures)
    return "Goals: " + "; ".join(said) + "."


def _hostile_goal(measures: list[Games]) -> list[str]:
    """Return the hostile row's goal (the others' own ms p50 within 20% of the
    same row without the hostile engine), or nothing when either row is missing."""
    clean = [g for g in measures if g.label == LOOPS[3].label and g.concurrency == IN_FLIGHT]
    bad = [g for g in measures if g.hostile]
    if not clean or not bad or not clean[0].own_ms or not bad[0].own_ms:
        return []
    g, before = bad[0], percentile(clean[0].own_ms, 0.5)
    after = percentile(g.own_ms, 0.5)
    ratio = after / before if before else math.nan
    forged = sum(v for k, v in g.hostile.items() if k.startswith("forged "))
    answers = ", ".join(
        f"{v} {k.removeprefix('forged ')}"
        for k, v in sorted(g.hostile.items())
        if k.startswith("forged ")
    )
    return [
        f"one hostile engine among {IN_FLIGHT} games in flight "
        f"({_count(g.hostile.get('games', 0), 'game')}, "
        f"{_count(g.hostile.get('requests', 0), 'request')}, {forged} forged callbacks ({FLOOD} "
        f"a request, answered: {answers or 'none'}), every {SLOW_EVERY}th request "
        f"{SLOW_S:g} s late): the {IN_FLIGHT - 1} others' Arbitre ms/move p50 {after:.1f} "
        f"against {before:.1f} without it, × {ratio:.2f} (≤ 1.2) {'✓' if ratio <= 1.2 else '✗'}"
    ]


def figures(measures: list[Games], floors: Floors) -> dict[str, dict[str, float]]:
    """Return each in-process row's key figures (for ``--before``'s comparison): moves/s,
    CPU ms/move, the own CPU over the floor's, the share of the floor, own ms p50/p99."""
    found = {}
    for g in measures:
        floor = floors.get((g.floor, g.concurrency))
        rate = g.moves / g.wall if g.wall else 0.0
        row = {
            "moves/s": rate,
            "CPU ms/move": g.cpu * 1000 / g.moves if g.moves else math.nan,
            "Arbitre ms p50": percentile(g.own_ms, 0.5),
            "Arbitre ms p99": percentile(g.own_ms, 0.99),
        }
        if floor is not None and floor.rate and floor.ms:
            row["÷ floor"] = rate / floor.rate
            row["own CPU ms"] = row["CPU ms/move"] - floor.cpu * 1000 / len(floor.ms)
        found[f"{g.label}, {g.concurrency} at a time (in process)"] = row
    return found


def _per(cpu: float, count: int) -> str:
    """Return ``cpu`` seconds per one of ``count``, in ms, or "—"."""
    return f"{cpu * 1000 / count:.2f}" if count else "—"


def engine_figures(repeats: int) -> str:
    """Return the built-in engines' own times (measure 4) as a line of text, each measured
    ``repeats`` times over (the best kept)."""
    slowest, median = math.inf, math.inf
    for _ in range(repeats):
        rng, tray, times = random.Random(3), EMPTY_TRAY, []
        while playable_columns(tray) and not (
            winning_cells(tray, Player.ONE) or winning_cells(tray, Player.TWO)
        ):
            started = time.perf_counter()
            column = COLUMNS.index(strong_engine({"Turn": "1", "Tray": tray}))
            times.append(time.perf_counter() - started)
            if rng.random() < 0.4:
                column = rng.choice(playable_columns(tray))
            tray, _ = drop(tray, column, player_to_move(tray))
        slowest = min(slowest, max(times))
        median = min(median, statistics.median(times))
    guess = math.inf
    for _ in range(repeats):
        started = time.perf_counter()
        for _ in range(10):
            consistent_engine({"Turn": "9", "Tray": "11ABCD10EEFF10GGHH"})
        guess = min(guess, (time.perf_counter() - started) / 10)
    return (
        f"Built-in engines: ConnectFour strong {slowest * 1000:.0f} ms slowest move, "
        f"{median * 1000:.0f} ms median; MasterMind consistent {guess * 1000:.1f} ms a guess."
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run, print the report; return 1 when a game failed its checks."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    parser.add_argument(
        "--before", metavar="REV", help="run on git revision REV's code first, then this tree's"
    )
    parser.add_argument(
        "--profile", action="store_true", help="the top 10 functions per move (yappi)"
    )
    parser.add_argument("--no-loop", action="store_true", help="leave out the rows in this process")
    parser.add_argument("--no-workers", action="store_true", help="leave out the serve rows")
    parser.add_argument("--no-play", action="store_true", help="leave out the play row")
    parser.add_argument(
        "--no-match", action="store_true", help="leave out the match rows (SPRT, 1,000 games)"
    )
    parser.add_argument("--no-postgres", action="store_true", help="leave out the PostgreSQL rows")
    parser.add_argument(
        "--postgres-only",
        action="store_true",
        help="only the PostgreSQL rows (with --before: PostgreSQL's appends before and after)",
    )
    parser.add_argument("--json", metavar="PATH", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.profile:
        from tournoyons_gui.server.extras import lacking_module

        missing = lacking_module("yappi", "yappi", "test")
        if missing is not None:
            print(missing.sentence("--profile"), file=sys.stderr)
            return 2
    if args.before:
        from benchmarks.arbitre_more import compare_runs

        return compare_runs(args, argv or sys.argv[1:])
    report, found, status = run_all(args)
    if args.json:
        Path(args.json).write_text(json.dumps({"report": report, "figures": found}))
    print(report, flush=True)
    return status


def run_all(args: argparse.Namespace) -> tuple[str, dict[str, dict[str, float]], int]:
    """Run every measure the options ask for; return the report, the key figures and the
    exit status."""
    from benchmarks.arbitre_more import more_measures

    console = Console(stderr=True)
    if args.postgres_only:
        from benchmarks.arbitre_postgres import postgres_measure

        lines, found, failed = postgres_measure(args.quick, dict(os.environ), console)
        return "\n".join(lines), found, 1 if failed else 0
    lines: list[str] = []
    found: dict[str, dict[str, float]] = {}
    failed = False
    if not args.no_loop:
        factory = uvicorn.Config(Starlette()).get_loop_factory()  # what uvicorn.run uses
        plan = QUICK if args.quick else FULL
        with asyncio.Runner(loop_factory=factory) as runner:
            measures, floors, header, profiled = runner.run(run(plan, console, args.profile))
        lines = [table(measures, floors, header)]
        found = figures(measures, floors)
        failed = any(g.failures for g in measures)
        if profiled:
            lines += ["", *profiled]
    more, more_found, more_failed = more_measures(args, console)
    lines += more
    found.update(more_found)
    if not args.no_loop:
        lines += ["", engine_figures(1 if args.quick else 3)]
    return "\n".join(lines), found, 1 if failed or more_failed else 0


if __name__ == "__main__":
    sys.exit(main())
