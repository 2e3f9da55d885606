"""A match of ``play`` as pages: what its summary says, drawn, and every
game linked. Every page works without JavaScript (the charts are SVG drawn here, the
lists plain links); nothing reads or draws a long match whole but its summary, computed
once the match has ended (:mod:`.match_records`).

Routes:

- ``GET /matches[?after=CURSOR]``: a page of the matches, newest first.
- ``GET /matches/<id>[?after=CURSOR][&limit=N]``: the match: its entrants' W/D/L, faults
  by kind, points and score (Tarot: totals and ranks), the Elo difference with its 95%
  interval, the LOS and the normalized Elo; with an SPRT its verdict, its LLR and LOS as
  gauges and its LLR pair by pair between the two bounds (:mod:`.match_chart`); the
  pentanomial counts as bars; the first games lost by fault with their report lines; a
  page of its games in order, each linked; the runs of the same Set and seed, each a link
  to the diff of the two (:mod:`.match_diff_pages`).
- ``GET /matches/<id>/faults[?after=CURSOR]``: the games lost by fault, a page at a time,
  each with the failure report's lines (:mod:`~tournoyons_gui.arbitre.faults`).

A cursor that cannot be read is a 400 page with the reason; no such match, a 404 page.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tournoyons_gui.arbitre.faults import Failure, failure_of
from tournoyons_gui.arbitre.match_summary import Outcome, elo_line, nelo_line
from tournoyons_gui.arbitre.paging import CursorError, newest_position
from tournoyons_gui.arbitre.store import Match, MatchEntry, Store
from tournoyons_gui.arbitre.web.match_chart import gauge, llr_chart, pentanomial_bars
from tournoyons_gui.arbitre.web.match_records import MatchPart, games_page, names_of
from tournoyons_gui.arbitre.web.paging import asked_page, next_path

__all__ = [
    "FAULTS_SHOWN",
    "MatchPages",
    "again",
    "game_row",
    "llr_words",
    "matches_page",
    "result_words",
    "verdict_words",
]

#: The games lost by fault the match's page reports (the rest: its faults' pages).
FAULTS_SHOWN = 5
#: Matches a page of the list shows.
PER_PAGE = 25
#: The newest matches searched for other runs of a match's Set and seed.
RUNS_SEARCHED = 100


def result_words(outcome: Outcome, names: Sequence[str]) -> str:
    """Return how a game of a match ended, in words: ``strong wins``, ``draw``, ``A and B
    share the first place``, ``interrupted``, ``playing``, ``no result``."""
    if outcome.status != "over":
        return outcome.status
    if outcome.points is None:
        return "no result"
    firsts = [i for i, p in enumerate(outcome.points) if p > 0]
    if len(firsts) == 1:
        return f"{names[firsts[0]]} wins"
    if len(firsts) == len(outcome.points):
        return "draw"
    return f"{' and '.join(names[i] for i in firsts)} share the first place"


def game_row(outcome: Outcome, names: Sequence[str]) -> dict[str, Any]:
    """Return a game of a match as its page lists it: number (from 1), id, pair, opening
    (line and Tray), the entrants in play order, the result in words and from the first
    entrant's side, the fault (kind, whose, ply), the moves played."""
    first = None
    if outcome.points is not None:
        first = {1.0: "win", 0.5: "draw", 0.0: "loss"}[outcome.points[0]]
    return {
        "number": outcome.number + 1,
        "id": outcome.game_id,
        "pair": outcome.pair,
        "line": outcome.line,
        "tray": outcome.tray,
        "seats": [names[i] if 0 <= i < len(names) else "?" for i in outcome.seats],
        "result": result_words(outcome, names),
        "first": first,
        "fault": outcome.fault,
        "fault_by": names[outcome.fault_by] if outcome.fault_by is not None else "",
        "ply": outcome.ply,
        "moves": outcome.moves,
        "status": outcome.status,
    }


def again(match: Match) -> str:
    """Return the ``play`` command that plays the match again, the same games with the
    same engines (a built-in engine's own choices seeded too), from its record: its Set,
    entrants (``NAME=`` each), games, seed, openings, SPRT and options."""
    words = ["tournoyons-gui", "play", "--set", match.set_name]
    for entrant in match.entrants:
        kind, engine = entrant.get("kind", ""), entrant.get("engine", "")
        seat = f"{kind}:{engine}" if kind in ("builtin", "botsarena") else str(engine)
        words += ["--engine", f"{entrant.get('name', '')}={seat}"]
    words += ["--games", str(match.games), "--seed", str(match.seed)]
    if match.openings:
        words += ["--openings", match.openings]
    if match.sprt:
        sprt = match.sprt
        words += ["--sprt", f"{sprt['elo0']:g},{sprt['elo1']:g},{sprt['alpha']:g},{sprt['beta']:g}"]
    options = match.options
    for option, name, default in (("timeout", "--timeout", 20), ("level", "--level", 1)):
        if options.get(option, default) != default:
            words += [name, str(options[option])]
    if options.get("deals") is not None:
        words += ["--deals", str(options["deals"])]
    if options.get("open_table"):
        words.append("--open-table")
    if options.get("move_time"):
        words += ["--move-time", str(options["move_time"])]
    return " ".join(shlex.quote(word) for word in words)


def verdict_words(summary: dict[str, Any], names: Sequence[str], status: str) -> str:
    """Return the SPRT's verdict in a sentence (the match's ``summary`` document, its
    entrants' ``names``, its ``status``)."""
    sprt = summary["sprt"]
    one, other = [*names, "?", "?"][:2]
    if sprt["verdict"] == "H1":
        return (
            f"H1 accepted: {one} is stronger than {other}, by {sprt['elo1']:g} normalized "
            f"Elo rather than {sprt['elo0']:g} (a false positive {sprt['alpha'] * 100:g} % "
            "of the time)."
        )
    if sprt["verdict"] == "H0":
        return (
            f"H0 accepted: {one} is not stronger than {other} by {sprt['elo1']:g} normalized "
            f"Elo; nearer {sprt['elo0']:g} (a false negative {sprt['beta'] * 100:g} % of the "
            "time)."
        )
    if status == "running":
        return "No verdict yet: the match is being played."
    if status == "interrupted":
        return "No verdict: the match was stopped before the LLR reached a bound."
    return "No verdict: the games ran out before the LLR reached a bound."


def llr_words(sprt: dict[str, Any]) -> str:
    """Return where the SPRT's LLR stands against its bounds, in words: ``between its
    bounds -2.94 (H0 accepted) and +2.94 (H1 accepted)``, or, once it crossed one (the
    last pair may take it past), ``past its upper bound +2.94: H1 accepted``."""
    llr, lower, upper = sprt["llr"], sprt["lower"], sprt["upper"]
    if llr >= upper:
        return f"past its upper bound {upper:+.2f}: H1 accepted (its lower bound {lower:+.2f})"
    if llr <= lower:
        return f"past its lower bound {lower:+.2f}: H0 accepted (its upper bound {upper:+.2f})"
    return f"between its bounds {lower:+.2f} (H0 accepted) and {upper:+.2f} (H1 accepted)"


async def matches_page(
    request: Request, store: Store, default: int = PER_PAGE
) -> tuple[list[Match], dict[str, tuple[int, int]], str | None]:
    """Return the page of matches ``request`` asks (newest first, ``?after=``,
    ``?limit=``), each one's games made and over, and the next page's cursor; raise
    :class:`CursorError`."""
    asked = await asked_page(request, store, "matches", size=2, default=default)
    after = newest_position(asked.after) if asked.after else None
    listed = await store.matches_page(after=after, limit=asked.limit)
    last = listed.rows[-1] if listed.rows else None
    cursor = asked.cursor([last.created_at.isoformat(), last.id]) if listed.more and last else None
    counts = await store.match_counts([m.id for m in listed.rows])
    return listed.rows, counts, cursor


class MatchPages(MatchPart):
    """The match pages (see the module); ``summaries`` is shared with their JSON twin."""

    def routes(self) -> list[Route]:
        """Return the pages' routes (after the JSON twin's ``/matches/<id>.json``)."""
        return [
            Route("/matches", self.matches),
            Route("/matches/{match_id}", self.match_page),
            Route("/matches/{match_id}/faults", self.faults_page),
        ]

    async def matches(self, request: Request) -> Response:
        """``GET /matches[?after=CURSOR]``: a page of the matches, newest first."""
        try:
            rows, counts, cursor = await matches_page(request, self.arbitre.store)
        except CursorError as refused:
            return self.html("arbitre/bad_page.html", 400, error=refused, first_page="/matches")
        return self.html(
            "arbitre/matches.html",
            matches=rows,
            counts=counts,
            names_of=names_of,
            first_page="/matches" if request.query_params.get("after") else None,
            next_page=next_path(request, cursor),
        )

    async def _match(self, request: Request) -> Match | None:
        return await self.arbitre.store.match(request.path_params["match_id"][:40])

    async def match_page(self, request: Request) -> Response:
        """``GET /matches/<id>[?after=CURSOR]``: the match (see the module)."""
        match = await self._match(request)
        if match is None:
            return self.html("arbitre/match_missing.html", 404)
        store = self.arbitre.store
        address = f"/matches/{match.id}"
        try:
            page = await games_page(request, store, match.id)
        except CursorError as refused:
            return self.html("arbitre/bad_page.html", 400, error=refused, first_page=address)
        summary = await self.summaries.of(store, match)
        names = names_of(match)
        faulted = []
        if summary["faulted"]:
            shown = await store.match_games_page(match.id, limit=FAULTS_SHOWN, faulted=True)
            faulted = await self._failures(shown.rows)
        return self.html(
            "arbitre/match.html",
            match=match,
            summary=summary,
            names=names,
            again=again(match),
            figures=_figures(summary, names, match.status),
            games=[game_row(o, names) for o in page.outcomes],
            failures=faulted,
            runs=await self._runs(match),
            first_page=address if request.query_params.get("after") else None,
            next_page=next_path(request, page.cursor),
        )

    async def faults_page(self, request: Request) -> Response:
        """``GET /matches/<id>/faults[?after=CURSOR]``: the games lost by fault, each
        with its report's lines, ten a page."""
        match = await self._match(request)
        if match is None:
            return self.html("arbitre/match_missing.html", 404)
        address = f"/matches/{match.id}/faults"
        try:
            page = await games_page(
                request, self.arbitre.store, match.id, name="match-faults", faulted=True, default=10
            )
        except CursorError as refused:
            return self.html("arbitre/bad_page.html", 400, error=refused, first_page=address)
        return self.html(
            "arbitre/match_faults.html",
            match=match,
            names=names_of(match),
            failures=await self._failures(page.entries),
            first_page=address if request.query_params.get("after") else None,
            next_page=next_path(request, page.cursor),
        )

    async def _failures(self, entries: Sequence[MatchEntry]) -> list[tuple[Failure, int]]:
        """Return the failure report of each of ``entries`` lost by fault, with the game's
        number in the match (from 1)."""
        from tournoyons_gui.arbitre.match_summary import outcome_of

        found = []
        for entry in entries:
            outcome = outcome_of(entry)
            exchanges = await self.arbitre.store.exchanges(entry.game.id)
            failure = failure_of(outcome, entry.seats, exchanges)
            if failure is not None:
                found.append((failure, entry.place.number + 1))
        return found

    async def _runs(self, match: Match) -> list[Match]:
        """Return the other runs of the match's Set, seed and number of entrants among the
        :data:`RUNS_SEARCHED` newest matches: those its games can be compared with."""
        if len(match.entrants) < 2:
            return []
        listed = await self.arbitre.store.matches_page(limit=RUNS_SEARCHED)
        return [
            m
            for m in listed.rows
            if m.id != match.id
            and m.set_name == match.set_name
            and m.seed == match.seed
            and len(m.entrants) == len(match.entrants)
        ]


def _figures(summary: dict[str, Any], names: Sequence[str], status: str) -> dict[str, Any]:
    """Return what the match's page draws from its ``summary``: the SPRT's verdict in
    words, its LLR plot and gauges, the LOS gauge, the pentanomial bars (each ``None``
    where the summary has no such figure)."""
    sprt = summary["sprt"]
    figures: dict[str, Any] = {
        "verdict": None,
        "llr": None,
        "llr_gauge": None,
        "elo": elo_line(summary) if len(names) == 2 else "",
        "nelo": nelo_line(summary) if len(names) == 2 else "",
    }
    if sprt is not None:
        lower, upper = sprt["lower"], sprt["upper"]
        figures["verdict"] = verdict_words(summary, names, status)
        figures["llr_words"] = llr_words(sprt)
        figures["llr"] = llr_chart(sprt["history"], lower, upper)
        figures["llr_gauge"] = gauge(
            sprt["llr"],
            lower,
            upper,
            zones=((lower, lower * 0.8, "h0"), (upper * 0.8, upper, "h1")),
        )
    los = summary["los"]
    figures["los_gauge"] = (
        gauge(los * 100, 0, 100, zones=((0, 5, "h0"), (95, 100, "h1"))) if los is not None else None
    )
    counts = summary["pentanomial"]
    figures["bars"] = pentanomial_bars(counts) if counts is not None and any(counts) else None
    return figures
