"""The parameters of the JSON API's operations (:mod:`.operations`), by name: each a
path's or a query's, its schema taken from the constants the server reads it with."""

from __future__ import annotations

from typing import Any

from tournoyons_gui.arbitre.match import TEXT_PATTERN
from tournoyons_gui.arbitre.outbound import MAX_URL
from tournoyons_gui.arbitre.paging import DEFAULT_LIMIT, MAX_LIMIT
from tournoyons_gui.arbitre.tournaments.engine_record import OPPONENT_ORDERS
from tournoyons_gui.arbitre.web.pages import MAX_MOVE, MAX_SET_FILTER

__all__ = ["BOTS", "PARAMETERS"]

#: The mark of a botsarena bot's Set key or engine name: the document puts there those
#: of the installed Sets with botsarena bots.
BOTS = "x-bots"


def _path(name: str, description: str, example: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": {"type": "string", "minLength": 1},
        "example": example,
    }


def _query(
    name: str, description: str, schema: dict[str, Any], example: Any = None
) -> dict[str, Any]:
    made = {
        "name": name,
        "in": "query",
        "required": False,
        "description": description,
        "schema": schema,
    }
    if example is not None:
        made["example"] = example
    return made


def _limit(default: int) -> dict[str, Any]:
    return _query(
        "limit",
        f"Rows on the page, 1 to {MAX_LIMIT} (default {default}).",
        {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": default},
        2,
    )


_CURSOR = {"type": "string", "maxLength": 2000}

#: The parameters, by name.
PARAMETERS: dict[str, dict[str, Any]] = {
    "game_id": _path("game_id", "A game's id (12 characters A-Z, 2-7).", "K2M7Q4ZX9TRA"),
    "engine_id": _path("engine_id", "A registered engine's id.", "RXQ7M2KZ4A"),
    "tournament_id": _path("tournament_id", "A tournament's id.", "T4ZK2M7Q9XRA"),
    "match_id": _path("match_id", "A match's id (play prints it).", "M7Q4ZX9TRA"),
    "interface_id": _path(
        "interface_id", "An interface's id (ours: B-<set>, B-tictactoe).", "B-tictactoe"
    ),
    "run_id": _path("run_id", "A check's id (the check's page gives it).", "C2M7Q4ZX9T"),
    "set": {
        **_path("set", "The key of a Set with botsarena bots (connectfour).", "connectfour"),
        "schema": {"type": "string", BOTS: "set"},
    },
    "name": {
        **_path("name", "A built-in engine's name (random, strong ...).", "random"),
        "schema": {"type": "string", BOTS: "engine"},
    },
    "rules_set": _path("set", "A Set's key, lower case (tictactoe, reversi ...).", "tictactoe"),
    "after": _query(
        "after",
        "The next page's cursor, as the previous page gave it (its next, or its Link "
        "header). Opaque and signed: a cursor made up, cut, or of another list is a 400.",
        _CURSOR,
    ),
    "limit": _limit(DEFAULT_LIMIT),
    "limit_all": _limit(MAX_LIMIT),
    "opponents": _query(
        "opponents",
        "The order of an engine's opponents: name (A to Z, the default) or games (most first).",
        {"type": "string", "enum": list(OPPONENT_ORDERS), "default": OPPONENT_ORDERS[0]},
    ),
    "opponents_after": _query(
        "opponents_after",
        "The cursor of the next page of an engine's opponents (its per_opponent_next).",
        _CURSOR,
    ),
    "games_after": _query(
        "games_after",
        "The cursor of the next page of an engine's games (its games_next).",
        _CURSOR,
    ),
    "set_filter": _query(
        "set",
        f"Only the games of this Set (its name in any case, at most {MAX_SET_FILTER} "
        "characters, none a control character).",
        {"type": "string", "maxLength": MAX_SET_FILTER, "pattern": TEXT_PATTERN},
        "TicTacToe",
    ),
    "seat": _query(
        "seat",
        "Only the games where a seat has this whole name (any case) or this whole URL "
        f"(an engine's, a built-in engine's name): not a part of either; at most {MAX_URL} "
        "characters, none a control character.",
        {"type": "string", "maxLength": MAX_URL, "pattern": TEXT_PATTERN},
        "random",
    ),
    "move": _query(
        "move",
        "After which move (0: the start; default the last).",
        {"type": "integer", "minimum": 0, "maximum": MAX_MOVE},
    ),
    "seat_token": _query(
        "seat",
        "A person's seat token (their page, their hidden cards).",
        {"type": "string"},
    ),
    "list": _query("list", "Any value: add the moves (list).", {"type": "string"}),
    "interface": _query("interface", "Draw through this interface's id.", {"type": "string"}),
    "tag": {
        **_query(
            "tag", "The tag the returns' query carried (one or more).", {"type": "string"}, "t1"
        ),
        "required": True,
    },
}
