"""A pair of botsarena bots of the benchmark's own (seed 003), ConnectFour, in a process of
their own: ``POST /bot/1`` and ``POST /bot/2`` answer ``init`` and ``play-turn`` with a
legal column chosen at random (the built-in ``random`` engine's), and ``GET /stats`` says
how many posts they answered and the seconds they spent answering (from the body read to
the answer made: the bots' own time, the HTTP round trip left out). ``POST /bare``
answers at once, the same way: a bare round trip, the floor.

    .venv/bin/python benchmarks/bots.py --port 0     # prints "bots on http://127.0.0.1:PORT"
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournoyons_gui.arbitre.botsarena import answer_message  # noqa: E402
from tournoyons_gui.interfaces.registry import load_registry  # noqa: E402
from tournoyons_gui.server.cli.common import bind  # noqa: E402


def app() -> Starlette:
    """Return the bots' application."""
    interface = load_registry(()).get("ConnectFour")
    assert interface is not None and interface.botsarena is not None
    bots, engine = interface.botsarena, interface.engines["random"]
    spent = {"seconds": 0.0, "posts": 0}

    async def bot(request: Request) -> Response:
        message = json.loads(await request.body())
        started = time.perf_counter()
        answer = answer_message(bots, engine, f"bot {request.path_params['n']}", message)
        spent["seconds"] += time.perf_counter() - started
        spent["posts"] += 1
        return JSONResponse(answer)

    async def bare(request: Request) -> Response:
        await request.body()
        return JSONResponse({"play": 0})

    async def stats(request: Request) -> Response:
        return JSONResponse(spent)

    return Starlette(
        routes=[
            Route("/bot/{n}", bot, methods=["POST"]),
            Route("/bare", bare, methods=["POST"]),
            Route("/stats", stats),
        ]
    )


def main() -> int:
    """Serve the bots until interrupted."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--port", type=int, default=0)
    port = parser.parse_args().port
    sock, url = bind("127.0.0.1", port)
    print(f"bots on {url}", flush=True)
    config = uvicorn.Config(app(), log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main())
