"""What ``play`` and ``tournament`` share: the whole server on a free port of 127.0.0.1 in
this process (so that engines call back over real HTTP), and the progress bar."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import uvicorn
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.server.app import create_app
from tournoyons_gui.server.cli.common import bind, engine_hosts

if TYPE_CHECKING:
    from tournoyons_gui.arbitre.arbitre import Arbitre
    from tournoyons_gui.arbitre.tournaments import Tournaments

__all__ = ["arbitre_of", "progress_bar", "serving_here", "tournaments_of"]


@asynccontextmanager
async def serving_here(args: argparse.Namespace) -> AsyncIterator[Any]:
    """Serve the whole application on a free port of 127.0.0.1 while the block runs (its
    records in ``args.database``, engine URLs limited to ``args.engine_hosts``, the Set
    ``args.set`` alone when it names one, no WebSocket); yield the application made by
    ``create_app``, or ``None`` when it did not start."""
    sock, url = bind("127.0.0.1", 0)
    app = create_app(
        registry=load_registry(only=getattr(args, "set", None)),
        database=args.database,
        public_url=url,
        engine_hosts=engine_hosts(args.engine_hosts),
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
