"""The lists' pages with 10,000 registered engines: the server time of the first
page, a deep page and the page for people, against the floor measured in the same run.

    .venv/bin/python benchmarks/paging.py [--engines 10000] [--requests 200]
        [--database postgresql://...]

Makes a SQLite file of its own (or uses the PostgreSQL database given, adding its engines
there), registers the engines straight in the records, serves the real application
(``create_app()``, uvicorn, one worker) on 127.0.0.1 and asks each page ``--requests``
times, one at a time. The server time of a page is its median round trip less the median
round trip of ``/healthz`` (the floor: the same server, client and connection answering
nothing); the goal is under 50 ms for the first page. Stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx
import uvicorn
from sqlalchemy import insert

from tournoyons_gui.arbitre.store import Store
from tournoyons_gui.arbitre.store.schema import EngineRow
from tournoyons_gui.server.app import create_app
from tournoyons_gui.server.cli import bind

#: The goal for the first page's server time, in milliseconds.
GOAL_MS = 50.0


async def add_engines(database: str, count: int) -> None:
    """Register ``count`` engines straight in the records (names ``bench NNNNN``)."""
    store = await Store.open(database)
    try:
        at = store.now()
        rows = [
            {
                "id": f"BENCH{n:07d}",
                "name": f"bench {n:05d}",
                "url": f"http://engines.example/{n}",
                "sets": ["TicTacToe"],
                "poker_level2": False,
                "retired": False,
                "created_at": at,
                "secret": "",
                "open_entry": False,
                "call_key": "",
                "kind": "engine",
            }
            for n in range(count)
        ]
        for start in range(0, len(rows), 1000):
            chunk = rows[start : start + 1000]
            await store.write(
                lambda connection, chunk=chunk: connection.execute(insert(EngineRow), chunk)
            )
    finally:
        await store.close()


def median_ms(client: httpx.Client, path: str, count: int) -> float:
    """Return the median round trip of ``count`` requests of ``path``, in milliseconds."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        answer = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 200, (path, answer.status_code, answer.text[:200])
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    """Run the measures and print them; exit 1 when the first page misses the goal."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engines", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--database", default="")
    args = parser.parse_args(argv)
    folder = tempfile.TemporaryDirectory(prefix="tournoyons-paging-")
    database = args.database or str(Path(folder.name) / "paging.sqlite3")
    asyncio.run(add_engines(database, args.engines))
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
            deep = client.get("/api/engines", params={"limit": 100})
            for _ in range(args.engines // 200):  # half way through the list
                link = deep.headers.get("link")
                if link is None:
                    break
                deep = client.get(link.split("<", 1)[1].split(">", 1)[0])
            deep_path = str(deep.request.url).removeprefix(base)
            median_ms(client, "/healthz", 20)  # warm up
            floor = median_ms(client, "/healthz", args.requests)
            measures = {
                "GET /api/engines (first page, 50)": median_ms(
                    client, "/api/engines", args.requests
                ),
                "GET /api/engines (half way, 100)": median_ms(client, deep_path, args.requests),
                "GET /engines (the page, 50)": median_ms(client, "/engines", args.requests),
            }
    finally:
        server.should_exit = True
        thread.join(15)
        folder.cleanup()
    kind = "PostgreSQL" if database.startswith("postgres") else "SQLite"
    print(f"{args.engines} engines in {kind}; {args.requests} requests each, one at a time.")
    print(f"floor (/healthz): {floor:.2f} ms median round trip")
    first = 0.0
    for name, value in measures.items():
        server_ms = max(0.0, value - floor)
        first = first or server_ms
        print(f"{name}: {value:.2f} ms round trip, {server_ms:.2f} ms server time")
    met = first < GOAL_MS
    print(f"goal: first page under {GOAL_MS:.0f} ms of server time: {'met' if met else 'missed'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
