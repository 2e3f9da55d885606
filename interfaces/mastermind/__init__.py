"""MasterMind: the Set's plugin object.

Two boards of 8 lines, colours ``A``..``H``, Methods Standard, End, None and Prepare (the
person chooses a secret code); manual chapter V, "Mastermind"; spec section 4.
"""

from __future__ import annotations

from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.protocol import Method

# Mid-game, player one to guess: player two's code is not sent (hot-seat fairness).
_SAMPLE = {"Tray": "11BBCC00DEFA***21ABCD30AEBF", "Gain1": "GCCH", "Input": "One", "Count": "6"}

interface = SetInterface(
    name="MasterMind",
    package=__name__,
    methods=frozenset({Method.STANDARD, Method.END, Method.NONE, Method.PREPARE}),
    sample=_SAMPLE,
)
