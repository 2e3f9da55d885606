"""Who plays whom: round-robin schedules and Swiss pairings, pure and game-agnostic.

Entrants are numbered ``0 .. n - 1``. A :class:`Pairing` says that in round ``round``
entrant ``first`` plays entrant ``second`` and moves first (takes the first player's
"colour"); ``second == BYE`` is a bye (Swiss only). Results come back as
:class:`~tournoyons_gui.arbitre.standings.GameResult`.

Sources: the round robin's rounds come from the circle method (as in Berger tables), its
colours from a balanced orientation of our own (see :func:`round_robin`); the Swiss system
follows the spirit of the FIDE Dutch system (FIDE Handbook C.04.3): score groups in ranking
order, top half against bottom half, no rematch, colours balanced, the bye
to the lowest-ranked player who has not had one. It is not a certified FIDE pairing engine:
rather than the Dutch system's list of transpositions and exchanges, it pairs greedily in
Dutch order and checks each choice with a maximum matching (Edmonds' blossom algorithm) so
that a rematch-free round is always found when one exists.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tournoyons_gui.arbitre.standings import BYE, GameResult, check_results, standings

__all__ = ["BYE", "Pairing", "round_robin", "swiss_round", "swiss_rounds_needed"]


@dataclass(frozen=True)
class Pairing:
    """One board of a round: ``first`` plays ``second`` and moves first.

    ``round`` is 1-based; ``first`` and ``second`` are entrant indexes, ``second == BYE``
    (-1) for a bye (the entrant sits out and scores a win).
    """

    round: int
    first: int
    second: int

    @property
    def is_bye(self) -> bool:
        """Whether this is a bye rather than a game."""
        return self.second == BYE


def _first_in_pair(a: int, b: int, entrants: int) -> bool:
    """Whether ``a`` moves first in the first game of the pair ``{a, b}`` of a round robin.

    An orientation of the complete graph whose out-degrees (games as first) differ by at
    most one: a regular tournament on the odd number of entrants ``m`` (``i`` before
    ``i + 1 .. i + (m - 1) / 2`` modulo ``m``); with an even count the last entrant is
    added, moving second against even indexes and first against odd ones.
    """
    if a > b:
        return not _first_in_pair(b, a, entrants)
    odd = entrants if entrants % 2 else entrants - 1
    if b == odd:  # the extra entrant of an even count
        return a % 2 == 0
    return (b - a) % odd <= (odd - 1) // 2


def round_robin(entrants: int, games: int) -> list[Pairing]:
    """Every pair of ``entrants`` plays ``games`` games, scheduled in rounds.

    Rounds come from the circle method: ``n - 1`` rounds (``n`` for an odd count, each
    entrant sitting out one of them) in which every pair meets once; they are repeated
    ``games`` times, numbered ``1 ..`` consecutively, so nobody plays twice in a round.
    Colours alternate within each pair; the first game of each pair goes first to the entrant
    that balances everyone's games as first (equal for all with an even ``games`` or an odd
    count, within one otherwise). Byes are not returned. Deterministic; listed by round.
    Raises ValueError if ``entrants < 2`` or ``games < 1``.
    """
    if entrants < 2:
        raise ValueError(f"a round robin needs at least 2 entrants, not {entrants}")
    if games < 1:
        raise ValueError(f"each pair plays at least 1 game, not {games}")
    size = entrants + entrants % 2  # with a phantom entrant (the bye) for an odd count
    circle = list(range(size))
    cycle: list[list[tuple[int, int]]] = []
    for _ in range(size - 1):
        boards = [(circle[i], circle[size - 1 - i]) for i in range(size // 2)]
        cycle.append([(a, b) for a, b in boards if a < entrants and b < entrants])
        circle = [circle[0], circle[-1], *circle[1:-1]]
    pairings: list[Pairing] = []
    for repeat in range(games):
        for index, boards in enumerate(cycle):
            number = repeat * len(cycle) + index + 1
            for a, b in boards:
                a_first = _first_in_pair(a, b, entrants) == (repeat % 2 == 0)
                pairings.append(Pairing(number, a, b) if a_first else Pairing(number, b, a))
    return pairings


def swiss_rounds_needed(entrants: int) -> int:
    """A suggested number of Swiss rounds: ``ceil(log2(entrants))``, enough for a sole winner.

    Raises ValueError if ``entrants < 2``.
    """
    if entrants < 2:
        raise ValueError(f"a Swiss tournament needs at least 2 entrants, not {entrants}")
    return (entrants - 1).bit_length()


def _augment(root: int, neighbours: list[list[int]], mate: list[int]) -> None:
    """Augment ``mate`` along an augmenting path from the free vertex ``root``, if any.

    One breadth-first search of Edmonds' blossom algorithm, shrinking odd cycles (blossoms)
    into their base as they are found.
    """
    size = len(mate)
    parent = [-1] * size
    base = list(range(size))
    used = [False] * size
    used[root] = True
    queue = deque([root])

    def lowest_common_base(a: int, b: int) -> int:
        seen = [False] * size
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, common: int, child: int, blossom: list[bool]) -> None:
        while base[v] != common:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    def search() -> int:
        while queue:
            v = queue.popleft()
            for to in neighbours[v]:
                if base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    common = lowest_common_base(v, to)
                    blossom = [False] * size
                    mark(v, common, to, blossom)
                    mark(to, common, v, blossom)
                    for u in range(size):
                        if blossom[base[u]]:
                            base[u] = common
                            if not used[u]:
                                used[u] = True
                                queue.append(u)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        return to
                    used[mate[to]] = True
                    queue.append(mate[to])
        return -1

    found = search()
    while found != -1:
        previous = parent[found]
        following = mate[previous]
        mate[found] = previous
        mate[previous] = found
        found = following


def _maximum_matching(neighbours: Sequence[Sequence[int]], mate: list[int]) -> list[int]:
    """A maximum matching of the graph on ``0 .. len(neighbours) - 1``.

    ``neighbours[v]`` lists v's neighbours (symmetric). Edmonds' blossom algorithm
    (J. Edmonds, "Paths, trees, and flowers", 1965), O(V^3), grown from the matching
    ``mate`` (``mate[v]`` is v's partner or -1), which it updates and returns. One search
    per free vertex suffices: a vertex without an augmenting path keeps having none as the
    matching grows.
    """
    lists = [list(adjacent) for adjacent in neighbours]
    for root in range(len(mate)):
        if mate[root] == -1:
            _augment(root, lists, mate)
    return mate


class _Matcher:
    """Maximum matchings of the allowed pairs among subsets of ``players``."""

    def __init__(self, players: Sequence[int], allowed: Callable[[int, int], bool]) -> None:
        self.allowed = allowed
        self.adjacent = {
            player: [other for other in players if other != player and allowed(player, other)]
            for player in players
        }

    def match(self, players: Sequence[int], start: dict[int, int] | None = None) -> dict[int, int]:
        """A maximum matching of ``players`` (partner by player), grown from ``start``."""
        index = {player: i for i, player in enumerate(players)}
        mate = [-1] * len(players)
        for player, partner in (start or {}).items():
            if player in index and partner in index:
                mate[index[player]] = index[partner]
        neighbours = [
            [index[other] for other in self.adjacent[player] if other in index]
            for player in players
        ]
        mate = _maximum_matching(neighbours, mate)
        return {players[i]: players[j] for i, j in enumerate(mate) if j != -1}


class _History:
    """What the Swiss pairing needs to know of the games so far."""

    def __init__(self, entrants: int, results: Sequence[GameResult]) -> None:
        self.met: dict[tuple[int, int], int] = {}
        self.byes = [0] * entrants
        # Each player's games in order: True when they moved first.
        self.colours: list[list[bool]] = [[] for _ in range(entrants)]
        for result in results:
            if result.is_bye:
                self.byes[result.first] += 1
                continue
            pair = (min(result.first, result.second), max(result.first, result.second))
            self.met[pair] = self.met.get(pair, 0) + 1
            self.colours[result.first].append(True)
            self.colours[result.second].append(False)

    def meetings(self, a: int, b: int) -> int:
        """How many games ``a`` and ``b`` played against each other."""
        return self.met.get((min(a, b), max(a, b)), 0)

    def balance(self, player: int) -> int:
        """Games as first minus games as second."""
        return 2 * sum(self.colours[player]) - len(self.colours[player])

    def compatible(self, a: int, b: int) -> bool:
        """Whether ``a`` and ``b`` can meet without either reaching a colour balance of 3.

        Two players both at +2 (or both at -2) would not: FIDE's absolute colour criterion,
        counted on the balance only.
        """
        return not (abs(self.balance(a)) >= 2 and self.balance(a) == self.balance(b))

    def first_of(self, a: int, b: int, a_by_board: bool) -> bool:
        """Whether ``a`` moves first against ``b``.

        ``a`` is the higher-ranked. The one with fewer games as first relative to games as
        second; on a tie, going back through their games, the one who moved second in the
        latest game where they differ; failing that, ``a`` gets the alternate of its latest
        colour (or, new, ``b`` of its own); failing that, ``a_by_board`` (FIDE C.04.3 E).
        """
        if self.balance(a) != self.balance(b):
            return self.balance(a) < self.balance(b)
        for mine, theirs in zip(reversed(self.colours[a]), reversed(self.colours[b]), strict=False):
            if mine != theirs:
                return theirs
        if self.colours[a]:
            return not self.colours[a][-1]
        if self.colours[b]:
            return self.colours[b][-1]
        return a_by_board


def _order(
    entrants: int, results: Sequence[GameResult], seed_order: Sequence[int]
) -> tuple[list[int], dict[int, float]]:
    """Players best first (by standings: points, then its tie-breaks; then seed order), and
    their points."""
    seed = {player: position for position, player in enumerate(seed_order)}
    table = sorted(
        standings([""] * entrants, results), key=lambda line: (line.rank, seed[line.entrant])
    )
    return [line.entrant for line in table], {line.entrant: line.points for line in table}


def _shortfall(
    matcher: _Matcher, players: Sequence[int], start: dict[int, int] | None = None
) -> tuple[int, dict[int, int]]:
    """Pairs missing from a perfect matching of ``players``, and the maximum matching."""
    mate = matcher.match(players, start)
    return len(players) // 2 - len(mate) // 2, mate


def swiss_round(
    round: int,
    entrants: int,
    results: Sequence[GameResult],
    *,
    seed_order: Sequence[int] | None = None,
) -> list[Pairing]:
    """The pairings of Swiss round ``round`` (1-based) given every result so far.

    Players are ranked by points, then the tie-breaks of
    :func:`~tournoyons_gui.arbitre.standings.standings`, then ``seed_order`` (a permutation
    of the entrants, best seed first; default index order). With an odd count the bye goes
    to the lowest-ranked player among those with the fewest byes (none, while some have
    not had one). Then, from the top, each unpaired player meets, in order of preference:
    an opponent of its score group in Dutch position (top half against bottom half), the
    rest of the bottom half, the top half upward, then lower-ranked players (a float down);
    an opponent never met before always comes first. Each choice is kept only if the rest
    can still be paired (a maximum matching): no pair meets again while a rematch-free
    round exists, then no two players whose colour balance (games first minus second) is
    +2 or both -2 meet while avoidable; otherwise the round has the fewest rematches.
    Colours: the one with fewer games as first relative to games as second moves first; on
    a tie, the one who moved second in the latest game where their colours differ; then the
    higher-ranked gets the alternate of its latest colour; between newcomers the
    higher-ranked moves first on boards 1, 3, 5... (FIDE C.04.3 E). Returns the boards in
    ranking order, the bye (``Pairing(round, p, BYE)``, scoring a win) last. Deterministic.

    Raises ValueError if ``round < 1``, ``entrants < 2``, a result is malformed or
    ``seed_order`` is not a permutation of the entrants.
    """
    if round < 1:
        raise ValueError(f"rounds are numbered from 1, not {round}")
    if entrants < 2:
        raise ValueError(f"a Swiss tournament needs at least 2 entrants, not {entrants}")
    check_results(entrants, results)
    seeds = list(range(entrants)) if seed_order is None else list(seed_order)
    if sorted(seeds) != list(range(entrants)):
        raise ValueError("seed_order must be a permutation of the entrants")
    history = _History(entrants, results)
    order, points = _order(entrants, results, seeds)
    strict = _Matcher(order, lambda a, b: history.meetings(a, b) == 0 and history.compatible(a, b))
    loose = _Matcher(order, lambda a, b: history.meetings(a, b) == 0)

    bye: int | None = None
    players = order
    if entrants % 2:
        fewest = min(history.byes)
        candidates = [p for p in reversed(order) if history.byes[p] == fewest]
        choice: tuple[int, int] | None = None  # (shortfall, player)
        for matcher in (strict, loose):
            for candidate in candidates:
                rest = [p for p in order if p != candidate]
                missing = _shortfall(matcher, rest)[0]
                if matcher is loose and (choice is None or missing < choice[0]):
                    choice = (missing, candidate)
                if missing == 0:
                    choice = (0, candidate)
                    break
            if choice is not None and choice[0] == 0:
                break
        assert choice is not None
        bye = choice[1]
        players = [p for p in order if p != bye]

    missing, mate = _shortfall(strict, players)
    matcher = strict
    if missing:
        missing, mate = _shortfall(loose, players)
        matcher = loose
    budget = missing  # pairs that may be disallowed (rematches), the fewest possible
    unpaired = list(players)
    boards: list[tuple[int, int]] = []
    while unpaired:
        top, others = unpaired[0], unpaired[1:]
        group = [p for p in others if points[p] == points[top]]
        half = (len(group) + 1) // 2  # the top of the bottom half, counting ``top``
        dutch = group[half - 1 :] + group[: half - 1][::-1] if group else []
        lower = [p for p in others if points[p] != points[top]]
        preference = {p: i for i, p in enumerate(dutch + lower)}
        candidates = sorted(
            others,
            key=lambda p: (history.meetings(top, p), not history.compatible(top, p), preference[p]),
        )
        for candidate in candidates:
            cost = 0 if matcher.allowed(top, candidate) else 1
            if cost > budget:
                continue
            rest = [p for p in others if p != candidate]
            start = {a: b for a, b in mate.items() if {a, b}.isdisjoint((top, candidate))}
            short, new_mate = _shortfall(matcher, rest, start)
            if cost + short <= budget:
                budget -= cost
                mate = new_mate
                boards.append((top, candidate))
                unpaired = rest
                break
        else:  # pragma: no cover - the budget is a maximum matching's shortfall
            raise AssertionError("no feasible opponent")

    pairings = []
    for board, (a, b) in enumerate(boards):
        # ``a`` is the higher-ranked: on a full tie it moves first on odd boards (1, 3, ..).
        a_first = history.first_of(a, b, board % 2 == 0)
        pairings.append(Pairing(round, a, b) if a_first else Pairing(round, b, a))
    if bye is not None:
        pairings.append(Pairing(round, bye, BYE))
    return pairings
