"""The OpenAPI document against the application: every route for programs is in it and
every path of it is a route; it is served as built; the request bodies' errors are clear
sentences; a program's path answers its 404 and 405 in JSON.

A route is *for programs* when it is under ``/api/`` or answers JSON to a probe (its
path's parameters filled with a value no record has, ``GET``, or ``POST`` when it takes
no ``GET``): the probe finds a new JSON route wherever it is declared, so a route added
by another part of the code and not to the document fails here.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from tournoyons_gui.arbitre.match import (
    MAX_REGISTERED_NAME,
    MAX_TIMEOUT,
    MIN_TIMEOUT,
    TEXT_PATTERN,
    GameError,
    check_text,
)
from tournoyons_gui.arbitre.paging import DEFAULT_LIMIT
from tournoyons_gui.arbitre.seats import KINDS
from tournoyons_gui.arbitre.tournaments.service import ENTRANT_KINDS, MAX_ENTRANTS
from tournoyons_gui.arbitre.web import bodies, served_bodies
from tournoyons_gui.arbitre.web.openapi import API_ROOTS, document, program_path

METHODS = ("get", "post", "put", "patch", "delete")


def starlette_of(app: Any) -> Starlette:
    """Return the Starlette application inside the middlewares ``create_app`` wraps it in."""
    while not isinstance(app, Starlette):
        app = app.app
    return app


def template(route: Route) -> str:
    """Return a route's path as OpenAPI writes it (``{number:int}`` -> ``{number}``)."""
    return re.sub(r"\{(\w+)(:\w+)?\}", r"{\1}", route.path)


def probe_path(route: Route) -> str:
    """Return the route's path, each parameter a value no record has (``1`` for a number)."""
    return re.sub(
        r"\{(\w+)(:(\w+))?\}",
        lambda m: "1" if m.group(3) == "int" else "ZZNOSUCHZZ",
        route.path,
    )


def routes_of(app: Any) -> list[Route]:
    """Return the application's HTTP routes."""
    return [r for r in starlette_of(app).routes if isinstance(r, Route)]


def program_routes(client: TestClient, app: Any) -> set[tuple[str, str]]:
    """Return ``(path, method)`` of every route for programs (see the module)."""
    found: set[tuple[str, str]] = set()
    for route in routes_of(app):
        methods = sorted(m.lower() for m in route.methods or () if m != "HEAD")
        probe = "get" if "get" in methods else methods[0]
        answer = client.request(probe.upper(), probe_path(route), content=b"")
        json_answer = answer.headers.get("content-type", "").startswith("application/json")
        if route.path in API_ROOTS:
            continue  # the API's root: no operation, its 404 in JSON
        if route.path.startswith("/api/") or json_answer:
            found |= {(template(route), method) for method in methods}
    return found


def documented(doc: dict[str, Any]) -> set[tuple[str, str]]:
    """Return ``(path, method)`` of every operation of the document."""
    return {(path, m) for path, item in doc["paths"].items() for m in item if m in METHODS}


def test_every_route_for_programs_is_documented_and_every_documented_path_is_a_route(
    client: TestClient, app: Any
) -> None:
    doc = document()
    routes = program_routes(client, app)
    assert routes - documented(doc) == set(), "routes for programs missing from the document"
    assert documented(doc) - routes == set(), "documented operations that are not routes"
    # What the probe tells apart: the pages and the move path are not in it.
    paths = {path for path, _ in routes}
    assert {"/healthz", "/games/{game_id}/view", "/tester/{set}/play"} <= paths
    assert not paths & {"/games", "/games/{game_id}", "/referee", "/engines/{set}/{name}"}


def test_the_document_is_openapi_3_1_with_each_path_parameter_declared() -> None:
    doc = document()
    assert doc["openapi"] == "3.1.0" and doc["info"]["version"]
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            declared = {p["name"] for p in operation.get("parameters", ()) if p["in"] == "path"}
            assert declared == set(re.findall(r"\{(\w+)\}", path)), (path, method)
            assert "4XX" not in operation["responses"], (path, method)  # each status named
            assert "401" in operation["responses"], (path, method)
            for status, answer in operation["responses"].items():
                assert answer["description"], (path, method, status)
    # Every reference names something in the components.
    text = repr(doc)
    for kind, name in re.findall(r"#/components/(\w+)/([\w-]+)", text):
        assert name in doc["components"][kind], (kind, name)


def test_the_schemas_take_the_servers_limits() -> None:
    """The bodies' schemas say what the server checks, from the same constants."""
    schemas = document()["components"]["schemas"]
    assert schemas["EntrantBody"]["properties"]["kind"]["enum"] == list(ENTRANT_KINDS)
    assert "registered" not in schemas["SeatBody"]["properties"]["kind"]["enum"]
    assert schemas["SeatBody"]["properties"]["kind"]["enum"] == list(KINDS)
    assert None in schemas["EngineRegistration"]["properties"]["kind"]["enum"]
    name = schemas["EngineRegistration"]["properties"]["name"]
    assert name["maxLength"] == MAX_REGISTERED_NAME and name["minLength"] == 1
    options = schemas["GameOptions"]["properties"]["timeout"]
    assert (options["minimum"], options["maximum"]) == (MIN_TIMEOUT, MAX_TIMEOUT)
    entrants = schemas["TournamentBody"]["properties"]["entrants"]
    assert entrants["maxItems"] == MAX_ENTRANTS
    standing = schemas["PairStanding"]["properties"]
    assert {"wins", "draws", "losses", "buchholz", "sonneborn_berger"} <= set(standing)
    limit = next(
        p for p in document()["paths"]["/api/games"]["get"]["parameters"] if p["name"] == "limit"
    )
    assert limit["schema"]["default"] == DEFAULT_LIMIT
    # The text pattern refuses what check_text refuses.
    pattern = re.compile(TEXT_PATTERN)
    for refused in ("a\x00", "\x7f", "\x85", "\u202e", "\u2066x"):
        assert not pattern.search(refused)
        with pytest.raises(GameError):
            check_text(refused, "a name", 60)
    assert pattern.search("Ann \u200e Lee")


def test_the_server_serves_the_document_as_built(client: TestClient) -> None:
    answer = client.get("/api/openapi.json")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.json() == document()


def test_a_programs_path_answers_404_and_405_in_json_and_a_pages_path_in_text(
    client: TestClient,
) -> None:
    for path in ("/api/games/A/B", "/games/a/b.json", "/tournaments/x/y/standings.csv"):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.json() == {"error": "no such route"}, path
    answer = client.delete("/api/games")
    assert answer.status_code == 405 and "DELETE" in answer.json()["error"]
    assert {"GET", "POST"} <= set(answer.headers["allow"].replace(" ", "").split(","))
    answer = client.get("/api/games/ABC/cancel")
    assert answer.status_code == 405 and answer.headers["allow"] == "POST"
    assert answer.headers["content-type"].startswith("application/json")
    page = client.get("/no/such/page")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/plain")
    assert program_path("/engines/a/b/c/botsarena") and not program_path("/engines/a/b")


@pytest.mark.parametrize(
    ("model", "body", "error"),
    [
        (bodies.GameBody, b"", "send a JSON object {set, seats, options, start_tray}"),
        (bodies.GameBody, b"[1]", "send a JSON object {set, seats, options, start_tray}"),
        (bodies.GameBody, b"{nope", "the body is not JSON"),
        (bodies.GameBody, b"[" * 5000 + b"]" * 5000, "the body is not JSON"),
        (bodies.GameBody, b'{"set": "\\udc00", "seats": []}', "a lone surrogate"),
        (bodies.GameBody, b'{"set": "\xff", "seats": []}', "the body is not JSON"),
        (bodies.GameBody, b'{"set": "T"}', "seats is required"),
        (bodies.GameBody, b'{"set": 7, "seats": []}', "set is a string"),
        (bodies.GameBody, b'{"set": "T", "seats": {}}', "seats is a list of {kind, engine"),
        (bodies.GameBody, b'{"set": "T", "seats": [[]]}', "seat 1 is an object {kind"),
        (bodies.GameBody, b'{"set": "T", "seats": [{"kind": null}]}', "seat 1's kind is a"),
        (bodies.GameBody, b'{"set": "T", "seats": [], "colour": 1}', 'unknown field "colour"'),
        (
            bodies.GameBody,
            b'{"set": "T", "seats": [], "options": {"timeout": 2.5}}',
            "options.timeout is a whole number",
        ),
        (
            bodies.GameBody,
            b'{"set": "T", "seats": [], "options": {"timeout": "20"}}',
            "options.timeout is a whole number",
        ),
        (
            bodies.GameBody,
            b'{"set": "T", "seats": [], "options": {"wait": 1' + b"0" * 5000 + b"}}",
            "a number in the body is too large",
        ),
        (
            bodies.GameBody,
            b'{"set": "T", "seats": [], "options": {"open_table": 1}}',
            "options.open_table is true or false",
        ),
        (bodies.GameBody, b'{"set": "T", "seats": [], "options": []}', "options is an object"),
        (bodies.EngineRegistration, b'{"name": "a", "url": "u", "sets": "T"}', "list of strings"),
        (bodies.EngineRegistration, b'{"name": "a", "url": "u", "sets": [1]}', "sets item 1 is a"),
        (bodies.EngineChange, b'{"token": "t", "open": "yes"}', "open is true or false"),
        (bodies.EngineChange, b'{"token": "t", "name": null}', "name is a string"),
        (bodies.TournamentBody, b'{"set": "T", "entrants": [{"kind": 1}]}', "entrant 1's kind"),
        (served_bodies.TesterPlay, b'{"state": [], "value": "1"}', "state is an object"),
    ],
)
def test_a_bad_body_is_told_in_one_sentence(
    model: type[bodies.Body], body: bytes, error: str
) -> None:
    with pytest.raises(GameError) as refused:
        bodies.parse(model, body)
    assert error in str(refused.value)


def test_a_change_gives_only_the_fields_sent() -> None:
    change = bodies.parse(bodies.EngineChange, b'{"token": "t", "open": false, "sets": []}')
    assert bodies.changes(change) == {"open_entry": False, "sets": []}
    registration = bodies.parse(
        bodies.EngineRegistration, b'{"name": "n", "url": "u", "sets": ["T"], "open": true}'
    )
    assert registration.model_dump()["open_entry"] is True


def test_a_programs_page_takes_limit_and_after_once_each_and_never_blank(
    client: TestClient,
) -> None:
    for query in ("limit=", "limit=2&limit=3", "after=x&after=y", "limit=0", "limit=%20"):
        answer = client.get(f"/api/engines?{query}")
        assert answer.status_code == 400 and answer.json()["error"], query
    assert client.get("/api/engines?limit=2").status_code == 200
