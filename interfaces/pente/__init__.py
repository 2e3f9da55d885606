"""Pente (19x19): the Set's plugin object.

Points ``AA``..``SS``, Tray codes 0-6 and 9, Gains 0..5 captured pairs, Methods Standard,
End, None (manual chapter V, "Pente"; spec section 4).
"""

from __future__ import annotations

from tournoyons_gui.interfaces.pente.board import build
from tournoyons_gui.interfaces.pente.engines import ENGINES
from tournoyons_gui.interfaces.pente.rules import PenteRules
from tournoyons_gui.interfaces.plugin import SetInterface

# The tester's first look: player one's fifth stone, MM, has just captured the pair KK-LL
# (shown, then removed after Wait); player two to play.
SAMPLE_MOVES = ("JJ", "KK", "MP", "LL", "MM")


def _sample(rules: PenteRules) -> dict[str, str]:
    """Return the context the rules send after ``SAMPLE_MOVES``, with players' names."""
    turn = rules.new_game()
    for value in SAMPLE_MOVES:
        turn = rules.play(turn.state, value)
    return {**turn.params, "Name1": "MissOne", "Name2": "MrTwo"}


interface = SetInterface(
    name="Pente",
    build=build,
    rules=PenteRules(),
    sample=_sample(PenteRules()),
    engines=ENGINES,
)
