"""A throwaway IRC server for the tests: ngIRCd with its configuration in a temporary
folder, on a free port of 127.0.0.1, stopped (and startable again on the same port: a
server that goes away mid-game and comes back) and removed at the end.

The program comes from ``$TOURNOYONS_NGIRCD`` (set by ``scripts/test.py``, which installs
it when missing) or the usual places. Its penalty for fast clients is off by default, so
that the tests' players can flood as the tests need (the referee paces itself all the
same); ``penalty=True`` keeps ngIRCd's own limits (it reads 3 lines a second of a client),
as a real server runs. An operator account (:data:`OPER`) can ``KILL`` a client and set
any channel's modes (``OperCanUseMode``: the referee's ``--irc-oper`` gives itself back a
room's operator status with it).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.processes import end

#: Seconds to wait for the server to accept connections.
START_WAIT = 15.0
#: The operator account of the test server: ``OPER <name> <password>``.
OPER = ("tests", "tests")

_CONFIG = """[Global]
    Name = irc.test
    Info = tournoyons test server
    Listen = 127.0.0.1
    Ports = {port}
    PidFile = {folder}/ngircd.pid
    MotdPhrase = test
    AdminInfo1 = tests
    AdminInfo2 = tests
    AdminEMail = tests@127.0.0.1
[Limits]
    MaxNickLength = 30
    MaxConnectionsIP = 0
{penalty}    PingTimeout = 120
    PongTimeout = 20
[Options]
    PAM = no
    DNS = no
    Ident = no
    OperCanUseMode = yes
[Operator]
    Name = {oper[0]}
    Password = {oper[1]}
"""


def ngircd_program() -> str:
    """Return the ngIRCd to run; raise ``RuntimeError`` if none."""
    explicit = os.environ.get("TOURNOYONS_NGIRCD")
    if explicit:
        return explicit
    from scripts._bootstrap import ngircd_path

    found = ngircd_path()
    if found is None:
        raise RuntimeError("no ngIRCd: run the tests with scripts/test.py")
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Ircd:
    """One ngIRCd on ``port``: :meth:`start`, :meth:`stop` (and start again)."""

    def __init__(self, folder: Path, port: int, *, penalty: bool = False) -> None:
        self.folder, self.port = folder, port
        self.url = f"irc://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.config = folder / "ngircd.conf"
        limit = "" if penalty else "    MaxPenaltyTime = 0\n"
        self.config.write_text(_CONFIG.format(port=port, folder=folder, penalty=limit, oper=OPER))

    def start(self) -> None:
        """Run the server and return once it accepts connections."""
        with (self.folder / "ngircd.log").open("ab") as log:
            self.process = subprocess.Popen(
                [ngircd_program(), "--nodaemon", "--config", str(self.config)],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        limit = time.monotonic() + START_WAIT
        while time.monotonic() < limit:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.05)
        raise RuntimeError(
            f"ngIRCd did not start: {(self.folder / 'ngircd.log').read_text()[-2000:]}"
        )

    def stop(self) -> None:
        """Stop the server (its clients see their connections closed)."""
        if self.process is not None:
            end(self.process)
        self.process = None


@contextmanager
def ircd_server(*, penalty: bool = False) -> Iterator[Ircd]:
    """Run an ngIRCd of its own in a new temporary folder (``penalty``: with its limits on
    fast clients); yield it, running."""
    folder = Path(tempfile.mkdtemp(prefix="tournoyons-irc-"))
    folder.chmod(0o777)  # ngIRCd run as root drops to nobody
    server = Ircd(folder, _free_port(), penalty=penalty)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
