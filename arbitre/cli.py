"""``tournoyons-gui play``: games between engines, headless, with a progress bar.

Starts the whole server (interfaces, Arbitre, built-in engines) on 127.0.0.1 in this
process, so that engines call back over real HTTP, plays the games ``--concurrency`` at a
time, prints one line per game (record id, result, moves) and a table at the end.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

import uvicorn
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from tournoyons_gui.arbitre.game import Arbitre, GameError, Options, SeatSpec

__all__ = ["parse_seat", "play"]


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
    from tournoyons_gui.server.app import create_app
    from tournoyons_gui.server.cli import _hosts, bind

    console = Console(stderr=False)
    if len(args.engine) != 2:
        console.print("[red]give --engine twice: the two seats[/red]")
        return 2
    sock, url = bind("127.0.0.1", 0)
    holder: dict[str, Any] = {}
    app = create_app(database=args.database, public_url=url, engine_hosts=_hosts(args.engine_hosts))
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    )
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if serving.done():
            await serving
            return 1
        await asyncio.sleep(0.02)
    arbitre: Arbitre = _arbitre_of(app)
    holder["arbitre"] = arbitre
    seats = [parse_seat(e) for e in args.engine]
    options = Options(timeout=args.timeout, level=args.level)
    try:
        await arbitre.find_set(args.set)
        arbitre.check(args.set, seats, options)
    except GameError as refused:
        console.print(f"[red]{refused}[/red]")
        server.should_exit = True
        await serving
        return 2
    limit = asyncio.Semaphore(max(1, args.concurrency))
    lines: list[tuple[str, str, int, str]] = []
    ok = True
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
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
    server.should_exit = True
    await serving
    return 0 if ok else 1


def _arbitre_of(app: Any) -> Arbitre:
    """Return the Arbitre of an application made by ``create_app`` (after its start)."""
    inner = app.app  # the security-headers middleware wraps the Starlette app
    holder = inner.state.arbitre_holder
    return holder()  # type: ignore[no-any-return]
