"""Pente (19x19): the Set's plugin object.

Points ``AA``..``SS``, Tray codes 0-6 and 9, Gains 0..5 captured pairs, Methods Standard,
End, None (manual chapter V, "Pente"; spec section 4).
"""

from __future__ import annotations

from tournoyons_gui.interfaces.pente.rules import RULES
from tournoyons_gui.interfaces.plugin import SetInterface

# The tester's first look: player one's fifth stone, MM, has just captured the pair KK-LL
# (shown, then removed after Wait); player two to play.
SAMPLE_MOVES = ("JJ", "KK", "MP", "LL", "MM")


def _sample() -> dict[str, str]:
    """Return the context the rules send after ``SAMPLE_MOVES``."""
    turn = RULES.new_game()
    for value in SAMPLE_MOVES:
        turn = RULES.play(turn.state, value)
    return dict(turn.params)


interface = SetInterface(name="Pente", package=__name__, sample=_sample())
