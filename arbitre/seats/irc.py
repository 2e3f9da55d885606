"""A player of a timi room as a seat (``timi-rooms.md``): a nick in an IRC channel,
asked through the room's session held by this worker
(:class:`~tournoyons_gui.arbitre.rooms.session.RoomSession`).

``ask`` broadcasts ``play <nick> <seconds>`` in the room and waits for that player's
``play <column>`` within the think time (the match's ``TimeOut``), counted from the line's
writing to the chat server plus the server's lag (the session's clock, not the
deadline the game master computes when it asks); the room's referee
sends the ``end`` line once the game is over. The seat's ``url`` is the room's channel,
its name the nick. Its games cannot be taken over by another worker (the IRC session dies
with its driver): such a game ends as ``server error``.
"""

from __future__ import annotations

from tournoyons_gui.arbitre.answer import ABORTED, UNRESUMED, Answer
from tournoyons_gui.arbitre.catalogue import PlayedSet
from tournoyons_gui.arbitre.match import SeatSpec
from tournoyons_gui.arbitre.seats.base import Position, SeatKind
from tournoyons_gui.interfaces.plugin import IllegalMove

__all__ = ["TIMI_SET", "IrcSeat"]

#: The one game timi rooms play (seed 004: "Puissance 4 en réseau").
TIMI_SET = "ConnectFour"


class IrcSeat(SeatKind):
    """A timi room's player: ``SeatSpec.engine`` the room's channel, its name the nick."""

    name = "irc"
    label = "IRC player"
    bound = True
    exports = "url"  # the record shows the room's channel

    def check(self, spec: SeatSpec, interface: PlayedSet, number: int) -> SeatSpec:
        """Return the seat as given; refuse another Set than ConnectFour, no nick, and a
        player its room's referee in this process is not seating now (rooms seat their
        players themselves: such a seat asked for through ``POST /api/games`` or the form
        is refused, not ended at once)."""
        if interface.name != TIMI_SET:
            raise self.refuse(number, f"timi rooms play {TIMI_SET}, not {interface.name}")
        if not spec.name or not spec.engine:
            raise self.refuse(number, "an IRC player has a nick and a room")
        seated = self.services.seating.get(spec.engine.casefold(), ())
        if spec.name.casefold() not in {nick.casefold() for nick in seated}:
            raise self.refuse(
                number, "an IRC player is seated by its room's referee: join a room (/rooms)"
            )
        return SeatSpec(self.name, spec.engine, spec.name)

    async def ask(self, position: Position, deadline: float | None) -> Answer:
        """Ask the player through its room's session; a game whose room is not held here
        (its session is gone) ends with no result."""
        session = self.services.sessions.get(position.game.id)
        if session is None:
            return Answer.failure(ABORTED, UNRESUMED)
        return await session.ask(position, deadline)

    def value(self, position: Position, value: str) -> str:
        """Return the column letter when the rules take it; else tell the room (its
        player made an illegal move) and raise :class:`IllegalMove`."""
        try:
            return position.rules.engine_value(position.turn.state, position.player, value)
        except IllegalMove as illegal:
            session = self.services.sessions.get(position.game.id)
            if session is not None:
                session.refused(position, str(illegal))
            raise
