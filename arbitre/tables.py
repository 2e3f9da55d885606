"""Tournaments at tables of four (format ``tables``, made for Tarot): who sits at which table in
each round, and the standings by match points. Pure and game-agnostic.

Entrants are numbered ``0 .. n - 1`` (n >= 4). Each round deals them to ``ceil(n / 4)``
tables of four; when ``n`` is not a multiple of 4, :data:`FILLER` seats (built-in engines
named as such, whose results do not count) fill the tables, at most one per table.

- **Who meets whom**: round by round, the tables minimise the meetings already had by the
  pairs they seat together (each pair met ``c`` times before adds ``c``), so every pair
  sits together as evenly as possible; then the short tables go to those who sat at one
  least. A local search of swaps from a rotating start, deterministic.
- **Seats rotate**: at each table, the seating that gives each entrant the seat it has
  had least (seat 1 leads the first deal of Tarot, so seats are not equal).
- **Standings**: match points by rank at the table (:data:`RANK_POINTS`: 3, 2, 1, 0;
  seats sharing a rank share those ranks' points: two first share ``(3 + 2) / 2``), a
  seat that failed (Status 9) ranked last with 0; then the total score (the Set's
  totals, Tarot's match totals), then the tie-breaks that make sense at four: the match
  points of the table-mates one met (a Buchholz), first places, the rating ordinal
  (openskill's Plackett-Luce over the four seats' ranks, fillers rated as newcomers).
- **The table of meetings** replaces the cross table: how often each pair met, and who
  finished ahead.
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from openskill.models import PlackettLuce

from tournoyons_gui.arbitre.standings import ranked, safe_cell

__all__ = [
    "FILLER",
    "RANK_POINTS",
    "TABLE_CSV_HEADER",
    "TABLE_SEATS",
    "Table",
    "TableResult",
    "TableStanding",
    "kept_meetings",
    "kept_table_standings",
    "meetings",
    "rank_points",
    "table_standings",
    "table_standings_csv",
    "tables_schedule",
]

#: Seats at a table.
TABLE_SEATS = 4
#: A seat filled by a built-in engine that is no entrant (its results do not count).
FILLER = -1
#: Match points by rank at a table of four: rank 1 3, 2 2, 3 1, 4 0.
RANK_POINTS = (3.0, 2.0, 1.0, 0.0)
#: The columns of :func:`table_standings_csv`, in order.
TABLE_CSV_HEADER = (
    "rank",
    "name",
    "played",
    "firsts",
    "errors",
    "points",
    "score",
    "buchholz",
    "mu",
    "sigma",
    "ordinal",
)
#: Starting groupings the local search tries per round at most (the best kept), and the
#: work allowed: ``WORK // entrants`` starts, so that 64 entrants get one.
MAX_STARTS, WORK = 12, 96
#: Swap passes of the local search at most in one round (each pass tries every swap; a
#: pass that improves nothing ends it sooner). A bound on the work, never met with 64.
MAX_PASSES = 50


@dataclass(frozen=True)
class Table:
    """One table of a round: ``seats`` the entrants in seat order (:data:`FILLER` for a
    filler), ``round`` 1-based, ``number`` 0-based within the round."""

    round: int
    number: int
    seats: tuple[int, ...]


@dataclass(frozen=True)
class TableResult:
    """One finished game at a table: ``seats`` the entrants in seat order
    (:data:`FILLER` a filler), ``ranks`` each seat's rank (``None``: no result, an errored
    game), ``scores`` each seat's total (``None``: the Set keeps none), ``failed`` each
    seat's failure (Status 9)."""

    seats: tuple[int, ...]
    ranks: tuple[int | None, ...]
    scores: tuple[int | None, ...] = ()
    failed: tuple[bool, ...] = ()
    round: int = 0

    @property
    def error(self) -> bool:
        """Whether the game ended without a result (it scores nothing)."""
        return any(rank is None for rank in self.ranks)


@dataclass(frozen=True)
class TableStanding:
    """One entrant's line: games ``played``, ``firsts`` (first places, shared ones
    included), ``errors`` (games it failed or without a result), match ``points``, total
    ``score``, ``buchholz`` (the match points of every table-mate entrant, once per game
    met), the rating (``mu``, ``sigma``, ``ordinal``) and ``rank`` (shared when equal on
    all)."""

    entrant: int
    name: str
    played: int
    firsts: int
    errors: int
    points: float
    score: int
    buchholz: float
    mu: float
    sigma: float
    ordinal: float
    rank: int


def _met(entrants: int, tables: Sequence[Table]) -> list[list[int]]:
    met = [[0] * entrants for _ in range(entrants)]
    for table in tables:
        seated = [e for e in table.seats if e != FILLER]
        for a in seated:
            for b in seated:
                if a != b:
                    met[a][b] += 1
    return met


def _cost(group: Sequence[int], met: Sequence[Sequence[int]], short: Sequence[int]) -> int:
    """A group's cost: the meetings it repeats, a pair met ``c`` times costing ``8**c - 1``
    (one pair meeting a third time costs more than several a second time), weighted
    first; then, for a short table, how often its entrants sat at one."""
    total = 1000 * sum(
        (1 << 3 * met[a][b]) - 1 for i, a in enumerate(group) for b in group[i + 1 :]
    )
    if len(group) < TABLE_SEATS:
        total += sum(short[a] for a in group)
    return total


def _groups(round_: int, entrants: int, past: Sequence[Table]) -> list[list[int]]:
    """The round's groups of entrants, fewest repeated meetings first."""
    count = -(-entrants // TABLE_SEATS)
    sizes = [TABLE_SEATS] * count
    for index in range(count * TABLE_SEATS - entrants):
        sizes[count - 1 - index] -= 1
    met = _met(entrants, past)
    short = [0] * entrants
    for table in past:
        if FILLER in table.seats:
            for entrant in table.seats:
                if entrant != FILLER:
                    short[entrant] += 1
    best: tuple[int, list[list[int]]] | None = None
    for start in range(max(1, min(MAX_STARTS, WORK // entrants))):
        groups = _search(_start(round_ * MAX_STARTS + start, entrants, sizes), met, short)
        cost = sum(_cost(group, met, short) for group in groups)
        if best is None or cost < best[0]:
            best = (cost, groups)
    assert best is not None
    return best[1]


def _start(seed: int, entrants: int, sizes: Sequence[int]) -> list[list[int]]:
    """A first grouping: the entrants shuffled by a generator seeded with ``seed`` (the
    same schedule on every worker and every restart)."""
    order = list(range(entrants))
    random.Random(seed).shuffle(order)
    groups: list[list[int]] = []
    for size in sizes:
        groups.append(order[:size])
        order = order[size:]
    return groups


def _search(
    groups: list[list[int]], met: Sequence[Sequence[int]], short: Sequence[int]
) -> list[list[int]]:
    """The groups improved by swaps of two entrants while one lowers the cost."""
    for _ in range(MAX_PASSES):
        improved = False
        for g in range(len(groups)):
            for h in range(g + 1, len(groups)):
                for i in range(len(groups[g])):
                    for j in range(len(groups[h])):
                        before = _cost(groups[g], met, short) + _cost(groups[h], met, short)
                        groups[g][i], groups[h][j] = groups[h][j], groups[g][i]
                        if _cost(groups[g], met, short) + _cost(groups[h], met, short) < before:
                            improved = True
                        else:
                            groups[g][i], groups[h][j] = groups[h][j], groups[g][i]
        if not improved:
            break
    return groups


def _seating(group: Sequence[int], seat_counts: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The group (a filler added when short) in the seat order that gives each entrant the
    seat it has had least; on a tie the first such order in entrant order."""
    players = sorted(group) + [FILLER] * (TABLE_SEATS - len(group))
    best: tuple[int, tuple[int, ...]] | None = None
    for order in permutations(players):
        cost = sum(seat_counts[e][s] for s, e in enumerate(order) if e != FILLER)
        if best is None or cost < best[0]:
            best = (cost, order)
    assert best is not None
    return best[1]


def tables_schedule(entrants: int, rounds: int) -> list[Table]:
    """Return every table of ``rounds`` rounds for ``entrants`` entrants, by round (see
    the module: fewest repeated meetings, short tables and seats rotating). Deterministic.
    Raises ValueError for fewer than 4 entrants or no round."""
    if entrants < TABLE_SEATS:
        raise ValueError(f"tables of four need at least 4 entrants, not {entrants}")
    if rounds < 1:
        raise ValueError(f"a tournament at tables plays at least 1 round, not {rounds}")
    tables: list[Table] = []
    seat_counts = [[0] * TABLE_SEATS for _ in range(entrants)]
    for round_ in range(1, rounds + 1):
        for number, group in enumerate(_groups(round_, entrants, tables)):
            seats = _seating(group, seat_counts)
            for seat, entrant in enumerate(seats):
                if entrant != FILLER:
                    seat_counts[entrant][seat] += 1
            tables.append(Table(round_, number, seats))
    return tables


def rank_points(ranks: Sequence[int]) -> list[float]:
    """Return each seat's match points for ``ranks`` (1 the best; equal ranks share the
    points of the places they take: ``(1, 1, 3, 4)`` gives ``2.5, 2.5, 1, 0``)."""
    points = []
    for rank in ranks:
        shared = sum(1 for other in ranks if other == rank)
        places = RANK_POINTS[rank - 1 : rank - 1 + shared]
        points.append(sum(places) / shared if places else 0.0)
    return points


def table_standings(names: Sequence[str], results: Sequence[TableResult]) -> list[TableStanding]:
    """Return the standings of entrants ``names`` from ``results`` in the order played,
    best first: match points, total score, Buchholz, first places, rating ordinal; equal
    on all five share a rank, listed by index. Fillers' lines are not kept."""
    count = len(names)
    played, firsts, errors = [0] * count, [0] * count, [0] * count
    points, score = [0.0] * count, [0] * count
    model = PlackettLuce()
    rating = [model.rating() for _ in range(count)]
    for result in results:
        seated = [(s, e) for s, e in enumerate(result.seats) if e != FILLER]
        for seat, entrant in seated:
            played[entrant] += 1
            if result.error or (result.failed and result.failed[seat]):
                errors[entrant] += 1
        if result.error:
            continue
        ranks = [int(rank or 0) for rank in result.ranks]
        earned = rank_points(ranks)
        for seat, entrant in seated:
            points[entrant] += earned[seat]
            firsts[entrant] += ranks[seat] == 1
            own = result.scores[seat] if seat < len(result.scores) else None
            score[entrant] += own or 0
        teams = [[rating[e] if e != FILLER else model.rating()] for e in result.seats]
        rated = model.rate(teams, ranks=[float(rank) for rank in ranks])
        for (_, entrant), team in zip(seated, [rated[s] for s, _ in seated], strict=True):
            rating[entrant] = team[0]
    buchholz = [0.0] * count
    for result in results:
        mates = [e for e in result.seats if e != FILLER]
        for entrant in mates:
            buchholz[entrant] += sum(points[other] for other in mates if other != entrant)

    def key(e: int) -> tuple[float, ...]:
        ordinal = round(rating[e].mu - 3 * rating[e].sigma, 9)
        return (points[e], score[e], buchholz[e], firsts[e], ordinal)

    table: list[TableStanding] = []
    for rank, e in ranked(count, key):
        mu, sigma = rating[e].mu, rating[e].sigma
        table.append(
            TableStanding(
                e, names[e], played[e], firsts[e], errors[e], points[e], score[e],
                buchholz[e], mu, sigma, mu - 3 * sigma, rank,
            )
        )  # fmt: skip
    return table


def meetings(count: int, results: Sequence[TableResult]) -> list[list[str]]:
    """Return the table of meetings: ``table[i][j]`` is ``"A-L-B"``, the games in which i
    finished ahead of j, level with j, behind j, at the same table; ``""`` on the diagonal
    and for pairs that never met. A game without a result makes a pair met and counts
    nothing (``"0-0-0"`` if that is all)."""
    tallies: dict[tuple[int, int], list[int]] = {}
    for result in results:
        seated = [(s, e) for s, e in enumerate(result.seats) if e != FILLER]
        for s, a in seated:
            for t, b in seated:
                if a == b:
                    continue
                tally = tallies.setdefault((a, b), [0, 0, 0])
                if result.error:
                    continue
                mine, theirs = result.ranks[s] or 0, result.ranks[t] or 0
                tally[0 if mine < theirs else 1 if mine == theirs else 2] += 1
    return [
        ["-".join(map(str, tallies[(i, j)])) if (i, j) in tallies else "" for j in range(count)]
        for i in range(count)
    ]


def table_standings_csv(table: Sequence[TableStanding]) -> str:
    """Return the standings at tables as CSV text (columns :data:`TABLE_CSV_HEADER`; a
    name a spreadsheet would run as a formula quoted, as :func:`standings_csv` does)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(TABLE_CSV_HEADER)
    for line in table:
        writer.writerow(
            [
                line.rank, safe_cell(line.name), line.played, line.firsts, line.errors,
                f"{line.points:g}", line.score, f"{line.buchholz:g}",
                f"{line.mu:.6f}", f"{line.sigma:.6f}", f"{line.ordinal:.6f}",
            ]
        )  # fmt: skip
    return out.getvalue()


def kept_table_standings(
    names: Sequence[str],
    lines: Mapping[int, Mapping[str, Any]],
    pairs: Mapping[tuple[int, int], Mapping[str, Any]],
) -> list[TableStanding]:
    """The standings of :func:`table_standings`, from a tournament's kept counts rather
    than its games: ``lines`` each entrant's ``played``, ``firsts``, ``errors``,
    ``points``, ``score``, ``mu`` and ``sigma`` (after its rated games, in the order they
    ended), ``pairs`` each ordered pair of table-mates' ``games`` met. Buchholz sums over
    the pairs the mate's points once per game met (exactly, where a sum of floats game by
    game may differ in its last digit): steps bounded by the entrants."""
    count = len(names)
    new = PlackettLuce().rating()
    empty: Mapping[str, Any] = {}
    points = [float(lines.get(e, empty).get("points", 0.0)) for e in range(count)]
    # Match points are sums of twelfths (places shared by 2, 3 or 4 seats): Buchholz is
    # summed exactly in twelfths, then rounded once (a sum of floats game by game, in
    # another order, may differ in its last digit, and split a tie it should keep).
    twelfths = [0] * count
    for (entrant, other), pair in pairs.items():
        if 0 <= entrant < count and 0 <= other < count:
            twelfths[entrant] += pair["games"] * round(points[other] * 12)
    buchholz = [value / 12 for value in twelfths]

    def value(e: int, name: str, default: Any = 0) -> Any:
        return lines.get(e, empty).get(name, default)

    def key(e: int) -> tuple[float, ...]:
        ordinal = round(value(e, "mu", new.mu) - 3 * value(e, "sigma", new.sigma), 9)
        return (points[e], value(e, "score"), buchholz[e], value(e, "firsts"), ordinal)

    table: list[TableStanding] = []
    for rank, e in ranked(count, key):
        mu, sigma = float(value(e, "mu", new.mu)), float(value(e, "sigma", new.sigma))
        table.append(
            TableStanding(
                e, names[e], int(value(e, "played")), int(value(e, "firsts")),
                int(value(e, "errors")), points[e], int(value(e, "score")), buchholz[e],
                mu, sigma, mu - 3 * sigma, rank,
            )
        )  # fmt: skip
    return table


def kept_meetings(
    count: int, pairs: Mapping[tuple[int, int], Mapping[str, Any]]
) -> list[list[str]]:
    """The table of meetings of :func:`meetings` from a tournament's kept pairs: ``"A-L-B"``
    (``won``, ``drawn``, ``lost``: ahead, level, behind) for each pair that met."""
    return [
        [
            f"{pairs[(i, j)]['won']}-{pairs[(i, j)]['drawn']}-{pairs[(i, j)]['lost']}"
            if (i, j) in pairs and pairs[(i, j)]["games"] > 0
            else ""
            for j in range(count)
        ]
        for i in range(count)
    ]
