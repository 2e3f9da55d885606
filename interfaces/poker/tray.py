"""Poker (heads-up hold'em): the ``Tray`` syntax, the legal bets, the showdown.

A ``Tray`` concatenates (manual 002 chapter V "Poker"; 000 for the June changes; spec
section 4, Poker):

1. the rank of the deal, 2 digits ``01``..``99`` (odd: player one deals);
2. the completed deals, 2 digits;
3. the step, 1 digit ``1``..``9``;
4. four hole cards: player one's two, then player two's; ``??`` when hidden;
5. the board: 0, 3, 4 or 5 cards;
6. the last betting round: ``M`` + player one's total + ``-`` + player two's total, a ``?``
   before the total of the player who must answer (``M?10-12``). A folded player's total
   is 0.

A card is 2 characters, suit (``S`` ``C`` ``H`` ``D``) then value (``A`` or ``1`` for the
ace, ``K`` ``Q`` ``J`` ``T`` ``2``..``9``). Examples of real Trays: ``01001????C3SKM1-2``,
``15095????CTHJHKC6HQS6M10-10``.

Steps: blinds (the dealer 1 chip, the other 2); 1 dealer pre-flop; 2 other pre-flop; flop;
3 other; 4 dealer; turn; 5 other; 6 dealer; river; 7 other; 8 dealer; 9 showdown. After a
raise the same round goes on at the other player's step, with the ``?`` on them.

Hands are ranked by the maintained library pokerkit (``StandardHighHand``), not by code of
ours; :func:`hand_strength` keeps what it answered for each kind of five cards.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tournoyons_gui.interfaces.protocol import PAIR, Player

if TYPE_CHECKING:
    from pokerkit import Hand

__all__ = [
    "ACKNOWLEDGE",
    "BIG_BLIND",
    "DEALS_TO_PLAY",
    "FOLD",
    "HIDDEN",
    "MAX_BET",
    "MAX_DEALS",
    "SHOWDOWN",
    "SMALL_BLIND",
    "SUITS",
    "VALUES",
    "Tray",
    "TrayError",
    "Verdict",
    "bet_range",
    "board_size",
    "hand_category",
    "hand_strength",
    "high_hand",
    "legal_values",
    "load_pokerkit",
    "parse_tray",
    "pokerkit_card",
    "verdict",
]

HIDDEN = "??"
SUITS = "SCHD"
VALUES = "A1KQJT98765432"
MAX_BET = 100  # a player's total on one deal (manual: "1 à 100")
SMALL_BLIND = 1  # the dealer's blind
BIG_BLIND = 2  # the other player's blind
DEALS_TO_PLAY = 12  # completed deals ("coups aboutis") in a game
MAX_DEALS = 99  # deals in all, folded ones included
SHOWDOWN = 9
FOLD = "-1"  # what a person's fold returns (spec section 4, Decision)
ACKNOWLEDGE = "0"  # what a person returns at the showdown

_CARD = r"[SCHD][A1KQJT2-9]"
_TRAY = re.compile(
    rf"(?P<deal>\d\d)(?P<completed>\d\d)(?P<step>[1-9])"
    rf"(?P<hole>(?:{_CARD}|\?\?){{4}})(?P<board>(?:{_CARD}){{0,5}})"
    r"M(?P<wait1>\??)(?P<total1>\d{1,3})-(?P<wait2>\??)(?P<total2>\d{1,3})"
)


class TrayError(ValueError):
    """A ``Tray`` that is not the Poker syntax, or whose parts contradict each other."""


def board_size(step: int) -> int:
    """Return the number of board cards shown at ``step`` 1..8 (0, 3, 4 or 5)."""
    return (0, 0, 3, 3, 4, 4, 5, 5)[step - 1]


@dataclass(frozen=True)
class Tray:
    """One deal as an interface is shown it.

    - ``deal``: rank of the deal, 1..99; ``completed``: deals completed before it;
    - ``step``: 1..9 (9: showdown and verdict);
    - ``hole``: four cards, player one's two then player two's, each ``"SK"`` or ``"??"``;
    - ``board``: the community cards, 0, 3, 4 or 5;
    - ``totals``: each player's total bet in chips (0: folded), player one first;
    - ``waiting``: the player marked ``?``, who must answer the other's bet, or ``None``.
    """

    deal: int
    completed: int
    step: int
    hole: tuple[str, str, str, str]
    board: tuple[str, ...]
    totals: tuple[int, int]
    waiting: Player | None = None

    @property
    def dealer(self) -> Player:
        """Return the dealer: player one on an odd deal, player two on an even one."""
        return Player.ONE if self.deal % 2 else Player.TWO

    @property
    def bettor(self) -> Player | None:
        """Return the player to bet at this step, ``None`` at the showdown.

        The dealer bets at steps 1, 4, 6 and 8; the other player at steps 2, 3, 5 and 7.
        """
        if self.step >= SHOWDOWN:
            return None
        return self.dealer if self.step in (1, 4, 6, 8) else self.dealer.opponent

    @property
    def answering(self) -> bool:
        """Return whether the bettor answers a bet (``?`` on them) rather than opens."""
        return self.waiting is not None and self.waiting is self.bettor

    @property
    def pot(self) -> int:
        """Return the chips bet on this deal by both players."""
        return self.totals[0] + self.totals[1]

    @property
    def folded(self) -> Player | None:
        """Return the player whose total is 0 (a fold, manual NB2), or ``None``."""
        for player in PAIR:
            if self.total(player) == 0:
                return player
        return None

    def total(self, player: Player) -> int:
        """Return ``player``'s total bet."""
        return self.totals[player - 1]

    def hand(self, player: Player) -> tuple[str, str]:
        """Return ``player``'s two hole cards (``"??"`` when hidden)."""
        first = 2 * (player - 1)
        return self.hole[first], self.hole[first + 1]

    def problems(self) -> list[str]:
        """Return what in this Tray contradicts the rules (empty when it is consistent)."""
        found: list[str] = []
        if not 1 <= self.deal <= MAX_DEALS:
            found.append("the deal's rank is 01 to 99")
        if self.completed >= self.deal:
            found.append("more completed deals than deals before this one")
        if any(total > MAX_BET for total in self.totals):
            found.append(f"a total is at most {MAX_BET}")
        if self.step < SHOWDOWN:
            if len(self.board) != board_size(self.step):
                found.append(f"step {self.step} shows {board_size(self.step)} board cards")
            if self.folded is not None:
                found.append("a total of 0 (a fold) before the showdown")
            if self.waiting is not None and self.waiting is not self.bettor:
                found.append(f"the ? is on the player to bet at step {self.step}")
        else:
            if len(self.board) not in (0, 3, 4, 5):
                found.append("the board holds 0, 3, 4 or 5 cards")
            if self.waiting is not None:
                found.append("no ? at the showdown")
            if self.totals == (0, 0):
                found.append("both players cannot fold")
        return found

    def text(self) -> str:
        """Return the ``Tray`` value, as :func:`parse_tray` reads it."""
        waiting, totals = self.waiting, self.totals
        return (
            f"{self.deal:02d}{self.completed:02d}{self.step}{''.join(self.hole)}"
            f"{''.join(self.board)}M{'?' if waiting is Player.ONE else ''}{totals[0]}"
            f"-{'?' if waiting is Player.TWO else ''}{totals[1]}"
        )


def parse_tray(value: str) -> Tray:
    """Read a Poker ``Tray``; raise :class:`TrayError` when it is not the syntax.

    Suits and values are read in any case and written upper case; the ace keeps its
    spelling (``1`` or ``A``). Only the syntax is checked here; :meth:`Tray.problems` lists
    the contradictions (a board too short for the step, a ``?`` on the wrong player ...).
    """
    match = _TRAY.fullmatch(value.strip().upper())
    if match is None:
        raise TrayError("Tray is deal(2) completed(2) step(1) 4 hole cards, board, M<a>-<b>")
    hole = match["hole"]
    board = match["board"]
    if match["wait1"] and match["wait2"]:
        raise TrayError("one ? at most in the bets")
    waiting = Player.ONE if match["wait1"] else (Player.TWO if match["wait2"] else None)
    return Tray(
        deal=int(match["deal"]),
        completed=int(match["completed"]),
        step=int(match["step"]),
        hole=(hole[0:2], hole[2:4], hole[4:6], hole[6:8]),
        board=tuple(board[i : i + 2] for i in range(0, len(board), 2)),
        totals=(int(match["total1"]), int(match["total2"])),
        waiting=waiting,
    )


def bet_range(tray: Tray) -> tuple[int, int] | None:
    """Return the lowest and highest total the bettor may bet now, or ``None`` at step 9.

    Answering (``?`` on them) they may call, the opponent's total, or raise above it;
    opening a round they must bet above the opponent's total (at step 1 above the big
    blind, 2). No total is above :data:`MAX_BET`. **Decision:** when the opponent's total
    is already the cap, the only total is the cap (no bet can be above it).
    """
    bettor = tray.bettor
    if bettor is None:
        return None
    opponent = tray.total(bettor.opponent)
    low = opponent if tray.answering else opponent + 1
    low = max(low, tray.total(bettor), 1)
    return min(low, MAX_BET), MAX_BET


def legal_values(tray: Tray) -> tuple[str, ...]:
    """Return every value a person may return now, as strings.

    Steps 1..8: ``-1`` (fold) then each legal total, lowest first; step 9: ``0`` (the
    acknowledgement of the verdict).
    """
    limits = bet_range(tray)
    if limits is None:
        return (ACKNOWLEDGE,)
    low, high = limits
    return (FOLD, *(str(total) for total in range(low, high + 1)))


def pokerkit_card(card: str) -> str:
    """Return our card (``D1``, ``ST``) in pokerkit's notation (``Ad``, ``Ts``)."""
    value = "A" if card[1] in "A1" else card[1]
    return value + card[0].lower()


def high_hand(hole: tuple[str, ...], board: tuple[str, ...]) -> Hand:
    """Return pokerkit's best high hand of the ``hole`` and ``board`` cards (ours: ``D1``).

    pokerkit is imported at the first call (a showdown judged, or a built-in engine weighing
    its hand after the flop), not with the Set: its lookup tables take about 15 MB and
    0.3 s, which a server playing no Poker does not pay."""
    from pokerkit import StandardHighHand

    return StandardHighHand.from_game(
        "".join(map(pokerkit_card, hole)), "".join(map(pokerkit_card, board))
    )


def load_pokerkit() -> None:
    """Import pokerkit now (its hand tables: about 15 MB and 0.3 s, once per process):
    the rules call it when a game of Poker starts, so that no showdown pays it."""
    import pokerkit  # noqa: F401


#: Each card value's prime, as pokerkit's own lookup keys hands (the ace ``A`` or ``1``
#: highest): the product of five cards' primes names the multiset of their values.
_PRIMES = dict(zip("23456789TJQKA", (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), strict=True))
_PRIMES["1"] = _PRIMES["A"]
#: Each suit's bit: five cards of one suit share it.
_SUIT_BITS = {suit: 1 << number for number, suit in enumerate(SUITS)}
#: The 21 ways of taking five cards of seven, as indexes.
_FIVES = tuple(itertools.combinations(range(7), 5))
#: The most kinds of five cards :func:`hand_strength` keeps: pokerkit's standard table
#: has 7462 (1277 ranks of distinct values, suited or not, and the others unsuited).
STRENGTHS_KEPT = 8192
#: pokerkit's strength of each kind of five cards met: the product of their values'
#: primes, negated when they are of one suit.
_STRENGTHS: dict[int, int] = {}


def _five_strength(key: int, cards: Sequence[str]) -> int:
    """Return pokerkit's strength of five ``cards`` (ours) whose kind is ``key``, and keep
    it (:data:`_STRENGTHS`, at most :data:`STRENGTHS_KEPT` kinds)."""
    from pokerkit import StandardHighHand

    strength = StandardHighHand("".join(map(pokerkit_card, cards))).entry.index
    if len(_STRENGTHS) < STRENGTHS_KEPT:
        _STRENGTHS[key] = strength
    return strength


def hand_strength(hole: Sequence[str], board: Sequence[str]) -> int:
    """Return the strength of the best five of the 2 ``hole`` and 5 ``board`` cards (ours:
    ``D1``, ``ST``, any case): the index of pokerkit's ``StandardHighHand`` lookup entry,
    greater for a stronger hand, equal for hands pokerkit finds equal (the showdown's
    verdict, manual 002 chapter V "Poker").

    A five-card hand's strength depends only on its values and whether it is of one suit,
    as pokerkit's lookup keys it: pokerkit is asked once per such kind (7462 in all) and
    its answer kept, so the 21 hands of a showdown cost a multiplication and a look-up
    each. Raises ``ValueError`` unless there are 7 cards, ``KeyError`` on a hidden one.
    """
    seven = [card.upper() for card in (*hole, *board)]
    if len(seven) != 7:
        raise ValueError("a hand is 2 hole cards and 5 board cards")
    primes = [_PRIMES[card[1]] for card in seven]
    suits = [_SUIT_BITS[card[0]] for card in seven]
    best = -1
    for a, b, c, d, e in _FIVES:
        key = primes[a] * primes[b] * primes[c] * primes[d] * primes[e]
        if suits[a] & suits[b] & suits[c] & suits[d] & suits[e]:
            key = -key
        strength = _STRENGTHS.get(key)
        if strength is None:
            strength = _five_strength(key, [seven[i] for i in (a, b, c, d, e)])
        if strength > best:
            best = strength
    return best


def hand_category(hand: Hand) -> int:
    """Return the rank of ``hand``'s category among pokerkit's labels: 0 high card, 1 one
    pair ... 8 straight flush."""
    from pokerkit import Label

    return list(Label).index(hand.entry.label)


@dataclass(frozen=True)
class Verdict:
    """The showdown's outcome: ``winner`` (``None``: split pot), each side's best hand.

    ``best`` holds, per player, the indexes of the cards of their best five among the seven
    (0, 1: hole cards; 2..6: board), empty when the deal ended by a fold; ``label`` the
    hand's category from pokerkit (``"One pair"`` ...), for logs and ``aria-label``.
    """

    winner: Player | None
    best: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    label: tuple[str, str] = ("", "")


def _best(hole: tuple[str, str], board: tuple[str, ...]) -> tuple[Hand, tuple[int, ...]]:
    """Return the best hand of ``hole`` + ``board`` and the indexes of its five cards."""
    seven = [*hole, *board]
    hand = high_hand(hole, board)
    notation = [pokerkit_card(c) for c in seven]
    used: list[int] = []
    for card in hand.cards:
        for index, name in enumerate(notation):
            if name == repr(card) and index not in used:
                used.append(index)
                break
    return hand, tuple(sorted(used))


def verdict(tray: Tray) -> Verdict | None:
    """Return the verdict of a deal at step 9, or ``None`` when it cannot be known.

    A fold (total 0) gives the pot to the other player. Otherwise both hands and five
    board cards must be shown; the higher pokerkit ``StandardHighHand`` wins, equal hands
    split the pot.
    """
    if tray.step != SHOWDOWN:
        return None
    folded = tray.folded
    if folded is not None:
        return Verdict(winner=folded.opponent)
    hands = (tray.hand(Player.ONE), tray.hand(Player.TWO))
    if len(tray.board) != 5 or any(HIDDEN in hand for hand in hands):
        return None
    one, best_one = _best(hands[0], tray.board)
    two, best_two = _best(hands[1], tray.board)
    winner = Player.ONE if one > two else (Player.TWO if two > one else None)
    labels = (str(one).split(" (")[0], str(two).split(" (")[0])
    return Verdict(winner=winner, best=(best_one, best_two), label=labels)
