"""TicTacToe (3x3): the Set's plugin object.

Cells ``1``..``9``, Tray codes 0-4, Methods Standard, End, None (manual chapter V).
"""

from __future__ import annotations

from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.tictactoe.board import build
from tournoyons_gui.interfaces.tictactoe.engines import ENGINES
from tournoyons_gui.interfaces.tictactoe.rules import TicTacToeRules

interface = SetInterface(
    name="TicTacToe",
    aliases=("Tic-Tac-Toe", "Morpion3x3"),
    build=build,
    rules=TicTacToeRules(),
    sample={"Tray": "Init", "Input": "One", "Name1": "MissOne", "Name2": "MrTwo"},
    engines=ENGINES,
)
