"""``serve`` processes of the tests' own on one database (a PostgreSQL URL), each started,
stopped (SIGTERM: cleanly; SIGKILL: killed) and started again on a new port, as an
operator's deployment runs several behind nginx (``scripts/deploy.py``)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import httpx

from tests.conftest import _serving, start_server

__all__ = ["Web"]


class Web:
    """One ``serve`` process on ``database`` with ``extra`` options (``--no-drive`` by
    default), its base URL once started; ``env``: variables added to its environment."""

    def __init__(self, database: str, *extra: str, env: dict[str, str] | None = None) -> None:
        self.database = database
        self.extra = extra or ("--no-drive",)
        self.env = env or {}
        self.process: Any = None
        self.serving: Iterator[str] | None = None
        self.base = ""

    def start(self) -> Web:
        """Start it and return once it answers."""
        saved = {name: os.environ.get(name) for name in self.env}
        os.environ.update(self.env)
        try:
            self.process = start_server(self.database, *self.extra)
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
        self.serving = _serving(self.process)
        self.base = next(self.serving)
        return self

    def stop(self, signum: int = signal.SIGTERM) -> None:
        """Stop it with ``signum`` and wait until it is gone."""
        if self.process is None:
            return
        if self.process.poll() is None:
            os.kill(self.process.pid, signum)
            self.process.wait(30)
        if self.serving is not None:
            next(self.serving, None)
        self.process = self.serving = None

    def get(self, path: str) -> httpx.Response:
        """``GET path``."""
        return httpx.get(self.base + path, timeout=30, trust_env=False)
