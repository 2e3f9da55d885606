"""Poker: the Tray parser, the legal bets, the view model and the rules, without a browser.

Manual 002 chapter V "Poker", manual 000 (the ace written ``1``); spec section 4 (Poker).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournoyons_gui.interfaces.plugin import IllegalMove, Turn
from tournoyons_gui.interfaces.poker import interface
from tournoyons_gui.interfaces.poker import rules as poker_rules
from tournoyons_gui.interfaces.poker.board import build, read_gain, read_move
from tournoyons_gui.interfaces.poker.engines import random_engine
from tournoyons_gui.interfaces.poker.rules import DECK, PokerRules, deal_cards
from tournoyons_gui.interfaces.poker.tray import (
    Tray,
    TrayError,
    bet_range,
    hand_strength,
    high_hand,
    legal_values,
    parse_tray,
    pokerkit_card,
    verdict,
)
from tournoyons_gui.interfaces.protocol import Method, Player, read_context

REAL_PREFLOP = "01001????C3SKM1-2"
REAL_TURN = "15095????CTHJHKC6HQS6M10-10"


def view(query: str) -> Any:
    return build(read_context(query))


def codes(query: str) -> set[str]:
    return {error.code for error in view(query).errors}


def totals(low: int, high: int) -> tuple[str, ...]:
    return tuple(str(total) for total in range(low, high + 1))


# --- the Tray -------------------------------------------------------------------------


def test_the_real_preflop_tray() -> None:
    tray = parse_tray(REAL_PREFLOP)
    assert (tray.deal, tray.completed, tray.step) == (1, 0, 1)
    assert tray.hand(Player.ONE) == ("??", "??")
    assert tray.hand(Player.TWO) == ("C3", "SK")
    assert tray.board == ()
    assert tray.totals == (1, 2) and tray.waiting is None and tray.pot == 3
    assert tray.dealer is Player.ONE and tray.bettor is Player.ONE and not tray.answering
    assert tray.problems() == []
    assert tray.text() == REAL_PREFLOP


def test_the_real_turn_tray() -> None:
    tray = parse_tray(REAL_TURN)
    assert (tray.deal, tray.completed, tray.step) == (15, 9, 5)
    assert tray.hole == ("??", "??", "CT", "HJ")
    assert tray.board == ("HK", "C6", "HQ", "S6")
    assert tray.totals == (10, 10)
    # Deal 15 is odd: player one deals; step 5 is the other player's, opening the round.
    assert tray.dealer is Player.ONE and tray.bettor is Player.TWO and not tray.answering
    assert tray.problems() == []
    assert tray.text() == REAL_TURN


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("02001D1DKH2H3M2-1", (2, 0, 1, ("D1", "DK", "H2", "H3"), (), (2, 1), None)),
        ("01002SAS2????M10-?2", (1, 0, 2, ("SA", "S2", "??", "??"), (), (10, 2), Player.TWO)),
        ("01001????????M?3-2", (1, 0, 1, ("??",) * 4, (), (3, 2), Player.ONE)),
        (
            "04023????C9C8D1D2D3M5-5",
            (4, 2, 3, ("??", "??", "C9", "C8"), ("D1", "D2", "D3"), (5, 5), None),
        ),
        (
            "04024????C1C2D1D2D3M9-?5",
            (4, 2, 4, ("??", "??", "C1", "C2"), ("D1", "D2", "D3"), (9, 5), Player.TWO),
        ),
        (
            "03017STS9????HAH2H3H4H5M100-100",
            (3, 1, 7, ("ST", "S9", "??", "??"), ("HA", "H2", "H3", "H4", "H5"), (100, 100), None),
        ),
        (
            "99119S1S2S3S4H1H2H3H4H5M40-40",
            (99, 11, 9, ("S1", "S2", "S3", "S4"), ("H1", "H2", "H3", "H4", "H5"), (40, 40), None),
        ),
        ("05039????????M0-3", (5, 3, 9, ("??",) * 4, (), (0, 3), None)),
        ("05039????????HKHQHJM7-0", (5, 3, 9, ("??",) * 4, ("HK", "HQ", "HJ"), (7, 0), None)),
        ("01001sah2????m1-2", (1, 0, 1, ("SA", "H2", "??", "??"), (), (1, 2), None)),
    ],
)
def test_trays_are_read_field_by_field(text: str, fields: tuple[Any, ...]) -> None:
    tray = parse_tray(text)
    assert (
        tray.deal,
        tray.completed,
        tray.step,
        tray.hole,
        tray.board,
        tray.totals,
        tray.waiting,
    ) == fields
    assert tray.problems() == []
    assert parse_tray(tray.text()) == tray


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Init",
        "0100",
        "01001????C3SK",
        "01001????C3SKM1",
        "01001????C3SKM1-",
        "1001????C3SKM1-2",  # rank of one digit
        "01001???C3SKM1-2",  # a hidden card of three characters
        "01001????C3XKM1-2",  # suit X
        "01001????C3S0M1-2",  # value 0
        "01001????C3S10M1-2",  # a ten written 10
        "01001????C3SKM?1-?2",  # two ?
        "01001????C3SKM1-2x",
        "01001????C3SKM-1-2",
        "01001????C3SKN1-2",
        "01003????C3SKH1H2??M1-2",  # a hidden board card
        "01001????C3SKH1H2H3H4H5H6M1-2",  # six board cards
        "01001????C3SKM1000-2",  # a total of four digits
        "0a001????C3SKM1-2",
        "01001 ????C3SKM1-2",
    ],
)
def test_unreadable_trays_are_refused(text: str) -> None:
    with pytest.raises(TrayError):
        parse_tray(text)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("00001????C3SKM1-2", "01 to 99"),
        ("01011????C3SKM1-2", "completed"),
        ("03031????C3SKM1-2", "completed"),
        ("01001????C3SKM101-2", "at most 100"),
        ("01001????C3SKH1H2H3M1-2", "board"),
        ("01003????C3SKM5-5", "board"),
        ("01005????C3SKH1H2H3M5-5", "board"),
        ("01007????C3SKH1H2H3H4M5-5", "board"),
        ("01002????C3SKM0-2", "fold"),
        ("01001????C3SKM1-?2", "?"),  # step 1 is the dealer's (player one's)
        ("02001????C3SKM?2-1", "?"),  # deal 2: player two deals and bets at step 1
        ("01003????C3SKH1H2H3M?5-5", "?"),  # step 3 is player two's on deal 1
        ("01009????C3SKM?5-5", "no ?"),
        ("01009????C3SKH1M5-5", "0, 3, 4 or 5"),
        ("01009????C3SKM0-0", "both"),
    ],
)
def test_contradictory_trays_are_reported(text: str, problem: str) -> None:
    problems = parse_tray(text).problems()
    assert problems and any(problem in p for p in problems), problems


# --- legal bets -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "limits"),
    [
        (REAL_PREFLOP, (3, 100)),  # the dealer's first bet: above the big blind
        ("02001????C3SKM2-1", (3, 100)),  # deal 2: player two deals
        (REAL_TURN, (11, 100)),  # opening a round: above the opponent's total
        ("01002????C3SKM5-?2", (5, 100)),  # answering: call 5, or raise
        ("01001????C3SKM?5-9", (9, 100)),  # the dealer answers a raise
        ("01004????C3SKH1H2H3M?10-30", (30, 100)),
        ("01002????C3SKM100-?2", (100, 100)),  # answering the cap: call only
        ("01005????C3SKH1H2H3H4M100-100", (100, 100)),  # the cap reached: no bet above it
        ("01009????C3SKM5-5", None),
    ],
)
def test_bet_range(text: str, limits: tuple[int, int] | None) -> None:
    assert bet_range(parse_tray(text)) == limits


def test_legal_values_are_fold_then_every_legal_total() -> None:
    assert legal_values(parse_tray(REAL_PREFLOP)) == ("-1", *totals(3, 100))
    assert legal_values(parse_tray("01002????C3SKM40-?2")) == ("-1", *totals(40, 100))
    assert legal_values(parse_tray("01009????C3SKM5-5")) == ("0",)
    assert "2" not in legal_values(parse_tray(REAL_PREFLOP))  # no call of the blind
    assert "10" not in legal_values(parse_tray(REAL_TURN))  # no check when opening
    assert "101" not in legal_values(parse_tray(REAL_TURN))


# --- the showdown ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "winner"),
    [
        # A flush (hearts) beats a straight.
        ("01009H2H9S5S6H4HKH7D8CJM20-20", Player.ONE),
        # Aces with a king beat aces with a jack; the ace written 1 and A alike.
        ("01009S1D3C1CKH1D9CJS7D2M8-8", Player.TWO),
        ("01009SAD3CACKH1D9CJS7D2M8-8", Player.TWO),
        # The board plays for both: a split pot.
        ("01009S2D3C2H3S1SKSQSJSTM50-50", None),
        # A fold: the other player wins, whatever the cards.
        ("01009????????M0-3", Player.TWO),
        ("02039????????HKHQHJM9-0", Player.ONE),
    ],
)
def test_verdict(text: str, winner: Player | None) -> None:
    outcome = verdict(parse_tray(text))
    assert outcome is not None
    assert outcome.winner is winner


def test_verdict_marks_the_best_five_and_names_the_hands() -> None:
    outcome = verdict(parse_tray("01009H2H9S5S6H4HKH7D8CJM20-20"))
    assert outcome is not None
    assert outcome.label == ("Flush", "Straight")
    # Indexes among the seven cards: 0, 1 the hole cards, 2..6 the board.
    assert outcome.best == ((0, 1, 2, 3, 4), (0, 1, 2, 4, 5))


def test_verdict_needs_every_card_at_the_showdown() -> None:
    assert verdict(parse_tray("01009????C3SKH1H2H3H4H5M5-5")) is None
    assert verdict(parse_tray("01009S1S2C3SKH1H2H3M5-5")) is None
    assert verdict(parse_tray(REAL_TURN)) is None


def test_cards_are_given_to_pokerkit_in_its_notation() -> None:
    assert [pokerkit_card(c) for c in ("D1", "DA", "ST", "H9", "CK")] == [
        "Ad",
        "Ad",
        "Ts",
        "9h",
        "Kc",
    ]


# --- the view model -------------------------------------------------------------------


def test_the_real_preflop_tray_asks_the_dealer_for_a_bet() -> None:
    page = view(f"Tray={REAL_PREFLOP}&Input=One&Gain1=-12&Gain2=12")
    assert page.errors == ()
    assert page.player is Player.ONE
    assert page.playable == ("-1", *totals(3, 100))
    assert (page.low, page.high, page.call, page.raise_low) == (3, 100, None, 3)
    one, two = page.seats
    assert [c.code for c in one.cards] == ["??", "??"] and all(c.hidden for c in one.cards)
    assert [c.code for c in two.cards] == ["C3", "SK"]
    assert [(c.suit, c.value, c.red) for c in two.cards] == [("C", "3", False), ("S", "K", False)]
    assert one.dealer and not two.dealer and one.turn and not two.turn
    assert (one.total, two.total, page.pot) == (1, 2, 3)
    assert (one.gain_text, two.gain_text) == ("-12", "+12")
    assert page.board == () and page.empty_slots == 5
    assert page.tray == REAL_PREFLOP
    assert page.sound is None


def test_the_real_turn_tray_asks_player_two_to_open() -> None:
    page = view(f"Tray={REAL_TURN}&Input=Two&Move1=10")
    assert page.errors == ()
    assert [c.code for c in page.board] == ["HK", "C6", "HQ", "S6"] and page.empty_slots == 1
    assert [c.value for c in page.seats[1].cards] == ["10", "J"]
    assert page.playable == ("-1", *totals(11, 100))
    assert page.call is None and page.raise_low == 11
    assert page.seats[0].move == 10 and page.seats[0].moved
    assert page.sound == "move"
    assert page.pips == ("done",) * 9 + ("",) * 3


def test_answering_offers_a_call_and_raises_above_it() -> None:
    page = view("Tray=01002????C3SKM12-?2&Input=Two")
    assert page.call == 12 and page.raise_low == 13 and page.high == 100
    assert page.playable == ("-1", *totals(12, 100))


def test_answering_the_cap_offers_no_raise() -> None:
    page = view("Tray=01002????C3SKM100-?2&Input=Two")
    assert page.call == 100 and page.raise_low is None
    assert page.playable == ("-1", "100")


def test_the_showdown_asks_for_an_acknowledgement() -> None:
    page = view("Tray=01009H2H9S5S6H4HKH7D8CJM20-20&Input=Two&Move1=20&Gain1=20&Gain2=-20")
    assert page.playable == ("0",) and page.acknowledge
    assert page.low is None and page.call is None
    one, two = page.seats
    assert (one.outcome, two.outcome) == ("win", "lose")
    assert [c.best for c in one.cards] == [True, True] and not any(c.best for c in two.cards)
    assert [c.best for c in page.board] == [True, True, True, False, False]
    assert one.label == "Flush" and two.label == "Straight"
    assert page.sound == "win"
    assert page.pips[0] == "now"


def test_a_fold_at_the_showdown() -> None:
    page = view("Tray=02019????????M2-0&Input=One&Move2=0")
    one, two = page.seats
    assert two.folded and two.moved and two.move is None and not one.folded
    assert (one.outcome, two.outcome) == ("win", "lose")
    assert page.pot == 2 and page.playable == ("0",)
    assert page.pips == ("done",) + ("",) * 11  # a folded deal is not completed


@pytest.mark.parametrize("query", ["", "Tray=Init", "Tray=init&Input=One"])
def test_no_tray_is_an_empty_table(query: str) -> None:
    page = view(query)
    assert page.errors == () and page.playable == ()
    assert page.deal is None and page.pot is None and page.seats[0].cards == ()


@pytest.mark.parametrize("tray", ["x", "01001????C3SK", "01001????C3SKM1-2-3"])
def test_an_unreadable_tray_is_an_empty_table_with_nothing_playable(tray: str) -> None:
    page = view(f"Tray={tray}&Input=One&Move1=5")
    assert {e.code for e in page.errors} == {"tray"}
    assert page.playable == () and page.player is None and page.deal is None
    assert page.seats[0].move is None


def test_a_contradictory_tray_is_drawn_without_input() -> None:
    page = view("Tray=01003????C3SKM5-5&Input=Two")
    assert {e.code for e in page.errors} == {"tray"}
    assert page.playable == () and page.deal == 1
    assert [c.code for c in page.seats[1].cards] == ["C3", "SK"]


def test_input_for_the_player_the_step_does_not_name() -> None:
    page = view(f"Tray={REAL_PREFLOP}&Input=Two")
    assert {e.code for e in page.errors} == {"input"}
    assert page.playable == () and page.player is None


@pytest.mark.parametrize(
    "query",
    [f"Tray={REAL_PREFLOP}&Input=One&Method=End", f"Tray={REAL_PREFLOP}&Input=One&Method=None"],
)
def test_end_and_none_take_no_input(query: str) -> None:
    assert view(query).playable == ()


def test_webtest_asks_the_player_to_bet() -> None:
    assert view(f"Tray={REAL_TURN}&WebTest=yes").player is Player.TWO
    assert view("Tray=01009????????M0-3&WebTest=yes").player is Player.ONE


def test_end_names_the_winner_of_the_game() -> None:
    page = view("Tray=14119????????M0-3&Method=End&Gain1=-30&Gain2=30")
    assert page.winner is Player.TWO and page.sound == "win"
    assert view("Tray=14119????????M0-3&Method=End&Gain1=0&Gain2=0").winner is None


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("Move1=x", "move1"),
        ("Move2=101", "move2"),
        ("Move1=-2", "move1"),
        ("Move2=1.5", "move2"),
        ("Gain1=abc", "gain1"),
        ("Gain2=1e3", "gain2"),
        ("Gain1=--1", "gain1"),
    ],
)
def test_unreadable_moves_and_gains(query: str, code: str) -> None:
    assert codes(f"Tray={REAL_TURN}&{query}") == {code}


def test_gains_and_moves_read() -> None:
    assert [read_gain(v) for v in ("0", "-12", "+7", "200", None)] == [0, -12, 7, 200, None]
    assert [read_move(v) for v in ("-1", "0", "100", None)] == [-1, 0, 100, None]


def test_the_sample_is_a_clean_page_asking_for_a_bet() -> None:
    params = "&".join(f"{k}={v}" for k, v in interface.sample.items())
    page = view(params)
    assert page.errors == () and page.player is Player.ONE and "-1" in page.playable
    assert interface.methods == {Method.STANDARD, Method.END, Method.NONE}


# --- the rules ------------------------------------------------------------------------

# Scripted deals: player one's two cards, player two's two, the board's five.
FLUSH_VS_STRAIGHT = ["H2", "H9", "S5", "S6", "H4", "HK", "H7", "D8", "CJ"]  # one wins
PAIRS = ["S1", "D3", "C1", "CK", "H1", "D9", "CJ", "S7", "D2"]  # two: aces, king kicker
BOARD_PLAYS = ["S2", "D3", "C2", "H3", "S1", "SK", "SQ", "SJ", "ST"]  # split


def start(*decks: list[str]) -> Turn:
    return PokerRules(seed=7).new_game(decks=decks)


def play(turn: Turn, *values: str) -> Turn:
    rules = PokerRules(seed=7)
    for value in values:
        turn = rules.play(turn.state, value)
    return turn


def params(turn: Turn) -> Mapping[str, str]:
    return turn.params


def test_a_new_game_is_deal_one_player_one_to_bet() -> None:
    turn = start(FLUSH_VS_STRAIGHT)
    assert dict(turn.params) == {
        "Tray": "01001H2H9????M1-2",
        "Gain1": "0",
        "Gain2": "0",
        "Count": "0",
        "Input": "One",
    }
    assert not turn.over


def test_a_deal_played_to_the_showdown_with_a_known_winner() -> None:
    turn = start(FLUSH_VS_STRAIGHT)
    turn = play(turn, "4")  # player one (dealer) bets 4
    # Player two answers; player one's cards are hidden from him.
    assert params(turn)["Tray"] == "01002????S5S6M4-?2"
    assert params(turn)["Input"] == "Two" and params(turn)["Move1"] == "4"
    turn = play(turn, "4")  # call: the flop, player two opens
    assert params(turn)["Tray"] == "01003????S5S6H4HKH7M4-4"
    assert params(turn)["Input"] == "Two" and params(turn)["Move2"] == "4"
    turn = play(turn, "6")
    assert params(turn)["Tray"] == "01004H2H9????H4HKH7M?4-6"
    turn = play(turn, "9")  # player one raises: back to player two's step
    assert params(turn)["Tray"] == "01003????S5S6H4HKH7M9-?6"
    turn = play(turn, "9")  # call: the turn
    assert params(turn)["Tray"] == "01005????S5S6H4HKH7D8M9-9"
    turn = play(turn, "10", "10")  # the river
    assert params(turn)["Tray"] == "01007????S5S6H4HKH7D8CJM10-10"
    turn = play(turn, "12", "12")  # player one calls: the showdown
    assert dict(turn.params) == {
        "Tray": "01009H2H9S5S6H4HKH7D8CJM12-12",
        "Gain1": "12",
        "Gain2": "-12",
        "Count": "9",
        "Move1": "12",
        "Input": "Two",
    }
    turn = play(turn, "0")  # acknowledged: deal 2, player two deals and bets
    assert params(turn)["Tray"].startswith("02011????")
    assert params(turn)["Tray"].endswith("M2-1") and params(turn)["Input"] == "Two"
    assert params(turn)["Gain1"] == "12" and "Move1" not in params(turn)


@pytest.mark.parametrize(
    ("deck", "gains"),
    [(PAIRS, ("-6", "6")), (BOARD_PLAYS, ("0", "0")), (FLUSH_VS_STRAIGHT, ("6", "-6"))],
)
def test_showdowns_judged_by_pokerkit(deck: list[str], gains: tuple[str, str]) -> None:
    # Each round: a bet, a call; the totals end at 6 each.
    turn = play(start(deck), "3", "3", "4", "4", "5", "5", "6", "6")
    tray = parse_tray(params(turn)["Tray"])
    assert tray.step == 9 and tray.totals == (6, 6) and "??" not in tray.hole
    assert (params(turn)["Gain1"], params(turn)["Gain2"]) == gains


def test_a_fold_gives_the_pot_and_hides_both_hands() -> None:
    turn = play(start(FLUSH_VS_STRAIGHT), "5", "-1")  # player two folds his blind of 2
    assert dict(turn.params) == {
        "Tray": "01009????????M5-0",
        "Gain1": "2",
        "Gain2": "-2",
        "Count": "2",
        "Move2": "0",
        "Input": "One",
    }
    turn = play(turn, "0")
    tray = parse_tray(params(turn)["Tray"])
    assert (tray.deal, tray.completed, tray.step) == (2, 0, 1)  # a fold completes nothing


def test_a_fold_after_the_flop_keeps_the_board_shown() -> None:
    turn = play(start(FLUSH_VS_STRAIGHT), "3", "3", "-1")
    assert params(turn)["Tray"] == "01009????????H4HKH7M3-0"
    assert (params(turn)["Gain1"], params(turn)["Gain2"]) == ("3", "-3")


def test_the_dealer_may_fold_at_step_one_and_an_engine_folds_with_0() -> None:
    turn = play(start(FLUSH_VS_STRAIGHT), "0")
    assert params(turn)["Tray"] == "01009????????M0-2" and params(turn)["Gain1"] == "-1"


def test_both_at_the_cap_deal_the_rest_and_show_down() -> None:
    turn = play(start(FLUSH_VS_STRAIGHT), "100", "100")
    assert params(turn)["Tray"] == "01009H2H9S5S6H4HKH7D8CJM100-100"
    assert (params(turn)["Gain1"], params(turn)["Gain2"]) == ("100", "-100")


@pytest.mark.parametrize(
    ("values", "refused"),
    [
        ((), "2"),  # the dealer must bet above the big blind
        ((), "101"),
        ((), "x"),
        ((), "-2"),
        (("5",), "4"),  # an answer below the bet
        (("5", "5"), "5"),  # opening the flop: above the opponent's total
        (("5", "-1"), "3"),  # the showdown takes 0 only
    ],
)
def test_illegal_values_are_refused(values: tuple[str, ...], refused: str) -> None:
    turn = play(start(FLUSH_VS_STRAIGHT), *values)
    with pytest.raises(IllegalMove):
        PokerRules().play(turn.state, refused)


def test_a_corrupt_state_is_refused() -> None:
    turn = start(FLUSH_VS_STRAIGHT)
    for broken in (
        {},
        {**turn.state, "cards": ["XX"] * 9},
        {**turn.state, "step": 12},
        {**turn.state, "totals": [1]},
        {**turn.state, "cards": "H2"},
    ):
        with pytest.raises(IllegalMove):
            PokerRules().play(broken, "5")


def test_twelve_completed_deals_end_the_game() -> None:
    turn = start()
    rules = PokerRules()
    for deal in range(1, 13):
        tray = parse_tray(params(turn)["Tray"])
        assert (tray.deal, tray.completed, tray.step) == (deal, deal - 1, 1)
        turn = rules.play(turn.state, "100")
        turn = rules.play(turn.state, "100")
        if deal < 12:
            assert not turn.over and parse_tray(params(turn)["Tray"]).step == 9
            turn = rules.play(turn.state, "0")
    assert turn.over and params(turn)["Method"] == "End" and "Input" not in params(turn)
    tray = parse_tray(params(turn)["Tray"])
    assert (tray.deal, tray.completed, tray.step) == (12, 11, 9)
    assert int(params(turn)["Gain1"]) + int(params(turn)["Gain2"]) == 0
    with pytest.raises(IllegalMove):
        rules.play(turn.state, "0")


def test_folds_complete_no_deal_and_deal_99_ends_the_game() -> None:
    turn = start()
    rules = PokerRules()
    for _deal in range(1, 99):
        turn = rules.play(rules.play(turn.state, "-1").state, "0")
    tray = parse_tray(params(turn)["Tray"])
    assert (tray.deal, tray.completed) == (99, 0)
    turn = rules.play(turn.state, "-1")
    assert turn.over and params(turn)["Method"] == "End"
    # 99 folds of the dealer's blind, 1 chip each, alternating: 50 for one, 49 for two.
    assert (params(turn)["Gain1"], params(turn)["Gain2"]) == ("-1", "1")


def test_each_page_hides_the_other_players_hand() -> None:
    turn = start()
    for value in ("3", "3", "5", "5", "7", "7", "9"):
        tray = parse_tray(params(turn)["Tray"])
        asked = Player.ONE if params(turn)["Input"] == "One" else Player.TWO
        assert "??" not in tray.hand(asked) and tray.hand(asked.opponent) == ("??", "??")
        turn = PokerRules().play(turn.state, value)


def test_cards_come_from_a_fresh_deck_per_deal_and_replay_from_the_seed() -> None:
    cards = deal_cards(42, 1)
    assert len(set(cards)) == 9 and set(cards) <= set(DECK)
    assert deal_cards(42, 1) == cards and deal_cards(42, 2) != cards
    assert len(DECK) == 52 and "S1" in DECK and "SA" not in DECK
    one = PokerRules(seed=3).new_game()
    assert one.params == PokerRules(seed=3).new_game().params


def test_every_tray_the_rules_send_is_consistent_and_its_input_can_play() -> None:
    turn = start()
    rules = PokerRules()
    script = [
        "7",
        "9",
        "9",
        "11",
        "11",
        "20",
        "30",
        "30",
        "31",
        "31",
        "0",
        "5",
        "-1",
        "0",
        "3",
        "3",
        "-1",
    ]
    for value in script:
        tray: Tray = parse_tray(params(turn)["Tray"])
        assert tray.problems() == []
        page = view("&".join(f"{k}={v}" for k, v in params(turn).items()))
        assert page.errors == () and value in page.playable, (value, params(turn))
        turn = rules.play(turn.state, value)


def test_pokerkit_is_loaded_by_a_game_not_with_the_server() -> None:
    """Its tables cost 15 MB and a fraction of a second: a server that never ranks a hand
    never loads them; a game's start does, so that no showdown of the game pays it,
    and the first verdict a page draws would."""
    script = (
        "import sys\n"
        "from tournoyons_gui.server.app import create_app\n"
        "from tournoyons_gui.interfaces.poker.rules import RULES\n"
        "from tournoyons_gui.interfaces.poker.tray import parse_tray, verdict\n"
        "create_app()\n"
        "print('pokerkit' in sys.modules)\n"
        "RULES.start(2)\n"
        "print('pokerkit' in sys.modules)\n"
        "tray = parse_tray('01009S1HKD2C3SQSJSTC9H2M10-10')\n"
        "print(verdict(tray).label == ('Straight', 'One pair'))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "True"]


# --- the rules' fast paths, against the straightforward ones ---------------------------


@settings(max_examples=100, deadline=None)
@given(cards=st.permutations(DECK).map(lambda deck: deck[:9]))
def test_a_hand_strength_ranks_as_pokerkit_does(cards: list[str]) -> None:
    one, two, board = cards[0:2], cards[2:4], cards[4:9]
    strong = hand_strength(one, board), hand_strength(two, board)
    hands = high_hand(tuple(one), tuple(board)), high_hand(tuple(two), tuple(board))
    assert strong == (hands[0].entry.index, hands[1].entry.index)
    assert (strong[0] > strong[1], strong[0] == strong[1]) == (
        hands[0] > hands[1],
        hands[0] == hands[1],
    )
    hole = (cards[0], cards[1], cards[2], cards[3])
    tray = Tray(deal=1, completed=0, step=9, hole=hole, board=tuple(board), totals=(5, 5))
    outcome = verdict(tray)
    assert outcome is not None and poker_rules._showdown(tuple(cards)) == outcome.winner


def test_a_hand_strength_reads_the_ace_either_way_and_any_case() -> None:
    board = ("SK", "SQ", "SJ", "ST", "D2")
    assert hand_strength(("S1", "C3"), board) == hand_strength(("sa", "c3"), board)
    with pytest.raises(ValueError):
        hand_strength(("S1",), board)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), level=st.sampled_from((1, 2)))
def test_a_state_read_once_and_kept_is_the_state_read_again(seed: int, level: int) -> None:
    """Every position of a game: the game kept for a state is the game read from it, and
    its Trays and bettor, written straight from its values, are its :class:`Tray`'s."""
    random.seed(seed)  # the random engine's draws
    rules = PokerRules(seed=seed)
    turn = rules.start(level)
    while not turn.over:
        state = json.loads(json.dumps(turn.state))
        game = poker_rules.Game.load(state)  # kept by the Turn, or read and kept now
        assert game == poker_rules.Game.read(state) == poker_rules.Game.load(dict(state))
        assert game.bettor == game.tray(None).bettor
        for seen_by in (None, Player.ONE, Player.TWO):
            assert game.tray_text(seen_by) == game.tray(seen_by).text()
        for player in rules.asked(state):
            request = rules.request(state, player)
            value = random_engine({"Level": str(level), **request.params})
            turn = rules.play(state, rules.engine_value(state, player, value.strip().upper()))
            state = json.loads(json.dumps(turn.state))
