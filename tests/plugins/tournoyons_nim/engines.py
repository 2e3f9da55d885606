"""Nim's built-in engines: each reads the request an engine receives and answers a take.

- ``random``: 1 to 3 matches at random, no more than are left.
- ``perfect``: leaves the opponent a multiple of 4 whenever it can (then it cannot lose);
  from a multiple of 4 it takes at random, waiting for the opponent to err.

Both read only the engine protocol's parameters (``Tray``: the matches left, ``Init`` = 12),
and draw from the built-in engines' randomness (``engine_kit.RNG``), which the Arbitre
seeds in a game with a seed, as a third party's Set may.
"""

from __future__ import annotations

from collections.abc import Mapping

from tournoyons_gui.interfaces.engine_kit import RNG

PILE = 12


def _matches(params: Mapping[str, str]) -> int:
    tray = params.get("Tray", "")
    if tray in ("", "Init"):
        return PILE
    return int(tray) if tray.isdigit() else PILE


def random_engine(params: Mapping[str, str]) -> str:
    """Answer a random take of 1..3 matches, no more than are left."""
    return str(RNG.randint(1, max(1, min(3, _matches(params)))))


def perfect_engine(params: Mapping[str, str]) -> str:
    """Answer the take that leaves a multiple of 4 (a random take when there is none)."""
    winning = _matches(params) % 4
    return str(winning) if winning else random_engine(params)


ENGINES = {"random": random_engine, "perfect": perfect_engine}
