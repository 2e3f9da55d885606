"""The tools for engine authors: call an engine once in tester mode, or check it in whole
games against the built-in random engine.

Routes:

- ``GET /engine-tester``: the form; ``POST /engine-tester`` (``url``, ``set``, ``turn``,
  ``tray`` ...): call an engine in tester mode (engine protocol section 5: empty
  ``Referee``, the answer is the value) and show the request sent, the Value read from
  the answer (never the rest of its body: the tester is no window on other hosts) and
  whether it is legal.
- ``GET /engine-check``: the form; ``POST /engine-check`` (``url``, ``set``, ``games``):
  play it against the built-in random engine, first and second, and link the games' logs.

Both start work only on a ``POST`` (same-origin and limited per client,
:mod:`~tournoyons_gui.arbitre.web.guard`): a link or an image tag starts nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tournoyons_gui.arbitre.match import DEFAULT_TIMEOUT, GameError, Options, SeatSpec
from tournoyons_gui.arbitre.urls import check_engine_url, engine_url
from tournoyons_gui.arbitre.web.common import Part, read_form, read_int
from tournoyons_gui.interfaces.plugin import ArbitreRules, IllegalMove
from tournoyons_gui.interfaces.protocol import Player

__all__ = ["MAX_CHECK_GAMES", "MAX_TESTER_VALUE", "Tools", "tester_value", "tester_verdict"]

#: The most games one engine check starts.
MAX_CHECK_GAMES = 10
#: How long the tester waits for the engine's answer (seconds).
TESTER_TIMEOUT = 20
#: The most characters of a Value the tester shows (the manual's longest Values, a
#: Seafight fleet or a Poker move, are far shorter).
MAX_TESTER_VALUE = 200


class Tools(Part):
    """The engine tester and the engine check (see the module); ``holder()`` returns the
    running Arbitre."""

    def routes(self) -> list[Route]:
        """Return the tools' routes."""
        return [
            Route("/engine-tester", self.engine_tester, methods=["GET", "POST"]),
            Route("/engine-check", self.engine_check, methods=["GET", "POST"]),
        ]

    async def engine_tester(self, request: Request) -> Response:
        """``POST /engine-tester`` (``url``, ``set``, ``turn``, ``tray`` ...): call an engine
        in tester mode (empty Referee) and show the request sent and the Value it answered;
        400 with the error for a bad URL, Set or Turn. ``GET``: the form (filled from the
        query), no call."""
        q = await _fields(request)
        context: dict[str, Any] = {
            "sets": [s.name for s in self.arbitre.playable()],
            "q": dict(q.items()),
            "result": None,
            "error": "",
        }
        url = q.get("url", "").strip()
        if not url or request.method != "POST":
            return self.html("arbitre/tester.html", **context)
        interface = await self.arbitre.find_set(q.get("set", ""))
        rules = interface.arbitre if interface else None
        try:
            url = check_engine_url(url, self.arbitre.outbound)
            if rules is None:
                raise ValueError("choose a Set the Arbitre plays")
            turn = read_int(q.get("turn"), 1, "Turn")
        except (ValueError, GameError) as refused:
            context["error"] = str(refused)
            return self.html("arbitre/tester.html", 400, **context)
        params: dict[str, str] = {}
        if q.get("form") != "original":
            params["Set"] = rules.engine_set
        params["Game"] = "TEST"
        for name in ("Move1", "Move2", "Gain1", "Gain2"):
            if q.get(name):
                params[name] = q[name]
        params.update({"Turn": str(turn), "MoveId": str(turn), "Referee": ""})
        tray = q.get("tray", "")
        if tray.strip():
            params["Tray"] = tray
        elif turn == 1:
            params.update(first_tray(rules))
        sent = engine_url(url, params)
        status, body, error = await self.arbitre.caller.tester(sent, TESTER_TIMEOUT)
        value = tester_value(body)
        verdict = ""
        if error:
            verdict = error
        elif value:
            verdict = tester_verdict(rules, turn, params, value)
        context["result"] = {
            "sent": sent,
            "status": status,
            "value": value,
            "verdict": verdict,
        }
        return self.html("arbitre/tester.html", **context)

    async def engine_check(self, request: Request) -> Response:
        """``POST /engine-check`` (``url``, ``set``, ``games``): start N games (2 by default,
        1 to 10) of the engine against the built-in random engine, first then second; show
        links to their logs; 400 with the error when a game cannot be made. ``GET``: the
        form (filled from the query), no game."""
        q = await _fields(request)
        url, set_name = q.get("url", "").strip(), q.get("set", "")
        ids: list[str] = []
        error, status = "", 200
        if url and request.method == "POST":
            try:
                count = read_int(q.get("games"), 2, "games")
                if not 1 <= count <= MAX_CHECK_GAMES:
                    raise GameError(f"check with 1 to {MAX_CHECK_GAMES} games")
                options = Options(timeout=read_int(q.get("timeout"), DEFAULT_TIMEOUT, "TimeOut"))
                for n in range(count):
                    engine = SeatSpec("engine", url, "")
                    builtin = SeatSpec("builtin", "random", "random")
                    seats = [engine, builtin] if n % 2 == 0 else [builtin, engine]
                    ids.append(await self.arbitre.create(set_name, seats, options))
            except (GameError, ValueError) as refused:
                ids, error, status = [], str(refused), 400
        return self.html(
            "arbitre/check.html",
            status,
            sets=[s.name for s in self.arbitre.playable()],
            q=dict(q.items()),
            games=ids,
            error=error,
        )


async def _fields(request: Request) -> dict[str, str]:
    """Return a tool's fields: the query's on a ``GET``, the form's on a ``POST`` (the
    first of each name); a form too large is read as empty."""
    if request.method != "POST":
        return dict(request.query_params.items())
    try:
        pairs = await read_form(request)
    except GameError:
        return {}
    return {name: value for name, value in reversed(pairs)}


def tester_value(body: bytes) -> str:
    """Return the Value the tester reads from an engine's answer: its first line,
    stripped, at most :data:`MAX_TESTER_VALUE` characters (the rest of the body is never
    shown: the tester is no window on what a URL answers)."""
    text = body.decode("utf-8", "replace").strip()
    first = text.splitlines()[0].strip() if text else ""
    return first[:MAX_TESTER_VALUE]


def tester_verdict(rules: ArbitreRules, turn: int, params: Mapping[str, str], value: str) -> str:
    """Say whether ``value`` is legal for the context the tester sent, when the rules can
    tell from the first move (other positions are not rebuilt from a Tray)."""
    state = rules.start().state
    if turn != 1 or rules.asked(state) == ():
        return "value received (legality is checked from Turn 1's position only)"
    player = rules.asked(state)[0]
    try:
        rules.engine_value(state, Player(player), value.upper())
    except IllegalMove as illegal:
        return f"illegal at Turn 1: {illegal}"
    return "legal at Turn 1"


def first_tray(rules: ArbitreRules) -> dict[str, str]:
    """Return the ``Tray`` the Arbitre sends a Set's first player at Turn 1 (``Init`` for
    most, decision 14), or nothing for a Set that sends none (Rochambeau): what the tester
    sends when its Tray is left empty, so that an engine is first tried on the call it
    will get first."""
    start = rules.start(rules.levels[0])
    tray = rules.request(start.state, Player.ONE).params.get("Tray")
    return {} if tray is None else {"Tray": tray}
