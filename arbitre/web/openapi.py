"""The OpenAPI 3.1 document of the JSON API (``GET /api/openapi.json``), built by
:func:`document` without a running server (the docs site renders it).

**What is in it** (docs/reference/http-api.md): the routes for programs, that is every
route under ``/api/``, every export (``/games/<id>.json``, ``/tournaments/<id>.json``,
standings and games as JSON or CSV, a check's report), and every other route that takes
or answers JSON (``/healthz``, a game's ``/view``, the built-in engines as botsarena
bots, the tester's hot-seat moves, the return sink's log). Pages for people (HTML), the
move path (``/referee``, ``/engines/<set>/<name>``, ``/play/...``: text, called by
engines and pages), the live events (``text/event-stream``) and ``/metrics``
(Prometheus's text) are not. tests/server/test_openapi_routes.py walks the application's
routes and holds the two lists equal.

The operations are the table of :mod:`.operations`; request bodies are the models of
:mod:`.bodies`, answers those of :mod:`.answers`; every
refusal is ``{"error": "..."}`` (:class:`~.answers.Error`), ``429`` adds
``retry_after``.
"""

from __future__ import annotations

import copy
import functools
import importlib.resources
import json
import re
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

import tournoyons_gui.arbitre.web.answers as a
import tournoyons_gui.arbitre.web.bodies as b
import tournoyons_gui.arbitre.web.served_bodies as sb
from tournoyons_gui.arbitre.tournaments.service import ENTRANT_KINDS
from tournoyons_gui.arbitre.web.operations import (
    BOTS,
    EVENTS,
    LINKS,
    OPERATIONS,
    PARAMETERS,
    Operation,
)

__all__ = [
    "API_ROOTS",
    "VERSION",
    "document",
    "no_route",
    "openapi_json",
    "program_path",
    "refused_route",
]

#: The API's version: the changelog says what each one changed.
VERSION = "2.0.0"
_REF = "#/components/schemas/{model}"
_JSON = "application/json"


_MODELS: tuple[type[BaseModel], ...] = (
    a.Error,
    a.TooMany,
    a.GameRow,
    a.GamePage,
    a.GameCreated,
    a.GameRecord,
    a.GameView,
    a.Cancelled,
    a.AddedSet,
    a.RegisteredEngine,
    a.EnginePage,
    a.EngineRegistered,
    a.EngineChanged,
    a.EngineRecord,
    a.InterfaceOut,
    a.InterfacePage,
    a.InterfaceRegistered,
    a.CheckRun,
    a.TournamentRow,
    a.TournamentPage,
    a.TournamentCreated,
    a.TournamentSummary,
    a.Standing,
    a.StandingPage,
    a.TournamentGame,
    a.TournamentGamePage,
    a.MatchRow,
    a.MatchPage,
    a.MatchDocument,
    a.MoveEvent,
    a.ProgressEvent,
    a.GameEndedEvent,
    sb.BotsarenaMessage,
    a.BotsarenaAnswer,
    a.TesterTurn,
    a.SinkEntry,
    a.Health,
    b.GameBody,
    b.AddedSetBody,
    b.EngineRegistration,
    b.EngineChange,
    b.InterfaceRegistration,
    b.InterfaceChange,
    b.TournamentBody,
    sb.TesterPlay,
)

#: The examples of every operation, captured from a running server by
#: tests/server/test_api_answers.py (which compares them, ids and times aside, with what
#: the server answers at each run, and writes them again when asked): a request and an
#: answer for each status the capture reached.
EXAMPLES = "examples.json"


@functools.cache
def examples() -> dict[str, Any]:
    """Return the captured examples: ``{"GET /api/games": {"parameters": {...},
    "request": <body or null>, "answers": {"200": <body>, ...}}}``."""
    text = importlib.resources.files(__package__).joinpath(EXAMPLES).read_text("utf-8")
    found: dict[str, Any] = json.loads(text)
    return found


def operation_key(method: str, path: str) -> str:
    """Return an operation's key in the examples: ``GET /api/games``."""
    return f"{method.upper()} {path}"


def _schema(content: Any) -> dict[str, Any]:
    if isinstance(content, list):
        return {"type": "array", "items": _schema(content[0])}
    if isinstance(content, type) and issubclass(content, BaseModel):
        return {"$ref": _REF.format(model=content.__name__)}
    return dict(content)


def _events_schema(events: Any) -> dict[str, Any]:
    """Return the schema of one event of a stream (OpenAPI 3.2's ``itemSchema`` of a
    ``text/event-stream``, which 3.1's tools read from its ``schema``): its name, its id,
    its data (JSON, of the event's model)."""
    return {
        "oneOf": [
            {
                "type": "object",
                "required": ["event", "data"],
                "properties": {
                    "event": {"const": name},
                    "id": {"type": "string"},
                    "data": {
                        "type": "string",
                        "contentMediaType": _JSON,
                        "contentSchema": _schema(model),
                    },
                },
            }
            for name, model in events.items()
        ]
    }


def _response(description: str, content: Any, op: Operation, example: Any) -> dict[str, Any]:
    if content is None:
        return {"description": description}
    media: dict[str, Any]
    if content == EVENTS:
        names = ", ".join(f"`{name}` ({model.__name__})" for name, model in op.events.items())
        # Each event's schema, as OpenAPI 3.1's tools read a stream's schema (3.2 names
        # it itemSchema): its name, its id, its data (JSON of the event's model).
        media = {
            "schema": {
                **_events_schema(op.events),
                "description": f"Server-sent events, one per blank line: {names}.",
            }
        }
    elif isinstance(content, str):
        media = {
            "schema": {"type": "string"}
            if content.startswith("text/")
            else {"type": "string", "contentMediaType": content}
        }
    else:
        media = {"schema": _schema(content)}
    if example is not None:
        media["example"] = example
    kind = content if isinstance(content, str) else _JSON
    return {"description": description, "content": {kind: media}}


def _refusal(description: str, model: type[BaseModel] = a.Error) -> tuple[str, Any]:
    return (description, model)


def _answers(op: Operation) -> dict[int, tuple[str, Any]]:
    """Return every status ``op`` may answer: its own, and those of the guard (401 for a
    token that is not one; for work, 403 from another site and 429 past a limit; 413 for a
    body over its limit)."""
    answers = dict(op.answers)
    if op.organiser:
        answers[401] = _refusal(
            "No organiser token, or one this server does not know (WWW-Authenticate: Bearer)."
        )
    else:
        answers[401] = _refusal(
            "An Authorization header that is not a bearer token this server knows (a request "
            "without one is anonymous)."
        )
    if op.work:
        answers.setdefault(
            403, _refusal("A browser's request from another site (Origin or Referer).")
        )
        answers[429] = _refusal(
            "Past a limit of this server (per client address, or per organiser token): wait "
            "retry_after seconds.",
            a.TooMany,
        )
    if op.body is not None:
        answers[413] = _refusal("The body is over this route's limit.")
    return dict(sorted(answers.items()))


def _parameter(name: str, example: Any) -> dict[str, Any]:
    made = copy.deepcopy(PARAMETERS[name])
    if example is not None:
        made["example"] = example
    return made


def _operation(op: Operation) -> dict[str, Any]:
    captured = examples().get(operation_key(op.method, op.path), {})
    shown = captured.get("answers", {})
    responses: dict[str, Any] = {
        str(status): _response(*answer, op, shown.get(str(status)))
        for status, answer in _answers(op).items()
    }
    if op.paged:
        responses["200"]["headers"] = {"Link": {"$ref": "#/components/headers/Link"}}
    if 429 in _answers(op):
        responses["429"]["headers"] = {"Retry-After": {"$ref": "#/components/headers/Retry-After"}}
    if "401" in responses:
        responses["401"]["headers"] = {
            "WWW-Authenticate": {"$ref": "#/components/headers/WWW-Authenticate"}
        }
    made: dict[str, Any] = {
        "tags": [op.tag],
        "summary": op.summary,
        "description": op.description,
        "operationId": _operation_id(op),
        "responses": responses,
    }
    if op.params:
        given = captured.get("parameters", {})
        made["parameters"] = [_parameter(p, given.get(PARAMETERS[p]["name"])) for p in op.params]
    if op.body is not None:
        media: dict[str, Any] = {"schema": _schema(op.body)}
        if captured.get("request") is not None:
            media["example"] = captured["request"]
        made["requestBody"] = {"required": True, "content": {_JSON: media}}
    if op.organiser:
        made["security"] = [{"organiser": []}]
    else:
        made["security"] = [{}, {"organiser": []}]
    return made


def _operation_id(op: Operation) -> str:
    words = re.findall(r"[a-z0-9]+", op.path.replace("{", "by_").lower())
    return op.method + "".join(w.capitalize() for w in words if w != "api")


def registered_sets() -> tuple[str, ...]:
    """Return the names of the Sets the installed registry gives the Arbitre to play (the
    Sets of a server without added games)."""
    from tournoyons_gui.interfaces.registry import load_registry

    return tuple(s.name for s in load_registry() if s.arbitre is not None)


#: The seat kinds that name their engine by URL.
URL_KINDS = ("engine", "botsarena", "service", "sync")


def _per_set(sets: tuple[str, ...], *, entrants: bool = False) -> dict[str, Any]:
    """Return what a game (or, ``entrants``, a tournament) of each registered Set of
    ``sets`` takes besides its body's shape, as a ``oneOf`` of one branch a Set: its
    number of seats (a tournament's formats), its built-in engines, the other kinds its
    seats take, its Levels, its deals (only a Set played in deals); an added game (chapter
    VI) is a branch of its own."""
    from tournoyons_gui.arbitre.seats import KINDS
    from tournoyons_gui.arbitre.seats.botsarena import BotsarenaSeat
    from tournoyons_gui.arbitre.seats.engine import BuiltinSeat
    from tournoyons_gui.arbitre.seats.irc import IrcSeat
    from tournoyons_gui.arbitre.seats.maitretarot import TAROT, MaitreTarotSeat
    from tournoyons_gui.arbitre.tables import TABLE_SEATS
    from tournoyons_gui.interfaces.plugin import match_deals, seat_count
    from tournoyons_gui.interfaces.registry import load_registry

    registry = {s.name: s for s in load_registry() if s.arbitre is not None}
    branches: list[dict[str, Any]] = []
    for name in sets:
        found = registry.get(name)
        if found is None or found.arbitre is None:
            branches.append({"properties": {"set": {"const": name}}})
            continue
        rules = found.arbitre
        deals = match_deals(rules)
        count = seat_count(rules)
        # The kinds this Set's seats take (an IRC player is seated by its room, never
        # through this API; MaitreTarot clients play Tarot; bots, a Set with bots).
        kinds = [
            kind
            for kind in (ENTRANT_KINDS if entrants else KINDS)
            if kind != IrcSeat.name
            and (kind != BotsarenaSeat.name or found.botsarena is not None)
            and (kind != MaitreTarotSeat.name or (rules.engine_set == TAROT and count == 4))
        ]
        builtin = {"enum": ["", *found.engines]}
        seats = {
            "anyOf": [
                {
                    "properties": {
                        "kind": {"const": kind},
                        **({"engine": builtin} if kind == BuiltinSeat.name else {}),
                        **({"engine": b.URL} if kind in URL_KINDS else {}),
                    },
                    **({"required": ["engine"]} if kind in URL_KINDS else {}),
                }
                for kind in kinds
            ]
        }
        options = {
            "level": {"enum": [*rules.levels, None]},
            "deals": {"enum": [None]}
            if deals is None
            else {"anyOf": [{"type": "null"}, {"minimum": deals[0], "maximum": deals[-1]}]},
        }
        made: dict[str, Any] = {
            "set": {"const": name},
            "options": {"anyOf": [{"type": "null"}, {"properties": options}]},
        }
        if entrants:
            tables = count == TABLE_SEATS
            made["entrants"] = {"items": seats, **({"minItems": TABLE_SEATS} if tables else {})}
            made["format"] = {"enum": ["tables"] if tables else ["round-robin", "swiss"]}
            if tables:
                made["games"] = {"anyOf": [{"type": "null"}, {"maximum": TABLE_SEATS}]}
        else:
            made["seats"] = {"minItems": count, "maxItems": count, "items": seats}
        branch: dict[str, Any] = {"properties": made}
        if entrants and tables:
            branch["required"] = ["format"]  # absent, it is round-robin
        branches.append(branch)
    return {"oneOf": branches}


def _bots() -> dict[str, list[str]]:
    """Return the Set keys and the engine names of the installed botsarena bots."""
    from tournoyons_gui.interfaces.registry import load_registry

    bots = [s for s in load_registry() if s.botsarena is not None]
    return {
        "set": sorted(s.key for s in bots),
        "engine": sorted({e for s in bots for e in s.engines}),
    }


def _name_bots(node: Any, names: dict[str, list[str]]) -> None:
    """Put the Set keys and engine names of the botsarena bots (``names``) where a
    parameter's schema marks them (:data:`~.operations.BOTS`)."""
    if isinstance(node, dict):
        marked = node.pop(BOTS, None)
        if marked is not None:
            node["enum"] = names[marked]
        for value in node.values():
            _name_bots(value, names)
    elif isinstance(node, list):
        for value in node:
            _name_bots(value, names)


def _name_sets(node: Any, sets: tuple[str, ...]) -> None:
    """Put the Sets' names where a body's schema marks a Set's name (:data:`~.bodies.SETS`)."""
    if isinstance(node, dict):
        if node.pop(b.SETS, False):
            node["enum"] = list(sets)
        for value in node.values():
            _name_sets(value, sets)
    elif isinstance(node, list):
        for value in node:
            _name_sets(value, sets)


@functools.lru_cache(maxsize=8)
def _document(sets: tuple[str, ...]) -> dict[str, Any]:
    _, schemas = models_json_schema([(model, "validation") for model in _MODELS], ref_template=_REF)
    _name_sets(schemas, sets)
    schemas["$defs"]["GameBody"]["allOf"] = [_per_set(sets)]
    schemas["$defs"]["TournamentBody"]["allOf"] = [_per_set(sets, entrants=True)]
    paths: dict[str, dict[str, Any]] = {}
    ids = {(op.method, op.path): _operation_id(op) for op in OPERATIONS}
    for op in OPERATIONS:
        made = paths.setdefault(op.path, {})[op.method] = _operation(op)
        if (op.method, op.path) in LINKS:
            name, targets = LINKS[op.method, op.path]
            made["responses"]["201"]["links"] = {
                ids[target]: {
                    "operationId": ids[target],
                    "parameters": {name: "$response.body#/id"},
                }
                for target in targets
            }
    _name_bots(paths, _bots())
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Tournoyons Arbitre",
            "version": VERSION,
            "description": (
                "The Arbitre's HTTP API for programs: games, registered engines and "
                "interfaces, tournaments and their exports, play's matches, and the live "
                "events that say when a game or a tournament moves and ends. Every refusal "
                'is `{"error": "..."}` with a 4xx status (each operation lists its own); '
                'lists are paged by a cursor (`{"rows", "next", "next_url"}`, `?after=`, '
                '`?limit=`, and a `Link: <...>; rel="next"` header). Seats are counted from '
                "1 in every message (`seat 1` is the first), and from 0 in the data (an "
                "`index`, a `winner`). An `Authorization` header that is not a bearer "
                "token this server knows is refused 401, never taken as anonymous."
            ),
            "license": {"name": "MIT", "identifier": "MIT"},
        },
        "servers": [{"url": "/", "description": "This server."}],
        "tags": [{"name": name} for name in dict.fromkeys(op.tag for op in OPERATIONS)],
        "paths": paths,
        "components": {
            "schemas": schemas["$defs"],
            "parameters": PARAMETERS,
            "headers": {
                "Link": {
                    "description": 'The next page: `<URL>; rel="next"` (none on the last).',
                    "schema": {"type": "string"},
                },
                "Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}},
                "WWW-Authenticate": {
                    "description": 'What to send: `Bearer realm="tournoyons"`, with '
                    '`error="invalid_token"` when the token sent is not one this server knows.',
                    "schema": {"type": "string"},
                },
            },
            "securitySchemes": {
                "organiser": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "An organiser token (serve --admin-token, or made by "
                    "tournoyons-gui token): lifts the limits per client address and the "
                    "anonymous tournaments' caps; needed to cancel.",
                },
            },
        },
    }


def document(sets: tuple[str, ...] | None = None) -> dict[str, Any]:
    """Return the OpenAPI 3.1 document of the JSON API (a new copy each call: JSON-ready
    dicts and lists), a Set's name in a body one of ``sets`` (default: the installed
    registry's, :func:`registered_sets`)."""
    return copy.deepcopy(_document(registered_sets() if sets is None else sets))


@functools.lru_cache(maxsize=8)
def openapi_json(sets: tuple[str, ...] | None = None) -> bytes:
    """Return the document as a server playing ``sets`` sends it (made once for them)."""
    made = _document(registered_sets() if sets is None else sets)
    return json.dumps(made, ensure_ascii=False, separators=(",", ":")).encode()


@functools.cache
def _program_paths() -> re.Pattern[str]:
    # A documented path, its parameters widened to anything (slashes too): a mangled id
    # such as "a/b" still names a program's route, which answers JSON.
    patterns = [re.sub(r"\\\{[^}]*\\\}", ".+", re.escape(op.path)) for op in OPERATIONS]
    return re.compile("|".join(patterns))


def program_path(path: str) -> bool:
    """Whether ``path`` is a program's: ``/api`` and anything under it, or one of the
    document's paths (any parameter value, even one holding ``/``): its refusals are
    JSON, a bad token on it is refused (:mod:`.guard`), ``serve --cors`` opens it."""
    if path == "/api" or path.startswith("/api/"):
        return True
    return _program_paths().fullmatch(path) is not None


#: The API's own root: no operation, yet a program's path (its 404 in JSON), routed before
#: the Sets' ``/{set}/`` pages would take it for a Set's.
API_ROOTS = ("/api", "/api/")


async def no_route(request: Request) -> Response:
    """Answer a path with no operation as the router does (``404``: :func:`refused_route`
    makes it JSON on a program's path)."""
    del request
    raise HTTPException(404)


async def refused_route(request: Request, refused: Exception) -> Response:
    """Answer the router's 404 (no route) and 405 (another method): ``{"error"}`` on a
    program's path, Starlette's plain text elsewhere (a page's)."""
    assert isinstance(refused, HTTPException)
    status, headers = refused.status_code, refused.headers
    if not program_path(request.url.path):
        return PlainTextResponse(refused.detail, status, headers=headers)
    error = "no such route" if status == 404 else f"{request.method} is not allowed here"
    return JSONResponse({"error": error}, status, headers=headers)
