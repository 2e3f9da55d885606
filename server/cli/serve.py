"""``tournoyons-gui serve``: every registered Set, the tester and the Arbitre, with uvicorn."""

from __future__ import annotations

import argparse
import logging

import uvicorn

from tournoyons_gui.server.app import create_app
from tournoyons_gui.server.cli.common import bind, bind_tcp, engine_hosts, metrics_listener
from tournoyons_gui.server.cli.maitretarot import table_settings
from tournoyons_gui.server.cli.rooms import room_options
from tournoyons_gui.server.logs import RedactSecrets
from tournoyons_gui.server.timeouts import header_timeout_protocol

__all__ = ["serve"]


def serve(args: argparse.Namespace) -> int:
    """Bind, print the URL (the first line, ``tournoyons-gui: serving on URL/``), and serve
    until interrupted; return 0. Raises ``OSError`` when the address cannot be bound.

    The access log has seat tokens redacted; request headers not complete within
    ``--header-timeout`` seconds close the connection; ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed only from the addresses ``--trust-proxy`` names
    (none by default: a public server's clients could send anything)."""
    sock, url = bind(args.host, args.port)
    print(f"tournoyons-gui: serving on {url}/", flush=True)
    maitretarot = None
    if args.maitretarot is not None:
        tables, where = bind_tcp(*args.maitretarot)
        maitretarot = (tables, table_settings(args))
        print(f"tournoyons-gui: MaitreTarot tables on {where}", flush=True)
    metrics_sockets, metrics = metrics_listener(args.metrics)
    app = create_app(
        frame_ancestors=args.frame_ancestors,
        database=args.database,
        public_url=args.public_url or url,
        engine_hosts=engine_hosts(args.engine_hosts),
        sink=args.sink,
        lease_seconds=args.lease,
        listen=(args.host, sock.getsockname()[1]),
        allow_hosts=[h for h in args.allow_hosts.split(",") if h.strip()],
        admin_tokens=args.admin_token or (),
        rooms=room_options(args),
        maitretarot=maitretarot,
        metrics=metrics,
    )
    logging.getLogger("uvicorn.access").addFilter(RedactSecrets())
    config = uvicorn.Config(
        app,
        http=header_timeout_protocol(args.header_timeout),
        log_level=args.log_level,
        access_log=not args.no_access_log,
        server_header=False,
        date_header=True,
        proxy_headers=bool(args.trust_proxy),
        forwarded_allow_ips=args.trust_proxy or None,
    )
    uvicorn.Server(config).run(sockets=[sock, *metrics_sockets])
    return 0
