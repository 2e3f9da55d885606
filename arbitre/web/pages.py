"""The Arbitre's HTTP side: its pages, its JSON API, the Referee URL, the person's returns,
the built-in engines, and the engine tester. Game-agnostic: every game detail comes from
the Set's :class:`~tournoyons_gui.interfaces.plugin.ArbitreRules` through
:class:`~tournoyons_gui.arbitre.game.Arbitre`.

Routes (all under the server's origin):

- ``GET /arbitre``: start a game (form); ``POST /arbitre/games``: the form's target.
- ``POST /api/games`` (JSON ``{"set", "seats": [{"kind", "engine", "name"}], "options"}``)
  and ``GET /api/games/<id>``: the record, the same document as ``/games/<id>.json``.
- ``GET /games``: the list; ``GET /games/<id>[?move=N][&seat=TOKEN]``: play, watch, replay;
  ``GET /games/<id>/view``: the iframe's URL for a position (JSON, used by the page's
  script); ``GET /games/<id>/events``: live events (SSE); ``GET /games/<id>/log``: the
  exchanges, move by move, for engine authors.
- ``GET /referee``: engines' callbacks (engine protocol 2.2); ``GET /play/<token>/<n>``: a
  person's ``URLReturn`` (decision 24); ``GET /engines/<set>/<name>``: built-in engines;
  ``POST /engines/<set>/<name>/botsarena``: the same engines as botsarena bots (seed 003).
- ``GET /referee/<set>``: the Set's rules as a chapter VI referee (engine protocol 6);
  ``GET /arbitre/sets`` and ``POST /arbitre/sets``, ``POST /api/sets``: added games (a Set
  from an outside interface URL and referee URL); ``GET /added/return``: their referees'
  ``ReturnURL``.
- ``GET /engine-tester``: call an engine in tester mode (section 5); ``GET /engine-check``:
  play it against the built-in random engine, first and second, and show what was wrong.
"""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.parse
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

import httpx
import jinja2
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from tournoyons_gui.arbitre.added import AddedSet
from tournoyons_gui.arbitre.botsarena import answer_message
from tournoyons_gui.arbitre.calls import check_engine_url, engine_url, read_callback
from tournoyons_gui.arbitre.game import Arbitre, GameError, Options, PlayedSet, SeatSpec, redact
from tournoyons_gui.arbitre.store import GameRow, SeatRow
from tournoyons_gui.interfaces.plugin import IllegalMove, Turn
from tournoyons_gui.interfaces.protocol import Player, safe_return_url
from tournoyons_gui.interfaces.referee import read_call, referee

__all__ = ["ArbitreWeb"]

log = logging.getLogger(__name__)

MAX_FORM = 16 * 1024
#: What stays literal when a ReturnURL is put in a Location header (the rest is escaped).
_URL_SAFE = ":/?#[]@!$&'()*+,;=%~-._"
#: What the moves list and the record show for a value while the game hides information.
HIDDEN = "?"
PER_PAGE = 25
NO_STORE = {"Cache-Control": "no-store"}


class ArbitreWeb:
    """The Arbitre's routes; ``holder()`` returns the :class:`Arbitre` once the server has
    started (it opens the store in its lifespan)."""

    def __init__(self, holder: Callable[[], Arbitre], env: jinja2.Environment) -> None:
        self.holder = holder
        self.env = env

    @property
    def arbitre(self) -> Arbitre:
        """Return the running Arbitre."""
        return self.holder()

    def routes(self) -> list[Route]:
        """Return the routes, to be tried before the Sets' ``/{set}/`` pages."""
        return [
            Route("/arbitre", self.home),
            Route("/arbitre/games", self.form_create, methods=["POST"]),
            Route("/api/games", self.api_create, methods=["POST"]),
            Route("/api/games/{game_id}", self.api_game),
            Route("/games", self.games),
            Route("/games/{game_id}.json", self.export),
            Route("/games/{game_id}", self.game_page),
            Route("/games/{game_id}/view", self.view),
            Route("/games/{game_id}/events", self.events),
            Route("/games/{game_id}/log", self.log_page),
            Route("/referee", self.referee),
            Route("/referee/{set}", self.set_referee),
            Route("/added/return", self.added_return),
            Route("/arbitre/sets", self.added_sets, methods=["GET", "POST"]),
            Route("/api/sets", self.api_add_set, methods=["POST"]),
            Route("/engines/{set}/{name}/botsarena", self.botsarena_engine, methods=["POST"]),
            Route("/play/{token}/{number:int}", self.person_return),
            Route("/engines/{set}/{name}", self.builtin_engine),
            Route("/engine-tester", self.engine_tester),
            Route("/engine-check", self.engine_check),
        ]

    def _html(
        self,
        template: str,
        status: int = 200,
        headers: Mapping[str, str] | None = None,
        **context: Any,
    ) -> Response:
        body = self.env.get_template(template).render(**context)
        return Response(
            body, status, media_type="text/html", headers={**NO_STORE, **(headers or {})}
        )

    # --- starting a game ----------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        """The form that starts a game."""
        await self.arbitre.load_added()
        chosen = request.query_params.get("set", "")
        found = self.arbitre.lookup(chosen) if chosen else None
        return self._home(request, {"set": found.name} if found else {}, "")

    def _home(
        self, request: Request, values: Mapping[str, str], error: str, status: int = 200
    ) -> Response:
        playable = self.arbitre.playable()
        sets = [
            {
                "name": s.name,
                "engines": list(s.engines),
                "levels": list(s.arbitre.levels) if s.arbitre else [1],
                "added": isinstance(s, AddedSet),
            }
            for s in playable
        ]
        names = sorted({name for s in playable for name in s.engines})
        return self._html(
            "arbitre/home.html",
            status,
            sets=sets,
            builtin_names=names,
            values=values,
            error=error,
            config={"sets": sets},
        )

    async def form_create(self, request: Request) -> Response:
        """``POST /arbitre/games``: start the game the form describes; go to its page."""
        try:
            body = await _body(request, MAX_FORM)
        except GameError as refused:
            return self._home(request, {}, str(refused), 413)
        form = {
            k: v
            for k, v in urllib.parse.parse_qsl(
                body.decode("utf-8", "replace"), keep_blank_values=True
            )
        }
        try:
            seats = [
                SeatSpec(
                    form.get(f"seat{n}_kind", ""),
                    form.get(f"seat{n}_builtin", "")
                    if form.get(f"seat{n}_kind") == "builtin"
                    else form.get(f"seat{n}_url", ""),
                    form.get(f"seat{n}_name", ""),
                )
                for n in (1, 2)
            ]
            if form.get("first") == "2":
                seats.reverse()
            options = Options(
                timeout=_int(form.get("timeout"), 20, "TimeOut"),
                level=_int(form.get("level"), 1, "Level"),
                wait=_int(form.get("wait"), 0, "Wait"),
                init_as_board=form.get("init_as_board") == "on",
                bot_timeout=_int(form.get("bot_timeout"), 10, "botsarena limit"),
            )
            game_id = await self.arbitre.create(form.get("set", ""), seats, options)
        except GameError as refused:
            return self._home(request, form, str(refused), 400)
        found = await self.arbitre.store.game(game_id)
        assert found is not None
        tokens = [s.token for s in found[1] if s.kind == "person"]
        query = urllib.parse.urlencode([("seat", t) for t in tokens])
        return RedirectResponse(f"/games/{game_id}{'?' + query if query else ''}", 303)

    async def api_create(self, request: Request) -> Response:
        """``POST /api/games``: start a game; 201 with its id, URLs and person seat URLs."""
        try:
            data = _json(await _body(request, MAX_FORM))
            if not isinstance(data, dict):
                raise GameError("send a JSON object {set, seats, options}")
            raw_seats = data.get("seats")
            if not isinstance(raw_seats, list) or not all(isinstance(s, dict) for s in raw_seats):
                raise GameError("seats is a list of {kind, engine, name}")
            seats = [
                SeatSpec(str(s.get("kind", "")), str(s.get("engine", "")), str(s.get("name", "")))
                for s in raw_seats
            ]
            raw = data.get("options") or {}
            if not isinstance(raw, dict):
                raise GameError("options is an object")
            person_timeout = raw.get("person_timeout")
            options = Options(
                timeout=_int(raw.get("timeout"), 20, "timeout"),
                level=_int(raw.get("level"), 1, "level"),
                wait=_int(raw.get("wait"), 0, "wait"),
                init_as_board=bool(raw.get("init_as_board", False)),
                person_timeout=None
                if person_timeout in (None, "")
                else _int(person_timeout, 0, "person_timeout"),
                bot_timeout=_int(raw.get("bot_timeout"), 10, "bot_timeout"),
            )
            game_id = await self.arbitre.create(str(data.get("set", "")), seats, options)
        except (GameError, ValueError) as refused:
            return JSONResponse({"error": str(refused)}, 400)
        found = await self.arbitre.store.game(game_id)
        assert found is not None
        return JSONResponse(
            {
                "id": game_id,
                "urls": {
                    "game": f"/games/{game_id}",
                    "json": f"/games/{game_id}.json",
                    "events": f"/games/{game_id}/events",
                    "log": f"/games/{game_id}/log",
                },
                "persons": [
                    {"seat": s.index, "url": f"/games/{game_id}?seat={s.token}"}
                    for s in found[1]
                    if s.kind == "person"
                ],
            },
            201,
        )

    async def api_game(self, request: Request) -> Response:
        """``GET /api/games/<id>``: the whole record."""
        return await self.export(request)

    async def export(self, request: Request) -> Response:
        """``GET /games/<id>.json``: the whole record as JSON."""
        record = await self.arbitre.record(request.path_params["game_id"])
        if record is None:
            return JSONResponse({"error": "no such game"}, 404)
        return JSONResponse(record, headers=NO_STORE)

    # --- lists and games ----------------------------------------------------------------

    async def games(self, request: Request) -> Response:
        """``GET /games[?set=S][&seat=NAME][&page=N]``: games, newest first."""
        set_name = request.query_params.get("set", "")[:40]
        seat = request.query_params.get("seat", "")[:100]
        page = max(1, _int(request.query_params.get("page"), 1, "page", strict=False))
        found = await self.arbitre.store.list_games(
            set_name=set_name, seat=seat, page=page, per_page=PER_PAGE
        )
        pages = max(1, -(-found.total // PER_PAGE))

        def link(number: int) -> str:
            query = [(k, v) for k, v in (("set", set_name), ("seat", seat)) if v]
            return "/games?" + urllib.parse.urlencode([*query, ("page", str(number))])

        return self._html(
            "arbitre/games.html",
            games=found.games,
            seats=found.seats,
            total=found.total,
            page=page,
            pages=pages,
            set_name=set_name,
            seat=seat,
            link=link,
            sets=[s.name for s in self.arbitre.playable()],
        )

    async def _position(
        self, request: Request
    ) -> tuple[GameRow, list[SeatRow], Turn, int, PlayedSet] | None:
        move_raw = request.query_params.get("move")
        move = None if move_raw in (None, "") else _int(move_raw, 0, "move", strict=False)
        found = await self.arbitre.position(request.path_params["game_id"], move)
        if found is None:
            return None
        game, seats, turn, number = found
        interface = await self.arbitre.find_set(game.set_name)
        if interface is None:
            return None
        return game, seats, turn, number, interface

    async def _src(
        self,
        game: GameRow,
        seats: list[SeatRow],
        turn: Turn,
        number: int,
        interface: PlayedSet,
        tokens: list[str],
    ) -> tuple[str, int | None]:
        """Return the interface URL for this position and viewer, and the seat asked."""
        rules = interface.arbitre
        assert rules is not None
        mine = [s for s in seats if s.kind == "person" and s.token in tokens]
        asked_seat: SeatRow | None = None
        if game.status == "playing" and number == game.moves:
            for seat in mine:
                if await self.arbitre.asked_person(seat.token) == number + 1:
                    asked_seat = seat
                    break
        viewer = (
            Player(asked_seat.index + 1)
            if asked_seat
            else Player(mine[0].index + 1)
            if len(mine) == 1
            else None
        )
        reveal = game.status != "playing"
        params: dict[str, str] = {
            "Set": interface.name,
            "Name1": seats[0].name,
            "Name2": seats[1].name,
        }
        params.update(rules.page(turn, viewer, asking=asked_seat is not None, reveal=reveal))
        if game.status != "playing" and number == game.moves:
            params["Method"] = "End"
        wait = int(game.options.get("wait", 0))
        if wait:
            params["Wait"] = str(wait)
        if asked_seat is not None:
            if params.get("Method") == "Prepare" and "Legend" not in params:
                params["Legend"] = "Ready"  # the validate button's label (Arbitre's words)
            params["Input"] = "One" if asked_seat.index == 0 else "Two"
            params["URLReturn"] = f"{self.arbitre.public_url}/play/{asked_seat.token}/{number + 1}"
        query = urllib.parse.urlencode(params, quote_via=urllib.parse.quote)
        asked_index = asked_seat.index if asked_seat else None
        if isinstance(interface, AddedSet):
            return interface.page_url(query), asked_index
        return f"/{interface.key}/?{query}", asked_index

    async def game_page(self, request: Request) -> Response:
        """``GET /games/<id>``: the game, live or replayed, through the Set's own page."""
        found = await self._position(request)
        if found is None:
            return self._html("arbitre/missing.html", 404)
        game, seats, turn, number, interface = found
        tokens = request.query_params.getlist("seat")
        src, asked = await self._src(game, seats, turn, number, interface, tokens)
        moves = await self.arbitre.store.moves(game.id)
        mine = [s.index for s in seats if s.kind == "person" and s.token in tokens]
        return self._html(
            "arbitre/game.html",
            game=game,
            seats=seats,
            number=number,
            src=src,
            moves=moves,
            asked=asked,
            mine=mine,
            interface=interface,
            hidden=HIDDEN if self.arbitre.hides(game, interface) else None,
            config={
                "id": game.id,
                "moves": game.moves,
                "number": number,
                "live": game.status == "playing",
                "seats": tokens,
            },
        )

    async def view(self, request: Request) -> Response:
        """``GET /games/<id>/view?move=N&seat=T``: the iframe's URL and the game's news."""
        found = await self._position(request)
        if found is None:
            return JSONResponse({"error": "no such game or move"}, 404)
        game, seats, turn, number, interface = found
        src, asked = await self._src(
            game, seats, turn, number, interface, request.query_params.getlist("seat")
        )
        answer: dict[str, Any] = {
            "src": src,
            "move": number,
            "moves": game.moves,
            "status": game.status,
            "result": _result_text(game, seats),
            "asked": asked,
            "statuses": [s.final_status for s in seats],
        }
        if request.query_params.get("list"):
            hidden = self.arbitre.hides(game, interface)
            answer["list"] = [
                {
                    "number": m.number,
                    "seat": seats[m.seat].name,
                    "value": HIDDEN if hidden else m.value,
                    "ms": m.ms,
                }
                for m in await self.arbitre.store.moves(game.id)
            ]
        return JSONResponse(answer, headers=NO_STORE)

    async def events(self, request: Request) -> Response:
        """``GET /games/<id>/events``: SSE; each event's id is the game's move count."""
        game_id = request.path_params["game_id"]
        found = await self.arbitre.store.game(game_id)
        if found is None:
            return PlainTextResponse("no such game", 404)
        hub = self.arbitre.hub
        queue = hub.subscribe(game_id)

        async def stream() -> AsyncIterator[ServerSentEvent]:
            try:
                game = found[0]
                yield ServerSentEvent(
                    json.dumps({"moves": game.moves, "over": game.status != "playing"}),
                    id=str(game.moves),
                    event="move",
                )
                if game.status != "playing":
                    return
                while True:
                    event = await queue.get()
                    yield ServerSentEvent(json.dumps(event), id=str(event["moves"]), event="move")
                    if event.get("over"):
                        return
            finally:
                hub.unsubscribe(game_id, queue)

        return EventSourceResponse(stream(), ping=15, headers=NO_STORE)

    async def log_page(self, request: Request) -> Response:
        """``GET /games/<id>/log``: every exchange with the engines, with what was wrong."""
        found = await self.arbitre.store.game(request.path_params["game_id"])
        if found is None:
            return self._html("arbitre/missing.html", 404)
        game, seats = found
        exchanges = await self.arbitre.store.exchanges(game.id)
        moves = await self.arbitre.store.moves(game.id)
        interface = await self.arbitre.find_set(game.set_name)
        hidden = interface is not None and self.arbitre.hides(game, interface)
        return self._html(
            "arbitre/log.html",
            game=game,
            seats=seats,
            exchanges=exchanges,
            moves=moves,
            result=_result_text(game, seats),
            hidden=hidden,
            redact=lambda text: HIDDEN if hidden else redact(text, seats),
        )

    # --- engines and persons ------------------------------------------------------------

    async def referee(self, request: Request) -> Response:
        """``GET /referee?Game=..&MoveId=..&Value=..``: 200 ``OK`` when the callback answers
        an outstanding request, else 404 (decision 9)."""
        query: bytes = request.scope["query_string"]
        try:
            params = read_callback(query)
        except ValueError:
            return PlainTextResponse("query too long", 414)
        taken = await self.arbitre.callbacks.receive(params, query.decode("latin-1"))
        if taken:
            return PlainTextResponse("OK")
        return PlainTextResponse("no such request", 404)

    async def person_return(self, request: Request) -> Response:
        """``GET /play/<token>/<n>?ReturnValue=V``: a person's move, from the page's return."""
        value = request.query_params.get("ReturnValue")
        if value is None:
            for name, raw in request.query_params.multi_items():
                if name.lower() == "returnvalue":
                    value = raw
                    break
        status, note = await self.arbitre.person_move(
            request.path_params["token"], request.path_params["number"], value or ""
        )
        return self._html("arbitre/returned.html", status, note=note, code=status)

    async def builtin_engine(self, request: Request) -> Response:
        """``GET /engines/<set>/<name>``: one of our engines, speaking the engine protocol:
        it calls the Referee back before answering, as real engines do; in tester mode
        (empty ``Referee``) its answer is the value alone."""
        interface = self.arbitre.registry.get(request.path_params["set"])
        engine = interface.engines.get(request.path_params["name"]) if interface else None
        if interface is None or engine is None:
            return PlainTextResponse("no such engine", 404)
        params = {k: v for k, v in request.query_params.multi_items()}
        if "MoveId" not in params and "Referee" not in params:
            return PlainTextResponse("OK")  # a final call: nothing to answer
        try:
            # Off the event loop: a strong engine thinks for tens of milliseconds, which
            # the games and pages this server drives meanwhile need not wait for.
            value = await asyncio.to_thread(engine, params)
        except Exception:
            log.exception("built-in engine %s/%s failed", interface.key, engine)
            return PlainTextResponse("engine error", 500)
        referee = params.get("Referee", "")
        if not referee:
            return PlainTextResponse(value)
        url = engine_url(
            referee,
            {"Game": params.get("Game", ""), "MoveId": params.get("MoveId", ""), "Value": value},
        )
        try:
            await self.arbitre.caller.client.get(url, timeout=10)
        except httpx.HTTPError as broken:
            log.warning("built-in engine could not call back: %s", broken)
        return PlainTextResponse("OK")

    async def botsarena_engine(self, request: Request) -> Response:
        """``POST /engines/<set>/<name>/botsarena``: one of our engines as a botsarena bot
        (seed 003): ``init`` -> ``{"name"}``, ``play-turn`` -> ``{"play": <column>}``; a
        malformed message gets 400 ``{"error"}``."""
        interface = self.arbitre.registry.get(request.path_params["set"])
        name = request.path_params["name"]
        engine = interface.engines.get(name) if interface else None
        if interface is None or engine is None or interface.botsarena is None:
            return JSONResponse({"error": "no such botsarena bot"}, 404)
        try:
            message = _json(await _body(request, MAX_FORM))
            answer = await asyncio.to_thread(
                answer_message, interface.botsarena, engine, name, message
            )
        except (GameError, ValueError, IllegalMove) as refused:
            return JSONResponse({"error": str(refused)[:300]}, 400)
        return JSONResponse(answer)

    # --- added games (chapter VI) -------------------------------------------------------

    async def set_referee(self, request: Request) -> Response:
        """``GET /referee/<set>?Game=..&MoveId=..&Tray=..&Move1=..&ReturnURL=..``: the Set's
        rules as a chapter VI referee (engine protocol section 6). Answers ``303`` to
        ``ReturnURL`` with ``Game``, ``MoveId``, ``Method``, ``Move1``/``Move2`` echoed and
        ``Gain1``, ``Gain2``, ``Tray`` and ``ReturnCode`` after the move, and a page with the
        same link (and a refresh) for a frame that does not follow redirects. Without a
        usable ``ReturnURL``: ``400`` and the verdict on the page."""
        interface = self.arbitre.registry.get(request.path_params["set"])
        rules = interface.referee if interface else None
        if interface is None or rules is None:
            return self._referee_page(404, error="no referee for this Set")
        query: bytes = request.scope["query_string"]
        if len(query) > 64 * 1024:
            return self._referee_page(414, error="query over 64 KiB")
        params: dict[str, str] = {}
        for name, value in urllib.parse.parse_qsl(
            query.decode("latin-1"), keep_blank_values=True, encoding="utf-8", errors="replace"
        ):
            params.setdefault(name.lower(), value)
        call = read_call(params)
        answer = referee(rules, call)
        back: dict[str, str] = {"Game": call.game, "MoveId": call.move_id}
        if call.method:
            back["Method"] = call.method
        for name, move in (("Move1", call.move1), ("Move2", call.move2)):
            if move is not None:
                back[name] = move
        back.update(
            Gain1=answer.gain1,
            Gain2=answer.gain2,
            Tray=answer.tray,
            ReturnCode=str(answer.return_code),
        )
        target = safe_return_url(params.get("returnurl", ""))
        if not target or not target.lower().startswith(("http://", "https://")):
            return self._referee_page(
                400,
                error="give ReturnURL, an absolute http(s) URL",
                answer=back,
                set_name=interface.name,
            )
        if not call.game or not call.move_id:
            # A referee answers a move of a game: no redirect for anything else (it would
            # make this server an open redirect).
            return self._referee_page(
                400, error="give Game and MoveId", answer=back, set_name=interface.name
            )
        location = engine_url(urllib.parse.quote(target, safe=_URL_SAFE), back)
        return self._referee_page(
            303,
            location=location,
            answer=back,
            set_name=interface.name,
            headers={"Location": location},
        )

    def _referee_page(
        self, status: int, headers: Mapping[str, str] | None = None, **context: Any
    ) -> Response:
        full = {"error": "", "answer": None, "location": "", "set_name": "", **context}
        return self._html("arbitre/referee.html", status, headers, **full)

    async def added_return(self, request: Request) -> Response:
        """``GET /added/return``: the ``ReturnURL`` given to added games' referees. The
        Arbitre reads the return from the referee's own answer (decision 26); a frame that
        lands here is told so."""
        note = "the referee's return is read by the Arbitre from the referee's answer"
        return self._html("arbitre/returned.html", note=note, code=200)

    async def added_sets(self, request: Request) -> Response:
        """``GET /arbitre/sets``: the added games and the form to add one; ``POST``: add it
        (then go to the new-game form with it chosen)."""
        values: dict[str, str] = {}
        if request.method == "POST":
            try:
                body = await _body(request, MAX_FORM)
                values = dict(
                    urllib.parse.parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
                )
                added = await self.arbitre.add_set(
                    values.get("name", ""),
                    values.get("interface_url", ""),
                    values.get("referee_url", ""),
                    start_tray=values.get("start_tray", ""),
                    simultaneous=values.get("simultaneous") == "on",
                )
            except GameError as refused:
                return await self._sets_page(values, str(refused), 400)
            query = urllib.parse.urlencode({"set": added.name})
            return RedirectResponse(f"/arbitre?{query}", 303)
        return await self._sets_page(values, "", 200)

    async def _sets_page(self, values: Mapping[str, str], error: str, status: int) -> Response:
        await self.arbitre.load_added()
        return self._html(
            "arbitre/sets.html",
            status,
            added=sorted(self.arbitre.added.values(), key=lambda a: a.key),
            referees=[s for s in self.arbitre.registry if s.referee is not None],
            public_url=self.arbitre.public_url,
            values=values,
            error=error,
        )

    async def api_add_set(self, request: Request) -> Response:
        """``POST /api/sets`` (JSON ``{"name", "interface_url", "referee_url",
        "start_tray", "simultaneous"}``): add a game; 201 ``{"name", "key"}`` or 400."""
        try:
            data = _json(await _body(request, MAX_FORM))
            if not isinstance(data, dict):
                raise GameError("send a JSON object {name, interface_url, referee_url}")
            added = await self.arbitre.add_set(
                str(data.get("name", "")),
                str(data.get("interface_url", "")),
                str(data.get("referee_url", "")),
                start_tray=str(data.get("start_tray") or ""),
                simultaneous=data.get("simultaneous") is True,
            )
        except (GameError, ValueError) as refused:
            return JSONResponse({"error": str(refused)}, 400)
        return JSONResponse({"name": added.name, "key": added.key}, 201)

    # --- engine tester and check --------------------------------------------------------

    async def engine_tester(self, request: Request) -> Response:
        """``GET /engine-tester?url=..&set=..&Turn=..&Tray=..``: call an engine in tester mode
        (empty Referee) and show the request sent and the body it answered, as text."""
        q = request.query_params
        sets = self.arbitre.playable()
        context: dict[str, Any] = {
            "sets": [s.name for s in sets],
            "q": dict(q.items()),
            "result": None,
            "error": "",
        }
        url = q.get("url", "").strip()
        if not url:
            return self._html("arbitre/tester.html", **context)
        interface = await self.arbitre.find_set(q.get("set", ""))
        rules = interface.arbitre if interface else None
        try:
            url = check_engine_url(url, self.arbitre.engine_hosts)
            if interface is None or rules is None:
                raise ValueError("choose a Set the Arbitre plays")
            turn = _int(q.get("turn"), 1, "Turn")
        except (ValueError, GameError) as refused:
            context["error"] = str(refused)
            return self._html("arbitre/tester.html", 400, **context)
        params: dict[str, str] = {}
        if q.get("form") != "original":
            params["Set"] = rules.engine_set
        params["Game"] = "TEST"
        for name in ("Move1", "Move2", "Gain1", "Gain2"):
            if q.get(name):
                params[name] = q[name]
        params.update({"Turn": str(turn), "MoveId": str(turn), "Referee": ""})
        if "tray" in q:
            params["Tray"] = q["tray"]
        sent = engine_url(url, params)
        status, body, error = await self.arbitre.caller.tester(sent, 20)
        value = body.decode("utf-8", "replace").strip()
        verdict = ""
        if error:
            verdict = error
        elif value:
            verdict = _tester_verdict(rules, turn, params, value)
        context["result"] = {
            "sent": sent,
            "status": status,
            "body": body.decode("utf-8", "replace"),
            "value": value,
            "verdict": verdict,
        }
        return self._html("arbitre/tester.html", **context)

    async def engine_check(self, request: Request) -> Response:
        """``GET /engine-check?url=..&set=..&games=N``: start N games (2 by default) of the
        engine against the built-in random engine, first then second; show their logs."""
        q = request.query_params
        url, set_name = q.get("url", "").strip(), q.get("set", "")
        if not url:
            return self._html(
                "arbitre/check.html",
                sets=[s.name for s in self.arbitre.playable()],
                q=dict(q.items()),
                games=[],
                error="",
            )
        try:
            count = _int(q.get("games"), 2, "games")
            if not 1 <= count <= 10:
                raise GameError("check with 1 to 10 games")
            timeout = _int(q.get("timeout"), 20, "TimeOut")
            ids = []
            for n in range(count):
                engine = SeatSpec("engine", url, "")
                builtin = SeatSpec("builtin", "random", "random")
                seats = [engine, builtin] if n % 2 == 0 else [builtin, engine]
                ids.append(await self.arbitre.create(set_name, seats, Options(timeout=timeout)))
        except (GameError, ValueError) as refused:
            return self._html(
                "arbitre/check.html",
                400,
                sets=[s.name for s in self.arbitre.playable()],
                q=dict(q.items()),
                games=[],
                error=str(refused),
            )
        return self._html(
            "arbitre/check.html",
            sets=[s.name for s in self.arbitre.playable()],
            q=dict(q.items()),
            games=ids,
            error="",
        )


def _tester_verdict(rules: Any, turn: int, params: Mapping[str, str], value: str) -> str:
    """Say whether ``value`` is legal for the context the tester sent, when the rules can
    tell from the first move (other positions are not rebuilt from a Tray)."""
    state = rules.start().state
    if turn != 1 or rules.asked(state) == ():
        return "value received (legality is checked from Turn 1's position only)"
    player = rules.asked(state)[0]
    try:
        rules.engine_value(state, Player(player), value.upper())
    except IllegalMove as illegal:
        return f"illegal at Turn 1: {illegal}"
    return "legal at Turn 1"


def _result_text(game: GameRow, seats: list[SeatRow]) -> str:
    if game.status == "playing":
        return ""
    if game.status == "interrupted":
        return "interrupted"
    if game.result == "draw":
        return "draw"
    if game.winner is not None and 0 <= game.winner < len(seats):
        return f"{seats[game.winner].name} wins"
    return "ended in error"


def _int(raw: Any, default: int, name: str, *, strict: bool = True) -> int:
    if raw is None or raw == "":
        return default
    try:
        return int(str(raw).strip())
    except ValueError:
        if strict:
            raise GameError(f"{name} is a whole number") from None
        return default


def _json(body: bytes) -> Any:
    """Decode a JSON request body (empty: ``null``); raise :class:`GameError` when it is not
    JSON, nested too deep included."""
    try:
        return json.loads(body or b"null")
    except (ValueError, RecursionError):
        raise GameError("the body is not JSON") from None


async def _body(request: Request, limit: int) -> bytes:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise GameError(f"request body over {limit} bytes")
    return body
