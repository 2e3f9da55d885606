"""The command line, run as a user runs it: ``tournoyons-gui play`` and ``tournoyons-gui
tournament`` (a progress bar, then the results as tables; exit 0, or 2 when refused); its
tables in a narrow terminal; what it imports."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tests.arbitre.conftest import server_process
from tests.conftest import PLUGINS, ROOT
from tournoyons_gui.server.cli.tournament import cross_table_of, standings_table


def run(
    *args: str, database: Path | None = None, columns: int = 160, python: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """Run ``python [PYTHON] -m tournoyons_gui.server.cli ARGS --database DATABASE`` in a
    terminal ``columns`` wide."""
    where = ("--database", str(database)) if database is not None else ()
    return subprocess.run(
        [sys.executable, *python, "-m", "tournoyons_gui.server.cli", *args, *where],
        cwd=ROOT,
        env={"PYTHONPATH": f"{PLUGINS}", "PATH": "/usr/bin:/bin", "COLUMNS": str(columns)},
        capture_output=True,
        text=True,
        timeout=300,
    )


def names_shown(text: str) -> list[str]:
    """Return the entrants' names of a compact standings table (no vertical lines), each
    whole: a name folded over several lines is joined again."""
    names: list[str] = []
    column = -1  # where the Entrant column starts, once its header is seen
    for line in text.splitlines():
        if column < 0:
            column = line.find("Entrant")
            continue
        rank, rest = line[:column].strip(), line[column:]
        piece = re.split(r" {2,}", rest)[0]
        if rank.isdigit():
            names.append(piece)
        elif not rank and names and piece and not rest.startswith(" "):
            names[-1] += piece  # the rest of a folded name: the rank column is empty
    return names


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_play_tells_seats_of_one_name_apart_by_their_number(tmp_path: Path) -> None:
    """``builtin:strong`` twice at a Tarot table once read ``1. strong, strong`` (which seat
    won was unreadable); a name two seats share is followed by the seat's number on the
    command line, in the progress lines, the summary and the records."""
    database = tmp_path / "names.sqlite3"
    done = run(
        "play",
        "--set",
        "Tarot",
        "--engine",
        "builtin:strong",
        "--engine",
        "builtin:strong",
        "--engine",
        "builtin:random",
        "--engine",
        "Ann=builtin:random",
        "--deals",
        "1",
        database=database,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    line = next(text for text in done.stdout.splitlines() if " - " in text)
    assert line.endswith("strong #1 - strong #2 - random - Ann"), line
    game_id = line.split()[0]
    # The summary ranks the four entrants by their totals, each by its name and number.
    rows = [text.split("│")[2].strip() for text in done.stdout.splitlines() if "│" in text]
    assert sorted(rows) == ["Ann", "random", "strong #1", "strong #2"], done.stdout
    with server_process(database) as http:
        record = http.get(f"/games/{game_id}.json").json()
    assert [s["name"] for s in record["seats"]] == ["strong #1", "strong #2", "random", "Ann"]


@pytest.mark.slow
def test_engines_by_url_are_named_by_what_tells_them_apart_and_never_cut(tmp_path: Path) -> None:
    # Two engines of one server (the built-in engines a serve process offers by URL): the
    # host and port are shared, so the paths name them; in 80 columns the names are whole.
    with server_process(tmp_path / "engines.sqlite3") as engines:
        base = str(engines.base_url).rstrip("/")
        done = run(
            "tournament",
            "--set",
            "TicTacToe",
            "--engine",
            f"{base}/engines/tictactoe/perfect",
            "--engine",
            f"{base}/engines/tictactoe/random/",
            "--engine",
            "builtin:random",
            "--games",
            "2",
            database=tmp_path / "cup.sqlite3",
            columns=80,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    standings = done.stdout.split("standings", 1)[1].split("Cross table", 1)[0]
    assert sorted(names_shown(standings)) == [
        "127.0.0.1/engines/tictactoe/perfect",
        "127.0.0.1/engines/tictactoe/random",
        "random",
    ]
    assert "…" not in done.stdout


@pytest.mark.slow
def test_a_registered_engine_enters_with_its_edit_token_from_a_file(tmp_path: Path) -> None:
    """``--engine registered:ID`` once had no way to give an engine's edit token, so
    only engines open to every tournament could enter from the command line. The token is
    read from ``--tokens FILE`` (never the command line, which ``ps`` shows)."""
    database = tmp_path / "cup.sqlite3"
    with server_process(tmp_path / "engines.sqlite3") as engines:
        url = f"{str(engines.base_url).rstrip('/')}/engines/tictactoe/perfect"
        with server_process(database) as http:
            made = http.post(
                "/api/engines", json={"name": "Alpha", "url": url, "sets": ["TicTacToe"]}
            )
            assert made.status_code == 201, made.text
            engine, token = made.json()["id"], made.json()["edit_token"]
        entrants = ["--set", "TicTacToe", "--engine", f"registered:{engine}"]
        entrants += ["--engine", "builtin:random", "--games", "2"]
        refused = run("tournament", *entrants, database=database)
        assert refused.returncode == 2, refused.stdout + refused.stderr
        assert "Alpha enters a tournament with its edit token" in refused.stdout
        tokens = tmp_path / "tokens.txt"
        tokens.write_text(f"{engine}\n")
        malformed = run("tournament", *entrants, "--tokens", str(tokens), database=database)
        assert malformed.returncode == 2 and "line 1" in malformed.stdout, malformed.stdout
        tokens.write_text(f"# engine id, its edit token\n\n{engine}  {token}\n")
        done = run("tournament", *entrants, "--tokens", str(tokens), database=database)
    assert done.returncode == 0, done.stdout + done.stderr
    standings = done.stdout.split("standings", 1)[1].split("Cross table", 1)[0]
    assert "Alpha" in standings and "2/2" in done.stdout


def test_the_help_reads_in_plain_words_and_the_version_is_the_installed_one() -> None:
    from importlib.metadata import version

    shown = run("--version")
    assert (
        shown.returncode == 0
        and shown.stdout.strip() == f"tournoyons-gui {version('tournoyons-gui')}"
    )
    top = run("--help")
    assert top.returncode == 0 and "``" not in top.stdout and "COMMAND" in top.stdout
    for command in ("serve", "token", "play", "tournament", "rooms", "room-player"):
        page = run(command, "--help")
        assert page.returncode == 0 and "``" not in page.stdout, command
        assert "example:" in page.stdout or command == "token", command
    assert "--tokens FILE" in run("tournament", "--help").stdout


def summary_of(names: list[str]) -> dict[str, Any]:
    """Return a tournament summary, as the service gives it, of entrants ``names``."""
    row = {
        "played": 8,
        "wins": 3,
        "draws": 1,
        "losses": 4,
        "errors": 0,
        "points": 3.5,
        "sonneborn_berger": 10.25,
        "buchholz": 12.5,
        "mu": 25.31,
        "sigma": 8.12,
    }
    return {
        "name": "Cup",
        "standings": [{**row, "rank": n, "name": name} for n, name in enumerate(names, 1)],
        "entrants": [{"name": name} for name in names],
        "cross_table": [["2-0-1" if i != j else "" for j in names] for i in names],
    }


def test_every_name_is_whole_in_80_columns() -> None:
    names = [
        "127.0.0.1:8001/tictactoe",
        "127.0.0.1:8080",
        "Rand",
        "a-rather-long-entrant-name-for-the-test-1234567890",
    ]
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(standings_table(summary_of(names), console.width))
    standings = console.export_text()
    assert max(len(line) for line in standings.splitlines()) <= 80
    assert "W-D-L-E" in standings and "…" not in standings
    assert names_shown(standings) == names
    # the names short enough for the compact table's column are on one line
    assert all(name in standings for name in names[:3])
    console.print(cross_table_of(summary_of(names)))
    assert "…" not in console.export_text()


def test_a_wide_terminal_gets_every_column() -> None:
    names = ["127.0.0.1:8001/tictactoe", "127.0.0.1:8080"]
    console = Console(width=160, record=True, file=io.StringIO())
    console.print(standings_table(summary_of(names), console.width))
    text = console.export_text()
    assert "Played" in text and "Buchholz" in text and "W-D-L-E" not in text
    assert all(name in text for name in names)


def test_help_imports_neither_the_server_nor_the_arbitre() -> None:
    # What --help imports, counted (not timed): the parser needs the standard library only.
    done = run("play", "--help", python=("-X", "importtime"))
    assert done.returncode == 0 and "--engine" in done.stdout, done.stderr
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines()}
    assert "tournoyons_gui.server.cli" in imported
    heavy = {"tournoyons_gui.server.app", "tournoyons_gui.arbitre", "sqlalchemy"}
    heavy |= {"uvicorn", "starlette", "httpx", "rich", "asyncio"}
    assert not heavy & imported, heavy & imported


def test_imports_run_one_way() -> None:
    # server -> arbitre -> interfaces: nothing of arbitre/ imports server/, nothing of
    # interfaces/ imports either.
    for folder, below in (("arbitre", ("server",)), ("interfaces", ("server", "arbitre"))):
        for module in (ROOT / folder).rglob("*.py"):
            text = module.read_text()
            for other in below:
                assert f"tournoyons_gui.{other}" not in text, (module, other)


def test_play_from_a_start_position(tmp_path: Path) -> None:
    # Crosses on 1 and 2, noughts on 4 and 5: the first player moves and wins on 3.
    done = run(
        "play",
        "--set",
        "TicTacToe",
        "--engine",
        "First=builtin:perfect",
        "--engine",
        "builtin:perfect",
        "--start-tray",
        "110220000",
        database=tmp_path / "start.sqlite3",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"First wins\s+1 moves", done.stdout), done.stdout


@pytest.mark.slow
def test_play_refuses_a_start_tray_that_is_no_position(tmp_path: Path) -> None:
    won = run(
        "play",
        "--set",
        "TicTacToe",
        "--engine",
        "builtin:perfect",
        "--engine",
        "builtin:random",
        "--start-tray",
        "111220000",
        database=tmp_path / "won.sqlite3",
    )
    assert won.returncode == 2
    assert "not a position of TicTacToe" in won.stdout
    rochambeau = run(
        "play",
        "--set",
        "Rochambeau",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--start-tray",
        "1",
        database=tmp_path / "won.sqlite3",
    )
    assert rochambeau.returncode == 2
    assert "cannot start from a position" in rochambeau.stdout
