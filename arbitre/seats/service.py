"""Engines behind a school's wall as seats (manual VIII): a ``service`` engine is a web
service, in a DMZ say, that the Arbitre ``POST``s the whole context to as one JSON object
(the engine request's parameters, section 2.1, ``Referee`` aside, and ``Key``: the key
given at registration, renewable by its owner's edit token) and that answers
synchronously, within ``TimeOut``, with ``{"Value": "..."}``.
"""

from __future__ import annotations

import json
import time

from tournoyons_gui.arbitre.answer import MALFORMED, Answer, Note, note
from tournoyons_gui.arbitre.seats.base import Position
from tournoyons_gui.arbitre.seats.engine import EngineSeat, call_params
from tournoyons_gui.arbitre.seats.sync import exchange

__all__ = ["ServiceSeat"]


class ServiceSeat(EngineSeat):
    """A web service answering each move in JSON (see the module). No final call: a
    service is asked, never told."""

    name = "service"
    label = "service"
    title = "Service engine URL (JSON, manual VIII)"

    async def ask(self, position: Position, deadline: float | None) -> Answer:
        """``POST`` the context and the key as JSON; read ``Value`` from the JSON answer
        (another status, no JSON object or no string ``Value`` is malformed)."""
        timeout = self.seconds_left(deadline, position.options)
        request = position.rules.request(
            position.turn.state, position.player, init_as_board=position.options.init_as_board
        )
        params = call_params(position, request.params, move_id=str(request.move_id), referee="")
        params.pop("Referee", None)
        key = await self.call_key(position.seat)
        body = json.dumps({**params, "Key": key}, separators=(",", ":"))
        url = self.url(position)
        shown = json.dumps({**params, "Key": "<key>" if key else ""}, separators=(",", ":"))
        log: list[Note] = [note("request", f"POST {url[:300]} {shown}"[:8192])]
        started = time.monotonic()
        got = await exchange(
            self.services.client,
            "POST",
            url,
            timeout,
            log,
            content=body,
            headers={"Content-Type": "application/json"},
        )
        if isinstance(got, Answer):
            return got
        status, data = got
        ms = int((time.monotonic() - started) * 1000)
        try:
            answer = json.loads(data)
        except (ValueError, RecursionError):
            answer = None
        value = answer.get("Value") if isinstance(answer, dict) else None
        if status != 200 or not isinstance(value, str | int) or isinstance(value, bool):
            detail = f"HTTP {status}" if status != 200 else 'no {"Value": ...} in the answer'
            log.append(note("error", detail))
            return Answer.failure(MALFORMED, detail, ms, log)
        return Answer(str(value).strip(), ms=ms, log=log)

    def final_call(self, position: Position, status: int) -> str | None:
        """A service gets no final call."""
        del position, status
        return None
