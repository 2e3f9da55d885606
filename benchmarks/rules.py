"""Benchmark each Set's rules as the Arbitre's game master calls them, per move.

    .venv/bin/python benchmarks/rules.py                 # every Set, 3 s each
    .venv/bin/python benchmarks/rules.py --seconds 0.5   # a smoke run
    .venv/bin/python benchmarks/rules.py --sets connectfour,reversi
    .venv/bin/python benchmarks/rules.py --seed 5        # other games (default 27)

For each Set with the Arbitre's rules, whole games of its built-in ``random`` engine
against itself (seeded as the Arbitre seeds a game with the option ``seed``: the engine's
choices per call, the cards of a Set that deals from a seed; ``--seed`` gives every game
its own, so the same games are played on every run) are played in this process, with no
I/O, and every call the game master makes for a move is timed: ``result`` and ``asked``
(each step), ``request`` and ``engine_value`` (each seat asked; a game of more than two
seats sends its engines ``Seat`` and ``Players`` too, as the Arbitre does), ``play`` (each
value), ``page`` (each move's ``Tray``, for the record); the engine's own time is not
counted.
The table gives each call's mean µs, ``rules µs/move`` (all of a move's calls, the share
of a step's ``result`` and ``asked`` included), and the floor measured in the same run:
a ``play`` that does the least any can (a copy of the state and a new Turn), in µs.

Goal: ``play`` costs at most 50 µs in every Set (✓ met, ✗ missed).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournoyons_gui.interfaces.engine_kit import choice_seed, seeded_choices  # noqa: E402
from tournoyons_gui.interfaces.plugin import (  # noqa: E402
    ArbitreRules,
    Turn,
    seat_count,
    starts_from_seed,
)
from tournoyons_gui.interfaces.registry import load_registry  # noqa: E402

#: The goal: a Set's ``play`` at most this many µs.
PLAY_GOAL = 50.0
CALLS = ("result", "asked", "request", "engine_value", "play", "page")


def floor(seconds: float, state: Mapping[str, Any]) -> float:
    """Return the µs of the least ``play``: ``state`` copied into a new Turn."""
    count, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(1000):
            Turn(state=dict(state), params={}, over=False)
        count += 1000
    return (time.perf_counter() - started) * 1e6 / count


def game_seed(seed: int, game: int) -> int:
    """Return the seed of game ``game`` (1 the first) of a run of ``seed``: 63 bits of
    ``random.Random("rules-<seed>-<game>")``, the same on every machine."""
    return random.Random(f"rules-{seed}-{game}").getrandbits(63)


def measure(
    rules: ArbitreRules,
    engine: Callable[[Mapping[str, str]], str],
    seconds: float,
    seed: int = 27,
) -> tuple[dict[str, list[float]], int, int]:
    """Play seeded games (:func:`game_seed`) for about ``seconds``; return each call's
    times (µs), the games and the moves played."""
    times: dict[str, list[float]] = defaultdict(list)
    clock = time.perf_counter

    def timed(name: str, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        started = clock()
        value = call(*args, **kwargs)
        times[name].append((clock() - started) * 1e6)
        return value

    # A game of more than two seats tells each engine its seat, as the Arbitre does
    # (arbitre/seats/engine.py; tarot.md section 3): Tarot's engines read ``Seat``.
    seats = seat_count(rules)
    games = moves = 0
    deadline = clock() + seconds
    while clock() < deadline or games == 0:
        games += 1
        chance = game_seed(seed, games)
        start: Any = rules.start
        turn = (
            start(rules.levels[0], seed=chance)
            if starts_from_seed(rules)
            else rules.start(rules.levels[0])
        )
        for number in range(1, 5001):  # a bound: no Set's game is this long
            if timed("result", rules.result, turn.state) is not None:
                break
            values = {}
            for player in timed("asked", rules.asked, turn.state):
                request = timed("request", rules.request, turn.state, player)
                params = {"Turn": str(request.move_id), **request.params}
                if seats > 2:
                    params.update(Seat=str(int(player)), Players=str(seats))
                entrant = f"seat {int(player)}"  # one engine in every seat: told apart
                with seeded_choices(choice_seed(chance, entrant, number)):
                    value = engine(params).strip().upper()
                values[player] = timed(
                    "engine_value", rules.engine_value, turn.state, player, value
                )
            for player in sorted(values):
                turn = timed("play", rules.play, turn.state, values[player])
                timed("page", rules.page, turn, None, asking=False)
                moves += 1
    return times, games, moves


def main(argv: list[str] | None = None) -> int:
    """Measure every Set (or ``--sets``), print the table; return 0."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per Set (default 3)")
    parser.add_argument("--sets", default="", help="Set keys, comma-separated (default all)")
    parser.add_argument("--seed", type=int, default=27, help="the games' seed (default 27)")
    args = parser.parse_args(argv)
    wanted = {s.strip().lower() for s in args.sets.split(",") if s.strip()}
    rows, missed = [], []
    least = floor(min(1.0, args.seconds), {"tray": "0" * 64, "moves": [], "turn": 1})
    for interface in sorted(load_registry(()), key=lambda i: i.name):
        rules, engine = interface.arbitre, interface.engines.get("random")
        if rules is None or engine is None or (wanted and interface.key not in wanted):
            continue
        times, games, moves = measure(rules, engine, args.seconds, args.seed)
        total = sum(sum(v) for v in times.values()) / max(1, moves)
        play = statistics.mean(times["play"])
        mark = "✓" if play <= PLAY_GOAL else "✗"
        if play > PLAY_GOAL:
            missed.append(interface.name)
        cells = " | ".join(f"{statistics.mean(times[c]):.0f}" if times[c] else "—" for c in CALLS)
        rows.append(
            f"| {interface.name} | {games} | {moves / games:.1f} | {cells} | {total:.0f} "
            f"| {play / least:.0f}× {mark} |"
        )
    print(
        f"Rules benchmark, {args.seconds:g} s per Set, seed {args.seed}; floor (a state "
        f"copied into a new Turn): {least:.2f} µs.\n"
    )
    print(
        "| Set | games | moves/game | "
        + " | ".join(f"{c} µs" for c in CALLS)
        + " | rules µs/move | play ÷ floor |"
    )
    print("|" + "---|" * (len(CALLS) + 5))
    print("\n".join(rows))
    goal = "every Set ✓" if not missed else f"missed by {', '.join(missed)} ✗"
    print(f"\nGoal: play ≤ {PLAY_GOAL:g} µs: {goal}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
