"""``GET /rooms``: the timi rooms open now (``timi-rooms.md``), who is in each (the players,
then the spectators, as the worker holding the room wrote them when they last changed),
its referee and whether the referee is the room's operator, and a link to the game in
play; the rooms of every worker of the database."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tournoyons_gui.arbitre.web.common import Part

__all__ = ["RoomPages"]


class RoomPages(Part):
    """The rooms' page."""

    def routes(self) -> list[Route]:
        """Return ``/rooms``."""
        return [Route("/rooms", self.rooms)]

    async def rooms(self, request: Request) -> Response:
        """The open rooms, by name."""
        del request
        found = await self.arbitre.store.open_rooms()
        rooms = [room for room, _ in found]
        games = {room.channel: game for room, game in found if game is not None}
        return self.html("arbitre/rooms.html", rooms=rooms, games=games)
