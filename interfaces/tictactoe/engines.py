"""TicTacToe's built-in engines: each reads the request an engine receives and answers a cell.

- ``random``: a legal cell at random.
- ``perfect``: minimax over the whole game (at most 9! positions, memoised by Tray): it
  never loses, wins whenever the opponent errs, and prefers the quickest win.

Both read only the engine protocol's parameters (``Tray`` 9 characters ``0``/``1``/``2``,
``Turn``: odd for the first player), as an outside engine would (engine protocol section 4).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from tournoyons_gui.interfaces.engine_kit import RNG, best, empty_cells, turn_player
from tournoyons_gui.interfaces.protocol import Player
from tournoyons_gui.interfaces.tictactoe.board import EMPTY_TRAY, LINES


def _read(params: Mapping[str, str]) -> tuple[str, str]:
    """Return the Tray and this engine's mark (``1`` on odd Turns, ``2`` on even)."""
    tray = params.get("Tray", "")
    if tray in ("", "Init"):
        tray = EMPTY_TRAY
    mark = "1" if turn_player(params) is Player.ONE else "2"
    return tray, mark


def random_engine(params: Mapping[str, str]) -> str:
    """Answer an empty cell ``1``..``9`` at random."""
    tray, _ = _read(params)
    free = empty_cells(tray)
    return str(RNG.choice(free) + 1) if free else "1"


def _winner(tray: str) -> str | None:
    for a, b, c in LINES:
        if tray[a] != "0" and tray[a] == tray[b] == tray[c]:
            return tray[a]
    return None


@cache
def _value(tray: str, mark: str) -> int:
    """Return the game's value for ``mark`` to move on ``tray``: >0 a win (sooner is more),
    0 a draw, <0 a loss."""
    won = _winner(tray)
    if won is not None:
        return -(10 - tray.count("0")) if won != mark else 10 - tray.count("0")
    free = empty_cells(tray)
    if not free:
        return 0
    other = "2" if mark == "1" else "1"
    return max(-_value(tray[:i] + mark + tray[i + 1 :], other) for i in free)


def perfect_engine(params: Mapping[str, str]) -> str:
    """Answer a best cell by minimax (a random one among equals)."""
    tray, mark = _read(params)
    free = empty_cells(tray)
    if not free or len(tray) != 9:
        return "1"
    other = "2" if mark == "1" else "1"
    return str(best(free, lambda i: -_value(tray[:i] + mark + tray[i + 1 :], other)) + 1)


ENGINES = {"random": random_engine, "perfect": perfect_engine}
