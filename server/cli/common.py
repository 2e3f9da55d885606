"""What every command of the command line shares, and nothing heavy: binding a socket, the
options ``play``, ``tournament`` and ``serve`` have in common and how they are read.

Only the standard library is imported here, so that ``tournoyons-gui --help`` and the
tests' ``bind`` load nothing else; what a command needs is imported by that command's
module (:mod:`.serve`, :mod:`.play`, :mod:`.tournament`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import sys
from pathlib import Path
from typing import TypeAlias

__all__ = [
    "add_arbitre_options",
    "add_count",
    "add_irc_options",
    "add_maitretarot_options",
    "add_match_options",
    "add_referee_options",
    "add_table_options",
    "address",
    "bind",
    "bind_tcp",
    "engine_hosts",
    "lease",
    "metrics_listener",
    "metrics_place",
    "move_time",
    "pace_rate",
    "port_number",
    "prepare_metrics_dir",
    "seed",
    "sprt_test",
    "think",
]

#: Where options are added: a parser or one of its groups (``serve --help`` groups them).
Options: TypeAlias = "argparse.ArgumentParser | argparse._ArgumentGroup"

#: The referee's pace by default (``--pace-burst``, ``--pace-rate``): those of
#: :class:`~tournoyons_gui.arbitre.rooms.pace.Pace`, written here so that the command line
#: loads nothing heavy (a test keeps them equal).
PACE_BURST = 3
PACE_RATE = 2.0


def bind(host: str, port: int) -> tuple[socket.socket, str]:
    """Bind ``host:port`` (``port`` 0: any free port) and return the socket, inheritable,
    and its base URL (``http://HOST:PORT``, IPv6 in brackets, ``127.0.0.1`` for a wildcard
    address). Raises ``OSError`` when the address cannot be bound."""
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


def lease(value: str) -> float:
    """Read ``--lease``: 2 to 600 seconds. Raises ``argparse.ArgumentTypeError`` otherwise
    (``ValueError`` for what is not a number: argparse reports both)."""
    seconds = float(value)
    if not 2 <= seconds <= 600:
        raise argparse.ArgumentTypeError("a lease is 2 to 600 seconds")
    return seconds


#: ``serve --ladder-games``' default and bounds, and ``--ladder-timeout``'s default
#: (:mod:`tournoyons_gui.arbitre.ladder.settings` and the match's TimeOut say the same:
#: tests/arbitre/test_ladder.py holds them equal; this module imports nothing else).
DEFAULT_LADDER_GAMES, MAX_LADDER_GAMES = 4, 500
DEFAULT_TIMEOUT, MIN_TIMEOUT, MAX_TIMEOUT = 20, 4, 54


def ladder_games(value: str) -> int:
    """Read ``--ladder-games``: 1 to 500 games in flight per Set. Raises
    ``argparse.ArgumentTypeError`` otherwise."""
    try:
        games = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of games, not {value[:40]!r}") from None
    if not 1 <= games <= MAX_LADDER_GAMES:
        raise argparse.ArgumentTypeError(f"1 to {MAX_LADDER_GAMES} ladder games per Set")
    return games


def ladder_timeout(value: str) -> int:
    """Read ``--ladder-timeout``: the ladder games' TimeOut, 4 to 54 seconds. Raises
    ``argparse.ArgumentTypeError`` otherwise."""
    try:
        seconds = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of seconds, not {value[:40]!r}") from None
    if not MIN_TIMEOUT <= seconds <= MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"a TimeOut is {MIN_TIMEOUT} to {MAX_TIMEOUT} seconds")
    return seconds


def seed(value: str) -> int:
    """Read ``--seed``: a whole number from 0 to 2^63 - 1 (the records keep it as a signed
    64-bit integer). Raises ``argparse.ArgumentTypeError`` otherwise."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, not {value[:40]!r}") from None
    if not 0 <= number <= 2**63 - 1:
        raise argparse.ArgumentTypeError("a seed is 0 to 2^63 - 1")
    return number


def sprt_test(value: str) -> object:
    """Read ``--sprt ELO0,ELO1[,ALPHA,BETA]``: the test
    (:meth:`~tournoyons_gui.arbitre.stats.Sprt.parse`, imported only when the option is
    given). Raises ``argparse.ArgumentTypeError`` with the reason: ELO0 not below ELO1,
    ALPHA or BETA outside (0, 0.5), not numbers."""
    from tournoyons_gui.arbitre.stats import Sprt

    try:
        return Sprt.parse(value)
    except ValueError as refused:
        raise argparse.ArgumentTypeError(str(refused)) from None


def think(value: str) -> int:
    """Read ``--think``: 4 to 54 seconds (a match's TimeOut). Raises
    ``argparse.ArgumentTypeError`` otherwise."""
    seconds = int(value)
    if not 4 <= seconds <= 54:
        raise argparse.ArgumentTypeError("the think time is 4 to 54 seconds")
    return seconds


def pace_rate(value: str) -> float:
    """Read ``--pace-rate``: lines a second, more than 0 and at most 100. Raises
    ``argparse.ArgumentTypeError`` otherwise (``ValueError`` for what is not a number)."""
    rate = float(value)
    if not 0 < rate <= 100:
        raise argparse.ArgumentTypeError("a pace is more than 0 and at most 100 lines a second")
    return rate


def add_count(parser: Options, flag: str, default: int, most: int, what: str) -> None:
    """Add ``flag N``: a whole number from 1 to ``most`` (``default``), ``what`` it counts."""
    parser.add_argument(
        flag,
        type=int,
        default=default,
        choices=range(1, most + 1),
        metavar="N",
        help=f"{what}, 1-{most} (default {default})",
    )


def add_irc_options(parser: Options, *, required: bool) -> None:
    """Add the timi rooms' options (``rooms``, ``serve``): ``--irc irc://HOST:PORT``,
    ``--nick``, ``--rooms``, ``--prefix``, ``--think``, and the pace of the referee's
    lines (``--pace-burst``, ``--pace-rate``: :class:`~tournoyons_gui.arbitre.rooms.pace.Pace`)."""
    parser.add_argument(
        "--irc",
        required=required,
        default=None,
        metavar="irc://HOST:PORT",
        help="referee Connect Four rooms on this IRC server (the timi protocol)",
    )
    parser.add_argument(
        "--nick", default="Arbitre", metavar="NICK", help="the referee's nick (default Arbitre)"
    )
    add_count(parser, "--rooms", 3, 100, "rooms open at once")
    parser.add_argument(
        "--prefix", default="#p4-", metavar="TEXT", help="the rooms' names (default '#p4-')"
    )
    parser.add_argument(
        "--think",
        type=think,
        default=15,
        metavar="SECONDS",
        help="seconds a move, 4-54 (default 15)",
    )
    parser.add_argument(
        "--irc-oper",
        default=None,
        metavar="NAME:PASSWORD",
        help="an IRC operator account the referee gives itself back a room's operator status "
        "with (ngIRCd: OperCanUseMode = yes); default $TOURNOYONS_IRC_OPER, which other "
        "users of the machine cannot read from the command line",
    )
    add_count(parser, "--pace-burst", PACE_BURST, 100, "lines the referee sends at once")
    parser.add_argument(
        "--pace-rate",
        type=pace_rate,
        default=PACE_RATE,
        metavar="LINES",
        help=f"lines a second the referee sends after its burst (default {PACE_RATE:g})",
    )


def engine_hosts(value: str) -> frozenset[str] | None:
    """Read ``--engine-hosts`` (``"a.example, B.example"``): the hosts lower-cased, or
    ``None`` (any host) when it names none."""
    hosts = frozenset(h.strip().lower() for h in value.split(",") if h.strip())
    return hosts or None


def add_arbitre_options(parser: argparse.ArgumentParser) -> None:
    """Add where the records go (``--database``) and which hosts engine URLs may name
    (``--engine-hosts``)."""
    parser.add_argument(
        "--database",
        default=None,
        metavar="FILE|URL",
        help="where the records are: a SQLite file (default arbitre.sqlite3) or a "
        "postgresql:// URL",
    )
    parser.add_argument(
        "--engine-hosts",
        default="",
        metavar="HOSTS",
        help="comma-separated hosts engine URLs may name (default: any)",
    )


def add_match_options(parser: argparse.ArgumentParser, engines: str) -> None:
    """Add what ``play`` and ``tournament`` share: the Set, the engines (``engines`` says
    what one is), the match options and ``--restart`` (process engines), then
    :func:`add_arbitre_options` and :func:`add_referee_options`."""
    parser.add_argument(
        "--set", required=True, metavar="SET", help="the Set (TicTacToe, Reversi ...)"
    )
    parser.add_argument("--engine", action="append", required=True, metavar="ENGINE", help=engines)
    parser.add_argument(
        "--timeout", type=int, default=20, metavar="SECONDS", help="TimeOut, 4-54 s (default 20)"
    )
    parser.add_argument(
        "--level", type=int, default=1, metavar="N", help="rule level (Poker: 1 or 2)"
    )
    parser.add_argument(
        "--concurrency", type=int, default=4, metavar="N", help="games at once (default 4)"
    )
    parser.add_argument(
        "--restart",
        choices=("on", "off"),
        default="off",
        help="process engines (cmd:): on, new processes for each game; off, a process "
        "plays game after game (one per game played at once, each request naming its "
        "Game), replaced after it fails (default off)",
    )
    add_arbitre_options(parser)
    add_referee_options(parser)


def add_referee_options(parser: argparse.ArgumentParser) -> None:
    """Add where the headless command's own server listens, so that engines elsewhere (a
    container, another machine) call its Referee back: ``--referee-host``,
    ``--referee-port``, ``--public-url``."""
    group = parser.add_argument_group("the Referee engines call back (engines over HTTP)")
    group.add_argument(
        "--referee-host",
        default="127.0.0.1",
        metavar="ADDRESS",
        help="the address the Referee listens on (default 127.0.0.1; 0.0.0.0: every "
        "address, for an engine in a container or on another machine)",
    )
    group.add_argument(
        "--referee-port",
        type=port_number,
        default=0,
        metavar="PORT",
        help="its port (default 0: a free one)",
    )
    group.add_argument(
        "--public-url",
        default="",
        metavar="URL",
        help="the Referee's base URL as engines reach it, behind a proxy or a container's "
        "port mapping (default http://ADDRESS:PORT; the Referee is URL/referee)",
    )


def port_number(value: str) -> int:
    """Read a TCP port: 0 to 65535. Raises ``argparse.ArgumentTypeError`` otherwise."""
    if not (value.isascii() and value.isdigit()) or not 0 <= int(value) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value[:20]!r}")
    return int(value)


def move_time(value: str) -> int:
    """Read ``play --move-time``: 1 to 54000 milliseconds (the longest TimeOut). Raises
    ``argparse.ArgumentTypeError`` otherwise."""
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= 54_000:
        raise argparse.ArgumentTypeError(
            f"a move time is 1 to 54000 milliseconds, not {value[:20]!r}"
        )
    return int(value)


def split_engine(value: str) -> tuple[str, str, str]:
    """Return (name, kind, engine) of an ``--engine`` value: ``[NAME=]builtin:NAME``,
    ``[NAME=]registered:ID``, ``[NAME=]botsarena:URL``, ``[NAME=]URL`` or
    ``[NAME=]cmd:COMMAND`` (a process engine; both kind ``engine``); ``NAME=`` (a NAME has
    no ``:``) names the seat or entrant, ``""`` when absent."""
    name = ""
    head, sep, rest = value.partition("=")
    if sep and "://" not in head and ":" not in head:
        name, value = head, rest
    for kind in ("builtin", "registered", "botsarena"):
        if value.startswith(f"{kind}:"):
            return name, kind, value.removeprefix(f"{kind}:")
    return name, "engine", value


def address(value: str) -> tuple[str, int]:
    """Read ``[HOST:]PORT`` (host ``127.0.0.1`` by default; ``[::1]:PORT`` for IPv6).
    Raises ``argparse.ArgumentTypeError`` for a port that is not 0 to 65535."""
    host, sep, port = value.rpartition(":")
    host = host.strip("[]") if sep else "127.0.0.1"
    if not (port.isascii() and port.isdigit()) or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"an address is [HOST:]PORT, not {value[:60]!r}")
    return host or "127.0.0.1", int(port)


def bind_tcp(host: str, port: int) -> tuple[socket.socket, str]:
    """Bind a TCP socket on ``host:port`` (0: a free port); return it and ``HOST:PORT``."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    return sock, f"{host}:{sock.getsockname()[1]}"


def add_maitretarot_options(parser: Options) -> None:
    """Add a MaitreTarot server's or client's wire options: ``--byte-order`` and
    ``--server-id`` (tarot.md T-decisions 6 and 8)."""
    parser.add_argument(
        "--byte-order",
        choices=("little", "network"),
        default="little",
        help="the byte order of the 4-byte integers on the wire (default little; network: "
        "big-endian)",
    )
    parser.add_argument(
        "--server-id",
        type=int,
        default=1,
        metavar="N",
        help="the MaitreTarot server id (default 1)",
    )


def add_table_options(parser: Options) -> None:
    """Add a MaitreTarot table's options: ``--timeout`` and ``--deals``, and the wire's."""
    parser.add_argument(
        "--timeout",
        type=int,
        default=20,
        metavar="SECONDS",
        help="TimeOut of a client's answer, 4-54 s (default 20)",
    )
    parser.add_argument(
        "--deals", type=int, default=4, metavar="N", help="deals in a match (default 4)"
    )
    add_maitretarot_options(parser)


def metrics_place(value: str) -> str | tuple[str, int]:
    """Read ``serve --metrics``: ``public`` (``/metrics`` on the public listener too) or
    ``[HOST:]PORT`` (a listener of its own). Raises ``argparse.ArgumentTypeError``."""
    return "public" if value == "public" else address(value)


def metrics_listener(
    place: str | tuple[str, int] | None,
) -> tuple[list[socket.socket], str | int | None]:
    """Return the sockets ``serve --metrics`` adds (one bound for ``[HOST:]PORT``, else
    none) and where ``/metrics`` is then served (``create_app``'s ``metrics``: ``None``,
    ``"public"`` or the port bound); print the metrics' URL when it has a listener."""
    if place is None or isinstance(place, str):
        return [], place
    sock, where = bind(*place)
    print(f"tournoyons-gui: metrics on {where}/metrics", flush=True)
    return [sock], int(sock.getsockname()[1])


def prepare_metrics_dir(folder: str | Path) -> str:
    """Make ``folder`` the metrics' multi-process folder (``PROMETHEUS_MULTIPROC_DIR``),
    emptied, for this process and those it starts after this call (they inherit the
    variable); return it. For a parent that starts several ``serve`` processes: call it
    before the server is imported, since ``prometheus_client`` chooses its mode at import
    (``RuntimeError`` otherwise)."""
    if "prometheus_client" in sys.modules:
        raise RuntimeError("prepare the metrics' folder before the server is imported")
    path = Path(folder)
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(path)
    return str(path)
