"""What ``play`` and ``tournament`` share: the whole server on a free port of 127.0.0.1 in
this process (so that engines call back over real HTTP), or where ``--referee-host`` and
``--referee-port`` say, the console they print to, and the progress bar."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import urllib.parse
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import uvicorn
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.server.app import create_app
from tournoyons_gui.server.cli.common import bind, engine_hosts, split_engine

if TYPE_CHECKING:
    from tournoyons_gui.arbitre.arbitre import Arbitre
    from tournoyons_gui.arbitre.tournaments import Tournaments

__all__ = [
    "arbitre_of",
    "given_hosts",
    "output_console",
    "progress_bar",
    "referee_address",
    "serving_here",
    "tournaments_of",
]


#: The widest line written when the output is no terminal: never wrapped (a script reads it).
UNWRAPPED = 10_000


def output_console() -> Console:
    """Return the console a headless command prints to: the terminal's width in a
    terminal; piped or redirected, ``$COLUMNS`` when set (what a table fits), else wide
    enough for a table's natural width (not rich's 80 columns). Its lines of text (a
    line per game, the summary's figures) are printed whole in any case, never wrapped
    (``soft_wrap`` on each): a script reads them."""
    console = Console(stderr=False)
    if console.is_terminal:
        return console
    columns = os.environ.get("COLUMNS", "")
    width = int(columns) if columns.isdigit() and int(columns) > 0 else UNWRAPPED
    return Console(stderr=False, width=width)


def referee_address(args: argparse.Namespace) -> tuple[str, int, str]:
    """Return where the headless server listens (``--referee-host``, ``--referee-port``:
    127.0.0.1 and a free port by default) and its public URL (``--public-url``, ``""``:
    the address bound's)."""
    host = getattr(args, "referee_host", "127.0.0.1") or "127.0.0.1"
    return (
        host.strip("[]"),
        int(getattr(args, "referee_port", 0) or 0),
        (getattr(args, "public_url", "") or "").rstrip("/"),
    )


def given_hosts(engines: Sequence[str]) -> list[str]:
    """Return the hosts of the engine and bot URLs given on the command line: a headless
    server listening beyond loopback (a public server's outbound policy) may call them all
    the same, and nothing else internal."""
    hosts = []
    for value in engines:
        _, _, engine = split_engine(value)
        host = urllib.parse.urlsplit(engine.strip()).hostname if "://" in engine else None
        if host:
            hosts.append(host)
    return hosts


@asynccontextmanager
async def serving_here(args: argparse.Namespace) -> AsyncIterator[Any]:
    """Serve the whole application while the block runs, on a free port of 127.0.0.1 or
    where ``--referee-host`` and ``--referee-port`` say (a server listening beyond
    loopback is held to a public server's outbound policy and limits, the hosts of the
    engines given allowed: :func:`given_hosts`), its Referee at ``--public-url`` when
    given; its records in ``args.database``, engine URLs limited to
    ``args.engine_hosts``, the Set ``args.set`` alone when it names one, no WebSocket;
    yield the application made by ``create_app``, or ``None`` when it did not start (the
    address could not be bound: said on the standard error)."""
    host, port, public = referee_address(args)
    try:
        sock, url = bind(host, port)
    except OSError as failed:
        print(f"tournoyons-gui: cannot listen on {host}:{port}: {failed}", file=sys.stderr)
        yield None
        return
    bound = int(sock.getsockname()[1])
    args.listening = f"[{host}]:{bound}" if ":" in host else f"{host}:{bound}"
    app = create_app(
        registry=load_registry(only=getattr(args, "set", None)),
        database=args.database,
        public_url=public or url,
        engine_hosts=engine_hosts(args.engine_hosts),
        listen=(host, bound),
        allow_hosts=given_hosts(getattr(args, "engine", None) or []),
    )
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", ws="none")
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
    """Return the command line's progress bar: what, the bar, done/all, time elapsed;
    drawn four times a second (its drawing takes the games' CPU)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        refresh_per_second=4,
    )


def arbitre_of(app: Any) -> Arbitre:
    """Return the Arbitre of an application made by ``create_app``, once it has started."""
    inner = app.app  # the security-headers middleware wraps the Starlette app
    return inner.state.arbitre_holder()  # type: ignore[no-any-return]


def tournaments_of(app: Any) -> Tournaments:
    """Return the tournaments service of an application made by ``create_app``, once it has
    started."""
    return app.app.state.arbitre_holder.service()  # type: ignore[no-any-return]
