"""The game master: creates games, drives each one with one task, records, publishes.

Each step follows the same sequence (style.md, boardgame.io's master): the rules name the
players asked; each seat is asked at once (an engine by HTTP and its callback, a person by
the page given its token); each answer is checked by the rules against the position it was
asked on; a late, unreachable or illegal engine loses (engine protocol section 3.2); the
values are applied in player order, each move saved with its exchanges in one transaction
(``moves`` has a unique ``(game, number)``), and only then published to watchers. At the
end each engine gets its final call with its ``Status`` (section 1.2, decision 10).

A game survives its driver: a server stopped or killed mid-game leaves it in progress, and
the restarted server, or another worker of the same database, takes it over from its last
recorded move (:meth:`Arbitre.scan`). Only a game whose Set is no longer served is ended as
interrupted, its engines getting ``Status=9`` (decision 11, :meth:`Arbitre.recover`).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import random
import time
import urllib.parse
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import httpx
from sqlalchemy import select
from sqlalchemy.exc import InterfaceError, OperationalError, SQLAlchemyError

from tournoyons_gui.arbitre.added import AddedRules, AddedSet, RefereeFailed, check_added_name
from tournoyons_gui.arbitre.botsarena import BotCaller
from tournoyons_gui.arbitre.calls import (
    POLL_EVERY,
    Callback,
    Callbacks,
    EngineCaller,
    Note,
    Outcome,
    check_engine_url,
    engine_url,
    note,
)
from tournoyons_gui.arbitre.live import Bus, Hub, LocalBus, PgBus
from tournoyons_gui.arbitre.store import (
    AddedSetRow,
    ExchangeRow,
    GameRow,
    MoveRow,
    SeatRow,
    Store,
    aware,
    new_id,
    now,
)
from tournoyons_gui.interfaces.plugin import ArbitreRules, IllegalMove, Result, SetInterface, Turn
from tournoyons_gui.interfaces.protocol import Player
from tournoyons_gui.interfaces.registry import Registry

__all__ = ["Arbitre", "GameError", "Options", "PlayedSet", "SeatSpec", "redact", "status_for"]

log = logging.getLogger(__name__)

KINDS = ("person", "builtin", "engine", "botsarena")
MIN_TIMEOUT, MAX_TIMEOUT, DEFAULT_TIMEOUT = 4, 54, 20
#: botsarena's own limit for a bot's answer, our default (engine protocol section 4).
DEFAULT_BOT_TIMEOUT = 10
#: The answer of a seat no longer waited for, another seat of the step having failed.
UNNEEDED = "unneeded"
#: Games a scan takes at a time before letting the other workers take theirs.
SCAN_BATCH = 2
#: Seconds between two readings of the database's clock (``Store.sync_clock``).
CLOCK_SYNC_EVERY = 60.0

#: A Set the Arbitre plays: one of the registry's, or one added by a person (chapter VI).
PlayedSet = SetInterface | AddedSet


class GameError(ValueError):
    """A game that cannot be made as asked (unknown Set, bad seat, option out of range)."""


class LeaseLost(RuntimeError):
    """This worker no longer holds the lease of the game it was driving."""


@dataclass(frozen=True)
class SeatSpec:
    """A seat as asked for: ``kind`` ``person``, ``builtin`` (``engine`` names one of the
    Set's built-in engines), ``engine`` (``engine`` is its http(s) URL) or ``botsarena``
    (``engine`` is a botsarena bot's URL, seed 003); ``name`` shown."""

    kind: str
    engine: str = ""
    name: str = ""


@dataclass(frozen=True)
class Options:
    """A match's options: ``timeout`` seconds 4-54 (decision 11), rule ``level``, ``wait``
    in tenths of a second for the pages, ``init_as_board`` (decision 14), and
    ``person_timeout`` seconds for a person's move (``None``: no limit, section 3.1),
    ``bot_timeout`` seconds for a botsarena bot's answer (1-60, default 10)."""

    timeout: int = DEFAULT_TIMEOUT
    level: int = 1
    wait: int = 0
    init_as_board: bool = False
    person_timeout: int | None = None
    bot_timeout: int = DEFAULT_BOT_TIMEOUT

    def to_json(self) -> dict[str, Any]:
        """Return the options as stored: ``{"timeout": 10, "level": 1, ...}``, every field."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Options:
        """Return the options stored as ``data``."""
        return cls(
            int(data.get("timeout", DEFAULT_TIMEOUT)),
            int(data.get("level", 1)),
            int(data.get("wait", 0)),
            bool(data.get("init_as_board", False)),
            data.get("person_timeout"),
            int(data.get("bot_timeout", DEFAULT_BOT_TIMEOUT)),
        )


def status_for(result: Result | None, player: Player, error: bool = False) -> int:
    """Return the final ``Status`` of ``player`` (section 3.3): 1/2 won as first/second,
    3/4 lost as first/second, 5 draw, 9 an end not attributable to one player."""
    if error or result is None:
        return 9
    if result.winner is None:
        return 5
    if result.winner is player:
        return 1 if player is Player.ONE else 2
    return 3 if player is Player.ONE else 4


def redact(text: str, seats: Sequence[SeatRow]) -> str:
    """Return ``text`` with every seat's secret ``Game`` id replaced by ``<seat N>``: the
    ids are never shown (decision 8), or anyone could forge a pending callback."""
    for seat in seats:
        if seat.key in text:
            text = text.replace(seat.key, f"<seat {seat.index + 1}>")
    return text


def turn_json(turn: Turn) -> dict[str, Any]:
    """Return a Turn as stored."""
    return {"state": dict(turn.state), "params": dict(turn.params), "over": turn.over}


def turn_from(data: Mapping[str, Any]) -> Turn:
    """Return the Turn stored as ``data``."""
    return Turn(state=data["state"], params=data["params"], over=bool(data.get("over")))


@dataclass
class _PersonAsk:
    future: asyncio.Future[str]
    game_id: str
    seat: int
    number: int
    state: Mapping[str, Any]
    rules: ArbitreRules


@dataclass
class _Answer:
    value: str | None
    error: str = ""
    detail: str = ""
    ms: int = 0
    query: str = ""
    logs: list[Note] = field(default_factory=list)


#: A log entry of a step: (seat index, kind, detail, when).
Exchange = tuple[int, str, str, dt.datetime]


@dataclass
class _Played:
    """A move to record: its ``number`` (1 the first), the ``seat`` index that played it,
    its ``value``, the ``turn`` after it, the answer it came in, the exchanges logged."""

    number: int
    seat: int
    value: str
    turn: Turn
    answer: _Answer
    exchanges: list[Exchange]


class Arbitre:
    """The Arbitre of one process: its store, its calls to engines, its games in play.

    ``public_url``: this server's base URL as engines reach it (``http://127.0.0.1:8000``);
    the Referee URL is ``<public_url>/referee`` and the built-in engines are at
    ``<public_url>/engines/<set>/<name>``. ``engine_hosts``: when given, the only hosts an
    engine URL may name (a server open to the world, decision 13).

    Several Arbitres (workers, on one host or several) may share one PostgreSQL database:
    each game is driven by one worker at a time, the holder of its **lease** (renewed every
    ``lease_seconds`` / 3 s); a worker looks every ``scan_every`` seconds for games whose
    lease expired (their worker died or stopped) and takes them over from their last
    recorded move, at most ``max_games`` at a time. An answer (an engine's callback, a
    person's move) may reach any worker: it is recorded in the store (the first in time
    wins) and the driver is told over the bus (:mod:`~tournoyons_gui.arbitre.live`). On
    SQLite (one worker) engine callbacks are matched in memory, as nothing else can take
    them; a person's move is recorded in the store either way.
    """

    def __init__(
        self,
        registry: Registry,
        store: Store,
        public_url: str,
        *,
        engine_hosts: frozenset[str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        lease_seconds: float = 15.0,
        scan_every: float = 1.0,
        max_games: int = 500,
    ) -> None:
        self.registry = registry
        self.store = store
        self.public_url = public_url.rstrip("/")
        self.engine_hosts = engine_hosts
        self.worker = new_id(12)
        self.lease_seconds = lease_seconds
        self.scan_every = scan_every
        self.max_games = max_games
        self.callbacks = Callbacks()
        self.callbacks.on_refused = self._log_refused
        self.shared = store.engine.dialect.name == "postgresql"
        if self.shared:
            # Several workers: the store says which callback came first, wherever it came.
            self.callbacks.record = self._record_answer
            self.callbacks.relay = self._relay_answer
        self.caller = EngineCaller(
            self.callbacks, self.referee_url, transport, allowed_hosts=engine_hosts
        )
        self.bots = BotCaller(self.caller.client)
        self.added: dict[str, AddedSet] = {}
        self.bus: Bus = (
            PgBus(
                self.worker,
                store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False),
            )
            if self.shared
            else LocalBus(self.worker)
        )
        self.hub = Hub(self.bus)
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.persons: dict[str, _PersonAsk] = {}
        self._background: list[asyncio.Task[None]] = []
        self._nudged = asyncio.Event()
        #: Called every ``scan_every`` seconds (the tournaments' scheduler hooks in here).
        self.on_scan: list[Callable[[], Awaitable[None]]] = []

    # --- the workers: leases, scans, the bus ----------------------------------------------

    async def run(self) -> None:
        """Start this worker's background work: the bus, lease renewal and the scan for
        games (and tournaments) that no worker drives."""
        await self.bus.start(self._heard)
        self._background = [
            asyncio.create_task(self._renew_leases(), name="leases"),
            asyncio.create_task(self._scan(), name="scan"),
        ]

    async def _renew_leases(self) -> None:
        synced = time.monotonic()
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            if time.monotonic() - synced >= CLOCK_SYNC_EVERY:
                synced = time.monotonic()
                try:
                    await self.store.sync_clock()
                    await self.store.purge_pending()
                except Exception:
                    log.exception("reading the database's clock, purging old asks")
            try:
                await self.store.renew(self.worker, self.lease_seconds, list(self.tasks))
            except Exception:
                log.exception("renewing the leases")
            await self.bus.check()

    async def _scan(self) -> None:
        while True:
            try:
                await self.scan()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scanning for games")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._nudged.wait(), self.scan_every)
            self._nudged.clear()

    async def nudge(self) -> None:
        """Have every worker scan now (games were made for whoever takes them)."""
        self._nudged.set()
        await self.bus.send({"t": "scan"})

    async def scan(self) -> list[str]:
        """Take over the games in play that no worker drives (up to ``max_games`` here, a
        few at a time in random order, so that the workers scanning together share them);
        return their ids. Then run the scan hooks."""
        taken: list[str] = []
        while (room := self.max_games - len(self.tasks)) > 0:
            found = [g for g in await self.store.orphans(room + SCAN_BATCH) if g not in self.tasks]
            if not found:
                break
            random.shuffle(found)
            for game_id in found[: min(room, SCAN_BATCH)]:
                if await self.store.acquire(game_id, self.worker, self.lease_seconds):
                    self.start(game_id)
                    taken.append(game_id)
            await asyncio.sleep(0.005 * SCAN_BATCH)  # the other workers' turn
        for hook in self.on_scan:
            await hook()
        return taken

    async def _heard(self, message: dict[str, Any]) -> None:
        """A message from another worker: a game's event for our watchers, or an answer
        to a value this worker asked."""
        kind = message.get("t")
        if kind == "scan":
            self._nudged.set()
        elif kind == "game":
            event = message.get("event")
            if isinstance(event, dict):
                self.hub.deliver(str(message.get("id", "")), event)
        elif kind == "answer":
            await self._wake(str(message.get("key", "")), str(message.get("move_id", "")))

    async def _wake(self, key: str, move_id: str) -> None:
        """Wake this worker's driver of (``key``, ``move_id``) with the answer recorded."""
        asked = self.persons.get(key)
        if asked is not None and str(asked.number) != move_id:
            asked = None
        if asked is None and not self.callbacks.waiting(key, move_id):
            return
        row = await self.store.pending(key, move_id)
        if row is None or row.value is None:
            return
        if asked is not None:
            if not asked.future.done():
                asked.future.set_result(row.value)
            return
        self.callbacks.resolve(
            key, move_id, Callback(row.value, row.query, time.monotonic(), row.redirect)
        )

    async def _record_answer(
        self, key: str, move_id: str, value: str, query: str, redirect: bool
    ) -> tuple[str, str | None, int | None]:
        kind, row = await self.store.answer(key, move_id, value, query, redirect=redirect)
        return kind, (row.game_id if row else None), (row.seat if row else None)

    async def _relay_answer(self, key: str, move_id: str) -> None:
        await self.bus.send({"t": "answer", "key": key, "move_id": move_id})

    async def _poll(self, key: str, move_id: str) -> Callback | None:
        """Return the answer another worker recorded, when the bus message was missed."""
        if not self.shared:
            return None
        row = await self.store.pending(key, move_id)
        if row is None or row.value is None:
            return None
        return Callback(row.value, row.query, time.monotonic(), row.redirect)

    @property
    def referee_url(self) -> str:
        """Return the Referee URL given to engines (no query string, decision 4)."""
        return f"{self.public_url}/referee"

    @property
    def added_return_url(self) -> str:
        """Return the ``ReturnURL`` given to added games' referees (no query, decision 4)."""
        return f"{self.public_url}/added/return"

    def builtin_url(self, interface: PlayedSet, name: str) -> str:
        """Return the URL of a built-in engine."""
        return f"{self.public_url}/engines/{interface.key}/{name}"

    def playable(self) -> list[PlayedSet]:
        """Return the Sets the Arbitre can play: the registry's whose rules have the
        Arbitre's part, then the added ones (as last loaded)."""
        return [
            *(s for s in self.registry if s.arbitre is not None),
            *sorted(self.added.values(), key=lambda s: s.key),
        ]

    def lookup(self, name: str | None) -> PlayedSet | None:
        """Return the Set called ``name`` (any case; a registry alias too), or ``None``."""
        return self.registry.get(name) or self.added.get((name or "").strip().lower())

    async def find_set(self, name: str | None) -> PlayedSet | None:
        """Return the Set called ``name``, reading the added Sets again when it is not
        known here (another worker may have added it)."""
        found = self.lookup(name)
        if found is None and name:
            await self.load_added()
            found = self.lookup(name)
        return found

    async def load_added(self) -> None:
        """Read the added Sets from the store."""
        self.added = {
            row.key: AddedSet(
                row.name, row.interface_url, row.referee_url, row.start_tray, row.simultaneous
            )
            for row in await self.store.added_sets()
        }

    async def add_set(
        self,
        name: str,
        interface_url: str,
        referee_url: str,
        *,
        start_tray: str = "Init",
        simultaneous: bool = False,
    ) -> AddedSet:
        """Store an added Set (chapter VI) and return it; raise :class:`GameError` for a
        name taken or malformed, a URL that is not http(s) (or not allowed here), or a
        start Tray with ``/`` or ``|``."""
        try:
            name = check_added_name(name)
            interface_url = check_engine_url(interface_url, self.engine_hosts)
            referee_url = check_engine_url(referee_url, self.engine_hosts)
        except ValueError as refused:
            raise GameError(str(refused)) from None
        start_tray = start_tray.strip() or "Init"
        if "/" in start_tray or "|" in start_tray or len(start_tray) > 4000:
            raise GameError("a start Tray has at most 4000 characters, never / or |")
        await self.load_added()
        if self.lookup(name) is not None:
            raise GameError(f"a Set called {name} is already played here")
        added = AddedSet(name, interface_url, referee_url, start_tray, simultaneous)
        try:
            async with self.store.session() as session:
                session.add(
                    AddedSetRow(
                        key=added.key,
                        name=name,
                        interface_url=interface_url,
                        referee_url=referee_url,
                        start_tray=start_tray,
                        simultaneous=simultaneous,
                        created_at=self.store.now(),
                    )
                )
        except Exception as taken:  # another worker added the same name meanwhile
            raise GameError(f"a Set called {name} is already played here") from taken
        self.added[added.key] = added
        return added

    async def close(self) -> None:
        """Stop the games in play (they stay in progress, their leases given up so that
        another worker, or this server restarted, takes them over at once) and close the
        client and the bus."""
        for task in [*self._background, *self.tasks.values()]:
            task.cancel()
        await asyncio.gather(*self._background, *self.tasks.values(), return_exceptions=True)
        try:
            await self.store.release(self.worker)
        except Exception:
            log.exception("giving up the leases")
        await self.caller.close()
        await self.bus.close()

    # --- making a game ------------------------------------------------------------------

    def check(
        self, set_name: str, seats: Sequence[SeatSpec], options: Options
    ) -> tuple[PlayedSet, ArbitreRules, list[SeatSpec]]:
        """Return the Set, its rules and the seats made whole; raise :class:`GameError`."""
        interface = self.lookup(set_name)
        if interface is None:
            raise GameError(f"unknown Set {set_name!r}")
        rules = self.check_options(interface, options)
        if len(seats) != 2:
            raise GameError(f"{interface.name} is played by 2 seats, not {len(seats)}")
        made: list[SeatSpec] = []
        for number, seat in enumerate(seats, 1):
            if seat.kind not in KINDS:
                raise GameError(
                    f"seat {number} is a person, a builtin, an engine or a botsarena bot, "
                    f"not {seat.kind!r}"
                )
            name = " ".join(seat.name.split())[:60]
            if seat.kind == "builtin":
                engine = seat.engine or next(iter(interface.engines), "")
                if engine not in interface.engines:
                    raise GameError(
                        f"{interface.name} has no built-in engine {engine!r} "
                        f"({', '.join(interface.engines) or 'none'})"
                    )
                made.append(SeatSpec("builtin", engine, name or engine))
            elif seat.kind in ("engine", "botsarena"):
                if seat.kind == "botsarena" and interface.botsarena is None:
                    raise GameError(f"seat {number}: {interface.name} has no botsarena bots")
                try:
                    url = check_engine_url(seat.engine, self.engine_hosts)
                except ValueError as refused:
                    raise GameError(f"seat {number}: {refused}") from None
                host = urllib.parse.urlsplit(url).hostname or url
                made.append(SeatSpec(seat.kind, url, name or host))
            else:
                made.append(SeatSpec("person", "", name or f"Person {number}"))
        return interface, rules, made

    def check_options(self, interface: PlayedSet, options: Options) -> ArbitreRules:
        """Return the Set's rules when the match options suit it; raise :class:`GameError`
        (TimeOut 4-54 s, a Level the Set has, Wait 0-600, the persons' and bots' limits)."""
        rules = interface.arbitre
        if rules is None:
            raise GameError(f"{interface.name} has no rules the Arbitre can play")
        if not MIN_TIMEOUT <= options.timeout <= MAX_TIMEOUT:
            raise GameError(f"TimeOut is {MIN_TIMEOUT} to {MAX_TIMEOUT} seconds")
        if options.level not in rules.levels:
            raise GameError(
                f"{interface.name} has no Level {options.level} "
                f"(levels: {', '.join(map(str, rules.levels))})"
            )
        if not 0 <= options.wait <= 600:
            raise GameError("Wait is 0 to 600 tenths of a second")
        if options.person_timeout is not None and not 1 <= options.person_timeout <= 86400:
            raise GameError("a person's time limit is 1 to 86400 seconds")
        if not 1 <= options.bot_timeout <= 60:
            raise GameError("a botsarena bot's time limit is 1 to 60 seconds")
        return rules

    async def create(
        self,
        set_name: str,
        seats: Sequence[SeatSpec],
        options: Options | None = None,
        *,
        start: bool = True,
        registrations: Sequence[str] = ("", ""),
        tournament: tuple[str, int, int, int, int] | None = None,
    ) -> str:
        """Check, store and start a game; return its public id. Raises :class:`GameError`,
        and then stores nothing.

        ``start=False`` leaves the game to the first worker whose scan finds it (a
        tournament's games are spread over the workers so). ``registrations``: each seat's
        registered engine id, or ``""`` (sent to the opponent as ``Opponent`` when the game
        is a competition match, i.e. belongs to ``tournament``: (id, round, pairing, the
        entrant in seat 0, the entrant in seat 1)).
        """
        options = options or Options()
        await self.find_set(set_name)
        interface, rules, made = self.check(set_name, seats, options)
        turn = rules.start(options.level)
        game_id = new_id(12)
        lease = dt.timedelta(seconds=self.lease_seconds)
        lease_until = self.store.now() + lease if start else None
        async with self.store.session() as session:
            session.add(
                GameRow(
                    id=game_id,
                    set_name=interface.name,
                    status="playing",
                    options=options.to_json(),
                    turn=turn_json(turn),
                    first=turn_json(turn),
                    moves=0,
                    winner=None,
                    result="",
                    reason="",
                    created_at=self.store.now(),
                    lease_owner=self.worker if start else None,
                    lease_until=lease_until,
                    tournament_id=tournament[0] if tournament else None,
                    round=tournament[1] if tournament else None,
                    pairing=tournament[2] if tournament else None,
                    entrant1=tournament[3] if tournament else None,
                    entrant2=tournament[4] if tournament else None,
                )
            )
            await session.flush()
            for index, seat in enumerate(made):
                session.add(
                    SeatRow(
                        game_id=game_id,
                        index=index,
                        kind=seat.kind,
                        name=seat.name,
                        url=seat.engine,
                        key=new_id(10),
                        token=new_id(26),
                        final_status=None,
                        error="",
                        registration=registrations[index] if index < len(registrations) else "",
                    )
                )
        if start:
            self.start(game_id)
        return game_id

    def start(self, game_id: str) -> None:
        """Drive ``game_id`` in a task of this process."""
        task = asyncio.create_task(self._drive(game_id), name=f"game {game_id}")
        self.tasks[game_id] = task
        task.add_done_callback(lambda _: self.tasks.pop(game_id, None))

    async def wait(self, game_id: str) -> None:
        """Return when ``game_id``'s task in this process has ended."""
        task = self.tasks.get(game_id)
        if task is not None:
            await asyncio.wait({task})

    async def recover(self) -> list[str]:
        """End every game in progress whose Set this server no longer plays as interrupted
        (Status 9, decision 11); return their ids. The others are taken over by the scan
        (:meth:`scan`) from their last recorded move."""
        ended = []
        for game_id in await self.store.playing():
            if game_id in self.tasks:
                continue
            found = await self.store.game(game_id)
            if found is None:
                continue
            game, seats = found
            interface = await self.find_set(game.set_name)
            rules = interface.arbitre if interface else None
            if rules is not None:
                continue
            if not await self.store.acquire(game_id, self.worker, self.lease_seconds):
                continue
            await self._finish(
                game,
                seats,
                rules,
                turn_from(game.turn),
                None,
                f"interrupted: this server no longer plays {game.set_name}",
                error=True,
                status="interrupted",
            )
            ended.append(game_id)
        return ended

    # --- driving a game -----------------------------------------------------------------

    async def _drive(self, game_id: str) -> None:
        try:
            if not await self.store.acquire(game_id, self.worker, self.lease_seconds):
                return
            await self._play(game_id)
        except asyncio.CancelledError:
            raise
        except LeaseLost:
            log.warning("game %s: its lease was lost; another worker drives it", game_id)
        except (OperationalError, InterfaceError, OSError) as failed:
            # The database (or the network to it) failed, not the game: give the game up; a
            # scan takes it over from its last recorded move once the database answers.
            log.warning("game %s: given up for now (%s)", game_id, type(failed).__name__)
            with contextlib.suppress(SQLAlchemyError, OSError):
                await self.store.release_game(game_id, self.worker)
        except Exception:
            log.exception("game %s failed", game_id)
            try:
                found = await self.store.game(game_id)
                if found is not None and found[0].status == "playing":
                    game, seats = found
                    await self._finish(
                        game,
                        seats,
                        None,
                        turn_from(game.turn),
                        None,
                        "the Arbitre failed on this game",
                        error=True,
                    )
            except (SQLAlchemyError, OSError):
                log.exception("game %s could not be ended", game_id)

    async def _play(self, game_id: str) -> None:
        found = await self.store.game(game_id)
        if found is None:
            return
        game, seats = found
        interface = await self.find_set(game.set_name)
        rules = interface.arbitre if interface else None
        if interface is None or rules is None:
            raise RuntimeError(f"Set {game.set_name} is not served")
        options = Options.from_json(game.options)
        turn = turn_from(game.turn)
        number = game.moves
        while True:
            result = rules.result(turn.state)
            if result is not None:
                await self._finish(game, seats, rules, turn, result, result.reason)
                return
            asked = rules.asked(turn.state)
            if not asked:
                raise RuntimeError("the rules ask nobody in a game not over")
            answers = await self._ask_all(
                [
                    self._ask(game, seats, p, rules, interface, turn, number + 1, options)
                    for p in asked
                ]
            )
            values: dict[Player, str] = {}
            failed: list[tuple[Player, _Answer]] = []
            for player, answer in zip(asked, answers, strict=True):
                if answer.error == UNNEEDED:
                    continue
                if answer.value is None:
                    failed.append((player, answer))
                    continue
                try:
                    seat = seats[int(player) - 1]
                    check = rules.person_value if seat.kind == "person" else rules.engine_value
                    values[player] = check(turn.state, player, answer.value)
                except IllegalMove as illegal:
                    answer.error = "illegal"
                    answer.detail = f"illegal Value {answer.value!r}: {illegal}"
                    failed.append((player, answer))
            exchanges = [
                (int(p) - 1, *entry)
                for p, a in zip(asked, answers, strict=True)
                for entry in a.logs
            ]
            if failed:
                await self._save_log(game.id, exchanges)
                for player, answer in failed:
                    seats[int(player) - 1].error = answer.detail[:2000]
                if len(failed) == len(asked) and len(asked) > 1:
                    await self._finish(
                        game,
                        seats,
                        rules,
                        turn,
                        None,
                        "every player failed in the same round: "
                        + "; ".join(a.detail for _, a in failed),
                        error=True,
                    )
                    return
                loser = failed[0][0]
                why = f"{seats[int(loser) - 1].name} loses: {failed[0][1].detail}"
                await self._finish(game, seats, rules, turn, Result(loser.opponent, why), why)
                return
            if isinstance(rules, AddedRules):
                refereed = await self._referee(game, seats, rules, turn, values, options, exchanges)
                if refereed is None:
                    return
                turn = refereed
                number += 1
                first = sorted(values)[0]
                answer = answers[asked.index(first)]
                value = " ".join(values[p] for p in sorted(values))
                played = [_Played(number, int(first) - 1, value, turn, answer, exchanges)]
            else:
                # A simultaneous step's moves are recorded together: a worker stopped
                # between them would otherwise ask the second again.
                played = []
                for player in sorted(values):
                    turn = rules.play(turn.state, values[player])
                    number += 1
                    own = [entry for entry in exchanges if entry[0] == int(player) - 1]
                    answer = answers[asked.index(player)]
                    played.append(
                        _Played(number, int(player) - 1, values[player], turn, answer, own)
                    )
            await self._save_moves(game, rules, played)
            for move in played:
                await self.hub.publish(game.id, {"moves": move.number, "over": False})

    @staticmethod
    async def _ask_all(asks: list[Coroutine[Any, Any, _Answer]]) -> list[_Answer]:
        """Ask every seat of a step at once; once one has failed (late, unreachable ...),
        stop waiting for the others (a person with no time limit, facing an engine that
        cannot be reached, would hold the game forever): their answer is :data:`UNNEEDED`."""
        tasks = [asyncio.create_task(ask) for ask in asks]
        waiting: set[asyncio.Task[_Answer]] = set(tasks)
        while waiting:
            done, waiting = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if waiting and any(t.result().value is None for t in done):
                for task in waiting:
                    task.cancel()
                await asyncio.gather(*waiting, return_exceptions=True)
                break
        return [
            t.result()
            if t.done() and not t.cancelled()
            else _Answer(None, UNNEEDED, "not needed: another seat failed in this step")
            for t in tasks
        ]

    async def _ask(
        self,
        game: GameRow,
        seats: list[SeatRow],
        player: Player,
        rules: ArbitreRules,
        interface: PlayedSet,
        turn: Turn,
        number: int,
        options: Options,
    ) -> _Answer:
        seat = seats[int(player) - 1]
        if seat.kind == "person":
            return await self._ask_person(game, seat, rules, turn, number, options)
        request = rules.request(turn.state, player, init_as_board=options.init_as_board)
        if seat.kind == "botsarena" and interface.botsarena is not None:
            bot = await self.bots.ask(
                seat.url,
                interface.botsarena,
                request.params,
                seat.key,
                player,
                float(options.bot_timeout),
                init=not await self.store.has_moved(game.id, seat.index),
            )
            return _Answer(bot.value, bot.error, bot.detail, bot.ms, logs=bot.log)
        url = seat.url if seat.kind == "engine" else self.builtin_url(interface, seat.url)
        params = self._params(
            rules,
            seat,
            options,
            request.params,
            move_id=str(request.move_id),
            opponent=self._opponent(game, seat, seats),
        )
        full = engine_url(url, params)
        move_id = str(request.move_id)
        expires = self.store.now() + dt.timedelta(seconds=options.timeout)
        received = (
            await self.store.expect(seat.key, move_id, game.id, seat.index, expires)
            if self.shared
            else None
        )
        if received is not None and received.value is not None:
            # Answered before this worker took the game over: apply it, ask nothing.
            # Log entries are stamped by this host's clock (Store.from_host when saved).
            at = (
                aware(received.received_at) - self.store.clock_offset
                if received.received_at
                else None
            )
            return _Answer(
                received.value,
                query=received.query,
                logs=[("callback", received.query, at or now())],
            )
        sent = note("request", full)
        outcome: Outcome = await self.caller.ask(
            full,
            seat.key,
            move_id,
            game.id,
            seat.index,
            options.timeout,
            poll=lambda: self._poll(seat.key, move_id),
        )
        logs = [sent, *outcome.log]
        if outcome.callback is None:
            logs.append(note("error", f"{outcome.error}: {outcome.detail}"))
            return _Answer(
                None, outcome.error, outcome.detail or outcome.error, outcome.ms, logs=logs
            )
        logs.append(("callback", outcome.callback.query, outcome.callback.received))
        logs.sort(key=lambda entry: entry[2])
        return _Answer(
            outcome.callback.value, ms=outcome.ms, query=outcome.callback.query, logs=logs
        )

    async def _referee(
        self,
        game: GameRow,
        seats: list[SeatRow],
        rules: AddedRules,
        turn: Turn,
        values: Mapping[Player, str],
        options: Options,
        exchanges: list[Exchange],
    ) -> Turn | None:
        """Have an added game's referee apply ``values`` (decision 26); return the turn
        after them, or end the game with Status 9 and return ``None`` when the referee gave
        no usable verdict. The referee's exchanges are added to ``exchanges`` (saved with
        the move)."""
        logs: list[Note] = []
        try:
            after = await rules.apply(
                self.caller.client,
                turn.state,
                values,
                return_url=self.added_return_url,
                timeout=float(options.timeout + 5),
                log=logs,
                allowed_hosts=self.engine_hosts,
            )
        except RefereeFailed as failed:
            seat = int(sorted(values)[0]) - 1
            logs.append(note("error", str(failed)))
            await self._save_log(game.id, [*exchanges, *((seat, *entry) for entry in logs)])
            await self._finish(game, seats, rules, turn, None, str(failed), error=True)
            return None
        seat = int(sorted(values)[0]) - 1
        exchanges.extend((seat, *entry) for entry in logs)
        return after

    def _params(
        self,
        rules: ArbitreRules,
        seat: SeatRow,
        options: Options,
        game_params: Mapping[str, str],
        *,
        move_id: str | None,
        status: int = 0,
        opponent: str = "",
    ) -> dict[str, str]:
        """Return a call's parameters in the order of section 2.1; ``opponent``: the
        opponent's registration id, sent as ``Opponent`` in competition matches."""
        params = {"Set": rules.engine_set, "Game": seat.key}
        if move_id is not None:
            params["MoveId"] = move_id
        if "Turn" in game_params:
            params["Turn"] = game_params["Turn"]
        params["Status"] = str(status)
        params["TimeOut"] = str(options.timeout)
        if len(rules.levels) > 1:
            params["Level"] = str(options.level)
        if opponent:
            params["Opponent"] = opponent
        params.update({k: v for k, v in game_params.items() if k != "Turn"})
        if move_id is not None:
            params["Referee"] = self.referee_url
        return params

    @staticmethod
    def _opponent(game: GameRow, seat: SeatRow, seats: Sequence[SeatRow]) -> str:
        """Return ``Opponent`` for ``seat``: its opponent's registration id in a competition
        match (a tournament's game), else ``""`` (decision 27)."""
        if game.tournament_id is None:
            return ""
        others = [s for s in seats if s.index != seat.index]
        return others[0].registration if others else ""

    async def _ask_person(
        self,
        game: GameRow,
        seat: SeatRow,
        rules: ArbitreRules,
        turn: Turn,
        number: int,
        options: Options,
    ) -> _Answer:
        started = time.monotonic()
        limit = options.person_timeout
        expires = self.store.now() + dt.timedelta(
            seconds=limit if limit is not None else 10 * 365 * 86400
        )
        received = await self.store.expect(seat.token, str(number), game.id, seat.index, expires)
        if received is not None and received.value is not None:
            return _Answer(received.value)  # moved before this worker took the game over
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.persons[seat.token] = _PersonAsk(
            future, game.id, seat.index, number, turn.state, rules
        )
        await self.hub.publish(game.id, {"moves": number - 1, "over": False, "asked": seat.index})
        try:
            while not future.done():
                left = None if limit is None else limit - (time.monotonic() - started)
                if left is not None and left <= 0:
                    break
                slice_ = POLL_EVERY if left is None else min(left, POLL_EVERY)
                await asyncio.wait({future}, timeout=slice_ if self.shared else left)
                if not future.done() and self.shared:
                    row = await self.store.pending(seat.token, str(number))
                    if row is not None and row.value is not None and not future.done():
                        future.set_result(row.value)
            if not future.done():
                row = await self.store.pending(seat.token, str(number))
                if row is not None and row.value is not None:
                    future.set_result(row.value)  # taken in time, whoever took it
            if not future.done():
                return _Answer(
                    None,
                    "late",
                    f"no move within {limit} s",
                    int((time.monotonic() - started) * 1000),
                )
        finally:
            self.persons.pop(seat.token, None)
        return _Answer(future.result(), ms=int((time.monotonic() - started) * 1000))

    async def person_move(self, token: str, number: int, value: str) -> tuple[int, str]:
        """Take a person's ``ReturnValue`` for move ``number``; return (HTTP status, note).
        Any worker may take it: it is checked against the game's recorded position and
        recorded in the store, the first one only.

        200: taken. 404: no move of this seat is asked now (wrong token, an old page, the
        game over). 422: the value is not legal here (the page is asked again).
        """
        value = value.strip()
        move_id = str(number)
        asked = self.persons.get(token)
        if asked is not None and asked.number == number and not asked.future.done():
            rules, state, player = asked.rules, asked.state, Player(asked.seat + 1)
        else:
            row = await self.store.pending(token, move_id)
            if row is None or row.value is not None or aware(row.expires_at) < self.store.now():
                return 404, "no move is asked of this seat now"
            found = await self.store.game(row.game_id)
            interface = await self.find_set(found[0].set_name) if found else None
            found_rules = interface.arbitre if interface else None
            if found is None or found_rules is None or found[0].status != "playing":
                return 404, "no move is asked of this seat now"
            if found[0].moves != number - 1:
                return 404, "no move is asked of this seat now"
            rules, state, player = found_rules, turn_from(found[0].turn).state, Player(row.seat + 1)
        try:
            rules.person_value(state, player, value)
        except IllegalMove as illegal:
            return 422, f"not legal: {illegal}"
        kind, _ = await self.store.answer(token, move_id, value, "")
        if kind != "taken":
            return 404, "no move is asked of this seat now"
        asked = self.persons.get(token)
        if asked is not None and asked.number == number and not asked.future.done():
            asked.future.set_result(value)
        else:
            await self._relay_answer(token, move_id)
        return 200, "taken"

    async def asked_person(self, token: str) -> int | None:
        """Return the move number asked of the person holding ``token``, or ``None``."""
        asked = self.persons.get(token)
        if asked is not None and not asked.future.done():
            return asked.number
        return await self.store.asked_move(token)

    # --- recording ----------------------------------------------------------------------

    async def _save_log(self, game_id: str, exchanges: list[Exchange]) -> None:
        if not exchanges:
            return
        async with self.store.session() as session:
            for seat, kind, detail, at in exchanges:
                session.add(
                    ExchangeRow(
                        game_id=game_id,
                        seat=seat,
                        kind=kind,
                        move_id="",
                        detail=detail[:8192],
                        at=self.store.from_host(at),
                    )
                )

    async def _save_moves(self, game: GameRow, rules: ArbitreRules, played: list[_Played]) -> None:
        """Record ``played`` (moves numbered on from the game's last) and the game's turn
        after the last, in one transaction; raise :class:`LeaseLost` when this worker no
        longer drives the game."""
        async with self.store.session() as session:
            for move in played:
                tray = str(rules.page(move.turn, None, asking=False).get("Tray", ""))
                session.add(
                    MoveRow(
                        game_id=game.id,
                        number=move.number,
                        seat=move.seat,
                        value=move.value,
                        turn=turn_json(move.turn),
                        tray=tray,
                        ms=move.answer.ms,
                        query=move.answer.query[:8192],
                        error="",
                        at=self.store.now(),
                    )
                )
                for index, kind, detail, at in move.exchanges:
                    session.add(
                        ExchangeRow(
                            game_id=game.id,
                            seat=index,
                            kind=kind,
                            move_id=str(move.number),
                            detail=detail[:8192],
                            at=self.store.from_host(at),
                        )
                    )
            row = await session.get(GameRow, game.id, with_for_update=True)
            if row is None or row.lease_owner != self.worker:
                raise LeaseLost(game.id)
            if row.status != "playing" or row.moves != played[0].number - 1:
                raise RuntimeError(f"game {game.id} changed under its driver")
            data = turn_json(played[-1].turn)
            row.turn, row.moves = data, played[-1].number
        game.turn, game.moves = data, played[-1].number

    async def _finish(
        self,
        game: GameRow,
        seats: list[SeatRow],
        rules: ArbitreRules | None,
        turn: Turn,
        result: Result | None,
        reason: str,
        *,
        error: bool = False,
        status: str = "over",
    ) -> None:
        """End the game: store the result, each seat's Status and the final calls (in one
        transaction), publish, then send the final calls (decision 10)."""
        statuses = [status_for(result, Player(seat.index + 1), error) for seat in seats]
        calls = self._final_calls(game, seats, rules, turn, statuses)
        async with self.store.session() as session:
            row = await session.get(GameRow, game.id, with_for_update=True)
            if row is None or row.status != "playing":
                return
            if row.lease_owner != self.worker:
                return  # another worker drives it now (or nobody: it will be taken over)
            row.lease_owner, row.lease_until = None, None
            row.status = status
            row.winner = (
                None
                if error or result is None or result.winner is None
                else (int(result.winner) - 1)
            )
            row.result = (
                "error"
                if error or result is None
                else "draw"
                if result.winner is None
                else f"seat{int(result.winner)}"
            )
            row.reason = reason[:2000]
            row.ended_at = self.store.now()
            for seat, final in zip(seats, statuses, strict=True):
                stored = await session.get(SeatRow, seat.id)
                if stored is not None:
                    stored.final_status = final
                    stored.error = seat.error
            at = self.store.now()
            for index, url in calls:
                session.add(
                    ExchangeRow(
                        game_id=game.id,
                        seat=index,
                        kind="final",
                        move_id="",
                        detail=url[:8192],
                        at=at,
                    )
                )
        for seat in seats:
            asked = self.persons.get(seat.token)
            if asked is not None and not asked.future.done():
                asked.future.cancel()
        await self.store.close_pending(game.id)  # its asks are over: late from now on
        await self.hub.publish(game.id, {"moves": game.moves, "over": True})
        if game.tournament_id is not None:
            await self.nudge()  # its tournament's next game may start now
        answers = await asyncio.gather(*(self.caller.final(url) for _, url in calls))
        await self._save_log(
            game.id,
            [
                (index, *note("answer", f"final call answered: {answer}"))
                for (index, _), answer in zip(calls, answers, strict=True)
            ],
        )

    def _final_calls(
        self,
        game: GameRow,
        seats: list[SeatRow],
        rules: ArbitreRules | None,
        turn: Turn,
        statuses: list[int],
    ) -> list[tuple[int, str]]:
        """Return (seat index, URL) of each engine's final call."""
        if rules is None:
            return []
        options = Options.from_json(game.options)
        interface = self.lookup(game.set_name)
        calls = []
        for seat, final in zip(seats, statuses, strict=True):
            if seat.kind in ("person", "botsarena"):  # a bot has no final call (seed 003)
                continue
            try:
                game_params = rules.final(turn.state, Player(seat.index + 1))
            except Exception:  # a corrupt state must not stop the other final calls
                log.exception("final call of game %s", game.id)
                game_params = {}
            params = self._params(
                rules,
                seat,
                options,
                game_params,
                move_id=None,
                status=final,
                opponent=self._opponent(game, seat, seats),
            )
            if seat.kind == "builtin" and interface is not None:
                url = self.builtin_url(interface, seat.url)
            else:
                url = seat.url
            calls.append((seat.index, engine_url(url, params)))
        return calls

    async def _log_refused(
        self, game_id: str, seat: int, kind: str, move_id: str, detail: str
    ) -> None:
        await self.store.log(game_id, seat, kind, move_id, detail)

    # --- reading ------------------------------------------------------------------------

    def hides(self, game: GameRow, interface: PlayedSet) -> bool:
        """Whether the game, in play, holds information a spectator may not see (a fleet, a
        code, hole cards: decision 23), i.e. its spectators' page differs from the revealed
        one. Then the moves' values, trays and the engines' exchanges are withheld from the
        record and the pages until the end."""
        rules = interface.arbitre
        if game.status != "playing" or rules is None:
            return False
        turn = turn_from(game.turn)
        return dict(rules.page(turn, None, asking=False)) != dict(
            rules.page(turn, None, asking=False, reveal=True)
        )

    async def record(self, game_id: str) -> dict[str, Any] | None:
        """Return a game's whole record as a JSON document (the export), or ``None``."""
        found = await self.store.game(game_id)
        if found is None:
            return None
        game, seats = found
        moves = await self.store.moves(game_id)
        exchanges = await self.store.exchanges(game_id)
        interface = await self.find_set(game.set_name)
        rules = interface.arbitre if interface is not None else None
        hidden = interface is not None and self.hides(game, interface)

        def tray(move: MoveRow) -> str:
            if hidden:
                return "?"
            if game.status == "playing" or rules is None:
                return move.tray
            return str(
                rules.page(turn_from(move.turn), None, asking=False, reveal=True).get("Tray", "")
            )

        def shown(text: str) -> str:
            return "?" if hidden else redact(text, seats)

        return {
            "id": game.id,
            "set": game.set_name,
            "status": game.status,
            "result": game.result,
            "winner": game.winner,
            "reason": game.reason,
            "options": game.options,
            "created_at": game.created_at.isoformat(),
            "ended_at": game.ended_at.isoformat() if game.ended_at else None,
            "seats": [
                {
                    "index": s.index,
                    "kind": s.kind,
                    "name": s.name,
                    "url": s.url if s.kind in ("engine", "botsarena") else "",
                    "builtin": s.url if s.kind == "builtin" else "",
                    "status": s.final_status,
                    "error": s.error,
                }
                for s in seats
            ],
            "hidden": hidden,
            "moves": [
                {
                    "number": m.number,
                    "seat": m.seat,
                    "value": "?" if hidden else m.value,
                    "tray": tray(m),
                    "ms": m.ms,
                    "query": shown(m.query),
                    "error": m.error,
                    "at": m.at.isoformat(),
                }
                for m in moves
            ],
            "exchanges": [
                {
                    "seat": e.seat,
                    "kind": e.kind,
                    "move": e.move_id,
                    "detail": shown(e.detail),
                    "at": e.at.isoformat(),
                }
                for e in exchanges
            ],
        }

    async def position(
        self, game_id: str, move: int | None
    ) -> tuple[GameRow, list[SeatRow], Turn, int] | None:
        """Return a game, its seats, the Turn after ``move`` (``None``: the current one) and
        that move's number."""
        found = await self.store.game(game_id)
        if found is None:
            return None
        game, seats = found
        if move is None or move >= game.moves:
            return game, seats, turn_from(game.turn), game.moves
        move = max(0, move)
        if move == 0:
            return game, seats, turn_from(game.first), 0
        async with self.store.sessions() as session:
            row = (
                await session.scalars(
                    select(MoveRow).where(MoveRow.game_id == game_id, MoveRow.number == move)
                )
            ).one_or_none()
        if row is None:
            return None
        return game, seats, turn_from(row.turn), move
