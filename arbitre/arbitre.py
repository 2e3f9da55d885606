"""The Arbitre of one process: it makes games and hands them to its worker, whose game
master drives them; its parts, each in a module of its own:

- :mod:`.catalogue`: the Sets it plays (the registry's and the added ones);
- :mod:`.guis`: the interfaces a game is shown through (ours and registered ones);
- :mod:`.match`: what a match is asked as (seats, options) and its checks;
- :mod:`.seats`: the seat kinds, one class each with one ``ask``;
- :mod:`.asks`: every ask awaiting an answer, and the answers' way to it;
- :mod:`.calls`: the HTTP calls to Tournoyons engines;
- :mod:`.master`: driving one game; :mod:`.worker`: leases, scans, the bus;
- :mod:`.record`: a game's record and positions; :mod:`.store`: the records, the only SQL.

A game survives its driver: a server stopped or killed mid-game leaves it in progress, and
the restarted server, or another worker of the same database, takes it over from its last
recorded move. Only a game whose Set is no longer served is ended as interrupted, its
engines getting ``Status=9`` (decision 11, :meth:`Arbitre.recover`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from tournoyons_gui.arbitre import metrics
from tournoyons_gui.arbitre.added import AddedSet
from tournoyons_gui.arbitre.asks import Asks
from tournoyons_gui.arbitre.calls import EngineCaller
from tournoyons_gui.arbitre.catalogue import Catalogue, PlayedSet
from tournoyons_gui.arbitre.compaction import Compactor
from tournoyons_gui.arbitre.guis import Interfaces
from tournoyons_gui.arbitre.live import Bus, Hub, LocalBus, PgBus, SocketBus
from tournoyons_gui.arbitre.master import GameMaster
from tournoyons_gui.arbitre.match import (
    MAX_SEAT_NAME,
    GameError,
    Options,
    SeatSpec,
    check_options,
    check_text,
    first_turn,
)
from tournoyons_gui.arbitre.outbound import Outbound
from tournoyons_gui.arbitre.record import Records
from tournoyons_gui.arbitre.seats import KINDS, SeatKind, Services
from tournoyons_gui.arbitre.store import Game, LadderPlace, MatchGame, Seat, Store, new_id
from tournoyons_gui.arbitre.turns import turn_from, turn_json
from tournoyons_gui.arbitre.worker import Worker
from tournoyons_gui.interfaces.plugin import (
    ArbitreRules,
    Turn,
    seat_count,
)
from tournoyons_gui.interfaces.registry import Registry

if TYPE_CHECKING:
    import httpx

__all__ = ["Arbitre", "TournamentPlace"]

#: A tournament's game: (tournament id, round, pairing number, the entrant in seat 0, in
#: seat 1; ``None`` for a table's filler).
TournamentPlace = tuple[str, int, int, int | None, int | None]


class Arbitre:
    """The Arbitre of one process: its store, its Sets, its seat kinds, its games in play.

    ``public_url``: this server's base URL as engines reach it (``http://127.0.0.1:8000``);
    the Referee URL is ``<public_url>/referee`` and the built-in engines are at
    ``<public_url>/engines/<set>/<name>``. ``engine_hosts``: when given, the only hosts an
    engine URL may name (a server open to the world, decision 13). ``outbound``: the
    policy every call is held to (:class:`~tournoyons_gui.arbitre.outbound.Outbound`;
    default: this public URL's, with ``engine_hosts``). ``lease_seconds``,
    ``scan_every``, ``max_games``, ``keep_logs`` (``serve --keep-logs``): the worker's
    (:class:`~tournoyons_gui.arbitre.worker.Worker`). ``run_folder``: where the workers of
    one machine sharing a SQLite file find each other's bus
    (:class:`~tournoyons_gui.arbitre.live.SocketBus`). ``drive``: whether this process
    drives games (``serve --no-drive``: a web process beside drivers on the same
    PostgreSQL; it makes games for them, waking them at once, and drives none).
    """

    def __init__(
        self,
        registry: Registry,
        store: Store,
        public_url: str,
        *,
        engine_hosts: frozenset[str] | None = None,
        outbound: Outbound | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        lease_seconds: float = 15.0,
        scan_every: float = 1.0,
        max_games: int = 500,
        run_folder: str | None = None,
        drive: bool = True,
        keep_logs: float | None = None,
    ) -> None:
        self.registry = registry
        self.store = store
        self.public_url = public_url.rstrip("/")
        self.engine_hosts = engine_hosts
        self.outbound = outbound or Outbound.for_server(self.public_url, engine_hosts=engine_hosts)
        self.lease_seconds = lease_seconds
        self.drives = drive
        self._turns = itertools.count()
        name = new_id(12)
        self.shared = store.shared
        self.bus: Bus
        if store.postgres:
            self.bus = PgBus(name, store.dsn)
        elif store.shared:
            if run_folder is None:
                raise ValueError("a SQLite file shared by several processes needs a run folder")
            self.bus = SocketBus(name, run_folder)
        else:
            self.bus = LocalBus(name)
        self.hub = Hub(self.bus)
        self.catalogue = Catalogue(registry, store, self.outbound)
        #: Our interfaces and the registered ones, any of which may show a game.
        self.interfaces = Interfaces(store, self.catalogue, self.outbound)
        self.asks = Asks(
            store,
            self.bus,
            self.catalogue,
            shared=self.shared,
            routed=isinstance(self.bus, SocketBus),
        )
        self.caller = EngineCaller(
            self.asks,
            f"{self.public_url}/referee",
            transport,
            allowed_hosts=engine_hosts,
            outbound=self.outbound,
        )
        self.services = Services(
            store,
            self.asks,
            self.caller,
            self.hub,
            self.public_url,
            engine_hosts,
            self.shared,
            self.outbound,
            worker=name,
        )
        self.kinds: dict[str, SeatKind] = {n: kind(self.services) for n, kind in KINDS.items()}
        self.records = Records(store, self.catalogue)
        self.master = GameMaster(
            self.services, self.kinds, self.catalogue, name, self.nudge, lease_seconds
        )
        self.worker = Worker(
            store,
            self.bus,
            self.hub,
            self.asks,
            self.master,
            name=name,
            lease_seconds=lease_seconds,
            scan_every=scan_every,
            max_games=max_games if drive else 0,
            compactor=Compactor(store, self.catalogue.lookup, name, keep_logs=keep_logs),
        )

    async def run(self) -> None:
        """Start this worker's background work (:meth:`Worker.run`): games, compaction."""
        await self.worker.run()

    async def close(self) -> None:
        """Stop the games in play (they stay in progress, to be taken over), the client
        and the process engines (their process groups killed)."""
        await self.worker.close()
        await self.caller.close()
        await self.services.processes.close()

    async def nudge(self) -> None:
        """Have every worker scan now."""
        await self.worker.nudge()

    @property
    def on_scan(self) -> list[Callable[[], Awaitable[None]]]:
        """Return the hooks run after every scan (the tournaments', the ladder's)."""
        return self.worker.on_scan

    async def wait(self, game_id: str) -> None:
        """Return when ``game_id``'s task in this process has ended."""
        await self.worker.wait(game_id)

    # --- the Sets ----------------------------------------------------------------------

    @property
    def added(self) -> dict[str, AddedSet]:
        """Return the added Sets as last loaded, by key."""
        return self.catalogue.added

    def playable(self) -> list[PlayedSet]:
        """Return the Sets the Arbitre can play (:meth:`Catalogue.playable`)."""
        return self.catalogue.playable()

    def lookup(self, name: str | None) -> PlayedSet | None:
        """Return the Set called ``name`` (:meth:`Catalogue.lookup`)."""
        return self.catalogue.lookup(name)

    async def find_set(self, name: str | None) -> PlayedSet | None:
        """Return the Set called ``name``, reading the added ones again if needed."""
        return await self.catalogue.find(name)

    async def load_added(self) -> None:
        """Read the added Sets from the store."""
        await self.catalogue.load_added()

    # --- making a game ------------------------------------------------------------------

    def check(
        self, set_name: str, seats: Sequence[SeatSpec], options: Options
    ) -> tuple[PlayedSet, ArbitreRules, list[SeatSpec]]:
        """Return the Set, its rules and the seats made whole (each by its kind); raise
        :class:`GameError` for an unknown Set, options it cannot take, a number of seats
        it is not played by, an unknown kind, or a seat its kind refuses."""
        interface = self.lookup(set_name)
        if interface is None:
            raise GameError(f"unknown Set {set_name!r}")
        rules = self.check_options(interface, options)
        count = seat_count(rules)
        if len(seats) != count:
            raise GameError(f"{interface.name} is played by {count} seats, not {len(seats)}")
        made: list[SeatSpec] = []
        for number, seat in enumerate(seats, 1):
            kind = self.kinds.get(seat.kind)
            if kind is None:
                raise GameError(f"seat {number} is one of {', '.join(KINDS)}, not {seat.kind!r}")
            name = check_text(seat.name, f"seat {number}'s name", MAX_SEAT_NAME)
            made.append(kind.check(SeatSpec(seat.kind, seat.engine, name), interface, number))
        return interface, rules, made

    def check_options(self, interface: PlayedSet, options: Options) -> ArbitreRules:
        """Return the Set's rules when the match options suit it (:func:`check_options`)."""
        return check_options(interface.name, interface.arbitre, options)

    async def create(
        self,
        set_name: str,
        seats: Sequence[SeatSpec],
        options: Options | None = None,
        *,
        start: bool = True,
        registrations: Sequence[str] = (),
        tournament: TournamentPlace | None = None,
        start_tray: str | None = None,
        entrants: Sequence[int | None] = (),
        match_place: MatchGame | None = None,
    ) -> str:
        """Check, store and start a game; return its public id (:meth:`make`)."""
        game, _ = await self.make(
            set_name,
            seats,
            options,
            start=start,
            registrations=registrations,
            tournament=tournament,
            start_tray=start_tray,
            entrants=entrants,
            match_place=match_place,
        )
        return game.id

    async def make(
        self,
        set_name: str,
        seats: Sequence[SeatSpec],
        options: Options | None = None,
        *,
        start: bool = True,
        registrations: Sequence[str] = (),
        tournament: TournamentPlace | None = None,
        start_tray: str | None = None,
        entrants: Sequence[int | None] = (),
        match_place: MatchGame | None = None,
        ladder: LadderPlace | None = None,
    ) -> tuple[Game, list[Seat]]:
        """Check, store and start a game; return it and its seats as stored. Raises
        :class:`GameError`,
        and then stores nothing (:class:`~tournoyons_gui.arbitre.store.Conflict` when a
        tournament's pairing was made meanwhile).

        ``start=False`` leaves the game to the first worker whose scan finds it (a
        tournament's games are spread over the workers so). ``registrations``: each seat's
        registered engine id, or ``""`` (sent to the opponent as ``Opponent`` when the game
        is a competition match, i.e. belongs to ``tournament``). ``start_tray``: the
        position the game starts from (:func:`~.match.first_turn`). ``entrants``: each seat's
        tournament entrant (``None``: a table's filler), by default the ``tournament``'s
        two. ``match_place``, ``ladder``: its place in a match or in the ladder (its pair,
        the engines' slots), stored with it in one transaction.
        """
        options = options or Options()
        await self.catalogue.find(set_name)
        interface, rules, made = self.check(set_name, seats, options)
        turn = turn_json(
            first_turn(
                interface.name, rules, options.level, start_tray, options.deals, options.seed
            )
        )
        game_id = new_id(12)
        place = tournament or (None, None, None, None, None)
        seated = list(entrants) if entrants else [place[3], place[4]]
        game = Game(
            id=game_id,
            set_name=interface.name,
            status="playing",
            options=options.to_json(),
            turn=turn,
            first=turn,
            moves=0,
            winner=None,
            result="",
            reason="",
            created_at=self.store.now(),
            lease_owner=self.worker.name if start else None,
            lease_until=self.store.now() + dt.timedelta(seconds=self.lease_seconds)
            if start
            else None,
            tournament_id=place[0],
            round=place[1],
            pairing=place[2],
            entrant1=place[3],
            entrant2=place[4],
            ladder=ladder is not None,
        )
        seats_made = [
            Seat(
                game_id=game_id,
                index=index,
                kind=seat.kind,
                name=seat.name,
                url=seat.engine,
                key=new_id(10),
                token=new_id(26),
                registration=registrations[index] if index < len(registrations) else "",
                entrant=seated[index] if index < len(seated) else None,
            )
            for index, seat in enumerate(made)
        ]
        made_here = start
        start = start and self.drives
        driver = self._driver() if start else None
        bound = self._bound(made)
        if bound is not None:
            # Its players are reached through connections one process holds: driven by
            # that process alone, whatever --workers or --no-drive says.
            game.bound = bound
            held = bound in self.worker.holding
            # Its players are connected already (a room's, a full table's): held here. A
            # table made from the web waits for its clients, held by whoever seats them.
            connected = any(seat.engine for seat in made if seat.kind == bound)
            game.holder = self.worker.name if held and connected else None
            driver = self.worker.name if held and made_here else None
            game.lease_owner = driver
            game.lease_until = (
                None
                if driver is None
                else self.store.now() + dt.timedelta(seconds=self.lease_seconds)
            )
        if driver is not None and driver != self.worker.name:
            game.lease_owner = game.lease_until = None  # the other worker takes it
        linked = None
        if match_place is not None:
            linked = dataclasses.replace(match_place, game_id=game_id)
        await self.store.create_game(game, seats_made, linked, ladder)
        metrics.started(game.set_name)
        if driver == self.worker.name:
            self.worker.start(game_id, made=(game, seats_made))
        elif driver is not None:
            await self.bus.send_to(driver, {"t": "drive", "id": game_id})
        elif made_here and (not self.drives or bound is not None):
            await self.nudge()  # a driver's scan (one holding its kind, if bound) takes it
        return game, seats_made

    def _bound(self, seats: Sequence[SeatSpec]) -> str | None:
        """Return the seat kind binding a game of ``seats`` to the process holding its
        players' connections (:attr:`SeatKind.bound`), or ``None``."""
        return next((s.kind for s in seats if self.kinds[s.kind].bound), None)

    async def hold(self, kind: str, held: bool = True) -> None:
        """Say that this process holds (``held``), or no longer holds, the connections of
        the bound seat kind ``kind`` (its rooms' IRC session, its MaitreTarot listener):
        the games bound to it are made, leased and driven here (:meth:`Worker.hold`)."""
        await self.worker.hold(kind, held)

    def _driver(self) -> str:
        """Return the worker that drives a game made here: this one, or with several
        workers of one machine (:class:`SocketBus`) each in turn, so that a client making
        every game through one kept connection (one worker) still spreads them; a worker
        that does not take its game (gone meanwhile) leaves it to the next scan."""
        if not isinstance(self.bus, SocketBus):
            return self.worker.name
        peers = self.bus.peers()
        return peers[next(self._turns) % len(peers)]

    async def recover(self) -> list[str]:
        """End every game in progress whose Set this server no longer plays as interrupted
        (Status 9, decision 11); return their ids. The others are taken over by the scan
        from their last recorded move."""
        ended = []
        for game_id in await self.store.playing():
            if game_id in self.worker.tasks:
                continue
            found = await self.store.game(game_id)
            if found is None:
                continue
            game, seats = found
            interface = await self.find_set(game.set_name)
            if interface is not None and interface.arbitre is not None:
                continue
            if not await self.store.acquire(game_id, self.worker.name, self.lease_seconds):
                continue
            why = f"interrupted: this server no longer plays {game.set_name}"
            await self.master.finish(
                game, seats, None, turn_from(game.turn), None, why, status="interrupted"
            )
            ended.append(game_id)
        return ended

    async def cancel(
        self, game_id: str, why: str = "cancelled by an organiser", *, status: str = "interrupted"
    ) -> bool:
        """End a game in play with no result for ``why``, as ``status``, here or through
        the worker driving it; return whether it ended so (:meth:`Worker.cancel`)."""
        return await self.worker.cancel(game_id, why, status)

    # --- reading ------------------------------------------------------------------------

    def hides(self, game: Game, interface: PlayedSet) -> bool:
        """Whether the game, in play, withholds information from spectators."""
        return self.records.hides(game, interface)

    async def record(self, game_id: str) -> dict[str, Any] | None:
        """Return a game's whole record as a JSON document, or ``None``."""
        return await self.records.export(game_id)

    async def position(
        self, game_id: str, move: int | None
    ) -> tuple[Game, list[Seat], Turn, int] | None:
        """Return a game, its seats, the Turn after ``move`` and that move's number."""
        return await self.records.position(game_id, move)
