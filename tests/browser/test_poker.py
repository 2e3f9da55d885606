"""Poker in real Chromium against the real server: what a person sees and plays.

Spec ``interface-protocol.md`` sections 3, 4 (Poker) and 6. Cards are ``[data-card]`` with
their Tray code (``??`` face down) inside ``[data-seat="1"]``/``[data-seat="2"]`` (the hole
cards) and ``.board`` (the community cards; ``.slot`` marks a place not dealt yet). Totals
are ``[data-total="1"]``/``[data-total="2"]``, the pot ``[data-pot]``. The controls: fold
``[data-control="fold"]`` (``-1``), call ``[data-control="call"]``, the raise slider
``[data-control="slider"]`` with ``less``/``more`` and the bet button, and at step 9 the
acknowledgement (``0``).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import FrameLocator, Locator, Page, expect

from tests.browser import helpers as h

SET = "Poker"
PREFLOP = "01001????C3SKM1-2"  # real: deal 1, player one deals and bets first
TURN = "15095????CTHJHKC6HQS6M10-10"  # real: deal 15, the turn, player two opens
SHOWDOWN = "01009H2H9S5S6H4HKH7D8CJM12-12"  # the showdown after the river: one holds a flush


def open_table(page: Page, base: str, **params: str) -> None:
    """Open the Poker page for ``params`` and both names (:func:`helpers.open_named`)."""
    h.open_named(page, base, params, SET)


def open_asking(page: Page, base: str, tray: str, player: str, **extra: str) -> str:
    """Open the Poker page asking ``player`` to play on ``tray`` (and ``extra``), returning to
    the sink under a new tag; return the tag."""
    return h.open_named_returning(page, base, {"Tray": tray, "Input": player, **extra}, SET)


def control(page: Page | FrameLocator, name: str) -> Locator:
    """Return the betting control ``name`` (fold, call, less, slider, more, bet ...)."""
    return page.locator(f'.pk-controls [data-control="{name}"]')


def codes(scope: Locator) -> list[str]:
    """Return the codes of the cards drawn inside ``scope``, in order."""
    found: list[str] = scope.locator("[data-card]").evaluate_all(
        "cards => cards.map(c => c.getAttribute('data-card'))"
    )
    return found


def expect_single_return(page: Page, base: str, tag: str, value: str) -> None:
    """Assert that the page returned ``value`` once, and no betting control is left enabled."""
    h.expect_single_return(page, base, tag, value)
    expect(page.locator(".pk-controls button:enabled, .pk-controls input:enabled")).to_have_count(0)


def playable(page: Page) -> list[str]:
    """Return the values the page takes now, from its context block."""
    values: list[str] = page.evaluate(
        "() => JSON.parse(document.getElementById('tournoyons-context').textContent).playable"
    )
    return values


def totals(low: int, high: int) -> list[str]:
    return [str(total) for total in range(low, high + 1)]


# --- drawing ----------------------------------------------------------------------------

STEPS = [
    # (Tray, board cards, empty places, hole cards of one, of two, totals, dealer)
    ("02001H1HK????M2-1", [], 5, ["H1", "HK"], ["??", "??"], ("2", "1"), "2"),
    ("01003????C3SKD1D2D3M4-4", ["D1", "D2", "D3"], 2, ["??", "??"], ["C3", "SK"], ("4", "4"), "1"),
    (TURN, ["HK", "C6", "HQ", "S6"], 1, ["??", "??"], ["CT", "HJ"], ("10", "10"), "1"),
    (
        "04027????DADKS2S3S4S5S6M30-30",
        ["S2", "S3", "S4", "S5", "S6"],
        0,
        ["??", "??"],
        ["DA", "DK"],
        ("30", "30"),
        "2",
    ),
    (
        SHOWDOWN,
        ["H4", "HK", "H7", "D8", "CJ"],
        0,
        ["H2", "H9"],
        ["S5", "S6"],
        ("12", "12"),
        "1",
    ),
]


def test_cards_and_bets_are_drawn_for_every_step(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    for tray, board, empty, one, two, bets, dealer in STEPS:
        open_table(page, live_server, Tray=tray)
        expect(page.locator("[data-board]")).to_be_visible()
        assert codes(page.locator(".board")) == board, tray
        expect(page.locator(".board .slot")).to_have_count(empty)
        assert codes(page.locator("[data-seat='1']")) == one, tray
        assert codes(page.locator("[data-seat='2']")) == two, tray
        for card in page.locator("[data-card]").all():
            expect(card).to_be_visible()
        expect(page.locator("[data-total='1']")).to_have_text(bets[0])
        expect(page.locator("[data-total='2']")).to_have_text(bets[1])
        expect(page.locator("[data-pot]")).to_have_text(str(int(bets[0]) + int(bets[1])))
        expect(page.locator("[data-dealer]")).to_have_count(1)
        expect(page.locator(f"[data-seat='{dealer}'] [data-dealer='{dealer}']")).to_be_visible()
        expect(page.locator("[data-error]")).to_have_count(0)
        assert page.evaluate("() => window.tournoyons.tray()") == tray


def test_card_faces_backs_gains_and_deals(live_server: str, page: Page, watch: h.PageWatch) -> None:
    open_table(page, live_server, Tray=PREFLOP, Gain1="-12", Gain2="12", Count="40")
    three, king = page.locator("[data-card='C3']"), page.locator("[data-card='SK']")
    # A face: the index and the suit, drawn by our own SVG symbols (nothing loaded).
    expect(three.locator(".index")).to_have_text("3")
    expect(king.locator(".index")).to_have_text("K")
    assert three.locator("use").first.get_attribute("href") == "#pk-suit-C"
    assert king.locator("use").first.get_attribute("href") == "#pk-suit-S"
    expect(page.locator("[data-gain='1']")).to_have_text("-12")
    expect(page.locator("[data-gain='2']")).to_have_text("+12")
    h.expect_texts(page, {"Count": "40", "Name1": "MissOne"})
    expect(page.locator(".deal-number")).to_have_text("1")
    expect(page.locator(".pip[data-pip='done']")).to_have_count(0)
    # A face-down card: the back, no index.
    hidden = page.locator("[data-seat='1'] [data-card='??']")
    expect(hidden).to_have_count(2)
    for card in hidden.all():
        expect(card.locator(".card-back")).to_be_visible()
        expect(card.locator(".index")).to_have_count(0)
        assert card.locator(".card-back-inner").get_attribute("fill") == "url(#pk-back)"
    # Without Input nobody bets: no controls.
    expect(page.locator(".pk-controls")).to_have_count(0)

    open_table(page, live_server, Tray="15095D1SA????HKC6HQSTM10-10", Gain1="0")
    expect(page.locator("[data-card='D1'] .index")).to_have_text("A")  # the ace written 1
    expect(page.locator("[data-card='SA'] .index")).to_have_text("A")
    expect(page.locator("[data-card='ST'] .index")).to_have_text("10")
    red = page.locator("[data-card='D1'] .ink").evaluate("e => getComputedStyle(e).fill")
    black = page.locator("[data-card='SA'] .ink").evaluate("e => getComputedStyle(e).fill")
    assert red == "rgb(200, 16, 46)" and black != red
    expect(page.locator("[data-gain='1']")).to_have_text("0")
    expect(page.locator("[data-gain='2']")).to_be_empty()
    expect(page.locator(".deal-number")).to_have_text("15")
    expect(page.locator(".pip[data-pip='done']")).to_have_count(9)


def test_the_showdown_shows_the_winner(live_server: str, page: Page, watch: h.PageWatch) -> None:
    open_table(page, live_server, Tray=SHOWDOWN, Move1="12", Gain1="12", Gain2="-12", Wait="3")
    expect(page.locator("[data-seat='1']")).to_have_attribute("data-state", "win")
    expect(page.locator("[data-seat='2']")).to_have_attribute("data-state", "lose")
    expect(page.locator(".pot")).to_have_attribute("data-state", "1")
    # The flush's five cards stand out: player one's two and three hearts of the board.
    best = page.locator("[data-card][data-best='true']")
    assert sorted(best.evaluate_all("cs => cs.map(c => c.dataset.card)")) == [
        "H2",
        "H4",
        "H7",
        "H9",
        "HK",
    ]
    expect(best.first.locator(".card-face")).to_have_css("stroke", "rgb(232, 184, 32)")
    expect(page.locator(".pip[data-pip='now']")).to_have_count(1)

    # A fold: the folded player's total is 0, both hands stay hidden.
    open_table(page, live_server, Tray="02019????????M2-0", Move2="0")
    expect(page.locator("[data-seat='2']")).to_have_attribute("data-folded", "true")
    expect(page.locator("[data-seat='2']")).to_have_attribute("data-last-move", "2")
    expect(page.locator("[data-total='2']")).to_have_text("0")
    expect(page.locator("[data-card='??']")).to_have_count(4)
    expect(page.locator("[data-seat='1']")).to_have_attribute("data-state", "win")
    opacity = page.locator("[data-seat='2'] .card-place").first.evaluate(
        "e => getComputedStyle(e).opacity"
    )
    assert float(opacity) < 1


@pytest.mark.slow
def test_the_move_flies_to_the_pot_after_wait(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    page.set_default_timeout(5000)
    page.goto(
        h.interface_url(
            live_server,
            {"Tray": "01004????C3SKH1H2H3M?10-11", "Move2": "11", "Input": "One", "Wait": "30"},
            SET,
        )
    )
    fly = page.locator(".fly[data-fly='2']")
    # First the bet in front of player two, no input yet; Wait tenths later, into the pot.
    expect(fly).to_have_attribute("data-state", "bet")
    expect(fly.locator("[data-fly-amount]")).to_have_text("11")
    assert float(fly.evaluate("e => getComputedStyle(e).opacity")) == 1
    expect(page.locator("html")).to_have_attribute("data-ready", "false")
    expect(control(page, "fold")).to_be_disabled()
    expect(page.locator("html")).to_have_attribute("data-ready", "true")
    expect(fly).to_have_attribute("data-state", "pot")
    expect(page.locator("[data-seat='2']")).to_have_attribute("data-last-move", "2")
    expect(control(page, "fold")).to_be_enabled()
    expect(page.locator(".fly[data-fly='1']")).to_have_attribute("data-state", "")


def test_an_unreadable_tray_shows_the_error_and_takes_no_bet(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    for tray in ("x", "01001????C3SK", "01003????C3SKM5-5"):
        open_table(page, live_server, Tray=tray, Input="One", URLReturn="/return")
        expect(page.locator("[data-error]")).to_have_attribute("data-error", "tray")
        expect(page.locator("[data-board]")).to_be_visible()
        expect(page.locator(".pk-controls")).to_have_count(0)
        assert page.evaluate("() => ['-1', '0', '5'].map(v => tournoyons.play(v))") == [False] * 3


# --- betting ------------------------------------------------------------------------------


def test_opening_limits_the_raise_to_the_legal_totals(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    open_asking(page, live_server, PREFLOP, "One")
    slider = control(page, "slider")
    expect(slider).to_have_attribute("min", "3")  # the dealer's first bet: above 2
    expect(slider).to_have_attribute("max", "100")
    expect(slider).to_be_enabled()
    expect(control(page, "call")).to_have_count(0)  # opening: nothing to call
    expect(control(page, "bet")).to_have_attribute("data-value", "3")
    expect(control(page, "bet")).to_have_text("3")
    assert playable(page) == ["-1", *totals(3, 100)]
    # Below the minimum or above the cap, the steps stop at the limit.
    control(page, "less").click()
    expect(control(page, "bet")).to_have_attribute("data-value", "3")
    slider.fill("100")
    control(page, "more").click()
    expect(control(page, "bet")).to_have_attribute("data-value", "100")
    assert page.evaluate("() => ['2', '101', '0', 'x'].map(v => tournoyons.play(v))") == [False] * 4


def test_answering_offers_the_call_and_raises_above_it(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    open_asking(page, live_server, "01002????C3SKM12-?2", "Two")
    expect(control(page, "call")).to_have_attribute("data-value", "12")
    expect(control(page, "call")).to_contain_text("12")
    expect(control(page, "slider")).to_have_attribute("min", "13")
    expect(control(page, "slider")).to_have_attribute("max", "100")
    assert playable(page) == ["-1", *totals(12, 100)]
    for name in ("fold", "call", "bet"):
        expect(control(page, name)).to_have_attribute("data-playable", "true")

    # Answering the cap: fold or call, nothing to raise.
    open_asking(page, live_server, "01002????C3SKM100-?2", "Two")
    expect(control(page, "call")).to_have_attribute("data-value", "100")
    expect(control(page, "slider")).to_have_count(0)
    expect(control(page, "bet")).to_have_count(0)
    assert playable(page) == ["-1", "100"]


def test_fold_returns_minus_one_once(live_server: str, page: Page, watch: h.PageWatch) -> None:
    tag = open_asking(page, live_server, TURN, "Two")
    control(page, "fold").dblclick()
    expect_single_return(page, live_server, tag, "-1")
    expect(page.locator("[data-seat='2']")).to_have_attribute("data-folded", "true")
    expect(page.locator("[data-total='2']")).to_have_text("0")
    assert page.evaluate("() => window.tournoyons.tray()") == TURN.replace("M10-10", "M10-0")


def test_call_returns_the_opponents_total_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = open_asking(page, live_server, "01004????C3SKH1H2H3M?10-11", "One")
    control(page, "call").dblclick()
    expect_single_return(page, live_server, tag, "11")
    expect(page.locator("[data-total='1']")).to_have_text("11")
    expect(page.locator("[data-pot]")).to_have_text("22")
    expect(page.locator(".fly[data-fly='1']")).to_have_attribute("data-state", "pot")
    assert page.evaluate("() => tournoyons.tray()") == "01004????C3SKH1H2H3M11-11"


def test_raise_with_the_steps_returns_the_chosen_total_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = open_asking(page, live_server, TURN, "Two")
    bet = control(page, "bet")
    expect(bet).to_have_attribute("data-value", "11")
    for _ in range(3):
        control(page, "more").click()
    control(page, "less").click()
    expect(bet).to_have_attribute("data-value", "13")
    expect(bet).to_have_text("13")
    expect(control(page, "slider")).to_have_value("13")
    bet.dblclick()
    expect_single_return(page, live_server, tag, "13")
    expect(page.locator("[data-total='2']")).to_have_text("13")
    expect(page.locator("[data-pot]")).to_have_text("23")
    expect(page.locator(".fly[data-fly='2'] [data-fly-amount]")).to_have_text("13")
    expect(control(page, "slider")).to_be_disabled()
    expect(control(page, "more")).to_be_disabled()


def test_raise_with_the_keyboard(live_server: str, page: Page, watch: h.PageWatch) -> None:
    tag = open_asking(page, live_server, PREFLOP, "One")
    slider = control(page, "slider")
    slider.focus()
    h.press(page, "ArrowRight", "ArrowRight", "ArrowUp", "ArrowLeft")
    expect(control(page, "bet")).to_have_attribute("data-value", "5")
    h.press(page, "+", "+", "-")
    expect(control(page, "bet")).to_have_attribute("data-value", "6")
    page.keyboard.press("End")
    expect(control(page, "bet")).to_have_attribute("data-value", "100")
    h.press(page, "Home", "ArrowRight")
    expect(slider).to_have_value("4")
    page.keyboard.press("Enter")
    expect_single_return(page, live_server, tag, "4")

    # From the slider, back to the fold control, Enter.
    tag = open_asking(page, live_server, PREFLOP, "One")
    control(page, "slider").focus()
    h.press_to(page, control(page, "fold"), "Shift+Tab", "Shift+Tab")
    page.keyboard.press("Enter")
    expect_single_return(page, live_server, tag, "-1")


def test_showdown_acknowledge_returns_0(live_server: str, page: Page, watch: h.PageWatch) -> None:
    tag = open_asking(page, live_server, SHOWDOWN, "Two", Move1="12")
    expect(page.locator(".pk-controls button")).to_have_count(1)
    expect(control(page, "fold")).to_have_count(0)
    expect(control(page, "slider")).to_have_count(0)
    assert playable(page) == ["0"]
    ack = control(page, "acknowledge")
    expect(ack).to_be_enabled()
    ack.focus()
    page.keyboard.press("Space")
    ack.click(force=True)
    expect_single_return(page, live_server, tag, "0")
    assert page.evaluate("() => tournoyons.tray()") == SHOWDOWN


def test_webtest_hands_input_to_the_player_to_bet(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_named_returning(page, live_server, {"Tray": TURN, "WebTest": "yes"}, SET)
    expect(control(page, "slider")).to_be_disabled()
    expect(control(page, "fold")).to_be_disabled()
    page.locator("[data-webtest='play']").click()
    expect(page.locator("html")).to_have_attribute("data-input", "2")
    expect(control(page, "slider")).to_be_enabled()
    control(page, "more").click()
    control(page, "bet").click()
    expect_single_return(page, live_server, tag, "12")


def test_method_end_and_none(live_server: str, page: Page, watch: h.PageWatch) -> None:
    tray = "14119H2H9S5S6H4HKH7D8CJM12-12"
    open_table(page, live_server, Tray=tray, Method="End", Input="One", Gain1="40", Gain2="-40")
    expect(page.locator("html")).to_have_attribute("data-method", "end")
    expect(page.locator(".pk-controls")).to_have_count(0)
    expect(page.locator("[data-board]")).to_have_attribute("data-winner", "1")
    expect(page.locator(".pip[data-pip='done'], .pip[data-pip='now']")).to_have_count(12)
    h.open_method_none(page, live_server, {"Tray": PREFLOP, "Input": "One"}, SET)


# --- a whole game in the tester -----------------------------------------------------------


STATE = """html => {
  const hidden = seat => document.querySelectorAll(`[data-seat='${seat}'] [data-card='??']`).length;
  const call = document.querySelector("[data-control='call']");
  return {query: Object.fromEntries(new URLSearchParams(location.search)),
          input: html.dataset.input || null, method: html.dataset.method,
          hidden: [hidden(1), hidden(2)], call: call ? call.dataset.value : null};
}"""


@pytest.mark.slow
def test_a_whole_game_in_the_tester(live_server: str, page: Page, watch: h.PageWatch) -> None:
    page.set_default_timeout(8000)
    frame = h.start_hot_seat(page, live_server, SET)
    # The next page: ready, and not the page just played (which carries data-played).
    fresh = frame.locator("html:not([data-played])[data-ready='true']")
    played: list[str] = []
    while True:
        expect(fresh).to_have_count(1)
        state: dict[str, Any] = fresh.evaluate(STATE)
        query = state["query"]
        if state["method"] == "end":
            break
        assert len(played) < 80, "the game does not end"
        asked = "1" if query["Input"] == "One" else "2"
        assert state["input"] == asked, state
        step = int(query["Tray"][4])
        value: str
        if step == 9:
            value = "0"
            control(frame, "acknowledge").click()
        else:
            # The person asked sees their own cards, never the other's.
            assert state["hidden"] == ([0, 2] if asked == "1" else [2, 0]), state
            if played.count("-1") < 2 and query["Tray"].endswith(("M1-2", "M2-1")):
                value = "-1"  # the first two deals: the dealer folds (no deal completed)
                control(frame, "fold").click()
            elif state["call"]:
                value = state["call"]
                control(frame, "call").click()
            else:
                control(frame, "slider").focus()
                page.keyboard.press("End")  # all in: the board runs out to the showdown
                value = "100"
                expect(control(frame, "bet")).to_have_attribute("data-value", value)
                control(frame, "bet").click()
        played.append(value)
    assert query["Method"] == "End" and "Input" not in query
    h.expect_counts(frame, {".pk-controls": 0, ".pip[data-pip='done'], .pip[data-pip='now']": 12})
    tray = query["Tray"]
    assert tray[:5] == "14119", tray  # deal 14: 2 folded deals, then 12 completed
    assert int(query["Gain1"]) + int(query["Gain2"]) == 0
    assert frame.locator("[data-gain='1']").inner_text() in (query["Gain1"], f"+{query['Gain1']}")
    expect(page.locator("#log li")).to_have_count(len(played))
    assert h.values_returned(page) == played
    assert played.count("-1") == 2 and played.count("0") == 13
    assert page.evaluate("() => window.tester.game().over") is True
