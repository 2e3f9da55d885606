"""Tarot: the cards, the Tray and the federation's rules for four, without a browser.

Every clause of ``docs/reference/tarot.md`` section 2 has a case here (the deal and its
dealer, the petit sec, the bidding and four passes, the dog and the écart, following,
trumping and overtrumping, the excuse and its exchange and at the last trick, the count
and its rounding, petit au bout, chelem, the match), and a Hypothesis property plays
random legal deals; the cards' numbering is seed 001's table 1.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournoyons_gui.interfaces.plugin import IllegalMove
from tournoyons_gui.interfaces.protocol import Player
from tournoyons_gui.interfaces.tarot import SAMPLE_TRAY, interface
from tournoyons_gui.interfaces.tarot import cards as tarot_cards
from tournoyons_gui.interfaces.tarot import game as tarot_game
from tournoyons_gui.interfaces.tarot import rules as tarot_rules
from tournoyons_gui.interfaces.tarot.cards import (
    EXCUSE,
    MONDE,
    OUDLERS,
    PETIT,
    TOTAL_HALVES,
    Phase,
    Suit,
    Tray,
    TrayError,
    card_text,
    cards_text,
    half_points,
    parse_tray,
    rank,
    suit,
)
from tournoyons_gui.interfaces.tarot.play import (
    allowed_bids,
    check_ecart,
    difference,
    legal_cards,
    petit_sec,
    score_deal,
    trick_winner,
)
from tournoyons_gui.interfaces.tarot.rules import RULES, Game, dealer, ranks

# Cards by name, for reading the cases: clubs 0..13, spades 14..27, hearts 28..41,
# diamonds 42..55 (1..10, jack, knight, queen, king), trump t is 55 + t.
C, S, H, D = 0, 14, 28, 42
KING, QUEEN, KNIGHT, JACK = 13, 12, 11, 10


def trump(number: int) -> int:
    return 55 + number


def make_pack(hands: dict[int, Sequence[int]], dog: Sequence[int] = (), seed: int = 0) -> list[int]:
    """Return a pack in dealing order giving ``hands`` (seat -> some of its cards) and
    ``dog``; the rest dealt from a seeded shuffle, with no petit sec."""
    rng = random.Random(seed)
    while True:
        placed = {card for cards in hands.values() for card in cards} | set(dog)
        rest = [card for card in range(78) if card not in placed]
        rng.shuffle(rest)
        seats = []
        for seat in range(1, 5):
            cards = list(hands.get(seat, ()))
            while len(cards) < 18:
                cards.append(rest.pop())
            seats.append(cards)
        pack = [card for cards in seats for card in cards] + list(dog) + rest
        if not any(petit_sec(cards) for cards in seats):
            return pack


def game_of(*packs: Sequence[int], deals: int = 4) -> Game:
    return Game.load(RULES.start(deals=deals, decks=packs).state)


def play(game: Game, *values: str) -> Game:
    for value in values:
        game = Game.load(RULES.play(game.state(), value).state)
    return game


def text(cards: Sequence[int]) -> str:
    return "".join(f"{card:02d}" for card in cards)


# --- cards (seed 001, table 1; spec section 1) ----------------------------------------


def test_cards_are_numbered_as_maitretarot_numbers_them() -> None:
    assert (suit(0), rank(0)) == (Suit.CLUBS, 1)
    assert (suit(13), rank(13)) == (Suit.CLUBS, 14)
    assert (suit(14), rank(14)) == (Suit.SPADES, 1)
    assert (suit(41), rank(41)) == (Suit.HEARTS, 14)
    assert (suit(55), rank(55)) == (Suit.DIAMONDS, 14)
    assert (suit(56), rank(56)) == (Suit.TRUMPS, 1)
    assert (suit(76), rank(76)) == (Suit.TRUMPS, 21)
    assert suit(77) is Suit.EXCUSE
    assert {56, 76, 77} == OUDLERS


def test_card_points_are_91() -> None:
    assert [half_points(card) for card in (C + KING, C + QUEEN, C + KNIGHT, C + JACK, C + 9)] == [
        9,
        7,
        5,
        3,
        1,
    ]
    assert [half_points(card) for card in (PETIT, MONDE, EXCUSE, trump(10))] == [9, 9, 9, 1]
    assert sum(half_points(card) for card in range(78)) == TOTAL_HALVES == 2 * 91


# --- the Tray (spec section 3) --------------------------------------------------------


def test_the_tray_reads_and_writes_its_nine_fields() -> None:
    tray = parse_tray(SAMPLE_TRAY)
    assert (tray.deal, tray.phase, tray.bids) == (1, Phase.PLAY, (0, 2, 0, 0))
    assert len(tray.hands[0]) == 18 and None not in tray.hands[0]
    assert tray.hands[1] == (None,) * 18 and tray.dog == (None,) * 6
    assert tray.trick is not None and tray.trick.leader == 1 and tray.trick.cards == (None,) * 4
    assert tray.text() == SAMPLE_TRAY
    assert parse_tray("Init") == Tray() and Tray().text() == "01B.----......."


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "01B.----",
        "00B.----.......",
        "01X.----.......",
        "01B.5---.......",
        "01B.----.78......",
        "01B.----.0.......",
        "01P.----......1--------2.",
        "01P.----.......1000102039",
        "01P.----.......100010203",
    ],
)
def test_a_broken_tray_is_refused(bad: str) -> None:
    with pytest.raises(TrayError):
        parse_tray(bad)


def test_the_sample_is_a_position_of_the_rules() -> None:
    """The tester's sample: seat 1's page at the first trick after seat 2's garde."""
    deck = list(range(78))
    random.Random(7).shuffle(deck)
    game = game_of(deck)
    game = play(game, "0", "2", "0", "0")
    taker_hand = game.hands[1]
    plain = [card for card in taker_hand if card < PETIT and rank(card) != 14]
    game = play(game, text(plain[:6]))
    seat_one = RULES.page(game.turn(), RULES.asked(game.state())[0], asking=True)
    assert seat_one["Tray"] == SAMPLE_TRAY
    for name in ("Move1", "Move2", "Move3", "Move4", "Gain1", "Count"):
        assert seat_one[name] == interface.sample[name]


# --- the deal ---------------------------------------------------------------------------


def test_a_deal_gives_18_cards_to_each_and_6_to_the_dog() -> None:
    game = Game.load(RULES.start().state)
    assert [len(hand) for hand in game.hands] == [18, 18, 18, 18] and len(game.dog) == 6
    assert sorted(game.cards()) == list(range(78))
    assert (game.deal, dealer(1), game.first, game.to_act()) == (1, 4, 1, 1)


def test_the_dealer_moves_to_the_next_seat_every_deal() -> None:
    assert [dealer(deal) for deal in range(1, 9)] == [4, 1, 2, 3, 4, 1, 2, 3]


def test_a_petit_sec_is_dealt_again_by_the_same_dealer() -> None:
    others = [card for card in range(78) if card not in range(56, 78)]
    sec = [PETIT, *others[:17]]  # the petit, no other trump, no excuse
    rest = [card for card in range(78) if card not in sec]
    first = sec + rest
    second = make_pack({}, seed=3)
    game = game_of(first, second)
    assert game.redeals == 1 and game.deal == 1 and game.to_act() == 1
    assert game.hands[0] == tuple(sorted(second[:18]))
    assert petit_sec(sec) and not petit_sec([PETIT, EXCUSE, *others[:16]])


def test_when_all_pass_the_dog_is_shown_and_the_next_dealer_deals() -> None:
    game = game_of(make_pack({}, seed=1), make_pack({}, seed=2))
    game = play(game, "0", "0", "0", "0")
    assert game.phase is Phase.SCORED and game.played == 0 and game.totals == (0, 0, 0, 0)
    tray = game.tray(3)
    assert tray.dog == game.dog and tray.hands[0] == (None,) * 18
    assert game.to_act() == 2  # deal 2: seat 1 deals, seat 2 speaks first
    game = play(game, "0")
    assert game.deal == 2 and game.bids == (-1, 0, -1, -1) and game.played == 0


# --- the bidding --------------------------------------------------------------------------


def test_a_bid_not_above_the_highest_counts_as_a_pass() -> None:
    game = play(game_of(make_pack({})), "2", "1", "2", "3")
    assert game.bids == (2, 0, 0, 3)
    assert allowed_bids((2, None, None, None)) == (0, 3, 4)
    assert game.taker == 4 and game.contract == 3


@pytest.mark.parametrize("value", ["5", "-1", "x", "", "02"])
def test_a_bid_outside_0_to_4_is_refused(value: str) -> None:
    game = game_of(make_pack({}))
    with pytest.raises(IllegalMove):
        RULES.engine_value(game.state(), RULES.asked(game.state())[0], value)


# --- the dog and the écart ------------------------------------------------------------------


def test_after_a_petite_the_dog_is_shown_and_taken() -> None:
    dog = [C + 1, C + 2, S + 1, S + 2, H + 1, H + 2]
    game = play(game_of(make_pack({}, dog=dog)), "1", "0", "0", "0")
    assert game.phase is Phase.ECART and game.to_act() == 1 and len(game.hands[0]) == 24
    for seat in (1, 2, None):
        tray = game.tray(seat)
        assert tray.dog == tuple(dog)
    assert game.tray(2).hands[0] == (None,) * 24
    assert sorted(game.cards()) == list(range(78))


def test_the_ecart_never_holds_a_king_or_an_oudler() -> None:
    hand = [C + KING, PETIT, EXCUSE, MONDE, *range(S, S + 10), *range(H, H + 10)]
    assert (
        check_ecart(hand, [C + KING, *range(S, S + 5)]) == "a king or an oudler is never put aside"
    )
    assert check_ecart(hand, [EXCUSE, *range(S, S + 5)]) is not None
    assert check_ecart(hand, list(range(S, S + 6))) is None
    assert check_ecart(hand, list(range(S, S + 5))) is not None  # 5 cards
    assert check_ecart(hand, [S, S, S + 1, S + 2, S + 3, S + 4]) is not None  # twice one card


def test_a_trump_is_put_aside_only_when_nothing_else_may_go() -> None:
    plain = [C + KING, S + KING, H + KING, D + KING, C + 1, C + 2, C + 3, C + 4]
    hand = plain + [trump(n) for n in range(2, 18)]
    assert check_ecart(hand, [C + 1, C + 2, C + 3, trump(2), trump(3), trump(4)]) is not None
    assert check_ecart(hand, [C + 1, C + 2, C + 3, C + 4, trump(2), trump(3)]) is None
    more = plain[:4] + [C + 1, C + 2, C + 3, C + 4, C + 5, C + 6] + [trump(n) for n in range(2, 16)]
    assert check_ecart(more, [C + 1, C + 2, C + 3, C + 4, C + 5, trump(2)]) is not None


def test_trumps_put_aside_are_shown_to_all() -> None:
    kings = [C + KING, S + KING, H + KING, D + KING]
    hand = kings + [C + 1, C + 2, C + 3, C + 4] + [trump(n) for n in range(2, 12)]
    dog = [trump(n) for n in range(12, 18)]
    game = play(game_of(make_pack({1: hand}, dog=dog)), "2", "0", "0", "0")
    ecart = [C + 1, C + 2, C + 3, C + 4, trump(2), trump(3)]
    game = play(game, text(ecart))
    assert game.phase is Phase.PLAY and game.aside == tuple(sorted(ecart))
    assert game.tray(2).text().split(".")[6] == text([trump(2), trump(3)]) + "??" * 4
    assert game.tray(1).dog == tuple(sorted(ecart))
    seen_by_two = RULES.page(game.turn(), Player.TWO, asking=False)
    assert seen_by_two["Move1"] == text([trump(2), trump(3)]) + "????" * 2
    assert RULES.page(game.turn(), Player.ONE, asking=False)["Move1"] == text(ecart)


@pytest.mark.parametrize("contract", ["3", "4"])
def test_after_a_garde_sans_or_contre_the_dog_goes_unseen(contract: str) -> None:
    game = play(game_of(make_pack({})), contract, "0", "0", "0")
    assert game.phase is Phase.PLAY and game.aside == () and game.to_act() == 1
    assert len(game.hands[0]) == 18
    for seat in (1, 2, None):
        assert game.tray(seat).dog == (None,) * 6
    assert game.tray(None, everything=True).dog == game.dog


# --- the play ---------------------------------------------------------------------------


def test_follow_the_suit_led() -> None:
    hand = [C + 2, C + KING, S + 1, trump(5), EXCUSE]
    assert legal_cards(hand, [C + 5]) == (C + 2, C + KING, EXCUSE)


def test_without_the_suit_trump() -> None:
    hand = [S + 1, trump(5), trump(9), EXCUSE]
    assert legal_cards(hand, [C + 5]) == (trump(5), trump(9), EXCUSE)


def test_on_a_trump_play_a_higher_one_when_one_can() -> None:
    hand = [S + 1, trump(5), trump(9), trump(15)]
    assert legal_cards(hand, [C + 5, trump(8)]) == (trump(9), trump(15))
    assert legal_cards(hand, [trump(8)]) == (trump(9), trump(15))
    assert legal_cards(hand, [trump(16)]) == (trump(5), trump(9), trump(15))  # cannot: any trump


def test_without_the_suit_or_trumps_any_card() -> None:
    hand = [S + 1, H + 3, D + KING]
    assert legal_cards(hand, [C + 5, trump(8)]) == tuple(hand)


def test_the_excuse_may_be_played_at_any_time_and_led_the_next_card_sets_the_suit() -> None:
    assert EXCUSE in legal_cards([C + 1, EXCUSE], [C + 5])
    assert legal_cards([C + 1, S + 1, EXCUSE], [EXCUSE]) == (C + 1, S + 1, EXCUSE)
    assert legal_cards([C + 1, S + 1], [EXCUSE, S + 4]) == (S + 1,)
    assert legal_cards([EXCUSE, C + 1], []) == (C + 1, EXCUSE)


def test_the_highest_trump_or_else_the_highest_card_of_the_suit_led_wins() -> None:
    # Cards in seat order; seat 2 leads.
    assert trick_winner(2, [C + KING, C + 3, C + 9, S + KING]) == 1
    assert trick_winner(2, [C + KING, C + 3, trump(1), S + KING]) == 3
    assert trick_winner(2, [trump(2), C + 3, trump(1), EXCUSE]) == 1
    assert trick_winner(1, [EXCUSE, S + 3, S + 9, C + KING]) == 3


def test_a_whole_deal_applies_the_trick_winner_and_its_lead() -> None:
    game = play(game_of(make_pack({})), "3", "0", "0", "0")
    first_trick = []
    for _ in range(4):
        seat = game.to_act()
        card = game.legal()[0]
        first_trick.append((seat, int(card)))
        game = play(game, card)
    (leader, *cards, winner) = game.tricks[0]
    assert leader == 1 and game.leader == winner == trick_winner(1, cards)
    assert game.to_act() == winner


# --- the excuse, the count, the score -----------------------------------------------------


def deal_tricks(
    taker: int, winners: Sequence[int], excuse_at: tuple[int, int] | None = None
) -> list[tuple[int, list[int], int]]:
    """Return 18 tricks of the cards 0..71 but the excuse's place (trick, seat), in
    order, each won by ``winners[n]``; the excuse replaces trump 17 where asked."""
    cards = [card for card in range(78) if card not in (EXCUSE, trump(17), *range(72, 77))]
    cards += [trump(17), 72, 73, 74, 75, MONDE][: 72 - len(cards)]
    tricks = []
    for number in range(18):
        four = cards[4 * number : 4 * number + 4]
        if excuse_at is not None and excuse_at[0] == number:
            four[excuse_at[1] - 1] = EXCUSE
        tricks.append((1, four, winners[number]))
    return tricks


def test_the_excuse_stays_with_its_side_which_gives_half_a_point() -> None:
    # The taker (seat 1) wins nothing but the trick of its own excuse is lost: 4 points.
    tricks = deal_tricks(1, [2] * 18, excuse_at=(3, 1))
    score = score_deal(4, 1, [(lead, cards, win) for lead, cards, win in tricks], dog=[])
    assert score.halves == 8 and score.oudlers == 1
    # A defender's excuse in a trick the taker wins: the taker gets 0.5 for it.
    tricks = deal_tricks(1, [1 if n == 3 else 2 for n in range(18)], excuse_at=(3, 2))
    won = sum(half_points(card) for card in tricks[3][1] if card != EXCUSE)
    assert score_deal(4, 1, tricks, dog=[]).halves == won + 1
    assert score_deal(4, 1, tricks, dog=[]).oudlers == 0


def test_the_excuse_at_the_last_trick_goes_to_the_side_winning_it() -> None:
    tricks = deal_tricks(1, [1] * 17 + [2], excuse_at=(17, 1))
    score = score_deal(4, 1, tricks, dog=[])
    assert score.oudlers == sum(1 for t in tricks[:17] for card in t[1] if card in OUDLERS)
    assert score.chelem == 0


def test_the_excuse_at_the_last_trick_wins_it_after_every_other_trick() -> None:
    game = game_of(make_pack({}))
    tricks = tuple((1, *t[1], 1) for t in deal_tricks(1, [1] * 18)[:17])
    game = replace(
        game, phase=Phase.PLAY, bids=(2, 0, 0, 0), leader=1, trick=(EXCUSE, C + 1, C + 2, C + 3)
    )
    assert replace(game, tricks=tricks).trick_won() == 1  # the chelem's last trick
    lost = (*tricks[:16], (1, *tricks[16][1:5], 2))
    assert replace(game, tricks=lost).trick_won() == trick_winner(1, game.trick) == 4


def test_the_difference_is_rounded_up_to_the_whole_point() -> None:
    assert difference(81, 41) == 1  # 40.5 against 41 fails by 1
    assert difference(83, 41) == 1  # 41.5 is made by 1
    assert difference(82, 41) == 0
    assert difference(2 * 36 + 29, 36) == 15


def test_a_contract_made_and_failed_at_each_multiplier() -> None:
    for contract, multiplier in ((1, 1), (2, 2), (3, 4), (4, 6)):
        tricks = deal_tricks(1, [1] * 12 + [2] * 6)
        score = score_deal(contract, 1, tricks, dog=[])
        diff = difference(score.halves, score.needed)
        sign = 1 if score.made else -1
        assert score.deal == sign * (25 + diff) * multiplier
        assert score.scores == (3 * score.deal, -score.deal, -score.deal, -score.deal)
        assert sum(score.scores) == 0


def test_the_count_needs_56_51_41_36_points() -> None:
    tricks = deal_tricks(2, [3] * 18)
    for oudlers, needed in ((0, 56), (1, 51), (2, 41), (3, 36)):
        dog = [PETIT, MONDE, EXCUSE][:oudlers]
        score = score_deal(3, 2, tricks, dog=dog)
        assert score.needed == needed and not score.made


def test_petit_au_bout_for_either_side_and_a_chelem_for_either_side() -> None:
    def last_with_petit(winner: int, others: int) -> list[tuple[int, list[int], int]]:
        tricks = deal_tricks(1, [others] * 17 + [winner])
        petit_trick = next(n for n, t in enumerate(tricks) if PETIT in t[1])
        tricks[petit_trick], tricks[17] = (
            (1, tricks[17][1], tricks[petit_trick][2]),
            (1, tricks[petit_trick][1], winner),
        )
        return tricks

    taker = score_deal(2, 1, last_with_petit(1, 1), dog=[])
    assert taker.petit == 1 and taker.chelem == 1 and taker.made
    assert taker.deal == (25 + difference(taker.halves, taker.needed) + 10) * 2 + 200
    defence = score_deal(2, 1, last_with_petit(3, 2), dog=[])
    assert defence.petit == -1 and defence.chelem == -1 and not defence.made
    assert defence.deal == -(25 + difference(defence.halves, defence.needed)) * 2 - 20 - 200
    mixed = score_deal(2, 1, last_with_petit(2, 1), dog=[])
    assert mixed.petit == -1 and mixed.chelem == 0


def test_garde_contre_gives_the_dog_to_the_defence_garde_sans_to_the_taker() -> None:
    tricks = deal_tricks(1, [2] * 18)
    dog = [C + KING, S + KING, H + KING, PETIT, MONDE, EXCUSE]
    assert score_deal(3, 1, tricks, dog=dog).halves == 6 * 9
    assert score_deal(4, 1, tricks, dog=dog).halves == 0


# --- the match ------------------------------------------------------------------------------


def test_ranks_share_equal_totals() -> None:
    assert ranks((10, 10, -5, -15)) == (1, 1, 3, 4)
    assert ranks((0, 0, 0, 0)) == (1, 1, 1, 1)
    assert ranks((-3, 9, -3, -3)) == (2, 1, 2, 2)


def random_value(game: Game, rng: random.Random) -> str:
    """Return a legal Value of the seat asked, drawn with ``rng``."""
    shown = game.advanced() if game.phase is Phase.SCORED else game
    legal = shown.legal()
    if shown.phase is Phase.ECART:
        cards = [int(card) for card in legal]
        plain = [card for card in cards if card < PETIT]
        chosen = rng.sample(plain, min(6, len(plain)))
        chosen += rng.sample([card for card in cards if card >= PETIT], 6 - len(chosen))
        return text(sorted(chosen))
    return rng.choice(legal)


def test_a_match_ends_after_its_deals_with_every_hand_shown() -> None:
    rng = random.Random(5)
    turn = RULES.start(deals=2)
    while not turn.over:
        turn = RULES.play(turn.state, random_value(Game.load(turn.state), rng))
    game = Game.load(turn.state)
    assert game.played == 2 and game.phase is Phase.SCORED and RULES.asked(turn.state) == ()
    result = RULES.result(turn.state)
    assert result is not None and result.ranks == ranks(game.totals)
    assert turn.params["Method"] == "End" and sum(game.totals) == 0
    page = RULES.page(turn, None, asking=False)
    assert "??" not in page["Tray"] and page["Method"] == "End"
    with pytest.raises(IllegalMove):
        RULES.play(turn.state, "0")


def test_a_match_is_1_to_40_deals() -> None:
    for deals in (0, 41):
        with pytest.raises(IllegalMove):
            RULES.start(deals=deals)
    with pytest.raises(IllegalMove):
        RULES.start(level=2)


def test_a_corrupt_state_is_refused() -> None:
    state = dict(RULES.start().state)
    for broken in ({"hands": [[1]] * 4}, {"phase": "X"}, {"deals": 0}, {"bids": [9, 0, 0, 0]}):
        with pytest.raises(IllegalMove):
            RULES.asked({**state, **broken})


# --- a property over random legal deals ---------------------------------------------------


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack=st.permutations(list(range(78))), seed=st.integers(0, 2**32 - 1))
def test_random_legal_deals_keep_the_78_cards_and_a_zero_sum(pack: list[int], seed: int) -> None:
    rng = random.Random(seed)
    turn = RULES.start(deals=1, decks=[pack])
    while not turn.over:
        game = Game.load(turn.state)
        assert sorted(game.cards()) == list(range(78))
        assert sum(game.totals) == 0
        (player,) = RULES.asked(turn.state)
        shown = game.advanced() if game.phase is Phase.SCORED else game
        if shown.phase is Phase.PLAY:
            hand = shown.hands[int(player) - 1]
            legal = {int(card) for card in shown.legal()}
            assert legal and legal <= set(hand)
            for card in set(hand) - legal:
                with pytest.raises(IllegalMove):
                    RULES.engine_value(turn.state, player, f"{card:02d}")
        value = random_value(game, rng)
        turn = RULES.play(turn.state, RULES.engine_value(turn.state, player, value))
    game = Game.load(turn.state)
    assert sum(game.totals) == 0 and sorted(game.cards()) == list(range(78))
    if game.score is not None:
        assert game.score["halves"] % 2 == 0  # four-seat counts are whole points
        assert len(game.tricks) == 18


# --- the rules' fast paths, against the straightforward ones ---------------------------


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    packs=st.lists(st.permutations(list(range(78))), min_size=2, max_size=2),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_game_kept_and_written_straight_is_the_game_read_and_written_as_a_tray(
    packs: list[list[int]], seed: int
) -> None:
    """Every position of a match: the game the rules keep for a state is the game read
    from it, its key the state's, and each Tray written straight from the game's numbers
    is its :class:`Tray` written."""
    rng = random.Random(seed)
    turn = RULES.start(deals=2, decks=packs[:1])  # the second deal: a fresh shuffle
    while True:
        state = json.loads(json.dumps(turn.state))
        read = Game.read(state)
        assert Game.load(state) == read == Game.load(dict(state))
        assert tarot_game.game_key(read) == tarot_game.state_key(state)
        for seat in (None, 1, 2, 3, 4):
            for everything in (False, True):
                tray = read.tray(seat, everything=everything)
                assert read.tray_text(seat, everything=everything) == tray.text()
                assert read.dog_shown(seat, everything=everything) == tray.dog
        if turn.over:
            break
        (player,) = RULES.asked(state)
        shown = read.advanced() if read.phase is Phase.SCORED else read
        position = tarot_game.position_of(state)
        assert position.game == read
        assert tarot_rules._seat_fields(position, int(player)) == shown.fields(int(player))
        assert shown.params(int(player)).params == shown.fields(int(player))
        value = random_value(read, rng)
        turn = RULES.play(state, RULES.engine_value(state, player, value))


@given(cards=st.lists(st.one_of(st.none(), st.integers(-5, 90)), max_size=30))
def test_cards_are_written_as_one_by_one(cards: list[int | None]) -> None:
    known = sorted(card for card in cards if card is not None)
    expected = "".join(card_text(card) for card in known) + "??" * cards.count(None)
    assert cards_text(cards) == expected
    for card in known:
        if card >= 0:
            assert suit(card) == tarot_cards._suit(card)


def straightforward_legal(hand: Sequence[int], played: Sequence[int]) -> tuple[int, ...]:
    """Return the cards of ``hand`` that may be played on ``played``, card by card."""
    cards = tuple(sorted(hand))
    led = next((card for card in played if card != EXCUSE), None)
    if led is None:
        return cards
    excuse = (EXCUSE,) if EXCUSE in cards else ()
    if not PETIT <= led < EXCUSE:
        same = tuple(card for card in cards if card != EXCUSE and suit(card) == suit(led))
        if same:
            return same + excuse
    trumps = tuple(card for card in cards if PETIT <= card < EXCUSE)
    if not trumps:
        return cards
    top = max((card for card in played if PETIT <= card < EXCUSE), default=0)
    return (tuple(card for card in trumps if card > top) or trumps) + excuse


@given(cards=st.permutations(list(range(78))), held=st.integers(0, 18), played=st.integers(0, 3))
def test_legal_cards_are_those_chosen_card_by_card(
    cards: list[int], held: int, played: int
) -> None:
    hand, trick = cards[:held], cards[held : held + played]
    assert legal_cards(hand, trick) == straightforward_legal(hand, trick)


def test_a_game_play_made_is_checked_when_its_state_is_first_read() -> None:
    """``play`` keeps the game it made unchecked; the first call reading its state checks
    it as :meth:`Game.read` would, with the same words (here, a corrupt game slipped in)."""
    state = RULES.start(deals=1).state
    game = Game.read(state)
    broken = tarot_game._changed(game, bids=(9, 0, 0, 0))
    key = tarot_game.game_key(broken)
    assert key is not None
    tarot_game.POSITIONS.keep(key, tarot_game.Position(broken, checked=False))
    with pytest.raises(IllegalMove) as refused:
        RULES.asked(broken.state())
    with pytest.raises(IllegalMove) as read:
        Game.read(broken.state())
    assert str(refused.value) == str(read.value) == "the match's state is corrupt: a bid is 0 to 4"
