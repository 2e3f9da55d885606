"""The seat contract: a seat kind is one class with one ``ask(position, deadline)``.

The game master knows no kind: for every seat a step asks, it calls the kind's
:meth:`SeatKind.ask` with the position and the deadline the kind's own limit gives
(:meth:`SeatKind.time_limit`), gets an :class:`~tournoyons_gui.arbitre.answer.Answer`,
checks the value with :meth:`SeatKind.value`, and at the end asks the kind for its final
call (:meth:`SeatKind.final_call`). A kind checks the seats asked of it when a game is
made (:meth:`SeatKind.check`). A new kind (an IRC player, a MaitreTarot client ...) is a
subclass and one :func:`~tournoyons_gui.arbitre.seats.register` call.
"""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Protocol

from tournoyons_gui.arbitre.answer import Answer
from tournoyons_gui.arbitre.asks import Asks
from tournoyons_gui.arbitre.builtins import EngineRunner
from tournoyons_gui.arbitre.calls import EngineCaller
from tournoyons_gui.arbitre.catalogue import PlayedSet
from tournoyons_gui.arbitre.client import Calls
from tournoyons_gui.arbitre.live import Hub
from tournoyons_gui.arbitre.match import GameError, Options, SeatSpec
from tournoyons_gui.arbitre.outbound import Outbound
from tournoyons_gui.arbitre.store import Game, Seat, Store
from tournoyons_gui.arbitre.urls import check_engine_url
from tournoyons_gui.interfaces.plugin import ArbitreRules, Turn
from tournoyons_gui.interfaces.protocol import Player

if TYPE_CHECKING:
    import httpx

__all__ = ["Position", "SeatKind", "Services", "Session"]


class Session(Protocol):
    """A game's way to its seats held by a part of this process (a timi room's IRC
    session): what the seats of a kind that plays through it call."""

    async def ask(self, position: Position, deadline: float | None) -> Answer:
        """Return the answer of ``position``'s seat by ``deadline``."""
        ...

    def refused(self, position: Position, detail: str) -> None:
        """Hear that the rules refused the value ``position``'s seat gave (``detail``)."""
        ...


@dataclass(frozen=True)
class Services:
    """What the seat kinds and the game master of one Arbitre share: the ``store``, the
    ``asks`` awaiting an answer, the engine ``caller`` (its ``client`` serves every other
    HTTP call), the live ``hub``, this server's ``public_url`` as engines reach it, the
    ``engine_hosts`` URLs may name (``None``: any), whether several workers share the
    records (``shared``), the :class:`Session` of each game played through one in this
    process (by game id: a timi room's), the seats a part of this process is seating
    now (``seating``: a room's channel, lower-cased, -> its players' names), which a kind
    seated by its own room alone accepts, the ``outbound`` policy every URL and call is
    held to, the runner of our built-in engines in this process (``engines``), this
    process's worker (its lease owner's name) and the bound seat kinds whose connections
    it holds now (``holding``: :attr:`SeatKind.bound`)."""

    store: Store
    asks: Asks
    caller: EngineCaller
    hub: Hub
    public_url: str
    engine_hosts: frozenset[str] | None
    shared: bool
    outbound: Outbound = field(default_factory=Outbound)
    sessions: dict[str, Session] = field(default_factory=dict)
    seating: dict[str, tuple[str, ...]] = field(default_factory=dict)
    engines: EngineRunner = field(default_factory=EngineRunner)
    worker: str = ""
    holding: set[str] = field(default_factory=set)

    @property
    def client(self) -> httpx.AsyncClient:
        """Return the HTTP client every call of this Arbitre goes through."""
        return self.caller.client

    @property
    def keepalive_client(self) -> Calls:
        """Return the move path's client for calls whose protocol allows keeping the
        connection (:class:`~tournoyons_gui.arbitre.client.Calls`)."""
        return self.caller.kept

    @property
    def referee_url(self) -> str:
        """Return the Referee URL given to engines (no query string, decision 4)."""
        return f"{self.public_url}/referee"

    @property
    def added_return_url(self) -> str:
        """Return the ``ReturnURL`` given to added games' referees (no query, decision 4)."""
        return f"{self.public_url}/added/return"

    def builtin_url(self, interface: PlayedSet, name: str) -> str:
        """Return the URL of the built-in engine ``name`` of ``interface``."""
        return f"{self.public_url}/engines/{interface.key}/{name}"


@dataclass(frozen=True)
class Position:
    """What a seat is asked on: the ``game`` and its ``seats``, the ``seat`` asked and its
    ``player`` (seat number), the Set (``interface``) and its ``rules``, the ``turn`` to
    answer, the move ``number`` asked (the game's moves + 1) and the match ``options``."""

    game: Game
    seats: Sequence[Seat]
    seat: Seat
    player: Player
    interface: PlayedSet
    rules: ArbitreRules
    turn: Turn
    number: int
    options: Options


class SeatKind:
    """A kind of seat. Subclasses set :attr:`name` and implement :meth:`ask`; the rest has
    defaults for an engine-like seat (checked by ``SeatSpec.engine``, no final call)."""

    #: The kind's name, as stored in a seat and given in ``SeatSpec.kind``.
    name: ClassVar[str] = ""
    #: A person plays this seat through the Set's page and a seat token (decision 24).
    through_pages: ClassVar[bool] = False
    #: Its default name, numbered: ``"Person"`` names seat 1 ``Person 1``.
    label: ClassVar[str] = ""
    #: Whether the kind's players are reached through a connection one process holds (a
    #: timi room's players over its IRC session, MaitreTarot clients over their sockets):
    #: a game with such a seat is **bound**, made, leased and driven only by the process
    #: holding its players' connections (one that holds the kind's connections says so:
    #: :meth:`Arbitre.hold`); taken over after its holder died, it ends with no result.
    bound: ClassVar[bool] = False
    #: What the new-game form calls the kind (``""``: not offered there, e.g. a chat
    #: player, who is seated by its own room); and which form field gives its
    #: ``SeatSpec.engine``: ``"builtin"`` (the Set's built-in engines), ``"url"`` or ``""``.
    title: ClassVar[str] = ""
    field: ClassVar[str] = ""
    #: What the record shows of a seat's ``url``: ``"url"`` (an engine's, a bot's URL),
    #: ``"builtin"`` (a built-in engine's name) or ``""`` (nothing).
    exports: ClassVar[str] = ""

    def __init__(self, services: Services) -> None:
        self.services = services

    def check(self, spec: SeatSpec, interface: PlayedSet, number: int) -> SeatSpec:
        """Return seat ``number`` (1-based) made whole (its name by default); raise
        :class:`GameError` when the kind cannot take this seat in ``interface``."""
        return SeatSpec(self.name, spec.engine, spec.name or f"{self.label} {number}")

    def time_limit(self, options: Options) -> float | None:
        """Return the seconds a seat of this kind has for one answer (``None``: no limit);
        by default the match's ``TimeOut``."""
        return float(options.timeout)

    def seconds_left(self, deadline: float | None, options: Options) -> float:
        """Return the seconds left until ``deadline`` (to the hundredth: a limit of 10 s
        asked now reads 10, not 9.99998), the kind's whole limit when there is none."""
        if deadline is None:
            return self.time_limit(options) or 0.0
        return max(0.0, round(deadline - time.monotonic(), 2))

    async def ask(self, position: Position, deadline: float | None) -> Answer:
        """Return the seat's answer for ``position`` by ``deadline`` (``time.monotonic()``
        seconds; ``None``: none). Never raises for anything the seat does: a late, broken
        or missing answer is a failed :class:`Answer`."""
        raise NotImplementedError

    def value(self, position: Position, value: str) -> str:
        """Return the rules' value for the seat's answer; raise
        :class:`~tournoyons_gui.interfaces.plugin.IllegalMove`. An engine's by default."""
        return position.rules.engine_value(position.turn.state, position.player, value)

    def final_call(self, position: Position, status: int) -> str | None:
        """Return the URL of the seat's final call with its ``status`` (decision 10) at the
        game's last ``position``, or ``None`` (the kind has none)."""
        del position, status
        return None

    async def send_final(self, url: str) -> str:
        """Send the final call ``url`` (:meth:`final_call`'s) and return what is logged of
        its answer: the HTTP status, or the failure's name (decision 10: cut at 10 s,
        ignored)."""
        return await self.services.caller.final(url)

    @classmethod
    def exported(cls, seat: Seat) -> dict[str, str]:
        """Return what a game's record shows of the seat's ``url``: ``{"url", "builtin"}``
        (an engine's or a bot's URL, a built-in engine's name, as :attr:`exports` says)."""
        shown = {"url": "", "builtin": ""}
        if cls.exports in shown:
            shown[cls.exports] = seat.url
        return shown

    def checked_url(self, spec: SeatSpec, number: int) -> SeatSpec:
        """Return seat ``number`` with its URL (``spec.engine``) checked (http(s), no
        credentials, an allowed host: decision 13) and named after its host by default;
        raise :class:`GameError`."""
        try:
            url = check_engine_url(spec.engine, self.services.outbound)
        except ValueError as refused:
            raise self.refuse(number, str(refused)) from None
        return SeatSpec(self.name, url, spec.name or urllib.parse.urlsplit(url).hostname or url)

    def refuse(self, number: int, why: str) -> GameError:
        """Return the error refusing seat ``number`` for ``why``."""
        return GameError(f"seat {number}: {why}")
