"""Rochambeau: the parser and the match rules, without a browser (manual chapter V)."""

from __future__ import annotations

import pytest

from tournoyons_gui.interfaces.plugin import IllegalMove, Turn
from tournoyons_gui.interfaces.protocol import Player, read_context
from tournoyons_gui.interfaces.rochambeau.game import (
    PAPER,
    ROCK,
    SCISSORS,
    beats,
    build,
    round_winner,
)
from tournoyons_gui.interfaces.rochambeau.rules import RochambeauRules


@pytest.mark.parametrize(("a", "b"), [(PAPER, ROCK), (ROCK, SCISSORS), (SCISSORS, PAPER)])
def test_what_beats_what(a: str, b: str) -> None:
    assert beats(a, b) and not beats(b, a)
    assert round_winner(a, b) is Player.ONE
    assert round_winner(b, a) is Player.TWO
    assert round_winner(a, a) is None


def test_both_hands_and_scores_are_read() -> None:
    view = build(read_context("Move1=2&Move2=1&Gain1=3&Gain2=4"))
    one, two = view.sides
    assert (one.hand, one.score, one.outcome) == ("2", 3, "win")
    assert (two.hand, two.score, two.outcome) == ("1", 4, "lose")
    assert view.errors == ()
    assert view.sound == "move"


def test_a_tie_and_a_single_hand() -> None:
    one, two = build(read_context("Move1=3&Move2=3")).sides
    assert one.outcome == two.outcome == "tie"
    one, two = build(read_context("Move1=3")).sides
    assert (one.hand, two.hand, one.outcome) == ("3", None, "")


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("Move1=4", "move1"),
        ("Move2=rock", "move2"),
        ("Gain1=6", "gain1"),
        ("Gain2=-1", "gain2"),
        ("Gain1=x", "gain1"),
    ],
)
def test_unreadable_values(query: str, code: str) -> None:
    assert {e.code for e in build(read_context(query)).errors} == {code}


def test_tray_is_not_used() -> None:
    assert build(read_context("Tray=whatever")).errors == ()


def test_input_offers_the_three_hands() -> None:
    view = build(read_context("Input=Two"))
    assert view.player is Player.TWO
    assert view.playable == ("1", "2", "3")


def test_no_input_once_the_match_is_won_or_ended() -> None:
    assert build(read_context("Input=One&Gain1=5")).playable == ()
    assert build(read_context("Input=One&Method=End")).playable == ()
    assert build(read_context("Input=One&Gain1=5")).winner is Player.ONE
    assert build(read_context("Gain1=5")).sound == "win"


def test_webtest_asks_player_one_then_two() -> None:
    assert build(read_context("WebTest=yes")).player is Player.ONE
    assert build(read_context("WebTest=yes&Move1=1")).player is Player.TWO


def play(rules: RochambeauRules, turn: Turn, *values: str) -> Turn:
    for value in values:
        turn = rules.play(turn.state, value)
    return turn


def test_player_two_is_not_shown_player_ones_hand() -> None:
    rules = RochambeauRules()
    turn = play(rules, rules.new_game(), PAPER)
    assert turn.params == {"Input": "Two", "Gain1": "0", "Gain2": "0", "Count": "0"}
    turn = play(rules, turn, ROCK)
    assert turn.params == {
        "Move1": PAPER,
        "Move2": ROCK,
        "Gain1": "1",
        "Gain2": "0",
        "Count": "1",
        "Input": "One",
    }


def test_a_tie_scores_nothing() -> None:
    rules = RochambeauRules()
    turn = play(rules, rules.new_game(), ROCK, ROCK)
    assert (turn.params["Gain1"], turn.params["Gain2"]) == ("0", "0")


def test_a_known_match_first_to_five() -> None:
    rules = RochambeauRules()
    turn = rules.new_game()
    # Player two wins two rounds, one tie, then player one wins five.
    rounds = [(ROCK, PAPER), (ROCK, PAPER), (SCISSORS, SCISSORS)] + [(PAPER, ROCK)] * 5
    for first, second in rounds:
        assert not turn.over
        turn = play(rules, turn, first, second)
    assert turn.over
    assert turn.params == {
        "Move1": PAPER,
        "Move2": ROCK,
        "Gain1": "5",
        "Gain2": "2",
        "Count": "8",
        "Method": "End",
    }
    with pytest.raises(IllegalMove):
        rules.play(turn.state, ROCK)


@pytest.mark.parametrize("value", ["0", "4", "", "rock", "12"])
def test_rules_refuse_what_is_not_a_hand(value: str) -> None:
    rules = RochambeauRules()
    with pytest.raises(IllegalMove):
        rules.play(rules.new_game().state, value)
