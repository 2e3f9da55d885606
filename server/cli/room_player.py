"""``tournoyons-gui room-player``: play Connect Four in timi rooms on IRC (seed 004,
``timi-rooms.md`` section 3, *Player*) with one engine: one of ours (``builtin:NAME``), a
Tournoyons engine (its URL) or a botsarena bot (``botsarena:URL``), in anybody's room.

It joins ``--room``, plays whenever the room's referee (``--referee``, by default the
room's operators) names it, then finds the next room of the same prefix, until it has
played ``--games`` games; a progress bar, one line per game. Exit status 0 when every
game was played, 1 when it stopped before (no room found, the server lost for good), 2
for options it refuses.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal

from rich.console import Console

from tournoyons_gui.arbitre.calls import engine_client
from tournoyons_gui.arbitre.rooms import timi
from tournoyons_gui.arbitre.rooms.engines import room_engine
from tournoyons_gui.arbitre.rooms.irc import IrcChat, parse_irc_url
from tournoyons_gui.arbitre.rooms.player import GameOver, RoomPlayer
from tournoyons_gui.arbitre.seats.irc import TIMI_SET
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.server.cli.common import engine_hosts
from tournoyons_gui.server.cli.headless import progress_bar

__all__ = ["room_player"]


async def room_player(args: argparse.Namespace) -> int:
    """Play ``args.games`` games in the rooms; return the exit status (module docstring)."""
    console = Console()
    interface = load_registry(()).get(TIMI_SET)
    rules = interface.arbitre if interface is not None else None
    if interface is None or rules is None:
        console.print(f"tournoyons-gui: no {TIMI_SET} rules here")
        return 2
    if not timi.is_player_name(args.nick):
        console.print(
            f"tournoyons-gui: {args.nick!r} cannot play: a nick is a letter, "
            "then 8 letters or digits at most"
        )
        return 2
    client = engine_client()
    try:
        host, port = parse_irc_url(args.irc)
        engine = room_engine(args.engine, interface, client, engine_hosts(args.engine_hosts))
    except ValueError as refused:
        await client.aclose()
        console.print(f"tournoyons-gui: {refused}")
        return 2
    chat = IrcChat(host, port, args.nick)
    try:
        with progress_bar(console) as bar:
            task = bar.add_task(f"{args.nick} ({engine.name})", total=args.games)

            def ended(over: GameOver) -> None:
                side = "first" if over.first else "second"
                console.print(f"{over.room}: end {over.reason} ({len(over.moves)} moves, {side})")
                bar.advance(task)

            player = RoomPlayer(
                chat,
                args.room,
                engine,
                rules,
                referee=args.referee,
                games=args.games,
                on_end=ended,
            )
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError):
                    loop.add_signal_handler(signum, player.stop, "interrupted")
            await player.play()
    finally:
        await client.aclose()
    if player.failed:
        console.print(
            f"tournoyons-gui: stopped after {len(player.played)} game(s): {player.failed}"
        )
        return 1
    return 0
