"""TicTacToe in real Chromium against the real server: what a person sees and plays.

Spec ``interface-protocol.md`` sections 2, 3, 4 (TicTacToe) and 6 (DOM contract). Cells are
``[data-cell="1"]``..``[data-cell="9"]``; their ``data-state`` is the Tray code shown and
the mark drawn is the ``.mark-1`` (cross) or ``.mark-2`` (circle) of the cell, visible when
its opacity is 1.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser import helpers as h

SET = "TicTacToe"
CELLS = [str(n) for n in range(1, 10)]


def expect_mark(page: Page, number: str | int, player: int | None) -> None:
    """Assert that cell ``number`` visibly shows ``player``'s mark (or no mark at all)."""
    for mark in (1, 2):
        expect(h.cell(page, number).locator(f".mark-{mark}")).to_have_css(
            "opacity", "1" if mark == player else "0"
        )


# --- drawing the Tray ---------------------------------------------------------------------


@pytest.mark.parametrize("tray", [None, "init"])
def test_start_position_is_nine_empty_cells(
    live_server: str, page: Page, watch: h.PageWatch, tray: str | None
) -> None:
    h.expect_empty_start(page, live_server, SET, tray, 9)
    marks = page.locator("[data-cell] .mark-1, [data-cell] .mark-2")
    assert marks.evaluate_all("ms => ms.map(m => getComputedStyle(m).opacity)") == ["0"] * 18


def test_tray_codes_are_drawn_and_winning_cells_stand_out(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_page(page, live_server, {"Tray": "333210200", "Method": "End"}, SET)
    assert h.states(page) == "333210200"
    for number, mark in {1: 1, 2: 1, 3: 1, 4: 2, 5: 1, 6: None, 7: 2, 8: None}.items():
        expect_mark(page, number, mark)
    # A winning cell has a gold face; an ordinary mark and an empty cell have none.
    gold = "rgb(255, 240, 179)"
    expect(h.cell(page, 1).locator(".face")).to_have_css("fill", gold)
    for number in (4, 5, 6):
        plain = h.cell(page, number).locator(".face").evaluate("e => getComputedStyle(e).fill")
        assert plain != gold
    assert page.evaluate("() => window.tournoyons.tray()") == "333210200"


def test_winning_cells_of_player_two(live_server: str, page: Page, watch: h.PageWatch) -> None:
    h.open_page(page, live_server, {"Tray": "114040400", "Method": "End"}, SET)
    for number in (3, 5, 7):
        expect(h.cell(page, number)).to_have_attribute("data-state", "4")
        expect_mark(page, number, 2)
        expect(h.cell(page, number).locator(".face")).to_have_css("fill", "rgb(255, 240, 179)")
    expect_mark(page, 1, 1)
    face_of_one = h.cell(page, 1).locator(".face").evaluate("e => getComputedStyle(e).fill")
    assert face_of_one != "rgb(255, 240, 179)"


@pytest.mark.parametrize(
    ("params", "number", "player"),
    [
        ({"Tray": "Init", "Move1": "5"}, "5", 1),
        ({"Tray": "100000000", "Move2": "9"}, "9", 2),
        # The Arbitre may send a Tray that already holds the move: drawn once, marked last.
        ({"Tray": "100020000", "Move2": "5"}, "5", 2),
    ],
)
def test_move_puts_the_mark_and_marks_the_last_move(
    live_server: str,
    page: Page,
    watch: h.PageWatch,
    params: dict[str, str],
    number: str,
    player: int,
) -> None:
    h.open_move(page, live_server, params, SET, number, player)
    expect_mark(page, number, player)


@pytest.mark.parametrize(
    ("tray", "move", "code"),
    [
        ("100000000", {"Move2": "1"}, "move2"),
        ("020000000", {"Move1": "2"}, "move1"),
        ("Init", {"Move2": "A1"}, "move2"),
    ],
)
def test_move_that_cannot_be_drawn_is_an_error(
    live_server: str,
    page: Page,
    watch: h.PageWatch,
    tray: str,
    move: dict[str, str],
    code: str,
) -> None:
    h.open_with_error(page, live_server, {"Tray": tray, **move}, SET, code)
    expect(page.locator("[data-last-move]")).to_have_count(0)
    expected = "000000000" if tray == "Init" else tray
    assert page.evaluate("() => window.tournoyons.tray()") == expected
    # The opponent's mark stays where it was.
    for number, code in enumerate(expected, start=1):
        if code != "0":
            expect_mark(page, number, int(code))


@pytest.mark.parametrize("tray", ["12", "1200000000", "120500000"])
def test_bad_tray_shows_an_error_and_takes_no_input(
    live_server: str, page: Page, watch: h.PageWatch, tray: str
) -> None:
    h.open_bad_tray(page, live_server, tray, SET, 9, CELLS)


# --- input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tray", "who", "player", "number"),
    [
        ("120000000", "One", 1, "9"),
        ("100000000", "two", 2, "5"),
    ],
)
def test_input_plays_one_empty_cell_and_returns_it_once(
    live_server: str,
    page: Page,
    watch: h.PageWatch,
    tray: str,
    who: str,
    player: int,
    number: str,
) -> None:
    tag = h.open_returning(page, live_server, {"Tray": tray, "Input": who}, SET)
    empty = [n for n, code in zip(CELLS, tray, strict=True) if code == "0"]
    taken = [n for n, code in zip(CELLS, tray, strict=True) if code != "0"]
    for n in empty:
        expect(h.cell(page, n)).to_have_attribute("data-playable", "true")
    for n in taken:
        expect(h.cell(page, n)).not_to_have_attribute("data-playable", "true")
    expect(page.locator(f"[data-player='{player}']")).to_have_attribute("data-turn", "true")
    # A click on a taken cell does nothing.
    h.cell(page, taken[0]).click(force=True)
    assert h.return_loads(page) == []

    h.cell(page, number).click()
    expect(h.cell(page, number)).to_have_attribute("data-state", str(player))
    expect_mark(page, number, player)
    h.expect_single_return(page, live_server, tag, number)
    assert page.evaluate("() => window.tournoyons.tray()") == (
        tray[: int(number) - 1] + str(player) + tray[int(number) :]
    )


@pytest.mark.parametrize(
    "gesture", ["double", "triple", "two-cells", "two-cells-at-once", "enter-held"]
)
def test_rapid_clicks_or_enter_held_return_a_single_value(
    live_server: str, page: Page, watch: h.PageWatch, gesture: str
) -> None:
    tag = h.open_returning(page, live_server, {"Tray": "Init", "Input": "One"}, SET)
    if gesture == "double":
        h.cell(page, 3).dblclick()
    elif gesture == "triple":
        h.cell(page, 3).click(click_count=3)
    elif gesture == "two-cells":
        boxes = [h.cell(page, n).bounding_box() for n in (3, 7)]
        for box in boxes:
            assert box is not None
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    elif gesture == "two-cells-at-once":
        page.evaluate("""() => ['3', '7', '3'].forEach(n =>
            document.querySelector(`[data-cell="${n}"]`).dispatchEvent(
                new MouseEvent('click', {bubbles: true})))""")
    else:
        h.press_to(page, h.cell(page, 3), "Tab", "ArrowRight", "ArrowRight")
        h.hold_enter(page)
    expect(h.cell(page, 3)).to_have_attribute("data-state", "1")
    expect(h.cell(page, 7)).to_have_attribute("data-state", "0")
    expect_mark(page, 7, None)
    h.expect_single_return(page, live_server, tag, "3")


def test_keyboard_tab_arrows_and_enter_play_a_cell(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_returning(page, live_server, {"Tray": "100000000", "Input": "Two"}, SET)
    h.press_to(page, h.cell(page, 2), "Tab")  # the first playable cell
    h.press_to(page, h.cell(page, 1), "ArrowLeft")
    h.press(page, "Enter", "Space")  # a taken cell: nothing happens
    assert h.return_loads(page) == []
    h.press_to(page, h.cell(page, 1), "ArrowLeft")  # the edge: focus stays
    h.press_to(page, h.cell(page, 7), *["ArrowDown"] * 3)  # the third at the bottom edge
    h.press_to(page, h.cell(page, 5), "ArrowRight", "ArrowUp")
    page.keyboard.press("Enter")
    expect(h.cell(page, 5)).to_have_attribute("data-state", "2")
    expect_mark(page, 5, 2)
    h.expect_single_return(page, live_server, tag, "5")
    # Input is over: keys no longer play.
    h.press(page, "ArrowRight", "Enter")
    expect(h.cell(page, 6)).to_have_attribute("data-state", "0")
    assert len(h.return_loads(page)) == 1


def test_without_input_nothing_is_playable(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_page(page, live_server, {"Tray": "100000000", "URLReturn": "/return"}, SET)
    expect(page.locator("[data-turn]")).to_have_count(0)
    h.expect_nothing_playable(page, CELLS)


# --- Methods ------------------------------------------------------------------------------


def test_method_end_takes_no_input(live_server: str, page: Page, watch: h.PageWatch) -> None:
    tray = "120000000"
    h.open_page(
        page,
        live_server,
        {"Tray": tray, "Method": "End", "Input": "One", "URLReturn": "/return"},
        SET,
    )
    expect(page.locator("html")).to_have_attribute("data-method", "end")
    expect(page.locator("[data-board]")).to_be_visible()
    assert page.evaluate("() => window.tournoyons.tray()") == tray
    h.expect_nothing_playable(page, CELLS)


def test_won_board_takes_no_input_even_in_standard(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_page(
        page, live_server, {"Tray": "333220000", "Input": "Two", "URLReturn": "/return"}, SET
    )
    h.expect_nothing_playable(page, CELLS)


def test_method_none_shows_names_and_legend_without_board(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_method_none(page, live_server, {"Tray": "120000000", "Input": "One"}, SET)


# --- Wait ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tray", "move", "win", "mark"),
    [
        ("333220000", {"Move1": "3"}, "3", "1"),
        ("114040400", {"Move2": "5"}, "4", "2"),
    ],
)
@pytest.mark.slow
def test_wait_shows_the_move_then_the_winning_line(
    live_server: str,
    page: Page,
    watch: h.PageWatch,
    tray: str,
    move: dict[str, str],
    win: str,
    mark: str,
) -> None:
    winning = [n for n, code in zip(CELLS, tray, strict=True) if code == win]
    asked = time.monotonic()
    page.goto(
        h.interface_url(live_server, {"Tray": tray, **move, "Wait": "20", "Method": "End"}, SET)
    )
    # First the move, as an ordinary mark: the line is not yet shown, the page not ready.
    expect(page.locator("html")).to_have_attribute("data-ready", "false")
    for number in winning:
        expect(h.cell(page, number)).to_have_attribute("data-state", mark)
    face = h.cell(page, winning[0]).locator(".face").evaluate("e => getComputedStyle(e).fill")
    assert face != "rgb(255, 240, 179)"
    assert page.evaluate("() => window.tournoyons.sounds.includes('win')") is False
    # Then, two seconds after, the winning line.
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=5000)
    assert time.monotonic() - asked >= 1.9
    for number in winning:
        expect(h.cell(page, number)).to_have_attribute("data-state", win)
    expect(h.cell(page, winning[0]).locator(".face")).to_have_css("fill", "rgb(255, 240, 179)")
    page.wait_for_function("() => window.tournoyons.sounds.includes('win')")


def test_without_wait_the_winning_line_is_shown_at_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    page.goto(
        h.interface_url(live_server, {"Tray": "333220000", "Move1": "3", "Method": "End"}, SET)
    )
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=1000)
    expect(page.locator("[data-cell][data-state='3']")).to_have_count(3)
