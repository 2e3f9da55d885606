"""The Arbitre's HTTP side, split by who calls it. Game-agnostic: every game detail comes
from the Set's :class:`~tournoyons_gui.interfaces.plugin.ArbitreRules` through the
:class:`~tournoyons_gui.arbitre.arbitre.Arbitre`.

- :mod:`.front`: the front page (``/arbitre``): what is going on, live;
- :mod:`.pages`: for people: start a game, the games, a game live or replayed, its log,
  the added games (chapter VI);
- :mod:`.ladder`: the standing ladder's pages and JSON;
- :mod:`.api`: for programs: start a game, its record, add a game (JSON);
- :mod:`.returns`: the engines' callbacks (``/referee``) and the persons' moves
  (``/play``), and the added games' ``ReturnURL``;
- :mod:`.served`: what other Arbitres call here: the built-in engines, as engines and as
  botsarena bots, and each Set's rules as a chapter VI referee;
- :mod:`.events`: the live events of a game and of a tournament (SSE);
- :mod:`.tools`: the engine tester and the engine check;
- :mod:`.rooms`: the timi rooms open on IRC, who is in each, their games;
- :mod:`.tournament_pages` and :mod:`.tournament_api`: registered engines and
  tournaments, their pages, their API and exports (:mod:`.chart` draws a rating);
- :mod:`.interface_pages`: registered graphical interfaces, their pages and API;
  :mod:`.compare`: a game through two interfaces side by side;
- :mod:`.match_pages` and :mod:`.match_api`: ``play``'s matches, their pages and their
  JSON twins (:mod:`.match_records` reads them, :mod:`.match_chart` draws the
  SPRT); :mod:`.match_diff_pages`: two runs compared, two games side by side at a ply;
- :mod:`.bodies` (and :mod:`.served_bodies`): the JSON API's request bodies, one pydantic
  model each (validation and schema); :mod:`.answers`: its answers' models;
  :mod:`.operations`, :mod:`.parameters` and :mod:`.openapi`: its OpenAPI 3.1 document
  (``/api/openapi.json``, its examples captured from a running server) and the JSON
  404/405 of its paths; :mod:`.cors`: ``serve --cors``;
- :mod:`.common`: what they share (a page rendered ``no-store``, bodies, fields);
  :mod:`.paging`: a list's page asked (``?after=``, ``?limit=``) and the next one linked;
  :mod:`.registering`: the one path of engines' and interfaces' registrations;
- :mod:`.guard` (limits, tokens, same-origin) and :mod:`.metrics` (``/metrics``, answers
  counted by status): the middlewares the server puts before the routes.

:class:`ArbitreWeb` gathers the game parts' routes; the server puts them (then the
tournament parts') before the Sets' ``/{set}/`` pages.
"""

from __future__ import annotations

from collections.abc import Callable

import jinja2
from starlette.routing import Route
from starlette.types import ASGIApp

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.web.api import GameApi
from tournoyons_gui.arbitre.web.compare import Compare
from tournoyons_gui.arbitre.web.events import Events
from tournoyons_gui.arbitre.web.front import FrontPage
from tournoyons_gui.arbitre.web.hot import HotRoutes
from tournoyons_gui.arbitre.web.interface_pages import InterfacePages
from tournoyons_gui.arbitre.web.ladder import LadderPages
from tournoyons_gui.arbitre.web.match_api import MatchApi
from tournoyons_gui.arbitre.web.match_diff_pages import MatchDiffPages
from tournoyons_gui.arbitre.web.match_pages import MatchPages
from tournoyons_gui.arbitre.web.match_records import Summaries
from tournoyons_gui.arbitre.web.pages import GamePages
from tournoyons_gui.arbitre.web.returns import Returns
from tournoyons_gui.arbitre.web.rooms import RoomPages
from tournoyons_gui.arbitre.web.served import Served
from tournoyons_gui.arbitre.web.tools import Tools
from tournoyons_gui.arbitre.web.tournament_api import TournamentApi
from tournoyons_gui.arbitre.web.tournament_pages import TournamentPages

__all__ = [
    "ArbitreWeb",
    "Compare",
    "Events",
    "FrontPage",
    "GameApi",
    "GamePages",
    "HotRoutes",
    "InterfacePages",
    "LadderPages",
    "MatchApi",
    "MatchDiffPages",
    "MatchPages",
    "Returns",
    "RoomPages",
    "Served",
    "Tools",
    "TournamentApi",
    "TournamentPages",
]


class ArbitreWeb:
    """The Arbitre's routes for games; ``holder()`` returns the :class:`Arbitre` once the
    server has started (it opens the store in its lifespan), ``env`` renders the pages;
    ``can_check()`` says whether the server can run an interface check (a Chromium)."""

    def __init__(
        self,
        holder: Callable[[], Arbitre],
        env: jinja2.Environment,
        *,
        can_check: Callable[[], bool] = lambda: False,
    ) -> None:
        self.api = GameApi(holder, env)
        self.compare = Compare(holder, env)
        self.front = FrontPage(holder, env)
        self.ladder = LadderPages(holder, env)
        self.events = Events(holder, env)
        self.interfaces = InterfacePages(holder, env, can_check=can_check)
        self.pages = GamePages(holder, env)
        self.returns = Returns(holder, env)
        self.served = Served(holder, env)
        self.tools = Tools(holder, env)
        self.rooms = RoomPages(holder, env)
        summaries = Summaries()
        self.match_api = MatchApi(holder, env, summaries)
        self.match_diff = MatchDiffPages(holder, env)
        self.matches = MatchPages(holder, env, summaries)

    def hot(self, app: ASGIApp) -> HotRoutes:
        """Return ``app`` behind the move path's two routes (:class:`HotRoutes`)."""
        return HotRoutes(app, self.returns, self.served)

    def routes(self) -> list[Route]:
        """Return the routes, to be tried before the Sets' ``/{set}/`` pages. The API's come
        first: its ``/games/<id>.json`` would otherwise be taken by ``/games/<id>``."""
        return [
            *self.api.routes(),
            *self.front.routes(),
            *self.ladder.routes(),
            *self.pages.routes(),
            *self.events.routes(),
            *self.compare.routes(),
            *self.interfaces.routes(),
            *self.returns.routes(),
            *self.served.routes(),
            *self.tools.routes(),
            *self.rooms.routes(),
            # The JSON twin's /matches/<id>.json and the diff's /matches/diff before
            # the page's /matches/<id>, which would take them.
            *self.match_api.routes(),
            *self.match_diff.routes(),
            *self.matches.routes(),
        ]
