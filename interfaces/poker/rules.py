"""Poker rules (heads-up hold'em, level 1), as the Arbitre applies them, for the tester.

A game is deals of rank 1, 2, 3 ... (odd: player one deals). Each deal: blinds (the dealer 1
chip, the other 2); two hole cards each; step 1 the dealer bets, step 2 the other answers;
the flop (3 cards); steps 3 and 4 (the other player opens); the turn (4th card); steps 5
and 6; the river (5th card); steps 7 and 8; step 9 the showdown and verdict. A raise sends
the round back to the other player's step, with the ``?`` on them; a call ends the round; a
fold (``-1``, or an engine's ``0``) ends the deal and gives the pot to the other player.
At the showdown pokerkit ranks both hands (equal hands split the pot). The game ends when 12
deals are completed (not folded), or after deal 99 (``Method=End``). ``Gain1``/``Gain2``
are the cumulated winnings, updated at each verdict. Source: manual 002 chapter V "Poker";
spec section 4 (Poker).

**Decisions.** Cards come from a fresh shuffled deck for each deal (seeded per game, so a
game replays); when both totals reach the cap of 100 no bet is possible any more, so the
remaining board cards are dealt and the deal goes straight to the showdown. The page of
step 9 asks one player to acknowledge (the other one than the player who acted last); it
shows both hands after a showdown, neither after a fold (manual 000, NB2). Each page hides
the other player's hole cards from the player asked.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from interfaces.plugin import IllegalMove, Turn
from interfaces.poker.tray import (
    BIG_BLIND,
    DEALS_TO_PLAY,
    FOLD,
    HIDDEN,
    MAX_BET,
    MAX_DEALS,
    SHOWDOWN,
    SMALL_BLIND,
    SUITS,
    VALUES,
    Tray,
    board_size,
    legal_values,
    verdict,
)
from interfaces.protocol import Player

__all__ = ["DECK", "PokerRules"]

# The 52 cards, the ace written 1 as in the Arbitre's real Trays (manual 000).
DECK = tuple(suit + value for suit in SUITS for value in "1KQJT98765432")
_INPUT = {Player.ONE: "One", Player.TWO: "Two"}


def _cards(value: Any) -> tuple[str, ...]:
    """Return nine cards (4 hole, 5 board) from ``value``; raise :class:`IllegalMove`."""
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 9:
        raise IllegalMove("the deal's cards are 9 cards: 4 hole cards then 5 board cards")
    cards = tuple(str(card).upper() for card in value)
    if any(len(card) != 2 or card[0] not in SUITS or card[1] not in VALUES for card in cards):
        raise IllegalMove(f"the deal's cards are not cards: {cards}")
    return cards


def deal_cards(seed: int, deal: int) -> tuple[str, ...]:
    """Return the nine cards of deal ``deal`` of the game ``seed``: a fresh deck, shuffled."""
    return tuple(random.Random(f"poker-{seed}-{deal}").sample(DECK, 9))


@dataclass(frozen=True)
class Game:
    """The whole game between two moves (the tester keeps it as ``Turn.state``).

    - ``seed``: draws each deal's cards; ``decks``: cards scripted for the next deals
      (tests), used before the seed's;
    - ``deal``, ``completed``, ``step``, ``totals``, ``waiting``: as in the Tray;
    - ``cards``: the deal's nine cards (player one's two, player two's two, the board's
      five), whether shown yet or not; ``shown``: board cards shown at step 9;
    - ``gains``: cumulated winnings; ``count``: values played; ``last``: who played last.
    """

    seed: int
    deal: int
    completed: int
    step: int
    cards: tuple[str, ...]
    totals: tuple[int, int]
    waiting: Player | None = None
    gains: tuple[int, int] = (0, 0)
    count: int = 0
    shown: int = 0
    last: Player | None = None
    decks: tuple[tuple[str, ...], ...] = field(default=())

    # --- state --------------------------------------------------------------------------

    @classmethod
    def load(cls, state: Mapping[str, Any]) -> Game:
        """Read ``state``; raise :class:`IllegalMove` when it is not a game of ours."""
        try:
            waiting = int(state.get("waiting") or 0)
            last = int(state.get("last") or 0)
            game = cls(
                seed=int(state["seed"]),
                deal=int(state["deal"]),
                completed=int(state["completed"]),
                step=int(state["step"]),
                cards=_cards(state["cards"]),
                totals=(int(state["totals"][0]), int(state["totals"][1])),
                waiting=Player(waiting) if waiting else None,
                gains=(int(state["gains"][0]), int(state["gains"][1])),
                count=int(state.get("count", 0)),
                shown=int(state.get("shown", 0)),
                last=Player(last) if last else None,
                decks=tuple(_cards(deck) for deck in state.get("decks") or ()),
            )
        except (KeyError, IndexError, TypeError, ValueError) as broken:
            raise IllegalMove(f"the game's state is corrupt: {broken}") from None
        if not (1 <= game.deal <= MAX_DEALS and 1 <= game.step <= SHOWDOWN
                and min(game.totals) >= 0 and max(game.totals) <= MAX_BET):
            raise IllegalMove("the game's state is corrupt")
        return game

    def state(self) -> dict[str, Any]:
        """Return the JSON-serialisable state."""
        return {
            "seed": self.seed, "deal": self.deal, "completed": self.completed,
            "step": self.step, "cards": list(self.cards), "totals": list(self.totals),
            "waiting": int(self.waiting) if self.waiting else 0,
            "gains": list(self.gains), "count": self.count, "shown": self.shown,
            "last": int(self.last) if self.last else 0,
            "decks": [list(deck) for deck in self.decks],
        }

    @property
    def over(self) -> bool:
        """Return whether the game has ended (12 completed deals, or deal 99 over)."""
        return self.step == SHOWDOWN and (
            self.completed >= DEALS_TO_PLAY or self.deal >= MAX_DEALS)

    # --- the Tray -----------------------------------------------------------------------

    def tray(self, seen_by: Player | None) -> Tray:
        """Return the Tray as ``seen_by`` is shown it (the other's hole cards hidden).

        At step 9 both hands are shown after a showdown, neither after a fold; ``None``
        shows every card (the rules' own view).
        """
        hole = list(self.cards[:4])
        folded = 0 in self.totals
        for player in Player:
            hide = (self.step == SHOWDOWN and folded) or (
                self.step < SHOWDOWN and seen_by is not None and player is not seen_by)
            if hide:
                hole[2 * (player - 1)] = hole[2 * (player - 1) + 1] = HIDDEN
        shown = self.shown if self.step == SHOWDOWN else board_size(self.step)
        return Tray(
            deal=self.deal,
            # The Tray counts the deals completed before this one (00 to 11).
            completed=self.completed - (1 if self.step == SHOWDOWN and not folded else 0),
            step=self.step,
            hole=(hole[0], hole[1], hole[2], hole[3]),
            board=self.cards[4 : 4 + shown],
            totals=self.totals,
            waiting=self.waiting,
        )

    def turn(self, asked: Player | None, move: tuple[Player, str] | None) -> Turn:
        """Return the Turn asking ``asked`` (``None``: the game is over)."""
        tray = self.tray(asked)
        params = {"Tray": tray.text(), "Gain1": str(self.gains[0]),
                  "Gain2": str(self.gains[1]), "Count": str(self.count)}
        if move is not None:
            params[f"Move{move[0]}"] = move[1]
        if asked is None:
            params["Method"] = "End"
            return Turn(state=self.state(), params=params, over=True)
        params["Input"] = _INPUT[asked]
        return Turn(state=self.state(), params=params)

    # --- playing ------------------------------------------------------------------------

    def new_deal(self, deal: int) -> Game:
        """Return deal ``deal`` after its blinds: step 1, the dealer to bet."""
        decks = self.decks
        if decks:
            cards, decks = decks[0], decks[1:]
        else:
            cards = deal_cards(self.seed, deal)
        dealer = Player.ONE if deal % 2 else Player.TWO
        totals = (SMALL_BLIND, BIG_BLIND) if dealer is Player.ONE else (BIG_BLIND, SMALL_BLIND)
        return replace(self, deal=deal, step=1, cards=cards, totals=totals, waiting=None,
                       shown=0, decks=decks)


class PokerRules:
    """Heads-up hold'em for the tester's hot-seat game; see the module's docstring."""

    def __init__(self, seed: int | None = None) -> None:
        """``seed`` fixes every game's cards (tests); by default each game draws its own."""
        self.seed = seed

    def new_game(self, decks: Sequence[Sequence[str]] = ()) -> Turn:
        """Return deal 1, player one dealing and to bet first (``decks``: scripted cards)."""
        seed = self.seed if self.seed is not None else random.SystemRandom().randrange(2**32)
        empty = Game(seed=seed, deal=1, completed=0, step=1, cards=("S1",) * 9,
                     totals=(SMALL_BLIND, BIG_BLIND),
                     decks=tuple(_cards(list(deck)) for deck in decks))
        game = empty.new_deal(1)
        return game.turn(game.tray(None).bettor, None)

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Apply ``value``: a total bet, ``-1`` (or ``0``) to fold, ``0`` at the showdown."""
        game = Game.load(state)
        if game.over:
            raise IllegalMove("the game is over")
        tray = game.tray(None)
        if game.step == SHOWDOWN:
            if value != "0":
                raise IllegalMove("at the showdown, acknowledge with 0")
            game = replace(game, count=game.count + 1, last=None).new_deal(game.deal + 1)
            return game.turn(game.tray(None).bettor, None)

        bettor = tray.bettor
        assert bettor is not None  # steps 1..8 name a bettor
        if value not in (*legal_values(tray), "0"):
            raise IllegalMove(f"{value!r} is not a legal total now: fold -1, or "
                              f"{legal_values(tray)[1]} to {MAX_BET}")
        game = replace(game, count=game.count + 1, last=bettor)
        if value in (FOLD, "0"):
            return self._fold(game, bettor)
        total = int(value)
        opponent = bettor.opponent
        totals = list(game.totals)
        totals[bettor - 1] = total
        game = replace(game, totals=(totals[0], totals[1]))
        if tray.answering and total == game.totals[opponent - 1]:
            return self._call(game, bettor, value)
        # A bet or a raise: the other player answers, at their step of the same round.
        step = game.step + 1 if game.step % 2 else game.step - 1
        game = replace(game, step=step, waiting=opponent)
        return game.turn(opponent, (bettor, value))

    def _fold(self, game: Game, folder: Player) -> Turn:
        """End the deal: the folder's total becomes 0, the other player wins their chips."""
        shown = board_size(game.step)
        stake = game.totals[folder - 1]
        totals = list(game.totals)
        totals[folder - 1] = 0
        gains = list(game.gains)
        gains[folder - 1] -= stake
        gains[folder.opponent - 1] += stake
        game = replace(game, step=SHOWDOWN, waiting=None, shown=shown,
                       totals=(totals[0], totals[1]), gains=(gains[0], gains[1]))
        return game.turn(None if game.over else folder.opponent, (folder, "0"))

    def _call(self, game: Game, caller: Player, value: str) -> Turn:
        """End the betting round; deal the next cards, or go to the showdown."""
        round_number = (game.step + 1) // 2
        if round_number < 4 and min(game.totals) < MAX_BET:
            game = replace(game, step=2 * round_number + 1, waiting=None)
            return game.turn(game.tray(None).bettor, (caller, value))
        game = replace(game, step=SHOWDOWN, waiting=None, shown=5)
        outcome = verdict(game.tray(None))
        if outcome is None:  # pragma: no cover - every card is shown at step 9
            raise IllegalMove("the showdown could not be judged")
        stake = game.totals[0]
        gains = list(game.gains)
        if outcome.winner is not None:
            gains[outcome.winner - 1] += stake
            gains[outcome.winner.opponent - 1] -= stake
        game = replace(game, gains=(gains[0], gains[1]), completed=game.completed + 1)
        asked = None if game.completed >= DEALS_TO_PLAY or game.deal >= MAX_DEALS else (
            caller.opponent)
        return game.turn(asked, (caller, value))
