"""A Tarot game of the Arbitre as a MaitreTarot table follows it: the
:class:`~tournoyons_gui.arbitre.maitretarot.table.TableGame` of one recorded game.

The table reads the game move by move from the records (each move's Turn is the Tarot
Set's state, read with :class:`~tournoyons_gui.interfaces.tarot.rules.Game`), woken by the
game's live events, so that it tells its clients every move whoever made it, in order.
The seat kind's asks (:mod:`~tournoyons_gui.arbitre.seats.maitretarot`) and the table
meet here: the table hands a client's value to the ask of its place (:meth:`answer`),
with the messages exchanged with that client since its last answer, for the exchange log.

Between two deals the Tarot rules show the deal scored, the next one dealt unseen
(rules.py, "Between two deals"); a petit sec is dealt again by the rules before anyone
sees it, so the tables never send a petit sec's score (the flow allows it).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from typing import Any

from tournoyons_gui.arbitre.answer import STOPPED, Answer, Note, note
from tournoyons_gui.arbitre.live import Hub
from tournoyons_gui.arbitre.maitretarot.codec import Message
from tournoyons_gui.arbitre.maitretarot.peer import Fault
from tournoyons_gui.arbitre.maitretarot.table import Deal, Move, Score
from tournoyons_gui.arbitre.store import Store
from tournoyons_gui.interfaces.plugin import ArbitreRules, IllegalMove
from tournoyons_gui.interfaces.protocol import Player
from tournoyons_gui.interfaces.tarot.cards import Bid, Phase
from tournoyons_gui.interfaces.tarot.rules import Game, ranks

__all__ = ["POLL_SECONDS", "Course"]

#: Seconds between two looks at the records when no live event came (one may be missed).
POLL_SECONDS = 1.0
#: Messages of one client kept for the log between two of its answers (a bound: a client
#: asked nothing for a whole deal is told about 650).
MAX_NOTES = 5000


class Course:
    """The game ``game_id`` (in ``store``, its live events on ``hub``) played by ``rules``
    from ``state`` (its first Turn's state), followed for a table; ``places`` the places
    its clients hold."""

    def __init__(
        self,
        store: Store,
        hub: Hub,
        game_id: str,
        rules: ArbitreRules,
        state: Mapping[str, Any],
        places: set[int],
    ) -> None:
        self.store = store
        self.hub = hub
        self.game_id = game_id
        self.rules = rules
        self.state: Mapping[str, Any] = state
        self.game = Game.load(state)
        self.places = places
        self.consumed = 0
        self.events = hub.subscribe(game_id)
        self._slots: dict[int, asyncio.Future[Answer]] = {}
        self._notes: dict[int, list[Note]] = {place: [] for place in places}
        #: Set once the table can answer nothing more: the answer every later ask gets.
        self.closed: Answer | None = None
        self._over = False

    # --- the seat kind's side ------------------------------------------------------------

    async def ask(self, place: int, limit: float | None) -> Answer:
        """Return ``place``'s answer, once its client gave it (or failed), within
        ``limit`` seconds."""
        if self.closed is not None:
            return self._closed_answer()
        slot = self._slot(place)
        try:
            return await asyncio.wait_for(asyncio.shield(slot), limit)
        except TimeoutError:
            return Answer.failure("late", f"the table gave no answer within {limit:g} s")
        finally:
            if slot.done():
                self._slots.pop(place, None)

    def _slot(self, place: int) -> asyncio.Future[Answer]:
        slot = self._slots.get(place)
        if slot is None:
            slot = self._slots[place] = asyncio.get_running_loop().create_future()
        return slot

    def _closed_answer(self) -> Answer:
        closed = self.closed
        assert closed is not None
        return Answer(
            None, closed.error, closed.detail, log=[], culprit=closed.culprit, ranks=closed.ranks
        )

    def logger(self, place: int) -> Callable[[str, Message], None]:
        """Return the peer's log for ``place``: each message, decoded, kept for the
        exchange log."""

        def log(direction: str, message: Message) -> None:
            notes = self._notes.setdefault(place, [])
            if len(notes) < MAX_NOTES:
                notes.append(note(direction, str(message)))

        return log

    def _take_notes(self, place: int) -> list[Note]:
        notes, self._notes[place] = self._notes.get(place, []), []
        return notes

    async def close(self) -> None:
        """The table is over: later asks fail, the messages not yet logged are logged."""
        if self.closed is None:
            self.closed = Answer.failure("unreachable", "the MaitreTarot table is closed")
        for slot in self._slots.values():
            if not slot.done():
                slot.set_result(self._closed_answer())
        self.hub.unsubscribe(self.game_id, self.events)
        entries = [(place, *entry) for place in self._notes for entry in self._take_notes(place)]
        if entries:
            with contextlib.suppress(Exception):
                await self.store.log_many(self.game_id, entries)

    # --- the table's side (TableGame) ----------------------------------------------------

    def dealt(self) -> Deal:
        """Return the deal in play (the next one's, between two deals)."""
        game = self.game
        if game.phase is Phase.SCORED and not game.over:
            game = game.advanced()
        return Deal(game.deal, game.hands, game.dog)

    def asked(self) -> int | None:
        """Return the place asked now."""
        seat = self.game.to_act()
        return seat - 1 if seat else None

    def refuse(self, place: int, value: str) -> str:
        """Return why the Tarot rules refuse ``value`` from ``place`` now."""
        try:
            self.rules.engine_value(self.state, Player(place + 1), value)
        except IllegalMove as illegal:
            return str(illegal) or "illegal"
        return ""

    async def answer(self, place: int, value: str) -> None:
        """Give ``place``'s ask the client's ``value``."""
        slot = self._slot(place)
        if not slot.done():
            slot.set_result(Answer(value, log=self._take_notes(place)))

    async def fail(self, place: int, fault: Fault) -> None:
        """``place``'s client failed: its ask, and every ask after, fails naming it."""
        failed = Answer.failure(
            fault.error, fault.detail, log=self._take_notes(place), culprit=place
        )
        self.closed = failed
        for slot in self._slots.values():
            if not slot.done():
                slot.set_result(self._closed_answer())
        own = self._slot(place)
        if not own.done():
            own.set_result(failed)

    async def stop(self, place: int) -> None:
        """``place``'s client answered 0 to the replay question: the match ends with the
        totals as they stand."""
        why = f"place {place + 1} answered 0 to the replay question"
        self.closed = Answer(None, STOPPED, why, ranks=ranks(self.game.totals))
        for slot in self._slots.values():
            if not slot.done():
                slot.set_result(self._closed_answer())

    async def next_move(self) -> Move | None:
        """Return the game's next recorded move, ``None`` once the game ended without it.
        Woken by the game's live events (``{"moves": n, "over": ...}``); the records are
        read again every :data:`POLL_SECONDS` should one be missed."""
        store = self.store
        while True:
            move = await store.move(self.game_id, self.consumed + 1)
            if move is not None:
                self.consumed += 1
                self.state = move.turn.get("state", {})
                self.game = Game.load(self.state)
                value = move.value
                if value in {str(bid) for bid in Bid}:
                    value = str(max(self.game.bids[move.seat], 0))  # a bid too low: a pass
                return Move(move.seat, value)
            if self._over:
                return None
            try:
                event = await asyncio.wait_for(self.events.get(), POLL_SECONDS)
            except TimeoutError:
                found = await store.game(self.game_id)
                self._over = found is None or found[0].status != "playing"
                continue
            while True:  # what came meanwhile too: the last event says the most
                self._over = self._over or bool(event.get("over"))
                if self.events.empty():
                    break
                event = self.events.get_nowait()

    def score(self) -> Score:
        """Return the score of the deal just ended, or of a deal not played (an early
        end, or all passed): contract 0 and the totals as they stand."""
        game = self.game
        scored = game.score if game.phase is Phase.SCORED and game.tricks else None
        if scored is None:
            return Score(
                0, False, 0, 0, game.totals, game.dog, not game.over and self.closed is None
            )
        contract = scored["contract"]
        return Score(
            contract,
            bool(scored["made"]),
            scored["halves"] // 2,
            scored["oudlers"],
            game.totals,
            game.aside if contract <= Bid.GARDE else game.dog,
            not game.over,
        )
