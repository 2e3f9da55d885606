"""Rochambeau's engine view and built-in engines (engine protocol section 4, Rochambeau;
decision 16: simultaneous rounds)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import pytest

from tests.interfaces import drive
from tournoyons_gui.interfaces import PAIR, ArbitreRules, IllegalMove, Player, Turn
from tournoyons_gui.interfaces.rochambeau import interface
from tournoyons_gui.interfaces.rochambeau.engines import BEATEN_BY
from tournoyons_gui.interfaces.rochambeau.game import PAPER, ROCK, SCISSORS
from tournoyons_gui.interfaces.rochambeau.rules import MAX_ROUNDS, RochambeauRules

rules = drive.arbitre_rules(interface)
_TYPED: ArbitreRules = RochambeauRules()  # mypy checks the protocol


def play(state: Mapping[str, Any], *rounds: tuple[str, str]) -> Turn:
    """Play whole rounds from ``state``, as the Arbitre does: player one's hand, then two's."""
    turn = Turn(state=state, params={})
    for first, second in rounds:
        turn = rules.play(turn.state, first)
        turn = rules.play(turn.state, second)
    return turn


def test_round_one_asks_both_at_once_with_turns_one_and_two() -> None:
    state = rules.start().state
    assert rules.asked(state) == (Player.ONE, Player.TWO)
    one, two = (rules.request(state, player) for player in (Player.ONE, Player.TWO))
    assert (one.move_id, dict(one.params)) == (1, {"Turn": "1"})
    assert (two.move_id, dict(two.params)) == (2, {"Turn": "2"})


def test_later_rounds_send_the_scores_before_the_round_and_the_opponents_hand() -> None:
    # Round 1: paper beats rock (1-0); round 2: equal (1-0); round 3 is asked.
    state = play(rules.start().state, (PAPER, ROCK), (SCISSORS, SCISSORS)).state
    assert rules.asked(state) == (Player.ONE, Player.TWO)
    one, two = rules.request(state, Player.ONE), rules.request(state, Player.TWO)
    assert one.move_id == 5 and list(one.params) == ["Turn", "Gain1", "Gain2", "Move2"]
    assert dict(one.params) == {"Turn": "5", "Gain1": "1", "Gain2": "0", "Move2": SCISSORS}
    assert two.move_id == 6
    assert dict(two.params) == {"Turn": "6", "Gain1": "1", "Gain2": "0", "Move1": SCISSORS}
    state = play(state, (ROCK, PAPER)).state
    assert dict(rules.request(state, Player.TWO).params) == {
        "Turn": "8",
        "Gain1": "1",
        "Gain2": "1",
        "Move1": ROCK,
    }
    assert "Tray" not in rules.request(state, Player.ONE, init_as_board=True).params


def test_both_values_are_checked_against_the_state_before_the_round() -> None:
    state = rules.start().state
    assert rules.engine_value(state, Player.ONE, ROCK) == ROCK
    assert rules.engine_value(state, Player.TWO, SCISSORS) == SCISSORS
    # Applied in player order: one's hand is pending, two's resolves the round.
    pending = rules.play(state, ROCK)
    assert rules.asked(pending.state) == (Player.TWO,)
    assert rules.result(pending.state) is None
    # Player two's request is the same from the pending state (one's hand is not in it).
    assert rules.request(pending.state, Player.TWO) == rules.request(state, Player.TWO)
    done = rules.play(pending.state, SCISSORS)
    assert dict(done.state) == {
        "score1": 1,
        "score2": 0,
        "rounds": 1,
        "pending": None,
        "hand1": ROCK,
        "hand2": SCISSORS,
    }


@pytest.mark.parametrize("value", ["0", "4", "", "12", "R", "ROCK", "01"])
def test_values_outside_the_syntax_are_illegal(value: str) -> None:
    for player in PAIR:
        with pytest.raises(IllegalMove, match="rock"):
            rules.engine_value(rules.start().state, player, value)
        with pytest.raises(IllegalMove):
            rules.person_value(rules.start().state, player, value)


def test_a_player_not_asked_is_refused() -> None:
    pending = rules.play(rules.start().state, PAPER).state
    with pytest.raises(IllegalMove, match="not asked"):
        rules.engine_value(pending, Player.ONE, ROCK)


def test_first_to_five_wins_and_the_final_call() -> None:
    turn = play(rules.start().state, (ROCK, PAPER), (ROCK, ROCK), *[(PAPER, ROCK)] * 4)
    assert not turn.over and rules.result(turn.state) is None
    turn = play(turn.state, (SCISSORS, PAPER))
    assert turn.over and turn.params["Method"] == "End"
    result = rules.result(turn.state)
    assert result is not None and result.winner is Player.ONE and "5-1" in result.reason
    assert rules.asked(turn.state) == ()
    assert dict(rules.final(turn.state, Player.ONE)) == {
        "Turn": "14",
        "Gain1": "5",
        "Gain2": "1",
        "Move2": PAPER,
    }
    assert dict(rules.final(turn.state, Player.TWO)) == {
        "Turn": "14",
        "Gain1": "5",
        "Gain2": "1",
        "Move1": SCISSORS,
    }
    with pytest.raises(IllegalMove, match="over"):
        rules.engine_value(turn.state, Player.ONE, ROCK)


@pytest.mark.parametrize(
    ("last", "winner"),
    [((ROCK, ROCK), None), ((PAPER, ROCK), Player.ONE), ((ROCK, PAPER), Player.TWO)],
)
def test_after_99_rounds_the_higher_score_wins(
    last: tuple[str, str], winner: Player | None
) -> None:
    turn = play(rules.start().state, *[(ROCK, ROCK)] * (MAX_ROUNDS - 1))
    assert not turn.over and rules.asked(turn.state) == (Player.ONE, Player.TWO)
    assert rules.request(turn.state, Player.ONE).move_id == 2 * MAX_ROUNDS - 1
    turn = play(turn.state, last)
    assert turn.over and turn.params["Method"] == "End"
    result = rules.result(turn.state)
    assert result is not None and result.winner is winner and "99 rounds" in result.reason
    assert rules.asked(turn.state) == ()
    assert rules.final(turn.state, Player.TWO)["Turn"] == str(2 * MAX_ROUNDS)
    with pytest.raises(IllegalMove, match="over"):
        rules.play(turn.state, ROCK)


def test_pages_never_carry_input_and_hide_a_pending_hand() -> None:
    start = rules.start()
    for viewer in (Player.ONE, Player.TWO, None):
        page = rules.page(start, viewer, asking=viewer is not None)
        assert page == {"Gain1": "0", "Gain2": "0", "Count": "0"}
    pending = rules.play(play(start.state, (PAPER, ROCK)).state, SCISSORS)
    assert "Move1" not in rules.page(pending, Player.TWO, asking=True)
    assert "Move1" not in rules.page(pending, None, asking=False)
    assert rules.page(pending, Player.ONE, asking=False)["Move1"] == SCISSORS
    assert rules.page(pending, None, asking=False, reveal=True)["Move1"] == SCISSORS
    done = rules.play(pending.state, PAPER)
    page = rules.page(done, None, asking=False)
    assert page == {"Move1": SCISSORS, "Move2": PAPER, "Gain1": "2", "Gain2": "0", "Count": "2"}
    assert rules.page(done, Player.TWO, asking=True) == page


def rounds_of(turns: list[Turn]) -> list[tuple[str, str]]:
    """Return the hands of every round played, from the turns that resolved a round."""
    return [(t.params["Move1"], t.params["Move2"]) for t in turns if "Move2" in t.params]


@pytest.mark.parametrize(
    "engines",
    [("random", "random"), ("random", "counter"), ("counter", "random"), ("counter", "counter")],
)
def test_built_in_engines_play_whole_matches(engines: tuple[str, str]) -> None:
    for _ in range(10):
        played = drive.play_out(interface, engines)
        result = played.result
        assert result is not None
        end = played.turns[-1]
        assert end.over
        score = {p: int(end.params[f"Gain{p}"]) for p in PAIR}
        rounds = rounds_of(played.turns)
        assert max(score.values()) == 5 or len(rounds) == MAX_ROUNDS
        if result.winner is not None:
            assert score[result.winner] > score[result.winner.opponent]
        # Both players are asked each round: Turns 2r-1 and 2r, in pairs.
        assert len(played.requests) == 2 * len(rounds)
        for index, (player, params) in enumerate(played.requests):
            round_number = index // 2 + 1
            assert player is Player(index % 2 + 1)
            assert params["Turn"] == params["MoveId"] == str(2 * round_number - 2 + int(player))
            assert "Tray" not in params
            if round_number > 1:
                opponent = player.opponent
                assert params[f"Move{opponent}"] == rounds[round_number - 2][opponent - 1]
            else:
                assert "Gain1" not in params and "Move1" not in params
        # The counter engine's hand beats the opponent's previous hand, every round.
        for seat, name in enumerate(engines):
            if name == "counter":
                for previous, current in itertools.pairwise(rounds):
                    assert current[seat] == BEATEN_BY[previous[1 - seat]]
