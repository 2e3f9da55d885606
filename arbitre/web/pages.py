"""The Arbitre's pages for people: start a game, list the games, play, watch or replay one
through its Set's own page, follow it live, read its exchanges, and add a game of one's
own (chapter VI). Every page works without JavaScript; ``arbitre/static/arbitre.js``
makes the game page live.

Routes:

- ``GET /arbitre/new[?set=S]``: the form that starts a game (``/arbitre`` is the front
  page, :mod:`.front`, which sends its old links here); ``POST /arbitre/games``: its
  target (303 to the game's page, with the person seats' tokens; 400 with the form
  refilled and the error shown).
- ``GET /games[?set=S][&seat=NAME][&after=CURSOR]``: a page of the games, newest first, a
  plain link to the next (``&page=N``, the old links, still works to a depth);
  ``seat`` matches a seat's whole name (any case) or whole URL, never a part of one (so that
  it reads one index at a million games).
- ``GET /games/<id>[?move=N][&seat=TOKEN][&interface=ID]``: play, watch, replay, through
  our interface or any registered one for the Set; ``GET /games/<id>/view``: the
  iframe's URL for a position (JSON, for the page's script); ``GET /games/<id>/log``: the
  exchanges, move by move, for engine authors. The live events are :mod:`.events`'.
- ``GET /arbitre/sets``: the added games and the form to add one; ``POST``: add it.
"""

from __future__ import annotations

import unicodedata
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from tournoyons_gui.arbitre.added import AddedSet
from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.catalogue import PlayedSet
from tournoyons_gui.arbitre.guis import Interface
from tournoyons_gui.arbitre.match import (
    BIDI_CONTROLS,
    DEFAULT_BOT_TIMEOUT,
    DEFAULT_TIMEOUT,
    GameError,
    Options,
    SeatSpec,
)
from tournoyons_gui.arbitre.outbound import MAX_URL
from tournoyons_gui.arbitre.paging import CursorError, newest_position
from tournoyons_gui.arbitre.processes import refuse_command
from tournoyons_gui.arbitre.record import open_table, redact, result_text
from tournoyons_gui.arbitre.seats import KINDS, through_pages
from tournoyons_gui.arbitre.store import MAX_OFFSET, MAX_PAGE, Game, GameList, Seat, SeatFilter
from tournoyons_gui.arbitre.web.common import NO_STORE, Part, read_deals, read_form, read_int
from tournoyons_gui.arbitre.web.paging import asked_page, next_path
from tournoyons_gui.arbitre.web.returns import once_url
from tournoyons_gui.interfaces.plugin import Turn, match_deals, seat_count
from tournoyons_gui.interfaces.protocol import Player

__all__ = [
    "HIDDEN",
    "MAX_MOVE",
    "MAX_SET_FILTER",
    "PER_PAGE",
    "FilterError",
    "GameFilters",
    "GamePages",
    "games_page",
    "kept_query",
    "load_position",
    "position_query",
    "read_filters",
]

#: What the moves list and the record show for a value while the game hides information.
HIDDEN = "?"
#: Games a page of the list shows.
PER_PAGE = 25

#: A position shown: the game, its seats, the Turn, the move number, the Set.
Shown = tuple[Game, list[Seat], Turn, int, PlayedSet]


async def load_position(arbitre: Arbitre, request: Request) -> Shown | None:
    """Return the position a game page's request names (``/games/<id>``, ``?move=N``; the
    last by default), or ``None`` for no such game, move or Set."""
    move_raw = request.query_params.get("move")
    move = None if move_raw in (None, "") else read_int(move_raw, 0, "move", strict=False)
    found = await arbitre.position(request.path_params["game_id"], move)
    if found is None:
        return None
    game, seats, turn, number = found
    interface = await arbitre.find_set(game.set_name)
    if interface is None:
        return None
    return game, seats, turn, number, interface


async def position_query(
    arbitre: Arbitre, position: Shown, tokens: list[str], *, outside: bool = False
) -> tuple[str, int | None]:
    """Return the interface protocol's query for this position and viewer (urlencoded),
    and the seat asked (a seat played through these pages whose token the viewer holds,
    asked this move). Whatever interface shows it gets exactly this query:
    hidden information stays hidden from a viewer who may not see it. An ``outside``
    interface (not this server's) gets a ``URLReturn`` good for this one move of this seat
    only, never the seat's token (decision 26)."""
    game, seats, turn, number, interface = position
    rules = interface.arbitre
    assert rules is not None
    mine = [s for s in seats if through_pages(s) and s.token in tokens]
    asked_seat: Seat | None = None
    if game.status == "playing" and number == game.moves:
        for seat in mine:
            if await arbitre.asks.asked_person(seat.token) == number + 1:
                asked_seat = seat
                break
    viewer = (
        Player(asked_seat.index + 1)
        if asked_seat
        else Player(mine[0].index + 1)
        if len(mine) == 1
        else None
    )
    # A replay shows every hand; an open table shows them to spectators in play.
    reveal = game.status != "playing" or (not mine and open_table(game))
    params: dict[str, str] = {"Set": interface.name}
    params.update((f"Name{seat.index + 1}", seat.name) for seat in seats)
    params.update(rules.page(turn, viewer, asking=asked_seat is not None, reveal=reveal))
    if game.status != "playing" and number == game.moves:
        params["Method"] = "End"
    wait = int(game.options.get("wait", 0))
    if wait:
        params["Wait"] = str(wait)
    if asked_seat is not None:
        if params.get("Method") == "Prepare" and "Legend" not in params:
            params["Legend"] = "Ready"  # the validate button's label (Arbitre's words)
        params["Input"] = Player(asked_seat.index + 1).word
        params["URLReturn"] = (
            once_url(arbitre.public_url, asked_seat.token, game.id, asked_seat.index, number + 1)
            if outside
            else f"{arbitre.public_url}/play/{asked_seat.token}/{number + 1}"
        )
    query = urllib.parse.urlencode(params, quote_via=urllib.parse.quote)
    return query, asked_seat.index if asked_seat else None


class FilterError(CursorError):
    """A filter of the games list that cannot be a Set's name, a seat's name or a URL
    (answered 400 with the reason, as a cursor that cannot be read is)."""


#: The largest move a program's ``/games/<id>/view?move=`` reads (9 digits).
MAX_MOVE = 10**9 - 1
#: The longest Set filter read (a Set's name is at most 40 characters).
MAX_SET_FILTER = 40


@dataclass(frozen=True)
class GameFilters:
    """The games list's filters as asked: ``set_name`` (the Set's canonical name when it
    is one of this Arbitre's, else the text asked: the games hold no other) and ``seat``
    (the text asked, its ends stripped); ``""``: no filter."""

    set_name: str = ""
    seat: str = ""

    def seat_filter(self) -> SeatFilter | None:
        """Return the store's seat filter: a seat whose name is the text asked with its
        spaces folded (any case), or whose URL is the text asked (whole); ``None``."""
        if not self.seat:
            return None
        name = " ".join(self.seat.split())
        return SeatFilter(name if len(name) <= MAX_SEAT_NAME else "", self.seat)

    def query(self) -> list[tuple[str, str]]:
        """Return the filters as query parameters (those given)."""
        return [(k, v) for k, v in (("set", self.set_name), ("seat", self.seat)) if v]


#: The longest seat name compared (names are shorter: a seat's is cut to 60 at the game's
#: making; the column holds 200).
MAX_SEAT_NAME = 200


def _filter_text(raw: str, what: str, most: int) -> str:
    """Return a filter's text, its ends stripped; raise :class:`FilterError` when it is
    longer than ``most`` characters or holds what no name or URL holds (a control
    character, NUL included; a lone surrogate; a bidirectional override)."""
    if len(raw) > most:
        raise FilterError(f"{what} is at most {most} characters: no name or URL is longer")
    if any(unicodedata.category(c) in ("Cc", "Cs") or c in BIDI_CONTROLS for c in raw):
        raise FilterError(f"{what} holds a control character: it cannot be a name or a URL")
    return raw.strip()


async def read_filters(request: Request, arbitre: Arbitre) -> GameFilters:
    """Return the games list's filters ``request`` asks (``?set=``, ``?seat=``); raise
    :class:`FilterError` for a query that is not UTF-8 text (a lone surrogate's bytes,
    say), a filter given twice, too long, or holding a control character."""
    try:
        urllib.parse.parse_qsl(
            request.scope.get("query_string", b"").decode("latin-1"),
            keep_blank_values=True,
            errors="strict",
        )
    except UnicodeDecodeError:
        raise FilterError("the query is not UTF-8 text: it cannot be a name or a URL") from None
    for once in ("set", "seat"):
        if len(request.query_params.getlist(once)) > 1:
            raise FilterError(f"give {once} once")
    asked = _filter_text(request.query_params.get("set", ""), "set", MAX_SET_FILTER)
    seat = _filter_text(request.query_params.get("seat", ""), "seat", MAX_URL)
    set_name = asked
    if asked:
        found = await arbitre.find_set(asked)
        set_name = found.name if found is not None else asked
    return GameFilters(set_name, seat)


async def games_page(
    request: Request, arbitre: Arbitre, filters: GameFilters, default: int = PER_PAGE
) -> tuple[GameList, str | None, int]:
    """Return the page of games ``request`` asks (newest first, ``filters`` applied, after
    ``?after=``; ``?page=N`` without a cursor skips N-1 pages, the old links: a page
    deeper than :data:`~tournoyons_gui.arbitre.store.MAX_OFFSET` games is empty), the
    next page's cursor (``None`` on the last) and the rows skipped; raise
    :class:`CursorError` for a cursor or a limit that cannot be read."""
    keyed = [("set", filters.set_name.lower()), ("seat", filters.seat.lower())]
    store = arbitre.store
    asked = await asked_page(request, store, "games", keyed, size=2, default=default)
    after = newest_position(asked.after) if asked.after else None
    offset = 0
    if after is None:
        number = read_int(request.query_params.get("page"), 1, "page", strict=False)
        offset = (max(1, min(number, MAX_PAGE)) - 1) * asked.limit
    listed = await store.games_page(
        set_name=filters.set_name,
        seat=filters.seat_filter(),
        after=after,
        offset=offset,
        limit=asked.limit,
    )
    last = listed.games[-1] if listed.games else None
    cursor = asked.cursor([last.created_at.isoformat(), last.id]) if listed.more and last else None
    return listed, cursor, offset


def is_outside(chosen: Interface, played: PlayedSet) -> bool:
    """Whether a game of ``played`` shown through ``chosen`` is shown by a page that is not
    this server's (a registered interface, an added Set's): it runs in a sandboxed frame
    and gets one-move return URLs (decision 26)."""
    return not chosen.builtin or isinstance(played, AddedSet)


def kept_query(tokens: list[str], interface_id: str) -> str:
    """Return what a game page's links keep of its address (``&seat=...``, and
    ``&interface=...`` when one is chosen), each starting with ``&``."""
    pairs = [("seat", t) for t in tokens]
    if interface_id:
        pairs.append(("interface", interface_id))
    return "".join("&" + urllib.parse.urlencode([pair]) for pair in pairs)


class GamePages(Part):
    """The pages for people (see the module); ``holder()`` returns the running Arbitre."""

    def routes(self) -> list[Route]:
        """Return the pages' routes, in the order they are tried."""
        return [
            Route("/arbitre/new", self.home),
            Route("/arbitre/games", self.form_create, methods=["POST"]),
            Route("/games", self.games),
            Route("/games/{game_id}", self.game_page),
            Route("/games/{game_id}/view", self.view),
            Route("/games/{game_id}/log", self.log_page),
            Route("/arbitre/sets", self.added_sets, methods=["GET", "POST"]),
        ]

    # --- starting a game ----------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        """``GET /arbitre/new[?set=S]``: the form that starts a game, ``S`` chosen."""
        await self.arbitre.load_added()
        chosen = request.query_params.get("set", "")
        found = self.arbitre.lookup(chosen) if chosen else None
        return self._home({"set": found.name} if found else {}, "")

    def _home(self, values: Mapping[str, str], error: str, status: int = 200) -> Response:
        playable = self.arbitre.playable()
        sets = [
            {
                "name": s.name,
                "engines": list(s.engines),
                "levels": list(s.arbitre.levels) if s.arbitre else [1],
                "added": isinstance(s, AddedSet),
                "seats": seat_count(s.arbitre),
                "deals": match_deals(s.arbitre) is not None,
            }
            for s in playable
        ]
        names = sorted({name for s in playable for name in s.engines})
        most = max([2, *(seat_count(s.arbitre) for s in playable)])
        return self.html(
            "arbitre/home.html",
            status,
            sets=sets,
            kinds=[kind for kind in KINDS.values() if kind.title],
            builtin_names=names,
            seat_numbers=range(1, most + 1),
            values=values,
            error=error,
            config={"sets": sets},
        )

    async def form_create(self, request: Request) -> Response:
        """``POST /arbitre/games``: start the game the form describes (as many seat rows
        as the Set has seats, the options, an optional ``start_tray``, decision 15; ``deals``
        and ``open_table``, tarot.md); 303 to its page."""
        try:
            pairs = await read_form(request)
        except GameError as refused:
            return self._home({}, str(refused), 413)
        form = dict(pairs)
        try:
            chosen = self.arbitre.lookup(form.get("set", ""))
            count = seat_count(chosen.arbitre if chosen else None)
            seats = [form_seat(form, n) for n in range(1, count + 1)]
            if form.get("first") == "2" and count == 2:
                seats.reverse()
            options = Options(
                timeout=read_int(form.get("timeout"), DEFAULT_TIMEOUT, "TimeOut"),
                level=read_int(form.get("level"), 1, "Level"),
                wait=read_int(form.get("wait"), 0, "Wait"),
                init_as_board=form.get("init_as_board") == "on",
                bot_timeout=read_int(
                    form.get("bot_timeout"), DEFAULT_BOT_TIMEOUT, "botsarena limit"
                ),
                deals=read_deals(form.get("deals")),
                open_table=form.get("open_table") == "on",
            )
            game_id = await self.arbitre.create(
                form.get("set", ""),
                seats,
                options,
                start_tray=form.get("start_tray", "").strip() or None,
            )
        except GameError as refused:
            return self._home(form, str(refused), 400)
        found = await self.arbitre.store.game(game_id)
        assert found is not None
        tokens = [s.token for s in found[1] if through_pages(s)]
        query = urllib.parse.urlencode([("seat", t) for t in tokens])
        return RedirectResponse(f"/games/{game_id}{'?' + query if query else ''}", 303)

    # --- lists and games ----------------------------------------------------------------

    async def games(self, request: Request) -> Response:
        """``GET /games[?set=S][&seat=NAME][&after=CURSOR]``: a page of the games, newest
        first, with a plain link to the next (``?page=N``, the old links, still reads the
        N-th page of 25, to :data:`~tournoyons_gui.arbitre.store.MAX_OFFSET` games deep);
        the total (kept per Set) unless filtered by seat; a filter or a cursor that cannot
        be read is a 400 page with the reason."""
        try:
            filters = await read_filters(request, self.arbitre)
        except FilterError as refused:
            return self.html("arbitre/bad_page.html", 400, error=refused, first_page="/games")
        kept = filters.query()
        first = "/games" + ("?" + urllib.parse.urlencode(kept) if kept else "")
        try:
            listed, cursor, offset = await games_page(request, self.arbitre, filters)
        except CursorError as refused:
            return self.html("arbitre/bad_page.html", 400, error=refused, first_page=first)
        total = None
        if not filters.seat:
            total = await self.arbitre.store.count_games(set_name=filters.set_name)
        return self.html(
            "arbitre/games.html",
            games=listed.games,
            seats=listed.seats,
            total=total,
            too_deep=offset >= MAX_OFFSET,
            deepest=MAX_OFFSET // PER_PAGE,
            first_page=first if request.query_params.get("after") or offset else None,
            next_page=next_path(request, cursor),
            set_name=filters.set_name,
            seat=filters.seat,
            result_text=result_text,
            sets=[s.name for s in self.arbitre.playable()],
        )

    async def _position(self, request: Request) -> Shown | None:
        return await load_position(self.arbitre, request)

    async def _src(
        self, position: Shown, tokens: list[str], interface_id: str | None = None
    ) -> tuple[str, int | None]:
        """Return the frame's URL for this position and viewer through the interface
        ``interface_id`` (ours by default), and the seat asked."""
        chosen = await self.arbitre.interfaces.choose(position[4], interface_id)
        outside = is_outside(chosen, position[4])
        query, asked = await position_query(self.arbitre, position, tokens, outside=outside)
        return chosen.frame(query), asked

    async def game_page(self, request: Request) -> Response:
        """``GET /games/<id>[?move=N][&seat=TOKEN]``: the game, live or replayed, through
        the Set's own page; a viewer holding a seat's token plays it."""
        position = await self._position(request)
        if position is None:
            return self.html("arbitre/missing.html", 404)
        game, seats, _, number, interface = position
        tokens = request.query_params.getlist("seat")
        chosen = await self.arbitre.interfaces.choose(
            interface, request.query_params.get("interface")
        )
        src, asked = await self._src(position, tokens, chosen.id)
        choices = await self.arbitre.interfaces.for_set(interface)
        picked = "" if chosen.builtin else chosen.id
        moves = await self.arbitre.store.moves(game.id)
        mine = [s.index for s in seats if through_pages(s) and s.token in tokens]
        return self.html(
            "arbitre/game.html",
            game=game,
            seats=seats,
            number=number,
            src=src,
            moves=moves,
            asked=asked,
            mine=mine,
            interface=interface,
            added=is_outside(chosen, interface),
            chosen=chosen,
            choices=choices,
            keep=kept_query(tokens, picked),
            result=result_text(game, seats),
            hidden=HIDDEN if self.arbitre.hides(game, interface) else None,
            # A game of play's match links it (one look-up along a unique index).
            place=await self.arbitre.store.game_place(game.id),
            config={
                "id": game.id,
                "moves": game.moves,
                "number": number,
                "live": game.status == "playing",
                "seats": tokens,
                "interface": picked,
            },
        )

    async def view(self, request: Request) -> Response:
        """``GET /games/<id>/view?move=N&seat=T[&list=1]``: JSON ``{"src", "move",
        "moves", "status", "result", "asked", "statuses"}`` (and ``"list"``, the moves);
        404 ``{"error"}`` for no such game or move, 400 for a ``move`` that is not a whole
        number (a program's route is strict where a page's deep link is lenient)."""
        move = request.query_params.get("move")
        if move is not None and not (
            move.isascii() and move.isdigit() and len(move) <= len(str(MAX_MOVE))
        ):
            return JSONResponse({"error": "move is a whole number, 0 or more"}, 400)
        position = await self._position(request)
        if position is None:
            return JSONResponse({"error": "no such game or move"}, 404)
        game, seats, _, number, interface = position
        src, asked = await self._src(
            position, request.query_params.getlist("seat"), request.query_params.get("interface")
        )
        answer: dict[str, Any] = {
            "src": src,
            "move": number,
            "moves": game.moves,
            "status": game.status,
            "result": result_text(game, seats),
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

    async def log_page(self, request: Request) -> Response:
        """``GET /games/<id>/log``: every exchange with the engines, with what was wrong
        (decision 28); seats' secrets redacted, values hidden while the game hides them."""
        found = await self.arbitre.store.game(request.path_params["game_id"])
        if found is None:
            return self.html("arbitre/missing.html", 404)
        game, seats = found
        exchanges = await self.arbitre.store.exchanges(game.id)
        moves = await self.arbitre.store.moves(game.id)
        interface = await self.arbitre.find_set(game.set_name)
        hidden = interface is not None and self.arbitre.hides(game, interface)
        return self.html(
            "arbitre/log.html",
            game=game,
            seats=seats,
            exchanges=exchanges,
            moves=moves,
            result=result_text(game, seats),
            hidden=hidden,
            redact=lambda text: HIDDEN if hidden else redact(text, seats),
            logs_dropped=await self.arbitre.store.logs_dropped(game.id),
        )

    # --- added games (chapter VI) -------------------------------------------------------

    async def added_sets(self, request: Request) -> Response:
        """``GET /arbitre/sets``: the added games and the form to add one; ``POST``: add it
        (303 to the new-game form with it chosen; 400 with the form refilled)."""
        values: dict[str, str] = {}
        if request.method == "POST":
            try:
                values = dict(await read_form(request))
                added = await self.arbitre.catalogue.add(
                    values.get("name", ""),
                    values.get("interface_url", ""),
                    values.get("referee_url", ""),
                    start_tray=values.get("start_tray", ""),
                    simultaneous=values.get("simultaneous") == "on",
                )
            except GameError as refused:
                return await self._sets_page(values, str(refused), 400)
            query = urllib.parse.urlencode({"set": added.name})
            return RedirectResponse(f"/arbitre/new?{query}", 303)
        return await self._sets_page(values, "", 200)

    async def _sets_page(self, values: Mapping[str, str], error: str, status: int) -> Response:
        await self.arbitre.load_added()
        return self.html(
            "arbitre/sets.html",
            status,
            added=sorted(self.arbitre.added.values(), key=lambda a: a.key),
            referees=[s for s in self.arbitre.registry if s.referee is not None],
            public_url=self.arbitre.public_url,
            values=values,
            error=error,
        )


def form_seat(form: Mapping[str, str], number: int) -> SeatSpec:
    """Return seat ``number`` of the new-game form: ``seat<n>_kind``, ``seat<n>_name``, and
    the kind's own field (``seat<n>_builtin``, ``seat<n>_url``: :attr:`SeatKind.field`);
    raise :class:`GameError` for a ``cmd:`` engine (:func:`refuse_command`)."""
    name = form.get(f"seat{number}_kind", "")
    kind = KINDS.get(name)
    engine = form.get(f"seat{number}_{kind.field}", "") if kind and kind.field else ""
    refuse_command(engine)  # a process engine is never started from the web
    return SeatSpec(name, engine, form.get(f"seat{number}_name", ""))
