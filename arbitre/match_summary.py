"""A match's summary: what ``play`` prints at the end, writes with ``--json``
and what the match's page shows, computed from the records alone, with no I/O.

Games count from the entrants' sides. In a game of two seats a win is 1 point, a draw ½,
a loss 0 (a loss by fault is a loss, and its fault is counted apart by kind:
:data:`~tournoyons_gui.arbitre.answer.FAULTS`); a game that ended with no result (both
seats failed in one round, the Arbitre failed) counts in no column but ``errors``; a game
cut short (``interrupted``: Ctrl-C, or the SPRT's verdict reached while it was played) is
listed and not counted. A game of more seats (Tarot) is a win for the seat ranked first
alone, a draw for seats sharing the first rank, a loss for the others; there each
entrant's total (the sum of its seats' totals) and its rank by that total replace Elo.

**Pairs**: the games of one pair (one opening or one deal, played once per seat with the
seats swapped, or rotated at four seats) are the summary's unit for the pentanomial
counts (:func:`~tournoyons_gui.arbitre.stats.pentanomial`): a pair counts once each of its
games has a result. With two entrants and at least one such pair the Elo difference, its
95% interval and the LOS are the pentanomial model's
(:func:`~tournoyons_gui.arbitre.stats.estimate_pentanomial`: fastchess's), else the
trinomial model's over the games (:func:`~tournoyons_gui.arbitre.stats.estimate_wdl`:
fastchess's and cutechess's); the SPRT's LLR is always the pentanomial one
(:meth:`~tournoyons_gui.arbitre.stats.Sprt.llr`). The LLR's history follows the games in
the order they ended: its value each time a pair was completed.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tournoyons_gui.arbitre.answer import FAULTS
from tournoyons_gui.arbitre.stats import (
    Estimate,
    Sprt,
    estimate_pentanomial,
    estimate_wdl,
    think_times,
)
from tournoyons_gui.arbitre.store import Match, MatchEntry, MatchResult

__all__ = [
    "FAULT_KINDS",
    "Outcome",
    "Tally",
    "elo_line",
    "game_line",
    "nelo_line",
    "outcome_of",
    "result_of",
    "sprt_of",
    "summarize",
]

#: The faults counted apart, in the order they are shown.
FAULT_KINDS = tuple(FAULTS.values())
_WORDS = {1.0: "win", 0.5: "draw", 0.0: "loss"}


@dataclass(frozen=True)
class Outcome:
    """One game of a match from its entrants' sides: its ``number`` (the order it was
    made), ``pair``, the entrant in each seat (``seats``; ``seats[0]`` the first),
    ``status`` (``playing``, ``over``, ``interrupted``), ``points`` per entrant (1 a win,
    ½ a draw, 0 a loss; ``None``: no result), ``ranks`` and ``totals`` per entrant
    (``None`` where the game has none), the ``fault`` that decided it (``""``: none),
    which entrant's it was (``fault_by``) and at which ``ply`` (the move asked: the moves
    recorded + 1), when it ended, its ``reason`` and its moves' count."""

    game_id: str
    number: int
    pair: int
    seats: tuple[int, ...]
    status: str
    points: tuple[float, ...] | None
    ranks: tuple[int | None, ...]
    totals: tuple[int | None, ...]
    fault: str = ""
    fault_by: int | None = None
    ply: int | None = None
    ended_at: dt.datetime | None = None
    reason: str = ""
    moves: int = 0
    seed: int = 0
    line: int | None = None
    tray: str = ""
    faults: tuple[tuple[int, str], ...] = ()

    @property
    def first(self) -> int:
        """Return the entrant in the first seat."""
        return self.seats[0]

    @property
    def counted(self) -> bool:
        """Whether the game was played to an end (a result, or an end in error)."""
        return self.status == "over"


def result_of(entry: MatchEntry) -> MatchResult:
    """Return a match's game as the store lists it whole (:class:`MatchEntry`) reduced to
    what its summary counts (:class:`MatchResult`)."""
    game = entry.game
    return MatchResult(
        entry.place,
        game.id,
        game.status,
        game.result,
        game.ended_at,
        game.reason,
        game.moves,
        tuple((s.entrant, s.rank, s.score, s.fault) for s in entry.seats),
    )


def outcome_of(entry: MatchEntry | MatchResult) -> Outcome:
    """Return the :class:`Outcome` of a match's game as the store lists it (whole, or
    only what the summary counts: :meth:`~tournoyons_gui.arbitre.store.Store.
    match_results`)."""
    found = result_of(entry) if isinstance(entry, MatchEntry) else entry
    place, seats = found.place, found.seats
    size = len(seats)
    by_seat = [e if e is not None else index for index, (e, *_) in enumerate(seats)]
    ranks: list[int | None] = [None] * size
    totals: list[int | None] = [None] * size
    for (_, rank, score, _), entrant in zip(seats, by_seat, strict=True):
        if 0 <= entrant < size:
            ranks[entrant], totals[entrant] = rank, score
    points: tuple[float, ...] | None = None
    if found.status == "over" and all(r is not None for r in ranks) and found.result != "error":
        best = min(r for r in ranks if r is not None)
        firsts = sum(1 for r in ranks if r == best)
        points = tuple((1.0 if firsts == 1 else 0.5) if r == best else 0.0 for r in ranks)
    faulted = [(by_seat[index], fault) for index, (*_, fault) in enumerate(seats) if fault]
    fault, fault_by = (faulted[0][1], faulted[0][0]) if faulted else ("", None)
    return Outcome(
        found.game_id,
        place.number,
        place.pair,
        tuple(by_seat),
        found.status,
        points,
        tuple(ranks),
        tuple(totals),
        fault,
        fault_by,
        found.moves + 1 if faulted else None,
        found.ended_at,
        found.reason,
        found.moves,
        place.seed,
        place.line,
        place.tray,
        tuple(faulted),
    )


@dataclass
class Tally:
    """The running counts of a match of ``entrants`` played in pairs of ``pair_size``
    games: fed each game's :class:`Outcome` as it ends (:meth:`add`), it gives the first
    entrant's pentanomial counts, and with an SPRT its LLR, at any time. ``history``:
    (games counted, LLR) each time a pair was completed."""

    entrants: int
    pair_size: int
    sprt: Sprt | None = None
    games: int = 0
    pairs: dict[int, list[float]] = field(default_factory=dict)
    counts: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])
    wdl: Counter[str] = field(default_factory=Counter)
    history: list[tuple[int, float]] = field(default_factory=list)

    def add(self, outcome: Outcome) -> bool:
        """Count a game that ended; return whether it completed its pair."""
        if not outcome.counted:
            return False
        self.games += 1
        if outcome.points is None:
            self.wdl["error"] += 1
            self.pairs.setdefault(outcome.pair, []).append(math.nan)
            return False
        self.wdl[_WORDS[outcome.points[0]]] += 1
        points = self.pairs.setdefault(outcome.pair, [])
        points.append(outcome.points[0])
        if len(points) != self.pair_size or self.entrants != 2 or self.pair_size != 2:
            return False
        if any(math.isnan(p) for p in points):
            return False
        self.counts[round(sum(points) * 2)] += 1
        self.history.append((self.games, self.llr))
        return True

    @property
    def pentanomial(self) -> tuple[int, int, int, int, int] | None:
        """Return the first entrant's pentanomial counts (``None``: not two entrants)."""
        if self.entrants != 2 or self.pair_size != 2:
            return None
        c = self.counts
        return c[0], c[1], c[2], c[3], c[4]

    @property
    def llr(self) -> float:
        """Return the SPRT's LLR of the pairs counted (0.0 without an SPRT or a pair)."""
        if self.sprt is None or not sum(self.counts):
            return 0.0
        return self.sprt.llr(self.counts)

    @property
    def verdict(self) -> str | None:
        """Return the SPRT's verdict now (``H0``, ``H1``; ``None``: play on, or no SPRT)."""
        if self.sprt is None or not sum(self.counts):
            return None
        return self.sprt.verdict(self.llr)


def sprt_of(data: Mapping[str, Any] | None) -> Sprt | None:
    """Return the SPRT a match stored (``{"elo0", "elo1", "alpha", "beta"}``), or ``None``."""
    if not data:
        return None
    return Sprt(
        float(data["elo0"]),
        float(data["elo1"]),
        float(data.get("alpha", 0.05)),
        float(data.get("beta", 0.05)),
    )


def _finite(value: float) -> float | None:
    """Return ``value`` rounded for the document, ``None`` when not finite (JSON has no
    infinity: a match won or lost whole has no finite Elo)."""
    return round(value, 2) + 0.0 if math.isfinite(value) else None  # + 0.0: no -0.0


def _entrant_lines(
    match: Match, outcomes: Sequence[Outcome], think: Mapping[int, Sequence[int]] | None
) -> list[dict[str, Any]]:
    """Return each entrant's counts: games, wins, draws, losses, errors, faults by kind,
    points, score (points per game decided, 0 to 1), total (its seats' totals summed, in a
    Set that keeps totals), mean rank, rank (by total where there are totals, else by
    points; shared ranks as 1, 1, 3) and its thinking time per move (``think_ms``: p50,
    p95 and max of ``think``'s milliseconds, by entrant; ``None`` without them)."""
    lines: list[dict[str, Any]] = []
    counted = [o for o in outcomes if o.counted]
    for index, entrant in enumerate(match.entrants):
        decided = [o.points[index] for o in counted if o.points is not None]
        totals = [o.totals[index] for o in counted if o.totals[index] is not None]
        ranks = [r for o in counted if (r := o.ranks[index]) is not None]
        faults = Counter(kind for o in counted for who, kind in o.faults if who == index)
        points = sum(decided)
        lines.append(
            {
                "name": entrant.get("name", ""),
                "kind": entrant.get("kind", ""),
                "engine": entrant.get("engine", ""),
                "games": len(counted),
                "wins": decided.count(1.0),
                "draws": decided.count(0.5),
                "losses": decided.count(0.0),
                "errors": len(counted) - len(decided),
                "faults": {kind: faults.get(kind, 0) for kind in FAULT_KINDS},
                "points": points,
                "score": round(points / len(decided), 4) if decided else None,
                "total": sum(t for t in totals if t is not None) if totals else None,
                "mean_rank": round(sum(ranks) / len(ranks), 4) if ranks else None,
                "think_ms": think_times(think.get(index, ())) if think is not None else None,
            }
        )
    keys = [line["total"] if line["total"] is not None else line["points"] for line in lines]
    for line, key in zip(lines, keys, strict=True):
        line["rank"] = 1 + sum(1 for other in keys if other > key)  # shared ranks: 1, 1, 3
    return lines


def _estimate(pairs: Sequence[int] | None, first: Mapping[str, Any]) -> tuple[Estimate, str] | None:
    """Return the first entrant's estimate and its model's name, ``None`` with no game
    decided."""
    if pairs is not None and any(pairs):
        return estimate_pentanomial(pairs), "pentanomial"
    if first["wins"] + first["draws"] + first["losses"]:
        return estimate_wdl(first["wins"], first["draws"], first["losses"]), "trinomial"
    return None


def game_line(outcome: Outcome, moves: Mapping[str, Sequence[str]] | None) -> dict[str, Any]:
    """Return one game of the ``games_list``, from the first entrant's side (its moves
    too when ``moves``, the values played by game id, is given)."""
    entrant = 0
    result = None
    if outcome.points is not None:
        result = _WORDS[outcome.points[entrant]]
    line: dict[str, Any] = {
        "id": outcome.game_id,
        "opening": outcome.tray or None,
        "opening_line": outcome.line,
        "pair": outcome.pair,
        "first": outcome.first,
        "seats": list(outcome.seats),
        "seed": outcome.seed,
        "status": outcome.status,
        "result": result,
        "fault": outcome.fault or None,
        "fault_by": outcome.fault_by,
        "ply": outcome.ply,
        "plies": outcome.moves,
        "ranks": list(outcome.ranks),
        "totals": list(outcome.totals),
        "reason": outcome.reason,
    }
    if moves is not None:
        line["moves"] = list(moves.get(outcome.game_id, ()))
    return line


def _elo(value: float | None, infinite: str) -> str:
    """Return an Elo figure signed to one decimal, ``infinite`` (``+∞`` or ``-∞``) when the
    document has none (a score of 0 or 1: no finite Elo)."""
    return infinite if value is None else f"{value:+.1f}"


def elo_line(document: Mapping[str, Any]) -> str:
    """Return the Elo line of a match of two entrants (cutechess's "Elo difference: 60.7
    +/- 18.5, LOS: 100.0 %"), its 95% interval and its model; ``""`` with no game
    decided."""
    if document["elo_ci95"] is None:
        return ""
    entrants = document["entrants"]
    sign = "+∞" if (document["score"] or 0) >= 0.5 else "-∞"
    low, high = document["elo_ci95"]
    elo = document["elo"]
    said = f"Elo difference ({entrants[0]['name']} - {entrants[1]['name']}): {_elo(elo, sign)}"
    if elo is None:
        said += f" (a score of {document['score'] * 100:g} %: no finite Elo)"
    elif low is not None and high is not None:
        said += f" ± {(high - low) / 2:.1f}"
    if elo is not None:
        said += f" (95 %: {_elo(low, '-∞')} to {_elo(high, '+∞')})"
    return said + f", LOS {document['los'] * 100:.1f} % ({document['elo_model']} model)"


def nelo_line(document: Mapping[str, Any]) -> str:
    """Return the normalized Elo of a match of two entrants with its 95% interval
    (``nElo +41.2 (95 %: +10.3 to +72.1)``); ``""`` where the document has none (no game
    decided, or every outcome the same: no noise to measure it by)."""
    nelo, interval = document.get("nelo"), document.get("nelo_ci95")
    if nelo is None or interval is None or None in interval:
        return ""
    return f"nElo {nelo:+.1f} (95 %: {interval[0]:+.1f} to {interval[1]:+.1f})"


def summarize(
    match: Match,
    outcomes: Sequence[Outcome],
    moves: Mapping[str, Sequence[str]] | None = None,
    *,
    listed: bool = True,
    think: Mapping[int, Sequence[int]] | None = None,
) -> dict[str, Any]:
    """Return the match's summary document (``play --json``; ``docs/reference/
    match-json.md`` gives it field by field) from its games' outcomes in match order,
    from the first entrant's side; each game's moves (values in order, by game id) in
    ``games_list`` when ``moves`` is given; ``games_list`` empty when not ``listed``
    (the match's page and JSON twin list the games a page at a time); each entrant's
    thinking times from ``think`` (milliseconds per move, by entrant:
    :meth:`~tournoyons_gui.arbitre.store.Store.match_think`). The ``options`` are the
    games' as recorded, ``seed`` the run's (each game's own is in ``games_list``)."""
    size = len(match.entrants)
    sprt = sprt_of(match.sprt)
    tally = Tally(size, size, sprt)
    ended = sorted(
        (o for o in outcomes if o.counted),
        key=lambda o: (o.ended_at or dt.datetime.max.replace(tzinfo=dt.UTC), o.number),
    )
    for outcome in ended:
        tally.add(outcome)
    lines = _entrant_lines(match, outcomes, think)
    first = lines[0]
    pairs = tally.pentanomial
    found = _estimate(pairs, first) if size == 2 else None
    estimate, model = found if found is not None else (None, None)
    document: dict[str, Any] = {
        "set": match.set_name,
        "games": first["games"],
        "wins": first["wins"],
        "draws": first["draws"],
        "losses": first["losses"],
        "faults": first["faults"],
        "score": first["score"],
        "pentanomial": list(pairs) if pairs is not None else None,
        "elo": _finite(estimate.elo) if estimate else None,
        "elo_ci95": [_finite(estimate.elo_low), _finite(estimate.elo_high)] if estimate else None,
        "los": round(estimate.los, 4) if estimate else None,
        "sprt": None,
        "games_list": [game_line(o, moves) for o in outcomes] if listed else [],
        # The match's own keys (docs/reference/match-json.md), after the counts above.
        "match": match.id,
        "status": match.status,
        "seed": match.seed,
        "openings": match.openings or None,
        "errors": first["errors"],
        "points": first["points"],
        "elo_model": model,
        "entrants": lines,
        "nelo": _finite(estimate.nelo) if estimate else None,
        "nelo_ci95": [_finite(estimate.nelo_low), _finite(estimate.nelo_high)]
        if estimate
        else None,
        "options": {**match.options, "seed": match.seed},
        "created_at": match.created_at.isoformat(),
        "ended_at": match.ended_at.isoformat() if match.ended_at else None,
    }
    if sprt is not None:
        llr = tally.llr
        document["sprt"] = {
            "elo0": sprt.elo0,
            "elo1": sprt.elo1,
            "alpha": sprt.alpha,
            "beta": sprt.beta,
            "model": sprt.model,
            "llr": round(llr, 4),
            "lower": round(sprt.lower, 4),
            "upper": round(sprt.upper, 4),
            "verdict": match.verdict or None,
            "history": [[games, round(value, 4)] for games, value in tally.history],
        }
    return document
