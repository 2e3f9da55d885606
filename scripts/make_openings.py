#!/usr/bin/env python3
"""Make the grid Sets' openings suites (``interfaces/<set>/openings.txt``), reproducibly.

Run after ``python3 scripts/test.py`` has made ``.venv``::

    .venv/bin/python scripts/make_openings.py                 # every suite, seed 33
    .venv/bin/python scripts/make_openings.py --set Reversi   # one suite
    .venv/bin/python scripts/make_openings.py --check         # rebuild, compare, write nothing

The same ``--seed`` gives the same files, byte for byte, on any machine (every draw comes
from ``random.Random`` seeded with a text, which hashes it with SHA-512; the engines' own
choices from :func:`~tournoyons_gui.interfaces.engine_kit.seeded_choices`).

**Balanced**, per Set (each file's header says the same):

- TicTacToe: every position 1 to 4 plies from the start, up to the board's 8 symmetries,
  whose value under perfect play (a full minimax) is a draw.
- (The other Sets: see :data:`SUITES`.)

In every suite as many positions have player one to move as player two (a position's side
to move is part of its balance: a suite of positions all with one side to move would lean
the pair's two games the same way).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tournoyons_gui.interfaces.openings import OPENINGS_FILE, read_openings
from tournoyons_gui.interfaces.registry import load_registry

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Position:
    """A candidate: its Tray, the plies from the start, who moves (1 or 2), and a note
    (what the check found) written after it as a comment."""

    tray: str
    plies: int
    mover: int
    note: str


@dataclass(frozen=True)
class Suite:
    """How one Set's suite is made: ``make(rng)`` returns the balanced positions found,
    ``method`` the header's lines saying how, ``size`` the most positions kept."""

    set_name: str
    make: Callable[[random.Random], list[Position]]
    method: tuple[str, ...]
    size: int


def _plies(count: int) -> str:
    return f"{count} ply" if count == 1 else f"{count} plies"


# --- symmetries ------------------------------------------------------------------------


def square_symmetries(tray: str, side: int) -> list[str]:
    """Return the 8 images of a square board's Tray (rows of ``side`` cells, in order)
    under its rotations and reflections."""
    rows = [tray[i * side : (i + 1) * side] for i in range(side)]
    images = []
    for _ in range(4):
        rows = ["".join(rows[side - 1 - j][i] for j in range(side)) for i in range(side)]
        images.append("".join(rows))
        images.append("".join(row[::-1] for row in rows))
    return images


# --- TicTacToe: exact --------------------------------------------------------------------

_TTT_LINES = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)


def _ttt_won(tray: str) -> bool:
    return any(tray[a] != "0" and tray[a] == tray[b] == tray[c] for a, b, c in _TTT_LINES)


def _ttt_mover(tray: str) -> str:
    return "1" if tray.count("1") == tray.count("2") else "2"


@cache
def ttt_value(tray: str) -> int:
    """Return the value of ``tray`` for the side to move under perfect play: 1 a win,
    0 a draw, -1 a loss (a full negamax; the board has at most 9! lines of play)."""
    if _ttt_won(tray):
        return -1  # the side that just moved completed a line
    free = [i for i, code in enumerate(tray) if code == "0"]
    if not free:
        return 0
    mark = _ttt_mover(tray)
    return max(-ttt_value(tray[:i] + mark + tray[i + 1 :]) for i in free)


def tictactoe(rng: random.Random) -> list[Position]:
    """Every TicTacToe position 1-4 plies in, one per symmetry class, drawn under perfect
    play (``rng`` unused: the set is exhaustive)."""
    del rng
    found: list[Position] = []
    level = {"0" * 9}
    for plies in range(1, 5):
        level = {
            tray[:i] + _ttt_mover(tray) + tray[i + 1 :]
            for tray in level
            if not _ttt_won(tray)
            for i, code in enumerate(tray)
            if code == "0"
        }
        classes = sorted({min(square_symmetries(t, 3)) for t in level if not _ttt_won(t)})
        for tray in classes:
            if ttt_value(tray) == 0:
                mover = int(_ttt_mover(tray))
                found.append(Position(tray, plies, mover, f"{_plies(plies)}, perfect play: draw"))
    return found


SUITES: dict[str, Suite] = {
    "TicTacToe": Suite(
        "TicTacToe",
        tictactoe,
        (
            "Every position 1 to 4 plies from the start, one per class of the board's 8",
            "symmetries, whose value under perfect play (a full minimax) is a draw.",
        ),
        50,
    ),
}


# --- writing ------------------------------------------------------------------------------


def balanced_sides(positions: Iterable[Position], size: int) -> list[Position]:
    """Return at most ``size`` of ``positions``, as many with player one to move as with
    player two (the first of each, in the order given), interleaved by plies."""
    ones = [p for p in positions if p.mover == 1]
    twos = [p for p in positions if p.mover == 2]
    each = min(len(ones), len(twos), size // 2)
    kept = ones[:each] + twos[:each]
    return sorted(kept, key=lambda p: (p.plies, p.tray))


def suite_text(suite: Suite, positions: list[Position], seed: int) -> str:
    """Return the file of a suite: its header, then one Tray a line with its note."""
    ones = sum(p.mover == 1 for p in positions)
    header = [
        f"# {suite.set_name} openings: {len(positions)} start positions, one Tray a line",
        f"# ({ones} with player one to move, {len(positions) - ones} with player two).",
        f"# Made by scripts/make_openings.py --seed {seed}; balanced:",
        *(f"#   {line}" for line in suite.method),
        "# A match plays each twice, seats swapped (a pair).",
    ]
    width = max(len(p.tray) for p in positions)
    lines = [f"{p.tray.ljust(width)}  # {p.note}" for p in positions]
    return "\n".join([*header, *lines]) + "\n"


def build(set_name: str, seed: int) -> str:
    """Return the suite file of ``set_name`` made from ``seed``, checked as the Arbitre
    reads it (:func:`~tournoyons_gui.interfaces.openings.read_openings`)."""
    suite = SUITES[set_name]
    rng = random.Random(f"openings-{set_name}-{seed}")
    positions = balanced_sides(suite.make(rng), suite.size)
    text = suite_text(suite, positions, seed)
    interface = load_registry(only=set_name).get(set_name)
    assert interface is not None
    read_openings(text, interface.rules, set_name, f"{set_name} suite")
    return text


def target(set_name: str) -> Path:
    """Return the file a Set's suite is written to."""
    return ROOT / "interfaces" / set_name.lower() / OPENINGS_FILE


def main(argv: list[str] | None = None) -> int:
    """Make (or ``--check``) the suites; return 1 when a checked file differs."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", action="append", choices=sorted(SUITES), help="default: all")
    parser.add_argument("--seed", type=int, default=33, help="default: 33")
    parser.add_argument("--check", action="store_true", help="compare with the files")
    args = parser.parse_args(argv)
    differ = 0
    for set_name in args.set or sorted(SUITES):
        text = build(set_name, args.seed)
        path = target(set_name)
        if args.check:
            same = path.is_file() and path.read_text(encoding="utf-8") == text
            differ += not same
            print(f"{set_name}: {'same' if same else 'DIFFERS'} ({path.relative_to(ROOT)})")
        else:
            path.write_text(text, encoding="utf-8")
            count = sum(1 for line in text.splitlines() if line and not line.startswith("#"))
            print(f"{set_name}: {count} openings -> {path.relative_to(ROOT)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
