"""Tournoyons engines as seats (engine protocol sections 1-3 and 8): an engine reached at
its URL or a program started on this machine, each through its transport
(:mod:`.transports`), and our built-in engines, called in this process (the same pure
function their HTTP endpoint ``/engines/<set>/<name>`` serves to anyone else).

Each ask sends the request with the parameters in the protocol's order (section 2.1),
``Referee`` last, and waits for the answer within ``TimeOut`` (a callback over HTTP, a
line from a process); a game taken over by another worker applies an answer recorded
before it took the game, and asks nothing. At the end each engine gets its final call
with its ``Status`` (decision 10).

A built-in engine's ask is logged as an engine's is (the request's URL as it would be
sent, then a callback with its ``Game``, ``MoveId`` and ``Value``), so that its game's
exchange log reads the same whichever way the engine was reached; it is called on the
event loop or in a thread by its own timings (:mod:`~tournoyons_gui.arbitre.builtins`).
In a game with a seed (its option ``seed``) each call draws from a generator of its own,
seeded by the game's seed, the entrant asked (the seat's name) and the move asked
(:func:`~tournoyons_gui.interfaces.engine_kit.choice_seed`), so that the game is replayed
move for move whatever else this process runs meanwhile, and the two games of a pair,
seats swapped, are not the same game mirrored.
"""

from __future__ import annotations

import asyncio
import logging
import time

from tournoyons_gui.arbitre.answer import Answer, note
from tournoyons_gui.arbitre.catalogue import PlayedSet
from tournoyons_gui.arbitre.match import SeatSpec
from tournoyons_gui.arbitre.processes import PREFIX, CommandError, is_command
from tournoyons_gui.arbitre.seats.base import Position, SeatKind, Services
from tournoyons_gui.arbitre.seats.transports import (
    CallParams,
    HttpTransport,
    ProcessTransport,
    Transport,
    call_params,
    transport_for,
)
from tournoyons_gui.arbitre.store import Seat
from tournoyons_gui.arbitre.urls import engine_url
from tournoyons_gui.interfaces.engine_kit import choice_seed, seeded_choices

__all__ = ["MAX_KEYS_KEPT", "BuiltinSeat", "EngineSeat", "call_params"]

log = logging.getLogger(__name__)

#: The most (registration, game) call keys kept in memory at once (then forgotten, to be
#: read again).
MAX_KEYS_KEPT = 10_000


class EngineSeat(SeatKind):
    """A Tournoyons engine: at its URL (``SeatSpec.engine``, an http(s) URL), or a program
    on this machine (``cmd:COMMAND``, given on ``play``'s or ``tournament``'s command
    line), each reached by its transport (:mod:`.transports`). A registered engine given
    a key has its calls signed (manual VII, :mod:`~..signing`)."""

    name = "engine"
    label = "engine"
    exports = "url"
    title = "Engine URL"
    field = "url"

    def __init__(self, services: Services) -> None:
        super().__init__(services)
        self._keys: dict[tuple[str, str], str] = {}
        self.http = HttpTransport(services, self.call_key, self._keys)
        self.process = ProcessTransport(services)

    async def call_key(self, seat: Seat) -> str:
        """Return the key of the seat's registration (``""``: none, unsigned calls), read
        from the records once per game in this process: a renewed key is used from the
        next game on."""
        if not seat.registration or seat.registration.startswith("B-"):
            return ""
        kept = self._keys.get((seat.registration, seat.game_id))
        if kept is None:
            found = await self.services.store.registered(seat.registration)
            kept = found.call_key if found is not None else ""
            if len(self._keys) >= MAX_KEYS_KEPT:
                self._keys.clear()
            self._keys[(seat.registration, seat.game_id)] = kept
        return kept

    def check(self, spec: SeatSpec, interface: PlayedSet, number: int) -> SeatSpec:
        """Return the seat with its URL checked (decision 13) and named after its host; a
        ``cmd:`` engine only where this process's command line allowed its command, named
        after it (:meth:`~tournoyons_gui.arbitre.processes.ProcessEngines.check`)."""
        if not is_command(spec.engine):
            return self.checked_url(spec, number)
        try:
            command = self.services.processes.check(spec.engine)
        except CommandError as refused:
            raise self.refuse(number, str(refused)) from None
        return SeatSpec(self.name, PREFIX + command, spec.name or command[:60])

    def url(self, position: Position) -> str:
        """Return the URL the seat's requests go to."""
        return position.seat.url

    def transport(self, url: str) -> Transport:
        """Return the transport of the engine at ``url``: a ``cmd:`` command's process, else
        HTTP."""
        return transport_for(url, self.http, self.process)

    async def ask(self, position: Position, deadline: float | None) -> Answer:
        """Send the engine request for ``position`` through the seat's transport and return
        its answer (a callback over HTTP, a line from a process)."""
        timeout = self.seconds_left(deadline, position.options)
        request = position.rules.request(
            position.turn.state, position.player, init_as_board=position.options.init_as_board
        )
        params = CallParams(position, request.params, str(request.move_id))
        url = self.url(position)
        return await self.transport(url).ask(position, url, params, timeout)

    def final_call(self, position: Position, status: int) -> str | None:
        """Return the final call: ``Status``, the final ``Turn``, ``Tray``, gains and the
        opponent's last move, without ``MoveId`` and ``Referee`` (decision 10), as its
        transport writes it."""
        try:
            game_params = position.rules.final(position.turn.state, position.player)
        except Exception:  # a corrupt state must not stop the other final calls
            log.exception("final call of game %s", position.game.id)
            game_params = {}
        params = call_params(position, game_params, move_id=None, referee="", status=status)
        url = self.url(position)
        return self.transport(url).final_call(position, url, params)

    async def send_final(self, url: str) -> str:
        """Send the final call through its transport; return what is logged of it."""
        return await self.transport(url).send_final(url)

    async def ended(self, seat: Seat) -> None:
        """Release what the seat's transport held (a process of its own)."""
        await self.transport(seat.url).ended(seat)


class BuiltinSeat(EngineSeat):
    """One of our built-in engines (``SeatSpec.engine`` its name, the Set's first by
    default), called in this process with the request an engine would receive."""

    name = "builtin"
    label = "builtin"
    exports = "builtin"
    title = "Built-in engine"
    field = "builtin"

    def check(self, spec: SeatSpec, interface: PlayedSet, number: int) -> SeatSpec:
        """Return the seat with the built-in engine's name checked (the Set's first by
        default), named after it."""
        engine = spec.engine or next(iter(interface.engines), "")
        if engine not in interface.engines:
            raise self.refuse(
                number,
                f"{interface.name} has no built-in engine {engine!r} "
                f"({', '.join(interface.engines) or 'none'})",
            )
        return SeatSpec(self.name, engine, spec.name or engine)

    def url(self, position: Position) -> str:
        """Return the built-in engine's URL on this server (its requests and its final
        call are logged with it, as an outsider would send them)."""
        return self.services.builtin_url(position.interface, position.seat.url)

    async def send_final(self, url: str) -> str:
        """Answer the final call in this process as the engine's endpoint does (``200``: a
        built-in engine has nothing to do with it); no request goes out, since this
        server's own URLs are no target of its own."""
        del url
        return "200"

    async def ask(self, position: Position, deadline: float | None) -> Answer:
        """Call the built-in engine with the request for ``position`` and take its value
        as its callback would bring it (trimmed, upper-cased, decision 5); ``late`` past
        ``deadline``, ``unreachable`` when the engine is gone or fails. In a game with a
        seed, its choices come from the call's own generator (see the module)."""
        timeout = self.seconds_left(deadline, position.options)
        rules, seat = position.rules, position.seat
        engine = position.interface.engines.get(seat.url)
        request = rules.request(
            position.turn.state, position.player, init_as_board=position.options.init_as_board
        )
        move_id = str(request.move_id)
        params = call_params(
            position, request.params, move_id=move_id, referee=self.services.referee_url
        )
        started = time.monotonic()
        seed = position.options.seed
        notes = [note("request", engine_url(self.url(position), params))]
        if engine is None:
            notes.append(note("error", "unreachable: no such built-in engine"))
            return Answer.failure("unreachable", "no such built-in engine", 0, notes)
        try:
            async with asyncio.timeout(timeout):
                name = (position.interface.key, seat.url)
                # The seed is set in this task's context, which a thread's call copies.
                with seeded_choices(
                    None if seed is None else choice_seed(seed, _entrant(position), position.number)
                ):
                    value = await self.services.engines.call(name, engine, params)
        except TimeoutError:
            detail = f"no callback within {timeout:g} s"
            notes.append(note("error", f"late: {detail}"))
            return Answer.failure("late", detail, _ms(started), notes)
        except Exception as failed:  # our engine's bug: the seat fails, the game goes on
            log.exception("built-in engine %s failed", seat.url)
            detail = f"the built-in engine failed: {type(failed).__name__}"
            notes.append(note("error", f"unreachable: {detail}"))
            return Answer.failure("unreachable", detail, _ms(started), notes)
        query = engine_url("", {"Game": seat.key, "MoveId": move_id, "Value": value})[1:]
        notes.append(note("callback", query))
        return Answer(str(value).strip().upper(), ms=_ms(started), query=query, log=notes)


def _ms(started: float) -> int:
    """Return the whole milliseconds since ``started`` (``time.monotonic()``)."""
    return int((time.monotonic() - started) * 1000)


def _entrant(position: Position) -> str:
    """Return who plays the seat asked, for its built-in engine's seed: the seat's name, or
    with another seat of the game of that name (two ``random`` of a game made through the
    API) the name and the seat's number, so that the two never draw alike."""
    seat = position.seat
    twins = sum(1 for other in position.seats if other.name == seat.name)
    return seat.name if twins == 1 else f"{seat.name}#{seat.index + 1}"
