"""The Arbitre benchmark's match rows: ``tournoyons-gui play`` as an engine
author runs it, whole process, each against a floor measured in the same run.

- *SPRT*: ``play --set ConnectFour --engine builtin:strong --engine builtin:random --sprt
  0,50 --seed S`` for a few seeds: the verdict, the games until it, and the wall time.
  Floor: the fewest games any SPRT of these bounds can take (every pair won twice: the
  LLR of ``k`` such pairs crosses the upper bound at the smallest ``k``). Goal: H1, within
  twice the floor. Beside it, for information, the games the trinomial model (W/D/L,
  games taken as independent) would have needed on the same games in the same order: on
  a match this one-sided it decides sooner (its regularized zero counts weigh less than
  the pentanomial's); the pentanomial model's gain is on balanced pairs, where the two
  games of a pair are correlated (Van den Bergh).
- *1,000 games*: ``play --set ConnectFour --engine builtin:random --engine builtin:random
  --games 1000 --concurrency 4 --seed 1`` (20 in ``--quick``), its wall time and games
  per second. Floor: the same engines and rules playing as many games in this process with
  no Arbitre (no HTTP, no records: each move the engine's request built, the engine
  called, the value checked and played), so ``÷ floor`` is what a match costs over the
  engines' and the rules' own time.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["match_lines", "match_rows"]

#: Seeds of the SPRT row, and the games of the 1,000-games row, by quickness.
SPRT_SEEDS = {True: (1,), False: (1, 2, 3)}
GAMES = {True: 20, False: 1000}


@dataclass
class SprtRun:
    """One SPRT run: its seed, verdict, games played, wall time, the games the trinomial
    model needed on the same games (``None``: it had no verdict by then)."""

    seed: int
    verdict: str | None
    games: int
    wall: float
    trinomial: int | None
    ok: bool
    detail: str


@dataclass
class ManyGames:
    """The 1,000-games row: games, moves, wall time of ``play``, the floor's seconds."""

    games: int
    moves: int
    wall: float
    floor: float
    ok: bool
    detail: str


def _play(args: list[str], env: dict[str, str], work: Path) -> tuple[float, dict[str, object], str]:
    """Run ``play ARGS --json`` in ``work``; return its wall time, document and output."""
    report = work / "match.json"
    command = [sys.executable, "-m", "tournoyons_gui.server.cli", "play", *args]
    command += ["--database", str(work / "match.sqlite3"), "--json", str(report)]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    wall = time.perf_counter() - started
    document = json.loads(report.read_text()) if report.exists() else {}
    return wall, document, done.stdout[-500:] + done.stderr[-500:]


def _trinomial_games(games: list[dict[str, object]]) -> int | None:
    """Return the games after which the trinomial SPRT [0, 50] decides on ``games`` in
    order (``None``: not within them)."""
    from tournoyons_gui.arbitre.stats import Sprt

    test = Sprt(0.0, 50.0)
    wins = draws = losses = 0
    for count, game in enumerate(games, 1):
        result = game.get("result")
        wins += result == "win"
        draws += result == "draw"
        losses += result == "loss"
        if test.verdict(test.llr_wdl(wins, draws, losses)) is not None:
            return count
    return None


def sprt_floor() -> int:
    """Return the fewest games an SPRT [0, 50] can decide in: pairs all won twice."""
    from tournoyons_gui.arbitre.stats import Sprt

    test = Sprt(0.0, 50.0)
    pairs = 1
    while test.llr([0, 0, 0, 0, pairs]) < test.upper:
        pairs += 1
    return 2 * pairs


def _floor(games: int) -> tuple[float, int]:
    """Return the seconds the built-in random engines and ConnectFour's rules take to play
    ``games`` games in this process with no Arbitre, and the moves played."""
    from tournoyons_gui.interfaces.registry import load_registry

    interface = load_registry(only="ConnectFour").get("ConnectFour")
    assert interface is not None and interface.arbitre is not None
    rules, engine = interface.arbitre, interface.engines["random"]
    moves = 0
    started = time.perf_counter()
    for _ in range(games):
        turn = rules.start(1)
        while rules.result(turn.state) is None:
            for player in rules.asked(turn.state):
                params = rules.request(turn.state, player).params
                value = rules.engine_value(turn.state, player, engine(params).strip().upper())
                turn = rules.play(turn.state, value)
                moves += 1
    return time.perf_counter() - started, moves


def match_rows(quick: bool, env: dict[str, str]) -> tuple[list[SprtRun], ManyGames]:
    """Run the SPRT runs and the 1,000-games run (see the module)."""
    runs = []
    for seed in SPRT_SEEDS[quick]:
        with tempfile.TemporaryDirectory(prefix="arbitre-sprt-") as work:
            args = ["--set", "ConnectFour", "--engine", "builtin:strong"]
            args += ["--engine", "builtin:random", "--sprt", "0,50", "--seed", str(seed)]
            wall, document, output = _play(args, env, Path(work))
        sprt = document.get("sprt")
        verdict = sprt.get("verdict") if isinstance(sprt, dict) else None
        listed = document.get("games_list", [])
        games = [g for g in listed if isinstance(g, dict) and g.get("status") == "over"]
        ok = verdict == "H1"
        runs.append(SprtRun(seed, verdict, len(games), wall, _trinomial_games(games), ok, output))
    count = GAMES[quick]
    with tempfile.TemporaryDirectory(prefix="arbitre-1000-") as work:
        args = ["--set", "ConnectFour", "--engine", "builtin:random", "--engine"]
        args += ["builtin:random", "--games", str(count), "--concurrency", "4", "--seed", "1"]
        wall, document, output = _play(args, env, Path(work))
    listed = document.get("games_list", [])
    played = [g for g in listed if isinstance(g, dict) and g.get("status") == "over"]
    moves = sum(int(g.get("plies", 0)) for g in played)  # type: ignore[call-overload]
    floor, _ = _floor(count)
    many = ManyGames(count, moves, wall, floor, len(played) == count, output)
    return runs, many


def match_lines(runs: list[SprtRun], many: ManyGames) -> list[str]:
    """Return the match rows as Markdown lines."""
    floor = sprt_floor()
    lines = [
        "| SPRT [0, 50], ConnectFour strong - random | seed | verdict | games | floor "
        "| trinomial on the same games | wall s | checked |",
        "|" + "---|" * 8,
    ]
    for run in runs:
        tri = "no verdict" if run.trinomial is None else str(run.trinomial)
        lines.append(
            f"| | {run.seed} | {run.verdict or '—'} | {run.games} | {floor} | {tri} "
            f"| {run.wall:.1f} | {'✓' if run.ok else '✗ ' + run.detail[-150:]} |"
        )
    rate = many.games / many.wall if many.wall else math.nan
    ratio = many.wall / many.floor if many.floor else math.nan
    lines += [
        "",
        f"Goal: H1 accepted within twice the floor ({2 * floor} games): "
        f"{'✓' if all(r.ok and r.games <= 2 * floor for r in runs) else '✗'}.",
        "",
        "| play, ConnectFour random - random, --concurrency 4 | games | moves | wall s "
        "| games/s | floor s (engines and rules alone) | ÷ floor | checked |",
        "|" + "---|" * 8,
        f"| whole process | {many.games} | {many.moves} | {many.wall:.1f} | {rate:.1f} "
        f"| {many.floor:.2f} | {ratio:.0f} | "
        f"{'✓' if many.ok else '✗ ' + many.detail[-150:]} |",
    ]
    return lines
