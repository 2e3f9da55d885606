"""A game started from a position (seed 000 II, decision 15) through the web
side: the JSON API's ``start_tray`` and the new-game form's ``Start position (Tray)``
field, over real HTTP. A Tray that is not a string, or not a position of the Set, is
refused with a clear error and nothing is stored."""

from __future__ import annotations

import re

from tests.arbitre.conftest import Served, builtin_engines

#: TicTacToe with X to play and win at once: X X . / O O . / . . .
ONE_MOVE_FROM_WINNING = "110220000"


def test_the_api_starts_a_game_from_a_tray(served: Served) -> None:
    answer = served.http.post(
        "/api/games",
        json={
            "set": "TicTacToe",
            "seats": builtin_engines("perfect", "perfect"),
            "start_tray": ONE_MOVE_FROM_WINNING,
        },
    )
    assert answer.status_code == 201, answer.text
    record = served.finished(answer.json()["id"])
    assert record["status"] == "over", record["reason"]
    assert record["result"] == "seat1"
    assert len(record["moves"]) == 1


def test_the_api_refuses_a_start_tray_that_is_not_a_string(served: Served) -> None:
    before = served.http.get("/games").text.count("data-game-row")
    for wrong in (110220000, ["110220000"], {"tray": "110220000"}, True):
        answer = served.http.post(
            "/api/games",
            json={
                "set": "TicTacToe",
                "seats": builtin_engines("random", "random"),
                "start_tray": wrong,
            },
        )
        assert answer.status_code == 400, wrong
        assert "start_tray is a string" in answer.json()["error"]
    assert served.http.get("/games").text.count("data-game-row") == before


def test_the_api_refuses_a_tray_that_is_no_position(served: Served) -> None:
    answer = served.http.post(
        "/api/games",
        json={
            "set": "TicTacToe",
            "seats": builtin_engines("random", "random"),
            "start_tray": "nothing like a board",
        },
    )
    assert answer.status_code == 400
    assert answer.json()["error"]


def test_the_form_starts_a_game_from_a_tray(served: Served) -> None:
    home = served.http.get("/arbitre/new")
    assert re.search(r'Start position \(Tray\)\s*<input name="start_tray"', home.text)
    form = {
        "set": "TicTacToe",
        "seat1_kind": "builtin",
        "seat1_builtin": "perfect",
        "seat2_kind": "builtin",
        "seat2_builtin": "perfect",
        "timeout": "20",
        "start_tray": ONE_MOVE_FROM_WINNING,
    }
    answer = served.http.post("/arbitre/games", data=form)
    assert answer.status_code == 303, answer.text
    game_id = answer.headers["location"].removeprefix("/games/")
    record = served.finished(game_id)
    assert record["result"] == "seat1" and len(record["moves"]) == 1


def test_the_form_refuses_a_tray_that_is_no_position_and_keeps_it(served: Served) -> None:
    form = {
        "set": "TicTacToe",
        "seat1_kind": "builtin",
        "seat1_builtin": "random",
        "seat2_kind": "builtin",
        "seat2_builtin": "random",
        "start_tray": "<not a board>",
    }
    answer = served.http.post("/arbitre/games", data=form)
    assert answer.status_code == 400
    assert "data-form-error" in answer.text
    assert 'value="&lt;not a board&gt;"' in answer.text
