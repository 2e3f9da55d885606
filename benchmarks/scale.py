"""A public Arbitre at a million games: fill a database through the real schema,
then measure the server time of every page and JSON list a user or program reads, and the
drivers' own scans.

    .venv/bin/python benchmarks/scale.py --games 1000000 \\
        --database postgresql://postgres@/scale?host=/tmp&port=55432 [--keep]
    .venv/bin/python benchmarks/scale.py --games 20000            # a scratch SQLite file
    .venv/bin/python benchmarks/scale.py --database /work/scale.sqlite3 --fill-only --games N
    .venv/bin/python benchmarks/scale.py --database /work/scale.sqlite3 --measure-only
    .venv/bin/python benchmarks/scale.py --database ... --measure-only --explain

*The fill* (:mod:`benchmarks.scale_fill`): real games of every Set played by ``tournoyons-gui
play`` between built-in engines, copied N times with new ids, seat names and times (their
seats, moves and exchanges), N/10 registered engines, N/1000 interfaces, N/100 tournaments
of 20 games, N/1000 matches, 300 games in play, rooms; the kept aggregates filled
(``Store.backfill_kept``) and ``ANALYZE``; prints the database's size per game.

*The measure*: the real server (``tournoyons-gui serve --workers 1 --no-drive``, a process
of its own) on 127.0.0.1 reading the database; each request is asked ``--requests`` times,
one at a time; its server time is the round trip less the floor (the median round trip of
``/healthz``). The drivers' scans (games in play, orphans, leases, rooms) are the store's
methods, timed in this process. The table gives p50, p95 and max ms; the last line
``worst p95 ms: X``; exit status 1 when X is over the goal (50 ms), the server's resident
memory after the run over its goal (150 MB) or the disk a game takes over its (5 KB).
``--retention N`` then drops the exchanges of N old games as ``serve --keep-logs`` does,
and times it.

``--explain``: the server runs in this process; every SQL statement each request ran is
captured and explained with its parameters (PostgreSQL ``EXPLAIN``, SQLite ``EXPLAIN QUERY
PLAN``) and printed under the request's name.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import sqlalchemy  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from benchmarks.ladder import fill as fill_ladder  # noqa: E402
from benchmarks.scale_fill import (  # noqa: E402
    DAYS,
    engine_id,
    fill,
    play_templates,
    read_templates,
)
from tournoyons_gui.arbitre.paging import Cursors  # noqa: E402
from tournoyons_gui.arbitre.store import MAX_OFFSET, SeatFilter, Store  # noqa: E402

#: The goals: server time at p95, ms; a serve process's resident memory, MB.
GOAL_MS = 50.0
RSS_GOAL_MB = 150.0
#: The disk a game may take, indexes and kept aggregates included, KB (of 1,024 bytes).
KB_GOAL = 5.0
#: How deep the deep pages are: this many pages of the list in (or half the list).
DEEP_PAGES = 10_000
#: The fewest times a request is asked, however slow (see ``--budget``).
LEAST = 5
#: The label's start of a request of bad input: answered 200 or 400 (else 200 only).
BAD = "bad input: "


def is_postgres(database: str) -> bool:
    """Whether ``database`` names a PostgreSQL database (else a SQLite file)."""
    return database.startswith(("postgres://", "postgresql://", "postgresql+asyncpg://"))


async def filled_games(database: str) -> int:
    """Return how many games ``database`` holds (0 when it does not exist yet)."""
    if not is_postgres(database) and not Path(database).exists():
        return 0
    store = await Store.open(database)
    try:
        return await store.count_games()
    finally:
        await store.close()


async def settle(database: str, resume: bool = False) -> tuple[float, int]:
    """Fill the kept aggregates (``resume``: a fill killed goes on from its last step),
    gather the statistics; return their seconds and the database's size in bytes."""
    started = time.perf_counter()
    store = await Store.open(database)
    steps = 0

    def stepped(_: str) -> None:
        nonlocal steps
        steps += 1
        if steps % 20 == 0:
            print(
                f"kept aggregates: {steps} steps committed, {time.perf_counter() - started:.0f} s",
                flush=True,
            )

    try:
        await store.backfill_kept(stepped, resume=resume)
    finally:
        await store.close()
    if is_postgres(database):
        import asyncpg

        connection = await asyncpg.connect(database)
        try:
            await connection.execute("VACUUM ANALYZE")
            size = int(await connection.fetchval("SELECT pg_database_size(current_database())"))
        finally:
            await connection.close()
    else:
        import sqlite3

        with sqlite3.connect(database) as lite:
            lite.execute("ANALYZE")
            lite.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = sum(p.stat().st_size for p in Path(database).parent.glob(Path(database).name + "*"))
    return time.perf_counter() - started, size


async def database_size(database: str) -> int:
    """Return the database's size in bytes."""
    if is_postgres(database):
        import asyncpg

        connection = await asyncpg.connect(database)
        try:
            return int(await connection.fetchval("SELECT pg_database_size(current_database())"))
        finally:
            await connection.close()
    return sum(p.stat().st_size for p in Path(database).parent.glob(Path(database).name + "*"))


class Targets:
    """What the requests name, read from the database: a finished game, the most played
    engine, a tournament, an interface, a match, a game in play, and the deep cursors
    (signed with the database's paging key, as the server signs them)."""

    game = playing = tournament = interface = match = engine = rare = ""
    engine_url = ""
    games = 0
    deep_games = deep_api = deep_engines = deep_set = deep_seat = ""
    legacy_page = 1

    @classmethod
    async def read(cls, database: str) -> Targets:
        """Read them from ``database``."""
        found = cls()
        store = await Store.open(database)
        try:
            found.games = await store.count_games()
            newest = await store.games_page(limit=400)
            over = [g for g in newest.games if g.status == "over" and g.moves > 20]
            found.game = over[0].id if over else newest.games[-1].id
            found.playing = next(g.id for g in newest.games if g.status == "playing")
            engine = await store.registered(engine_id(0))
            assert engine is not None, "no registered engine 0: was the fill made?"
            found.engine, found.engine_url = engine.id, engine.url
            found.rare = "engine-099000" if found.games >= 1_000_000 else "engine-009000"
            tournaments = await store.tournaments_page(limit=1)
            found.tournament = tournaments.rows[0].id
            interfaces = await store.interfaces_page(limit=1)
            found.interface = interfaces.rows[0].id
            matches = await store.matches_page(limit=1)
            found.match = matches.rows[0].id
            cursors = Cursors(await store.paging_key())

            # A deep page's cursor: the position of the first game (of the filter) made
            # before the middle of the fill's span, about half the list in: an OFFSET
            # that deep is refused, as the server refuses it.
            middle = store.now() - dt.timedelta(days=DAYS / 2)

            async def deep(set_name: str = "", seat: str = "") -> str:
                asked = SeatFilter(seat, seat) if seat else None
                at = await store.games_page(
                    set_name=set_name, seat=asked, after=(middle, "~"), limit=1
                )
                if not at.games:
                    at = await store.games_page(set_name=set_name, seat=asked, limit=1)
                last = at.games[0]
                list_id = Cursors.list_id(
                    "games", [("set", set_name.lower()), ("seat", seat.lower())]
                )
                return cursors.make(list_id, [last.created_at.isoformat(), last.id])

            found.deep_games = found.deep_api = await deep()
            found.deep_set = await deep(set_name="Reversi")
            found.deep_seat = await deep(seat="random")
            # The deepest old ?page=N link the server reads (MAX_OFFSET games in).
            found.legacy_page = max(1, min(MAX_OFFSET // 25, found.games // 25 // 2))
            names = await store.engines_page(limit=100_000)
            middle = names.rows[min(DEEP_PAGES * 50, len(names.rows) // 2)].name
            found.deep_engines = cursors.make(Cursors.list_id("engines"), [middle])
        finally:
            await store.close()
        return found


def requests_of(t: Targets) -> list[tuple[str, str]]:
    """Return every request measured: ``(label, path)``."""
    return [
        ("/games (first page)", "/games"),
        ("/games (deep cursor)", f"/games?after={t.deep_games}"),
        (f"/games?page={t.legacy_page} (legacy)", f"/games?page={t.legacy_page}"),
        ("/games?set=Reversi", "/games?set=Reversi"),
        ("/games?set=NoSuchSet", "/games?set=NoSuchSet"),
        ("/games?seat=random (popular)", "/games?seat=random"),
        ("/games?seat=deep-blue-sea (3.5 %)", "/games?seat=deep-blue-sea"),
        (f"/games?seat={t.rare} (rare)", f"/games?seat={t.rare}"),
        ("/games?seat=nobody (absent)", "/games?seat=nobody-at-all"),
        ("/games?seat=<engine URL>", f"/games?seat={t.engine_url}"),
        ("/api/games (first page)", "/api/games"),
        ("/api/games (deep cursor)", f"/api/games?after={t.deep_api}"),
        (f"/api/games?page={t.legacy_page}", f"/api/games?page={t.legacy_page}"),
        ("/api/games?set=Reversi", "/api/games?set=Reversi"),
        ("/api/games?set=Reversi (deep)", f"/api/games?set=Reversi&after={t.deep_set}"),
        ("/api/games?set=NoSuchSet", "/api/games?set=NoSuchSet"),
        ("/api/games?seat=random", "/api/games?seat=random"),
        ("/api/games?seat=random (deep)", f"/api/games?seat=random&after={t.deep_seat}"),
        ("/api/games?seat=deep-blue-sea", "/api/games?seat=deep-blue-sea"),
        (f"/api/games?seat={t.rare}", f"/api/games?seat={t.rare}"),
        ("/api/games?seat=nobody", "/api/games?seat=nobody-at-all"),
        ("/api/games?seat=<engine URL>", f"/api/games?seat={t.engine_url}"),
        ("/games/<id> (a game's page)", f"/games/{t.game}"),
        ("/games/<id>/view", f"/games/{t.game}/view"),
        ("/games/<id>.json (record)", f"/games/{t.game}.json"),
        ("/api/games/<id>", f"/api/games/{t.game}"),
        ("/games/<id>/log", f"/games/{t.game}/log"),
        ("/games/<id>/events (first event)", f"/games/{t.game}/events"),
        ("/games/<in play> (page)", f"/games/{t.playing}"),
        ("/games/<id>/compare", f"/games/{t.game}/compare"),
        ("/engines (first page)", "/engines"),
        ("/engines (deep cursor)", f"/engines?after={t.deep_engines}"),
        ("/api/engines (first page)", "/api/engines"),
        ("/api/engines (deep cursor)", f"/api/engines?after={t.deep_engines}"),
        ("/engines/<most played> (page)", f"/engines/{t.engine}"),
        ("/api/engines/<most played>", f"/api/engines/{t.engine}"),
        ("/tournaments", "/tournaments"),
        ("/api/tournaments", "/api/tournaments"),
        ("/tournaments/<id> (page)", f"/tournaments/{t.tournament}"),
        ("/api/tournaments/<id>", f"/api/tournaments/{t.tournament}"),
        ("/tournaments/<id>/standings.json", f"/tournaments/{t.tournament}/standings.json"),
        ("/tournaments/<id>/standings.csv", f"/tournaments/{t.tournament}/standings.csv"),
        ("/tournaments/<id>/games.json", f"/tournaments/{t.tournament}/games.json"),
        ("/tournaments/<id>/games.csv", f"/tournaments/{t.tournament}/games.csv"),
        ("/interfaces", "/interfaces"),
        ("/api/interfaces", "/api/interfaces"),
        ("/interfaces/<id>", f"/interfaces/{t.interface}"),
        ("/api/interfaces/<id>", f"/api/interfaces/{t.interface}"),
        ("/matches", "/matches"),
        ("/api/matches", "/api/matches"),
        ("/matches/<id>", f"/matches/{t.match}"),
        ("/api/matches/<id>", f"/api/matches/{t.match}"),
        ("/matches/<id>/faults", f"/matches/{t.match}/faults"),
        ("/arbitre (front page)", "/arbitre"),
        ("/ladder", "/ladder"),
        ("/ladder/ConnectFour", "/ladder/ConnectFour"),
        ("/api/ladder/ConnectFour", "/api/ladder/ConnectFour"),
        ("/arbitre/sets", "/arbitre/sets"),
        ("/rooms", "/rooms"),
        ("/metrics", "/metrics"),
        # Bad input: the same bounded time, a 400 where it cannot be a name.
        (f"{BAD}/api/games?seat=%", "/api/games?seat=%25"),
        (f"{BAD}/api/games?seat=_", "/api/games?seat=_"),
        (f"{BAD}/api/games?seat=<10,000 chars>", "/api/games?seat=" + "x" * 10_000),
        (f"{BAD}/games?seat=%", "/games?seat=%25"),
        (f"{BAD}/games?page=<past the end>", "/games?page=99999999"),
        (f"{BAD}/api/games?page=<past the end>", "/api/games?page=99999999"),
    ]


def scans_of(store: Store) -> list[tuple[str, Callable[[], Awaitable[Any]]]]:
    """Return the drivers' own scans, the store's methods they call (``(label, call)``)."""
    return [
        ("store.playing() (games in play)", store.playing),
        ("store.orphans(50) (games to take over)", lambda: store.orphans(50)),
        ("store.lease_counts()", store.lease_counts),
        ("store.running_tournaments()", store.running_tournaments),
        ("store.open_rooms()", store.open_rooms),
        ("store.rooms_of(worker)", lambda: store.rooms_of("scale-w1")),
        ("store.engine_by_url(url)", lambda: store.engine_by_url("http://engines0.example/0/play")),
        ("store.interfaces_for(Set) (a Set's choice)", lambda: store.interfaces_for("TicTacToe")),
    ]


def ask(client: httpx.Client, path: str, refused: bool = False) -> float:
    """Ask ``path`` once (an event stream: until its first event); return the ms taken.
    Raise ``RuntimeError`` for an answer other than 200 (or 400 when ``refused``)."""
    started = time.perf_counter()
    if path.endswith("/events"):
        with client.stream("GET", path) as answer:
            for chunk in answer.iter_text():
                if "\n\n" in chunk or "data:" in chunk:
                    break
        status = answer.status_code
    else:
        answer = client.get(path)
        status = answer.status_code
    took = (time.perf_counter() - started) * 1000
    if status != 200 and not (refused and status == 400):
        raise RuntimeError(
            f"{path}: {status} {answer.text[:200] if not path.endswith('/events') else ''}"
        )
    return took


def free_port() -> int:
    """Return a free TCP port of 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def resident_mb(pid: int) -> float:
    """Return the resident memory of process ``pid`` and its children, in MB."""
    total = 0.0
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        pids += [int(p) for p in task.read_text().split()]
    for one in pids:
        for line in Path(f"/proc/{one}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) / 1024
    return total


def percentiles(times: list[float], floor: float) -> tuple[float, float, float]:
    """Return p50, p95 and max of ``times`` less ``floor`` (never below 0), in ms."""
    ordered = sorted(max(0.0, t - floor) for t in times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95, ordered[-1]


def repeat(once: Callable[[], float], count: int, budget: float) -> list[float]:
    """Return the ms of ``count`` calls of ``once`` (its own ms), fewer when they spend
    more than ``budget`` seconds: at least :data:`LEAST` (a request of seconds is slow
    whatever its p95)."""
    times: list[float] = []
    while len(times) < count and (len(times) < LEAST or sum(times) < budget * 1000):
        times.append(once())
    return times


def measure_requests(
    base: str, targets: Targets, count: int, budget: float
) -> tuple[float, list[tuple[str, list[float]]]]:
    """Ask every request ``count`` times (after one warm-up each, within ``budget``
    seconds each: :func:`repeat`); return the floor and each request's round trips."""
    results = []
    with httpx.Client(base_url=base, timeout=300, trust_env=False) as client:
        for _ in range(30):
            ask(client, "/healthz")
        floor = statistics.median([ask(client, "/healthz") for _ in range(max(30, count))])
        for label, path in requests_of(targets):
            bad = label.startswith(BAD)
            ask(client, path, bad)
            results.append((label, repeat(lambda p=path, b=bad: ask(client, p, b), count, budget)))
    return floor, results


async def measure_scans(database: str, count: int, budget: float) -> list[tuple[str, list[float]]]:
    """Time each of the drivers' scans ``count`` times (after a warm-up; fewer past
    ``budget`` seconds, as :func:`repeat`)."""
    store = await Store.open(database)
    results = []
    try:
        for label, call in scans_of(store):
            await call()
            times: list[float] = []
            while len(times) < count and (len(times) < LEAST or sum(times) < budget * 1000):
                started = time.perf_counter()
                await call()
                times.append((time.perf_counter() - started) * 1000)
            results.append((label, times))
    finally:
        await store.close()
    return results


def serve(database: str) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``tournoyons-gui serve`` (one worker, no driving) on ``database``; return the
    process and its base URL once ``/healthz`` answers."""
    port = free_port()
    command = [sys.executable, "-m", "tournoyons_gui.server.cli", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--database", database, "--workers", "1", "--no-drive"]
    command += ["--no-access-log", "--log-level", "warning"]
    process = subprocess.Popen(command, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"serve exited with {process.returncode}")
        try:
            if httpx.get(f"{base}/healthz", timeout=2, trust_env=False).status_code == 200:
                return process, base
        except httpx.HTTPError:
            time.sleep(0.2)
    process.terminate()
    raise RuntimeError("serve did not answer /healthz within 120 s")


def explain(database: str, targets: Targets, console: Console) -> None:
    """Run the app in this process, capture each request's SQL, print its plans."""
    from benchmarks.scale_explain import explain_requests

    explain_requests(database, requests_of(targets), console)


def report(
    console: Console,
    floor: float,
    rows: list[tuple[str, list[float]]],
    scans: list[tuple[str, list[float]]],
) -> float:
    """Print the table; return the worst p95 (ms)."""
    table = Table(title=f"server time, ms (round trip less the floor {floor:.2f} ms)")
    for name in ("request", "p50", "p95", "max"):
        table.add_column(name, justify="left" if name == "request" else "right")
    worst = 0.0
    for label, times in rows:
        p50, p95, top = percentiles(times, floor)
        worst = max(worst, p95)
        mark = "" if p95 <= GOAL_MS else " ✗"
        table.add_row(label, f"{p50:.1f}", f"{p95:.1f}{mark}", f"{top:.1f}")
    table.add_section()
    for label, times in scans:
        p50, p95, top = percentiles(times, 0.0)
        worst = max(worst, p95)
        mark = "" if p95 <= GOAL_MS else " ✗"
        table.add_row(label, f"{p50:.1f}", f"{p95:.1f}{mark}", f"{top:.1f}")
    console.print(table)
    return worst


def ladder_engines(games: int) -> int:
    """Return how many engines a fill of ``games`` games puts on the ladder: a tenth of
    them, at least 30, at most 100,000 (the ladder's goal's count)."""
    return max(30, min(100_000, games // 10))


def fill_step(database: str, games: int, folder: Path, console: Console) -> int:
    """Play the template games (kept in ``folder``), fill ``database`` with ``games``
    games, fill the kept aggregates, analyze; print the times and the size; return the
    games the database holds."""
    folder.mkdir(parents=True, exist_ok=True)
    console.print("playing the template games (tournoyons-gui play, built-in engines) ...")
    templates = read_templates(play_templates(folder))
    took = asyncio.run(fill(database, games, templates, console=console))
    # The standing ladder's engines, each with its record and rating on ConnectFour's
    # ladder (the ladder benchmark's fill): a tenth of the games, at most 100,000.
    laddered = ladder_engines(games)
    console.print(f"putting {laddered:,} engines on ConnectFour's ladder ...")
    try:
        asyncio.run(fill_ladder(database, laddered))
    except sqlalchemy.exc.IntegrityError:
        console.print("the ladder was filled before: kept as it is")
    settled, size = asyncio.run(settle(database))
    present = asyncio.run(filled_games(database))
    kind = "PostgreSQL" if is_postgres(database) else "SQLite"
    console.print(
        f"filled {present:,} games in {kind}: rows {took['rows']:.0f} s, indexes "
        f"{took['indexes']:.0f} s, kept aggregates and ANALYZE {settled:.0f} s; "
        f"{size / 1e9:.2f} GB, {size / max(1, present) / 1024:.1f} KB per game"
    )
    return present


def measure_step(database: str, present: int, args: argparse.Namespace, console: Console) -> int:
    """Measure every request and scan (or explain them with ``--explain``); print the
    table, the worst p95 and the server's memory; return the exit status."""
    kind = "PostgreSQL" if is_postgres(database) else "SQLite"
    size = asyncio.run(database_size(database))
    targets = asyncio.run(Targets.read(database))
    if args.explain:
        explain(database, targets, console)
        return 0
    process, base = serve(database)
    try:
        floor, rows = measure_requests(base, targets, args.requests, args.budget)
        rss = resident_mb(process.pid)
    finally:
        process.terminate()
        process.wait(30)
    scans = asyncio.run(measure_scans(database, args.requests, args.budget))
    per_game = size / max(1, present) / 1024
    console.print(
        f"{present:,} games in {kind} ({size / 1e9:.2f} GB, {per_game:.1f} KB per game); "
        f"{args.requests} requests each (fewer past {args.budget:g} s), one at a time; "
        f"{os.cpu_count()} cores"
    )
    worst = report(console, floor, rows, scans)
    mark = "met" if rss <= RSS_GOAL_MB else "missed"
    console.print(
        f"serve process resident memory after the run: {rss:.0f} MB "
        f"(goal ≤ {RSS_GOAL_MB:.0f} MB: {mark})"
    )
    if args.retention:
        dropped, seconds, saved = asyncio.run(retention(database, args.retention))
        console.print(
            f"retention (serve --keep-logs): the exchanges of {dropped:,} games dropped in "
            f"{seconds:.1f} s ({dropped / max(seconds, 1e-9):.0f} games/s), "
            f"{saved:.0f} bytes a game less"
        )
    disk = "met" if per_game <= KB_GOAL else "missed"
    console.print(f"disk: {per_game:.2f} KB per game (goal ≤ {KB_GOAL:g} KB: {disk})")
    print(f"worst p95 ms: {worst:.1f}")
    return 0 if worst <= GOAL_MS and per_game <= KB_GOAL and rss <= RSS_GOAL_MB else 1


async def retention(database: str, games: int) -> tuple[int, float, float]:
    """Drop the exchanges of ``games`` of the oldest games as ``serve --keep-logs`` does
    (the benchmark's database keeps them no more); return the games dropped, the seconds
    and the bytes a document lost on average."""
    from tournoyons_gui.arbitre.compaction import Compactor
    from tournoyons_gui.arbitre.store.archives import ArchiveRow
    from tournoyons_gui.interfaces.registry import load_registry

    store = await Store.open(database)
    try:
        compactor = Compactor(store, load_registry().get, "retention", keep_logs=365.0)
        size = sqlalchemy.func.sum(sqlalchemy.func.length(ArchiveRow.data))
        before = await store.read(lambda c: c.scalar(sqlalchemy.select(size)))
        started = time.perf_counter()
        while compactor.dropped < games:
            if not await compactor.drop_logs():
                break
        took = time.perf_counter() - started
        after = await store.read(lambda c: c.scalar(sqlalchemy.select(size)))
        return compactor.dropped, took, (before - after) / max(1, compactor.dropped)
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    """Fill and measure (see the module); exit 1 when a goal is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20_000, help="finished games to fill")
    parser.add_argument(
        "--database",
        default="",
        help="a SQLite file or a postgresql:// URL (default: a scratch SQLite file)",
    )
    parser.add_argument("--requests", type=int, default=30, help="times each request is asked")
    parser.add_argument(
        "--budget",
        type=float,
        default=60.0,
        help="seconds a request's repeats may take: past them it is asked no more (5 times at"
        " least)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument("--fill-only", action="store_true", help="fill, measure nothing")
    parser.add_argument(
        "--measure-only", action="store_true", help="measure a database filled before"
    )
    parser.add_argument("--explain", action="store_true", help="print each request's SQL and plans")
    parser.add_argument(
        "--retention",
        type=int,
        default=0,
        metavar="N",
        help="after the measure, drop the exchanges of N old games as serve --keep-logs does"
        " and time it (they stay dropped)",
    )
    parser.add_argument(
        "--templates",
        default=str(Path(tempfile.gettempdir()) / "tournoyons-scale"),
        help="folder of the template games (kept)",
    )
    args = parser.parse_args(argv)
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)  # a log file: the table and the plans unwrapped
    scratch = None
    database = args.database
    if not database:
        scratch = Path(tempfile.mkdtemp(prefix="tournoyons-scale-"))
        database = str(scratch / "scale.sqlite3")
    try:
        present = asyncio.run(filled_games(database))
        if not args.measure_only:
            if present:
                console.print(f"{database} holds {present:,} games already: use --measure-only")
                return 2
            present = fill_step(database, args.games, Path(args.templates), console)
        if args.fill_only:
            return 0
        return measure_step(database, present, args, console)
    finally:
        if scratch is not None and not args.keep:
            for path in scratch.iterdir():
                path.unlink()
            scratch.rmdir()
        elif scratch is not None:
            console.print(f"kept {database}")


if __name__ == "__main__":
    sys.exit(main())
