"""Process engines (``--engine NAME=cmd:COMMAND``) as an author runs them with ``play``: a
program of the tests' own (:mod:`tests.arbitre.line_engines`) reproducing what real
programs do over standard input and output, well or badly. Each bad one is a fault of its
game in the report, the match goes on, and no process is left behind (found by a marker
in their command lines, under ``/proc``), after the match and after Ctrl-C; a server
refuses ``cmd:`` wherever an engine is given to it."""

from __future__ import annotations

import datetime as dt
import json
import secrets
import signal
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.arbitre.conftest import Served
from tests.arbitre.play_runs import start
from tests.conftest import ROOT
from tournoyons_gui.arbitre.faults import stopped_answering
from tournoyons_gui.arbitre.match_summary import Outcome
from tournoyons_gui.arbitre.processes import SERVER_REFUSES
from tournoyons_gui.server.cli import main

ENGINES = ROOT / "tests" / "arbitre" / "line_engines.py"


def engine(name: str, mode: str, marker: str) -> str:
    """Return the ``--engine`` value of a test engine in ``mode``, ``marker`` in its
    command line."""
    return f"{name}=cmd:{sys.executable} {ENGINES} {mode} {marker}"


def left_behind(marker: str) -> list[str]:
    """Return the command lines of the processes still running with ``marker`` in them."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().split(") ", 1)[1][:1]
        except OSError:
            continue
        if marker.encode() in words and state != "Z":
            found.append(" ".join(w.decode(errors="replace") for w in words))
    return found


def no_process_left(marker: str) -> None:
    """Assert that no process with ``marker`` runs (a second for a group to die)."""
    deadline = time.monotonic() + 5
    while left_behind(marker):
        assert time.monotonic() < deadline, left_behind(marker)
        time.sleep(0.05)


def play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str, name: str = "m"
) -> tuple[int, str, dict[str, Any], list[dict[str, Any]]]:
    """Run ``play ARGS`` in this process (its JSON and games written to ``tmp_path``);
    return its status, output, document and game records."""
    report, games = tmp_path / f"{name}.json", tmp_path / f"{name}.jsonl"
    status = main(
        [
            "play",
            *args,
            "--database",
            str(tmp_path / f"{name}.sqlite3"),
            "--json",
            str(report),
            "--games-file",
            str(games),
        ]
    )
    out = capsys.readouterr().out
    document = json.loads(report.read_text()) if report.exists() else {}
    records = (
        [json.loads(line) for line in games.read_text().splitlines()] if games.exists() else []
    )
    return status, out, document, records


def seat_log(record: dict[str, Any], seat: int) -> list[tuple[str, str]]:
    """Return a seat's exchanges in a game's record: (kind, detail)."""
    return [(e["kind"], e["detail"]) for e in record["exchanges"] if e["seat"] == seat]


@pytest.mark.parametrize(
    ("mode", "fault", "detail", "stderr"),
    [
        (
            "exits",
            "unreachable",
            "the process exited with status 3 before answering",
            "syntax error",
        ),
        ("silent", "timeout", "no line within 1 s", "pid "),
        ("deaf", "timeout", "no line within 1 s", "pid "),
        ("huge", "malformed", "a line of more than 64 KiB", "pid "),
        ("empty", "malformed", "an answer with no Value", "pid "),
        ("missing", "unreachable", "cannot start", ""),
    ],
)
def test_a_bad_program_is_a_fault_of_its_games_and_the_match_goes_on(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    mode: str,
    fault: str,
    detail: str,
    stderr: str,
) -> None:
    marker = f"marker-{secrets.token_hex(6)}"
    bad = engine("bad", mode, marker)
    if mode == "missing":
        bad = f"bad=cmd:{tmp_path}/no-such-engine {marker}"
    status, out, document, records = play(
        tmp_path,
        capsys,
        *("--set", "ConnectFour", "--engine", bad, "--engine", "builtin:random"),
        *("--games", "2", "--move-time", "1000", "--timeout", "4", "--seed", "5"),
    )
    assert status == 0, out  # every game was played to an end: lost by fault
    assert document["games"] == 2 and document["entrants"][0]["faults"][fault] == 2, out
    said = []  # what the program wrote to its standard error, in the games' logs
    for record in records:
        bad_seat = next(s["index"] for s in record["seats"] if s["name"] == "bad")
        assert detail in record["seats"][bad_seat]["error"], record["seats"]
        log = seat_log(record, bad_seat)
        assert log[0][0] == "request" and log[0][1].endswith("&Referee="), log
        assert "&TimeOut=4&" in log[0][1]  # the protocol's TimeOut, whatever --move-time
        said += [d for k, d in log if k == "stderr"]
    assert any(stderr in line for line in said) if stderr else not said, said
    # The failure report: each game, its line piped to the command to reproduce it.
    assert "Games lost by fault (2)" in out
    assert "printf '%s\\n' 'Set=ConnectFour&Game=TEST&MoveId=" in out, out
    if fault == "timeout":
        assert "is it running" not in out and "never answered in time" in out
    no_process_left(marker)


@pytest.mark.slow
def test_good_program_think_times_restarts_and_its_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # the summary's table whole, its headers on a line
    marker = f"marker-{secrets.token_hex(6)}"
    runs = {}
    for restart in ("off", "on"):
        runs[restart] = play(
            tmp_path,
            capsys,
            *("--set", "ConnectFour", "--engine", engine("good", "family", marker)),
            *("--engine", engine("slow", "slow 30", marker), "--games", "4"),
            *("--restart", restart, "--seed", "9", "--concurrency", "2"),
            name=restart,
        )
        no_process_left(marker)  # the engines and the child each started
    for restart, (status, out, document, records) in runs.items():
        assert status == 0, out
        assert sum(document[k] for k in ("wins", "draws", "losses")) == 4
        # The thinking times per move, measured from request to answer.
        think = document["entrants"][1]["think_ms"]
        assert 30 <= think["p50"] <= think["p95"] <= think["max"] < 2000, think
        assert set(document["entrants"][0]["think_ms"]) == {"p50", "p95", "max"}
        assert "Think ms p50/p95/max" in out and f"{think['p50']} / {think['p95']}" in out
        pids = set()
        for record in records:
            seat = next(s["index"] for s in record["seats"] if s["name"] == "good")
            log = seat_log(record, seat)
            pids |= {d for k, d in log if k == "stderr" and d.startswith("pid ")}
            thoughts = [d for k, d in log if k == "stderr" and d.startswith("thinking about")]
            assert thoughts and all(d.endswith(f"of <seat {seat + 1}>") for d in thoughts), log
            callbacks = [d for k, d in log if k == "callback"]
            moves = [m for m in record["moves"] if m["seat"] == seat]
            assert len(callbacks) == len(moves) and all("&Value=" in c for c in callbacks)
            assert log[-2][0] == "final" and log[-2][1].startswith(f"cmd:{sys.executable}")
            assert log[-1] == ("answer", "final call answered: answered"), log
        # A process for each game played at once, reused from game to game; or one per
        # game (pid lines: its first request's log, whichever game it played first).
        assert len(pids) == (2 if restart == "off" else 4), (restart, pids)


def test_a_program_that_crashes_mid_match_is_started_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = f"marker-{secrets.token_hex(6)}"
    status, out, document, records = play(
        tmp_path,
        capsys,
        *("--set", "TicTacToe", "--engine"),
        engine("crashy", f"crash 2 {tmp_path / 'crashed'}", marker),
        *("--engine", "builtin:random", "--games", "4", "--concurrency", "1", "--seed", "2"),
    )
    assert status == 0, out
    # It dies at its second request (the first game's third move, ply 3): that game only
    # is lost; the next ones are played by a new process.
    faults = [[s["error"] for s in r["seats"] if s["error"]] for r in records]
    assert faults == [["the process was killed by SIGKILL before answering"], [], [], []]
    assert document["games_list"][0]["ply"] == 3
    assert "crashy lost" not in out  # the last games were played: it did not stop answering
    no_process_left(marker)


def test_move_time_catches_a_slow_engine_below_the_protocol_s_minimum(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = f"marker-{secrets.token_hex(6)}"
    status, out, document, records = play(
        tmp_path,
        capsys,
        *("--set", "TicTacToe", "--engine", engine("slow", "slow 400", marker)),
        *("--engine", "builtin:random", "--games", "2", "--move-time", "150"),
    )
    assert status == 0, out
    assert document["entrants"][0]["faults"]["timeout"] == 2
    assert document["options"]["move_time"] == 150
    assert all(
        "no line within 0.15 s" in r["seats"][r["seats"][0]["name"] != "slow"]["error"]
        for r in records
    )
    no_process_left(marker)


@pytest.mark.slow
def test_ctrl_c_kills_every_process_group(tmp_path: Path) -> None:
    marker = f"marker-{secrets.token_hex(6)}"
    process = start(
        "--set",
        "ConnectFour",
        "--engine",
        engine("a", "family", marker),
        "--engine",
        engine("b", "slow 200", marker),
        "--games",
        "200",
        "--restart",
        "on",
        database=tmp_path / "c.sqlite3",
    )
    try:
        assert process.stdout is not None
        while "  moves  " not in (line := process.stdout.readline()) and " moves " not in line:
            assert line, process.stderr.read() if process.stderr else ""
        assert left_behind(marker)  # the engines (and a child of one) run
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, out + err
    no_process_left(marker)


def test_commands_are_split_as_words_never_by_a_shell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A shell would run the second command and write the file: no shell runs here.
    written = tmp_path / "pwned"
    marker = f"marker-{secrets.token_hex(6)}"
    status, out, _, records = play(
        tmp_path,
        capsys,
        *("--set", "TicTacToe", "--engine", "builtin:random", "--engine"),
        f"x=cmd:{sys.executable} {ENGINES} good {marker}; touch {written}",
    )
    assert status == 0 and not written.exists(), out
    assert (
        records[0]["seats"][1]["url"]
        == f"cmd:{sys.executable} {ENGINES} good {marker}; touch {written}"
    )
    status, out, _, _ = play(
        tmp_path,
        capsys,
        *("--set", "TicTacToe", "--engine", "cmd:'unclosed", "--engine", "builtin:random"),
        name="q",
    )
    assert status == 2 and "cannot be split" in out, out
    no_process_left(marker)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    served = Served(tmp_path_factory.mktemp("serve") / "arbitre.sqlite3")
    try:
        yield served
    finally:
        served.stop()


def test_a_server_refuses_cmd_wherever_an_engine_is_given(server: Served) -> None:
    command = f"cmd:{sys.executable} {ENGINES} good m2"
    seat = {"kind": "engine", "engine": command}
    random_seat = {"kind": "builtin", "engine": "random"}
    answer = server.http.post("/api/games", json={"set": "TicTacToe", "seats": [seat, random_seat]})
    assert answer.status_code == 400 and answer.json()["error"] == SERVER_REFUSES
    answer = server.http.post(
        "/api/engines", json={"name": "mine", "url": command, "sets": ["TicTacToe"]}
    )
    assert answer.status_code == 400 and SERVER_REFUSES in answer.json()["error"], answer.text
    answer = server.http.post(
        "/api/tournaments",
        json={"set": "TicTacToe", "entrants": [seat, random_seat]},
    )
    assert answer.status_code == 400 and SERVER_REFUSES in answer.json()["error"], answer.text
    page = server.http.post(
        "/arbitre/games",
        data={
            "set": "TicTacToe",
            "seat1_kind": "engine",
            "seat1_url": command,
            "seat2_kind": "builtin",
            "seat2_builtin": "random",
        },
    )
    assert page.status_code == 400 and "a process engine (cmd:)" in page.text
    # Even a game made in this process (as play makes its own): the server allowed none.
    arbitre = server.arbitre()
    assert arbitre.services.processes.commands == set()
    assert not left_behind("m2")


def test_a_tournament_plays_process_engines_and_registers_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = f"marker-{secrets.token_hex(6)}"
    database = tmp_path / "t.sqlite3"
    status = main(
        [
            "tournament",
            *("--set", "TicTacToe", "--engine", engine("good", "good", marker)),
            *("--engine", engine("other", "slow 5", marker), "--engine", "builtin:random"),
            *("--games", "2", "--database", str(database)),
        ]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert "good" in out and "other" in out and "random" in out
    no_process_left(marker)
    with sqlite3.connect(database) as connection:
        registered = connection.execute("SELECT count(*) FROM engines").fetchone()[0]
        seats = connection.execute(
            "SELECT DISTINCT url FROM seats WHERE kind = 'engine' ORDER BY url"
        ).fetchall()
        errors = connection.execute("SELECT count(*) FROM seats WHERE error != ''").fetchone()[0]
    # Never registered: a program of this machine is no engine others may reach.
    assert registered == 0 and errors == 0
    assert [url.split(f" {ENGINES} ")[1] for (url,) in seats] == [
        f"good {marker}",
        f"slow 5 {marker}",
    ]


def test_standard_error_is_logged_a_bounded_amount_per_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = f"marker-{secrets.token_hex(6)}"
    status, out, _, records = play(
        tmp_path,
        capsys,
        *("--set", "TicTacToe", "--engine", engine("chatty", "chatty", marker)),
        *("--engine", "builtin:random", "--games", "2"),
    )
    assert status == 0, out
    for record in records:  # some 400 KiB written a game: 64 KiB logged, the rest counted
        seat = next(s["index"] for s in record["seats"] if s["name"] == "chatty")
        lines = [d for k, d in seat_log(record, seat) if k == "stderr"]
        kept = sum(len(d) + 1 for d in lines if not d.startswith("…"))
        assert 32 * 1024 < kept <= 64 * 1024, kept
        assert lines[-1].startswith("… ") and lines[-1].endswith("bytes of standard error not kept")
    no_process_left(marker)


def test_the_hint_asks_whether_an_engine_runs_only_when_nothing_answered() -> None:
    def lost(number: int, fault: str) -> Outcome:
        ended = dt.datetime(2026, 12, 1, tzinfo=dt.UTC) + dt.timedelta(seconds=number)
        return Outcome(
            f"G{number}",
            number,
            number // 2,
            (0, 1),
            "over",
            (0.0, 1.0),
            (2, 1),
            (None, None),
            fault,
            0,
            3,
            ended,
        )

    said = stopped_answering([lost(n, "timeout") for n in range(3)], ["slow", "random"])
    assert said and "is it running" not in said[0] and "never answered in time" in said[0]
    said = stopped_answering([lost(n, "unreachable") for n in range(3)], ["gone", "random"])
    assert said and "is it running, at this URL" in said[0]
