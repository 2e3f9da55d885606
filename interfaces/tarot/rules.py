"""French Tarot for four, as the Arbitre and the tester play it: a match of ``deals`` deals.

A deal (``docs/reference/tarot.md`` section 2): 18 cards to each seat and 6 to the dog from
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

The calls on one position share what they work out: its game, read once
(:func:`~.game.position_of`); the game a Value made, ``engine_value`` checking the Value
by applying it and ``play`` applying it next; the page of the seat asked, which ``play``
writes for its Turn and ``request`` sends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tournoyons_gui.interfaces.plugin import EngineRequest, IllegalMove, Result, Turn
from tournoyons_gui.interfaces.protocol import Method, PageParams, Player
from tournoyons_gui.interfaces.tarot.cards import CARDS, SEATS, Card, Phase
from tournoyons_gui.interfaces.tarot.game import (
    MAX_MATCH_DEALS,
    PETIT_SEC_REDEALS,
    POSITIONS,
    Game,
    Position,
    dealer,
    game_key,
    position_of,
)

__all__ = [
    "DEFAULT_DEALS",
    "MAX_MATCH_DEALS",
    "PETIT_SEC_REDEALS",
    "RULES",
    "Game",
    "TarotRules",
    "dealer",
    "ranks",
]

#: Deals in a match unless the match says otherwise: each seat deals once (spec section 2).
DEFAULT_DEALS = 4


def _seat_fields(position: Position, seat: int) -> Mapping[str, str]:
    """Return :meth:`Game.fields` as ``seat`` sees the position's game (the next deal's
    once a deal is scored and the match goes on: :meth:`Game.turn`), worked out once per
    position and seat; the position's, to read and not to change."""
    kept = position.fields
    if kept is not None and kept[0] == seat:
        return kept[1]
    game = position.game
    shown = game.advanced() if game.phase is Phase.SCORED and not game.over else game
    fields = shown.fields(seat)
    position.fields = (seat, fields)
    return fields


#: ``Method`` of the page once the match is over, and while it goes on.
_END = PageParams().method(Method.END).params
_STANDARD = PageParams().method(Method.STANDARD).params
#: ``Input`` for each seat, as :class:`PageParams` writes it.
_INPUT = {seat: PageParams().input(Player(seat)).params["Input"] for seat in range(1, SEATS + 1)}


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

    #: A match may be dealt from a seed (:func:`~..plugin.starts_from_seed`).
    seed_starts = True

    def start(
        self,
        level: int = 1,
        deals: int = DEFAULT_DEALS,
        decks: Sequence[Sequence[Card]] = (),
        *,
        seed: int | None = None,
    ) -> Turn:
        """Return the first deal's bidding of a match of ``deals`` deals (1 to
        :data:`MAX_MATCH_DEALS`); ``decks``: packs of the 78 cards in dealing order used
        before fresh shuffles (tests); ``seed``: every deal's pack follows from it and the
        deal's number (petit sec redeals included), so two matches of one seed are dealt
        the same hands seat by seat, deal after deal, whoever sits where (a duplicate
        deal); ``None``: a cryptographic shuffle per deal. Raise :class:`IllegalMove`
        otherwise."""
        if level not in self.levels:
            raise IllegalMove(f"Tarot plays rule level 1, not {level}")
        if not 1 <= deals <= MAX_MATCH_DEALS:
            raise IllegalMove(f"a match is 1 to {MAX_MATCH_DEALS} deals")
        packs = tuple(tuple(int(card) for card in deck) for deck in decks)
        if any(sorted(pack) != list(range(CARDS)) for pack in packs):
            raise IllegalMove("a pack is the 78 cards, each once")
        return Game(deals=deals, decks=packs, seed=seed).dealt().turn()

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Apply the Value of the seat asked (a bid, an écart, a card); raise
        :class:`IllegalMove` when it is not legal now or the match is over."""
        position = position_of(state)
        if position.game.over:
            raise IllegalMove("the match is over")
        value = _read_value(value)
        applied = position.applied
        if applied is not None and applied[0] == value:
            played = applied[1]
        else:
            played = position.game.apply(value)
        following = Position(played, checked=False)  # checked as its state is read
        key = game_key(played)
        if key is not None:
            POSITIONS.keep(key, following)
        if played.over:
            return played.turn()
        seat = played.to_act()  # Game.turn(), the page of the seat asked kept for request
        params = {**_seat_fields(following, seat), "Input": _INPUT[seat]}
        return Turn(state=played.state(), params=params)

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
        position = position_of(state)
        game = position.game
        params = {"Turn": str(game.count + 1), **_seat_fields(position, int(player))}
        params.pop("Count", None)
        tray = params.pop("Tray")
        return EngineRequest(move_id=game.count + 1, params={**params, "Tray": tray})

    def _value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        position = position_of(state)
        game = position.game
        if game.over:
            raise IllegalMove("the match is over")
        if int(player) != game.to_act():  # the one seat asked (self.asked)
            raise IllegalMove(f"seat {int(player)} is not asked now")
        value = _read_value(value)
        position.applied = (value, game.apply(value))  # raises IllegalMove; for play, next
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
        params = game.fields(int(player))
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
            return {**game.fields(None, everything=True), **_END}
        if asking and game.phase is Phase.SCORED:
            game = game.advanced()
        seat = None if viewer is None else int(viewer)
        return {**game.fields(seat, everything=reveal), **_STANDARD}


def ranks(totals: Sequence[int]) -> tuple[int, ...]:
    """Return each seat's rank by ``totals`` (1 the highest; equal totals share a rank,
    the next rank skipping as many: ``(10, 10, -5, -15)`` ranks ``(1, 1, 3, 4)``)."""
    return tuple(1 + sum(1 for other in totals if other > total) for total in totals)


#: The rules the Set plays by (found by :class:`SetInterface`'s convention).
RULES = TarotRules()
