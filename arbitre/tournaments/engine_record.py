"""A registered engine's record: its results per Set and per opponent, its rating over
time per Set (openskill over its games in the order they ended) and its games, read from
the records the store keeps as games end (kept by
:mod:`~tournoyons_gui.arbitre.store.kept_records`, read by
:mod:`~tournoyons_gui.arbitre.store.engine_records`): in bounded time and memory
whatever the number of its games, its opponents and its games a page at a time, its
rating over time a bounded number of points."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tournoyons_gui.arbitre.ladder.settings import ladder_fields
from tournoyons_gui.arbitre.store import Store
from tournoyons_gui.arbitre.store.engine_records import OPPONENT_ORDERS, RatingPoint
from tournoyons_gui.arbitre.store.kept_records import RECORDS_FILL

__all__ = [
    "GAMES_PER_PAGE",
    "MAX_POINTS",
    "OPPONENTS_PER_PAGE",
    "OPPONENT_ORDERS",
    "RecordPage",
    "engine_record",
]

#: The games of a page of an engine's games (newest first).
GAMES_PER_PAGE = 50
#: The opponents of a page of an engine's opponents.
OPPONENTS_PER_PAGE = 100
#: The most rating points given per Set: more rated games are shown by at most this many
#: points evenly spread by number (every 2**k-th rated game), the first and the last
#: included (:meth:`~tournoyons_gui.arbitre.store.engine_records.RecordStore.rating_points`).
MAX_POINTS = 200


@dataclass(frozen=True)
class RecordPage:
    """What page of a record is asked: the games before the position ``games_before``
    (``None``: the newest), the opponents in ``opponents`` order (``name`` or ``games``)
    after the position ``opponents_after`` (``None``: the first), and at most ``points``
    rating points a Set (``None``: :data:`MAX_POINTS`; the engine's page draws fewer)."""

    games_before: int | None = None
    opponents: str = "name"
    opponents_after: tuple[Any, str] | None = None
    points: int | None = None


def _point(point: RatingPoint) -> dict[str, Any]:
    return {
        "number": point.number,
        "game": point.game_id,
        "at": point.at.isoformat(),
        "mu": round(point.mu, 3),
        "sigma": round(point.sigma, 3),
    }


async def engine_record(
    store: Store,
    engine_id: str,
    page: RecordPage | None = None,
    cursor: Callable[[str, Sequence[Any]], str] | None = None,
) -> dict[str, Any] | None:
    """Return a registered engine's record as JSON-ready data (``None``: no such engine):
    its registration; ``per_set`` (``{Set: {"won", "drawn", "lost", "error"}}``);
    ``rating`` (``{Set: {"mu", "sigma", "rated"}}``, after its ``rated`` rated games);
    ``ratings`` (``{Set: [{"number", "game", "at", "mu", "sigma"}]}``, oldest first, at
    most ``page.points`` a Set, evenly spread); ``games_total``; a page of
    ``per_opponent`` (``{"name", "games", "won", "drawn", "lost", "error"}``) and of
    ``games`` (newest first: ``{"id", "set", "seat", "opponent", "outcome", "moves",
    "ended_at", "tournament"}``) as ``page`` asks, with the next pages' cursors
    (``per_opponent_next``, ``games_next``: ``cursor(list, position)``, ``None`` on the
    last page or without ``cursor``); ``filling``: ``true`` while the records kept are
    being filled after an upgrade and this engine's is not yet (its results, ratings and
    opponents are then incomplete; its games are whole). Raises ``ValueError`` for an
    unknown order."""
    page = page or RecordPage()
    engine = await store.registered(engine_id)
    if engine is None:
        return None
    reached = await store.kept_filling(RECORDS_FILL)
    sets = await store.engine_sets(engine_id)
    rated = {kept.set_name: kept.rated for kept in sets}
    points = await store.rating_points(engine_id, rated, page.points or MAX_POINTS)
    ratings = {name: [_point(p) for p in shown] for name, shown in points.items()}
    opponents, more_opponents = await store.engine_opponents(
        engine_id, order=page.opponents, after=page.opponents_after, limit=OPPONENTS_PER_PAGE
    )
    games, more_games = await store.engine_games_page(
        engine_id, before=page.games_before, limit=GAMES_PER_PAGE
    )
    opponents_next = games_next = None
    if cursor is not None and more_opponents and opponents:
        last = opponents[-1]
        position = [last.sort_name if page.opponents == "name" else last.games, last.opponent]
        opponents_next = cursor(f"opponents-{page.opponents}", position)
    if cursor is not None and more_games and games:
        games_next = cursor("games", [games[-1].seat_id])
    return {
        "id": engine.id,
        "name": engine.name,
        "filling": reached is not None and engine.id > reached,
        "url": engine.url,
        "sets": list(engine.sets),
        "poker_level2": engine.poker_level2,
        "open": engine.open_entry,
        "kind": engine.kind,
        "retired": engine.retired,
        "created_at": engine.created_at.isoformat(),
        **ladder_fields(engine),
        "per_set": {
            s.set_name: {"won": s.won, "drawn": s.drawn, "lost": s.lost, "error": s.error}
            for s in sets
        },
        "rating": {
            s.set_name: {"mu": round(s.mu, 3), "sigma": round(s.sigma, 3), "rated": s.rated}
            for s in sets
        },
        "ratings": ratings,
        "games_total": sum(s.won + s.drawn + s.lost + s.error for s in sets),
        "per_opponent": [
            {
                "name": o.name,
                "games": o.games,
                "won": o.won,
                "drawn": o.drawn,
                "lost": o.lost,
                "error": o.error,
            }
            for o in opponents
        ],
        "per_opponent_order": page.opponents,
        "per_opponent_next": opponents_next,
        "games": [
            {
                "id": game.game_id,
                "set": game.set_name,
                "seat": game.index,
                "opponent": game.opponent,
                "outcome": game.outcome,
                "moves": game.moves,
                "ended_at": game.ended_at.isoformat() if game.ended_at else None,
                "tournament": game.tournament_id,
            }
            for game in games
        ],
        "games_next": games_next,
    }
