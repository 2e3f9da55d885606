"""``create_app()``: the application, assembled from modules that each own one concept.

- :mod:`tournoyons_gui.server.http`: security headers, conditional GET, rendered pages and gzip;
- :mod:`tournoyons_gui.server.assets`: static assets under content-hashed URLs;
- :mod:`tournoyons_gui.server.environment`: the one Jinja environment;
- :mod:`tournoyons_gui.server.pages`: the Sets' pages and their cache;
- :mod:`tournoyons_gui.server.tester`: the tester and its API; :mod:`tournoyons_gui.server.sink`:
its return sink;
- :mod:`tournoyons_gui.server.checks`: the interface checks run here (:mod:`.check`, in
  Chromium, over the contexts of :mod:`.contexts`);
- :mod:`tournoyons_gui.arbitre.web`: the Arbitre's routes (games, then tournaments), its
  Arbitre started with the lifespan; its style and scripts are the ``arbitre`` assets.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import socket
from collections.abc import AsyncIterator, Iterable
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.routing import Route
from starlette.types import ASGIApp

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.ladder import LadderScheduler
from tournoyons_gui.arbitre.match import DEFAULT_TIMEOUT
from tournoyons_gui.arbitre.outbound import Outbound
from tournoyons_gui.arbitre.store import Store
from tournoyons_gui.arbitre.tournaments import Tournaments
from tournoyons_gui.arbitre.web import ArbitreWeb, TournamentApi, TournamentPages
from tournoyons_gui.arbitre.web.cors import Cors, CorsApp
from tournoyons_gui.arbitre.web.guard import UNLIMITED, Guard, GuardedApp, Limits
from tournoyons_gui.arbitre.web.metrics import EVERYWHERE, NOWHERE, Metered
from tournoyons_gui.arbitre.web.openapi import API_ROOTS, no_route, program_path, refused_route
from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.registry import Registry, load_registry
from tournoyons_gui.server.assets import load_assets
from tournoyons_gui.server.checks import Checks
from tournoyons_gui.server.environment import make_environment
from tournoyons_gui.server.http import SecurityHeaders
from tournoyons_gui.server.pages import Pages
from tournoyons_gui.server.sink import ReturnSink
from tournoyons_gui.server.tester import Tester

if TYPE_CHECKING:
    from tournoyons_gui.arbitre.maitretarot.lobby import Settings
    from tournoyons_gui.arbitre.rooms.referee import RoomOptions

__all__ = ["create_app"]

log = logging.getLogger(__name__)


class _Holder:
    """The Arbitre and its tournaments, made when the application starts (its store is
    opened then)."""

    def __init__(self) -> None:
        self.arbitre: Arbitre | None = None
        self.tournaments: Tournaments | None = None

    def __call__(self) -> Arbitre:
        if self.arbitre is None:
            raise RuntimeError("the Arbitre starts with the application's lifespan")
        return self.arbitre

    def service(self) -> Tournaments:
        """Return the tournaments' service."""
        if self.tournaments is None:
            raise RuntimeError("the Arbitre starts with the application's lifespan")
        return self.tournaments


#: Every method a route may be asked with: the API's root answers each with its 404.
ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def create_app(
    sets: Iterable[SetInterface] = (),
    *,
    frame_ancestors: str = "*",
    registry: Registry | None = None,
    database: str | None = None,
    public_url: str = "http://127.0.0.1:8000",
    engine_hosts: frozenset[str] | None = None,
    sink: bool = False,
    lease_seconds: float = 15.0,
    listen: tuple[str, int] | None = None,
    allow_hosts: Iterable[str] = (),
    admin_tokens: Iterable[str] = (),
    limits: Limits | None = None,
    maitretarot: tuple[socket.socket, Settings] | None = None,
    rooms: RoomOptions | None = None,
    shared: bool = False,
    run_folder: str | None = None,
    drive: bool = True,
    metrics: str | int | None = None,
    keep_logs: float | None = None,
    cors: Iterable[str] = (),
    ladder_games: int | None = None,
    ladder_timeout: int = DEFAULT_TIMEOUT,
) -> ASGIApp:
    """Return the ASGI application serving every registered Set, and the Arbitre.

    ``sets`` are added after the entry-point group ``tournoyons.interfaces``; ``registry``
    replaces the group altogether. ``frame_ancestors`` is the CSP source list of the hosts
    allowed to embed the pages (default ``*``: any). ``database``: the Arbitre's records
    (a SQLite file, default ``tournoyons_gui.arbitre.sqlite3``, or ``postgresql://...``);
    ``public_url``:
    this server's base URL as engines reach it (the Referee URL and the built-in engines
    are under it); ``engine_hosts``: when given, the only hosts engine URLs may name;
    ``sink``: serve the tester's return sink (``/return``, ``/return/log``);
    ``lease_seconds``: how long a game stays with a worker that stopped renewing its lease
    (a worker killed) before another takes it over; ``listen``: the address and port
    the server listens on (default: the public URL's; anything but loopback makes the
    outbound policy public),
    ``allow_hosts``: internal hosts it may call all the same (``--allow-hosts``);
    ``admin_tokens``: organiser tokens (``--admin-token``) besides those in the records;
    ``limits``: the limits per client address (default: :class:`Limits`'s on a public
    server, none on a loopback one, as the outbound policy's freedom); ``rooms``: referee
    timi rooms on a chat server beside the web (``serve --irc``); ``maitretarot``: a bound
    socket and the settings of a MaitreTarot server to run beside (its tables are Tarot
    games); ``shared``: other processes drive games on the same records (``serve
    --workers N``), telling each other through Unix sockets in ``run_folder`` (SQLite) or
    PostgreSQL's ``NOTIFY``; ``drive``: whether this process drives games (``serve
    --no-drive``: a web process making games for the drivers of its records);
    ``keep_logs``: the days a finished game's engine exchanges are kept (``serve
    --keep-logs``; ``None``: forever); ``metrics``: where ``/metrics`` is served
    (``serve --metrics``): ``None`` on a loopback server's listener and on no public one's,
    ``"public"`` on every listener, a port number only to the requests reaching that port
    (a listener of its own); ``cors``: the origins that may call the API from another
    site (``serve --cors``; ``*``: any origin, reads only; none by default);
    ``ladder_games``: schedule the standing ladder (``serve --ladder``), that many ladder
    games in flight per Set (``None``: this process schedules none; its pages show the
    ladder all the same), each game's ``TimeOut`` ``ladder_timeout`` seconds.
    """
    registry = registry if registry is not None else load_registry(sets)
    assets = load_assets(registry)
    env = make_environment(registry, assets)
    tester = Tester(registry, env)
    pages = Pages(registry, env, home=tester.page)
    returns = ReturnSink(env, enabled=sink)
    holder = _Holder()
    outbound = Outbound.for_server(
        public_url, listen, allow_hosts=allow_hosts, engine_hosts=engine_hosts
    )
    if limits is None:
        limits = Limits() if outbound.public else UNLIMITED

    # The limits count in the store, shared by every worker of its database.
    allowed = Cors(cors)
    guard = Guard(
        limits, admin_tokens, lambda: holder.arbitre.store if holder.arbitre else None, allowed
    )
    checks = Checks(holder, env)
    web = ArbitreWeb(holder, env, can_check=checks.can_check)
    api = TournamentApi(holder.service, guard.limits)
    tournament_pages = TournamentPages(holder.service, holder, env, guard.limits)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await Store.open(database, shared=shared)
        arbitre = Arbitre(
            registry,
            store,
            public_url,
            engine_hosts=engine_hosts,
            outbound=outbound,
            lease_seconds=lease_seconds,
            run_folder=run_folder,
            drive=drive,
            keep_logs=keep_logs,
        )
        holder.arbitre = arbitre
        holder.tournaments = Tournaments(arbitre)
        if ladder_games is not None:
            LadderScheduler(arbitre, games=ladder_games, timeout=ladder_timeout)
        interrupted = await arbitre.recover()
        if interrupted:
            log.warning("%d game(s) left in progress were ended as interrupted", len(interrupted))
        await arbitre.run()
        referee = rooms.referee(arbitre) if rooms is not None else None
        if referee is not None:
            await referee.run()
        tables = None
        if maitretarot is not None:
            from tournoyons_gui.arbitre.maitretarot.server import MaitreTarotServer

            tables = MaitreTarotServer(arbitre, maitretarot[1])
            await tables.start(sock=maitretarot[0])
        # What this process made to start (modules, templates, the schema's metadata,
        # the Sets' rules) lives as long as it does: out of the garbage collector's full
        # passes, which otherwise walk it all again and again (74 ms each, a page's time
        # ten times over, measured at a million games).
        gc.freeze()
        try:
            yield
        finally:
            await checks.close()  # this worker's checks: shown interrupted at once
            if tables is not None:
                await tables.close()
            if referee is not None:
                await referee.close()
            await arbitre.close()
            await store.close()

    routes = [
        Route("/", pages.root),
        *web.routes(),
        *checks.routes(),
        *api.routes(),
        *tournament_pages.routes(),
        # The API's root is no Set's page: its 404 is JSON, whatever the method.
        *(Route(root, no_route, methods=ANY_METHOD) for root in API_ROOTS),
        # Pages first: "/{set}/" matches no other route's path ("/return/" and "/healthz/"
        # already named no Set), and the routes are tried in order on every request.
        Route("/{set}/", pages.set_page),
        Route("/healthz", pages.healthz),
        Route("/return", returns.record),
        Route("/return/log", returns.log),
        Route("/tester/{set}/new", tester.new, methods=["POST"]),
        Route("/tester/{set}/play", tester.play, methods=["POST"]),
        Route("/static/{digest}/{namespace}/{name:path}", assets.serve),
        Route("/{set}", pages.set_page),
    ]
    # A program's path answers its 404 (no route: a mangled id) and 405 in JSON too.
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={404: refused_route, 405: refused_route},
    )
    app.state.arbitre_holder = holder
    if metrics is None:
        where = NOWHERE if outbound.public else EVERYWHERE
    else:
        where = EVERYWHERE if metrics == "public" else frozenset({int(metrics)})
    # Outside Starlette's error middleware, so that even its 500 carries the headers and
    # is counted; the guard's refusals (429) are counted too.
    guarded = CorsApp(GuardedApp(web.hot(app), guard, program_path), allowed, program_path)
    return SecurityHeaders(Metered(guarded, holder, where), frame_ancestors=frame_ancestors)
