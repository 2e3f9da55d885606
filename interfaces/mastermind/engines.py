"""MasterMind's built-in engines: each reads the request an engine receives and answers a code
or a guess.

- ``random``: a random code on Turns 1-2, then random guesses (as ``00`` + 4 colours).
- ``consistent``: a random code, then the classic strategy: a guess drawn at random among
  the codes consistent with every line it played so far (each line's marks, computed by the
  Arbitre, are those the guess would get if the candidate were the secret), sent as the 4
  bare colours (decision 18). It filters the 4096 codes once, then the survivors of each
  line (:func:`consistent_codes`): a few milliseconds a guess.

Both read only the engine protocol's parameters: ``Turn`` (1 and 2: the code; from 3, a
guess) and ``Tray`` (the engine's own lines, 6 characters each, ``30GCCH``; empty when none),
as an outside engine would (engine protocol section 4, MasterMind).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping

from tournoyons_gui.interfaces.engine_kit import RNG, turn_number

COLOURS = "ABCDEFGH"
PEGS = 4
LINE = 2 + PEGS
#: Every code, ``AAAA`` .. ``HHHH``.
ALL_CODES = tuple("".join(code) for code in itertools.product(COLOURS, repeat=PEGS))


@functools.cache
def _counts() -> dict[str, tuple[int, ...]]:
    """Return each code's count of each colour, for fast marking (made at the first
    guess, not when the Set is loaded: a server's start-up)."""
    return {code: tuple(code.count(colour) for colour in COLOURS) for code in ALL_CODES}


def _random_code() -> str:
    return "".join(RNG.choice(COLOURS) for _ in range(PEGS))


def _is_code_turn(params: Mapping[str, str]) -> bool:
    turn = turn_number(params)
    return turn is not None and turn <= 2


def _lines(params: Mapping[str, str]) -> list[tuple[str, int, int]]:
    """Return the readable lines of ``Tray``: (guess, well placed, misplaced)."""
    tray = params.get("Tray", "").strip().upper()
    lines = []
    for i in range(0, len(tray) - LINE + 1, LINE):
        line = tray[i : i + LINE]
        if (
            line[:2].isascii()
            and line[:2].isdigit()
            and all(colour in COLOURS for colour in line[2:])
        ):
            lines.append((line[2:], int(line[0]), int(line[1])))
    return lines


def random_engine(params: Mapping[str, str]) -> str:
    """Answer a random code, or a random guess ``00`` + 4 colours."""
    code = _random_code()
    return code if _is_code_turn(params) else "00" + code


def consistent_codes(lines: list[tuple[str, int, int]]) -> tuple[list[str], int]:
    """Return ``(codes, marked)``: the codes consistent with every line ``(guess, well
    placed, misplaced)``, in :data:`ALL_CODES` order (none when the marks contradict each
    other), and how many codes were marked against a line to find them. That is the
    ``consistent`` engine's cost, whatever the machine's speed: all 4096 codes against the
    first line, then only the codes still consistent against each next one, stopping once
    none is (so at most 4096 per line; its time a guess is a figure of
    ``benchmarks/arbitre.py``)."""
    candidates = list(ALL_CODES)
    marked = 0
    for guess, well, misplaced in lines:
        table = _counts()
        counts, common = table[guess], well + misplaced
        marked += len(candidates)
        candidates = [
            code
            for code in candidates
            if sum(map(min, table[code], counts)) == common
            and sum(map(str.__eq__, code, guess)) == well
        ]
        if not candidates:
            break
    return candidates, marked


def consistent_engine(params: Mapping[str, str]) -> str:
    """Answer a random code, or a random code consistent with every line played so far
    (:func:`consistent_codes`; a random one if the marks contradict each other)."""
    if _is_code_turn(params):
        return _random_code()
    lines = _lines(params)
    candidates, _ = consistent_codes(lines)
    if not candidates:
        return _random_code()
    played = {guess for guess, _, _ in lines}
    fresh = [code for code in candidates if code not in played]
    return RNG.choice(fresh or candidates)


ENGINES = {"random": random_engine, "consistent": consistent_engine}
