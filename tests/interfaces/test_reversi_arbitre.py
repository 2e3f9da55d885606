"""Reversi's engine view and built-in engines (engine protocol section 4, Reversi; decisions
14, 15, 22)."""

from __future__ import annotations

import pytest

from tests.interfaces import drive
from tests.interfaces.helpers import with_codes
from tournoyons_gui.interfaces import IllegalMove, Player, Turn
from tournoyons_gui.interfaces.reversi import interface
from tournoyons_gui.interfaces.reversi.board import INIT_TRAY, cell_index, counts
from tournoyons_gui.interfaces.reversi.engines import ENGINES

rules = drive.arbitre_rules(interface)

# The spec's explicit start: D4 and E5 white, D5 and E4 black.
START = "0000000000000000000000000004300000034000000000000000000000000000"

# Black on A1, white on B1, nothing else: black may take B1 with C1, white has no move.
WHITE_STUCK = "34" + "0" * 62


def tray_with(cells: dict[str, str]) -> str:
    return with_codes("0" * 64, cell_index, cells)


def check_requests(game: drive.Played, init_as_board: bool) -> None:
    """Check every request of a game against the spec (:func:`check_alternating_requests`)."""
    drive.check_alternating_requests(
        game, first=START if init_as_board else "Init", gains=False, alphabet="034"
    )


def test_the_explicit_start_is_the_spec_s() -> None:
    assert INIT_TRAY == START


def test_turn_one_gets_init_or_the_start_position() -> None:
    drive.check_first_request(rules, explicit=START)


def test_white_gets_blacks_move_and_the_settled_board_without_gains() -> None:
    state = drive.played(rules, "D3")
    drive.check_request(
        rules,
        state,
        Player.TWO,
        2,
        [
            ("Turn", "2"),
            ("Move1", "D3"),
            ("Tray", tray_with({"D3": "3", "D4": "3", "D5": "3", "E4": "3", "E5": "4"})),
        ],
    )
    state = dict(rules.play(state, "C3").state)
    assert dict(rules.request(state, Player.ONE).params)["Move2"] == "C3"
    assert "Move1" not in rules.request(state, Player.ONE).params


@pytest.mark.parametrize("value", ["", "A", "I1", "A9", "A0", "d3", "3D", "X", "PASS", "XXX"])
def test_values_outside_the_syntax_are_illegal(value: str) -> None:
    with pytest.raises(IllegalMove, match="not a cell"):
        rules.engine_value(rules.start().state, Player.ONE, value)


def test_taken_and_non_flipping_cells_are_illegal() -> None:
    start = rules.start().state
    with pytest.raises(IllegalMove, match="taken"):
        rules.engine_value(start, Player.ONE, "D4")
    with pytest.raises(IllegalMove, match="turns no disc"):
        rules.engine_value(start, Player.ONE, "A1")
    with pytest.raises(IllegalMove, match="turns no disc"):
        rules.person_value(start, Player.ONE, "E3")
    with pytest.raises(IllegalMove, match="not to move"):
        rules.engine_value(start, Player.TWO, "E3")
    assert [rules.engine_value(start, Player.ONE, v) for v in ("D3", "C4", "F5", "E6")] == [
        "D3",
        "C4",
        "F5",
        "E6",
    ]


def test_xx_is_illegal_with_a_legal_move() -> None:
    with pytest.raises(IllegalMove, match="XX is only for a player with no legal move"):
        rules.engine_value(rules.start().state, Player.ONE, "XX")


def test_a_player_without_a_move_is_asked_and_must_pass() -> None:
    state = {"tray": WHITE_STUCK, "player": 2, "count": 7, "move1": "A1"}
    assert rules.result(state) is None
    assert rules.asked(state) == (Player.TWO,)
    request = rules.request(state, Player.TWO)
    assert (request.move_id, dict(request.params)) == (
        8,
        {"Turn": "8", "Move1": "A1", "Tray": WHITE_STUCK},
    )
    assert ENGINES["random"](request.params) == ENGINES["greedy"](request.params) == "XX"
    with pytest.raises(IllegalMove, match="turns no disc"):
        rules.engine_value(state, Player.TWO, "C1")
    assert rules.engine_value(state, Player.TWO, "XX") == "XX"
    # The page asking white says "I pass"; the pass counts as a move (Turn 9 for black).
    asking = rules.page(
        Turn(state=state, params={"Tray": WHITE_STUCK, "Input": "Two"}), Player.TWO, asking=True
    )
    assert asking == {"Tray": WHITE_STUCK, "Legend": "I pass"}
    turn = rules.play(state, "XX")
    assert rules.asked(turn.state) == (Player.ONE,)
    request = rules.request(turn.state, Player.ONE)
    assert dict(request.params) == {"Turn": "9", "Move2": "XX", "Tray": WHITE_STUCK}
    assert ENGINES["greedy"](request.params) == "C1"
    page = rules.page(turn, None, asking=False)
    assert page["Legend"] == "White passes" and page["Move2"] == "XX" and "Input" not in page
    # Black takes B1: nobody can move any more, black wins 3-0.
    end = rules.play(turn.state, "C1")
    result = rules.result(end.state)
    assert end.over and result is not None
    assert (result.winner, result.reason) == (Player.ONE, "more discs 3-0")
    assert rules.asked(end.state) == ()
    assert dict(rules.final(end.state, Player.TWO)) == {
        "Turn": "9",
        "Move1": "C1",
        "Tray": "333" + "0" * 61,
    }
    assert dict(rules.final(end.state, Player.ONE)) == {
        "Turn": "9",
        "Move2": "XX",
        "Tray": "333" + "0" * 61,
    }
    with pytest.raises(IllegalMove, match="over"):
        rules.engine_value(end.state, Player.TWO, "XX")


def test_pages_hide_nothing_and_never_carry_input() -> None:
    turn = rules.play(rules.start().state, "D3")
    page = drive.check_pages_show_the_turn(rules, turn, Player.TWO)
    assert page["Move1"] == "D3" and "Legend" not in page


@pytest.mark.parametrize("engines", [("random", "random"), ("greedy", "greedy")])
def test_built_in_engines_play_legal_games_to_the_end(engines: tuple[str, str]) -> None:
    for game in drive.play_games(interface, engines, 10, check_requests):
        black, white = counts(game.turns[-1].state["tray"])
        assert game.result is not None
        assert game.result.winner is (
            None if black == white else Player.ONE if black > white else Player.TWO
        )


def test_greedy_beats_random() -> None:
    wins = drive.wins_against(interface, "greedy", "random", 10, check_requests)
    assert wins >= 7, f"greedy won only {wins} of 10 against random"
