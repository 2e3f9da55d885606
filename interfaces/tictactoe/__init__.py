"""TicTacToe (3x3): the Set's plugin object.

Cells ``1``..``9``, Tray codes 0-4, Methods Standard, End, None (manual chapter V).
"""

from __future__ import annotations

from tournoyons_gui.interfaces.plugin import SetInterface

interface = SetInterface(
    name="TicTacToe",
    package=__name__,
    aliases=("Tic-Tac-Toe", "Morpion3x3"),
    sample={"Tray": "Init", "Input": "One"},
)
