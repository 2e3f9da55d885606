"""``benchmarks/ladder.py`` keeps running at its smallest size (``--quick``): its play and
its leaderboard measured, both tables printed with their goals. Its figures are the
benchmark's to judge (this machine's load moves them), not this test's: a goal missed
exits 1 and is shown, a failure of the script itself is not a figure."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_ladder_benchmark_runs_at_its_smallest_size() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "ladder.py"), "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode in (0, 1), done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    out = done.stdout
    assert "ladder: strong, weak, random" in out and "floor: their round-robin" in out, out
    assert "The leaderboard at 500 engines" in out, out
    assert "GET /api/ladder/ConnectFour (first page, 100)" in out, out
    assert "first page in order: True" in out, out
