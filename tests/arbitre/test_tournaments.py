"""Tournaments over real HTTP on 127.0.0.1 (one worker, SQLite): registrations, a
round-robin and a Swiss tournament played to the end, ``Opponent`` sent to engines, the
standings computed again from the game records, the exports, refused input, and a whole
restart in the middle of a tournament."""

from __future__ import annotations

import csv
import io
import itertools
from collections import Counter
from pathlib import Path

import httpx
import pytest

from tests.arbitre.conftest import (
    Served,
    builtin_engines,
    create_tournament,
    points_from_records,
    server_process,
    wait_tournament,
)
from tests.arbitre.engines import QuirkyEngines


def test_a_round_robin_is_played_to_the_end_with_opponent_sent(
    served: Served, quirky: QuirkyEngines
) -> None:
    registered = served.http.post(
        "/api/engines",
        json={"name": "Quirky good", "url": quirky.base + "/good", "sets": ["tictactoe"]},
    )
    assert registered.status_code == 201, registered.text
    engine_id = registered.json()["id"]
    assert registered.json()["sets"] == ["TicTacToe"] and len(engine_id) == 10
    before = len(quirky.requests_to("/good"))
    registered_entrant = {
        "kind": "registered",
        "engine": engine_id,
        "token": registered.json()["edit_token"],
    }
    entrants = [
        *builtin_engines("perfect"),
        registered_entrant,
        *builtin_engines("random", "perfect"),
    ]
    tournament_id = create_tournament(
        served.http, "TicTacToe", entrants, format="round-robin", games=2, concurrency=3, timeout=10
    )
    summary = wait_tournament(served.http, tournament_id)
    names = [e["name"] for e in summary["entrants"]]
    assert names == ["perfect", "Quirky good", "random", "perfect 2"]
    assert summary["progress"] == {"planned": 12, "over": 12, "playing": 0}
    # Every pair met twice, once each way round.
    met = Counter((g["first"], g["second"]) for g in summary["games"])
    for a, b in itertools.combinations(range(4), 2):
        assert met[(a, b)] == met[(b, a)] == 1, met
    # The standings agree with the records; perfect never loses.
    points = points_from_records(served.http, summary)
    for row in summary["standings"]:
        assert row["points"] == points.get(row["entrant"], 0), (row, points)
        assert row["played"] == 6
    for row in summary["standings"]:
        if row["name"].startswith("perfect"):
            assert row["losses"] == 0
    assert summary["standings"][0]["name"].startswith("perfect")
    ranks = [r["rank"] for r in summary["standings"]]
    assert ranks == sorted(ranks) and ranks[0] == 1
    # The engine was told its opponents' permanent ids, never their URLs.
    opponents = {
        r.query.get("Opponent") for r in quirky.requests_to("/good")[before:] if "Turn" in r.query
    }
    assert opponents == {"B-perfect", "B-random"}, opponents
    # The cross table: W-D-L of each entrant against each other, two games per pair.
    table = summary["cross_table"]
    for a, b in itertools.combinations(range(4), 2):
        w, d, l_ = map(int, table[a][b].split("-"))
        assert w + d + l_ == 2 and table[b][a] == f"{l_}-{d}-{w}"
    # The exports.
    rows = list(
        csv.DictReader(
            io.StringIO(served.http.get(f"/tournaments/{summary['id']}/standings.csv").text)
        )
    )
    assert [r["name"] for r in rows] == [r["name"] for r in summary["standings"]]
    games = served.http.get(f"/tournaments/{summary['id']}/games.json").json()["rows"]
    assert len(games) == 12 and all(g["status"] == "over" for g in games)
    record = served.http.get(f"/api/engines/{engine_id}").json()
    assert sum(record["per_set"]["TicTacToe"].values()) == 6
    assert len(record["ratings"]["TicTacToe"]) == 6


def test_a_swiss_tournament_pairs_without_repeats_and_gives_byes(served: Served) -> None:
    entrants = [{"kind": "builtin", "engine": "random", "name": f"R{n}"} for n in range(5)]
    tournament_id = create_tournament(
        served.http, "Nim", entrants, format="swiss", games=1, rounds=3, concurrency=2
    )
    summary = wait_tournament(served.http, tournament_id)
    assert summary["rounds"] == 3 and len(summary["games"]) == 3 * 2
    pairs = [frozenset((g["first"], g["second"])) for g in summary["games"]]
    assert len(set(pairs)) == len(pairs), "a pair met twice"
    byes = summary["byes"]
    assert sorted(r for r, _ in byes) == [1, 2, 3]
    assert len({e for _, e in byes}) == 3, "a bye given twice"
    for round_ in (1, 2, 3):
        seated = [
            e for g in summary["games"] if g["round"] == round_ for e in (g["first"], g["second"])
        ]
        seated += [e for r, e in byes if r == round_]
        assert sorted(seated) == [0, 1, 2, 3, 4]
    points = points_from_records(served.http, summary)
    for row in summary["standings"]:
        assert row["points"] == points.get(row["entrant"], 0)


def test_bad_registrations_and_tournaments_are_refused(served: Served) -> None:
    for body, why in [
        ({"name": "", "url": "http://127.0.0.1:1/", "sets": ["TicTacToe"]}, "name"),
        ({"name": "x", "url": "javascript:alert(1)", "sets": ["TicTacToe"]}, "http"),
        ({"name": "x", "url": "http://127.0.0.1:1/", "sets": ["Chess"]}, "unknown Set"),
        ({"name": "x", "url": "http://127.0.0.1:1/", "sets": []}, "at least one"),
        ({"name": "x", "url": "http://127.0.0.1:1/", "sets": "TicTacToe"}, "list"),
    ]:
        answer = served.http.post("/api/engines", json=body)
        assert answer.status_code == 400 and why in answer.json()["error"], (body, answer.text)
    retired = served.http.post(
        "/api/engines", json={"name": "Old", "url": "http://127.0.0.1:1/", "sets": ["Nim"]}
    ).json()
    assert len(retired["edit_token"]) == 26
    anyone = served.http.post(f"/api/engines/{retired['id']}", json={"retired": True})
    assert anyone.status_code == 403, "changed without its edit token"
    owner = served.http.post(
        f"/api/engines/{retired['id']}", json={"retired": True, "token": retired["edit_token"]}
    )
    assert owner.json()["retired"] and "edit_token" not in owner.json()
    assert all("edit_token" not in e for e in served.http.get("/api/engines").json()["rows"])
    two = [{"kind": "builtin", "engine": "random"}] * 2
    for body, why in [
        ({"set": "Chess", "entrants": two}, "unknown Set"),
        ({"set": "Nim", "entrants": two[:1]}, "2 to 64"),
        ({"set": "Nim", "entrants": two, "format": "knockout"}, "format"),
        ({"set": "Nim", "entrants": two, "games": 0}, "1 to 100"),
        ({"set": "Nim", "entrants": two, "options": {"timeout": 99}}, "TimeOut"),
        ({"set": "Nim", "entrants": [{"kind": "builtin", "engine": "deep"}] * 2}, "no built-in"),
        (
            {"set": "Nim", "entrants": [{"kind": "registered", "engine": retired["id"]}] * 2},
            "retired",
        ),
        ({"set": "TicTacToe", "entrants": [{"kind": "engine", "engine": "ftp://x/"}] * 2}, "http"),
    ]:
        answer = served.http.post("/api/tournaments", json=body)
        assert answer.status_code == 400 and why in answer.json()["error"], (body, answer.text)
    assert served.http.get("/tournaments/NOSUCH.json").status_code == 404
    assert httpx.codes.is_success(served.http.get("/api/tournaments").status_code)


@pytest.mark.slow
def test_a_whole_restart_resumes_a_tournament_where_it_was(tmp_path: Path) -> None:
    database = tmp_path / "arbitre.sqlite3"
    entrants = [
        *builtin_engines("perfect", "random"),
        {"kind": "builtin", "engine": "random", "name": "R2"},
    ]
    # Enough games that the server cannot finish them all while it stops: built-in Nim
    # games take milliseconds (18 were once all over by the time it had stopped).
    with server_process(database) as client:
        tournament_id = create_tournament(client, "Nim", entrants, games=40, concurrency=1)
        wait_tournament(client, tournament_id, within=30, games_over=3)
    # The whole server stopped mid-tournament: another one on the same records resumes it.
    with server_process(database) as client:
        stopped = client.get(f"/tournaments/{tournament_id}.json").json()
        assert stopped["status"] == "running" and stopped["progress"]["over"] < 120
        summary = wait_tournament(client, tournament_id, within=120)
        assert summary["progress"] == {"planned": 120, "over": 120, "playing": 0}
        assert len({g["pairing"] for g in summary["games"]}) == 120
        statuses = Counter(g["status"] for g in summary["games"])
        assert statuses == {"over": 120}, statuses


def test_poker_level_2_only_between_entrants_that_both_play_it(
    served: Served, elsewhere: str
) -> None:
    level1 = served.http.post(
        "/api/engines",
        json={
            "name": "Level one only",
            "url": f"{elsewhere}/engines/poker/caller",
            "sets": ["Poker"],
            "poker_level2": False,
        },
    ).json()
    entrants = [
        *builtin_engines("caller", "strength"),
        {"kind": "registered", "engine": level1["id"], "token": level1["edit_token"]},
    ]
    tournament_id = create_tournament(
        served.http, "Poker", entrants, games=1, concurrency=3, options={"level": 2}
    )
    summary = wait_tournament(served.http, tournament_id)
    levels = {}
    for game in summary["games"]:
        record = served.http.get(f"/games/{game['id']}.json").json()
        levels[frozenset((game["first"], game["second"]))] = record["options"]["level"]
        requests = [e["detail"] for e in record["exchanges"] if e["kind"] == "request"]
        assert all(f"Level={record['options']['level']}&" in r for r in requests)
    assert levels == {frozenset((0, 1)): 2, frozenset((0, 2)): 1, frozenset((1, 2)): 1}
