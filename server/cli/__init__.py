"""``tournoyons-gui``: the command line.

``tournoyons-gui serve [--host 127.0.0.1] [--port 8000] [--database FILE|URL]`` serves every
registered Set, the tester and the Arbitre with uvicorn. ``--port 0`` takes a free port;
the first line printed says which.

``tournoyons-gui play --set TicTacToe --engine builtin:perfect --engine URL [--games N]
[--openings builtin|FILE] [--seed N] [--sprt ELO0,ELO1] [--json FILE]`` plays a match
headless through an Arbitre of its own on 127.0.0.1: games in pairs with the seats
swapped, a progress bar, one line per game, then the summary (wins, draws, losses, faults,
Elo, LOS, pentanomial counts, the SPRT), the failure report and the match's address; exit
status 0 when every game reached an end, 130 after Ctrl-C.

``tournoyons-gui tournament --set TicTacToe --engine URL --engine builtin:random ...`` runs
a round-robin or Swiss tournament the same way and prints its standings and cross table.

``tournoyons-gui check-interface URL --set TicTacToe [--json] [--sheet FILE] [--alone]`` checks a
graphical interface in headless Chromium (issue 24) and prints its report.

``tournoyons-gui rooms --irc irc://HOST:PORT [--nick Arbitre] [--rooms 3] [--prefix '#p4-']
[--think 15] [--pace-burst 3] [--pace-rate 2]`` referees Connect Four rooms on IRC (the timi
protocol, seed 004), its lines paced under the server's flood limits; ``serve --irc ...``
does it beside the web.

``tournoyons-gui room-player --irc irc://HOST:PORT --room '#p4-1' --nick NAME --engine
builtin:NAME|URL|botsarena:URL [--games N]`` plays in anybody's timi rooms with an engine.

``tournoyons-gui tables --listen [HOST:]PORT`` is a MaitreTarot server (seed 001): its
tables of four clients are Tarot games of the Arbitre; ``serve --maitretarot [HOST:]PORT``
does the same beside the web. ``tournoyons-gui maitretarot-client --connect HOST:PORT
--nick NAME --engine builtin:NAME|URL`` seats one of our engines at a MaitreTarot server.

One package, a module per command. Here: the parser and :func:`main`, which imports the
one command it runs (:mod:`.serve`, :mod:`.play`, :mod:`.tournament`, :mod:`.rooms`,
:mod:`.room_player`, :mod:`.maitretarot`), so that ``--help`` loads neither the server
nor the Arbitre. What the commands share is in :mod:`.common` (light) and :mod:`.headless`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from tournoyons_gui.server.cli.common import (
    add_arbitre_options,
    add_count,
    add_irc_options,
    add_maitretarot_options,
    add_match_options,
    add_table_options,
    address,
    bind,
    lease,
    metrics_place,
    seed,
    sprt_test,
)

__all__ = ["bind", "main", "parser"]


def parser() -> argparse.ArgumentParser:
    """Return the command line's parser: a command (``serve``, ``play``, ``tournament``)
    and its options."""
    top = argparse.ArgumentParser(prog="tournoyons-gui", description=__doc__.split("\n")[0])
    commands = top.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the interfaces, the tester and the Arbitre")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free)")
    serve.add_argument(
        "--frame-ancestors",
        default="*",
        help="CSP frame-ancestors: who may embed the pages (default '*', any host)",
    )
    add_arbitre_options(serve)
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
        type=lease,
        default=15.0,
        help="seconds a game stays with a worker that stopped renewing its lease (killed) "
        "before another worker of the same database takes it over (default 15)",
    )
    serve.add_argument(
        "--allow-hosts",
        default="",
        help="comma-separated internal hosts, addresses or networks (10.1.0.0/16) a public "
        "server may call all the same (default: none)",
    )
    serve.add_argument(
        "--admin-token",
        action="append",
        metavar="TOKEN",
        help="an organiser token (Authorization: Bearer TOKEN): lifts the limits, may "
        "cancel a tournament or a game (repeatable; see also the token command)",
    )
    serve.add_argument(
        "--trust-proxy",
        default="",
        metavar="ADDRESSES",
        help="comma-separated addresses of a reverse proxy whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed (default: none)",
    )
    serve.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        help="seconds a client has to send a request's headers (default 10)",
    )
    serve.add_argument(
        "--maitretarot",
        type=address,
        default=None,
        metavar="[HOST:]PORT",
        help="also be a MaitreTarot server there (seed 001): tables of four clients",
    )
    add_table_options(serve)
    add_irc_options(serve, required=False)
    serve.add_argument(
        "--no-drive",
        action="store_true",
        help="serve the pages and the API, drive no game: a web process beside drivers "
        "(serve processes of the same --database) that play the games it makes",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="processes serving and driving games on the same records (default: the "
        "machine's cores; 1 with --sink)",
    )
    serve.add_argument(
        "--metrics",
        type=metrics_place,
        default=None,
        metavar="public|[HOST:]PORT",
        help="where /metrics (Prometheus) is served: [HOST:]PORT a listener of its own "
        "(127.0.0.1:9464), public the public listener too (default: on a loopback "
        "server's listener, on no public one's)",
    )
    serve.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    serve.add_argument("--no-access-log", action="store_true", help="do not log each request")

    token = commands.add_parser(
        "token", help="make an organiser token, stored hashed in the records, and print it"
    )
    token.add_argument("--database", default=None, help="the records (as serve's)")
    token.add_argument("--note", default="", help="who the token is for (kept with it)")

    play = commands.add_parser("play", help="play games between engines, headless")
    add_match_options(
        play,
        "a seat, once per seat of the Set: a Tournoyons engine URL, builtin:NAME "
        "(builtin:random) or botsarena:URL (a botsarena JSON bot); NAME=... names it",
    )
    play.add_argument(
        "--games",
        type=int,
        default=None,
        help="games to play, in pairs with the seats swapped (default 1; with --openings "
        "each opening once per seat; with --sprt the most, default 20000)",
    )
    play.add_argument(
        "--swap",
        action="store_true",
        help="(kept for old scripts: the games of a pair always swap the seats)",
    )
    play.add_argument(
        "--openings",
        default=None,
        metavar="builtin|FILE",
        help="start each pair of games from an opening: the Set's own suite (builtin) or "
        "a file of Trays, one a line, # comments",
    )
    play.add_argument(
        "--seed",
        type=seed,
        default=None,
        metavar="N",
        help="the run's seed (0 to 2^63-1): the openings' order, the deals and the built-in "
        "engines' choices; the same command twice plays the same games (default: drawn, "
        "and printed)",
    )
    play.add_argument(
        "--sprt",
        type=sprt_test,
        default=None,
        metavar="ELO0,ELO1[,ALPHA,BETA]",
        help="play pairs until the SPRT of H0: Elo = ELO0 against H1: Elo = ELO1 (normalized "
        "Elo, as fastchess) accepts one, or --games are played (alpha = beta = 0.05)",
    )
    play.add_argument(
        "--json",
        default=None,
        metavar="FILE",
        help="write the match's summary, every game listed, as JSON to FILE",
    )
    play.add_argument(
        "--deals", type=int, default=None, help="deals in a match (Tarot: 1-40, default 4)"
    )
    play.add_argument(
        "--open-table",
        action="store_true",
        help="spectators see every hand while the game is played (Tarot)",
    )
    play.add_argument(
        "--start-tray",
        default=None,
        metavar="TRAY",
        help="start every game from this position (a Tray of the Set: TicTacToe, "
        "BigTicTacToe, Pente, Reversi, ConnectFour)",
    )

    cup = commands.add_parser("tournament", help="run a tournament between engines, headless")
    add_match_options(
        cup,
        "an entrant, at least twice: a Tournoyons engine URL, builtin:NAME, "
        "registered:ID, botsarena:URL; NAME=... names it (Ann=builtin:random); "
        "engines by URL are named host[:port][/path], what tells them apart",
    )
    cup.add_argument(
        "--format",
        choices=("round-robin", "swiss", "tables"),
        default="round-robin",
        help="the format (tables: tables of four, for Tarot)",
    )
    cup.add_argument(
        "--games",
        type=int,
        default=None,
        help="games per pairing, colours alternating (default 2); per table, seats "
        "rotating (1-4, default 1)",
    )
    cup.add_argument(
        "--rounds",
        type=int,
        default=0,
        help="Swiss rounds (default ceil(log2 n)); rounds at tables (default ceil((n-1)/3))",
    )
    cup.add_argument("--name", default="", help="the tournament's name")

    rooms = commands.add_parser("rooms", help="referee Connect Four rooms on IRC (timi)")
    add_irc_options(rooms, required=True)
    add_arbitre_options(rooms)
    rooms.add_argument(
        "--public-url",
        default="http://127.0.0.1:8000",
        help="where the games' pages are served (a serve of the same database)",
    )
    rooms.add_argument("--lease", type=lease, default=15.0, help="seconds a room's lease lasts")

    player = commands.add_parser("room-player", help="play in timi rooms on IRC with an engine")
    player.add_argument("--irc", required=True, metavar="irc://HOST:PORT", help="the IRC server")
    player.add_argument("--room", required=True, help="the room to join first ('#p4-1')")
    player.add_argument(
        "--nick", required=True, help="the player's nick: a letter, then 8 letters or digits"
    )
    player.add_argument(
        "--engine",
        required=True,
        help="builtin:NAME (builtin:strong), a Tournoyons engine URL, or botsarena:URL",
    )
    player.add_argument(
        "--referee",
        default="",
        help="the referee's nick (default: the room's operators); nobody else's play lines count",
    )
    add_count(player, "--games", 1, 10000, "games to play, each in the next room")
    player.add_argument(
        "--engine-hosts",
        default="",
        help="comma-separated hosts the engine's URL may name (default: any)",
    )

    check = commands.add_parser(
        "check-interface", help="check a graphical interface in headless Chromium"
    )
    check.add_argument("url", help="the interface's page (http:// or https://)")
    check.add_argument("--set", required=True, help="the Set to check it with (TicTacToe ...)")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.add_argument("--sheet", default="", help="write the contact sheet (PNG) to this file")
    check.add_argument(
        "--alone",
        action="store_true",
        help="check it alone: no page of ours beside it on the sheet (half the visits)",
    )
    tables = commands.add_parser("tables", help="be a MaitreTarot server: Tarot tables of clients")
    tables.add_argument(
        "--listen", type=address, required=True, metavar="[HOST:]PORT", help="where to listen"
    )
    tables.add_argument(
        "--tables", type=int, default=0, help="stop once this many tables ended (default: never)"
    )
    add_table_options(tables)
    add_arbitre_options(tables)

    client = commands.add_parser(
        "maitretarot-client", help="seat one of our engines at a MaitreTarot server"
    )
    client.add_argument("--connect", type=address, required=True, metavar="HOST:PORT")
    client.add_argument("--nick", default="", help="the name sent to the server")
    client.add_argument(
        "--engine",
        required=True,
        help="builtin:NAME (a built-in Tarot engine) or a Tournoyons engine URL",
    )
    client.add_argument("--matches", type=int, default=1, help="matches to play (default 1)")
    add_maitretarot_options(client)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line (``argv``: the arguments, default ``sys.argv[1:]``); return the
    exit status. argparse exits (status 2) on arguments it refuses, and on ``--help``."""
    args = parser().parse_args(argv)
    # Each command's module is imported only when it runs: the server, the Arbitre and
    # rich take a second or more to import, which --help and a mistyped option need not pay
    # (asyncio alone is a tenth of a second).
    if args.command == "serve":
        from tournoyons_gui.server.cli.serve import serve

        return serve(args)
    import asyncio

    if args.command == "token":
        from tournoyons_gui.server.cli.token import make_token

        return asyncio.run(make_token(args))
    if args.command == "check-interface":
        from tournoyons_gui.server.cli.check_interface import run_check

        return asyncio.run(run_check(args))
    if args.command == "rooms":
        from tournoyons_gui.server.cli.rooms import rooms

        return asyncio.run(rooms(args))
    if args.command == "room-player":
        from tournoyons_gui.server.cli.room_player import room_player

        return asyncio.run(room_player(args))
    if args.command in ("tables", "maitretarot-client"):
        from tournoyons_gui.server.cli.maitretarot import client, tables

        return asyncio.run(tables(args) if args.command == "tables" else client(args))
    if args.command == "tournament":
        from tournoyons_gui.server.cli.tournament import tournament

        return _headless(lambda: asyncio.run(tournament(args)), argv is None)
    from tournoyons_gui.server.cli.play import play

    def playing() -> int:
        try:
            return asyncio.run(play(args))
        except KeyboardInterrupt:  # a second Ctrl-C: stopped at once, the records kept
            return 130

    return _headless(playing, argv is None)


def _headless(run: Callable[[], int], exit_now: bool) -> int:
    """Run a headless command (``play``, ``tournament``): the objects made by the imports
    frozen out of the collector's sight once made (``gc.freeze``: each collection during
    the games walks the games' objects, not the modules'), and, when this is the
    process's own command line (``exit_now``), the process left as soon as the output is
    flushed (``os._exit``): the interpreter's teardown of some thousand objects was a
    quarter of a second of a short run's start-up (issue 27). The store and the server
    are closed by then; the logs are flushed first."""
    import gc
    import logging
    import os

    gc.collect()
    gc.freeze()
    status = run()
    if exit_now:
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    return status
