"""What ``play`` writes for a script and where its Referee is: lines piped never wrapped,
the match's address without a made-up port, ``options.seed`` the run's, the Referee on the
address and public URL asked (an engine elsewhere calls it back there), every game's
record in ``--games-file`` and at ``/matches/<id>/games.jsonl``, and ``show`` replaying a
game from the records, from a file, and in a terminal with the arrow keys."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.arbitre.conftest import server_process
from tests.arbitre.ircd import _free_port as free_port
from tests.arbitre.play_runs import ENV, faulty_engine
from tests.conftest import ROOT
from tournoyons_gui.server.cli import main


@pytest.mark.slow
def test_a_run_piped_for_a_script_and_its_referee_elsewhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = free_port()
    public = f"http://localhost:{port}"
    database, report, games = tmp_path / "m.sqlite3", tmp_path / "m.json", tmp_path / "g.jsonl"
    with faulty_engine() as (base, _):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "tournoyons_gui.server.cli",
                "play",
                *("--set", "TicTacToe", "--engine", f"v={base}/good", "--engine"),
                *("builtin:random", "--games", "2", "--seed", "7", "--json", str(report)),
                *("--games-file", str(games), "--database", str(database)),
                *("--referee-host", "0.0.0.0", "--referee-port", str(port)),
                *("--public-url", public),
            ],
            cwd=ROOT,
            env={**ENV, "COLUMNS": "80"},  # a narrow terminal's: piped, it wraps nothing
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    # Where the Referee is, and every request of the engine's naming it there.
    assert f"Referee: {public}/referee (listening on 0.0.0.0:{port})" in out, out
    records = [json.loads(line) for line in games.read_text().splitlines()]
    document = json.loads(report.read_text())
    assert [r["id"] for r in records] == [g["id"] for g in document["games_list"]]
    requests = []
    for record in records:
        seat = next(s["index"] for s in record["seats"] if s["name"] == "v")
        requests += [
            e["detail"] for e in record["exchanges"] if e["kind"] == "request" and e["seat"] == seat
        ]
    assert requests and all(d.endswith(f"&Referee={public}/referee") for d in requests), requests
    # Lines whole, however long: the Elo line, the match's address.
    elo = next(line for line in out.splitlines() if line.startswith("Elo difference"))
    assert elo.endswith("model)") and len(elo) > 80, out
    recorded = next(
        line for line in out.splitlines() if line.startswith("Match ") and "recorded" in line
    )
    assert f"recorded in {database}" in recorded and f"/matches/{document['match']}" in recorded
    assert "8000/matches" not in out
    # The run's seed in its options, as at the top.
    assert document["seed"] == 7 and document["options"]["seed"] == 7
    # The same records served at /matches/<id>/games.jsonl, and replayed by show.
    with server_process(database) as http:
        served = http.get(f"/matches/{document['match']}/games.jsonl")
        assert served.status_code == 200, served.text
        assert served.headers["content-type"].startswith("application/x-ndjson")
        lines = [json.loads(line) for line in served.text.splitlines()]
        assert lines == [http.get(f"/games/{r['id']}.json").json() for r in records]
        assert [line["id"] for line in lines] == [r["id"] for r in records]
        assert http.get("/matches/NOSUCHMATCH/games.jsonl").json() == {"error": "no such match"}
    game = records[0]

    # show, in this process (as its command line runs it, its output piped).
    def show(*args: str | Path) -> tuple[int, str, str]:
        status = main(["show", *map(str, args)])
        out, err = capsys.readouterr()
        return status, out, err

    status, shown, _ = show(game["id"], "--database", database)
    assert status == 0
    plies = len(game["moves"])  # piped: every ply, from the start
    assert [f"ply {n} of {plies}" in shown for n in range(plies + 1)] == [True] * (plies + 1)
    assert shown.index("ply 0 of") < shown.index(f"ply {plies} of")
    assert "the end: " in shown and "last move: v (X) played" in shown
    status, last, _ = show(games, "--game", game["id"], "--ply", str(plies))
    assert status == 0 and last.startswith(f"TicTacToe {game['id']}: ")
    assert f"the end: {game['result_text']}" in last
    status, _, refused = show(games)
    assert status == 2 and "choose one with --game ID" in refused
    assert show("NOSUCHGAME", "--database", database)[0] == 2
    assert "no records at" in show("X", "--database", tmp_path / "none")[2]


@pytest.mark.slow
def test_show_steps_with_the_arrow_keys_in_a_terminal(tmp_path: Path) -> None:
    database = tmp_path / "t.sqlite3"
    report = tmp_path / "t.json"
    played = subprocess.run(
        [
            sys.executable,
            "-m",
            "tournoyons_gui.server.cli",
            "play",
            *("--set", "ConnectFour", "--engine", "builtin:strong", "--engine", "builtin:random"),
            *("--seed", "4", "--json", str(report), "--database", str(database)),
        ],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == 0, played.stdout + played.stderr
    game = json.loads(report.read_text())["games_list"][0]
    plies = game["plies"]
    pid, terminal = pty.fork()
    if pid == 0:  # the child: show, in a terminal of its own
        os.chdir(ROOT)
        os.execve(
            sys.executable,
            [
                sys.executable,
                "-m",
                "tournoyons_gui.server.cli",
                "show",
                game["id"],
                "--database",
                str(database),
            ],
            {**ENV, "TERM": "xterm"},
        )
    seen = b""

    def until(text: str) -> None:
        nonlocal seen
        deadline = time.monotonic() + 30
        while text.encode() not in seen:
            assert time.monotonic() < deadline, seen[-2000:]
            ready, _, _ = select.select([terminal], [], [], 1)
            if ready:
                try:
                    seen += os.read(terminal, 65536)
                except OSError:
                    break

    try:
        until(f"ply {plies} of {plies}")  # it opens at the last ply
        os.write(terminal, b"\x1b[D")  # left: one ply back
        until(f"ply {plies - 1} of {plies}")
        os.write(terminal, b"\x1b[H")  # Home: the start
        until(f"ply 0 of {plies}")
        os.write(terminal, b"\x1b[C")  # right
        until(f"ply 1 of {plies}")
        os.write(terminal, b"q")
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(terminal)
    assert os.waitstatus_to_exitcode(status) == 0
