"""The Arbitre benchmark's PostgreSQL row: games in flight on ``serve --workers
2`` sharing a PostgreSQL server, where every move is appended to the records, against
the rate at which that server commits one statement at a time, measured in the same run.

A throwaway PostgreSQL server is started for the row (``initdb`` in a temporary folder,
the tests' way) with ``fsync`` on, as a real server runs: a commit is then on the disk,
and what one commit for the moves of every game in flight saves shows. Then:

- *the commit floor*: 16 connections of the benchmark's own (asyncpg), each inserting one
  row of a move's size at a time in autocommit, for a fixed time: commits per second.
  Appending each move in a commit of its own, the Arbitre could not record moves faster
  than this; grouped, it can;
- *TicTacToe, built-in engines, 16 in flight*: each of 16 slots creates a game of two
  built-in ``random`` engines (``POST /api/games``), follows its live events until it is
  over and starts the next, for a fixed time: the engines answer at once, so what a move
  costs is the Arbitre's own work and its records;
- *5 Sets × N at once*: the serve rows' mixed games, created together.

Reported per row: moves/s, ``÷ floor`` (moves/s ÷ the floor's commits/s), and from
PostgreSQL's own statistics over the row: the appends' commits per move (the statements
that inserted moves, ``pg_stat_statements``: each one a commit of its own), all commits
per move (``pg_stat_database``: the games' creations, leases, ends and the workers'
``NOTIFY`` too) and the WAL syncs to the disk per move (``pg_stat_wal``). Every game's
record is read back and checked as the serve rows' are (over with a result, no seat in
error, moves 1..n).
"""

from __future__ import annotations

import asyncio
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.arbitre_workers import (  # noqa: E402
    IN_FLIGHT,
    Client,
    Run,
    cpu_of,
    family,
    mixed_row,
    serve,
)

__all__ = ["PgRow", "postgres_lines", "postgres_measure", "postgres_rows"]

#: The floor's rows: a move's size (its value, Turn, Tray and query as the records hold).
FLOOR_ROW = "x" * 200
#: The goal for the grouped appends: with 16 games in flight, the appends' commits
#: per move (1 when each move is committed alone) at most this: two moves a commit.
APPENDS_PER_MOVE = 0.5


@dataclass
class PgRow:
    """One row on PostgreSQL: the serve row, and the database's counts over it."""

    run: Run
    commits: int = 0
    syncs: int = 0
    appends: int = 0


@dataclass
class Floor:
    """The commit floor: commits, seconds, and failures."""

    commits: int = 0
    wall: float = 0.0
    bad: int = 0

    @property
    def rate(self) -> float:
        """Return commits per second."""
        return self.commits / self.wall if self.wall else 0.0


async def counts(dsn: str) -> tuple[int, int, int]:
    """Return PostgreSQL's commits in this database, its WAL syncs (0 when it has no
    ``pg_stat_wal``: before PostgreSQL 14) and the statements that inserted moves
    (``pg_stat_statements``: the appends, each its own commit in autocommit) so far."""
    import asyncpg

    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute("SELECT pg_stat_clear_snapshot()")
        commits = await connection.fetchval(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        )
        try:
            syncs = await connection.fetchval("SELECT wal_sync FROM pg_stat_wal")
        except asyncpg.PostgresError:
            syncs = 0
        appends = await connection.fetchval(
            "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
            "WHERE query ILIKE '%INSERT INTO moves%'"
        )
        return int(commits or 0), int(syncs or 0), int(appends or 0)
    finally:
        await connection.close()


async def commit_floor(dsn: str, seconds: float) -> Floor:
    """Measure the commits per second of :data:`IN_FLIGHT` connections each inserting one
    row at a time in autocommit, for ``seconds``."""
    import asyncpg

    setup = await asyncpg.connect(dsn)
    await setup.execute("CREATE TABLE IF NOT EXISTS bench_floor (id serial, body text)")
    await setup.close()
    floor = Floor()
    deadline = time.monotonic() + seconds
    started = time.monotonic()

    async def one() -> None:
        connection = await asyncpg.connect(dsn)
        try:
            while time.monotonic() < deadline:
                try:
                    await connection.execute(
                        "INSERT INTO bench_floor (body) VALUES ($1)", FLOOR_ROW
                    )
                    floor.commits += 1
                except asyncpg.PostgresError:
                    floor.bad += 1
        finally:
            await connection.close()

    await asyncio.gather(*(one() for _ in range(IN_FLIGHT)))
    floor.wall = time.monotonic() - started
    return floor


async def builtin_row(client: Client, seconds: float, pids: list[int], workers: int) -> Run:
    """Play TicTacToe games of built-in engines :data:`IN_FLIGHT` at a time for
    ``seconds``."""
    ids: list[str] = []
    failures: list[str] = []
    deadline = time.monotonic() + seconds
    seat = {"kind": "builtin", "engine": "random"}

    async def slot() -> None:
        while time.monotonic() < deadline:
            try:
                game_id = await client.create("TicTacToe", seat)
            except Exception as failed:
                failures.append(str(failed)[:200])
                return
            ids.append(game_id)
            await client.over(game_id)

    cpu, started = cpu_of(pids), time.monotonic()
    await asyncio.gather(*(slot() for _ in range(IN_FLIGHT)))
    wall, cpu = time.monotonic() - started, cpu_of(pids) - cpu
    records = [await client.record(i) for i in ids]
    return Run("TicTacToe, built-in engines", workers, IN_FLIGHT, ids, records, wall, cpu, failures)


async def postgres_rows(
    seconds: float,
    floor_seconds: float,
    per_set: int,
    env: dict[str, str],
    note: Callable[[str], None],
) -> tuple[Floor, list[PgRow]]:
    """Start a PostgreSQL server (``fsync`` on), measure its commit floor, then play the
    rows on ``serve --workers 2`` of ``env``'s code on it; return the floor and the rows."""
    import asyncpg

    from tests.arbitre.postgres import postgres_server

    rows: list[PgRow] = []
    statements = {"shared_preload_libraries": "pg_stat_statements"}
    with postgres_server(fsync=True, settings=statements) as url:
        dsn = url
        setup = await asyncpg.connect(dsn)
        await setup.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        await setup.close()
        note("PostgreSQL: the commit floor")
        floor = await commit_floor(dsn, floor_seconds)
        note("PostgreSQL: serve --workers 2")
        async with serve(url, 2, env) as (base, pid):
            client = Client(base)
            try:
                pids = family(pid)
                seat = {"kind": "builtin", "engine": "random"}
                for _ in range(4):  # warm-up: a few games on every worker
                    await client.over(await client.create("TicTacToe", seat))
                for label, play in (
                    (f"{IN_FLIGHT} in flight", lambda: builtin_row(client, seconds, pids, 2)),
                    (f"{per_set * 5} at once", lambda: mixed_row(client, per_set, pids, 2)),
                ):
                    note(f"PostgreSQL: {label}")
                    before = await counts(dsn)
                    run = await play()
                    after = await counts(dsn)
                    rows.append(
                        PgRow(
                            run,
                            after[0] - before[0],
                            after[1] - before[1],
                            after[2] - before[2],
                        )
                    )
            finally:
                await client.close()
    return floor, rows


def postgres_lines(
    floor: Floor, rows: list[PgRow]
) -> tuple[list[str], dict[str, dict[str, float]], bool]:
    """Return the PostgreSQL rows as Markdown, their key figures and whether a game
    failed its checks."""
    from benchmarks.arbitre import check

    lines = [
        f"On PostgreSQL (fsync on), serve --workers 2, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.2f} at the end; the commit floor: {IN_FLIGHT} connections "
        f"each inserting one row at a time in autocommit, {floor.rate:.0f} commits/s"
        f"{f' ({floor.bad} failed)' if floor.bad else ''}:",
        "",
        "| Games | at once | games | moves | wall s | moves/s | ÷ floor | CPU ms/move "
        "| append commits/move | commits/move | WAL syncs/move | checked |",
        "|" + "---|" * 12,
    ]
    found: dict[str, dict[str, float]] = {}
    failures: list[str] = []
    goal = ""
    for row in rows:
        run = row.run
        moves = sum(len(r.get("moves", [])) for r in run.records)
        problems = list(run.failures)
        problems += [f"{r.get('id')}: {p}" for r in run.records if (p := check(r))]
        rate = moves / run.wall if run.wall else 0.0
        share = rate / floor.rate if floor.rate else math.nan
        commits = row.commits / moves if moves else math.nan
        syncs = row.syncs / moves if moves else math.nan
        appends = row.appends / moves if moves else math.nan
        cpu = run.cpu * 1000 / moves if moves else math.nan
        lines.append(
            f"| {run.label} | {run.concurrency} | {len(run.ids)} | {moves} | {run.wall:.1f} "
            f"| {rate:.0f} | {share:.2f} | {cpu:.2f} | {appends:.2f} | {commits:.2f} "
            f"| {syncs:.2f} "
            f"| {len(run.ids) - len(problems)}/{len(run.ids)} {'✓' if not problems else '✗'} |"
        )
        found[f"PostgreSQL: {run.label}, {run.concurrency} at once"] = {
            "moves/s": rate,
            "÷ floor": share,
            "append commits/move": appends,
            "commits/move": commits,
            "WAL syncs/move": syncs,
            "CPU ms/move": cpu,
        }
        failures += problems
        if run.concurrency == IN_FLIGHT:
            mark = "✓" if appends <= APPENDS_PER_MOVE else "✗"
            goal = (
                f"Goal: {IN_FLIGHT} games in flight on PostgreSQL, the moves of the "
                f"games in flight committed together: append commits per move {appends:.2f} "
                f"(≤ {APPENDS_PER_MOVE:g}) {mark}; {share:.2f} of the commit floor."
            )
    if goal:
        lines += ["", goal]
    if failures:
        lines += ["", f"**{len(failures)} game(s) failed on PostgreSQL:**", ""]
        lines += [f"- {failure}"[:300] for failure in failures[:10]]
    return lines, found, bool(failures)


def postgres_measure(
    quick: bool, env: dict[str, str], console: Any
) -> tuple[list[str], dict[str, dict[str, float]], bool]:
    """Run the PostgreSQL rows (shorter with ``quick``); return their report lines, key
    figures and whether a game failed."""
    seconds, floor_seconds, per_set = (2.0, 1.0, 1) if quick else (15.0, 6.0, 10)
    with console.status("PostgreSQL rows") as status:
        floor, rows = asyncio.run(
            postgres_rows(seconds, floor_seconds, per_set, env, lambda text: status.update(text))
        )
    return postgres_lines(floor, rows)
