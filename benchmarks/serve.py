"""Serve the benchmarked apps on 127.0.0.1 with uvicorn, uvloop and httptools, one worker.

``python benchmarks/serve.py app``: the real server (``create_app()``).
``python benchmarks/serve.py floor FILE [HEADERS.json]``: a Starlette route answering the
bytes of ``FILE`` from memory for every path, with the given headers (the framework's floor).

The first line printed is ``port N``.
"""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp


def floor_app(body: bytes, headers: dict[str, str]) -> ASGIApp:
    """Return a Starlette app answering ``body`` with ``headers`` on every GET."""

    async def constant(request: Request) -> Response:
        return Response(body, 200, headers, media_type="text/html")

    return Starlette(routes=[Route("/{path:path}", constant)])


def main(argv: list[str]) -> int:
    """Bind a free port on 127.0.0.1, print it, and serve until killed."""
    if argv[:1] == ["app"]:
        from tournoyons_gui.server.app import create_app

        app = create_app()
    elif argv[:1] == ["floor"] and len(argv) >= 2:
        headers = json.loads(Path(argv[2]).read_text()) if len(argv) > 2 else {}
        app = floor_app(Path(argv[1]).read_bytes(), headers)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.set_inheritable(True)
    print(f"port {sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(
        app,
        loop="uvloop",
        http="httptools",
        log_level="warning",
        access_log=False,
        server_header=False,
        date_header=True,
    )
    uvicorn.Server(config).run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
