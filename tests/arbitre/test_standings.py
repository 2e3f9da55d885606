"""Standings, tie-breaks, ratings, cross tables and exports
(:mod:`tournoyons_gui.arbitre.standings`): pure and fast, no server. The expected figures of
the hand-made tournaments are worked out in the comments."""

from __future__ import annotations

import csv
import io
import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournoyons_gui.arbitre.standings import (
    BYE,
    CSV_HEADER,
    GameResult,
    Standing,
    cross_table,
    rating_history,
    ratings,
    standings,
    standings_csv,
    standings_json,
)

ANN, BOB, CID, DEE, EVE = range(5)
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]
# Three Swiss rounds of five, with a bye each round and one errored game.
SMALL_SWISS = [
    GameResult(ANN, BOB, ANN, round=1),
    GameResult(CID, DEE, None, round=1),
    GameResult(EVE, BYE, EVE, round=1),
    GameResult(EVE, ANN, EVE, round=2),
    GameResult(BOB, CID, None, error=True, round=2),
    GameResult(DEE, BYE, DEE, round=2),
    GameResult(ANN, CID, None, round=3),
    GameResult(DEE, EVE, DEE, round=3),
    GameResult(BOB, BYE, BOB, round=3),
]


def _line(table: list[Standing], entrant: int) -> Standing:
    return next(line for line in table if line.entrant == entrant)


def test_standings_of_a_small_swiss() -> None:
    # Points: Ann W L D = 1.5; Bob L, error, bye = 1; Cid D, error, D = 1;
    # Dee D, bye, W = 2.5; Eve bye, W, L = 2.
    # Buchholz (opponents' points, byes excluded, the errored game included):
    # Ann Bob 1 + Eve 2 + Cid 1 = 4; Bob Ann 1.5 + Cid 1 = 2.5; Cid Dee 2.5 + Bob 1 +
    # Ann 1.5 = 5; Dee Cid 1 + Eve 2 = 3; Eve Ann 1.5 + Dee 2.5 = 4.
    # Sonneborn-Berger: Ann beat Bob 1 + drew Cid 0.5 = 1.5; Bob 0; Cid drew Dee 1.25 +
    # drew Ann 0.75 = 2; Dee drew Cid 0.5 + beat Eve 2 = 2.5; Eve beat Ann 1.5.
    # Cid and Bob tie on points; Cid's Sonneborn-Berger puts Cid first.
    table = standings(NAMES, SMALL_SWISS)
    got = [
        (
            line.rank,
            line.name,
            line.played,
            line.wins,
            line.draws,
            line.losses,
            line.errors,
            line.points,
            line.buchholz,
            line.sonneborn_berger,
        )
        for line in table
    ]
    assert got == [
        (1, "Dee", 3, 2, 1, 0, 0, 2.5, 3.0, 2.5),
        (2, "Eve", 3, 2, 0, 1, 0, 2.0, 4.0, 1.5),
        (3, "Ann", 3, 1, 1, 1, 0, 1.5, 4.0, 1.5),
        (4, "Cid", 3, 0, 2, 0, 1, 1.0, 5.0, 2.0),
        (5, "Bob", 3, 1, 0, 1, 1, 1.0, 2.5, 0.0),
    ]
    assert [line.entrant for line in table] == [DEE, EVE, ANN, CID, BOB]
    for line in table:
        assert (line.mu, line.sigma) == ratings(5, SMALL_SWISS)[line.entrant]
        assert line.ordinal == pytest.approx(line.mu - 3 * line.sigma)


def test_buchholz_then_head_to_head_come_before_the_rating() -> None:
    # 0 beats 2, 1 beats 3, 3 beats 0, 2 beats 3: everyone has 1 point, and Sonneborn-Berger
    # 1 (each beat a 1-point player), and one win. Buchholz: 3 met 1, 0 and 2 (3 points);
    # 0 met 2 and 3 (2); 2 met 0 and 3 (2); 1 met only 3 (1). 0 and 2 stay tied: 0 beat 2,
    # so 0 is ahead, though 2's rating ordinal is higher; 1 has the best ordinal but is last.
    results = [GameResult(2, 0, 0), GameResult(3, 1, 1), GameResult(3, 0, 3), GameResult(2, 3, 2)]
    table = standings(["a", "b", "c", "d"], results)
    assert [(line.entrant, line.rank, line.buchholz) for line in table] == [
        (3, 1, 3.0),
        (0, 2, 2.0),
        (2, 3, 2.0),
        (1, 4, 1.0),
    ]
    assert {line.points for line in table} == {1.0}
    assert {line.sonneborn_berger for line in table} == {1.0}
    assert _line(table, 2).ordinal > _line(table, 0).ordinal
    assert max(table, key=lambda line: line.ordinal).entrant == 1


def test_wins_come_before_head_to_head_and_the_rating() -> None:
    # X beats A, B beats X, Y draws A, Y draws B, A beats Z.
    # Points A 1.5, B 1.5, X 1, Y 1, Z 0. Sonneborn-Berger: B beat X 1 + drew Y 0.5 = 1.5,
    # A drew Y 0.5 + beat Z 0 = 0.5; X beat A 1.5; Y drew A and B 0.75 + 0.75 = 1.5.
    # Buchholz X = Y = A 1.5 + B 1.5 = 3. X has a win, Y none: X is ahead, though Y's
    # ordinal is higher.
    a, b, x, y, z = range(5)
    results = [
        GameResult(x, a, x),
        GameResult(b, x, b),
        GameResult(y, a, None),
        GameResult(y, b, None),
        GameResult(a, z, a),
    ]
    table = standings(["A", "B", "X", "Y", "Z"], results)
    assert [(line.name, line.rank) for line in table] == [
        ("B", 1),
        ("A", 2),
        ("X", 3),
        ("Y", 4),
        ("Z", 5),
    ]
    assert (_line(table, x).sonneborn_berger, _line(table, x).buchholz) == (1.5, 3.0)
    assert (_line(table, y).sonneborn_berger, _line(table, y).buchholz) == (1.5, 3.0)
    assert _line(table, y).ordinal > _line(table, x).ordinal


def test_the_rating_ordinal_is_the_last_tie_break() -> None:
    # A cycle, 0 > 1 > 2 > 0: equal on every tie-break, head-to-head included (1 point each
    # among the three). The ratings, updated in order, differ: 2's last win was over 0 at
    # its highest.
    results = [GameResult(0, 1, 0), GameResult(1, 2, 1), GameResult(2, 0, 2)]
    table = standings(["a", "b", "c"], results)
    assert [(line.entrant, line.rank) for line in table] == [(2, 1), (1, 2), (0, 3)]
    assert table[0].ordinal > table[1].ordinal > table[2].ordinal


def test_true_ties_share_a_rank() -> None:
    results = [GameResult(0, 1, None), GameResult(2, 3, None)]
    table = standings(["a", "b", "c", "d"], results)
    assert [(line.entrant, line.rank) for line in table] == [(0, 1), (1, 1), (2, 1), (3, 1)]
    # A clear leader, then three tied: ranks 1, 2, 2, 2 (no rank 3 or 4).
    table = standings(["a", "b", "c", "d"], [GameResult(0, 1, 0), GameResult(2, 3, None)])
    ranks = {line.entrant: line.rank for line in table}
    assert ranks[0] == 1 and ranks[1] == 4 and ranks[2] == ranks[3] == 2


def test_standings_without_games() -> None:
    table = standings(["a", "b"], [])
    assert [(line.entrant, line.rank, line.played, line.points) for line in table] == [
        (0, 1, 0, 0.0),
        (1, 1, 0, 0.0),
    ]
    assert table[0].mu == 25.0 and table[0].sigma == pytest.approx(25 / 3)
    assert standings([], []) == []


@pytest.mark.parametrize(
    "bad",
    [
        GameResult(0, 0, 0),
        GameResult(0, 5, 0),
        GameResult(-2, 1, 1),
        GameResult(0, 1, 2),
        GameResult(0, BYE, None),
        GameResult(0, BYE, 0, error=True),
    ],
)
def test_malformed_results_are_rejected(bad: GameResult) -> None:
    for call in (
        lambda: standings(["a", "b", "c"], [bad]),
        lambda: ratings(3, [bad]),
        lambda: cross_table(3, [bad]),
    ):
        with pytest.raises(ValueError):
            call()


# --- ratings -------------------------------------------------------------------------------


def test_a_win_moves_the_winner_up_and_the_loser_down() -> None:
    (mu_winner, sigma_winner), (mu_loser, sigma_loser) = ratings(2, [GameResult(1, 0, 0)])
    assert mu_winner > 25 > mu_loser
    assert sigma_winner < 25 / 3 and sigma_loser < 25 / 3


def test_a_draw_between_equals_moves_little() -> None:
    (mu_a, sigma_a), (mu_b, _) = ratings(2, [GameResult(0, 1, None)])
    assert mu_a == pytest.approx(25, abs=1e-6) and mu_b == pytest.approx(25, abs=1e-6)
    assert sigma_a < 25 / 3
    # Between unequals, a draw lifts the weaker and costs the stronger.
    results = [GameResult(0, 2, 0), GameResult(0, 2, 0), GameResult(0, 1, None)]
    before = ratings(3, results[:2])
    after = ratings(3, results)
    assert after[1][0] > 25  # 1, new, drew 0, who had won twice
    assert after[0][0] < before[0][0]


def test_more_games_lower_sigma() -> None:
    results = [GameResult(i % 2, 1 - i % 2, [0, 1, None][i % 3]) for i in range(12)]
    history = rating_history(2, results)
    sigmas = [sigma for _, _, sigma in history[0]]
    assert len(sigmas) == 12
    assert all(later < earlier for earlier, later in itertools.pairwise(sigmas))


def test_beating_a_stronger_player_raises_mu_more() -> None:
    strong, weak, upset, expected = range(4)
    seasoning = [GameResult(strong, weak, strong)] * 3
    results = [*seasoning, GameResult(upset, strong, upset), GameResult(expected, weak, expected)]
    rated = ratings(4, results)
    assert rated[strong][0] > 25 > rated[weak][0]
    assert rated[upset][0] - 25 > rated[expected][0] - 25 > 0


def test_errors_and_byes_are_not_rated() -> None:
    games = [GameResult(0, 1, 0), GameResult(1, 2, None), GameResult(2, 0, 2)]
    noisy = [
        GameResult(0, BYE, 0),
        games[0],
        GameResult(1, 2, 1, error=True),
        games[1],
        GameResult(2, BYE, 2),
        games[2],
    ]
    assert ratings(3, noisy) == ratings(3, games)
    history = rating_history(3, noisy)
    # Indexes are positions in ``noisy``; byes and the errored game are absent.
    assert [index for index, _, _ in history[0]] == [1, 5]
    assert [index for index, _, _ in history[1]] == [1, 3]
    assert [index for index, _, _ in history[2]] == [3, 5]
    assert history[0][-1][1:] == ratings(3, noisy)[0]


# --- cross table and exports ---------------------------------------------------------------


def test_cross_table() -> None:
    assert cross_table(5, SMALL_SWISS) == [
        ["", "1-0-0", "0-1-0", "", "0-0-1"],
        ["0-0-1", "", "0-0-0", "", ""],
        ["0-1-0", "0-0-0", "", "0-1-0", ""],
        ["", "", "0-1-0", "", "1-0-0"],
        ["1-0-0", "", "", "0-0-1", ""],
    ]
    repeated = [
        GameResult(0, 1, 0),
        GameResult(1, 0, 0),
        GameResult(0, 1, None),
        GameResult(1, 0, 1),
    ]
    assert cross_table(2, repeated) == [["", "2-1-1"], ["1-1-2", ""]]
    assert cross_table(0, []) == []


def test_standings_csv_quotes_formulas() -> None:
    names = ["=SUM(A1:A9)", "+cmd", "-2+3", "@A1", "plain, with comma", 'say "hi"', "\tTab"]
    text = standings_csv(standings(names, [GameResult(1, 0, 1)]))
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == list(CSV_HEADER)
    assert text.startswith(",".join(CSV_HEADER) + "\r\n")
    assert [row[1] for row in rows[1:]] == [
        "'+cmd",  # the winner first
        "'=SUM(A1:A9)",  # the loser next: Buchholz 1 against 0 for the others
        "'-2+3",
        "'@A1",
        "plain, with comma",
        'say "hi"',
        "'\tTab",
    ]
    (mu, sigma) = ratings(len(names), [GameResult(1, 0, 1)])[1]
    assert rows[1] == [
        *("1", "'+cmd", "1", "1", "0", "0", "0", "1", "0", "0"),
        *(f"{mu:.6f}", f"{sigma:.6f}", f"{mu - 3 * sigma:.6f}"),
    ]
    # A new entrant's ordinal, 25 - 3 * 25/3, is written 0, never -0.
    assert rows[3][10:] == ["25.000000", "8.333333", "0.000000"]


def test_standings_csv_of_the_small_swiss() -> None:
    rows = list(csv.reader(io.StringIO(standings_csv(standings(NAMES, SMALL_SWISS)))))
    assert [row[:10] for row in rows[1:3]] == [
        ["1", "Dee", "3", "2", "1", "0", "0", "2.5", "3", "2.5"],
        ["2", "Eve", "3", "2", "0", "1", "0", "2", "4", "1.5"],
    ]


def test_standings_json() -> None:
    table = standings(NAMES, SMALL_SWISS)
    data = standings_json(table)
    assert json.loads(json.dumps(data)) == data
    assert data[0]["name"] == "Dee" and data[0]["rank"] == 1 and data[0]["points"] == 2.5
    assert set(data[0]) == {*CSV_HEADER, "entrant"}
    assert [Standing(**line) for line in data] == table


# --- properties ----------------------------------------------------------------------------


@st.composite
def _tournaments(draw: st.DrawFn) -> tuple[int, list[GameResult]]:
    count = draw(st.integers(1, 7))
    results: list[GameResult] = []
    for _ in range(draw(st.integers(0, 25))):
        first = draw(st.integers(0, count - 1))
        if count == 1 or draw(st.integers(0, 9)) == 0:
            results.append(GameResult(first, BYE, first))
            continue
        second = (first + draw(st.integers(1, count - 1))) % count
        outcome = draw(st.sampled_from(["first", "second", "draw", "error"]))
        winner = {"first": first, "second": second}.get(outcome)
        results.append(GameResult(first, second, winner, error=outcome == "error"))
    return count, results


@settings(max_examples=80, deadline=None)
@given(_tournaments())
def test_standings_properties(tournament: tuple[int, list[GameResult]]) -> None:
    count, results = tournament
    table = standings([f"p{i}" for i in range(count)], results)
    assert sorted(line.entrant for line in table) == list(range(count))
    byes = sum(result.second == BYE for result in results)
    scored = sum(not result.error for result in results if result.second != BYE)
    assert sum(line.points for line in table) == scored + byes
    assert sum(line.played for line in table) == 2 * (len(results) - byes) + byes
    for line in table:
        assert line.played == line.wins + line.draws + line.losses + line.errors
        assert line.points == line.wins + line.draws / 2
    # Ranks: 1-based, standard competition ranking, points never rising down the table.
    assert table[0].rank == 1
    for position, (above, below) in enumerate(itertools.pairwise(table), start=2):
        assert below.rank in (above.rank, position)
        assert below.points <= above.points
    # The cross table mirrors itself.
    cells = cross_table(count, results)
    for i in range(count):
        for j in range(count):
            wins, draws, losses = cells[i][j].split("-") if cells[i][j] else ("", "", "")
            assert cells[j][i] == ("-".join((losses, draws, wins)) if cells[i][j] else "")
