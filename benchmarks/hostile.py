"""A hostile Tournoyons engine of the benchmark's own, in a process of its own, for
the goal that an engine that is slow, silent or hostile costs the others nothing.

``GET /engine`` takes an engine request (the engine protocol's query string, manual I) and,
before anything else, floods the request's ``Referee`` with :data:`FLOOD` forged callbacks
at once (kept connections): the game's ``Game`` with ``MoveId``\\ s it was not given, the
right ``MoveId`` of a game that is not there, and no ``MoveId`` at all, each with a
``Value`` of garbage (a move out of the board, 2 KB of letters, bytes that are not UTF-8).
Every :data:`SLOW_EVERY`-th request it then sits for :data:`SLOW_S` seconds with the
connection open. It then plays: the request goes, query string unchanged, to a genuine
engine (``--engine``, the benchmark's second Arbitre's ``random``), which calls the
Referee back with the right ``MoveId`` and a legal move, and its answer is passed on.
The game is played to its end, its moves as legal as the genuine engine's, while the
Arbitre answers a flood of forgeries for each of them.

``GET /counts`` says how many requests it took, forgeries it sent and what status each
forgery got: all are to be refused (``404``); a ``200`` is a forgery taken.

    .venv/bin/python benchmarks/hostile.py --engine http://127.0.0.1:8001/engines/tictactoe/random
    # prints "hostile on http://127.0.0.1:PORT"
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qsl, quote

import aiohttp
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournoyons_gui.server.cli.common import bind  # noqa: E402

#: Forged callbacks sent for each engine request.
FLOOD = 40
#: Every SLOW_EVERY-th request waits SLOW_S seconds before it plays.
SLOW_EVERY, SLOW_S = 5, 0.5
#: The forgeries' values: a move out of the board, 2 KB of letters, bytes not UTF-8.
GARBAGE = ("99", "x" * 2048, "%FF%FE%00")


def forgeries(query: dict[str, str]) -> list[str]:
    """Return the :data:`FLOOD` forged callbacks' query strings for the engine request
    ``query`` (its parameters): none of them the genuine answer's."""
    game, move_id = query.get("Game", ""), query.get("MoveId", "0")
    out = []
    for n in range(FLOOD):
        value = GARBAGE[n % len(GARBAGE)]
        kind = n % 4
        if kind == 0:  # the game, a MoveId it was not given
            params = f"Game={quote(game)}&MoveId={quote(move_id)}{n}"
        elif kind == 1:  # a MoveId that is no number
            params = f"Game={quote(game)}&MoveId=-{n}x"
        elif kind == 2:  # the right MoveId, a game that is not there
            params = f"Game=FORGED{n}&MoveId={quote(move_id)}"
        else:  # no MoveId at all
            params = f"Game={quote(game)}"
        out.append(f"{params}&Value={value}")
    return out


def app(engine: str) -> Starlette:
    """Return the hostile engine's application, which plays through ``engine`` (a genuine
    engine's URL)."""
    counts: Counter[str] = Counter()
    state: dict[str, aiohttp.ClientSession] = {}

    def session() -> aiohttp.ClientSession:
        if "session" not in state:
            state["session"] = aiohttp.ClientSession(
                cookie_jar=aiohttp.DummyCookieJar(),
                connector=aiohttp.TCPConnector(limit=0, force_close=False),
                timeout=aiohttp.ClientTimeout(total=30),
            )
        return state["session"]

    async def forge(url: str) -> None:
        try:
            async with session().get(url, allow_redirects=False) as answer:
                await answer.read()
                counts[f"forged {answer.status}"] += 1
        except (TimeoutError, aiohttp.ClientError) as failed:
            counts[f"forged {type(failed).__name__}"] += 1

    async def hostile(request: Request) -> Response:
        counts["requests"] += 1
        query = dict(parse_qsl(request.url.query, keep_blank_values=True))
        referee = query.get("Referee", "")
        if referee.startswith(("http://", "https://")):
            joined = "&" if "?" in referee else "?"
            await asyncio.gather(*(forge(f"{referee}{joined}{q}") for q in forgeries(query)))
            counts["forged"] += FLOOD
        if counts["requests"] % SLOW_EVERY == 0:
            await asyncio.sleep(SLOW_S)
        async with session().get(f"{engine}?{request.url.query}") as answer:
            text = await answer.text()
        return PlainTextResponse(text, status_code=answer.status)

    async def show(request: Request) -> Response:
        return JSONResponse(dict(counts))

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        yield
        if "session" in state:
            await state["session"].close()

    return Starlette(routes=[Route("/engine", hostile), Route("/counts", show)], lifespan=lifespan)


@contextlib.asynccontextmanager
async def hostile_engine(engine: str) -> AsyncIterator[tuple[str, aiohttp.ClientSession]]:
    """Start this module in a process of its own, playing through ``engine``; yield its
    engine URL and a session to read its ``/counts`` with; stop it at the end."""
    from benchmarks.processes import helper_server

    async with helper_server(Path(__file__), ["--engine", engine], "hostile on", "/counts") as (
        base,
        session,
    ):
        yield f"{base}/engine", session


def main() -> int:
    """Serve the hostile engine on 127.0.0.1 until killed; print its URL first."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--engine", required=True, help="the genuine engine it plays through")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    sock, url = bind("127.0.0.1", args.port)
    print(f"hostile on {url}", flush=True)
    server = uvicorn.Server(uvicorn.Config(app(args.engine), log_level="warning", access_log=False))
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main())
