"""Tarot: the engines' view, the pages' hidden information and the built-in engines.

``docs/reference/tarot.md`` section 3 (parameters, who sees what, Value, Status's ranks):
an engine sees its own hand only, a spectator no hand, a replay every hand; ``Turn``,
``Gain1``..``Gain4``, ``Move1``..``Move4``; the built-in engines only ever play legal
Values, answer garbage with ``0``, and the strong one plays a whole match.
"""

from __future__ import annotations

import pytest

from tournoyons_gui.interfaces.plugin import IllegalMove, seat_count
from tournoyons_gui.interfaces.protocol import Player
from tournoyons_gui.interfaces.tarot import interface
from tournoyons_gui.interfaces.tarot.cards import Phase, parse_tray
from tournoyons_gui.interfaces.tarot.engines import (
    ENGINES,
    hand_strength,
    play_match,
    random_engine,
    strong_engine,
)
from tournoyons_gui.interfaces.tarot.rules import RULES, Game, ranks


def test_the_set_has_four_seats_and_its_engines() -> None:
    assert interface.rules is RULES and interface.arbitre is not None and seat_count(RULES) == 4
    assert list(interface.engines) == ["random", "strong"] and interface.referee is None
    assert RULES.engine_set == "Tarot" and RULES.levels == (1,)


def test_an_engine_sees_its_own_hand_only() -> None:
    turn = RULES.start()
    (player,) = RULES.asked(turn.state)
    request = RULES.request(turn.state, player)
    assert request.move_id == 1
    assert list(request.params) == ["Turn", "Gain1", "Gain2", "Gain3", "Gain4", "Tray"]
    tray = parse_tray(request.params["Tray"])
    assert tray.phase is Phase.BIDDING and None not in tray.hands[int(player) - 1]
    for seat in range(4):
        if seat != int(player) - 1:
            assert tray.hands[seat] == (None,) * 18
    assert tray.dog == (None,) * 6


def test_a_spectator_sees_no_hand_and_a_replay_every_hand() -> None:
    turn = RULES.start()
    spectator = parse_tray(RULES.page(turn, None, asking=False)["Tray"])
    assert all(hand == (None,) * 18 for hand in spectator.hands)
    replay = parse_tray(RULES.page(turn, None, asking=False, reveal=True)["Tray"])
    assert all(None not in hand for hand in replay.hands) and None not in replay.dog
    mine = parse_tray(RULES.page(turn, Player.THREE, asking=False)["Tray"])
    assert None not in mine.hands[2] and mine.hands[0] == (None,) * 18


def test_between_two_deals_the_seat_asked_is_shown_the_next_deal() -> None:
    turn = RULES.start(deals=2)
    for _ in range(4):
        turn = RULES.play(turn.state, "0")
    game = Game.load(turn.state)
    assert game.phase is Phase.SCORED and RULES.asked(turn.state) == (Player.TWO,)
    watched = parse_tray(RULES.page(turn, Player.TWO, asking=False)["Tray"])
    asked = parse_tray(RULES.page(turn, Player.TWO, asking=True)["Tray"])
    sent = parse_tray(RULES.request(turn.state, Player.TWO).params["Tray"])
    assert watched.phase is Phase.SCORED and watched.deal == 1 and None not in watched.dog
    assert asked.phase is sent.phase is Phase.BIDDING and asked.deal == sent.deal == 2
    assert asked.hands[1] == sent.hands[1] == game.advanced().hands[1]


def test_values_out_of_turn_or_illegal_are_refused() -> None:
    turn = RULES.start()
    with pytest.raises(IllegalMove):
        RULES.engine_value(turn.state, Player.TWO, "0")
    for value in ("9", "", "0000", "??"):
        with pytest.raises(IllegalMove):
            RULES.engine_value(turn.state, Player.ONE, value)
    assert RULES.engine_value(turn.state, Player.ONE, " 2 ") == "2"


def test_the_final_call_carries_the_totals_and_every_card() -> None:
    final = play_match([random_engine] * 4, deals=1)
    params = RULES.final(final, Player.FOUR)
    assert [params[f"Gain{n}"] for n in range(1, 5)] == [str(t) for t in final["totals"]]
    assert params["Turn"] == str(final["count"] + 1) and "??" not in params["Tray"]
    assert RULES.result(final) is not None


@pytest.mark.parametrize("name", ["random", "strong"])
def test_a_built_in_engine_plays_a_whole_match_legally(name: str) -> None:
    final = play_match([ENGINES[name]] * 4, deals=2)
    game = Game.load(final)
    assert game.over and game.played == 2 and sum(game.totals) == 0
    result = RULES.result(final)
    assert result is not None and result.ranks == ranks(game.totals)


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"Seat": "5", "Tray": "Init"},
        {"Seat": "1", "Tray": "garbage"},
        {"Seat": "2", "Tray": RULES.page(RULES.start(), None, asking=False)["Tray"]},
        {"Seat": "1", "Tray": "01S.0000......."},
    ],
)
def test_an_engine_answers_what_it_cannot_read_with_0(params: dict[str, str]) -> None:
    for engine in ENGINES.values():
        assert engine(params) == "0"


def test_strong_bids_from_the_hand_s_strength() -> None:
    kings = [13, 27, 41, 55]
    strong = [56, 76, 77, *range(60, 75), *kings][:18]
    weak = [*range(0, 9), *range(14, 23)]
    assert hand_strength(strong) > hand_strength(weak)
    tray = ".".join(("01B", "----", "".join(f"{c:02d}" for c in sorted(strong)), *["??" * 18] * 3))
    tray += "." + "??" * 6 + ".."
    assert strong_engine({"Seat": "1", "Tray": tray}) in ("3", "4")
    weak_tray = tray.replace(
        "".join(f"{c:02d}" for c in sorted(strong)), "".join(f"{c:02d}" for c in weak)
    )
    assert strong_engine({"Seat": "1", "Tray": weak_tray}) == "0"


def test_strong_puts_aside_to_make_voids() -> None:
    hand = [0, 1, *range(14, 22), 27, 28, 29, 41, 55, *range(60, 69)]
    # clubs 1, 2 (no king): a void; then the spades' cards worth most.
    tray = ".".join(("01E", "1000", "".join(f"{c:02d}" for c in sorted(hand)), *["??" * 18] * 3))
    tray += "." + "??" * 6 + ".."
    ecart = strong_engine({"Seat": "1", "Tray": tray})
    cards = [int(ecart[at : at + 2]) for at in range(0, 12, 2)]
    assert {0, 1} <= set(cards) and not any(card >= 56 for card in cards)
