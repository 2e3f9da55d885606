"""botsarena's JSON bots as seats, and our built-in engines as botsarena bots (seed 003;
engine protocol section 4, ConnectFour).

A bot is called by HTTP ``POST`` with a JSON body: once ``{"game-id", "action": "init",
"game", "players": 2, "board": "", "player-index"}`` (its answer is read only for its
``name``), then for each of its moves ``{"game-id", "action": "play-turn", "game",
"players": 2, "board", "you": "X"|"O", "player-index"}``; it answers in the HTTP response
``{"play": <column>}``. What the Set's board and moves look like comes from the Set's
:class:`~tournoyons_gui.interfaces.plugin.Botsarena`; this module knows no game.

A bot that does not answer within its limit (10 s by default, botsarena's own), answers an
HTTP status other than 200, a body that is not a JSON object with ``play``, or more than
64 KiB, loses; the reason is recorded.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Mapping
from typing import Any

from tournoyons_gui.arbitre.answer import MALFORMED, Answer, Note, note
from tournoyons_gui.arbitre.client import BrokenAnswer, Calls, Unreachable
from tournoyons_gui.arbitre.urls import MAX_BODY
from tournoyons_gui.interfaces.plugin import Botsarena, Engine, IllegalMove
from tournoyons_gui.interfaces.protocol import Player

__all__ = ["BotCaller", "answer_message"]

_MARKS = {Player.ONE: "X", Player.TWO: "O"}


class BotCaller:
    """Calls botsarena bots with the move path's client over kept connections
    (:class:`~tournoyons_gui.arbitre.client.Calls`)."""

    def __init__(self, client: Calls) -> None:
        self.client = client

    async def _post(
        self, url: str, message: Mapping[str, Any], timeout: float, log: list[Note]
    ) -> tuple[int, bytes]:
        body = json.dumps(message, separators=(",", ":"))
        log.append(note("request", f"POST {url[:300]} {body}"[:8192]))
        async with asyncio.timeout(timeout):
            answer = await self.client.post(url, body.encode(), read=MAX_BODY + 1)
        text = answer.body[:2000].decode("utf-8", "replace")
        log.append(note("answer", f"{answer.status} {text}"))
        return answer.status, answer.body

    async def ask(
        self,
        url: str,
        bots: Botsarena,
        params: Mapping[str, str],
        key: str,
        player: Player,
        timeout: float,
        *,
        init: bool,
    ) -> Answer:
        """Ask the bot at ``url`` for ``player``'s move in the position of the engine
        request ``params``, sending ``init`` first when ``init`` (the seat has no move
        recorded in the game yet: told by the records, so that a game taken over by
        another worker or resumed after a restart does not greet the bot again); ``key``
        is the seat's secret game id, sent as ``game-id``."""
        log: list[Note] = []
        started = time.monotonic()
        common = {"game-id": key, "game": bots.game, "players": 2}
        index = int(player) - 1
        if init:
            greeting = {**common, "action": "init", "board": "", "player-index": index}
            try:
                await self._post(url, greeting, timeout, log)
            except (TimeoutError, Unreachable, BrokenAnswer) as failed:
                log.append(note("error", f"init: {type(failed).__name__}"))
        message = {
            "game-id": key,
            "action": "play-turn",
            "game": bots.game,
            "players": 2,
            "board": bots.board(params),
            "you": _MARKS[player],
            "player-index": index,
        }
        started = time.monotonic()
        try:
            status, body = await self._post(url, message, timeout, log)
        except TimeoutError:
            return self._fail("late", f"no answer within {timeout:g} s", started, log)
        except Unreachable as refused:
            return self._fail("unreachable", str(refused).partition(":")[0], started, log)
        except BrokenAnswer as broken:
            return self._fail(MALFORMED, f"a broken answer: {broken}"[:300], started, log)
        if status != 200:
            return self._fail(MALFORMED, f"the bot answered HTTP {status}", started, log)
        if len(body) > MAX_BODY:
            return self._fail(MALFORMED, "the bot's answer is over 64 KiB", started, log)
        try:
            decoded = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return self._fail(MALFORMED, "the bot's answer is not JSON", started, log)
        if not isinstance(decoded, dict) or "play" not in decoded:
            return self._fail(MALFORMED, 'the bot\'s answer has no "play"', started, log)
        try:
            value = bots.value(decoded["play"])
        except IllegalMove as illegal:
            return self._fail("illegal", f"illegal play: {illegal}", started, log)
        return Answer(value, ms=int((time.monotonic() - started) * 1000), log=log)

    @staticmethod
    def _fail(error: str, detail: str, started: float, log: list[Note]) -> Answer:
        log.append(note("error", f"{error}: {detail}"))
        return Answer.failure(error, detail, int((time.monotonic() - started) * 1000), log)


def answer_message(bots: Botsarena, engine: Engine, name: str, message: object) -> dict[str, Any]:
    """Answer a botsarena message with one of our built-in engines (the other way: our
    engines entered in a botsarena-style arena): ``init`` -> ``{"name": name}``,
    ``play-turn`` -> ``{"play": <column>}``. Raises :class:`IllegalMove` for a message that
    is not one of those two, or a position the Set cannot read."""
    if not isinstance(message, dict):
        raise IllegalMove("a botsarena message is a JSON object")
    action = message.get("action")
    if action == "init":
        return {"name": name}
    if action != "play-turn":
        raise IllegalMove(f'unknown action {str(action)[:40]!r} (not "init" or "play-turn")')
    params = bots.request(message)
    return {"play": bots.play(engine(params))}
