"""Poker (heads-up hold'em, 12 completed deals, 99 at most): the Set's plugin object.

Cards ``[data-card]`` (suit then value, ``??`` hidden), totals and pot, dealer button, the
Move flying to the pot; a fold returns ``-1``, the showdown's acknowledgement ``0``.
Methods Standard, End, None (manual 002 chapter V "Poker"; spec section 4).
"""

from __future__ import annotations

from tournoyons_gui.interfaces.plugin import SetInterface

_SAMPLE = {"Tray": "01001S1HK????M1-2", "Input": "One", "Gain1": "0", "Gain2": "0", "Count": "0"}

interface = SetInterface(
    name="Poker", package=__name__, aliases=("HoldEm", "TexasHoldEm"), sample=_SAMPLE
)
