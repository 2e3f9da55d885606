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

import random
from collections.abc import Mapping

from tournoyons_gui.interfaces.bigtictactoe.board import (
    CELLS,
    DIRECTIONS,
    EMPTY_TRAY,
    LENGTH,
    SIZE,
    Direction,
    cell_name,
    line_cells,
    read_alignments,
    read_tray,
)
from tournoyons_gui.interfaces.protocol import Player

__all__ = ["ENGINES", "greedy_engine", "random_engine"]

_rng = random.SystemRandom()

# Every line of five on the board, with its direction.
_WINDOWS: tuple[tuple[Direction, tuple[int, ...]], ...] = tuple(
    (direction, line_cells(row * SIZE + column, direction))
    for direction in DIRECTIONS
    for row in range(SIZE)
    for column in range(SIZE)
    if 0 <= column + direction[0] * (LENGTH - 1) < SIZE
    and 0 <= row + direction[1] * (LENGTH - 1) < SIZE
)
# The lines through each cell.
_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(w for w, (_, cells) in enumerate(_WINDOWS) if index in cells) for index in range(CELLS)
)
# The worth of a line holding 0..4 of one player's marks and none of the other's: for its
# owner (4: playing here scores), and for the other player, who blocks it.
_OWN = (1, 6, 36, 220, 20000)
_BLOCK = (1, 5, 30, 180, 8000)


def _read(params: Mapping[str, str]) -> tuple[str, Player]:
    """Return the Tray (empty for ``Init`` or unreadable) and this engine's player."""
    tray = read_tray(params.get("Tray")) or EMPTY_TRAY
    turn = params.get("Turn", "1")
    player = Player.TWO if turn.isdigit() and int(turn) % 2 == 0 else Player.ONE
    return tray, player


def _free(tray: str) -> list[int]:
    return [i for i, code in enumerate(tray) if code == "0"]


def random_engine(params: Mapping[str, str]) -> str:
    """Answer an empty cell at random."""
    tray, _ = _read(params)
    free = _free(tray)
    return cell_name(_rng.choice(free)) if free else "A0"


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
    tray, me = _read(params)
    free = _free(tray)
    if not free:
        return "A0"
    mine, theirs = str(int(me)), str(int(me.opponent))
    my_dead = _dead(_spent(params, me))
    their_dead = _dead(_spent(params, me.opponent))
    counts = [
        (sum(tray[c] == mine for c in cells), sum(tray[c] == theirs for c in cells))
        for _, cells in _WINDOWS
    ]
    best, chosen = -1, [free[0]]
    for index in free:
        score = 0
        for w in _THROUGH[index]:
            own, other = counts[w]
            if not other and not my_dead[w]:
                score += _OWN[own]
            if not own and not their_dead[w]:
                score += _BLOCK[other]
        if score > best:
            best, chosen = score, [index]
        elif score == best:
            chosen.append(index)
    return cell_name(_rng.choice(chosen))


ENGINES = {"random": random_engine, "greedy": greedy_engine}
