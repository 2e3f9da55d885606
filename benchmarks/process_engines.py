"""Benchmark process engines: ``play`` of ConnectFour games between a starter engine and
``builtin:random``, the engine over standard input and output (``cmd:``) beside the same
engine over HTTP, in one run.

    .venv/bin/python benchmarks/process_engines.py              # 1,000 games each way
    .venv/bin/python benchmarks/process_engines.py --games 10   # the smallest: a smoke run
    .venv/bin/python benchmarks/process_engines.py --profile    # where the Arbitre's CPU goes

The engine is the Python starter as ``tournoyons-gui new-engine --lang python`` writes it
for each transport, run by this script's interpreter with ``-S`` (the standard library
alone). Each row is ``play --set ConnectFour --engine me=ENGINE --engine builtin:random
--games N --concurrency 8 --seed 1``, run in this process as the command line runs it (its
server on 127.0.0.1, a SQLite file of its own); every game is checked (over, with a
result, no seat at fault) from the match document. The table gives, per row: games,
moves, wall time, games per second, the Arbitre's CPU per move (this process's CPU time,
every thread: the engine is a process of its own, and over HTTP so are its callbacks'
server threads), and the engine's thinking time per move (p50 and p95, as ``play``
measured it from request to answer).

Goals (printed under the table, each met ✓ or not ✗): the process engine plays at least
3 times the HTTP one's games per second, and 1,000 games within 60 s on this project's
2-core machine (at another ``--games``, the same rate: ``N × 60 / 1000`` s).

``--profile``: a yappi profile (CPU clock, every thread) of the process row, the functions
of most own time per move. Exit status 1 when a game failed a check.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

__all__ = ["Row", "main", "play_row"]

#: The goals: the process engine's games per second against the HTTP one's, and the
#: seconds of 1,000 games.
SPEED_UP = 3.0
SECONDS_PER_1000 = 60.0


@dataclass
class Row:
    """One row: the engine's transport, games asked and played to an end with a result,
    moves, wall seconds, CPU seconds of this process, the engine's think ms (p50, p95),
    and what failed a check (``""``: nothing)."""

    transport: str
    games: int
    checked: int
    moves: int
    wall: float
    cpu: float
    think: tuple[int, int]
    failed: str

    @property
    def rate(self) -> float:
        """Return the games per second."""
        return self.games / self.wall if self.wall else 0.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def http_engine(folder: Path) -> Iterator[str]:
    """Run the HTTP starter of ``folder`` on a free port; yield its URL."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-S", "engine.py", str(port)],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the HTTP starter did not start") from None
                time.sleep(0.05)
        yield url
    finally:
        process.kill()
        process.wait(10)


def play_row(transport: str, engine: str, games: int, work: Path, concurrency: int = 8) -> Row:
    """Play ``games`` games of ``engine`` (an ``--engine`` value) against
    ``builtin:random`` with ``play`` in this process, ``concurrency`` at once; return the
    row."""
    from tournoyons_gui.server.cli import main

    report = work / f"{transport}.json"
    args = ["play", "--set", "ConnectFour", "--engine", f"me={engine}", "--engine"]
    args += ["builtin:random", "--games", str(games), "--concurrency", str(concurrency)]
    args += ["--seed", "1"]
    args += ["--database", str(work / f"{transport}.sqlite3"), "--json", str(report)]
    wall, cpu = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(io.StringIO()) as out:
        status = main(args)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    document: dict[str, Any] = json.loads(report.read_text()) if report.exists() else {}
    listed = document.get("games_list", [])
    checked = [
        g for g in listed if g.get("status") == "over" and g.get("result") and not g.get("fault")
    ]
    moves = sum(int(g.get("plies", 0)) for g in listed)
    think = (document.get("entrants") or [{}])[0].get("think_ms") or {}
    failed = "" if status == 0 and len(checked) == games else out.getvalue()[-400:]
    return Row(
        transport,
        games,
        len(checked),
        moves,
        wall,
        cpu,
        (int(think.get("p50", 0)), int(think.get("p95", 0))),
        failed,
    )


def table(rows: list[Row], concurrency: int) -> list[str]:
    """Return the rows and the goals as Markdown lines."""
    lines = [
        f"| ConnectFour, the Python starter - random, --concurrency {concurrency} | games "
        "| moves | wall s "
        "| games/s | Arbitre CPU ms/move | engine think ms p50/p95 | checked |",
        "|" + "---|" * 8,
    ]
    for row in rows:
        per_move = row.cpu * 1000 / row.moves if row.moves else 0.0
        lines.append(
            f"| over {row.transport} | {row.games} | {row.moves} | {row.wall:.1f} "
            f"| {row.rate:.1f} | {per_move:.2f} | {row.think[0]}/{row.think[1]} | "
            f"{row.checked}/{row.games} {'✓' if not row.failed else '✗ ' + repr(row.failed)} |"
        )
    by = {row.transport: row for row in rows}
    process, http = by.get("stdio"), by.get("HTTP")
    if process is not None and http is not None and http.rate:
        ratio = process.rate / http.rate
        allowed = SECONDS_PER_1000 * process.games / 1000
        lines += [
            "",
            f"Goals: the process engine {ratio:.1f} times the HTTP one's games per second "
            f"(≥ {SPEED_UP:g}) {'✓' if ratio >= SPEED_UP else '✗'}; {process.games} games in "
            f"{process.wall:.1f} s (≤ {allowed:g}) {'✓' if process.wall <= allowed else '✗'}.",
        ]
    return lines


def profiled(engine: str, games: int, work: Path, concurrency: int) -> list[str]:
    """Return the profile of a process row (yappi, CPU clock, every thread): the functions
    of most own time per move, as Markdown lines."""
    import yappi

    yappi.set_clock_type("cpu")
    yappi.start(builtins=False)
    try:
        row = play_row("stdio-profiled", engine, games, work, concurrency)
    finally:
        yappi.stop()
    stats = sorted(yappi.get_func_stats(), key=lambda s: s.tsub, reverse=True)[:15]
    total = sum(s.tsub for s in yappi.get_func_stats())
    moves = max(row.moves, 1)
    lines = [
        "",
        f"Profile (yappi, CPU clock), the process row, {row.moves} moves; "
        f"{total * 1e6 / moves:.0f} µs of profiled CPU per move; the functions of most own time:",
        "",
        "| function | where | calls/move | own µs/move | share |",
        "|---|---|---|---|---|",
    ]
    for stat in stats:
        where = "/".join(Path(stat.module).parts[-2:])
        lines.append(
            f"| {stat.name} | {where}:{stat.lineno} | {stat.ncall / moves:.1f} "
            f"| {stat.tsub * 1e6 / moves:.0f} | {stat.tsub / total:.1%} |"
        )
    yappi.clear_stats()
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print its table; return 1 when a game failed a check."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per row (default 1000)")
    parser.add_argument(
        "--concurrency", type=int, default=8, help="games at once in each row (default 8)"
    )
    parser.add_argument("--profile", action="store_true", help="profile the process row too")
    args = parser.parse_args(argv)
    from tournoyons_gui.arbitre.starters import write_starter

    with tempfile.TemporaryDirectory(prefix="process-engines-") as temporary:
        work = Path(temporary)
        folders = {t: work / t for t in ("stdio", "http")}
        for transport, folder in folders.items():
            write_starter("python", folder, transport)
        command = f"cmd:{sys.executable} -S {folders['stdio'] / 'engine.py'}"
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
        started = f"Process engines, {time.strftime('%Y-%m-%d %H:%M')}, load average {load}"
        rows = [play_row("stdio", command, args.games, work, args.concurrency)]
        with http_engine(folders["http"]) as url:
            rows.append(play_row("HTTP", url, args.games, work, args.concurrency))
        lines = table(rows, args.concurrency)
        if args.profile:
            lines += profiled(command, args.games, work, args.concurrency)
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print("\n".join([f"{started} at start, {load} at end.", "", *lines]))
    return 1 if any(row.failed for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
