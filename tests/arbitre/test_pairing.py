"""Round-robin schedules and Swiss pairings (:mod:`tournoyons_gui.arbitre.pairing`): pure and
fast, no server. Swiss rounds are checked against brute force (bitmask searches over every
pairing) on tournaments simulated with a seeded random source."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournoyons_gui.arbitre.pairing import (
    BYE,
    Pairing,
    _maximum_matching,
    round_robin,
    swiss_round,
    swiss_rounds_needed,
)
from tournoyons_gui.arbitre.standings import GameResult, standings

# --- round robin ---------------------------------------------------------------------------


@pytest.mark.parametrize("games", [1, 2, 3, 4])
@pytest.mark.parametrize("entrants", range(2, 10))
def test_round_robin(entrants: int, games: int) -> None:
    pairings = round_robin(entrants, games)
    per_pair: dict[frozenset[int], list[Pairing]] = {}
    for pairing in pairings:
        assert 0 <= pairing.first < entrants and 0 <= pairing.second < entrants
        assert pairing.first != pairing.second and not pairing.is_bye
        per_pair.setdefault(frozenset((pairing.first, pairing.second)), []).append(pairing)
    # Every pair exactly ``games`` times.
    assert len(per_pair) == entrants * (entrants - 1) // 2
    assert all(len(games_of_pair) == games for games_of_pair in per_pair.values())
    # Rounds numbered 1.. without gaps, nobody twice in a round, listed in order.
    rounds = [pairing.round for pairing in pairings]
    assert rounds == sorted(rounds)
    per_round = entrants - 1 if entrants % 2 == 0 else entrants
    assert sorted(set(rounds)) == list(range(1, games * per_round + 1))
    for number in set(rounds):
        seated = [p for q in pairings if q.round == number for p in (q.first, q.second)]
        assert len(seated) == len(set(seated)) == entrants - entrants % 2
    # Colours alternate within each pair.
    for games_of_pair in per_pair.values():
        firsts = [pairing.first for pairing in games_of_pair]
        assert all(a != b for a, b in itertools.pairwise(firsts))
    # Games as first per entrant: equal when possible, within one otherwise.
    as_first = Counter(pairing.first for pairing in pairings)
    counts = [as_first[entrant] for entrant in range(entrants)]
    assert sum(counts) == len(pairings)
    if games % 2 == 0 or entrants % 2 == 1:
        assert max(counts) == min(counts)
    else:
        assert max(counts) - min(counts) == 1


def test_round_robin_is_deterministic_and_small_cases_are_exact() -> None:
    assert round_robin(5, 3) == round_robin(5, 3)
    assert round_robin(2, 3) == [Pairing(1, 0, 1), Pairing(2, 1, 0), Pairing(3, 0, 1)]
    # Three entrants: one sits out each round, and everyone moves first once.
    assert round_robin(3, 1) == [Pairing(1, 1, 2), Pairing(2, 2, 0), Pairing(3, 0, 1)]


@pytest.mark.parametrize(("entrants", "games"), [(1, 1), (0, 2), (4, 0), (3, -1)])
def test_round_robin_rejects(entrants: int, games: int) -> None:
    with pytest.raises(ValueError):
        round_robin(entrants, games)


# --- maximum matching (the Swiss pairing's feasibility check) ------------------------------


def _partners(mask: int, size: int) -> tuple[int, int, list[tuple[int, int]]]:
    """Split the players of ``mask`` (a bit each, below ``size``) for a brute-force search:
    return the lowest one, the mask without it, and each other player with the mask left
    once both of them are paired."""
    low = (mask & -mask).bit_length() - 1
    rest = mask & ~(1 << low)
    return low, rest, [(other, rest & ~(1 << other)) for other in range(size) if rest >> other & 1]


def _brute_matching(size: int, edge: Callable[[int, int], bool]) -> int:
    @cache
    def best(mask: int) -> int:
        if not mask:
            return 0
        low, rest, partners = _partners(mask, size)
        # ``low`` left unmatched, or matched along an edge.
        return max([best(rest), *(1 + best(left) for other, left in partners if edge(low, other))])

    return best((1 << size) - 1)


@settings(max_examples=150, deadline=None)
@given(size=st.integers(0, 10), data=st.data())
def test_maximum_matching_is_maximum(size: int, data: st.DataObject) -> None:
    pairs = list(itertools.combinations(range(size), 2))
    chosen = data.draw(
        st.sets(st.sampled_from(pairs)) if pairs else st.just(set[tuple[int, int]]())
    )

    def edge(u: int, v: int) -> bool:
        return (min(u, v), max(u, v)) in chosen

    neighbours = [[u for u in range(size) if u != v and edge(u, v)] for v in range(size)]
    mate = _maximum_matching(neighbours, [-1] * size)
    for v, partner in enumerate(mate):
        if partner != -1:
            assert mate[partner] == v and edge(v, partner)
    assert sum(1 for partner in mate if partner != -1) // 2 == _brute_matching(size, edge)


# --- Swiss ---------------------------------------------------------------------------------


def test_swiss_rounds_needed() -> None:
    expected = {2: 1, 3: 2, 4: 2, 5: 3, 8: 3, 9: 4, 16: 4, 17: 5, 100: 7}
    assert {n: swiss_rounds_needed(n) for n in expected} == expected
    with pytest.raises(ValueError):
        swiss_rounds_needed(1)


def test_swiss_first_round_is_dutch() -> None:
    # Top half against bottom half; the higher seed moves first on boards 1, 3, ..
    assert swiss_round(1, 8, []) == [
        Pairing(1, 0, 4),
        Pairing(1, 5, 1),
        Pairing(1, 2, 6),
        Pairing(1, 7, 3),
    ]
    # An odd count: the lowest seed sits out, and the bye comes last.
    assert swiss_round(1, 5, []) == [Pairing(1, 0, 2), Pairing(1, 3, 1), Pairing(1, 4, BYE)]
    # Seeds in another order.
    assert swiss_round(1, 6, [], seed_order=[5, 4, 3, 2, 1, 0]) == [
        Pairing(1, 5, 2),
        Pairing(1, 1, 4),
        Pairing(1, 3, 0),
    ]


def test_swiss_pairs_within_score_groups() -> None:
    first = swiss_round(1, 8, [])
    # The higher seed wins every game: winners 0-3 meet each other, losers 4-7 too.
    results = [GameResult(p.first, p.second, min(p.first, p.second), round=1) for p in first]
    second = swiss_round(2, 8, results)
    assert {frozenset((p.first, p.second)) for p in second} == {
        frozenset(pair) for pair in ((0, 2), (1, 3), (4, 6), (5, 7))
    }
    # Colours: 0 and 2 both moved first, so the higher-ranked 0 gets its alternate.
    assert Pairing(2, 2, 0) in second
    assert Pairing(2, 1, 3) in second


def test_swiss_avoids_a_rematch_by_floating() -> None:
    # 0 and 1 both won, 2 and 3 both lost, but 0 already met 1: the round must cross groups.
    results = [GameResult(0, 2, 0), GameResult(1, 3, 1), GameResult(0, 1, None)]
    pairs = {frozenset((p.first, p.second)) for p in swiss_round(3, 4, results)}
    assert frozenset((0, 1)) not in pairs and len(pairs) == 2


def test_swiss_falls_back_to_the_fewest_rematches() -> None:
    # Everyone has met everyone once: a rematch is unavoidable, but the round is complete.
    results = [GameResult(a, b, a) for a, b in itertools.combinations(range(4), 2)]
    pairings = swiss_round(4, 4, results)
    assert sorted(p for q in pairings for p in (q.first, q.second)) == [0, 1, 2, 3]


def test_swiss_rejects() -> None:
    with pytest.raises(ValueError):
        swiss_round(0, 4, [])
    with pytest.raises(ValueError):
        swiss_round(1, 1, [])
    with pytest.raises(ValueError):
        swiss_round(1, 4, [], seed_order=[0, 1, 2])
    with pytest.raises(ValueError):
        swiss_round(1, 4, [], seed_order=[0, 1, 2, 2])
    with pytest.raises(ValueError):
        swiss_round(2, 4, [GameResult(0, 4, 0)])


class _Tournament:
    """A Swiss tournament's history as the brute force sees it."""

    def __init__(self, entrants: int, results: list[GameResult]) -> None:
        self.entrants = entrants
        self.met: Counter[frozenset[int]] = Counter()
        self.byes = [0] * entrants
        self.balance = [0] * entrants
        for result in results:
            if result.second == BYE:
                self.byes[result.first] += 1
            else:
                self.met[frozenset((result.first, result.second))] += 1
                self.balance[result.first] += 1
                self.balance[result.second] -= 1

    def compatible(self, a: int, b: int) -> bool:
        return not (abs(self.balance[a]) >= 2 and self.balance[a] == self.balance[b])

    def unmet(self, a: int, b: int) -> bool:
        return self.met[frozenset((a, b))] == 0

    def unmet_and_compatible(self, a: int, b: int) -> bool:
        return self.unmet(a, b) and self.compatible(a, b)

    def bye_candidates(self) -> list[int]:
        if self.entrants % 2 == 0:
            return [-1]
        fewest = min(self.byes)
        return [p for p in range(self.entrants) if self.byes[p] == fewest]

    def pairable(self, edge: Callable[[int, int], bool]) -> bool:
        """Whether some round pairs everyone (the bye to a player with fewest byes) along
        ``edge`` only."""

        @cache
        def complete(mask: int) -> bool:
            if not mask:
                return True
            low, _rest, partners = _partners(mask, self.entrants)
            return any(edge(low, other) and complete(left) for other, left in partners)

        full = (1 << self.entrants) - 1
        return any(
            complete(full & ~(1 << bye)) if bye >= 0 else complete(full)
            for bye in self.bye_candidates()
        )

    def fewest_rematches(self) -> int:
        """The fewest rematches of any round (the bye to a player with fewest byes)."""

        @cache
        def fewest(mask: int) -> int:
            if not mask:
                return 0
            low, _rest, partners = _partners(mask, self.entrants)
            return min(
                (self.met[frozenset((low, other))] > 0) + fewest(left) for other, left in partners
            )

        full = (1 << self.entrants) - 1
        return min(
            fewest(full & ~(1 << bye)) if bye >= 0 else fewest(full)
            for bye in self.bye_candidates()
        )


@pytest.mark.parametrize("entrants", range(4, 17))
def test_swiss_simulated_tournaments(entrants: int) -> None:
    for seed in range(2):
        rng = random.Random(entrants * 100 + seed)
        results: list[GameResult] = []
        bye_takers: list[int] = []
        for number in range(1, entrants):
            before = _Tournament(entrants, results)
            pairings = swiss_round(number, entrants, results)
            assert pairings == swiss_round(number, entrants, list(results))  # deterministic
            # Everyone exactly once; a bye exactly when the count is odd, listed last.
            seated = [p for q in pairings for p in (q.first, q.second) if p != BYE]
            assert sorted(seated) == list(range(entrants))
            byes = [q.first for q in pairings if q.is_bye]
            assert len(byes) == entrants % 2
            assert all(not q.is_bye for q in pairings[: entrants // 2])
            assert all(q.round == number for q in pairings)
            games = [q for q in pairings if not q.is_bye]
            rematches = sum(before.met[frozenset((q.first, q.second))] > 0 for q in games)
            if before.pairable(before.unmet):
                assert rematches == 0, (entrants, seed, number)
            elif entrants <= 10:
                assert rematches == before.fewest_rematches()
            if before.pairable(before.unmet_and_compatible):
                # Nobody's colour balance reaches 3 while that is avoidable.
                assert all(before.compatible(q.first, q.second) for q in games)
            # Colours: the one with fewer games as first (relative to second) moves first.
            for q in games:
                assert before.balance[q.first] <= before.balance[q.second]
            for player in byes:
                assert before.byes[player] == min(before.byes)
                bye_takers.append(player)
                results.append(GameResult(player, BYE, player, round=number))
            for q in games:
                winner = rng.choice([q.first, q.second, None])
                results.append(
                    GameResult(q.first, q.second, winner, error=rng.random() < 0.05, round=number)
                )
        # Byes to distinct players (there are fewer rounds than entrants).
        assert len(bye_takers) == len(set(bye_takers))
        # Colour balance: within two for nearly everyone, even over n - 1 rounds.
        balance = _Tournament(entrants, results).balance
        assert sum(abs(b) > 2 for b in balance) <= 2


def test_swiss_bye_goes_to_the_lowest_ranked_without_one() -> None:
    results = [
        GameResult(4, BYE, 4, round=1),
        GameResult(0, 1, None, round=1),
        GameResult(2, 3, None, round=1),
        GameResult(4, 0, 0, round=2),
        GameResult(1, 2, None, round=2),
        GameResult(3, BYE, 3, round=2),
    ]
    # 4 is last (1 point, Sonneborn-Berger 0) but had a bye; 1 and 2 come next, tied on
    # everything (1 point, SB 1.25, Buchholz 2.5, no wins, drew each other, equal ratings),
    # so seed order puts 2 below 1.
    table = standings([""] * 5, results)
    assert [(line.entrant, line.rank) for line in table][-3:] == [(1, 3), (2, 3), (4, 5)]
    assert swiss_round(3, 5, results)[-1] == Pairing(3, 2, BYE)


@settings(max_examples=60, deadline=None)
@given(
    entrants=st.integers(2, 9),
    games=st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8), st.integers(0, 3)), max_size=20),
)
def test_swiss_any_history_gives_a_complete_round(
    entrants: int, games: list[tuple[int, int, int]]
) -> None:
    results = [
        GameResult(a, b, [a, b, None, a][outcome], error=outcome == 3)
        for a, b, outcome in games
        if a < entrants and b < entrants and a != b
    ]
    pairings = swiss_round(1 + len(results), entrants, results)
    seated = [p for q in pairings for p in (q.first, q.second) if p != BYE]
    assert sorted(seated) == list(range(entrants))
    assert sum(q.is_bye for q in pairings) == entrants % 2
