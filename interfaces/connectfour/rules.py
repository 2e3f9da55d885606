"""ConnectFour rules, as the Arbitre applies them: the tester's hot-seat games, the engines'
view of a game and the chapter VI referee.

Players alternate, player one first, dropping one disc per turn in a column that is not
full (it lands on the column's topmost disc); four of one's discs in a row, column or
diagonal win (they become ``3``/``4`` in the pages' Tray); a full board without a line is
a draw. Engines get the 42-character Tray ``0``/``1``/``2``, bottom row first (the explicit
empty board on Turn 1, never ``Init``, as for TicTacToe: decision 14), the opponent's last
column in ``Move1``/``Move2``, and answer a column letter ``A``..``G``.
Source: spec ``interface-protocol.md`` section 5 (ConnectFour); engine protocol sections 4
(ConnectFour) and 6 (the referee).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournoyons_gui.interfaces.connectfour.board import (
    COLUMNS,
    EMPTY_TRAY,
    GRID,
    HEIGHT,
    ROWS,
    WIDTH,
    column_of,
    counts,
    drop,
    landing,
    winning_cells,
)
from tournoyons_gui.interfaces.lines import TEXT_MARKS, LineRules
from tournoyons_gui.interfaces.plugin import IllegalMove, RefereeCall, Turn
from tournoyons_gui.interfaces.protocol import Player

__all__ = ["RULES", "ConnectFourRules", "check_tray"]


def check_tray(tray: str) -> str:
    """Return ``tray`` when it is a position of a game: 42 codes ``0``/``1``/``2``, no disc
    above an empty cell, player one's discs as many as player two's or one more. Raise
    :class:`IllegalMove` with the reason otherwise."""
    if len(tray) != len(EMPTY_TRAY) or set(tray) - set("012"):
        raise IllegalMove("a ConnectFour Tray is 42 characters 0, 1 or 2, bottom row first")
    for column in range(WIDTH):
        for row in range(1, HEIGHT):
            if tray[GRID.at(column, row)] != "0" and tray[GRID.at(column, row - 1)] == "0":
                raise IllegalMove(f"the disc on {GRID.name(GRID.at(column, row))} floats")
    ones, twos = counts(tray)
    if ones - twos not in (0, 1):
        raise IllegalMove(f"{ones} discs of player one against {twos} of player two")
    return tray


def _over(tray: str) -> bool:
    return bool(
        winning_cells(tray, Player.ONE) or winning_cells(tray, Player.TWO) or "0" not in tray
    )


def _column(tray: str, value: str) -> int:
    """Return the column a value plays: a letter ``A``..``G``; raise :class:`IllegalMove`
    when it is not one or the column is full."""
    column = column_of(value) if value == value.upper() else None
    if column is None:
        raise IllegalMove(f"{value!r} is not a column A-G")
    if landing(tray, column) is None:
        raise IllegalMove(f"column {COLUMNS[column]} is full")
    return column


class ConnectFourRules(LineRules):
    """The game: ``state`` is ``{"tray": 42 chars 0/1/2 bottom row first, "count": moves
    played, "move1", "move2": each player's last column or absent}``."""

    engine_set = "ConnectFour"
    empty = EMPTY_TRAY
    line = "four in a row"

    lines = staticmethod(winning_cells)

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Drop the disc of the player to move in column ``value`` (``A``..``G``); raise
        :class:`IllegalMove` when it is not a column, the column is full or the game over."""
        tray = self.board(state)
        if _over(tray):
            raise IllegalMove("the game is over")
        column = _column(tray, value)
        player = self.to_move(tray)
        tray, _ = drop(tray, column, player)
        return self.placed(state, tray, player, COLUMNS[column])

    def text(self, state: Mapping[str, Any]) -> str:
        """Return the position drawn as text (``tournoyons-gui diff`` prints it): the six
        rows, the top one first, of ``X`` (player one's discs), ``O`` and ``.``, with the
        rows' numbers and the columns' letters."""
        return GRID.drawn(self.board(state), TEXT_MARKS, columns=COLUMNS, rows=ROWS, bottom_up=True)

    # --- the Arbitre's part (engine protocol section 4, ConnectFour) ----------------------

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return ``value`` when it is a column letter ``A``..``G`` that is not full and
        ``player`` is to move; raise :class:`IllegalMove` otherwise."""
        tray = self.board(state)
        if _over(tray):
            raise IllegalMove("the game is over")
        if player is not self.to_move(tray):
            raise IllegalMove(f"player {int(player)} is not to move")
        return COLUMNS[_column(tray, value)]

    def person_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return the column a person's ``ReturnValue`` plays: a column letter (any case), or
        the cell where the disc would land (``D3``); raise :class:`IllegalMove` otherwise."""
        tray = self.board(state)
        text = value.strip().upper()
        index = GRID.read(text)
        if index is not None:
            column = index % WIDTH
            if landing(tray, column) != index:
                raise IllegalMove(f"a disc dropped in column {COLUMNS[column]} lands elsewhere")
            text = COLUMNS[column]
        return self.engine_value(state, player, text)

    def read_start(self, tray: str) -> str:
        """Return ``tray`` when it is 42 codes ``0``/``1``/``2`` with no disc above an empty
        cell and the discs' counts of a game (:func:`check_tray`); raise
        :class:`IllegalMove` otherwise (a start position, decision 15)."""
        return check_tray(tray)

    # --- the chapter VI referee (engine protocol section 6) --------------------------------

    def referee_position(self, call: RefereeCall) -> Mapping[str, Any]:
        """Read the engines' Tray (``Init`` or empty: the empty board): 42 codes
        ``0``/``1``/``2`` with no floating disc and as many discs of each player, or one
        more of player one's (:func:`check_tray`); the player to move follows from the
        count. Raise :class:`IllegalMove` otherwise."""
        tray = EMPTY_TRAY if call.tray in ("", "Init") else check_tray(call.tray)
        return self.counted(tray)


#: The rules the Set plays by (found by :class:`SetInterface`'s convention).
RULES = ConnectFourRules()
