"""Registered graphical interfaces over real HTTP: registration, edit and retire
with the token, ours listed first, URLs held like engines', and a recorded game watched
through each outside interface of :mod:`tests.outside_interfaces` (each frame given exactly
the query our own page gets), the compare page's two frames."""

from __future__ import annotations

import re
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.arbitre.conftest import Served
from tests.browser.helpers import query_of
from tests.outside_interfaces import VARIANTS, OutsideInterfaces
from tournoyons_gui.server.app import create_app


@pytest.fixture(scope="module")
def outside() -> Iterator[OutsideInterfaces]:
    """The tests' outside interfaces on 127.0.0.1."""
    with OutsideInterfaces().running() as pages:
        yield pages


@pytest.fixture(scope="module")
def registered(served: Served, outside: OutsideInterfaces) -> dict[str, dict[str, Any]]:
    """Each outside interface registered for TicTacToe: its answer by variant."""
    found = {}
    for variant in VARIANTS:
        answer = served.http.post(
            "/api/interfaces",
            json={"name": f"Outside {variant}", "url": outside.url(variant), "sets": ["tictactoe"]},
        )
        assert answer.status_code == 201, answer.text
        found[variant] = answer.json()
    return found


@pytest.fixture(scope="module")
def recorded(served: Served) -> dict[str, Any]:
    """A finished TicTacToe game between two built-in engines: its record."""
    game_id = served.create(
        "TicTacToe",
        [
            {"kind": "builtin", "engine": "random", "name": "Ann"},
            {"kind": "builtin", "engine": "perfect", "name": "Bob"},
        ],
    )
    return served.finished(game_id)


def test_registering_answers_an_id_and_a_token_once(
    served: Served, registered: dict[str, dict[str, Any]]
) -> None:
    plain = registered["plain"]
    assert re.fullmatch(r"[A-Z2-7]{10}", plain["id"])
    assert len(plain["edit_token"]) == 26
    assert plain["sets"] == ["TicTacToe"] and plain["builtin"] is False
    shown = served.http.get(f"/api/interfaces/{plain['id']}").json()
    assert "edit_token" not in shown and shown["url"] == plain["url"]
    listed = served.http.get("/api/interfaces").json()["rows"]
    assert all("edit_token" not in row for row in listed)


def test_ours_are_listed_first_as_built_in(
    served: Served, registered: dict[str, dict[str, Any]]
) -> None:
    listed = served.http.get("/api/interfaces").json()["rows"]
    builtins = [row["builtin"] for row in listed]
    ours = builtins.index(False)
    assert ours >= 9 and all(builtins[:ours]) and not any(builtins[ours:])
    assert {"id": "B-tictactoe", "url": "/tictactoe/", "sets": ["TicTacToe"]}.items() <= listed[
        [row["id"] for row in listed].index("B-tictactoe")
    ].items()
    page = served.http.get("/interfaces").text
    rows = re.findall(r'data-interface-row="([^"]+)"', page)
    assert rows[0].startswith("B-") and rows.index(registered["plain"]["id"]) > rows.index(
        "B-tictactoe"
    )


def test_edit_and_retire_take_the_token(served: Served, outside: OutsideInterfaces) -> None:
    made = served.http.post(
        "/api/interfaces",
        json={"name": "To edit", "url": outside.url("plain"), "sets": ["TicTacToe"]},
    ).json()
    path = f"/api/interfaces/{made['id']}"
    wrong = served.http.post(path, json={"token": "nope", "name": "Taken over"})
    assert wrong.status_code == 403
    assert served.http.get(path).json()["name"] == "To edit"
    renamed = served.http.post(path, json={"token": made["edit_token"], "name": "Edited"})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Edited"
    retired = served.http.post(path, json={"token": made["edit_token"], "retired": True})
    assert retired.json()["retired"] is True
    assert served.http.post("/api/interfaces/NOSUCHONE", json={"token": "x"}).status_code == 404
    # The page's forms: a wrong token is refused, the right one changes it.
    form = {"token": "nope", "action": "unretire"}
    assert served.http.post(f"/interfaces/{made['id']}", data=form).status_code == 403
    form["token"] = made["edit_token"]
    answer = served.http.post(f"/interfaces/{made['id']}", data=form)
    assert answer.status_code == 303
    assert served.http.get(path).json()["retired"] is False


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"name": "js", "url": "javascript:alert(1)", "sets": ["TicTacToe"]}, "http"),
        ({"name": "ftp", "url": "ftp://127.0.0.1/x", "sets": ["TicTacToe"]}, "http"),
        ({"name": "user", "url": "http://me:pw@127.0.0.1/", "sets": ["TicTacToe"]}, "password"),
        ({"name": "unknown", "url": "http://127.0.0.1/", "sets": ["Chess"]}, "unknown Set"),
        ({"name": "none", "url": "http://127.0.0.1/", "sets": []}, "at least one Set"),
        ({"name": "", "url": "http://127.0.0.1/", "sets": ["TicTacToe"]}, "1-60"),
        ({"name": "sets", "url": "http://127.0.0.1/", "sets": "TicTacToe"}, "list of strings"),
        ({"name": None, "url": "http://127.0.0.1/", "sets": ["TicTacToe"]}, "name is a string"),
        ({"name": ["a"], "url": "http://127.0.0.1/", "sets": ["TicTacToe"]}, "name is a string"),
        ({"name": {"a": 1}, "url": "http://127.0.0.1/", "sets": ["TicTacToe"]}, "a string"),
        ({"name": 7, "url": "http://127.0.0.1/", "sets": ["TicTacToe"]}, "name is a string"),
        ({"name": "url7", "url": 7, "sets": ["TicTacToe"]}, "url is a string"),
        ({"name": "nul", "url": "http://127.0.0.1/\x00", "sets": ["TicTacToe"]}, "control"),
        ({"name": "tab", "url": "http://127.0.0.1/a\tb", "sets": ["TicTacToe"]}, "control"),
    ],
)
def test_bad_registrations_are_refused(served: Served, body: dict[str, Any], error: str) -> None:
    answer = served.http.post("/api/interfaces", json=body)
    assert answer.status_code == 400 and error in answer.json()["error"]


def test_a_change_of_the_wrong_type_is_refused_and_changes_nothing(
    served: Served, registered: dict[str, dict[str, Any]]
) -> None:
    made = registered["plain"]
    path = f"/api/interfaces/{made['id']}"
    for change in ({"name": None}, {"name": ["x"]}, {"url": 5}, {"url": "http://127.0.0.1/\x00"}):
        answer = served.http.post(path, json={"token": made["edit_token"], **change})
        assert answer.status_code == 400, change
    kept = served.http.get(path).json()
    assert (kept["name"], kept["url"]) == (made["name"], made["url"])
    # The form refuses a control character in the URL too, and keeps the registration.
    form = {"token": made["edit_token"], "action": "edit", "name": made["name"]}
    form |= {"url": made["url"] + "\x00", "sets": "TicTacToe"}
    answer = served.http.post(f"/interfaces/{made['id']}", data=form)
    assert answer.status_code == 400 and "control character" in answer.text
    assert served.http.get(path).json()["url"] == made["url"]


def test_a_name_is_registered_once(served: Served, registered: dict[str, dict[str, Any]]) -> None:
    again = served.http.post(
        "/api/interfaces",
        json={"name": "Outside plain", "url": "http://127.0.0.1:1/", "sets": ["TicTacToe"]},
    )
    assert again.status_code == 409 and "already registered" in again.json()["error"]


def test_urls_are_held_to_the_engine_hosts(tmp_path: Path) -> None:
    app = create_app(
        database=str(tmp_path / "arbitre.sqlite3"), engine_hosts=frozenset({"ok.example"})
    )
    with TestClient(app) as client:
        body = {"name": "Elsewhere", "url": "http://127.0.0.1:1/", "sets": ["TicTacToe"]}
        refused = client.post("/api/interfaces", json=body)
        assert refused.status_code == 400 and "not allowed" in refused.json()["error"]
        body["url"] = "https://ok.example/ttt/"
        assert client.post("/api/interfaces", json=body).status_code == 201


def test_a_recorded_game_through_each_interface_gets_our_query(
    served: Served, registered: dict[str, dict[str, Any]], recorded: dict[str, Any]
) -> None:
    game_id = recorded["id"]
    moves = recorded["moves"]
    assert recorded["status"] == "over" and moves
    for number in range(len(moves) + 1):
        ours = served.http.get(f"/games/{game_id}/view", params={"move": number}).json()
        assert ours["src"].startswith("/tictactoe/?")
        expected = query_of(ours["src"])
        assert expected["Name1"] == "Ann" and expected["Name2"] == "Bob"
        if number:
            move = moves[number - 1]
            assert expected[f"Move{move['seat'] + 1}"] == move["value"]
        if 0 < number < len(moves):
            assert expected["Tray"] == moves[number - 1]["tray"]
        for variant, interface in registered.items():
            params = {"move": number, "interface": interface["id"]}
            theirs = served.http.get(f"/games/{game_id}/view", params=params).json()
            assert theirs["src"].startswith(interface["url"] + "?"), variant
            assert query_of(theirs["src"]) == expected, (variant, number)
            # The game page's own frame, without JavaScript, says the same.
            page = served.http.get(f"/games/{game_id}", params=params).text
            src = re.search(r'<iframe id="board"[^>]* src="([^"]+)"', page)
            assert src is not None
            assert src.group(1).replace("&amp;", "&") == theirs["src"]
            assert f'value="{interface["id"]}" selected' in page


def test_an_unknown_or_foreign_choice_shows_ours(
    served: Served, recorded: dict[str, Any], outside: OutsideInterfaces
) -> None:
    game_id = recorded["id"]
    for choice in ("NOSUCHONE", "B-reversi", "<script>"):
        view = served.http.get(f"/games/{game_id}/view", params={"interface": choice}).json()
        assert view["src"].startswith("/tictactoe/?")
    other = served.http.post(
        "/api/interfaces",
        json={"name": "Reversi only", "url": outside.url("plain"), "sets": ["Reversi"]},
    ).json()
    view = served.http.get(f"/games/{game_id}/view", params={"interface": other["id"]}).json()
    assert view["src"].startswith("/tictactoe/?")


def test_a_person_sees_their_own_query_through_an_outside_interface(
    served: Served, registered: dict[str, dict[str, Any]]
) -> None:
    created = served.http.post(
        "/api/games",
        json={
            "set": "MasterMind",
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "builtin", "engine": "random"}],
        },
    ).json()
    token = created["persons"][0]["url"].split("seat=", 1)[1]
    plain = registered["plain"]["id"]
    for who in ({}, {"seat": token}):
        deadline = time.monotonic() + 20
        while True:
            ours = served.http.get(f"/games/{created['id']}/view", params=who).json()
            if ours["asked"] is not None or not who:
                break
            assert time.monotonic() < deadline, ours
            time.sleep(0.05)
        theirs = served.http.get(
            f"/games/{created['id']}/view", params={**who, "interface": plain}
        ).json()
        assert query_of(theirs["src"]) == query_of(ours["src"])
    asked = query_of(theirs["src"])
    assert asked["Input"] == "One" and asked["URLReturn"].startswith(f"{served.base}/play/")


def test_the_compare_page_shows_two_frames_with_one_query(
    served: Served, registered: dict[str, dict[str, Any]], recorded: dict[str, Any]
) -> None:
    game_id = recorded["id"]
    b = registered["words"]["id"]
    page = served.http.get(
        f"/games/{game_id}/compare", params={"a": "B-tictactoe", "b": b, "move": 2}
    )
    assert page.status_code == 200
    frames = dict(re.findall(r'src="([^"]+)" allow="autoplay" data-frame="(a|b)"', page.text))
    srcs = {side: src.replace("&amp;", "&") for src, side in frames.items()}
    assert srcs["a"].startswith("/tictactoe/?")
    assert srcs["b"].startswith(registered["words"]["url"] + "?")
    assert query_of(srcs["a"]) == query_of(srcs["b"])
    ours = served.http.get(f"/games/{game_id}/view", params={"move": 2}).json()
    assert query_of(srcs["a"]) == query_of(ours["src"])
    nav = re.search(r'href="([^"]+)" data-nav="next"', page.text)
    assert nav is not None
    assert urllib.parse.parse_qs(
        urllib.parse.urlsplit(nav.group(1).replace("&amp;", "&")).query
    ) == {
        "a": ["B-tictactoe"],
        "b": [b],
        "move": ["3"],
    }
    assert served.http.get("/games/NOSUCHGAME/compare").status_code == 404


def test_the_compare_page_sandboxes_an_outside_frame_as_the_game_page_does(
    served: Served, registered: dict[str, dict[str, Any]], recorded: dict[str, Any]
) -> None:
    game_id = recorded["id"]
    b = registered["plain"]["id"]
    page = served.http.get(f"/games/{game_id}/compare", params={"a": "B-tictactoe", "b": b})
    found = re.finditer(r'<iframe [^>]*data-frame="(a|b)"[^>]*>', page.text)
    tags = {tag.group(1): tag.group(0) for tag in found}
    assert set(tags) == {"a", "b"} and "sandbox" not in tags["a"]
    assert 'sandbox="allow-scripts allow-forms"' in tags["b"]
    game = served.http.get(f"/games/{game_id}", params={"interface": b}).text
    assert 'sandbox="allow-scripts allow-forms"' in game


def test_the_pages_forms_register_edit_retire_and_bring_back(
    served: Served, outside: OutsideInterfaces
) -> None:
    # An interface author without a program: the /interfaces form, then the edit form on
    # the interface's page (its address carries the token), as a browser posts them.
    def post(path: str, form: list[tuple[str, str]]) -> Any:
        return served.http.post(
            path,
            content=urllib.parse.urlencode(form).encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )

    made = post(
        "/interfaces",
        [("name", "Form-made"), ("url", outside.url("plain")), ("sets", "TicTacToe")],
    )
    assert made.status_code == 303, made.text
    found = re.fullmatch(
        r"/interfaces/([A-Za-z0-9_-]+)\?token=([A-Z2-7]{26})", made.headers["location"]
    )
    assert found, made.headers["location"]
    interface_id, token = found.groups()
    page = served.http.get(made.headers["location"]).text
    assert "data-edit-form" in page and f'value="{token}"' in page
    assert 'value="Form-made"' in page and "data-retire" in page and "data-unretire" not in page
    assert re.search(r'value="TicTacToe" checked', page)

    path = f"/interfaces/{interface_id}"
    refused = post(
        path,
        [
            ("action", "edit"),
            ("token", "A" * 26),
            ("name", "Taken over"),
            ("url", outside.url("plain")),
            ("sets", "TicTacToe"),
        ],
    )
    assert refused.status_code == 403 and "data-form-error" in refused.text
    assert served.http.get(f"/api/interfaces/{interface_id}").json()["name"] == "Form-made"
    edited = post(
        path,
        [
            ("action", "edit"),
            ("token", token),
            ("name", "Form-renamed"),
            ("url", outside.url("plain")),
            ("sets", "TicTacToe"),
        ],
    )
    assert edited.status_code == 303
    assert served.http.get(f"/api/interfaces/{interface_id}").json()["name"] == "Form-renamed"
    assert post(path, [("action", "retire"), ("token", token)]).status_code == 303
    retired = served.http.get(path, params={"token": token}).text
    assert "data-unretire" in retired and "data-retire" not in retired.replace("data-retired", "")
    assert post(path, [("action", "unretire"), ("token", token)]).status_code == 303
    assert served.http.get(f"/api/interfaces/{interface_id}").json()["retired"] is False
