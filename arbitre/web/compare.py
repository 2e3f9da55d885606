"""One game through two interfaces side by side ("compare the interfaces in
competition", seed 002 I).

``GET /games/<id>/compare?a=<interface id>&b=<interface id>[&move=N]``: two 736x660
frames, each given exactly the query our own page gets for a spectator at that position
(:func:`~tournoyons_gui.arbitre.web.pages.position_query`), and one set of controls
(first, previous, slider, next, last; the arrow, Home and End keys with
``arbitre/static/compare.js``) that steps both. Without JavaScript every control is a
plain link. ``a`` defaults to ours, ``b`` to the first registered interface of the Set.
A frame of a page not this server's is sandboxed, as on the game page (decision 26).
"""

from __future__ import annotations

import urllib.parse

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tournoyons_gui.arbitre.web.common import Part
from tournoyons_gui.arbitre.web.pages import is_outside, load_position, position_query

__all__ = ["Compare"]


class Compare(Part):
    """The compare page (see the module)."""

    def routes(self) -> list[Route]:
        """Return the page's route."""
        return [Route("/games/{game_id}/compare", self.compare)]

    async def compare(self, request: Request) -> Response:
        """``GET /games/<id>/compare?a=&b=[&move=N]``: the game through two interfaces."""
        position = await load_position(self.arbitre, request)
        if position is None:
            return self.html("arbitre/missing.html", 404)
        game, seats, _, number, played = position
        interfaces = self.arbitre.interfaces
        choices = await interfaces.for_set(played)
        wanted_b = request.query_params.get("b") or (choices[1].id if len(choices) > 1 else "")
        a = await interfaces.choose(played, request.query_params.get("a"))
        b = await interfaces.choose(played, wanted_b)
        query, _ = await position_query(self.arbitre, position, [])

        def link(move: int) -> str:
            return "?" + urllib.parse.urlencode({"a": a.id, "b": b.id, "move": str(move)})

        return self.html(
            "arbitre/compare.html",
            game=game,
            seats=seats,
            number=number,
            # A page not this server's runs sandboxed, as on the game page (decision 26).
            frames=[(c, c.frame(query), is_outside(c, played)) for c in (a, b)],
            choices=choices,
            link=link,
            config={"id": game.id, "moves": game.moves, "number": number, "a": a.id, "b": b.id},
        )
