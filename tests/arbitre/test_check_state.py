"""The interface check's state in the store, on two web processes of one
PostgreSQL database (``serve --no-drive``, as a deployment runs them behind nginx): a
check started through one shows its progress through the other, its progress bar on the
other's page included, then its report and contact sheet; a restart of either keeps them.
A check whose process is killed mid-run is shown interrupted by the other (not running
forever), one whose process is stopped cleanly at once, and a new check can start."""

from __future__ import annotations

import asyncio
import re
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from tests.arbitre.postgres import postgres_server
from tests.arbitre.threaded import Threaded
from tests.arbitre.web_processes import Web

pytestmark = pytest.mark.arbitre

#: Seconds each visit of the slow interface's page takes to answer.
SLOW = 0.3
#: The web processes' lease (``serve --lease``): a dead process's check is let go after it.
LEASE = "3"
_PAGE = "<!doctype html><html lang=und><meta charset=utf-8><title>&#9638;</title><body></body>"


class SlowInterface(Threaded):
    """An outside interface page (``/slow/``) that answers :data:`SLOW` seconds late, so
    that a check of it lasts long enough to be watched and interrupted."""

    def __init__(self) -> None:
        super().__init__([Route("/slow/", self.page)])

    async def page(self, request: Request) -> Response:
        """The page, late."""
        del request
        await asyncio.sleep(SLOW)
        return HTMLResponse(_PAGE)


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL server's URL."""
    with postgres_server() as url:
        yield url


@pytest.fixture(scope="module")
def interface() -> Iterator[SlowInterface]:
    """The slow outside interface, served."""
    with SlowInterface().running() as pages:
        yield pages


class Check(Web):
    """A web process (``serve --no-drive --lease 3``) and the checks it shows."""

    def __init__(self, database: str) -> None:
        super().__init__(database, "--no-drive", "--lease", LEASE)

    def run(self, where: str) -> dict[str, Any]:
        """Return the check at ``where`` as its ``.json`` gives it."""
        answer = self.get(where + ".json")
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found


@contextmanager
def two_web_processes(database: str) -> Iterator[tuple[Check, Check]]:
    """Run two web processes on ``database``; stop both at the end."""
    first, second = Check(database), Check(database)
    try:
        first.start()
        second.start()
        yield first, second
    finally:
        first.stop()
        second.stop()


def register(web: Check, url: str) -> str:
    """Register the interface at ``url`` for TicTacToe; return its id."""
    stamp = str(time.monotonic_ns())[-8:]
    answer = httpx.post(
        web.base + "/api/interfaces",
        json={"name": f"Slow {stamp}", "url": url, "sets": ["TicTacToe"]},
        timeout=30,
        trust_env=False,
    )
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def ask_check(web: Check, interface_id: str) -> httpx.Response:
    """Ask ``web`` for a TicTacToe check of the interface, as its page's form does."""
    return httpx.post(
        f"{web.base}/interfaces/{interface_id}/check",
        data={"set": "TicTacToe"},
        headers={"Origin": web.base},
        timeout=30,
        trust_env=False,
    )


def start_check(web: Check, interface_id: str) -> str:
    """Start a check of the interface through ``web``; return its page's path."""
    answer = ask_check(web, interface_id)
    assert answer.status_code == 303, answer.text
    return str(answer.headers["location"])


def wait_for(web: Check, where: str, test: Any, within: float = 120) -> dict[str, Any]:
    """Return the check at ``where`` (through ``web``) once ``test(run)`` holds."""
    deadline = time.monotonic() + within
    while True:
        run = web.run(where)
        if test(run):
            return run
        assert time.monotonic() < deadline, run
        time.sleep(0.1)


def progress_bar(page: str) -> tuple[int, int, str]:
    """Return the page's progress bar: its value, its max and its label."""
    bar = re.search(r'<progress max="(\d+)" value="(\d+)" data-progress>', page)
    label = re.search(r"<span data-progress-label>([^<]*)</span>", page)
    assert bar is not None and label is not None, page
    return int(bar[2]), int(bar[1]), label[1]


def status_of(page: str) -> str:
    """Return the check's status as its page says it (``data-check-status``)."""
    found = re.search(r'data-check-status="([a-z]+)"', page)
    assert found is not None, page
    return found[1]


@pytest.mark.slow
def test_a_check_started_through_one_process_is_followed_and_kept_through_another(
    postgres: str,
) -> None:
    """Started through A (our TicTacToe interface), the check's progress moves on B's JSON
    and on B's page (its progress bar, as the page draws it before any script runs), then
    B shows the whole report and its contact sheet; after a restart of both processes,
    each still does."""
    with two_web_processes(postgres) as (a, b):
        interface_id = "B-tictactoe"
        where = start_check(a, interface_id)
        seen: list[tuple[int, int]] = []
        bars: list[tuple[int, int, str]] = []
        deadline = time.monotonic() + 180
        while True:
            run = b.run(where)
            assert run["interface"] == interface_id and run["set"] == "TicTacToe"
            if run["finished"]:
                break
            assert run["status"] == "running"
            seen.append((run["done"], run["total"]))
            page = b.get(where)
            if run["total"] and 'data-check-status="running"' in page.text:
                bars.append(progress_bar(page.text))
            assert time.monotonic() < deadline, run
            time.sleep(0.25)
        assert run["status"] == "done" and run["error"] == "", run
        total = run["total"]
        assert total >= 10 and run["done"] == total
        # The progress was seen moving through B, never backwards.
        middle = [done for done, of in seen if of == total and 0 < done < total]
        assert len(set(middle)) >= 2, seen
        assert [d for d, _ in seen] == sorted(d for d, _ in seen)
        assert any(0 < value < total and of == total for value, of, _ in bars), bars
        report = run["report"]
        contexts = len(report["contexts"])
        assert contexts == total and report["url"] == a.base + "/tictactoe/" and report["passed"]
        for web in (b, a):
            text = web.get(where).text
            assert status_of(text) == "done" and "<progress" not in text
            assert text.count("data-context=") == contexts
            sheet = web.get(where + "/sheet.png")
            assert sheet.status_code == 200 and sheet.content.startswith(b"\x89PNG")
        for web in (a, b):
            web.stop()
            web.start()
        for web in (a, b):
            assert web.run(where) == run
            assert status_of(web.get(where).text) == "done"
            assert web.get(where + "/sheet.png").content == sheet.content
        assert b.get(f"/interfaces/{interface_id}/checks/NOSUCHRUN1.json").status_code == 404
        other = where.replace(interface_id, "B-reversi")
        assert b.get(other + ".json").status_code == 404


@pytest.mark.slow
def test_a_check_whose_process_stops_mid_run_is_shown_interrupted(
    postgres: str, interface: SlowInterface
) -> None:
    """A is killed (SIGKILL) mid-check: B shows the check interrupted within the lease,
    with the visits it had made, and so does A once started again. B is stopped (SIGTERM)
    mid-check: A shows that one interrupted at once. Then a check starts through A and
    runs: no slot was left held."""
    with two_web_processes(postgres) as (a, b):
        interface_id = register(a, interface.base + "/slow/")
        where = start_check(a, interface_id)
        moving = wait_for(b, where, lambda r: r["done"] >= 1 and not r["finished"])
        a.stop(signal.SIGKILL)
        killed_at = time.monotonic()
        run = wait_for(b, where, lambda r: r["finished"], within=30)
        assert time.monotonic() - killed_at < float(LEASE) + 5
        assert run["status"] == "interrupted" and "interrupted" in run["error"], run
        assert run["report"] is None and run["done"] >= moving["done"]
        page = b.get(where).text
        assert status_of(page) == "interrupted" and "<progress" not in page
        assert f"It had made {run['done']} of {run['total']} visits" in page
        assert b.get(where + "/sheet.png").status_code == 404
        a.start()
        assert a.run(where) == run

        where = wait_for_start(b, interface_id)
        wait_for(a, where, lambda r: r["done"] >= 1 and not r["finished"])
        b.stop(signal.SIGTERM)
        run = a.run(where)  # at once: B said so as it stopped
        assert run["status"] == "interrupted", run

        where = start_check(a, interface_id)  # both slots were let go
        run = wait_for(a, where, lambda r: r["done"] >= 1)
        assert run["status"] == "running", run


def wait_for_start(web: Check, interface_id: str, within: float = 30) -> str:
    """Start a check through ``web`` once a slot is free (the killed process's slot is let
    go when its lease ends); return its page's path."""
    deadline = time.monotonic() + within
    while True:
        answer = ask_check(web, interface_id)
        if answer.status_code == 303:
            return str(answer.headers["location"])
        assert answer.status_code == 429 and time.monotonic() < deadline, answer.text
        time.sleep(0.5)


def test_the_stores_checks_are_held_interrupted_and_kept_to_the_last(
    postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the store: a check not renewed within its hold is read as interrupted, and its
    worker can then neither write its progress nor end it; a new check marks it so; the
    checks beyond the newest kept are deleted, never a running one."""
    from tournoyons_gui.arbitre.store import CheckRun, Store
    from tournoyons_gui.arbitre.store import checks as checks_module

    monkeypatch.setattr(checks_module, "KEPT_CHECKS", 2)

    def run(number: int) -> CheckRun:
        return CheckRun(f"KEPT{number:06d}", "B-tictactoe", "T", "/t/", "TicTacToe", "running")

    async def check() -> None:
        store = await Store.open(postgres)
        try:
            await store.start_check(run(1), "worker-a", 0.3)
            assert await store.check_progress("KEPT000001", "worker-a", 1, 4, "start", 0.3)
            await asyncio.sleep(0.5)
            found = await store.check("KEPT000001")
            assert found is not None and (found.status, found.done) == ("interrupted", 1)
            await store.start_check(run(2), "worker-b", 30)
            assert not await store.check_progress("KEPT000001", "worker-a", 2, 4, "x", 30)
            assert not await store.end_check("KEPT000001", "worker-a", report={}, sheet=b"x")
            assert await store.end_check(
                "KEPT000002", "worker-b", report={"url": "/t/"}, sheet=b"P"
            )
            await store.start_check(run(3), "worker-b", 30)
            await store.start_check(run(4), "worker-b", 30)
            kept = [await store.check(f"KEPT{n:06d}") for n in range(1, 5)]
            assert [k is not None for k in kept] == [False, False, True, True]
            assert await store.check_sheet("KEPT000002") is None
            assert await store.interrupt_checks("worker-b") == 2
            found = await store.check("KEPT000004")
            assert found is not None and found.status == "interrupted" and found.finished
        finally:
            await store.close()

    asyncio.run(check())
