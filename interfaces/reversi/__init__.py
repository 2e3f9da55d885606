"""Reversi (Othello, 8x8): the Set's plugin object.

Cells ``A1``..``H8``, Tray codes 0-4, 7 and 8, ``XX`` to pass; Methods Standard, End,
None (manual chapter V, "Reversi"; spec section 4).
"""

from __future__ import annotations

from tournoyons_gui.interfaces.plugin import SetInterface

# The page after the opening F5 D6 C3 (black) D3 (white): D3's capture of D4 is shown
# turning, black is to move with the legal cells hinted (tests check it against the rules).
SAMPLE_TRAY = "0000000000100000003410000018300000143300001400000010000000000000"
_SAMPLE = {"Tray": SAMPLE_TRAY, "Move2": "D3", "Input": "One", "Count": "4"}

interface = SetInterface(name="Reversi", package=__name__, aliases=("Othello",), sample=_SAMPLE)
