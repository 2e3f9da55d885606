"""The Arbitre benchmark's measures beyond its one process: the rows on real ``serve``
processes (:mod:`benchmarks.arbitre_workers`), the PostgreSQL rows
(:mod:`benchmarks.arbitre_postgres`), the ``play`` row (:mod:`benchmarks.arbitre_play`),
the match rows (:mod:`benchmarks.arbitre_match`: an SPRT's games until its verdict, 1,000
games at ``--concurrency 4``), and ``--before REV``: the whole benchmark run on a
revision's code, then on this tree's, in one run (:func:`compare_runs`)."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console

from benchmarks.arbitre_match import match_lines, match_rows
from benchmarks.arbitre_play import play_lines, play_row
from benchmarks.arbitre_workers import IN_FLIGHT, Run, worker_rows
from benchmarks.revision import code_of

__all__ = ["compare_runs", "more_measures"]

#: The goals with IN_FLIGHT games at once on two workers: own ms p50, p99.
OWN_P50, OWN_P99 = 5.0, 25.0
#: Games of the play row, and the seconds of each serve row's loop.
PLAY_GAMES = {True: 4, False: 100}
LOOP_SECONDS = {True: 1.0, False: 15.0}


def before_workers() -> bool:
    """Whether the code on the path is a revision from before ``serve --workers`` (and
    aiohttp on the move path). A module the revision lacks would be found in this tree (the
    editable install's hook), so what is asked is whether the revision's own ``serve`` has
    workers."""
    from tournoyons_gui.server.cli import serve

    return not hasattr(serve, "worker_app")


def more_measures(
    args: argparse.Namespace, console: Console
) -> tuple[list[str], dict[str, dict[str, float]], bool]:
    """Run the serve rows, the PostgreSQL rows and the play row unless left out; return
    their report lines, key figures, and whether a game failed."""
    lines: list[str] = []
    found: dict[str, dict[str, float]] = {}
    failed = False
    env = dict(os.environ)
    old = before_workers()
    if not args.no_workers:
        counts = (1,) if old else (1, 2)
        with console.status("serve rows") as status:
            runs = asyncio.run(
                worker_rows(
                    LOOP_SECONDS[args.quick],
                    1 if args.quick else 10,
                    env,
                    counts,
                    lambda text: status.update(text),
                    flag=not old,
                )
            )
        table, found_rows, bad = _workers_table(runs)
        lines += ["", *table]
        found.update(found_rows)
        failed = failed or bad
    if not args.no_postgres:
        from benchmarks.arbitre_postgres import postgres_measure

        table, found_rows, bad = postgres_measure(args.quick, env, console)
        lines += ["", *table]
        found.update(found_rows)
        failed = failed or bad
    if not args.no_play:
        with console.status("play row"):
            row = asyncio.run(play_row(PLAY_GAMES[args.quick], env))
        lines += ["", *play_lines(row)]
        found["play"] = {
            "wall s": row.wall,
            "÷ reference": row.wall / row.reference if row.reference else math.nan,
            "start-up s": row.startup,
        }
        failed = failed or not row.ok
    if not args.no_match and has_matches():
        with console.status("match rows"):
            runs, many = match_rows(args.quick, env)
        lines += ["", *match_lines(runs, many)]
        found["match"] = {
            "SPRT games": sum(r.games for r in runs) / len(runs),
            "1,000 games wall s": many.wall,
            "÷ floor": many.wall / many.floor if many.floor else math.nan,
        }
        failed = failed or not many.ok or not all(r.ok for r in runs)
    return lines, found, failed


def has_matches() -> bool:
    """Whether the code on the path plays matches (``play --sprt``): a revision
    before it has no match row (its parser refuses the option)."""
    import contextlib
    import io

    from tournoyons_gui.server.cli import parser

    with contextlib.redirect_stderr(io.StringIO()):
        try:
            parser().parse_args(["play", "--set", "ConnectFour", "--engine", "a", "--sprt", "0,5"])
        except SystemExit:
            return False
    return True


def _workers_table(runs: list[Run]) -> tuple[list[str], dict[str, dict[str, float]], bool]:
    """Return the serve rows as Markdown, their key figures and whether a game failed."""
    from benchmarks.arbitre import check, own_times, percentile

    lines = [
        f"On real serve processes, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.2f} at the end; engines served by another serve process:",
        "",
        "| Games | workers | at once | games | moves | wall s | moves/s | × 1 worker "
        "| CPU ms/move | Arbitre ms/move p50/p99 | checked |",
        "|" + "---|" * 11,
    ]
    found: dict[str, dict[str, float]] = {}
    single: dict[str, float] = {}
    failures: list[str] = []
    goal = ""
    for run in runs:
        own: list[float] = []
        moves = 0
        problems = list(run.failures)
        for record in run.records:
            if problem := check(record):
                problems.append(f"{record.get('id')}: {problem}")
            moves += len(record.get("moves", []))
            if record.get("set") != "Rochambeau":
                own += own_times(record.get("moves", []))
        rate = moves / run.wall if run.wall else 0.0
        if run.workers == 1:
            single[run.label] = rate
        scale = f"{rate / single[run.label]:.2f}" if single.get(run.label) else "—"
        p50, p99 = percentile(own, 0.5), percentile(own, 0.99)
        cpu = f"{run.cpu * 1000 / moves:.2f}" if moves else "—"
        lines.append(
            f"| {run.label} | {run.workers} | {run.concurrency} | {len(run.ids)} | {moves} "
            f"| {run.wall:.1f} | {rate:.0f} | {scale} | {cpu} | {p50:.1f}/{p99:.1f} "
            f"| {len(run.ids) - len(problems)}/{len(run.ids)} {'✓' if not problems else '✗'} |"
        )
        found[f"{run.label}, {run.concurrency} at once, {run.workers} worker(s)"] = {
            "moves/s": rate,
            "CPU ms/move": run.cpu * 1000 / moves if moves else math.nan,
            "Arbitre ms p50": p50,
            "Arbitre ms p99": p99,
        }
        failures += problems
        if run.concurrency == IN_FLIGHT and run.workers == 2:
            mark = "✓" if p50 <= OWN_P50 and p99 <= OWN_P99 else "✗"
            goal = (
                f"Goal: {IN_FLIGHT} games in flight on 2 workers, Arbitre ms/move "
                f"p50 {p50:.1f} (≤ {OWN_P50:g}), p99 {p99:.1f} (≤ {OWN_P99:g}) {mark}."
            )
    if goal:
        lines += ["", goal]
    if failures:
        lines += ["", f"**{len(failures)} game(s) failed:**", ""]
        lines += [f"- {failure}"[:300] for failure in failures[:10]]
    return lines, found, bool(failures)


def compare_runs(args: argparse.Namespace, argv: list[str]) -> int:
    """Run the benchmark on ``args.before``'s code, then on this tree's, each in a process
    of its own (the same options); print both reports and each key figure before and
    after. Return 1 when a game failed in either."""
    passed = [a for a in argv if a != "--before" and a != args.before]
    passed = [a for a in passed if not a.startswith("--before=")]
    runs: list[dict[str, Any]] = []
    status = 0
    started = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    for rev in (args.before, None):
        with tempfile.TemporaryDirectory(prefix="arbitre-before-") as work, code_of(rev):
            out = Path(work) / "figures.json"
            command = [sys.executable, str(Path(__file__).parent / "arbitre.py"), *passed]
            done = subprocess.run([*command, "--json", str(out)], stdout=subprocess.DEVNULL)
            status = max(status, done.returncode)
            runs.append(
                json.loads(out.read_text()) if out.exists() else {"report": "", "figures": {}}
            )
    print(f"Before and after, one run ({started}): the code of {args.before}, then this tree's.\n")
    print(f"**Before** ({args.before}):\n\n{runs[0]['report']}\n\n**After** (this tree):\n")
    print(runs[1]["report"])
    print("\n| Row | figure | before | after |\n|---|---|---|---|")
    for row, after in runs[1]["figures"].items():
        before = runs[0]["figures"].get(row, {})
        for name, value in after.items():
            old = before.get(name)
            shown = "—" if old is None or math.isnan(old) else f"{old:.2f}"
            print(f"| {row} | {name} | {shown} | {value:.2f} |")
    return 1 if status else 0
