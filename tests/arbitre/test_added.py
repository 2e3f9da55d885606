"""Added games (chapter VI), both ways, over real HTTP on 127.0.0.1: our rules answering
as referees (``/referee/<set>``), and games of Sets added from an interface URL and a
referee URL, played by the Arbitre with no rules of its own (engine protocol section 6,
decision 26), with referees of the tests' own that misbehave."""

from __future__ import annotations

import html
import urllib.parse
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.arbitre.conftest import Served
from tests.arbitre.referees import Referees
from tournoyons_gui.interfaces.tictactoe.rules import TicTacToeRules


@pytest.fixture(scope="module")
def referees(served: Served) -> Iterator[Referees]:
    """The tests' referees, passing on our TicTacToe referee's verdicts."""
    with Referees(f"{served.base}/referee/tictactoe").running() as running:
        yield running


BACK = "http://arbitre.example/back"


def _move(game: str, move_id: str, return_url: str = BACK, **fields: str) -> dict[str, str]:
    """Return the query of a move sent to a referee: Game, MoveId, ``fields`` (Tray,
    Move1 ..) and ReturnURL."""
    return {"Game": game, "MoveId": move_id, **fields, "ReturnURL": return_url}


def _verdict(answer: httpx.Response, back: str = BACK) -> dict[str, str]:
    """Return the verdict a referee's page links to (``back``'s query): a ``ReturnURL``
    this Arbitre did not issue gets the page alone, no redirect."""
    assert answer.status_code == (303 if back != BACK else 200), answer.text
    assert ("location" in answer.headers) == (back != BACK)
    link = html.unescape(answer.text.split('href="', 1)[1].split('"', 1)[0])
    assert link.startswith(f"{back}?")
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query))


def test_our_referee_answers_a_move_with_a_redirect_and_a_page(served: Served) -> None:
    back = f"{served.base}/added/return"
    query = _move("G1", "3", back, Tray="120000000", Gain1="0", Gain2="0", Move1="5")
    answer = served.http.get("/referee/tictactoe", params=query)
    verdict = _verdict(answer, back)
    assert verdict == {
        "Game": "G1",
        "MoveId": "3",
        "Move1": "5",
        "Gain1": "0",
        "Gain2": "0",
        "Tray": "120010000",
        "ReturnCode": "3",
    }
    # The page under the redirect works without script: a link and a refresh.
    assert f'href="{back}?Game=G1&amp;MoveId=3' in answer.text
    assert 'http-equiv="refresh"' in answer.text and "<script" not in answer.text


@pytest.mark.parametrize(
    ("params", "code", "reason"),
    [
        ({"Tray": "110220000", "Move1": "3"}, "1", None),
        ({"Tray": "121122210", "Move1": "9"}, "4", None),
        ({"Tray": "110220000", "Move1": "4"}, "5", "taken"),
        ({"Tray": "110220000", "Move2": "3"}, "5", "Move1"),
        ({"Tray": "11/22|000", "Move1": "3"}, "5", "unreadable"),
        ({"Tray": "110220000"}, "5", "no move"),
    ],
    ids=["win", "draw", "taken", "wrong-player", "unreadable", "no-move"],
)
def test_our_referee_gives_the_return_codes(
    served: Served, params: dict[str, str], code: str, reason: str | None
) -> None:
    verdict = _verdict(served.http.get("/referee/TicTacToe", params=_move("G2", "7", **params)))
    assert verdict["ReturnCode"] == code
    if reason is not None:
        assert reason in verdict["Tray"]
        assert "/" not in verdict["Tray"] and "|" not in verdict["Tray"]


def test_our_referee_without_return_url_shows_its_verdict(served: Served) -> None:
    for bad in ("", "javascript:alert(1)", "/relative"):
        answer = served.http.get(
            "/referee/tictactoe", params=_move("G", "1", bad, Tray="Init", Move1="5")
        )
        assert answer.status_code == 400
        assert "ReturnURL" in answer.text and 'data-return-code="3"' in answer.text
        assert "location" not in answer.headers
    assert served.http.get("/referee/nosuchset").status_code == 404


def test_our_referee_is_no_open_redirect_and_escapes_its_target(served: Served) -> None:
    # Without a game's move, no redirect anywhere: this server is no open redirect.
    bare = served.http.get("/referee/tictactoe", params={"ReturnURL": "https://evil.example/"})
    assert bare.status_code == 400 and "location" not in bare.headers
    # A ReturnURL this Arbitre did not issue: the page and its link, no redirect;
    # its characters are escaped, never a 500.
    target = "http://arbitre.example/b\u20acck"
    answer = served.http.get(
        "/referee/tictactoe", params=_move("G", "1", target, Tray="Init", Move1="5")
    )
    assert answer.status_code == 200 and "location" not in answer.headers
    assert 'href="http://arbitre.example/b%E2%82%ACck?Game=G' in answer.text
    assert 'http-equiv="refresh"' not in answer.text


def _play_added(
    served: Served, elsewhere: str, name: str, referee: str, timeout: int, within: float = 30
) -> tuple[str, dict[str, Any]]:
    """Add the Set ``name`` (the TicTacToe page of another Arbitre, ``elsewhere``, and
    ``referee``'s rules), play a game of it between that Arbitre's perfect and random
    engines (reached by URL) with this TimeOut, and return the game's id and its record
    once it is over."""
    answer = served.http.post(
        "/api/sets",
        json={"name": name, "interface_url": f"{elsewhere}/tictactoe/", "referee_url": referee},
    )
    assert answer.status_code == 201, answer.text
    seats = [
        {"kind": "engine", "engine": f"{elsewhere}/engines/tictactoe/{engine}", "name": engine}
        for engine in ("perfect", "random")
    ]
    game_id = served.create(name, seats, timeout=timeout)
    return game_id, served.finished(game_id, within=within)


def _replayed(record: dict[str, Any]) -> list[str]:
    """Return the engine Trays our TicTacToe rules give for the recorded moves."""
    rules = TicTacToeRules()
    state = rules.start().state
    trays = []
    for move in record["moves"]:
        state = rules.play(state, move["value"]).state
        trays.append(state["tray"])
    return trays


@pytest.mark.slow
@pytest.mark.parametrize("how", ["direct", "redirect", "page"])
def test_an_added_game_is_played_by_its_referee_alone(
    served: Served, referees: Referees, elsewhere: str, how: str
) -> None:
    name = f"Outside{how.capitalize()}"
    # "direct": another Arbitre's referee (a page with the verdict's link, not a redirect to
    # a ReturnURL it did not issue); the others through the tests' referees.
    url = f"{elsewhere}/referee/tictactoe" if how == "direct" else f"{referees.base}/{how}"
    game_id, record = _play_added(served, elsewhere, name, url, timeout=10, within=60)
    assert record["status"] == "over", record["reason"]
    assert record["set"] == name
    # The referee's verdicts, applied by nobody else, agree with our rules move by move.
    trays = [m["tray"] for m in record["moves"]]
    assert trays == _replayed(record)
    rules = TicTacToeRules()
    state = {"tray": trays[-1], "count": len(trays)}
    result = rules.result(state)
    assert result is not None
    expected = "draw" if result.winner is None else f"seat{int(result.winner)}"
    assert record["result"] == expected and expected != "seat2"  # perfect never loses
    # Engines were sent the game's name as Set, and the Tray the referee returned.
    requests = [e["detail"] for e in record["exchanges"] if e["kind"] == "request"]
    assert requests and all(f"Set={name}&" in r for r in requests)
    assert f"Tray={trays[0]}" in requests[1]
    referee_calls = [e["detail"] for e in record["exchanges"] if e["kind"] == "referee"]
    assert len(referee_calls) == len(record["moves"])
    assert all("ReturnURL=" in c and c.endswith("/added/return") for c in referee_calls)
    # The game's page shows the outside interface, with the Tray as the referee returned it.
    view = served.http.get(f"/games/{game_id}/view", params={"move": 2}).json()
    assert view["src"].startswith(f"{elsewhere}/tictactoe/?Set={name}&")
    assert f"Tray={trays[1]}" in view["src"]
    page = httpx.get(view["src"], trust_env=False)
    assert page.status_code == 200 and 'data-error="' not in page.text


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("code7", "ReturnCode"),
        ("slash", "/ or |"),
        ("loop", "redirected more than"),
        ("noecho", "echo Game"),
        ("silent", "no verdict within"),
    ],
)
@pytest.mark.slow
def test_a_misbehaving_referee_ends_the_game_with_status_9(
    served: Served, referees: Referees, elsewhere: str, path: str, why: str
) -> None:
    name = f"Broken{path.capitalize()}"
    _game_id, record = _play_added(served, elsewhere, name, f"{referees.base}/{path}", timeout=4)
    assert record["status"] == "over" and record["result"] == "error"
    assert why in record["reason"]
    assert [s["status"] for s in record["seats"]] == [9, 9]
    assert record["moves"] == []
    errors = [e["detail"] for e in record["exchanges"] if e["kind"] == "error"]
    assert any(why in e for e in errors)


def test_return_code_5_makes_the_player_of_the_move_lose(
    served: Served, referees: Referees, elsewhere: str
) -> None:
    _game_id, record = _play_added(
        served, elsewhere, "RefusesAll", f"{referees.base}/error5", timeout=5
    )
    assert record["result"] == "seat2"
    assert "cell 5 is not yours" in record["reason"]
    assert [s["status"] for s in record["seats"]] == [3, 2]


def test_a_tray_the_interface_cannot_read_is_shown_as_an_error(
    served: Served, referees: Referees, elsewhere: str
) -> None:
    game_id, record = _play_added(
        served, elsewhere, "Unreadable", f"{referees.base}/unreadable", timeout=5
    )
    assert record["result"] == "draw" and len(record["moves"]) == 2
    view = served.http.get(f"/games/{game_id}/view", params={"move": 1}).json()
    assert "Tray=zzz" in view["src"]
    page = httpx.get(view["src"], trust_env=False)
    assert page.status_code == 200 and 'data-error="tray"' in page.text


@pytest.mark.slow
def test_adding_a_set_refuses_bad_input_and_stores_nothing(served: Served) -> None:
    good = {
        "name": "Fine",
        "interface_url": "http://127.0.0.1:1/",
        "referee_url": "http://127.0.0.1:1/r",
    }
    for change, status, why in [
        ({"name": "TicTacToe"}, 409, "already"),
        ({"name": "Morpion3x3"}, 409, "already"),
        ({"name": "x"}, 400, "letters"),
        ({"name": "<b>bad</b>"}, 400, "letters"),
        ({"interface_url": "javascript:alert(1)"}, 400, "http"),
        ({"referee_url": "ftp://127.0.0.1/"}, 400, "http"),
        ({"start_tray": "a/b"}, 400, "never /"),
    ]:
        answer = served.http.post("/api/sets", json={**good, **change})
        refused = (answer.status_code, why in answer.json()["error"])
        assert refused == (status, True), (change, answer.text)
    assert served.http.post("/api/sets", content=b"[1,2]").status_code == 400
    page = served.http.get("/arbitre/sets")
    assert page.status_code == 200 and "Fine" not in page.text
    form = served.http.post(
        "/arbitre/sets",
        data={**good, "name": "FormMade"},
        follow_redirects=False,
    )
    assert form.status_code == 303 and form.headers["location"] == "/arbitre/new?set=FormMade"
    home = served.http.get("/arbitre/new?set=FormMade").text
    assert 'value="FormMade" selected' in home and "FormMade (added)" in home
    again = served.http.post("/arbitre/sets", data={**good, "name": "formmade"})
    assert again.status_code == 400 and "already" in again.text
