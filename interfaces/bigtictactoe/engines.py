"""BigTicTacToe's built-in engines: each reads the request an engine receives and answers a cell.

- ``random``: an empty cell at random.
- ``greedy``: one ply of a line heuristic. Every line of five cells through an empty cell
  that the opponent has not entered is worth more the more of this engine's marks it holds
  (completing one is worth most); every line the opponent could still complete is worth
  blocking, the more so the fuller it is. Lines that would share a cell with an alignment
  already scored in the same direction score nothing for their owner (decision 21). A few
  milliseconds a move.

Both read only the engine protocol's parameters, as an outside engine would (engine protocol
section 4, BigTicTacToe): ``Tray`` (100 characters ``0``/``1``/``2``, or ``Init``), ``Turn``
(odd for the first player, whose mark is ``1``) and ``Gain1``/``Gain2`` (the alignments).
"""

from __future__ import annotations

from collections.abc import Mapping

from tournoyons_gui.interfaces.bigtictactoe.board import (
    DIRECTIONS,
    EMPTY_TRAY,
    GRID,
    LENGTH,
    Direction,
    cell_name,
    read_alignments,
    read_tray,
)
from tournoyons_gui.interfaces.engine_kit import RNG, best, empty_cells, turn_player
from tournoyons_gui.interfaces.protocol import Player

__all__ = ["ENGINES", "greedy_engine", "random_engine"]

# Every line of five on the board, with its direction, and the lines through each cell.
_WINDOWS = GRID.windows(LENGTH, DIRECTIONS)
_THROUGH = GRID.through(_WINDOWS)
# The worth of a line holding 0..4 of one player's marks and none of the other's: for its
# owner (4: playing here scores), and for the other player, who blocks it.
_OWN = (1, 6, 36, 220, 20000)
_BLOCK = (1, 5, 30, 180, 8000)


def random_engine(params: Mapping[str, str]) -> str:
    """Answer an empty cell at random."""
    free = empty_cells(read_tray(params.get("Tray")) or EMPTY_TRAY)
    return cell_name(RNG.choice(free)) if free else "A0"


def _spent(params: Mapping[str, str], player: Player) -> set[tuple[int, Direction]]:
    """Return the (cell, direction) pairs ``player``'s alignments already use."""
    found, _ = read_alignments(params.get(f"Gain{player}"), player, None)
    return {(cell, a.direction) for a in found for cell in a.cells}


def _dead(spent: set[tuple[int, Direction]]) -> list[bool]:
    """Return, per line, whether it shares a cell with an alignment in its direction."""
    if not spent:
        return [False] * len(_WINDOWS)
    return [any((cell, direction) in spent for cell in cells) for direction, cells in _WINDOWS]


def greedy_engine(params: Mapping[str, str]) -> str:
    """Answer the empty cell of best line value (a random one among equals)."""
    tray, me = read_tray(params.get("Tray")) or EMPTY_TRAY, turn_player(params)
    free = empty_cells(tray)
    if not free:
        return "A0"
    mine, theirs = str(int(me)), str(int(me.opponent))
    my_dead = _dead(_spent(params, me))
    their_dead = _dead(_spent(params, me.opponent))
    counts = [
        (sum(tray[c] == mine for c in cells), sum(tray[c] == theirs for c in cells))
        for _, cells in _WINDOWS
    ]

    def score(index: int) -> int:
        value = 0
        for w in _THROUGH[index]:
            own, other = counts[w]
            if not other and not my_dead[w]:
                value += _OWN[own]
            if not own and not their_dead[w]:
                value += _BLOCK[other]
        return value

    return cell_name(best(free, score))


ENGINES = {"random": random_engine, "greedy": greedy_engine}
