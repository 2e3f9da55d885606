"""``benchmarks/scale.py --explain``: every SQL statement a request runs, with its plan.

The real application (``create_app(drive=False)``) is served by uvicorn in a thread of this
process; a ``before_cursor_execute`` listener on every SQLAlchemy ``Engine`` records the
statements and their parameters while one request is asked; each distinct statement is
then explained on a connection of its own with those parameters (PostgreSQL ``EXPLAIN``
through asyncpg, SQLite ``EXPLAIN QUERY PLAN`` through ``sqlite3``). A plan line that
reads a whole table (``Seq Scan`` on PostgreSQL, ``SCAN`` without an index on SQLite) or
sorts is marked ``◀``.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import threading
import time
from collections.abc import Sequence
from typing import Any

import httpx
import uvicorn
from rich.console import Console
from sqlalchemy import event
from sqlalchemy.engine import Engine

from tournoyons_gui.server.app import create_app
from tournoyons_gui.server.cli import bind

__all__ = ["explain_requests", "is_scan"]

_SCAN = re.compile(r"Seq Scan|\bSCAN (?!.*USING)|TEMP B-TREE|Sort\b")


def is_scan(line: str) -> bool:
    """Whether a plan's ``line`` reads a whole table or sorts (see the module)."""
    return bool(_SCAN.search(line))


class Captured:
    """The statements run while :attr:`on` (``(statement, parameters)``, in order)."""

    def __init__(self) -> None:
        self.on = False
        self.statements: list[tuple[str, Any]] = []
        self.lock = threading.Lock()

    def __call__(self, _conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        """The ``before_cursor_execute`` listener."""
        if self.on and statement.lstrip().upper().startswith(("SELECT", "WITH")):
            with self.lock:
                self.statements.append((statement, parameters))


async def _pg_plans(dsn: str, statements: Sequence[tuple[str, Any]]) -> list[list[str]]:
    import asyncpg

    connection = await asyncpg.connect(dsn)
    plans = []
    try:
        for statement, parameters in statements:
            values = list(parameters) if isinstance(parameters, (list, tuple)) else []
            if "%s" in statement:
                parts = statement.split("%s")
                statement = parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], 1))
            try:
                rows = await connection.fetch("EXPLAIN " + statement, *values)
                plans.append([r[0] for r in rows])
            except Exception as error:
                plans.append([f"(not explained: {error})"])
    finally:
        await connection.close()
    return plans


def _lite_plans(path: str, statements: Sequence[tuple[str, Any]]) -> list[list[str]]:
    plans = []
    with sqlite3.connect(path) as lite:
        for statement, parameters in statements:
            try:
                rows = lite.execute("EXPLAIN QUERY PLAN " + statement, parameters or ()).fetchall()
                plans.append([f"{'  ' * 0}{r[-1]}" for r in rows])
            except sqlite3.Error as error:
                plans.append([f"(not explained: {error})"])
    return plans


def explain_requests(database: str, requests: Sequence[tuple[str, str]], console: Console) -> None:
    """Serve ``database`` in this process, ask each of ``requests`` (``(label, path)``)
    once, print the SQL it ran and each statement's plan."""
    captured = Captured()
    event.listen(Engine, "before_cursor_execute", captured)
    sock, base = bind("127.0.0.1", 0)
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(database=database, public_url=base, drive=False),
            log_level="warning",
            access_log=False,
            lifespan="on",
        )
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    postgres = database.startswith("postgres")
    try:
        with httpx.Client(base_url=base, timeout=300, trust_env=False) as client:
            client.get("/healthz")
            for label, path in requests:
                captured.statements.clear()
                captured.on = True
                started = time.perf_counter()
                if path.endswith("/events"):
                    with client.stream("GET", path) as answer:
                        for _chunk in answer.iter_text():
                            break
                else:
                    client.get(path)
                took = (time.perf_counter() - started) * 1000
                captured.on = False
                seen: dict[str, Any] = {}
                for statement, parameters in captured.statements:
                    seen.setdefault(statement, parameters)
                distinct = list(seen.items())
                plans = (
                    asyncio.run(_pg_plans(database, distinct))
                    if postgres
                    else _lite_plans(database, distinct)
                )
                console.rule(f"{label}  ({took:.0f} ms, {len(captured.statements)} statements)")
                for (statement, parameters), plan in zip(distinct, plans, strict=True):
                    shown = " ".join(statement.split())
                    console.print(f"[bold]SQL[/bold] {shown[:600]}", markup=True, highlight=False)
                    console.print(
                        f"    parameters: {str(parameters)[:200]}", markup=False, highlight=False
                    )
                    for line in plan:
                        mark = "  ◀" if is_scan(line) else ""
                        console.print(f"    {line[:300]}{mark}", markup=False, highlight=False)
    finally:
        server.should_exit = True
        thread.join(15)
        event.remove(Engine, "before_cursor_execute", captured)
