"""The HTML pages of registered engines and tournaments (their JSON API and exports are
:mod:`~tournoyons_gui.arbitre.web.tournament_api`). Every page works without JavaScript
(plain forms and links); ``arbitre/static/tournament.js`` adds entrant rows to the
new-tournament form and refreshes a running tournament's page from
``/tournaments/<id>.json`` every 2 s.

Routes:

- ``GET /engines[?after=CURSOR]``: a page of the registered engines and the form to
  register one; ``POST /engines`` registers it (303 to its page; 400 with the form
  refilled and the error shown), through the one registration path (:mod:`.registering`).
- ``GET /engines/<id>``: an engine's record (results per Set and per opponent, its games,
  its rating over time per Set as an SVG chart drawn here, its ladder standing in each Set
  and its results against each ladder opponent) and the forms to edit (its ladder
  settings too), retire or bring it back (``POST /engines/<id>``, ``action`` ``edit``,
  ``retire``, ``unretire``).
- ``GET /tournaments[?after=CURSOR]``: a page of the tournaments (newest first, a plain
  link to the next) and the form to start one; ``POST /tournaments``
  starts it (303 to its page; 400 with the form refilled).
- ``GET /tournaments/<id>``: progress, games in play and over, standings, cross table and
  the exports' links.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import jinja2
from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.ladder import LadderBoard
from tournoyons_gui.arbitre.ladder.service import reason_text
from tournoyons_gui.arbitre.match import DEFAULT_TIMEOUT, GameError, Options
from tournoyons_gui.arbitre.paging import OUT_OF_RANGE, CursorError
from tournoyons_gui.arbitre.processes import SERVER_REFUSES, is_command
from tournoyons_gui.arbitre.tournaments import (
    FORMATS,
    EntrantSpec,
    TournamentError,
    Tournaments,
)
from tournoyons_gui.arbitre.tournaments.service import GAMES_SHOWN
from tournoyons_gui.arbitre.web.chart import rating_chart
from tournoyons_gui.arbitre.web.common import read_form, read_int, render
from tournoyons_gui.arbitre.web.guard import Limits, check_tournament
from tournoyons_gui.arbitre.web.paging import asked_page, next_path
from tournoyons_gui.arbitre.web.registering import form_change, form_register
from tournoyons_gui.arbitre.web.tournament_api import asked_record, engine_kind, tournaments_page

__all__ = ["ENTRANT_ROWS", "TournamentPages", "game_result"]

#: The largest form the pages read (a tournament's entrant rows can be many).
MAX_FORM = 64 * 1024
#: Entrant rows the new-tournament form shows (empty rows are ignored).
ENTRANT_ROWS = 8
#: At most this many entrant rows are read from a form (the service allows 64 entrants).
MAX_ROWS = 64
#: Tournaments a page of the list shows.
PER_PAGE = 25
#: The registered engines the new-tournament form offers (the first by name; any other
#: enters by its URL, its registration found from it).
OFFERED = 200
#: The rating points an engine's page draws a Set, at most, evenly spread (its JSON gives
#: up to :data:`~tournoyons_gui.arbitre.tournaments.engine_record.MAX_POINTS`): each is a
#: dot with its game's link and a row of the chart's table, a page of many Sets is heavy.
PAGE_POINTS = 50
ENTRANT_KINDS = ("registered", "engine", "builtin")
_ENTRANT_FIELD = re.compile(r"entrant(\d{1,3})_(kind|registered|url|builtin|name|token)")


def game_result(game: Mapping[str, Any], names: Sequence[str]) -> str:
    """Return a tournament game's result as the pages say it (``tournament.js`` says the
    same): empty while it is played, ``interrupted``, ``draw``, ``<name> wins``, ``error``."""
    if game["status"] == "playing":
        return ""
    if game["status"] == "interrupted":
        return "interrupted"
    if game["status"] != "over" or game["result"] == "error":
        return "error"
    if game["result"] == "draw":
        return "draw"
    if game["winner"] in (0, 1):
        seat = game["first"] if game["winner"] == 0 else game["second"]
        if seat is not None and 0 <= seat < len(names):
            return f"{names[seat]} wins"
    return "error"


def _with(request: Request | None, **changes: str | None) -> str | None:
    """Return the path and query of this page (``request``'s; ``None`` without one) with
    ``changes`` made (a value ``None`` drops the parameter)."""
    if request is None:
        return None
    url = request.url
    for name, value in changes.items():
        url = url.remove_query_params(name)
        if value is not None:
            url = url.include_query_params(**{name: value})
    return f"{url.path}?{url.query}" if url.query else url.path


def _registered_options(
    registered: Sequence[tuple[str, str, str]],
) -> Callable[[str | None], Markup]:
    """Return what writes the ``<option>`` list of the engines offered (``registered``:
    each one's id, Sets joined by ``|``, name), each value escaped once here: called with
    a row's chosen id (or ``None``), it marks that one ``selected``. The form's rows each
    offer every engine (up to :data:`OFFERED`); the template's escapes per option were
    most of the page's time."""
    written = [
        (
            i,
            f'        <option value="{escape(i)}" data-sets="{escape(s)}"',
            f">{escape(n)}</option>",
        )
        for i, s, n in registered
    ]

    def options(chosen: str | None = None) -> Markup:
        return Markup(
            "\n".join(
                f"{head} selected{tail}" if i == chosen else head + tail
                for i, head, tail in written
            )
        )

    return options


def _entrants(values: Mapping[str, str]) -> list[EntrantSpec]:
    """Return the entrants of a new-tournament form, its empty rows left out."""
    rows = sorted({int(m.group(1)) for m in map(_ENTRANT_FIELD.fullmatch, values) if m is not None})
    if len(rows) > MAX_ROWS:
        raise TournamentError(f"at most {MAX_ROWS} entrant rows")
    found = []
    for row in rows:
        kind = values.get(f"entrant{row}_kind", "").strip()
        field = {"registered": "registered", "engine": "url", "builtin": "builtin"}.get(kind)
        engine = values.get(f"entrant{row}_{field}", "").strip() if field else ""
        name = values.get(f"entrant{row}_name", "").strip()
        if field is None and (kind or name):
            raise TournamentError(f"entrant row {row}: choose what kind of entrant it is")
        if not engine:
            if name:
                raise TournamentError(f"entrant row {row} ({name}): choose its engine")
            continue  # an empty row
        if is_command(engine):  # a process engine is never started from the web
            raise TournamentError(SERVER_REFUSES)
        token = values.get(f"entrant{row}_token", "").strip()
        found.append(EntrantSpec(kind, engine, name, token))
    return found


class TournamentPages:
    """The engines' and tournaments' pages; ``holder()`` returns the :class:`Tournaments`
    and ``arbitre_holder()`` the :class:`Arbitre` once the server runs."""

    def __init__(
        self,
        holder: Callable[[], Tournaments],
        arbitre_holder: Callable[[], Arbitre],
        env: jinja2.Environment,
        limits: Limits | None = None,
    ) -> None:
        self.holder = holder
        self.arbitre_holder = arbitre_holder
        self.env = env
        self.limits = limits or Limits()

    def routes(self) -> list[Route]:
        """Return the pages' routes (after the API's: ``/tournaments/<id>.json`` is its)."""
        return [
            Route("/engines", self.engines, methods=["GET", "POST"]),
            Route("/engines/{engine_id}", self.engine, methods=["GET", "POST"]),
            Route("/tournaments", self.tournaments, methods=["GET", "POST"]),
            Route("/tournaments/{tournament_id}", self.tournament),
        ]

    def _html(self, template: str, status: int = 200, **context: Any) -> Response:
        return render(self.env, template, status, **context)

    async def _set_names(self) -> list[str]:
        arbitre = self.arbitre_holder()
        await arbitre.load_added()
        return [s.name for s in arbitre.playable()]

    # --- registered engines ------------------------------------------------------------

    async def engines(self, request: Request) -> Response:
        """``GET``: a page of the registered engines by name (``?after=``, ``?limit=``) and
        the registration form; ``POST``: register (the one registration path)."""
        kind = engine_kind(self.holder())
        if request.method == "POST":
            return await form_register(
                kind,
                request,
                lambda values, error, status: self._engines_page(request, values, error, status),
            )
        return await self._engines_page(request, kind.blank(), "", 200)

    async def _engines_page(
        self, request: Request, values: Mapping[str, Any], error: str, status: int
    ) -> Response:
        store = self.holder().store
        after: str | None = None
        try:
            asked = await asked_page(request, store, "engines", size=1)
            if asked.after is not None:
                if not isinstance(asked.after[0], str):
                    raise CursorError(OUT_OF_RANGE)
                after = asked.after[0]
        except CursorError as refused:
            return self._html("arbitre/bad_page.html", 400, error=refused, first_page="/engines")
        page = await store.engines_page(after=after, limit=asked.limit)
        cursor = asked.cursor([page.rows[-1].name]) if page.more else None
        return self._html(
            "arbitre/engines.html",
            status,
            engines=page.rows,
            next_page=next_path(request, cursor) if request.method == "GET" else None,
            first_page="/engines" if after is not None else None,
            sets=await self._set_names(),
            values=values,
            error=error,
        )

    async def engine(self, request: Request) -> Response:
        """``GET``: an engine's record and its forms; ``POST``: edit, retire or unretire
        (the one registration path)."""
        engine_id = request.path_params["engine_id"]
        if request.method == "GET":
            token = request.query_params.get("token", "")[:40]
            return await self._engine_page(engine_id, None, "", 200, token, request)
        return await form_change(
            engine_kind(self.holder()),
            request,
            engine_id,
            lambda values, error, status, token: self._engine_page(
                engine_id, values, error, status, token, request
            ),
            lambda: self._html("arbitre/missing.html", 404),
        )

    async def _engine_page(
        self,
        engine_id: str,
        values: Mapping[str, Any] | None,
        error: str,
        status: int,
        token: str = "",
        request: Request | None = None,
    ) -> Response:
        try:
            record = await asked_record(request, self.holder(), engine_id, PAGE_POINTS)
        except CursorError as refused:
            first = f"/engines/{urllib.parse.quote(engine_id)}"
            return self._html("arbitre/bad_page.html", 400, error=refused, first_page=first)
        if record is None:
            return self._html("arbitre/missing.html", 404)
        if values is None:
            values = {
                "name": record["name"],
                "url": record["url"],
                "sets": record["sets"],
                "poker_level2": record["poker_level2"],
                "open_entry": record["open"],
                "ladder": record["ladder"],
                "ladder_concurrency": record["ladder_concurrency"],
                "ladder_rest": record["ladder_rest"],
            }
        values = {**values, "ladder_paused": bool(record["ladder_paused"])}
        charts = {set_name: rating_chart(points) for set_name, points in record["ratings"].items()}
        board = LadderBoard(self.arbitre_holder())
        return self._html(
            "arbitre/engine.html",
            status,
            record=record,
            games=record["games"],
            charts=charts,
            max_points=PAGE_POINTS,
            older_games=record["games_next"] and _with(request, games_after=record["games_next"]),
            more_opponents=record["per_opponent_next"]
            and _with(request, opponents_after=record["per_opponent_next"]),
            by_name=_with(request, opponents="name", opponents_after=None),
            by_games=_with(request, opponents="games", opponents_after=None),
            sets=await self._set_names(),
            values=values,
            error=error,
            token=token,
            standings=await board.standings(engine_id),
            meetings=await board.meetings(engine_id),
            reason_text=reason_text,
        )

    # --- tournaments ---------------------------------------------------------------------

    async def tournaments(self, request: Request) -> Response:
        """``GET``: a page of the tournaments, newest first (``?after=``, ``?limit=``), and
        the form to start one; ``POST``: start it."""
        if request.method == "GET":
            return await self._tournaments_page({}, "", 200, request)
        values: dict[str, str] = {}
        try:
            values = {name: value for name, value in reversed(await read_form(request, MAX_FORM))}
            options = Options(
                timeout=read_int(values.get("timeout"), DEFAULT_TIMEOUT, "TimeOut"),
                level=read_int(values.get("level"), 1, "Level"),
            )
            entrants = _entrants(values)
            games = read_int(values.get("games"), 2, "games per pairing")
            concurrency = read_int(values.get("concurrency"), 4, "games at once")
            check_tournament(request, self.limits, len(entrants), games, concurrency)
            tournament_id = await self.holder().create(
                values.get("set", ""),
                entrants,
                format=values.get("format", "round-robin"),
                games=games,
                rounds=read_int(values.get("rounds"), 0, "rounds"),
                concurrency=concurrency,
                options=options,
                name=values.get("name", ""),
            )
        except (TournamentError, GameError) as refused:
            return await self._tournaments_page(values, str(refused), 400, request)
        return RedirectResponse(f"/tournaments/{urllib.parse.quote(tournament_id)}", 303)

    async def _tournaments_page(
        self, values: Mapping[str, str], error: str, status: int, request: Request
    ) -> Response:
        service = self.holder()
        arbitre = self.arbitre_holder()
        await arbitre.load_added()
        try:
            page, cursor = await tournaments_page(request, service.store, PER_PAGE)
        except CursorError as refused:
            return self._html(
                "arbitre/bad_page.html", 400, error=refused, first_page="/tournaments"
            )
        counts = await service.store.counts_of([row.id for row in page.rows])
        listed = []
        for row in page.rows:
            entrants, over = counts.get(row.id, (0, 0))
            listed.append(
                {
                    "id": row.id,
                    "name": row.name,
                    "set": row.set_name,
                    "format": row.format,
                    "status": row.status,
                    "entrants": entrants,
                    "over": over,
                    "planned": service.planned(row, entrants),
                    "created_at": row.created_at,
                }
            )
        playable = arbitre.playable()
        sets = [
            {
                "name": s.name,
                "engines": list(s.engines),
                "levels": list(s.arbitre.levels) if s.arbitre else [1],
            }
            for s in playable
        ]
        indexes = [int(m.group(1)) for m in map(_ENTRANT_FIELD.fullmatch, values) if m]
        rows = min(MAX_ROWS, max([ENTRANT_ROWS, *indexes]))
        # (id, Sets, name) of each engine offered; their options written by one writer.
        engines = (await service.store.engines_page(limit=OFFERED, retired=False)).rows
        registered = [(e.id, "|".join(str(name) for name in e.sets), e.name) for e in engines]
        options = _registered_options(registered)
        return self._html(
            "arbitre/tournaments.html",
            status,
            tournaments=listed,
            sets=sets,
            formats=FORMATS,
            registered=registered,
            registered_options=options,
            offered=OFFERED,
            next_page=next_path(request, cursor) if request.method == "GET" else None,
            first_page="/tournaments" if request.query_params.get("after") else None,
            builtin_names=sorted({name for s in playable for name in s.engines}),
            values=values,
            rows=rows,
            error=error,
        )

    async def tournament(self, request: Request) -> Response:
        """``GET /tournaments/<id>``: the tournament, live while it runs."""
        tournament_id = request.path_params["tournament_id"]
        summary = await self.holder().summary(tournament_id)
        if summary is None:
            return self._html("arbitre/missing.html", 404)
        names = [e["name"] for e in summary["entrants"]]
        games = [{**g, "result_text": game_result(g, names)} for g in summary["games"]]
        quoted = urllib.parse.quote(tournament_id)
        return self._html(
            "arbitre/tournament.html",
            summary=summary,
            names=names,
            playing=summary["in_play"],
            finished=[g for g in games if g["status"] != "playing"],
            more_games=summary["games_next"] is not None or len(games) >= GAMES_SHOWN,
            config={
                "id": tournament_id,
                "json": f"/tournaments/{quoted}.json",
                "status": summary["status"],
                "every": 2000,
            },
        )
