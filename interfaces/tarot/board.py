"""Tarot: the page's view model, read from ``Tray``, ``Move1``..``Move4``, ``Gain1``..``Gain4``.

The page is the table seen from one seat, the **viewer** (``Input``'s seat; else, under
``WebTest``, the seat to act; else the one seat whose hand the Tray shows; else seat 1): the
viewer's hand fanned along the bottom in the Tray's order, the next seats in the order of
play on the right, at the top and on the left (French Tarot turns counter-clockwise), each
with its name, total and cards (backs for ``??``), the trick in the middle with its leader
marked, the dog while it is shown, each seat's bid, and the previous trick on demand.

``Input`` asks the viewer for a bid (the 5 bids, those not above the highest disabled), the
écart (6 cards of the 24 composed on the page: never a king or an oudler, a trump only when
the hand leaves no other choice; :attr:`TarotView.composed`), or a card (only the legal ones
playable). ``Wait``: the card just played (the ``Move`` of the seat that played last) goes
to the trick, then, when it completed the trick, the trick goes to its winner.

Geometry is in the table's own units (``viewBox`` ``0 0 WIDTH HEIGHT``); cards are drawn
64x100 (:data:`CARD_W`, :data:`CARD_H`) and scaled.

Sources: ``docs/reference/tarot.md`` sections 1-3 (cards, the rules of play and of the
écart, the Tray, the page and its DOM contract); spec ``interface-protocol.md`` section 6.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournoyons_gui.interfaces.plugin import View
from tournoyons_gui.interfaces.protocol import Context, Method, ParamError, Player, read_param
from tournoyons_gui.interfaces.tarot.cards import (
    BIDS,
    EXCUSE,
    HAND_SIZE,
    HIDDEN,
    MULTIPLIERS,
    OUDLERS,
    SEATS,
    Card,
    Phase,
    Suit,
    Tray,
    TrayError,
    Trick,
    card_text,
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
from tournoyons_gui.interfaces.tarot.rules import dealer as rules_dealer

__all__ = [
    "CARD_H",
    "CARD_W",
    "HEIGHT",
    "PLACES",
    "WIDTH",
    "BidControl",
    "CardFace",
    "CardView",
    "Gathered",
    "SeatView",
    "TarotView",
    "build",
    "dealer",
    "played_in_order",
    "read_gain",
    "read_move",
    "seat_to_act",
    "taker",
]

#: The table's size in its own units (the page's ``viewBox``), about the stage's pixels in
#: the Arbitre's 736x660 frame.
WIDTH, HEIGHT = 720, 600
#: A card's size as drawn at full scale (the viewer's hand, the trick, the dog).
CARD_W, CARD_H = 64, 100
#: The scale of the other seats' cards, and of the small dog shown beside the table.
SMALL, MINI = 0.625, 0.5

#: Where each seat sits, by its distance from the viewer in the order of play: the viewer
#: at the bottom, the next seat on the right (play turns counter-clockwise), then the top,
#: then the left.
PLACES = ("bottom", "right", "top", "left")

# The viewer's fan: cards along an arc whose centre is RADIUS below the cards' tops.
# A full hand of 18 leaves each card's centre uncovered (the step is above half a card), so
# that a pointer aimed at a card's middle finds that card.
_FAN_TOP, _FAN_RADIUS, _FAN_STEP, _FAN_SPAN = 470.0, 1800.0, 37.0, 700.0
# The other seats' cards: the gap between two cards, backs and faces (faces show more).
_BACK_STEP, _FACE_STEP = 12.0, 19.0
# The trick's four places (top-left corner of a full-size card), by place.
_TRICK = {"bottom": (328, 262), "right": (410, 190), "top": (328, 124), "left": (246, 190)}
# Where a trick goes when it is won, and where a card played comes from (an offset from the
# trick's place, by the place of the seat).
_TOWARD = {"bottom": (0, 260), "right": (250, 0), "top": (0, -190), "left": (-250, 0)}

_GAIN = re.compile(r"[+-]?\d{1,7}")
_MOVE = re.compile(r"[0-4]|[0-9?]{2}|[0-9?]{12}")


def dealer(deal: int) -> int:
    """Return the seat that deals deal ``deal`` (the rules' :func:`.rules.dealer`)."""
    return rules_dealer(deal)


def taker(tray: Tray) -> int | None:
    """Return the seat with the highest bid (the taker), ``None`` while nobody bid above a
    pass."""
    best = max((bid or 0 for bid in tray.bids), default=0)
    if best == 0:
        return None
    return next(seat for seat, bid in enumerate(tray.bids, 1) if bid == best)


def seat_to_act(tray: Tray) -> int | None:
    """Return the seat whose bid, écart or card the position waits for, ``None`` when it
    waits for none (the deal is scored, every seat has played to the trick).

    Bidding: the first seat after the dealer that has not spoken. Écart: the taker, after a
    petite or a garde. Play: the first seat after the trick's leader that has not played.
    """
    if tray.phase is Phase.BIDDING:
        first = seat_after(dealer(tray.deal))
        order = (seat_after(first, k) for k in range(SEATS))
        return next((seat for seat in order if tray.bids[seat - 1] is None), None)
    if tray.phase is Phase.ECART:
        return taker(tray)
    if tray.phase is Phase.PLAY and tray.trick is not None:
        trick = tray.trick
        order = (seat_after(trick.leader, k) for k in range(SEATS))
        return next((seat for seat in order if trick.cards[seat - 1] is None), None)
    return None


def played_in_order(trick: Trick) -> list[Card]:
    """Return the cards played to ``trick``, from its leader on."""
    cards = (trick.cards[seat_after(trick.leader, k) - 1] for k in range(SEATS))
    return [card for card in cards if card is not None]


def read_gain(value: str) -> int:
    """Return a seat's total in the match, a signed whole number; raise ``ValueError``."""
    if _GAIN.fullmatch(value):
        return int(value)
    raise ValueError(value)


def read_move(value: str) -> str:
    """Return a seat's last Value in this deal: a bid ``0``..``4``, a card (2 digits, ``??``
    hidden) or an écart (12 characters); raise ``ValueError``."""
    if _MOVE.fullmatch(value) and (len(value) != 2 or value == HIDDEN or int(value) < 78):
        return value
    raise ValueError(value)


# --- what is drawn --------------------------------------------------------------------------

# The suits in MaitreTarot's order (Suit 0..3).
_SUIT_NAMES = tuple(which.name.lower() for which in Suit)[:4]
# The symbols a card's name is said with (its aria-label): the suits', and for the court
# cards the chess pieces closest to them: pawn (jack), knight, queen, king.
_SUIT_SIGNS = ("\u2663", "\u2660", "\u2665", "\u2666")
_COURT_SIGNS = {11: "\u265f", 12: "\u265e", 13: "\u265b", 14: "\u265a"}
_COURT_NAMES = {11: "jack", 12: "knight", 13: "queen", 14: "king"}
_STAR = "\u2605"

# Where a pip card's pips are (centres, in the card's 64x100 units), 1 to 10: two columns
# and a middle one, as printed cards lay them out, right of the corner index.
_COLUMNS = (26.0, 52.0)
_MIDDLE = 39.0
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((_MIDDLE, 54),),
    2: ((_MIDDLE, 24), (_MIDDLE, 84)),
    3: ((_MIDDLE, 24), (_MIDDLE, 54), (_MIDDLE, 84)),
    4: tuple((x, y) for y in (24, 84) for x in _COLUMNS),
    5: (*((x, y) for y in (24, 84) for x in _COLUMNS), (_MIDDLE, 54)),
    6: tuple((x, y) for y in (24, 54, 84) for x in _COLUMNS),
    7: (*((x, y) for y in (24, 54, 84) for x in _COLUMNS), (_MIDDLE, 39)),
    8: (*((x, y) for y in (24, 54, 84) for x in _COLUMNS), (_MIDDLE, 39), (_MIDDLE, 69)),
    9: (*((x, y) for y in (20, 41, 62, 84) for x in _COLUMNS), (_MIDDLE, 52)),
    10: (*((x, y) for y in (20, 41, 62, 84) for x in _COLUMNS), (_MIDDLE, 31), (_MIDDLE, 73)),
}


@dataclass(frozen=True)
class CardFace:
    """How one card's face is drawn (once per page, an SVG ``symbol`` the cards ``use``).

    ``code``: the card's 2 digits; ``kind``: ``pip``, ``court``, ``trump`` or ``excuse``;
    ``suit``: ``clubs`` .. ``diamonds`` (``trumps``, ``excuse``); ``index``: what the corner
    shows (a number, or ``""`` for a court card and the excuse, whose corner is a symbol);
    ``court``: ``jack``, ``knight``, ``queen``, ``king`` or ``""``; ``pips``: the pips'
    centres; ``oudler``: the petit, the 21 and the excuse are marked; ``label``: the card's
    name in symbols (``8♣``, ``♛♥``, ``21``, ``★``).
    """

    code: str
    kind: str
    suit: str
    index: str
    court: str = ""
    pips: tuple[tuple[float, float], ...] = ()
    oudler: bool = False
    label: str = ""

    @classmethod
    def of(cls, card: Card) -> CardFace:
        """Return the face of ``card`` (0..77)."""
        code = card_text(card)
        if card == EXCUSE:
            return cls(code, "excuse", "excuse", "", oudler=True, label=_STAR)
        number = rank(card)
        if is_trump(card):
            return cls(
                code, "trump", "trumps", str(number), oudler=card in OUDLERS, label=str(number)
            )
        which = suit(card)
        sign = _SUIT_SIGNS[which]
        if number > 10:
            return cls(
                code,
                "court",
                _SUIT_NAMES[which],
                "",
                court=_COURT_NAMES[number],
                label=_COURT_SIGNS[number] + sign,
            )
        return cls(
            code,
            "pip",
            _SUIT_NAMES[which],
            str(number),
            pips=_PIPS[number],
            label=f"{number}{sign}",
        )


#: Every card's face, by number.
FACES: tuple[CardFace, ...] = tuple(CardFace.of(card) for card in range(78))


@dataclass(frozen=True)
class CardView:
    """One card where it lies: ``code`` (2 digits, ``??`` a back), its place on the table
    (``x``, ``y``: the top-left corner; ``angle`` in degrees about the card's ``pivot``;
    ``scale``), and for the viewer's hand ``playable`` (a card that may be played now) or
    ``selectable`` (a card that may be put aside in the écart); ``seat`` of the trick's
    cards; ``last_move``: the seat whose Move this card is; ``arrives``: the place it comes
    from (the card just played)."""

    code: str
    x: float
    y: float
    scale: float = 1.0
    angle: float = 0.0
    pivot: tuple[float, float] = (0.0, 0.0)
    seat: int | None = None
    playable: bool = False
    selectable: bool = False
    last_move: int | None = None
    arrives: str = ""

    @property
    def hidden(self) -> bool:
        """Return whether the card is face down."""
        return self.code == HIDDEN

    @property
    def face(self) -> CardFace | None:
        """Return the face drawn, ``None`` for a back."""
        return None if self.hidden else FACES[int(self.code)]

    @property
    def label(self) -> str:
        """Return the card's name in symbols, ``??`` for a back."""
        face = self.face
        return HIDDEN if face is None else face.label

    @property
    def transform(self) -> str:
        """Return the SVG ``transform`` placing the card."""
        moved = f"translate({_n(self.x)} {_n(self.y)})"
        if self.scale != 1.0:
            moved += f" scale({_n(self.scale)})"
        if self.angle:
            px, py = self.pivot
            return f"rotate({_n(self.angle)} {_n(px)} {_n(py)}) {moved}"
        return moved


def _n(value: float) -> str:
    """Return a coordinate with at most 2 decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@dataclass(frozen=True)
class SeatView:
    """A seat at the table: its number, its ``place`` (``bottom``, ``right``, ``top``,
    ``left``), its name and total (``gain``, ``None`` when not given), its bid (``None``
    before it spoke), whether it is the ``dealer``, the ``taker``, the seat to act
    (``turn``), a winner of the match (``winner``, at ``Method=End``), its ``cards`` as laid
    out, and where its plate is (``plate_x``, ``plate_y``, top-left corner)."""

    seat: int
    place: str
    name: str
    gain: int | None
    bid: int | None
    dealer: bool
    taker: bool
    turn: bool
    winner: bool
    cards: tuple[CardView, ...]
    plate_x: float
    plate_y: float
    bid_moved: bool = False

    @property
    def gain_text(self) -> str:
        """Return the total signed (``+75``, ``-25``, ``0``), ``""`` when not given."""
        if self.gain is None:
            return ""
        return f"{self.gain:+d}" if self.gain else "0"

    @property
    def count(self) -> int:
        """Return the number of cards the seat holds."""
        return len(self.cards)


@dataclass(frozen=True)
class BidControl:
    """A bid the viewer may be offered: ``bid`` 0..4, its ``multiplier`` (0 for a pass),
    whether it is ``allowed`` now, and its centre ``x``, ``y``."""

    bid: int
    multiplier: int
    allowed: bool
    x: float
    y: float


@dataclass(frozen=True)
class Gathered:
    """The trick just completed, shown in the middle, then going to its ``winner`` at
    ``toward`` (``dx``, ``dy``) once ``Wait`` has passed; ``cards`` in the trick's places."""

    winner: int
    place: str
    dx: float
    dy: float
    cards: tuple[CardView, ...]


@dataclass(frozen=True, kw_only=True)
class TarotView(View):
    """The table as drawn.

    - ``deal``, ``phase`` (``B``, ``E``, ``P``, ``S``; ``""`` without a Tray), ``viewer``;
    - ``seats``: the four seats in seat order; :attr:`around` in the order drawn;
    - ``dog``: the dog's cards where they lie (the middle while it is shown, small beside the
      table once the écart is made), ``dog_shown``: in the middle;
    - ``trick``: the cards of the trick in play, ``leader``: its leader (``None`` outside
      the play), ``slots``: the four places of the trick;
    - ``gathered``: the trick just completed going to its winner, or ``None``;
    - ``previous``: the last trick won (shown on demand), its ``leader`` and ``winner``;
    - ``bids``: the bid controls while the viewer is asked a bid;
    - ``ecart``: the écart is composed now; ``ecart_trumps``: how many trumps it may hold;
    - ``faces``: the card faces the page draws, once each.
    """

    deal: int | None = None
    phase: str = ""
    viewer: int = 1
    seats: tuple[SeatView, ...] = ()
    dog: tuple[CardView, ...] = ()
    dog_shown: bool = False
    dog_move: int | None = None
    trick: tuple[CardView, ...] = ()
    leader: int | None = None
    slots: tuple[tuple[int, float, float], ...] = ()
    gathered: Gathered | None = None
    previous: tuple[CardView, ...] = ()
    previous_leader: int | None = None
    previous_winner: int | None = None
    bids: tuple[BidControl, ...] = ()
    ecart: bool = False
    ecart_trumps: int = 0
    faces: tuple[CardFace, ...] = field(default=())
    delayed: bool = False

    @property
    def around(self) -> tuple[SeatView, ...]:
        """Return the seats in the order the page lays them: top, left, right, then the
        viewer."""
        order = {"top": 0, "left": 1, "right": 2, "bottom": 3}
        return tuple(sorted(self.seats, key=lambda seat: order[seat.place]))

    @property
    def others(self) -> tuple[SeatView, ...]:
        """Return the three other seats, top, left, right."""
        return self.around[:3]

    @property
    def mine(self) -> SeatView | None:
        """Return the viewer's seat (its hand comes last on the page, after the table and
        its controls, in the keyboard's order); ``None`` without seats."""
        return self.around[3] if len(self.seats) == SEATS else None


# --- laying the table out ---------------------------------------------------------------


def _fan(codes: Sequence[str]) -> list[tuple[float, float, float, tuple[float, float]]]:
    """Return ``(x, y, angle, pivot)`` of each card of the viewer's hand along its arc."""
    count = len(codes)
    if not count:
        return []
    step = min(_FAN_STEP, (_FAN_SPAN - CARD_W) / max(1, count - 1))
    centre = WIDTH / 2
    pivot = (centre, _FAN_TOP + _FAN_RADIUS)
    laid = []
    for k in range(count):
        offset = (k - (count - 1) / 2) * step
        angle = math.degrees(offset / _FAN_RADIUS)
        laid.append((centre - CARD_W / 2, _FAN_TOP, angle, pivot))
    return laid


def _row(count: int, place: str, faces: bool) -> list[tuple[float, float]]:
    """Return the top-left corners of ``count`` small cards of the seat at ``place``: a row
    at the top, a column on the left or the right."""
    if not count:
        return []
    w, h = CARD_W * SMALL, CARD_H * SMALL
    wanted = _FACE_STEP if faces else _BACK_STEP
    if place == "top":
        step = min(wanted, (380 - w) / max(1, count - 1))
        left = WIDTH / 2 - (step * (count - 1) + w) / 2
        return [(left + k * step, 52.0) for k in range(count)]
    step = min(wanted, (240 - h) / max(1, count - 1))
    x = 10.0 if place == "left" else WIDTH - 10 - w
    return [(x, 166 + k * step) for k in range(count)]


_PLATES = {
    "bottom": (8.0, 418.0),
    "right": (548.0, 118.0),
    "top": (250.0, 4.0),
    "left": (8.0, 118.0),
}


def _hand_codes(hand: Iterable[Card | None]) -> list[str]:
    return [card_text(card) for card in hand]


def _problems(tray: Tray) -> list[str]:
    """Return what contradicts itself in ``tray`` (a card shown twice, a trick outside the
    play, more tricks than a deal has); the page still draws it, with no input."""
    found: list[str] = []
    known = list(tray.known())
    if tray.phase is Phase.ECART:
        # The dog is shown as it was, and its cards are in the taker's hand too.
        for card in tray.dog:
            if card is not None and card in known:
                known.remove(card)
    if len(set(known)) != len(known):
        found.append("a card is shown twice")
    if (tray.trick is not None) != (tray.phase is Phase.PLAY):
        found.append("a trick in play is shown in the play phase only")
    if tray.phase is not Phase.BIDDING and None in tray.bids:
        found.append("every seat has bid once the bidding is over")
    if tray.phase is Phase.ECART and taker(tray) is None:
        found.append("the écart needs a taker")
    if any(
        len(hand) > HAND_SIZE
        for seat, hand in enumerate(tray.hands, 1)
        if not (tray.phase is Phase.ECART and seat == taker(tray))
    ):
        found.append(f"a hand holds {HAND_SIZE} cards at most, but the taker's in the écart")
    return found


def _read_tray(ctx: Context, errors: list[ParamError]) -> tuple[Tray | None, bool]:
    """Return the Tray (``None``: unreadable or absent) and whether it holds together."""
    if ctx.tray is None:
        return None, False
    try:
        tray = parse_tray(ctx.tray)
    except TrayError as error:
        errors.append(ParamError("tray", str(error)))
        return None, False
    problems = _problems(tray)
    if problems:
        errors.append(ParamError("tray", "; ".join(problems)))
    return tray, not problems


def _viewer(ctx: Context, tray: Tray | None, acting: int | None) -> int:
    """Return the seat at the bottom: ``Input``'s; under WebTest the seat to act; else the
    one seat whose hand shows; else seat 1."""
    if ctx.input is not None:
        return int(ctx.input)
    if tray is None:
        return 1
    if ctx.webtest and acting is not None and ctx.method.takes_input:
        return acting
    shown = [seat for seat, hand in enumerate(tray.hands, 1) if any(c is not None for c in hand)]
    return shown[0] if len(shown) == 1 else 1


def _last_played(tray: Tray) -> tuple[int, Card, Trick] | None:
    """Return the seat that played the last card, the card, and its trick (the trick in
    play, or the last one won when the trick in play is still empty)."""
    trick = tray.trick
    if trick is not None and any(card is not None for card in trick.cards):
        for k in range(SEATS - 1, -1, -1):
            seat = seat_after(trick.leader, k)
            card = trick.cards[seat - 1]
            if card is not None:
                return seat, card, trick
    if tray.tricks:
        last = tray.tricks[-1]
        seat = seat_after(last.leader, SEATS - 1)
        card = last.cards[seat - 1]
        if card is not None:
            return seat, card, last
    return None


def build(ctx: Context) -> TarotView:
    """Build the page's view model from the Context; never raises.

    An unreadable ``Tray`` draws an empty table with nothing playable (error ``tray``); one
    whose parts contradict each other is drawn, with the error and no input. A ``Gain`` that
    is not a whole number, or a ``Move`` that is not a bid, a card or an écart, is not shown
    (``gain3``, ``move2`` ...). ``Input`` for a seat the position does not wait for, or
    whose hand it does not show, gives the error ``input`` and nothing playable.
    """
    errors: list[ParamError] = []
    tray, consistent = _read_tray(ctx, errors)
    seats = tuple(Player(seat) for seat in range(1, SEATS + 1))
    gains = {
        int(p): read_param(
            read_gain,
            ctx.gain(p),
            f"gain{int(p)}",
            errors,
            "Gain is a seat's total, a whole number",
        )
        for p in seats
    }
    moves = {
        int(p): read_param(
            read_move,
            ctx.move(p),
            f"move{int(p)}",
            errors,
            "Move is a bid 0-4, a card 00-77 or an écart of 12 digits",
        )
        for p in seats
    }
    acting = seat_to_act(tray) if tray is not None and consistent else None
    viewer = _viewer(ctx, tray, acting)
    board = tray or Tray()
    place_of = {seat: PLACES[(seat - viewer) % SEATS] for seat in range(1, SEATS + 1)}

    # Who is asked, and what they may choose.
    playing = (
        tray is not None and consistent and ctx.method.takes_input and ctx.method is not Method.END
    )
    asked = viewer if (ctx.input is not None or ctx.webtest) and playing else None
    hand = board.hands[viewer - 1]
    sees_hand = all(card is not None for card in hand)
    if asked is not None and (
        acting != asked or (board.phase is not Phase.BIDDING and not sees_hand)
    ):
        if ctx.input is not None:
            errors.append(ParamError("input", f"the position does not ask seat {asked}"))
        asked = None
    known_hand = [card for card in hand if card is not None]
    playable: tuple[str, ...] = ()
    bid_controls: tuple[BidControl, ...] = ()
    ecart = False
    ecart_trumps = 0
    selectable: set[Card] = set()
    legal: set[Card] = set()
    if asked is not None and board.phase is Phase.BIDDING:
        allowed = allowed_bids(board.bids)
        playable = tuple(str(bid) for bid in allowed)
        bid_controls = tuple(
            BidControl(bid, MULTIPLIERS[bid], bid in allowed, WIDTH / 2 + (bid - 2) * 68, 330)
            for bid in BIDS
        )
    elif asked is not None and board.phase is Phase.ECART:
        choices, ecart_trumps = ecart_choices(known_hand)
        # A trump is offered only when the hand leaves no other choice.
        selectable = {card for card in choices if ecart_trumps or not is_trump(card)}
        ecart = True
    elif asked is not None and board.phase is Phase.PLAY and board.trick is not None:
        legal = set(legal_cards(known_hand, played_in_order(board.trick)))
        playable = tuple(card_text(card) for card in known_hand if card in legal)

    # The card just played, when its seat's Move says so.
    last = _last_played(board) if tray is not None else None
    moved_card: tuple[int, Card, Trick] | None = None
    if last is not None and moves.get(last[0]) == card_text(last[1]):
        moved_card = last
    completed = (
        moved_card is not None
        and moved_card[2].winner is not None
        and (board.trick is None or all(card is None for card in board.trick.cards))
    )

    # The seats and their cards.
    the_taker = taker(board) if tray is not None else None
    the_dealer = dealer(board.deal) if tray is not None else None
    winners: set[int] = set()
    if ctx.method is Method.END:
        given = {seat: gain for seat, gain in gains.items() if gain is not None}
        if given:
            best = max(given.values())
            winners = {seat for seat, gain in given.items() if gain == best}
    seat_views: list[SeatView] = []
    for seat in range(1, SEATS + 1):
        place = place_of[seat]
        codes = _hand_codes(board.hands[seat - 1])
        laid: list[CardView] = []
        if place == "bottom":
            for code, (x, y, angle, pivot) in zip(codes, _fan(codes), strict=True):
                number = None if code == HIDDEN else int(code)
                laid.append(
                    CardView(
                        code,
                        x,
                        y,
                        angle=angle,
                        pivot=pivot,
                        playable=number in legal,
                        selectable=number in selectable,
                    )
                )
        else:
            face_up = any(code != HIDDEN for code in codes)
            for code, (x, y) in zip(codes, _row(len(codes), place, face_up), strict=True):
                laid.append(CardView(code, x, y, scale=SMALL))
        plate_x, plate_y = _PLATES[place]
        bid = board.bids[seat - 1]
        seat_views.append(
            SeatView(
                seat=seat,
                place=place,
                name=ctx.name(Player(seat)),
                gain=gains[seat],
                bid=bid,
                dealer=seat == the_dealer,
                taker=seat == the_taker and board.phase is not Phase.BIDDING,
                turn=seat == acting,
                winner=seat in winners,
                cards=tuple(laid),
                plate_x=plate_x,
                plate_y=plate_y,
                bid_moved=bid is not None and moves.get(seat) == str(bid),
            )
        )

    # The trick in play.
    trick_cards: list[CardView] = []
    leader = board.trick.leader if board.trick is not None else None
    slots: tuple[tuple[int, float, float], ...] = ()
    if board.trick is not None:
        slots = tuple((seat, *_TRICK[place_of[seat]]) for seat in range(1, SEATS + 1))
        for seat, card in enumerate(board.trick.cards, 1):
            if card is None:
                continue
            x, y = _TRICK[place_of[seat]]
            just = moved_card is not None and moved_card[2] is board.trick and moved_card[0] == seat
            trick_cards.append(
                CardView(
                    card_text(card),
                    x,
                    y,
                    seat=seat,
                    last_move=seat if moves.get(seat) == card_text(card) else None,
                    arrives=place_of[seat] if just else "",
                )
            )

    # The trick just won, going to its winner.
    gathered: Gathered | None = None
    if completed and moved_card is not None and moved_card[2].winner is not None:
        won = moved_card[2]
        winner = won.winner
        assert winner is not None
        dx, dy = _TOWARD[place_of[winner]]
        gathered = Gathered(
            winner=winner,
            place=place_of[winner],
            dx=dx,
            dy=dy,
            cards=tuple(
                CardView(
                    card_text(card),
                    *_TRICK[place_of[seat]],
                    seat=seat,
                    last_move=seat if moves.get(seat) == card_text(card) else None,
                    arrives=place_of[seat] if seat == moved_card[0] else "",
                )
                for seat, card in enumerate(won.cards, 1)
                if card is not None
            ),
        )

    # The previous trick, on demand.
    previous: tuple[CardView, ...] = ()
    previous_leader = previous_winner = None
    if board.tricks:
        shown = board.tricks[-1]
        previous_leader, previous_winner = shown.leader, shown.winner
        previous = tuple(
            CardView(card_text(card), *_PREVIOUS[place_of[seat]], scale=MINI, seat=seat)
            for seat, card in enumerate(shown.cards, 1)
            if card is not None
        )

    # The dog: in the middle while it is shown (bidding, écart), else small beside the table.
    dog_codes = _hand_codes(board.dog)
    dog_shown = board.phase is not Phase.PLAY
    if dog_shown:
        step = CARD_W + 4
        left = WIDTH / 2 - (step * len(dog_codes) - 4) / 2
        top = 150.0 if bid_controls or ecart else 180.0
        dog = tuple(CardView(code, left + k * step, top) for k, code in enumerate(dog_codes))
    else:
        dog = tuple(CardView(code, 10 + k * 15, 44, scale=MINI) for k, code in enumerate(dog_codes))
    # The écart just made: the taker's Move is its 12 digits.
    ecart_move = (
        the_taker if the_taker is not None and len(moves.get(the_taker) or "") == 12 else None
    )

    faces = _faces(seat_views, dog, trick_cards, gathered, previous)
    player = Player(asked) if asked is not None and (playable or ecart) else None
    moved = any(move is not None for move in moves.values())
    return TarotView(
        tray=tray.text() if tray is not None else "",
        player=player,
        playable=playable if player is not None else (),
        composed=ecart and player is not None,
        errors=tuple(errors),
        sound="win" if winners else ("move" if moved and tray is not None else None),
        deal=board.deal if tray is not None else None,
        phase=board.phase.value if tray is not None else "",
        viewer=viewer,
        seats=tuple(seat_views),
        dog=dog,
        dog_shown=dog_shown,
        dog_move=ecart_move,
        trick=tuple(trick_cards),
        leader=leader,
        slots=slots,
        gathered=gathered,
        previous=previous,
        previous_leader=previous_leader,
        previous_winner=previous_winner,
        bids=bid_controls,
        ecart=ecart and player is not None,
        ecart_trumps=ecart_trumps,
        faces=faces,
        delayed=gathered is not None,
    )


# The previous trick's small cards, in the panel's own units (a cross in a 150x150 box).
_PREVIOUS = {
    "bottom": (59.0, 88.0),
    "right": (100.0, 46.0),
    "top": (59.0, 4.0),
    "left": (18.0, 46.0),
}


def _faces(
    seats: Iterable[SeatView],
    dog: Iterable[CardView],
    trick: Iterable[CardView],
    gathered: Gathered | None,
    previous: Iterable[CardView],
) -> tuple[CardFace, ...]:
    """Return the faces of every card shown face up, once each, by number."""
    shown: set[str] = set()
    for seat in seats:
        shown.update(card.code for card in seat.cards)
    for group in (dog, trick, previous, gathered.cards if gathered else ()):
        shown.update(card.code for card in group)
    shown.discard(HIDDEN)
    return tuple(FACES[int(code)] for code in sorted(shown))
