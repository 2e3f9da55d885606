"""Tarot's built-in engines: ``random`` (any legal choice) and ``strong``.

An engine reads the request as an outside engine would (``docs/reference/tarot.md``
section 3): ``Seat`` (who it is), ``Tray`` (its own hand, the bids, the dog when shown,
the trick in play, the tricks played). It answers a bid ``0``..``4``, an écart of 12 digits
or a card of 2 digits; a request it cannot read gets ``0``, never an exception.

``strong`` bids from the hand's strength (oudlers, trumps, kings and queens, long suits),
puts aside to make voids (short suits without their king, the cards worth most first), and
plays the usual game: the taker draws trumps and cashes kings; a defender leads kings and
the suits the taker lacks, never its trumps; each seat wins a trick as cheaply as it can,
loads points (*charge*) onto a trick its side holds, throws its smallest card onto one it
loses, and plays the excuse before the last trick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tournoyons_gui.interfaces.engine_kit import RNG
from tournoyons_gui.interfaces.plugin import Engine
from tournoyons_gui.interfaces.tarot.cards import (
    DOG_SIZE,
    EXCUSE,
    MONDE,
    PETIT,
    SEATS,
    Card,
    Phase,
    Suit,
    Tray,
    TrayError,
    card_text,
    half_points,
    is_trump,
    parse_tray,
    rank,
    suit,
)
from tournoyons_gui.interfaces.tarot.play import (
    allowed_bids,
    ecart_choices,
    legal_cards,
    seat_after,
)

__all__ = ["BID_THRESHOLDS", "ENGINES", "hand_strength", "random_engine", "strong_engine"]

#: The hand strength (:func:`hand_strength`) from which ``strong`` bids petite, garde,
#: garde sans and garde contre (its own scale: an average hand is about 30).
BID_THRESHOLDS = (42, 56, 72, 84)


class _Unreadable(ValueError):
    """A request an engine cannot read: it answers ``0``."""


def _position(params: Mapping[str, str]) -> tuple[int, Tray]:
    """Return the engine's seat and the Tray it is shown; raise :class:`_Unreadable`."""
    seat_text = params.get("Seat", "")
    if seat_text not in ("1", "2", "3", "4"):
        raise _Unreadable("Seat is 1 to 4")
    try:
        tray = parse_tray(params.get("Tray", ""))
    except TrayError as error:
        raise _Unreadable(str(error)) from None
    seat = int(seat_text)
    if any(card is None for card in tray.hands[seat - 1]):
        raise _Unreadable("the engine's own hand is hidden")
    return seat, tray


def _hand(tray: Tray, seat: int) -> tuple[Card, ...]:
    return tuple(card for card in tray.hands[seat - 1] if card is not None)


def _played(tray: Tray) -> list[Card]:
    """Return the trick in play's cards in the order played."""
    return [] if tray.trick is None else tray.trick.played()


def _choices(params: Mapping[str, str]) -> tuple[int, Tray, tuple[str, ...]]:
    """Return the seat, the Tray and the Values legal now (for the écart: the cards that
    may go); raise :class:`_Unreadable`."""
    seat, tray = _position(params)
    hand = _hand(tray, seat)
    if tray.phase is Phase.BIDDING:
        return seat, tray, tuple(str(bid) for bid in allowed_bids(tray.bids))
    if tray.phase is Phase.ECART:
        return seat, tray, tuple(card_text(card) for card in ecart_choices(hand)[0])
    if tray.phase is Phase.PLAY and hand:
        return seat, tray, tuple(card_text(card) for card in legal_cards(hand, _played(tray)))
    raise _Unreadable("nothing to play")


def _random_ecart(hand: Sequence[Card]) -> str:
    """Return a legal écart drawn at random: plain cards first, trumps only to fill."""
    allowed, _trumps = ecart_choices(hand)
    plain = [card for card in allowed if not is_trump(card)]
    chosen = RNG.sample(plain, min(DOG_SIZE, len(plain)))
    trumps = [card for card in allowed if is_trump(card)]
    chosen += RNG.sample(trumps, DOG_SIZE - len(chosen))
    return "".join(card_text(card) for card in sorted(chosen))


def random_engine(params: Mapping[str, str]) -> str:
    """Answer any legal choice, drawn at random."""
    try:
        seat, tray, choices = _choices(params)
    except _Unreadable:
        return "0"
    if tray.phase is Phase.ECART:
        return _random_ecart(_hand(tray, seat))
    return RNG.choice(choices)


# --- strong ---------------------------------------------------------------------------


def hand_strength(hand: Sequence[Card]) -> int:
    """Return a hand's strength for bidding: the 21 10, the excuse 8, the petit 7 with 5
    trumps or more (else 2), each trump 2 (the 16 to 20 one more), 5 more per trump past
    the fourth, a king 6, a queen 3, a knight 2; a long suit (5 or more) 2 per card past
    the fourth, a void 6, a singleton 3. Source: the usual French counts, simplified."""
    trumps = [card for card in hand if is_trump(card)]
    strength = 0
    if MONDE in hand:
        strength += 10
    if EXCUSE in hand:
        strength += 8
    if PETIT in hand:
        strength += 7 if len(trumps) >= 5 else 2
    strength += sum(2 + (1 if rank(card) >= 16 else 0) for card in trumps)
    strength += 5 * max(0, len(trumps) - 4)
    for plain in (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS):
        cards = [card for card in hand if suit(card) is plain]
        strength += sum({14: 6, 13: 3, 12: 2}.get(rank(card), 0) for card in cards)
        strength += 2 * max(0, len(cards) - 4)
        strength += 6 if not cards else (3 if len(cards) == 1 else 0)
    return strength


def _strong_bid(tray: Tray, hand: Sequence[Card]) -> str:
    strength = hand_strength(hand)
    wanted = sum(1 for threshold in BID_THRESHOLDS if strength >= threshold)
    allowed = allowed_bids(tray.bids)
    return str(wanted if wanted in allowed else 0)


def _strong_ecart(hand: Sequence[Card]) -> str:
    """Put aside to make voids: the suits without their king, shortest first, whole; then
    the plain cards worth most; trumps only when nothing else may go (the lowest)."""
    allowed, _trumps = ecart_choices(hand)
    plain = [card for card in allowed if not is_trump(card)]
    by_suit: dict[Suit, list[Card]] = {}
    for card in plain:
        by_suit.setdefault(suit(card), []).append(card)
    kings = {suit(card) for card in hand if card < PETIT and rank(card) == 14}
    chosen: list[Card] = []
    voidable = sorted((cards for which, cards in by_suit.items() if which not in kings), key=len)
    for cards in voidable:
        if len(chosen) + len(cards) <= DOG_SIZE:
            chosen += cards
    rest = sorted(
        (card for card in plain if card not in chosen), key=lambda card: -half_points(card)
    )
    chosen += rest[: DOG_SIZE - len(chosen)]
    trumps = sorted(card for card in allowed if is_trump(card))
    chosen += trumps[: DOG_SIZE - len(chosen)]
    return "".join(card_text(card) for card in sorted(chosen))


def _value(card: Card) -> tuple[int, int]:
    """Return how dear a card is to lose: its points, then its strength."""
    return half_points(card), (100 + card if is_trump(card) else rank(card))


def _taker(tray: Tray) -> int:
    contract = max((bid for bid in tray.bids if bid is not None), default=0)
    return tray.bids.index(contract) + 1 if contract else 0


def _seen(tray: Tray) -> list[Card]:
    """Return the cards played in this deal, the trick in play's included."""
    cards = [card for trick in tray.tricks for card in trick.cards if card is not None]
    return cards + _played(tray)


def _beats(cards: Sequence[int], leader: int, best: int, seat: int) -> int:
    """Return which of ``best`` and ``seat`` wins so far in a trick led by ``leader``."""
    played = [
        cards[s - 1] for s in (seat_after(leader, k) for k in range(SEATS)) if cards[s - 1] >= 0
    ]
    led = next((card for card in played if card != EXCUSE), None)

    def strength(card: int) -> int:
        if card < 0 or card == EXCUSE:
            return -2
        if is_trump(card):
            return 100 + card
        return rank(card) if led is not None and suit(card) == suit(led) else -1

    return seat if strength(cards[seat - 1]) > strength(cards[best - 1]) else best


def _lead(seat: int, taker: int, hand: Sequence[Card], seen: Sequence[Card]) -> Card:
    """Return the card to lead: the taker draws trumps while the defenders may hold some
    and cashes its kings; a defender leads a king, else a suit the taker lacks, else its
    longest suit, low; never the excuse unless only it and trumps remain."""
    trumps = sorted(card for card in hand if is_trump(card))
    plain = [card for card in hand if card < PETIT]
    out_trumps = 21 - len(trumps) - sum(1 for card in seen if is_trump(card))
    kings = [card for card in plain if rank(card) == 14]
    played_suits = [suit(card) for card in seen if card < PETIT]
    if seat == taker:
        if trumps and out_trumps > 0 and len(trumps) >= 6:
            high = [card for card in trumps if card != PETIT]
            return max(high) if high else trumps[0]
        safe_kings = [card for card in kings if played_suits.count(suit(card)) < 4]
        if safe_kings:
            return safe_kings[0]
    elif kings:
        safe = [card for card in kings if played_suits.count(suit(card)) < 4]
        if safe:
            return safe[0]
    if plain:
        counts = {which: sum(1 for card in plain if suit(card) == which) for which in Suit}
        longest = max(plain, key=lambda card: (counts[suit(card)], -rank(card)))
        same = [card for card in plain if suit(card) == suit(longest)]
        return min(same, key=rank)
    if trumps:
        low = [card for card in trumps if card != PETIT]
        return min(low) if low else trumps[0]
    return hand[0]


def _follow(seat: int, taker: int, tray: Tray, legal: Sequence[Card], hand: Sequence[Card]) -> Card:
    """Return the card to play on the trick in play: win it cheaply when the other side
    holds it, load points when one's own side holds it for good, else throw the least."""
    trick = tray.trick
    assert trick is not None
    cards: list[int] = [-1 if card is None else card for card in trick.cards]
    leader = trick.leader
    best = leader
    for step in range(1, SEATS):
        other = seat_after(leader, step)
        if cards[other - 1] >= 0:
            best = _beats(cards, leader, best, other)
    still = SEATS - 1 - sum(1 for card in cards if card >= 0)
    after = [seat_after(seat, step) for step in range(1, still + 1)]

    def side(who: int) -> bool:
        return who == taker

    winners: list[Card] = []
    for card in legal:
        if card == EXCUSE:
            continue
        trial = list(cards)
        trial[seat - 1] = card
        if _beats(trial, leader, best, seat) == seat:
            winners.append(card)
    ours = cards[best - 1] >= 0 and side(best) == side(seat)
    safe = ours and all(side(other) == side(seat) for other in after)
    plain_legal = [card for card in legal if card != EXCUSE]
    if EXCUSE in legal and (len(hand) <= 2 or not plain_legal):
        return EXCUSE
    if safe or (ours and not winners and is_trump(cards[best - 1]) and cards[best - 1] >= 70):
        # One's side holds the trick: load the most points that are not an oudler at risk.
        keep = [card for card in plain_legal if card != PETIT] or plain_legal
        return max(keep, key=_value)
    if winners:
        if not after:  # last to play: the cheapest winner, the petit when it wins
            return min(winners, key=lambda card: (card != PETIT, _value(card)))
        kings = [card for card in winners if card < PETIT and rank(card) == 14]
        trumps = [card for card in winners if is_trump(card) and card != PETIT]
        if kings:
            return kings[0]
        if trumps:
            return min(trumps)
        return min(winners, key=_value)
    losing = [card for card in plain_legal if card != PETIT] or plain_legal or list(legal)
    return min(losing, key=_value)


def strong_engine(params: Mapping[str, str]) -> str:
    """Answer as a sound player would (see the module's docstring)."""
    try:
        seat, tray, choices = _choices(params)
    except _Unreadable:
        return "0"
    hand = _hand(tray, seat)
    if tray.phase is Phase.BIDDING:
        return _strong_bid(tray, hand)
    if tray.phase is Phase.ECART:
        return _strong_ecart(hand)
    legal = [int(choice) for choice in choices]
    taker = _taker(tray)
    if not _played(tray):
        card = _lead(seat, taker, hand, _seen(tray))
        return card_text(card if card in legal else legal[0])
    return card_text(_follow(seat, taker, tray, legal, hand))


#: The Set's built-in engines, the default first (found by :class:`SetInterface`).
ENGINES: dict[str, Engine] = {"random": random_engine, "strong": strong_engine}


def play_match(engines: Sequence[Engine], deals: int = 4) -> Mapping[str, Any]:
    """Play a match in process between four engines (``engines[0]`` in seat 1 ...), each
    sent what the Arbitre sends it (the rules' request with ``Set``, ``Seat`` and
    ``Players=4``); return the final state (:meth:`~.rules.Game.state`). An engine's
    illegal Value raises :class:`~tournoyons_gui.interfaces.plugin.IllegalMove`."""
    from tournoyons_gui.interfaces.tarot.rules import RULES

    turn = RULES.start(deals=deals)
    while not turn.over:
        (player,) = RULES.asked(turn.state)
        request = RULES.request(turn.state, player)
        params = {
            "Set": RULES.engine_set,
            "MoveId": str(request.move_id),
            "Seat": str(int(player)),
            "Players": str(SEATS),
            **request.params,
        }
        value = engines[int(player) - 1](params).strip().upper()
        turn = RULES.play(turn.state, RULES.engine_value(turn.state, player, value))
    return turn.state
