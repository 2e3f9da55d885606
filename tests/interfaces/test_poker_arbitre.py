"""Poker's engine view and built-in engines (engine protocol section 4, Poker; decisions 19,
23, 24), levels 1 and 2."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.interfaces import drive
from tournoyons_gui.interfaces import IllegalMove, Player
from tournoyons_gui.interfaces.plugin import Turn
from tournoyons_gui.interfaces.poker import interface
from tournoyons_gui.interfaces.poker.board import build
from tournoyons_gui.interfaces.poker.engines import caller_engine, random_engine, strength_engine
from tournoyons_gui.interfaces.poker.rules import PokerRules, blinds
from tournoyons_gui.interfaces.poker.tray import HIDDEN, parse_tray
from tournoyons_gui.interfaces.protocol import read_context

rules = drive.arbitre_rules(interface)
poker = PokerRules()

# Player one's two cards, player two's two, the board's five: one's flush beats two's straight.
FLUSH_VS_STRAIGHT = ["H2", "H9", "S5", "S6", "H4", "HK", "H7", "D8", "CJ"]


def start(level: int = 1) -> Turn:
    return poker.start(level, decks=[FLUSH_VS_STRAIGHT])


def play(turn: Turn, *values: str) -> Turn:
    for value in values:
        turn = rules.play(turn.state, value)
    return turn


def request(turn: Turn, player: Player) -> tuple[int, dict[str, str]]:
    sent = rules.request(turn.state, player)
    return sent.move_id, dict(sent.params)


def showdown() -> Turn:
    """Deal 1 played to step 9 with checks and one raise: totals 5-5, one's flush wins."""
    return play(start(), "2", "2", "2", "5", "5", "5", "5", "5", "5")


def page_ok(params: Mapping[str, str]) -> bool:
    return "Input" not in params and build(read_context(urlencode(params))).errors == ()


def test_the_set_plays_both_levels_with_its_engines() -> None:
    assert rules.engine_set == "Poker" and rules.levels == (1, 2)
    assert set(interface.engines) == {"random", "caller", "strength"}
    with pytest.raises(IllegalMove):
        poker.start(3)


def test_requests_count_moveid_carry_the_last_bet_and_hide_the_other_hand() -> None:
    turn = start()
    assert rules.asked(turn.state) == (Player.ONE,)
    assert request(turn, Player.ONE) == (1, {"Tray": "01001H2H9????M1-2"})
    # June rules: the dealer may call the big blind; no Turn, Gains once a value is applied.
    assert rules.engine_value(turn.state, Player.ONE, "2") == "2"
    turn = play(turn, "2")
    assert request(turn, Player.TWO) == (
        2,
        {"Gain1": "0", "Gain2": "0", "Move1": "2", "Tray": "01002????S5S6M2-?2"},
    )
    turn = play(turn, "2")  # two checks: the flop, two opens
    assert request(turn, Player.TWO) == (
        3,
        {"Gain1": "0", "Gain2": "0", "Move1": "2", "Tray": "01003????S5S6H4HKH7M2-2"},
    )
    turn = play(turn, "2")  # a round opened with a check
    assert request(turn, Player.ONE) == (
        4,
        {"Gain1": "0", "Gain2": "0", "Move2": "2", "Tray": "01004H2H9????H4HKH7M?2-2"},
    )
    turn = play(turn, "5")  # one raises: back to two, who must answer
    assert request(turn, Player.TWO)[1]["Tray"] == "01003????S5S6H4HKH7M5-?2"
    assert request(turn, Player.TWO)[1]["Move1"] == "5"
    turn = play(turn, "5")  # the call: the turn card, only this round's totals
    assert request(turn, Player.TWO)[1]["Tray"] == "01005????S5S6H4HKH7D8M5-5"


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("4", "too low"),
        ("101", "too high"),
        ("-1", "not a total"),
        ("05", "not a total"),
        ("5.5", "not a total"),
        ("", "not a total"),
        ("X", "not a total"),
    ],
)
def test_illegal_totals(value: str, reason: str) -> None:
    turn = play(start(), "2", "2", "2", "5")  # two answers one's 5
    with pytest.raises(IllegalMove, match=reason):
        rules.engine_value(turn.state, Player.TWO, value)


def test_legal_totals_and_whose_turn_it_is() -> None:
    turn = play(start(), "2", "2", "2", "5")
    assert [rules.engine_value(turn.state, Player.TWO, v) for v in ("0", "5", "6", "100")] == [
        "0",
        "5",
        "6",
        "100",
    ]
    with pytest.raises(IllegalMove, match="not asked"):
        rules.engine_value(turn.state, Player.ONE, "5")
    assert rules.person_value(turn.state, Player.TWO, "-1") == "0"  # a person's fold
    assert rules.person_value(turn.state, Player.TWO, " 7 ") == "7"


def test_step_nine_asks_both_and_moves_on_after_both_acknowledgements() -> None:
    turn = showdown()
    assert rules.asked(turn.state) == (Player.ONE, Player.TWO)
    one, two = request(turn, Player.ONE), request(turn, Player.TWO)
    assert one == (
        10,
        {"Gain1": "5", "Gain2": "-5", "Move2": "5", "Tray": "01009H2H9S5S6H4HKH7D8CJM5-5"},
    )
    assert two[0] == 11 and two[1]["Tray"] == one[1]["Tray"] and two[1]["Move1"] == "5"
    assert rules.engine_value(turn.state, Player.TWO, "WHATEVER") == "0"  # Value ignored
    assert rules.person_value(turn.state, Player.ONE, "0") == "0"
    with pytest.raises(IllegalMove, match="acknowledge"):
        rules.person_value(turn.state, Player.ONE, "5")
    turn = play(turn, "0")  # one's acknowledgement: still step 9, two to acknowledge
    assert rules.asked(turn.state) == (Player.TWO,)
    assert request(turn, Player.TWO) == two
    turn = play(turn, "0")  # deal 2: two deals and bets first
    assert rules.asked(turn.state) == (Player.TWO,)
    move_id, params = request(turn, Player.TWO)
    assert move_id == 12 and params["Tray"].startswith("02011????")
    assert params["Tray"].endswith("M2-1") and "Move1" not in params
    assert parse_tray(params["Tray"]).hand(Player.TWO)[0] != HIDDEN
    # The tester's hot-seat game keeps its one acknowledgement.
    hot = PokerRules(seed=1).new_game()
    hot = play(hot, "3", "-1")
    assert parse_tray(rules.play(hot.state, "0").params["Tray"]).deal == 2


def test_a_fold_hides_both_hands_and_gives_the_pot() -> None:
    turn = play(start(), "5", "0")
    assert rules.asked(turn.state) == (Player.ONE, Player.TWO)
    assert request(turn, Player.ONE) == (
        3,
        {"Gain1": "2", "Gain2": "-2", "Move2": "0", "Tray": "01009????????M5-0"},
    )


def test_final_call_and_result_after_twelve_completed_deals() -> None:
    turn = start()
    for deal in range(1, 13):
        turn = play(turn, "100", "100")
        if deal < 12:
            turn = play(turn, "0", "0")
    assert turn.over and rules.asked(turn.state) == ()
    result = rules.result(turn.state)
    gains = int(turn.state["gains"][0])
    assert result is not None and result.winner is (
        None if gains == 0 else Player.ONE if gains > 0 else Player.TWO
    )
    final = rules.final(turn.state, Player.ONE)
    assert list(final) == ["Gain1", "Gain2", "Move2", "Tray"] and final["Move2"] == "100"
    assert final["Gain1"] == str(gains) and final["Gain2"] == str(-gains)
    tray = parse_tray(final["Tray"])
    assert (tray.deal, tray.step) == (12, 9) and HIDDEN not in tray.hole
    with pytest.raises(IllegalMove, match="over"):
        rules.engine_value(turn.state, Player.ONE, "0")


def test_pages_hide_hole_cards_from_the_other_player_and_spectators() -> None:
    turn = start()
    one = rules.page(turn, Player.ONE, asking=True)
    assert one == {
        "Tray": "01001H2H9????M1-2",
        "Gain1": "0",
        "Gain2": "0",
        "Count": "1",
        "Method": "Standard",
    }
    assert rules.page(turn, Player.TWO, asking=False)["Tray"] == "01001????S5S6M1-2"
    assert rules.page(turn, None, asking=False)["Tray"] == "01001????????M1-2"
    assert rules.page(turn, None, asking=False, reveal=True)["Tray"] == "01001H2H9S5S6M1-2"
    turn = play(turn, "4")
    two = rules.page(turn, Player.TWO, asking=True)
    assert two["Tray"] == "01002????S5S6M4-?2" and two["Move1"] == "4"
    shown = rules.page(showdown(), None, asking=False)  # a showdown is public
    assert shown["Tray"] == "01009H2H9S5S6H4HKH7D8CJM5-5" and shown["Method"] == "Standard"
    assert all(page_ok(page) for page in (one, two, shown))


def test_the_end_page_shows_the_last_deal() -> None:
    state = dict(showdown().state, deal=12, completed=12)
    end = rules.page(Turn(state=state, params={}), None, asking=False)
    assert end["Method"] == "End" and end["Tray"] == "12119H2H9S5S6H4HKH7D8CJM5-5"
    assert page_ok(end)


# --- level 2 ------------------------------------------------------------------------------


def test_level_two_capitals_blinds_and_limits() -> None:
    assert [blinds(2, deal) for deal in (1, 8, 9, 16, 17, 99)] == [
        (1, 2),
        (1, 2),
        (3, 6),
        (3, 6),
        (5, 10),
        (25, 50),
    ]
    turn = start(2)
    assert request(turn, Player.ONE) == (1, {"Tray": "01001H2H9????M1-2"})
    assert request(play(turn, "2"), Player.TWO)[1]["Gain1"] == "200"
    # Deal 9: small blind 3, a raise is by 3 at least.
    state: dict[str, Any] = dict(turn.state, deal=9, totals=[3, 6])
    assert [rules.engine_value(state, Player.ONE, v) for v in ("0", "6", "9", "100")] == [
        "0",
        "6",
        "9",
        "100",
    ]
    for value in ("7", "8", "5"):
        with pytest.raises(IllegalMove, match="too low"):
            rules.engine_value(state, Player.ONE, value)
    poorer = dict(state, gains=[230, 50])  # at most the smaller capital
    assert rules.engine_value(poorer, Player.ONE, "50") == "50"
    with pytest.raises(IllegalMove, match="too high"):
        rules.engine_value(poorer, Player.ONE, "51")


def test_level_two_deals_raise_the_blinds_and_end_below_the_big_blind() -> None:
    turn = start(2)
    step9 = dict(turn.state, deal=8, step=9, totals=[5, 5], shown=5, completed=3, acks=1)
    nine = rules.play(step9, "0")
    assert nine.params["Tray"].startswith("09031") and nine.params["Tray"].endswith("M3-6")
    assert rules.result(dict(step9, gains=[6, 394])) is None
    result = rules.result(dict(step9, gains=[5, 395]))  # below deal 9's big blind, 6
    assert result is not None and result.winner is Player.TWO
    assert rules.asked(dict(step9, gains=[5, 395])) == ()
    assert rules.result(dict(step9, completed=14)) is None
    fifteen = rules.result(dict(step9, completed=15))
    assert fifteen is not None and fifteen.winner is None


# --- engines ------------------------------------------------------------------------------


def test_engines_answer_legal_totals() -> None:
    opening = {"Level": "1", "Tray": "01003????S5S6H4HKH7M2-2"}
    answers = {random_engine(opening) for _ in range(300)}
    assert "0" not in answers and "2" in answers and answers <= {str(t) for t in range(2, 14)}
    facing = {"Level": "1", "Tray": "01003????S5S6H4HKH7M5-?2"}
    answers = {random_engine(facing) for _ in range(400)}
    assert {"0", "5"} <= answers and answers - {"0", "5"}
    assert answers <= {"0", *(str(t) for t in range(5, 17))}
    level2 = {"Level": "2", "Gain1": "200", "Gain2": "20", "Tray": "09001H2H9????M3-6"}
    assert caller_engine(level2) == "6"
    answers = {random_engine(level2) for _ in range(300)}
    assert answers <= {"0", "6", *(str(t) for t in range(9, 21))}
    assert strength_engine(level2) in {"0", "6", *(str(t) for t in range(9, 21))}
    for engine in (random_engine, caller_engine, strength_engine):
        assert engine({"Tray": "01009H2H9S5S6H4HKH7D8CJM5-5"}) == "0"  # acknowledge


@pytest.mark.parametrize("level", [1, 2])
def test_every_pair_of_engines_plays_legal_games_to_the_end(level: int) -> None:
    names = list(interface.engines)
    for first in names:
        for second in names:
            played = drive.play_out(interface, (first, second), level=level)
            assert played.result is not None and played.turns[-1].over
            check_requests(played.requests, level)


def check_requests(requests: list[tuple[Player, dict[str, str]]], level: int) -> None:
    assert [int(p["MoveId"]) for _, p in requests] == list(range(1, len(requests) + 1))
    for player, params in requests:
        assert "Turn" not in params and params["Level"] == str(level)
        tray = parse_tray(params["Tray"])
        if tray.step < 9:
            assert tray.bettor is player and tray.waiting in (None, player)
            assert HIDDEN not in tray.hand(player)
            assert tray.hand(player.opponent) == (HIDDEN, HIDDEN)
        else:
            assert tray.waiting is None
            assert (HIDDEN in tray.hole) == (tray.folded is not None)
        if "Gain1" in params and level == 1:
            assert int(params["Gain1"]) + int(params["Gain2"]) == 0
        if "Gain1" in params and level == 2:
            assert int(params["Gain1"]) + int(params["Gain2"]) == 400


def test_strength_wins_chips_from_caller() -> None:
    chips = 0
    for game in range(12):
        seats = ("strength", "caller") if game % 2 else ("caller", "strength")
        played = drive.play_out(interface, seats)
        gains = played.turns[-1].state["gains"]
        me = seats.index("strength")
        chips += gains[me] - gains[1 - me]
    assert chips > 0
