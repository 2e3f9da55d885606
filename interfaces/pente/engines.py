"""Pente's built-in engines: each reads the request an engine receives and answers a point.

- ``random``: a legal point at random (the first stone on ``JJ``, player one's second
  outside the 5x5 centre square, as decision 20 wants).
- ``greedy``: one ply of a heuristic over the legal points near the stones. Every line of
  five points the opponent has not entered is worth more the more of this engine's stones it
  holds (five wins); every line the opponent could still fill is worth blocking; a pair
  captured is worth much, more as the captured count nears five (five wins), and so is a
  point where the opponent would capture; a point that leaves a pair of this engine's open to
  capture costs a little. A few milliseconds a move.

Both read only the engine protocol's parameters, as an outside engine would (engine protocol
section 4, Pente): ``Tray`` (361 codes ``0``/``1``/``2``, or ``Init``), ``Turn`` (odd for the
first player, whose stones are ``1``) and ``Gain1``/``Gain2`` (pairs captured). The moves
played, which the opening rule reads, are the stones on the board plus two per pair
captured, not ``Turn`` - 1: a game started from a position (decision 15) numbers its Turns
from 1 or 2 whatever the stones on the board.
"""

from __future__ import annotations

from collections.abc import Mapping

from tournoyons_gui.interfaces.engine_kit import RNG, best, turn_player
from tournoyons_gui.interfaces.pente.board import (
    CENTRE,
    EMPTY_TRAY,
    GRID,
    MAX_GAIN,
    POINTS,
    SIZE,
    point_name,
    read_gain,
)
from tournoyons_gui.interfaces.pente.rules import DIRECTIONS, LINES, captures, forbidden_points
from tournoyons_gui.interfaces.protocol import PAIR, Player

__all__ = ["ENGINES", "greedy_engine", "random_engine"]

LENGTH = 5
NEAR = 2  # the greedy engine looks at points at most this far from a stone

# Every line of five points on the board, and the lines through each point.
_WINDOWS = tuple(cells for _, cells in GRID.windows(LENGTH, LINES))
_THROUGH = GRID.through(GRID.windows(LENGTH, LINES))
# The points at most NEAR from each point.
_AROUND: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        r * SIZE + c
        for r in range(max(0, row - NEAR), min(SIZE, row + NEAR + 1))
        for c in range(max(0, column - NEAR), min(SIZE, column + NEAR + 1))
    )
    for row, column in (divmod(index, SIZE) for index in range(POINTS))
)
# The worth of a line holding 0..4 of one player's stones and none of the other's: for its
# owner (4: playing here wins), and for the other player, who blocks it.
_OWN = (1, 8, 60, 600, 1_000_000)
_BLOCK = (1, 6, 45, 400, 100_000)
_WIN = 1_000_000


def _read(params: Mapping[str, str]) -> tuple[str, Player, int, dict[Player, int]]:
    """Return the Tray, this engine's player, the moves played and the pairs captured."""
    tray = params.get("Tray", "")
    if len(tray) != POINTS or set(tray) - set("012"):
        tray = EMPTY_TRAY
    gains = {p: read_gain(params.get(f"Gain{p}")) or 0 for p in PAIR}
    played = tray.count("1") + tray.count("2") + 2 * sum(gains.values())
    return tray, turn_player(params), played, gains


def _legal(tray: str, played: int) -> list[int]:
    """Return the empty points the player to move may play after ``played`` moves."""
    forbidden = forbidden_points(tray, played)
    return [i for i, code in enumerate(tray) if code == "0" and i not in forbidden]


def random_engine(params: Mapping[str, str]) -> str:
    """Answer a legal point at random."""
    tray, _, played, _ = _read(params)
    legal = _legal(tray, played)
    return point_name(RNG.choice(legal)) if legal else point_name(CENTRE)


def _step(index: int, dx: int, dy: int, times: int) -> int | None:
    row, column = divmod(index, SIZE)
    row, column = row + dy * times, column + dx * times
    return row * SIZE + column if 0 <= row < SIZE and 0 <= column < SIZE else None


def _exposed(tray: str, index: int, player: Player) -> int:
    """Return how many pairs of ``player`` a stone on ``index`` leaves open to capture:
    ``index`` and a neighbour of ``player``'s, an enemy stone on one side, empty the other."""
    own, enemy = str(int(player)), str(int(player.opponent))
    exposed = 0
    for dx, dy in DIRECTIONS:
        mate, beyond, behind = (
            _step(index, dx, dy, 1),
            _step(index, dx, dy, 2),
            _step(index, dx, dy, -1),
        )
        if mate is None or beyond is None or behind is None or tray[mate] != own:
            continue
        ends = {tray[beyond], tray[behind]}
        if ends == {"0", enemy}:
            exposed += 1
    return exposed


def greedy_engine(params: Mapping[str, str]) -> str:
    """Answer the legal point of best heuristic value (a random one among equals)."""
    tray, me, played, gains = _read(params)
    legal = _legal(tray, played)
    if not legal:
        return point_name(CENTRE)
    stones = [i for i, code in enumerate(tray) if code != "0"]
    near = {i for s in stones for i in _AROUND[s]}
    candidates = [i for i in legal if i in near] or legal
    mine, theirs = str(int(me)), str(int(me.opponent))

    def score(index: int) -> int:
        value = 0
        for w in _THROUGH[index]:
            cells = _WINDOWS[w]
            own = sum(tray[c] == mine for c in cells)
            other = sum(tray[c] == theirs for c in cells)
            if not other:
                value += _OWN[own]
            if not own:
                value += _BLOCK[other]
        placed = tray[:index] + mine + tray[index + 1 :]
        taken = len(captures(placed, index, me))
        if taken:
            value += _WIN if gains[me] + taken >= MAX_GAIN else taken * 500 * (1 + gains[me])
        threat = len(captures(tray[:index] + theirs + tray[index + 1 :], index, me.opponent))
        if threat:
            pairs = gains[me.opponent] + threat
            value += _WIN // 10 if pairs >= MAX_GAIN else threat * 400 * (1 + gains[me.opponent])
        return value - 300 * _exposed(placed, index, me)

    return point_name(best(candidates, score))


ENGINES = {"random": random_engine, "greedy": greedy_engine}
