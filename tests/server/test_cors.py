"""What a program meets at the API's door: ``serve --cors`` (off by default) answering a
browser's preflights and marking the answers of the origins allowed, and only on the
programs' paths; a token that is not one refused 401 (never anonymous); the API's own
root and any unknown path under it a JSON 404; a body over its limit a 413; seats counted
from 1 in a body's errors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tournoyons_gui.server.app import create_app

TOKEN = "an-organiser-token"
CLUB = "https://club.example.org"
OTHER = "https://other.example.net"


def _client(tmp_path: Path, cors: list[str]) -> Iterator[TestClient]:
    app = create_app(database=str(tmp_path / "a.sqlite3"), admin_tokens=[TOKEN], cors=cors)
    with TestClient(app) as client:
        yield client


@pytest.fixture
def opened(tmp_path: Path) -> Iterator[TestClient]:
    """A server whose API any origin may read and ``CLUB`` may call."""
    yield from _client(tmp_path, ["*", CLUB])


@pytest.fixture
def closed(tmp_path: Path) -> Iterator[TestClient]:
    """A server without ``--cors``."""
    yield from _client(tmp_path, [])


def _preflight(client: TestClient, origin: str, method: str, path: str = "/api/games") -> object:
    return client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": "authorization, content-type",
        },
    )


def test_a_preflight_says_what_an_origin_may_do(opened: TestClient) -> None:
    read = _preflight(opened, OTHER, "GET")
    assert read.status_code == 204  # type: ignore[attr-defined]
    headers = read.headers  # type: ignore[attr-defined]
    assert headers["access-control-allow-origin"] == "*"
    assert headers["access-control-allow-methods"] == "GET, HEAD"
    assert "Authorization" in headers["access-control-allow-headers"]
    refused = _preflight(opened, OTHER, "POST")
    assert refused.status_code == 403  # type: ignore[attr-defined]
    assert "access-control-allow-origin" not in refused.headers  # type: ignore[attr-defined]
    called = _preflight(opened, CLUB, "POST")
    assert called.status_code == 204  # type: ignore[attr-defined]
    assert called.headers["access-control-allow-origin"] == CLUB  # type: ignore[attr-defined]
    assert "POST" in called.headers["access-control-allow-methods"]  # type: ignore[attr-defined]


def test_an_answer_is_marked_for_the_origins_allowed_and_only_on_the_api(
    opened: TestClient,
) -> None:
    listed = opened.get("/api/games", headers={"Origin": OTHER})
    assert listed.status_code == 200 and listed.headers["access-control-allow-origin"] == "*"
    assert "Link" in listed.headers["access-control-expose-headers"]
    assert "Origin" in listed.headers["vary"]
    # A page for people is never opened to another site.
    page = opened.get("/games", headers={"Origin": OTHER})
    assert page.status_code == 200 and "access-control-allow-origin" not in page.headers
    # Another site's POST: refused by the guard, except from the origin named.
    body = {"set": "TicTacToe", "seats": [{"kind": "builtin"}, {"kind": "builtin"}]}
    refused = opened.post("/api/games", json=body, headers={"Origin": OTHER})
    assert refused.status_code == 403
    made = opened.post("/api/games", json=body, headers={"Origin": CLUB})
    assert made.status_code == 201 and made.headers["access-control-allow-origin"] == CLUB


def test_without_cors_nothing_is_opened(closed: TestClient) -> None:
    refused = _preflight(closed, OTHER, "GET")
    assert refused.status_code == 405  # type: ignore[attr-defined]
    assert refused.json()["error"]  # type: ignore[attr-defined]
    listed = closed.get("/api/games", headers={"Origin": OTHER})
    assert listed.status_code == 200 and "access-control-allow-origin" not in listed.headers


@pytest.mark.parametrize(
    "header",
    ["Bearer not-a-token", "Bearer ", "Bearer a b", "Token " + TOKEN, "bearer", "Bearer \x7f"],
)
def test_a_token_that_is_not_one_is_a_401_on_every_programs_path(
    closed: TestClient, header: str
) -> None:
    for path in ("/api/games", "/healthz", "/api/openapi.json", "/games/X.json"):
        refused = closed.get(path, headers={"Authorization": header})
        assert refused.status_code == 401, (path, header)
        assert refused.json()["error"] and "invalid_token" in refused.headers["www-authenticate"]
    refused = closed.post("/api/games/ABC/cancel", headers={"Authorization": header}, content=b"")
    assert refused.status_code == 401


def test_a_known_token_and_a_proxys_basic_header_pass(closed: TestClient) -> None:
    known = closed.get("/api/games", headers={"Authorization": f"Bearer {TOKEN}"})
    assert known.status_code == 200
    basic = closed.get("/api/games", headers={"Authorization": "Basic dXNlcjpwYXNz"})
    assert basic.status_code == 200
    # Without a token, a cancellation is a 401 too, and says what to send.
    anonymous = closed.post("/api/games/ABC/cancel")
    assert anonymous.status_code == 401
    assert anonymous.headers["www-authenticate"] == 'Bearer realm="tournoyons"'
    cancelled = closed.post("/api/games/ABC/cancel", headers={"Authorization": f"Bearer {TOKEN}"})
    assert cancelled.status_code == 409


@pytest.mark.parametrize("path", ["/api", "/api/", "/api/nothing", "/api/games/a/b/c"])
def test_every_unknown_path_under_the_api_is_a_json_404(closed: TestClient, path: str) -> None:
    for method in ("GET", "POST", "DELETE"):
        answer = closed.request(method, path)
        assert answer.status_code == 404, (method, path)
        assert answer.json() == {"error": "no such route"}


def test_a_body_over_its_limit_is_a_413_and_seats_count_from_1(closed: TestClient) -> None:
    big = closed.post("/api/games", content=b'{"set": "' + b"x" * 20_000 + b'"}')
    assert big.status_code == 413 and "over 16384 bytes" in big.json()["error"]
    body = {"set": "TicTacToe", "seats": [{"kind": "builtin"}, {"kind": 7}]}
    refused = closed.post("/api/games", json=body)
    assert refused.status_code == 400 and refused.json()["error"] == "seat 2's kind is a string"
    body = {"set": "TicTacToe", "seats": [{"kind": "builtin"}, {"kind": "nobody"}]}
    refused = closed.post("/api/games", json=body)
    assert refused.json()["error"].startswith("seat 2 is one of")
    entrants = {"set": "TicTacToe", "entrants": [{"kind": "builtin"}, {"kind": "person"}]}
    refused = closed.post("/api/tournaments", json=entrants)
    assert refused.json()["error"].startswith("entrant 2 is one of registered")
