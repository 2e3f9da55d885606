"""A MaitreTarot table: the seed's tables 5 to 15 sent to the clients seated at it, as
one readable sequence per phase (:meth:`Table.deal`, :meth:`Table.bidding`,
:meth:`Table.dog`, :meth:`Table.play`, :meth:`Table.score`), following a Tarot match in
play (:class:`TableGame`) whose other seats may be anything (persons, built-in engines,
Tournoyons engines).

The table never decides a move: it asks its clients when the match asks their place,
gives their values to the match, and tells every client what the match records.
Faults (``docs/reference/tarot.md`` section 4): a card or an écart the rules refuse gets
ack ``0`` and is asked again, :data:`TRIES` times in all; a bid the rules refuse is a pass
(table 7); silence past the table's ``timeout``, a disconnection, bytes out of turn or
garbage: that client has failed (:meth:`TableGame.fail`), and every other client gets,
where it waits, the score of a deal not played and replay answer ``0``. Nothing a client
does reaches another table.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from tournoyons_gui.arbitre.maitretarot.codec import BranchPoint, Kind, Message
from tournoyons_gui.arbitre.maitretarot.peer import Fault, Peer
from tournoyons_gui.arbitre.maitretarot.protocol import DEAL_TURNS, NOT_PLAYED, SEATS, TRICKS

__all__ = ["TRIES", "Deal", "Move", "Score", "Table", "TableGame"]

log = logging.getLogger(__name__)

#: Times a client is asked for its card or its écart before it has failed (spec section 4).
TRIES = 3
#: Messages at most that bring a client's flow from where a match ended to a score.
_FILLERS = 4
_NONE = (NOT_PLAYED,) * SEATS


@dataclass(frozen=True)
class Deal:
    """A deal as dealt: its ``number`` (1 the first), each place's 18 cards (``hands``),
    the 6 cards of the ``dog``, and ``cancelled`` for a petit sec (no bids, straight to
    the score)."""

    number: int
    hands: tuple[tuple[int, ...], ...]
    dog: tuple[int, ...]
    cancelled: bool = False


@dataclass(frozen=True)
class Move:
    """A move the match recorded: the ``place`` 0..3 that made it and its ``value`` (a bid
    ``0``..``4``, an écart of 12 digits, a card of 2: the Tarot Set's Values)."""

    place: int
    value: str


@dataclass(frozen=True)
class Score:
    """A deal's score as SEND_SCORE says it (table 15): the ``contract`` (0: not played),
    whether the taker ``won``, the taker's card ``points`` rounded down, its ``oudlers``,
    every place's ``totals``; ``dog`` the 6 cards shown at the end (T-decision 12);
    ``more`` whether the match has another deal."""

    contract: int
    won: bool
    points: int
    oudlers: int
    totals: tuple[int, ...]
    dog: tuple[int, ...]
    more: bool

    def message(self) -> Message:
        """Return the SEND_SCORE message."""
        head = (self.contract, int(self.won), self.points, self.oudlers)
        if self.contract == 0:
            head = (0, 0, 0, 0)
        return Message(Kind.SEND_SCORE, (*head, *self.totals))


class TableGame(Protocol):
    """A Tarot match in play as a table follows it (the Arbitre's game; a stand-in in the
    tests). Places are 0..3 (T-decision 1: our seats 1..4)."""

    def dealt(self) -> Deal:
        """Return the deal in play."""
        ...

    def asked(self) -> int | None:
        """Return the place the match asks now (``None``: nobody, it is over)."""
        ...

    def refuse(self, place: int, value: str) -> str:
        """Return why the rules refuse ``value`` from ``place`` now (``""``: legal)."""
        ...

    async def answer(self, place: int, value: str) -> None:
        """Give the match a client's legal ``value`` for ``place``."""
        ...

    async def fail(self, place: int, fault: Fault) -> None:
        """Tell the match that ``place``'s client failed: the match ends."""
        ...

    async def stop(self, place: int) -> None:
        """Tell the match that ``place``'s client answered 0 to the replay question."""
        ...

    async def next_move(self) -> Move | None:
        """Return the match's next recorded move, ``None`` when the match ended first."""
        ...

    def score(self) -> Score:
        """Return the score of the deal just ended (or of a deal not played: the totals
        as they stand)."""
        ...


class _Ended(Exception):
    """The match ended during a deal: a client failed, or the match ended elsewhere."""


class Table:
    """The clients seated at one table (``peers`` by place; the other places are the
    match's other seats), following ``game``; a client has ``timeout`` seconds (the
    match's TimeOut) for each answer."""

    def __init__(self, peers: dict[int, Peer], game: TableGame, timeout: float) -> None:
        self.peers = peers
        self.game = game
        self.timeout = timeout
        #: The place whose client failed, and why; ``None`` while none has.
        self.failed: tuple[int, Fault] | None = None
        #: The places closed when the match ended at a point their flow had no score.
        self.dropped: set[int] = set()

    async def run(self) -> None:
        """Play deals until the replay answer is 0, or the match ends early; then close
        every connection. Never raises for what a client does."""
        try:
            while True:
                deal = self.game.dealt()
                try:
                    played = await self.deal(deal)
                except _Ended:
                    await self.end_early(deal)
                    return
                if not await self.score(deal, played):
                    return
        finally:
            await asyncio.gather(*(peer.close() for peer in self.peers.values()))

    # --- one sequence per phase ------------------------------------------------------

    async def deal(self, deal: Deal) -> bool:
        """Tables 5 to 14: the cards, the bids, the dog, the tricks; return whether the
        deal was played (not cancelled, not passed by all)."""
        # One batch up to the bids: a client failing as the deal starts leaves the others
        # at a point they wait at (the SEND_BIDS branch point or the score instead).
        start = [self._branch(BranchPoint.NEW_GAME), self._branch(BranchPoint.DILL_CARDS)]
        await self.tell_each(lambda place: [*start, Message(Kind.DILL_CARDS, deal.hands[place])])
        if deal.cancelled:
            return False  # a petit sec: straight to the score
        bids = await self.bidding()
        if not await self.dog(deal, bids):
            return False
        await self.tell_all(self._branch(BranchPoint.READY_TO_PLAY))
        for place, peer in self.peers.items():
            await self._receive(place, peer, Kind.READY_TO_PLAY)  # 0 values, implied
        await self.play()
        return True

    async def bidding(self) -> tuple[int, ...]:
        """Table 7 four times (the bids so far, the question, the bid asked), then table
        8's final bids; return them."""
        await self.tell_all(self._branch(BranchPoint.SEND_BIDS))
        bids = list(_NONE)
        for _ in range(DEAL_TURNS):
            asked = self._asked()
            await self._question(Message(Kind.SEND_BIDS, tuple(bids)), Kind.ASK_BID_QUESTION, asked)
            if asked in self.peers:
                bid = await self._receive(asked, self.peers[asked], Kind.GET_BID)
                value = str(bid.value)
                if self.game.refuse(asked, value):
                    value = "0"  # table 7: a wrong bid is a pass
                await self.game.answer(asked, value)
            move = await self._next_move()
            bids[move.place] = int(move.value)
        final = tuple(max(bid, 0) for bid in bids)
        await self.tell_all(
            self._branch(BranchPoint.GET_CHIEN), Message(Kind.SEND_FINAL_BIDS, final)
        )
        return final

    async def dog(self, deal: Deal, bids: tuple[int, ...]) -> bool:
        """Table 8's dog shown after a petite, a garde or when all passed, then table 9,
        the taker's écart after a petite or a garde; return whether the deal goes on."""
        contract = max(bids)
        if contract <= 2:
            await self.tell_all(Message(Kind.SHOW_CHIEN, deal.dog))
        if contract == 0:
            return False  # all passed: the score of a deal not played
        if contract <= 2:
            taker = bids.index(contract)
            if taker in self.peers:
                await self._tries(taker, Kind.GET_CHIEN, Kind.SEND_ACK_FOR_CHIEN)
            await self._next_move()
        return True

    async def play(self) -> None:
        """Tables 11 to 14: for each of the 18 tricks, four times the trick so far and the
        previous one, the question, the card asked; then the last trick."""
        await self.tell_all(self._branch(BranchPoint.SEND_TURN_CARD))
        previous = _NONE
        for _ in range(TRICKS):
            cards = list(_NONE)
            for _ in range(SEATS):
                asked = self._asked()
                shown = Message(Kind.SEND_TURN_CARDS, (*cards, *previous))
                await self._question(shown, Kind.SEND_TURN_CARDS_QUESTION, asked)
                if asked in self.peers:
                    await self._tries(asked, Kind.GET_TURN_CARD, Kind.SEND_ACK_FOR_CARD)
                move = await self._next_move()
                cards[move.place] = int(move.value)
            previous = tuple(cards)
        await self.tell_all(Message(Kind.SEND_LAST_TURN_CARDS, previous))

    async def score(self, deal: Deal, played: bool) -> bool:
        """Table 15: the score, the dog at the end, every client's replay answer and ours
        (1 only when all said 1 and the match has another deal); return whether to go
        on."""
        score = self.game.score()
        await self.tell_all(score.message(), Message(Kind.SHOW_CHIEN_AT_END, score.dog))
        return await self._replay(score.more)

    async def end_early(self, deal: Deal) -> None:
        """The match ended during ``deal``: every client but the one that failed gets, where
        it waits, the score of a deal not played and replay answer 0."""
        score = self.game.score()
        totals = Message(Kind.SEND_SCORE, (0, 0, 0, 0, *score.totals))
        for place, peer in self._live().items():
            if not await self._to_waiting_point(place, peer, deal):
                # Asked to answer: the flow has no score before its answer; it is closed,
                # as a client whose match ended under it.
                log.info("MaitreTarot place %s closed: the match ended as it was asked", place)
                self.dropped.add(place)
                await peer.close()
        await self.tell_all(totals, Message(Kind.SHOW_CHIEN_AT_END, deal.dog), ending=True)
        await self._replay(False, ending=True)

    async def _to_waiting_point(self, place: int, peer: Peer, deal: Deal) -> bool:
        """Bring ``place``'s flow, mid-sequence when the match ended, to the next point
        where a score may come, by what the flow holds there whatever the match did: a
        branch point, its cards, the dog, the client's empty READY_TO_PLAY. Return whether
        it is there (``False``: its client is asked for an answer, or does not take it)."""
        connection = peer.connection
        for _ in range(_FILLERS):
            if connection.may_send(Kind.SEND_SCORE):
                return True
            step = connection.expecting
            if step is None:
                return False
            filler = {
                Kind.BRANCHEMENT_POINT: Message(Kind.BRANCHEMENT_POINT, (step.point or 0, 0)),
                Kind.DILL_CARDS: Message(Kind.DILL_CARDS, deal.hands[place]),
                Kind.SHOW_CHIEN: Message(Kind.SHOW_CHIEN, deal.dog),
            }.get(step.kind)
            try:
                if step.kind is Kind.READY_TO_PLAY:
                    await peer.receive(step.kind, self.timeout)  # 0 values: implied
                elif filler is not None and connection.may_send(step.kind):
                    await peer.send(filler)
                else:
                    return False
            except Fault:
                return False
        return False

    # --- sending and receiving -----------------------------------------------------------

    def _branch(self, point: BranchPoint) -> Message:
        return Message(Kind.BRANCHEMENT_POINT, (point, 0))

    def _live(self) -> dict[int, Peer]:
        failed = None if self.failed is None else self.failed[0]
        return {
            place: peer
            for place, peer in self.peers.items()
            if place != failed and place not in self.dropped
        }

    async def tell_all(self, *messages: Message, ending: bool = False) -> None:
        """Send every live client ``messages``."""
        await self.tell_each(lambda place: list(messages), ending=ending)

    async def tell_each(self, each: _Each, *, ending: bool = False) -> None:
        """Send every live client the messages ``each(place)`` gives it, all at once; a
        client that cannot take them has failed (unless the match is ``ending``)."""
        live = self._live()
        results = await asyncio.gather(
            *(peer.send(*each(place)) for place, peer in live.items()), return_exceptions=True
        )
        for place, result in zip(live, results, strict=True):
            if isinstance(result, Fault) and not ending:
                await self._fail(place, result)
            elif isinstance(result, BaseException) and not isinstance(result, Fault):
                raise result
        if self.failed is not None and not ending:
            raise _Ended

    async def _question(self, shown: Message, question: Kind, asked: int) -> None:
        """Send every client what is on the table and the question: not 0 to ``asked``."""
        await self.tell_each(lambda place: [shown, Message(question, (int(place == asked),))])

    async def _receive(self, place: int, peer: Peer, kind: Kind) -> Message:
        try:
            return await peer.receive(kind, self.timeout)
        except Fault as fault:
            await self._fail(place, fault)
            raise _Ended from None

    async def _tries(self, place: int, kind: Kind, ack: Kind) -> None:
        """Ask ``place`` for its écart or its card until the rules take it (ack 1), at
        most :data:`TRIES` times; then it has failed."""
        peer = self.peers[place]
        for _ in range(TRIES):
            message = await self._receive(place, peer, kind)
            value = "".join(f"{card:02d}" if 0 <= card < 100 else "??" for card in message.values)
            why = self.game.refuse(place, value)
            await self.tell(place, Message(ack, (0 if why else 1,)))
            if not why:
                await self.game.answer(place, value)
                return
        await self._fail(place, Fault("illegal", f"{TRIES} refused: {why}"))
        raise _Ended

    async def tell(self, place: int, *messages: Message) -> None:
        """Send one client ``messages``."""
        try:
            await self.peers[place].send(*messages)
        except Fault as fault:
            await self._fail(place, fault)
            raise _Ended from None

    async def _replay(self, more: bool, *, ending: bool = False) -> bool:
        """Read every live client's replay answer, and send ours: 1 when all said 1 and
        ``more``."""
        live = self._live()
        answers = await asyncio.gather(
            *(peer.receive(Kind.ACK_REPLAY, self.timeout) for peer in live.values()),
            return_exceptions=True,
        )
        again = more
        for place, answer in zip(live, answers, strict=True):
            if isinstance(answer, Message) and answer.value == 1:
                continue
            again = False
            if isinstance(answer, Fault) and not ending:
                await self._fail(place, answer)
            elif isinstance(answer, Message) and more and not ending:
                await self.game.stop(place)
        await self.tell_all(Message(Kind.SEND_REPLAY_ANSWER, (int(again),)), ending=True)
        return again

    def _asked(self) -> int:
        asked = self.game.asked()
        if asked is None:
            raise _Ended
        return asked

    async def _next_move(self) -> Move:
        move = await self.game.next_move()
        if move is None:
            raise _Ended
        return move

    async def _fail(self, place: int, fault: Fault) -> None:
        if self.failed is None:
            self.failed = (place, fault)
            log.info("MaitreTarot place %s failed: %s", place, fault)
            await self.game.fail(place, fault)
            await self.peers[place].close()


class _Each(Protocol):
    def __call__(self, place: int) -> Sequence[Message]: ...
