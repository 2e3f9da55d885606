"""The tester: a host page at ``/`` that embeds any Set as the Arbitre does, and its API
(``POST /tester/<set>/new`` and ``/play``) that plays hot-seat games with the Set's rules."""

from __future__ import annotations

import json

import jinja2
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tournoyons_gui.interfaces.plugin import IllegalMove, Turn, seat_count
from tournoyons_gui.interfaces.registry import Registry
from tournoyons_gui.server.http import make_page, respond

__all__ = ["Tester"]


class Tester:
    """The tester's page and API over the Sets of ``registry``, rendered with ``env``."""

    __test__ = False  # not a test class for pytest, whatever its name says

    def __init__(self, registry: Registry, env: jinja2.Environment) -> None:
        self.registry = registry
        self.env = env

    def page(self, request: Request) -> Response:
        """The host page that embeds interfaces and plays hot-seat games with their rules.

        Its JSON context lists each Set's name, key, whether it has rules, its seats (2, or
        4 for Tarot: the form then shows the parameters of seats 3 and 4, and a hot-seat
        game hides each hand until its player asks to see it), its Methods and its sample
        query; answered ``no-cache`` with an ETag (304 when held).
        """
        sets = [
            {
                "name": s.name,
                "key": s.key,
                "rules": s.rules is not None,
                "seats": seat_count(s.rules),
                "methods": sorted(m.value for m in s.methods),
                "sample": dict(s.sample),
            }
            for s in self.registry
        ]
        seats = max((int(str(s["seats"])) for s in sets), default=2)
        body = self.env.get_template("tester.html").render(
            sets=sets, seats=range(1, seats + 1), config={"sets": sets}
        )
        return respond(request, make_page(body.encode()), "no-cache")

    async def turn(self, request: Request) -> Response:
        """``POST /tester/<set>/new`` or ``/play``: the next context from the Set's rules.

        ``new`` starts a game; ``play`` takes JSON ``{"state": {...}, "value": "..."}``.
        Answers ``{"state", "params", "over"}``; 404 for a Set without rules or another
        action, 400 for an unreadable body, 422 (with the rules' reason) for an illegal move.
        """
        interface = self.registry.get(request.path_params["set"])
        action = request.path_params["action"]
        if interface is None or interface.rules is None or action not in ("new", "play"):
            return JSONResponse({"error": "this Set has no rules"}, 404)
        try:
            turn: Turn
            if action == "new":
                turn = interface.rules.new_game()
            else:
                data = json.loads(await request.body() or b"{}")
                state, value = data.get("state"), data.get("value")
                if not isinstance(state, dict) or not isinstance(value, str):
                    return JSONResponse({"error": "send {state: {...}, value: '...'}"}, 400)
                turn = interface.rules.play(state, value)
        except IllegalMove as refused:
            return JSONResponse({"error": str(refused)}, 422)
        except (ValueError, TypeError) as broken:
            return JSONResponse({"error": f"unreadable request: {broken}"}, 400)
        return JSONResponse(
            {"state": dict(turn.state), "params": dict(turn.params), "over": turn.over}
        )
