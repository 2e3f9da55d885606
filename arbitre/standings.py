"""Standings, tie-breaks, ratings and cross tables of a tournament: pure, game-agnostic logic.

Entrants are numbered ``0 .. count - 1``; a tournament's record is a sequence of
:class:`GameResult` in the order the games were played. Nothing here touches a database or
the network: the tournament runner and its pages feed results in and show what comes out.

Scoring: a win is 1 point, a draw 0.5, a loss or an errored game (no result) 0. A bye is
given as ``GameResult(first=p, second=BYE, winner=p)`` and scores as a win.

Tie-break order (a promise to users; :func:`standings` sorts by it, best first):

1. points;
2. Sonneborn-Berger (the sum of the points of the opponents one beat, plus half the points
   of the opponents one drew with);
3. Buchholz (the sum of the points of every opponent one met, once per game);
4. wins (a bye included);
5. head-to-head points in the games played among the entrants still tied after 1-4;
6. rating ordinal (openskill's ``mu - 3 * sigma``, see :func:`ratings`).

Entrants equal on all six share a rank ("1, 2, 2, 4"); they are listed by entrant index.
Ratings follow Weng and Lin, "A Bayesian Approximation Method for Online Ranking" (JMLR
12, 2011), through the ``openskill`` library's Plackett-Luce model with its defaults
(``mu`` 25, ``sigma`` 25/3).
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from openskill.models import PlackettLuce

__all__ = [
    "BYE",
    "CSV_HEADER",
    "GameResult",
    "Standing",
    "check_results",
    "cross_table",
    "csv_cell",
    "kept_cross_table",
    "kept_standings",
    "ranked",
    "rating_history",
    "ratings",
    "safe_cell",
    "standings",
    "standings_csv",
    "standings_json",
]

BYE = -1
"""The opponent of an entrant who sits a round out (``GameResult.second``, ``Pairing.second``)."""

CSV_HEADER = (
    "rank",
    "name",
    "played",
    "wins",
    "draws",
    "losses",
    "errors",
    "points",
    "buchholz",
    "sonneborn_berger",
    "mu",
    "sigma",
    "ordinal",
)
"""The columns of :func:`standings_csv`, in order."""

# Ordinals are floats computed along different paths; entrants whose ordinals agree to this
# many decimals are tied on the last criterion.
_ORDINAL_DECIMALS = 9
# Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection").
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class GameResult:
    """One game of a tournament, or a bye.

    ``first`` and ``second`` are entrant indexes (``first`` moved first); ``winner`` is
    ``first``, ``second``, or ``None`` for a draw. ``error`` marks a game without a result
    (interrupted, the referee failed): it counts as played, scores no points for either side
    and leaves ratings unchanged (``winner`` is then ignored). ``round`` is informative
    (1-based; 0 when unknown). A bye is ``GameResult(first=p, second=BYE, winner=p)``.
    """

    first: int
    second: int
    winner: int | None
    error: bool = False
    round: int = 0

    @property
    def is_bye(self) -> bool:
        """Whether this is a bye rather than a game."""
        return self.second == BYE


@dataclass(frozen=True)
class Standing:
    """One entrant's line in the standings.

    Counts are games (a bye counts as played and won; an errored game as played and in
    ``errors`` only, so ``played == wins + draws + losses + errors``). ``points``: win 1,
    draw 0.5. ``buchholz`` and ``sonneborn_berger`` are in points (see the module's
    docstring). ``mu``, ``sigma`` and ``ordinal`` (``mu - 3 * sigma``) are openskill
    Plackett-Luce skill units (a new entrant: 25, 8.333, 0). ``rank`` is 1-based, equal
    for entrants tied on every criterion.
    """

    entrant: int
    name: str
    played: int
    wins: int
    draws: int
    losses: int
    errors: int
    points: float
    buchholz: float
    sonneborn_berger: float
    mu: float
    sigma: float
    ordinal: float
    rank: int


def check_results(count: int, results: Sequence[GameResult]) -> None:
    """Raise ValueError unless every result is well formed for ``count`` entrants.

    A game's ``first`` and ``second`` are distinct indexes in ``0 .. count - 1`` and its
    ``winner`` one of them or ``None``; a bye has ``second == BYE`` and ``winner == first``
    and is not an error.
    """
    if count < 0:
        raise ValueError(f"count must not be negative, not {count}")
    for index, result in enumerate(results):
        if not 0 <= result.first < count:
            raise ValueError(f"result {index}: first {result.first} is not an entrant")
        if result.is_bye:
            if result.winner != result.first or result.error:
                raise ValueError(f"result {index}: a bye is won by its player, without error")
            continue
        if not 0 <= result.second < count:
            raise ValueError(f"result {index}: second {result.second} is not an entrant")
        if result.first == result.second:
            raise ValueError(f"result {index}: entrant {result.first} plays itself")
        if result.winner not in (None, result.first, result.second):
            raise ValueError(f"result {index}: winner {result.winner} did not play")


def _score(result: GameResult, player: int) -> float:
    """The points ``player`` scored in ``result`` (which ``player`` took part in)."""
    if result.error:
        return 0.0
    if result.winner is None:
        return 0.5
    return 1.0 if result.winner == player else 0.0


def _rate(
    count: int, results: Sequence[GameResult]
) -> tuple[list[tuple[float, float]], list[list[tuple[int, float, float]]]]:
    """Ratings after all games, and each entrant's history; see :func:`ratings`."""
    check_results(count, results)
    model = PlackettLuce()
    current = [model.rating() for _ in range(count)]
    history: list[list[tuple[int, float, float]]] = [[] for _ in range(count)]
    for index, result in enumerate(results):
        if result.error or result.is_bye:
            continue
        first, second = result.first, result.second
        if result.winner is None:
            ranks = [1.0, 1.0]
        elif result.winner == first:
            ranks = [1.0, 2.0]
        else:
            ranks = [2.0, 1.0]
        [[current[first]], [current[second]]] = model.rate(
            [[current[first]], [current[second]]], ranks=ranks
        )
        for player in (first, second):
            history[player].append((index, current[player].mu, current[player].sigma))
    return [(rating.mu, rating.sigma) for rating in current], history


def ratings(count: int, results: Sequence[GameResult]) -> list[tuple[float, float]]:
    """Each entrant's rating ``(mu, sigma)`` after ``results``, in entrant order.

    Weng-Lin Bayesian rating (openskill's Plackett-Luce model, default parameters: a new
    entrant is ``(25, 25/3)``), updated game by game in the order given; a draw is a tie.
    Byes and errored games are skipped. ``ordinal = mu - 3 * sigma`` is a conservative
    estimate of skill. Raises ValueError for a malformed result (see :func:`check_results`).
    """
    return _rate(count, results)[0]


def rating_history(
    count: int, results: Sequence[GameResult]
) -> list[list[tuple[int, float, float]]]:
    """Each entrant's rating after each of its rated games: ``(game index, mu, sigma)``.

    The game index is the position in ``results``; byes and errored games are not rated and
    do not appear. Same model and errors as :func:`ratings`.
    """
    return _rate(count, results)[1]


def standings(names: Sequence[str], results: Sequence[GameResult]) -> list[Standing]:
    """The standings, best first, of entrants ``names`` (index ``i`` is ``names[i]``).

    Sorted by points, Sonneborn-Berger, Buchholz, wins, head-to-head points among the
    entrants tied on those four, then rating ordinal; entrants equal on all six share a
    rank and are listed by index. Buchholz counts an opponent once per game met (errored
    games included); a bye adds nothing to either tie-break. Raises ValueError for a
    malformed result (see :func:`check_results`).
    """
    count = len(names)
    rates = ratings(count, results)
    played = [0] * count
    wins = [0] * count
    draws = [0] * count
    losses = [0] * count
    errors = [0] * count
    points = [0.0] * count
    for result in results:
        players = (result.first,) if result.is_bye else (result.first, result.second)
        for player in players:
            played[player] += 1
            if result.error:
                errors[player] += 1
            elif result.winner is None:
                draws[player] += 1
            elif result.winner == player:
                wins[player] += 1
            else:
                losses[player] += 1
            points[player] += _score(result, player)
    buchholz = [0.0] * count
    sonneborn_berger = [0.0] * count
    for result in results:
        if result.is_bye:
            continue
        for player, opponent in ((result.first, result.second), (result.second, result.first)):
            buchholz[player] += points[opponent]
            sonneborn_berger[player] += _score(result, player) * points[opponent]
    ordinals = [mu - 3 * sigma for mu, sigma in rates]

    def primary(player: int) -> tuple[float, float, float, int]:
        return (points[player], sonneborn_berger[player], buchholz[player], wins[player])

    groups: dict[tuple[float, float, float, int], set[int]] = {}
    for player in range(count):
        groups.setdefault(primary(player), set()).add(player)
    head_to_head = [0.0] * count
    for result in results:
        if result.is_bye:
            continue
        if result.second in groups[primary(result.first)]:
            head_to_head[result.first] += _score(result, result.first)
            head_to_head[result.second] += _score(result, result.second)

    def key(player: int) -> tuple[float, float, float, int, float, float]:
        return (*primary(player), head_to_head[player], round(ordinals[player], _ORDINAL_DECIMALS))

    table: list[Standing] = []
    for rank, player in ranked(count, key):
        mu, sigma = rates[player]
        table.append(
            Standing(
                entrant=player,
                name=names[player],
                played=played[player],
                wins=wins[player],
                draws=draws[player],
                losses=losses[player],
                errors=errors[player],
                points=points[player],
                buchholz=buchholz[player],
                sonneborn_berger=sonneborn_berger[player],
                mu=mu,
                sigma=sigma,
                ordinal=ordinals[player],
                rank=rank,
            )
        )
    return table


def ranked(count: int, key: Callable[[int], tuple[float, ...]]) -> list[tuple[int, int]]:
    """Order entrants ``0..count-1`` best first by ``key`` (greater is better, compared
    in order); return ``(rank, entrant)`` pairs, where entrants level on every key share
    the rank of the first of them (standard competition ranking: 1, 2, 2, 4)."""
    order = sorted(range(count), key=lambda entrant: tuple(-value for value in key(entrant)))
    pairs: list[tuple[int, int]] = []
    rank = 0
    for position, entrant in enumerate(order):
        if position == 0 or key(entrant) != key(order[position - 1]):
            rank = position + 1
        pairs.append((rank, entrant))
    return pairs


def cross_table(count: int, results: Sequence[GameResult]) -> list[list[str]]:
    """The cross table: ``table[i][j]`` is ``"W-D-L"``, i's wins, draws and losses against j.

    ``count`` rows of ``count`` cells; the diagonal and pairs that never met are ``""``.
    Errored games are not counted, but make a pair "met" (``"0-0-0"`` if that is all they
    played). Byes are ignored. Raises ValueError for a malformed result.
    """
    check_results(count, results)
    tallies: dict[tuple[int, int], list[int]] = {}
    for result in results:
        if result.is_bye:
            continue
        for player, opponent in ((result.first, result.second), (result.second, result.first)):
            tally = tallies.setdefault((player, opponent), [0, 0, 0])
            if result.error:
                continue
            if result.winner is None:
                tally[1] += 1
            elif result.winner == player:
                tally[0] += 1
            else:
                tally[2] += 1
    return [
        [
            "-".join(str(n) for n in tallies[(i, j)]) if (i, j) in tallies else ""
            for j in range(count)
        ]
        for i in range(count)
    ]


def _points_text(value: float) -> str:
    """Points (multiples of a half) without a needless ``.0``."""
    return f"{value:g}"


def _rating_text(value: float) -> str:
    """A rating figure to six decimals (never ``-0.000000``)."""
    return f"{round(value, 6) + 0.0:.6f}"


def csv_cell(name: str) -> str:
    """Return ``name`` made safe for a spreadsheet (OWASP "CSV injection"): quoted with
    ``'`` when it starts with a formula character, read after what a spreadsheet skips or
    folds: invisible format characters (zero-width space, joiners, BOM ...), spaces, and
    compatibility forms (the full-width ``＝``, ``＋``, ``－``, ``＠`` are ``=`` ``+`` ``-``
    ``@`` once folded, NFKC)."""
    start = unicodedata.normalize("NFKC", name[:40])
    start = "".join(c for c in start if unicodedata.category(c) != "Cf").lstrip(" \u00a0")
    dangerous = start.startswith(_FORMULA_STARTS) or name.startswith(_FORMULA_STARTS)
    return "'" + name if dangerous else name


def safe_cell(name: str) -> str:
    """Return ``name`` made safe for a spreadsheet (:func:`csv_cell`)."""
    return csv_cell(name)


def standings_csv(table: Sequence[Standing]) -> str:
    """The standings as CSV text (RFC 4180 through the ``csv`` module, CRLF line ends).

    Columns: :data:`CSV_HEADER`. Points and tie-breaks as written (``"1.5"``), ratings to
    six decimals. A name starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
    return is prefixed with ``'`` so that spreadsheets show it instead of running it.
    """
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for line in table:
        writer.writerow(
            [
                line.rank,
                csv_cell(line.name),
                line.played,
                line.wins,
                line.draws,
                line.losses,
                line.errors,
                _points_text(line.points),
                _points_text(line.buchholz),
                _points_text(line.sonneborn_berger),
                _rating_text(line.mu),
                _rating_text(line.sigma),
                _rating_text(line.ordinal),
            ]
        )
    return out.getvalue()


def standings_json(table: Sequence[Standing]) -> list[dict[str, Any]]:
    """The standings as JSON-ready dicts, one per line, keyed by :class:`Standing`'s fields.

    Numbers are left unrounded and names unescaped (JSON is not run by spreadsheets).
    """
    return [asdict(line) for line in table]


#: A new entrant's rating (openskill's defaults), for an entrant the kept lines lack.
_NEW = PlackettLuce().rating()


def kept_standings(
    names: Sequence[str],
    lines: Mapping[int, Mapping[str, Any]],
    pairs: Mapping[tuple[int, int], Mapping[str, Any]],
    byes: Sequence[Sequence[int]] = (),
) -> list[Standing]:
    """The standings of :func:`standings`, from a tournament's kept counts rather than its
    games: ``lines`` each entrant's ``played``, ``wins``, ``draws``, ``losses``,
    ``errors``, ``points``, ``mu`` and ``sigma`` (after its rated games, in the order they
    ended), ``pairs`` each ordered pair's ``games`` and the first's ``won``, ``drawn`` and
    ``lost``, and the ``byes`` (``[round, entrant]``). The same lines, in a number of steps
    bounded by the entrants: Buchholz sums over the pairs the opponent's points once per
    game met, Sonneborn-Berger the points of those beaten and half those drawn with, the
    head-to-head the pairs among entrants tied on the first four criteria (every sum of
    halves is exact in floating point)."""
    count = len(names)
    empty: Mapping[str, Any] = {}
    played = [int(lines.get(p, empty).get("played", 0)) for p in range(count)]
    wins = [int(lines.get(p, empty).get("wins", 0)) for p in range(count)]
    points = [float(lines.get(p, empty).get("points", 0.0)) for p in range(count)]
    for _, entrant in byes:
        played[entrant] += 1
        wins[entrant] += 1
        points[entrant] += 1.0
    buchholz = [0.0] * count
    sonneborn_berger = [0.0] * count
    for (player, opponent), pair in pairs.items():
        if not (0 <= player < count and 0 <= opponent < count):
            continue
        buchholz[player] += pair["games"] * points[opponent]
        sonneborn_berger[player] += (pair["won"] + 0.5 * pair["drawn"]) * points[opponent]
    rates = [
        (
            float(lines.get(p, empty).get("mu", _NEW.mu)),
            float(lines.get(p, empty).get("sigma", _NEW.sigma)),
        )
        for p in range(count)
    ]
    ordinals = [mu - 3 * sigma for mu, sigma in rates]

    def primary(player: int) -> tuple[float, float, float, int]:
        return (points[player], sonneborn_berger[player], buchholz[player], wins[player])

    head_to_head = [0.0] * count
    for (player, opponent), pair in pairs.items():
        if 0 <= player < count and 0 <= opponent < count and primary(player) == primary(opponent):
            head_to_head[player] += pair["won"] + 0.5 * pair["drawn"]

    def key(player: int) -> tuple[float, float, float, int, float, float]:
        return (*primary(player), head_to_head[player], round(ordinals[player], _ORDINAL_DECIMALS))

    table: list[Standing] = []
    for rank, player in ranked(count, key):
        line = lines.get(player, empty)
        table.append(
            Standing(
                entrant=player,
                name=names[player],
                played=played[player],
                wins=wins[player],
                draws=int(line.get("draws", 0)),
                losses=int(line.get("losses", 0)),
                errors=int(line.get("errors", 0)),
                points=points[player],
                buchholz=buchholz[player],
                sonneborn_berger=sonneborn_berger[player],
                mu=rates[player][0],
                sigma=rates[player][1],
                ordinal=ordinals[player],
                rank=rank,
            )
        )
    return table


def kept_cross_table(
    count: int, pairs: Mapping[tuple[int, int], Mapping[str, Any]]
) -> list[list[str]]:
    """The cross table of :func:`cross_table` from a tournament's kept pairs (see
    :func:`kept_standings`): ``"W-D-L"`` for each pair that met (its errored games make
    it met and count nothing)."""
    return [
        [
            f"{pairs[(i, j)]['won']}-{pairs[(i, j)]['drawn']}-{pairs[(i, j)]['lost']}"
            if (i, j) in pairs and pairs[(i, j)]["games"] > 0
            else ""
            for j in range(count)
        ]
        for i in range(count)
    ]
