"""The process engines' benchmark (``benchmarks/process_engines.py``) at its smallest size:
it runs, plays both rows to the end with every game checked, and prints its table and its
goals (never judged here: speed is the benchmark's to measure, not a test's)."""

from __future__ import annotations

import subprocess
import sys

from tests.arbitre.play_runs import ENV
from tests.conftest import ROOT


def test_the_benchmark_runs_at_its_smallest_size() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/process_engines.py", "--games", "4", "--concurrency", "2"],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| over ")]
    assert [row.split(" | ")[0] for row in rows] == ["| over stdio", "| over HTTP"], done.stdout
    assert all("| 4/4 ✓ |" in row for row in rows), done.stdout
    assert "Goals: the process engine" in done.stdout and "times the HTTP one's" in done.stdout
