"""Rochambeau (ChiFouMi) in real Chromium against the real server.

Spec section 4 (Rochambeau): ``Move1``/``Move2`` and ``Value`` are ``1`` rock, ``2`` paper,
``3`` scissors; ``Gain1``/``Gain2`` are scores 0..5; ``Tray`` is not used. Section 3: one
value returned per load. Section 6: the DOM contract (``data-side``, ``data-hand``,
``data-gain``, ``data-error``, ``data-ready``).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import (
    RETURN_LOADED,
    PageWatch,
    expect_counts,
    expect_single_return,
    open_page,
    press,
    press_to,
    sink,
)

SET = "Rochambeau"

HANDS = ("1", "2", "3")


def open_round(
    page: Page, base: str, tag: str | None = None, ready: bool = True, **params: str
) -> None:
    """Open the Rochambeau page for ``params`` and both names (:func:`helpers.open_page`),
    its return going to the sink with ``tag`` when given."""
    query = {"Name1": "MissOne", "Name2": "MrTwo", **params}
    if tag is not None:
        query["URLReturn"] = sink(base, tag)
    open_page(page, base, query, SET, ready)


def shown_hand(page: Page, side: str) -> list[str]:
    """Return the classes of the hand drawings of ``side`` whose computed display is not none."""
    result: list[str] = page.locator(f'[data-side="{side}"] svg.hand').evaluate(
        """svg => Array.from(svg.querySelectorAll('use, .hand-none'))
               .filter(el => getComputedStyle(el).display !== 'none')
               .map(el => el.getAttribute('class'))"""
    )
    return sorted(set(result))


@pytest.mark.parametrize(("move1", "move2"), [("1", "2"), ("2", "3"), ("3", "1"), ("3", "3")])
def test_moves_draw_both_hands(
    live_server: str, page: Page, watch: PageWatch, move1: str, move2: str
) -> None:
    open_round(page, live_server, Move1=move1, Move2=move2, Gain1="2", Gain2="4")
    expect(page.locator("html")).to_have_attribute("data-set", "Rochambeau")
    for side, move in (("1", move1), ("2", move2)):
        locator = page.locator(f'[data-side="{side}"]')
        expect(locator).to_have_attribute("data-hand", move)
        expect(locator).to_have_attribute("data-last-move", side)
        assert shown_hand(page, side) == [f"hand-{move}"]
        expect(locator.locator(f"use.hand-{move}")).to_be_visible()
    expect(page.locator('[data-gain="1"]')).to_have_text("2")
    expect(page.locator('[data-gain="2"]')).to_have_text("4")
    expect(page.locator("[data-error]")).to_have_count(0)
    # Nobody is asked for a move: no controls.
    expect(page.locator("[data-value]")).to_have_count(0)


def test_without_moves_both_sides_show_no_hand(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    open_round(page, live_server, Gain1="0", Gain2="5")
    for side in ("1", "2"):
        expect(page.locator(f'[data-side="{side}"]')).to_have_attribute("data-hand", "")
        assert shown_hand(page, side) == ["hand-none"]
    expect(page.locator('[data-gain="1"]')).to_have_text("0")
    expect(page.locator('[data-gain="2"]')).to_have_text("5")


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"Gain1": "9", "Gain2": "1"}, "gain1"),
        ({"Gain1": "x", "Gain2": "1"}, "gain1"),
        ({"Gain1": "1", "Gain2": "-1"}, "gain2"),
        ({"Move1": "4", "Move2": "1"}, "move1"),
        ({"Move1": "rock", "Move2": "1"}, "move1"),
        ({"Move1": "1", "Move2": "0"}, "move2"),
    ],
)
def test_unreadable_gain_or_move_is_reported(
    live_server: str, page: Page, watch: PageWatch, params: dict[str, str], code: str
) -> None:
    open_round(page, live_server, None, True, **params)
    error = page.locator("[data-error]")
    expect(error).to_have_count(1)
    assert code in (error.get_attribute("data-error") or "").split()
    player = code[-1]
    if code.startswith("gain"):
        # The unreadable score is not shown; the other one is.
        expect(page.locator(f'[data-gain="{player}"]')).to_have_text("")
        other = "2" if player == "1" else "1"
        expect(page.locator(f'[data-gain="{other}"]')).to_have_text(params[f"Gain{other}"])
    else:
        # The unreadable hand is not drawn; the other one is.
        expect(page.locator(f'[data-side="{player}"]')).to_have_attribute("data-hand", "")
        assert shown_hand(page, player) == ["hand-none"]
        other = "2" if player == "1" else "1"
        expect(page.locator(f'[data-side="{other}"]')).to_have_attribute(
            "data-hand", params[f"Move{other}"]
        )


@pytest.mark.parametrize(("input_", "player"), [("One", "1"), ("two", "2")])
@pytest.mark.parametrize("value", HANDS)
def test_input_returns_the_clicked_hand_once(
    live_server: str, page: Page, watch: PageWatch, input_: str, player: str, value: str
) -> None:
    tag = f"rps-click-{player}-{value}"
    open_round(page, live_server, tag, Input=input_, Gain1="1", Gain2="3")
    controls = page.locator("[data-value]")
    expect(controls).to_have_count(3)
    for hand in HANDS:
        expect(page.locator(f'[data-value="{hand}"]')).to_be_enabled()
    other = "2" if player == "1" else "1"
    expect(page.locator(f'[data-side="{player}"]')).to_have_attribute("data-hand", "")

    # A double click plays once; the second click lands on a disabled control.
    page.locator(f'[data-value="{value}"]').dblclick()
    page.wait_for_function(RETURN_LOADED)
    # Then the keyboard: Enter on the page, and on another control, returns nothing more.
    page.keyboard.press("Enter")
    page.locator(f'[data-value="{HANDS[(HANDS.index(value) + 1) % 3]}"]').click(force=True)
    page.keyboard.press("Enter")
    assert page.evaluate("v => window.tournoyons.play(v)", value) is False
    expect_single_return(page, live_server, tag, value)
    # The chosen hand is on that player's side, the other side still shows none.
    expect(page.locator(f'[data-side="{player}"]')).to_have_attribute("data-hand", value)
    assert shown_hand(page, player) == [f"hand-{value}"]
    expect(page.locator(f'[data-side="{other}"]')).to_have_attribute("data-hand", "")
    assert shown_hand(page, other) == ["hand-none"]
    for hand in HANDS:
        expect(page.locator(f'[data-value="{hand}"]')).to_be_disabled()


def test_keyboard_plays_once(live_server: str, page: Page, watch: PageWatch) -> None:
    tag = "rps-keyboard"
    open_round(page, live_server, tag, Input="One")
    # Tab to the second control (paper), then Enter twice and a click on it.
    press_to(page, page.locator('[data-value="1"]'), "Tab")
    press_to(page, page.locator('[data-value="2"]'), "Tab")
    page.keyboard.press("Enter")
    page.wait_for_function(RETURN_LOADED)
    press(page, "Enter", "Space")
    page.locator('[data-value="2"]').click(force=True)
    expect_single_return(page, live_server, tag, "2")
    expect(page.locator('[data-side="1"]')).to_have_attribute("data-hand", "2")
    expect(page.locator("button[data-value]:enabled")).to_have_count(0)


# Records, from before the page's own scripts run, every change of the sides' data-state
# and of data-ready, with its time: what the page showed, and when, whatever the load.
HISTORY = """
window.__history = [];
new MutationObserver(records => {
  for (const r of records) {
    window.__history.push({t: performance.now(),
                           who: r.target.getAttribute('data-side') || 'html',
                           attr: r.attributeName, value: r.target.getAttribute(r.attributeName)});
  }
}).observe(document, {subtree: true, attributes: true,
                      attributeFilter: ['data-state', 'data-ready']});
"""


@pytest.mark.parametrize(
    ("move1", "move2", "state1", "state2"),
    [
        ("1", "3", "win", "lose"),
        ("1", "2", "lose", "win"),
        ("2", "2", "tie", "tie"),
    ],
)
@pytest.mark.slow
def test_outcome_shows_after_wait(
    live_server: str, page: Page, watch: PageWatch, move1: str, move2: str, state1: str, state2: str
) -> None:
    page.add_init_script(HISTORY)
    open_round(
        page, live_server, ready=False, Move1=move1, Move2=move2, Gain1="1", Gain2="1", Wait="20"
    )
    side1, side2 = page.locator('[data-side="1"]'), page.locator('[data-side="2"]')
    # The hands are drawn at once.
    expect(side1).to_have_attribute("data-hand", move1)
    expect(side2).to_have_attribute("data-hand", move2)
    expect(side1).to_have_attribute("data-state", state1, timeout=10_000)
    expect(side2).to_have_attribute("data-state", state2)
    expect(page.locator("html")).to_have_attribute("data-ready", "true")

    history: list[dict[str, object]] = page.evaluate("() => window.__history")
    for side, outcome in (("1", state1), ("2", state2)):
        changes = [(e["t"], e["value"]) for e in history if e["who"] == side]
        # The script first hides the outcome, then shows it Wait = 2 s later.
        assert [value for _, value in changes] == ["", outcome], changes
        hidden_at, shown_at = (float(str(t)) for t, _ in changes)
        assert 1900 <= shown_at - hidden_at < 5000, changes
    ready = [(e["t"], e["value"]) for e in history if e["who"] == "html"]
    assert [value for _, value in ready] == ["true"], ready
    assert float(str(ready[0][0])) >= shown_at


def test_outcome_is_not_styled_before_the_script_runs(
    live_server: str, browser: Browser, page: Page, watch: PageWatch
) -> None:
    # Until the runtime has started the Wait, the served page must not show the round's
    # outcome (a first load fetches the scripts after the page is painted).
    query = "/?Set=Rochambeau&Move1=1&Move2=3&Gain1=1&Gain2=0&Wait=20"
    context = browser.new_context(java_script_enabled=False, viewport={"width": 736, "height": 660})
    try:
        bare = context.new_page()
        bare.goto(live_server + query)
        expect(bare.locator("html")).to_have_attribute("data-ready", "false")
        expect(bare.locator('[data-side="1"]')).to_have_attribute("data-hand", "1")
        expect(bare.locator('[data-side="1"]')).to_have_css("box-shadow", "none")
        expect(bare.locator('[data-side="2"]')).to_have_css("opacity", "1")
    finally:
        context.close()
    # Once shown, the outcome is styled: the winner lit, the loser faded.
    page.goto(live_server + query.replace("Wait=20", "Wait=0"))
    expect(page.locator("html")).to_have_attribute("data-ready", "true")
    expect(page.locator('[data-side="1"]')).not_to_have_css("box-shadow", "none")
    expect(page.locator('[data-side="2"]')).to_have_css("opacity", "0.45")


def test_outcome_without_wait_is_immediate(live_server: str, page: Page, watch: PageWatch) -> None:
    open_round(page, live_server, Move1="2", Move2="1")
    expect(page.locator('[data-side="1"]')).to_have_attribute("data-state", "win")
    expect(page.locator('[data-side="2"]')).to_have_attribute("data-state", "lose")


def test_method_end_has_no_controls(live_server: str, page: Page, watch: PageWatch) -> None:
    open_round(
        page, live_server, Method="End", Input="One", Move1="2", Move2="1", Gain1="5", Gain2="3"
    )
    expect(page.locator("html")).to_have_attribute("data-method", "end")
    expect(page.locator("[data-value]")).to_have_count(0)
    expect(page.locator("html")).not_to_have_attribute("data-input", "1")
    expect(page.locator('[data-side="1"]')).to_have_attribute("data-hand", "2")
    expect(page.locator('[data-side="2"]')).to_have_attribute("data-hand", "1")
    expect(page.locator('[data-gain="1"]')).to_have_text("5")
    expect(page.locator("[data-board]")).to_have_attribute("data-winner", "1")
    assert page.evaluate("() => window.tournoyons.play('1')") is False


def test_score_of_five_takes_no_input(live_server: str, page: Page, watch: PageWatch) -> None:
    open_round(page, live_server, Input="Two", Gain1="3", Gain2="5")
    expect(page.locator("[data-value]")).to_have_count(0)
    expect(page.locator("[data-board]")).to_have_attribute("data-winner", "2")


def test_method_none_draws_no_hands(live_server: str, page: Page, watch: PageWatch) -> None:
    open_round(
        page, live_server, Method="None", Input="One", Move1="1", Move2="2", Gain1="1", Gain2="2"
    )
    expect(page.locator("html")).to_have_attribute("data-method", "none")
    expect_counts(page, {"[data-side]": 0, "[data-value]": 0, "use[class^='hand-']": 0})
    expect(page.locator('[data-name="1"]')).to_have_text("MissOne")


def test_tray_is_ignored(live_server: str, page: Page, watch: PageWatch) -> None:
    open_round(page, live_server, Tray="not*a**tray", Move1="3", Move2="1", Gain1="2", Gain2="0")
    expect(page.locator("[data-error]")).to_have_count(0)
    expect(page.locator('[data-side="1"]')).to_have_attribute("data-hand", "3")
    expect(page.locator('[data-side="2"]')).to_have_attribute("data-state", "win")
    assert page.evaluate("() => window.tournoyons.tray()") == ""


def test_french_alias_draws_rochambeau(live_server: str, page: Page, watch: PageWatch) -> None:
    page.goto(f"{live_server}/?set=chifoumi&move1=1&move2=1&gain1=0&gain2=0")
    expect(page.locator("html")).to_have_attribute("data-set", "Rochambeau")
    expect(page.locator('[data-side="2"]')).to_have_attribute("data-state", "tie")


def test_choosing_after_a_round_starts_a_new_round(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    # The Arbitre's next-round page: last round's hands (rock beats scissors) and Input.
    tag = "rps-next-round"
    open_round(page, live_server, tag, Move1="1", Move2="3", Gain1="1", Gain2="0", Input="One")
    side1, side2 = page.locator('[data-side="1"]'), page.locator('[data-side="2"]')
    expect(side1).to_have_attribute("data-state", "win")
    expect(side2).to_have_attribute("data-hand", "3")
    page.locator('[data-value="2"]').click()
    expect_single_return(page, live_server, tag, "2")
    # Paper is shown for player one; last round's scissors and its outcome are gone: the
    # page must not show paper "winning" against scissors.
    expect(side1).to_have_attribute("data-hand", "2")
    assert shown_hand(page, "1") == ["hand-2"]
    expect(side2).to_have_attribute("data-hand", "")
    assert shown_hand(page, "2") == ["hand-none"]
    expect_counts(page, {"[data-side][data-state='win']": 0, "[data-side][data-state='lose']": 0})
    expect(side2).not_to_have_attribute("data-last-move", "2")
