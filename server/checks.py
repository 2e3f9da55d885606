"""The interface checks the server runs: the button on an interface's page
starts one (:mod:`.check`, in this process's Chromium), its page follows it with a progress
bar, then shows the table, the JSON and the contact sheet.

Routes:

- ``POST /interfaces/<id>/check`` (form ``set``): start a check of that interface for that
  Set; 303 to its page. 503 when this server has no Chromium, 429 while
  :data:`CHECKS_AT_ONCE` checks run (each drives a browser for a minute or so), counted
  in the store across every worker of its database (a slot held under a lease, renewed
  while the check runs: a worker killed mid-check frees it when the lease ends),
  400 for a Set the interface does not draw or that has no contexts (an added game).
- ``GET /interfaces/<id>/checks/<run>``: progress, then the table; ``.json``: the same
  for programs (``{"status", "done", "total", "label", "finished", "error", "report"}``);
  ``/sheet.png``: the contact sheet once done.

A check lives in the store: every web process of the database shows its progress
and its report, a restart keeps them, and a check whose process stopped or died while it
ran is shown ``interrupted`` (its hold, renewed with its progress, runs out).

An outside interface's page is loaded through the Arbitre's outbound policy:
each request it makes is made by :class:`PolicyFetch` (the name resolved once, the address
checked, each redirect followed and checked here), so a page cannot make the server's
Chromium read an internal address and show it on the contact sheet.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import urllib.parse
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import jinja2
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.calls import engine_client

if TYPE_CHECKING:
    import httpx
from tournoyons_gui.arbitre.outbound import Outbound, OutboundRefused
from tournoyons_gui.arbitre.store import CheckRun, new_id
from tournoyons_gui.arbitre.web.common import NO_STORE, read_form, render
from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.server.check import (
    NAVIGATION_TIMEOUT,
    CheckReport,
    Fetched,
    Refused,
    check_interface,
    lacking,
)
from tournoyons_gui.server.extras import Lack

__all__ = [
    "CHECKS_AT_ONCE",
    "CHECK_LEASE",
    "FETCHES_AT_ONCE",
    "MAX_FETCHED",
    "MAX_FETCHED_TOTAL",
    "PROGRESS_EVERY",
    "Checks",
    "PolicyFetch",
    "check_lease",
    "run_json",
]

log = logging.getLogger(__name__)

#: Seconds between two writes of a check's progress to the store (at most).
PROGRESS_EVERY = 0.25
#: Interface checks running at once across every worker of one database.
CHECKS_AT_ONCE = 1
#: The most seconds a check and its slot are held without renewal (renewed every third of
#: it): the worker's lease, at most this (:func:`check_lease`).
CHECK_LEASE = 30.0
#: The most bytes of one answer a checked page is given (more fails that request).
MAX_FETCHED = 10 * 1024 * 1024
#: The most bytes all the answers of one check may total (more fails the rest).
MAX_FETCHED_TOTAL = 64 * 1024 * 1024
#: Requests of a checked page made at once (the others wait their turn).
FETCHES_AT_ONCE = 8
#: Headers not passed on: the connection's own.
_HOP = frozenset(
    {
        "connection",
        "content-length",
        "host",
        "keep-alive",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
    }
)
#: The encodings asked for and undone here (an answer in another is left to Chromium).
_DECODED = frozenset({"", "gzip", "deflate", "identity"})


class PolicyFetch:
    """A :data:`~.check.Fetch` making a checked page's requests through ``outbound`` (the
    Arbitre's policy) with a client of its own (no cookie shared with engines;
    :meth:`aclose` at the end of the check): every hop of every redirect checked and
    followed here, so that Chromium never follows one by itself; at most
    :data:`FETCHES_AT_ONCE` at once, each answer at most :data:`MAX_FETCHED` bytes within
    :data:`~.check.NAVIGATION_TIMEOUT` seconds, all of them at most
    :data:`MAX_FETCHED_TOTAL`. A request the policy refuses raises
    :class:`~.check.Refused`; any other failure fails the request."""

    def __init__(self, outbound: Outbound) -> None:
        self.client = engine_client(outbound=outbound)
        self.gate = asyncio.Semaphore(FETCHES_AT_ONCE)
        self.fetched = 0

    async def __call__(
        self, method: str, url: str, headers: Mapping[str, str], body: bytes | None
    ) -> Fetched:
        """Make the request; return its final answer (see the class)."""
        sent = {k: v for k, v in headers.items() if k.lower() not in _HOP}
        sent["Accept-Encoding"] = "gzip, deflate"
        try:
            async with (
                self.gate,
                asyncio.timeout(NAVIGATION_TIMEOUT),
                self.client.stream(
                    method, url, headers=sent, content=body, follow_redirects=True
                ) as answer,
            ):
                chunks, size = [], 0
                async for chunk in answer.aiter_bytes():
                    size += len(chunk)
                    self.fetched += len(chunk)
                    if size > MAX_FETCHED or self.fetched > MAX_FETCHED_TOTAL:
                        raise ValueError("an answer over the check's size limits")
                    chunks.append(chunk)
                return Fetched(answer.status_code, _passed_on(answer.headers), b"".join(chunks))
        except OutboundRefused as refused:
            raise Refused(str(refused)) from None

    async def aclose(self) -> None:
        """Close the client."""
        await self.client.aclose()


def _passed_on(headers: httpx.Headers) -> dict[str, str]:
    """Return the answer's headers as Chromium is given them: one value per name (several
    joined, ``set-cookie``'s by newlines as Playwright takes them), without the
    connection's own, and without ``content-encoding`` once httpx has undone it."""
    encoding = headers.get("content-encoding", "").strip().lower()
    kept: dict[str, str] = {}
    for name, value in headers.multi_items():
        key = name.lower()
        if key in _HOP or (key == "content-encoding" and encoding in _DECODED):
            continue
        joiner = "\n" if key == "set-cookie" else ", "
        kept[key] = f"{kept[key]}{joiner}{value}" if key in kept else value
    return kept


class Checks:
    """The server's interface checks; ``holder()`` returns the running Arbitre. A check
    runs in this process (its task, its browser); what it is, how far it is and its
    report are in the store, where every web process of the database reads them."""

    def __init__(self, holder: Callable[[], Arbitre], env: jinja2.Environment) -> None:
        self.holder = holder
        self.env = env
        self.running: dict[str, asyncio.Task[None]] = {}
        self.busy = asyncio.Lock()
        self._lack: Lack | None = None
        self._looked = False

    def can_check(self) -> bool:
        """Whether this server can run a check (Playwright and a Chromium; looked up once,
        and what is missing logged with the command that installs it)."""
        if not self._looked:
            self._lack, self._looked = lacking(), True
            if self._lack is not None:
                log.warning("%s", self._lack.sentence("the Check button of interfaces"))
        return self._lack is None

    def routes(self) -> list[Route]:
        """Return the routes (the ``.json`` and sheet before the page)."""
        return [
            Route("/interfaces/{interface_id}/check", self.start, methods=["POST"]),
            Route("/interfaces/{interface_id}/checks/{run_id}.json", self.run_json),
            Route("/interfaces/{interface_id}/checks/{run_id}/sheet.png", self.sheet),
            Route("/interfaces/{interface_id}/checks/{run_id}", self.run_page),
        ]

    def _refused(self, message: str, status: int) -> Response:
        return render(self.env, "interface_check.html", status, run=None, error=message, config={})

    async def start(self, request: Request) -> Response:
        """``POST /interfaces/<id>/check``: start a check (see the module)."""
        arbitre = self.holder()
        found = await arbitre.interfaces.find(request.path_params["interface_id"])
        if found is None:
            return render(self.env, "arbitre/missing.html", 404)
        if not self.can_check():
            what = self._lack.what if self._lack else "Playwright and a Chromium"
            return self._refused(f"this server cannot check interfaces: it lacks {what}", 503)
        set_name = dict(await read_form(request)).get("set", "")
        played = arbitre.lookup(set_name)
        if played is None or played.name not in found.sets:
            return self._refused(f"{found.name} does not draw {set_name!r}", 400)
        if not isinstance(played, SetInterface):
            return self._refused("the check knows only the Sets this server draws", 400)
        run_id = new_id(10)
        lease = check_lease(arbitre)
        slot = None
        if not self.busy.locked():
            slot = await arbitre.store.take_slot("check", CHECKS_AT_ONCE, run_id, lease)
        if slot is None:
            return self._refused("another check is running: try again in a minute", 429)
        base = arbitre.public_url
        url = found.url if not found.builtin else f"{base}{found.url}"
        run = CheckRun(run_id, found.id, found.name, url, played.name, "running", label="starting")
        try:
            await arbitre.store.start_check(run, arbitre.worker.name, lease)
        except BaseException:
            await arbitre.store.release_slot(slot, run_id)
            raise
        ours = None if found.builtin else f"{base}/{played.key}/"
        fetch = None if found.builtin else PolicyFetch(arbitre.outbound)
        task = asyncio.create_task(self._run(run, played, ours, fetch, slot, lease))
        self.running[run_id] = task
        task.add_done_callback(lambda _: self.running.pop(run_id, None))
        where = f"/interfaces/{urllib.parse.quote(found.id)}/checks/{run.id}"
        return RedirectResponse(where, 303)

    async def _run(
        self,
        run: CheckRun,
        played: SetInterface,
        ours: str | None,
        fetch: PolicyFetch | None,
        slot: str,
        lease: float,
    ) -> None:
        arbitre = self.holder()
        store, owner = arbitre.store, arbitre.worker.name
        moved = asyncio.Event()

        def progress(done: int, total: int, label: str) -> None:
            run.done, run.total, run.label = done, total, label
            moved.set()

        async def publish() -> None:
            """Write the progress as it moves (at most every :data:`PROGRESS_EVERY`
            seconds) and hold the check and its slot (every third of the lease)."""
            while True:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(lease / 3):
                        await moved.wait()
                moved.clear()
                try:
                    await store.check_progress(run.id, owner, run.done, run.total, run.label, lease)
                    await store.renew_slot(slot, run.id, lease)
                except Exception:  # the store away a moment: the next write may pass
                    log.warning("could not write the progress of check %s", run.id, exc_info=True)
                await asyncio.sleep(PROGRESS_EVERY)

        publishing = asyncio.create_task(publish())
        report: CheckReport | None = None
        error = ""
        try:
            async with self.busy:
                try:
                    report = await check_interface(
                        run.url, played, ours=ours, progress=progress, fetch=fetch
                    )
                except Exception as failed:
                    error = str(failed)[:500] or type(failed).__name__
        finally:
            publishing.cancel()
            await asyncio.gather(publishing, return_exceptions=True)
            if fetch is not None:
                await fetch.aclose()
            try:
                if report is not None or error:
                    await store.end_check(
                        run.id,
                        owner,
                        error=error,
                        report=report.to_json() if report is not None else None,
                        sheet=report.sheet if report is not None else None,
                        done=run.done,
                        label=run.label,
                    )
            finally:
                await store.release_slot(slot, run.id)

    async def close(self) -> None:
        """Stop the checks running here and mark them interrupted (this worker stops)."""
        tasks = list(self.running.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        arbitre = self.holder()
        try:
            await arbitre.store.interrupt_checks(arbitre.worker.name)
        except Exception:
            log.warning("could not mark this worker's checks interrupted", exc_info=True)

    async def _find(self, request: Request) -> CheckRun | None:
        run = await self.holder().store.check(request.path_params["run_id"])
        if run is None or run.interface_id != request.path_params["interface_id"]:
            return None
        return run

    async def run_page(self, request: Request) -> Response:
        """``GET /interfaces/<id>/checks/<run>``: its progress, then its table."""
        run = await self._find(request)
        if run is None:
            return render(self.env, "arbitre/missing.html", 404)
        config = {"json": f"{request.url.path}.json", "finished": run.finished}
        report = CheckReport.from_json(run.report) if run.report is not None else None
        return render(
            self.env,
            "interface_check.html",
            run=run,
            report=report,
            error=run.error,
            config=config,
        )

    async def run_json(self, request: Request) -> Response:
        """``GET /interfaces/<id>/checks/<run>.json``: the run as JSON."""
        run = await self._find(request)
        if run is None:
            return JSONResponse({"error": "no such check"}, 404)
        return JSONResponse(run_json(run), headers=NO_STORE)

    async def sheet(self, request: Request) -> Response:
        """``GET /interfaces/<id>/checks/<run>/sheet.png``: the contact sheet."""
        run = await self._find(request)
        sheet = None if run is None else await self.holder().store.check_sheet(run.id)
        if not sheet:
            return JSONResponse({"error": "no such sheet"}, 404)
        return Response(sheet, media_type="image/png", headers=NO_STORE)


def check_lease(arbitre: Arbitre) -> float:
    """Return the seconds a check (and its slot) is held without renewal: the worker's
    lease (``serve --lease``), at least :data:`CHECK_LEASE` / 10."""
    return max(CHECK_LEASE / 10, min(CHECK_LEASE, arbitre.lease_seconds))


def run_json(run: CheckRun) -> dict[str, Any]:
    """Return a check as its ``.json`` gives it: ``id``, ``interface``, ``url``, ``set``,
    ``status`` (``running``, ``done``, ``failed``, ``interrupted``), ``done``, ``total``,
    ``label``, ``finished``, ``error`` and ``report`` (``None`` until done)."""
    return {
        "id": run.id,
        "interface": run.interface_id,
        "url": run.url,
        "set": run.set_name,
        "status": run.status,
        "done": run.done,
        "total": run.total,
        "label": run.label,
        "finished": run.finished,
        "error": run.error,
        "report": run.report,
    }
