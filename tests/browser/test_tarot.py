"""Tarot in real Chromium against the real server: what a person sees and plays.

Spec ``docs/reference/tarot.md`` section 3 (the page, the DOM contract: ``[data-hand="N"]``
holding one ``[data-card]`` per card, ``[data-dog]``, ``[data-trick]`` whose cards carry
``data-seat``, ``[data-bid="0"]``..``[data-bid="4"]``, ``data-playable``, ``data-last-move``).
The viewer's hand is fanned: a card is clicked on the strip of it that shows (its left edge).
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote

import pytest
from playwright.sync_api import FrameLocator, Locator, Page, Position, expect

from tests.browser import helpers as h
from tests.tarot_deals import Position as DealPosition
from tests.tarot_deals import positions, seen_by
from tournoyons_gui.interfaces.protocol import read_context
from tournoyons_gui.interfaces.tarot import interface
from tournoyons_gui.interfaces.tarot.board import build
from tournoyons_gui.interfaces.tarot.cards import Phase

SET = "Tarot"
WORDS = {1: "One", 2: "Two", 3: "Three", 4: "Four"}
NAMES = {"Name1": "MissOne", "Name2": "MrTwo", "Name3": "MsThree", "Name4": "MrFour"}
# Where a card of the fanned hand is clicked: on its visible left strip.
STRIP: Position = {"x": 16, "y": 40}


def deal(seed: int) -> list[DealPosition]:
    """Return every position of deal ``seed``."""
    return list(positions(seed))


def asked(position: DealPosition, **extra: str) -> dict[str, str]:
    """Return the page of the seat ``position`` waits for, as that seat sees it."""
    assert position.acting is not None
    tray = seen_by(position.tray, position.acting)
    return {**NAMES, "Tray": tray.text(), "Input": WORDS[position.acting], **extra}


def playable(params: Mapping[str, str]) -> tuple[str, ...]:
    """Return what the view model lists as playable for ``params``."""
    return build(read_context({k.lower(): v for k, v in params.items()}, 4)).playable


def hand_card(page: Page, code: str) -> Locator:
    """Return the viewer's card ``code``."""
    return page.locator(f'.tr-mine [data-card="{code}"]')


def codes_in(scope: Page | FrameLocator, selector: str) -> list[str]:
    """Return the ``data-card`` of the cards under ``selector``, in the page's order (a
    page, or the Tarot page in a frame: test_arbitre_tarot.py's)."""
    found: list[str] = scope.locator(f"{selector} [data-card]").evaluate_all(
        "cards => cards.map(c => c.getAttribute('data-card'))"
    )
    return found


def playable_now(page: Page) -> list[str]:
    """Return the values of the controls marked playable."""
    found: list[str] = page.locator("[data-playable='true']").evaluate_all(
        "els => els.map(e => e.getAttribute('data-value') || e.getAttribute('data-card'))"
    )
    return found


# --- what is drawn ----------------------------------------------------------------------


def test_the_sample_draws_every_seat_its_cards_names_and_totals_in_the_frame(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    page.set_viewport_size({"width": 736, "height": 660})
    params = {**interface.sample, **NAMES, "Gain2": "-25", "Gain3": "75"}
    h.open_page(page, live_server, params, SET)
    tray = params["Tray"].split(".")
    mine = [tray[2][k : k + 2] for k in range(0, 36, 2)]
    assert codes_in(page, '[data-hand="1"]') == mine
    for seat in "234":
        assert codes_in(page, f'[data-hand="{seat}"]') == ["??"] * 18
    assert codes_in(page, "[data-dog]") == ["??"] * 6
    for name, text in NAMES.items():
        expect(page.locator(f'[data-name="{name[-1]}"]')).to_have_text(text)
    expect(page.locator('[data-gain="2"]')).to_have_text("-25")
    expect(page.locator('[data-gain="3"]')).to_have_text("+75")
    expect(page.locator("[data-trick]")).to_have_attribute("data-leader", "1")
    # Everything drawn lies in the 736x660 frame, the hand's cards included.
    for el in page.locator(".tr-plate, .tr-mine .tr-card, [data-hand] .tr-card").all():
        box = el.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["y"] >= 0, box
        assert box["x"] + box["width"] <= 736 and box["y"] + box["height"] <= 660, box
    assert page.evaluate("() => window.tournoyons.tray()") == params["Tray"]
    assert watch.errors == []


def test_a_spectator_sees_no_hand_and_can_open_the_previous_trick(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    plays = [p for p in deal(4) if p.tray.phase is Phase.PLAY]
    position = plays[9]
    tray = seen_by(position.tray, None)
    h.open_page(page, live_server, {**NAMES, "Tray": tray.text()}, SET)
    for seat in "1234":
        assert set(codes_in(page, f'[data-hand="{seat}"]')) == {"??"}
    expect(page.locator("[data-playable='true']")).to_have_count(0)
    previous = page.locator("[data-previous]")
    expect(previous.locator(".tr-previous-trick")).to_be_hidden()
    previous.locator("summary").click()
    won = tray.tricks[-1]
    expect(previous.locator("[data-card]")).to_have_count(4)
    assert sorted(codes_in(page, "[data-previous]")) == sorted(f"{c:02d}" for c in won.cards if c)
    expect(previous.locator('[data-winner="true"]')).to_have_attribute("data-seat", str(won.winner))


# --- playing --------------------------------------------------------------------------


def test_only_the_legal_cards_are_playable_and_a_card_is_returned_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    # A position where the seat must follow: not every card is legal.
    position = next(
        p
        for p in deal(6)
        if p.tray.phase is Phase.PLAY
        and p.tray.trick is not None
        and any(p.tray.trick.cards)
        and 0 < len(playable(asked(p))) < len(p.tray.hands[(p.acting or 1) - 1])
    )
    params = asked(position)
    legal = playable(params)
    tag = h.open_named_returning(page, live_server, params, SET)
    assert sorted(playable_now(page)) == sorted(legal)
    refused = next(
        c
        for c in codes_in(page, ".tr-mine")
        if c not in legal and c != codes_in(page, ".tr-mine")[-1]
    )
    hand_card(page, refused).click(position=STRIP, force=True)
    assert page.evaluate("() => window.tournoyons.lastValue") is None
    value = legal[0]
    hand_card(page, value).dblclick(position=STRIP)
    h.expect_single_return(page, live_server, tag, value)
    # The card left the hand for the trick, at the viewer's place, and the board value says so.
    assert value not in codes_in(page, ".tr-mine")
    card = page.locator(f'[data-trick] [data-card="{value}"]')
    expect(card).to_have_attribute("data-seat", str(position.acting))
    expect(card).to_have_attribute("data-last-move", str(position.acting))
    seat = position.acting or 1
    tray = page.evaluate("() => window.tournoyons.tray()").split(".")
    assert value not in [tray[1 + seat][k : k + 2] for k in range(0, 40, 2)]
    at = 1 + 2 * (seat - 1)
    assert tray[7][at : at + 2] == value


def test_a_bid_is_returned_once_and_bids_not_above_the_highest_are_refused(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    position = next(
        p
        for p in deal(
            1,
        )
        if p.tray.phase is Phase.BIDDING
    )
    tray = seen_by(position.tray, position.acting)
    said = list(tray.text().split(".")[1])
    # The seat before has bid a garde: a petite is refused, a garde sans is not.
    assert position.acting is not None
    before = (position.acting - 2) % 4
    said[before] = "2"
    params = {
        **asked(position),
        "Tray": tray.text().replace(tray.text().split(".")[1], "".join(said), 1),
    }
    tag = h.open_named_returning(page, live_server, params, SET)
    assert sorted(playable_now(page)) == ["0", "3", "4"]
    expect(page.locator('[data-bid="1"]')).to_have_attribute("aria-disabled", "true")
    page.locator('[data-bid="1"]').click(force=True)
    page.locator('[data-bid="3"]').dblclick()
    h.expect_single_return(page, live_server, tag, "3")
    said_now = page.locator(f'[data-said="{position.acting}"]')
    expect(said_now).to_have_attribute("data-bid-said", "3")
    expect(said_now).to_have_attribute("data-last-move", str(position.acting))


def ecart_page(seed: int = 2) -> dict[str, str]:
    """Return the taker's page of the écart in deal ``seed`` (bids forcing a garde)."""
    position = next(p for p in positions(seed, bids=(0, 2, 0, 0)) if p.tray.phase is Phase.ECART)
    return asked(position)


def test_the_ecart_is_six_cards_chosen_on_the_page_then_one_return(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    params = ecart_page()
    tag = h.open_named_returning(page, live_server, params, SET)
    confirm = page.locator("[data-ecart]")
    expect(confirm).to_have_attribute("aria-disabled", "true")
    choices = page.locator(".tr-mine [data-selectable='true']")
    chosen = choices.evaluate_all("els => els.map(e => e.getAttribute('data-card'))")
    # Kings and oudlers are never offered; clicking one selects nothing.
    for code in codes_in(page, ".tr-mine"):
        if code not in chosen:
            hand_card(page, code).click(position=STRIP, force=True)
            expect(page.locator("[data-selected='true']")).to_have_count(0)
            break
    picked = chosen[:6]
    for code in picked[:5]:
        hand_card(page, code).click(position=STRIP)
    expect(confirm).to_have_attribute("aria-disabled", "true")
    confirm.click(force=True)
    assert page.evaluate("() => window.tournoyons.lastValue") is None
    # A card chosen twice is taken back; then the sixth.
    hand_card(page, picked[0]).click(position=STRIP)
    hand_card(page, picked[0]).click(position=STRIP)
    hand_card(page, picked[5]).click(position=STRIP)
    expect(page.locator(".tr-dot[data-on='true']")).to_have_count(6)
    value = "".join(sorted(picked))
    expect(confirm).to_have_attribute("data-playable", "true")
    confirm.dblclick()
    h.expect_single_return(page, live_server, tag, value)
    for code in picked:
        expect(hand_card(page, code)).to_have_count(0)
    assert page.evaluate("() => window.tournoyons.tray()").split(".")[6] == value


def test_the_page_refuses_an_ecart_it_did_not_offer(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    params = ecart_page()
    h.open_named_returning(page, live_server, params, SET)
    offered = page.locator(".tr-mine [data-selectable='true']").evaluate_all(
        "els => els.map(e => e.getAttribute('data-card'))"
    )
    others = [c for c in codes_in(page, ".tr-mine") if c not in offered]
    assert others  # a king or an oudler at least
    bad = "".join(sorted([*offered[:5], others[0]]))
    assert page.evaluate("v => window.tournoyons.play(v)", bad) is False
    assert page.evaluate("v => window.tournoyons.play(v)", "".join(offered[:5])) is False
    good = "".join(sorted(offered[:6]))
    assert page.evaluate("v => window.tournoyons.play(v)", good) is True


# --- Wait -------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_trick_completed_stays_for_wait_then_goes_to_its_winner(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    plays = [p for p in deal(5) if p.tray.phase is Phase.PLAY]
    before, after = plays[7], plays[8]  # the last card of the second trick, then the third
    assert before.acting is not None and before.value is not None
    params = {**asked(after), f"Move{before.acting}": before.value, "Wait": "15"}
    h.open_page(page, live_server, params, SET, ready=False)
    gathered = page.locator("[data-gathered]")
    expect(gathered).to_have_attribute("data-state", "trick")
    expect(page.locator("html")).to_have_attribute("data-ready", "false")
    expect(gathered.locator("[data-card]")).to_have_count(4)
    arriving = gathered.locator("[data-arrives]")
    expect(arriving).to_have_attribute("data-card", before.value)
    expect(page.locator("html")).to_have_attribute("data-ready", "true")
    expect(gathered).to_have_attribute("data-state", "won")
    won = after.tray.tricks[-1]
    expect(gathered).to_have_attribute("data-winner", str(won.winner))
    # Once gone, the new trick waits for its leader, the winner.
    expect(page.locator("[data-trick]")).to_have_attribute("data-leader", str(won.winner))
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('[data-gathered]')).opacity === '0'"
    )


# --- the keyboard -----------------------------------------------------------------------


def test_the_keyboard_plays_a_card_from_the_hand(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    params = {**interface.sample, **NAMES}
    tag = h.open_named_returning(page, live_server, params, SET)
    mine = codes_in(page, ".tr-mine")
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.getAttribute('data-card')"):
            break

    def focused() -> str | None:
        card: str | None = page.evaluate("() => document.activeElement.getAttribute('data-card')")
        return card

    assert focused() == mine[0]
    h.press(page, "ArrowRight", "ArrowRight", "ArrowLeft")
    assert focused() == mine[1]
    h.press(page, "End")
    assert focused() == mine[-1]
    h.press(page, "Home", "ArrowRight", "Enter")
    h.expect_single_return(page, live_server, tag, mine[1])


def test_the_keyboard_makes_the_ecart(live_server: str, page: Page, watch: h.PageWatch) -> None:
    params = ecart_page()
    tag = h.open_named_returning(page, live_server, params, SET)
    offered = page.locator(".tr-mine [data-selectable='true']").evaluate_all(
        "els => els.map(e => e.getAttribute('data-card'))"
    )
    page.locator(f'.tr-mine [data-card="{offered[0]}"]').focus()
    chosen: list[str] = []
    for code in codes_in(page, ".tr-mine"):
        current = page.evaluate("() => document.activeElement.getAttribute('data-card')")
        assert current == code or code not in offered
        if current in offered and len(chosen) < 6:
            page.keyboard.press("Space")
            chosen.append(current)
        if code == current:
            page.keyboard.press("ArrowRight")
        if len(chosen) == 6:
            break
    page.locator("[data-ecart]").focus()
    page.keyboard.press("Enter")
    h.expect_single_return(page, live_server, tag, "".join(sorted(chosen)))


# --- hot seat in the tester -------------------------------------------------------------


def test_the_tester_plays_hot_seat_tarot_showing_each_player_only_their_hand(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    frame = h.open_tester(page, live_server)
    page.locator("#set").select_option(SET)
    page.locator("input[name='Wait']").fill("0")
    page.locator("input[name='Name3']").fill("MsThree")
    page.locator("#new-game").click()
    seen: list[str] = []
    for turn in range(8):
        # Each page waits behind the screen until its player shows it.
        expect(page.locator("#handover")).to_be_visible()
        expect(page.locator("#interface")).to_have_attribute("src", "about:blank")
        page.locator("#handover-show").click()
        expect(frame.locator("html")).to_have_attribute("data-ready", "true")
        query = h.frame_query(page)
        seat = {"One": 1, "Two": 2, "Three": 3, "Four": 4}[query["Input"]]
        seen.append(query["Input"])
        # Only the player asked sees a hand: theirs, at the bottom.
        expect(frame.locator(".tr-mine")).to_have_attribute("data-hand", str(seat))
        for other in {1, 2, 3, 4} - {seat}:
            cards = frame.locator(f'[data-hand="{other}"] [data-card]')
            assert set(cards.evaluate_all("c => c.map(e => e.getAttribute('data-card'))")) <= {"??"}
        # The first seat to speak takes with a garde; the others pass, then cards.
        bid = frame.locator("[data-bid='2'][data-playable='true']")
        target = bid if turn == 0 else frame.locator("[data-playable='true']").first
        if frame.locator("[data-ecart]").count():
            break
        if frame.locator(".tr-mine [data-playable='true']").count():
            target.click(position=STRIP)
        else:
            target.click()
    assert seen[:4] == ["One", "Two", "Three", "Four"]
    assert frame.locator("[data-ecart]").count() == 1 or len(seen) == 8
    assert watch.errors == []


def test_the_return_url_is_only_ever_given_the_value_played(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    params = {**interface.sample, **NAMES}
    tag = h.open_named_returning(page, live_server, params, SET)
    value = codes_in(page, ".tr-mine")[-1]
    hand_card(page, value).click()
    page.wait_for_function(h.RETURN_LOADED)
    assert h.return_loads(page) == [f"{h.sink(live_server, tag)}&ReturnValue={quote(value)}"]


@pytest.mark.parametrize("size", [(736, 660), (368, 330)])
def test_the_ecart_and_the_bids_fit_the_frame(
    live_server: str, page: Page, watch: h.PageWatch, size: tuple[int, int]
) -> None:
    bidding = next(p for p in deal(1) if p.tray.phase is Phase.BIDDING)
    for params in (ecart_page(), asked(bidding), {**interface.sample, "Method": "End"}):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        h.open_page(page, live_server, {**NAMES, **params}, SET)
        sizes = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        )
        assert sizes[0] <= size[0] and sizes[1] <= size[1]
        for el in page.locator("[data-bid], [data-ecart], .tr-mine .tr-card, .tr-plate").all():
            box = el.bounding_box()
            assert box is not None
            assert box["x"] >= -1 and box["x"] + box["width"] <= size[0] + 1, box
            assert box["y"] >= -1 and box["y"] + box["height"] <= size[1] + 1, box
