"""Reversi's built-in engines: each reads the request an engine receives and answers a cell,
or ``XX`` when it has no legal move (decision 22).

- ``random``: a legal cell at random.
- ``greedy``: one ply: a corner when one is legal, never a cell next to an empty corner
  unless nothing else is legal; among those, the move turning the most discs, less three
  per move it leaves the opponent (a little mobility wins it about 98% of its games against
  ``random``, against about 90% for the most discs alone).

Both read only the engine protocol's parameters, as an outside engine would (engine protocol
section 4, Reversi): ``Tray`` (64 characters ``0``/``3``/``4``, or ``Init``: the standard
start) and ``Turn`` (odd for the first player, black ``3``).
"""

from __future__ import annotations

from collections.abc import Mapping

from tournoyons_gui.interfaces.engine_kit import RNG, best, turn_player
from tournoyons_gui.interfaces.protocol import Player
from tournoyons_gui.interfaces.reversi.board import (
    CELLS,
    INIT_TRAY,
    PASS,
    apply_move,
    cell_name,
    flips,
    legal_moves,
)

__all__ = ["ENGINES", "greedy_engine", "random_engine"]

# Each corner and the three cells next to it.
_CORNERS = {0: (1, 8, 9), 7: (6, 14, 15), 56: (48, 49, 57), 63: (54, 55, 62)}


def _read(params: Mapping[str, str]) -> tuple[str, Player]:
    """Return the settled board (the start for ``Init`` or unreadable) and this engine's
    player (black on odd Turns)."""
    tray = params.get("Tray", "")
    if len(tray) != CELLS or set(tray) - set("034"):
        tray = INIT_TRAY
    return tray, turn_player(params)


def random_engine(params: Mapping[str, str]) -> str:
    """Answer a legal cell at random, ``XX`` when there is none."""
    board, player = _read(params)
    legal = legal_moves(board, player)
    return cell_name(RNG.choice(legal)) if legal else PASS


def _risky(board: str) -> set[int]:
    """Return the cells next to a corner that is still empty."""
    return {cell for corner, near in _CORNERS.items() if board[corner] == "0" for cell in near}


def greedy_engine(params: Mapping[str, str]) -> str:
    """Answer the legal cell of best value (a random one among equals), ``XX`` when none."""
    board, player = _read(params)
    legal = legal_moves(board, player)
    if not legal:
        return PASS
    corners = [i for i in legal if i in _CORNERS]
    safe = [i for i in legal if i not in _risky(board)]
    candidates = corners or safe or list(legal)

    def score(index: int) -> int:
        after, _ = apply_move(board, index, player)
        replies = len(legal_moves(after, player.opponent))
        return len(flips(board, index, player)) - 3 * replies

    return cell_name(best(candidates, score))


ENGINES = {"random": random_engine, "greedy": greedy_engine}
