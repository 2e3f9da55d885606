"""Benchmark a tournament's load: a round-robin of 8 built-in engines, 20 games per pairing
(28 pairings, 560 games), on real ``serve`` workers.

    .venv/bin/python benchmarks/tournament.py            # both setups, 560 games each
    .venv/bin/python benchmarks/tournament.py --games 2  # 56 games each, a smoke run
    .venv/bin/python benchmarks/tournament.py --before 0158af1  # and the code of then

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

- the workers' CPU time per move (user + system of the ``serve`` processes, PostgreSQL's
  left out): what a move costs whatever else the machine runs.

``--before REV`` runs each setup first on the code of git revision ``REV`` (its
``server/``, ``interfaces/``, ``arbitre/`` and ``static/``, exported to a temporary folder
and put first on the workers' ``PYTHONPATH``; the same libraries), then on this tree's,
and prints the ratio: the reference measured in the same run, on the same machine, minutes
apart. The goals are printed under the table: moves/s at least 3 times the
reference's, and the Arbitre's own time per move with 16 games in flight p50 ≤ 5 ms and
p99 ≤ 25 ms, each met (✓) or not (✗).

Progress goes to stderr (a bar per setup), the table to stdout; the exit status is 1 when
a game failed a check.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import math
import os
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

from benchmarks.revision import code_of  # noqa: E402
from tests.arbitre.postgres import postgres_server  # noqa: E402
from tests.conftest import _serving, start_server  # noqa: E402

ENTRANTS = ["perfect", "random"] * 4
#: The goals: moves/s over the reference's, the own ms per move (p50, p99).
SPEEDUP = 3.0
OWN_P50, OWN_P99 = 5.0, 25.0


def cpu_seconds(pid: int) -> float:
    """Return the CPU time (user + system) process ``pid`` has used, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


def all_games(client: httpx.Client, tournament_id: str) -> list[dict[str, Any]]:
    """Return every game of the tournament, a page of ``games.json`` at a time (its
    ``Link`` header to the next)."""
    games: list[dict[str, Any]] = []
    url: str | None = f"/tournaments/{tournament_id}/games.json?limit=100"
    while url:
        answer = client.get(url)
        answer.raise_for_status()
        page = answer.json()
        games += page["rows"]
        url = page["next_url"]
    return games


def run(label: str, database: str, workers: int, games: int, concurrency: int) -> dict[str, Any]:
    """Run one tournament on ``workers`` serve processes sharing ``database``."""
    processes = [start_server(database, "--lease", "15") for _ in range(workers)]
    servings = [_serving(p) for p in processes]
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
                    time.sleep(0.5)
            wall = time.monotonic() - started
            cpu = sum(cpu_seconds(p.pid) for p in processes)
            moves = 0
            gaps: list[float] = []
            drivers: Counter[str] = Counter()
            listed = all_games(client, tournament_id)
            for game in listed:
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
                "games": len(listed),
                "planned": summary["progress"]["planned"],
                "wall": wall,
                "cpu": cpu,
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
    """Run both setups (each on the reference's code first with ``--before``); print the
    table and the goals."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per pairing (default 20)")
    parser.add_argument("--concurrency", type=int, default=16, help="games at once (16)")
    parser.add_argument("--before", metavar="REV", help="a git revision to compare with")
    args = parser.parse_args(argv)
    codes = [args.before, None] if args.before else [None]
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        for number, rev in enumerate(codes):
            sqlite = str(Path(folder) / f"bench{number}.sqlite3")
            results.append(one("1 worker, SQLite", rev, sqlite, 1, args))
    for rev in codes:
        with postgres_server() as url:  # a fresh server for each code: fresh records
            results.append(one("2 workers, PostgreSQL", rev, url, 2, args))
    return report(results, args)


def one(
    setup: str, rev: str | None, database: str, workers: int, args: argparse.Namespace
) -> dict[str, Any]:
    """Run ``setup`` on the code of ``rev`` (``None``: this tree's)."""
    with code_of(rev):
        result = run(
            f"{setup}, {rev}" if rev else setup, database, workers, args.games, args.concurrency
        )
    result["setup"], result["before"] = setup, rev is not None
    return result


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> int:
    """Print the table of ``results`` and the goals; return 1 when a game failed."""
    table = Table(
        title=f"Round-robin, 8 built-in engines, {args.games} games per pairing, "
        f"{args.concurrency} at once (TicTacToe); load average "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
        + " at the end"
    )
    for column in (
        "Setup",
        "Games",
        "Wall s",
        "Moves",
        "Moves/s",
        "× before",
        "CPU ms/move",
        "Own ms p50",
        "Own ms p99",
        "Games per worker %",
    ):
        table.add_column(column, justify="left" if column == "Setup" else "right")
    goals = []
    reference: dict[str, float] = {}
    for r in results:
        rate = r["moves"] / r["wall"]
        setup = r["setup"]
        ratio = ""
        if r["before"]:
            reference[setup] = rate
        elif setup in reference:
            times = rate / reference[setup]
            ratio = f"{times:.1f}"
            goals.append(f"{setup}: {times:.1f}× the moves/s before {_mark(times >= SPEEDUP)}")
        if not r["before"] and args.concurrency == 16:
            met = r["p50"] <= OWN_P50 and r["p99"] <= OWN_P99
            goals.append(
                f"{setup}, 16 in flight: own ms p50 {r['p50']:.1f} (≤ {OWN_P50:g}), p99 "
                f"{r['p99']:.1f} (≤ {OWN_P99:g}) {_mark(met)}"
            )
        table.add_row(
            r["label"],
            f"{r['games']}/{r['planned']}",
            f"{r['wall']:.1f}",
            str(r["moves"]),
            f"{rate:.0f}",
            ratio,
            f"{r['cpu'] * 1000 / r['moves']:.2f}" if r["moves"] else "—",
            f"{r['p50']:.1f}",
            f"{r['p99']:.1f}",
            " / ".join(map(str, r["shares"])),
        )
    console = Console(width=160)
    console.print(table)
    if goals:
        console.print("Goals: " + "; ".join(goals) + ".")
    failures = [f for r in results for f in r["failures"]]
    for failure in failures[:20]:
        console.print(f"[red]{failure}[/red]")
    return 1 if failures else 0


def _mark(met: bool) -> str:
    return "✓" if met else "✗"


if __name__ == "__main__":
    sys.exit(main())
