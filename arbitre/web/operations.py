"""The JSON API's operations, one :class:`Operation` each (path, method, parameters, body
model, answers): the table :mod:`.openapi` makes its document of. A route for programs
added to the application and not here fails tests/server/test_openapi_routes.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

import tournoyons_gui.arbitre.web.answers as a
import tournoyons_gui.arbitre.web.bodies as b
from tournoyons_gui.arbitre.paging import MAX_LIMIT

__all__ = ["LINKS", "OPERATIONS", "PARAMETERS", "Operation"]


@dataclass(frozen=True)
class Operation:
    """One method of one path: ``answers`` maps a status to ``(description, content)``
    (content: an :mod:`.answers` model, a list of one (an array of it), a media type
    string for a body that is not JSON, or ``None`` for no body); ``body``: the request's
    model; ``params``: the names of :data:`PARAMETERS` it takes; ``work``: a ``POST``
    that starts work (same-origin, limited per client: 403 and 429, an organiser token
    lifts the limits); ``organiser``: an organiser token is required."""

    method: str
    path: str
    tag: str
    summary: str
    answers: Mapping[int, tuple[str, Any]]
    body: type[BaseModel] | None = None
    params: Sequence[str] = ()
    work: bool = False
    organiser: bool = False
    description: str = ""
    paged: bool = False
    examples: Mapping[str, Any] = field(default_factory=dict)


def _path(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": {"type": "string", "minLength": 1},
    }


def _query(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "description": description,
        "schema": schema,
    }


#: The parameters, by name.
PARAMETERS: dict[str, dict[str, Any]] = {
    "game_id": _path("game_id", "A game's id (10 characters A-Z, 2-7)."),
    "engine_id": _path("engine_id", "A registered engine's id."),
    "tournament_id": _path("tournament_id", "A tournament's id."),
    "match_id": _path("match_id", "A match's id (play prints it)."),
    "interface_id": _path("interface_id", "An interface's id (ours: builtin-<set>)."),
    "run_id": _path("run_id", "A check's id."),
    "set": {
        **_path("set", "A Set's key (connectfour: the Set with botsarena bots)."),
        "example": "connectfour",
    },
    "name": {
        **_path("name", "A built-in engine's name (random, strong ...)."),
        "example": "random",
    },
    "rules_set": {
        **_path("set", "A Set's key (tictactoe, reversi ...)."),
        "example": "tictactoe",
    },
    "after": _query(
        "after",
        "The cursor of the next page, as the previous page's Link header gives it.",
        {"type": "string"},
    ),
    "limit": _query(
        "limit",
        f"Rows on the page, 1 to {MAX_LIMIT}.",
        {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
    ),
    "opponents": _query(
        "opponents",
        "The order of an engine's opponents: name (A to Z, the default) or games (most first).",
        {"type": "string", "enum": ["name", "games"]},
    ),
    "opponents_after": _query(
        "opponents_after",
        "The cursor of the next page of an engine's opponents (its per_opponent_next).",
        {"type": "string"},
    ),
    "games_after": _query(
        "games_after",
        "The cursor of the next page of an engine's games (its games_next).",
        {"type": "string"},
    ),
    "set_filter": {
        **_query(
            "set",
            "Only the games of this Set (its name in any case, at most 40 characters).",
            {"type": "string"},
        ),
    },
    "seat": _query(
        "seat",
        "Only the games where a seat has this whole name (any case) or this whole URL "
        "(an engine's, a built-in engine's name): not a part of either; at most 2000 "
        "characters, none a control character.",
        {"type": "string"},
    ),
    "move": _query(
        "move",
        "After which move (0: the start; default the last).",
        {"type": "integer", "minimum": 0},
    ),
    "seat_token": _query(
        "seat", "A person's seat token (their page, their hidden cards).", {"type": "string"}
    ),
    "list": _query("list", "Any value: add the moves (list).", {"type": "string"}),
    "interface": _query("interface", "Draw through this interface's id.", {"type": "string"}),
    "tag": {
        **_query("tag", "The tag the returns' query carried (one or more).", {"type": "string"}),
        "required": True,
    },
}

_ERROR = ("Refused: the reason in one sentence.", a.Error)
_NO_GAME = ("No such game.", a.Error)
_NO_TOURNAMENT = ("No such tournament.", a.Error)
_BAD_PAGE = ("A cursor or a limit that cannot be read.", a.Error)
_CSV = "text/csv; charset=utf-8"
_JSONL = "application/x-ndjson; charset=utf-8"

OPERATIONS: tuple[Operation, ...] = (
    Operation(
        "get",
        "/api/games",
        "Games",
        "A page of the games, newest first",
        {200: ("The games.", [a.GameRow]), 400: _BAD_PAGE},
        params=("set_filter", "seat", "after", "limit"),
        paged=True,
    ),
    Operation(
        "post",
        "/api/games",
        "Games",
        "Start a game",
        {201: ("Started: its id, its URLs, the persons' pages.", a.GameCreated), 400: _ERROR},
        body=b.GameBody,
        work=True,
        examples={
            "set": "TicTacToe",
            "seats": [
                {"kind": "builtin", "engine": "random", "name": ""},
                {"kind": "engine", "engine": "https://example.org/engine", "name": "Mine"},
            ],
            "options": {"timeout": 10},
        },
    ),
    Operation(
        "get",
        "/api/games/{game_id}",
        "Games",
        "A game's whole record",
        {200: ("The record.", a.GameRecord), 404: _NO_GAME},
        params=("game_id",),
    ),
    Operation(
        "get",
        "/games/{game_id}.json",
        "Games",
        "A game's whole record (its export)",
        {200: ("The record.", a.GameRecord), 404: _NO_GAME},
        params=("game_id",),
    ),
    Operation(
        "get",
        "/games/{game_id}/view",
        "Games",
        "The position after a move",
        {
            200: ("The page to show and where the game is.", a.GameView),
            404: ("No such game or move.", a.Error),
        },
        params=("game_id", "move", "seat_token", "list", "interface"),
    ),
    Operation(
        "post",
        "/api/games/{game_id}/cancel",
        "Games",
        "Cancel a game in play",
        {
            200: ("Ended as interrupted.", a.Cancelled),
            409: ("Not in play here (over, or driven by another worker: ask again).", a.Error),
        },
        params=("game_id",),
        work=True,
        organiser=True,
    ),
    Operation(
        "post",
        "/api/sets",
        "Games",
        "Add a game of one's own (chapter VI)",
        {201: ("Added: its name and key.", a.AddedSet), 400: _ERROR},
        body=b.AddedSetBody,
        work=True,
    ),
    Operation(
        "get",
        "/api/engines",
        "Engines",
        "A page of the registered engines, by name",
        {200: ("The engines.", [a.RegisteredEngine]), 400: _BAD_PAGE},
        params=("after", "limit"),
        paged=True,
    ),
    Operation(
        "post",
        "/api/engines",
        "Engines",
        "Register an engine",
        {
            201: ("Registered: its edit token and key, shown this once.", a.EngineRegistered),
            400: _ERROR,
        },
        body=b.EngineRegistration,
        work=True,
        examples={"name": "Mine", "url": "https://example.org/engine", "sets": ["TicTacToe"]},
    ),
    Operation(
        "get",
        "/api/engines/{engine_id}",
        "Engines",
        "An engine's record",
        {
            200: (
                "Its results, ratings, a page of its opponents and of its games.",
                a.EngineRecord,
            ),
            400: _BAD_PAGE,
            404: ("No such engine.", a.Error),
        },
        params=("engine_id", "opponents", "opponents_after", "games_after"),
    ),
    Operation(
        "post",
        "/api/engines/{engine_id}",
        "Engines",
        "Change an engine's registration",
        {
            200: ("Changed.", a.EngineChanged),
            400: _ERROR,
            403: ("Wrong edit token (or a request from another site).", a.Error),
            404: ("No such engine.", a.Error),
        },
        body=b.EngineChange,
        params=("engine_id",),
        work=True,
        examples={"token": "the edit token", "retired": True},
    ),
    Operation(
        "get",
        "/api/interfaces",
        "Interfaces",
        "Our interfaces, then a page of the registered ones by name",
        {200: ("The interfaces.", [a.InterfaceOut]), 400: _BAD_PAGE},
        params=("after", "limit"),
        paged=True,
    ),
    Operation(
        "post",
        "/api/interfaces",
        "Interfaces",
        "Register a graphical interface",
        {201: ("Registered: its edit token, shown this once.", a.InterfaceRegistered), 400: _ERROR},
        body=b.InterfaceRegistration,
        work=True,
        examples={"name": "Big board", "url": "https://example.org/board/", "sets": ["Reversi"]},
    ),
    Operation(
        "get",
        "/api/interfaces/{interface_id}",
        "Interfaces",
        "An interface",
        {200: ("The interface.", a.InterfaceOut), 404: ("No such interface.", a.Error)},
        params=("interface_id",),
    ),
    Operation(
        "post",
        "/api/interfaces/{interface_id}",
        "Interfaces",
        "Change an interface",
        {
            200: ("Changed.", a.InterfaceOut),
            400: _ERROR,
            403: ("Wrong edit token (or a request from another site).", a.Error),
            404: ("No such interface.", a.Error),
        },
        body=b.InterfaceChange,
        params=("interface_id",),
        work=True,
    ),
    Operation(
        "get",
        "/interfaces/{interface_id}/checks/{run_id}.json",
        "Interfaces",
        "A check run here: its progress, then its report",
        {200: ("The run.", a.CheckRun), 404: ("No such check.", a.Error)},
        params=("interface_id", "run_id"),
    ),
    Operation(
        "get",
        "/interfaces/{interface_id}/checks/{run_id}/sheet.png",
        "Interfaces",
        "A check's contact sheet",
        {200: ("The sheet.", "image/png"), 404: ("No such sheet.", a.Error)},
        params=("interface_id", "run_id"),
    ),
    Operation(
        "get",
        "/api/tournaments",
        "Tournaments",
        "A page of the tournaments, newest first",
        {200: ("The tournaments.", [a.TournamentRow]), 400: _BAD_PAGE},
        params=("after", "limit"),
        paged=True,
    ),
    Operation(
        "post",
        "/api/tournaments",
        "Tournaments",
        "Start a tournament",
        {201: ("Started: its id and URLs.", a.TournamentCreated), 400: _ERROR},
        body=b.TournamentBody,
        work=True,
        examples={
            "set": "ConnectFour",
            "entrants": [
                {"kind": "builtin", "engine": "random"},
                {"kind": "builtin", "engine": "random", "name": "Other"},
            ],
            "format": "round-robin",
            "games": 2,
        },
    ),
    *(
        Operation(
            "get",
            path,
            "Tournaments",
            "A tournament's whole state",
            {
                200: ("Settings, progress, standings, cross table, games.", a.TournamentSummary),
                404: _NO_TOURNAMENT,
            },
            params=("tournament_id",),
        )
        for path in ("/api/tournaments/{tournament_id}", "/tournaments/{tournament_id}.json")
    ),
    Operation(
        "post",
        "/api/tournaments/{tournament_id}/cancel",
        "Tournaments",
        "Cancel a tournament: no more games, its games in play interrupted",
        {200: ("The tournament, cancelled.", a.TournamentSummary), 404: _NO_TOURNAMENT},
        params=("tournament_id",),
        work=True,
        organiser=True,
    ),
    Operation(
        "get",
        "/tournaments/{tournament_id}/standings.json",
        "Tournaments",
        "The standings, by rank",
        {200: ("A page of the standings.", [a.Standing]), 400: _BAD_PAGE, 404: _NO_TOURNAMENT},
        params=("tournament_id", "after", "limit"),
        paged=True,
    ),
    Operation(
        "get",
        "/tournaments/{tournament_id}/games.json",
        "Tournaments",
        "The tournament's games, in creation order",
        {200: ("A page of the games.", [a.TournamentGame]), 400: _BAD_PAGE, 404: _NO_TOURNAMENT},
        params=("tournament_id", "after", "limit"),
        paged=True,
    ),
    Operation(
        "get",
        "/tournaments/{tournament_id}/standings.csv",
        "Tournaments",
        "The standings as CSV (names safe for a spreadsheet)",
        {200: ("The standings.", _CSV), 404: _NO_TOURNAMENT},
        params=("tournament_id",),
    ),
    Operation(
        "get",
        "/tournaments/{tournament_id}/games.csv",
        "Tournaments",
        "The games as CSV",
        {200: ("The games.", _CSV), 404: _NO_TOURNAMENT},
        params=("tournament_id",),
    ),
    Operation(
        "get",
        "/api/matches",
        "Matches",
        "A page of play's matches, newest first",
        {200: ("The matches.", [a.MatchRow]), 400: _BAD_PAGE},
        params=("after", "limit"),
        paged=True,
    ),
    *(
        Operation(
            "get",
            path,
            "Matches",
            "A match's document (play --json's), a page of its games",
            {
                200: ("The summary; games_list a page of the games.", a.MatchDocument),
                400: _BAD_PAGE,
                404: ("No such match.", a.Error),
            },
            params=("match_id", "after", "limit"),
            paged=True,
            description="The summary is the whole match's on every page; games_list holds "
            "a page of its games in match order, with their moves (100 at most), and "
            "games_next the next page's path.",
        )
        for path in ("/api/matches/{match_id}", "/matches/{match_id}.json")
    ),
    Operation(
        "get",
        "/matches/{match_id}/games.jsonl",
        "Matches",
        "Every game's record of a match, one a line (JSON Lines), streamed",
        {
            200: ("Each line a game's record, as /games/<id>.json gives it.", _JSONL),
            404: ("No such match.", a.Error),
        },
        params=("match_id",),
        description="The games in match order, each line the JSON of /games/<id>.json "
        "(play --games-file writes the same lines); read a batch at a time, whatever the "
        "match's length.",
    ),
    Operation(
        "post",
        "/engines/{set}/{name}/botsarena",
        "Served",
        "A built-in engine as a botsarena bot (seed 003)",
        {
            200: ("init: {name}; play-turn: {play}.", a.BotsarenaAnswer),
            400: _ERROR,
            404: ("No such botsarena bot.", a.Error),
        },
        body=b.BotsarenaMessage,
        params=("set", "name"),
    ),
    Operation(
        "post",
        "/tester/{set}/new",
        "Tester",
        "The tester's hot-seat game: a new one",
        {
            200: ("The first context.", a.TesterTurn),
            404: ("A Set without rules.", a.Error),
        },
        params=("rules_set",),
    ),
    Operation(
        "post",
        "/tester/{set}/play",
        "Tester",
        "The tester's hot-seat game: a move",
        {
            200: ("The next context.", a.TesterTurn),
            400: _ERROR,
            404: ("A Set without rules.", a.Error),
            422: ("An illegal move: the rules' reason.", a.Error),
        },
        body=b.TesterPlay,
        params=("rules_set",),
        examples={"state": {"tray": "000000000", "count": 0}, "value": "5"},
    ),
    Operation(
        "get",
        "/return/log",
        "Tester",
        "The values the return sink received, by tag",
        {
            200: ("Oldest first.", [a.SinkEntry]),
            400: ("No tag given.", a.Error),
            404: ("The sink is off (serve --sink).", a.Error),
        },
        params=("tag",),
    ),
    Operation(
        "get",
        "/healthz",
        "Server",
        "Whether the server runs",
        {200: ("It runs; the Sets it serves.", a.Health)},
    ),
    Operation(
        "get",
        "/api/openapi.json",
        "Server",
        "This document",
        {200: ("The OpenAPI 3.1 document.", {"type": "object"})},
    ),
)


#: What an answer leads to (OpenAPI links: a client, or schemathesis's stateful phase,
#: follows them): ``(method, path)`` answering ``201`` with an ``id`` -> the operations
#: taking that id as their path parameter.
LINKS: dict[tuple[str, str], tuple[str, tuple[tuple[str, str], ...]]] = {
    ("post", "/api/games"): (
        "game_id",
        (
            ("get", "/api/games/{game_id}"),
            ("get", "/games/{game_id}.json"),
            ("get", "/games/{game_id}/view"),
            ("post", "/api/games/{game_id}/cancel"),
        ),
    ),
    ("post", "/api/engines"): (
        "engine_id",
        (("get", "/api/engines/{engine_id}"), ("post", "/api/engines/{engine_id}")),
    ),
    ("post", "/api/interfaces"): (
        "interface_id",
        (("get", "/api/interfaces/{interface_id}"), ("post", "/api/interfaces/{interface_id}")),
    ),
    ("post", "/api/tournaments"): (
        "tournament_id",
        (
            *(
                ("get", path)
                for path in (
                    "/api/tournaments/{tournament_id}",
                    "/tournaments/{tournament_id}.json",
                    "/tournaments/{tournament_id}/standings.json",
                    "/tournaments/{tournament_id}/games.json",
                    "/tournaments/{tournament_id}/standings.csv",
                    "/tournaments/{tournament_id}/games.csv",
                )
            ),
            ("post", "/api/tournaments/{tournament_id}/cancel"),
        ),
    ),
}
