"""A Starlette application of the tests' own (an engine, a bot, a referee), served by
uvicorn in a thread on 127.0.0.1, so that the Arbitre reaches it over real HTTP."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Self

import uvicorn
from starlette.applications import Starlette
from starlette.routing import BaseRoute

from tournoyons_gui.server.cli import bind


class Threaded:
    """``routes`` served on a free port; ``base`` is the URL, known at once."""

    def __init__(self, routes: Sequence[BaseRoute]) -> None:
        self.app = Starlette(routes=list(routes))
        sock, self.base = bind("127.0.0.1", 0)
        self.server = uvicorn.Server(
            uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off")
        )
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [sock]}, daemon=True
        )

    @contextmanager
    def running(self) -> Iterator[Self]:
        """Serve while the block runs; stop at its end."""
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, f"{type(self).__name__} did not start"
            time.sleep(0.02)
        try:
            yield self
        finally:
            self.server.should_exit = True
            self.thread.join(10)
