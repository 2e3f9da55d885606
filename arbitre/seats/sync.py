"""Synchronous engines as seats (manual VIII; the manual's own tester form): a ``sync``
engine is sent the engine request with an empty ``Referee`` and answers the Value in its
body, within ``TimeOut``; no callback. :func:`exchange` is the one bounded synchronous
HTTP exchange these kinds share (the ``service`` kind, :mod:`.service`, too).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from tournoyons_gui.arbitre.answer import MALFORMED, Answer, Note, note
from tournoyons_gui.arbitre.seats.base import Position
from tournoyons_gui.arbitre.seats.engine import EngineSeat, call_params
from tournoyons_gui.arbitre.signing import sign_url
from tournoyons_gui.arbitre.urls import MAX_BODY, engine_url

if TYPE_CHECKING:
    import httpx

__all__ = ["SyncSeat", "exchange"]


async def exchange(
    client: httpx.AsyncClient,
    method: str,
    url: str,
    timeout: float,
    log: list[Note],
    **request: object,
) -> tuple[int, bytes] | Answer:
    """Send one request through the Arbitre's ``client`` (its outbound policy, no
    redirect followed) and return its status and at most 64 KiB of body within
    ``timeout`` seconds; or a failed :class:`Answer`: ``late`` (no whole answer in time),
    ``unreachable`` (no connection, decision 12), ``malformed`` (a broken answer, or one
    over 64 KiB). Every
    step goes to ``log``."""
    import httpx

    started = time.monotonic()

    def failed(error: str, detail: str) -> Answer:
        log.append(note("error", f"{error}: {detail}"[:500]))
        return Answer.failure(error, detail, int((time.monotonic() - started) * 1000), log)

    try:
        async with (
            asyncio.timeout(timeout),
            client.stream(method, url, timeout=httpx.Timeout(timeout), **request) as answer,  # type: ignore[arg-type]
        ):
            body = b""
            async for chunk in answer.aiter_bytes():
                body += chunk
                if len(body) > MAX_BODY:
                    return failed(MALFORMED, f"an answer over {MAX_BODY} bytes")
            log.append(
                note("answer", f"{answer.status_code} {body[:300].decode('utf-8', 'replace')}")
            )
            return answer.status_code, body
    except (TimeoutError, httpx.TimeoutException):
        return failed("late", f"no answer within {timeout:g} s")
    except (httpx.ConnectError, httpx.UnsupportedProtocol, httpx.InvalidURL) as refused:
        return failed("unreachable", f"{type(refused).__name__}: {refused}"[:300])
    except httpx.HTTPError as broken:
        return failed(MALFORMED, f"a broken answer: {type(broken).__name__}")


class SyncSeat(EngineSeat):
    """An engine that answers its Value in the body of the request's answer (an empty
    ``Referee``, section 5's tester mode), within ``TimeOut`` (manual VIII). Its calls are
    signed like an engine's when its registration has a key; its final call is an
    engine's."""

    name = "sync"
    label = "sync"
    title = "Engine URL answering in its body"

    async def ask(self, position: Position, deadline: float | None) -> Answer:
        """Send the request with an empty ``Referee``; read the Value from the body's
        first line (a status other than 200, or no Value, is malformed)."""
        timeout = self.seconds_left(deadline, position.options)
        request = position.rules.request(
            position.turn.state, position.player, init_as_board=position.options.init_as_board
        )
        params = call_params(position, request.params, move_id=str(request.move_id), referee="")
        url = sign_url(engine_url(self.url(position), params), await self.call_key(position.seat))
        log: list[Note] = [note("request", url)]
        started = time.monotonic()
        got = await exchange(self.services.client, "GET", url, timeout, log)
        if isinstance(got, Answer):
            return got
        status, body = got
        ms = int((time.monotonic() - started) * 1000)
        text = body.decode("utf-8", "replace").strip()
        value = text.splitlines()[0].strip() if text else ""
        if status != 200 or not value:
            detail = f"HTTP {status}" if status != 200 else "no Value in the answer's body"
            log.append(note("error", detail))
            return Answer.failure(MALFORMED, detail, ms, log)
        return Answer(value, ms=ms, log=log)
