"""Owners' consent, the limits of a public Arbitre and its organiser tokens, and the
small holes, over real HTTP on 127.0.0.1."""

from __future__ import annotations

import csv
import io
import logging
import socket
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from tests.arbitre.conftest import (
    Served,
    builtin_engines,
    create_tournament,
    server_process,
    wait_tournament,
)
from tests.arbitre.engines import QuirkyEngines
from tournoyons_gui.server.cli import bind

ADMIN = "organiser-secret-token"
BUILTINS = [{"kind": "builtin"}, {"kind": "builtin"}]


def _register(served: Served, name: str, url: str, **more: Any) -> dict[str, Any]:
    answer = served.http.post(
        "/api/engines", json={"name": name, "url": url, "sets": ["TicTacToe"], **more}
    )
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def _tournament(served: Served, entrants: list[dict[str, str]], **more: Any) -> Any:
    return served.http.post(
        "/api/tournaments", json={"set": "TicTacToe", "entrants": entrants, "games": 1, **more}
    )


# --- owners' consent -------------------------------------------------------------------


def test_a_registered_engine_enters_a_tournament_with_its_token_or_its_consent(
    served: Served, quirky: QuirkyEngines
) -> None:
    """Consent: a tournament could enter anyone's registered engine by id. Now it takes
    the engine's edit token, unless its owner opened it to every tournament."""
    closed = _register(served, "Closed one", quirky.base + "/good?closed")
    opened = _register(served, "Open one", quirky.base + "/good?open", open=True)
    random = {"kind": "builtin", "engine": "random"}
    by_id = {"kind": "registered", "engine": closed["id"]}
    for entrant in (by_id, {**by_id, "token": "WRONG"}):
        refused = _tournament(served, [entrant, random])
        assert refused.status_code == 400 and "edit token" in refused.json()["error"]
    assert (
        _tournament(served, [{**by_id, "token": closed["edit_token"]}, random]).status_code == 201
    )
    assert (
        _tournament(served, [{"kind": "registered", "engine": opened["id"]}, random]).status_code
        == 201
    )
    # Its owner may open it later with the token, and nobody else.
    assert served.http.post(f"/api/engines/{closed['id']}", json={"open": True}).status_code == 403
    changed = served.http.post(
        f"/api/engines/{closed['id']}", json={"open": True, "token": closed["edit_token"]}
    )
    assert changed.status_code == 200 and changed.json()["open"] is True


def test_entering_a_url_never_changes_its_registration(
    served: Served, quirky: QuirkyEngines
) -> None:
    """Consent: entering a registered engine's URL renamed it, added Sets to it and
    entered it retired. Now the registration is untouched: its name, its Sets, and a
    retired engine is refused."""
    url = quirky.base + "/good?by-url"
    engine = _register(served, "Registered by url", url, open=True)
    entered = _tournament(
        served, [{"kind": "engine", "engine": url, "name": "Renamed"}, *builtin_engines("random")]
    )
    assert entered.status_code == 201, entered.text
    summary = served.http.get(f"/tournaments/{entered.json()['id']}.json").json()
    assert summary["entrants"][0]["name"] == "Registered by url"
    nim = served.http.post(
        "/api/tournaments",
        json={
            "set": "Nim",
            "entrants": [{"kind": "engine", "engine": url}, *builtin_engines("random")],
        },
    )
    assert nim.status_code == 400 and "does not play Nim" in nim.json()["error"]
    after = served.http.get(f"/api/engines/{engine['id']}").json()
    assert after["name"] == "Registered by url" and after["sets"] == ["TicTacToe"]
    served.http.post(
        f"/api/engines/{engine['id']}", json={"retired": True, "token": engine["edit_token"]}
    )
    retired = _tournament(served, [{"kind": "engine", "engine": url}, *builtin_engines("random")])
    assert retired.status_code == 400 and "retired" in retired.json()["error"]


def test_a_refused_tournament_stores_nothing(served: Served, quirky: QuirkyEngines) -> None:
    """Consent: a refused tournament still registered its first entrant's URL."""
    url = quirky.base + "/good?never-stored"
    refused = _tournament(
        served,
        [{"kind": "engine", "engine": url}, {"kind": "builtin", "engine": "no-such-engine"}],
    )
    assert refused.status_code == 400
    assert url not in [e["url"] for e in served.http.get("/api/engines").json()["rows"]]


# --- limits ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A public server (listening on 0.0.0.0, served on 127.0.0.1) with small limits and an
    organiser token."""
    from tournoyons_gui.arbitre.web.guard import Limits

    served = Served(
        tmp_path_factory.mktemp("limited") / "limited.sqlite3",
        listen=("0.0.0.0", 0),
        limits=Limits(work=3, window=3600, entrants=3, games=2, concurrency=2),
        admin_tokens=[ADMIN],
    )
    try:
        yield served
    finally:
        served.stop()


def test_work_past_the_limit_is_answered_429_with_retry_after(limited: Served) -> None:
    """Limits: 214 game creations in 10 s from one client all passed. Past the limit
    per client address: 429, ``Retry-After`` and ``{error, retry_after}``; an organiser
    token lifts it."""
    game = {"set": "TicTacToe", "seats": BUILTINS}
    statuses = [limited.http.post("/api/games", json=game).status_code for _ in range(3)]
    assert statuses == [201, 201, 201]
    for path, body in (("/api/games", game), ("/api/tournaments", {})):
        answer = limited.http.post(path, json=body)
        assert answer.status_code == 429
        wait = int(answer.headers["retry-after"])
        assert 1 <= wait <= 3600
        assert answer.json() == {"error": answer.json()["error"], "retry_after": wait}
    check = limited.http.post("/engine-check", data={"url": "http://example.org/"})
    assert check.status_code == 429
    organiser = {"Authorization": f"Bearer {ADMIN}"}
    assert limited.http.post("/api/games", json=game, headers=organiser).status_code == 201
    wrong = {"Authorization": "Bearer not-the-token"}
    # A token this server does not know is no way around the limit, nor anonymous: 401.
    refused = limited.http.post("/api/games", json=game, headers=wrong)
    assert refused.status_code == 401 and "invalid_token" in refused.headers["www-authenticate"]


def test_anonymous_tournaments_are_capped_and_an_organiser_lifts_the_caps(tmp_path: Path) -> None:
    """Limits: any client could start a 64-entrant tournament of 100 games per pairing,
    500 at once. An anonymous organiser's tournament is capped; a token lifts the caps and
    may cancel a tournament or a game, which nobody else may."""
    from tournoyons_gui.arbitre.web.guard import Limits

    served = Served(
        tmp_path / "caps.sqlite3",
        listen=("0.0.0.0", 0),
        limits=Limits(work=100, entrants=3, games=2, concurrency=2),
        admin_tokens=[ADMIN],
    )
    organiser = {"Authorization": f"Bearer {ADMIN}"}
    try:
        four = builtin_engines("random", "perfect", "random", "perfect")
        for settings in ({"entrants": four}, {"games": 3}, {"concurrency": 3}):
            entrants = settings.pop("entrants", four[:2])
            answer = served.http.post(
                "/api/tournaments",
                json={"set": "TicTacToe", "entrants": entrants, "games": 1, **settings},
            )
            assert answer.status_code == 400 and "organiser token" in answer.json()["error"]
        big = served.http.post(
            "/api/tournaments",
            json={"set": "TicTacToe", "entrants": four, "games": 3, "concurrency": 1},
            headers=organiser,
        )
        assert big.status_code == 201, big.text
        path = f"/api/tournaments/{big.json()['id']}/cancel"
        assert served.http.post(path).status_code == 401
        cancelled = served.http.post(path, headers=organiser)
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "over"
        answer = served.http.post(
            "/api/games",
            json={"set": "TicTacToe", "seats": [{"kind": "person"}, {"kind": "person"}]},
        )
        game_id = answer.json()["id"]
        # Without a token: 401 (RFC 7235), saying which scheme to use.
        refused = served.http.post(f"/api/games/{game_id}/cancel")
        assert refused.status_code == 401 and refused.headers["www-authenticate"].startswith(
            "Bearer"
        )
        assert (
            served.http.post(f"/api/games/{game_id}/cancel", headers=organiser).status_code == 200
        )
        record = served.record(game_id)
        assert record["status"] == "interrupted" and "organiser" in record["reason"]
    finally:
        served.stop()


@pytest.mark.slow
def test_a_tournoyons_gui_token_is_an_organiser_token(tmp_path: Path) -> None:
    """Limits: ``tournoyons-gui token`` makes a token that ``serve`` accepts (stored
    hashed in the records, printed once)."""
    import subprocess
    import sys

    database = tmp_path / "tokens.sqlite3"
    made = subprocess.run(
        [sys.executable, "-m", "tournoyons_gui.server.cli", "token", "--database", str(database)],
        capture_output=True,
        text=True,
        check=True,
    )
    token = made.stdout.strip()
    assert len(token) >= 32
    # A public URL that is not loopback makes the server public (its limits on).
    with server_process(database, "--public-url", "http://arbitre.example") as http:
        game = {"set": "TicTacToe", "seats": [{"kind": "person"}, {"kind": "person"}]}
        answer = http.post("/api/games", json=game)
        cancel = f"/api/games/{answer.json()['id']}/cancel"
        assert http.post(cancel).status_code == 401
        assert http.post(cancel, headers={"Authorization": f"Bearer {token}"}).status_code == 200


def test_forwarded_headers_are_not_believed_without_trust_proxy(tmp_path: Path) -> None:
    """Limits: a client changing ``X-Forwarded-For`` at each request is one client to
    a server not told to trust a reverse proxy (``--trust-proxy``)."""
    with server_process(tmp_path / "xff.sqlite3", "--public-url", "http://arbitre.example") as http:
        statuses = [
            http.post(
                "/api/games", json={}, headers={"X-Forwarded-For": f"203.0.113.{n}"}
            ).status_code
            for n in range(31)
        ]
    assert statuses[:30] == [400] * 30 and statuses[30] == 429


def test_a_game_has_a_default_time_limit_for_persons(served: Served) -> None:
    """Limits: games between two persons never ended. A person now has
    ``DEFAULT_PERSON_TIMEOUT`` (900 s) for a move unless the match says otherwise, and a
    seat past it has abandoned the game, which ends so."""
    answer = served.http.post(
        "/api/games", json={"set": "TicTacToe", "seats": [{"kind": "person"}, {"kind": "person"}]}
    )
    assert served.record(answer.json()["id"])["options"]["person_timeout"] == 900
    quick = served.create("TicTacToe", [{"kind": "person"}, {"kind": "person"}], person_timeout=1)
    record = served.finished(quick, within=20)
    assert record["status"] == "over" and "abandoned" in record["seats"][0]["error"]


def test_a_client_slow_to_send_its_headers_is_cut_off() -> None:
    """Limits: a client sending its headers a byte at a time held a connection for
    ever; past the header timeout the server closes it. A prompt client is served."""
    from tournoyons_gui.server.timeouts import header_timeout_protocol

    app = Starlette(routes=[Route("/", lambda r: PlainTextResponse("ok"))])
    sock, base = bind("127.0.0.1", 0)
    server = uvicorn.Server(
        uvicorn.Config(app, http=header_timeout_protocol(0.5), log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    port = int(base.rsplit(":", 1)[1])
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as slow:
            slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            assert slow.recv(100) == b""  # closed, no answer
        with socket.create_connection(("127.0.0.1", port), timeout=10) as prompt:
            prompt.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert prompt.recv(100).startswith(b"HTTP/1.1 200")
    finally:
        server.should_exit = True
        thread.join(10)


# --- the small holes -------------------------------------------------------------------


def test_a_lone_surrogate_in_a_json_name_is_a_400_on_every_route(served: Served) -> None:
    """A small hole: ``"\\ud800"`` in a JSON name answered 500 on 5 routes, and ``/api/games``
    answered the JSON encoder's own error text."""
    engine = _register(served, "Surrogate target", "http://example.org/engine")
    bodies = {
        "/api/games": b'{"set": "TicTacToe", "seats": [{"kind": "person", "name": "\\ud800"},'
        b' {"kind": "builtin"}]}',
        "/api/sets": b'{"name": "\\ud800", "interface_url": "http://example.org/",'
        b' "referee_url": "http://example.org/r"}',
        "/api/engines": b'{"name": "\\ud800", "url": "http://example.org/", "sets": ["TicTacToe"]}',
        f"/api/engines/{engine['id']}": b'{"name": "\\ud800", "token": "x"}',
        "/api/tournaments": b'{"set": "TicTacToe", "name": "\\ud800", "entrants": []}',
    }
    for path, body in bodies.items():
        answer = served.http.post(path, content=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == 400, (path, answer.text)
        error = answer.json()["error"]
        assert "surrogate" in error and "codec" not in error, (path, error)


def test_nul_and_control_characters_are_refused_in_names(served: Served) -> None:
    """A small hole: NUL was accepted in a seat's and a tournament's name."""
    seats = [{"kind": "person", "name": "Ann\x00"}, {"kind": "builtin"}]
    answer = served.http.post("/api/games", json={"set": "TicTacToe", "seats": seats})
    assert answer.status_code == 400 and "control character" in answer.json()["error"]
    named = _tournament(served, builtin_engines("random", "perfect"), name="Cup\x00")
    assert named.status_code == 400 and "control character" in named.json()["error"]


def test_an_added_sets_start_tray_is_a_string(served: Served) -> None:
    """A small hole: ``start_tray: ["x"]`` was stored as ``"['x']"``."""
    answer = served.http.post(
        "/api/sets",
        json={
            "name": "ListTray",
            "interface_url": "http://example.org/",
            "referee_url": "http://example.org/r",
            "start_tray": ["x"],
        },
    )
    assert answer.status_code == 400 and "start_tray is a string" in answer.json()["error"]


def test_our_referee_redirects_only_to_a_return_url_the_arbitre_issued(served: Served) -> None:
    """A small hole: ``/referee/<set>`` redirected to any ``ReturnURL`` given a ``Game`` and a
    ``MoveId`` (an open redirect)."""
    move = {"Game": "G", "MoveId": "1", "Tray": "Init", "Move1": "5"}
    foreign = served.http.get(
        "/referee/tictactoe", params={**move, "ReturnURL": "https://evil.example/"}
    )
    assert foreign.status_code == 200 and "location" not in foreign.headers
    assert 'http-equiv="refresh"' not in foreign.text
    issued = served.http.get(
        "/referee/tictactoe", params={**move, "ReturnURL": f"{served.base}/added/return"}
    )
    assert issued.status_code == 303
    assert issued.headers["location"].startswith(f"{served.base}/added/return?Game=G")


@pytest.mark.slow
def test_an_outside_page_gets_a_return_good_for_one_move_in_a_sandbox(
    served: Served, elsewhere: str
) -> None:
    """A small hole (decision 26): an added game's outside page got the person's seat token
    in its ``URLReturn`` and ran in an unsandboxed frame. It now gets a return URL good for
    one move of that seat only, in a sandboxed frame."""
    added = served.http.post(
        "/api/sets",
        json={
            "name": "OutsideTTT",
            "interface_url": f"{elsewhere}/tictactoe/",
            "referee_url": f"{elsewhere}/referee/tictactoe",
        },
    )
    assert added.status_code == 201, added.text
    answer = served.http.post(
        "/api/games",
        json={
            "set": "OutsideTTT",
            "seats": [
                {"kind": "person"},
                {"kind": "engine", "engine": f"{elsewhere}/engines/tictactoe/random"},
            ],
        },
    )
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    token = answer.json()["persons"][0]["url"].split("seat=", 1)[1]
    deadline = time.monotonic() + 10
    while True:
        view = served.http.get(f"/games/{game_id}/view", params={"seat": token}).json()
        if "URLReturn" in view["src"]:
            break
        assert time.monotonic() < deadline, view
        time.sleep(0.05)
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(view["src"]).query))
    back = query["URLReturn"]
    assert token not in view["src"] and "/play/once/" in back
    page = served.http.get(f"/games/{game_id}", params={"seat": token}).text
    assert 'sandbox="allow-scripts allow-forms"' in page
    wrong = back.rsplit("/", 1)[0] + "/" + "0" * 32
    assert served.http.get(wrong, params={"ReturnValue": "5"}).status_code == 404
    other_move = back.replace("/1/", "/3/")
    assert served.http.get(other_move, params={"ReturnValue": "5"}).status_code == 404
    assert served.http.get(back, params={"ReturnValue": "5"}).status_code == 200


def test_the_access_log_has_no_seat_token() -> None:
    """A small hole: seat tokens and ``/play`` URLs were written in the access log."""
    from tournoyons_gui.server.logs import RedactSecrets, redact_path

    token = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert token not in redact_path(f"/play/{token}/3?ReturnValue=5")
    assert token not in redact_path(f"/games/G1?move=2&seat={token}")
    assert token not in redact_path(f"/referee?Game={token}&MoveId=1&Value=5")
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        "",
        0,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", f"/games/G?seat={token}", "1.1", 200),
        None,
    )
    assert RedactSecrets().filter(record) and token not in record.getMessage()
    assert "/games/G?seat=<redacted>" in record.getMessage()


def test_csv_cells_hidden_behind_invisible_or_wide_characters_are_neutralised(
    served: Served,
) -> None:
    """A small hole: a cell starting with a zero-width space or a full-width ``＝`` before a
    formula character was not neutralised."""
    from tournoyons_gui.arbitre.standings import csv_cell

    for name in ("\u200b=HYPERLINK(1)", "＝1+1", "\ufeff+1", "\u2060@SUM(1)", "＠SUM(1)"):
        assert csv_cell(name) == "'" + name, name
    assert csv_cell("Alice = Bob") == "Alice = Bob"
    tournament_id = create_tournament(
        served.http,
        "TicTacToe",
        [
            {"kind": "builtin", "engine": "random", "name": "\u200b=HYPERLINK(1)"},
            {"kind": "builtin", "engine": "perfect", "name": "＝1+1"},
        ],
        games=1,
    )
    wait_tournament(served.http, tournament_id)
    for export in ("standings.csv", "games.csv"):
        text = served.http.get(f"/tournaments/{tournament_id}/{export}").text
        cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
        assert "'\u200b=HYPERLINK(1)" in cells and "'＝1+1" in cells, export


@pytest.mark.parametrize("bidi", ["\u202e", "\u202b", "\u2066", "\u2069"])
def test_a_bidirectional_override_is_refused_in_every_name(served: Served, bidi: str) -> None:
    # An attack (this session's) found U+202E accepted in names: escaped, yet it turned
    # round the text after it on the line (a result, another name). The marks LRM and RLM
    # stay allowed.
    name = f"Ann{bidi}olleh"
    seats = [{"kind": "person", "name": name}, {"kind": "builtin"}]
    answer = served.http.post("/api/games", json={"set": "TicTacToe", "seats": seats})
    assert answer.status_code == 400 and "control character" in answer.json()["error"]
    named = _tournament(served, builtin_engines("random", "perfect"), name=name)
    assert named.status_code == 400 and "control character" in named.json()["error"]
    for path, url in (
        ("/api/engines", "http://127.0.0.1:9/engine"),
        ("/api/interfaces", "http://127.0.0.1:9/page/"),
    ):
        body = {"name": name, "url": url, "sets": ["TicTacToe"]}
        refused = served.http.post(path, json=body)
        assert refused.status_code == 400 and "control character" in refused.text, path
    marked = [{"kind": "person", "name": "Ann\u200f"}, {"kind": "builtin"}]
    assert (
        served.http.post("/api/games", json={"set": "TicTacToe", "seats": marked}).status_code
        == 201
    )
