"""Rochambeau's built-in engines: each reads the request an engine receives and answers a hand.

- ``random``: a hand at random (the unbeatable strategy on average).
- ``counter``: the hand that beats the opponent's previous hand (a random one in round 1);
  it proves the opponent's hand arrives in ``Move1``/``Move2``, and beats a copycat.

Both read only the engine protocol's parameters (``Turn``: odd for the first player, who
gets the opponent's previous hand in ``Move2``; even for the second, in ``Move1``), as an
outside engine would (engine protocol section 4, Rochambeau; decision 16).
"""

from __future__ import annotations

from collections.abc import Mapping

from tournoyons_gui.interfaces.engine_kit import RNG, turn_player
from tournoyons_gui.interfaces.protocol import Player

HANDS = ("1", "2", "3")
#: The hand that beats each hand: paper beats rock, scissors beat paper, rock beats scissors.
BEATEN_BY = {"1": "2", "2": "3", "3": "1"}


def _opponent_hand(params: Mapping[str, str]) -> str | None:
    """Return the opponent's previous hand, ``None`` in round 1 or when unreadable."""
    first = turn_player(params) is Player.ONE
    hand = params.get("Move2" if first else "Move1")
    return hand if hand in HANDS else None


def random_engine(params: Mapping[str, str]) -> str:
    """Answer a hand at random."""
    return RNG.choice(HANDS)


def counter_engine(params: Mapping[str, str]) -> str:
    """Answer the hand that beats the opponent's previous hand (random in round 1)."""
    hand = _opponent_hand(params)
    return BEATEN_BY[hand] if hand else RNG.choice(HANDS)


ENGINES = {"random": random_engine, "counter": counter_engine}
