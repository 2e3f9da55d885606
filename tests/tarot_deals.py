"""Whole Tarot deals played at random, as Trays, for the page's tests (view model and browser).

A deal is dealt from a seeded shuffle, bid (the seat after the dealer first), the écart made
when the taker bid a petite or a garde, and played with random legal cards (the rules'
own :func:`legal_cards` and :func:`trick_winner`). :func:`positions` yields every
position of the deal as the whole table knows it; :func:`seen_by` hides what a seat may not
see (``docs/reference/tarot.md`` section 3, *Who sees what*).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from tournoyons_gui.interfaces.tarot.board import dealer, played_in_order, seat_to_act, taker
from tournoyons_gui.interfaces.tarot.cards import (
    DOG_SIZE,
    HAND_SIZE,
    SEATS,
    Card,
    Phase,
    Tray,
    Trick,
    is_trump,
)
from tournoyons_gui.interfaces.tarot.play import (
    allowed_bids,
    ecart_choices,
    legal_cards,
    seat_after,
    trick_winner,
)

__all__ = ["Position", "positions", "seen_by"]


@dataclass(frozen=True)
class Position:
    """A position of a deal as the whole table knows it, the seat it waits for (``None``
    once scored), and the Value that seat played from it (``None`` at the last)."""

    tray: Tray
    acting: int | None
    value: str | None = None


def positions(seed: int, deal: int = 1, bids: Sequence[int] | None = None) -> Iterator[Position]:
    """Yield every position of one deal played at random from ``seed``: the bidding, the
    écart, each card, and the deal scored. ``bids`` (seat order) forces the bids; by default
    they are random among the legal ones, re-drawn until someone takes."""
    rng = random.Random(seed)
    deck = list(range(78))
    rng.shuffle(deck)
    hands = [sorted(deck[k * HAND_SIZE : (k + 1) * HAND_SIZE]) for k in range(SEATS)]
    dog = sorted(deck[SEATS * HAND_SIZE :])
    tray = Tray(
        deal=deal,
        phase=Phase.BIDDING,
        bids=(None,) * SEATS,
        hands=tuple(tuple(h) for h in hands),
        dog=tuple(dog),
    )
    # Bidding.
    while True:
        acting = seat_to_act(tray)
        if acting is None:
            break
        if bids is not None:
            bid = bids[acting - 1]
        else:
            bid = rng.choice(allowed_bids(tray.bids))
            if acting == dealer(deal) and taker(tray) is None:
                bid = max(bid, 1)  # the dealer speaks last: someone takes
        yield Position(tray, acting, str(bid))
        said = list(tray.bids)
        said[acting - 1] = bid
        tray = replace(tray, bids=tuple(said))
    the_taker = taker(tray)
    assert the_taker is not None
    contract = tray.bids[the_taker - 1] or 0
    if contract <= 2:
        # The écart: the dog taken in, 6 cards put aside.
        held = sorted(c for c in (*tray.hands[the_taker - 1], *dog) if c is not None)
        tray = _with_hand(replace(tray, phase=Phase.ECART), the_taker, held)
        choices, trumps = ecart_choices(c for c in held if c is not None)
        plain = [c for c in choices if not is_trump(c)]
        aside = sorted(rng.sample(plain, min(DOG_SIZE, len(plain))))
        if len(aside) < DOG_SIZE:
            trumps_aside = [c for c in choices if is_trump(c)]
            aside = sorted(aside + rng.sample(trumps_aside, DOG_SIZE - len(aside)))
        assert sum(1 for c in aside if is_trump(c)) <= trumps
        yield Position(tray, the_taker, "".join(f"{c:02d}" for c in aside))
        kept = tuple(c for c in held if c not in aside)
        tray = _with_hand(replace(tray, dog=tuple(aside)), the_taker, kept)
    # Play: the seat after the dealer leads the first trick.
    tray = replace(tray, phase=Phase.PLAY, trick=Trick(seat_after(dealer(deal)), (None,) * 4))
    while True:
        acting = seat_to_act(tray)
        assert acting is not None and tray.trick is not None
        hand = [c for c in tray.hands[acting - 1] if c is not None]
        card = rng.choice(legal_cards(hand, played_in_order(tray.trick)))
        yield Position(tray, acting, f"{card:02d}")
        cards = list(tray.trick.cards)
        cards[acting - 1] = card
        trick = replace(tray.trick, cards=(cards[0], cards[1], cards[2], cards[3]))
        tray = _with_hand(tray, acting, tuple(c for c in hand if c != card))
        if all(c is not None for c in trick.cards):
            won = replace(trick, winner=trick_winner(trick.leader, [c or 0 for c in trick.cards]))
            tray = replace(tray, tricks=(*tray.tricks, won))
            if len(tray.tricks) == HAND_SIZE:
                yield Position(replace(tray, phase=Phase.SCORED, trick=None), None)
                return
            trick = Trick(won.winner or 1, (None,) * 4)
        tray = replace(tray, trick=trick)


def _with_hand(tray: Tray, seat: int, hand: Sequence[Card | None]) -> Tray:
    hands = list(tray.hands)
    hands[seat - 1] = tuple(hand)
    return replace(tray, hands=tuple(hands))


def seen_by(tray: Tray, viewer: int | None) -> Tray:
    """Return ``tray`` as ``viewer`` sees it (``None``: a spectator): their own hand, the
    dog once shown (the écart phase, the end of the deal), the écart if they made it, every
    card played, and ``??`` for the rest."""
    hands = tuple(
        hand if seat == viewer else (None,) * len(hand) for seat, hand in enumerate(tray.hands, 1)
    )
    the_taker = taker(tray)
    dog_seen = tray.phase in (Phase.ECART, Phase.SCORED) or (
        tray.phase is Phase.PLAY
        and viewer is not None
        and viewer == the_taker
        and (tray.bids[the_taker - 1] or 0) <= 2
    )
    dog = tray.dog if dog_seen else (None,) * len(tray.dog)
    return replace(tray, hands=hands, dog=dog)
