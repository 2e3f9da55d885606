"""BigTicTacToe (Morpion) rules, as the Arbitre applies them, for the tester's hot-seat games.

Players alternate, player one first, one mark per turn on an empty cell of the 10x10
board. Five marks of one player in a row, a column or a diagonal score one alignment,
recorded in that player's ``Gain`` by its first and last cells (``D3H3``). A cell may
belong to alignments in different directions, but not to two in the same direction. The
game ends when the board is full; the player with more alignments wins (equal: a draw).
Source: manual chapter V, "Morpion" (the syntax); issue 3 (the scoring rule).

Consequences and decisions of the same-direction rule:

- A move scores at most one alignment per direction (two fives through the move would
  share its cell), so up to four at once; they are recorded horizontal, vertical,
  diagonal (down-right), anti-diagonal, in that order.
- A line of 6 scores once; a line of 10 scores twice, as two fives sharing no cell.
- When a move completes a run longer than five, the five scored is, among those through
  the move sharing no cell with an earlier alignment of that direction, the first in Tray
  order (leftmost; topmost for the other directions). So ``A0``-``D0`` then ``F0``-``I0``
  and ``E0`` score ``A0E0``; ``J0`` later scores ``F0J0``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interfaces.bigtictactoe.board import (
    CELLS,
    DIRECTIONS,
    EMPTY_TRAY,
    LENGTH,
    MARK,
    SIZE,
    Direction,
    cell_name,
    player_to_move,
    read_alignments,
    read_cell,
)
from interfaces.plugin import IllegalMove, Turn
from interfaces.protocol import Player

__all__ = ["BigTicTacToeRules", "new_alignments"]

_INPUT = {Player.ONE: "One", Player.TWO: "Two"}


def _run(tray: str, index: int, direction: Direction) -> list[int]:
    """Return the cells of the unbroken line of ``tray[index]``'s mark through ``index``.

    The cells are in Tray order (the run walks back, then forward, along ``direction``).
    """
    mark = tray[index]
    column_step, row_step = direction

    def walk(sign: int) -> list[int]:
        cells: list[int] = []
        column, row = index % SIZE, index // SIZE
        while True:
            column += sign * column_step
            row += sign * row_step
            if not (0 <= column < SIZE and 0 <= row < SIZE):
                return cells
            cell = row * SIZE + column
            if tray[cell] != mark:
                return cells
            cells.append(cell)

    return [*reversed(walk(-1)), index, *walk(1)]


def new_alignments(tray: str, gain: str, index: int) -> list[str]:
    """Return the alignments (``D3H3`` ...) the mark on ``tray[index]`` completes.

    ``tray`` already holds the mark; ``gain`` is its owner's alignments so far, whose cells
    are not reused in the same direction. See the module docstring for the choice.
    """
    player = Player(int(tray[index]))
    earlier, _ = read_alignments(gain, player, None)
    used = {(cell, a.direction) for a in earlier for cell in a.cells}
    found: list[str] = []
    for direction in DIRECTIONS:
        run = _run(tray, index, direction)
        for first in range(len(run) - LENGTH + 1):
            window = run[first : first + LENGTH]
            if index in window and not any((cell, direction) in used for cell in window):
                found.append(cell_name(window[0]) + cell_name(window[-1]))
                break
    return found


def _read_state(state: Mapping[str, Any]) -> tuple[str, int, dict[Player, str]]:
    """Return ``(tray, count, gains)`` from a game's state; raise IllegalMove if corrupt."""
    tray = state.get("tray")
    count = state.get("count", 0)
    gains = {player: state.get(f"gain{player}", "") for player in Player}
    if not isinstance(tray, str) or len(tray) != CELLS or set(tray) - set("012"):
        raise IllegalMove("the game's Tray is corrupt")
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise IllegalMove("the game's Count is corrupt")
    for player, gain in gains.items():
        if not isinstance(gain, str) or read_alignments(gain, player, tray)[1]:
            raise IllegalMove(f"the game's Gain{player} is corrupt")
    return tray, count, {player: str(gain) for player, gain in gains.items()}


class BigTicTacToeRules:
    """The game: ``state`` is ``{"tray": 100 chars 0/1/2, "count", "gain1", "gain2"}``.

    ``gain1``/``gain2`` are the players' alignments in the ``Gain`` syntax, in the order
    they were made.
    """

    def new_game(self) -> Turn:
        """Return the empty board, player one to play, no alignment yet."""
        return Turn(
            state={"tray": EMPTY_TRAY, "count": 0, "gain1": "", "gain2": ""},
            params={"Tray": "Init", "Gain1": "", "Gain2": "", "Input": "One", "Count": "0"},
        )

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Put the mark of the player to move on cell ``value`` (``A0``..``J9``).

        Raise :class:`IllegalMove` when ``value`` is not a cell, the cell is taken, the
        board is full or ``state`` is corrupt. The next page's params carry the Tray with
        the mark, ``Move1``/``Move2``, both Gains, the Count, and ``Input`` for the other
        player, or ``Method=End`` once the board is full.
        """
        tray, count, gains = _read_state(state)
        if "0" not in tray:
            raise IllegalMove("the game is over")
        index = read_cell(value) if value.isupper() else None  # the syntax is upper-case
        if index is None:
            raise IllegalMove(f"{value!r} is not a cell A0-J9")
        if tray[index] != "0":
            raise IllegalMove(f"cell {value} is taken")
        player = player_to_move(tray)
        tray = tray[:index] + MARK[player] + tray[index + 1 :]
        gains[player] += "".join(new_alignments(tray, gains[player], index))
        count += 1
        new_state = {"tray": tray, "count": count, "gain1": gains[Player.ONE],
                     "gain2": gains[Player.TWO]}
        params = {"Tray": tray, f"Move{player}": cell_name(index), "Gain1": gains[Player.ONE],
                  "Gain2": gains[Player.TWO], "Count": str(count)}
        if "0" not in tray:
            params["Method"] = "End"
            return Turn(state=new_state, params=params, over=True)
        params["Input"] = _INPUT[player.opponent]
        return Turn(state=new_state, params=params)
