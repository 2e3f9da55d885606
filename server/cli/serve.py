"""``tournoyons-gui serve``: every registered Set, the tester and the Arbitre, with uvicorn."""

from __future__ import annotations

import argparse

import uvicorn

from tournoyons_gui.server.app import create_app
from tournoyons_gui.server.cli.common import bind, bind_tcp, engine_hosts
from tournoyons_gui.server.cli.maitretarot import table_settings
from tournoyons_gui.server.cli.rooms import room_options

__all__ = ["serve"]


def serve(args: argparse.Namespace) -> int:
    """Bind, print the URL (the first line, ``tournoyons-gui: serving on URL/``), and serve
    until interrupted; return 0. Raises ``OSError`` when the address cannot be bound."""
    sock, url = bind(args.host, args.port)
    print(f"tournoyons-gui: serving on {url}/", flush=True)
    maitretarot = None
    if args.maitretarot is not None:
        tables, where = bind_tcp(*args.maitretarot)
        maitretarot = (tables, table_settings(args))
        print(f"tournoyons-gui: MaitreTarot tables on {where}", flush=True)
    app = create_app(
        frame_ancestors=args.frame_ancestors,
        database=args.database,
        public_url=args.public_url or url,
        engine_hosts=engine_hosts(args.engine_hosts),
        sink=args.sink,
        lease_seconds=args.lease,
        rooms=room_options(args),
        maitretarot=maitretarot,
    )
    config = uvicorn.Config(
        app,
        log_level=args.log_level,
        access_log=not args.no_access_log,
        server_header=False,
        date_header=True,
    )
    uvicorn.Server(config).run(sockets=[sock])
    return 0
