"""Every script under ``benchmarks/`` keeps running: the test command runs each at its
smallest size and checks that it prints its figures and its last line, so that a change
of the schema, of a store method or of a page that breaks one fails here, not on the day
someone measures.

Every file of the folder is either run here (:data:`SMALLEST`) or a helper of one that
is (:data:`HELPERS`): a new script that is in neither fails
:func:`test_every_script_is_run_at_its_smallest_size`, so none can be forgotten. A goal
missed (exit status 1 where a script says so) is a figure, not a failure; a traceback, a
missing figure or a script that stops early is.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.arbitre.postgres import postgres_server

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


@dataclass(frozen=True)
class Smallest:
    """A script's smallest run: its ``args``, the exit statuses that are figures
    (``statuses``: a goal missed is one), a pattern every run's output holds
    (``figures``), and one its last line matches (``last``)."""

    script: str
    args: tuple[str, ...]
    figures: str
    last: str
    statuses: tuple[int, ...] = (0,)
    postgres: bool = False


#: Each script's smallest run (a script may have several: the Arbitre benchmark's rows
#: are spread over three runs, so that the test command's workers run them side by side).
SMALLEST: dict[str, Smallest] = {
    "scale.py sqlite": Smallest(
        "scale.py",
        ("--games", "300", "--requests", "2", "--budget", "5", "--retention", "20"),
        r"KB per game(?s:.*)serve process resident memory after the run: \d+ MB(?s:.*)"
        r"retention \(serve --keep-logs\): the exchanges of \d+ games dropped",
        r"^worst p95 ms: \d+\.\d$",
        (0, 1),
    ),
    "scale.py postgresql": Smallest(
        "scale.py",
        ("--games", "300", "--requests", "2", "--budget", "5"),
        r"games in PostgreSQL.*KB per game",
        r"^worst p95 ms: \d+\.\d$",
        (0, 1),
        postgres=True,
    ),
    "scale.py explain": Smallest(
        "scale.py",
        ("--games", "300", "--explain"),
        r"/games/<id>\.json \(record\)(?s:.*)SELECT",
        r"\S",
    ),
    "arbitre.py": Smallest(
        "arbitre.py",
        ("--quick", "--no-workers", "--no-play", "--no-match", "--no-postgres"),
        r"TicTacToe, engines over HTTP \|",
        r"^Built-in engines: ConnectFour strong \d+ ms slowest move",
    ),
    "arbitre.py serve rows": Smallest(
        "arbitre.py",
        ("--quick", "--no-loop", "--no-postgres", "--no-play", "--no-match"),
        r"\| TicTacToe, engines over HTTP \| 2 \|",
        r"\S",
    ),
    "arbitre.py play and match rows": Smallest(
        "arbitre.py",
        ("--quick", "--no-loop", "--no-postgres", "--no-workers"),
        r"whole process \| \d+ \|",
        r"^\| whole process \| 20 \|",
    ),
    "arbitre.py postgres rows": Smallest(
        "arbitre.py",
        ("--quick", "--postgres-only"),
        r"commits/s",
        r"\S",
    ),
    "run.py": Smallest(
        "run.py",
        ("--quick", "--sets", "tictactoe"),
        r"\| TicTacToe \| \d+ \|",
        r"^Goals \(✓ met, ✗ missed\):",
    ),
    "rules.py": Smallest(
        "rules.py", ("--seconds", "0.05", "--sets", "tictactoe,tarot"), r"\| Tarot \|", r"^Goal"
    ),
    "tarot.py": Smallest(
        "tarot.py", ("--matches", "2"), r"random \(floor\)", r"^strong first", (0, 1)
    ),
    "tournament.py": Smallest(
        "tournament.py",
        ("--games", "1", "--concurrency", "8"),
        r"1 worker, SQLite\s*│\s*28/28(?s:.*)2 workers, PostgreSQL\s*│\s*28/28",
        r"^└─+",
    ),
    "maitretarot.py": Smallest("maitretarot.py", ("--quick",), r"Deals/s|deals/s", r"\S"),
    "ladder.py": Smallest(
        "ladder.py",
        ("--quick",),
        r"ladder: strong, weak, random(?s:.*)floor: their round-robin(?s:.*)"
        r"The leaderboard at 500 engines(?s:.*)GET /api/ladder/ConnectFour \(first page, 100\)",
        r"^Goal: every page under 50 ms; first page in order: True\.$",
        (0, 1),
    ),
    "process_engines.py": Smallest(
        "process_engines.py",
        ("--games", "4", "--concurrency", "2"),
        r"\| over stdio \| 4 \|.*\| 4/4 ✓ \|\n\| over HTTP \| 4 \|.*\| 4/4 ✓ \|",
        r"^Goals: the process engine [\d.]+ times the HTTP one's games per second",
    ),
    "paging.py": Smallest(
        "paging.py",
        ("--engines", "100", "--requests", "5"),
        r"GET /api/engines \(first page, 50\): [\d.]+ ms round trip",
        r"^goal: first page under 50 ms of server time: (met|missed)$",
    ),
}

#: The files that are no script of their own: each is run or imported by the script
#: named (its name appears in that script's source).
HELPERS: dict[str, str] = {
    "__init__.py": "",
    "arbitre_match.py": "arbitre_more.py",
    "arbitre_more.py": "arbitre.py",
    "arbitre_play.py": "arbitre_more.py",
    "arbitre_postgres.py": "arbitre_more.py",
    "arbitre_workers.py": "arbitre_more.py",
    "bots.py": "arbitre_play.py",
    "hostile.py": "arbitre.py",
    "loadgen.py": "run.py",
    "processes.py": "arbitre_play.py",
    "revision.py": "arbitre_more.py",
    "scale_explain.py": "scale.py",
    "scale_fill.py": "scale.py",
    "serve.py": "run.py",
}


def test_every_script_is_run_at_its_smallest_size() -> None:
    scripts = {path.name for path in BENCHMARKS.glob("*.py")}
    run = {smallest.script for smallest in SMALLEST.values()}
    assert scripts == run | set(HELPERS), (
        "a file of benchmarks/ is neither run at its smallest size here (SMALLEST) nor a "
        f"helper of one (HELPERS): {sorted(scripts - run - set(HELPERS))}"
    )
    assert not run & set(HELPERS)
    for helper, user in HELPERS.items():
        if user:
            assert Path(helper).stem in (BENCHMARKS / user).read_text(), (helper, user)


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scale benchmark's template games, played once for its runs."""
    return tmp_path_factory.mktemp("scale-templates")


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    with postgres_server() as url:
        yield url


def _command(smallest: Smallest, request: pytest.FixtureRequest) -> list[str]:
    args = list(smallest.args)
    if smallest.script == "scale.py":
        args += ["--templates", str(request.getfixturevalue("templates"))]
        if smallest.postgres:
            args += ["--database", request.getfixturevalue("postgres")]
    return [sys.executable, str(BENCHMARKS / smallest.script), *args]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SMALLEST))
def test_each_benchmark_runs_at_its_smallest_size(
    name: str, request: pytest.FixtureRequest
) -> None:
    smallest = SMALLEST[name]
    env = {**os.environ, "COLUMNS": "200", "PYTHONDONTWRITEBYTECODE": "1"}
    started = time.monotonic()
    done = subprocess.run(
        _command(smallest, request),
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    took = time.monotonic() - started
    said = done.stdout + done.stderr
    assert done.returncode in smallest.statuses, f"{name}: exit {done.returncode}\n{said[-3000:]}"
    assert "Traceback" not in said, said[-3000:]
    assert re.search(smallest.figures, said), f"{name}: no figures\n{said[-3000:]}"
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    assert lines and re.search(smallest.last, lines[-1]), f"{name}: last line {lines[-1:]}"
    print(f"{name}: {took:.1f} s")
