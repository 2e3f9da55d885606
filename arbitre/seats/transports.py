"""How a Tournoyons engine seat reaches its engine: a transport, one class each, behind the
same seat (:class:`~tournoyons_gui.arbitre.seats.engine.EngineSeat`) as cutechess keeps an
engine's process apart from the engine's protocol. The game master never knows which one
a seat talks to; each gets the request's parameters in the protocol's order and returns
an :class:`~tournoyons_gui.arbitre.answer.Answer` with the log's entries:

- :class:`HttpTransport`: the engine at its URL over HTTP (engine protocol sections 1-3):
  the request on a new connection, ``Referee`` last, the callback awaited;
- :class:`ProcessTransport`: a program on this machine over its standard input and output
  (section 8, :mod:`~tournoyons_gui.arbitre.processes`): the same query as one line,
  ``Referee`` empty, the Value as the line back.

Each also writes its final call (decision 10), sends it, and releases what a seat held
when its game ends.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from tournoyons_gui.arbitre.answer import Answer, note
from tournoyons_gui.arbitre.processes import PREFIX, command_of, is_command
from tournoyons_gui.arbitre.seats.base import Position, Services
from tournoyons_gui.arbitre.signing import sign_url
from tournoyons_gui.arbitre.store import Seat
from tournoyons_gui.arbitre.urls import engine_url
from tournoyons_gui.interfaces.plugin import seat_count

__all__ = [
    "CallParams",
    "HttpTransport",
    "ProcessTransport",
    "Transport",
    "call_params",
    "transport_for",
]

#: What marks where a final call's query starts in its record (``Set`` is always first).
_QUERY_START = "?Set="


def call_params(
    position: Position,
    game_params: Mapping[str, str],
    *,
    move_id: str | None,
    referee: str,
    status: int = 0,
) -> dict[str, str]:
    """Return a call's parameters in the order of section 2.1: ``Set``, ``Game``,
    ``MoveId``, ``Turn``, ``Status``, ``TimeOut``, ``Level`` (Sets of several levels),
    ``Opponent`` (its opponent's registration in a competition match: a tournament's
    game or a ladder game, decision 27),
    ``Seat`` and ``Players`` (games of more than two seats, tarot.md T-decision 4), the
    Set's own parameters, ``Referee`` last (in-progress calls: ``move_id`` given). A final
    call (no ``move_id``) of a game of more than two seats carries the seat's ``Rank``
    (1..N, ``position.seat.rank``) beside ``Status`` (tarot.md T-decision 5)."""
    rules, seat, options = position.rules, position.seat, position.options
    params = {"Set": rules.engine_set, "Game": seat.key}
    if move_id is not None:
        params["MoveId"] = move_id
    if "Turn" in game_params:
        params["Turn"] = game_params["Turn"]
    params["Status"] = str(status)
    seats = seat_count(rules)
    if move_id is None and seats > 2 and seat.rank is not None:
        params["Rank"] = str(seat.rank)
    params["TimeOut"] = str(options.timeout)
    if len(rules.levels) > 1:
        params["Level"] = str(options.level)
    others = [s for s in position.seats if s.index != seat.index]
    competition = position.game.tournament_id is not None or position.game.ladder
    if competition and len(others) == 1 and others[0].registration:
        params["Opponent"] = others[0].registration
    if seats > 2:
        params["Seat"] = str(seat.index + 1)
        params["Players"] = str(seats)
    params.update({k: v for k, v in game_params.items() if k != "Turn"})
    if move_id is not None:
        params["Referee"] = referee
    return params


@dataclass(frozen=True)
class CallParams:
    """A move request before its transport writes it: the ``position`` asked, the rules'
    parameters for it (``game_params``) and its ``move_id``."""

    position: Position
    game_params: Mapping[str, str]
    move_id: str

    def written(self, referee: str) -> dict[str, str]:
        """Return the request's parameters in the protocol's order with ``referee`` as its
        ``Referee`` (``""``: none to call back, the answer is the Value itself)."""
        return call_params(self.position, self.game_params, move_id=self.move_id, referee=referee)


class Transport(Protocol):
    """A way to an engine: asks it, writes and sends its final call, releases a seat."""

    async def ask(self, position: Position, url: str, params: CallParams, timeout: float) -> Answer:
        """Return the answer of the engine at ``url`` to the request for ``position``
        (``params`` writes its parameters given the Referee URL) within ``timeout``
        seconds."""
        ...

    def final_call(self, position: Position, url: str, params: Mapping[str, str]) -> str:
        """Return the final call to ``url`` as recorded and later sent (:meth:`send_final`)."""
        ...

    async def send_final(self, call: str) -> str:
        """Send the final call ``call``; return what is logged of its answer."""
        ...

    async def ended(self, seat: Seat) -> None:
        """Release what ``seat`` held once its game ended."""
        ...


class HttpTransport:
    """The engine at its URL (``seat.url``) over HTTP; a registered engine with a key has
    its calls signed (manual VII), the key read by ``call_key``."""

    def __init__(
        self,
        services: Services,
        call_key: Callable[[Seat], Awaitable[str]],
        keys: Mapping[tuple[str, str], str],
    ) -> None:
        self.services = services
        self.call_key = call_key
        self.keys = keys

    async def ask(self, position: Position, url: str, params: CallParams, timeout: float) -> Answer:
        """Send the request and wait for the callback; a game taken over by this worker
        applies an answer recorded before it took the game, and asks nothing."""
        seat, game = position.seat, position.game
        services = self.services
        move_id = params.move_id
        received = await services.asks.open(
            seat.key, move_id, game.id, seat.index, timeout, stored=services.asks.shared
        )
        if received is not None:
            return Answer(
                received.value,
                query=received.query,
                log=[("callback", received.query, received.received)],
            )
        request = engine_url(url, params.written(services.referee_url))
        return await services.caller.ask(
            sign_url(request, await self.call_key(seat)),
            seat.key,
            move_id,
            game.id,
            seat.index,
            timeout,
        )

    def final_call(self, position: Position, url: str, params: Mapping[str, str]) -> str:
        """Return the final call's URL, signed with the key its requests were signed with."""
        seat = position.seat
        key = self.keys.get((seat.registration, seat.game_id), "")
        return sign_url(engine_url(url, params), key)

    async def send_final(self, call: str) -> str:
        """Send it: cut at 10 s, its answer ignored (decision 10); the HTTP status."""
        return await self.services.caller.final(call)

    async def ended(self, seat: Seat) -> None:
        """Nothing: a call holds nothing past its answer."""


class ProcessTransport:
    """A program on this machine (``seat.url`` is ``cmd:COMMAND``) over its standard input
    and output, one line each way (:class:`~tournoyons_gui.arbitre.processes.
    ProcessEngines`)."""

    def __init__(self, services: Services) -> None:
        self.services = services

    async def ask(self, position: Position, url: str, params: CallParams, timeout: float) -> Answer:
        """Write the request's query as a line, ``Referee`` empty, and read the Value from
        the line back within ``timeout`` seconds of the write; its time is the engine's
        thinking time. The log reads as an HTTP engine's: the request (the line), then a
        callback with its ``Game``, ``MoveId`` and ``Value``; each line of standard error
        beside them."""
        seat = position.seat
        line = engine_url("", params.written(""))[1:]
        requested = note("request", line)
        exchange, stderr = await self.services.processes.ask(
            command_of(url), seat.name, seat.key, line, timeout
        )
        notes = [requested, *exchange.notes, *stderr]
        if exchange.line is None:
            return Answer.failure(exchange.error, exchange.detail, exchange.ms, notes)
        value = exchange.line.strip().upper()
        query = engine_url("", {"Game": seat.key, "MoveId": params.move_id, "Value": value})[1:]
        notes.insert(1, note("callback", query))
        return Answer(value, ms=exchange.ms, query=query, log=notes)

    def final_call(self, position: Position, url: str, params: Mapping[str, str]) -> str:
        """Return the final call as recorded: ``cmd:COMMAND?<the line>``."""
        return engine_url(PREFIX + command_of(url), params)

    async def send_final(self, call: str) -> str:
        """Write the final call's line to the seat's process and read its line back,
        ignored (cut at 10 s); return what came of it."""
        head, found, query = call.partition(_QUERY_START)
        line = "Set=" + query if found else head
        seat_key = _game_of(line)
        return await self.services.processes.final(seat_key, line)

    async def ended(self, seat: Seat) -> None:
        """Forget the seat; a process of its own (``restart`` on) is stopped, what it wrote
        to standard error since its last line logged with the game."""
        notes = await self.services.processes.ended(seat.key)
        if notes:
            await self.services.store.log_many(seat.game_id, [(seat.index, *n) for n in notes])


def _game_of(line: str) -> str:
    """Return the ``Game`` of a query line (``""``: none)."""
    for pair in line.split("&"):
        name, _, value = pair.partition("=")
        if name == "Game":
            return value
    return ""


def transport_for(url: str, http: HttpTransport, process: ProcessTransport) -> Transport:
    """Return the transport of an engine seat's ``url``: a ``cmd:`` command's process,
    else HTTP."""
    return process if is_command(url) else http
