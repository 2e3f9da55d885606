"""TicTacToe rules, as the Arbitre applies them, for the tester's hot-seat games.

Players alternate, player one first, one mark per turn on an empty cell; three in a row,
column or diagonal wins (those cells become ``3``/``4`` in the Tray); a full board without
a line is a draw. Source: manual chapter V, "TicTacToe".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interfaces.plugin import IllegalMove, Turn
from interfaces.protocol import Player
from interfaces.tictactoe.board import (
    EMPTY_TRAY,
    LINES,
    MARK,
    WINNING,
    player_to_move,
    read_move,
)

_INPUT = {Player.ONE: "One", Player.TWO: "Two"}


def winning_cells(tray: str, player: Player) -> set[int]:
    """Return the indexes (0..8) of every line ``player`` completed on ``tray``."""
    mark = MARK[player]
    return {i for line in LINES if all(tray[i] == mark for i in line) for i in line}


class TicTacToeRules:
    """The game: ``state`` is ``{"tray": 9 chars 0/1/2, "count": moves played}``."""

    def new_game(self) -> Turn:
        """Return the empty board, player one to play."""
        return Turn(
            state={"tray": EMPTY_TRAY, "count": 0},
            params={"Tray": "Init", "Input": "One", "Count": "0"},
        )

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Put the mark of the player to move on cell ``value`` (``1``..``9``)."""
        tray = str(state.get("tray", ""))
        if len(tray) != len(EMPTY_TRAY) or set(tray) - set("012"):
            raise IllegalMove("the game's Tray is corrupt")
        if winning_cells(tray, Player.ONE) or winning_cells(tray, Player.TWO):
            raise IllegalMove("the game is over")
        number = read_move(value)
        if number is None:
            raise IllegalMove(f"{value!r} is not a cell 1-9")
        if tray[number - 1] != "0":
            raise IllegalMove(f"cell {number} is taken")
        player = player_to_move(tray)
        tray = tray[: number - 1] + MARK[player] + tray[number:]
        count = int(state.get("count", 0)) + 1
        params = {"Tray": tray, f"Move{player}": str(number), "Count": str(count)}

        won = winning_cells(tray, player)
        if won:
            shown = "".join(WINNING[player] if i in won else code for i, code in enumerate(tray))
            params.update(Tray=shown, Method="End")
            return Turn(state={"tray": tray, "count": count}, params=params, over=True)
        if "0" not in tray:
            params["Method"] = "End"
            return Turn(state={"tray": tray, "count": count}, params=params, over=True)
        params["Input"] = _INPUT[player.opponent]
        return Turn(state={"tray": tray, "count": count}, params=params)
