"""Benchmark Tarot's ``strong`` engine against ``random``: matches of 4 deals in process.

    .venv/bin/python benchmarks/tarot.py               # 100 matches
    .venv/bin/python benchmarks/tarot.py --matches 8   # a smoke run

Each match seats one ``strong`` engine and three ``random`` ones, the strong seat
rotating over the four seats (so each seat deals and leads as often). Each engine is sent
what the Arbitre sends it (:func:`~tournoyons_gui.interfaces.tarot.engines.play_match`).
The table gives, for the strong seat and for the random seats: matches ranked first
(shared first places counted), against the 25 % a seat of four gets by chance, and the
mean total per match. The floor measured in the same run is a ``random`` engine in the
strong seat's place (the same number of matches). The exit status is 1 when ``strong``
is not ranked first more than twice as often as the floor.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournoyons_gui.interfaces.plugin import Engine  # noqa: E402
from tournoyons_gui.interfaces.tarot.engines import (  # noqa: E402
    play_match,
    random_engine,
    strong_engine,
)
from tournoyons_gui.interfaces.tarot.rules import ranks  # noqa: E402

#: How much more often than the floor ``strong`` must come first ("beats random clearly").
CLEARLY = 2.0


def series(engine: Engine, matches: int, progress: Progress, label: str) -> tuple[int, list[int]]:
    """Return how often ``engine`` came first against three ``random`` engines in
    ``matches`` matches (its seat rotating), and its total in each."""
    task = progress.add_task(label, total=matches)
    firsts, totals = 0, []
    for number in range(matches):
        seat = number % 4
        engines: list[Engine] = [random_engine] * 4
        engines[seat] = engine
        final = play_match(engines)
        scores = [int(total) for total in final["totals"]]
        totals.append(scores[seat])
        firsts += ranks(scores)[seat] == 1
        progress.advance(task)
    return firsts, totals


def main() -> int:
    """Run the benchmark; print the table; return 1 when ``strong`` is not clearly better."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=100, help="matches per engine")
    args = parser.parse_args()
    console = Console()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=Console(stderr=True)) as progress:
        strong = series(strong_engine, args.matches, progress, "strong vs 3 random")
        floor = series(random_engine, args.matches, progress, "random vs 3 random")
    table = Table(title=f"Tarot: {args.matches} matches of 4 deals, one seat against 3 random")
    for column in ("seat", "first", "first %", "mean total"):
        table.add_column(column, justify="right" if column != "seat" else "left")
    for name, (firsts, totals) in (("strong", strong), ("random (floor)", floor)):
        share = 100 * firsts / args.matches
        table.add_row(name, str(firsts), f"{share:.0f}", f"{statistics.mean(totals):+.0f}")
    console.print(table)
    ratio = strong[0] / max(floor[0], 1)
    verdict = "✓" if ratio >= CLEARLY else "✗"
    console.print(f"strong first {ratio:.1f}x as often as the floor (goal ≥ {CLEARLY}) {verdict}")
    return 0 if ratio >= CLEARLY else 1


if __name__ == "__main__":
    sys.exit(main())
