"""TicTacToe in real Chromium against the real server: what a person sees and plays.

Spec ``interface-protocol.md`` sections 2, 3, 4 (TicTacToe) and 6 (DOM contract). Cells are
``[data-cell="1"]``..``[data-cell="9"]``; their ``data-state`` is the Tray code shown and
the mark drawn is the ``.mark-1`` (cross) or ``.mark-2`` (circle) of the cell, visible when
its opacity is 1.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping
from urllib.parse import quote

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import RECORD_RETURNS, PageWatch, sink_values

RETURN_LOADED = (
    "() => document.querySelector('iframe.return').contentDocument"
    "?.querySelector('[data-return-value]') != null"
)

CELLS = [str(n) for n in range(1, 10)]


def interface_url(base: str, params: Mapping[str, str]) -> str:
    """Return the TicTacToe page for ``params`` (values percent-encoded)."""
    query = "&".join(f"{name}={quote(value, safe='')}" for name, value in params.items())
    return f"{base}/?Set=TicTacToe&{query}"


def new_tag() -> str:
    """Return a tag unique to one test, to find its values in the sink's log."""
    return uuid.uuid4().hex


def sink(base: str, tag: str) -> str:
    """Return the URLReturn pointing at the server's sink with ``tag``."""
    return f"{base}/return?tag={tag}"


def open_page(page: Page, base: str, params: Mapping[str, str]) -> None:
    """Load the page with the return recorder installed and wait until it is ready."""
    page.set_default_timeout(5000)
    page.add_init_script(RECORD_RETURNS)
    page.goto(interface_url(base, params))
    expect(page.locator("html")).to_have_attribute("data-ready", "true")


def cell(page: Page, number: str | int) -> Locator:
    """Return the cell ``number`` (1..9)."""
    return page.locator(f"[data-cell='{number}']")


def expect_mark(page: Page, number: str | int, player: int | None) -> None:
    """Assert that cell ``number`` visibly shows ``player``'s mark (or no mark at all)."""
    for mark in (1, 2):
        expect(cell(page, number).locator(f".mark-{mark}")).to_have_css(
            "opacity", "1" if mark == player else "0")


def expect_single_return(page: Page, base: str, tag: str, value: str) -> None:
    """Assert that the page returned ``value`` once: one load asked, one value at the sink."""
    page.wait_for_function(RETURN_LOADED)
    loads: list[str] = page.evaluate("() => window.__returnLoads")
    assert loads == [f"{sink(base, tag)}&ReturnValue={value}"]
    assert sink_values(base, tag) == [value]
    assert page.evaluate("() => window.tournoyons.lastValue") == value
    expect(page.locator("[data-playable='true']")).to_have_count(0)


def expect_nothing_playable(page: Page) -> None:
    """Assert that no cell takes input and a click on each returns nothing."""
    expect(page.locator("[data-playable]")).to_have_count(0)
    for number in CELLS:
        cell(page, number).click(force=True)
    assert page.evaluate("() => window.__returnLoads") == []
    assert page.evaluate("() => window.tournoyons.lastValue") is None
    expect(page.locator("iframe.return")).to_have_attribute("src", "about:blank")


# --- drawing the Tray ---------------------------------------------------------------------


@pytest.mark.parametrize("tray", [None, "init"])
def test_start_position_is_nine_empty_cells(
    live_server: str, page: Page, watch: PageWatch, tray: str | None
) -> None:
    params = {"Name1": "MissOne", "Name2": "MrTwo"}
    if tray is not None:
        params["Tray"] = tray
    open_page(page, live_server, params)
    expect(page.locator("[data-board] [data-cell]")).to_have_count(9)
    expect(page.locator("[data-cell][data-state='0']")).to_have_count(9)
    for number in ("1", "5", "9"):
        expect_mark(page, number, None)
    expect(page.locator("[data-error]")).to_have_count(0)
    expect(page.locator("[data-name='1']")).to_have_text("MissOne")
    expect(page.locator("[data-name='2']")).to_have_text("MrTwo")
    assert page.evaluate("() => window.tournoyons.tray()") == "000000000"


def test_tray_codes_are_drawn_and_winning_cells_stand_out(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    open_page(page, live_server, {"Tray": "333210200", "Method": "End"})
    states = [cell(page, n).get_attribute("data-state") for n in CELLS]
    assert "".join(s or "?" for s in states) == "333210200"
    for number, mark in {1: 1, 2: 1, 3: 1, 4: 2, 5: 1, 6: None, 7: 2, 8: None}.items():
        expect_mark(page, number, mark)
    # A winning cell has a gold face; an ordinary mark and an empty cell have none.
    gold = "rgb(255, 240, 179)"
    expect(cell(page, 1).locator(".face")).to_have_css("fill", gold)
    for number in (4, 5, 6):
        plain = cell(page, number).locator(".face").evaluate("e => getComputedStyle(e).fill")
        assert plain != gold
    assert page.evaluate("() => window.tournoyons.tray()") == "333210200"


def test_winning_cells_of_player_two(live_server: str, page: Page, watch: PageWatch) -> None:
    open_page(page, live_server, {"Tray": "114040400", "Method": "End"})
    for number in (3, 5, 7):
        expect(cell(page, number)).to_have_attribute("data-state", "4")
        expect_mark(page, number, 2)
        expect(cell(page, number).locator(".face")).to_have_css("fill", "rgb(255, 240, 179)")
    expect_mark(page, 1, 1)
    face_of_one = cell(page, 1).locator(".face").evaluate("e => getComputedStyle(e).fill")
    assert face_of_one != "rgb(255, 240, 179)"


@pytest.mark.parametrize(("params", "number", "player"), [
    ({"Tray": "Init", "Move1": "5"}, "5", 1),
    ({"Tray": "100000000", "Move2": "9"}, "9", 2),
    # The Arbitre may send a Tray that already holds the move: drawn once, marked last.
    ({"Tray": "100020000", "Move2": "5"}, "5", 2),
])
def test_move_puts_the_mark_and_marks_the_last_move(
    live_server: str, page: Page, watch: PageWatch,
    params: dict[str, str], number: str, player: int,
) -> None:
    open_page(page, live_server, params)
    expect(cell(page, number)).to_have_attribute("data-state", str(player))
    expect(cell(page, number)).to_have_attribute("data-last-move", str(player))
    expect(page.locator("[data-last-move]")).to_have_count(1)
    expect_mark(page, number, player)
    expect(page.locator("[data-error]")).to_have_count(0)


@pytest.mark.parametrize(("tray", "move", "code"), [
    ("100000000", {"Move2": "1"}, "move2"),
    ("020000000", {"Move1": "2"}, "move1"),
    ("Init", {"Move2": "A1"}, "move2"),
])
def test_move_that_cannot_be_drawn_is_an_error(
    live_server: str, page: Page, watch: PageWatch,
    tray: str, move: dict[str, str], code: str,
) -> None:
    open_page(page, live_server, {"Tray": tray, **move, "Name1": "A", "Name2": "B"})
    error = page.locator("[data-error]")
    expect(error).to_be_visible()
    assert code in (error.get_attribute("data-error") or "").split()
    expect(page.locator("[data-last-move]")).to_have_count(0)
    expected = "000000000" if tray == "Init" else tray
    assert page.evaluate("() => window.tournoyons.tray()") == expected
    # The opponent's mark stays where it was.
    for number, code in enumerate(expected, start=1):
        if code != "0":
            expect_mark(page, number, int(code))


@pytest.mark.parametrize("tray", ["12", "1200000000", "120500000"])
def test_bad_tray_shows_an_error_and_takes_no_input(
    live_server: str, page: Page, watch: PageWatch, tray: str
) -> None:
    open_page(page, live_server, {
        "Tray": tray, "Input": "One", "Name1": "MissOne", "Name2": "MrTwo",
        "Legend": "Round 2", "Count": "4",
    })
    expect(page.locator("[data-board] [data-cell]")).to_have_count(9)
    error = page.locator("[data-error]")
    expect(error).to_be_visible()
    assert "tray" in (error.get_attribute("data-error") or "").split()
    expect(page.locator("[data-name='1']")).to_have_text("MissOne")
    expect(page.locator("[data-name='2']")).to_have_text("MrTwo")
    expect(page.locator("[data-legend]")).to_have_text("Round 2")
    expect(page.locator("[data-legend]")).to_be_visible()
    expect(page.locator("[data-count]")).to_have_text("4")
    expect_nothing_playable(page)


# --- input --------------------------------------------------------------------------------


@pytest.mark.parametrize(("tray", "who", "player", "number"), [
    ("120000000", "One", 1, "9"),
    ("100000000", "two", 2, "5"),
])
def test_input_plays_one_empty_cell_and_returns_it_once(
    live_server: str, page: Page, watch: PageWatch,
    tray: str, who: str, player: int, number: str,
) -> None:
    tag = new_tag()
    open_page(page, live_server, {"Tray": tray, "Input": who, "URLReturn": sink(live_server, tag)})
    empty = [n for n, code in zip(CELLS, tray, strict=True) if code == "0"]
    taken = [n for n, code in zip(CELLS, tray, strict=True) if code != "0"]
    for n in empty:
        expect(cell(page, n)).to_have_attribute("data-playable", "true")
    for n in taken:
        expect(cell(page, n)).not_to_have_attribute("data-playable", "true")
    expect(page.locator(f"[data-player='{player}']")).to_have_attribute("data-turn", "true")
    # A click on a taken cell does nothing.
    cell(page, taken[0]).click(force=True)
    assert page.evaluate("() => window.__returnLoads") == []

    cell(page, number).click()
    expect(cell(page, number)).to_have_attribute("data-state", str(player))
    expect_mark(page, number, player)
    expect_single_return(page, live_server, tag, number)
    assert page.evaluate("() => window.tournoyons.tray()") == (
        tray[: int(number) - 1] + str(player) + tray[int(number):])


@pytest.mark.parametrize("gesture", ["double", "triple", "two-cells", "two-cells-at-once"])
def test_rapid_clicks_return_a_single_value(
    live_server: str, page: Page, watch: PageWatch, gesture: str
) -> None:
    tag = new_tag()
    open_page(page, live_server, {"Tray": "Init", "Input": "One",
                                  "URLReturn": sink(live_server, tag)})
    if gesture == "double":
        cell(page, 3).dblclick()
    elif gesture == "triple":
        cell(page, 3).click(click_count=3)
    elif gesture == "two-cells":
        boxes = [cell(page, n).bounding_box() for n in (3, 7)]
        for box in boxes:
            assert box is not None
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    else:
        page.evaluate("""() => ['3', '7', '3'].forEach(n =>
            document.querySelector(`[data-cell="${n}"]`).dispatchEvent(
                new MouseEvent('click', {bubbles: true})))""")
    expect(cell(page, 3)).to_have_attribute("data-state", "1")
    expect(cell(page, 7)).to_have_attribute("data-state", "0")
    expect_mark(page, 7, None)
    expect_single_return(page, live_server, tag, "3")


def test_enter_held_down_returns_a_single_value(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    tag = new_tag()
    open_page(page, live_server, {"Tray": "Init", "Input": "One",
                                  "URLReturn": sink(live_server, tag)})
    page.keyboard.press("Tab")
    expect(cell(page, 1)).to_be_focused()
    for _ in range(6):  # keyboard auto-repeat: keydown events with repeat set
        page.keyboard.down("Enter")
    page.keyboard.up("Enter")
    expect(cell(page, 1)).to_have_attribute("data-state", "1")
    expect_single_return(page, live_server, tag, "1")


def test_keyboard_tab_arrows_and_enter_play_a_cell(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    tag = new_tag()
    open_page(page, live_server, {"Tray": "100000000", "Input": "Two",
                                  "URLReturn": sink(live_server, tag)})
    page.keyboard.press("Tab")
    expect(cell(page, 2)).to_be_focused()  # the first playable cell
    page.keyboard.press("ArrowLeft")
    expect(cell(page, 1)).to_be_focused()
    page.keyboard.press("Enter")  # a taken cell: nothing happens
    page.keyboard.press("Space")
    assert page.evaluate("() => window.__returnLoads") == []
    page.keyboard.press("ArrowLeft")  # the edge: focus stays
    expect(cell(page, 1)).to_be_focused()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # the bottom edge
    expect(cell(page, 7)).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    expect(cell(page, 5)).to_be_focused()
    page.keyboard.press("Enter")
    expect(cell(page, 5)).to_have_attribute("data-state", "2")
    expect_mark(page, 5, 2)
    expect_single_return(page, live_server, tag, "5")
    # Input is over: keys no longer play.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(cell(page, 6)).to_have_attribute("data-state", "0")
    assert len(page.evaluate("() => window.__returnLoads")) == 1


def test_without_input_nothing_is_playable(live_server: str, page: Page, watch: PageWatch) -> None:
    open_page(page, live_server, {"Tray": "100000000", "URLReturn": "/return"})
    expect(page.locator("[data-turn]")).to_have_count(0)
    expect_nothing_playable(page)


# --- Methods ------------------------------------------------------------------------------


def test_method_end_takes_no_input(live_server: str, page: Page, watch: PageWatch) -> None:
    tray = "120000000"
    open_page(page, live_server, {"Tray": tray, "Method": "End", "Input": "One",
                                  "URLReturn": "/return"})
    expect(page.locator("html")).to_have_attribute("data-method", "end")
    expect(page.locator("[data-board]")).to_be_visible()
    assert page.evaluate("() => window.tournoyons.tray()") == tray
    expect_nothing_playable(page)


def test_won_board_takes_no_input_even_in_standard(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    open_page(page, live_server, {"Tray": "333220000", "Input": "Two", "URLReturn": "/return"})
    expect_nothing_playable(page)


def test_method_none_shows_names_and_legend_without_board(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    open_page(page, live_server, {
        "Method": "None", "Tray": "120000000", "Input": "One", "Name1": "MissOne",
        "Name2": "MrTwo", "Legend": "Next game soon", "Count": "9",
    })
    expect(page.locator("html")).to_have_attribute("data-method", "none")
    expect(page.locator("[data-board]")).to_have_count(0)
    expect(page.locator("[data-cell]")).to_have_count(0)
    for selector, text in (("[data-name='1']", "MissOne"), ("[data-name='2']", "MrTwo"),
                           ("[data-legend]", "Next game soon"), ("[data-count]", "9")):
        expect(page.locator(selector)).to_be_visible()
        expect(page.locator(selector)).to_have_text(text)
    expect(page.locator("[data-playable]")).to_have_count(0)


# --- Wait ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("tray", "move", "win", "mark"), [
    ("333220000", {"Move1": "3"}, "3", "1"),
    ("114040400", {"Move2": "5"}, "4", "2"),
])
def test_wait_shows_the_move_then_the_winning_line(
    live_server: str, page: Page, watch: PageWatch,
    tray: str, move: dict[str, str], win: str, mark: str,
) -> None:
    winning = [n for n, code in zip(CELLS, tray, strict=True) if code == win]
    asked = time.monotonic()
    page.goto(interface_url(live_server, {"Tray": tray, **move, "Wait": "20", "Method": "End"}))
    # First the move, as an ordinary mark: the line is not yet shown, the page not ready.
    expect(page.locator("html")).to_have_attribute("data-ready", "false")
    for number in winning:
        expect(cell(page, number)).to_have_attribute("data-state", mark)
    face = cell(page, winning[0]).locator(".face").evaluate("e => getComputedStyle(e).fill")
    assert face != "rgb(255, 240, 179)"
    assert page.evaluate("() => window.tournoyons.sounds.includes('win')") is False
    # Then, two seconds after, the winning line.
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=5000)
    assert time.monotonic() - asked >= 1.9
    for number in winning:
        expect(cell(page, number)).to_have_attribute("data-state", win)
    expect(cell(page, winning[0]).locator(".face")).to_have_css("fill", "rgb(255, 240, 179)")
    page.wait_for_function("() => window.tournoyons.sounds.includes('win')")


def test_without_wait_the_winning_line_is_shown_at_once(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    page.goto(interface_url(live_server, {"Tray": "333220000", "Move1": "3", "Method": "End"}))
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=1000)
    expect(page.locator("[data-cell][data-state='3']")).to_have_count(3)
