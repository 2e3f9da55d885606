"""Benchmark MaitreTarot tables: deals per second through our server and its Arbitre,
against the bare TCP round trip on the same machine.

    .venv/bin/python benchmarks/maitretarot.py            # 1 table x 8 deals, 20 tables x 2
    .venv/bin/python benchmarks/maitretarot.py --quick    # a smoke run

Everything runs in this process on 127.0.0.1: an Arbitre (its records in a SQLite file of
a temporary folder) with its MaitreTarot server, and our own clients
(:func:`~tournoyons_gui.arbitre.maitretarot.client.play_match`) seating the built-in
``random`` Tarot engine. Measured: one table of four clients, then 20 tables at once (80
clients); for each, the deals played, the moves recorded, deals/s and moves/s.

The floor, in the same run: the bare TCP round trip of asyncio streams on 127.0.0.1 (a
4-byte question, a 4-byte answer, one connection), as round trips per second. A move of a
MaitreTarot client needs one such round trip (the question and its card) plus the
messages to the other clients, the rules and a recorded move, so ``move/RTT`` (a move's
time over a round trip's) says how far above the wire the table runs.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournoyons_gui.arbitre.arbitre import Arbitre  # noqa: E402
from tournoyons_gui.arbitre.maitretarot.client import builtin_engine, play_match  # noqa: E402
from tournoyons_gui.arbitre.maitretarot.lobby import Settings  # noqa: E402
from tournoyons_gui.arbitre.maitretarot.server import MaitreTarotServer  # noqa: E402
from tournoyons_gui.arbitre.store import Store  # noqa: E402
from tournoyons_gui.interfaces.registry import load_registry  # noqa: E402
from tournoyons_gui.interfaces.tarot.engines import ENGINES  # noqa: E402

#: Round trips of the floor measure.
ROUND_TRIPS = 5000


async def round_trips(count: int) -> float:
    """Return bare TCP round trips per second over asyncio streams on 127.0.0.1."""

    async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(4):
            writer.write(data)
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(echo, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    started = time.perf_counter()
    for _ in range(count):
        writer.write(b"\1\0\0\0")
        await writer.drain()
        await reader.readexactly(4)
    seconds = time.perf_counter() - started
    writer.close()
    server.close()
    await server.wait_closed()
    return count / seconds


async def tables(count: int, deals: int, progress: Progress) -> tuple[int, int, float]:
    """Play ``count`` tables of four ``random`` clients at once, ``deals`` deals each;
    return the deals played, the moves recorded and the seconds taken."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "bench.sqlite3"))
        arbitre = Arbitre(load_registry(), store, "http://127.0.0.1:9", max_games=1000)
        await arbitre.run()
        server = MaitreTarotServer(arbitre, Settings(timeout=54, deals=deals))
        await server.start("127.0.0.1", 0)
        engine = builtin_engine(ENGINES, "random")
        bar = progress.add_task(f"{count} table(s) x {deals} deals", total=4 * count)
        try:

            async def one(number: int) -> int:
                seen = await play_match("127.0.0.1", server.port, f"c{number}", engine)
                progress.advance(bar)
                return seen.deals if seen.place == 0 else 0

            started = time.perf_counter()
            played = await asyncio.gather(*(one(n) for n in range(4 * count)))
            seconds = time.perf_counter() - started
            moves = 0
            for game_id in (await store.list_games(per_page=count)).games:
                moves += len(await store.moves(game_id.id))
        finally:
            await server.close()
            await arbitre.close()
            await store.close()
    return sum(played), moves, seconds


async def main_async(quick: bool) -> int:
    """Run the measures; print the table; return 0."""
    console = Console()
    one_deals, many_deals = (2, 1) if quick else (8, 2)
    many = 4 if quick else 20
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=console) as progress:
        rtt = await round_trips(ROUND_TRIPS // (10 if quick else 1))
        single = await tables(1, one_deals, progress)
        several = await tables(many, many_deals, progress)
    table = Table(title=f"MaitreTarot tables; floor: {rtt:,.0f} TCP round trips/s on 127.0.0.1")
    for column in ("Tables", "Deals", "Moves", "Seconds", "Deals/s", "Moves/s", "move/RTT"):
        table.add_column(column, justify="right")
    for count, (deals, moves, seconds) in ((1, single), (many, several)):
        per_move = seconds / max(moves, 1) * count  # one table's move time
        table.add_row(
            str(count),
            str(deals),
            str(moves),
            f"{seconds:.1f}",
            f"{deals / seconds:.2f}",
            f"{moves / seconds:.0f}",
            f"{per_move * rtt:.0f}",
        )
    console.print(table)
    return 0


def main() -> int:
    """Parse the arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    args = parser.parse_args()
    return asyncio.run(main_async(args.quick))


if __name__ == "__main__":
    sys.exit(main())
