"""A registered engine's record: its games, its results per Set and per opponent, and its
rating over time per Set (openskill over its games in the order they ended)."""

from __future__ import annotations

from typing import Any

from tournoyons_gui.arbitre.standings import GameResult, rating_history
from tournoyons_gui.arbitre.store import Game, Store

__all__ = ["engine_record"]


async def engine_record(store: Store, engine_id: str) -> dict[str, Any] | None:
    """Return a registered engine's games, its results per Set and per opponent, and
    its rating over time per Set (openskill over its games in the order they ended)."""
    engine = await store.registered(engine_id)
    if engine is None:
        return None
    mine, games, by_game = await store.engine_games(engine_id)
    rows = []
    per_set: dict[str, dict[str, int]] = {}
    per_opponent: dict[str, dict[str, Any]] = {}
    for seat in mine:
        game = games.get(seat.game_id)
        if game is None:
            continue
        other = next((s for s in by_game.get(game.id, []) if s.index != seat.index), None)
        outcome = _outcome(game, seat.index)
        rows.append((game, seat, other, outcome))
        counts = per_set.setdefault(game.set_name, {"won": 0, "drawn": 0, "lost": 0, "error": 0})
        counts[outcome] += 1
        if other is not None:
            key = other.registration or other.name
            entry = per_opponent.setdefault(
                key,
                {"name": other.name, "won": 0, "drawn": 0, "lost": 0, "error": 0},
            )
            entry[outcome] += 1
    rows.sort(key=lambda r: (r[0].ended_at or r[0].created_at, r[0].id))
    history: dict[str, list[dict[str, Any]]] = {}
    for set_name in per_set:
        played = [r for r in rows if r[0].set_name == set_name]
        opponents = sorted({(r[2].registration or r[2].name) if r[2] else "?" for r in played})
        index = {key: number + 1 for number, key in enumerate(opponents)}
        results = []
        for _game, _seat, other, outcome in played:
            them = index[(other.registration or other.name) if other else "?"]
            winner = {"won": 0, "lost": them, "drawn": None, "error": None}[outcome]
            results.append(
                GameResult(first=0, second=them, winner=winner, error=outcome == "error")
            )
        points = rating_history(len(opponents) + 1, results)[0]
        history[set_name] = [
            {
                "game": played[number][0].id,
                "at": (played[number][0].ended_at or played[number][0].created_at).isoformat(),
                "mu": round(mu, 3),
                "sigma": round(sigma, 3),
            }
            for number, mu, sigma in points
        ]
    return {
        "id": engine.id,
        "name": engine.name,
        "url": engine.url,
        "sets": list(engine.sets),
        "poker_level2": engine.poker_level2,
        "open": engine.open_entry,
        "kind": engine.kind,
        "retired": engine.retired,
        "created_at": engine.created_at.isoformat(),
        "per_set": per_set,
        "per_opponent": sorted(per_opponent.values(), key=lambda e: str(e["name"]).lower()),
        "ratings": history,
        "games": [
            {
                "id": game.id,
                "set": game.set_name,
                "seat": seat.index,
                "opponent": other.name if other else "",
                "outcome": outcome,
                "moves": game.moves,
                "ended_at": game.ended_at.isoformat() if game.ended_at else None,
                "tournament": game.tournament_id,
            }
            for game, seat, other, outcome in reversed(rows)
        ],
    }


def _outcome(game: Game, index: int) -> str:
    if game.status != "over" or game.result == "error":
        return "error"
    if game.winner is None:
        return "drawn"
    return "won" if game.winner == index else "lost"
