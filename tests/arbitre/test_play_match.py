"""``tournoyons-gui play`` as an engine author runs it: the summary at the end,
``--json``, the failure report whose ``curl`` commands reproduce each fault against the
engine, an engine that crashes mid-match, Ctrl-C, the SPRT's verdicts and its refusals,
and the match recorded in the store. Every ``play`` is a real process; runs that do not
depend on each other run at once."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.arbitre.conftest import server_process
from tests.arbitre.play_runs import faulty_engine, finish, plays, start, stored, words


@pytest.mark.slow
def test_a_match_s_summary_json_and_record(tmp_path: Path) -> None:
    database, report = tmp_path / "m.sqlite3", tmp_path / "m.json"
    status, out = plays(
        (
            [
                "--set",
                "ConnectFour",
                "--engine",
                "builtin:strong",
                "--engine",
                "builtin:random",
                "--games",
                "5",
                "--seed",
                "3",
                "--json",
                str(report),
            ],
            database,
        )
    )[0]
    assert status == 0, out
    row = next(line for line in out.splitlines() if line.startswith("│ strong"))
    assert re.match(r"│ strong\s+│\s+5 │ 5 │ 0 │ 0 │ ·\s+│\s+5 │ 100.0 % │", row), row
    assert "Elo difference (strong - random): +∞" in out and "LOS 100.0 %" in out
    assert "Pentanomial (pairs of 0, ½, 1, 1½, 2 points): [0, 0, 0, 0, 2], 2 pairs" in out
    document = json.loads(report.read_text())
    documented = {"set", "games", "wins", "draws", "losses", "faults", "score", "pentanomial"}
    documented |= {"elo", "elo_ci95", "los", "sprt", "games_list"}
    assert documented <= set(document)
    assert (document["set"], document["games"], document["wins"]) == ("ConnectFour", 5, 5)
    assert document["pentanomial"] == [0, 0, 0, 0, 2] and document["seed"] == 3
    listed = document["games_list"]
    assert [(g["pair"], g["first"]) for g in listed] == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]
    assert all(g["result"] == "win" and g["fault"] is None and g["moves"] for g in listed)
    assert listed[0]["seed"] == listed[1]["seed"] != listed[2]["seed"]
    # The match in the records, its address printed, served by serve on the same file.
    match_id = document["match"]
    assert f"/matches/{match_id}" in out and f"--database {database}" in out
    matches, games = stored(database)
    assert len(matches) == 1 and matches[0].status == "over" and matches[0].seed == 3
    assert [e["name"] for e in matches[0].entrants] == ["strong", "random"]
    assert [e.game.id for e in games[match_id]] == [g["id"] for g in listed]
    assert [e.place.first for e in games[match_id]] == [0, 1, 0, 1, 0]


@pytest.mark.slow
def test_each_fault_is_reported_with_a_curl_that_reproduces_it(tmp_path: Path) -> None:
    with faulty_engine() as (base, _):
        # At ply 3 the first seat asks the first player's second move: each engine of a
        # pair fails in the game it plays first.
        runs = [
            (["--engine", f"{base}/timeout/3", "--engine", f"{base}/error/3"], "a"),
            (["--engine", f"{base}/garbage/3", "--engine", f"{base}/illegal/3"], "b"),
        ]
        done = plays(
            *(
                (
                    words(
                        "--set TicTacToe --games 2 --timeout 4 --json",
                        tmp_path / f"{name}.json",
                        *engines,
                    ),
                    tmp_path / f"{name}.sqlite3",
                )
                for engines, name in runs
            )
        )
        out = "\n".join(text for _, text in done)
        assert [status for status, _ in done] == [0, 0], out
        reports = [json.loads((tmp_path / f"{name}.json").read_text()) for _, name in runs]
        faults = {
            (g["fault"], document["entrants"][g["fault_by"]]["name"].split("/")[1], g["ply"])
            for document in reports
            for g in document["games_list"]
        }
        assert faults == {
            ("timeout", "timeout", 3),
            ("malformed", "error", 3),
            ("malformed", "garbage", 3),
            ("illegal", "illegal", 3),
        }
        assert reports[0]["entrants"][1]["faults"]["malformed"] == 1
        assert reports[0]["faults"]["timeout"] == 1
        blocks = re.split(r"\n(?=(?:timeout|malformed|illegal|unreachable)  game )", out)
        told = {}
        for block in blocks[1:]:
            head = block.splitlines()[0].split()
            path = head[5].split("/")[1]
            told[path] = block
            assert head[2] in {g["id"] for d in reports for g in d["games_list"]}
            assert head[3:5] == ["ply", "3"], head
            assert "Game=<seat 1>" in block and "Referee=http://127.0.0.1:" in block
        assert set(told) == {"timeout", "error", "garbage", "illegal"}
        assert "HTTP 500 '<b>Fatal error</b>" in told["error"]
        assert "no HTTP answer" in told["garbage"]
        assert "callback Game=<seat 1>&MoveId=3&Value=1" in told["illegal"]
        assert "illegal Value '1': cell 1 is taken" in told["illegal"]
        # Each printed command, run as printed, gets what the game got.
        commands = {
            path: next(line for line in block.splitlines() if "reproduce" in line).split(
                "reproduce", 1
            )[1]
            for path, block in told.items()
        }
        ran = {
            path: subprocess.run(
                ["bash", "-c", command], capture_output=True, text=True, timeout=30
            )
            for path, command in commands.items()
        }
    assert ran["illegal"].returncode == 0 and ran["illegal"].stdout == "1\nHTTP 200\n"
    assert ran["error"].stdout.startswith("<b>Fatal error</b>")
    assert ran["error"].stdout.endswith("HTTP 500\n")
    assert ran["garbage"].returncode not in (0, 28), ran["garbage"]  # no HTTP either
    assert ran["timeout"].returncode == 28, ran["timeout"]  # curl's "timed out"
    # The log page says which fault, beside the reason.
    game_id = next(g["id"] for g in reports[0]["games_list"] if g["fault"] == "malformed")
    with server_process(tmp_path / "a.sqlite3") as http:
        page = http.get(f"/games/{game_id}/log").text
    assert 'data-seat-fault="malformed"' in page and "the engine answered HTTP 500" in page


@pytest.mark.slow
def test_an_engine_that_crashes_or_hangs_mid_match_loses_its_games_and_the_match_goes_on(
    tmp_path: Path,
) -> None:
    common = "--set TicTacToe --games 6 --concurrency 1 --timeout 4 --engine builtin:random"
    with (
        faulty_engine("--crash-at-game", "3") as (crashing, process),
        faulty_engine() as (hanging, _),
    ):
        (crashed, crash_out), (hung, hang_out) = plays(
            (words(common, "--engine", f"{crashing}/good"), tmp_path / "c.sqlite3"),
            (words(common, "--engine", f"{hanging}/hang-at-game/5"), tmp_path / "h.sqlite3"),
        )
        assert process.wait(5) == 3  # it crashed on the third game's first request
    assert crashed == 0 and hung == 0, crash_out + hang_out
    for out, kinds in ((crash_out, ("malformed", "unreachable")), (hang_out, ("timeout",))):
        lines = [line for line in out.splitlines() if " moves " in line]
        cut = 2 if kinds != ("timeout",) else 4
        assert len(lines) == 6 and not any("(" in line for line in lines[:cut]), lines
        assert all(
            re.search(rf"\(({'|'.join(kinds)}): 127\.0\.0\.1, ply", line) for line in lines[cut:]
        )
        said = next(line for line in out.splitlines() if line.startswith("127.0.0.1 lost its last"))
        assert said.startswith(f"127.0.0.1 lost its last {6 - cut} games by fault (")
        assert "the match went on without it" in said
    # The request the crashed engine died on found a connection closed with nothing
    # (malformed) or refused; every one after it nobody listening (unreachable).
    assert sum("(unreachable: 127.0.0.1" in line for line in crash_out.splitlines()) >= 3


def test_ctrl_c_prints_the_games_finished_and_keeps_the_records(tmp_path: Path) -> None:
    database = tmp_path / "i.sqlite3"
    process = start(
        "--set",
        "TicTacToe",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--games",
        "100000",
        "--concurrency",
        "2",
        database=database,
    )
    assert process.stdout is not None
    lines = 0
    deadline = time.monotonic() + 60
    while lines < 6:
        assert time.monotonic() < deadline
        if " moves " in process.stdout.readline():
            lines += 1
    process.send_signal(signal.SIGINT)
    status, out = finish(process)
    assert status == 130, out
    summary = out.split("seed ", 1)[1]
    (played,) = re.findall(r"TicTacToe: (\d+) games", out)
    matches, games = stored(database)
    assert matches[0].status == "interrupted"
    listed = games[matches[0].id]
    over = [e for e in listed if e.game.status == "over"]
    assert len(over) == int(played) >= 6
    assert all(e.game.status in ("over", "interrupted") for e in listed)
    assert "random #1" in summary and "random #2" in summary


@pytest.mark.slow
def test_the_sprt_accepts_h1_for_strong_and_not_for_random(tmp_path: Path) -> None:
    common = "--set ConnectFour --seed 1 --concurrency 2"
    (strong, strong_out), (same, same_out) = plays(
        (
            words(
                common,
                "--engine builtin:strong --engine builtin:random --sprt 0,50 --json",
                tmp_path / "s.json",
            ),
            tmp_path / "s.sqlite3",
        ),
        (
            words(
                common,
                "--engine builtin:random --engine builtin:random --sprt 0,10 --games 60 --json",
                tmp_path / "r.json",
            ),
            tmp_path / "r.sqlite3",
        ),
    )
    assert strong == 0, strong_out
    document = json.loads((tmp_path / "s.json").read_text())
    sprt = document["sprt"]
    assert sprt["verdict"] == "H1" and sprt["llr"] >= sprt["upper"] == 2.9444
    assert (sprt["elo0"], sprt["elo1"], sprt["alpha"], sprt["beta"]) == (0, 50, 0.05, 0.05)
    assert document["games"] < 200 and "H1 accepted" in strong_out
    assert same == 0, same_out
    other = json.loads((tmp_path / "r.json").read_text())["sprt"]
    assert other["verdict"] != "H1" and other["llr"] < other["upper"]


def test_refusals_give_their_reason_before_any_game(tmp_path: Path) -> None:
    pair = ["--engine", "builtin:random", "--engine", "builtin:random"]
    bad = tmp_path / "bad.txt"
    bad.write_text("# two openings\n000000000000000000000000000000000000000000\nXYZ\n")
    runs = [
        ["--set", "ConnectFour", *pair, "--sprt", "10,0"],
        ["--set", "ConnectFour", *pair, "--sprt", "0,5,0.5,0.05"],
        ["--set", "ConnectFour", *pair, "--sprt", "zero,five"],
        ["--set", "Tarot", *pair, *pair, "--sprt", "0,5"],
        ["--set", "ConnectFour", *pair, "--openings", str(bad)],
    ]
    done = plays(*((args, tmp_path / f"{n}.sqlite3") for n, args in enumerate(runs)))
    assert [status for status, _ in done] == [2] * len(runs), done
    said = [out for _, out in done]
    assert "argument --sprt: ELO0 (10) must be less than ELO1 (0)" in said[0]
    assert "argument --sprt: alpha is between 0 and 0.5" in said[1]
    assert "argument --sprt: not numbers" in said[2]
    assert "not a Set of 4 seats" in said[3]
    assert "line 3" in said[4]
    for number in (3, 4):  # refused with the records opened: no match, no game
        assert stored(tmp_path / f"{number}.sqlite3")[0] == []


@pytest.mark.slow
def test_the_same_seed_plays_the_same_games(tmp_path: Path) -> None:
    """``--seed``: the openings' order and the built-in engines' choices (and the deals of
    a dealt Set: the openings branch's tests); the same command twice plays the same
    games, move for move."""
    book = tmp_path / "book.txt"
    book.write_text("# crosses in the centre, noughts in a corner\n100020000\n\n102000000  # two\n")
    tictactoe = "--set TicTacToe --engine builtin:random --engine builtin:random --games 6"
    runs = {
        "t1": words(tictactoe, "--openings builtin --seed 11"),
        "t2": words(tictactoe, "--openings builtin --seed 11"),
        "t3": words(tictactoe, "--openings builtin --seed 12"),
        "file": words("--set TicTacToe --engine builtin:random --engine builtin:perfect"),
    }
    runs["file"] += ["--openings", str(book)]
    done = plays(
        *(
            ([*args, "--json", str(tmp_path / f"{name}.json")], tmp_path / f"{name}.sqlite3")
            for name, args in runs.items()
        )
    )
    assert [status for status, _ in done] == [0] * len(runs), done
    listed = {
        name: json.loads((tmp_path / f"{name}.json").read_text())["games_list"] for name in runs
    }

    def games(name: str) -> list[tuple[Any, ...]]:
        return [(g["opening"], g["pair"], g["first"], g["seed"], g["moves"]) for g in listed[name]]

    assert games("t1") == games("t2")
    assert games("t1") != games("t3")
    first = listed["t1"]
    assert all(g["opening"] for g in first)
    assert [g["opening"] for g in first[0::2]] == [g["opening"] for g in first[1::2]]
    # A file's openings: each played twice, seats swapped, without --games.
    own = [(g["opening_line"], g["opening"], g["first"]) for g in listed["file"]]
    assert sorted(own) == [
        (2, "100020000", 0),
        (2, "100020000", 1),
        (4, "102000000", 0),
        (4, "102000000", 1),
    ]
