"""French Tarot for four: a match between two values, as the rules keep it (:class:`Game`).

A :class:`Game` is read from the rules' state (JSON, :meth:`Game.state`), checked
(:meth:`Game.problem`: every one of the 78 cards in one place ...), played one Value at a
time (:meth:`Game.apply`: a bid, an écart, a card; ``docs/reference/tarot.md`` section 2,
with the count and score of :mod:`.play`) and written as each viewer is shown it
(:meth:`Game.fields`: the nine-field Tray of section 3, the last Values, the totals).
The rules (:mod:`.rules`) drive it for the Arbitre and the tester.

For speed (a move's own cost near a compiled referee's): a state is read once per position
(:func:`position_of` keeps the :class:`Position` by the state's values in
:data:`POSITIONS`, a bounded memo, where ``play`` also keeps the game it made), and the
Tray is written straight from the game's numbers (:meth:`Game.tray_text`, the same as its
:class:`~.cards.Tray`'s :meth:`~.cards.Tray.text`), the fields that change only every few
values kept by what they write.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from tournoyons_gui.interfaces.memo import Memo
from tournoyons_gui.interfaces.plugin import IllegalMove, Turn
from tournoyons_gui.interfaces.protocol import Method, PageParams, Player
from tournoyons_gui.interfaces.tarot.cards import (
    CARD_TEXTS,
    CARDS,
    DEAL_SIZE,
    DOG_SIZE,
    EXCUSE,
    HAND_SIZE,
    HIDDEN,
    NOT_PLAYED,
    SEATS,
    TRICKS,
    Bid,
    Card,
    Phase,
    Tray,
    Trick,
    card_text,
    cards_text,
    is_trump,
)
from tournoyons_gui.interfaces.tarot.play import (
    Score,
    allowed_bids,
    check_ecart,
    ecart_choices,
    legal_cards,
    petit_sec,
    score_deal,
    seat_after,
    trick_winner,
)

__all__ = [
    "MAX_MATCH_DEALS",
    "PETIT_SEC_REDEALS",
    "POSITIONS",
    "Game",
    "Position",
    "StateKey",
    "dealer",
    "game_key",
    "position_of",
    "state_key",
]

#: The most deals a match may ask: deals passed by all do not count, and the Tray numbers
#: deals with two digits, so room is left for them under 99.
MAX_MATCH_DEALS = 40
#: Petit sec redeals in a row after which the deal stands (a bound, never met in play: a
#: petit sec comes about once in 50 deals).
PETIT_SEC_REDEALS = 100

_RNG = random.SystemRandom()
_DIGITS = re.compile(r"[0-9]+")
#: A seat that has not spoken, or a trick's seat that has not played, in the state.
_NONE = -1
#: ``Move1``..``Move4``, by seat.
_MOVE_NAMES = {seat: f"Move{seat}" for seat in range(1, SEATS + 1)}
#: Each phase as the state and the Tray write it (:attr:`Phase.value`).
_PHASE_TEXT = {phase: phase.value for phase in Phase}
#: The Tray's first field, the deal number and the phase, for deals 1 to 99.
_HEADS = {(deal, phase): f"{deal:02d}{phase.value}" for deal in range(1, 100) for phase in Phase}
#: The seats in the order they play a trick, by its leader.
_ORDERS = {leader: [seat_after(leader, step) for step in range(SEATS)] for leader in (1, 2, 3, 4)}
#: The 78 cards: every card of a deal, each once.
_PACK = frozenset(range(CARDS))
#: What a state's bid may be: not spoken yet, or a bid 0 to 4.
_BID_VALUES = frozenset({_NONE, *range(len(Bid))})


def _pack(
    decks: tuple[tuple[Card, ...], ...], seed: int | None, deal: int, attempt: int
) -> tuple[tuple[Card, ...], tuple[tuple[Card, ...], ...]]:
    """Return a pack in dealing order and the scripted packs left: the first of ``decks``
    (tests); else, in a match with a ``seed``, the pack of deal ``deal``'s ``attempt``
    (0, then 1, 2 ... after petit sec redeals) shuffled by ``random.Random`` seeded with
    ``"tarot-<seed>-<deal>-<attempt>"`` (SHA-512 of the text: the same pack on every
    machine, so two matches of one seed are dealt alike, deal after deal, a duplicate
    deal); else a fresh cryptographic shuffle (spec section 2, "Deal")."""
    if decks:
        return decks[0], decks[1:]
    pack = list(range(CARDS))
    if seed is None:
        _RNG.shuffle(pack)
    else:
        random.Random(f"tarot-{seed}-{deal}-{attempt}").shuffle(pack)
    return tuple(pack), ()


def _hands(pack: Sequence[Card]) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Return the 4 hands (18 cards each, in order) and the dog of a pack."""
    hands = tuple(tuple(sorted(pack[HAND_SIZE * i : HAND_SIZE * (i + 1)])) for i in range(SEATS))
    return hands, tuple(sorted(pack[SEATS * HAND_SIZE :]))


def dealer(deal: int) -> int:
    """Return the seat dealing deal ``deal``: seat 4 the first, then the next seat."""
    return (deal + 2) % SEATS + 1


#: A state's values (:func:`state_key`), in :meth:`Game.state`'s order.
StateKey = tuple[Any, ...]


def state_key(state: Mapping[str, Any]) -> StateKey | None:
    """Return the values of ``state`` as nested tuples, which :meth:`Game.read` reads as
    it reads the state (each card and number through ``int``, so that values a key finds
    equal, ``1`` and ``1.0``, read the same); ``None`` for a state with scripted packs, or
    whose moves or score are not written with strings (read through ``str``), or that has
    not the fields' shapes (:meth:`Game.read` then says why)."""
    try:
        moves, score = state["moves"], state.get("score")
        if state.get("decks") or not all(type(move) is str for move in moves):
            return None
        if score is not None and not all(type(name) is str for name in score):
            return None
        return (
            state["deals"],
            state["played"],
            state["deal"],
            state["phase"],
            tuple(map(tuple, state["hands"])),
            tuple(state["dog"]),
            tuple(state["aside"]),
            tuple(state["bids"]),
            state["leader"],
            tuple(state["trick"]),
            tuple(map(tuple, state["tricks"])),
            tuple(state["totals"]),
            tuple(moves),
            state["count"],
            None if score is None else tuple(score.items()),
            tuple(state.get("upcoming") or ()),
            state.get("redeals", 0),
            state.get("seed"),
        )
    except (KeyError, TypeError, AttributeError):
        return None


def game_key(game: Game) -> StateKey | None:
    """Return :func:`state_key` of ``game.state()``, from the game's own values."""
    if game.decks:
        return None
    score = game.score
    return (
        game.deals,
        game.played,
        game.deal,
        _PHASE_TEXT[game.phase],
        game.hands,
        game.dog,
        game.aside,
        game.bids,
        game.leader,
        game.trick,
        game.tricks,
        game.totals,
        game.moves,
        game.count,
        None if score is None else tuple(score.items()),
        game.upcoming,
        game.redeals,
        game.seed,
    )


class Position:
    """What the rules worked out on one position (a state's values): its ``game``,
    ``checked`` once :meth:`Game.problem` found nothing (as :meth:`Game.read` does; a
    game ``play`` made is checked when its state is first read), and as the calls on it
    go, the last Value applied to it with the game it made (``applied``: ``engine_value``
    checks a Value by applying it, ``play`` applies it next) and the fields of the page of
    the seat asked (``fields``: ``play`` writes them for the Turn it returns, ``request``
    sends them next). Each slot holds one answer, replaced whole (a tuple), so threads
    sharing a position can only miss an answer, never mix two."""

    __slots__ = ("applied", "checked", "fields", "game")

    def __init__(self, game: Game, *, checked: bool = True) -> None:
        """Hold ``game`` (``checked``: read from a state), nothing worked out on it yet."""
        self.game = game
        self.checked = checked
        self.applied: tuple[str, Game] | None = None
        self.fields: tuple[int, Mapping[str, str]] | None = None


#: The positions read last, by their state's values (:func:`state_key`), and those
#: ``play`` made, by the values of the state it returns (a bounded memo).
POSITIONS: Memo[StateKey, Position] = Memo(128)


def position_of(state: Mapping[str, Any]) -> Position:
    """Return the position of ``state`` in :data:`POSITIONS`, read (:meth:`Game.read`)
    and kept when it is not there; a position not kept (scripted packs, a value that
    cannot be a key) when the state cannot be kept."""
    key = state_key(state)
    if key is None:
        return Position(Game.read(state))
    try:
        position = POSITIONS.get(key)
    except TypeError:  # a value that cannot be a key (a list for a number ...)
        return Position(Game.read(state))
    if position is None:
        return POSITIONS.keep(key, Position(Game.read(state)))
    if not position.checked:  # a game play made, its state read for the first time
        problem = position.game.problem()
        if problem:
            raise IllegalMove(f"the match's state is corrupt: {problem}")
        position.checked = True
    return position


def _changed(game: Game, **changes: Any) -> Game:
    """Return ``game`` with ``changes`` (fields of :class:`Game`): what
    :func:`dataclasses.replace` does, without running ``__init__`` again (a Game has no
    ``__post_init__``), as the rules make several new games per value."""
    new = object.__new__(Game)
    new.__dict__.update(game.__dict__, **changes)
    return new


@dataclass(frozen=True)
class Game:
    """A match between two values (the rules' ``Turn.state``, as JSON by :meth:`state`).

    - ``deals``: deals to score; ``played``: deals scored; ``deal``: the deal number 1..99
      (deals passed by all included, petit sec redeals not); ``phase``: :class:`Phase`;
    - ``hands``: the cards each seat holds; ``dog``: the dog as dealt; ``aside``: the
      cards put aside (the écart), ``()`` before it and without one;
    - ``bids``: each seat's bid, ``-1`` before it spoke;
    - ``leader``, ``trick``: the trick in play (its cards in seat order, ``-1`` not
      played; leader 0 outside the play); ``tricks``: ``(leader, 4 cards, winner)`` each;
    - ``totals``: each seat's total; ``moves``: each seat's last Value in this deal;
      ``count``: values applied in the match; ``score``: the last deal's, or ``None``;
    - ``upcoming``: the next deal's pack once a deal is scored and the match goes on;
      ``redeals``: petit sec redeals in the match; ``decks``: scripted packs (tests);
    - ``seed``: the match's seed, whose deals follow from it (a duplicate deal), or
      ``None`` (a cryptographic shuffle per deal); kept in the state only when given.
    """

    deals: int
    played: int = 0
    deal: int = 1
    phase: Phase = Phase.BIDDING
    hands: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    dog: tuple[Card, ...] = ()
    aside: tuple[Card, ...] = ()
    bids: tuple[int, ...] = (_NONE,) * SEATS
    leader: int = 0
    trick: tuple[int, ...] = (_NONE,) * SEATS
    tricks: tuple[tuple[int, ...], ...] = ()
    totals: tuple[int, ...] = (0,) * SEATS
    moves: tuple[str, ...] = ("",) * SEATS
    count: int = 0
    score: Mapping[str, int] | None = None
    upcoming: tuple[Card, ...] = ()
    redeals: int = 0
    decks: tuple[tuple[Card, ...], ...] = ()
    seed: int | None = None

    # --- the state ------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Return the JSON-serialisable state (``seed`` only when the match has one)."""
        state: dict[str, Any] = {
            "deals": self.deals,
            "played": self.played,
            "deal": self.deal,
            "phase": _PHASE_TEXT[self.phase],
            "hands": list(map(list, self.hands)),
            "dog": list(self.dog),
            "aside": list(self.aside),
            "bids": list(self.bids),
            "leader": self.leader,
            "trick": list(self.trick),
            "tricks": list(map(list, self.tricks)),
            "totals": list(self.totals),
            "moves": list(self.moves),
            "count": self.count,
            "score": None if self.score is None else dict(self.score),
            "upcoming": list(self.upcoming),
            "redeals": self.redeals,
            "decks": [list(deck) for deck in self.decks],
        }
        if self.seed is not None:
            state["seed"] = self.seed
        return state

    @classmethod
    def load(cls, state: Mapping[str, Any]) -> Game:
        """Read ``state``; raise :class:`IllegalMove` when it is not a match of ours (its
        fields' shapes, and every one of the 78 cards in one place).

        A state without scripted packs is read once and kept, by its values (a bounded
        cache: every call of the rules on a position reads the same state); the game
        read is immutable (its ``score`` a read-only mapping)."""
        return position_of(state).game

    @classmethod
    def read(cls, state: Mapping[str, Any]) -> Game:
        """Read ``state`` as :meth:`load` does, without the cache."""

        def ints(value: Any, size: int | None = None) -> tuple[int, ...]:
            read = tuple(map(int, value))
            if size is not None and len(read) != size:
                raise ValueError(f"{size} values expected")
            return read

        try:
            score = state.get("score")
            game = cls(
                deals=int(state["deals"]),
                played=int(state["played"]),
                deal=int(state["deal"]),
                phase=Phase(state["phase"]),
                hands=tuple(ints(hand) for hand in state["hands"]),
                dog=ints(state["dog"]),
                aside=ints(state["aside"]),
                bids=ints(state["bids"], SEATS),
                leader=int(state["leader"]),
                trick=ints(state["trick"], SEATS),
                tricks=tuple(ints(trick, 2 + SEATS) for trick in state["tricks"]),
                totals=ints(state["totals"], SEATS),
                moves=tuple(str(move) for move in state["moves"]),
                count=int(state["count"]),
                score=None
                if score is None
                else MappingProxyType({str(k): int(v) for k, v in score.items()}),
                upcoming=ints(state.get("upcoming") or ()),
                redeals=int(state.get("redeals", 0)),
                decks=tuple(ints(deck, CARDS) for deck in state.get("decks") or ()),
                seed=None if state.get("seed") is None else int(state["seed"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as broken:
            raise IllegalMove(f"the match's state is corrupt: {broken}") from None
        problem = game.problem()
        if problem:
            raise IllegalMove(f"the match's state is corrupt: {problem}")
        return game

    def problem(self) -> str | None:
        """Return what makes this state impossible, or ``None``."""
        if not (1 <= self.deals <= MAX_MATCH_DEALS and 0 <= self.played <= self.deals):
            return "deals out of range"
        if not 1 <= self.deal <= DEAL_SIZE or len(self.hands) != SEATS or len(self.moves) != SEATS:
            return "deal out of range"
        held = self.cards()  # 78 cards, each once: as sorted, 0 to 77
        if len(held) != CARDS or set(held) != _PACK:
            return "the 78 cards are not each in one place"
        if self.upcoming and (len(self.upcoming) != CARDS or set(self.upcoming) != _PACK):
            return "the next deal's pack is not the 78 cards"
        if not _BID_VALUES.issuperset(self.bids):
            return "a bid is 0 to 4"
        if self.phase is Phase.PLAY and not 1 <= self.leader <= SEATS:
            return "the trick in play has no leader"
        if len(self.tricks) > TRICKS or max(map(len, self.moves), default=0) > 2 * DOG_SIZE:
            return "too many tricks"
        return None

    def cards(self) -> list[Card]:
        """Return every card of the deal where it is: the hands, the dog (or the cards put
        aside), the trick in play, the tricks played (the dog counted once in phase E,
        where the taker holds it)."""
        held: list[Card] = []
        for hand in self.hands:
            held.extend(hand)
        if self.phase is not Phase.ECART:
            held.extend(self.aside if self.aside else self.dog)
        trick = self.trick
        held.extend(trick if _NONE not in trick else (card for card in trick if card != _NONE))
        for played in self.tricks:
            held.extend(played[1:-1])
        return held

    # --- who and what -----------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Return whether the match has ended: a deal scored and nothing to deal next."""
        return self.phase is Phase.SCORED and not self.upcoming

    @property
    def first(self) -> int:
        """Return the seat after the dealer: it speaks first and leads the first trick."""
        return seat_after(dealer(self.deal))

    @property
    def contract(self) -> int:
        """Return the highest bid spoken (0: none yet, or all passed)."""
        return max(0, *self.bids)  # bids only rise, so the highest is the taker's

    @property
    def taker(self) -> int:
        """Return the taker's seat (0 before a bid above a pass)."""
        contract = self.contract
        return self.bids.index(contract) + 1 if contract > 0 else 0

    def to_act(self) -> int:
        """Return the seat asked now (0: the match is over); between two deals, the next
        deal's first speaker."""
        if self.phase is Phase.SCORED:
            return 0 if self.over else self.advanced().to_act()
        if self.phase is Phase.BIDDING:
            spoken = sum(1 for bid in self.bids if bid != _NONE)
            return seat_after(self.first, spoken)
        if self.phase is Phase.ECART:
            return self.taker
        played = len(self.trick) - self.trick.count(_NONE)
        return seat_after(self.leader, played)

    def played_in_order(self) -> list[Card]:
        """Return the trick in play's cards in the order played."""
        order = _ORDERS.get(self.leader) or [seat_after(self.leader, s) for s in range(SEATS)]
        return [self.trick[seat - 1] for seat in order if self.trick[seat - 1] != _NONE]

    def legal(self) -> tuple[str, ...]:
        """Return the Values the seat asked may give now (bids, or cards as 2 digits; for
        the écart, the cards it may put aside)."""
        if self.phase is Phase.SCORED:
            return () if self.over else self.advanced().legal()
        if self.phase is Phase.BIDDING:
            return tuple(str(bid) for bid in allowed_bids(self.bids))
        seat = self.to_act()
        if self.phase is Phase.ECART:
            return tuple(card_text(card) for card in ecart_choices(self.hands[seat - 1])[0])
        return tuple(
            card_text(card) for card in legal_cards(self.hands[seat - 1], self.played_in_order())
        )

    # --- dealing ----------------------------------------------------------------------

    def dealt(self) -> Game:
        """Return this deal dealt from a fresh pack (petit sec: dealt again, same dealer);
        with a seed, the deal's packs follow from it (:func:`_pack`)."""
        decks, redeals = self.decks, self.redeals
        pack, decks = _pack(decks, self.seed, self.deal, 0)
        for attempt in range(1, PETIT_SEC_REDEALS + 1):
            if not any(petit_sec(hand) for hand in _hands(pack)[0]):
                break
            redeals += 1
            pack, decks = _pack(decks, self.seed, self.deal, attempt)
        return _changed(self, decks=decks, redeals=redeals).from_pack(pack)

    def from_pack(self, pack: Sequence[Card]) -> Game:
        """Return this deal in its bidding, dealt from ``pack`` (hands in seat order)."""
        hands, dog = _hands(pack)
        return _changed(
            self,
            phase=Phase.BIDDING,
            hands=hands,
            dog=dog,
            aside=(),
            bids=(_NONE,) * SEATS,
            leader=0,
            trick=(_NONE,) * SEATS,
            tricks=(),
            moves=("",) * SEATS,
            upcoming=(),
        )

    def advanced(self) -> Game:
        """Return the next deal in its bidding (a deal scored, the match going on)."""
        if not self.upcoming:
            raise IllegalMove("the match is over")
        return _changed(self, deal=self.deal + 1).from_pack(self.upcoming)

    def scored(self, score: Score | None) -> Game:
        """Return the deal over (``score``: the deal scored; ``None``: all passed), with
        the next deal's pack drawn unless the match ends."""
        game = _changed(self, phase=Phase.SCORED, leader=0, trick=(_NONE,) * SEATS)
        if score is not None:
            totals = tuple(
                total + delta for total, delta in zip(self.totals, score.scores, strict=True)
            )
            score_json = MappingProxyType(score.json())
            game = _changed(game, totals=totals, played=self.played + 1, score=score_json)
        if game.played >= game.deals or game.deal >= DEAL_SIZE:
            return game
        following = _changed(game, deal=game.deal + 1).dealt()
        return _changed(
            game,
            upcoming=tuple(card for hand in following.hands for card in hand) + following.dog,
            decks=following.decks,
            redeals=following.redeals,
        )

    # --- playing ----------------------------------------------------------------------

    def bid(self, seat: int, value: str) -> Game:
        """Return the game after ``seat`` spoke ``value`` (``0``..``4``; not above the
        highest bid: a pass)."""
        if value not in ("0", "1", "2", "3", "4"):
            raise IllegalMove(f"a bid is 0 to 4, not {value[:20]!r}")
        bid = int(value) if int(value) in allowed_bids(self.bids) else 0
        bids = tuple(
            bid if number == seat else spoken for number, spoken in enumerate(self.bids, 1)
        )
        game = _changed(self, bids=bids, moves=self._moved(seat, str(bid)))
        if _NONE in bids:
            return game
        if game.contract == 0:
            return game.scored(None)
        taker = game.taker
        if game.contract <= Bid.GARDE:
            hands = tuple(
                tuple(sorted(hand + self.dog)) if number == taker else hand
                for number, hand in enumerate(self.hands, 1)
            )
            return _changed(game, phase=Phase.ECART, hands=hands)
        return _changed(game, phase=Phase.PLAY, leader=game.first)

    def put_aside(self, seat: int, value: str) -> Game:
        """Return the game after the taker put aside the 6 cards of ``value`` (12 digits)."""
        if len(value) != 2 * DOG_SIZE or _DIGITS.fullmatch(value) is None:
            raise IllegalMove(f"the écart is {DOG_SIZE} cards of 2 digits each")
        ecart = tuple(sorted(int(value[at : at + 2]) for at in range(0, len(value), 2)))
        hand = self.hands[seat - 1]
        why = check_ecart(hand, ecart)
        if why:
            raise IllegalMove(why)
        hands = tuple(
            tuple(card for card in held if card not in ecart) if number == seat else held
            for number, held in enumerate(self.hands, 1)
        )
        moves = self._moved(seat, "".join(card_text(card) for card in ecart))
        return _changed(
            self, phase=Phase.PLAY, hands=hands, aside=ecart, moves=moves, leader=self.first
        )

    def play_card(self, seat: int, value: str) -> Game:
        """Return the game after ``seat`` played the card ``value`` (2 digits)."""
        if len(value) != 2 or _DIGITS.fullmatch(value) is None:
            raise IllegalMove(f"a card is 2 digits, not {value[:20]!r}")
        card = int(value)
        hand = self.hands[seat - 1]
        if card not in legal_cards(hand, self.played_in_order()):
            raise IllegalMove(f"card {value} may not be played now")
        held = tuple(other for other in hand if other != card)
        hands = (*self.hands[: seat - 1], held, *self.hands[seat:])
        trick = (*self.trick[: seat - 1], card, *self.trick[seat:])
        game = _changed(self, hands=hands, trick=trick, moves=self._moved(seat, value))
        if _NONE in trick:
            return game
        winner = game.trick_won()
        tricks = (*game.tricks, (game.leader, *trick, winner))
        game = _changed(game, tricks=tricks, trick=(_NONE,) * SEATS, leader=winner)
        if len(tricks) < TRICKS:
            return game
        taker = game.taker
        dog = game.aside if game.contract <= Bid.GARDE else game.dog
        played = [(t[0], t[1:-1], t[-1]) for t in tricks]
        return game.scored(score_deal(game.contract, taker, played, dog))

    def trick_won(self) -> int:
        """Return the winner of the complete trick in play: the highest trump or card of
        the suit led; at the last trick, the excuse's owner when its side won every other
        trick (spec section 2, "The excuse")."""
        winner = trick_winner(self.leader, self.trick)
        if len(self.tricks) == TRICKS - 1 and EXCUSE in self.trick:
            owner = self.trick.index(EXCUSE) + 1
            taker = self.taker

            def side(seat: int) -> bool:
                return seat == taker

            if all(side(trick[-1]) == side(owner) for trick in self.tricks):
                return owner
        return winner

    def _moved(self, seat: int, value: str) -> tuple[str, ...]:
        """Return the seats' last Values with ``seat``'s now ``value``."""
        return tuple(value if number == seat else move for number, move in enumerate(self.moves, 1))

    def apply(self, value: str) -> Game:
        """Return the game after the seat asked gave ``value`` (any phase); raise
        :class:`IllegalMove` when it is not legal now."""
        game = self.advanced() if self.phase is Phase.SCORED else self
        seat = game.to_act()
        if game.phase is Phase.BIDDING:
            game = game.bid(seat, value)
        elif game.phase is Phase.ECART:
            game = game.put_aside(seat, value)
        else:
            game = game.play_card(seat, value)
        return _changed(game, count=game.count + 1)

    # --- what a viewer sees -------------------------------------------------------------

    def tray(self, seat: int | None, *, everything: bool = False) -> Tray:
        """Return the Tray as ``seat`` sees it (its own hand; ``None``: a spectator, no
        hand), or every card when ``everything`` (the rules' view, a replay)."""

        def shown(cards: Sequence[Card], visible: bool) -> tuple[Card | None, ...]:
            return tuple(card if visible else None for card in cards)

        hands = tuple(
            shown(hand, everything or seat == number) for number, hand in enumerate(self.hands, 1)
        )
        trick = None
        if self.phase is Phase.PLAY:
            cards = tuple(None if card == _NONE else card for card in self.trick)
            trick = Trick(self.leader, (cards[0], cards[1], cards[2], cards[3]))
        return Tray(
            deal=self.deal,
            phase=self.phase,
            bids=tuple(None if bid == _NONE else bid for bid in self.bids),
            hands=hands,
            dog=self.dog_shown(seat, everything=everything),
            trick=trick,
            tricks=tuple(Trick(t[0], (t[1], t[2], t[3], t[4]), t[5]) for t in self.tricks),
        )

    def dog_shown(self, seat: int | None, *, everything: bool = False) -> tuple[Card | None, ...]:
        """Return the Tray's dog as ``seat`` sees it (:meth:`tray`): after the écart, the
        cards put aside, which the taker sees and the others by their trumps only; else
        the dog, shown at the écart, after a deal all passed or played, or ``everything``."""
        cards, seen = self._dog_seen(seat, everything=everything)
        return _seen(cards, seen)

    def _dog_seen(self, seat: int | None, *, everything: bool) -> tuple[tuple[Card, ...], str]:
        """Return the Tray's dog field's cards and how ``seat`` sees them (:func:`_seen`)."""
        over = self.phase is Phase.SCORED
        if self.aside:
            sees = everything or over or seat == self.taker
            return self.aside, "all" if sees else "trumps"
        dog_shown = self.phase is Phase.ECART or (
            over and (self.contract == 0 or bool(self.tricks))
        )
        return self.dog, "all" if everything or dog_shown else "none"

    def tray_text(self, seat: int | None, *, everything: bool = False) -> str:
        """Return ``self.tray(seat, everything=everything).text()``: the Tray's nine fields,
        written straight from the game's numbers (spec section 3), the fields that change
        every few values (the bids, the dog, the tricks) kept by what they write (small
        bounded caches)."""
        hands = [
            cards_text(hand) if everything or seat == number else HIDDEN * len(hand)
            for number, hand in enumerate(self.hands, 1)
        ]
        return ".".join(
            (
                _HEADS.get((self.deal, self.phase)) or f"{self.deal:02d}{self.phase.value}",
                _bids_text(self.bids),
                *hands,
                _seen_text(*self._dog_seen(seat, everything=everything)),
                _trick_text(self.leader, self.trick) if self.phase is Phase.PLAY else "",
                _tricks_text(self.tricks),
            )
        )

    def shown_moves(self, seat: int | None, *, everything: bool = False) -> dict[str, str]:
        """Return ``Move1``..``Move4`` as ``seat`` is shown them: each seat's last Value
        in this deal, another seat's écart written as the cards put aside are shown."""
        moves: dict[str, str] = {}
        for number, move in enumerate(self.moves, 1):
            if not move:
                continue
            if len(move) == 2 * DOG_SIZE and not (everything or seat == number):
                move = _seen_text(*self._dog_seen(seat, everything=False))
            moves[_MOVE_NAMES[number]] = move
        return moves

    def fields(self, seat: int | None, *, everything: bool = False) -> dict[str, str]:
        """Return :meth:`params` as a mapping, in the order written."""
        fields = {"Tray": self.tray_text(seat, everything=everything)}
        fields.update(self.shown_moves(seat, everything=everything))
        fields.update(_gains(self.totals))
        fields["Count"] = str(self.played)
        return fields

    def params(self, seat: int | None, *, everything: bool = False) -> PageParams:
        """Return a page's ``Tray``, ``Move1``..``Move4``, ``Gain1``..``Gain4`` and
        ``Count`` (the deals scored) as ``seat`` sees them."""
        return PageParams(tuple(self.fields(seat, everything=everything).items()))

    def turn(self) -> Turn:
        """Return the hot-seat Turn: the page of the seat asked, as that seat sees it (the
        next deal's once a deal is scored), with ``Input``; at the end every card shown
        and ``Method=End``."""
        if self.over:
            params = self.fields(None, everything=True)
            params.update(_END)
            return Turn(state=self.state(), params=params, over=True)
        seat = self.to_act()
        shown = self.advanced() if self.phase is Phase.SCORED else self
        params = shown.fields(seat)
        params["Input"] = Player(seat).word
        return Turn(state=self.state(), params=params)


#: ``Method`` of the page once the match is over.
_END = PageParams().method(Method.END).params


def _seen(cards: tuple[Card, ...], seen: str) -> tuple[Card | None, ...]:
    """Return ``cards`` as a viewer sees them: ``"all"``, their ``"trumps"`` only, or
    ``"none"`` (``None``: a card hidden)."""
    if seen == "all":
        return cards
    return tuple(card if seen == "trumps" and is_trump(card) else None for card in cards)


@functools.lru_cache(maxsize=256)
def _seen_text(cards: tuple[Card, ...], seen: str) -> str:
    """Return the dog's field of the Tray: :func:`cards_text` of :func:`_seen`, kept."""
    return cards_text(_seen(cards, seen))


@functools.lru_cache(maxsize=256)
def _bids_text(bids: tuple[int, ...]) -> str:
    """Return the Tray's bids field: each seat's bid, ``-`` before it spoke; kept."""
    return "".join("-" if bid == _NONE else str(bid) for bid in bids)


def _trick_text(leader: int, trick: tuple[int, ...]) -> str:
    """Return the Tray's field of the trick in play (:meth:`Trick.text`): the leader's
    seat, then each seat's card, ``--`` before it plays."""
    texts = _TRICK_CARD_TEXTS
    played = [
        texts.get(card) or (NOT_PLAYED if card == _NONE else card_text(card)) for card in trick
    ]
    return f"{leader}{''.join(played)}"


#: Each card of a trick in play as the Tray writes it, ``--`` for a seat not played.
_TRICK_CARD_TEXTS = {_NONE: NOT_PLAYED, **dict(enumerate(CARD_TEXTS))}


@functools.lru_cache(maxsize=256)
def _gains(totals: tuple[int, ...]) -> tuple[tuple[str, str], ...]:
    """Return ``Gain1``..``Gain4``: each seat's total, kept."""
    return tuple((f"Gain{number}", str(total)) for number, total in enumerate(totals, 1))


@functools.lru_cache(maxsize=512)
def _tricks_text(tricks: tuple[tuple[int, ...], ...]) -> str:
    """Return the Tray's last field, the tricks played (:meth:`Trick.text` each: leader,
    4 cards, winner), kept by the tricks (a bounded cache: each call of the rules writes
    the field, which grows by one trick every 4 cards, so a trick is written once)."""
    if not tricks:
        return ""
    leader, one, two, three, four, winner = tricks[-1]
    return _tricks_text(tricks[:-1]) + Trick(leader, (one, two, three, four), winner).text()
