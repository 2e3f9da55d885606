"""``serve --workers N``'s supervisor: N uvicorn processes, each on a listening socket of
its own, all bound to the one port with ``SO_REUSEPORT``, so that the kernel spreads the
connections over them evenly (a socket shared by every process goes to whichever wakes
first, and asyncio's accept loop takes every pending connection at once: one worker got
nine tenths of the work). A worker that dies is seen at once (its process's sentinel):
its socket is closed, so that no new connection waits in its queue while another worker
starts on a new socket of the same port; SIGINT or SIGTERM stops them all.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import signal
import socket
import threading
from collections.abc import Callable
from typing import Any

import uvicorn

__all__ = ["Supervisor", "bind_each"]

log = logging.getLogger("uvicorn.error")
#: Seconds between two looks at the workers, and a stopping worker's time to end.
CHECK_EVERY = 0.5
STOP_WITHIN = 30.0


def bind_one(host: str, port: int) -> socket.socket:
    """Bind a socket to ``host:port`` with ``SO_REUSEPORT``; return it, inheritable."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


def bind_each(host: str, port: int, count: int) -> list[socket.socket]:
    """Bind ``count`` sockets to ``host:port`` with ``SO_REUSEPORT`` (``port`` 0: the
    first finds a free port, the others take it); return them, inheritable. Raises
    ``OSError`` when the address cannot be bound."""
    found: list[socket.socket] = []
    for _ in range(count):
        sock = bind_one(host, port)
        port = sock.getsockname()[1]
        found.append(sock)
    return found


def _worker(config: uvicorn.Config, sockets: list[socket.socket]) -> None:
    """A worker process: serve ``config``'s application on ``sockets``."""
    config.configure_logging()
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run(sockets=sockets)


class Supervisor:
    """Starts a worker process per socket (spawned: a fresh interpreter each) and keeps
    them running until a signal says stop; ``started`` is called with each worker's pid.
    ``shared``: sockets every worker serves too (the metrics' listener)."""

    def __init__(
        self,
        config: uvicorn.Config,
        sockets: list[socket.socket],
        started: Callable[[int], None] = lambda pid: None,
        shared: list[socket.socket] | None = None,
    ) -> None:
        self.config = config
        self.sockets = sockets
        self.shared = shared or []
        self.started = started
        self.stopping = threading.Event()
        self._context = multiprocessing.get_context("spawn")
        self.processes: list[Any] = []

    def _start(self, sock: socket.socket) -> Any:
        process = self._context.Process(
            target=_worker, args=(self.config, [sock, *self.shared]), daemon=False
        )
        process.start()
        if process.pid is not None:
            self.started(process.pid)
        return process

    def run(self) -> None:
        """Start the workers, start again any that dies, stop them all on SIGINT/SIGTERM."""
        from multiprocessing.connection import wait

        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: self.stopping.set())
        self.processes = [self._start(sock) for sock in self.sockets]
        while not self.stopping.is_set():
            wait([p.sentinel for p in self.processes], timeout=CHECK_EVERY)
            for index, process in enumerate(self.processes):
                if process.is_alive() or self.stopping.is_set():
                    continue
                log.warning("worker %s ended (%s): starting another", process.pid, process.exitcode)
                process.join()
                old = self.sockets[index]
                host, port = old.getsockname()[:2]
                old.close()  # no connection waits in a dead worker's queue
                self.sockets[index] = bind_one(host, port)
                self.processes[index] = self._start(self.sockets[index])
        for process in self.processes:
            if process.is_alive() and process.pid is not None:
                process.terminate()
        for process in self.processes:
            process.join(STOP_WITHIN)
            if process.is_alive():
                process.kill()
                process.join()
