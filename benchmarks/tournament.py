"""Benchmark a tournament's load: a round-robin of 8 built-in engines, 20 games per pairing
(28 pairings, 560 games), on real ``serve`` workers.

    .venv/bin/python benchmarks/tournament.py            # both setups, 560 games each
    .venv/bin/python benchmarks/tournament.py --games 2  # 56 games each, a smoke run

Two setups, each in fresh records: **one worker on SQLite** (a file in a temporary folder)
and **two workers on PostgreSQL** (a throwaway server started for the run: Debian's
``postgresql`` binaries, found as the tests find them). The tournament is created on the
first worker with ``POST /api/tournaments`` (TicTacToe; entrants ``perfect`` and
``random`` four times each; ``--concurrency`` games at once, 16 by default) and followed
until it is over. Then every game's record is read back and checked (status ``over`` with
a result, no seat in error, moves numbered 1..n) and the table reports:

- wall time from the creation to the end, games and moves, moves per second;
- the share of the games each worker drove (from the engines' requests: their ``Referee``
  names the driving worker);
- the Arbitre's own time per move, p50 and p99: from an engine's callback received to the
  next engine request sent in the same game (the exchange log's timestamps): taking the
  callback, checking and applying the value, saving the move, publishing it, asking the
  rules, building and starting the next request.

Progress goes to stderr (a bar per setup), the table to stdout; the exit status is 1 when
a game failed a check.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import math
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.arbitre.postgres import postgres_server  # noqa: E402
from tests.conftest import _serving, start_server  # noqa: E402

ENTRANTS = ["perfect", "random"] * 4


def percentile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile (0-1) of ``values`` (nearest rank)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def own_times(exchanges: list[dict[str, Any]]) -> list[float]:
    """Return, in ms, each callback-to-next-request gap of one game's exchange log."""
    events = sorted(
        (dt.datetime.fromisoformat(e["at"]), e["kind"])
        for e in exchanges
        if e["kind"] in ("callback", "request")
    )
    gaps = []
    for (at, kind), (next_at, next_kind) in itertools.pairwise(events):
        if kind == "callback" and next_kind == "request":
            gaps.append((next_at - at).total_seconds() * 1000)
    return gaps


def run(label: str, database: str, workers: int, games: int, concurrency: int) -> dict[str, Any]:
    """Run one tournament on ``workers`` serve processes sharing ``database``."""
    servings = [_serving(start_server(database, "--lease", "15")) for _ in range(workers)]  # type: ignore[arg-type]
    bases = [next(s) for s in servings]
    failures: list[str] = []
    try:
        with httpx.Client(base_url=bases[0], timeout=60, trust_env=False) as client:
            started = time.monotonic()
            created = client.post(
                "/api/tournaments",
                json={
                    "set": "TicTacToe",
                    "format": "round-robin",
                    "games": games,
                    "concurrency": concurrency,
                    "entrants": [{"kind": "builtin", "engine": e} for e in ENTRANTS],
                },
            )
            created.raise_for_status()
            tournament_id = created.json()["id"]
            with Progress(
                TextColumn(label),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
            ) as progress:
                bar = progress.add_task(label, total=None)
                while True:
                    summary = client.get(f"/tournaments/{tournament_id}.json").json()
                    done = summary["progress"]
                    progress.update(bar, completed=done["over"], total=done["planned"])
                    if summary["status"] == "over":
                        break
                    time.sleep(0.25)
            wall = time.monotonic() - started
            moves = 0
            gaps: list[float] = []
            drivers: Counter[str] = Counter()
            for game in summary["games"]:
                record = client.get(f"/games/{game['id']}.json").json()
                numbers = [m["number"] for m in record["moves"]]
                if record["status"] != "over" or record["result"] not in ("seat1", "seat2", "draw"):
                    failures.append(f"{game['id']}: {record['status']} {record['reason']}")
                if any(s["error"] for s in record["seats"]):
                    failures.append(f"{game['id']}: {[s['error'] for s in record['seats']]}")
                if numbers != list(range(1, len(numbers) + 1)):
                    failures.append(f"{game['id']}: moves {numbers}")
                moves += len(numbers)
                gaps.extend(own_times(record["exchanges"]))
                for exchange in record["exchanges"]:
                    if exchange["kind"] == "request" and "Referee=" in exchange["detail"]:
                        referee = exchange["detail"].split("Referee=", 1)[1]
                        drivers[referee.split("/referee", 1)[0]] += 1
            total = sum(drivers.values()) or 1
            return {
                "label": label,
                "games": len(summary["games"]),
                "planned": summary["progress"]["planned"],
                "wall": wall,
                "moves": moves,
                "p50": percentile(gaps, 0.5),
                "p99": percentile(gaps, 0.99),
                "shares": [round(100 * drivers[b] / total) for b in bases],
                "failures": failures,
            }
    finally:
        for serving in servings:
            next(serving, None)


def main(argv: list[str] | None = None) -> int:
    """Run both setups; print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per pairing (default 20)")
    parser.add_argument("--concurrency", type=int, default=16, help="games at once (16)")
    args = parser.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory() as folder:
        sqlite = str(Path(folder) / "bench.sqlite3")
        results.append(run("1 worker, SQLite", sqlite, 1, args.games, args.concurrency))
    with postgres_server() as url:
        results.append(run("2 workers, PostgreSQL", url, 2, args.games, args.concurrency))
    table = Table(
        title=f"Round-robin, 8 built-in engines, {args.games} games per pairing, "
        f"{args.concurrency} at once (TicTacToe)"
    )
    for column in (
        "Setup",
        "Games",
        "Wall s",
        "Moves",
        "Moves/s",
        "Own ms p50",
        "Own ms p99",
        "Games per worker %",
    ):
        table.add_column(column, justify="left" if column == "Setup" else "right")
    for r in results:
        table.add_row(
            r["label"],
            f"{r['games']}/{r['planned']}",
            f"{r['wall']:.1f}",
            str(r["moves"]),
            f"{r['moves'] / r['wall']:.0f}",
            f"{r['p50']:.1f}",
            f"{r['p99']:.1f}",
            " / ".join(map(str, r["shares"])),
        )
    console = Console()
    console.print(table)
    failures = [f for r in results for f in r["failures"]]
    for failure in failures[:20]:
        console.print(f"[red]{failure}[/red]")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
