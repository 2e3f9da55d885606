"""French Tarot's 78 cards as MaitreTarot numbers them, and the Set's nine-field ``Tray``.

Cards (``docs/reference/tarot.md`` section 1; seed 001, table 1): ``0..13`` clubs, ``14..27``
spades, ``28..41`` hearts, ``42..55`` diamonds, each 1..10, jack, knight, queen, king;
``56..76`` the trumps 1..21 (56 the petit, 76 the 21); ``77`` the excuse. The oudlers are
56, 76 and 77. Points are counted here in **half points** (an int): an oudler or a king
9, a queen 7, a knight 5, a jack 3, any other card 1; 182 in all (91 points).

Bids (seed 001, table 2): ``0`` pass, ``1`` petite, ``2`` garde, ``3`` garde sans,
``4`` garde contre; multipliers 1, 2, 4, 6.

The ``Tray`` (spec section 3) is nine fields joined by ``.``::

    03P.0200.??????.0104....????.??????????????.1--2022--.1000102031

1. the deal number ``01``..``99`` and the phase ``B`` bidding, ``E`` écart, ``P`` play,
   ``S`` scored;
2. the bids in seat order, ``0``..``4`` once spoken, ``-`` before;
3. to 6. the hands of seats 1..4, cards as 2 digits in increasing order, ``??`` for each
   card the viewer may not see;
7. the dog (6 cards or ``??``; after the écart, the cards put aside);
8. the trick in play: the leader's seat digit and 4 cards in seat order, ``--`` for a seat
   that has not played; empty outside the play phase;
9. the tricks played, oldest first, 10 characters each: leader, 4 cards, winner.

``Init`` is the first deal's bidding with nothing spoken. A hidden card is ``None`` in
:class:`Tray`; :func:`parse_tray` reads a Tray, :meth:`Tray.text` writes one.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

__all__ = [
    "BIDS",
    "CARDS",
    "CARD_TEXTS",
    "DEAL_SIZE",
    "DOG_SIZE",
    "EXCUSE",
    "HAND_SIZE",
    "HIDDEN",
    "MONDE",
    "MULTIPLIERS",
    "NOT_PLAYED",
    "OUDLERS",
    "PETIT",
    "SEATS",
    "TOTAL_HALVES",
    "TRICKS",
    "Bid",
    "Card",
    "Phase",
    "Suit",
    "Tray",
    "TrayError",
    "Trick",
    "card_text",
    "cards_text",
    "half_points",
    "is_oudler",
    "is_trump",
    "parse_card",
    "parse_cards",
    "parse_tray",
    "rank",
    "suit",
    "trump_number",
]

#: A card: its number ``0..77`` as MaitreTarot numbers them (spec section 1).
Card = int

#: The number of cards in the pack.
CARDS = 78
#: The seats at a table (spec section 2: the federation's rules for four).
SEATS = 4
#: Cards dealt to each seat.
HAND_SIZE = 18
#: Cards dealt to the dog (*chien*).
DOG_SIZE = 6
#: Tricks in a deal: every card of the hands is played.
TRICKS = HAND_SIZE
#: The highest deal number the Tray can write (2 digits).
DEAL_SIZE = 99
#: The petit (trump 1), the 21 (*le monde*) and the excuse.
PETIT = 56
MONDE = 76
EXCUSE = 77
#: The three oudlers (*bouts*).
OUDLERS = frozenset({PETIT, MONDE, EXCUSE})
#: All the cards' points, in half points (91 points).
TOTAL_HALVES = 182
#: How a card the viewer may not see is written.
HIDDEN = "??"
#: How the trick in play writes a seat that has not played.
NOT_PLAYED = "--"


class Suit(enum.IntEnum):
    """A card's suit as MaitreTarot orders them; the trumps and the excuse apart."""

    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3
    TRUMPS = 4
    EXCUSE = 5


class Bid(enum.IntEnum):
    """A bid as the seed numbers them (table 2): 0 pass .. 4 garde contre."""

    PASS = 0
    PETITE = 1
    GARDE = 2
    GARDE_SANS = 3
    GARDE_CONTRE = 4


#: The bids, lowest first.
BIDS: tuple[Bid, ...] = tuple(Bid)
#: Each bid's multiplier of the deal's score (spec section 1); a pass scores nothing.
MULTIPLIERS: dict[Bid, int] = {
    Bid.PASS: 0,
    Bid.PETITE: 1,
    Bid.GARDE: 2,
    Bid.GARDE_SANS: 4,
    Bid.GARDE_CONTRE: 6,
}


class Phase(enum.StrEnum):
    """A deal's phase as the Tray's first field writes it (spec section 3)."""

    BIDDING = "B"
    ECART = "E"
    PLAY = "P"
    SCORED = "S"


def suit(card: Card) -> Suit:
    """Return ``card``'s suit: ``card // 14`` below 56, the trumps 56..76, the excuse 77."""
    if 0 <= card < CARDS:
        return _SUITS[card]
    return _suit(card)


def _suit(card: Card) -> Suit:
    """Return ``card``'s suit, worked out: :func:`suit`."""
    if card < PETIT:
        return Suit(card // 14)
    return Suit.TRUMPS if card < EXCUSE else Suit.EXCUSE


#: Each card's suit (:func:`suit`), by its number.
_SUITS: tuple[Suit, ...] = tuple(_suit(card) for card in range(CARDS))


def rank(card: Card) -> int:
    """Return ``card``'s rank in its suit: 1..14 for a suit's cards (11 jack, 12 knight,
    13 queen, 14 king), 1..21 for a trump, 0 for the excuse."""
    if card < PETIT:
        return card % 14 + 1
    return card - 55 if card < EXCUSE else 0


def is_trump(card: Card) -> bool:
    """Return whether ``card`` is a trump 1..21 (the excuse is not)."""
    return PETIT <= card < EXCUSE


def trump_number(card: Card) -> int:
    """Return a trump's number 1..21 (card ``55 + t``); 0 for any other card."""
    return card - 55 if is_trump(card) else 0


def is_oudler(card: Card) -> bool:
    """Return whether ``card`` is an oudler: the petit, the 21 or the excuse."""
    return card in OUDLERS


def half_points(card: Card) -> int:
    """Return ``card``'s points in half points: oudler or king 9, queen 7, knight 5, jack
    3, any other 1 (spec section 1: 4.5, 3.5, 2.5, 1.5, 0.5)."""
    if card in OUDLERS:
        return 9
    if card < PETIT:
        return {14: 9, 13: 7, 12: 5, 11: 3}.get(rank(card), 1)
    return 1


class TrayError(ValueError):
    """A Tray, a card or a list of cards that is not the Set's syntax."""


def card_text(card: Card | None) -> str:
    """Return a card as the Tray writes it: 2 digits, ``??`` for ``None`` (hidden)."""
    return HIDDEN if card is None else f"{card:02d}"


#: Each card's 2 digits (:func:`card_text`), by its number.
CARD_TEXTS: tuple[str, ...] = tuple(card_text(card) for card in range(CARDS))


def cards_text(cards: Iterable[Card | None]) -> str:
    """Return cards as a hand writes them: the known ones in increasing order, then one
    ``??`` per hidden card."""
    listed = cards if isinstance(cards, tuple) else tuple(cards)
    if None in listed:
        known = sorted(card for card in listed if card is not None)
    else:  # every card known: sorted as they are
        known = sorted(cast("tuple[Card, ...]", listed))
    hidden = HIDDEN * (len(listed) - len(known))
    if known and known[0] >= 0 and known[-1] < CARDS:  # cards of the pack: their digits
        return "".join([CARD_TEXTS[card] for card in known]) + hidden
    return "".join(card_text(card) for card in known) + hidden


def parse_card(text: str) -> Card:
    """Return the card written as 2 ASCII digits ``00``..``77``; raise :class:`TrayError`."""
    if len(text) != 2 or not (text.isascii() and text.isdigit()) or int(text) >= CARDS:
        raise TrayError(f"a card is 2 digits 00..77, not {text[:8]!r}")
    return int(text)


def parse_cards(text: str, *, hidden: bool = True) -> tuple[Card | None, ...]:
    """Return the cards written 2 characters each (``??`` a hidden card, ``None``, when
    ``hidden``); raise :class:`TrayError` on an odd length or a bad card."""
    if _CARDS.fullmatch(text) is None:
        if len(text) % 2:
            raise TrayError("cards are written 2 characters each")
        for start in range(0, len(text), 2):
            piece = text[start : start + 2]
            if not (hidden and piece == HIDDEN):
                parse_card(piece)
    pieces = [text[start : start + 2] for start in range(0, len(text), 2)]
    if not hidden and HIDDEN in pieces:
        raise TrayError(f"a card is 2 digits 00..77, not {HIDDEN!r}")
    return tuple(None if piece == HIDDEN else int(piece) for piece in pieces)


@dataclass(frozen=True)
class Trick:
    """A trick: its leader (seat 1..4), the 4 cards in seat order (``None``: not played
    yet, or hidden), and its winner (seat 1..4) once complete, else ``None``."""

    leader: int
    cards: tuple[Card | None, Card | None, Card | None, Card | None]
    winner: int | None = None

    def played(self) -> list[Card]:
        """Return the cards played to the trick, from its leader on in the order of play
        (seat 1, 2, 3, 4, 1 ...), hidden or unplayed seats left out."""
        order = ((self.leader - 1 + step) % SEATS for step in range(SEATS))
        return [card for index in order if (card := self.cards[index]) is not None]

    def text(self) -> str:
        """Return the trick as the Tray writes it: 9 characters in play, 10 once won."""
        cards = "".join(NOT_PLAYED if card is None else card_text(card) for card in self.cards)
        winner = "" if self.winner is None else str(self.winner)
        return f"{self.leader}{cards}{winner}"


_CARDS = re.compile(r"(?:[0-6][0-9]|7[0-7]|\?\?)*")
_HEAD = re.compile(r"(\d\d)([BEPS])")
_BIDS = re.compile(r"[0-4-]{4}")
_SEAT = "1234"


@dataclass(frozen=True)
class Tray:
    """One position of a deal as a viewer is shown it (spec section 3).

    - ``deal``: the deal number 1..99; ``phase``: :class:`Phase`;
    - ``bids``: each seat's bid in seat order, ``None`` before it spoke;
    - ``hands``: the 4 hands in seat order, each its cards (``None`` hidden);
    - ``dog``: the dog's cards, or after the écart the cards put aside (``None`` hidden);
    - ``trick``: the trick in play (``winner`` ``None``), or ``None`` outside the play;
    - ``tricks``: the tricks won in this deal, oldest first.
    """

    deal: int = 1
    phase: Phase = Phase.BIDDING
    bids: tuple[int | None, ...] = (None, None, None, None)
    hands: tuple[tuple[Card | None, ...], ...] = ((), (), (), ())
    dog: tuple[Card | None, ...] = ()
    trick: Trick | None = None
    tricks: tuple[Trick, ...] = ()

    def text(self) -> str:
        """Return the Tray's nine fields joined by ``.``."""
        bids = "".join("-" if bid is None else str(bid) for bid in self.bids)
        return ".".join(
            (
                f"{self.deal:02d}{self.phase.value}",
                bids,
                *(cards_text(hand) for hand in self.hands),
                cards_text(self.dog),
                "" if self.trick is None else self.trick.text(),
                "".join(trick.text() for trick in self.tricks),
            )
        )

    def known(self) -> tuple[Card, ...]:
        """Return every card this Tray shows (a hand's, the dog's, the tricks'), each once
        per place it appears."""
        shown: list[Card | None] = [card for hand in self.hands for card in hand]
        shown.extend(self.dog)
        for trick in (*self.tricks, *(() if self.trick is None else (self.trick,))):
            shown.extend(trick.cards)
        return tuple(card for card in shown if card is not None)


def _trick(text: str, *, won: bool) -> Trick:
    """Read a trick: 9 characters in play (``--`` not played), 10 once won."""
    if len(text) != (10 if won else 9) or text[0] not in _SEAT:
        raise TrayError("a trick is its leader's seat, 4 cards, and once won its winner")
    cards: list[Card | None] = []
    for start in range(1, 9, 2):
        piece = text[start : start + 2]
        cards.append(None if piece == NOT_PLAYED and not won else parse_card(piece))
    winner = None
    if won:
        if text[9] not in _SEAT:
            raise TrayError("a trick's winner is a seat 1..4")
        winner = int(text[9])
    return Trick(int(text[0]), (cards[0], cards[1], cards[2], cards[3]), winner)


def parse_tray(text: str) -> Tray:
    """Return the :class:`Tray` written ``text`` (``Init``, any case: the first deal's
    bidding with nothing spoken and no card shown). Checks the syntax of every field, not
    whether the position can be reached; raises :class:`TrayError` with a short English
    reason."""
    if text.strip().lower() == "init":
        return Tray()
    fields = text.split(".")
    if len(fields) != 9:
        raise TrayError("a Tarot Tray is nine fields joined by '.'")
    head = _HEAD.fullmatch(fields[0])
    if head is None or int(head.group(1)) == 0:
        raise TrayError("the first field is the deal 01..99 and a phase B, E, P or S")
    if _BIDS.fullmatch(fields[1]) is None:
        raise TrayError("the bids are 4 characters 0..4 or '-'")
    hands = tuple(parse_cards(field) for field in fields[2:6])
    if any(len(hand) > HAND_SIZE + DOG_SIZE for hand in hands):
        raise TrayError(f"a hand holds at most {HAND_SIZE + DOG_SIZE} cards")
    dog = parse_cards(fields[6])
    if len(dog) not in (0, DOG_SIZE):
        raise TrayError(f"the dog holds {DOG_SIZE} cards")
    trick = _trick(fields[7], won=False) if fields[7] else None
    if len(fields[8]) % 10 or len(fields[8]) > 10 * TRICKS:
        raise TrayError(f"the tricks played are 10 characters each, {TRICKS} at most")
    tricks = tuple(_trick(fields[8][at : at + 10], won=True) for at in range(0, len(fields[8]), 10))
    return Tray(
        deal=int(head.group(1)),
        phase=Phase(head.group(2)),
        bids=tuple(None if bid == "-" else int(bid) for bid in fields[1]),
        hands=hands,
        dog=dog,
        trick=trick,
        tricks=tricks,
    )
