#!/usr/bin/env python3
"""Run the whole Arbitre on one machine, without containers (the docs'
tutorial ``docs/tutorials/deploy.md``).

    python3 scripts/deploy.py --folder /srv/tournoyons [--port 8080] [--host 127.0.0.1]
        [--public-url https://arbitre.example.org] [--web 2] [--drivers 2] [-- SERVE OPTIONS]
    python3 scripts/deploy.py --folder /srv/tournoyons --status
    python3 scripts/deploy.py --folder /srv/tournoyons --stop

Starts, each a child of this process, with its state and logs in ``--folder``:

- a PostgreSQL server of its own (``postgres/``: made once with ``initdb``, a role and a
  database ``tournoyons`` with a password of its own, ``postgres/password``; reused after),
  listening on 127.0.0.1 only (``--pg-listen``);
- ngIRCd (``irc/ngircd.conf``, written at each start; ``irc/conf.d/*.conf`` for more) for
  the Connect Four rooms on IRC (``--no-irc``: none), with an IRC operator account for the
  rooms' referee (``irc/conf.d/tournoyons-referee.conf``, its password made once in
  ``irc/referee-password``, readable by ngIRCd alone), which the drivers are given
  (``$TOURNOYONS_IRC_OPER``) to take a room's operator status back when they take a room
  over;
- ``--web`` web processes (``serve --no-drive``: pages and API, no game driven) and
  ``--drivers`` drivers (plain ``serve``: they drive the games, and referee the rooms),
  each ``--workers 1`` on a loopback port, with ``/metrics`` on a loopback port of its own;
- nginx in front of the web processes (``nginx/nginx.conf``, written at each start from
  ``docs/nginx.conf``), the only part listening on ``--host``.

It waits until each answers, prints the addresses, and runs until SIGINT or SIGTERM,
then stops them in order (nginx, the serve processes, ngIRCd, PostgreSQL) and exits 0.
A child that exits meanwhile is started again a second later (a driver SIGKILLed: its
games are taken over by the other driver when their leases expire, or by itself once
back); one that keeps failing (5 times within a minute) stops the whole deployment, exit
status 1. Each child runs in a session of its own (a terminal's Ctrl-C reaches this
script alone, which stops them in order) and dies with this process should it be killed
(``PR_SET_PDEATHSIG``): none is left behind.

The programs are found as the tests find them (``_bootstrap.find_postgres``,
``find_ngircd``, ``find_nginx``: ``$TOURNOYONS_PG_BIN``, ``$TOURNOYONS_NGIRCD``,
``$TOURNOYONS_NGINX``, the PATH, Debian's places), installed with ``apt-get`` when missing
and we are root; without root, what is missing is named, with how to get it. The project
runs from its ``.venv`` (made on first use, as ``scripts/serve.py`` does). As root,
PostgreSQL runs as the user ``postgres`` and ngIRCd as ``nobody``; nginx's workers are
``nobody`` too: the folder must be reachable by them (checked).

Ports: nginx on ``--port``; from ``--internal-port`` (default: the next one) PostgreSQL,
the web processes, the drivers, then the metrics listeners of each in the same order;
IRC on ``--irc-port`` (6667). ``--nginx-template FILE``: a copy of ``docs/nginx.conf`` of
the operator's own (TLS). Arguments after ``--`` go to every ``serve``
process (``-- --admin-token T --rooms 5``).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import ctypes
import fcntl
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from _bootstrap import BIN, ROOT, ensure_venv, find_nginx, find_ngircd, find_postgres

#: The nginx configuration's template (``{{name}}`` filled in by :func:`nginx_config`).
NGINX_TEMPLATE = ROOT / "docs" / "nginx.conf"
#: Seconds each part has to answer once started (PostgreSQL's first start makes the schema).
START_WAIT = 90.0
#: Seconds each part has to stop before it is killed.
STOP_WAIT = {"nginx": 15.0, "serve": 25.0, "ngircd": 10.0, "postgres": 30.0}
#: A child that exits this many times within :data:`RESTART_WINDOW` seconds stops all.
RESTART_LIMIT = 5
RESTART_WINDOW = 60.0
#: The PostgreSQL role and database of the records.
DB_NAME = "tournoyons"
#: Characters a folder may have: it is written into nginx's and ngIRCd's configurations.
FOLDER_CHARACTERS = re.compile(r"^[A-Za-z0-9_./@+,:~-]+$")
#: ``prctl``'s option naming the signal a child gets when its parent dies.
PR_SET_PDEATHSIG = 1

_NGIRCD_CONFIG = """# Written by scripts/deploy.py at each start: put your own settings in
# {folder}/irc/conf.d/*.conf (read after this file; see ngircd.conf(5)).
[Global]
    Name = {name}
    Info = Tournoyons: Connect Four rooms (the timi protocol)
    Listen = {listen}
    Ports = {port}
    MotdPhrase = Connect Four rooms: /list, then /join a room (see the Arbitre's /rooms page)
    AdminInfo1 = Tournoyons Arbitre
    AdminInfo2 = {public_url}
    AdminEMail = {email}
[Limits]
    MaxNickLength = 30
[Options]
    PAM = no
    Ident = no
    DNS = no
    OperCanUseMode = yes
    IncludeDir = {folder}/irc/conf.d
"""

#: The referee's IRC operator account, in a file of its own (its password is a secret).
_NGIRCD_REFEREE = """# Written by scripts/deploy.py at each start: the rooms' referee's account
# (it gives itself a room's operator status back with it, OperCanUseMode).
[Operator]
    Name = {name}
    Password = {password}
"""
#: The name of the referee's IRC operator account.
REFEREE_OPER = "tournoyons-referee"

_CREATE_DATABASE = """
import asyncio, sys, asyncpg

async def main() -> None:
    conn = await asyncpg.connect(
        host="127.0.0.1", port=int(sys.argv[1]), user=sys.argv[2], database="postgres"
    )
    try:
        if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", sys.argv[2]):
            await conn.execute(f'CREATE DATABASE "{sys.argv[2]}"')
    finally:
        await conn.close()

asyncio.run(main())
"""


def say(message: str) -> None:
    """Print a progress line to stderr."""
    print(f"[deploy] {message}", file=sys.stderr, flush=True)


class Failed(Exception):
    """The deployment cannot start or go on: the message says why (and what to do)."""


class Stopping(Exception):
    """SIGINT or SIGTERM arrived while starting."""


def die_with_parent(parent: int) -> Callable[[], None]:
    """Return a ``preexec_fn`` making the child get SIGTERM when ``parent`` dies (Linux's
    ``PR_SET_PDEATHSIG``; elsewhere nothing), and exit at once if it already has."""

    def setup() -> None:
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:
            os._exit(1)

    return setup


@dataclass
class Child:
    """One program of the deployment: how to start it, how to see it answer, how to stop
    it. ``kind`` names its stop: ``nginx``, ``serve``, ``ngircd`` or ``postgres``."""

    name: str
    kind: str
    command: list[str]
    log: Path
    #: ``("http", url)``: answers 200; ``("tcp", port)``: accepts connections.
    probe: tuple[str, Any]
    env: dict[str, str] = field(default_factory=dict)
    user: str | None = None
    port: int | None = None
    process: subprocess.Popen[bytes] | None = None
    exits: collections.deque[float] = field(default_factory=collections.deque)

    def start(self) -> None:
        """Start the program, its output appended to its log."""
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as log:
            stamp = time.strftime("%Y-%m-%d %H:%M:%S")
            log.write(f"--- {stamp} deploy.py starts: {' '.join(self.command)}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, **self.env},
                user=self.user,
                group=pwd.getpwnam(self.user).pw_gid if self.user else None,
                extra_groups=[] if self.user else None,
                preexec_fn=die_with_parent(os.getpid()),
                # A session of its own: a terminal's Ctrl-C reaches this script alone,
                # which stops each part in order (a serve process signalled twice, by
                # the terminal and by us, would exit at once, its leases kept).
                start_new_session=True,
                cwd=self.log.parent,
            )

    def running(self) -> bool:
        """Whether the program was started and has not exited."""
        return self.process is not None and self.process.poll() is None

    def answers(self) -> bool:
        """Whether the program answers its probe now."""
        kind, target = self.probe
        if kind == "tcp":
            try:
                with socket.create_connection(("127.0.0.1", int(target)), timeout=1):
                    return True
            except OSError:
                return False
        try:
            with urllib.request.urlopen(str(target), timeout=2) as answer:
                return bool(answer.status == 200)
        except (OSError, urllib.error.URLError):
            return False

    def signal(self, number: int) -> None:
        """Send ``number`` to the program if it runs."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(number)

    def stop_signal(self) -> int:
        """Return the signal that stops the program cleanly: nginx finishes its requests
        (SIGQUIT), PostgreSQL ends its sessions (SIGINT, its fast shutdown), the others
        SIGTERM."""
        return {"nginx": signal.SIGQUIT, "postgres": signal.SIGINT}.get(self.kind, signal.SIGTERM)


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback name or address."""
    return host in ("localhost", "::1") or host.startswith("127.")


def port_free(host: str, port: int) -> bool:
    """Whether ``port`` can be bound on ``host`` now."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def nginx_config(template: str, values: dict[str, str]) -> str:
    """Return ``template`` with each ``{{name}}`` of its lines that are not comments
    replaced by ``values[name]``; raise ``Failed`` for a name it does not know."""
    lines = []
    for line in template.splitlines(keepends=True):
        if not line.lstrip().startswith("#"):
            unknown = set(re.findall(r"\{\{(\w+)\}\}", line)) - set(values)
            if unknown:
                raise Failed(f"nginx's template: unknown {{{{{sorted(unknown)[0]}}}}}")
            line = re.sub(r"\{\{(\w+)\}\}", lambda m: values[m.group(1)], line)
        lines.append(line)
    return "".join(lines)


class Deployment:
    """The programs of one deployment in ``args.folder`` (see the module)."""

    def __init__(self, args: argparse.Namespace, serve_args: list[str]) -> None:
        self.args = args
        self.folder: Path = args.folder
        self.serve_args = serve_args
        self.root = os.geteuid() == 0
        self.stopping = False
        self.children: list[Child] = []
        self.irc = not args.no_irc
        count = args.web + args.drivers
        base = args.internal_port or args.port + 1
        self.pg_port = args.pg_port or base
        self.web_ports = [base + 1 + i for i in range(args.web)]
        self.driver_ports = [base + 1 + args.web + i for i in range(args.drivers)]
        self.metrics_ports = [base + 1 + count + i for i in range(count)]
        self.template = Path(args.nginx_template or NGINX_TEMPLATE)
        nginx_host = f"[{args.host}]" if ":" in args.host else args.host
        self.public_url = (args.public_url or f"http://{nginx_host}:{args.port}").rstrip("/")
        self.irc_host = args.irc_host or args.host
        public_host = urllib.parse.urlsplit(self.public_url).hostname or "127.0.0.1"
        #: The Arbitre is public when its public URL is not loopback: it then
        #: calls no internal address, its chat server's included (unless --allow-hosts
        #: names it, which would open every loopback port to engine URLs: not done here).
        self.public = not is_loopback(public_host)
        where = public_host if self.public else "127.0.0.1"
        self.irc_url = args.irc_url or f"irc://{where}:{args.irc_port}"
        self.password_file = self.folder / "postgres" / "password"
        self.oper_file = self.folder / "irc" / "referee-password"
        self.state_file = self.folder / "run" / "deploy.json"

    # --- before anything starts -------------------------------------------------------

    def check(self) -> None:
        """Check the options, the folder and the ports; raise ``Failed`` with the reason."""
        args = self.args
        if not FOLDER_CHARACTERS.match(str(self.folder)):
            raise Failed(
                f"the folder {self.folder} has characters nginx's configuration cannot hold: "
                "use letters, digits and . _ - / @ + , : ~ only"
            )
        if not is_loopback(args.host) and not args.public_url:
            raise Failed(
                f"nginx listens on {args.host}: say the URL the world reaches it at, "
                "--public-url https://arbitre.example.org (engines call back there)"
            )
        if self.irc and self.public and not args.irc_url and is_loopback(self.irc_host):
            raise Failed(
                f"ngIRCd would listen on {self.irc_host} only, but a public Arbitre calls no "
                "loopback address: its drivers reach ngIRCd by the public name. "
                "Give --irc-host 0.0.0.0 (or the public address), --irc-url, or --no-irc"
            )
        if args.web < 1 or args.drivers < 1:
            raise Failed("a deployment has at least one web process and one driver")
        if self.root:
            for user in ("postgres", "nobody"):
                try:
                    pwd.getpwnam(user)
                except KeyError:
                    raise Failed(
                        f"as root, PostgreSQL runs as the user postgres and ngIRCd and nginx's "
                        f"workers as nobody: there is no user {user} (or run deploy.py as an "
                        "unprivileged user of its own)"
                    ) from None
            self._check_reachable()
        wanted = [(args.host, args.port, "--port (nginx)")]
        wanted += [("127.0.0.1", p, "--internal-port (a web process)") for p in self.web_ports]
        wanted += [("127.0.0.1", p, "--internal-port (a driver)") for p in self.driver_ports]
        wanted += [("127.0.0.1", p, "--internal-port (metrics)") for p in self.metrics_ports]
        wanted += [("127.0.0.1", self.pg_port, "--pg-port (PostgreSQL)")]
        if self.irc:
            wanted.append((self.irc_host, args.irc_port, "--irc-port (ngIRCd)"))
        ports = [p for _, p, _ in wanted]
        if len(set(ports)) != len(ports):
            raise Failed(f"the ports overlap: {ports}; choose --internal-port, --pg-port apart")
        taken = [
            f"{host}:{port} ({what})" for host, port, what in wanted if not port_free(host, port)
        ]
        if taken:
            raise Failed(
                "ports already in use: " + ", ".join(taken) + ". Choose others with the "
                "options named, or stop what holds them (--status tells whether it is a "
                "deployment of this folder)"
            )

    def _check_reachable(self) -> None:
        """As root: the folder and its parents must let other users through (o+x), since
        PostgreSQL, ngIRCd and nginx's workers run as other users."""
        path = self.folder
        while True:
            if path.exists() and not path.stat().st_mode & 0o001:
                raise Failed(
                    f"{path} lets no other user through (mode {path.stat().st_mode & 0o777:o}): "
                    "PostgreSQL runs as postgres, ngIRCd and nginx's workers as nobody. "
                    f"'chmod o+x {path}', or choose another folder"
                )
            if path.parent == path:
                return
            path = path.parent

    def programs(self) -> tuple[Path, str, str]:
        """Return PostgreSQL's folder of programs, nginx and ngIRCd (``""`` with
        ``--no-irc``), installing them when missing and root; raise ``Failed`` naming
        every one missing otherwise, with how to get it."""
        found: list[str] = []
        missing: list[str] = []
        finders = [find_postgres, find_nginx] + ([find_ngircd] if self.irc else [])
        for finder in finders:
            try:
                found.append(finder())
            except SystemExit as failure:
                missing.append(str(failure.code))
        if missing:
            raise Failed("\n  ".join(["missing programs:", *missing]))
        postgres = Path(found[0])
        if not (postgres / "postgres").exists():
            raise Failed(f"{postgres} has initdb but no postgres: set TOURNOYONS_PG_BIN")
        return postgres, found[1], found[2] if self.irc else ""

    # --- the parts ----------------------------------------------------------------------

    def prepare(self) -> None:
        """Make the folder's layout, PostgreSQL's cluster (once), the configurations, and
        the children's descriptions, in the order they start."""
        postgres_bin, nginx, ngircd = self.programs()
        self.python = ensure_venv()
        self.nginx = nginx
        for part in ("run", "logs", "nginx", "irc/conf.d", "postgres"):
            (self.folder / part).mkdir(parents=True, exist_ok=True)
            if self.root:  # ngIRCd reads its configuration as nobody, nginx's workers
                (self.folder / part).chmod(0o755)  # write their buffers below nginx/
        self._init_postgres(postgres_bin)
        logs = self.folder / "logs"
        connections = max(100, 30 * (self.args.web + self.args.drivers) + 10)
        data = self.folder / "postgres" / "data"
        line = [str(postgres_bin / "postgres"), "-D", str(data), "-p", str(self.pg_port)]
        line += ["-c", f"listen_addresses={self.args.pg_listen}", "-c", "unix_socket_directories="]
        line += ["-c", f"max_connections={connections}"]
        self.postgres = Child(
            "postgres",
            "postgres",
            line,
            logs / "postgres.log",
            ("tcp", self.pg_port),
            user="postgres" if self.root else None,
            port=self.pg_port,
        )
        self.children.append(self.postgres)
        if self.irc:
            self._write_ngircd_config()
            config = str(self.folder / "irc" / "ngircd.conf")
            self.children.append(
                Child(
                    "ngircd",
                    "ngircd",
                    [ngircd, "--nodaemon", "--config", config],
                    logs / "ngircd.log",
                    ("tcp", self.args.irc_port),
                    user="nobody" if self.root else None,
                    port=self.args.irc_port,
                )
            )
        self.children += self._serve_children()
        self._write_nginx_config()
        probe = "127.0.0.1" if self.args.host in ("0.0.0.0", "::") else self.args.host
        probe = f"[{probe}]" if ":" in probe else probe
        self.children.append(
            Child(
                "nginx",
                "nginx",
                [*self._nginx_command(), "-g", "daemon off;"],
                logs / "nginx.log",
                ("http", f"http://{probe}:{self.args.port}/healthz"),
                port=self.args.port,
            )
        )

    def _serve_children(self) -> list[Child]:
        """Return the web processes and the drivers, each ``serve --workers 1`` on its
        loopback port with its metrics' listener; the records' password in their
        environment (never on a command line), their metrics in one folder (the host's
        totals from any: prometheus-client's multi-process mode), emptied now."""
        password = self.password_file.read_text().strip()
        database = f"postgresql://{DB_NAME}@127.0.0.1:{self.pg_port}/{DB_NAME}"
        url = self.folder / "postgres" / "database.url"
        url.write_text(
            f"postgresql://{DB_NAME}:{urllib.parse.quote(password, safe='')}"
            f"@127.0.0.1:{self.pg_port}/{DB_NAME}\n"
        )
        url.chmod(0o600)
        metrics = self.folder / "run" / "metrics"
        shutil.rmtree(metrics, ignore_errors=True)
        metrics.mkdir(parents=True)
        env = {
            "PGPASSWORD": password,
            "PROMETHEUS_MULTIPROC_DIR": str(metrics),
            "PYTHONUNBUFFERED": "1",
        }
        serves = [("web", i, p) for i, p in enumerate(self.web_ports, 1)]
        serves += [("driver", i, p) for i, p in enumerate(self.driver_ports, 1)]
        children = []
        for (role, number, port), metrics_port in zip(serves, self.metrics_ports, strict=True):
            line = [str(BIN / "tournoyons-gui"), "serve", "--workers", "1"]
            line += ["--host", "127.0.0.1", "--port", str(port), "--database", database]
            line += ["--public-url", self.public_url, "--lease", str(self.args.lease)]
            line += ["--metrics", f"127.0.0.1:{metrics_port}"]
            own = env
            if role == "web":
                line += ["--no-drive", "--trust-proxy", "127.0.0.1"]
            elif self.irc:
                line += ["--irc", self.irc_url]
                oper = f"{REFEREE_OPER}:{self.oper_file.read_text().strip()}"
                own = {**env, "TOURNOYONS_IRC_OPER": oper}  # never on a command line
            children.append(
                Child(
                    f"{role}-{number}",
                    "serve",
                    [*line, *self.serve_args],
                    self.folder / "logs" / f"{role}-{number}.log",
                    ("http", f"http://127.0.0.1:{port}/healthz"),
                    env=own,
                    port=port,
                )
            )
        return children

    def _as_postgres(self) -> dict[str, Any]:
        """Return the ``subprocess`` arguments that run a PostgreSQL program as its user."""
        if not self.root:
            return {}
        user = pwd.getpwnam("postgres")
        return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}

    def _init_postgres(self, binaries: Path) -> None:
        """Make the cluster in ``postgres/data`` once: a superuser ``tournoyons`` with a new
        password (``postgres/password``), password authentication (SCRAM) only."""
        home = self.folder / "postgres"
        data = home / "data"
        if (data / "PG_VERSION").exists():
            if not self.password_file.exists():
                raise Failed(
                    f"{data} exists but {self.password_file} is gone: write the role "
                    f"{DB_NAME}'s password there (or move {data} away to start afresh)"
                )
            return
        say(f"making PostgreSQL's cluster in {data} (once)")
        password = secrets.token_urlsafe(24)
        self.password_file.write_text(password + "\n")
        self.password_file.chmod(0o600)
        given = home / "initdb-password"
        given.write_text(password + "\n")
        given.chmod(0o600)
        if self.root:
            user = pwd.getpwnam("postgres")
            for path in (home, given):
                os.chown(path, user.pw_uid, user.pw_gid)
            self.password_file.chmod(0o600)  # root's, not postgres's
        try:
            line = [str(binaries / "initdb"), "-D", str(data), "-U", DB_NAME]
            line += [f"--pwfile={given}", "-A", "scram-sha-256", "-E", "UTF8", "--no-locale"]
            done = subprocess.run(
                line,
                capture_output=True,
                text=True,
                check=False,
                **self._as_postgres(),
            )
        finally:
            given.unlink(missing_ok=True)
        if done.returncode != 0:
            shutil.rmtree(data, ignore_errors=True)
            raise Failed(f"initdb failed:\n{done.stdout}{done.stderr}")

    def _write_ngircd_config(self) -> None:
        """Write ``irc/ngircd.conf`` (each start: the ports may have changed)."""
        host = self.irc_host
        listen = host if is_loopback(host) or host in ("0.0.0.0", "::") else f"127.0.0.1,{host}"
        name = self.args.irc_name
        config = self.folder / "irc" / "ngircd.conf"
        config.write_text(
            _NGIRCD_CONFIG.format(
                name=name,
                listen=listen,
                port=self.args.irc_port,
                public_url=self.public_url,
                email=f"arbitre@{name}",
                folder=self.folder,
            )
        )
        config.chmod(0o644)
        if not self.oper_file.exists():
            self.oper_file.write_text(secrets.token_urlsafe(24) + "\n")
        self.oper_file.chmod(0o600)
        referee = self.folder / "irc" / "conf.d" / "tournoyons-referee.conf"
        referee.write_text(
            _NGIRCD_REFEREE.format(name=REFEREE_OPER, password=self.oper_file.read_text().strip())
        )
        referee.chmod(0o600)
        if self.root:  # ngIRCd runs as nobody, and reads it alone
            nobody = pwd.getpwnam("nobody")
            os.chown(referee, nobody.pw_uid, nobody.pw_gid)

    def _write_nginx_config(self) -> None:
        """Write ``nginx/nginx.conf`` from :data:`NGINX_TEMPLATE`."""
        host = self.args.host
        listen = f"[{host}]:{self.args.port}" if ":" in host else f"{host}:{self.args.port}"
        servers = "\n".join(
            f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=10s;"
            for port in self.web_ports
        )
        try:
            template = self.template.read_text()
        except OSError as failure:
            raise Failed(f"cannot read nginx's template: {failure}") from None
        text = nginx_config(
            template,
            {"folder": str(self.folder), "listen": listen, "web_servers": servers},
        )
        (self.folder / "nginx" / "nginx.conf").write_text(text)
        command = [*self._nginx_command(), "-t", "-q"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise Failed(f"nginx refuses its configuration:\n{done.stdout}{done.stderr}")

    def _nginx_command(self) -> list[str]:
        """Return nginx's command line: its folder, its configuration, its error log
        from the start (before the configuration names it)."""
        folder = self.folder / "nginx"
        errors = self.folder / "logs" / "nginx-error.log"
        return [self.nginx, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(errors)]

    # --- running ------------------------------------------------------------------------

    def _wait(self, children: list[Child]) -> None:
        """Wait until each of ``children`` answers its probe; raise ``Failed`` (one exited,
        or did not answer within :data:`START_WAIT`) or ``Stopping``."""
        deadline = time.monotonic() + START_WAIT
        waiting = list(children)
        while waiting:
            if self.stopping:
                raise Stopping
            for child in list(waiting):
                if not child.running():
                    raise Failed(f"{child.name} exited while starting:\n{self._tail(child)}")
                if child.answers():
                    waiting.remove(child)
            if waiting and time.monotonic() > deadline:
                names = ", ".join(c.name for c in waiting)
                raise Failed(f"{names} did not answer within {START_WAIT:.0f} s")
            if waiting:
                time.sleep(0.2)

    def _tail(self, child: Child, lines: int = 15) -> str:
        """Return the end of ``child``'s log."""
        try:
            text = child.log.read_text(errors="replace")
        except OSError:
            return ""
        return "".join(text.splitlines(keepends=True)[-lines:])

    def _create_database(self) -> None:
        """Create the database :data:`DB_NAME` unless it exists (retried while PostgreSQL
        finishes starting)."""
        deadline = time.monotonic() + START_WAIT
        env = {**os.environ, "PGPASSWORD": self.password_file.read_text().strip()}
        while True:
            done = subprocess.run(
                [str(self.python), "-c", _CREATE_DATABASE, str(self.pg_port), DB_NAME],
                capture_output=True,
                text=True,
                env=env,
                check=False,
            )
            if done.returncode == 0:
                return
            if self.stopping:
                raise Stopping
            if time.monotonic() > deadline or not self.postgres.running():
                raise Failed(f"PostgreSQL took no connection:\n{done.stderr[-2000:]}")
            time.sleep(0.3)

    def start(self) -> None:
        """Start every part in order, each once the one before answers."""
        say(f"PostgreSQL on 127.0.0.1:{self.pg_port}")
        self.postgres.start()
        self._wait([self.postgres])
        self._create_database()
        others = [c for c in self.children if c.kind == "ngircd"]
        for child in others:
            say(f"ngIRCd on {self.irc_host}:{child.port}")
            if not is_loopback(self.irc_host):
                say(
                    f"ngIRCd is public: anyone who reaches port {child.port} may connect, "
                    "join and open channels (--no-irc for no chat server)"
                )
            child.start()
        self._wait(others)
        serves = [c for c in self.children if c.kind == "serve"]
        say("serve: " + ", ".join(f"{c.name} on 127.0.0.1:{c.port}" for c in serves))
        for child in serves:
            child.start()
        self._wait(serves)
        fronts = [c for c in self.children if c.kind == "nginx"]
        say(f"nginx on {self.args.host}:{self.args.port}")
        for child in fronts:
            child.start()
        self._wait(fronts)

    def write_state(self) -> None:
        """Write ``run/deploy.json``: this process, each child's process id and port, the
        URLs (read by ``--status``, ``--stop`` and the tests)."""
        state = {
            "pid": os.getpid(),
            "folder": str(self.folder),
            "public_url": self.public_url,
            "database": f"postgresql://{DB_NAME}@127.0.0.1:{self.pg_port}/{DB_NAME}",
            "irc": f"irc://{self.irc_host}:{self.args.irc_port}" if self.irc else None,
            "children": {
                c.name: {
                    "pid": c.process.pid if c.process else None,
                    "kind": c.kind,
                    "port": c.port,
                    "log": str(c.log),
                }
                for c in self.children
            },
            "metrics": [f"http://127.0.0.1:{p}/metrics" for p in self.metrics_ports],
        }
        temporary = self.state_file.with_suffix(".tmp")
        temporary.write_text(json.dumps(state, indent=2) + "\n")
        temporary.replace(self.state_file)

    def announce(self) -> None:
        """Print what runs where."""
        web = ", ".join(f"127.0.0.1:{p}" for p in self.web_ports)
        drivers = ", ".join(f"127.0.0.1:{p}" for p in self.driver_ports)
        rows = [
            (
                "the Arbitre",
                f"{self.public_url}/arbitre (nginx on {self.args.host}:{self.args.port})",
            ),
            ("web processes", f"{web} (serve --no-drive)"),
            ("drivers", drivers),
            (
                "metrics",
                f"http://127.0.0.1:{self.metrics_ports[0]}/metrics (any of "
                f"{self.metrics_ports[0]}-{self.metrics_ports[-1]}: the host's totals)",
            ),
            (
                "PostgreSQL",
                f"127.0.0.1:{self.pg_port}, database {DB_NAME} "
                f"(URL with password: {self.folder}/postgres/database.url)",
            ),
        ]
        if self.irc:
            rows.append(("IRC rooms", f"irc://{self.irc_host}:{self.args.irc_port}"))
        rows.append(("logs", f"{self.folder}/logs/"))
        print(f"Tournoyons runs from {self.folder}:")
        for label, value in rows:
            print(f"  {label:<14} {value}")
        print(f"Stop it with Ctrl-C, or: python3 scripts/deploy.py --folder {self.folder} --stop")
        print("deploy: ready", flush=True)

    def watch(self) -> int:
        """Run until asked to stop, starting again a child that exits; return the exit
        status (1 when a child keeps failing)."""
        while not self.stopping:
            time.sleep(0.5)
            for child in self.children:
                if self.stopping or child.running() or child.process is None:
                    continue
                code = child.process.returncode
                now = time.monotonic()
                child.exits.append(now)
                while child.exits and child.exits[0] < now - RESTART_WINDOW:
                    child.exits.popleft()
                how = f"signal {-code}" if code < 0 else f"status {code}"
                if len(child.exits) >= RESTART_LIMIT:
                    say(f"{child.name} exited ({how}) {RESTART_LIMIT} times in a minute: stopping")
                    say(self._tail(child))
                    return 1
                say(f"{child.name} exited ({how}): starting it again (log: {child.log})")
                time.sleep(1.0)
                child.start()
                self.write_state()
        return 0

    def stop(self) -> None:
        """Stop the children in order: nginx (no new request), the serve processes, ngIRCd,
        PostgreSQL; each killed when it does not stop in time."""
        for kind in ("nginx", "serve", "ngircd", "postgres"):
            group = [c for c in self.children if c.kind == kind and c.running()]
            for child in group:
                child.signal(child.stop_signal())
            deadline = time.monotonic() + STOP_WAIT[kind]
            for child in group:
                assert child.process is not None
                try:
                    child.process.wait(max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    say(f"{child.name} did not stop in {STOP_WAIT[kind]:.0f} s: killed")
                    child.signal(signal.SIGKILL)
                    child.process.wait()
        self.state_file.unlink(missing_ok=True)


@contextlib.contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold ``run/deploy.lock`` while the deployment runs; raise ``Failed`` when another
    deployment of this folder holds it."""
    (folder / "run").mkdir(parents=True, exist_ok=True)
    lock: IO[str] = (folder / "run" / "deploy.lock").open("a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise Failed(
            f"a deployment already runs from {folder}: see --status, or --stop it"
        ) from None
    try:
        yield
    finally:
        lock.close()


def run(args: argparse.Namespace, serve_args: list[str]) -> int:
    """Start the deployment and run it until SIGINT or SIGTERM; return the exit status."""
    deployment = Deployment(args, serve_args)

    def asked_to_stop(number: int, _frame: object) -> None:
        if not deployment.stopping:
            say(f"{signal.Signals(number).name}: stopping")
        deployment.stopping = True

    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, asked_to_stop)
    try:
        if not deployment.folder.exists():
            deployment.folder.mkdir(parents=True)
            if deployment.root:
                deployment.folder.chmod(0o755)  # reached by postgres and nobody
        with folder_lock(deployment.folder):
            status = 1
            try:
                deployment.check()
                deployment.prepare()
                deployment.start()
                deployment.write_state()
                deployment.announce()
                status = deployment.watch()
            except Stopping:
                status = 0
            except Failed as failure:
                say(str(failure))
            finally:
                if any(c.process is not None for c in deployment.children):
                    deployment.stop()
                    say("stopped")
            return status
    except Failed as failure:
        say(str(failure))
        return 1


def running(folder: Path) -> bool:
    """Whether a deployment of ``folder`` runs: it holds ``run/deploy.lock``."""
    try:
        with (folder / "run" / "deploy.lock").open("a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    return False


def read_state(folder: Path) -> dict[str, Any] | None:
    """Return ``run/deploy.json`` while a deployment of ``folder`` runs, else ``None``."""
    if not running(folder):
        return None
    try:
        state: dict[str, Any] = json.loads((folder / "run" / "deploy.json").read_text())
    except (OSError, ValueError):
        return None
    return state


def status(folder: Path) -> int:
    """Print each part's state (running, answering) of the deployment in ``folder``;
    return 0 when it runs and every part answers, 1 otherwise."""
    state = read_state(folder)
    if state is None:
        print(f"no deployment runs from {folder}")
        return 1
    print(f"deploy.py (pid {state['pid']}) runs {state['public_url']} from {folder}:")
    healthy = True
    for name, child in state["children"].items():
        alive = False
        with contextlib.suppress(OSError, TypeError):
            os.kill(int(child["pid"]), 0)
            alive = True
        answers = False
        if child["kind"] in ("serve", "nginx") and child["port"]:
            host = "127.0.0.1"
            with (
                contextlib.suppress(OSError, urllib.error.URLError),
                urllib.request.urlopen(
                    f"http://{host}:{child['port']}/healthz", timeout=2
                ) as answer,
            ):
                answers = answer.status == 200
        elif child["port"]:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", child["port"]), timeout=2),
            ):
                answers = True
        healthy = healthy and alive and answers
        word = "answers" if answers else "does not answer"
        print(f"  {name:<10} pid {child['pid']:<8} port {child['port']}: {word}")
    return 0 if healthy else 1


def stop(folder: Path) -> int:
    """Ask the deployment in ``folder`` to stop (SIGTERM) and wait for it; return 0 once
    stopped, 1 when none runs or it did not stop within two minutes."""
    state = read_state(folder)
    if state is None:
        print(f"no deployment runs from {folder}")
        return 1
    pid = int(state["pid"])
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if not running(folder):  # its lock is free once it has exited
            print(f"stopped the deployment of {folder}")
            return 0
        time.sleep(0.2)
    print(f"deploy.py (pid {pid}) is still stopping")
    return 1


def parser() -> argparse.ArgumentParser:
    """Return the command line's parser."""
    top = argparse.ArgumentParser(
        prog="deploy.py",
        description="Run the Arbitre on one machine: PostgreSQL, ngIRCd, web processes, "
        "drivers and nginx (docs/tutorials/deploy.md).",
        epilog="Arguments after -- go to every serve process (-- --admin-token T).",
    )
    top.add_argument("--folder", type=Path, required=True, help="where the state and logs live")
    top.add_argument("--status", action="store_true", help="tell whether each part answers")
    top.add_argument("--stop", action="store_true", help="stop the deployment of --folder")
    top.add_argument("--host", default="127.0.0.1", help="nginx's address (default 127.0.0.1)")
    top.add_argument("--port", type=int, default=8080, help="nginx's port (default 8080)")
    top.add_argument(
        "--public-url",
        default="",
        help="the URL people and engines reach nginx at (needed unless --host is loopback; "
        "https://... once TLS is set up)",
    )
    top.add_argument("--web", type=int, default=2, help="web processes (default 2)")
    top.add_argument("--drivers", type=int, default=2, help="drivers (default 2)")
    top.add_argument(
        "--internal-port",
        type=int,
        default=0,
        help="the first loopback port of PostgreSQL, the web processes, the drivers and "
        "their metrics, in that order (default: --port + 1)",
    )
    top.add_argument("--pg-port", type=int, default=0, help="PostgreSQL's (default: see above)")
    top.add_argument(
        "--pg-listen",
        default="127.0.0.1",
        help="PostgreSQL's addresses (default 127.0.0.1; add a private one for serve "
        "processes on other machines, with a line in pg_hba.conf)",
    )
    top.add_argument(
        "--nginx-template",
        default="",
        help="nginx's configuration template (default docs/nginx.conf; a copy of it with TLS, say)",
    )
    top.add_argument("--no-irc", action="store_true", help="no ngIRCd, no rooms")
    top.add_argument("--irc-port", type=int, default=6667, help="ngIRCd's port (default 6667)")
    top.add_argument(
        "--irc-host",
        default="",
        help="ngIRCd's address (default: --host; with --host 0.0.0.0 anyone may connect to "
        "the chat server: see --no-irc)",
    )
    top.add_argument(
        "--irc-name", default="irc.tournoyons.local", help="ngIRCd's server name (with a dot)"
    )
    top.add_argument(
        "--irc-url",
        default="",
        help="where the drivers reach ngIRCd (default irc://127.0.0.1:PORT, or on a public "
        "Arbitre irc://PUBLIC-NAME:PORT: a public Arbitre calls no loopback address)",
    )
    top.add_argument(
        "--lease",
        type=float,
        default=15.0,
        help="seconds before a dead driver's games are taken over (serve --lease, default 15)",
    )
    return top


def main() -> int:
    """Run the command line."""
    argv = sys.argv[1:]
    serve_args: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, serve_args = argv[:at], argv[at + 1 :]
    args = parser().parse_args(argv)
    args.folder = args.folder.expanduser().absolute()
    if args.status:
        return status(args.folder)
    if args.stop:
        return stop(args.folder)
    return run(args, serve_args)


if __name__ == "__main__":
    sys.exit(main())
