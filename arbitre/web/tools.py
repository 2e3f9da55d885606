"""The tools for engine authors: call an engine once in tester mode, or check it in whole
games against the built-in random engine.

Routes:

- ``GET /engine-tester?url=..&set=..&Turn=..&Tray=..``: call an engine in tester mode
  (engine protocol section 5: empty ``Referee``, the answer is the value) and show the
  request sent, the body answered and whether the value is legal.
- ``GET /engine-check?url=..&set=..&games=N``: play it against the built-in random
  engine, first and second, and link the games' logs (what was wrong).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tournoyons_gui.arbitre.match import DEFAULT_TIMEOUT, GameError, Options, SeatSpec
from tournoyons_gui.arbitre.urls import check_engine_url, engine_url
from tournoyons_gui.arbitre.web.common import Part, read_int
from tournoyons_gui.interfaces.plugin import ArbitreRules, IllegalMove
from tournoyons_gui.interfaces.protocol import Player

__all__ = ["MAX_CHECK_GAMES", "Tools", "tester_verdict"]

#: The most games one engine check starts.
MAX_CHECK_GAMES = 10
#: How long the tester waits for the engine's answer (seconds).
TESTER_TIMEOUT = 20


class Tools(Part):
    """The engine tester and the engine check (see the module); ``holder()`` returns the
    running Arbitre."""

    def routes(self) -> list[Route]:
        """Return the tools' routes."""
        return [
            Route("/engine-tester", self.engine_tester),
            Route("/engine-check", self.engine_check),
        ]

    async def engine_tester(self, request: Request) -> Response:
        """``GET /engine-tester?url=..&set=..&Turn=..&Tray=..``: call an engine in tester mode
        (empty Referee) and show the request sent and the body it answered, as text; 400
        with the error for a bad URL, Set or Turn."""
        q = request.query_params
        context: dict[str, Any] = {
            "sets": [s.name for s in self.arbitre.playable()],
            "q": dict(q.items()),
            "result": None,
            "error": "",
        }
        url = q.get("url", "").strip()
        if not url:
            return self.html("arbitre/tester.html", **context)
        interface = await self.arbitre.find_set(q.get("set", ""))
        rules = interface.arbitre if interface else None
        try:
            url = check_engine_url(url, self.arbitre.engine_hosts)
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
        if "tray" in q:
            params["Tray"] = q["tray"]
        sent = engine_url(url, params)
        status, body, error = await self.arbitre.caller.tester(sent, TESTER_TIMEOUT)
        value = body.decode("utf-8", "replace").strip()
        verdict = ""
        if error:
            verdict = error
        elif value:
            verdict = tester_verdict(rules, turn, params, value)
        context["result"] = {
            "sent": sent,
            "status": status,
            "body": body.decode("utf-8", "replace"),
            "value": value,
            "verdict": verdict,
        }
        return self.html("arbitre/tester.html", **context)

    async def engine_check(self, request: Request) -> Response:
        """``GET /engine-check?url=..&set=..&games=N``: start N games (2 by default, 1 to
        10) of the engine against the built-in random engine, first then second; show
        links to their logs; 400 with the error when a game cannot be made."""
        q = request.query_params
        url, set_name = q.get("url", "").strip(), q.get("set", "")
        ids: list[str] = []
        error, status = "", 200
        if url:
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
