"""Fixtures shared by every test: the app, a test client, the live server, Chromium."""

from __future__ import annotations

import asyncio
import gc
import os
import queue
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from scripts._bootstrap import CHROMIUM_FLAGS, system_chromium
from tests.processes import end
from tournoyons_gui.server import create_app

ROOT = Path(__file__).resolve().parent.parent
PLUGINS = Path(__file__).resolve().parent / "plugins"

# The third-party Set of tests/plugins/ is registered through its entry point, exactly as a
# pip-installed plugin would be: its folder (package and .dist-info) joins the path.
if str(PLUGINS) not in sys.path:
    sys.path.insert(0, str(PLUGINS))


@pytest.fixture(scope="module", autouse=True)
def _leaks_reported_where_made() -> Iterator[None]:
    """Collect garbage after each test module, so that an event loop, socket or file a
    module left open is reported (``filterwarnings = error``) on that module's last test,
    every time, rather than on whichever later test the collector happens to run in."""
    yield
    gc.collect()


@pytest.fixture(scope="session")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The ASGI application, with every registered Set (the third-party Nim included); the
    Arbitre's records in a SQLite file of its own."""
    return create_app(database=str(tmp_path_factory.mktemp("app") / "arbitre.sqlite3"), sink=True)


@pytest.fixture(scope="session")
def client(app: Any) -> Iterator[TestClient]:
    """A Starlette test client on the application."""
    with TestClient(app) as test_client:
        yield test_client


def _read_lines(stream: Any, lines: queue.Queue[str]) -> None:
    for line in iter(stream.readline, ""):
        lines.put(line)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server (``tournoyons-gui serve --port 0``) in a subprocess; yields its base URL.

    It runs with ``tests/plugins`` on PYTHONPATH, so the third-party Set is served too, and
    keeps the Arbitre's records in a SQLite file of its own.
    """
    database = tmp_path_factory.mktemp("live") / "arbitre.sqlite3"
    process = start_server(database)
    yield from _serving(process)


@pytest.fixture(scope="session")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Another Arbitre (``tournoyons-gui serve`` in a subprocess, records of its own); yields
    its base URL. Its built-in engines (``/engines/<set>/<name>``, also as botsarena bots),
    chapter VI referees (``/referee/<set>``) and Sets' pages are an outsider's to the
    Arbitre under test, whose own URLs are never a target (no amplification)."""
    database = tmp_path_factory.mktemp("elsewhere") / "arbitre.sqlite3"
    yield from _serving(start_server(database))


def serve_arguments(database: Path | str, *extra: str) -> list[str]:
    """Return the arguments of ``tournoyons-gui serve`` on a free port, quiet, keeping its
    records in ``database`` (a SQLite file or a PostgreSQL URL), then ``extra``."""
    return [
        "serve",
        "--port",
        "0",
        "--log-level",
        "warning",
        "--no-access-log",
        "--database",
        str(database),
        *extra,
    ]


def start_server(database: Path | str, *extra: str, sink: bool = True) -> subprocess.Popen[str]:
    """Start ``tournoyons-gui serve --port 0 --sink`` on ``database`` (without ``--sink``
    when ``sink`` is false: ``--workers`` above one then); the caller waits for it."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(PLUGINS), str(ROOT), os.environ.get("PYTHONPATH", "")])
        ),
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tournoyons_gui.server.cli",
            *serve_arguments(database, *(("--sink",) if sink else ()), *extra),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _serving(process: subprocess.Popen[str]) -> Iterator[str]:
    """Wait for ``process`` to serve, yield its base URL, and stop it at the end."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_read_lines, args=(process.stdout, lines), daemon=True).start()
    seen: list[str] = []
    base = ""
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not base:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                if process.poll() is not None:
                    break
                continue
            seen.append(line)
            if "serving on " in line:
                base = line.split("serving on ", 1)[1].strip().rstrip("/")
        while base and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("the server did not start:\n" + "".join(seen))
        yield base
    finally:
        end(process)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch the project's Chromium (``scripts/_bootstrap.py``: ``system_chromium`` with
    ``CHROMIUM_FLAGS``); let pages play sound unasked."""
    args = {
        **browser_type_launch_args,
        "args": [*CHROMIUM_FLAGS, "--autoplay-policy=no-user-gesture-required"],
    }
    path = system_chromium()
    if path:
        args["executable_path"] = path
    return args


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """Pages open at the Arbitre's iframe size, 736x660."""
    return {**browser_context_args, "viewport": {"width": 736, "height": 660}}


@pytest.fixture(autouse=True)
def _no_browser_loop(request: pytest.FixtureRequest) -> Iterator[None]:
    """Run a test that drives no browser with no event loop set as running in this thread.

    Playwright's sync API (pytest-playwright's session-wide browser) runs its event loop in
    a greenlet of this thread and leaves it set as the thread's running loop between its
    calls: a later test of the same worker process calling ``asyncio.run`` would be
    refused ("cannot be called from a running event loop"), depending only on which
    tests the worker ran before. The browser's loop is set back after the test."""
    if _BROWSER_FIXTURES & set(request.fixturenames):
        yield
        return
    left = asyncio._get_running_loop()
    if left is None:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(left)


# Markers by folder (a ``pytestmark`` in a conftest.py marks only that file): select with
# ``-m "not browser"``, ``-m robustness``, ``-m arbitre``.
_FOLDER_MARKS = {"browser": "browser", "robustness": "robustness", "arbitre": "arbitre"}
_BROWSER_FIXTURES = frozenset({"page", "browser", "context", "browser_context"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test by its folder, and as ``browser`` when it drives Chromium."""
    for item in items:
        parts = Path(str(item.path)).relative_to(ROOT).parts
        for folder, mark in _FOLDER_MARKS.items():
            if folder in parts[:2]:
                item.add_marker(getattr(pytest.mark, mark))
        if _BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
