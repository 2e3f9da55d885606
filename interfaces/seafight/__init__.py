"""Seafight (battleship, French "Bataille navale"): the Set's plugin object.

Two 10x10 boards, cells ``A0``..``J9``; Tray = shots on player one's board ``***`` shots on
player two's; Gain = each player's fleet; Move = a shot with its result (``C53``). Methods
Standard, Inverse, Double, Prepare, End, None (manual chapter V, "Bataille navale"; spec
section 4).
"""

from __future__ import annotations

from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.protocol import Method
from tournoyons_gui.interfaces.seafight.board import SEPARATOR
from tournoyons_gui.interfaces.seafight.fleet import EMPTY_SHOTS, read_cell

__all__ = ["interface"]


def _shots(**codes: str) -> str:
    """Return a board's shots with ``codes`` (cell name -> code) fired."""
    cells = list(EMPTY_SHOTS)
    for name, code in codes.items():
        cells[read_cell(name) or 0] = code
    return "".join(cells)


# Mid-game, player one to fire: player two has hit player one's ship at H2; player one has
# sunk the ship at G0-H0 and hit E3.
_SAMPLE_TRAY = SEPARATOR.join(
    (
        _shots(D4="1", H3="2", B7="1", I9="1", F1="1"),
        _shots(G0="3", H0="3", E3="2", A9="1", C6="1"),
    )
)

interface = SetInterface(
    name="Seafight",
    package=__name__,
    aliases=("BatailleNavale",),
    methods=frozenset(Method),
    sample={
        "Method": "Inverse",
        "Tray": _SAMPLE_TRAY,
        "Input": "One",
        "Count": "10",
        "Gain1": "H5A01V4H22H3C51V3A71H2F81",
        "Gain2": "H2G03",
    },
)
