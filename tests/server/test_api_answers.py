"""The OpenAPI document against the real answers of a running server, operation by
operation: every status a call reaches is one the document lists for that operation, its
body valid against the documented schema with no field the schema leaves out, its headers
as documented (``Link`` on a page with a next, ``WWW-Authenticate`` on a 401,
``Retry-After`` on a 429), an event stream's every event named and shaped as documented;
and every status the document lists is reached (those that cannot be here are named in
:data:`UNREACHED`, each with its reason). An operation the scenario does not call (one
added later) is still called with its documented examples, as a stranger would, and its
answers held to the document.

The same run captures the examples the document shows (``arbitre/web/examples.json``): a
request and an answer for each status reached. They are compared with the file, ids,
tokens, times and cursors aside (their *shape*: every field, of the same type, and the
fields that do not depend on timing: kinds, Set names, formats, event names); a
difference fails with how to write them again:
``TOURNOYONS_API_EXAMPLES=write python3 scripts/test.py tests/server/test_api_answers.py``.
Captured here rather than at the docs' build: the build needs no server, and a drift
between the examples and the server fails the tests, not a reader.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import jsonschema  # type: ignore[import-untyped]
import pytest
from openapi_spec_validator import validate

from tests.arbitre.conftest import Served
from tournoyons_gui.arbitre.web.guard import Limits
from tournoyons_gui.arbitre.web.openapi import document, operation_key

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "arbitre" / "web" / "examples.json"
TOKEN = "organiser-token-for-the-answers-test"
#: Statuses documented that this run cannot reach, and why.
UNREACHED: dict[str, dict[int, str]] = {
    "GET /interfaces/{interface_id}/checks/{run_id}.json": {
        200: "a check runs Chromium: tests/arbitre/test_check_state.py reads its answers",
    },
    "GET /interfaces/{interface_id}/checks/{run_id}/sheet.png": {
        200: "a check runs Chromium: tests/arbitre/test_check_state.py reads its sheet",
    },
    "GET /api/matches/{match_id}": {
        200: "a match is recorded by play: tests/arbitre/test_matches.py reads it",
        400: "a cursor is read once the match is found: tests/arbitre/test_matches.py",
    },
    "GET /matches/{match_id}.json": {
        200: "a match is recorded by play: tests/arbitre/test_matches.py reads it",
        400: "a cursor is read once the match is found: tests/arbitre/test_matches.py",
    },
    "GET /api/openapi.json": {},
    "GET /return/log": {404: "the sink is on here (its 404 is the sink off's)"},
}
SEED = {"seed": 42}
#: A public server's limits, low enough for this run to pass them.
LIMITS = Limits(work=60, registrations=16, counted=True)


@dataclass
class Call:
    """A request of the scenario: ``op`` (``GET /api/games/{game_id}``), its path
    parameters, query, JSON body (or raw ``content``), headers; ``save``: a name under
    which its JSON answer is kept, for later calls' ``{name.key}`` values."""

    op: str
    path: dict[str, str] = field(default_factory=dict)
    query: dict[str, Any] = field(default_factory=dict)
    body: Any = None
    content: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    save: str = ""
    example: bool = True


BAD_TOKEN = {"Authorization": "Bearer not-a-token-of-this-server"}
ELSEWHERE = {"Origin": "https://elsewhere.example"}
ORGANISER = {"Authorization": f"Bearer {TOKEN}"}
GAME = {
    "set": "TicTacToe",
    "seats": [
        {"kind": "builtin", "engine": "perfect", "name": "Ann"},
        {"kind": "builtin", "engine": "random", "name": "Bob"},
    ],
    "options": {"timeout": 10, **SEED},
}


def scenario(engine_url: str) -> list[Call]:
    """Return the calls, in order: each operation's answers, each status it documents."""
    big = b'{"set": "' + b"x" * 70_000 + b'"}'
    return [
        Call("GET /healthz"),
        Call("GET /healthz", headers=BAD_TOKEN, example=False),
        Call("POST /api/games", body=GAME, save="game"),
        Call("POST /api/games", body={**GAME, "options": {"timeout": 3}}),
        Call("POST /api/games", body=GAME, headers=ELSEWHERE),
        Call("POST /api/games", content=big),
        Call("GET /games/{game_id}/events", path={"game_id": "{game.id}"}),
        Call("GET /games/{game_id}/events", path={"game_id": "NOSUCHGAME"}),
        Call("GET /api/games/{game_id}", path={"game_id": "{game.id}"}),
        Call("GET /api/games/{game_id}", path={"game_id": "NOSUCHGAME"}),
        Call("GET /games/{game_id}.json", path={"game_id": "{game.id}"}),
        Call("GET /games/{game_id}.json", path={"game_id": "NOSUCHGAME"}),
        Call("GET /games/{game_id}/view", path={"game_id": "{game.id}"}, query={"move": 2}),
        Call("GET /games/{game_id}/view", path={"game_id": "{game.id}"}, query={"move": "x"}),
        Call("GET /games/{game_id}/view", path={"game_id": "NOSUCHGAME"}),
        Call("POST /api/games", body=GAME, save="second"),
        Call("GET /api/games", query={"limit": 1}),
        Call("GET /api/games", query={"seat": "a\x01"}),
        Call(
            "POST /api/games",
            save="waiting",
            body={
                "set": "Reversi",
                "seats": [
                    {"kind": "person", "name": "Ann"},
                    {"kind": "builtin", "engine": "greedy"},
                ],
            },
            example=False,
        ),
        Call(
            "POST /api/games/{game_id}/cancel", path={"game_id": "{waiting.id}"}, headers=ORGANISER
        ),
        Call("POST /api/games/{game_id}/cancel", path={"game_id": "{game.id}"}, headers=ORGANISER),
        Call("POST /api/games/{game_id}/cancel", path={"game_id": "{game.id}"}),
        Call(
            "POST /api/sets",
            body={
                "name": "Quarto",
                "interface_url": engine_url,
                "referee_url": engine_url,
            },
        ),
        Call(
            "POST /api/sets",
            body={"name": "Quarto", "interface_url": engine_url, "referee_url": engine_url},
        ),
        Call("POST /api/sets", body={"name": "1", "interface_url": "", "referee_url": ""}),
        Call(
            "POST /api/engines",
            save="engine",
            body={
                "name": "Perfect elsewhere",
                "url": engine_url,
                "sets": ["TicTacToe"],
                "open": True,
            },
        ),
        Call(
            "POST /api/engines",
            body={"name": "Perfect elsewhere", "url": engine_url, "sets": ["TicTacToe"]},
        ),
        Call("POST /api/engines", body={"name": "No Set", "url": engine_url, "sets": []}),
        Call(
            "POST /api/engines",
            body={"name": "Second", "url": engine_url + "?2", "sets": ["TicTacToe"]},
        ),
        Call("GET /api/engines", query={"limit": 1}),
        Call("GET /api/engines", query={"after": "forged"}),
        Call("GET /api/engines/{engine_id}", path={"engine_id": "{engine.id}"}),
        Call(
            "GET /api/engines/{engine_id}",
            path={"engine_id": "{engine.id}"},
            query={"opponents": "elo"},
        ),
        Call("GET /api/engines/{engine_id}", path={"engine_id": "NOSUCHENGINE"}),
        Call(
            "POST /api/engines/{engine_id}",
            path={"engine_id": "{engine.id}"},
            body={"token": "{engine.edit_token}", "name": "Perfect, elsewhere"},
        ),
        Call(
            "POST /api/engines/{engine_id}",
            path={"engine_id": "{engine.id}"},
            body={"token": "{engine.edit_token}", "sets": []},
        ),
        Call(
            "POST /api/engines/{engine_id}",
            path={"engine_id": "{engine.id}"},
            body={"token": "wrong", "retired": True},
        ),
        Call(
            "POST /api/engines/{engine_id}",
            path={"engine_id": "{engine.id}"},
            body={"token": "{engine.edit_token}", "name": "Second"},
        ),
        Call(
            "POST /api/engines/{engine_id}",
            path={"engine_id": "NOSUCHENGINE"},
            body={"token": "x", "retired": True},
        ),
        Call(
            "POST /api/interfaces",
            save="interface",
            body={
                "name": "Big board",
                "url": engine_url + "/board/",
                "sets": ["TicTacToe"],
            },
        ),
        Call(
            "POST /api/interfaces",
            body={"name": "Big board", "url": engine_url + "/b/", "sets": ["TicTacToe"]},
        ),
        Call("POST /api/interfaces", body={"name": "None", "url": "ftp://x", "sets": ["T"]}),
        Call(
            "POST /api/interfaces",
            body={"name": "Other board", "url": engine_url + "/o/", "sets": ["TicTacToe"]},
        ),
        Call("GET /api/interfaces", query={"limit": 2}),
        Call("GET /api/interfaces", query={"limit": 0}),
        Call("GET /api/interfaces/{interface_id}", path={"interface_id": "{interface.id}"}),
        Call("GET /api/interfaces/{interface_id}", path={"interface_id": "NOSUCH"}),
        Call(
            "POST /api/interfaces/{interface_id}",
            path={"interface_id": "{interface.id}"},
            body={"token": "{interface.edit_token}", "sets": ["TicTacToe", "Reversi"]},
        ),
        Call(
            "POST /api/interfaces/{interface_id}",
            path={"interface_id": "{interface.id}"},
            body={"token": "{interface.edit_token}", "sets": []},
        ),
        Call(
            "POST /api/interfaces/{interface_id}",
            path={"interface_id": "{interface.id}"},
            body={"token": "wrong", "retired": True},
        ),
        Call(
            "POST /api/interfaces/{interface_id}",
            path={"interface_id": "{interface.id}"},
            body={"token": "{interface.edit_token}", "name": "Other board"},
        ),
        Call(
            "POST /api/interfaces/{interface_id}",
            path={"interface_id": "NOSUCH"},
            body={"token": "x", "retired": True},
        ),
        Call(
            "GET /interfaces/{interface_id}/checks/{run_id}.json",
            path={"interface_id": "B-tictactoe", "run_id": "NOSUCHRUN"},
        ),
        Call(
            "GET /interfaces/{interface_id}/checks/{run_id}/sheet.png",
            path={"interface_id": "B-tictactoe", "run_id": "NOSUCHRUN"},
        ),
        Call(
            "POST /api/tournaments",
            save="cup",
            body={
                "set": "TicTacToe",
                "entrants": [
                    {"kind": "engine", "engine": engine_url},
                    {"kind": "builtin", "engine": "random", "name": "Rand"},
                    {"kind": "builtin", "engine": "perfect"},
                ],
                "games": 2,
                "name": "Spring cup",
                "options": SEED,
            },
        ),
        Call(
            "POST /api/tournaments",
            body={"set": "TicTacToe", "entrants": [{"kind": "person"}, {"kind": "builtin"}]},
        ),
        Call("GET /tournaments/{tournament_id}/events", path={"tournament_id": "{cup.id}"}),
        Call("GET /tournaments/{tournament_id}/events", path={"tournament_id": "NOSUCH"}),
        # The tutorial's main case: a registered engine, by its id.
        Call(
            "POST /api/tournaments",
            example=False,
            body={
                "set": "TicTacToe",
                "entrants": [
                    {"kind": "registered", "engine": "{engine.id}"},
                    {"kind": "builtin", "engine": "random"},
                ],
                "games": 1,
            },
        ),
        Call("GET /api/tournaments", query={"limit": 1}),
        Call("GET /api/tournaments", query={"after": "x.y"}),
        *(
            Call(op, path={"tournament_id": tid})
            for op in (
                "GET /api/tournaments/{tournament_id}",
                "GET /tournaments/{tournament_id}.json",
                "GET /tournaments/{tournament_id}/standings.csv",
                "GET /tournaments/{tournament_id}/games.csv",
            )
            for tid in ("{cup.id}", "NOSUCH")
        ),
        *(
            Call(op, path={"tournament_id": tid}, query=query)
            for op in (
                "GET /tournaments/{tournament_id}/standings.json",
                "GET /tournaments/{tournament_id}/games.json",
            )
            for tid, query in (
                ("{cup.id}", {"limit": 2}),
                ("{cup.id}", {"limit": 500}),
                ("NOSUCH", {}),
            )
        ),
        Call(
            "POST /api/tournaments",
            save="long",
            body={
                "set": "TicTacToe",
                "entrants": [
                    {"kind": "builtin", "engine": "random"},
                    {"kind": "builtin", "engine": "random"},
                ],
                "games": 100,
                "concurrency": 1,
            },
            headers=ORGANISER,
        ),
        Call(
            "POST /api/tournaments/{tournament_id}/cancel",
            path={"tournament_id": "{long.id}"},
            headers=ORGANISER,
        ),
        Call(
            "POST /api/tournaments/{tournament_id}/cancel",
            path={"tournament_id": "NOSUCH"},
            headers=ORGANISER,
        ),
        Call(
            "POST /api/tournaments/{tournament_id}/cancel",
            path={"tournament_id": "{long.id}"},
            headers=BAD_TOKEN,
        ),
        Call("GET /api/matches", query={"limit": 2}),
        Call("GET /api/matches", query={"limit": "many"}),
        Call("GET /api/matches/{match_id}", path={"match_id": "NOSUCH"}),
        Call("GET /api/matches/{match_id}", path={"match_id": "NOSUCH"}, query={"limit": 0}),
        Call("GET /matches/{match_id}.json", path={"match_id": "NOSUCH"}),
        Call("GET /matches/{match_id}.json", path={"match_id": "NOSUCH"}, query={"after": "x"}),
        Call(
            "POST /engines/{set}/{name}/botsarena",
            path={"set": "connectfour", "name": "random"},
            body={"action": "init", "game": "connectFour", "players": 2},
        ),
        Call(
            "POST /engines/{set}/{name}/botsarena",
            path={"set": "connectfour", "name": "random"},
            body={"action": "play-turn", "board": [[""] * 7 for _ in range(6)], "you": "X"},
        ),
        Call(
            "POST /engines/{set}/{name}/botsarena",
            path={"set": "connectfour", "name": "random"},
            body={"action": "play-turn", "board": [], "you": "X"},
        ),
        Call(
            "POST /engines/{set}/{name}/botsarena",
            path={"set": "tictactoe", "name": "x"},
            body={"action": "init"},
        ),
        Call("POST /tester/{set}/new", path={"set": "tictactoe"}, save="tester"),
        Call("POST /tester/{set}/new", path={"set": "nosuch"}),
        Call(
            "POST /tester/{set}/play",
            path={"set": "tictactoe"},
            body={"state": "{tester.state}", "value": "5"},
        ),
        Call(
            "POST /tester/{set}/play",
            path={"set": "tictactoe"},
            body={"state": "{tester.state}", "value": "10"},
        ),
        Call("POST /tester/{set}/play", path={"set": "tictactoe"}, body={"state": []}),
        Call("POST /tester/{set}/play", path={"set": "nosuch"}, body={"state": {}, "value": "1"}),
        Call("GET /return/log", query={"tag": "t1"}),
        Call("GET /return/log"),
        Call("GET /api/openapi.json", example=False),
    ]


def _fill(value: Any, saved: dict[str, Any]) -> Any:
    """Return ``value`` with every ``"{name.key}"`` string replaced by what was saved."""
    if isinstance(value, str):
        whole = re.fullmatch(r"\{(\w+)\.(\w+)\}", value)
        if whole:
            return saved[whole[1]][whole[2]]
        return re.sub(r"\{(\w+)\.(\w+)\}", lambda m: str(saved[m[1]][m[2]]), value)
    if isinstance(value, dict):
        return {k: _fill(v, saved) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, saved) for v in value]
    return value


# --- the document's schemas ----------------------------------------------------------


class Checker:
    """Validates answers against the document: its schemas (JSON Schema 2020-12, the
    document's components at hand for the references) and no field left out."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        """Return ``schema`` with its top ``$ref`` followed."""
        while "$ref" in schema:
            kind, name = schema["$ref"].split("/")[-2:]
            schema = self.doc["components"][kind][name]
        return schema

    def validate(self, schema: dict[str, Any], instance: Any, where: str) -> None:
        """Fail unless ``instance`` is valid and holds no field ``schema`` does not name."""
        rooted = {**schema, "components": self.doc["components"]}
        errors = list(jsonschema.Draft202012Validator(rooted).iter_errors(instance))
        assert not errors, f"{where}: {errors[0].message} at {list(errors[0].absolute_path)}"
        self.declared(schema, instance, where)

    def declared(self, schema: dict[str, Any], instance: Any, where: str) -> None:
        """Fail when an object of ``instance`` has a field its schema does not name."""
        schema = self.resolve(schema)
        branches = schema.get("anyOf") or schema.get("oneOf")
        if branches:
            for branch in branches:
                rooted = {**branch, "components": self.doc["components"]}
                if jsonschema.Draft202012Validator(rooted).is_valid(instance):
                    self.declared(branch, instance, where)
                    return
            return
        if isinstance(instance, dict) and "properties" in schema:
            extra = set(instance) - set(schema["properties"])
            assert not extra, f"{where}: fields the document does not name: {sorted(extra)}"
            for name, value in instance.items():
                self.declared(schema["properties"][name], value, f"{where}.{name}")
        elif isinstance(instance, list) and "items" in schema:
            for number, item in enumerate(instance[:20]):
                self.declared(schema["items"], item, f"{where}[{number}]")


def events_of(text: str) -> list[dict[str, str]]:
    """Return the events of a ``text/event-stream`` body (comments left out)."""
    found = []
    for block in re.split(r"\r?\n\r?\n", text.strip()):
        event: dict[str, str] = {}
        for line in block.splitlines():
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            event[name] = event[name] + "\n" + value if name in event else value
        if event:
            found.append(event)
    return found


# --- the run -----------------------------------------------------------------------


@dataclass
class Answer:
    """A call and its answer."""

    op: str
    status: int
    headers: httpx.Headers
    text: str
    request: Any
    query: dict[str, Any]
    path: dict[str, str]
    example: bool


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The Arbitre with a sink, an organiser token and a public server's limits."""
    limits = LIMITS
    served = Served(
        tmp_path_factory.mktemp("answers") / "arbitre.sqlite3",
        sink=True,
        admin_tokens=[TOKEN],
        limits=limits,
    )
    try:
        yield served
    finally:
        served.stop()


def _call(served: Served, call: Call, saved: dict[str, Any]) -> Answer:
    method, template = call.op.split(" ", 1)
    path = _fill(call.path, saved)
    url = template.format(**path) if path else template
    body = _fill(call.body, saved)
    with served.http.stream(
        method,
        url,
        params=call.query,
        json=body if call.content is None and body is not None else None,
        content=call.content,
        headers=call.headers,
        timeout=120,
    ) as answer:
        text = answer.read().decode("utf-8", "replace")
    if call.save:
        assert answer.status_code < 300, f"{call.op}: {answer.status_code} {text[:300]}"
        saved[call.save] = json.loads(text)
    return Answer(
        call.op, answer.status_code, answer.headers, text, body, call.query, path, call.example
    )


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """Another Arbitre, whose built-in engines are the outside engines registered here."""
    served = Served(tmp_path_factory.mktemp("elsewhere") / "arbitre.sqlite3")
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture(scope="module")
def answers(served: Served, elsewhere: Served) -> list[Answer]:
    """Every call of the scenario, then each operation the scenario leaves out called
    with its documented examples, then a burst past the registrations' limit (429)."""
    saved: dict[str, Any] = {}
    made = [
        _call(served, call, saved)
        for call in scenario(f"{elsewhere.base}/engines/tictactoe/perfect")
    ]
    called = {a.op for a in made}
    for op in _operations(document()):
        if op not in called:
            made += _strangers(served, op)
    # Any operation, a token this server does not know: 401, never anonymous.
    for op in _operations(document()):
        first = next(a for a in made if a.op == op)
        refused = Call(op, path=first.path, query=first.query, headers=BAD_TOKEN, example=False)
        made.append(_call(served, refused, saved))
    # Any work, from a browser on another site: 403.
    for op in _operations(document()):
        if op.startswith("POST") and "429" in _operations(document())[op]["responses"]:
            first = next(a for a in made if a.op == op)
            foreign = Call(op, path=first.path, body=first.request, headers=ELSEWHERE)
            made.append(_call(served, foreign, saved))
    # Any body over its route's limit (the largest: a tester's state, 256 KiB): 413.
    for op, operation in _operations(document()).items():
        if "requestBody" in operation:
            first = next(a for a in made if a.op == op)
            huge = b'{"x": "' + b"x" * 300_000 + b'"}'
            made.append(_call(served, Call(op, path=first.path, content=huge), saved))
    # Past the limits of a client address: registrations, then all work.
    for number in range(LIMITS.registrations + 1):
        body = {
            "name": f"Burst{number}",
            "interface_url": served.base + "/x",
            "referee_url": served.base + "/x",
        }
        if _call(served, Call("POST /api/sets", body=body), saved).status == 429:
            break
    for _ in range(LIMITS.work + 1):
        if _call(served, Call("POST /api/games", body={}, example=False), saved).status == 429:
            break
    work = {"/api/games", "/api/sets", "/api/engines", "/api/interfaces", "/api/tournaments"}
    for op in _operations(document()):
        method, template = op.split(" ", 1)
        if method == "POST" and (template.startswith(tuple(work)) or "cancel" in template):
            first = next(a for a in made if a.op == op)
            late = Call(op, path=first.path, body=first.request, example=op != "POST /api/sets")
            made.append(_call(served, late, saved))
    return made


def _operations(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        operation_key(method, path): operation
        for path, item in doc["paths"].items()
        for method, operation in item.items()
    }


def _strangers(served: Served, op: str) -> list[Answer]:
    """Call an operation no scenario knows as a stranger would: with its documented
    parameter examples and request example; then with a bad token."""
    operation = _operations(document())[op]
    path = {
        p["name"]: str(p.get("example", "x"))
        for p in operation.get("parameters", ())
        if p["in"] == "path"
    }
    query = {
        p["name"]: p["example"]
        for p in operation.get("parameters", ())
        if p["in"] == "query" and "example" in p
    }
    body = None
    if "requestBody" in operation:
        body = operation["requestBody"]["content"]["application/json"].get("example", {})
    return [
        _call(served, Call(op, path=path, query=query, body=body, example=False), {}),
        _call(served, Call(op, path=path, headers=BAD_TOKEN, example=False), {}),
    ]


def test_the_document_is_valid_openapi() -> None:
    validate(document())


def test_every_answer_is_one_the_document_gives(answers: list[Answer]) -> None:
    doc = document()
    checker = Checker(doc)
    operations = _operations(doc)
    for answer in answers:
        where = f"{answer.op} -> {answer.status} {answer.text[:200]}"
        responses = operations[answer.op]["responses"]
        assert str(answer.status) in responses, f"{where}: a status the document omits"
        documented = responses[str(answer.status)]
        media = documented.get("content", {})
        kind = answer.headers.get("content-type", "").split(";")[0]
        if not media:
            continue
        declared = next((m for m in media if m.split(";")[0] == kind), None)
        assert declared is not None, f"{where}: {kind} is not {list(media)}"
        schema = media[declared]["schema"]
        if kind == "application/json":
            body = json.loads(answer.text)
            checker.validate(schema, body, where)
            if isinstance(body, dict) and body.get("next"):
                assert 'rel="next"' in answer.headers.get("link", ""), where
        elif kind == "text/event-stream":
            events = events_of(answer.text)
            assert events, where
            item = media[declared]["schema"]
            for event in events:
                branch = next(
                    b for b in item["oneOf"] if b["properties"]["event"]["const"] == event["event"]
                )
                data = json.loads(event["data"])
                checker.validate(branch["properties"]["data"]["contentSchema"], data, where)
        for header in documented.get("headers", {}):
            if header != "Link":
                assert header.lower() in answer.headers, f"{where}: no {header} header"


def test_every_status_the_document_gives_is_reached(answers: list[Answer]) -> None:
    reached: dict[str, set[int]] = {}
    for answer in answers:
        reached.setdefault(answer.op, set()).add(answer.status)
    for op, operation in _operations(document()).items():
        documented = {int(s) for s in operation["responses"]}
        missing = documented - reached.get(op, set()) - set(UNREACHED.get(op, {}))
        if op not in UNREACHED and not any(op == s.op for s in answers if s.example):
            continue  # called as a stranger only: its answers are checked above
        assert not missing, f"{op}: documented but never answered here: {sorted(missing)}"


# --- the examples ------------------------------------------------------------------


_VARIABLE = [
    (re.compile(r"\b[A-Z2-7]{10,32}\b"), "<id>"),
    (re.compile(r"\b[a-z2-7]{20,40}\b"), "<token>"),
    (re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+(\+00:00|Z)?"), "<time>"),
    (re.compile(r"after=[^&\s\"'>]+"), "after=<cursor>"),
]
# Fields whose values do not depend on timing (a game in play or over when listed does).
_STABLE = {"kind", "set", "format", "event", "builtin", "retired"}


def shape(value: Any, key: str = "") -> Any:
    """Return ``value`` with what changes from run to run left out: every key kept, the
    stable fields' values kept, other scalars as their type; lists as their first item."""
    if isinstance(value, dict):
        return {k: shape(v, k) for k, v in sorted(value.items())}
    if isinstance(value, list):
        return [shape(value[0], key)] if value else []
    if (key in _STABLE and isinstance(value, str | bool)) or value is None:
        return value
    return type(value).__name__


def _shown(answer: Answer) -> Any:
    """Return what the document shows of an answer: its JSON, or its text (an event
    stream's, a CSV's: at most 12 lines)."""
    if answer.headers.get("content-type", "").startswith("application/json"):
        body = json.loads(answer.text)
        if isinstance(body, dict) and "openapi" in body:  # the document: its head alone
            return {"openapi": body["openapi"], "info": body["info"]}
        if isinstance(body, dict) and isinstance(body.get("rows"), list):
            body = {**body, "rows": body["rows"][:2]}
        return body
    if answer.headers.get("content-type", "").startswith("image/"):
        return None
    if answer.headers.get("content-type", "").startswith("text/event-stream"):
        # The first two events and the last: how a stream starts and how it ends.
        events = [e for e in re.split(r"\r?\n\r?\n", answer.text.strip()) if e]
        kept = events if len(events) <= 3 else [*events[:2], events[-1]]
        return "\n\n".join(e.replace("\r\n", "\n") for e in kept) + "\n"
    return "\n".join(answer.text.splitlines()[:12])


def captured(answers: list[Answer]) -> dict[str, Any]:
    """Return the examples of the run: per operation its first 2xx call's parameters and
    body (of the scenario's calls), and the first answer of each status (of any call)."""
    found: dict[str, Any] = {}
    for answer in sorted(answers, key=lambda a: not a.example):  # the scenario's first
        entry = found.setdefault(answer.op, {"parameters": {}, "request": None, "answers": {}})
        if answer.example and answer.status < 300 and not entry["answers"].get("2xx-seen"):
            entry["answers"]["2xx-seen"] = True
            entry["parameters"] = {**answer.path, **answer.query}
            entry["request"] = copy.deepcopy(answer.request)
        entry["answers"].setdefault(str(answer.status), _shown(answer))
    for entry in found.values():
        entry["answers"].pop("2xx-seen", None)
    return found


def test_the_examples_are_the_servers_answers(answers: list[Answer]) -> None:
    made = captured(answers)
    if os.environ.get("TOURNOYONS_API_EXAMPLES") == "write":
        EXAMPLES.write_text(json.dumps(made, indent=1, ensure_ascii=False) + "\n")
    kept = json.loads(EXAMPLES.read_text())
    assert shape(kept) == shape(made), (
        "the examples differ from the server's answers: write them again with "
        "TOURNOYONS_API_EXAMPLES=write python3 scripts/test.py tests/server/test_api_answers.py"
    )


def test_every_operation_shows_a_description_and_an_answer() -> None:
    for op, operation in _operations(document()).items():
        assert operation["description"].strip(), op
        unreached = UNREACHED.get(op, {})
        for status, answer in operation["responses"].items():
            if int(status) in unreached:
                continue
            for kind, media in answer.get("content", {}).items():
                if not kind.startswith("image/"):
                    assert media.get("example") is not None, f"{op} {status}: no example"
