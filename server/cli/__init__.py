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

``tournoyons-gui show GAME|FILE [--ply N] [--database URL]`` replays a recorded game in
the terminal, its board drawn as text, ply by ply (the arrow keys step through it).

``tournoyons-gui check-interface URL --set TicTacToe [--json] [--sheet FILE] [--alone]`` checks a
graphical interface in headless Chromium and prints its report.

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

``tournoyons-gui new-engine --lang python|javascript|php|ruby|go [--transport http|stdio]
DIR`` writes a starter engine (one file, nothing but the language) and its README into a
new folder.

One package, a module per command. Here: the parser and :func:`main`, which imports the
one command it runs (:mod:`.serve`, :mod:`.play`, :mod:`.tournament`, :mod:`.rooms`,
:mod:`.room_player`, :mod:`.maitretarot`), so that ``--help`` loads neither the server
nor the Arbitre. What the commands share is in :mod:`.common` (light) and :mod:`.headless`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

from tournoyons_gui.server.cli.common import (
    DEFAULT_LADDER_GAMES,
    DEFAULT_TIMEOUT,
    MAX_TIMEOUT,
    MIN_TIMEOUT,
    add_arbitre_options,
    add_count,
    add_irc_options,
    add_maitretarot_options,
    add_match_options,
    add_table_options,
    address,
    bind,
    ladder_games,
    ladder_timeout,
    lease,
    metrics_place,
    move_time,
    seed,
    sprt_test,
)

__all__ = ["bind", "main", "parser"]


class _Version(argparse.Action):
    """``--version``: print the installed distribution's version (its metadata, read only
    when asked: the look-up scans the import path) and exit."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("tournoyons-gui")
        except PackageNotFoundError:  # run from a source tree that was never installed
            number = "unknown (not installed)"
        print(f"{parser.prog} {number}")
        parser.exit()


def _command(
    commands: Any, name: str, summary: str, description: str, epilog: str = ""
) -> argparse.ArgumentParser:
    """Add the command ``name``: ``summary`` in the list of commands, ``description`` (and
    ``epilog``, examples) at the top (and bottom) of its own ``--help``."""
    made: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=description,
        epilog=epilog or None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return made


def parser() -> argparse.ArgumentParser:
    """Return the command line's parser: a command (``serve``, ``play``, ``tournament``
    ...) and its options. The docs' command-line reference is made from it
    (``docs/hooks/cli.py``)."""
    top = argparse.ArgumentParser(
        prog="tournoyons-gui",
        description="Graphical interfaces and an Arbitre for Tournoyons-style bot "
        "tournaments: serve the pages, play games and tournaments between engines, "
        "referee Connect Four rooms on IRC and MaitreTarot tables.",
        epilog="Each command has its own help: tournoyons-gui COMMAND --help.",
    )
    top.add_argument("--version", action=_Version, help="print the version and exit")
    commands = top.add_subparsers(
        dest="command", required=True, title="commands", metavar="COMMAND"
    )
    serve = _command(
        commands,
        "serve",
        "serve the interfaces, the tester and the Arbitre",
        "Serve every Set's page, the tester (at /) and the Arbitre (at /arbitre) over HTTP.\n"
        "On 127.0.0.1 it is a local server; on any other address, or behind a public\n"
        "--public-url, a public one, held to the limits of a public server.",
        "example:\n  tournoyons-gui serve --port 8000 --database arbitre.sqlite3",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", metavar="ADDRESS", help="address to bind (default 127.0.0.1)"
    )
    serve.add_argument(
        "--port", type=int, default=8000, metavar="PORT", help="port (default 8000; 0: any free)"
    )
    serve.add_argument(
        "--frame-ancestors",
        default="*",
        metavar="SOURCES",
        help="CSP frame-ancestors: who may embed the pages (default '*', any host)",
    )
    add_arbitre_options(serve)
    public_options = serve.add_argument_group("a public server")
    table_options = serve.add_argument_group(
        "MaitreTarot tables beside the web (with --maitretarot)"
    )
    room_options = serve.add_argument_group("Connect Four rooms on IRC beside the web (with --irc)")
    ladder_options = serve.add_argument_group("the standing ladder (with --ladder)")
    serve.add_argument(
        "--public-url",
        default="",
        metavar="URL",
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
        metavar="SECONDS",
        help="seconds a game stays with a worker that stopped renewing its lease (killed) "
        "before another worker of the same database takes it over (default 15)",
    )
    public_options.add_argument(
        "--allow-hosts",
        default="",
        metavar="HOSTS",
        help="comma-separated internal hosts, addresses or networks (10.1.0.0/16) a public "
        "server may call all the same (default: none)",
    )
    public_options.add_argument(
        "--admin-token",
        action="append",
        metavar="TOKEN",
        help="an organiser token (Authorization: Bearer TOKEN): lifts the limits, may "
        "cancel a tournament or a game (repeatable; see also the token command)",
    )
    public_options.add_argument(
        "--cors",
        action="append",
        metavar="ORIGIN",
        help="an origin (https://club.example.org) whose pages may call the JSON API, "
        "or * for any origin's reads (GET); repeatable; default: none",
    )
    public_options.add_argument(
        "--trust-proxy",
        default="",
        metavar="ADDRESSES",
        help="comma-separated addresses of a reverse proxy whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed (default: none)",
    )
    public_options.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="seconds a client has to send a request's headers (default 10)",
    )
    table_options.add_argument(
        "--maitretarot",
        type=address,
        default=None,
        metavar="[HOST:]PORT",
        help="also be a MaitreTarot server there (seed 001): tables of four clients",
    )
    add_table_options(table_options)
    add_irc_options(room_options, required=False)
    ladder_options.add_argument(
        "--ladder",
        action="store_true",
        help="schedule the standing ladder: the engines their owners put on it play "
        "each other all the time (any number of serve processes may: each Set's step "
        "runs under a lease in the records)",
    )
    ladder_options.add_argument(
        "--ladder-games",
        type=ladder_games,
        default=DEFAULT_LADDER_GAMES,
        metavar="N",
        help=f"ladder games in flight per Set (default {DEFAULT_LADDER_GAMES})",
    )
    ladder_options.add_argument(
        "--ladder-timeout",
        type=ladder_timeout,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"the ladder games' TimeOut, {MIN_TIMEOUT}-{MAX_TIMEOUT} s (default "
        f"{DEFAULT_TIMEOUT}): an engine that stops answering loses by timeout",
    )
    serve.add_argument(
        "--no-drive",
        action="store_true",
        help="serve the pages and the API, drive no game: a web process beside drivers "
        "(serve processes of the same --database) that play the games it makes",
    )
    serve.add_argument(
        "--keep-logs",
        type=_days,
        default=None,
        metavar="DAYS",
        help="drop the engine exchanges of games that ended more than DAYS days ago (the "
        "moves and results stay; the game's log page says so); default: keep them forever",
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
    serve.add_argument(
        "--log-level", default="info", metavar="LEVEL", help="uvicorn's log level (default info)"
    )
    serve.add_argument("--no-access-log", action="store_true", help="do not log each request")

    token = _command(
        commands,
        "token",
        "make an organiser token and print it",
        "Make an organiser token, store its SHA-256 in the records and print it once.\n"
        "Sent as 'Authorization: Bearer TOKEN', it lifts a public server's limits and\n"
        "may cancel tournaments and games.",
    )
    token.add_argument(
        "--database", default=None, metavar="FILE|URL", help="the records (as serve's)"
    )
    token.add_argument(
        "--note", default="", metavar="TEXT", help="who the token is for (kept with it)"
    )

    play = _command(
        commands,
        "play",
        "play games between engines, headless",
        "Play games between engines through an Arbitre of its own (on 127.0.0.1 unless\n"
        "--referee-host says otherwise), with a progress bar and a line per game; exit\n"
        "status 0 when every game reached an end. An engine is a URL, a built-in engine,\n"
        "a botsarena bot, or a program this command starts (cmd:) and speaks to over its\n"
        "standard input and output, a line each way.",
        "example:\n  tournoyons-gui play --set TicTacToe --engine builtin:perfect \\\n"
        "      --engine http://127.0.0.1:9000/engine --games 10\n"
        "  tournoyons-gui play --set ConnectFour --engine me=cmd:'ruby engine.rb' \\\n"
        "      --engine builtin:random --games 100 --move-time 500",
    )
    add_match_options(
        play,
        "a seat, once per seat of the Set: a Tournoyons engine URL, cmd:COMMAND (a program "
        "of this machine speaking over its standard input and output: cmd:'ruby engine.rb'), "
        "builtin:NAME (builtin:random) or botsarena:URL (a botsarena JSON bot); NAME=... "
        "names it",
    )
    play.add_argument(
        "--games",
        type=int,
        default=None,
        metavar="N",
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
        "--games-file",
        default=None,
        metavar="FILE",
        help="write every game's record (as /games/<id>.json gives it) to FILE, one JSON "
        "object a line, in match order",
    )
    play.add_argument(
        "--move-time",
        type=move_time,
        default=None,
        metavar="MS",
        help="the Arbitre's own limit on an engine's answer, in milliseconds, below the "
        "protocol's 4 s if need be (the engine is still sent --timeout as its TimeOut): "
        "a fast run that catches a slow engine",
    )
    play.add_argument(
        "--deals",
        type=int,
        default=None,
        metavar="N",
        help="deals in a match (Tarot: 1-40, default 4)",
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

    compared = _command(
        commands,
        "diff",
        "compare two runs of play game by game: where two engines first play differently",
        "Compare two 'play --json' documents of the same Set, seed and openings (engine v1\n"
        "then v2, each against the same opponent): for each game that differs, the first ply\n"
        "where the two part, the position there, both moves and both results, and the page\n"
        "showing the two games side by side; then how many are the same move for move.\n"
        "Runs of other Sets, seeds or openings are refused (exit status 2).",
        "example:\n  tournoyons-gui play --set ConnectFour --engine http://127.0.0.1:8001/ \\\n"
        "      --engine builtin:strong --games 20 --seed 7 --json v1.json\n"
        "  (change the engine, then the same with --json v2.json)\n"
        "  tournoyons-gui diff v1.json v2.json",
    )
    compared.add_argument("a", metavar="A.json", help="the first run's document (play --json)")
    compared.add_argument("b", metavar="B.json", help="the second run's")
    compared.add_argument(
        "--json", action="store_true", help='print {"same", "differ": [...]} as JSON instead'
    )
    compared.add_argument(
        "--most",
        type=int,
        default=20,
        metavar="N",
        help="the differing games printed (default 20; 0: all)",
    )
    compared.add_argument(
        "--exit-code",
        action="store_true",
        help="exit with status 1 when a game differs (0 when all are the same)",
    )

    cup = _command(
        commands,
        "tournament",
        "run a tournament between engines, headless",
        "Run a round-robin, Swiss or tables-of-four tournament through an Arbitre of its\n"
        "own on 127.0.0.1, with a progress bar, then print the standings and the cross\n"
        "table. The records stay in --database, where 'serve' shows and exports them.\n\n"
        "A registered engine enters only with its owner's consent: either its owner\n"
        "opened it to every tournament, or its edit token is given in a --tokens file.",
        "example:\n  tournoyons-gui tournament --set Reversi --engine builtin:greedy \\\n"
        "      --engine Rand=builtin:random --engine registered:K2M7Q4ZX9T --tokens tokens.txt",
    )
    add_match_options(
        cup,
        "an entrant, at least twice: a Tournoyons engine URL, cmd:COMMAND (a program of "
        "this machine over its standard input and output), builtin:NAME, registered:ID, "
        "botsarena:URL; NAME=... names it (Ann=builtin:random); engines by URL are named "
        "host[:port][/path], what tells them apart",
    )
    cup.add_argument(
        "--tokens",
        default=None,
        metavar="FILE",
        help="edit tokens of registered engines not open to every tournament: a line "
        "each, the engine's id (or its URL), a space, its token (a file, since any "
        "local user can read a command line)",
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
        metavar="N",
        help="games per pairing, colours alternating (default 2); per table, seats "
        "rotating (1-4, default 1)",
    )
    cup.add_argument(
        "--rounds",
        type=int,
        default=0,
        metavar="N",
        help="Swiss rounds (default ceil(log2 n)); rounds at tables (default ceil((n-1)/3))",
    )
    cup.add_argument("--name", default="", metavar="TEXT", help="the tournament's name")

    rooms = _command(
        commands,
        "rooms",
        "referee Connect Four rooms on IRC (timi)",
        "Referee Connect Four rooms on an IRC server (the timi protocol): open --rooms\n"
        "channels, seat the first two to join, and record each game like any other.",
        "example:\n  tournoyons-gui rooms --irc irc://127.0.0.1:6667 --rooms 3",
    )
    add_irc_options(rooms, required=True)
    add_arbitre_options(rooms)
    rooms.add_argument(
        "--public-url",
        default="http://127.0.0.1:8000",
        metavar="URL",
        help="where the games' pages are served (a serve of the same database)",
    )
    rooms.add_argument(
        "--lease",
        type=lease,
        default=15.0,
        metavar="SECONDS",
        help="seconds a room's lease lasts (default 15)",
    )

    player = _command(
        commands,
        "room-player",
        "play in timi rooms on IRC with an engine",
        "Join a timi room on an IRC server (ours or anybody's) and play there with an\n"
        "engine whenever the room's referee names it; then the next room.",
        "example:\n  tournoyons-gui room-player --irc irc://127.0.0.1:6667 --room '#p4-1' \\\n"
        "      --nick Strong --engine builtin:strong --games 10",
    )
    player.add_argument("--irc", required=True, metavar="irc://HOST:PORT", help="the IRC server")
    player.add_argument(
        "--room", required=True, metavar="CHANNEL", help="the room to join first ('#p4-1')"
    )
    player.add_argument(
        "--nick",
        required=True,
        metavar="NICK",
        help="the player's nick: a letter, then 8 letters or digits",
    )
    player.add_argument(
        "--engine",
        required=True,
        metavar="ENGINE",
        help="builtin:NAME (builtin:strong), a Tournoyons engine URL, or botsarena:URL",
    )
    player.add_argument(
        "--referee",
        default="",
        metavar="NICK",
        help="the referee's nick (default: the room's operators); nobody else's play lines count",
    )
    add_count(player, "--games", 1, 10000, "games to play, each in the next room")
    player.add_argument(
        "--engine-hosts",
        default="",
        metavar="HOSTS",
        help="comma-separated hosts the engine's URL may name (default: any)",
    )

    shown = _command(
        commands,
        "show",
        "replay a game in the terminal: its board as text, ply by ply",
        "Replay a recorded game in the terminal: each position drawn as text by its Set\n"
        "(the grid Sets: the board's rows, X the first player's, O the second's), whose\n"
        "turn it is and the move that led there. In a terminal the arrow keys step through\n"
        "it (Home, End; q quits); piped, every ply is printed. GAME is a game's id in\n"
        "--database; FILE a game's record (/games/<id>.json) or JSON Lines of them\n"
        "(play --games-file, /matches/<id>/games.jsonl).",
        "examples:\n  tournoyons-gui show K2M7Q4ZX9TAB\n"
        "  tournoyons-gui show games.jsonl --game K2M7Q4ZX9TAB --ply 12\n"
        "  tournoyons-gui show K2M7Q4ZX9TAB | less",
    )
    shown.add_argument("game", metavar="GAME|FILE", help="a game's id, or a file of records")
    shown.add_argument(
        "--ply",
        type=int,
        default=None,
        metavar="N",
        help="the position after N moves (0: the start): where the replay starts in a "
        "terminal, the one position printed when piped",
    )
    shown.add_argument(
        "--game",
        dest="game_id",
        default=None,
        metavar="ID",
        help="the game to show among several in FILE",
    )
    shown.add_argument(
        "--database",
        default=None,
        metavar="FILE|URL",
        help="where the records are: a SQLite file (default arbitre.sqlite3) or a "
        "postgresql:// URL",
    )

    check = _command(
        commands,
        "check-interface",
        "check a graphical interface in headless Chromium",
        "Load an interface page in headless Chromium, embedded at 736x660 as the Arbitre\n"
        "embeds it, through contexts made by the Set's rules, and report what is wrong.\n"
        "Needs Playwright (the project's 'check' extra) and a Chromium: without one, says\n"
        "which in one line, with the command that installs it.\n"
        "Exit status 0 when every context passes, 1 otherwise, 2 when refused.",
        "example:\n  tournoyons-gui check-interface https://example.org/ttt/ --set TicTacToe",
    )
    check.add_argument("url", help="the interface's page (http:// or https://)")
    check.add_argument(
        "--set", required=True, metavar="SET", help="the Set to check it with (TicTacToe ...)"
    )
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.add_argument(
        "--sheet", default="", metavar="FILE", help="write the contact sheet (PNG) to this file"
    )
    check.add_argument(
        "--alone",
        action="store_true",
        help="check it alone: no page of ours beside it on the sheet (half the visits)",
    )
    tables = _command(
        commands,
        "tables",
        "be a MaitreTarot server: Tarot tables of clients",
        "Be a MaitreTarot server: seat clients four to a table in connection order, each\n"
        "table a Tarot game of the Arbitre, recorded move by move.",
        "example:\n  tournoyons-gui tables --listen 0.0.0.0:4004 --deals 4",
    )
    tables.add_argument(
        "--listen", type=address, required=True, metavar="[HOST:]PORT", help="where to listen"
    )
    tables.add_argument(
        "--tables",
        type=int,
        default=0,
        metavar="N",
        help="stop once this many tables ended (default: never)",
    )
    add_table_options(tables)
    add_arbitre_options(tables)

    client = _command(
        commands,
        "maitretarot-client",
        "seat one of our engines at a MaitreTarot server",
        "Connect to a MaitreTarot server (ours or anybody's) as a client and play its\n"
        "matches with a built-in Tarot engine or a Tournoyons engine.",
        "example:\n  tournoyons-gui maitretarot-client --connect host:4004 --nick Ann \\\n"
        "      --engine builtin:strong",
    )
    client.add_argument(
        "--connect", type=address, required=True, metavar="HOST:PORT", help="the server"
    )
    client.add_argument("--nick", default="", metavar="NAME", help="the name sent to the server")
    client.add_argument(
        "--engine",
        required=True,
        metavar="ENGINE",
        help="builtin:NAME (a built-in Tarot engine) or a Tournoyons engine URL",
    )
    client.add_argument(
        "--matches", type=int, default=1, metavar="N", help="matches to play (default 1)"
    )
    add_maitretarot_options(client)
    starter = _command(
        commands,
        "new-engine",
        "write a starter engine (Python, JavaScript, PHP, Ruby or Go) into a new folder",
        "Write a complete Tournoyons engine, one file with nothing but its language, and\n"
        "its README into DIR (made if missing; a folder that is not empty is refused and\n"
        "nothing is written). It plays a random legal move in TicTacToe, ConnectFour and\n"
        "Rochambeau, one function per Set at the top of the file. Over HTTP it is a web\n"
        "server at a URL; over standard input and output (--transport stdio) a program\n"
        "that play starts itself (--engine cmd:...), reading a request per line.",
        "examples:\n  tournoyons-gui new-engine --lang python my-engine\n"
        "  cd my-engine && python3 engine.py 8001    # at http://127.0.0.1:8001/\n"
        "  tournoyons-gui new-engine --lang ruby --transport stdio my-engine\n"
        "  cd my-engine && tournoyons-gui play --set ConnectFour \\\n"
        "      --engine me=cmd:'ruby engine.rb' --engine builtin:random",
    )
    starter.add_argument(
        "--lang",
        required=True,
        choices=("python", "javascript", "php", "ruby", "go"),
        help="the engine's language: python (python3 engine.py), javascript (node "
        "engine.js), php (php -S 127.0.0.1:PORT engine.php over HTTP, php engine.php "
        "otherwise), ruby (ruby engine.rb) or go (go build -o engine engine.go, then "
        "./engine)",
    )
    starter.add_argument(
        "--transport",
        choices=("http", "stdio"),
        default="http",
        help="how the Arbitre reaches it: http, a web server at a URL that calls the "
        "Referee back (default); stdio, a program started by play that reads a request "
        "per line on its standard input and writes its move on its standard output",
    )
    starter.add_argument("dir", metavar="DIR", help="the folder to write it into: new, or empty")
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
    if args.command == "new-engine":
        from tournoyons_gui.server.cli.new_engine import new_engine

        return new_engine(args)
    if args.command == "diff":
        from tournoyons_gui.server.cli.diff import diff

        return diff(args)
    if args.command == "show":
        from tournoyons_gui.server.cli.show import show

        return show(args)
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

        def running() -> int:
            try:
                return asyncio.run(tournament(args))
            except KeyboardInterrupt:
                from tournoyons_gui.arbitre.processes import kill_every_process

                kill_every_process()
                return 130

        return _headless(running, argv is None)
    from tournoyons_gui.server.cli.play import play

    def playing() -> int:
        try:
            return asyncio.run(play(args))
        except KeyboardInterrupt:  # a second Ctrl-C: stopped at once, the records kept
            from tournoyons_gui.arbitre.processes import kill_every_process

            kill_every_process()  # no process engine left behind
            return 130

    return _headless(playing, argv is None)


def _headless(run: Callable[[], int], exit_now: bool) -> int:
    """Run a headless command (``play``, ``tournament``): the objects made by the imports
    frozen out of the collector's sight once made (``gc.freeze``: each collection during
    the games walks the games' objects, not the modules'), and, when this is the
    process's own command line (``exit_now``), the process left as soon as the output is
    flushed (``os._exit``): the interpreter's teardown of some thousand objects was a
    quarter of a second of a short run's start-up. The store and the server
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


def _days(text: str) -> float:
    """Return ``--keep-logs``'s days: a number above 0 (a fraction is a part of a day)."""
    try:
        days = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of days") from None
    if not 0 < days < 1_000_000:
        raise argparse.ArgumentTypeError("the days are a number above 0")
    return days
