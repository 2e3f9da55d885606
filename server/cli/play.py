"""``tournoyons-gui play``: a match between engines, one per seat of a Set (two, or four for
Tarot), headless, with a progress bar, then its summary and failure report (issue 33).

The whole server runs on 127.0.0.1 in this process (:func:`.headless.serving_here`); the
games are played ``--concurrency`` at a time in pairs, seats swapped (rotated at four
seats: :mod:`~tournoyons_gui.arbitre.matches`), one line printed per game (record id,
result, moves, seats, the fault that decided it), then the summary
(:mod:`.match_report`), every game lost by fault with a ``curl`` command reproducing it,
and the match's address in the records (``/matches/<id>``, as ``tournoyons-gui serve``
serves the same database). ``--openings builtin|FILE`` starts each pair from an opening;
``--seed N`` makes the run reproducible; ``--sprt ELO0,ELO1[,ALPHA,BETA]`` plays until
the SPRT's verdict; ``--json FILE`` writes the summary document
(``docs/reference/match-json.md``). With ``--database postgresql://...`` other ``serve``
workers of the same database share the games.

Seats of one name (``builtin:strong`` twice) are told apart by their number on the
command line (``strong #1``, ``strong #2``: the order of ``--engine``), in the records'
names, the progress lines and the summary (issue 27).

Exit status: 0 when every game was played to an end, 1 when one was not (or the server
did not start), 2 when refused (the Set, a seat, an option, an openings file's line),
130 after Ctrl-C (SIGINT; 143 after SIGTERM): the games in play are ended as interrupted,
the summary of those finished printed, the records kept.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
import signal
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from tournoyons_gui.arbitre.match import GameError, Options, SeatSpec, first_turn
from tournoyons_gui.server.cli.common import split_engine
from tournoyons_gui.server.cli.headless import arbitre_of, progress_bar, serving_here

if TYPE_CHECKING:
    from tournoyons_gui.arbitre.arbitre import Arbitre
    from tournoyons_gui.arbitre.catalogue import PlayedSet
    from tournoyons_gui.arbitre.stats import Sprt
    from tournoyons_gui.interfaces.openings import Opening

__all__ = ["named", "numbered", "parse_seat", "play"]

#: The exit status after a stop by signal: 128 + the signal's number, as shells report it.
STOPPED_STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143}


def parse_seat(value: str) -> SeatSpec:
    """Return the seat an ``--engine`` names: ``builtin:NAME``, ``botsarena:URL`` (a
    botsarena JSON bot, seed 003) or a Tournoyons engine URL (anything else; the Arbitre
    checks it); ``NAME=`` before it names the seat (``Ann=builtin:random``)."""
    name, kind, engine = split_engine(value)
    return SeatSpec(kind, engine, name)


def named(asked: Sequence[SeatSpec], made: Sequence[SeatSpec]) -> list[SeatSpec]:
    """Return the seats ``made`` (checked by their kinds) with those given by URL and no
    name named ``host[:port][/path]``, what tells them apart (:func:`~tournoyons_gui.
    arbitre.naming.engine_names`): ``v1`` and ``v2`` of one server are not both
    ``127.0.0.1``."""
    from tournoyons_gui.arbitre.naming import engine_names

    by_url = [i for i, seat in enumerate(asked) if not seat.name and "://" in made[i].engine]
    names = engine_names([made[i].engine for i in by_url])
    seats = list(made)
    for index, name in zip(by_url, names, strict=True):
        seats[index] = replace(made[index], name=name)
    return seats


def numbered(seats: Sequence[SeatSpec]) -> list[SeatSpec]:
    """Return ``seats`` (as their kinds named them) with each name that two or more share
    followed by its seat's number on the command line: ``strong``, ``strong``, ``random``
    become ``strong #1``, ``strong #2``, ``random``."""
    counts = Counter(seat.name for seat in seats)
    return [
        replace(seat, name=f"{seat.name[:55]} #{number}") if counts[seat.name] > 1 else seat
        for number, seat in enumerate(seats, 1)
    ]


async def play(args: argparse.Namespace) -> int:
    """Play the match ``args`` asks for; return its exit status (see the module)."""
    console = Console(stderr=False)
    async with serving_here(args) as app:
        if app is None:
            return 1
        return await _play(args, console, arbitre_of(app))


@contextlib.contextmanager
def _stopped_by_signals(stop: asyncio.Event, caught: list[int]) -> Iterator[None]:
    """Have SIGINT (Ctrl-C) and SIGTERM set ``stop`` (the signal kept in ``caught``) while
    the block runs, in place of the server's own handlers: the match ends its games in
    play and prints what was played. A second one stops at once."""
    loop = asyncio.get_running_loop()

    def handle(number: int, _frame: object) -> None:
        if caught:
            raise KeyboardInterrupt
        caught.append(number)
        loop.call_soon_threadsafe(stop.set)

    before = {s: signal.signal(s, handle) for s in STOPPED_STATUS}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def _openings(args: argparse.Namespace, interface: PlayedSet) -> Sequence[Opening]:
    """Return the openings ``--openings`` asks for (``builtin``: the Set's own suite; else
    a file's), ``()`` without. Raises :class:`GameError` with the reason, naming the file's
    line that is not a position of the Set (before any game), or a Set that starts from no
    position."""
    if not args.openings:
        return ()
    if args.start_tray:
        raise GameError("--openings and --start-tray: one start position or the other")
    from tournoyons_gui.interfaces.openings import OpeningsError, load_openings
    from tournoyons_gui.interfaces.plugin import SetInterface

    if not isinstance(interface, SetInterface):
        raise GameError(f"{interface.name} is an added game: it has no openings")
    try:
        return load_openings(args.openings, interface)
    except OpeningsError as refused:
        raise GameError(str(refused)) from None


def _games(args: argparse.Namespace, openings: Sequence[Opening], seats: int) -> int:
    """Return the games to play: ``--games``, else one per seat of each opening, else the
    SPRT's most (:data:`~tournoyons_gui.arbitre.matches.DEFAULT_SPRT_GAMES`), else 1."""
    from tournoyons_gui.arbitre.matches import DEFAULT_SPRT_GAMES

    if args.games is not None:
        if args.games < 1:
            raise GameError("--games is 1 or more")
        return int(args.games)
    if args.sprt:
        return DEFAULT_SPRT_GAMES
    return seats * len(openings) if openings else 1


async def _play(args: argparse.Namespace, console: Console, arbitre: Arbitre) -> int:
    from tournoyons_gui.arbitre.match import MAX_SEED
    from tournoyons_gui.arbitre.matches import MatchPlan, MatchRunner, check_sprt, pair_games

    seats = [parse_seat(e) for e in args.engine]
    options = Options(
        timeout=args.timeout, level=args.level, deals=args.deals, open_table=args.open_table
    )
    try:
        sprt: Sprt | None = args.sprt
        await arbitre.find_set(args.set)
        interface, rules, made = arbitre.check(args.set, seats, options)
        first_turn(interface.name, rules, options.level, args.start_tray, options.deals)
        seats = numbered(named(seats, made))
        check_sprt(sprt, len(seats))
        openings = _openings(args, interface)
        games = _games(args, openings, len(seats))
    except GameError as refused:
        console.print(Text(str(refused), style="red"))
        return 2
    seed = args.seed if args.seed is not None else secrets.randbelow(MAX_SEED + 1)
    plan = MatchPlan(
        interface.name,
        seats,
        options,
        games,
        seed,
        openings,
        args.openings or "",
        sprt,
        args.concurrency,
        args.start_tray,
    )
    runner = MatchRunner(arbitre, plan)
    names = [seat.name for seat in seats]
    told = f"Match {runner.match_id}: {interface.name}, "
    told += (
        f"{games} game{'' if games == 1 else 's'} at most"
        if sprt
        else pair_games(len(seats), games)
    )
    told += f", seed {seed}" + (f", openings {args.openings}" if args.openings else "")
    console.print(told, highlight=False, markup=False)
    stop, caught = asyncio.Event(), list[int]()
    from tournoyons_gui.server.cli.match_report import game_line, progress_text

    with _stopped_by_signals(stop, caught), progress_bar(console) as progress:
        bar = progress.add_task(interface.name, total=games)

        def on_game(outcome: Any, tally: Any) -> None:
            progress.console.print(game_line(outcome, names), highlight=False, markup=False)
            progress.update(bar, advance=1, description=progress_text(interface.name, tally))

        try:
            match = await runner.run(stop, on_game)
        except GameError as refused:
            console.print(Text(str(refused), style="red"))
            return 2
        progress.update(bar, total=progress.tasks[0].completed)
    return await _report(args, console, arbitre, match, caught)


async def _report(
    args: argparse.Namespace, console: Console, arbitre: Arbitre, match: Any, caught: list[int]
) -> int:
    """Print the summary, the failure report and the match's address; write ``--json``;
    return the exit status."""
    from tournoyons_gui.arbitre.faults import failure_of, stopped_answering
    from tournoyons_gui.arbitre.match_summary import outcome_of, summarize
    from tournoyons_gui.server.cli.match_report import print_failures, print_summary

    store = arbitre.store
    entries = await store.match_games(match.id)
    outcomes = [outcome_of(entry) for entry in entries]
    moves = await store.match_moves(match.id) if args.json else None
    document = summarize(match, outcomes, moves)
    if args.json:  # first: the file is what a script waits for, whatever the terminal
        _write_json(Path(args.json), document)
    print_summary(console, document)
    failures = []
    for entry, outcome in zip(entries, outcomes, strict=True):
        if outcome.fault:
            found = failure_of(outcome, entry.seats, await store.exchanges(outcome.game_id))
            if found is not None:
                failures.append(found)
    names = [entrant["name"] for entrant in match.entrants]
    print_failures(console, failures, stopped_answering(outcomes, names))
    database = args.database or "arbitre.sqlite3"
    console.print(
        f"\nMatch {match.id} recorded: /matches/{match.id} as `tournoyons-gui serve "
        f"--database {database}` serves it (http://127.0.0.1:8000/matches/{match.id})",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )
    if caught:
        return STOPPED_STATUS.get(signal.Signals(caught[0]), 130)
    cut = [o for o in outcomes if o.status != "over" and match.verdict == ""]
    return 1 if cut else 0


def _write_json(path: Path, document: dict[str, Any]) -> None:
    """Write the summary document to ``path`` (a temporary file renamed: a reader never
    sees half of it)."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    partial.replace(path)
