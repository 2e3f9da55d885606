"""Whole games between built-in engines for every Set the Arbitre plays, over real HTTP;
live events; games surviving a restart (taken over from their last recorded move)."""

from __future__ import annotations

import json
import time
import urllib.parse
from pathlib import Path

import httpx
import pytest

from tests.arbitre.conftest import (
    Served,
    builtin_engines,
    play_as_person,
    server_process,
    start_with_person,
    wait_moves,
)
from tests.arbitre.engines import QuirkyEngines
from tournoyons_gui.interfaces.plugin import seat_count
from tournoyons_gui.interfaces.registry import load_registry

#: The two-seat Sets with rules (Tarot's four seats: tests/arbitre/test_tarot_games.py).
PLAYABLE = [s for s in load_registry() if s.arbitre is not None and seat_count(s.arbitre) == 2]
STATUS_PAIRS = {(1, 4), (3, 2), (5, 5)}


def test_every_set_with_rules_is_playable() -> None:
    names = {s.name for s in PLAYABLE}
    assert {"TicTacToe", "Nim"} <= names


@pytest.mark.parametrize("interface", PLAYABLE, ids=[s.key for s in PLAYABLE])
def test_engine_against_engine_for_every_set(served: Served, interface: object) -> None:
    from tournoyons_gui.interfaces.plugin import SetInterface

    assert isinstance(interface, SetInterface)
    names = list(interface.engines)
    assert names, f"{interface.name} has no built-in engine"
    pairs = [(names[0], names[-1]), (names[-1], names[0])]
    ids = [
        served.create(
            interface.name,
            builtin_engines(a, b),
            wait=3,
        )
        for a, b in pairs
    ]
    for game_id in ids:
        record = served.finished(game_id, within=120)
        assert record["status"] == "over", record["reason"]
        assert record["result"] in ("seat1", "seat2", "draw"), record["reason"]
        statuses = tuple(s["status"] for s in record["seats"])
        assert statuses in STATUS_PAIRS, (statuses, record["reason"])
        assert [m["number"] for m in record["moves"]] == list(range(1, len(record["moves"]) + 1))
        finals = [e for e in record["exchanges"] if e["kind"] == "final"]
        assert len(finals) == 2 and all("MoveId" not in f["detail"] for f in finals)
        assert not [e for e in record["exchanges"] if e["kind"] == "error"], record["reason"]
        # Every position of the replay draws through the Set's own page.
        for move in (0, len(record["moves"]) // 2, len(record["moves"])):
            view = served.http.get(f"/games/{game_id}/view", params={"move": move}).json()
            page = served.http.get(view["src"])
            assert page.status_code == 200 and 'data-error="' not in page.text, view["src"]
            if move == len(record["moves"]):
                assert "Method=End" in view["src"]
            assert "Input=" not in view["src"] and "URLReturn" not in view["src"]


def test_live_events_follow_a_game(served: Served, quirky: QuirkyEngines) -> None:
    game_id = served.create(
        "TicTacToe",
        [
            {"kind": "engine", "engine": quirky.base + "/answer-first"},
            {"kind": "builtin", "engine": "random"},
        ],
        timeout=5,
    )
    seen: list[dict[str, object]] = []
    with (
        httpx.Client(base_url=served.base, timeout=30, trust_env=False) as client,
        client.stream("GET", f"/games/{game_id}/events") as stream,
    ):
        assert stream.headers["content-type"].startswith("text/event-stream")
        ids = []
        for line in stream.iter_lines():
            if line.startswith("id:"):
                ids.append(int(line[3:].strip()))
            if line.startswith("data:"):
                seen.append(json.loads(line[5:]))
                if seen[-1].get("over"):
                    break
    record = served.record(game_id)
    assert seen[-1] == {"moves": len(record["moves"]), "over": True}
    assert ids == sorted(ids) and ids[-1] == len(record["moves"])
    assert len(seen) >= 3


def test_live_events_tell_each_ask_of_a_person_after_the_reply(served: Served) -> None:
    """The ask that follows an engine's reply has the reply's count: it is its own event,
    the one a person's page waits for (told once, not dropped as a repeat)."""
    game_id, token = start_with_person(
        served.http,
        "TicTacToe",
        [{"kind": "person", "name": "Ann"}, {"kind": "builtin", "engine": "perfect"}],
    )
    seen: list[dict[str, object]] = []
    with (
        httpx.Client(base_url=served.base, timeout=30, trust_env=False) as client,
        client.stream("GET", f"/games/{game_id}/events") as stream,
    ):
        # The first ask may come before the stream: the page reads it from the view.
        play_as_person(served.http, token, 1, "1")
        played, deadline = 1, time.monotonic() + 30
        for line in stream.iter_lines():  # a comment line comes at least every 15 s
            assert time.monotonic() < deadline, seen
            if not line.startswith("data:"):
                continue
            seen.append(json.loads(line[5:]))
            if seen[-1].get("over") or (played == 2 and seen[-1].get("asked") == 0):
                break
            if seen[-1].get("asked") == 0 and seen[-1]["moves"] == 2 * played:
                taken = {m["value"] for m in served.record(game_id)["moves"]}
                free = next(c for c in "123456789" if c not in taken)
                played += 1
                play_as_person(served.http, token, 2 * played - 1, free)
    asks = [e for e in seen if e.get("asked") == 0]
    assert [e["moves"] for e in asks][-2:] == [2, 4], seen
    replies = [e for e in seen if e["moves"] in (2, 4) and "asked" not in e]
    assert len(replies) <= 2 and len(asks) == len({e["moves"] for e in asks}), seen


def test_a_person_seat_plays_only_with_its_token(served: Served) -> None:
    answer = served.http.post(
        "/api/games",
        json={
            "set": "TicTacToe",
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "builtin", "engine": "perfect"}],
        },
    )
    assert answer.status_code == 201
    game = answer.json()
    person_url = game["persons"][0]["url"]
    token = urllib.parse.parse_qs(urllib.parse.urlsplit(person_url).query)["seat"][0]
    deadline = time.monotonic() + 10
    while True:
        view = served.http.get(f"/games/{game['id']}/view", params={"seat": token}).json()
        if "Input=One" in view["src"]:
            break
        assert time.monotonic() < deadline
        time.sleep(0.05)
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(view["src"]).query)
    url_return = query["URLReturn"][0]
    assert url_return == f"{served.base}/play/{token}/1" and "?" not in url_return
    watcher = served.http.get(f"/games/{game['id']}/view").json()
    assert "Input" not in watcher["src"] and token not in watcher["src"]
    assert served.http.get(f"/play/{'A' * 26}/1?ReturnValue=5").status_code == 404
    assert served.http.get(f"{url_return}?ReturnValue=0").status_code == 422
    assert served.http.get(f"/play/{token}/2?ReturnValue=5").status_code == 404
    assert served.http.get(f"{url_return}?ReturnValue=5").status_code == 200
    assert served.http.get(f"{url_return}?ReturnValue=4").status_code == 404
    deadline = time.monotonic() + 10
    while len(served.record(game["id"])["moves"]) < 2:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    moves = served.record(game["id"])["moves"]
    assert (moves[0]["seat"], moves[0]["value"]) == (0, "5") and moves[1]["seat"] == 1


@pytest.mark.slow
def test_a_restart_resumes_games_in_progress_from_their_last_move(
    tmp_path: Path, quirky: QuirkyEngines
) -> None:
    database = tmp_path / "arbitre.sqlite3"
    with server_process(database) as client:
        seats = [{"kind": "engine", "engine": quirky.base + "/good"}, {"kind": "person"}]
        game_id, token = start_with_person(client, "TicTacToe", seats)
        wait_moves(client, game_id, 1)
        before = len(quirky.requests_to("/good"))
    # The first server stopped, the game in progress: a second one on the same records.
    with server_process(database) as client:
        record = client.get(f"/games/{game_id}.json").json()
        assert record["status"] == "playing" and len(record["moves"]) == 1
        # The person's move 2 is taken by the restarted server, which then asks the
        # engine for move 3: the game goes on from its last recorded move.
        play_as_person(client, token, 2, "9")
        wait_moves(client, game_id, 3)
        record = client.get(f"/games/{game_id}.json").json()
        assert [m["number"] for m in record["moves"]] == [1, 2, 3]
        assert record["moves"][1]["value"] == "9"
        assert client.get(f"/play/{token}/2", params={"ReturnValue": "8"}).status_code == 404
        after = [r.query for r in quirky.requests_to("/good")[before:]]
        assert [q.get("MoveId") for q in after] == ["3"] and after[0]["Status"] == "0"


def test_a_person_who_ran_out_of_time_gets_404_not_an_error(served: Served) -> None:
    answer = served.http.post(
        "/api/games",
        json={
            "set": "TicTacToe",
            "seats": [{"kind": "person"}, {"kind": "builtin", "engine": "random"}],
            "options": {"person_timeout": 1},
        },
    )
    game_id = answer.json()["id"]
    token = answer.json()["persons"][0]["url"].split("seat=", 1)[1]
    record = served.finished(game_id, within=30)
    assert record["result"] == "seat2" and "no move within 1 s" in record["seats"][0]["error"]
    late = served.http.get(f"/play/{token}/1", params={"ReturnValue": "5"})
    assert late.status_code == 404
    assert served.record(game_id)["moves"] == []


def test_a_simultaneous_step_ends_when_one_seat_fails(served: Served) -> None:
    """Rochambeau asks both seats at once: a person with no time limit against an engine
    that cannot be reached does not hold the game; the engine loses at once."""
    answer = served.http.post(
        "/api/games",
        json={
            "set": "Rochambeau",
            "seats": [{"kind": "person"}, {"kind": "engine", "engine": "http://127.0.0.1:1/"}],
        },
    )
    record = served.finished(answer.json()["id"], within=20)
    assert record["result"] == "seat1", record["reason"]
    assert "unreachable" in record["seats"][1]["error"]
    assert record["seats"][0]["error"] == ""
