"""Poker (heads-up hold'em, 12 completed deals, 99 at most): the Set's plugin object.

Cards ``[data-card]`` (suit then value, ``??`` hidden), totals and pot, dealer button, the
Move flying to the pot; a fold returns ``-1``, the showdown's acknowledgement ``0``.
Methods Standard, End, None (manual 002 chapter V "Poker"; spec section 4).
"""

from __future__ import annotations

from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.poker.board import build
from tournoyons_gui.interfaces.poker.engines import ENGINES
from tournoyons_gui.interfaces.poker.rules import PokerRules

interface = SetInterface(
    name="Poker",
    aliases=("HoldEm", "TexasHoldEm"),
    build=build,
    rules=PokerRules(),
    sample={
        "Tray": "01001S1HK????M1-2",
        "Input": "One",
        "Gain1": "0",
        "Gain2": "0",
        "Name1": "MissOne",
        "Name2": "MrTwo",
        "Count": "0",
    },
    engines=ENGINES,
)
