"""Pente: the parser and the rules, without a browser (manual chapter V, "Pente").

Points are ``AA``..``SS``, column letter first, row ``A`` at the top; the centre is ``JJ``.
The two recorded games at the end come from the Pente.org game database, whose notation
(columns ``A``..``T`` without ``I``, row 1 at the bottom) :func:`from_pente_org` converts.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.interfaces.helpers import with_codes
from tournoyons_gui.interfaces.pente import interface
from tournoyons_gui.interfaces.pente.board import (
    EMPTY_TRAY,
    LETTERS,
    PenteView,
    build,
    player_to_move,
    point_name,
    read_gain,
    read_point,
)
from tournoyons_gui.interfaces.pente.rules import (
    PenteRules,
    captures,
    forbidden_points,
    rows_of_five,
)
from tournoyons_gui.interfaces.plugin import IllegalMove, Turn
from tournoyons_gui.interfaces.protocol import PAIR, Player, read_context

# --- helpers -------------------------------------------------------------------------------


def at(name: str) -> int:
    """Return the index of point ``name``; fail the test if it is not one."""
    index = read_point(name)
    assert index is not None, name
    return index


def tray_with(stones: Mapping[str, str], base: str = EMPTY_TRAY) -> str:
    """Return ``base`` with the points of ``stones`` (``{"JJ": "1"}``) set to their codes."""
    return with_codes(base, read_point, stones)


def view(params: Mapping[str, str]) -> PenteView:
    """Return the page's view model for these query parameters."""
    return build(read_context(urlencode(dict(params))))


def codes(params: Mapping[str, str]) -> set[str]:
    """Return the error codes of the page for these parameters."""
    return {error.code for error in view(params).errors}


def state(
    stones: Mapping[str, str], count: int = 10, gain1: int = 0, gain2: int = 0
) -> dict[str, Any]:
    """Return a game ``state`` for the rules: ``count`` even means player one to move."""
    return {
        "tray": tray_with(stones),
        "count": count,
        "gain1": gain1,
        "gain2": gain2,
        "over": False,
    }


def marked(tray: str, *wanted: str) -> list[str]:
    """Return the names of the points of ``tray`` holding one of the codes ``wanted``."""
    return [point_name(i) for i, code in enumerate(tray) if code in wanted]


# --- reading the Tray ---------------------------------------------------------------------


def test_points_are_named_column_first_row_a_at_the_top() -> None:
    assert point_name(0) == "AA"
    assert point_name(18) == "SA"
    assert point_name(19) == "AB"
    assert point_name(180) == "JJ"
    assert point_name(360) == "SS"
    assert [read_point(n) for n in ("AA", "SA", "AB", "JJ", "SS", "cH")] == [
        0,
        18,
        19,
        180,
        360,
        7 * 19 + 2,
    ]
    page = view({})
    assert [p.name for p in page.points] == [c + r for r in LETTERS for c in LETTERS]
    point = page.points[at("CH")]
    assert (point.column, point.row) == (2, 7)


@pytest.mark.parametrize("value", ["", "A", "JJJ", "TA", "AT", "A1", "11", "J-", "ÀA"])
def test_what_is_not_a_point(value: str) -> None:
    assert read_point(value) is None


@pytest.mark.parametrize(
    "query", [{}, {"Tray": "Init"}, {"Tray": "init"}, {"Tray": "INIT"}, {"Tray": EMPTY_TRAY}]
)
def test_init_and_absent_tray_are_the_empty_board(query: dict[str, str]) -> None:
    page = view({**query, "Input": "One"})
    assert page.errors == ()
    assert page.tray == EMPTY_TRAY
    assert len(page.points) == 361
    assert len(page.playable) == 361
    assert page.player is Player.ONE
    assert page.gains == (0, 0)
    assert page.sound is None


def test_every_code_is_drawn_as_the_tray_says_once_impacts_are_shown() -> None:
    tray = tray_with(
        {"AA": "1", "BA": "2", "CA": "3", "DA": "4", "EA": "5", "FA": "6", "GA": "9", "SS": "1"}
    )
    page = view({"Tray": tray, "Input": "Two"})
    assert page.errors == ()
    states = {p.name: p.state for p in page.points if p.state != "0" or p.before}
    # Captured stones (5/6) end as empty points; everything else as sent.
    assert states == {
        "AA": "1",
        "BA": "2",
        "CA": "3",
        "DA": "4",
        "EA": "0",
        "FA": "0",
        "GA": "9",
        "SS": "1",
    }
    assert page.tray == tray.replace("5", "0").replace("6", "0")


def test_captured_stones_are_shown_then_removed_after_wait() -> None:
    tray = tray_with({"JJ": "1", "KK": "6", "LL": "6", "MM": "1"})
    page = view({"Tray": tray, "Move1": "MM", "Gain1": "1"})
    kk, ll = page.points[at("KK")], page.points[at("LL")]
    for point in (kk, ll):
        assert (point.state, point.before, point.captured) == ("0", "2", Player.TWO)
    # Removed even without a Move: the 5/6 codes are the impact to show.
    alone = view({"Tray": tray_with({"CC": "5", "DD": "5"})}).points[at("CC")]
    assert (alone.state, alone.before, alone.captured) == ("0", "1", Player.ONE)
    # Other points wait for nothing.
    assert page.points[at("JJ")].before is None
    assert page.points[at("MM")].before is None


def test_winning_stones_wait_after_the_move_that_made_them() -> None:
    row = {name + "J": "3" for name in "FGHIJ"}
    moved = view({"Tray": tray_with({**row, "KK": "2"}), "Move1": "JJ", "Method": "End"})
    winning = [p for p in moved.points if p.state == "3"]
    assert [p.name for p in winning] == ["FJ", "GJ", "HJ", "IJ", "JJ"]
    assert {p.before for p in winning} == {"1"}
    assert moved.winner is Player.ONE
    assert moved.sound == "win"
    # Without a Move they are shown at once.
    still = view({"Tray": tray_with(row), "Method": "End"})
    assert all(p.before is None for p in still.points)
    assert still.winner is Player.ONE


@pytest.mark.parametrize(
    "tray",
    [
        "0" * 360,
        "0" * 362,
        "0" * 9,
        "0" * 360 + "7",
        "0" * 360 + "8",
        "x" * 361,
        "0" * 180 + " " + "0" * 180,
        "1" * 100,
        "O" * 361,
        "0" * 722,
    ],
)
def test_unreadable_tray_is_an_empty_board_with_nothing_playable(tray: str) -> None:
    page = view({"Tray": tray, "Input": "One", "Move1": "JJ"})
    assert "tray" in {e.code for e in page.errors}
    assert page.playable == ()
    assert page.player is None
    assert len(page.points) == 361


# --- Move1/Move2 and Gain1/Gain2 ----------------------------------------------------------


def test_a_move_puts_its_stone_on_an_empty_point_and_is_marked_last() -> None:
    page = view({"Tray": tray_with({"JJ": "1"}), "Move2": "KK"})
    assert page.points[at("KK")].state == "2"
    assert page.points[at("KK")].last_move is Player.TWO
    assert [(player, point.name) for player, point in page.last_moves] == [(Player.TWO, "KK")]
    assert page.sound == "move"


def test_moves_already_in_the_tray_are_marked_last_in_any_case() -> None:
    page = view({"Tray": tray_with({"JJ": "1", "KK": "2"}), "Move1": "jj", "Move2": "KK"})
    assert page.errors == ()
    assert page.points[at("JJ")].last_move is Player.ONE
    assert page.points[at("KK")].last_move is Player.TWO
    assert page.tray == tray_with({"JJ": "1", "KK": "2"})


def test_a_last_move_whose_stone_was_just_captured() -> None:
    # Two's LJ took one's KJ-JJ, one's last stone among them: both Moves drawn, KJ vanishes.
    tray = tray_with({"IJ": "2", "JJ": "5", "KJ": "5", "LJ": "2"})
    page = view({"Tray": tray, "Move1": "KJ", "Move2": "LJ", "Gain2": "1"})
    assert page.errors == ()
    kj = page.points[at("KJ")]
    assert (kj.state, kj.before, kj.last_move) == ("0", "1", Player.ONE)
    assert page.points[at("LJ")].last_move is Player.TWO


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ({"Move1": "TT"}, "move1"),
        ({"Move2": "A"}, "move2"),
        ({"Move1": "JJJ"}, "move1"),
        ({"Move2": "K10"}, "move2"),
        ({"Tray": tray_with({"JJ": "2"}), "Move1": "JJ"}, "move1"),
        ({"Tray": tray_with({"JJ": "3"}), "Move2": "JJ"}, "move2"),
        ({"Tray": tray_with({"JJ": "9"}), "Move1": "JJ"}, "move1"),
        ({"Tray": tray_with({"JJ": "6"}), "Move1": "JJ"}, "move1"),
    ],
)
def test_a_move_that_cannot_be_drawn_is_an_error(query: dict[str, str], code: str) -> None:
    page = view(query)
    assert {e.code for e in page.errors} == {code}
    assert page.last_moves == ()


@pytest.mark.parametrize(
    ("raw", "pairs"),
    [
        (None, 0),
        ("0", 0),
        ("3", 3),
        ("5", 5),
        ("6", None),
        ("-1", None),
        ("x", None),
        ("10", None),
        ("2.0", None),
        ("٣", None),
    ],
)
def test_gains_are_zero_to_five_pairs(raw: str | None, pairs: int | None) -> None:
    assert read_gain(raw) == pairs


def test_unreadable_gains_are_errors_drawn_as_nothing() -> None:
    page = view({"Gain1": "7", "Gain2": "two"})
    assert codes({"Gain1": "7", "Gain2": "two"}) == {"gain1", "gain2"}
    assert page.gains == (None, None)
    assert view({"Gain1": "2", "Gain2": "4"}).gains == (2, 4)


def test_five_pairs_win_the_game() -> None:
    page = view({"Tray": tray_with({"JJ": "1", "KK": "2"}), "Gain2": "5", "Input": "One"})
    assert page.winner is Player.TWO
    assert page.playable == ()
    assert page.sound == "win"


# --- input --------------------------------------------------------------------------------


def test_input_on_empty_points_never_on_forbidden_ones() -> None:
    tray = tray_with({"JJ": "1", "KK": "2", "IJ": "9", "KJ": "9", "AA": "5", "BB": "5"})
    page = view({"Tray": tray, "Input": "Two", "Gain2": "1"})
    assert page.player is Player.TWO
    assert len(page.playable) == 361 - 4
    for name in ("JJ", "KK", "IJ", "KJ"):
        assert name not in page.playable
    # The captured points are empty once the impacts are shown, so they may be played.
    assert "AA" in page.playable and "BB" in page.playable
    assert page.playable[:3] == ("AA", "BA", "CA")  # row-major, the keyboard's order


@pytest.mark.parametrize("method", ["End", "None"])
def test_no_input_at_the_end_or_between_games(method: str) -> None:
    page = view({"Tray": tray_with({"JJ": "1"}), "Input": "Two", "Method": method})
    assert page.playable == ()
    assert page.player is None


def test_no_input_on_a_won_board_even_in_standard() -> None:
    row = {name + "J": "4" for name in "FGHIJ"}
    assert view({"Tray": tray_with(row), "Input": "One"}).playable == ()


def test_player_to_move_counts_the_captured_stones() -> None:
    assert player_to_move(EMPTY_TRAY, 0, 0) is Player.ONE
    assert player_to_move(tray_with({"JJ": "1"}), 0, 0) is Player.TWO
    # One has 3 stones on the board and lost a pair (Gain2 = 1): 5 placed, two 4 placed.
    tray = tray_with({"AA": "1", "BB": "1", "CC": "1", "DD": "2", "EE": "2", "FF": "2", "GG": "2"})
    assert player_to_move(tray, 0, 1) is Player.TWO
    assert player_to_move(tray, 0, 0) is Player.ONE
    # Stones shown as captured are already in the gain.
    # One just took BB-CC with DD: 3 placed, two's 2 already count in Gain1.
    taken = tray_with({"AA": "1", "BB": "6", "CC": "6", "DD": "1", "SS": "1"})
    assert player_to_move(taken, 1, 0) is Player.TWO


def test_webtest_hands_input_to_the_player_to_move() -> None:
    assert view({"Tray": tray_with({"JJ": "1"}), "WebTest": "yes"}).player is Player.TWO
    assert view({"Tray": tray_with({"JJ": "1", "KK": "2"}), "WebTest": "yes"}).player is (
        Player.ONE
    )
    assert view({"Tray": tray_with({"JJ": "1"})}).player is None


def test_the_parser_never_raises() -> None:
    rng = random.Random(361)
    alphabet = "0123456789ASJjz%&= \u00e9"
    for _ in range(400):
        tray = "".join(
            rng.choice("012345699" if rng.random() < 0.7 else alphabet)
            for _ in range(rng.choice((0, 5, 360, 361, 361, 362)))
        )
        params = {
            "Tray": tray,
            "Move1": "".join(rng.choices(alphabet + LETTERS, k=2)),
            "Move2": "".join(rng.choices(LETTERS, k=rng.choice((1, 2, 3)))),
            "Gain1": rng.choice(("", "0", "5", "6", "x")),
            "Gain2": str(rng.randint(-1, 7)),
            "Input": rng.choice(("One", "Two", "")),
            "Method": rng.choice(("End", "x", "")),
        }
        page = view(params)
        assert len(page.points) == 361
        assert len(page.tray) == 361
        assert set(page.playable) <= {p.name for p in page.points if p.state == "0"}


def test_the_sample_is_a_readable_capture() -> None:
    page = view(interface.sample)
    assert page.errors == ()
    assert [p.name for p in page.points if p.captured] == ["KK", "LL"]
    assert page.gains == (1, 0)
    assert page.player is Player.TWO


# --- the rules: the opening -------------------------------------------------------------


def test_new_game_offers_only_the_centre() -> None:
    turn = PenteRules().new_game()
    assert turn.params["Input"] == "One"
    assert (turn.params["Count"], turn.params["Gain1"], turn.params["Gain2"]) == ("0", "0", "0")
    assert marked(turn.params["Tray"], "0") == ["JJ"]
    assert turn.params["Tray"].count("9") == 360
    assert view({**turn.params}).playable == ("JJ",)
    assert turn.over is False


@pytest.mark.parametrize("value", ["AA", "KK", "JK", "SS"])
def test_the_first_stone_must_be_on_the_centre(value: str) -> None:
    rules = PenteRules()
    with pytest.raises(IllegalMove, match="forbidden"):
        rules.play(rules.new_game().state, value)


def test_the_first_players_second_stone_is_three_points_from_the_centre() -> None:
    rules = PenteRules()
    first = rules.play(rules.new_game().state, "JJ")
    assert first.params == {
        "Tray": tray_with({"JJ": "1"}),
        "Move1": "JJ",
        "Gain1": "0",
        "Gain2": "0",
        "Count": "1",
        "Input": "Two",
    }
    second = rules.play(first.state, "KK")  # player two: anywhere
    forbidden = marked(second.params["Tray"], "9")
    # The 5x5 square around JJ, but the two stones.
    square = {c + r for c in "HIJKL" for r in "HIJKL"}
    assert set(forbidden) == square - {"JJ", "KK"}
    assert len(forbidden) == 23
    page = view(second.params)
    assert page.player is Player.ONE
    assert not set(forbidden) & set(page.playable)
    for near in ("LL", "HH", "JH", "LJ"):
        with pytest.raises(IllegalMove, match="forbidden"):
            rules.play(second.state, near)
    third = rules.play(second.state, "JM")  # three points below the centre: allowed
    assert "9" not in third.params["Tray"]
    # The rule holds for player one's second stone only.
    assert forbidden_points(third.state["tray"], 3) == set()
    fourth = rules.play(third.state, "IJ")
    assert fourth.params["Move2"] == "IJ"


# --- the rules: captures ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pair", "closing"),
    [
        (("KJ", "LJ"), "MJ"),  # east
        (("IJ", "HJ"), "GJ"),  # west
        (("JK", "JL"), "JM"),  # south
        (("JI", "JH"), "JG"),  # north
        (("KK", "LL"), "MM"),  # south-east
        (("II", "HH"), "GG"),  # north-west
        (("KI", "LH"), "MG"),  # north-east
        (("IK", "HL"), "GM"),  # south-west
    ],
)
def test_a_pair_is_captured_in_each_of_the_eight_directions(
    pair: tuple[str, str], closing: str
) -> None:
    # Player one (count even) plays JJ, flanking two's pair against its stone at `closing`.
    before = state({pair[0]: "2", pair[1]: "2", closing: "1", "AA": "2", "SS": "2"}, count=12)
    turn = PenteRules().play(before, "JJ")
    assert turn.state["tray"] == tray_with({closing: "1", "JJ": "1", "AA": "2", "SS": "2"})
    assert turn.state["gain1"] == 1
    assert turn.params["Gain1"] == "1" and turn.params["Gain2"] == "0"
    assert sorted(marked(turn.params["Tray"], "6")) == sorted(pair)
    assert turn.params["Move1"] == "JJ" and turn.params["Input"] == "Two"
    # The next page shows them, then removes them.
    page = view(turn.params)
    assert {p.name for p in page.points if p.captured is Player.TWO} == set(pair)
    assert all(page.points[at(n)].before == "2" for n in pair)


def test_player_two_captures_player_ones_pair() -> None:
    before = state({"JJ": "1", "JK": "1", "JI": "2", "AA": "1"}, count=11)
    turn = PenteRules().play(before, "JL")
    assert marked(turn.params["Tray"], "5") == ["JJ", "JK"]
    assert (turn.params["Gain1"], turn.params["Gain2"]) == ("0", "1")
    assert turn.params["Input"] == "One"


@pytest.mark.parametrize(
    "stones",
    [
        {"KJ": "2", "LJ": "2", "MJ": "2", "NJ": "1"},  # three stones: no capture
        {"KJ": "2", "LJ": "1"},  # one stone: no capture
        {"KJ": "2", "LJ": "2"},  # nothing beyond the pair
        {"KJ": "2", "LJ": "2", "MJ": "9"},
        {"KJ": "2", "MJ": "2", "NJ": "1"},  # a gap
    ],
)
def test_only_a_pair_of_exactly_two_is_captured(stones: dict[str, str]) -> None:
    clean = {k: v for k, v in stones.items() if v != "9"}
    turn = PenteRules().play(state(clean, count=10), "JJ")
    assert turn.state["gain1"] == 0
    assert not marked(turn.params["Tray"], "5", "6")


def test_moving_into_a_pincer_is_not_captured() -> None:
    # Player two puts a stone between its own and one's: 1 2 [2] 1 is safe.
    before = state({"GJ": "1", "HJ": "2", "JJ": "1", "AA": "1"}, count=11)
    turn = PenteRules().play(before, "IJ")
    assert turn.state["gain1"] == 0 and turn.state["gain2"] == 0
    assert turn.state["tray"][at("HJ")] == "2" and turn.state["tray"][at("IJ")] == "2"


def test_a_stone_captures_several_pairs_at_once() -> None:
    before = state(
        {"KJ": "2", "LJ": "2", "MJ": "1", "JK": "2", "JL": "2", "JM": "1", "IJ": "2", "HJ": "2"},
        count=10,
    )  # the west pair is open
    turn = PenteRules().play(before, "JJ")
    assert turn.params["Gain1"] == "2"
    assert sorted(marked(turn.params["Tray"], "6")) == ["JK", "JL", "KJ", "LJ"]
    placed = tray_with({"JJ": "1"}, before["tray"])
    assert sorted(captures(placed, at("JJ"), Player.ONE)) == sorted(
        [(at("JK"), at("JL"), at("JM")), (at("KJ"), at("LJ"), at("MJ"))]
    )


def walk(index: int, dx: int, dy: int) -> list[int]:
    """Return the points from ``index`` (left out) stepping ``dx``, ``dy`` to the edge."""
    row, column = divmod(index, 19)
    points = []
    while 0 <= (row := row + dy) < 19 and 0 <= (column := column + dx) < 19:
        points.append(row * 19 + column)
    return points


#: Boards of stones, sparse or dense, where rows and pincers are common.
BOARDS = st.sampled_from(["012", "0112", "0000012", "11112", "12"]).flatmap(
    lambda codes: st.text(codes, min_size=361, max_size=361)
)


@settings(max_examples=200, deadline=None)
@given(tray=BOARDS, index=st.integers(0, 360))
def test_rows_and_pincers_are_what_walking_the_board_finds(tray: str, index: int) -> None:
    lines = ((1, 0), (0, 1), (1, 1), (1, -1))
    won: set[int] = set()
    for dx, dy in lines:
        run = [index]
        for step in ((dx, dy), (-dx, -dy)):
            run += itertools.takewhile(lambda p: tray[p] == tray[index], walk(index, *step))
        if len(run) >= 5:
            won.update(run)
    assert rows_of_five(tray, index) == won
    directions = [d for dx, dy in lines for d in ((dx, dy), (-dx, -dy))]
    for player in PAIR:
        own, enemy = str(int(player)), str(3 - int(player))
        pincers = [tuple(path[:3]) for d in directions if len(path := walk(index, *d)) >= 3]
        assert captures(tray, index, player) == [
            (a, b, c) for a, b, c in pincers if (tray[a], tray[b], tray[c]) == (enemy, enemy, own)
        ]
    square = {p for p in range(361) if max(abs(p // 19 - 9), abs(p % 19 - 9)) < 3}
    assert forbidden_points(tray, 2) == {p for p in square if tray[p] == "0"}


def test_the_edge_of_the_board_closes_nothing() -> None:
    turn = PenteRules().play(state({"BA": "2", "CA": "2"}, count=10), "AA")
    assert turn.state["gain1"] == 0


# --- the rules: winning -------------------------------------------------------------------


def test_five_in_a_row_wins_and_marks_the_row() -> None:
    before = state(
        {"FJ": "1", "GJ": "1", "HJ": "1", "IJ": "1", "AA": "2", "BB": "2", "CC": "2", "DD": "2"},
        count=8,
    )
    turn = PenteRules().play(before, "JJ")
    assert turn.over is True
    assert turn.params["Method"] == "End"
    assert "Input" not in turn.params
    assert marked(turn.params["Tray"], "3") == ["FJ", "GJ", "HJ", "IJ", "JJ"]
    page = view(turn.params)
    assert page.winner is Player.ONE and page.playable == ()
    with pytest.raises(IllegalMove, match="over"):
        PenteRules().play(turn.state, "SS")


def test_a_diagonal_row_of_six_wins_for_player_two() -> None:
    stones = {
        "CC": "2",
        "DD": "2",
        "EE": "2",
        "GG": "2",
        "HH": "2",
        "AS": "1",
        "BS": "1",
        "CS": "1",
        "ES": "1",
        "GS": "1",
        "IS": "1",
    }
    turn = PenteRules().play(state(stones, count=11), "FF")
    assert marked(turn.params["Tray"], "4") == ["CC", "DD", "EE", "FF", "GG", "HH"]
    assert turn.params["Method"] == "End"
    assert rows_of_five(turn.state["tray"], at("FF")) == {
        at(n) for n in ("CC", "DD", "EE", "FF", "GG", "HH")
    }


def test_four_in_a_row_does_not_win() -> None:
    turn = PenteRules().play(state({"GJ": "1", "HJ": "1", "IJ": "1"}, count=10), "JJ")
    assert turn.over is False and "Method" not in turn.params


def test_a_fifth_captured_pair_wins() -> None:
    before = state({"KJ": "2", "LJ": "2", "MJ": "1", "AA": "2"}, count=20, gain1=4, gain2=2)
    turn = PenteRules().play(before, "JJ")
    assert turn.over is True
    assert turn.params["Method"] == "End"
    assert (turn.params["Gain1"], turn.params["Gain2"]) == ("5", "2")
    assert marked(turn.params["Tray"], "6") == ["KJ", "LJ"]
    # The winning pincer: the stone played and the one beyond the pair.
    assert marked(turn.params["Tray"], "3") == ["JJ", "MJ"]
    page = view(turn.params)
    assert page.winner is Player.ONE
    assert page.gains == (5, 2)


def test_a_double_capture_from_four_pairs_shows_five() -> None:
    before = state(
        {"KJ": "2", "LJ": "2", "MJ": "1", "IJ": "2", "HJ": "2", "GJ": "1"}, count=20, gain1=4
    )
    turn = PenteRules().play(before, "JJ")
    assert turn.params["Gain1"] == "5"
    assert read_gain(turn.params["Gain1"]) == 5


# --- the rules: refusals --------------------------------------------------------------------


@pytest.mark.parametrize("value", ["", "J", "JJJ", "TT", "jj", "10", "A1"])
def test_rules_refuse_what_is_not_a_point(value: str) -> None:
    with pytest.raises(IllegalMove, match="not a point"):
        PenteRules().play(state({"JJ": "1"}, count=1), value)


def test_rules_refuse_a_taken_point_and_a_corrupt_state() -> None:
    rules = PenteRules()
    with pytest.raises(IllegalMove, match="taken"):
        rules.play(state({"JJ": "1"}, count=1), "JJ")
    for broken in ({"tray": "junk"}, {"tray": "3" * 361}, {**state({}), "count": "x"}):
        with pytest.raises(IllegalMove, match="corrupt"):
            rules.play(broken, "AA")


# --- known games --------------------------------------------------------------------------

PENTE_ORG_COLUMNS = "ABCDEFGHJKLMNOPQRST"


def from_pente_org(record: str) -> list[str]:
    """Return the moves of a Pente.org record as our points (``K10`` is ``JJ``)."""
    moves = []
    for token in record.split():
        if token.endswith(".") or "-" in token:
            continue
        column = PENTE_ORG_COLUMNS.index(token[0])
        moves.append(LETTERS[column] + LETTERS[19 - int(token[1:])])
    return moves


def replay(moves: list[str]) -> list[Turn]:
    """Play ``moves`` from a new game; check each page is what the rules' state says."""
    rules = PenteRules()
    turns = [rules.new_game()]
    for number, value in enumerate(moves, start=1):
        previous = turns[-1]
        assert value in view(previous.params).playable, (number, value)
        turn = rules.play(previous.state, value)
        page = view(turn.params)
        assert page.errors == (), number
        assert turn.params["Count"] == str(number)
        player = "1" if number % 2 else "2"
        assert turn.params[f"Move{player}"] == value
        assert page.points[at(value)].last_move == int(player)
        # What the page shows once the captures are removed is the game's board.
        board = page.tray.replace("3", "1").replace("4", "2").replace("9", "0")
        assert board == turn.state["tray"], number
        turns.append(turn)
    return turns


# Pente.org, turn-based, 2014-01-19, xtraclassy (2488) - data22 (1696), 1-0.
XTRACLASSY_DATA22 = """1. K10 M9 2. N10 M7 3. M8 O7 4. L10 J10 5. M10 O10 6. L9 N7 7. L7 P7
8. Q7 L11 9. L8 L6 10. K8 J9 11. J11 H12 12. J8 N8 13. H8 1-0"""

# Pente.org, turn-based, 2016-04-08, batman (1390) - superman (1456), 0-1: the record
# stops after player two's L4, with no five and three pairs each: one gave up.
BATMAN_SUPERMAN = """1. K10 L10 2. K7 L6 3. L8 J6 4. M9 K6 5. N10 O11 6. M6 H6 7. G6 K8
8. J7 H7 9. H5 L7 10. L5 K7 11. K5 J5 12. G8 M5 13. K5 G7 14. F8 K4 15. L3 J7 16. H7 G5
17. L7 F9 18. L5 N7 19. J6 L4 0-1"""


def test_a_known_game_won_by_five_in_a_row() -> None:
    moves = from_pente_org(XTRACLASSY_DATA22)
    assert moves[:3] == ["JJ", "LK", "MJ"]
    turns = replay(moves)
    *play, last = turns[1:]
    assert not any(turn.over for turn in play)
    assert last.over is True and last.params["Method"] == "End"
    # The game's one capture: 12. J8 takes J9-J10 against J11 (our IL takes IK-IJ against II).
    captured = [
        (n, marked(t.params["Tray"], "5", "6"))
        for n, t in enumerate(turns)
        if marked(t.params["Tray"], "5", "6")
    ]
    assert captured == [(23, ["IJ", "IK"])]
    assert turns[23].params["Move1"] == "IL"
    assert (last.params["Gain1"], last.params["Gain2"]) == ("1", "0")
    # 13. H8: five in a row on row 8, H8 to M8 (our HL to LL).
    assert marked(last.params["Tray"], "3") == ["HL", "IL", "JL", "KL", "LL"]
    assert last.params["Move1"] == "HL"
    assert view(last.params).winner is Player.ONE


def test_a_known_game_with_captures_and_points_played_again() -> None:
    moves = from_pente_org(BATMAN_SUPERMAN)
    turns = replay(moves)
    gains = [(t.params["Gain1"], t.params["Gain2"]) for t in turns[1:]]
    # Who took which pair, move by move (Pente.org counts stones: 6-6 at the end).
    changes = [
        (n, gain)
        for n, (gain, before) in enumerate(
            zip(gains, [("0", "0"), *gains[:-1]], strict=True), start=1
        )
        if gain != before
    ]
    assert changes == [
        (18, ("0", "1")),
        (19, ("1", "1")),
        (23, ("2", "1")),
        (24, ("2", "2")),
        (33, ("3", "2")),
        (36, ("3", "3")),
    ]
    # K7, K5, L7 and L5 are each played twice: the first stone there was captured.
    for point in ("K7", "K5", "L7", "L5"):
        assert moves.count(from_pente_org(f"1. {point}")[0]) == 2
    assert turns[-1].over is False
    assert turns[-1].params["Input"] == "One"
