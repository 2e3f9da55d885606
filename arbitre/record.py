"""A game's record as people and programs read it: the export (``/games/<id>.json``, the
API), the position after any move (a replay's step, a deep link ``?move=N``), the result
in words, and what is withheld while the game is in play.

Hidden information (a fleet, a code, hole cards: decision 23) is withheld from the record
and the pages until the end: the moves' values, trays and the engines' exchanges read
``?``; a game created as an open table (match option ``open_table``, tarot.md section 3)
withholds nothing from spectators, and its record shows every hand at every move. The
seats' secret ``Game`` ids are never shown (decision 8): ``<seat N>`` instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tournoyons_gui.arbitre.catalogue import Catalogue, PlayedSet
from tournoyons_gui.arbitre.match import Options
from tournoyons_gui.arbitre.seats import exported
from tournoyons_gui.arbitre.store import Game, Move, Seat, Store
from tournoyons_gui.arbitre.turns import turn_from
from tournoyons_gui.interfaces.plugin import ArbitreRules, IllegalMove, Turn, starts_from_tray

__all__ = [
    "HIDDEN",
    "Records",
    "open_table",
    "redact",
    "result_text",
    "shown_options",
    "start_tray",
]

#: What the record and the pages show for a value while the game hides information.
HIDDEN = "?"


def redact(text: str, seats: Sequence[Seat]) -> str:
    """Return ``text`` with every seat's secret ``Game`` id replaced by ``<seat N>``: the
    ids are never shown (decision 8), or anyone could forge a pending callback."""
    for seat in seats:
        if seat.key in text:
            text = text.replace(seat.key, f"<seat {seat.index + 1}>")
    return text


def open_table(game: Game) -> bool:
    """Whether ``game`` was created as an open table: its spectators see every hand while
    it is played (match option ``open_table``; tarot.md section 3, "Who sees what")."""
    return Options.from_json(game.options).open_table


def result_text(game: Game, seats: Sequence[Seat]) -> str:
    """Return how the game ended in words: ``""`` in play, ``interrupted``, ``draw``,
    ``<name> wins``, the ranking of a game of more seats (``1. Ann, Bob  3. Cy``), or
    ``ended in error``."""
    if game.status == "playing":
        return ""
    if game.status == "interrupted":
        return "interrupted"
    if game.result == "draw":
        return "draw"
    if game.result == "ranked":
        ranked = sorted((s for s in seats if s.rank is not None), key=lambda s: (s.rank, s.index))
        places: dict[int, list[str]] = {}
        for seat in ranked:
            places.setdefault(seat.rank or 0, []).append(seat.name)
        return "  ".join(f"{rank}. {', '.join(names)}" for rank, names in places.items())
    if game.winner is not None and 0 <= game.winner < len(seats):
        return f"{seats[game.winner].name} wins"
    return "ended in error"


def shown_options(game: Game) -> dict[str, Any]:
    """Return the options a game's record shows: all of them, but its ``seed`` as
    :data:`HIDDEN` while the game is played, since the seed tells the cards still to be
    dealt and the built-in engines' coming choices (a fleet, a code); once it is over,
    the seed replays the game."""
    options = dict(game.options)
    if game.status == "playing" and options.get("seed") is not None:
        options["seed"] = HIDDEN
    return options


def start_tray(rules: ArbitreRules | None, game: Game) -> str | None:
    """Return the Tray a game started from when it is not its Set's own start (an
    opening, ``--start-tray``: decision 15), as its engines read it (the first request's
    explicit board), so that its moves can be replayed from the record alone; ``None``
    from the Set's start, for a Set that cannot start from a Tray, or a first position
    that cannot be read."""
    if rules is None or not starts_from_tray(rules) or not game.first:
        return None
    try:
        first = turn_from(game.first)
        level = int(Options.from_json(game.options).level)
        if dict(first.state) == dict(rules.start(level).state):
            return None
        asked = rules.asked(first.state)
        if not asked:
            return None
        tray = rules.request(first.state, asked[0], init_as_board=True).params.get("Tray")
    except (IllegalMove, ValueError, KeyError, TypeError):
        return None
    return str(tray) if tray else None


class Records:
    """Reads games from the ``store``, their Sets from the ``catalogue``."""

    def __init__(self, store: Store, catalogue: Catalogue) -> None:
        self.store = store
        self.catalogue = catalogue

    @staticmethod
    def hides(game: Game, interface: PlayedSet) -> bool:
        """Whether the game, in play, holds information a spectator may not see (a fleet, a
        code, hole cards: decision 23), i.e. its spectators' page differs from the revealed
        one; never an open table."""
        rules = interface.arbitre
        if game.status != "playing" or rules is None or open_table(game):
            return False
        turn = turn_from(game.turn)
        return dict(rules.page(turn, None, asking=False)) != dict(
            rules.page(turn, None, asking=False, reveal=True)
        )

    async def export(self, game_id: str) -> dict[str, Any] | None:
        """Return a game's whole record as a JSON document (the export), or ``None``."""
        found = await self.store.game(game_id)
        if found is None:
            return None
        game, seats = found
        moves = await self.store.moves(game_id)
        exchanges = await self.store.exchanges(game_id)
        interface = await self.catalogue.find(game.set_name)
        rules = interface.arbitre if interface is not None else None
        hidden = interface is not None and self.hides(game, interface)

        def tray(move: Move) -> str:
            if hidden:
                return HIDDEN
            if (game.status == "playing" and not open_table(game)) or rules is None:
                return move.tray
            return str(
                rules.page(turn_from(move.turn), None, asking=False, reveal=True).get("Tray", "")
            )

        def shown(text: str) -> str:
            return HIDDEN if hidden else redact(text, seats)

        return {
            "id": game.id,
            "set": game.set_name,
            "status": game.status,
            "result": game.result,
            "winner": game.winner,
            "reason": game.reason,
            "result_text": result_text(game, seats),
            "options": shown_options(game),
            "start_tray": None if hidden else start_tray(rules, game),
            "created_at": game.created_at.isoformat(),
            "ended_at": game.ended_at.isoformat() if game.ended_at else None,
            "seats": [
                {
                    "index": s.index,
                    "kind": s.kind,
                    "name": s.name,
                    **exported(s),
                    "status": s.final_status,
                    "rank": s.rank,
                    "score": s.score,
                    "error": s.error,
                }
                for s in seats
            ],
            "hidden": hidden,
            "moves": [
                {
                    "number": m.number,
                    "seat": m.seat,
                    "value": HIDDEN if hidden else m.value,
                    "tray": tray(m),
                    "ms": m.ms,
                    "query": shown(m.query),
                    "error": m.error,
                    "at": m.at.isoformat(),
                }
                for m in moves
            ],
            "exchanges": [
                {
                    "seat": e.seat,
                    "kind": e.kind,
                    "move": e.move_id,
                    "detail": shown(e.detail),
                    "at": e.at.isoformat(),
                }
                for e in exchanges
            ],
        }

    async def position(
        self, game_id: str, move: int | None
    ) -> tuple[Game, list[Seat], Turn, int] | None:
        """Return a game, its seats, the Turn after ``move`` (``None``: the current one; 0
        the start) and that move's number; ``None`` for no such game or move."""
        found = await self.store.game(game_id)
        if found is None:
            return None
        game, seats = found
        if move is None or move >= game.moves:
            return game, seats, turn_from(game.turn), game.moves
        move = max(0, move)
        if move == 0:
            return game, seats, turn_from(game.first), 0
        row = await self.store.move(game_id, move)
        if row is None:
            return None
        return game, seats, turn_from(row.turn), move
