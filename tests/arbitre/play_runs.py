"""Runs of ``tournoyons-gui play`` as the tests make them: each a real process, several at
once when they do not depend on each other; the faulty engine of the tests' own
(:mod:`tests.arbitre.faulty_engine`) in a process of its own; the matches a database
holds."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.conftest import PLUGINS, ROOT
from tournoyons_gui.arbitre.store import Store

__all__ = ["ENV", "command", "faulty_engine", "finish", "plays", "start", "stored", "words"]

ENV = {"PYTHONPATH": f"{PLUGINS}", "PATH": "/usr/bin:/bin", "COLUMNS": "160"}


def words(*parts: str | Path) -> list[str]:
    """Return the words of ``parts`` in order: each text split on its spaces, each path
    one word."""
    return [
        word for part in parts for word in ([str(part)] if isinstance(part, Path) else part.split())
    ]


def start(*args: str, database: Path) -> subprocess.Popen[str]:
    """Start ``tournoyons-gui play ARGS --database DATABASE``."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tournoyons_gui.server.cli",
            "play",
            *args,
            "--database",
            str(database),
        ],
        cwd=ROOT,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    """Wait for a ``play`` process; return its exit status and its output."""
    out, err = process.communicate(timeout=240)
    return process.returncode, out + err


def plays(*runs: tuple[list[str], Path]) -> list[tuple[int, str]]:
    """Run several ``play`` commands at once; return each one's status and output."""
    started = [start(*args, database=database) for args, database in runs]
    return [finish(process) for process in started]


@contextmanager
def faulty_engine(*extra: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """Run :mod:`tests.arbitre.faulty_engine` in a process of its own; yield its base URL
    and the process."""
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "arbitre" / "faulty_engine.py"), *extra],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("engine on "), line
        yield line.split()[-1], process
    finally:
        process.kill()
        process.wait(10)
        if process.stdout is not None:
            process.stdout.close()


def stored(database: Path) -> tuple[list[Any], dict[str, list[Any]]]:
    """Return the matches in ``database`` and each one's games in order."""

    async def read() -> tuple[list[Any], dict[str, list[Any]]]:
        store = await Store.open(str(database))
        try:
            ids = await store.read(
                lambda c: [row[0] for row in c.exec_driver_sql("SELECT id FROM matches")]
            )
            matches = [await store.match(match_id) for match_id in ids]
            return matches, {m: await store.match_games(m) for m in ids}
        finally:
            await store.close()

    return asyncio.run(read())


def command(*args: str | Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``tournoyons-gui ARGS`` (another command than ``play``: ``diff`` ...); return it,
    its output captured."""
    return subprocess.run(
        [sys.executable, "-m", "tournoyons_gui.server.cli", *map(str, args)],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
