"""MaitreTarot clients as seats (seed 001; ``docs/reference/tarot.md`` section 4): a seat
of a Tarot game played by a client connected to this process's MaitreTarot server.

The seat's ``engine`` field is the client's address once one holds the seat, empty for a
seat left to a client when the game was made from the web or the API: its first ask opens
a table in the lobby (:class:`~tournoyons_gui.arbitre.maitretarot.lobby.Lobby`) for the
game's places of this kind and waits :data:`JOIN_SECONDS` for clients to fill them. Each
ask waits for the table (:class:`~tournoyons_gui.arbitre.maitretarot.table.Table`) to get
the client's answer: the table itself bounds it (the match's TimeOut per answer,
:data:`~tournoyons_gui.arbitre.maitretarot.table.TRIES` tries). The clients are connected
to this process, so their game is bound to it (``bound = True``): made, leased and
driven by the process holding the MaitreTarot listener alone, and ended with no result
when taken over after that process died.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tournoyons_gui.arbitre.answer import ABORTED, Answer
from tournoyons_gui.arbitre.catalogue import PlayedSet
from tournoyons_gui.arbitre.match import Options, SeatSpec
from tournoyons_gui.arbitre.seats.base import Position, SeatKind, Services
from tournoyons_gui.arbitre.store import Seat
from tournoyons_gui.arbitre.turns import turn_from
from tournoyons_gui.interfaces.plugin import ArbitreRules, seat_count

if TYPE_CHECKING:  # the MaitreTarot server is loaded when a table is played
    from tournoyons_gui.arbitre.maitretarot.course import Course
    from tournoyons_gui.arbitre.maitretarot.lobby import Lobby, Opening
    from tournoyons_gui.arbitre.maitretarot.peer import Peer

__all__ = ["JOIN_SECONDS", "MaitreTarotSeat"]

#: Seconds a game made from the web waits for its MaitreTarot clients to connect.
JOIN_SECONDS = 600.0
#: Seconds an ask waits for the table of a game whose clients are being seated.
ATTACH_SECONDS = 10.0
#: The Set MaitreTarot clients play (its engines' ``Set``).
TAROT = "Tarot"


class MaitreTarotSeat(SeatKind):
    """A MaitreTarot client at a Tarot table of this process."""

    name = "maitretarot"
    label = "MaitreTarot"
    bound = True
    title = "MaitreTarot client"
    exports = "url"  # the client's address

    def __init__(self, services: Services) -> None:
        super().__init__(services)
        #: The tables in play, by game id.
        self.courses: dict[str, Course] = {}
        #: Where clients come in, and Tarot's rules (set by the MaitreTarot server when it
        #: listens).
        self.lobby: Lobby | None = None
        self.rules: ArbitreRules | None = None
        self._attached: dict[str, asyncio.Event] = {}

    def check(self, spec: SeatSpec, interface: PlayedSet, number: int) -> SeatSpec:
        """Return the seat named (``MaitreTarot N`` by default); refuse another Set than
        Tarot."""
        rules = interface.arbitre
        if rules is None or rules.engine_set != TAROT or seat_count(rules) != 4:
            raise self.refuse(number, "MaitreTarot clients play Tarot")
        return SeatSpec(self.name, spec.engine[:60], spec.name or f"{self.label} {number}")

    def time_limit(self, options: Options) -> float | None:
        """Return no limit: the table bounds each answer itself (TimeOut, tries), and a
        game made from the web waits :data:`JOIN_SECONDS` for its clients."""
        del options
        return None

    async def ask(self, position: Position, deadline: float | None) -> Answer:
        """Return the answer of the client holding the seat, through its table."""
        del deadline
        game_id = position.game.id
        course = self.courses.get(game_id)
        if course is None:
            course = await self._course(position)
            if course is None:
                if position.seat.url:
                    why = "no MaitreTarot client holds this seat in this process"
                elif self.lobby is None:
                    why = "this server takes no MaitreTarot clients (serve --maitretarot)"
                else:
                    why = f"no MaitreTarot client came within {JOIN_SECONDS:g} s"
                    return Answer.failure("unreachable", why)
                # Not the player's fault: the game ends with no result.
                return Answer.failure(ABORTED, why)
        from tournoyons_gui.arbitre.maitretarot.peer import SEND_SECONDS
        from tournoyons_gui.arbitre.maitretarot.table import TRIES

        limit = TRIES * position.options.timeout + SEND_SECONDS + ATTACH_SECONDS
        return await course.ask(position.seat.index, limit)

    async def _course(self, position: Position) -> Course | None:
        """Return the game's table once it is there: being attached (a client holds the
        seat) or, for a game made elsewhere, once clients filled its places."""
        game_id = position.game.id
        attached = self._attached.setdefault(game_id, asyncio.Event())
        wait = ATTACH_SECONDS
        if not position.seat.url:
            if self.lobby is None:
                return None
            if not any(o.tag == game_id for o in self.lobby.openings):
                self.lobby.open(self._opening(position))
            wait = JOIN_SECONDS
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(attached.wait(), wait)
        finally:
            if game_id not in self.courses and self.lobby is not None:
                # Nobody waits for this table any more (no client came in time, or the
                # game was cancelled): a client coming later is not seated at it.
                await self.lobby.withdraw(game_id)
        return self.courses.get(game_id)

    def _opening(self, position: Position) -> Opening:
        """Return the lobby's table for the game of ``position``, made elsewhere."""
        return self._opening_of(position.game.id, position.seats, position.rules, position.options)

    def _opening_of(
        self, game_id: str, seats: Sequence[Seat], rules: ArbitreRules, options: Options
    ) -> Opening:
        """Return the lobby's table for a game made elsewhere: its places of this kind
        without a client, the others' names."""
        from tournoyons_gui.arbitre.maitretarot.lobby import Opening

        places = [s.index for s in seats if s.kind == self.name and not s.url]
        names = {s.index: s.name for s in seats}

        async def start(opening: Opening, peers: dict[int, Peer], nicks: list[str]) -> None:
            del opening, nicks
            await self.run_table(game_id, rules, peers, options.timeout)

        return Opening(places, names, start, tag=game_id)

    async def open_waiting(self) -> None:
        """Open a table in the lobby for every game in play made elsewhere whose seats
        of this kind wait for clients and have none yet (a client may come before the
        game first asks such a seat); ``rules`` are Tarot's."""
        lobby, rules, store = self.lobby, self.rules, self.services.store
        if lobby is None or rules is None:
            return
        opened = {o.tag for o in lobby.openings}
        for game_id in await store.playing():
            if game_id in self.courses or game_id in opened:
                continue
            found = await store.game(game_id)
            if found is None:
                continue
            game, seats = found
            if game.holder not in (None, self.services.worker) or game.lease_owner not in (
                None,
                self.services.worker,
            ):
                continue  # another process seats its clients (its driver, or its holder)
            if any(s.kind == self.name and not s.url for s in seats):
                options = Options.from_json(game.options)
                lobby.open(self._opening_of(game_id, seats, rules, options))

    async def run_table(
        self,
        game_id: str,
        rules: ArbitreRules,
        peers: dict[int, Peer],
        timeout: float,
    ) -> None:
        """Play the table of ``game_id`` with its clients ``peers`` (by place) until it
        ends; the game's seats of this kind are asked through it."""
        from tournoyons_gui.arbitre.maitretarot.course import Course
        from tournoyons_gui.arbitre.maitretarot.table import Table

        attached = self._attached.setdefault(game_id, asyncio.Event())
        services = self.services
        found = await services.store.game(game_id)
        held = found is not None and found[0].status == "playing"
        if found is not None and held and found[0].holder != services.worker:
            # A game made from the web: its clients are this process's from now on.
            held = await services.store.hold(game_id, services.worker)
        if found is None or not held:
            for peer in peers.values():
                await peer.close()
            return
        first = turn_from(found[0].first)
        course = Course(services.store, services.hub, game_id, rules, first.state, set(peers))
        for place, peer in peers.items():
            peer.log = course.logger(place)
        self.courses[game_id] = course
        attached.set()
        try:
            await Table(peers, course, timeout).run()
        finally:
            await course.close()
            self.courses.pop(game_id, None)
            self._attached.pop(game_id, None)


def addresses(peers: Sequence[Peer]) -> list[str]:
    """Return each peer's address as ``host:port``."""
    found = []
    for peer in peers:
        name = peer.writer.get_extra_info("peername")
        found.append(f"{name[0]}:{name[1]}" if isinstance(name, tuple) else "connected")
    return found
