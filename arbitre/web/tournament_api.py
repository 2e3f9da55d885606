"""The JSON API and the exports of registered engines and tournaments.

Routes:

- ``POST /api/engines`` (``{"name", "url", "sets": [...], "poker_level2"}``) -> 201 the
  engine and its ``edit_token`` (shown this once), through the one registration path
  (:mod:`.registering`); ``GET /api/engines`` (a page by name); ``GET
  /api/engines/<id>`` (its record: games, results per Set and per opponent, rating over
  time); ``POST /api/engines/<id>`` (``token`` and any of ``name``, ``url``, ``sets``,
  ``poker_level2``, ``retired``; 403 without the right token).
- ``POST /api/tournaments`` (``{"set", "entrants": [{"kind", "engine", "name"}], "format",
  "games", "rounds", "concurrency", "options", "name"}``) -> 201 ``{"id", "urls"}``;
  ``GET /api/tournaments`` (a page, newest first); ``GET /api/tournaments/<id>`` =
  ``/tournaments/<id>.json``.
- Exports: ``/tournaments/<id>/standings.csv``, ``/tournaments/<id>/standings.json``,
  ``/tournaments/<id>/games.csv``, ``/tournaments/<id>/games.json``.

Every list is paged by a cursor (``?after=``, ``?limit=``; ``Link: <...>; rel="next"``:
:mod:`.paging`). Bad input is answered 400 ``{"error"}`` and stores nothing.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, cast

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from tournoyons_gui.arbitre.ladder.settings import ladder_fields
from tournoyons_gui.arbitre.live import tournament_key
from tournoyons_gui.arbitre.match import GameError
from tournoyons_gui.arbitre.paging import (
    DEFAULT_LIMIT,
    OUT_OF_RANGE,
    CursorError,
    Cursors,
    index_position,
    newest_position,
)
from tournoyons_gui.arbitre.standings import Standing, csv_cell, standings_csv
from tournoyons_gui.arbitre.store import Engine, Game, Listed, Store, Tournament, new_id
from tournoyons_gui.arbitre.tables import TableStanding, table_standings_csv
from tournoyons_gui.arbitre.tournaments import (
    TournamentError,
    Tournaments,
    standing_json,
    table_standing_json,
)
from tournoyons_gui.arbitre.tournaments.engine_record import OPPONENT_ORDERS, RecordPage
from tournoyons_gui.arbitre.web.bodies import (
    EngineChange,
    EngineRegistration,
    TournamentBody,
    options_of,
    parse,
)
from tournoyons_gui.arbitre.web.common import NO_STORE, read_body, refusal
from tournoyons_gui.arbitre.web.guard import (
    BEARER,
    NO_ORGANISER,
    Limits,
    check_tournament,
    is_organiser,
)
from tournoyons_gui.arbitre.web.paging import asked_page, cursors, listed_json
from tournoyons_gui.arbitre.web.registering import Kind, whole_number

__all__ = ["CSV_BATCH", "MAX_BODY", "TournamentApi", "asked_record", "engine_json", "game_json"]

#: The largest JSON body the tournaments' API reads (a tournament's entrants can be many).
MAX_BODY = 64 * 1024
#: The games a tournament's CSV reads and writes at a time (streamed).
CSV_BATCH = 500


def _renew_key(body: Any, changes: dict[str, Any]) -> dict[str, Any]:
    """Add a new call key to ``changes`` when the change ``body`` asks ``renew_key``
    (manual VIII); return what the answer shows of it (the new key, this once)."""
    if not isinstance(body, EngineChange) or not body.renew_key:
        return {}
    changes["call_key"] = new_id(32)
    return {"key": lambda row: row.call_key}


def engine_kind(service: Tournaments) -> Kind:
    """Return the registered engines as a kind of registration (the one path of
    :mod:`~tournoyons_gui.arbitre.web.registering`): ``name``, ``url``, ``sets``,
    ``poker_level2``, ``open``, ``ladder``, ``ladder_concurrency``, ``ladder_rest``, and at
    registration ``key`` and ``kind``; the edit token and the key are shown once."""

    def numbers(fields: dict[str, Any]) -> dict[str, Any]:
        for name in ("ladder_concurrency", "ladder_rest"):
            if name in fields:
                fields[name] = whole_number(fields[name], name)
        return fields

    async def register(**fields: Any) -> Engine:
        fields["kind"] = fields.get("kind") or "engine"
        fields["call_key"] = fields.get("call_key") or ""
        fields["ladder"] = bool(fields.get("ladder"))
        return await service.register(**numbers(fields))

    async def update(engine_id: str, *, token: str, **changes: Any) -> Engine:
        return await service.update(engine_id, token=token, **numbers(changes))

    return Kind(
        noun="engine",
        path="/engines",
        not_found="no such engine",
        register=register,
        update=update,
        to_json=engine_json,
        shown_once=lambda row: {"edit_token": row.secret, "key": row.call_key},
        flags={"poker_level2": "poker_level2", "open": "open_entry"},
        choices={"ladder": "ladder"},
        numbers={"ladder_concurrency": "ladder_concurrency", "ladder_rest": "ladder_rest"},
        registration=EngineRegistration,
        change=EngineChange,
        changed=_renew_key,
    )


def engine_json(row: Engine) -> dict[str, Any]:
    """Return a registered engine as JSON-ready data: its registration, and its ladder
    settings (``ladder``, ``ladder_concurrency``, ``ladder_rest``) and pause
    (``ladder_paused``: ``{"fault", "reason", "game"}``, ``None`` when not paused)."""
    return {
        "id": row.id,
        "name": row.name,
        "url": row.url,
        "sets": list(row.sets),
        "poker_level2": row.poker_level2,
        "retired": row.retired,
        "open": row.open_entry,
        "kind": row.kind,
        "created_at": row.created_at.isoformat(),
        **ladder_fields(row),
    }


def _once(request: Request, name: str) -> str | None:
    """Return query parameter ``name`` (``None`` when absent); raise
    :class:`CursorError` when it is given more than once."""
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise CursorError(f"give {name} once")
    return values[0] if values else None


async def asked_record(
    request: Request | None, service: Tournaments, engine_id: str, points: int | None = None
) -> dict[str, Any] | None:
    """Return the page of a registered engine's record ``request`` asks (``None``: no
    such engine): ``?opponents=name|games`` (the opponents' order), ``?opponents_after=``
    and ``?games_after=`` (cursors of the record's lists, given by an earlier page: its
    ``per_opponent_next`` and ``games_next``); raise :class:`CursorError` for a cursor or
    an order that cannot be read. ``request`` ``None``: the first page. ``points``: the
    rating points read a Set, at most (``None``: the record's own bound)."""
    found = await cursors(service.store)

    def list_id(name: str) -> str:
        return Cursors.list_id(f"engine-{name}", [("engine", engine_id)])

    def cursor(name: str, position: Sequence[Any]) -> str:
        return found.make(list_id(name), position)

    if request is None:
        return await service.engine_record(engine_id, RecordPage(points=points), cursor)
    given = _once(request, "opponents")
    order = "name" if given is None else given
    if order not in OPPONENT_ORDERS:
        raise CursorError(f"opponents is {' or '.join(OPPONENT_ORDERS)}")
    games_before = opponents_after = None
    raw = _once(request, "games_after")
    if raw:
        (games_before,) = found.read(list_id("games"), raw, 1)
        if type(games_before) is not int or not 0 <= games_before < 2**31:
            raise CursorError(OUT_OF_RANGE)
    raw = _once(request, "opponents_after")
    if raw:
        first, key = found.read(list_id(f"opponents-{order}"), raw, 2)
        kind = str if order == "name" else int
        if type(first) is not kind or not isinstance(key, str) or len(key) > 200:
            raise CursorError(OUT_OF_RANGE)
        if isinstance(first, int) and not 0 <= first < 2**31:
            raise CursorError(OUT_OF_RANGE)
        opponents_after = (first, key)
    page = RecordPage(games_before, order, opponents_after, points)
    return await service.engine_record(engine_id, page, cursor)


async def tournaments_page(
    request: Request, store: Store, default: int
) -> tuple[Listed[Tournament], str | None]:
    """Return the page of tournaments ``request`` asks (newest first, ``?after=``,
    ``?limit=``) and the next page's cursor (``None`` on the last); raise
    :class:`CursorError`."""
    asked = await asked_page(request, store, "tournaments", size=2, default=default)
    after = newest_position(asked.after) if asked.after else None
    page = await store.tournaments_page(after=after, limit=asked.limit)
    last = page.rows[-1] if page.rows else None
    more = page.more and last is not None
    cursor = asked.cursor([last.created_at.isoformat(), last.id]) if more and last else None
    return page, cursor


async def computed_page(
    request: Request, store: Store, name: str, rows: Sequence[Any]
) -> tuple[list[Any], str | None]:
    """Return the page ``request`` asks of a list computed whole (a tournament's standings,
    its games: at most a tournament's size), by index (``?after=``, ``?limit=``), and the
    next page's cursor; raise :class:`CursorError`."""
    asked = await asked_page(request, store, name, size=1, default=100)
    start = index_position(asked.after, len(rows)) if asked.after else 0
    end = start + asked.limit
    return list(rows[start:end]), asked.cursor([end]) if end < len(rows) else None


class TournamentApi:
    """The routes; ``holder()`` returns the :class:`Tournaments` once the server runs."""

    def __init__(self, holder: Callable[[], Tournaments], limits: Limits | None = None) -> None:
        self.holder = holder
        self.limits = limits or Limits()

    def routes(self) -> list[Route]:
        """Return the API's routes."""
        return [
            Route("/api/engines", self.engines, methods=["GET", "POST"]),
            Route("/api/engines/{engine_id}", self.engine, methods=["GET", "POST"]),
            Route("/api/tournaments", self.tournaments, methods=["GET", "POST"]),
            Route("/api/tournaments/{tournament_id}", self.tournament),
            Route("/api/tournaments/{tournament_id}/cancel", self.cancel, methods=["POST"]),
            Route("/tournaments/{tournament_id}.json", self.tournament),
            Route("/tournaments/{tournament_id}/standings.csv", self.standings_csv),
            Route("/tournaments/{tournament_id}/standings.json", self.standings_json),
            Route("/tournaments/{tournament_id}/games.csv", self.games_csv),
            Route("/tournaments/{tournament_id}/games.json", self.games_json),
        ]

    async def engines(self, request: Request) -> Response:
        """``GET``: a page of the registered engines by name (``?after=``, ``?limit=``;
        ``Link`` to the next); ``POST``: register one (201)."""
        service = self.holder()
        if request.method == "POST":
            return await engine_kind(service).api_register(request)
        try:
            asked = await asked_page(request, service.store, "engines", size=1)
            after = asked.after[0] if asked.after else None
            if after is not None and not isinstance(after, str):
                raise CursorError(OUT_OF_RANGE)
        except CursorError as refused:
            return JSONResponse({"error": str(refused)}, 400)
        page = await service.store.engines_page(after=after, limit=asked.limit)
        cursor = asked.cursor([page.rows[-1].name]) if page.more else None
        return listed_json(request, [engine_json(r) for r in page.rows], cursor, NO_STORE)

    async def engine(self, request: Request) -> Response:
        """``GET``: an engine's record; ``POST``: change its registration."""
        service = self.holder()
        engine_id = request.path_params["engine_id"]
        if request.method == "POST":
            return await engine_kind(service).api_change(request, engine_id)
        try:
            record = await asked_record(request, service, engine_id)
        except CursorError as refused:
            return JSONResponse({"error": str(refused)}, 400)
        if record is None:
            return JSONResponse({"error": "no such engine"}, 404)
        return JSONResponse(record, headers=NO_STORE)

    async def tournaments(self, request: Request) -> Response:
        """``GET``: a page of the tournaments, newest first (``?after=``, ``?limit=``;
        ``Link`` to the next); ``POST``: start one (201)."""
        service = self.holder()
        if request.method == "GET":
            try:
                page, cursor = await tournaments_page(request, service.store, DEFAULT_LIMIT)
            except CursorError as refused:
                return JSONResponse({"error": str(refused)}, 400)
            rows = [
                {
                    "id": r.id,
                    "name": r.name,
                    "set": r.set_name,
                    "format": r.format,
                    "status": r.status,
                    "created_at": r.created_at.isoformat(),
                }
                for r in page.rows
            ]
            return listed_json(request, rows, cursor, NO_STORE)
        try:
            body = parse(TournamentBody, await read_body(request, MAX_BODY))
            games = 2 if body.games is None else body.games
            concurrency = 4 if body.concurrency is None else body.concurrency
            check_tournament(request, self.limits, len(body.entrants), games, concurrency)
            tournament_id = await service.create(
                body.set,
                [entrant.spec() for entrant in body.entrants],
                format=body.format,
                games=games,
                rounds=body.rounds or 0,
                concurrency=concurrency,
                options=options_of(body.options),
                name=body.name or "",
            )
        except (TournamentError, GameError) as refused:
            return refusal(refused)
        return JSONResponse(
            {
                "id": tournament_id,
                "urls": {
                    "page": f"/tournaments/{tournament_id}",
                    "json": f"/tournaments/{tournament_id}.json",
                    "standings_csv": f"/tournaments/{tournament_id}/standings.csv",
                    "games_csv": f"/tournaments/{tournament_id}/games.csv",
                },
            },
            201,
        )

    async def cancel(self, request: Request) -> Response:
        """``POST /api/tournaments/<id>/cancel`` with an organiser token: no more games,
        its games in play ended as interrupted; 200 the summary, 401 without the token."""
        if not is_organiser(request):
            return JSONResponse(NO_ORGANISER, 401, headers=BEARER)
        service = self.holder()
        tournament_id = request.path_params["tournament_id"]
        found = await service.store.tournament_entrants(tournament_id)
        if found is None:
            return JSONResponse({"error": "no such tournament"}, 404)
        await service.store.end_tournament(tournament_id)
        for game in await service.store.tournament_in_play(tournament_id):
            await service.arbitre.cancel(game.id, "the tournament was cancelled")
        await service.arbitre.hub.publish(tournament_key(tournament_id), {"over": True})
        return JSONResponse(await service.summary(tournament_id), headers=NO_STORE)

    async def tournament(self, request: Request) -> Response:
        """A tournament's state (settings, progress, standings, cross table, its games in
        play and the first page of its games, ``games_next`` the cursor of the next page
        of ``/tournaments/<id>/games.json``)."""
        tournament_id = request.path_params["tournament_id"]
        service = self.holder()
        found = await cursors(service.store)
        list_id = Cursors.list_id(f"games|{tournament_id}")
        summary = await service.summary(tournament_id, lambda at: found.make(list_id, at))
        if summary is None:
            return JSONResponse({"error": "no such tournament"}, 404)
        return JSONResponse(summary, headers=NO_STORE)

    async def standings_csv(self, request: Request) -> Response:
        """The standings as CSV (spreadsheet-safe names)."""
        tournament_id = request.path_params["tournament_id"]
        table = await self.holder().table(tournament_id)
        if table is None:
            return JSONResponse({"error": "no such tournament"}, 404)
        if table and isinstance(table[0], TableStanding):
            text = table_standings_csv(table)
        else:
            text = standings_csv(cast(list[Standing], table))
        return Response(
            text,
            media_type="text/csv; charset=utf-8",
            headers={
                **NO_STORE,
                "Content-Disposition": f'attachment; filename="{tournament_id}-standings.csv"',
            },
        )

    async def standings_json(self, request: Request) -> Response:
        """The standings as JSON, by rank, a page at a time (``?after=``, ``?limit=``, 100
        by default: a whole tournament's; ``Link`` to the next)."""
        tournament_id = request.path_params["tournament_id"]
        service = self.holder()
        table = await service.table(tournament_id)
        if table is None:
            return JSONResponse({"error": "no such tournament"}, 404)
        rows = [
            table_standing_json(s) if isinstance(s, TableStanding) else standing_json(s)
            for s in table
        ]
        try:
            shown, cursor = await computed_page(
                request, service.store, f"standings|{tournament_id}", rows
            )
        except CursorError as refused:
            return JSONResponse({"error": str(refused)}, 400)
        return listed_json(request, shown, cursor, NO_STORE)

    async def games_json(self, request: Request) -> Response:
        """The tournament's games as JSON (each with its result), in creation order, a page
        at a time (``?after=``, ``?limit=``, 100 by default; ``Link`` to the next), read
        along an index: a page costs the same at any depth."""
        tournament_id = request.path_params["tournament_id"]
        store = self.holder().store
        found = await store.tournament_entrants(tournament_id)
        if found is None:
            return JSONResponse({"error": "no such tournament"}, 404)
        try:
            asked = await asked_page(request, store, f"games|{tournament_id}", size=2, default=100)
            after = newest_position(asked.after) if asked.after else None
        except CursorError as refused:
            return JSONResponse({"error": str(refused)}, 400)
        games = await store.tournament_games(tournament_id, after=after, limit=asked.limit + 1)
        names = [e.name for e in found[1]]
        shown = games[: asked.limit]
        last = shown[-1] if shown else None
        cursor = None
        if len(games) > asked.limit and last is not None:
            cursor = asked.cursor([last.created_at.isoformat(), last.id])
        return listed_json(request, [game_json(g, names) for g in shown], cursor, NO_STORE)

    async def games_csv(self, request: Request) -> Response:
        """The tournament's games as CSV, streamed: read :data:`CSV_BATCH` games at a
        time in creation order and written as they come (spreadsheet-safe names)."""
        tournament_id = request.path_params["tournament_id"]
        store = self.holder().store
        found = await store.tournament_entrants(tournament_id)
        if found is None:
            return JSONResponse({"error": "no such tournament"}, 404)
        names = [e.name for e in found[1]]
        columns = ["id", "round", "first", "second", "status", "result", "winner", "moves"]

        async def lines() -> AsyncIterator[str]:
            out = io.StringIO()
            writer = csv.DictWriter(out, columns, extrasaction="ignore", lineterminator="\r\n")
            writer.writeheader()
            after: tuple[dt.datetime, str] | None = None
            while True:
                batch = await store.tournament_games(tournament_id, after=after, limit=CSV_BATCH)
                for game in batch:
                    row = game_json(game, names)
                    writer.writerow(
                        {
                            **row,
                            "first": csv_cell(row["first"]),
                            "second": csv_cell(row["second"]),
                            "winner": csv_cell(row["winner"] or ""),
                        }
                    )
                yield out.getvalue()
                out.seek(0)
                out.truncate()
                if len(batch) < CSV_BATCH:
                    return
                after = (batch[-1].created_at, batch[-1].id)

        return StreamingResponse(
            lines(),
            media_type="text/csv; charset=utf-8",
            headers={
                **NO_STORE,
                "Content-Disposition": f'attachment; filename="{tournament_id}-games.csv"',
            },
        )


def game_json(game: Game, names: Sequence[str]) -> dict[str, Any]:
    """Return a tournament's game as its games list and CSV give it: ``id``, ``url``,
    ``round``, the entrants' names in seat 0 and 1 (``first``, ``second``, ``""`` none),
    ``status``, ``result``, the ``winner``'s name (``None``: none, or not over) and
    ``moves``."""

    def name(entrant: int | None) -> str:
        return names[entrant] if entrant is not None and 0 <= entrant < len(names) else ""

    first, second = name(game.entrant1), name(game.entrant2)
    winner = None
    if game.status == "over" and game.winner is not None:
        winner = first if game.winner == 0 else second
    return {
        "id": game.id,
        "url": f"/games/{game.id}",
        "round": game.round,
        "first": first,
        "second": second,
        "status": game.status,
        "result": game.result,
        "winner": winner,
        "moves": game.moves,
    }
