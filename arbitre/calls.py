"""Calling Tournoyons engines over HTTP (engine protocol sections 1-3).

:class:`EngineCaller` sends a request without ever blocking on it (decision 6): the
engine's answer is ignored, redirects are followed (5 hops, http/https only, held to the
allowed hosts) and a redirect to the Referee URL is taken as the callback (decision 7).
The callback itself reaches :class:`~tournoyons_gui.arbitre.asks.Asks` (through
``/referee`` or such a redirect), which wakes the ask waiting here. Headers are capped at
16 KiB by the HTTP parser; the body is read only in tester mode, at most 64 KiB.

An engine's own answer is not waited for, but what it was is kept (its status and first
:data:`FIRST_BYTES` bytes, or why it was no HTTP answer): a request with no callback by the
deadline is a ``malformed`` answer when the engine answered an HTTP error status or
something that is not HTTP (the engine failed on the request: a 500, a crash's message),
``late`` otherwise (decision 12; the faults a match's summary counts apart), and the answer
goes to the exchange log then, for the failure report.

Requests, redirects and final calls go through the move path's client
(:class:`~tournoyons_gui.arbitre.client.Calls`, aiohttp: a new connection each);
:attr:`EngineCaller.kept` keeps connections for the calls whose protocol allows it (bots'
``POST``, our engines' callbacks). :attr:`EngineCaller.client` (httpx) serves every other
call (tester mode, added games' referees, engines behind a school's wall).
"""

from __future__ import annotations

import asyncio
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tournoyons_gui.arbitre.answer import MALFORMED, Answer, Note, note
from tournoyons_gui.arbitre.asks import POLL_EVERY, Asks, Callback
from tournoyons_gui.arbitre.client import BrokenAnswer, Calls, Unreachable
from tournoyons_gui.arbitre.outbound import Outbound
from tournoyons_gui.arbitre.query import QueryTooLong, read_query
from tournoyons_gui.arbitre.urls import MAX_BODY, MAX_REDIRECTS, host_allowed, same_endpoint

if TYPE_CHECKING:
    import httpx

__all__ = [
    "FINAL_CUT",
    "FIRST_BYTES",
    "MAX_BODY",
    "MAX_CALLBACK_QUERY",
    "EngineCaller",
    "engine_client",
    "tester_call",
]

MAX_CALLBACK_QUERY = 8 * 1024
FINAL_CUT = 10.0
#: The bytes of an engine's answer kept for the log when no callback came (its first ones).
FIRST_BYTES = 256


@dataclass
class _Heard:
    """What an engine answered to a request (its last hop): the HTTP ``status`` (``None``:
    none yet), its first bytes of ``body``, ``broken``: why it was no HTTP answer."""

    status: int | None = None
    body: bytes = b""
    broken: str = ""

    def failed(self) -> str:
        """Return how the answer shows the engine failed on the request (an HTTP error
        status, a broken answer), or ``""``: a 2xx or 3xx status, or none yet."""
        if self.broken:
            return "the engine's answer was not HTTP"
        if self.status is not None and not 200 <= self.status < 400:
            return f"the engine answered HTTP {self.status}"
        return ""

    def hint(self) -> str:
        """Return what to tell the engine's author when it answered 200 with what reads as
        a Value and never called back (an engine that takes every call for the tester's,
        engine protocol section 5), else ``""``."""
        text = self.body.decode("utf-8", "replace").strip()
        if self.status != 200 or not text or len(text) > 40 or "\n" in text or text == "OK":
            return ""
        return (
            f"; it answered {text!r} in its body, as in tester mode: with a Referee, an "
            "engine calls it back with its Value"
        )

    def shown(self) -> str:
        """Return the answer for the log: ``STATUS first bytes`` (as text, escaped)."""
        if self.broken:
            return f"no HTTP answer: {self.broken[:200]}"
        text = self.body.decode("utf-8", "backslashreplace")
        return f"{self.status} {text!r}" if self.body else f"{self.status} (no body)"


def engine_client(
    transport: httpx.AsyncBaseTransport | None = None, outbound: Outbound | None = None
) -> httpx.AsyncClient:
    """Return the HTTP client the Arbitre calls engines with: no keep-alive (the engine
    protocol's ``Connection: close`` per call), no redirect followed by itself (redirects
    are followed and checked hop by hop; tester mode's, :data:`MAX_REDIRECTS` at most),
    no proxy from the environment, and every
    connection held to the outbound policy (:class:`Outbound`: each hop's address checked,
    ``transport`` the one that sends)."""
    import httpx

    if outbound is not None:
        from tournoyons_gui.arbitre.checked import CheckedTransport

        transport = CheckedTransport(outbound, transport)
    return httpx.AsyncClient(
        follow_redirects=False,
        max_redirects=MAX_REDIRECTS,
        limits=httpx.Limits(max_connections=1000, max_keepalive_connections=0),
        headers={"Connection": "close", "User-Agent": "Tournoyons-Arbitre"},
        transport=transport,
        trust_env=False,
    )


class EngineCaller:
    """Sends engine requests and final calls through :attr:`fresh` (a new connection per
    call); :attr:`kept` serves the calls that may keep theirs, :attr:`client` (httpx)
    every other call. All are held to ``outbound``."""

    def __init__(
        self,
        asks: Asks,
        referee_url: str,
        transport: httpx.AsyncBaseTransport | None = None,
        allowed_hosts: frozenset[str] | None = None,
        outbound: Outbound | None = None,
    ) -> None:
        self.asks = asks
        self.allowed_hosts = allowed_hosts
        self.referee_url = referee_url
        self._transport = transport
        self._outbound = outbound
        self._client: httpx.AsyncClient | None = None
        self.fresh = Calls(outbound, keepalive=False)
        self.kept = Calls(outbound, keepalive=True)
        self._tasks: set[asyncio.Task[str]] = set()

    async def close(self) -> None:
        """Cancel the requests still open and close the client."""
        for task in list(self._tasks):
            task.cancel()
        if self._client is not None:
            await self._client.aclose()
        await self.fresh.close()
        await self.kept.close()

    @property
    def client(self) -> httpx.AsyncClient:
        """Return the httpx client of the calls off the move path (:func:`engine_client`),
        made at its first use."""
        if self._client is None:
            self._client = engine_client(self._transport, self._outbound)
        return self._client

    def _done(self, task: asyncio.Task[str]) -> None:
        self._tasks.discard(task)
        _quiet(task)

    def _is_referee(self, url: str) -> bool:
        return same_endpoint(url, self.referee_url)

    async def ask(
        self,
        url: str,
        key: str,
        move_id: str,
        game_id: str,
        seat: int,
        timeout: float,
    ) -> Answer:
        """Request ``url`` (already carrying its parameters) and wait for the callback
        naming (``key``, ``move_id``) for at most ``timeout`` seconds; return the answer
        (``late``: no callback in time; ``malformed``: none either, and the engine answered
        an HTTP error status or no HTTP at all; ``unreachable``: no connection, decision
        12) with the exchanges: the request, the engine's HTTP answer and redirects, the
        callback, and on a failure the answer's status and first bytes (kind ``body``).
        When several workers share the records, the store is also asked every second for
        an answer another worker recorded (a missed message), and has the last word."""
        started = time.monotonic()
        future = self.asks.expect(key, move_id, game_id, seat)
        log: list[Note] = [note("request", url)]
        heard = _Heard()
        call = asyncio.create_task(self._send(url, timeout + 5, log, heard))
        try:
            found = await self._wait(future, call, started, timeout, key, move_id)
            if isinstance(found, str):
                log.append(note("error", f"unreachable: {found}"))
                return Answer.failure("unreachable", found, _ms(started), log)
            if found is None:
                detail = f"no callback within {timeout:g} s"
                if heard.status is not None or heard.broken:
                    log.append(note("body", heard.shown()))
                failed = heard.failed()
                if failed:
                    detail = f"{detail}; {failed}"
                    log.append(note("error", f"{MALFORMED}: {detail}"))
                    return Answer.failure(MALFORMED, detail, _ms(started), log)
                detail += heard.hint()
                log.append(note("error", f"late: {detail}"))
                return Answer.failure("late", detail, _ms(started), log)
            log.append(("callback", found.query, found.received))
            log.sort(key=lambda entry: entry[2])
            ms = max(0, int((found.at - started) * 1000))
            return Answer(found.value, ms=ms, query=found.query, log=log)
        finally:
            self.asks.forget(key, move_id)
            # The engine's own answer is left to finish or be cut at TimeOut + 5 s.
            self._tasks.add(call)
            call.add_done_callback(self._done)

    async def _wait(
        self,
        future: asyncio.Future[Callback],
        call: asyncio.Task[str],
        started: float,
        timeout: float,
        key: str,
        move_id: str,
    ) -> Callback | str | None:
        """Return the callback, the reason no connection was made, or ``None`` (late)."""
        waiting: set[asyncio.Future[Any]] = {future, call}
        poll: Callable[[], Awaitable[Callback | None]] = lambda: self.asks.poll(key, move_id)  # noqa: E731
        while not future.done():
            left = timeout - (time.monotonic() - started)
            if left <= 0:
                break
            done, _ = await asyncio.wait(
                waiting, timeout=min(left, POLL_EVERY), return_when=asyncio.FIRST_COMPLETED
            )
            if call in done and call in waiting:
                waiting.discard(call)
                unreachable = call.result()
                if unreachable and not future.done():
                    return unreachable
            if not future.done() and not done:
                found = await poll()
                if found is not None and not future.done():
                    future.set_result(found)
        if not future.done():
            # The store has the last word: a callback it took in time is the answer,
            # however late its news reached this worker.
            found = await poll()
            if found is not None and not future.done():
                future.set_result(found)
        return future.result() if future.done() and not future.cancelled() else None

    async def _send(self, url: str, cut: float, log: list[Note], heard: _Heard) -> str:
        """Send the request, follow redirects; return an error if no connection was made.
        What the engine answered (the last hop) goes to ``heard``."""
        try:
            async with asyncio.timeout(cut):
                for hop in range(MAX_REDIRECTS + 1):
                    try:
                        answer = await self.fresh.get(url, read=FIRST_BYTES)
                    except Unreachable as refused:
                        if hop == 0:
                            return f"unreachable: {refused}"[:500]
                        log.append(note("error", f"redirect target unreachable: {refused}"[:500]))
                        return ""
                    log.append(note("answer", f"{answer.status} {url[:300]}"))
                    heard.status, heard.body = answer.status, answer.body
                    location = answer.location
                    if answer.status not in (301, 302, 303, 307, 308) or not location:
                        return ""
                    url = urllib.parse.urljoin(url, location)
                    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
                        log.append(note("error", f"redirect to a non-http URL: {url[:300]}"))
                        return ""
                    if not self._is_referee(url) and not host_allowed(url, self.allowed_hosts):
                        log.append(note("error", "redirect to a host not allowed here"))
                        return ""
                    if self._is_referee(url):
                        log.append(note("redirect", url[:MAX_CALLBACK_QUERY]))
                        query = urllib.parse.urlsplit(url).query
                        try:
                            params = read_query(query, MAX_CALLBACK_QUERY)
                        except QueryTooLong:
                            return ""
                        await self.asks.callback(params, query, redirect=True)
                        return ""
                    log.append(note("redirect", url[:500]))
                log.append(note("error", f"more than {MAX_REDIRECTS} redirects"))
        except TimeoutError:
            log.append(note("error", "no answer within TimeOut + 5 s"))
        except BrokenAnswer as broken:  # a malformed answer is not a failure by itself
            log.append(note("error", str(broken)[:500]))
            heard.broken = str(broken)
        return ""

    async def tester(self, url: str, timeout: float) -> tuple[int | None, bytes, str]:
        """Tester mode (section 5): :func:`tester_call` with this caller's client."""
        return await tester_call(self.client, url, timeout)

    async def final(self, url: str) -> str:
        """Send a final call (decision 10): cut at 10 s, its answer and failure ignored;
        return its HTTP status, or what failed."""
        try:
            async with asyncio.timeout(FINAL_CUT):
                return str((await self.fresh.get(url)).status)
        except TimeoutError:
            return "TimeoutError"
        except (Unreachable, BrokenAnswer) as broken:
            return str(broken).partition(":")[0] or type(broken).__name__


async def tester_call(
    client: httpx.AsyncClient, url: str, timeout: float
) -> tuple[int | None, bytes, str]:
    """Call an engine in tester mode (engine protocol section 5: ``url`` carries an empty
    ``Referee``, the engine answers the value in its body) with ``client`` (the
    Arbitre's, :func:`engine_client`); return the HTTP status (``None``: no answer), at
    most :data:`MAX_BODY` bytes of body, and an error (``""``: none). Redirects are
    followed (:data:`MAX_REDIRECTS` at most) within ``timeout`` seconds."""
    import httpx

    try:
        async with (
            asyncio.timeout(timeout),
            client.stream("GET", url, follow_redirects=True) as answer,
        ):
            body = b""
            async for chunk in answer.aiter_bytes():
                body += chunk
                if len(body) >= MAX_BODY:
                    body = body[:MAX_BODY]
                    break
            return answer.status_code, body, ""
    except TimeoutError:
        return None, b"", f"no answer within {timeout:g} s"
    except httpx.HTTPError as broken:
        return None, b"", f"{type(broken).__name__}: {broken}"[:500]


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


def _quiet(task: asyncio.Task[str]) -> None:
    if not task.cancelled():
        task.exception()
