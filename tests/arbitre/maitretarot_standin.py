"""A small stand-in of a Tarot match for the MaitreTarot tables' tests, until the Tarot
Set's rules are wired: real deals (18 cards each, a dog of 6), one round of bids, the
écart, 18 tricks (a card from the hand; the highest card wins the trick), a score with
totals summing to 0. Places without a client play the first legal value at once."""

from __future__ import annotations

import asyncio
import random

from tournoyons_gui.arbitre.maitretarot.peer import Fault
from tournoyons_gui.arbitre.maitretarot.table import Deal, Move, Score

KINGS_AND_OUDLERS = frozenset({13, 27, 41, 55, 56, 76, 77})


class StandIn:
    """One match of ``deals`` deals; ``clients`` the places a table's clients hold;
    ``bids`` what the other places bid (by place)."""

    def __init__(
        self,
        clients: set[int],
        deals: int = 4,
        seed: int = 1,
        bids: dict[int, int] | None = None,
        petit_sec_deals: frozenset[int] = frozenset(),
    ) -> None:
        self.clients = clients
        self.deals = deals
        self.random = random.Random(seed)
        self.builtin_bids = bids or {}
        self.petit_sec_deals = petit_sec_deals
        self.number = 0
        self.totals = [0, 0, 0, 0]
        self.moves: list[Move] = []
        self.failed: tuple[int, Fault] | None = None
        self.stopped: int | None = None
        self._answers: asyncio.Queue[Move] = asyncio.Queue()
        self._new_deal()

    # --- the match ------------------------------------------------------------------

    def _new_deal(self) -> None:
        self.number += 1
        cards = list(range(78))
        self.random.shuffle(cards)
        self.hands = [sorted(cards[18 * p : 18 * p + 18]) for p in range(4)]
        self.dog = tuple(sorted(cards[72:]))
        self.dealt_hands = tuple(tuple(h) for h in self.hands)
        self.first = (self.number - 1) % 4
        self.bids: list[int] = []
        self.phase = "S" if self.number in self.petit_sec_deals else "B"
        self.taker: int | None = None
        self.ecart: tuple[int, ...] = ()
        self.trick: list[tuple[int, int]] = []
        self.leader = self.first
        self.tricks = 0
        self.won_cards: list[int] = []

    @property
    def over(self) -> bool:
        return self.failed is not None or self.stopped is not None or self.number > self.deals

    def dealt(self) -> Deal:
        return Deal(self.number, self.dealt_hands, self.dog, self.phase == "S")

    def asked(self) -> int | None:
        if self.over:
            return None
        if self.phase == "B":
            return (self.first + len(self.bids)) % 4
        if self.phase == "E":
            return self.taker
        if self.phase == "P":
            return (self.leader + len(self.trick)) % 4
        return None

    def refuse(self, place: int, value: str) -> str:
        if place != self.asked():
            return "not asked"
        if self.phase == "B":
            if not value.isdigit() or not 0 <= int(value) <= 4:
                return "a bid is 0 to 4"
            bid = int(value)
            return "" if bid == 0 or bid > max(self.bids, default=0) else "not above"
        if self.phase == "E":
            if len(value) != 12 or not value.isdigit():
                return "6 cards"
            cards = {int(value[i : i + 2]) for i in range(0, 12, 2)}
            held = set(self.hands[place]) | set(self.dog)
            if len(cards) != 6 or not cards <= held or cards & KINGS_AND_OUDLERS:
                return "not an écart"
            return ""
        if len(value) != 2 or not value.isdigit() or int(value) not in self.hands[place]:
            return "not in the hand"
        return ""

    def _legal(self, place: int) -> str:
        if self.phase == "B":
            bid = self.builtin_bids.get(place, 0)
            return str(bid) if not self.refuse(place, str(bid)) else "0"
        if self.phase == "E":
            held = sorted(set(self.hands[place]) | set(self.dog))
            return "".join(f"{c:02d}" for c in [c for c in held if c not in KINGS_AND_OUDLERS][:6])
        return f"{self.hands[place][0]:02d}"

    def _apply(self, move: Move) -> None:
        place, value = move.place, move.value
        self.moves.append(move)
        if self.phase == "B":
            self.bids.append(int(value))
            if len(self.bids) == 4:
                by_place = [0] * 4
                for turn, bid in enumerate(self.bids):
                    by_place[(self.first + turn) % 4] = bid
                self.by_place = by_place
                contract = max(by_place)
                self.contract = contract
                if contract == 0:
                    self.phase = "S"
                else:
                    self.taker = by_place.index(contract)
                    self.phase = "E" if contract <= 2 else "P"
        elif self.phase == "E":
            cards = [int(value[i : i + 2]) for i in range(0, 12, 2)]
            assert self.taker is not None
            self.hands[place] = sorted((set(self.hands[place]) | set(self.dog)) - set(cards))
            self.ecart = tuple(sorted(cards))
            self.phase = "P"
        else:
            card = int(value)
            self.hands[place].remove(card)
            self.trick.append((place, card))
            if len(self.trick) == 4:
                self.leader = max(self.trick, key=lambda pc: pc[1])[0]
                self.trick = []
                self.tricks += 1
                if self.tricks == 18:
                    self.phase = "S"
                    self._scored()

    def _scored(self) -> None:
        assert self.taker is not None
        s = 10 * self.contract
        self.last = s
        for place in range(4):
            self.totals[place] += 3 * s if place == self.taker else -s

    async def answer(self, place: int, value: str) -> None:
        await self._answers.put(Move(place, value))

    async def fail(self, place: int, fault: Fault) -> None:
        self.failed = (place, fault)
        await self._answers.put(Move(-1, ""))

    async def stop(self, place: int) -> None:
        self.stopped = place

    async def next_move(self) -> Move | None:
        asked = self.asked()
        if asked is None:
            return None
        if asked in self.clients:
            move = await self._answers.get()
            if move.place < 0:
                return None
        else:
            move = Move(asked, self._legal(asked))
        self._apply(move)
        return move

    def score(self) -> Score:
        played = self.phase == "S" and self.tricks == 18
        dog = self.ecart if played and self.contract <= 2 else self.dog
        score = Score(
            self.contract if played else 0,
            played,
            50 if played else 0,
            1 if played else 0,
            tuple(self.totals),
            dog,
            self.number < self.deals,
        )
        if not self.over and self.phase == "S":
            self._new_deal()
        return score
