"""The tester: a host page at ``/`` that embeds any Set as the Arbitre does, and its API
(``POST /tester/<set>/new`` and ``/play``) that plays hot-seat games with the Set's rules
(``{"error"}`` for anything else: 404 no such Set, 400 a body or state it cannot read)."""

from __future__ import annotations

import jinja2
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tournoyons_gui.arbitre.match import GameError
from tournoyons_gui.arbitre.web.bodies import parse
from tournoyons_gui.arbitre.web.common import read_body, refusal
from tournoyons_gui.arbitre.web.served_bodies import TesterPlay
from tournoyons_gui.interfaces.plugin import IllegalMove, Turn, seat_count
from tournoyons_gui.interfaces.registry import Registry
from tournoyons_gui.server.http import make_page, respond

__all__ = ["MAX_STATE", "Tester"]

#: The largest body of a tester's move (a Tarot game's state is the longest, a few KiB).
MAX_STATE = 256 * 1024


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

    async def new(self, request: Request) -> Response:
        """``POST /tester/<set>/new``: a new hot-seat game's first context from the Set's
        rules (no body read); 404 for a Set without rules."""
        interface = self.registry.get(request.path_params["set"])
        if interface is None or interface.rules is None:
            return JSONResponse({"error": "this Set has no rules"}, 404)
        return self._answer(interface.rules.new_game())

    async def play(self, request: Request) -> Response:
        """``POST /tester/<set>/play`` with JSON ``{"state": {...}, "value": "..."}``
        (:class:`~tournoyons_gui.arbitre.web.served_bodies.TesterPlay`): the next context. 404
        for a Set without rules, 400 for an unreadable body or state, 422 (with the rules'
        reason) for an illegal move."""
        interface = self.registry.get(request.path_params["set"])
        if interface is None or interface.rules is None:
            return JSONResponse({"error": "this Set has no rules"}, 404)
        try:
            body = parse(TesterPlay, await read_body(request, MAX_STATE))
            turn = interface.rules.play(body.state, body.value)
        except IllegalMove as refused:
            return JSONResponse({"error": str(refused)[:300]}, 422)
        except GameError as refused:
            return refusal(refused)
        except (ValueError, TypeError, LookupError, AttributeError) as broken:
            # A state the rules cannot read (the page sends back the state it was given:
            # anything else is forged or broken).
            return JSONResponse({"error": f"unreadable state: {str(broken)[:200]}"}, 400)
        return self._answer(turn)

    @staticmethod
    def _answer(turn: Turn) -> Response:
        return JSONResponse(
            {"state": dict(turn.state), "params": dict(turn.params), "over": turn.over}
        )
