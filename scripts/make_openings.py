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
- ConnectFour: positions 2 to 7 random plies in, kept when a search deeper than the
  built-in ``strong`` engine's (the same negamax and leaf score, 14 plies full width,
  where ``strong`` stops at 7 to 11 within 10,000 nodes) finds no forced win for either
  side and scores the position within 1 point of even (a point: one threat, or one
  disc in the centre column).
- Reversi, Pente, BigTicTacToe: positions a few random plies in (near the stones for
  Pente and BigTicTacToe, Pente's opening rule kept, no capture yet), kept when
  :data:`GAMES` games of the Set's best built-in engine against itself from the
  position (its choices among equals seeded per game) give player one between 40% and
  60% of the points (stopping early, after 8 and 16 games, a position far from it).
  Their best engines choose at random among equals, so the games differ; ConnectFour's
  ``strong`` does not, hence its search.

Positions are distinct up to the board's symmetries (ConnectFour: its mirror), written as
reached (a symmetric image of a Reversi position may be unreachable).

In every suite as many positions have player one to move as player two (a position's side
to move is part of its balance: a suite of positions all with one side to move would lean
the pair's two games the same way).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from tournoyons_gui.interfaces.bigtictactoe import board as bigtictactoe_board
from tournoyons_gui.interfaces.connectfour import engines as connectfour_engines
from tournoyons_gui.interfaces.engine_kit import seeded_choices
from tournoyons_gui.interfaces.openings import OPENINGS_FILE, read_openings
from tournoyons_gui.interfaces.pente import board as pente_board
from tournoyons_gui.interfaces.plugin import IllegalMove, Result, SetInterface, Turn
from tournoyons_gui.interfaces.protocol import Player
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.interfaces.reversi import board as reversi_board

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


# --- playing the Sets through their own rules ----------------------------------------------

#: Games of the best built-in engine against itself per candidate (Reversi, Pente,
#: BigTicTacToe); player one's share of the points must be within :data:`EVEN` of a half.
GAMES = 32
EVEN = 0.1
#: After this many games, a candidate further than the bound from a half is dropped.
EARLY = {8: 0.3, 16: 0.2}


@cache
def set_of(set_name: str) -> SetInterface:
    """Return the installed Set called ``set_name``."""
    found = load_registry(only=set_name).get(set_name)
    assert found is not None and found.arbitre is not None, set_name
    return found


def asked_player(set_name: str, state: object) -> Player:
    """Return the one player asked in ``state``."""
    (player,) = set_of(set_name).arbitre.asked(state)  # type: ignore[union-attr, arg-type]
    return player


def engine_tray(set_name: str, turn: Turn) -> str:
    """Return the Tray the engines receive in ``turn``: what an opening holds."""
    rules = set_of(set_name).arbitre
    assert rules is not None
    player = rules.asked(turn.state)[0]
    return rules.request(turn.state, player, init_as_board=True).params["Tray"]


def random_line(
    set_name: str,
    rng: random.Random,
    plies: int,
    choices: Callable[[Turn, int], list[str]],
) -> Turn | None:
    """Return the position after ``plies`` random legal values from the start, each
    drawn by ``rng`` among ``choices(turn, ply)`` that the rules accept; ``None`` when
    none is legal or the game ends on the way."""
    rules = set_of(set_name).arbitre
    assert rules is not None
    turn = rules.start(1)
    for ply in range(plies):
        asked = rules.asked(turn.state)
        if len(asked) != 1:
            return None
        legal = []
        for value in choices(turn, ply):
            try:
                legal.append(rules.engine_value(turn.state, asked[0], value))
            except IllegalMove:
                continue
        if not legal:
            return None
        turn = rules.play(turn.state, rng.choice(legal))
        if turn.over or rules.result(turn.state) is not None:
            return None
    return turn


def play_game(set_name: str, tray: str, engine: str, seed: str) -> Result:
    """Return the result of the Set's built-in ``engine`` against itself from ``tray``,
    its choices seeded per call from ``seed``."""
    interface = set_of(set_name)
    rules = interface.arbitre
    assert rules is not None
    play = interface.engines[engine]
    turn = rules.start(1, tray)  # type: ignore[call-arg]
    number = 0
    while (result := rules.result(turn.state)) is None:
        (player,) = rules.asked(turn.state)
        request = rules.request(turn.state, player)
        params = {"Set": rules.engine_set, "MoveId": str(request.move_id), **request.params}
        number += 1
        with seeded_choices(f"{seed}-{number}"):
            value = play(params).strip().upper()
        turn = rules.play(turn.state, rules.engine_value(turn.state, player, value))
    return result


def first_share(set_name: str, tray: str, engine: str, seed: int) -> float | None:
    """Return player one's share of the points in :data:`GAMES` games of ``engine``
    against itself from ``tray`` (a win 1, a draw 1/2), or ``None`` as soon as the games
    so far put it out of reach (:data:`EARLY`)."""
    points = 0.0
    for game in range(1, GAMES + 1):
        result = play_game(set_name, tray, engine, f"openings-{set_name}-{seed}-{tray}-{game}")
        points += 1.0 if result.winner is Player.ONE else 0.5 if result.winner is None else 0.0
        bound = EARLY.get(game)
        if bound is not None and abs(points / game - 0.5) > bound:
            return None
    return points / GAMES


def by_games(
    set_name: str,
    engine: str,
    plies: range,
    choices: Callable[[Turn, int], list[str]],
    side: int,
    target: int,
    seed: int,
    sound: Callable[[Turn, int], bool] = lambda turn, plies: True,
) -> Callable[[random.Random], list[Position]]:
    """Return a maker of balanced positions by games (see the module): random lines of
    ``plies`` plies through ``choices``, ``sound`` ones (no pass, no capture ...), one per
    symmetry class of a square board of ``side``, until ``target`` // 2 are kept with each
    player to move."""

    def make(rng: random.Random) -> list[Position]:
        kept: dict[int, list[Position]] = {1: [], 2: []}
        seen: set[str] = set()
        want = target // 2
        with progress() as bar:
            task = bar.add_task(f"{set_name} by games", total=2 * want)
            while min(len(found) for found in kept.values()) < want:
                count = rng.choice(plies)
                turn = random_line(set_name, rng, count, choices)
                if turn is None or not sound(turn, count):
                    continue
                tray = engine_tray(set_name, turn)
                mover = int(asked_player(set_name, turn.state))
                key = min(square_symmetries(tray, side))
                if key in seen or len(kept[mover]) >= want:
                    continue
                seen.add(key)
                share = first_share(set_name, tray, engine, seed)
                if share is None or abs(share - 0.5) > EVEN:
                    continue
                note = f"{_plies(count)}, {engine} v {engine}: player one {share:.0%} of {GAMES}"
                kept[mover].append(Position(tray, count, mover, note))
                bar.advance(task)
        return kept[1] + kept[2]

    return make


def progress() -> Progress:
    """Return the script's progress bar."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )


# --- ConnectFour: a search deeper than strong's ----------------------------------------------

#: The plies of the search that decides a ConnectFour position (``strong``: 7 to 11).
CONNECTFOUR_DEPTH = 14
#: The most a kept position scores from even, in the leaf score's points.
CONNECTFOUR_EVEN = 1


def connectfour_value(tray: str, depth: int) -> int:
    """Return the value of ``tray`` for the side to move by ``strong``'s negamax (its
    threats and centre leaf score, its pruning), ``depth`` plies full width."""
    position = connectfour_engines.Position.from_tray(tray)
    search = connectfour_engines._Search(10**9)
    infinite = connectfour_engines._WIN + 1
    return search.negamax(position.mine, position.mask, position.moves, depth, -infinite, infinite)


def connectfour(rng: random.Random, target: int = 60) -> list[Position]:
    """Balanced ConnectFour positions (see the module), ``target`` // 2 per side to move."""
    kept: dict[int, list[Position]] = {1: [], 2: []}
    seen: set[str] = set()
    want = target // 2
    forced = connectfour_engines._WIN - 42
    with progress() as bar:
        task = bar.add_task("ConnectFour by search", total=2 * want)
        while min(len(found) for found in kept.values()) < want:
            count = rng.choice(range(2, 8))
            turn = random_line("ConnectFour", rng, count, lambda turn, ply: list("ABCDEFG"))
            if turn is None:
                continue
            tray = engine_tray("ConnectFour", turn)
            mover = int(asked_player("ConnectFour", turn.state))
            mirrored = "".join(tray[row * 7 : row * 7 + 7][::-1] for row in range(6))
            key = min(tray, mirrored)
            if key in seen or len(kept[mover]) >= want:
                continue
            seen.add(key)
            if abs(connectfour_value(tray, 10)) > 4 * CONNECTFOUR_EVEN:
                continue  # far from even already: not worth the deep search
            value = connectfour_value(tray, CONNECTFOUR_DEPTH)
            if abs(value) > CONNECTFOUR_EVEN or abs(value) >= forced:
                continue
            note = f"{_plies(count)}, {CONNECTFOUR_DEPTH}-ply search: {value:+d}"
            kept[mover].append(Position(tray, count, mover, note))
            bar.advance(task)
    return kept[1] + kept[2]


# --- the moves the random lines draw from ------------------------------------------------------


def near_stones(
    names: tuple[str, ...], reach: int, first: Callable[[int], bool]
) -> Callable[[Turn, int], list[str]]:
    """Return the choices on a square board whose cells are ``names`` (row by row): the
    empty cells at most ``reach`` rows and columns from a stone; on the first ply, the
    cells ``first`` accepts."""
    side = math.isqrt(len(names))

    def choices(turn: Turn, ply: int) -> list[str]:
        tray = str(turn.state["tray"])
        stones = [i for i, code in enumerate(tray) if code != "0"]
        found = []
        for index, code in enumerate(tray):
            if code != "0":
                continue
            row, column = divmod(index, side)
            if (ply == 0 and first(index)) or any(
                abs(row - s // side) <= reach and abs(column - s % side) <= reach for s in stones
            ):
                found.append(index)
        return [names[index] for index in found]

    return choices


def reversi_choices(turn: Turn, ply: int) -> list[str]:
    """Return the legal cells of the player to move."""
    del ply
    board, player = str(turn.state["tray"]), Player(int(turn.state["player"]))
    return [reversi_board.GRID.names[i] for i in reversi_board.legal_moves(board, player)]


def no_pass(turn: Turn, plies: int) -> bool:
    """Whether a Reversi position was reached without a pass (its discs: 4 + the plies),
    as a start Tray's side to move is read from the discs' parity."""
    return sum(code != "0" for code in str(turn.state["tray"])) == 4 + plies


def no_capture(turn: Turn, plies: int) -> bool:
    """Whether a Pente position has every stone played (no capture yet), as a start
    Tray's Gains are 0."""
    return sum(code != "0" for code in str(turn.state["tray"])) == plies


def _centre(side: int, half: int) -> Callable[[int], bool]:
    """Return whether a cell of a square board of ``side`` is in its central square of
    ``2 * half`` (even side) or ``2 * half + 1`` (odd side) cells a side."""
    low, high = side // 2 - half, (side - 1) // 2 + half

    def inside(index: int) -> bool:
        row, column = divmod(index, side)
        return low <= row <= high and low <= column <= high

    return inside


#: The suites' size: how many positions each keeps, half with each player to move.
SIZE = 60
#: The seed the shipped suites were made with.
SEED = 33


def suites(seed: int) -> dict[str, Suite]:
    """Return how each Set's suite is made from ``seed``."""
    by_games_method = (
        f"{GAMES} games of its best built-in engine against itself from the position",
        "(its choices among equals seeded per game) give player one 40% to 60% of the",
        "points; positions are distinct up to the board's symmetries.",
    )
    return {
        "TicTacToe": Suite(
            "TicTacToe",
            tictactoe,
            (
                "Every position 1 to 4 plies from the start, one per class of the board's 8",
                "symmetries, whose value under perfect play (a full minimax) is a draw.",
            ),
            SIZE,
        ),
        "ConnectFour": Suite(
            "ConnectFour",
            connectfour,
            (
                "2 to 7 random plies from the start; kept when a search deeper than the",
                f"built-in strong engine's ({CONNECTFOUR_DEPTH} plies full width, its negamax and",
                "leaf score; strong stops at 7 to 11 plies) finds no forced win and scores",
                f"the position within {CONNECTFOUR_EVEN} point of even for the side to move;",
                "positions are distinct up to the board's mirror.",
            ),
            SIZE,
        ),
        "Reversi": Suite(
            "Reversi",
            by_games("Reversi", "greedy", range(4, 10), reversi_choices, 8, SIZE, seed, no_pass),
            ("4 to 9 random legal plies from the start (no pass); kept when", *by_games_method),
            SIZE,
        ),
        "Pente": Suite(
            "Pente",
            by_games(
                "Pente",
                "greedy",
                range(2, 6),
                near_stones(pente_board.GRID.names, 2, _centre(19, 0)),
                19,
                SIZE,
                seed,
                no_capture,
            ),
            (
                "2 to 5 random plies from the start, each stone at most 2 points from a",
                "stone (the opening rule kept, no capture yet); kept when",
                *by_games_method,
            ),
            SIZE,
        ),
        "BigTicTacToe": Suite(
            "BigTicTacToe",
            by_games(
                "BigTicTacToe",
                "greedy",
                range(2, 6),
                near_stones(bigtictactoe_board.GRID.names, 2, _centre(10, 2)),
                10,
                SIZE,
                seed,
            ),
            (
                "2 to 5 random plies from the start, the first in the central 4x4 square,",
                "each next at most 2 cells from a mark; kept when",
                *by_games_method,
            ),
            SIZE,
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
    suite = suites(seed)[set_name]
    rng = random.Random(f"openings-{set_name}-{seed}")
    positions = balanced_sides(suite.make(rng), suite.size)
    text = suite_text(suite, positions, seed)
    read_openings(text, set_of(set_name).rules, set_name, f"{set_name} suite")
    return text


def target(set_name: str) -> Path:
    """Return the file a Set's suite is written to."""
    return ROOT / "interfaces" / set_name.lower() / OPENINGS_FILE


def main(argv: list[str] | None = None) -> int:
    """Make (or ``--check``) the suites; return 1 when a checked file differs."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    names = sorted(suites(SEED))
    parser.add_argument("--set", action="append", choices=names, help="default: all")
    parser.add_argument("--seed", type=int, default=SEED, help=f"default: {SEED}")
    parser.add_argument("--check", action="store_true", help="compare with the files")
    args = parser.parse_args(argv)
    differ = 0
    for set_name in args.set or names:
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
