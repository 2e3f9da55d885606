"""``tournoyons-gui play``: games between the seats of a Set (two, or four for Tarot),
headless, with a progress bar.

The whole server runs on 127.0.0.1 in this process (:func:`.headless.serving_here`); the
games are played ``--concurrency`` at a time, one line printed per game (record id,
result, moves) and a table at the end. With ``--database postgresql://...`` other
``serve`` workers of the same database share the games.

Seats of one name (``builtin:strong`` twice) are told apart by their number on the
command line (``strong #1``, ``strong #2``: the order of ``--engine``), in the records'
names, the progress lines and the table (issue 27). A game's line and row are read from
its record's game and seats alone, not its whole export.
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from tournoyons_gui.arbitre.match import GameError, Options, SeatSpec
from tournoyons_gui.server.cli.common import split_engine
from tournoyons_gui.server.cli.headless import arbitre_of, progress_bar, serving_here

if TYPE_CHECKING:
    from tournoyons_gui.arbitre.arbitre import Arbitre

__all__ = ["numbered", "parse_seat", "play"]


def parse_seat(value: str) -> SeatSpec:
    """Return the seat an ``--engine`` names: ``builtin:NAME``, ``botsarena:URL`` (a
    botsarena JSON bot, seed 003) or a Tournoyons engine URL (anything else; the Arbitre
    checks it); ``NAME=`` before it names the seat (``Ann=builtin:random``)."""
    name, kind, engine = split_engine(value)
    return SeatSpec(kind, engine, name)


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
    """Play ``args.games`` games; return 0 when every game reached an end, 1 when one did
    not (or the server did not start), 2 when refused (not as many seats as the Set has,
    an unknown Set, a seat the Set cannot have, a start Tray that is not a position)."""
    console = Console(stderr=False)
    async with serving_here(args) as app:
        if app is None:
            return 1
        return await _play(args, console, arbitre_of(app))


async def _play(args: argparse.Namespace, console: Console, arbitre: Arbitre) -> int:
    from tournoyons_gui.arbitre.record import result_text

    seats = [parse_seat(e) for e in args.engine]
    options = Options(
        timeout=args.timeout, level=args.level, deals=args.deals, open_table=args.open_table
    )
    try:
        await arbitre.find_set(args.set)
        interface, rules, made = arbitre.check(args.set, seats, options)
        arbitre.first_turn(interface, rules, options.level, args.start_tray, options.deals)
        seats = numbered(made)
    except GameError as refused:
        console.print(f"[red]{refused}[/red]")
        return 2
    limit = asyncio.Semaphore(max(1, args.concurrency))
    lines: list[tuple[str, str, int, str]] = []
    ok = True
    with progress_bar(console) as progress:
        bar = progress.add_task(f"{args.set} games", total=args.games)

        async def one(number: int) -> None:
            nonlocal ok
            turn = number % len(seats) if args.swap else 0  # two seats: every other game
            order = seats[turn:] + seats[:turn]
            async with limit:
                game_id = await arbitre.create(args.set, order, options, start_tray=args.start_tray)
                await arbitre.wait(game_id)
            found = await arbitre.store.game(game_id)
            assert found is not None
            game, played = found
            if game.status != "over":
                ok = False
            names = [s.name for s in played]
            result = result_text(game, played) or game.result
            lines.append((game_id, result, game.moves, game.reason))
            progress.console.print(f"{game_id}  {result}  {game.moves} moves  {' - '.join(names)}")
            progress.advance(bar)

        await asyncio.gather(*(one(n) for n in range(args.games)))
    table = Table(title=f"{args.set}: {args.games} game(s)")
    for column in ("Game", "Result", "Moves", "Reason"):
        table.add_column(column, overflow="fold")
    for game_id, result, moves, reason in lines:
        table.add_row(game_id, result, str(moves), reason)
    console.print(table)
    return 0 if ok else 1
