"""A person as a seat (engine protocol section 3.1, decision 24): asked through the Set's
own page, which returns the value to ``/play/<seat token>/<move number>``.

The ask is recorded in the store, so that the page's return reaches whichever worker
serves it (:meth:`~tournoyons_gui.arbitre.asks.Asks.person_move` checks the value against
the game's position and records the first one); watchers are told who is asked. A person
has :data:`~tournoyons_gui.arbitre.match.DEFAULT_PERSON_TIMEOUT` seconds for a move unless
the match gives another limit (``person_timeout``); past it the seat has abandoned the
game, which ends so.
"""

from __future__ import annotations

import asyncio
import time

from tournoyons_gui.arbitre.answer import Answer
from tournoyons_gui.arbitre.asks import POLL_EVERY, PersonCheck
from tournoyons_gui.arbitre.match import Options
from tournoyons_gui.arbitre.seats.base import Position, SeatKind

__all__ = ["PersonSeat"]


class PersonSeat(SeatKind):
    """A person playing through the Set's page with the seat's token."""

    name = "person"
    through_pages = True
    label = "Person"
    title = "Person (this browser)"

    def time_limit(self, options: Options) -> float | None:
        """Return the match's limit for a person's move (``None``: none, section 3.1)."""
        return None if options.person_timeout is None else float(options.person_timeout)

    def value(self, position: Position, value: str) -> str:
        """Return the rules' value for a person's ``ReturnValue`` (decision 24)."""
        return position.rules.person_value(position.turn.state, position.player, value)

    async def ask(self, position: Position, deadline: float | None) -> Answer:
        """Ask the person (the page shows the ask to the seat's token) and wait for the
        move until ``deadline``; a move recorded by another worker counts."""
        asks, seat, number = self.services.asks, position.seat, position.number
        started = time.monotonic()
        move_id = str(number)
        limit = None if deadline is None else deadline - started
        received = await asks.open(
            seat.token, move_id, position.game.id, seat.index, limit, stored=True
        )
        if received is not None:
            return Answer(received.value)  # moved before this worker took the game over
        check = PersonCheck(position.rules, position.turn.state, position.player)
        future = asks.expect(seat.token, move_id, position.game.id, seat.index, check)
        await self.services.hub.publish(
            position.game.id, {"moves": number - 1, "over": False, "asked": seat.index}
        )
        try:
            while not future.done():
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    break
                if not self.services.shared:
                    await asyncio.wait({future}, timeout=left)
                    continue
                await asyncio.wait({future}, timeout=min(left or POLL_EVERY, POLL_EVERY))
                found = None if future.done() else await asks.read(seat.token, move_id)
                if found is not None and not future.done():
                    future.set_result(found)
            if not future.done():
                found = await asks.read(seat.token, move_id)  # taken in time, whoever took it
                if found is not None:
                    future.set_result(found)
            ms = int((time.monotonic() - started) * 1000)
            if not future.done() or future.cancelled():
                return Answer.failure(
                    "late", f"abandoned: no move within {position.options.person_timeout} s", ms
                )
            return Answer(future.result().value, ms=ms)
        finally:
            asks.forget(seat.token, move_id)
