"""MasterMind: the Set's plugin object.

Two boards of 8 lines, colours ``A``..``H``, Methods Standard, End, None and Prepare (the
person chooses a secret code); manual chapter V, "Mastermind"; spec section 4.
"""

from __future__ import annotations

from tournoyons_gui.interfaces.mastermind.board import build
from tournoyons_gui.interfaces.mastermind.engines import ENGINES
from tournoyons_gui.interfaces.mastermind.rules import MasterMindRules
from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.protocol import Method

interface = SetInterface(
    name="MasterMind",
    build=build,
    methods=frozenset({Method.STANDARD, Method.END, Method.NONE, Method.PREPARE}),
    rules=MasterMindRules(),
    # Mid-game, player one to guess: player two's code is not sent (hot-seat fairness).
    sample={
        "Tray": "11BBCC00DEFA***21ABCD30AEBF",
        "Gain1": "GCCH",
        "Input": "One",
        "Count": "6",
        "Name1": "MissOne",
        "Name2": "MrTwo",
    },
    engines=ENGINES,
)
