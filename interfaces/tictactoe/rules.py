"""TicTacToe rules, as the Arbitre applies them: the tester's hot-seat games and the
engines' view of a game.

Players alternate, player one first, one mark per turn on an empty cell; three in a row,
column or diagonal wins (those cells become ``3``/``4`` in the Tray); a full board without
a line is a draw. Engines get the 9-character Tray ``0``/``1``/``2`` (``000000000`` on Turn
1, never ``Init``: decision 14) and the opponent's last cell in ``Move1``/``Move2``.
Source: manual chapter V, "TicTacToe"; engine protocol section 4, TicTacToe.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournoyons_gui.interfaces.grid import Codes, Lines, cells_of
from tournoyons_gui.interfaces.lines import MARK, TEXT_MARKS, LineRules
from tournoyons_gui.interfaces.plugin import IllegalMove, RefereeCall, Turn
from tournoyons_gui.interfaces.protocol import PAIR, Player
from tournoyons_gui.interfaces.tictactoe.board import EMPTY_TRAY, GRID, read_move

#: Each player's mark, read as a bitboard (bit ``i``: cell ``i + 1``).
_MARKS = {player: Codes(MARK[player]) for player in PAIR}
#: The eight lines of three (:data:`~tournoyons_gui.interfaces.tictactoe.board.LINES`).
_LINES = Lines(GRID, 3, ((1, 0), (0, 1), (1, 1), (1, -1)))


def winning_cells(tray: str, player: Player) -> set[int]:
    """Return the indexes (0..8) of every line ``player`` completed on ``tray`` (9 codes;
    the cells holding ``player``'s mark ``1``/``2``, the winning code not counted), by a
    few shifts of a bitboard (:class:`~tournoyons_gui.interfaces.grid.Lines`)."""
    return set(cells_of(_LINES.completed(_MARKS[player].bits(tray))))


class TicTacToeRules(LineRules):
    """The game: ``state`` is ``{"tray": 9 chars 0/1/2, "count": moves played, "move1",
    "move2": each player's last cell or absent}``."""

    engine_set = "TicTacToe"
    empty = EMPTY_TRAY
    line = "three in a row"

    lines = staticmethod(winning_cells)

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Put the mark of the player to move on cell ``value`` (``1``..``9``)."""
        tray = self.board(state)
        if winning_cells(tray, Player.ONE) or winning_cells(tray, Player.TWO):
            raise IllegalMove("the game is over")
        number = read_move(value)
        if number is None:
            raise IllegalMove(f"{value!r} is not a cell 1-9")
        if tray[number - 1] != "0":
            raise IllegalMove(f"cell {number} is taken")
        player = self.to_move(tray)
        tray = tray[: number - 1] + MARK[player] + tray[number:]
        return self.placed(state, tray, player, str(number))

    def text(self, state: Mapping[str, Any]) -> str:
        """Return the position drawn as text (``tournoyons-gui diff`` prints it): three
        rows of ``X`` (player one), ``O`` and ``.``, the top row first."""
        return GRID.drawn(self.board(state), TEXT_MARKS)

    # --- the Arbitre's part (engine protocol section 4, TicTacToe) ------------------------

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return ``value`` when it is an empty cell ``1``..``9``."""
        tray = self.board(state)
        number = read_move(value)
        if number is None or value != str(number):
            raise IllegalMove(f"{value!r} is not a cell 1-9")
        if tray[number - 1] != "0":
            raise IllegalMove(f"cell {number} is taken")
        return value

    person_value = engine_value

    def read_start(self, tray: str) -> str:
        """Return ``tray`` when it is 9 characters ``0``/``1``/``2``; raise
        :class:`IllegalMove` otherwise (a start position, decision 15)."""
        if len(tray) != len(EMPTY_TRAY) or set(tray) - set("012"):
            raise IllegalMove("a TicTacToe Tray is 9 characters 0, 1 or 2")
        return tray

    # --- the chapter VI referee (engine protocol section 6) --------------------------------

    def referee_position(self, call: RefereeCall) -> Mapping[str, Any]:
        """Read the engines' Tray (``Init`` or empty: the empty board); the player to move
        follows from the marks' count, as on the page."""
        tray = EMPTY_TRAY if call.tray in ("", "Init") else self.read_start(call.tray)
        return self.counted(tray)


#: The rules the Set plays by (found by :class:`SetInterface`'s convention).
RULES = TicTacToeRules()
