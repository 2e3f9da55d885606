"""The interface checks the server runs (issue 24): the button on an interface's page
starts one (:mod:`.check`, in this process's Chromium), its page follows it with a progress
bar, then shows the table, the JSON and the contact sheet.

Routes:

- ``POST /interfaces/<id>/check`` (form ``set``): start a check of that interface for that
  Set; 303 to its page. 503 when this server has no Chromium, 429 while
  :data:`CHECKS_AT_ONCE` checks run (each drives a browser for a minute or so), counted
  in the store across every worker of its database (a slot held under a lease, renewed
  while the check runs: a worker killed mid-check frees it when the lease ends; issue
  29), 400 for a Set the interface does not draw or that has no contexts (an added game).
- ``GET /interfaces/<id>/checks/<run>``: progress, then the table; ``.json``: the same
  for programs (``{"done", "total", "label", "error", "report"}``); ``/sheet.png``: the
  contact sheet once done.

Runs are kept in memory, the last :data:`KEPT_RUNS`. An outside interface's page is
loaded through the Arbitre's outbound policy (issue 20): each request it makes is made by
:class:`PolicyFetch` (the name resolved once, the address checked, each redirect followed
and checked here), so a page cannot make the server's Chromium read an internal address
and show it on the contact sheet.
"""

from __future__ import annotations

import asyncio
import logging
import urllib.parse
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
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
from tournoyons_gui.arbitre.store import new_id
from tournoyons_gui.arbitre.web.common import NO_STORE, read_form, render
from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.server.check import (
    NAVIGATION_TIMEOUT,
    CheckReport,
    Fetched,
    Refused,
    available,
    check_interface,
)

__all__ = [
    "CHECKS_AT_ONCE",
    "CHECK_LEASE",
    "FETCHES_AT_ONCE",
    "KEPT_RUNS",
    "MAX_FETCHED",
    "MAX_FETCHED_TOTAL",
    "Checks",
    "PolicyFetch",
]

log = logging.getLogger(__name__)

#: Checks kept in memory (their reports and sheets), the oldest dropped first.
KEPT_RUNS = 20
#: Interface checks running at once across every worker of one database.
CHECKS_AT_ONCE = 1
#: Seconds a check's slot is held without renewal (renewed every third of it).
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
    Arbitre's policy, issue 20) with a client of its own (no cookie shared with engines;
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


@dataclass
class Run:
    """A check started here: what it checks, how far it is, its report once done."""

    id: str
    interface_id: str
    name: str
    url: str
    set_name: str
    done: int = 0
    total: int = 0
    label: str = "starting"
    error: str = ""
    report: CheckReport | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def finished(self) -> bool:
        """Whether the check has ended (with a report or an error)."""
        return self.report is not None or bool(self.error)

    def to_json(self) -> dict[str, Any]:
        """Return the run as JSON-ready data."""
        return {
            "id": self.id,
            "interface": self.interface_id,
            "url": self.url,
            "set": self.set_name,
            "done": self.done,
            "total": self.total,
            "label": self.label,
            "finished": self.finished,
            "error": self.error,
            "report": self.report.to_json() if self.report else None,
        }


class Checks:
    """The server's interface checks; ``holder()`` returns the running Arbitre."""

    def __init__(self, holder: Callable[[], Arbitre], env: jinja2.Environment) -> None:
        self.holder = holder
        self.env = env
        self.runs: OrderedDict[str, Run] = OrderedDict()
        self.busy = asyncio.Lock()
        self._available: bool | None = None

    def can_check(self) -> bool:
        """Whether this server can run a check (Playwright and a Chromium; looked up once)."""
        if self._available is None:
            self._available = available()
        return self._available

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
            return self._refused("this server has no Chromium to check interfaces with", 503)
        set_name = dict(await read_form(request)).get("set", "")
        played = arbitre.lookup(set_name)
        if played is None or played.name not in found.sets:
            return self._refused(f"{found.name} does not draw {set_name!r}", 400)
        if not isinstance(played, SetInterface):
            return self._refused("the check knows only the Sets this server draws", 400)
        run_id = new_id(10)
        slot = None
        if not self.busy.locked():
            slot = await arbitre.store.take_slot("check", CHECKS_AT_ONCE, run_id, CHECK_LEASE)
        if slot is None:
            return self._refused("another check is running: try again in a minute", 429)
        base = arbitre.public_url
        url = found.url if not found.builtin else f"{base}{found.url}"
        run = Run(run_id, found.id, found.name, url, played.name)
        self.runs[run.id] = run
        while len(self.runs) > KEPT_RUNS:
            self.runs.popitem(last=False)
        ours = None if found.builtin else f"{base}/{played.key}/"
        fetch = None if found.builtin else PolicyFetch(arbitre.outbound)
        run.task = asyncio.create_task(self._run(run, played, ours, fetch, slot))
        where = f"/interfaces/{urllib.parse.quote(found.id)}/checks/{run.id}"
        return RedirectResponse(where, 303)

    async def _run(
        self,
        run: Run,
        played: SetInterface,
        ours: str | None,
        fetch: PolicyFetch | None,
        slot: str,
    ) -> None:
        def progress(done: int, total: int, label: str) -> None:
            run.done, run.total, run.label = done, total, label

        store = self.holder().store

        async def hold() -> None:
            while True:
                await asyncio.sleep(CHECK_LEASE / 3)
                try:
                    await store.renew_slot(slot, run.id, CHECK_LEASE)
                except Exception:  # the store away a moment: the next renewal may pass
                    log.warning("could not renew the slot of check %s", run.id, exc_info=True)

        holding = asyncio.create_task(hold())
        async with self.busy:
            try:
                run.report = await check_interface(
                    run.url, played, ours=ours, progress=progress, fetch=fetch
                )
            except Exception as failed:
                run.error = str(failed)[:500] or type(failed).__name__
            finally:
                holding.cancel()
                if fetch is not None:
                    await fetch.aclose()
                await store.release_slot(slot, run.id)

    def _find(self, request: Request) -> Run | None:
        run = self.runs.get(request.path_params["run_id"])
        if run is None or run.interface_id != request.path_params["interface_id"]:
            return None
        return run

    async def run_page(self, request: Request) -> Response:
        """``GET /interfaces/<id>/checks/<run>``: its progress, then its table."""
        run = self._find(request)
        if run is None:
            return render(self.env, "arbitre/missing.html", 404)
        config = {"json": f"{request.url.path}.json", "finished": run.finished}
        return render(self.env, "interface_check.html", run=run, error=run.error, config=config)

    async def run_json(self, request: Request) -> Response:
        """``GET /interfaces/<id>/checks/<run>.json``: the run as JSON."""
        run = self._find(request)
        if run is None:
            return JSONResponse({"error": "no such check"}, 404)
        return JSONResponse(run.to_json(), headers=NO_STORE)

    async def sheet(self, request: Request) -> Response:
        """``GET /interfaces/<id>/checks/<run>/sheet.png``: the contact sheet."""
        run = self._find(request)
        if run is None or run.report is None or not run.report.sheet:
            return JSONResponse({"error": "no such sheet"}, 404)
        return Response(run.report.sheet, media_type="image/png", headers=NO_STORE)
