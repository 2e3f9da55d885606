"""Tarot's page without a browser: the view model from many Trays, and the page's HTML.

Spec ``docs/reference/tarot.md`` section 3 (the page, who sees what, the DOM contract); the
positions come from whole deals played at random (``tests/tarot_deals.py``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest
from starlette.testclient import TestClient

from tests.tarot_deals import Position, positions, seen_by
from tournoyons_gui.interfaces.protocol import Player, read_context
from tournoyons_gui.interfaces.tarot import interface
from tournoyons_gui.interfaces.tarot.board import FACES, PLACES, TarotView, build
from tournoyons_gui.interfaces.tarot.cards import EXCUSE, OUDLERS, Phase, is_trump, rank, suit
from tournoyons_gui.server.app import create_app

WORDS = {1: "One", 2: "Two", 3: "Three", 4: "Four"}
SEEDS = range(12)


def view(params: Mapping[str, str]) -> TarotView:
    """Return the view model of the page for ``params`` (four seats read)."""
    return build(read_context({k.lower(): v for k, v in params.items()}, 4))


def codes(v: TarotView) -> set[str]:
    """Return the error codes of ``v``."""
    return {error.code for error in v.errors}


def deal(seed: int) -> list[Position]:
    """Return every position of deal ``seed``."""
    return list(positions(seed))


def oracle_cards(hand: list[int], played: list[int]) -> set[int]:
    """The spec's rule of play (section 2), written again here from its text: follow the
    suit led; without it trump; on a trump play higher when one can; else any card; the
    excuse always."""
    led = next((card for card in played if card != EXCUSE), None)
    if led is None:
        return set(hand)
    if led < 56 and any(c < 56 and suit(c) == suit(led) for c in hand):
        return {c for c in hand if c == EXCUSE or (c < 56 and suit(c) == suit(led))}
    trumps = [c for c in hand if is_trump(c)]
    if not trumps:
        return set(hand)
    top = max((c for c in played if is_trump(c)), default=0)
    higher = [c for c in trumps if c > top]
    return set(higher or trumps) | ({EXCUSE} & set(hand))


# --- the sample -----------------------------------------------------------------------


def test_the_sample_asks_seat_one_for_a_card_from_its_hand() -> None:
    v = view(interface.sample)
    assert v.errors == ()
    assert (v.viewer, v.phase, v.player) == (1, "P", Player.ONE)
    mine = v.mine
    assert mine is not None and mine.place == "bottom" and mine.count == 18
    # Seat 1 leads the first trick: every card may be played.
    assert v.playable == tuple(card.code for card in mine.cards)
    assert [seat.place for seat in v.seats] == list(PLACES)
    assert [seat.count for seat in v.seats] == [18, 18, 18, 18]
    assert v.leader == 1 and v.trick == ()


# --- many positions ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_every_position_asks_its_seat_for_exactly_the_legal_values(seed: int) -> None:
    for position in deal(seed):
        seat = position.acting
        if seat is None:
            continue
        tray = seen_by(position.tray, seat)
        v = view({"Tray": tray.text(), "Input": WORDS[seat]})
        assert v.errors == (), (tray.text(), v.errors)
        assert v.viewer == seat and v.player == Player(seat)
        hand = [c for c in position.tray.hands[seat - 1] if c is not None]
        if tray.phase is Phase.BIDDING:
            best = max((bid or 0 for bid in tray.bids), default=0)
            assert v.playable == tuple(str(b) for b in range(5) if b == 0 or b > best)
            assert [b.allowed for b in v.bids] == [b == 0 or b > best for b in range(5)]
        elif tray.phase is Phase.ECART:
            assert v.composed and v.ecart and v.playable == ()
            mine = v.mine
            assert mine is not None and mine.count == 24
            chosen = {int(c.code) for c in mine.cards if c.selectable}
            assert not chosen & OUDLERS
            assert all(rank(c) != 14 or is_trump(c) for c in chosen)
        else:
            assert tray.trick is not None
            played = [
                tray.trick.cards[(tray.trick.leader - 1 + k) % 4]
                for k in range(4)
                if tray.trick.cards[(tray.trick.leader - 1 + k) % 4] is not None
            ]
            wanted = oracle_cards(hand, [c for c in played if c is not None])
            assert set(v.playable) == {f"{c:02d}" for c in wanted}
        assert position.value is not None
        if not v.composed:
            assert position.value in v.playable


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_seats_show_as_many_cards_as_the_tray_says_and_only_what_the_viewer_sees(
    seed: int,
) -> None:
    for position in deal(seed)[::5]:
        for viewer in (1, 2, 3, 4, None):
            tray = seen_by(position.tray, viewer)
            params = {"Tray": tray.text()}
            v = view(params)
            assert v.errors == ()
            for seat in v.seats:
                codes_shown = [card.code for card in seat.cards]
                assert len(codes_shown) == len(tray.hands[seat.seat - 1])
                if viewer is not None and seat.seat != viewer:
                    assert set(codes_shown) <= {"??"}
            # The viewer sits at the bottom (seen by its hand); a spectator's table has seat 1.
            holds = viewer is not None and bool(tray.hands[viewer - 1])
            assert v.viewer == (viewer if holds else 1)
            assert v.player is None and v.playable == ()


def test_a_seat_not_asked_by_the_position_gets_the_input_error_and_nothing() -> None:
    sample = dict(interface.sample)
    v = view({**sample, "Input": "Three"})
    assert codes(v) == {"input"} and v.playable == () and v.player is None


def test_webtest_hands_input_to_the_seat_to_act_when_its_hand_is_shown() -> None:
    position = next(p for p in deal(3) if p.tray.phase is Phase.PLAY)
    assert position.acting is not None
    tray = seen_by(position.tray, position.acting)
    v = view({"Tray": tray.text(), "WebTest": "yes"})
    assert v.viewer == position.acting and v.player == Player(position.acting)
    # A spectator's WebTest page asks nobody: no hand to play from.
    assert view({"Tray": seen_by(position.tray, None).text(), "WebTest": "yes"}).player is None


# --- Wait: the card played and the trick won --------------------------------------------


def test_the_last_card_of_a_trick_arrives_then_the_trick_goes_to_its_winner() -> None:
    plays = [p for p in deal(5) if p.tray.phase is Phase.PLAY]
    before, after = plays[3], plays[4]  # the fourth card, then the second trick's lead
    assert before.acting is not None and before.value is not None and after.acting is not None
    tray = seen_by(after.tray, after.acting)
    v = view({"Tray": tray.text(), f"Move{before.acting}": before.value, "Wait": "10"})
    won = tray.tricks[-1]
    assert v.gathered is not None and v.delayed
    assert v.gathered.winner == won.winner
    assert {card.code for card in v.gathered.cards} == {f"{c:02d}" for c in won.cards if c}
    arriving = [card for card in v.gathered.cards if card.arrives]
    assert [card.code for card in arriving] == [before.value]
    assert arriving[0].last_move == before.acting
    # Without the Move, nothing is in flight: the trick is only shown on demand.
    quiet = view({"Tray": tray.text()})
    assert quiet.gathered is None and len(quiet.previous) == 4


def test_a_card_played_to_the_trick_in_play_arrives_from_its_seat() -> None:
    plays = [p for p in deal(5) if p.tray.phase is Phase.PLAY]
    before, after = plays[5], plays[6]
    assert before.acting is not None and before.value is not None
    v = view({"Tray": after.tray.text(), f"Move{before.acting}": before.value})
    moving = [card for card in v.trick if card.arrives]
    assert [(card.code, card.seat, card.last_move) for card in moving] == [
        (before.value, before.acting, before.acting)
    ]
    assert v.gathered is None


# --- broken values --------------------------------------------------------------------


@pytest.mark.parametrize(
    "tray",
    [
        "x",
        "01P.0200",
        "00B.----........",
        "01X.----.........",
        "01B.--5-." + "00" * 18 + "......",
        "01B.----.0078........",
        "01P.0200." + "01" * 18 + "......",  # a card shown 18 times
        "01B.----.........1--------.",  # a trick outside the play
        "01P.----.........1--------.",  # playing before the bidding ends
        "01B.----." + "??" * 30 + ".......",
    ],
)
def test_a_broken_tray_is_the_tray_error_and_never_an_exception(tray: str) -> None:
    v = view({"Tray": tray, "Input": "One"})
    assert "tray" in codes(v)
    assert v.playable == () and v.player is None


@pytest.mark.parametrize(
    ("name", "value"),
    [("Gain3", "x"), ("Gain4", "1.5"), ("Move2", "7"), ("Move1", "123"), ("Move4", "99")],
)
def test_a_gain_or_move_that_cannot_be_read_is_its_error(name: str, value: str) -> None:
    v = view({**interface.sample, name: value})
    assert codes(v) == {name.lower()}


def test_gains_are_signed_and_the_best_total_wins_at_the_end() -> None:
    last = deal(2)[-1]
    v = view(
        {
            "Tray": last.tray.text(),
            "Method": "End",
            "Gain1": "-75",
            "Gain2": "225",
            "Gain3": "-75",
            "Gain4": "-75",
        }
    )
    assert [seat.gain_text for seat in v.seats] == ["-75", "+225", "-75", "-75"]
    assert [seat.winner for seat in v.seats] == [False, True, False, False]
    assert v.sound == "win" and v.player is None and v.dog_shown


# --- the faces ------------------------------------------------------------------------


def test_every_card_has_its_own_face_and_name() -> None:
    assert len({face.label for face in FACES}) == 78
    for number, face in enumerate(FACES):
        if number < 56 and rank(number) <= 10:
            assert (face.kind, len(face.pips), face.index) == (
                "pip",
                rank(number),
                str(rank(number)),
            )
        elif number < 56:
            assert face.kind == "court" and face.court
        elif number < EXCUSE:
            assert face.kind == "trump" and face.index == str(number - 55)
        else:
            assert face.kind == "excuse"
        assert face.oudler == (number in OUDLERS)


# --- the page's HTML --------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> TestClient:
    """A client of the whole application, in process."""
    return TestClient(create_app())


def page(client: TestClient, params: Mapping[str, str]) -> str:
    """Return the Tarot page's HTML for ``params``; it must be a 200."""
    answer = client.get("/tarot/", params=dict(params))
    assert answer.status_code == 200
    return answer.text


def test_the_page_holds_the_dom_contract(client: TestClient) -> None:
    html = page(client, {**interface.sample, "Name1": "MissOne", "Name2": "MrTwo"})
    for seat in "1234":
        hand = re.search(
            rf'data-hand="{seat}".*?</g>\n  </g>|data-hand="{seat}".*?\n  </g>', html, re.S
        )
        assert hand is not None
        assert hand.group(0).count("data-card=") == 18
        assert f'data-name="{seat}"' in html and f'data-gain="{seat}"' in html
    assert re.search(r"<g[^>]*data-dog[^>]*>", html)
    assert re.search(r"<g[^>]*data-trick[^>]*data-leader=\"1\"", html)
    for name in ("MissOne", "MrTwo", "MsThree", "MrFour"):
        assert f">{name}</div>" in html
    # Playable marks are the script's: the page without script asks nothing.
    assert "data-playable" not in html


def test_the_bidding_page_has_five_bid_controls(client: TestClient) -> None:
    first = deal(1)[0]
    assert first.acting is not None
    html = page(
        client, {"Tray": seen_by(first.tray, first.acting).text(), "Input": WORDS[first.acting]}
    )
    assert [int(b) for b in re.findall(r'data-bid="(\d)"', html)] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(
    "tray", ["01P.0200." + "01" * 18 + "......", "junk", "01B.----." + "<script>" * 3]
)
def test_a_broken_tray_is_drawn_with_data_error_not_a_500(client: TestClient, tray: str) -> None:
    html = page(client, {"Tray": tray, "Input": "One", "Name3": "<b>x</b>"})
    assert 'data-error="tray' in html
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
