"""What the built-in engines share: whose turn a request is, and a choice among equals.

A built-in engine reads only the engine protocol's parameters, as an outside engine would
(engine protocol section 4; manual 000): ``Turn`` counts the calls of the game from 1, odd
for the first player. The choices are drawn from the system's randomness, so two servers
never play the same games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping

from tournoyons_gui.interfaces.protocol import Player

__all__ = ["RNG", "best", "empty_cells", "turn_number", "turn_player"]

#: The built-in engines' randomness (``random.SystemRandom``: not seeded, not replayable).
RNG = random.SystemRandom()


def turn_number(params: Mapping[str, str]) -> int | None:
    """Return a request's ``Turn`` (1 the first call), or ``None`` when it is missing or
    not a positive whole number in ASCII digits (``"0"``, ``"-3"``, ``"²"``, ``"x"``)."""
    turn = params.get("Turn", "")
    if not (turn.isascii() and turn.isdigit()) or len(turn) > 9 or int(turn) < 1:
        return None
    return int(turn)


def turn_player(params: Mapping[str, str]) -> Player:
    """Return the player a request asks from its ``Turn``: :attr:`Player.TWO` on an even
    Turn, :attr:`Player.ONE` on an odd one, a missing or unreadable one (the first call)."""
    turn = turn_number(params)
    return Player.TWO if turn is not None and turn % 2 == 0 else Player.ONE


def empty_cells(tray: str) -> list[int]:
    """Return the indexes of a Tray's empty cells (code ``0``), in order."""
    return [index for index, code in enumerate(tray) if code == "0"]


def best(candidates: Iterable[int], score: Callable[[int], float]) -> int:
    """Return a candidate of the highest ``score``, drawn at random among equals.

    ``ValueError`` when there is no candidate; ``score`` is called once per candidate."""
    top: float | None = None
    chosen: list[int] = []
    for candidate in candidates:
        value = score(candidate)
        if top is None or value > top:
            top, chosen = value, [candidate]
        elif value == top:
            chosen.append(candidate)
    if not chosen:
        raise ValueError("no candidate to choose from")
    return RNG.choice(chosen)
