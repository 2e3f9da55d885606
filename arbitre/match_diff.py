"""Two runs of a match compared game by game (a "version diff"): where two versions
of an engine first play differently.

Two runs of ``play`` with the same Set, ``--seed`` and openings (engine v1 then v2, each
against ``builtin:strong``, say) play the same games in the same order: game ``n`` of
each has the same pair, the same entrant in the first seat, the same opening and the same
deal (:mod:`~tournoyons_gui.arbitre.matches`). A game of one run is matched with the game
of the other by its ``pair`` and the entrant in its first seat (``first``: the game in
the pair), and their openings must be the same. For each matched couple:

- **the same**: the same values played move for move, and the same end (result and
  fault);
- **a difference** at a ply: the first move (from 1) where the two differ, the values
  played there (``None`` where a game had no move there: it had ended, or was lost by a
  fault at that ply), both results;
- **unfinished**: one of them was not played to an end (interrupted by Ctrl-C or the
  SPRT's verdict) and they are the same as far as both went.

Games of one run whose couple the other run did not play (an SPRT stopped sooner) are
counted apart. Runs of other Sets, seeds, openings, rule levels or numbers of seats play
other games: they are refused with the reason (:class:`DiffRefused`).

Pure: documents in (``play --json``'s, ``docs/reference/match-json.md``; or their game
lines as the match pages read them), figures out; :func:`position_before` replays a
game's common moves with the Set's rules to show the position where they part.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tournoyons_gui.interfaces.plugin import (
    ArbitreRules,
    IllegalMove,
    Turn,
    match_deals,
    starts_from_seed,
    starts_from_tray,
)

__all__ = [
    "Comparison",
    "DiffRefused",
    "Difference",
    "check_comparable",
    "compare",
    "compare_documents",
    "diff_link",
    "first_difference",
    "position_before",
]

#: What a document must hold to be compared.
_NEEDED = ("set", "seed", "games_list", "entrants")


class DiffRefused(ValueError):
    """Two runs that did not play the same games; the message says why, in one sentence
    (``"the runs have other seeds: 1 and 2 (their openings' order and deals differ)"``)."""


@dataclass(frozen=True)
class Difference:
    """A couple of games that part at ``ply`` (the move from 1 where they first differ):
    the pair, the entrant in the first seat (``first``), the opening (its Tray and line;
    ``None``: the Set's start), the value each game played there (``a``, ``b``; ``None``:
    no move there) and how each ended there when it had no move (``end_a``, ``end_b``:
    the fault's kind, else the game's reason), both results from the first entrant's side
    (``win``, ``draw``, ``loss``; ``None``: none), both games' ids and the moves the two
    share before the ply (``moves``)."""

    opening: str | None
    opening_line: int | None
    pair: int
    first: int
    ply: int
    a: str | None
    b: str | None
    result_a: str | None
    result_b: str | None
    game_a: str
    game_b: str
    end_a: str = ""
    end_b: str = ""
    moves: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return the difference as ``diff --json`` lists it (``moves`` as a list)."""
        found = asdict(self)
        found["moves"] = list(self.moves)
        return found


@dataclass
class Comparison:
    """Two runs compared: ``same`` (couples the same move for move, with the same end),
    the ``differ`` list in the order of the first run's games, ``unfinished`` couples (one
    not played to an end, the same as far as both went), and the games of one run whose
    couple the other did not play (``only_a``, ``only_b``)."""

    same: int = 0
    differ: list[Difference] = field(default_factory=list)
    unfinished: int = 0
    only_a: int = 0
    only_b: int = 0

    @property
    def compared(self) -> int:
        """Return the couples compared: the same, different or unfinished."""
        return self.same + len(self.differ) + self.unfinished


def diff_link(game_a: str, game_b: str, ply: int) -> str:
    """Return the address of two games side by side at ``ply``, a path of the server that
    recorded them (``/matches/diff?a=...&b=...&ply=N``)."""
    return "/matches/diff?" + urllib.parse.urlencode({"a": game_a, "b": game_b, "ply": ply})


def _level(document: Mapping[str, Any]) -> Any:
    options = document.get("options")
    return options.get("level", 1) if isinstance(options, Mapping) else None


def check_comparable(a: Mapping[str, Any], b: Mapping[str, Any]) -> None:
    """Raise :class:`DiffRefused` unless the documents ``a`` and ``b`` are two runs of one
    Set, one seed, one rule level and as many seats, whose games list their moves."""
    for name, document in (("A", a), ("B", b)):
        missing = [key for key in _NEEDED if key not in document]
        if missing:
            raise DiffRefused(
                f"{name} is not a match document of play --json (no {', '.join(missing)})"
            )
        listed = document["games_list"]
        if not isinstance(listed, list) or any(
            not isinstance(g, Mapping) or not isinstance(g.get("moves"), list) for g in listed
        ):
            raise DiffRefused(f"{name}'s games do not list their moves (written by play --json)")
    if a["set"] != b["set"]:
        raise DiffRefused(f"the runs are of other Sets: {a['set']} and {b['set']}")
    if len(a["entrants"]) != len(b["entrants"]):
        raise DiffRefused(
            f"the runs have other numbers of seats: {len(a['entrants'])} and {len(b['entrants'])}"
        )
    if a["seed"] != b["seed"]:
        raise DiffRefused(
            f"the runs have other seeds: {a['seed']} and {b['seed']} (their openings' order, "
            "deals and built-in engines' choices differ): play both with the same --seed"
        )
    level_a, level_b = _level(a), _level(b)
    if level_a is not None and level_b is not None and level_a != level_b:
        raise DiffRefused(f"the runs are played at other rule levels: {level_a} and {level_b}")


def first_difference(moves_a: Sequence[str], moves_b: Sequence[str]) -> int | None:
    """Return the first ply (from 1) where the values played differ, one game having a
    move where the other has none counting as a difference; ``None`` when they are the
    same move for move."""
    for ply, (one, other) in enumerate(zip(moves_a, moves_b, strict=False), 1):
        if one != other:
            return ply
    if len(moves_a) != len(moves_b):
        return min(len(moves_a), len(moves_b)) + 1
    return None


def _end(game: Mapping[str, Any]) -> str:
    """Return how a game with no move at some ply ended there: its fault's kind, else its
    reason, else its status."""
    fault = game.get("fault")
    if fault:
        return f"lost by fault ({fault})"
    return str(game.get("reason") or game.get("status") or "")


def _key(game: Mapping[str, Any]) -> tuple[int, int]:
    return int(game["pair"]), int(game["first"])


def compare(
    games_a: Iterable[Mapping[str, Any]], games_b: Iterable[Mapping[str, Any]]
) -> Comparison:
    """Return the comparison of two runs' game lines (``games_list`` entries with their
    ``moves``), matched by pair and first seat; raise :class:`DiffRefused` when a couple
    starts from other openings (the runs were given other openings)."""
    others = {_key(game): game for game in games_b}
    found = Comparison()
    matched: set[tuple[int, int]] = set()
    for game in games_a:
        key = _key(game)
        other = others.get(key)
        if other is None:
            found.only_a += 1
            continue
        matched.add(key)
        if (game.get("opening") or None) != (other.get("opening") or None):
            raise DiffRefused(
                f"the runs have other openings: pair {key[0]} starts from "
                f"{game.get('opening') or 'the start'} in A and "
                f"{other.get('opening') or 'the start'} in B (give both the same --openings)"
            )
        moves_a, moves_b = list(game["moves"]), list(other["moves"])
        ply = first_difference(moves_a, moves_b)
        over_a, over_b = game.get("status") == "over", other.get("status") == "over"
        if ply is None and over_a and over_b and _outcome(game) != _outcome(other):
            ply = len(moves_a) + 1
        # A game with no move at the ply because it was cut short tells nothing there.
        cut = ply is not None and (
            (ply > len(moves_a) and not over_a) or (ply > len(moves_b) and not over_b)
        )
        if ply is None or cut:
            if over_a and over_b:
                found.same += 1
            else:
                found.unfinished += 1
            continue
        a = moves_a[ply - 1] if ply <= len(moves_a) else None
        b = moves_b[ply - 1] if ply <= len(moves_b) else None
        found.differ.append(
            Difference(
                game.get("opening") or None,
                game.get("opening_line"),
                key[0],
                key[1],
                ply,
                a,
                b,
                game.get("result"),
                other.get("result"),
                str(game["id"]),
                str(other["id"]),
                "" if a is not None else _end(game),
                "" if b is not None else _end(other),
                tuple(moves_a[: ply - 1]),
            )
        )
    found.only_b = sum(1 for key in others if key not in matched)
    return found


def _outcome(game: Mapping[str, Any]) -> tuple[Any, Any]:
    return game.get("result"), game.get("fault")


def compare_documents(a: Mapping[str, Any], b: Mapping[str, Any]) -> Comparison:
    """Return the comparison of two ``play --json`` documents (:func:`check_comparable`,
    then :func:`compare`); raise :class:`DiffRefused` with the reason."""
    check_comparable(a, b)
    return compare(a["games_list"], b["games_list"])


def position_before(
    rules: ArbitreRules,
    moves: Sequence[str],
    *,
    opening: str | None = None,
    seed: int | None = None,
    level: int = 1,
    deals: int | None = None,
) -> Turn | None:
    """Return the Turn after ``moves`` (the values played, in order) from the game's
    start: the ``opening`` Tray (decision 15), else the Set's start, dealt from ``seed``
    where the Set deals from one, of ``deals`` deals where it is played in deals; each
    value applied by the rules as the game master applied it. ``None`` when the rules
    refuse the start or a value (the records are of other rules, or corrupt)."""
    start: Any = rules.start
    chance: dict[str, Any] = {}
    if seed is not None and starts_from_seed(rules):
        chance["seed"] = seed
    try:
        if opening:
            if not starts_from_tray(rules):
                return None
            turn: Turn = start(level, opening, **chance)
        elif deals is not None and match_deals(rules) is not None:
            turn = start(level, deals=deals, **chance)
        else:
            turn = start(level, **chance)
        for value in moves:
            turn = rules.play(turn.state, value)
    except (IllegalMove, ValueError, KeyError, TypeError):
        return None
    return turn
