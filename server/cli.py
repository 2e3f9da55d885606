"""``tournoyons-gui``: the command line.

``tournoyons-gui serve [--host 127.0.0.1] [--port 8000] [--frame-ancestors '*']`` serves
every registered Set with uvicorn (uvloop and httptools when installed). ``--port 0`` takes
a free port; the first line printed says which.
"""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Sequence

import uvicorn

from server.app import create_app


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tournoyons-gui", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the interfaces and the tester")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free)")
    serve.add_argument(
        "--frame-ancestors",
        default="*",
        help="CSP frame-ancestors: who may embed the pages (default '*', any host)",
    )
    serve.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    serve.add_argument("--no-access-log", action="store_true", help="do not log each request")
    return parser


def serve(host: str, port: int, frame_ancestors: str, log_level: str, access_log: bool) -> None:
    """Bind ``host:port``, print the URL, and serve until interrupted."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    print(f"tournoyons-gui: serving on http://{shown}:{bound}/", flush=True)
    config = uvicorn.Config(
        create_app(frame_ancestors=frame_ancestors),
        log_level=log_level,
        access_log=access_log,
        server_header=False,
        date_header=True,
    )
    uvicorn.Server(config).run(sockets=[sock])


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = _parser().parse_args(argv)
    if args.command == "serve":
        serve(args.host, args.port, args.frame_ancestors, args.log_level, not args.no_access_log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
