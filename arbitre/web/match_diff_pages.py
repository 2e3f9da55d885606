"""Two runs of a match compared, as pages: where two versions of an engine
first play differently (:mod:`~tournoyons_gui.arbitre.match_diff`), and two such games
side by side at that ply through the Set's interface. Both work without JavaScript.

Routes:

- ``GET /matches/<id>/diff?with=<other id>[&after=CURSOR]``: the match's games compared
  with the other run's, a page of games at a time (the couples matched by pair and first
  seat): how many are the same move for move, and for each that is not, the first ply
  where they part, both values played there and both results, linked to the two games
  side by side. Runs of other Sets, seeds, rule levels or numbers of seats: a 400 page
  with the reason (a couple of other openings too).
- ``GET /matches/diff?a=<game>&b=<game>[&ply=N][&move=M]``: two games of one Set side by
  side, each through our page of the Set as a spectator sees it (the same query as the
  game page's, :func:`~tournoyons_gui.arbitre.web.pages.position_query`), after move
  ``M`` of each (default ``N``: each game's own answer at the ply shown); ``N`` defaults
  to the first ply where they differ. Links step both games together, and to the common
  position (``M = N - 1``); the moves of both are listed with the ply marked. ``tournoyons-
  gui diff`` prints this address for each couple that differs.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tournoyons_gui.arbitre.match_diff import (
    DiffRefused,
    check_comparable,
    compare,
    diff_link,
    first_difference,
)
from tournoyons_gui.arbitre.match_summary import game_line
from tournoyons_gui.arbitre.paging import CursorError
from tournoyons_gui.arbitre.store import Game, Match, Seat
from tournoyons_gui.arbitre.web.common import Part, read_int
from tournoyons_gui.arbitre.web.match_records import games_page, names_of
from tournoyons_gui.arbitre.web.pages import HIDDEN, position_query
from tournoyons_gui.arbitre.web.paging import next_path

__all__ = ["MatchDiffPages", "run_document"]

#: The couples a page of a diff compares.
DIFF_PAGE = 100


def run_document(match: Match) -> dict[str, Any]:
    """Return what :func:`~tournoyons_gui.arbitre.match_diff.check_comparable` reads of a
    match's record: its Set, seed, entrants and options (its games are compared a page at
    a time)."""
    return {
        "set": match.set_name,
        "seed": match.seed,
        "entrants": match.entrants,
        "options": match.options,
        "games_list": [],
    }


class MatchDiffPages(Part):
    """The diff's pages (see the module)."""

    def routes(self) -> list[Route]:
        """Return the routes (``/matches/diff`` before the match's ``/matches/<id>``)."""
        return [
            Route("/matches/diff", self.side_by_side),
            Route("/matches/{match_id}/diff", self.runs_diff),
        ]

    async def runs_diff(self, request: Request) -> Response:
        """``GET /matches/<id>/diff?with=<other>``: a page of the two runs compared."""
        store = self.arbitre.store
        match = await store.match(request.path_params["match_id"][:40])
        other_id = request.query_params.get("with", "").strip()[:40]
        other = await store.match(other_id) if other_id else None
        if match is None:
            return self.html("arbitre/match_missing.html", 404)
        address = f"/matches/{match.id}/diff?" + urllib.parse.urlencode({"with": other_id})
        if other is None:
            why = f"no match {other_id!r} to compare with" if other_id else "give a match's id"
            return self.html("arbitre/match_diff.html", 400, match=match, other=None, error=why)
        try:
            check_comparable(run_document(match), run_document(other))
            # Game n of each run is the same pair and first seat: the pages align.
            mine = await games_page(request, store, match.id, name="match-diff", default=DIFF_PAGE)
            first = mine.entries[0].place.number - 1 if mine.entries else None
            theirs = await store.match_games_page(
                other.id, after=first, limit=max(len(mine.entries), 1)
            )
            moves = await store.moves_of([e.game.id for e in (*mine.entries, *theirs.rows)])
            from tournoyons_gui.arbitre.match_summary import outcome_of

            lines_a = [game_line(o, moves) for o in mine.outcomes]
            lines_b = [game_line(outcome_of(e), moves) for e in theirs.rows]
            compared = compare(lines_a, lines_b)
        except DiffRefused as refused:
            return self.html(
                "arbitre/match_diff.html", 400, match=match, other=other, error=str(refused)
            )
        except CursorError as refused:
            return self.html("arbitre/bad_page.html", 400, error=refused, first_page=address)
        return self.html(
            "arbitre/match_diff.html",
            match=match,
            other=other,
            names=names_of(match),
            other_names=names_of(other),
            compared=compared,
            numbers=(mine.entries[0].place.number + 1, mine.entries[-1].place.number + 1)
            if mine.entries
            else None,
            link=diff_link,
            error="",
            first_page=address if request.query_params.get("after") else None,
            next_page=next_path(request, mine.cursor),
        )

    async def _game(self, game_id: str) -> tuple[Game, list[Seat]] | None:
        return await self.arbitre.store.game(game_id[:40]) if game_id else None

    async def side_by_side(self, request: Request) -> Response:
        """``GET /matches/diff?a=&b=[&ply=N][&move=M]``: two games side by side."""
        query = request.query_params
        found_a, found_b = (
            await self._game(query.get("a", "")),
            await self._game(query.get("b", "")),
        )
        if found_a is None or found_b is None:
            return self.html("arbitre/missing.html", 404)
        (game_a, _), (game_b, _) = found_a, found_b
        if game_a.set_name != game_b.set_name:
            return self.html(
                "arbitre/games_side_by_side.html",
                400,
                error=f"the games are of other Sets: {game_a.set_name} and {game_b.set_name}",
            )
        played = await self.arbitre.find_set(game_a.set_name)
        if played is None:
            return self.html("arbitre/missing.html", 404)
        moves = await self.arbitre.store.moves_of([game_a.id, game_b.id])
        values_a, values_b = moves.get(game_a.id, []), moves.get(game_b.id, [])
        hidden = self.arbitre.hides(game_a, played) or self.arbitre.hides(game_b, played)
        # While a game in play hides its values, where they part is not told either.
        differ = None if hidden else first_difference(values_a, values_b)
        longest = max(game_a.moves, game_b.moves)
        ply = read_int(query.get("ply"), differ or longest, "ply", strict=False)
        ply = min(max(ply, 1), max(longest, 1))
        move = read_int(query.get("move"), ply, "move", strict=False)
        move = min(max(move, 0), longest)
        frames = [await self._frame(game, move) for game in (game_a, game_b)]
        if None in frames:
            return self.html("arbitre/missing.html", 404)

        def link(to: int) -> str:
            return "?" + urllib.parse.urlencode(
                {"a": game_a.id, "b": game_b.id, "ply": ply, "move": to}
            )

        places = [await self.arbitre.store.game_place(g.id) for g in (game_a, game_b)]
        return self.html(
            "arbitre/games_side_by_side.html",
            error="",
            sides=[
                {"game": game, "seats": seats, "frame": frame, "place": place}
                for (game, seats), frame, place in zip(
                    (found_a, found_b), frames, places, strict=True
                )
            ],
            ply=ply,
            move=move,
            longest=longest,
            differ=differ,
            rows=_rows(values_a, values_b, HIDDEN if hidden else None),
            link=link,
        )

    async def _frame(self, game: Game, move: int) -> dict[str, Any] | None:
        """Return one side of the page: the game's frame after ``move`` (its last when it
        has fewer), through our page of its Set, as a spectator sees it, and the ``Count``
        the page shows between the names (the Set's count of moves: the last move's
        ``Turn``, which from a start position begins at 1 or 2, decision 15); ``None``
        when the game or its Set is no longer there (deleted meanwhile)."""
        position = await self.arbitre.position(game.id, move)
        played = await self.arbitre.find_set(game.set_name)
        if position is None or played is None:
            return None
        shown = (*position, played)
        chosen = await self.arbitre.interfaces.choose(played, None)
        query, _ = await position_query(self.arbitre, shown, [])
        count = dict(urllib.parse.parse_qsl(query)).get("Count")
        return {
            "src": chosen.frame(query),
            "number": position[3],
            "name": chosen.name,
            "count": count,
        }


def _rows(
    values_a: Sequence[str], values_b: Sequence[str], hidden: str | None
) -> list[dict[str, Any]]:
    """Return the two games' moves side by side: the ply, each value (``None``: none; all
    ``hidden`` while a game in play hides them) and whether they differ there."""
    rows: list[dict[str, Any]] = []
    for index in range(max(len(values_a), len(values_b))):
        a = values_a[index] if index < len(values_a) else None
        b = values_b[index] if index < len(values_b) else None
        rows.append(
            {
                "ply": index + 1,
                "a": hidden if hidden and a is not None else a,
                "b": hidden if hidden and b is not None else b,
                "differ": a != b and not hidden,
            }
        )
    return rows
