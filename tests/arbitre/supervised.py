"""``serve --workers N`` run by the tests: its worker processes found from outside (under
``/proc``), what each holds open (the records, a connection to a chat server, a listening
socket), and the run started and stopped around a test."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.conftest import _serving, start_server

__all__ = [
    "children",
    "connected_to",
    "cpu",
    "has_open",
    "kill",
    "listening_on",
    "proc_stat",
    "two_workers",
]


def children(parent: int) -> list[int]:
    """Return the worker processes of the ``serve`` process ``parent`` (multiprocessing's
    spawned children, its resource tracker left out)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or (stat := proc_stat(int(entry))) is None:
            continue
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if int(stat[1]) == parent and b"spawn_main" in command:
            found.append(int(entry))
    return sorted(found)


def proc_stat(pid: int) -> list[str] | None:
    """Return the fields of ``/proc/<pid>/stat`` after the command's name (``[0]`` the
    state, ``[1]`` the parent, ``[19]`` the start time in clock ticks: proc(5)), or
    ``None`` when there is no such process."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def kill(pid: int, within: float = 10) -> None:
    """SIGKILL process ``pid`` and wait until it is dead (a zombie, or reaped): its sockets
    closed, so that a connection made next reaches a live worker. (A signal is delivered
    when the process next runs: on a busy machine, a worker signalled but still running
    can accept one more connection and reset it as it dies.)"""
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        stat = proc_stat(pid)
        if stat is None or stat[0] in ("Z", "X"):
            return
        time.sleep(0.01)
    raise AssertionError(f"process {pid} still alive {within:g} s after SIGKILL")


def cpu(pid: int) -> float:
    """Return process ``pid``'s CPU seconds (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def has_open(pid: int, path: Path) -> bool:
    """Whether process ``pid`` has ``path`` open (a worker that has opened the records)."""
    try:
        return any(
            os.readlink(f"/proc/{pid}/fd/{fd}") == str(path) for fd in os.listdir(f"/proc/{pid}/fd")
        )
    except OSError:
        return False


def _sockets(pid: int) -> set[str]:
    """Return the inodes of process ``pid``'s sockets."""
    found = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith("socket:["):
                found.add(target[8:-1])
    except OSError:
        pass
    return found


def _tcp(pid: int) -> list[tuple[int, int, str]]:
    """Return process ``pid``'s TCP sockets on IPv4: (local port, remote port, state)."""
    inodes = _sockets(pid)
    found = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[9] in inodes:
            local = int(fields[1].rsplit(":", 1)[1], 16)
            remote = int(fields[2].rsplit(":", 1)[1], 16)
            found.append((local, remote, fields[3]))
    return found


def connected_to(pid: int, port: int) -> bool:
    """Whether process ``pid`` has a TCP connection established to ``port`` (the worker
    holding the rooms' IRC session, say)."""
    return any(remote == port and state == "01" for _, remote, state in _tcp(pid))


def listening_on(pid: int, port: int) -> bool:
    """Whether process ``pid`` listens on TCP ``port`` (the worker holding the MaitreTarot
    tables, say)."""
    return any(local == port and state == "0A" for local, _, state in _tcp(pid))


@contextmanager
def two_workers(database: Path, *extra: str, lease: str = "3") -> Iterator[tuple[int, str]]:
    """Run ``serve --workers 2 --lease LEASE`` on the SQLite file ``database`` with
    ``extra`` options; yield its pid and base URL once both workers have opened the
    records."""
    process = start_server(database, "--workers", "2", "--lease", lease, *extra, sink=False)
    serving = _serving(process)
    try:
        base = next(serving)
        deadline = time.monotonic() + 60
        while True:
            workers = children(process.pid)
            if len(workers) == 2 and all(has_open(pid, database) for pid in workers):
                break
            assert time.monotonic() < deadline, f"workers: {workers}"
            time.sleep(0.2)
        yield process.pid, base
    finally:
        next(serving, None)
