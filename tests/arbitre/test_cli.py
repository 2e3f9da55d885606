"""The command line, run as a user runs it: ``tournoyons-gui play`` and ``tournoyons-gui
tournament`` (a progress bar, then the results as tables; exit 0, or 2 when refused)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import PLUGINS, ROOT


def run(*args: str, database: Path) -> subprocess.CompletedProcess[str]:
    """Run ``python -m tournoyons_gui.server.cli ARGS --database DATABASE``."""
    return subprocess.run(
        [sys.executable, "-m", "tournoyons_gui.server.cli", *args, "--database", str(database)],
        cwd=ROOT,
        env={"PYTHONPATH": f"{PLUGINS}", "PATH": "/usr/bin:/bin", "COLUMNS": "160"},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_tournament_from_the_command_line(tmp_path: Path) -> None:
    done = run(
        "tournament",
        "--set",
        "TicTacToe",
        "--engine",
        "builtin:perfect",
        "--engine",
        "Rand=builtin:random",
        "--engine",
        "builtin:random",
        "--games",
        "2",
        database=tmp_path / "cup.sqlite3",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "standings" in out and "Cross table" in out
    standings = out.split("standings", 1)[1].split("Cross table", 1)[0]
    rows = [line for line in standings.splitlines() if line.startswith("│")]
    names = [row.split("│")[2].strip() for row in rows if row.split("│")[1].strip().isdigit()]
    assert names[0] == "perfect" and sorted(names) == ["Rand", "perfect", "random"]
    assert "6/6" in out  # the progress bar's end: 3 pairings, 2 games each


def test_games_and_refusals_from_the_command_line(tmp_path: Path) -> None:
    database = tmp_path / "play.sqlite3"
    done = run(
        "play",
        "--set",
        "TicTacToe",
        "--engine",
        "builtin:perfect",
        "--engine",
        "builtin:perfect",
        "--games",
        "2",
        database=database,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("draw") >= 2  # perfect against itself: always a draw
    refused = run(
        "tournament",
        "--set",
        "Chess",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        database=database,
    )
    assert refused.returncode == 2 and "unknown Set 'Chess'" in refused.stdout
