"""``tournoyons-gui tables`` and ``tournoyons-gui maitretarot-client``: MaitreTarot (seed
001; ``docs/reference/tarot.md`` section 4) both ways.

``tables --listen [HOST:]PORT``: the whole server on a free port of 127.0.0.1 (the games
watchable and replayable there, its URL printed) and a MaitreTarot server at the address
given; each table of four clients is a Tarot game of the Arbitre, one line printed per
table that ends. ``maitretarot-client --connect HOST:PORT --nick NAME --engine
builtin:NAME|URL [--matches N]`` plays ``N`` matches at a MaitreTarot server with a
built-in Tarot engine, or a Tournoyons engine called in tester mode (an empty Referee).
"""

from __future__ import annotations

import argparse

from rich.console import Console

from tournoyons_gui.arbitre.calls import engine_client
from tournoyons_gui.arbitre.maitretarot.client import (
    ClientSettings,
    Engine,
    builtin_engine,
    play_match,
    url_engine,
)
from tournoyons_gui.arbitre.maitretarot.codec import ByteOrder
from tournoyons_gui.arbitre.maitretarot.lobby import Settings
from tournoyons_gui.arbitre.maitretarot.server import MaitreTarotServer
from tournoyons_gui.arbitre.match import MAX_TIMEOUT, MIN_TIMEOUT
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.server.cli.common import bind_tcp
from tournoyons_gui.server.cli.headless import arbitre_of, progress_bar, serving_here

__all__ = ["client", "table_settings", "tables"]


def table_settings(args: argparse.Namespace) -> Settings:
    """Return the MaitreTarot server's settings of the command line; raise ``SystemExit``
    (status 2) for a TimeOut out of 4-54 s or deals out of 1-40."""
    if not MIN_TIMEOUT <= args.timeout <= MAX_TIMEOUT:
        raise SystemExit(f"--timeout is {MIN_TIMEOUT} to {MAX_TIMEOUT} seconds")
    if not 1 <= args.deals <= 40:
        raise SystemExit("--deals is 1 to 40")
    return Settings(
        server_id=args.server_id,
        order=ByteOrder(args.byte_order),
        timeout=args.timeout,
        deals=args.deals,
    )


async def tables(args: argparse.Namespace) -> int:
    """Serve MaitreTarot tables until interrupted, or until ``args.tables`` have ended;
    return 0 (1 when the server did not start)."""
    console = Console()
    settings = table_settings(args)
    sock, where = bind_tcp(*args.listen)
    async with serving_here(args) as app:
        if app is None:
            return 1
        arbitre = arbitre_of(app)
        server = MaitreTarotServer(arbitre, settings)
        await server.start(sock=sock)
        console.print(f"tournoyons-gui: MaitreTarot tables on {where}")
        console.print(f"tournoyons-gui: games at {arbitre.public_url}/games")
        ended = 0
        try:
            while not args.tables or ended < args.tables:
                game_id = await server.ended.get()
                ended += 1
                record = await arbitre.record(game_id)
                if record is not None:
                    names = " - ".join(s["name"] for s in record["seats"])
                    console.print(
                        f"{game_id}  {record['status']}  {len(record['moves'])} moves  "
                        f"{names}  {record['reason']}"
                    )
        finally:
            await server.close()
    return 0


def _engine(value: str) -> tuple[Engine | None, str]:
    """Return the engine ``--engine`` names, or ``None`` and why not."""
    if value.startswith("builtin:"):
        tarot = next((s for s in load_registry() if s.name == "Tarot"), None)
        engines = {} if tarot is None else dict(tarot.engines)
        try:
            return builtin_engine(engines, value.removeprefix("builtin:")), ""
        except KeyError:
            return None, f"Tarot has no built-in engine {value!r} ({', '.join(engines)})"
    try:
        return url_engine(engine_client(), value), ""
    except ValueError as refused:
        return None, str(refused)


async def client(args: argparse.Namespace) -> int:
    """Play ``args.matches`` matches; print each one's place, deals and last score; return
    0 when the server ended every one (replay answer 0), 1 otherwise, 2 when refused."""
    console = Console()
    engine, why = _engine(args.engine)
    if engine is None:
        console.print(f"[red]{why}[/red]")
        return 2
    host, port = args.connect
    settings = ClientSettings(server_id=args.server_id, order=ByteOrder(args.byte_order))
    status = 0
    with progress_bar(console) as progress:
        bar = progress.add_task("MaitreTarot matches", total=args.matches)
        for _ in range(args.matches):
            try:
                seen = await play_match(host, port, args.nick, engine, settings)
            except OSError as failed:
                progress.console.print(f"[red]cannot connect to {host}:{port}: {failed}[/red]")
                return 1
            last = seen.scores[-1] if seen.scores else ()
            totals = " ".join(map(str, last[4:]))
            progress.console.print(
                f"place {seen.place + 1}  {seen.deals} deals  totals {totals}  {seen.ended}"
            )
            if seen.ended != "replay 0":
                status = 1
            progress.advance(bar)
    return status
