"""BigTicTacToe's engine view and built-in engines (engine protocol section 4, BigTicTacToe;
decisions 14, 15, 21)."""

from __future__ import annotations

import itertools

import pytest

from tests.interfaces import drive
from tournoyons_gui.interfaces import PAIR, IllegalMove, Player
from tournoyons_gui.interfaces.bigtictactoe import interface

rules = drive.arbitre_rules(interface)

EMPTY = "0" * 100


def check_requests(game: drive.Played, init_as_board: bool) -> None:
    """Check every request of a game against the spec (:func:`check_alternating_requests`)."""
    drive.check_alternating_requests(game, first=EMPTY if init_as_board else "Init", gains=True)


def test_turn_one_gets_init_or_the_empty_board() -> None:
    drive.check_first_request(rules, explicit=EMPTY)


def test_second_player_gets_the_first_players_cell_and_empty_gains() -> None:
    tray = EMPTY[:44] + "1" + EMPTY[45:]
    drive.check_request(
        rules,
        drive.played(rules, "E4"),
        Player.TWO,
        2,
        [("Turn", "2"), ("Gain1", ""), ("Gain2", ""), ("Move1", "E4"), ("Tray", tray)],
        init_as_board=True,
    )


def test_each_player_gets_only_the_opponents_last_cell() -> None:
    state = drive.played(rules, "E4", "A0", "E5")
    request = rules.request(state, Player.TWO)
    assert request.params["Move1"] == "E5" and "Move2" not in request.params
    state = dict(rules.play(state, "B0").state)
    request = rules.request(state, Player.ONE)
    assert request.params["Move2"] == "B0" and "Move1" not in request.params
    assert request.params["Turn"] == "5"


def test_gains_carry_the_alignments() -> None:
    state = drive.played(rules, "A0", "A9", "B0", "B9", "C0", "C9", "D0", "D9", "E0")
    request = rules.request(state, Player.TWO)
    assert (request.params["Gain1"], request.params["Gain2"]) == ("A0E0", "")
    state = dict(rules.play(state, "E9").state)
    request = rules.request(state, Player.ONE)
    assert (request.params["Gain1"], request.params["Gain2"]) == ("A0E0", "A9E9")


@pytest.mark.parametrize("value", ["", "A", "K0", "A10", "a0", "0A", "XX", "A-1", "J 9"])
def test_values_outside_the_syntax_are_illegal(value: str) -> None:
    with pytest.raises(IllegalMove, match="not a cell"):
        rules.engine_value(rules.start().state, Player.ONE, value)
    with pytest.raises(IllegalMove, match="not a cell"):
        rules.person_value(rules.start().state, Player.ONE, value)


def test_an_occupied_cell_or_the_wrong_player_is_illegal() -> None:
    state = drive.played(rules, "E4")
    with pytest.raises(IllegalMove, match="taken"):
        rules.engine_value(state, Player.TWO, "E4")
    with pytest.raises(IllegalMove, match="not to move"):
        rules.engine_value(state, Player.ONE, "E5")
    assert rules.engine_value(state, Player.TWO, "J9") == "J9"


def test_pages_hide_nothing_and_never_carry_input() -> None:
    turn = rules.play(rules.start().state, "C5")
    page = drive.check_pages_show_the_turn(rules, turn, Player.TWO)
    assert page["Move1"] == "C5" and "Input" not in page
    assert "Input" not in rules.page(rules.start(), Player.ONE, asking=True)


def test_the_end_final_calls_and_result_agree_with_play() -> None:
    game = drive.play_out(interface, ("greedy", "random"))
    for turn in game.turns:
        assert (rules.result(turn.state) is not None) == turn.over
    last = game.turns[-1]
    assert last.over and last.params["Method"] == "End" and len(game.turns) == 101
    state = last.state
    assert rules.asked(state) == ()
    with pytest.raises(IllegalMove):
        rules.play(state, "A0")
    ones, twos = len(state["gain1"]) // 4, len(state["gain2"]) // 4
    result = game.result
    assert result is not None and result == rules.result(state)
    assert result.winner is (None if ones == twos else Player.ONE if ones > twos else Player.TWO)
    for player in PAIR:
        opponent = player.opponent
        final = rules.final(state, player)
        assert dict(final) == {
            "Turn": "100",
            "Gain1": state["gain1"],
            "Gain2": state["gain2"],
            f"Move{opponent}": state[f"move{opponent}"],
            "Tray": state["tray"],
        }
    assert state["move2"] == last.params["Move2"]  # player two fills the board


def test_a_full_board_with_equal_alignments_is_a_draw() -> None:
    state = {"tray": "12" * 50, "count": 100, "gain1": "", "gain2": ""}
    result = rules.result(state)
    assert result is not None and result.winner is None
    assert rules.asked(state) == ()


@pytest.mark.parametrize("engines", list(itertools.product(("random", "greedy"), repeat=2)))
def test_built_in_engines_play_legal_games_to_the_end(engines: tuple[str, str]) -> None:
    drive.check_engine_pair(
        interface, engines, check_requests, better="greedy", worse="random", at_least=8
    )
