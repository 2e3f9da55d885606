"""``tournoyons-gui serve``: every registered Set, the tester and the Arbitre, with uvicorn.

``--workers N`` (default: the machine's cores; one with ``--sink``) runs N processes on
the one port, each on a socket of its own (``SO_REUSEPORT``: the kernel spreads the
connections), each serving HTTP and driving games on the same records: a
SQLite file shared in WAL mode (its writers queued across processes, its workers telling
each other through Unix sockets in a folder of the run's), or PostgreSQL (its
``LISTEN``/``NOTIFY``). :class:`~.workers.Supervisor` starts them, starts again one that
dies (its games are taken over when their leases expire) and stops them on SIGINT or
SIGTERM.
The MaitreTarot tables and the IRC rooms, one listener and one chat connection, run in
the one worker holding the run's duty lock (another takes them over when it dies).
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import json
import logging
import os
import shutil
import socket
import tempfile
from typing import IO, Any

import uvicorn

from tournoyons_gui.server.cli.common import (
    bind,
    bind_tcp,
    engine_hosts,
    metrics_listener,
    prepare_metrics_dir,
)
from tournoyons_gui.server.logs import RedactSecrets

__all__ = ["WORKER_SPEC", "serve", "worker_app"]

#: The environment variable carrying a worker's options from ``serve`` to the processes it
#: starts (JSON: the command line's options, the run's folder).
WORKER_SPEC = "TOURNOYONS_SERVE_WORKER"
#: The duty lock a worker holds while it runs the MaitreTarot tables and the IRC rooms.
_DUTY: IO[bytes] | None = None


def serve(args: argparse.Namespace) -> int:
    """Bind, print the URL (the first line, ``tournoyons-gui: serving on URL/``), and serve
    until interrupted, in one process or ``--workers`` of them; return 0 (2 for options
    that do not go together). Raises ``OSError`` when the address cannot be bound.

    The access log has seat tokens redacted; request headers not complete within
    ``--header-timeout`` seconds close the connection; ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed only from the addresses ``--trust-proxy`` names
    (none by default: a public server's clients could send anything)."""
    workers = args.workers if args.workers is not None else (1 if args.sink else os.cpu_count())
    workers = max(1, workers or 1)
    if workers > 1 and args.sink:
        print("tournoyons-gui: the tester's sink (--sink) serves from one process: --workers 1")
        return 2
    if workers == 1:
        sock, url = bind(args.host, args.port)
        print(f"tournoyons-gui: serving on {url}/", flush=True)
        return _serve_alone(args, sock, url)
    from tournoyons_gui.server.cli.workers import bind_each

    sockets = bind_each(args.host, args.port, workers)
    url = _url(args.host, sockets[0].getsockname()[1])
    print(f"tournoyons-gui: serving on {url}/", flush=True)
    return _serve_workers(args, sockets, url)


def _serve_alone(args: argparse.Namespace, sock: socket.socket, url: str) -> int:
    """Serve in this process."""
    from tournoyons_gui.server.cli.maitretarot import table_settings
    from tournoyons_gui.server.cli.rooms import room_options

    maitretarot = None
    if args.maitretarot is not None:
        tables, where = bind_tcp(*args.maitretarot)
        maitretarot = (tables, table_settings(args))
        print(f"tournoyons-gui: MaitreTarot tables on {where}", flush=True)
    metrics_sockets, metrics = metrics_listener(args.metrics)
    app = _app(args, url, sock, rooms=room_options(args), maitretarot=maitretarot, metrics=metrics)
    logging.getLogger("uvicorn.access").addFilter(RedactSecrets())
    uvicorn.Server(_config(args, app)).run(sockets=[sock, *metrics_sockets])
    return 0


def _url(host: str, port: int) -> str:
    """Return the base URL of ``host:port`` as :func:`bind` gives it."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _serve_workers(args: argparse.Namespace, sockets: list[socket.socket], url: str) -> int:
    """Serve in one process per socket, under :class:`~.workers.Supervisor` (see the
    module)."""
    folder = tempfile.mkdtemp(prefix="tournoyons-serve-")
    # The workers' metrics, in prometheus-client's multi-process mode: the folder is
    # named before anything imports it.
    prepare_metrics_dir(os.path.join(folder, "metrics"))
    from tournoyons_gui.arbitre.store import Store
    from tournoyons_gui.server.cli.workers import Supervisor

    async def prepare() -> None:
        # The schema is made or upgraded once, before the workers open the records.
        store = await Store.open(args.database)
        await store.close()

    asyncio.run(prepare())
    if args.maitretarot is not None:
        tables, where = bind_tcp(*args.maitretarot)
        args.maitretarot = tables.getsockname()[:2]  # a port 0 becomes the one found
        tables.close()  # the worker on duty binds it again
        print(f"tournoyons-gui: MaitreTarot tables on {where}", flush=True)
    metrics_sockets, metrics = metrics_listener(args.metrics)
    spec = {
        **{k: v for k, v in vars(args).items() if k != "handler"},
        "url": url,
        "listen_port": sockets[0].getsockname()[1],
        "folder": folder,
        "metrics_at": metrics,
    }
    os.environ[WORKER_SPEC] = json.dumps(spec, default=list)
    config = _config(args, f"{__name__}:worker_app", factory=True)
    try:
        Supervisor(config, sockets, shared=metrics_sockets).run()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


def worker_app() -> Any:
    """Return the application of one of ``serve --workers N``'s processes (uvicorn's
    factory, called in the worker): the options from :data:`WORKER_SPEC`, the records
    opened shared, the bus in the run's folder; the MaitreTarot tables and the rooms
    when this worker takes the run's duty lock."""
    global _DUTY
    from tournoyons_gui.server.cli.maitretarot import table_settings
    from tournoyons_gui.server.cli.rooms import room_options
    from tournoyons_gui.server.timeouts import HeaderTimeoutProtocol

    spec = json.loads(os.environ[WORKER_SPEC])
    args = argparse.Namespace(**spec)
    HeaderTimeoutProtocol.header_timeout = args.header_timeout
    logging.getLogger("uvicorn.access").addFilter(RedactSecrets())
    duty = open(os.path.join(args.folder, "duty.lock"), "a+b")  # noqa: SIM115
    try:
        fcntl.flock(duty, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        duty.close()
        rooms, maitretarot = None, None
    else:
        _DUTY = duty  # held while this process lives
        rooms = room_options(args)
        maitretarot = None
        if args.maitretarot is not None:
            tables, _ = bind_tcp(*args.maitretarot)
            maitretarot = (tables, table_settings(args))
    return _app(
        args,
        args.url,
        None,
        rooms=rooms,
        maitretarot=maitretarot,
        shared=True,
        folder=args.folder,
        listen_port=args.listen_port,
        metrics=args.metrics_at,
    )


def _app(
    args: argparse.Namespace,
    url: str,
    sock: socket.socket | None,
    *,
    rooms: Any,
    maitretarot: Any,
    shared: bool = False,
    folder: str | None = None,
    listen_port: int | None = None,
    metrics: str | int | None = None,
) -> Any:
    """Return the application ``serve``'s options describe."""
    from tournoyons_gui.server.app import create_app

    port = sock.getsockname()[1] if sock is not None else listen_port
    return create_app(
        frame_ancestors=args.frame_ancestors,
        database=args.database,
        public_url=args.public_url or url,
        engine_hosts=engine_hosts(args.engine_hosts),
        sink=args.sink,
        lease_seconds=args.lease,
        listen=(args.host, port or 0),
        allow_hosts=[h for h in args.allow_hosts.split(",") if h.strip()],
        admin_tokens=args.admin_token or (),
        rooms=rooms,
        maitretarot=maitretarot,
        shared=shared,
        run_folder=folder,
        metrics=metrics,
        drive=not args.no_drive,
        keep_logs=args.keep_logs,
        cors=args.cors or (),
        ladder_games=args.ladder_games if args.ladder else None,
        ladder_timeout=args.ladder_timeout,
    )


def _config(args: argparse.Namespace, app: Any, **more: Any) -> uvicorn.Config:
    """Return uvicorn's configuration of ``app`` (an application, or a factory's import
    string with ``factory=True``: a worker's, made in its own process)."""
    from tournoyons_gui.server.timeouts import header_timeout_protocol

    http: Any = header_timeout_protocol(args.header_timeout)
    if more.get("factory"):
        # Given to the workers by name (a class made here would not reach them); each
        # sets its deadline from the options (worker_app).
        http = "tournoyons_gui.server.timeouts:HeaderTimeoutProtocol"
    return uvicorn.Config(
        app,
        http=http,
        log_level=args.log_level,
        access_log=not args.no_access_log,
        server_header=False,
        date_header=True,
        proxy_headers=bool(args.trust_proxy),
        forwarded_allow_ips=args.trust_proxy or None,
        **more,
    )
