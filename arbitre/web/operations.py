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
import tournoyons_gui.arbitre.web.served_bodies as sb
from tournoyons_gui.arbitre.web.parameters import BOTS, PARAMETERS

__all__ = ["BOTS", "EVENTS", "LINKS", "OPERATIONS", "PARAMETERS", "Operation"]
#: The content of an answer that is a stream of server-sent events.
EVENTS = "text/event-stream"


@dataclass(frozen=True)
class Operation:
    """One method of one path: ``answers`` maps a status to ``(description, content)``
    (content: an :mod:`.answers` model, a list of one (an array of it), a media type
    string for a body that is not JSON, :data:`EVENTS` for a stream of events, or
    ``None`` for no body); ``body``: the request's model (a body over its limit: 413);
    ``params``: the names of :data:`PARAMETERS` it takes; ``work``: a ``POST`` that starts
    work (same-origin, limited per client: 403 and 429, an organiser token lifts the
    limits); ``organiser``: an organiser token is required (401 without); ``description``:
    what it does, in a sentence or two (the operations' page shows it); ``paged``: its
    answer is a page of a list (a ``Link`` header to the next)."""

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
    events: Mapping[str, type[BaseModel]] = field(default_factory=dict)


_ERROR = ("Refused: the reason in one sentence (a field, a Set, a limit, a name taken).", a.Error)
_NO_GAME = ("No such game.", a.Error)
_NO_TOURNAMENT = ("No such tournament.", a.Error)
_BAD_PAGE = ("A cursor or a limit that cannot be read, or given twice.", a.Error)
_CSV = "text/csv; charset=utf-8"
_TAKEN = ("The name is taken (by another registration).", a.Error)

OPERATIONS: tuple[Operation, ...] = (
    Operation(
        "get",
        "/api/games",
        "Games",
        "A page of the games, newest first",
        {
            200: ("A page of the games.", a.GamePage),
            400: ("A filter, a cursor or a limit that cannot be read.", a.Error),
        },
        params=("set_filter", "seat", "after", "limit"),
        paged=True,
        description="Every game of this Arbitre, newest first, a page at a time; filtered "
        "by Set, by a seat's whole name or URL, or both. Each filter is read along an "
        "index: a page costs its own rows, at any depth.",
    ),
    Operation(
        "post",
        "/api/games",
        "Games",
        "Start a game",
        {201: ("Started: its id, its URLs, the persons' pages.", a.GameCreated), 400: _ERROR},
        body=b.GameBody,
        work=True,
        description="Makes a game of a Set between its seats (our engines, engines by URL, "
        "persons, bots) and starts it at once. The persons' pages hold their seats' secret "
        "tokens: give each to its player only. Follow it with its events, or read its "
        "record once it is over.",
    ),
    Operation(
        "get",
        "/api/games/{game_id}",
        "Games",
        "A game's whole record",
        {200: ("The record.", a.GameRecord), 404: _NO_GAME},
        params=("game_id",),
        description="The game's record: its seats, options, result (in words too), every "
        "move with its Tray and the engine's query, and every exchange. While the game "
        "hides something from spectators, the values are ?.",
    ),
    Operation(
        "get",
        "/games/{game_id}.json",
        "Games",
        "A game's whole record (its export)",
        {200: ("The record.", a.GameRecord), 404: _NO_GAME},
        params=("game_id",),
        description="The same record as GET /api/games/{game_id}, at the address a game's "
        "page links as its export.",
    ),
    Operation(
        "get",
        "/games/{game_id}/view",
        "Games",
        "The position after a move",
        {
            200: ("The page to show and where the game is.", a.GameView),
            400: ("A move that is not a whole number from 0.", a.Error),
            404: ("No such game or move.", a.Error),
        },
        params=("game_id", "move", "seat_token", "list", "interface"),
        description="What a game's page shows at a move: the interface's URL for that "
        "position (through ours or a registered interface), the status, whom the game "
        "asks now; with a seat's token, that person's view and ask.",
    ),
    Operation(
        "get",
        "/games/{game_id}/events",
        "Games",
        "Follow a game: its live events",
        {200: ("The events, until the game is over.", EVENTS), 404: _NO_GAME},
        params=("game_id",),
        events={"move": a.MoveEvent},
        description="Server-sent events: one move event now, then one at each move, the "
        "last with over true; the stream then ends. Each says where to read (the move "
        "count), so a client that reconnects loses nothing. Wait for a game's end with "
        "it, never by asking again and again.",
    ),
    Operation(
        "post",
        "/api/games/{game_id}/cancel",
        "Games",
        "Cancel a game in play",
        {
            200: ("Ended as interrupted.", a.Cancelled),
            409: ("Not in play (over), or its driver did not end it in time.", a.Error),
        },
        params=("game_id",),
        work=True,
        organiser=True,
        description="Ends a game in play as interrupted, with no result. Takes an organiser token.",
    ),
    Operation(
        "post",
        "/api/sets",
        "Games",
        "Add a game of one's own (chapter VI)",
        {
            201: ("Added: its name and key.", a.AddedSet),
            400: _ERROR,
            409: ("A Set of that name is played here already.", a.Error),
        },
        body=b.AddedSetBody,
        work=True,
        description="Adds a game the Arbitre does not know: its page (interface) and its "
        "referee, called for each move, both by URL. It is then played as any Set, by "
        "name.",
    ),
    Operation(
        "get",
        "/api/engines",
        "Engines",
        "A page of the registered engines, by name",
        {200: ("A page of the engines.", a.EnginePage), 400: _BAD_PAGE},
        params=("after", "limit"),
        paged=True,
        description="The registered engines, A to Z, a page at a time; never their edit "
        "tokens or keys.",
    ),
    Operation(
        "post",
        "/api/engines",
        "Engines",
        "Register an engine",
        {
            201: ("Registered: its edit token and key, shown this once.", a.EngineRegistered),
            400: _ERROR,
            409: _TAKEN,
        },
        body=b.EngineRegistration,
        work=True,
        description="Registers an engine by its URL for the Sets it plays, so that "
        "tournaments and the ladder may enter it and its record is kept. The answer holds "
        "its edit token (to change it) and its call key, shown this once.",
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
        description="An engine's results per Set, its rating now and over time, a page "
        "of its opponents and a page of its games; read from what is kept as its games "
        "end, in the same time at ten games as at thirty thousand.",
    ),
    Operation(
        "post",
        "/api/engines/{engine_id}",
        "Engines",
        "Change an engine's registration",
        {
            200: ("Changed.", a.EngineChanged),
            400: _ERROR,
            403: ("The wrong edit token, or a browser's request from another site.", a.Error),
            404: ("No such engine.", a.Error),
            409: _TAKEN,
        },
        body=b.EngineChange,
        params=("engine_id",),
        work=True,
        description="Changes the fields sent (name, URL, Sets, flags, retired), with the "
        "edit token answered at registration; renew_key gives a new call key, answered "
        "this once.",
    ),
    Operation(
        "get",
        "/api/interfaces",
        "Interfaces",
        "Our interfaces, then a page of the registered ones by name",
        {200: ("A page of the interfaces.", a.InterfacePage), 400: _BAD_PAGE},
        params=("after", "limit"),
        paged=True,
        description="Our own interfaces (one per Set, on the first page), then the "
        "registered ones, A to Z, a page at a time.",
    ),
    Operation(
        "post",
        "/api/interfaces",
        "Interfaces",
        "Register a graphical interface",
        {
            201: ("Registered: its edit token, shown this once.", a.InterfaceRegistered),
            400: _ERROR,
            409: _TAKEN,
        },
        body=b.InterfaceRegistration,
        work=True,
        description="Registers a page that draws Sets (the interface protocol) by its URL: "
        "games can then be watched and compared through it, and checked.",
    ),
    Operation(
        "get",
        "/api/interfaces/{interface_id}",
        "Interfaces",
        "An interface",
        {200: ("The interface.", a.InterfaceOut), 404: ("No such interface.", a.Error)},
        params=("interface_id",),
        description="One interface, ours or registered.",
    ),
    Operation(
        "post",
        "/api/interfaces/{interface_id}",
        "Interfaces",
        "Change an interface",
        {
            200: ("Changed.", a.InterfaceOut),
            400: _ERROR,
            403: ("The wrong edit token, or a browser's request from another site.", a.Error),
            404: ("No such interface.", a.Error),
            409: _TAKEN,
        },
        body=b.InterfaceChange,
        params=("interface_id",),
        work=True,
        description="Changes the fields sent (name, URL, Sets, retired), with the edit "
        "token answered at registration.",
    ),
    Operation(
        "get",
        "/interfaces/{interface_id}/checks/{run_id}.json",
        "Interfaces",
        "A check run here: its progress, then its report",
        {200: ("The run.", a.CheckRun), 404: ("No such check.", a.Error)},
        params=("interface_id", "run_id"),
        description="A check of an interface that this server runs in Chromium (started "
        "from the interface's page): its progress while it runs, then its report.",
    ),
    Operation(
        "get",
        "/interfaces/{interface_id}/checks/{run_id}/sheet.png",
        "Interfaces",
        "A check's contact sheet",
        {200: ("The sheet.", "image/png"), 404: ("No such sheet.", a.Error)},
        params=("interface_id", "run_id"),
        description="The screenshots a check took, on one image.",
    ),
    Operation(
        "get",
        "/api/tournaments",
        "Tournaments",
        "A page of the tournaments, newest first",
        {200: ("A page of the tournaments.", a.TournamentPage), 400: _BAD_PAGE},
        params=("after", "limit"),
        paged=True,
        description="Every tournament, newest first, a page at a time.",
    ),
    Operation(
        "post",
        "/api/tournaments",
        "Tournaments",
        "Start a tournament",
        {201: ("Started: its id and URLs.", a.TournamentCreated), 400: _ERROR},
        body=b.TournamentBody,
        work=True,
        description="Starts a round-robin, a Swiss tournament or one at tables of four "
        "between registered engines, engines by URL, bots and our engines. Without an "
        "organiser token the server's caps apply (entrants, games per pairing, games at "
        "once). Follow it with its events.",
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
            description="Its settings, progress, standings with their tie-breaks and "
            "ratings, cross table and games, computed from the game records at each call.",
        )
        for path in ("/api/tournaments/{tournament_id}", "/tournaments/{tournament_id}.json")
    ),
    Operation(
        "get",
        "/tournaments/{tournament_id}/events",
        "Tournaments",
        "Follow a tournament: its live events",
        {200: ("The events, until the tournament is over.", EVENTS), 404: _NO_TOURNAMENT},
        params=("tournament_id",),
        events={"progress": a.ProgressEvent, "game": a.GameEndedEvent},
        description="Server-sent events: a progress event now and at each change, a game "
        "event as each of its games ends, and a last progress with status over; the "
        "stream then ends. Wait for a tournament's end with it.",
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
        description="Ends a tournament: no game is made any more, and its games in play "
        "end as interrupted. Takes an organiser token.",
    ),
    Operation(
        "get",
        "/tournaments/{tournament_id}/standings.json",
        "Tournaments",
        "The standings, by rank",
        {200: ("A page of the standings.", a.StandingPage), 400: _BAD_PAGE, 404: _NO_TOURNAMENT},
        params=("tournament_id", "after", "limit_all"),
        paged=True,
        description="The standings by rank, a page at a time (100 by default: a whole "
        "tournament's, usually).",
    ),
    Operation(
        "get",
        "/tournaments/{tournament_id}/games.json",
        "Tournaments",
        "The tournament's games, in creation order",
        {
            200: ("A page of the games.", a.TournamentGamePage),
            400: _BAD_PAGE,
            404: _NO_TOURNAMENT,
        },
        params=("tournament_id", "after", "limit_all"),
        paged=True,
        description="Its games in the order they were made, a page at a time, read along "
        "an index: the last page costs what the first does.",
    ),
    Operation(
        "get",
        "/tournaments/{tournament_id}/standings.csv",
        "Tournaments",
        "The standings as CSV (names safe for a spreadsheet)",
        {200: ("The standings.", _CSV), 404: _NO_TOURNAMENT},
        params=("tournament_id",),
        description="The standings for a spreadsheet: a name a spreadsheet would read as "
        "a formula is quoted.",
    ),
    Operation(
        "get",
        "/tournaments/{tournament_id}/games.csv",
        "Tournaments",
        "The games as CSV",
        {200: ("The games.", _CSV), 404: _NO_TOURNAMENT},
        params=("tournament_id",),
        description="Every game of the tournament, streamed as it is read.",
    ),
    Operation(
        "get",
        "/api/matches",
        "Matches",
        "A page of play's matches, newest first",
        {200: ("A page of the matches.", a.MatchPage), 400: _BAD_PAGE},
        params=("after", "limit"),
        paged=True,
        description="The matches tournoyons-gui play recorded in these records (engine "
        "against engine, with their statistics), newest first.",
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
            params=("match_id", "after", "limit_all"),
            paged=True,
            description="The summary is the whole match's on every page; games_list holds "
            "a page of its games in match order, with their moves (100 at most), and "
            "games_next the next page's path.",
        )
        for path in ("/api/matches/{match_id}", "/matches/{match_id}.json")
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
        body=sb.BotsarenaMessage,
        params=("set", "name"),
        description="One of our engines answering botsarena's JSON messages, for a "
        "botsarena arena or another Arbitre: init, then play-turn at each move.",
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
        description="The first position of a hot-seat game of a Set, as the tester "
        "draws it; send its state back with each move.",
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
        body=sb.TesterPlay,
        params=("rules_set",),
        description="Plays a move in a hot-seat game: the state the last answer gave and "
        "the move as a page returns it; the next position, or the rules' reason.",
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
        description="What pages returned to this server's sink (serve --sink), for "
        "testing an interface: each value with the query that returned it.",
    ),
    Operation(
        "get",
        "/healthz",
        "Server",
        "Whether the server runs",
        {200: ("It runs; the Sets it serves.", a.Health)},
        description="200 while the server runs, with the Sets it serves.",
    ),
    Operation(
        "get",
        "/api/openapi.json",
        "Server",
        "This document",
        {200: ("The OpenAPI 3.1 document.", {"type": "object"})},
        description="This document, as every running server serves it.",
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
