"""The federation's rules of a deal for four, as pure functions over cards.

What a seat may bid, put aside and play, who wins a trick, and what a deal scores
(``docs/reference/tarot.md`` section 2): following the suit led, trumping and
overtrumping, the excuse (its exchange, and at the last trick), the points needed with 0
to 3 oudlers, the difference rounded up to the whole point (T-decision 2), petit au bout
and chelem (T-decision 3), and the four scores summing to 0. Points are in half points.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tournoyons_gui.interfaces.tarot.cards import (
    CARDS,
    DOG_SIZE,
    EXCUSE,
    MULTIPLIERS,
    OUDLERS,
    PETIT,
    SEATS,
    Bid,
    Card,
    Suit,
    half_points,
    is_trump,
    rank,
    suit,
)

__all__ = [
    "BASE",
    "CHELEM",
    "NEEDED",
    "PETIT_AU_BOUT",
    "Score",
    "allowed_bids",
    "check_ecart",
    "difference",
    "ecart_choices",
    "legal_cards",
    "petit_sec",
    "score_deal",
    "seat_after",
    "suit_counts",
    "trick_winner",
]

#: The points the taker needs with 0, 1, 2 or 3 oudlers (spec section 2, "Counting").
NEEDED = (56, 51, 41, 36)
#: The contract's base score, before the difference (spec section 2: ``25 + difference``).
BASE = 25
#: Petit au bout, before the multiplier.
PETIT_AU_BOUT = 10
#: A chelem, not announced (T-decision 3).
CHELEM = 200


def seat_after(seat: int, steps: int = 1) -> int:
    """Return the seat ``steps`` places after ``seat`` in the order of play 1, 2, 3, 4, 1."""
    return (seat - 1 + steps) % SEATS + 1


def petit_sec(hand: Iterable[Card]) -> bool:
    """Return whether ``hand`` holds the petit as its only trump, without the excuse: the
    deal is cancelled and dealt again by the same dealer (spec section 2, "Petit sec")."""
    trumps = [card for card in hand if is_trump(card) or card == EXCUSE]
    return trumps == [PETIT]


def allowed_bids(bids: Sequence[int | None]) -> tuple[int, ...]:
    """Return the bids a seat may make now: a pass, or a bid above the highest so far."""
    highest = max((bid for bid in bids if bid is not None), default=0)
    return (0, *range(highest + 1, len(Bid)))


def ecart_choices(hand: Iterable[Card]) -> tuple[tuple[Card, ...], int]:
    """Return the cards the taker may put aside and how many of them may be trumps.

    Never a king or an oudler; a trump only when the hand leaves no other choice: the
    trumps allowed are the 6 minus the other cards that may go (spec section 2, "The dog").
    """
    allowed = tuple(
        card
        for card in sorted(hand)
        if card not in OUDLERS and not (card < PETIT and rank(card) == 14)
    )
    plain = sum(1 for card in allowed if not is_trump(card))
    return allowed, max(0, DOG_SIZE - plain)


def check_ecart(hand: Sequence[Card], ecart: Sequence[Card]) -> str | None:
    """Return why ``ecart`` may not be put aside from ``hand`` (the taker's 24 cards), or
    ``None`` when it may: 6 different cards of the hand, no king or oudler, no more trumps
    than :func:`ecart_choices` allows."""
    if len(ecart) != DOG_SIZE or len(set(ecart)) != DOG_SIZE:
        return f"the écart is {DOG_SIZE} different cards"
    if not set(ecart) <= set(hand):
        return "the écart is made of the taker's cards"
    allowed, trumps = ecart_choices(hand)
    if not set(ecart) <= set(allowed):
        return "a king or an oudler is never put aside"
    if sum(1 for card in ecart if is_trump(card)) > trumps:
        return "a trump is put aside only when the hand leaves no other choice"
    return None


def _led(played: Sequence[Card]) -> Card | None:
    """Return the card that sets the trick's suit: the first that is not the excuse."""
    return next((card for card in played if card != EXCUSE), None)


def legal_cards(hand: Sequence[Card], played: Sequence[Card]) -> tuple[Card, ...]:
    """Return the cards of ``hand`` that may be played on ``played`` (the trick's cards in
    the order played), in increasing order.

    Follow the suit led; without it, trump; on a trump (led or played to cut) play a
    higher one when one can; without the suit and without trumps, any card. The excuse may
    be played at any time; led, the next card sets the suit (spec section 2, "Play").
    """
    cards = tuple(sorted(hand))
    led = _led(played)
    if led is None:
        return cards
    excuse = (EXCUSE,) if EXCUSE in cards else ()
    # Cards of the pack, in order: a suit, the trumps, are ranges of numbers (slices).
    ranged = not cards or (cards[0] >= 0 and cards[-1] < CARDS)
    if not is_trump(led):
        if ranged and 0 <= led < PETIT:
            low = led - led % 14
            same = cards[bisect_left(cards, low) : bisect_left(cards, low + 14)]
        else:
            same = tuple(card for card in cards if card != EXCUSE and suit(card) == suit(led))
        if same:
            return same + excuse
    if ranged:
        trumps = cards[bisect_left(cards, PETIT) : bisect_left(cards, EXCUSE)]
    else:
        trumps = tuple(card for card in cards if is_trump(card))
    if not trumps:
        return cards
    top = max((card for card in played if is_trump(card)), default=0)
    higher = trumps[bisect_right(trumps, top) :]
    return (higher or trumps) + excuse


def trick_winner(leader: int, cards: Sequence[Card]) -> int:
    """Return the seat winning a trick led by ``leader`` whose ``cards`` are in seat order
    (seat 1's first): the highest trump, or else the highest card of the suit led."""
    order = [seat_after(leader, step) for step in range(SEATS)]
    played = [cards[seat - 1] for seat in order]
    led = _led(played)
    if led is None:  # pragma: no cover - four excuses cannot be played to one trick
        return leader

    def strength(card: Card) -> int:
        if is_trump(card):
            return 100 + card
        return rank(card) if card != EXCUSE and suit(card) == suit(led) else -1

    return max(order, key=lambda seat: strength(cards[seat - 1]))


def difference(halves: int, needed: int) -> int:
    """Return the difference between the taker's ``halves`` (half points) and the
    ``needed`` points, rounded up to the whole point (T-decision 2: 40.5 against 41 fails
    by 1, 41.5 is made by 1). In a deal for four every side's count is a whole number of
    points (every card is an odd number of half points, a trick 4 of them, the dog 6, the
    excuse's exchange 8 and 1), so the rounding is the rule's, met only in the count's
    own tests."""
    return math.ceil(abs(halves - 2 * needed) / 2)


@dataclass(frozen=True)
class Score:
    """A deal's count and score (spec section 2, "Counting" and "Score of a deal").

    - ``contract``: the bid taken (``0``: all passed, nothing played); ``taker`` its seat;
    - ``halves``: the taker's side's points in half points; ``oudlers``: its oudlers;
    - ``needed``: the points it needed; ``made``: whether it made them;
    - ``petit``: petit au bout, ``+1`` to the taker's side, ``-1`` to the defenders, 0;
    - ``chelem``: ``+1`` the taker's side won every trick, ``-1`` the defenders did, 0;
    - ``deal``: the score ``s`` from the taker's side; ``scores``: each seat's, the taker
      ``3 s``, each defender ``-s`` (summing to 0).
    """

    contract: int
    taker: int
    halves: int
    oudlers: int
    needed: int
    made: bool
    petit: int
    chelem: int
    deal: int
    scores: tuple[int, int, int, int]

    @property
    def points(self) -> float:
        """Return the taker's side's card points (``40.5``)."""
        return self.halves / 2

    def json(self) -> dict[str, int]:
        """Return the score as the rules' state keeps it."""
        return {
            "contract": self.contract,
            "taker": self.taker,
            "halves": self.halves,
            "oudlers": self.oudlers,
            "needed": self.needed,
            "made": int(self.made),
            "petit": self.petit,
            "chelem": self.chelem,
            "deal": self.deal,
        }


def score_deal(
    contract: int,
    taker: int,
    tricks: Sequence[tuple[int, Sequence[Card], int]],
    dog: Sequence[Card],
) -> Score:
    """Count and score a deal played to its end.

    ``tricks``: the 18 tricks as ``(leader, cards in seat order, winner)``; ``dog``: the
    cards put aside (petite, garde: the écart, the taker's) or the untouched dog (garde sans:
    the taker's; garde contre: the defenders').

    The excuse stays with its owner's side: 4 points to that side and 0.5 to the side that
    won its trick (T-decision 10); played to the last trick it goes whole to the side that
    won that trick (its owner's side when it won every other trick, :func:`trick_winner`
    having made it the winner: spec section 2, "The excuse").
    """
    defence = contract == Bid.GARDE_CONTRE

    def taking(seat: int) -> bool:
        return seat == taker

    halves = 0
    oudlers = 0
    if not defence:
        halves += sum(half_points(card) for card in dog)
        oudlers += sum(1 for card in dog if card in OUDLERS)
    last = len(tricks) - 1
    for number, (_leader, cards, winner) in enumerate(tricks):
        for seat, card in enumerate(cards, start=1):
            owner_side = taking(seat)
            if card == EXCUSE and number != last:
                # The excuse stays with its owner's side, which gives a 0.5 card in exchange.
                if owner_side:
                    halves += half_points(card) - (0 if taking(winner) else 1)
                    oudlers += 1
                elif taking(winner):
                    halves += 1
                continue
            if taking(winner):
                halves += half_points(card)
                oudlers += card in OUDLERS
    needed = NEEDED[oudlers]
    made = halves >= 2 * needed
    multiplier = MULTIPLIERS[Bid(contract)]
    petit = 0
    _leader, final_cards, final_winner = tricks[last]
    if PETIT in final_cards:
        petit = 1 if taking(final_winner) else -1
    winners = {taking(winner) for _leader, _cards, winner in tricks}
    chelem = 0 if len(winners) == 2 else (1 if True in winners else -1)
    deal = (BASE + difference(halves, needed)) * multiplier * (1 if made else -1)
    deal += petit * PETIT_AU_BOUT * multiplier + chelem * CHELEM
    scores = tuple(3 * deal if seat == taker else -deal for seat in range(1, SEATS + 1))
    return Score(
        contract=contract,
        taker=taker,
        halves=halves,
        oudlers=oudlers,
        needed=needed,
        made=made,
        petit=petit,
        chelem=chelem,
        deal=deal,
        scores=(scores[0], scores[1], scores[2], scores[3]),
    )


def suit_counts(hand: Iterable[Card]) -> dict[Suit, int]:
    """Return how many cards of each suit (the trumps and the excuse apart) ``hand`` holds."""
    counts = dict.fromkeys(Suit, 0)
    for card in hand:
        counts[suit(card)] += 1
    return counts
