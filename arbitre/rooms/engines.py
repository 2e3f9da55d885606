"""The engines a timi room's player plays with (``tournoyons-gui room-player --engine``):
one of our built-in engines, a Tournoyons engine at its URL, or a botsarena bot at its
URL, each asked for a ConnectFour move as the Arbitre would ask it.

The position is the engine protocol's request (``Turn``, the opponent's last ``Move1`` /
``Move2``, the ``Tray``) made by the Set's own rules from the moves heard in the room
(:class:`Ask`), so an engine sees in a room exactly what it sees in our games:

- ``builtin:NAME``: ``interface.engines[NAME](params)``, in process (in a thread, so that
  the chat is heard meanwhile);
- a Tournoyons engine URL: a call in **tester mode** (engine protocol section 5: an empty
  ``Referee``, the value in the answer's body), as no callback could reach a player behind
  a chat client; every parameter of section 2.1 is sent, in its order;
- ``botsarena:URL``: botsarena's JSON ``init`` then ``play-turn`` (seed 003) through
  :class:`~tournoyons_gui.arbitre.botsarena.BotCaller`.

Every call goes through the Arbitre's HTTP client
(:func:`~tournoyons_gui.arbitre.calls.engine_client`) and its URL checks
(:func:`~tournoyons_gui.arbitre.urls.check_engine_url`). An engine's failure (late,
unreachable, an illegal or broken answer) is an :class:`Answer` failure, never an
exception.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import httpx

from tournoyons_gui.arbitre.answer import MALFORMED, Answer
from tournoyons_gui.arbitre.botsarena import BotCaller
from tournoyons_gui.arbitre.calls import tester_call
from tournoyons_gui.arbitre.client import Calls
from tournoyons_gui.arbitre.urls import check_engine_url, engine_url
from tournoyons_gui.interfaces.plugin import ArbitreRules, IllegalMove, SetInterface
from tournoyons_gui.interfaces.protocol import Player

__all__ = ["Ask", "BotEngine", "BuiltinEngine", "RoomEngine", "UrlEngine", "room_engine"]


@dataclass(frozen=True)
class Ask:
    """One move asked of a room player's engine: the game's ``key`` (our own id of the
    room's game, sent as ``Game``), the rules' ``state`` rebuilt from the room's moves,
    the ``player`` (``Player.ONE``: the first named by the referee), the ``seconds`` the
    engine has, and whether it is the seat's ``first`` ask of the game (a bot's ``init``)."""

    key: str
    state: Mapping[str, Any]
    player: Player
    seconds: float
    first: bool


class RoomEngine(Protocol):
    """An engine a room player asks for its moves."""

    @property
    def name(self) -> str:
        """Return what the engine is called in messages (``builtin:strong``, a URL)."""
        ...

    async def play(self, rules: ArbitreRules, ask: Ask) -> Answer:
        """Return the engine's answer for ``ask`` (its ``value`` a column letter
        ``A``..``G`` the rules take), or a failure; never raises for what the engine does."""
        ...


def _checked(rules: ArbitreRules, ask: Ask, value: str, started: float) -> Answer:
    """Return ``value`` as the rules' column, or the failure saying why it is not one."""
    ms = int((time.monotonic() - started) * 1000)
    try:
        return Answer(rules.engine_value(ask.state, ask.player, value.strip().upper()), ms=ms)
    except IllegalMove as illegal:
        return Answer.failure("illegal", f"illegal value {value[:40]!r}: {illegal}", ms)


@dataclass(frozen=True)
class BuiltinEngine:
    """One of our built-in engines of ``interface``, called in process."""

    interface: SetInterface
    engine: str

    @property
    def name(self) -> str:
        """Return ``builtin:NAME``."""
        return f"builtin:{self.engine}"

    async def play(self, rules: ArbitreRules, ask: Ask) -> Answer:
        """Run the engine on the request's parameters, in a thread, within the seconds."""
        started = time.monotonic()
        params = rules.request(ask.state, ask.player).params
        call = self.interface.engines[self.engine]
        try:
            async with asyncio.timeout(ask.seconds):
                value = await asyncio.to_thread(call, params)
        except TimeoutError:
            return Answer.failure("late", f"no answer within {ask.seconds:g} s")
        except Exception as broken:  # an engine's bug is its loss, not the player's crash
            return Answer.failure("illegal", f"{type(broken).__name__}: {broken}"[:300])
        return _checked(rules, ask, value, started)


@dataclass(frozen=True)
class UrlEngine:
    """A Tournoyons engine at ``url``, called in tester mode with ``client``."""

    client: httpx.AsyncClient
    url: str

    @property
    def name(self) -> str:
        """Return the engine's URL."""
        return self.url

    async def play(self, rules: ArbitreRules, ask: Ask) -> Answer:
        """Call the engine with section 2.1's parameters and an empty ``Referee``; read the
        value in the body (section 5)."""
        started = time.monotonic()
        request = rules.request(ask.state, ask.player)
        params = {
            "Set": rules.engine_set,
            "Game": ask.key,
            "MoveId": str(request.move_id),
            "Turn": request.params.get("Turn", str(request.move_id)),
            "Status": "0",
            "TimeOut": str(max(1, int(ask.seconds))),
            **{k: v for k, v in request.params.items() if k != "Turn"},
            "Referee": "",
        }
        status, body, error = await tester_call(
            self.client, engine_url(self.url, params), ask.seconds
        )
        if status is None:
            late = error.startswith("no answer")
            return Answer.failure("late" if late else "unreachable", error)
        if status != 200:
            return Answer.failure(MALFORMED, f"the engine answered HTTP {status}")
        return _checked(rules, ask, body.decode("utf-8", "replace"), started)


@dataclass(frozen=True)
class BotEngine:
    """A botsarena bot at ``url`` of ``interface`` (which says how bots see its board),
    posted to on a new connection per move (a room's pace is a person's; ``client`` is
    the room player's, kept for its tester-mode calls)."""

    client: httpx.AsyncClient
    interface: SetInterface
    url: str

    @property
    def name(self) -> str:
        """Return ``botsarena:URL``."""
        return f"botsarena:{self.url}"

    async def play(self, rules: ArbitreRules, ask: Ask) -> Answer:
        """Post ``init`` (the first ask of the game) then ``play-turn``; read ``play``."""
        bots = self.interface.botsarena
        assert bots is not None  # room_engine made it only for a Set with bots
        started = time.monotonic()
        params = rules.request(ask.state, ask.player).params
        calls = Calls(None, keepalive=False)
        try:
            answer = await BotCaller(calls).ask(
                self.url, bots, params, ask.key, ask.player, ask.seconds, init=ask.first
            )
        finally:
            await calls.close()
        if answer.value is None:
            return answer
        return _checked(rules, ask, answer.value, started)


def room_engine(
    spec: str,
    interface: SetInterface,
    client: httpx.AsyncClient,
    allowed_hosts: frozenset[str] | None = None,
) -> RoomEngine:
    """Return the engine ``spec`` names: ``builtin:NAME`` (one of ``interface``'s), a
    Tournoyons engine's http(s) URL, or ``botsarena:URL``; the URLs checked as the
    Arbitre checks an engine's (decision 13, ``allowed_hosts``). Raise ``ValueError``
    with the reason for anything else."""
    if spec.startswith("builtin:"):
        name = spec.removeprefix("builtin:")
        if name not in interface.engines:
            known = ", ".join(interface.engines) or "none"
            raise ValueError(f"{interface.name} has no built-in engine {name!r} ({known})")
        return BuiltinEngine(interface, name)
    if spec.startswith("botsarena:"):
        if interface.botsarena is None:
            raise ValueError(f"{interface.name} has no botsarena bots")
        url = check_engine_url(spec.removeprefix("botsarena:"), allowed_hosts)
        return BotEngine(client, interface, url)
    return UrlEngine(client, check_engine_url(spec, allowed_hosts))
