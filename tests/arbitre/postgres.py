"""A throwaway PostgreSQL server for the tests: ``initdb`` in a temporary folder, ``pg_ctl``
start on a free port of 127.0.0.1, stopped and removed at the end.

The server programs come from ``$TOURNOYONS_PG_BIN`` (set by ``scripts/test.py``, which
installs them when missing) or the usual places. As root, PostgreSQL refuses to run: the
cluster is then made and run as the ``postgres`` system user.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def pg_bin() -> Path:
    """Return the folder of ``initdb`` and ``pg_ctl``; raise ``RuntimeError`` if none."""
    explicit = os.environ.get("TOURNOYONS_PG_BIN")
    if explicit:
        return Path(explicit)
    from scripts._bootstrap import postgres_bin

    found = postgres_bin()
    if found is None:
        raise RuntimeError("no PostgreSQL server programs: run the tests with scripts/test.py")
    return Path(found)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def postgres_server(
    *, fsync: bool = False, settings: dict[str, str] | None = None
) -> Iterator[str]:
    """Run a PostgreSQL server with its data in a new temporary folder (one the ``postgres``
    user can reach when we are root); yield its ``postgresql://`` URL. ``fsync``: commits
    reach the disk as a real server's do (off for the tests: faster, and a test's data
    need not outlive a crash of the machine; on for the benchmarks of commits);
    ``settings``: more of the server's settings (``-c name=value``)."""
    binaries = pg_bin()
    folder = Path(tempfile.mkdtemp(prefix="tournoyons-pg-"))
    data = folder / "data"
    prefix: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        shutil.chown(folder, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    port = _free_port()
    subprocess.run(
        [
            *prefix,
            str(binaries / "initdb"),
            "-D",
            str(data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
        ],
        check=True,
        capture_output=True,
    )
    synced = "on" if fsync else "off"
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync={synced}"
    options += "".join(f" -c {name}={value}" for name, value in (settings or {}).items())
    subprocess.run(
        [
            *prefix,
            str(binaries / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            options,
            "-l",
            str(folder / "log"),
            "-w",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*prefix, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(folder, ignore_errors=True)


def new_database(url: str, prefix: str) -> str:
    """Create a new, empty database named ``prefix`` and a random suffix on the PostgreSQL
    server of ``url`` (a test's own database, beside the others of the same server);
    return its URL."""
    import asyncio
    import secrets

    from tournoyons_gui.arbitre.store import Store

    name = f"{prefix}_{secrets.token_hex(4)}"

    async def create() -> None:
        store = await Store.open(url)
        try:
            async with store.engine.connect() as connection:
                autocommit = await connection.execution_options(isolation_level="AUTOCOMMIT")
                await autocommit.exec_driver_sql(f"CREATE DATABASE {name}")
        finally:
            await store.close()

    asyncio.run(create())
    return url.rsplit("/", 1)[0] + "/" + name
