"""Poker's built-in engines: each reads the request an engine receives and answers a total.

- ``random``: a legal total at random: folds rarely (never when it may check), calls mostly,
  raises sometimes by a few chips.
- ``caller``: always calls (or checks); never folds, never raises.
- ``strength``: bets by the strength of its hand: before the flop a pair or high cards
  raise, weak cards call small bets and fold to big ones; after it, the hand's category
  (ranked by pokerkit) above what the board alone makes decides raise, call or fold.

All read only the engine protocol's parameters (engine protocol section 4, Poker): ``Tray``
(deal, completed deals, step, the hole cards, ``????`` for the opponent's, the board, then
``M`` + the totals of the current round with ``?`` before the one answering a bet),
``Level`` (``2``: the small blind is 1 plus 2 every 8 deals, raises by at least it, totals at
most the smaller capital, ``Gain1``/``Gain2`` being the capitals) and answer ``0`` to fold,
the opponent's total to call or check, more to raise. At step 9 they acknowledge with ``0``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from tournoyons_gui.interfaces.engine_kit import RNG
from tournoyons_gui.interfaces.poker.tray import (
    HIDDEN,
    MAX_BET,
    SHOWDOWN,
    Tray,
    TrayError,
    hand_category,
    high_hand,
    parse_tray,
)
from tournoyons_gui.interfaces.protocol import Player

CAPITAL = 200  # a level-2 capital before any deal has been judged (no Gain sent yet)


@dataclass(frozen=True)
class Table:
    """What an engine knows when asked to bet: the Tray, itself, and its legal totals."""

    tray: Tray
    me: Player
    own: int  # this engine's total so far
    call: int  # the opponent's total: calling (or checking) costs call - own
    raise_low: int  # the lowest raise; above ``cap`` when no raise is possible
    cap: int  # the highest total

    @property
    def can_raise(self) -> bool:
        """Return whether a raise is legal."""
        return self.raise_low <= self.cap

    def raise_to(self, extra: int) -> str:
        """Return a raise ``extra`` chips above the lowest, within the cap (else a call)."""
        if not self.can_raise:
            return str(self.call)
        return str(min(self.cap, self.raise_low + max(0, extra)))


def _int(text: str | None, default: int) -> int:
    try:
        return int(text or "")
    except ValueError:
        return default


def read_table(params: Mapping[str, str]) -> Table | None:
    """Return the table of a betting step, ``None`` at step 9 (or for an unreadable Tray)."""
    try:
        tray = parse_tray(params.get("Tray", ""))
    except TrayError:
        return None
    me = tray.bettor
    if tray.step >= SHOWDOWN or me is None:
        return None
    own, call = tray.total(me), tray.total(me.opponent)
    if params.get("Level") == "2":
        small = 1 + 2 * ((tray.deal - 1) // 8)
        capitals = (_int(params.get("Gain1"), CAPITAL), _int(params.get("Gain2"), CAPITAL))
        cap, least = min(MAX_BET, *capitals), small
    else:
        cap, least = MAX_BET, 1
    return Table(tray, me, own, call, call + least, cap)


def random_engine(params: Mapping[str, str]) -> str:
    """Answer a random legal total: fold 5% when facing a bet, raise 25%, else call."""
    table = read_table(params)
    if table is None:
        return "0"
    draw = RNG.random()
    if table.call > table.own and draw < 0.05:
        return "0"
    if table.can_raise and draw > 0.75:
        return table.raise_to(RNG.randint(0, 10))
    return str(table.call)


def caller_engine(params: Mapping[str, str]) -> str:
    """Answer the opponent's total: a call, or a check."""
    table = read_table(params)
    return "0" if table is None else str(table.call)


_RANKS = "23456789TJQKA"


def _rank(card: str) -> int:
    return _RANKS.index("A" if card[1] in "A1" else card[1])


def _strength(tray: Tray, me: Player) -> int:
    """Return 0 (weak) .. 3 (strong): the hole cards before the flop; after it the hand's
    category (pokerkit) above the board's own pairs."""
    hole = tray.hand(me)
    if HIDDEN in hole:
        return 0
    high, low = sorted((_rank(hole[0]), _rank(hole[1])), reverse=True)
    if not tray.board:
        if high == low:
            return 3 if high >= _RANKS.index("T") else 2
        if high >= _RANKS.index("Q") and low >= _RANKS.index("T"):
            return 2
        return 1 if high == _RANKS.index("A") or low >= _RANKS.index("9") else 0
    category = hand_category(high_hand(hole, tray.board))
    counts = sorted(Counter(card[1] for card in tray.board).values(), reverse=True)
    board = {3: 3, 2: 2 if counts[1:2] == [2] else 1}.get(counts[0], 0)
    return max(0, min(3, category - board + (1 if category >= 4 else 0)))


def strength_engine(params: Mapping[str, str]) -> str:
    """Raise strong hands, call middling ones and small bets, fold weak hands to big bets."""
    table = read_table(params)
    if table is None:
        return "0"
    strength = _strength(table.tray, table.me)
    cost = table.call - table.own
    if strength >= 3 or (strength == 2 and table.call < 20):
        return table.raise_to(RNG.randint(2, 8))
    if strength == 2 or cost <= (4 if strength == 1 else 2):
        return str(table.call)
    return "0"


ENGINES = {"random": random_engine, "caller": caller_engine, "strength": strength_engine}
