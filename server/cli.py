"""``tournoyons-gui``: the command line.

``tournoyons-gui serve [--host 127.0.0.1] [--port 8000] [--database FILE|URL]`` serves every
registered Set, the tester and the Arbitre with uvicorn. ``--port 0`` takes a free port;
the first line printed says which.

``tournoyons-gui play --set TicTacToe --engine builtin:perfect --engine URL [--games N]``
plays games headless through an Arbitre of its own on 127.0.0.1, with a progress bar, one
line per game, and exit status 0 when every game reached an end.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
from collections.abc import Sequence

import uvicorn

from tournoyons_gui.server.app import create_app


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tournoyons-gui", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the interfaces, the tester and the Arbitre")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free)")
    serve.add_argument(
        "--frame-ancestors",
        default="*",
        help="CSP frame-ancestors: who may embed the pages (default '*', any host)",
    )
    _arbitre_options(serve)
    serve.add_argument(
        "--public-url",
        default="",
        help="this server's URL as engines reach it (default http://HOST:PORT)",
    )
    serve.add_argument(
        "--sink",
        action="store_true",
        help="serve the tester's return sink /return and its log (for the "
        "tester on a local server; scripts/serve.py turns it on on "
        "127.0.0.1)",
    )
    serve.add_argument(
        "--lease",
        type=_lease,
        default=15.0,
        help="seconds a game stays with a worker that stopped renewing its lease (killed) "
        "before another worker of the same database takes it over (default 15)",
    )
    serve.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    serve.add_argument("--no-access-log", action="store_true", help="do not log each request")

    play = commands.add_parser("play", help="play games between engines, headless")
    _match_options(
        play,
        "a seat, twice: a Tournoyons engine URL, builtin:NAME (builtin:random) or "
        "botsarena:URL (a botsarena JSON bot)",
    )
    play.add_argument("--games", type=int, default=1, help="games to play (default 1)")
    play.add_argument("--swap", action="store_true", help="alternate who plays first")

    cup = commands.add_parser("tournament", help="run a tournament between engines, headless")
    _match_options(
        cup,
        "an entrant, at least twice: a Tournoyons engine URL, builtin:NAME, "
        "registered:ID, botsarena:URL; NAME=... names it (Ann=builtin:random)",
    )
    cup.add_argument(
        "--format", choices=("round-robin", "swiss"), default="round-robin", help="the format"
    )
    cup.add_argument(
        "--games", type=int, default=2, help="games per pairing, colours alternating (default 2)"
    )
    cup.add_argument("--rounds", type=int, default=0, help="Swiss rounds (default ceil(log2 n))")
    cup.add_argument("--name", default="", help="the tournament's name")
    return parser


def _match_options(parser: argparse.ArgumentParser, engines: str) -> None:
    """Add what ``play`` and ``tournament`` share: the Set, the engines (``engines`` says
    what one is), the match options, then :func:`_arbitre_options`."""
    parser.add_argument("--set", required=True, help="the Set (TicTacToe, Reversi ...)")
    parser.add_argument("--engine", action="append", required=True, metavar="ENGINE", help=engines)
    parser.add_argument("--timeout", type=int, default=20, help="TimeOut, 4-54 s (default 20)")
    parser.add_argument("--level", type=int, default=1, help="rule level (Poker: 1 or 2)")
    parser.add_argument("--concurrency", type=int, default=4, help="games at once (default 4)")
    _arbitre_options(parser)


def _arbitre_options(parser: argparse.ArgumentParser) -> None:
    """Add where the records go and which hosts engine URLs may name."""
    parser.add_argument(
        "--database",
        default=None,
        help="records: a SQLite file (default arbitre.sqlite3) or postgresql://",
    )
    parser.add_argument(
        "--engine-hosts",
        default="",
        help="comma-separated hosts engine URLs may name (default: any)",
    )


def bind(host: str, port: int) -> tuple[socket.socket, str]:
    """Bind ``host:port`` and return the socket and its base URL."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    return sock, f"http://{shown}:{bound}"


def _lease(value: str) -> float:
    """Read ``--lease``: 2 to 600 seconds."""
    seconds = float(value)
    if not 2 <= seconds <= 600:
        raise argparse.ArgumentTypeError("a lease is 2 to 600 seconds")
    return seconds


def _hosts(value: str) -> frozenset[str] | None:
    hosts = frozenset(h.strip().lower() for h in value.split(",") if h.strip())
    return hosts or None


def serve(args: argparse.Namespace) -> None:
    """Bind, print the URL, and serve until interrupted."""
    sock, url = bind(args.host, args.port)
    print(f"tournoyons-gui: serving on {url}/", flush=True)
    app = create_app(
        frame_ancestors=args.frame_ancestors,
        database=args.database,
        public_url=args.public_url or url,
        engine_hosts=_hosts(args.engine_hosts),
        sink=args.sink,
        lease_seconds=args.lease,
    )
    config = uvicorn.Config(
        app,
        log_level=args.log_level,
        access_log=not args.no_access_log,
        server_header=False,
        date_header=True,
    )
    uvicorn.Server(config).run(sockets=[sock])


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = _parser().parse_args(argv)
    if args.command == "serve":
        serve(args)
        return 0
    from tournoyons_gui.arbitre.cli import play, tournament

    if args.command == "tournament":
        return asyncio.run(tournament(args))
    return asyncio.run(play(args))


if __name__ == "__main__":
    sys.exit(main())
