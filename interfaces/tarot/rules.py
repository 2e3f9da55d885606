"""French Tarot for four, as the Arbitre and the tester play it: a match of ``deals`` deals.

A deal (``../shared/spec/tarot.md`` section 2): 18 cards to each seat and 6 to the dog from
a fresh cryptographic shuffle (a hand holding the petit sec is dealt again by the same
dealer); one round of bids from the seat after the dealer (a bid not above the highest
counts as a pass; four passes show the dog and the next dealer deals, the deal not
counted); after a petite or a garde the taker takes the dog and puts 6 cards aside; 18
tricks, the seat after the dealer leading the first; the count and the score
(:mod:`.play`). Deal ``n`` is dealt by seat ``(n + 2) mod 4 + 1``; the match ends once
``deals`` deals are scored (default 4), or after deal 99 (the Tray's two digits), the four
totals summing to 0 throughout.

**The engines' view** (spec section 3): a seat is asked only when it must act (its bid,
its écart, its card), with ``Turn`` and ``MoveId`` the number of values applied plus one,
``Gain1``..``Gain4`` the totals, ``Move1``..``Move4`` each seat's last Value in this deal
(another seat's écart written as the Tray writes the cards put aside: only its trumps
shown), and the Tray with its own hand only. The Arbitre adds ``Seat`` and ``Players=4``.
Its Value: a bid ``0``..``4``, an écart of 12 digits, a card of 2 digits.

**Between two deals** (our decision; the spec's phase ``S``): the position after a deal's
last card, or its fourth pass, is that deal scored, with the next deal already dealt but
unseen; the seat asked then is the next deal's first speaker, whose request and page (when
asked) show the next deal, while spectators and the record see the deal scored until its
first bid.

Persons and spectators (:meth:`TarotRules.page`): a person's page shows its own hand; a
spectator's shows no hand (the Arbitre's open table asks with ``reveal``); a replay
(``reveal``) and the end of the match show every hand. No chapter VI referee: its
``ReturnCode`` knows two players.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tournoyons_gui.interfaces.plugin import EngineRequest, IllegalMove, Result, Turn
from tournoyons_gui.interfaces.protocol import Method, PageParams, Player
from tournoyons_gui.interfaces.tarot.cards import (
    CARDS,
    DEAL_SIZE,
    DOG_SIZE,
    EXCUSE,
    HAND_SIZE,
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

__all__ = ["DEFAULT_DEALS", "MAX_MATCH_DEALS", "PETIT_SEC_REDEALS", "RULES", "Game", "TarotRules"]

#: Deals in a match unless the match says otherwise: each seat deals once (spec section 2).
DEFAULT_DEALS = 4
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


def _pack(
    decks: tuple[tuple[Card, ...], ...],
) -> tuple[tuple[Card, ...], tuple[tuple[Card, ...], ...]]:
    """Return a pack in dealing order and the scripted packs left: the first of ``decks``
    (tests), else a fresh cryptographic shuffle (spec section 2, "Deal")."""
    if decks:
        return decks[0], decks[1:]
    pack = list(range(CARDS))
    _RNG.shuffle(pack)
    return tuple(pack), ()


def _hands(pack: Sequence[Card]) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Return the 4 hands (18 cards each, in order) and the dog of a pack."""
    hands = tuple(tuple(sorted(pack[HAND_SIZE * i : HAND_SIZE * (i + 1)])) for i in range(SEATS))
    return hands, tuple(sorted(pack[SEATS * HAND_SIZE :]))


def dealer(deal: int) -> int:
    """Return the seat dealing deal ``deal``: seat 4 the first, then the next seat."""
    return (deal + 2) % SEATS + 1


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
      ``redeals``: petit sec redeals in the match; ``decks``: scripted packs (tests).
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

    # --- the state ------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Return the JSON-serialisable state."""
        return {
            "deals": self.deals,
            "played": self.played,
            "deal": self.deal,
            "phase": self.phase.value,
            "hands": [list(hand) for hand in self.hands],
            "dog": list(self.dog),
            "aside": list(self.aside),
            "bids": list(self.bids),
            "leader": self.leader,
            "trick": list(self.trick),
            "tricks": [list(trick) for trick in self.tricks],
            "totals": list(self.totals),
            "moves": list(self.moves),
            "count": self.count,
            "score": None if self.score is None else dict(self.score),
            "upcoming": list(self.upcoming),
            "redeals": self.redeals,
            "decks": [list(deck) for deck in self.decks],
        }

    @classmethod
    def load(cls, state: Mapping[str, Any]) -> Game:
        """Read ``state``; raise :class:`IllegalMove` when it is not a match of ours (its
        fields' shapes, and every one of the 78 cards in one place)."""

        def ints(value: Any, size: int | None = None) -> tuple[int, ...]:
            read = tuple(int(item) for item in value)
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
                score=None if score is None else {str(k): int(v) for k, v in score.items()},
                upcoming=ints(state.get("upcoming") or ()),
                redeals=int(state.get("redeals", 0)),
                decks=tuple(ints(deck, CARDS) for deck in state.get("decks") or ()),
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
        if sorted(self.cards()) != list(range(CARDS)):
            return "the 78 cards are not each in one place"
        if self.upcoming and sorted(self.upcoming) != list(range(CARDS)):
            return "the next deal's pack is not the 78 cards"
        if any(bid not in (_NONE, *range(len(Bid))) for bid in self.bids):
            return "a bid is 0 to 4"
        if self.phase is Phase.PLAY and not 1 <= self.leader <= SEATS:
            return "the trick in play has no leader"
        if len(self.tricks) > TRICKS or any(len(move) > 2 * DOG_SIZE for move in self.moves):
            return "too many tricks"
        return None

    def cards(self) -> list[Card]:
        """Return every card of the deal where it is: the hands, the dog (or the cards put
        aside), the trick in play, the tricks played (the dog counted once in phase E,
        where the taker holds it)."""
        held = [card for hand in self.hands for card in hand]
        if self.phase is not Phase.ECART:
            held.extend(self.aside if self.aside else self.dog)
        held.extend(card for card in self.trick if card != _NONE)
        held.extend(card for trick in self.tricks for card in trick[1:-1])
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
        played = sum(1 for card in self.trick if card != _NONE)
        return seat_after(self.leader, played)

    def played_in_order(self) -> list[Card]:
        """Return the trick in play's cards in the order played."""
        order = [seat_after(self.leader, step) for step in range(SEATS)]
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
        """Return this deal dealt from a fresh pack (petit sec: dealt again, same dealer)."""
        decks, redeals = self.decks, self.redeals
        pack, decks = _pack(decks)
        for _ in range(PETIT_SEC_REDEALS):
            if not any(petit_sec(hand) for hand in _hands(pack)[0]):
                break
            redeals += 1
            pack, decks = _pack(decks)
        return replace(self, decks=decks, redeals=redeals).from_pack(pack)

    def from_pack(self, pack: Sequence[Card]) -> Game:
        """Return this deal in its bidding, dealt from ``pack`` (hands in seat order)."""
        hands, dog = _hands(pack)
        return replace(
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
        return replace(self, deal=self.deal + 1).from_pack(self.upcoming)

    def scored(self, score: Score | None) -> Game:
        """Return the deal over (``score``: the deal scored; ``None``: all passed), with
        the next deal's pack drawn unless the match ends."""
        game = replace(self, phase=Phase.SCORED, leader=0, trick=(_NONE,) * SEATS)
        if score is not None:
            totals = tuple(
                total + delta for total, delta in zip(self.totals, score.scores, strict=True)
            )
            game = replace(game, totals=totals, played=self.played + 1, score=score.json())
        if game.played >= game.deals or game.deal >= DEAL_SIZE:
            return game
        following = replace(game, deal=game.deal + 1).dealt()
        return replace(
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
        game = replace(self, bids=bids, moves=self._moved(seat, str(bid)))
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
            return replace(game, phase=Phase.ECART, hands=hands)
        return replace(game, phase=Phase.PLAY, leader=game.first)

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
        return replace(
            self, phase=Phase.PLAY, hands=hands, aside=ecart, moves=moves, leader=self.first
        )

    def play_card(self, seat: int, value: str) -> Game:
        """Return the game after ``seat`` played the card ``value`` (2 digits)."""
        if len(value) != 2 or _DIGITS.fullmatch(value) is None:
            raise IllegalMove(f"a card is 2 digits, not {value[:20]!r}")
        card = int(value)
        if card not in legal_cards(self.hands[seat - 1], self.played_in_order()):
            raise IllegalMove(f"card {value} may not be played now")
        hands = tuple(
            tuple(held for held in hand if held != card) if number == seat else hand
            for number, hand in enumerate(self.hands, 1)
        )
        trick = tuple(card if number == seat else held for number, held in enumerate(self.trick, 1))
        game = replace(self, hands=hands, trick=trick, moves=self._moved(seat, value))
        if _NONE in trick:
            return game
        winner = game.trick_won()
        tricks = (*game.tricks, (game.leader, *trick, winner))
        game = replace(game, tricks=tricks, trick=(_NONE,) * SEATS, leader=winner)
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
        return replace(game, count=game.count + 1)

    # --- what a viewer sees -------------------------------------------------------------

    def tray(self, seat: int | None, *, everything: bool = False) -> Tray:
        """Return the Tray as ``seat`` sees it (its own hand; ``None``: a spectator, no
        hand), or every card when ``everything`` (the rules' view, a replay)."""

        def shown(cards: Sequence[Card], visible: bool) -> tuple[Card | None, ...]:
            return tuple(card if visible else None for card in cards)

        over = self.phase is Phase.SCORED
        hands = tuple(
            shown(hand, everything or seat == number) for number, hand in enumerate(self.hands, 1)
        )
        contract, taker = self.contract, self.taker
        if self.aside:  # after the écart: the taker sees it, the others its trumps only
            sees = everything or over or seat == taker
            dog = tuple(card if sees or is_trump(card) else None for card in self.aside)
        else:
            dog_shown = self.phase is Phase.ECART or (over and (contract == 0 or bool(self.tricks)))
            dog = shown(self.dog, everything or dog_shown)
        trick = None
        if self.phase is Phase.PLAY:
            cards = tuple(None if card == _NONE else card for card in self.trick)
            trick = Trick(self.leader, (cards[0], cards[1], cards[2], cards[3]))
        return Tray(
            deal=self.deal,
            phase=self.phase,
            bids=tuple(None if bid == _NONE else bid for bid in self.bids),
            hands=hands,
            dog=dog,
            trick=trick,
            tricks=tuple(Trick(t[0], (t[1], t[2], t[3], t[4]), t[5]) for t in self.tricks),
        )

    def shown_moves(self, seat: int | None, *, everything: bool = False) -> dict[str, str]:
        """Return ``Move1``..``Move4`` as ``seat`` is shown them: each seat's last Value
        in this deal, another seat's écart written as the cards put aside are shown."""
        moves: dict[str, str] = {}
        for number, move in enumerate(self.moves, 1):
            if not move:
                continue
            if len(move) == 2 * DOG_SIZE and not (everything or seat == number):
                move = cards_text(self.tray(seat).dog)
            moves[f"Move{number}"] = move
        return moves

    def params(self, seat: int | None, *, everything: bool = False) -> PageParams:
        """Return a page's ``Tray``, ``Move1``..``Move4``, ``Gain1``..``Gain4`` and
        ``Count`` (the deals scored) as ``seat`` sees them."""
        page = PageParams().tray(self.tray(seat, everything=everything).text())
        for name, move in self.shown_moves(seat, everything=everything).items():
            page = page.move(Player(int(name[-1])), move)
        for number, total in enumerate(self.totals, 1):
            page = page.gain(Player(number), total)
        return page.count(self.played)

    def turn(self) -> Turn:
        """Return the hot-seat Turn: the page of the seat asked, as that seat sees it (the
        next deal's once a deal is scored), with ``Input``; at the end every card shown
        and ``Method=End``."""
        if self.over:
            page = self.params(None, everything=True).method(Method.END)
            return Turn(state=self.state(), params=page.params, over=True)
        seat = self.to_act()
        shown = self.advanced() if self.phase is Phase.SCORED else self
        page = shown.params(seat).input(Player(seat))
        return Turn(state=self.state(), params=page.params)


def _read_value(value: str) -> str:
    """Return a Value without its surrounding spaces (a Value is digits only)."""
    return value.strip()


class TarotRules:
    """French Tarot for four: see the module's docstring. ``state`` is :meth:`Game.state`."""

    #: The Set as engines receive it, one rule level, four seats (tarot.md section 3).
    engine_set = "Tarot"
    levels = (1,)
    seats = SEATS
    #: The match option ``deals`` (:func:`~tournoyons_gui.interfaces.plugin.match_deals`).
    deals_range = range(1, MAX_MATCH_DEALS + 1)

    def new_game(self) -> Turn:
        """Return the first deal's bidding of a hot-seat match of the default length."""
        return self.start()

    def start(
        self, level: int = 1, deals: int = DEFAULT_DEALS, decks: Sequence[Sequence[Card]] = ()
    ) -> Turn:
        """Return the first deal's bidding of a match of ``deals`` deals (1 to
        :data:`MAX_MATCH_DEALS`); ``decks``: packs of the 78 cards in dealing order used
        before fresh shuffles (tests). Raise :class:`IllegalMove` otherwise."""
        if level not in self.levels:
            raise IllegalMove(f"Tarot plays rule level 1, not {level}")
        if not 1 <= deals <= MAX_MATCH_DEALS:
            raise IllegalMove(f"a match is 1 to {MAX_MATCH_DEALS} deals")
        packs = tuple(tuple(int(card) for card in deck) for deck in decks)
        if any(sorted(pack) != list(range(CARDS)) for pack in packs):
            raise IllegalMove("a pack is the 78 cards, each once")
        return Game(deals=deals, decks=packs).dealt().turn()

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Apply the Value of the seat asked (a bid, an écart, a card); raise
        :class:`IllegalMove` when it is not legal now or the match is over."""
        game = Game.load(state)
        if game.over:
            raise IllegalMove("the match is over")
        return game.apply(_read_value(value)).turn()

    # --- the Arbitre's part (tarot.md section 3) ------------------------------------------

    def asked(self, state: Mapping[str, Any]) -> tuple[Player, ...]:
        """Return the one seat asked now, none once the match is over."""
        seat = Game.load(state).to_act()
        return (Player(seat),) if seat else ()

    def request(
        self, state: Mapping[str, Any], player: Player, *, init_as_board: bool = False
    ) -> EngineRequest:
        """Return what ``player``'s engine is sent: ``Turn`` (the values applied plus
        one), ``Gain1``..``Gain4``, ``Move1``..``Move4`` of this deal, the Tray with its
        own hand only (the next deal's once a deal is scored). ``MoveId`` is ``Turn``;
        ``init_as_board`` does not apply (a deal is never empty)."""
        game = Game.load(state)
        shown = game.advanced() if game.phase is Phase.SCORED and not game.over else game
        params = {"Turn": str(game.count + 1), **shown.params(int(player)).params}
        params.pop("Count", None)
        tray = params.pop("Tray")
        return EngineRequest(move_id=game.count + 1, params={**params, "Tray": tray})

    def _value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        game = Game.load(state)
        if game.over:
            raise IllegalMove("the match is over")
        if player not in self.asked(state):
            raise IllegalMove(f"seat {int(player)} is not asked now")
        value = _read_value(value)
        game.apply(value)  # raises IllegalMove
        return value

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return the rules' value for an engine's ``Value``: a bid ``0``..``4`` (one not
        above the highest counts as a pass), an écart of 12 digits, a legal card of 2
        digits; raise :class:`IllegalMove` otherwise."""
        return self._value(state, player, value)

    def person_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return the rules' value for a person's ``ReturnValue``: as for engines."""
        return self._value(state, player, value)

    def result(self, state: Mapping[str, Any]) -> Result | None:
        """Return the ranks once the match is over: the highest total first, equal totals
        sharing a rank (spec section 2, "A match")."""
        game = Game.load(state)
        if not game.over:
            return None
        return Result(
            ranks=ranks(game.totals),
            reason="totals " + ", ".join(str(total) for total in game.totals),
        )

    def forfeit(self, state: Mapping[str, Any], failed: Sequence[Player]) -> Result:
        """Return the result of a match the ``failed`` seats lost by failing (spec section 3,
        "Status"): they are ranked last (sharing that rank), the others by their totals as
        they stand, equal totals sharing a rank."""
        totals = Game.load(state).totals
        out = {int(player) for player in failed}
        standing = ranks([total for seat, total in enumerate(totals, 1) if seat not in out])
        ranked = iter(standing)
        last = SEATS - len(out) + 1
        return Result(
            ranks=tuple(last if seat in out else next(ranked) for seat in range(1, SEATS + 1)),
            reason="totals " + ", ".join(str(total) for total in totals),
        )

    def totals(self, state: Mapping[str, Any]) -> tuple[int, ...]:
        """Return the four seats' totals in the match so far (they sum to 0)."""
        return Game.load(state).totals

    def final(self, state: Mapping[str, Any], player: Player) -> Mapping[str, str]:
        """Return ``player``'s final call's parameters: ``Turn``, the totals, the deal's
        last Values and the Tray as that seat sees it (every card once the deal is over)."""
        game = Game.load(state)
        params = game.params(int(player)).params
        params.pop("Count", None)
        tray = params.pop("Tray")
        return {"Turn": str(game.count + 1), **params, "Tray": tray}

    def page(
        self, turn: Turn, viewer: Player | None, *, asking: bool, reveal: bool = False
    ) -> Mapping[str, str]:
        """Return the page's parameters after ``turn``: ``Tray`` (the viewer's own hand;
        a spectator's none; every hand with ``reveal`` or once the match is over),
        ``Move1``..``Move4``, ``Gain1``..``Gain4``, ``Count`` and ``Method``. The seat
        asked between two deals is shown the next deal."""
        game = Game.load(turn.state)
        if game.over:
            return game.params(None, everything=True).method(Method.END).params
        if asking and game.phase is Phase.SCORED:
            game = game.advanced()
        seat = None if viewer is None else int(viewer)
        return game.params(seat, everything=reveal).method(Method.STANDARD).params


def ranks(totals: Sequence[int]) -> tuple[int, ...]:
    """Return each seat's rank by ``totals`` (1 the highest; equal totals share a rank,
    the next rank skipping as many: ``(10, 10, -5, -15)`` ranks ``(1, 1, 3, 4)``)."""
    return tuple(1 + sum(1 for other in totals if other > total) for total in totals)


#: The rules the Set plays by (found by :class:`SetInterface`'s convention).
RULES = TarotRules()
