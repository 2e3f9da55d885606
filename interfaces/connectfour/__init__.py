"""ConnectFour (Connect Four, 7 columns x 6 rows): the Set's plugin object.

Cells ``A1``..``G6`` (row 1 at the bottom), Tray codes 0-4 bottom row first, a column
letter ``A``..``G`` as the value; Methods Standard, End, None (spec ``interface-protocol.md``
section 5; engine protocol section 4). Its engines also speak botsarena's JSON (seed 003).
"""

from __future__ import annotations

from tournoyons_gui.interfaces.plugin import SetInterface

# The page after D (player one), D (two), C (one), E (two): player one to move, E the last
# disc (tests check it against the rules).
SAMPLE_TRAY = "0011200" + "0002000" + "0" * 28

interface = SetInterface(
    name="ConnectFour",
    package=__name__,
    aliases=("Connect4", "Connect-Four", "Puissance4", "P4"),
    sample={"Tray": SAMPLE_TRAY, "Move2": "E", "Input": "One", "Count": "4"},
)
