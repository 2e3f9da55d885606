"""Pente's engine view and built-in engines (engine protocol section 4, Pente; decisions 14,
15, 20)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import pytest

from tests.interfaces import drive
from tests.interfaces.helpers import with_codes
from tournoyons_gui.interfaces import IllegalMove, Player
from tournoyons_gui.interfaces.pente import SAMPLE_MOVES, interface
from tournoyons_gui.interfaces.pente.board import EMPTY_TRAY, read_point

rules = drive.arbitre_rules(interface)


def at(name: str) -> int:
    index = read_point(name)
    assert index is not None, name
    return index


def tray_with(stones: Mapping[str, str]) -> str:
    return with_codes(EMPTY_TRAY, read_point, stones)


def check_requests(game: drive.Played, init_as_board: bool) -> None:
    """Check every request of a game against the spec (:func:`check_alternating_requests`)."""
    drive.check_alternating_requests(
        game, first=EMPTY_TRAY if init_as_board else "Init", gains=True, alphabet="012"
    )


def test_turn_one_gets_init_or_the_empty_board() -> None:
    drive.check_first_request(rules, explicit=EMPTY_TRAY)


def test_second_player_gets_the_centre_and_gains_of_zero() -> None:
    drive.check_request(
        rules,
        drive.played(rules, "JJ"),
        Player.TWO,
        2,
        [
            ("Turn", "2"),
            ("Gain1", "0"),
            ("Gain2", "0"),
            ("Move1", "JJ"),
            ("Tray", tray_with({"JJ": "1"})),
        ],
    )


def test_a_capture_is_counted_in_gain_and_removed_from_the_engines_tray() -> None:
    state = drive.played(rules, *SAMPLE_MOVES)  # MM takes the pair KK-LL
    drive.check_request(
        rules,
        state,
        Player.TWO,
        6,
        [
            ("Turn", "6"),
            ("Gain1", "1"),
            ("Gain2", "0"),
            ("Move1", "MM"),
            ("Tray", tray_with({"JJ": "1", "MP": "1", "MM": "1"})),
        ],
    )
    page = rules.page(rules.play(drive.played(rules, *SAMPLE_MOVES[:-1]), "MM"), None, asking=False)
    assert page["Tray"][at("KK")] == "6" and page["Tray"][at("LL")] == "6"
    state = dict(rules.play(state, "AA").state)
    assert rules.request(state, Player.ONE).params["Move2"] == "AA"


@pytest.mark.parametrize("value", ["", "J", "JJJ", "TT", "jj", "JT", "10", "A1", "XX"])
def test_values_outside_the_syntax_are_illegal(value: str) -> None:
    with pytest.raises(IllegalMove, match="not a point"):
        rules.engine_value(drive.played(rules, "JJ"), Player.TWO, value)


def test_the_first_stone_is_on_the_centre() -> None:
    with pytest.raises(IllegalMove, match="forbidden: the first stone is on JJ"):
        rules.engine_value(rules.start().state, Player.ONE, "AA")
    assert rules.engine_value(rules.start().state, Player.ONE, "JJ") == "JJ"


def test_the_second_stone_of_player_one_is_outside_the_centre_square() -> None:
    state = drive.played(rules, "JJ", "KK")
    for near in ("HH", "LL", "JL", "IK"):
        with pytest.raises(IllegalMove, match="second stone"):
            rules.engine_value(state, Player.ONE, near)
        with pytest.raises(IllegalMove, match="second stone"):
            rules.person_value(state, Player.ONE, near)
    assert rules.engine_value(state, Player.ONE, "JM") == "JM"
    assert rules.engine_value(state, Player.ONE, "GG") == "GG"
    # Player two's stones are never restricted.
    assert rules.engine_value(drive.played(rules, "JJ"), Player.TWO, "JK") == "JK"


def test_an_occupied_point_or_the_wrong_player_is_illegal() -> None:
    state = drive.played(rules, "JJ", "KK")
    with pytest.raises(IllegalMove, match="taken"):
        rules.engine_value(state, Player.ONE, "KK")
    with pytest.raises(IllegalMove, match="not to move"):
        rules.engine_value(state, Player.TWO, "AA")


def test_pages_hide_nothing_and_never_carry_input() -> None:
    turn = rules.play(drive.played(rules, "JJ"), "KK")
    page = drive.check_pages_show_the_turn(rules, turn, Player.ONE)
    assert page["Move2"] == "KK" and page["Tray"][at("JK")] == "9"  # forbidden point shown


# One wins by five in row A; two plays in column S without making five.
FIVE_IN_A_ROW = ("JJ", "SS", "AA", "SR", "BA", "SQ", "CA", "SP", "DA", "AS", "EA")


def test_five_in_a_row_ends_the_game_final_calls_and_result() -> None:
    turns = [rules.start()]
    for value in FIVE_IN_A_ROW:
        assert rules.result(turns[-1].state) is None
        assert rules.asked(turns[-1].state)
        turns.append(rules.play(turns[-1].state, value))
    last = turns[-1]
    assert last.over and last.params["Method"] == "End"
    state = last.state
    result = rules.result(state)
    assert result is not None and (result.winner, result.reason) == (Player.ONE, "five in a row")
    assert rules.asked(state) == ()
    assert dict(rules.final(state, Player.TWO)) == {
        "Turn": "11",
        "Gain1": "0",
        "Gain2": "0",
        "Move1": "EA",
        "Tray": state["tray"],
    }
    assert rules.final(state, Player.ONE)["Move2"] == "AS"
    assert not set(state["tray"]) - set("012")  # the engines' final Tray: no page codes


def test_a_fifth_pair_wins() -> None:
    before = {
        "tray": tray_with({"KJ": "2", "LJ": "2", "MJ": "1", "AA": "2"}),
        "count": 20,
        "gain1": 4,
        "gain2": 2,
        "over": False,
    }
    assert rules.asked(before) == (Player.ONE,)
    turn = rules.play(before, "JJ")
    result = rules.result(turn.state)
    assert turn.over and result is not None
    assert (result.winner, result.reason) == (Player.ONE, "5 pairs captured")
    assert rules.final(turn.state, Player.TWO)["Gain1"] == "5"


def test_a_full_board_is_a_draw() -> None:
    # Diagonal stripes three wide: no five anywhere, and AA, the last point, takes nothing.
    full = "".join(
        "1" if (column + 2 * row) % 6 < 3 else "2" for row in range(19) for column in range(19)
    )
    state = {"tray": "0" + full[1:], "count": 360, "gain1": 0, "gain2": 0, "over": False}
    turn = rules.play(state, "AA")
    assert turn.state["tray"] == full
    result = rules.result(turn.state)
    assert (
        turn.over and result is not None and (result.winner, result.reason) == (None, "full board")
    )
    assert rules.asked(turn.state) == ()


@pytest.mark.parametrize("engines", list(itertools.product(("random", "greedy"), repeat=2)))
def test_built_in_engines_play_legal_games_to_the_end(engines: tuple[str, str]) -> None:
    drive.check_engine_pair(
        interface, engines, check_requests, better="greedy", worse="random", at_least=8
    )
