"""The engine protocol against engines that behave as real ones do (engine protocol
sections 1-3 and decisions 3-13), over real HTTP on 127.0.0.1."""

from __future__ import annotations

import html
import socket
import time

import httpx
import pytest

from tests.arbitre.conftest import Served
from tests.arbitre.engines import QuirkyEngines

RANDOM = {"kind": "builtin", "engine": "random"}


def engine(quirky: QuirkyEngines, path: str) -> dict[str, str]:
    """Return a seat of the quirky engine at ``path``."""
    return {"kind": "engine", "engine": quirky.base + path, "name": path.strip("/")}


def game_key(quirky: QuirkyEngines, path: str, game_index: int = -1) -> str:
    """Return the seat ``Game`` id the engine at ``path`` received in its latest game."""
    keys = []
    for received in quirky.requests_to(path):
        key = received.query.get("Game", "")
        if key and key not in keys:
            keys.append(key)
    return keys[game_index]


def final_calls(quirky: QuirkyEngines, path: str, key: str) -> list[dict[str, str]]:
    """Return the final calls (no MoveId) the engine at ``path`` received for ``key``,
    waiting up to 5 s for the first: they are sent once the game's end is recorded, so a
    record read as over may come before them."""
    deadline = time.monotonic() + 5
    while True:
        finals = [
            r.query
            for r in quirky.requests_to(path)
            if r.query.get("Game") == key and "MoveId" not in r.query
        ]
        if finals or time.monotonic() > deadline:
            return finals
        time.sleep(0.02)


@pytest.mark.parametrize(
    "path",
    [
        "/good",
        "/answer-first",
        "/redirect-callback",
        "/slash",
        "/malformed",
        "/huge",
        "/endless",
        "/twice",
        "/flood",
    ],
)
def test_engines_that_call_back_one_way_or_another_play_whole_games(
    served: Served, quirky: QuirkyEngines, path: str
) -> None:
    game_id = served.create("TicTacToe", [engine(quirky, path), RANDOM], timeout=5)
    record = served.finished(game_id, within=60)
    assert record["status"] == "over", record
    assert record["seats"][0]["error"] == "", record["seats"][0]
    numbers = [m["number"] for m in record["moves"]]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 5
    assert {m["seat"] for m in record["moves"][::2]} == {0}
    assert record["seats"][0]["status"] in (1, 3, 5)
    assert record["seats"][1]["status"] == {1: 4, 3: 2, 5: 5}[record["seats"][0]["status"]]
    if path == "/redirect-callback":
        assert any(e["kind"] == "redirect" for e in record["exchanges"])


def test_request_form_order_and_final_call(served: Served, quirky: QuirkyEngines) -> None:
    before = len(quirky.requests_to("/good"))
    game_id = served.create("TicTacToe", [engine(quirky, "/good"), RANDOM], timeout=7)
    record = served.finished(game_id)
    requests = quirky.requests_to("/good")[before:]
    first = requests[0]
    assert [name for name, _ in first.params] == [
        "Set",
        "Game",
        "MoveId",
        "Turn",
        "Status",
        "TimeOut",
        "Tray",
        "Referee",
    ]
    assert first.query == {
        "Set": "TicTacToe",
        "Game": first.query["Game"],
        "MoveId": "1",
        "Turn": "1",
        "Status": "0",
        "TimeOut": "7",
        "Tray": "000000000",
        "Referee": served.base + "/referee",
    }
    key = first.query["Game"]
    assert len(key) == 10 and key.isalnum() and key.upper() == key
    second = requests[1].query
    assert (second["MoveId"], second["Turn"]) == ("3", "3") and "Move2" in second
    finals = final_calls(quirky, "/good", key)
    assert len(finals) == 1
    final = finals[0]
    assert "Referee" not in final and final["Status"] == str(record["seats"][0]["status"])
    assert final["Turn"] == str(len(record["moves"]))
    # Each seat has its own Game id, never shown: the public id is neither, and the record
    # and the log page name the seat instead.
    assert key != game_id and key not in str(record)
    assert "<seat 1>" in str(record["moves"])
    assert key not in served.http.get(f"/games/{game_id}/log").text


@pytest.mark.slow
def test_a_late_engine_loses_and_its_late_callback_changes_nothing(
    served: Served, quirky: QuirkyEngines
) -> None:
    game_id = served.create("TicTacToe", [RANDOM, engine(quirky, "/late")], timeout=4)
    record = served.finished(game_id, within=30)
    assert record["result"] == "seat1" and record["winner"] == 0
    assert [s["status"] for s in record["seats"]] == [1, 4]
    assert "no callback within 4 s" in record["seats"][1]["error"]
    assert len(record["moves"]) == 1
    time.sleep(2)  # the late callback arrives now, and is refused
    again = served.record(game_id)
    assert len(again["moves"]) == 1
    assert any(e["kind"] == "late" for e in again["exchanges"]), again["exchanges"]


@pytest.mark.parametrize(
    "path, why",
    [
        ("/never", "no callback within 4 s"),
        ("/redirects", "no callback within 4 s"),
        ("/illegal", "illegal Value '0'"),
    ],
)
@pytest.mark.slow
def test_engines_that_never_answer_or_answer_wrong_lose(
    served: Served, quirky: QuirkyEngines, path: str, why: str
) -> None:
    started = time.monotonic()
    game_id = served.create("TicTacToe", [engine(quirky, path), RANDOM], timeout=4)
    record = served.finished(game_id, within=30)
    assert time.monotonic() - started < 12
    assert record["winner"] == 1 and [s["status"] for s in record["seats"]] == [3, 2]
    assert why in record["seats"][0]["error"]
    assert record["moves"] == []
    key = game_key(quirky, path)
    assert [f["Status"] for f in final_calls(quirky, path, key)] == ["3"]


def test_an_unreachable_engine_loses_at_once(served: Served) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    game_id = served.create(
        "TicTacToe", [RANDOM, {"kind": "engine", "engine": f"http://127.0.0.1:{port}/x"}]
    )
    record = served.finished(game_id, within=10)
    assert time.monotonic() - started < 5
    assert record["winner"] == 0 and "unreachable" in record["seats"][1]["error"]


def test_twice_second_callback_is_refused(served: Served, quirky: QuirkyEngines) -> None:
    game_id = served.create("TicTacToe", [engine(quirky, "/twice"), RANDOM], timeout=5)
    record = served.finished(game_id)
    assert record["status"] == "over"
    assert quirky.second_status == 404
    assert any(e["kind"] == "duplicate" or e["kind"] == "late" for e in record["exchanges"])
    tray_cells = [m["value"] for m in record["moves"] if m["seat"] == 0]
    assert len(tray_cells) == len(set(tray_cells))


def test_unknown_and_oversized_callbacks_are_refused(served: Served) -> None:
    assert served.http.get("/referee?Game=NOPE&MoveId=1&Value=5").status_code == 404
    assert served.http.get("/referee").status_code == 404
    assert served.http.get("/referee?Game=" + "A" * 9000).status_code == 414


def test_engine_hosts_are_only_http(served: Served) -> None:
    for url in (
        "javascript:alert(1)",
        "file:///etc/passwd",
        "ftp://example.org/",
        "http://user:pw@127.0.0.1/",
        "http:///nohost",
    ):
        answer = served.http.post(
            "/api/games",
            json={"set": "TicTacToe", "seats": [RANDOM, {"kind": "engine", "engine": url}]},
        )
        assert answer.status_code == 400, url
        assert "error" in answer.json()


@pytest.mark.parametrize(
    "body, message",
    [
        ({"set": "Chess", "seats": [RANDOM, RANDOM]}, "unknown Set"),
        ({"set": "TicTacToe", "seats": [RANDOM, RANDOM], "options": {"timeout": 3}}, "TimeOut"),
        ({"set": "TicTacToe", "seats": [RANDOM, RANDOM], "options": {"timeout": 55}}, "TimeOut"),
        ({"set": "TicTacToe", "seats": [RANDOM, {"kind": "robot"}]}, "not 'robot'"),
        ({"set": "TicTacToe", "seats": [RANDOM]}, "2 seats"),
        ({"set": "TicTacToe", "seats": [RANDOM, RANDOM], "options": {"level": 2}}, "Level 2"),
        # int() alone takes these; no person means them as numbers (an attack found them).
        *(
            ({"set": "TicTacToe", "seats": [RANDOM, RANDOM], "options": {"timeout": t}}, "whole")
            for t in ("1_0", "\u0661\u0660", "10.0", "9" * 5000, True)
        ),
        *(
            (
                {"set": "TicTacToe", "seats": [RANDOM, RANDOM], "options": {flag: value}},
                f"{flag} is true or false",
            )
            for flag in ("open_table", "init_as_board")
            for value in ("yes", 1, "true")
        ),
        (
            {"set": "TicTacToe", "seats": [RANDOM, {"kind": "builtin", "engine": "nope"}]},
            "no built-in engine",
        ),
        ([1, 2], "JSON object"),
    ],
)
def test_bad_games_are_refused_and_nothing_is_stored(
    served: Served, body: object, message: str
) -> None:
    before = served.http.get("/games").text.count("data-game-row")
    answer = served.http.post("/api/games", json=body)
    assert answer.status_code == 400
    assert message in answer.json()["error"]
    assert served.http.get("/games").text.count("data-game-row") == before


def test_a_slow_engine_does_not_slow_another_game(served: Served, quirky: QuirkyEngines) -> None:
    # The slow game's engine never calls back: it waits for its first move until its TimeOut,
    # 40 s. The fast game ends while the slow one still waits, so nothing waited for it (a
    # late engine's loss is proven elsewhere; the slow game ends on its own).
    slow = served.create("TicTacToe", [engine(quirky, "/never"), RANDOM], timeout=40)
    fast = served.create("TicTacToe", [RANDOM, RANDOM])
    assert served.finished(fast, within=30)["status"] == "over"
    waiting = served.record(slow)
    assert waiting["status"] == "playing" and waiting["moves"] == []


def test_builtin_engine_in_tester_mode_answers_its_value(served: Served, elsewhere: str) -> None:
    answer = served.http.get(
        "/engines/tictactoe/perfect?Game=TEST&Turn=3&MoveId=3&Referee=&Tray=110220000"
    )
    assert answer.status_code == 200 and answer.text == "3"
    form = {"set": "TicTacToe", "turn": "1", "tray": "000000000"}
    # Another Arbitre's built-in engine, tested as any engine is.
    page = served.http.post(
        "/engine-tester", data={**form, "url": elsewhere + "/engines/tictactoe/perfect"}
    )
    assert page.status_code == 200
    assert "Referee=&amp;Tray=000000000" in page.text and "legal at Turn 1" in page.text
    # Its own are no target of its own: a builtin seat plays them.
    own = served.http.post(
        "/engine-tester", data={**form, "url": served.base + "/engines/tictactoe/perfect"}
    )
    shown = html.unescape(own.text)
    assert "may not be this Arbitre's own /engines/tictactoe/perfect" in shown
    assert "legal at Turn 1" not in shown


def test_check_an_engine_reports_what_was_wrong(served: Served, quirky: QuirkyEngines) -> None:
    page = served.http.post(
        "/engine-check",
        data={"url": quirky.base + "/illegal", "set": "TicTacToe", "timeout": "4"},
    )
    assert page.status_code == 200
    ids = [part.split('"')[0] for part in page.text.split('data-check-log="')[1:]]
    assert len(ids) == 2
    for game_id in ids:
        served.finished(game_id)
        log = served.http.get(f"/games/{game_id}/log").text
        assert "illegal Value &#39;0&#39;" in log


def test_records_list_filter_and_paginate(served: Served) -> None:
    for _ in range(3):
        served.finished(
            served.create("TicTacToe", [RANDOM, {"kind": "builtin", "engine": "perfect"}])
        )
    page = served.http.get("/games", params={"seat": "perfect", "set": "tictactoe"})
    assert page.text.count("data-game-row") >= 3
    assert (
        served.http.get("/games", params={"seat": "no such seat"}).text.count("data-game-row") == 0
    )
    assert served.http.get("/games/NOPE").status_code == 404
    assert served.http.get("/games/NOPE.json").status_code == 404
    for far in ("99999999999999999999999", str(2**63)):
        answer = served.http.get("/games", params={"page": far})
        assert answer.status_code == 200 and answer.text.count("data-game-row") == 0
    first = served.http.get("/games").text.count("data-game-row")
    assert served.http.get("/games", params={"page": "-5"}).text.count("data-game-row") == first


@pytest.mark.slow
def test_a_hostile_flood_of_callbacks_is_cheap(served: Served, quirky: QuirkyEngines) -> None:
    # Unknown callbacks are refused and leave no trace: nothing is stored or remembered for
    # them, so a flood costs the server nothing but the answers (its speed is measured by
    # the benchmark, not here).
    game_id = served.create("TicTacToe", [engine(quirky, "/never"), RANDOM], timeout=6)
    before = len(served.record(game_id)["exchanges"])
    with httpx.Client(base_url=served.base, trust_env=False) as client:
        for n in range(300):
            assert client.get(f"/referee?Game=X{n}&MoveId={n}&Value=1").status_code == 404
    assert len(served.record(game_id)["exchanges"]) == before
    asks = served.arbitre().asks
    bogus = {(f"X{n}", str(n)) for n in range(300)}
    assert not bogus & set(asks._recent)
    served.finished(game_id, within=20)
