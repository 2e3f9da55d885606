"""``tournoyons-gui rooms``: referee Connect Four rooms on IRC (the timi protocol, seed 004;
``timi-rooms.md``) with an Arbitre of its own on the records of ``--database``, until
interrupted. The games' pages are those of a ``serve`` of the same database
(``--public-url``); ``serve --irc ...`` does both in one process."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.rooms.irc import parse_irc_url
from tournoyons_gui.arbitre.rooms.pace import Pace
from tournoyons_gui.arbitre.rooms.referee import RoomOptions
from tournoyons_gui.arbitre.store import Store
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.server.cli.common import engine_hosts

__all__ = ["OPER_VARIABLE", "irc_oper", "room_options", "rooms"]

#: The environment variable holding the referee's IRC operator account (``NAME:PASSWORD``).
OPER_VARIABLE = "TOURNOYONS_IRC_OPER"


def room_options(args: argparse.Namespace) -> RoomOptions | None:
    """Return the rooms the options ask for (``None`` without ``--irc``), the referee's
    lines paced by ``--pace-burst`` and ``--pace-rate``; raise ``SystemExit`` (status 2)
    for a server that is not ``irc://HOST[:PORT]``."""
    if not args.irc:
        return None
    try:
        parse_irc_url(args.irc)
    except ValueError as refused:
        raise SystemExit(f"tournoyons-gui: {refused}") from None
    oper = irc_oper(getattr(args, "irc_oper", None) or os.environ.get(OPER_VARIABLE, ""))
    return RoomOptions(
        args.irc,
        nick=args.nick,
        rooms=args.rooms,
        prefix=args.prefix,
        think=args.think,
        public_url=getattr(args, "public_url", "") or "",
        pace=Pace(args.pace_burst, args.pace_rate),
        oper=oper,
    )


def irc_oper(value: str) -> tuple[str, str] | None:
    """Read ``--irc-oper`` (or ``$TOURNOYONS_IRC_OPER``): ``NAME:PASSWORD`` as (name,
    password), ``None`` when empty; raise ``SystemExit`` for a value that is not
    two words of IRC's ``OPER`` (no space, no colon in the name, no line break)."""
    if not value:
        return None
    name, colon, password = value.partition(":")
    if not colon or not name or not password or any(c in value for c in " \r\n\0"):
        raise SystemExit(
            f"tournoyons-gui: --irc-oper (or ${OPER_VARIABLE}) is NAME:PASSWORD, no spaces"
        )
    return name, password


async def rooms(args: argparse.Namespace) -> int:
    """Referee the rooms until SIGINT or SIGTERM; return 0."""
    options = room_options(args)
    assert options is not None
    store = await Store.open(args.database)
    arbitre = Arbitre(
        load_registry(()),
        store,
        args.public_url,
        engine_hosts=engine_hosts(args.engine_hosts),
        lease_seconds=args.lease,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop.set)
    await arbitre.recover()
    await arbitre.run()
    referee = options.referee(arbitre)
    await referee.run()
    print(f"tournoyons-gui: refereeing {args.rooms} room(s) on {args.irc}", flush=True)
    try:
        await stop.wait()
    finally:
        await referee.close()
        await arbitre.close()
        await store.close()
    return 0
