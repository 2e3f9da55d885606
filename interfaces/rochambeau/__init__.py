"""Rochambeau (ChiFouMi, rock-paper-scissors): the Set's plugin object.

Methods Standard, None, and End (spec section 4, Decision).
"""

from __future__ import annotations

from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.rochambeau.game import build

interface = SetInterface(
    name="Rochambeau",
    aliases=("ChiFouMi", "RockPaperScissors", "PierreFeuilleCiseaux"),
    build=build,
    sample={"Input": "One", "Gain1": "0", "Gain2": "0"},
)
