"""Tarot through the Arbitre in real Chromium (tarot.md section 3): a person at seat 1 plays
a whole deal against three built-in engines on the Arbitre's game page
(``arbitre/templates/arbitre/game.html``), the Tarot page in its ``iframe[data-board]``: the
bids, the écart when taking, every card; then the deal is replayed with every hand shown.
Spectators of a live game see no hand, unless the game was created as an open table.

The deal of a game made through the Arbitre is shuffled by the Arbitre (no pack can be
given to it), so the person takes by speaking first (seat 1 speaks first in deal 1) with a
garde, against three ``strong`` engines: they overbid only with a hand worth a garde sans
(:data:`~tournoyons_gui.interfaces.tarot.engines.BID_THRESHOLDS`, about 3 deals in 100);
when one does, the test plays on with a new game, at most :data:`MAX_GAMES` of them.

What is legal is read from the rules (``legal_cards``, ``ecart_choices``,
``trick_winner``) on the Tray the page was given, and compared with what the page marks
playable and draws.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import FrameLocator, Page, expect

from tests.browser.arbitre_helpers import (
    board,
    board_query,
    create_game,
    expect_end_shown,
    open_game,
    record,
    view,
    wait_over,
    wait_turn,
)
from tests.browser.helpers import PageWatch, playable_values, query_of
from tests.browser.test_tarot import STRIP, codes_in
from tournoyons_gui.interfaces.tarot.board import played_in_order
from tournoyons_gui.interfaces.tarot.cards import (
    DOG_SIZE,
    HAND_SIZE,
    HIDDEN,
    SEATS,
    Phase,
    Tray,
    card_text,
    is_trump,
    parse_tray,
)
from tournoyons_gui.interfaces.tarot.play import (
    allowed_bids,
    ecart_choices,
    legal_cards,
    trick_winner,
)

SET = "Tarot"
PERSON = "Ann"
# The person's bid: a garde, which asks for the écart when the others pass.
GARDE = "2"
# Games started at most until the three engines pass the person's garde (all three pass
# in about 97 deals in 100: five games in a row without it, about 2e-8).
MAX_GAMES = 5


def texts(cards: tuple[int | None, ...] | list[int]) -> list[str]:
    """Return cards as the page writes them (``HIDDEN`` for a hidden one)."""
    return [HIDDEN if card is None else card_text(card) for card in cards]


def shown_tray(page: Page) -> Tray:
    """Return the Tray the game page gave its board now."""
    return parse_tray(board_query(page)["Tray"])


def returns(page: Page) -> list[str]:
    """Return the values the board returned to the game page, in order."""
    found: list[str] = page.evaluate("() => window.__arbitre.returns")
    return found


def person_seats() -> list[dict[str, str]]:
    """The seats of the games played: the person, then three ``strong`` engines."""
    return [
        {"kind": "person", "name": PERSON},
        *({"kind": "builtin", "engine": "strong"} for _ in range(SEATS - 1)),
    ]


# --- the bids and the écart -------------------------------------------------------------


def bid_a_garde(page: Page) -> None:
    """The person, first to speak, is offered every bid; they bid a garde."""
    frame = board(page)
    tray = shown_tray(page)
    assert tray.phase is Phase.BIDDING and tray.bids == (None,) * SEATS, tray
    assert sorted(playable_values(frame)) == sorted(str(b) for b in allowed_bids(tray.bids))
    assert sorted(playable_values(frame)) == ["0", "1", "2", "3", "4"]
    # Only the person's own hand is shown, 18 cards, the others' backs.
    assert codes_in(frame, ".tr-mine") == texts(tray.hands[0]) and len(tray.hands[0]) == HAND_SIZE
    for seat in range(2, SEATS + 1):
        assert set(codes_in(frame, f'[data-hand="{seat}"]')) == {HIDDEN}
    frame.locator(f"[data-bid='{GARDE}']").click()
    expect(frame.locator('[data-said="1"]')).to_have_attribute("data-bid-said", GARDE)


def take(page: Page, base: str) -> dict[str, Any]:
    """Start games until the person's garde takes: return the game (``created``) whose
    page now asks the person for the écart, the bids made."""
    for _ in range(MAX_GAMES):
        created = create_game(base, SET, person_seats(), deals=1)
        open_game(page, base, created["persons"][0]["url"])
        assert wait_turn(page) == "asked"
        bid_a_garde(page)
        assert wait_turn(page, 1) == "asked"
        if board(page).locator("[data-ecart]").count():
            return created
        # An engine overbid: the person is asked for a card. That game is left in play
        # (a person has no time limit; the test's server goes with the session).
    raise AssertionError(f"an engine overbid the garde in {MAX_GAMES} games")


def make_the_ecart(page: Page) -> str:
    """The taker's 24 cards, those the rules let go offered; six chosen on the page (the
    plain cards first), then validated. Return the écart returned."""
    frame = board(page)
    tray = shown_tray(page)
    assert tray.phase is Phase.ECART and tray.bids == (2, 0, 0, 0), tray
    for seat in range(1, SEATS + 1):
        expect(frame.locator(f'[data-said="{seat}"]')).to_have_attribute(
            "data-bid-said", str(tray.bids[seat - 1])
        )
    hand = [card for card in tray.hands[0] if card is not None]
    assert len(hand) == HAND_SIZE + DOG_SIZE
    assert sorted(codes_in(frame, ".tr-mine")) == sorted(texts(hand))
    allowed, trumps = ecart_choices(hand)
    offered = frame.locator(".tr-mine [data-selectable='true']").evaluate_all(
        "els => els.map(e => e.getAttribute('data-card'))"
    )
    # Never a king or an oudler; a trump only when the plain cards are too few.
    assert sorted(offered) == sorted(
        texts([card for card in allowed if trumps or not is_trump(card)])
    )
    expect(frame.locator(".tarot")).to_have_attribute("data-ecart-trumps", str(trumps))
    confirm = frame.locator("[data-ecart]")
    expect(confirm).to_have_attribute("aria-disabled", "true")
    chosen = sorted(allowed, key=lambda card: (is_trump(card), card))[:DOG_SIZE]
    assert sum(1 for card in chosen if is_trump(card)) <= trumps
    for card in chosen:
        frame.locator(f'.tr-mine [data-card="{card_text(card)}"]').click(position=STRIP)
    value = "".join(sorted(card_text(card) for card in chosen))
    expect(confirm).to_have_attribute("data-value", value)
    expect(confirm).to_have_attribute("data-playable", "true")
    confirm.click()
    return value


# --- the cards ---------------------------------------------------------------------------


def check_trick_gone_to_winner(frame: FrameLocator, tray: Tray) -> None:
    """The last trick won, shown on demand, went to the seat the rules make its winner,
    who leads the trick now in play."""
    if not tray.tricks:
        expect(frame.locator("[data-previous]")).to_have_count(0)
        return
    won = tray.tricks[-1]
    cards = [card for card in won.cards if card is not None]
    assert len(cards) == SEATS
    winner = trick_winner(won.leader, cards)
    assert won.winner == winner, won
    previous = frame.locator("[data-previous]")
    expect(previous.locator(".tr-previous-trick")).to_have_attribute("data-winner", str(winner))
    assert sorted(codes_in(frame, "[data-previous]")) == sorted(texts(cards))
    assert tray.trick is not None and tray.trick.leader == winner
    expect(frame.locator("[data-trick]")).to_have_attribute("data-leader", str(winner))


def play_a_card(page: Page, played: int, rng: random.Random) -> str:
    """The person's turn in the play: the hand holds the cards not yet played, only the
    rules' legal cards are playable, one not legal does nothing when clicked, a legal one
    leaves the hand. Return the card returned."""
    frame = board(page)
    tray = shown_tray(page)
    assert tray.phase is Phase.PLAY and tray.trick is not None, tray
    hand = [card for card in tray.hands[0] if card is not None]
    assert len(hand) == HAND_SIZE - played
    mine = frame.locator(".tr-mine [data-card]")
    expect(mine).to_have_count(HAND_SIZE - played)
    assert codes_in(frame, ".tr-mine") == texts(hand)
    for seat in range(2, SEATS + 1):
        assert set(codes_in(frame, f'[data-hand="{seat}"]')) <= {HIDDEN}
    check_trick_gone_to_winner(frame, tray)
    legal = texts(list(legal_cards(hand, played_in_order(tray.trick))))
    assert sorted(playable_values(frame)) == sorted(legal)
    before = len(returns(page))
    refused = [code for code in texts(hand) if code not in legal]
    if refused:  # clicked, it is not returned: the next value returned is the legal card
        frame.locator(f'.tr-mine [data-card="{refused[0]}"]').click(position=STRIP, force=True)
    value = rng.choice(legal)
    frame.locator(f'.tr-mine [data-card="{value}"]').click(position=STRIP)
    expect(frame.locator(f'.tr-mine [data-card="{value}"]')).to_have_count(0)
    expect(mine).to_have_count(HAND_SIZE - played - 1)
    page.wait_for_function("n => window.__arbitre.returns.length > n", arg=before)
    assert returns(page)[before:] == [value]
    return value


def check_spectator_sees_no_hand(page: Page, base: str, game_id: str) -> None:
    """A spectator's page of the game in play (its watch link): every hand face down,
    nothing playable, never asked."""
    watcher = page.context.new_page()
    try:
        open_game(watcher, base, f"/games/{game_id}")
        expect(watcher.locator("[data-game]")).to_have_attribute("data-status", "playing")
        query = query_of(watcher.locator("[data-board]").get_attribute("src") or "")
        assert "Input" not in query and "URLReturn" not in query, query
        frame = board(watcher)
        expect(frame.locator("html")).to_have_attribute("data-ready", "true")
        for seat in range(1, SEATS + 1):
            drawn = codes_in(frame, f'[data-hand="{seat}"]')
            assert drawn and set(drawn) == {HIDDEN}, (seat, drawn)
        expect(frame.locator("[data-playable='true']")).to_have_count(0)
    finally:
        watcher.close()


# --- the tests ---------------------------------------------------------------------------


@pytest.mark.slow
def test_a_person_takes_and_plays_a_whole_deal_against_three_engines_then_replays_it(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    created = take(page, live_server)
    game_id = created["id"]
    ecart = make_the_ecart(page)
    assert returns(page) == [GARDE, ecart]
    check_spectator_sees_no_hand(page, live_server, game_id)

    rng = random.Random(21)
    played: list[str] = []
    while wait_turn(page, 2 + len(played)) == "asked":
        assert len(played) < HAND_SIZE, "asked for a 19th card"
        played.append(play_a_card(page, len(played), rng))
    assert len(played) == HAND_SIZE

    # The deal is over: the totals shown sum to 0 and are the record's.
    rec = wait_over(live_server, game_id)
    assert rec["status"] == "over" and rec["result"] == "ranked", rec["reason"]
    scores = [seat["score"] for seat in rec["seats"]]
    assert sum(scores) == 0 and any(scores)
    expect_end_shown(page)
    frame = board(page)
    shown = [
        int(frame.locator(f'[data-gain="{seat}"]').text_content() or "")
        for seat in range(1, SEATS + 1)
    ]
    assert shown == scores
    moves = rec["moves"]
    assert [m["value"] for m in moves if m["seat"] == 0] == [GARDE, ecart, *played]
    assert [m["value"] for m in moves[:4]] == [GARDE, "0", "0", "0"]
    assert len(moves) == SEATS + 1 + SEATS * HAND_SIZE
    final = parse_tray(moves[-1]["tray"])
    assert len(final.tricks) == HAND_SIZE and final.phase is Phase.SCORED
    assert sorted(texts(final.dog)) == sorted(ecart[k : k + 2] for k in range(0, 12, 2))
    for seat in range(1, SEATS + 1):
        expect(page.locator(f"[data-seat-row='{seat - 1}'] [data-final-status]")).to_have_text(
            str(rec["seats"][seat - 1]["status"])
        )

    # The replay: every position, every hand shown, as recorded.
    page.goto(f"{live_server}/games/{game_id}?move=0")
    root = page.locator("[data-game]")
    expect(root).to_have_attribute("data-move", "0")
    page.locator("h1").click()  # the keys work from the page itself
    for number in range(len(moves) + 1):
        if number:
            page.keyboard.press("ArrowRight")
        expect(root).to_have_attribute("data-move", str(number))
        expect(root).to_have_attribute("data-board-ready", "true")
        expect(frame.locator("html")).to_have_attribute("data-ready", "true")
        given = board_query(page)
        assert "Input" not in given and "URLReturn" not in given
        if number:
            assert given["Tray"] == moves[number - 1]["tray"], number
        tray = parse_tray(given["Tray"])
        for seat in range(1, SEATS + 1):
            hand = texts(tray.hands[seat - 1])
            assert HIDDEN not in hand, (number, seat)
            assert sorted(codes_in(frame, f'[data-hand="{seat}"]')) == sorted(hand), (number, seat)
        if number == 0:
            assert all(len(hand) == HAND_SIZE for hand in tray.hands)
    assert watch.errors == []


def test_an_open_tables_spectator_sees_every_hand_and_a_person_only_their_own(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    created = create_game(live_server, SET, person_seats(), deals=1, open_table=True)
    game_id = created["id"]
    assert record(live_server, game_id)["options"]["open_table"] is True
    open_game(page, live_server, f"/games/{game_id}")
    expect(page.locator("[data-game]")).to_have_attribute("data-status", "playing")
    frame = board(page)
    expect(frame.locator("html")).to_have_attribute("data-ready", "true")
    tray = shown_tray(page)
    for seat in range(1, SEATS + 1):
        drawn = codes_in(frame, f'[data-hand="{seat}"]')
        assert len(drawn) == HAND_SIZE and HIDDEN not in drawn, (seat, drawn)
        assert sorted(drawn) == sorted(texts(tray.hands[seat - 1]))
    expect(frame.locator("[data-playable='true']")).to_have_count(0)
    # The person at that table still sees only their own hand.
    person = view(live_server, game_id, seat=query_of(created["persons"][0]["url"])["seat"])
    mine = parse_tray(query_of(person["src"])["Tray"])
    assert HIDDEN not in texts(mine.hands[0])
    assert all(set(texts(hand)) == {HIDDEN} for hand in mine.hands[1:])
    assert watch.errors == []
