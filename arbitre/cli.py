"""``tournoyons-gui play`` and ``tournoyons-gui tournament``: games and tournaments between
engines, headless, with a progress bar.

Each starts the whole server (interfaces, Arbitre, built-in engines) on 127.0.0.1 in this
process, so that engines call back over real HTTP. ``play`` plays the games
``--concurrency`` at a time, prints one line per game (record id, result, moves) and a
table at the end; ``tournament`` runs a round-robin or Swiss tournament and prints its
standings (points, tie-breaks, ratings) and cross table at the end. With ``--database
postgresql://...`` other ``serve`` workers of the same database share the games.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import uvicorn
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.match import GameError, Options, SeatSpec
from tournoyons_gui.arbitre.tournaments import EntrantSpec, TournamentError, Tournaments

__all__ = ["parse_entrant", "parse_seat", "play", "serving_here", "tournament"]


@asynccontextmanager
async def serving_here(args: argparse.Namespace) -> AsyncIterator[Any]:
    """Serve the whole application on a free port of 127.0.0.1 while the block runs (its
    records in ``args.database``); yield the application, or ``None`` when it did not
    start."""
    from tournoyons_gui.server.app import create_app
    from tournoyons_gui.server.cli import _hosts, bind

    sock, url = bind("127.0.0.1", 0)
    app = create_app(database=args.database, public_url=url, engine_hosts=_hosts(args.engine_hosts))
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    )
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if serving.done():
            await serving
            yield None
            return
        await asyncio.sleep(0.02)
    try:
        yield app
    finally:
        server.should_exit = True
        await serving


def progress_bar(console: Console) -> Progress:
    """Return the command line's progress bar: what, the bar, done/all, time elapsed."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )


def parse_seat(value: str) -> SeatSpec:
    """Return the seat an ``--engine`` names: ``builtin:NAME``, ``botsarena:URL`` (a
    botsarena JSON bot, seed 003) or a Tournoyons engine URL."""
    if value.startswith("builtin:"):
        return SeatSpec("builtin", value.removeprefix("builtin:"))
    if value.startswith("botsarena:"):
        return SeatSpec("botsarena", value.removeprefix("botsarena:"))
    return SeatSpec("engine", value)


async def play(args: argparse.Namespace) -> int:
    """Play ``args.games`` games; return 0 when every game reached an end, else 1."""
    console = Console(stderr=False)
    if len(args.engine) != 2:
        console.print("[red]give --engine twice: the two seats[/red]")
        return 2
    async with serving_here(args) as app:
        if app is None:
            return 1
        return await _play(args, console, _arbitre_of(app))


async def _play(args: argparse.Namespace, console: Console, arbitre: Arbitre) -> int:
    seats = [parse_seat(e) for e in args.engine]
    options = Options(timeout=args.timeout, level=args.level)
    try:
        await arbitre.find_set(args.set)
        arbitre.check(args.set, seats, options)
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
            order = list(reversed(seats)) if args.swap and number % 2 else seats
            async with limit:
                game_id = await arbitre.create(args.set, order, options)
                await arbitre.wait(game_id)
            record = await arbitre.record(game_id)
            assert record is not None
            if record["status"] != "over":
                ok = False
            names = [s["name"] for s in record["seats"]]
            winner = record["winner"]
            result = (
                "draw"
                if record["result"] == "draw"
                else f"{names[winner]} wins"
                if winner is not None
                else record["result"]
            )
            lines.append((game_id, result, len(record["moves"]), record["reason"]))
            progress.console.print(
                f"{game_id}  {result}  {len(record['moves'])} moves  {' - '.join(names)}"
            )
            progress.advance(bar)

        await asyncio.gather(*(one(n) for n in range(args.games)))
    table = Table(title=f"{args.set}: {args.games} game(s)")
    for column in ("Game", "Result", "Moves", "Reason"):
        table.add_column(column)
    for game_id, result, moves, reason in lines:
        table.add_row(game_id, result, str(moves), reason)
    console.print(table)
    return 0 if ok else 1


def _arbitre_of(app: Any) -> Arbitre:
    """Return the Arbitre of an application made by ``create_app`` (after its start)."""
    inner = app.app  # the security-headers middleware wraps the Starlette app
    holder = inner.state.arbitre_holder
    return holder()  # type: ignore[no-any-return]


def parse_entrant(value: str) -> EntrantSpec:
    """Return the entrant an ``--engine`` names: ``builtin:NAME``, ``registered:ID`` (a
    registered engine), ``botsarena:URL`` or an engine URL; ``NAME=`` before any of them
    names the entrant (``Ann=builtin:random``)."""
    name = ""
    head, sep, rest = value.partition("=")
    if sep and "://" not in head and ":" not in head:
        name, value = head, rest
    for prefix, kind in (("builtin:", "builtin"), ("registered:", "registered")):
        if value.startswith(prefix):
            return EntrantSpec(kind, value.removeprefix(prefix), name)
    if value.startswith("botsarena:"):
        return EntrantSpec("botsarena", value.removeprefix("botsarena:"), name)
    return EntrantSpec("engine", value, name)


async def tournament(args: argparse.Namespace) -> int:
    """Run a tournament to its end; return 0 when it ended, 2 when refused."""
    console = Console(stderr=False)
    async with serving_here(args) as app:
        if app is None:
            return 1
        service: Tournaments = app.app.state.arbitre_holder.service()
        return await _tournament(args, console, service)


async def _tournament(args: argparse.Namespace, console: Console, service: Tournaments) -> int:
    try:
        tournament_id = await service.create(
            args.set,
            [parse_entrant(e) for e in args.engine],
            format=args.format,
            games=args.games,
            rounds=args.rounds,
            concurrency=args.concurrency,
            options=Options(timeout=args.timeout, level=args.level),
            name=args.name,
        )
    except (TournamentError, GameError) as refused:
        console.print(f"[red]{refused}[/red]")
        return 2
    summary = await service.summary(tournament_id)
    assert summary is not None
    with progress_bar(console) as progress:
        bar = progress.add_task(
            f"{summary['name']} ({tournament_id})", total=summary["progress"]["planned"]
        )
        while True:
            summary = await service.summary(tournament_id)
            assert summary is not None
            progress.update(
                bar, completed=summary["progress"]["over"], total=summary["progress"]["planned"]
            )
            if summary["status"] == "over":
                break
            await asyncio.sleep(0.3)
    console.print(standings_table(summary))
    console.print(cross_table_of(summary))
    console.print(
        f"Records: /tournaments/{tournament_id} (standings.csv, games.csv, .json) "
        f"in {args.database or 'arbitre.sqlite3'}"
    )
    return 0


def standings_table(summary: dict[str, Any]) -> Table:
    """Return the standings of a tournament summary as a rich table."""
    table = Table(title=f"{summary['name']}: standings")
    for column in ("#", "Entrant", "Played", "W", "D", "L", "Err", "Points", "SB", "Buchholz"):
        table.add_column(column, justify="right" if column not in ("Entrant",) else "left")
    table.add_column("Rating", justify="right")
    for row in summary["standings"]:
        table.add_row(
            str(row["rank"]),
            escape(row["name"]),
            str(row["played"]),
            str(row["wins"]),
            str(row["draws"]),
            str(row["losses"]),
            str(row["errors"]),
            f"{row['points']:g}",
            f"{row['sonneborn_berger']:g}",
            f"{row['buchholz']:g}",
            f"{row['mu']:.1f} ± {row['sigma']:.1f}",
        )
    return table


def cross_table_of(summary: dict[str, Any]) -> Table:
    """Return the cross table (W-D-L of each row's entrant against each column's)."""
    names = [e["name"] for e in summary["entrants"]]
    table = Table(title="Cross table (wins-draws-losses)")
    table.add_column("")
    for number in range(len(names)):
        table.add_column(str(number + 1), justify="center")
    for number, (name, cells) in enumerate(zip(names, summary["cross_table"], strict=True)):
        table.add_row(
            f"{number + 1} {escape(name)}",
            *(cell or ("·" if cell == "" else cell) for cell in cells),
        )
    return table
