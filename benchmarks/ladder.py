"""The standing ladder's benchmark: ladder games per minute on this machine with three
engines of its own, against a floor measured in the same run; and the leaderboard's
server time with 100,000 registered engines on a Set's ladder.

    .venv/bin/python benchmarks/ladder.py                # 60 s of play each, 100,000 engines
    .venv/bin/python benchmarks/ladder.py --quick        # a smoke run: 3 s, 500 engines
    .venv/bin/python benchmarks/ladder.py --engines 100000 --database postgresql://...

**Ladder games per minute.** A real ``tournoyons-gui serve --ladder`` (one worker, a
SQLite file of its own) and the three Connect Four engines of
``tests/arbitre/ladder_engines.py`` (``strong``, ``weak``, ``random``: they answer in their
body, registered ``sync``, one ladder game at a time each), put on the ladder through the
API; once the first game is over, the ladder games over in ``--seconds`` give the rate.
The floor: the same three engines on a fresh server in a round-robin tournament that
plays one game at a time (three engines that each play one game at a time can play no
more), for as long. Their ratio is what the ladder's scheduling (a step under a lease
per game's end, pairs made in a transaction with their slots) costs or gains; the goal
is at least 0.8 of the floor.

**The leaderboard at N engines.** ``--engines`` engines (100,000 by default) registered
straight in the records, every one on ConnectFour's ladder with a record and a rating
(9 in 10 ranked, 1 in 100 paused), the first 2,000 with a rating history; the real
application (``create_app()``, uvicorn, one worker) serves them on 127.0.0.1 and each
address is asked ``--requests`` times, one at a time. A page's server time is its median
round trip less the median of ``/healthz`` (the floor: the same server and connection
answering nothing); the goal is 50 ms for every one of them: the table's first page (the
JSON's 100 rows, the page's 50 with their sparklines and records against the row above),
a page half way down, every Set's ladder, the front page, an engine's page (its rank
counted along the index).

Progress goes to stderr, the tables to stdout; the exit status is 1 when a figure misses
its goal or a check fails (no ladder game played, a leaderboard out of order).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import uvicorn  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: E402
from rich.table import Table  # noqa: E402
from sqlalchemy import Connection, insert  # noqa: E402

from tests.arbitre.ladder_engines import LadderEngines  # noqa: E402
from tests.conftest import _serving, start_server  # noqa: E402
from tournoyons_gui.arbitre.store import Store  # noqa: E402
from tournoyons_gui.arbitre.store.kept_records import POINTS, SETS, level_of  # noqa: E402
from tournoyons_gui.arbitre.store.ladder import (  # noqa: E402
    LADDER_SETS,
    PAUSED,
    PROVISIONAL,
    RANKED,
    STANDINGS,
)
from tournoyons_gui.arbitre.store.schema import EngineRow  # noqa: E402
from tournoyons_gui.server.app import create_app  # noqa: E402
from tournoyons_gui.server.cli import bind  # noqa: E402

#: The engines of the play, strongest first.
ENGINES = ("strong", "weak", "random")
#: The goals: the ladder's rate against the floor's, each page's server time.
GOAL_RATIO = 0.8
GOAL_MS = 50.0
#: Engines with a rating history (the first pages'), points each.
WITH_HISTORY, POINTS_EACH = 2_000, 40
BATCH = 5_000
SET = "ConnectFour"

console = Console(stderr=True)


# --- ladder games per minute ---------------------------------------------------------------


def _register(http: httpx.Client, base: str) -> dict[str, tuple[str, str]]:
    """Register the three engines on ``http``'s server, on the ladder; return each one's
    id and edit token."""
    found = {}
    for name in ENGINES:
        made = http.post(
            "/api/engines",
            json={
                "name": name,
                "url": f"{base}/{name}",
                "sets": [SET],
                "kind": "sync",
                "ladder": True,
            },
        )
        made.raise_for_status()
        found[name] = (made.json()["id"], made.json()["edit_token"])
    return found


def _ladder_games(http: httpx.Client) -> int:
    """Return the ladder games over: half the rated games of the table (two engines each)."""
    table = http.get(f"/api/ladder/{SET}").json()["engines"]
    return sum(row["games"] for row in table) // 2


def _count(label: str, seconds: float, count: Any) -> tuple[int, float]:
    """Wait for ``count()`` to pass 0, then count for ``seconds``; return the games and
    the seconds measured (a bar on stderr)."""
    deadline = time.monotonic() + 60
    while count() == 0:
        if time.monotonic() > deadline:
            return 0, seconds
        time.sleep(0.1)
    start, started = count(), time.monotonic()
    with Progress(
        TextColumn(label), BarColumn(), TimeElapsedColumn(), console=console, transient=True
    ) as progress:
        bar = progress.add_task(label, total=seconds)
        while (elapsed := time.monotonic() - started) < seconds:
            progress.update(bar, completed=elapsed)
            time.sleep(0.2)
    return count() - start, time.monotonic() - started


def play(seconds: float) -> dict[str, Any]:
    """Measure the ladder's games per minute and the floor's (see the module)."""
    found: dict[str, Any] = {}
    with (
        tempfile.TemporaryDirectory(prefix="tournoyons-ladder-") as folder,
        LadderEngines().running() as engines,
    ):
        serving = _serving(start_server(Path(folder) / "ladder.sqlite3", "--ladder"))
        base = next(serving)
        try:
            with httpx.Client(base_url=base, timeout=30, trust_env=False) as http:
                _register(http, engines.base)
                games, spent = _count("ladder", seconds, lambda: _ladder_games(http))
                found["ladder"] = games * 60 / spent
                table = http.get(f"/api/ladder/{SET}").json()["engines"]
                found["order"] = [row["name"] for row in table]
                found["ladder_games"] = games
        finally:
            next(serving, None)
        serving = _serving(start_server(Path(folder) / "floor.sqlite3"))
        base = next(serving)
        try:
            with httpx.Client(base_url=base, timeout=30, trust_env=False) as http:
                ids = []
                for name in ENGINES:
                    made = http.post(
                        "/api/engines",
                        json={
                            "name": name,
                            "url": f"{engines.base}/{name}",
                            "sets": [SET],
                            "kind": "sync",
                            "open": True,
                        },
                    )
                    made.raise_for_status()
                    ids.append(made.json()["id"])
                created = http.post(
                    "/api/tournaments",
                    json={
                        "set": SET,
                        "format": "round-robin",
                        "games": 100,
                        "concurrency": 1,
                        "entrants": [{"kind": "registered", "engine": i} for i in ids],
                    },
                )
                created.raise_for_status()
                path = f"/tournaments/{created.json()['id']}.json"

                def over() -> int:
                    return int(http.get(path).json()["progress"]["over"])

                games, spent = _count("floor", seconds, over)
                found["floor"] = games * 60 / spent
                found["floor_games"] = games
        finally:
            next(serving, None)
    return found


# --- the leaderboard at N engines ----------------------------------------------------------


def _rows(count: int, rng: random.Random, at: Any) -> dict[str, list[dict[str, Any]]]:
    """Return the records' rows of ``count`` engines on the ladder (see the module)."""
    engines, sets, standings, points = [], [], [], []
    ranked: list[tuple[float, str]] = []
    for n in range(count):
        engine = f"L{n:09d}"
        rated = rng.randint(0, 400) if rng.random() < 0.9 else rng.randint(0, 9)
        won = rng.randint(0, rated)
        drawn = rng.randint(0, rated - won)
        lost = rated - won - drawn
        sigma = max(0.8, 8.333 / (1 + rated / 10))
        mu = 25 + rng.gauss(0, 6)
        paused = n % 100 == 99
        tier = PAUSED if paused else RANKED if rated >= 10 else PROVISIONAL
        engines.append(
            {
                "id": engine,
                "name": f"ladder engine {n:06d}",
                "url": f"http://engines{n % 97}.example/{n}/play",
                "sets": [SET],
                "poker_level2": False,
                "retired": False,
                "created_at": at,
                "secret": f"s{n}",
                "open_entry": False,
                "call_key": "",
                "kind": "engine",
                "ladder": True,
                "ladder_paused": "timeout" if paused else "",
                "ladder_reason": "no answer within 20 s" if paused else "",
                "ladder_paused_game": "G00000000001" if paused else "",
            }
        )
        record = {"won": won, "drawn": drawn, "lost": lost, "rated": rated, "mu": mu}
        sets.append({"engine_id": engine, "set_name": SET, "error": 0, "sigma": sigma, **record})
        standings.append(
            {
                "engine_id": engine,
                "set_name": SET,
                "tier": tier,
                "rank_key": -(mu - 3 * sigma),
                "sigma": sigma,
                "games": rated,
                "since": at,
                "last_game": "",
                **record,
            }
        )
        if tier == RANKED:
            ranked.append((-(mu - 3 * sigma), engine))
    for _, engine in sorted(ranked)[:WITH_HISTORY]:
        mu, sigma = 25.0, 8.333
        for number in range(1, POINTS_EACH + 1):
            mu += rng.gauss(0.1, 0.8)
            sigma = max(0.8, sigma * 0.95)
            points.append(
                {
                    "engine_id": engine,
                    "set_name": SET,
                    "number": number,
                    "level": level_of(number),
                    "game_id": f"G{number:011d}",
                    "at": at,
                    "mu": mu,
                    "sigma": sigma,
                }
            )
    return {"engines": engines, "sets": sets, "standings": standings, "points": points}


async def fill(database: str, count: int) -> None:
    """Register ``count`` engines on ConnectFour's ladder straight in the records."""
    store = await Store.open(database)
    try:
        rows = _rows(count, random.Random(39), store.now())
        tables = (
            (EngineRow.__table__, rows["engines"]),
            (SETS, rows["sets"]),
            (STANDINGS, rows["standings"]),
            (POINTS, rows["points"]),
        )
        with Progress(
            TextColumn("fill"), BarColumn(), TimeElapsedColumn(), console=console, transient=True
        ) as progress:
            total = sum(len(r) for _, r in tables)
            bar = progress.add_task("fill", total=total)
            for table, table_rows in tables:
                for start in range(0, len(table_rows), BATCH):
                    chunk = table_rows[start : start + BATCH]

                    def put(connection: Connection, table: Any = table, chunk: Any = chunk) -> None:
                        connection.execute(insert(table), chunk)

                    await store.write(put)
                    progress.advance(bar, len(chunk))
        seed = {"set_name": SET, "seed": 1, "next_pair": 0}
        await store.write(lambda connection: connection.execute(insert(LADDER_SETS), [seed]))
        if store.postgres:
            await store.write(
                lambda c: c.exec_driver_sql("ANALYZE engines, engine_sets, ladder_standings")
            )
    finally:
        await store.close()


def median_ms(client: httpx.Client, path: str, requests: int) -> float:
    """Return the median round trip of ``path`` in milliseconds (each answer checked)."""
    times = []
    for _ in range(requests):
        started = time.perf_counter()
        answer = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
        if answer.status_code != 200:
            raise RuntimeError(f"{path}: {answer.status_code} {answer.text[:200]}")
    return statistics.median(times)


def leaderboard(database: str, count: int, requests: int) -> dict[str, Any]:
    """Measure the leaderboard's pages at ``count`` engines (see the module)."""
    asyncio.run(fill(database, count))
    sock, base = bind("127.0.0.1", 0)
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(database=database, public_url=base),
            log_level="warning",
            access_log=False,
            lifespan="on",
        )
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        with httpx.Client(base_url=base, timeout=60, trust_env=False) as client:
            first = client.get(f"/api/ladder/{SET}").json()["engines"]
            keys = [(row["paused"], row["provisional"], -row["rating"]) for row in first]
            deep = client.get(f"/api/ladder/{SET}")
            for _ in range(count // 200):  # half way down the table
                link = deep.headers.get("link")
                if link is None:
                    break
                deep = client.get(link.split("<", 1)[1].split(">", 1)[0])
            deep_path = str(deep.request.url).removeprefix(base)
            middle = deep.json()["engines"][0]["id"]
            median_ms(client, "/healthz", 20)  # warm up
            floor = median_ms(client, "/healthz", requests)
            measures = {
                f"GET /api/ladder/{SET} (first page, 100)": f"/api/ladder/{SET}",
                f"GET /api/ladder/{SET} (half way, 100)": deep_path,
                f"GET /ladder/{SET} (the page, 50)": f"/ladder/{SET}",
                "GET /ladder (every Set)": "/ladder",
                "GET /arbitre (the front page)": "/arbitre",
                "GET /engines/<id> (half way: its rank)": f"/engines/{middle}",
            }
            times = {label: median_ms(client, path, requests) for label, path in measures.items()}
    finally:
        server.should_exit = True
        thread.join(15)
    return {
        "floor": floor,
        "times": {label: ms - floor for label, ms in times.items()},
        "ordered": keys == sorted(keys),
    }


def main(argv: list[str] | None = None) -> int:
    """Run both measures, print them against their goals; return 1 when one is missed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 s of play, 500 engines")
    parser.add_argument("--seconds", type=float, default=60.0, help="play measured (60)")
    parser.add_argument("--engines", type=int, default=100_000, help="engines (100,000)")
    parser.add_argument("--requests", type=int, default=50, help="requests per page (50)")
    parser.add_argument("--database", default="", help="a PostgreSQL URL (default SQLite)")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.engines, args.requests = 3.0, 500, 5
    played = play(args.seconds)
    with tempfile.TemporaryDirectory(prefix="tournoyons-ladder-") as folder:
        database = args.database or str(Path(folder) / "board.sqlite3")
        board = leaderboard(database, args.engines, args.requests)
    failed = False
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    table = Table(title=f"The ladder: games per minute ({args.seconds:g} s each); load {load}")
    for column in ("Play", "Games", "Games/min", "× floor"):
        table.add_column(column, justify="left" if column == "Play" else "right")
    ratio = played["ladder"] / played["floor"] if played["floor"] else 0.0
    met = ratio >= GOAL_RATIO and played["ladder_games"] > 0
    failed |= not met
    table.add_row(
        "ladder: strong, weak, random",
        str(played["ladder_games"]),
        f"{played['ladder']:.0f}",
        f"{ratio:.2f} {'✓' if met else '✗'}",
    )
    table.add_row(
        "floor: their round-robin, one game at a time",
        str(played["floor_games"]),
        f"{played['floor']:.0f}",
        "1.00",
    )
    Console().print(table)
    ordered = played["order"] == list(ENGINES)
    print(f"The table after the play: {', '.join(played['order'])} {'✓' if ordered else '✗'}")
    print(f"Goal: the ladder's rate at least {GOAL_RATIO} of the floor's.")
    board_table = Table(
        title=f"The leaderboard at {args.engines:,} engines on {SET}'s ladder: server ms "
        f"(median round trip less /healthz's, {board['floor']:.2f} ms; {args.requests} requests)"
    )
    board_table.add_column("Page")
    board_table.add_column("Server ms", justify="right")
    for label, ms in board["times"].items():
        good = ms <= GOAL_MS
        failed |= not good
        board_table.add_row(label, f"{ms:.1f} {'✓' if good else '✗'}")
    Console().print(board_table)
    print(f"Goal: every page under {GOAL_MS:g} ms; first page in order: {board['ordered']}.")
    failed |= not board["ordered"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
