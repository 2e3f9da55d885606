"""The returns: where engines and persons answer the Arbitre's asks. Each goes to
:class:`~tournoyons_gui.arbitre.asks.Asks` (web -> asks -> store), its query read by the
one reader of the engine protocol (:func:`~tournoyons_gui.arbitre.query.read_query`:
names case-insensitive, the first occurrence wins, decision 5).

Routes:

- ``GET /referee?Game=..&MoveId=..&Value=..``: an engine's callback (engine protocol
  2.2): 200 ``OK`` when it answers an outstanding request, 404 else (decision 9), 414
  for a query over 8 KiB.
- ``GET /play/<token>/<n>?ReturnValue=V``: a person's move, from the Set page's
  ``URLReturn`` (decision 24).
- ``GET /play/once/<game>/<seat>/<n>/<mac>?ReturnValue=V``: a person's move from an
  added game's outside page (decision 26): good for move ``n`` of that seat
  only (``mac``: :func:`once_mac`), so the outside page never holds the seat's token.
- ``GET /added/return``: the ``ReturnURL`` given to added games' referees (decision 26).
"""

from __future__ import annotations

import hashlib
import hmac

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from tournoyons_gui.arbitre.calls import MAX_CALLBACK_QUERY
from tournoyons_gui.arbitre.query import QueryTooLong, read_query
from tournoyons_gui.arbitre.web.common import Part

__all__ = ["Returns", "once_mac", "once_url"]


def once_mac(token: str, game_id: str, seat: int, number: int) -> str:
    """Return the proof that a return URL is good for move ``number`` of seat ``seat`` of
    ``game_id``: an HMAC-SHA256 keyed with the seat's token, 32 hex digits."""
    message = f"{game_id}/{seat}/{number}".encode()
    return hmac.new(token.encode(), message, hashlib.sha256).hexdigest()[:32]


def once_url(public_url: str, token: str, game_id: str, seat: int, number: int) -> str:
    """Return the ``URLReturn`` an outside page gets for one move of one seat."""
    mac = once_mac(token, game_id, seat, number)
    return f"{public_url}/play/once/{game_id}/{seat}/{number}/{mac}"


class Returns(Part):
    """The engines' and persons' returns (see the module); ``holder()`` returns the
    running Arbitre."""

    def routes(self) -> list[Route]:
        """Return the returns' routes."""
        return [
            Route("/referee", self.referee),
            Route("/added/return", self.added_return),
            Route("/play/{token}/{number:int}", self.person_return),
            Route("/play/once/{game_id}/{seat:int}/{number:int}/{mac}", self.once_return),
        ]

    async def referee(self, request: Request) -> Response:
        """``GET /referee?Game=..&MoveId=..&Value=..``: an engine's callback
        (:meth:`callback`)."""
        status, text = await self.callback(request.scope["query_string"])
        return PlainTextResponse(text, status)

    async def callback(self, query: bytes) -> tuple[int, str]:
        """Take the callback ``GET /referee?<query>`` (the HTTP status and the text): 200
        ``OK`` when it answers an outstanding request, else 404 (decision 9); 414 past 8
        KiB of query."""
        try:
            params = read_query(query, MAX_CALLBACK_QUERY)
        except QueryTooLong:
            return 414, "query too long"
        if await self.arbitre.asks.callback(params, query.decode("latin-1")):
            return 200, "OK"
        return 404, "no such request"

    async def person_return(self, request: Request) -> Response:
        """``GET /play/<token>/<n>?ReturnValue=V``: a person's move; the page says whether
        it was taken (200), not asked now (404) or not legal (422)."""
        params = read_query(request.scope["query_string"])
        status, note = await self.arbitre.asks.person_move(
            request.path_params["token"],
            request.path_params["number"],
            params.get("returnvalue", ""),
        )
        return self.html("arbitre/returned.html", status, note=note, code=status)

    async def once_return(self, request: Request) -> Response:
        """``GET /play/once/<game>/<seat>/<n>/<mac>?ReturnValue=V``: a person's move ``n``
        from an outside page; 404 unless ``mac`` proves this URL was given for that move
        of that seat, then as ``/play/<token>/<n>``."""
        path = request.path_params
        found = await self.arbitre.store.game(path["game_id"])
        seats = found[1] if found is not None else []
        seat = next((s for s in seats if s.index == path["seat"]), None)
        if seat is None or not hmac.compare_digest(
            once_mac(seat.token, path["game_id"], seat.index, path["number"]), str(path["mac"])
        ):
            return self.html("arbitre/returned.html", 404, note="no such move", code=404)
        params = read_query(request.scope["query_string"])
        status, note = await self.arbitre.asks.person_move(
            seat.token, path["number"], params.get("returnvalue", "")
        )
        return self.html("arbitre/returned.html", status, note=note, code=status)

    async def added_return(self, request: Request) -> Response:
        """``GET /added/return``: the ``ReturnURL`` given to added games' referees. The
        Arbitre reads the return from the referee's own answer (decision 26); a frame that
        lands here is told so."""
        note = "the referee's return is read by the Arbitre from the referee's answer"
        return self.html("arbitre/returned.html", note=note, code=200)
