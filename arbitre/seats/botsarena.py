"""botsarena's JSON bots as seats (seed 003; engine protocol section 4): a bot at its URL,
in a Set that says how it speaks to bots (:class:`~tournoyons_gui.interfaces.plugin.Botsarena`,
ConnectFour). The bot is greeted with ``init`` when the seat has no move recorded yet
(told by the records, so that a game taken over or resumed does not greet it again; read
once per seat, then remembered while the game is driven here), then asked ``play-turn``
within the match's bot limit (10 s by default), over kept connections. A bot has no
final call (seed 003).
"""

from __future__ import annotations

from collections import OrderedDict

from tournoyons_gui.arbitre.answer import Answer
from tournoyons_gui.arbitre.botsarena import BotCaller
from tournoyons_gui.arbitre.catalogue import PlayedSet
from tournoyons_gui.arbitre.match import Options, SeatSpec
from tournoyons_gui.arbitre.seats.base import Position, SeatKind, Services

__all__ = ["GREETED_KEPT", "BotsarenaSeat"]

#: The seats (game, seat index) remembered as greeted; one forgotten is read again from the
#: records (whether it has a move), never greeted twice.
GREETED_KEPT = 10_000


class BotsarenaSeat(SeatKind):
    """A botsarena bot at its URL (``SeatSpec.engine``)."""

    name = "botsarena"
    label = "bot"
    exports = "url"
    title = "botsarena bot URL"
    field = "url"

    def __init__(self, services: Services) -> None:
        super().__init__(services)
        self.bots = BotCaller(services.keepalive_client)
        self._greeted: OrderedDict[tuple[str, int], None] = OrderedDict()

    def check(self, spec: SeatSpec, interface: PlayedSet, number: int) -> SeatSpec:
        """Return the seat with its URL checked and named after its host; refuse a Set
        that has no botsarena bots."""
        if interface.botsarena is None:
            raise self.refuse(number, f"{interface.name} has no botsarena bots")
        return self.checked_url(spec, number)

    def time_limit(self, options: Options) -> float | None:
        """Return the match's limit for a bot's answer (``bot_timeout``; the Arbitre's own
        ``move_time`` when shorter)."""
        return options.limited(float(options.bot_timeout))

    async def ask(self, position: Position, deadline: float | None) -> Answer:
        """Post ``init`` (first move of the seat) then ``play-turn``; read ``play``."""
        bots = position.interface.botsarena
        if bots is None:
            return Answer.failure("illegal", f"{position.interface.name} has no botsarena bots")
        timeout = self.seconds_left(deadline, position.options)
        request = position.rules.request(
            position.turn.state, position.player, init_as_board=position.options.init_as_board
        )
        seat = position.seat
        greeted = (position.game.id, seat.index)
        init = greeted not in self._greeted and not await self.services.store.has_moved(
            position.game.id, seat.index
        )
        answer = await self.bots.ask(
            seat.url, bots, request.params, seat.key, position.player, timeout, init=init
        )
        self._greeted[greeted] = None
        self._greeted.move_to_end(greeted)
        while len(self._greeted) > GREETED_KEPT:
            self._greeted.popitem(last=False)
        return answer
