"""BigTicTacToe (French: Morpion, 10x10): the Set's plugin object.

Cells ``A0``..``J9``, Tray codes 0-2, Gain = the player's alignments of five, Methods
Standard, End, None (manual chapter V, "Morpion"; spec section 4).
"""

from __future__ import annotations

from tournoyons_gui.interfaces.plugin import SetInterface

__all__ = ["interface"]

# Player one has just completed D3-H3 with H3; player two is to play.
_SAMPLE_TRAY = (
    "0000000000"
    "0000000000"
    "0000200000"
    "0001111100"
    "0000220000"
    "0010002000"
    "0002000000"
    "0000000000"
    "0000000000"
    "0000000000"
)
_SAMPLE = {"Tray": _SAMPLE_TRAY, "Move1": "H3", "Gain1": "D3H3", "Input": "Two", "Count": "11"}

interface = SetInterface(
    name="BigTicTacToe", package=__name__, aliases=("Morpion", "Big-TicTacToe"), sample=_SAMPLE
)
