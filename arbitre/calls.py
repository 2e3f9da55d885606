"""Calling engines over HTTP, and receiving their callbacks (engine protocol sections 1-3).

- :func:`engine_url` builds a request URL: parameters in the protocol's order, ``Referee``
  last, ``A-Z a-z 0-9 - . _ ~ : / ? *`` written as they are (decision 3).
- :class:`Callbacks` holds the outstanding requests by (seat ``Game`` id, ``MoveId``); the
  ``/referee`` route resolves them (decision 9): the first callback before the deadline is
  the answer, the rest get 404.
- :class:`EngineCaller` sends a request without ever blocking on it (decision 6): the
  engine's answer is ignored, redirects are followed (5 hops, http/https only) and a
  redirect to the Referee URL is taken as the callback (decision 7). Headers are capped at
  16 KiB by the HTTP parser; the body is read only in tester mode, at most 64 KiB.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import ipaddress
import time
import urllib.parse
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

__all__ = [
    "MAX_BODY",
    "MAX_CALLBACK_QUERY",
    "Callback",
    "Callbacks",
    "EngineCaller",
    "Note",
    "Outcome",
    "check_engine_url",
    "engine_url",
    "note",
    "read_callback",
]

#: One entry of an exchange log: (kind, detail, when it happened, UTC).
Note = tuple[str, str, dt.datetime]


def note(kind: str, detail: str) -> Note:
    """Return a log entry stamped now."""
    return (kind, detail, dt.datetime.now(dt.UTC))


MAX_BODY = 64 * 1024
MAX_CALLBACK_QUERY = 8 * 1024
MAX_REDIRECTS = 5
FINAL_CUT = 10.0
#: How often a driver looks in the store for an answer another worker recorded (seconds).
POLL_EVERY = 1.0
_SAFE = "-._~:/?*"


def engine_url(url: str, params: Mapping[str, str]) -> str:
    """Return ``url`` with ``params`` appended in order (``&`` when it has a query)."""
    query = "&".join(
        f"{name}={urllib.parse.quote(value, safe=_SAFE)}" for name, value in params.items()
    )
    return f"{url}{'&' if '?' in url else '?'}{query}"


def check_engine_url(url: str, allowed_hosts: frozenset[str] | None = None) -> str:
    """Return ``url`` stripped when it is an absolute http(s) URL an engine may have.

    Raises ``ValueError`` for another scheme, no host, a user or password in it (decision
    13), or a host outside ``allowed_hosts`` when that list is given.
    """
    url = url.strip()
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError as broken:
        raise ValueError(f"not a URL: {broken}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("an engine URL is http:// or https:// with a host")
    if parts.username or parts.password:
        raise ValueError("an engine URL carries no user or password")
    if len(url) > 2000:
        raise ValueError("an engine URL is at most 2000 characters")
    if allowed_hosts is not None and parts.hostname.lower() not in allowed_hosts:
        raise ValueError(f"engines on {parts.hostname} are not allowed on this server")
    del port
    return url


def read_callback(query: bytes) -> dict[str, str]:
    """Read a callback's query: names case-insensitive (lower-cased), first occurrence wins,
    ``%``-escapes and ``+`` decoded (decision 5). Raises ``ValueError`` past 8 KiB."""
    if len(query) > MAX_CALLBACK_QUERY:
        raise ValueError("callback query over 8 KiB")
    found: dict[str, str] = {}
    for name, value in urllib.parse.parse_qsl(
        query.decode("latin-1"), keep_blank_values=True, encoding="utf-8", errors="replace"
    ):
        found.setdefault(name.lower(), value)
    return found


@dataclass(frozen=True)
class Callback:
    """A callback taken as the answer: its ``Value`` (trimmed, upper-cased), raw query, and
    the monotonic time it arrived."""

    value: str
    query: str
    at: float
    redirect: bool = False
    received: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))


@dataclass
class _Pending:
    future: asyncio.Future[Callback]
    game_id: str
    seat: int


class Callbacks:
    """The outstanding requests driven by this process, by (seat ``Game`` id, ``MoveId``).

    Which callback is the answer is decided by the store when one is given (``record``,
    shared by the workers: the first in time wins, whichever worker received it); this
    class then only wakes the driver. Requests answered or given up are remembered a while
    (the last 10,000), so that a duplicate or late callback is logged against its game
    rather than as unknown.
    """

    RECENT = 10_000

    def __init__(self) -> None:
        self._pending: dict[tuple[str, str], _Pending] = {}
        self._recent: OrderedDict[tuple[str, str], tuple[str, int]] = OrderedDict()
        #: Called with (game id, seat index, kind, MoveId, detail) for each refused callback.
        self.on_refused: Callable[[str, int, str, str, str], Awaitable[None]] | None = None
        #: Records a callback in the store: (key, MoveId, value, query, redirect) -> ("taken"
        #: | "duplicate" | "late" | "unknown", game id or None, seat or None).
        self.record: (
            Callable[[str, str, str, str, bool], Awaitable[tuple[str, str | None, int | None]]]
            | None
        ) = None
        #: Tells the other workers that (key, MoveId) was answered here.
        self.relay: Callable[[str, str], Awaitable[None]] | None = None

    def expect(self, key: str, move_id: str, game_id: str, seat: int) -> asyncio.Future[Callback]:
        """Register an outstanding request; return the future its callback resolves."""
        future: asyncio.Future[Callback] = asyncio.get_running_loop().create_future()
        self._pending[(key, move_id)] = _Pending(future, game_id, seat)
        return future

    def forget(self, key: str, move_id: str) -> None:
        """Drop an outstanding request (answered, timed out or the game ended)."""
        pending = self._pending.pop((key, move_id), None)
        if pending is not None:
            self._recent[(key, move_id)] = (pending.game_id, pending.seat)
            while len(self._recent) > self.RECENT:
                self._recent.popitem(last=False)

    def waiting(self, key: str, move_id: str) -> bool:
        """Whether this process waits for (``key``, ``move_id``)'s callback."""
        pending = self._pending.get((key, move_id))
        return pending is not None and not pending.future.done()

    def resolve(self, key: str, move_id: str, callback: Callback) -> bool:
        """Wake the driver of (``key``, ``move_id``) with ``callback``, if it is here."""
        pending = self._pending.get((key, move_id))
        if pending is None or pending.future.done():
            return False
        pending.future.set_result(callback)
        return True

    async def receive(
        self, params: Mapping[str, str], query: str, *, redirect: bool = False
    ) -> bool:
        """Take a callback; return whether it answered an outstanding request (200)."""
        key = params.get("game", "").strip()
        move_id = params.get("moveid", "").strip()
        value = params.get("value", "").strip().upper()
        pending = self._pending.get((key, move_id))
        if self.record is not None:
            kind, game_id, seat = await self.record(key, move_id, value, query, redirect)
            if kind == "taken":
                here = self.resolve(
                    key, move_id, Callback(value, query, time.monotonic(), redirect)
                )
                if not here and self.relay is not None:
                    await self.relay(key, move_id)
                return True
            if game_id is None:
                known = (
                    (pending.game_id, pending.seat) if pending else self._recent.get((key, move_id))
                )
                game_id, seat = known if known is not None else (None, None)
            if game_id is not None and seat is not None and self.on_refused is not None:
                await self.on_refused(game_id, seat, kind, move_id, query)
            return False
        if pending is None or pending.future.done():
            known = (pending.game_id, pending.seat) if pending else self._recent.get((key, move_id))
            if known is not None and self.on_refused is not None:
                kind = "duplicate" if pending is not None else "late"
                await self.on_refused(known[0], known[1], kind, move_id, query)
            return False
        pending.future.set_result(Callback(value, query, time.monotonic(), redirect))
        return True


@dataclass(frozen=True)
class Outcome:
    """What became of one request: the callback, or why there is none.

    ``error``: ``""`` when answered; ``"late"`` (no callback by the deadline),
    ``"unreachable"`` (no connection: decision 12). ``answer``: the engine's own HTTP
    answer (``"200"``, ``"error: ..."``), for the log.
    """

    callback: Callback | None
    error: str = ""
    detail: str = ""
    ms: int = 0
    log: list[Note] = field(default_factory=list)


class EngineCaller:
    """Sends engine requests with one shared asynchronous HTTP client."""

    def __init__(
        self,
        callbacks: Callbacks,
        referee_url: str,
        transport: httpx.AsyncBaseTransport | None = None,
        allowed_hosts: frozenset[str] | None = None,
    ) -> None:
        self.callbacks = callbacks
        self.allowed_hosts = allowed_hosts
        self.referee_url = referee_url
        self._referee = urllib.parse.urlsplit(referee_url)
        self.client = httpx.AsyncClient(
            follow_redirects=False,
            limits=httpx.Limits(max_connections=1000, max_keepalive_connections=0),
            headers={"Connection": "close", "User-Agent": "Tournoyons-Arbitre"},
            transport=transport,
            trust_env=False,
        )
        self._tasks: set[asyncio.Task[str]] = set()

    async def close(self) -> None:
        """Cancel the requests still open and close the client."""
        for task in list(self._tasks):
            task.cancel()
        await self.client.aclose()

    def _done(self, task: asyncio.Task[str]) -> None:
        self._tasks.discard(task)
        _quiet(task)

    def _is_referee(self, url: str) -> bool:
        parts = urllib.parse.urlsplit(url)
        ref = self._referee
        return (
            parts.hostname == ref.hostname
            and (parts.port or _port(parts.scheme)) == (ref.port or _port(ref.scheme))
            and parts.path.rstrip("/") == ref.path.rstrip("/")
        )

    async def ask(
        self,
        url: str,
        key: str,
        move_id: str,
        game_id: str,
        seat: int,
        timeout: float,
        poll: Callable[[], Awaitable[Callback | None]] | None = None,
    ) -> Outcome:
        """Request ``url`` (already carrying its parameters) and wait for the callback
        naming (``key``, ``move_id``) for at most ``timeout`` seconds. ``poll``, when given,
        is asked every second for an answer another worker recorded (a missed message)."""
        started = time.monotonic()
        future = self.callbacks.expect(key, move_id, game_id, seat)
        log: list[Note] = []
        call = asyncio.create_task(self._send(url, timeout + 5, log, key, move_id))
        try:
            waiting: set[asyncio.Future[Any]] = {future, call}
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
                        return Outcome(None, "unreachable", unreachable, _ms(started), log)
                if not future.done() and poll is not None and not done:
                    found = await poll()
                    if found is not None and not future.done():
                        future.set_result(found)
            if not future.done() and poll is not None:
                # The store has the last word: a callback it took in time is the answer,
                # however late its news reached this worker.
                found = await poll()
                if found is not None and not future.done():
                    future.set_result(found)
            if future.done():
                callback = future.result()
                ms = max(0, int((callback.at - started) * 1000))
                return Outcome(callback, "", "", ms, log)
            return Outcome(None, "late", f"no callback within {timeout:g} s", _ms(started), log)
        finally:
            self.callbacks.forget(key, move_id)
            if not future.done():
                future.cancel()
            # The engine's own answer is left to finish or be cut at TimeOut + 5 s.
            self._tasks.add(call)
            call.add_done_callback(self._done)

    async def _send(self, url: str, cut: float, log: list[Note], key: str, move_id: str) -> str:
        """Send the request, follow redirects; return an error if no connection was made."""
        try:
            async with asyncio.timeout(cut):
                for hop in range(MAX_REDIRECTS + 1):
                    try:
                        async with self.client.stream("GET", url) as answer:
                            log.append(note("answer", f"{answer.status_code} {url[:300]}"))
                            location = answer.headers.get("location")
                            if answer.status_code not in (301, 302, 303, 307, 308) or not location:
                                return ""
                    except (
                        httpx.ConnectError,
                        httpx.ConnectTimeout,
                        httpx.UnsupportedProtocol,
                        httpx.InvalidURL,
                    ) as refused:
                        if hop == 0:
                            return f"unreachable: {type(refused).__name__}: {refused}"[:500]
                        log.append(note("error", f"redirect target unreachable: {refused}"[:500]))
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
                            params = read_callback(query.encode("latin-1", "replace"))
                        except ValueError:
                            return ""
                        await self.callbacks.receive(params, query, redirect=True)
                        return ""
                    log.append(note("redirect", url[:500]))
                log.append(note("error", f"more than {MAX_REDIRECTS} redirects"))
        except TimeoutError:
            log.append(note("error", "no answer within TimeOut + 5 s"))
        except httpx.HTTPError as broken:  # a malformed answer is not a failure by itself
            log.append(note("error", f"{type(broken).__name__}: {broken}"[:500]))
        return ""

    async def tester(self, url: str, timeout: float) -> tuple[int | None, bytes, str]:
        """Tester mode (section 5): return the HTTP status, at most 64 KiB of body, an error."""
        try:
            async with (
                asyncio.timeout(timeout),
                self.client.stream("GET", url, follow_redirects=True) as answer,
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

    async def final(self, url: str) -> str:
        """Send a final call (decision 10): cut at 10 s, its answer and failure ignored."""
        try:
            async with asyncio.timeout(FINAL_CUT), self.client.stream("GET", url) as answer:
                return str(answer.status_code)
        except (TimeoutError, httpx.HTTPError) as broken:
            return f"{type(broken).__name__}"


def host_allowed(url: str, allowed_hosts: frozenset[str] | None) -> bool:
    """Whether ``url``'s host is one of ``allowed_hosts`` (``None``: any host): redirects
    are held to the same list as the URLs given (decision 13)."""
    if allowed_hosts is None:
        return True
    host = urllib.parse.urlsplit(url).hostname
    return host is not None and host.lower() in allowed_hosts


def _port(scheme: str) -> int:
    return 443 if scheme == "https" else 80


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


def _quiet(task: asyncio.Task[str]) -> None:
    if not task.cancelled():
        task.exception()


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
