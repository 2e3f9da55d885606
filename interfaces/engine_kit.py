"""What the built-in engines share: whose turn a request is, and a choice among equals.

A built-in engine reads only the engine protocol's parameters, as an outside engine would
(engine protocol section 4; manual 000): ``Turn`` counts the calls of the game from 1, odd
for the first player. The choices are drawn from :data:`RNG`: the system's randomness, so
two servers never play the same games, unless the caller seeds the call
(:func:`seeded_choices`): the Arbitre does for a game with a seed (its option ``seed``),
with a generator of its own per call (:func:`choice_seed`), so that two games of the same
seed, seats and moves make the same choices whatever else runs at the same time.
"""

from __future__ import annotations

import contextlib
import contextvars
import random
from collections.abc import Callable, Iterable, Iterator, Mapping

from tournoyons_gui.interfaces.protocol import Player

__all__ = [
    "RNG",
    "EngineRandom",
    "best",
    "choice_seed",
    "empty_cells",
    "seeded_choices",
    "turn_number",
    "turn_player",
]

_SYSTEM = random.SystemRandom()
#: The generator of the call in progress in this context, ``None`` outside a seeded call.
_CALL: contextvars.ContextVar[random.Random | None] = contextvars.ContextVar(
    "tournoyons_engine_random", default=None
)


class EngineRandom(random.Random):
    """A :class:`random.Random` whose every draw comes from the seeded generator of the
    call in progress (:func:`seeded_choices`, a :mod:`contextvars` variable, so each task
    and each thread :func:`asyncio.to_thread` starts sees its own), else from the system's
    randomness (``random.SystemRandom``: not seeded, not replayable).

    Every method of :class:`random.Random` (``choice``, ``sample``, ``shuffle``,
    ``randint``, ``random`` ...) draws through :meth:`random` and :meth:`getrandbits`,
    both delegated; ``seed`` does nothing, as ``SystemRandom``'s does (a generator shared
    by every engine is not to be reset).
    """

    def random(self) -> float:
        """Return the next float in [0, 1) of the call's generator."""
        return (_CALL.get() or _SYSTEM).random()

    def getrandbits(self, k: int) -> int:
        """Return ``k`` random bits of the call's generator."""
        return (_CALL.get() or _SYSTEM).getrandbits(k)

    def seed(self, a: object = None, version: int = 2) -> None:
        """Do nothing: the seed is the call's (:func:`seeded_choices`)."""


#: The built-in engines' randomness (:class:`EngineRandom`): a seeded call's generator,
#: else the system's.
RNG = EngineRandom()


def choice_seed(seed: int, entrant: str, number: int) -> str:
    """Return the seed of the generator of one call to a built-in engine: the game's
    ``seed``, the ``entrant`` asked (who plays the seat: its name, told apart from a seat
    of the same name in that game by the caller) and the ``number`` of the move asked
    (the game's moves + 1), written ``"engine-<seed>-<entrant>-<number>"``;
    :class:`random.Random` hashes such a string with SHA-512, the same on every platform
    and Python version 3.2 on. A call's choices so depend on nothing but the game's seed,
    who plays and the position asked about: the two games of a pair (one seed, the seats
    swapped) are two games, not one game played twice, and an engine facing two versions
    of another from one seed makes the same choices wherever their games agree."""
    return f"engine-{seed}-{entrant}-{number}"


@contextlib.contextmanager
def seeded_choices(seed: str | int | None) -> Iterator[None]:
    """Within the block, :data:`RNG` draws from ``random.Random(seed)`` in this context
    (the current task, and the threads ``asyncio.to_thread`` starts from it, which copy
    the context); ``None`` leaves the system's randomness. Nests and restores on exit.

    >>> with seeded_choices(choice_seed(7, "random", 1)):
    ...     a = RNG.random()
    >>> with seeded_choices(choice_seed(7, "random", 1)):
    ...     a == RNG.random()
    True
    """
    token = _CALL.set(None if seed is None else random.Random(seed))
    try:
        yield
    finally:
        _CALL.reset(token)


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
