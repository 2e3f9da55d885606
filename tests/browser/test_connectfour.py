"""ConnectFour in real Chromium against the real server: what a person sees and plays.

Spec ``interface-protocol.md`` sections 2, 3, 5 (ConnectFour) and 6 (DOM contract). Cells
are ``[data-cell="A1"]``..``[data-cell="G6"]`` (row 1 at the bottom), laid out from the top
row down; their ``data-state`` is the Tray code shown. Each cell returns its column letter
(``data-value``), so that a click anywhere in a column plays it. A disc is the cell's
``use.d``, visible when the cell holds one, coloured by the cell's ``--face``; a winning disc
has a golden ring (``.w``), and a line (``.cf-line``) runs through the four. The column
aimed at (``svg[data-aim]``) shows the disc about to drop above it (``.cf-aim``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser import helpers as h
from tests.interfaces.drive import hot_seat_pages
from tournoyons_gui.interfaces.connectfour import SAMPLE_TRAY
from tournoyons_gui.interfaces.connectfour.board import COLUMNS, GRID
from tournoyons_gui.interfaces.connectfour.rules import ConnectFourRules

SET = "ConnectFour"
CELLS = list(GRID.names)
RED = "#d8322a"
YELLOW = "#f6c22c"
GOLD = "rgb(232, 184, 32)"  # --win: the winning discs' ring
FOCUS = "rgb(124, 58, 237)"  # --focus: the keyboard focus ring

# The board value: the cells' states in Tray order (bottom row first), whatever the layout.
TRAY_SHOWN = """() => {
  const out = [];
  for (const row of "123456") for (const column of "ABCDEFG") {
    out.push(document.querySelector(`[data-cell="${column}${row}"]`).getAttribute("data-state"));
  }
  return out.join("");
}"""


def tray_of(rows: Mapping[int, str]) -> str:
    """Return the Tray whose row ``r`` (1 at the bottom) is ``rows[r]``, the others empty."""
    return "".join(rows.get(row, "0000000") for row in range(1, 7))


def shown(page: Page) -> str:
    """Return the board shown, in Tray order."""
    result: str = page.evaluate(TRAY_SHOWN)
    return result


def disc(page: Page, name: str) -> Locator:
    """Return the disc of cell ``name``."""
    return h.cell(page, name).locator("use.d")


def face(page: Page, name: str) -> str:
    """Return the colour of cell ``name``'s disc (its ``--face``)."""
    colour: str = h.cell(page, name).evaluate(
        "c => getComputedStyle(c).getPropertyValue('--face').trim()"
    )
    return colour


def expect_disc(page: Page, name: str, colour: str | None) -> None:
    """Assert that cell ``name`` shows a disc of ``colour`` (or no disc at all)."""
    expect(disc(page, name)).to_have_css("visibility", "hidden" if colour is None else "visible")
    if colour is not None:
        assert face(page, name) == colour, name


def visible_lines(page: Page) -> list[str]:
    """Return the player of each line of four shown."""
    found: list[str] = page.locator(".cf-line").evaluate_all(
        "ls => ls.filter(l => getComputedStyle(l).display !== 'none')"
        ".map(l => l.getAttribute('data-state'))"
    )
    return found


def centre(locator: Locator) -> tuple[float, float]:
    """Return the centre of ``locator``'s box on the page."""
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


# --- drawing ------------------------------------------------------------------------------


@pytest.mark.parametrize("tray", [None, "init"])
def test_start_position_is_42_empty_cells_with_coordinates(
    live_server: str, page: Page, watch: h.PageWatch, tray: str | None
) -> None:
    h.expect_empty_start(page, live_server, SET, tray, 42)
    assert page.locator("use.d").evaluate_all(
        "ds => ds.every(d => getComputedStyle(d).visibility === 'hidden')"
    )
    labels = page.locator(".cf-coords text").all_text_contents()
    assert sorted(labels) == sorted([*COLUMNS, *"123456", *"123456"])
    expect(page.locator(".cf-coords text").first).to_be_visible()
    # Laid out from the top row: A6 first, and above A1; G right of A.
    names = page.locator("[data-board] [data-cell]").evaluate_all(
        "cs => cs.map(c => c.getAttribute('data-cell'))"
    )
    assert names == [f"{c}{r}" for r in "654321" for c in COLUMNS]
    assert centre(h.cell(page, "A6"))[1] < centre(h.cell(page, "A1"))[1]
    assert centre(h.cell(page, "G1"))[0] > centre(h.cell(page, "A1"))[0]
    h.expect_counts(page, {"[data-playable]": 0, "[data-error]": 0})


def test_every_tray_code_is_drawn_and_the_winning_four_stands_out(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    won = tray_of({1: "4121100", 2: "4110000", 3: "4000000", 4: "4000000"})
    h.open_named(page, live_server, {"Tray": won, "Method": "End", "Input": "One"}, SET)
    assert shown(page) == won
    assert page.evaluate("() => window.tournoyons.tray()") == won
    assert page.evaluate("() => Webmaster('tray')") == won
    for name, colour in {
        "A1": YELLOW,
        "A4": YELLOW,
        "B1": RED,
        "C1": YELLOW,
        "E1": RED,
        "C2": RED,
        "A5": None,
        "G6": None,
    }.items():
        expect_disc(page, name, colour)
    for name in ("A1", "A2", "A3", "A4"):
        expect(h.cell(page, name).locator(".w")).to_have_css("stroke", GOLD)
    expect(h.cell(page, "B1").locator(".w")).to_have_css("stroke", "none")
    assert visible_lines(page) == ["2"]
    expect(page.locator(".cf")).to_have_attribute("data-winner", "2")
    expect(page.locator("[data-player='2']")).to_have_css("background-color", "rgb(255, 240, 179)")
    h.expect_nothing_playable(page, ["B2", "G1"])


@pytest.mark.parametrize(
    ("params", "name", "player"),
    [
        ({"Tray": SAMPLE_TRAY, "Move2": "E"}, "E1", 2),
        ({"Tray": SAMPLE_TRAY, "Move1": "d"}, "D1", 1),
        ({"Tray": SAMPLE_TRAY, "Move2": "D2"}, "D2", 2),
    ],
)
def test_a_move_marks_the_disc_it_names(
    live_server: str, page: Page, watch: h.PageWatch, params: dict[str, str], name: str, player: int
) -> None:
    h.open_move(page, live_server, params, SET, name, player)
    expect_disc(page, name, RED if player == 1 else YELLOW)
    dot = h.cell(page, name).evaluate("c => getComputedStyle(c).getPropertyValue('--dot').trim()")
    assert dot  # the last move's white dot
    assert shown(page) == SAMPLE_TRAY


@pytest.mark.parametrize(
    ("move", "code"),
    [({"Move1": "E"}, "move1"), ({"Move2": "A"}, "move2"), ({"Move1": "H"}, "move1")],
)
def test_a_move_that_names_no_disc_of_its_player_is_an_error(
    live_server: str, page: Page, watch: h.PageWatch, move: dict[str, str], code: str
) -> None:
    h.open_with_error(page, live_server, {"Tray": SAMPLE_TRAY, **move}, SET, code)
    expect(page.locator("[data-last-move]")).to_have_count(0)
    assert shown(page) == SAMPLE_TRAY


@pytest.mark.parametrize("tray", ["0" * 41, "5" + "0" * 41, "abc"])
def test_bad_tray_shows_an_error_and_takes_no_input(
    live_server: str, page: Page, watch: h.PageWatch, tray: str
) -> None:
    h.open_bad_tray(page, live_server, tray, SET, 42, ["D1", "D6"])
    h.press(page, "4")
    assert h.return_loads(page) == []


# --- Wait: the disc drops, then the four light up ----------------------------------------

# What the page shows just after the runtime started (every impact held, the Wait running)
# and when it becomes ready, in the page's own clock: the dropping disc's cell, its
# animation, the winning discs and the lines shown.
DROP_LOOK = """
(() => {
  const look = () => {
    const cell = document.querySelector("[data-cell][data-before='0']");
    const disc = cell && cell.querySelector("use.d");
    return {
      at: performance.now(),
      ready: document.documentElement.getAttribute("data-ready"),
      cell: cell && cell.getAttribute("data-cell"),
      state: cell && cell.getAttribute("data-state"),
      after: cell && cell.getAttribute("data-after"),
      visible: disc && getComputedStyle(disc).visibility,
      animations: disc ? disc.getAnimations().map(a => ({
        name: a.animationName, duration: a.effect.getTiming().duration,
        state: a.playState, time: a.currentTime})) : [],
      lit: [...document.querySelectorAll("[data-cell]")]
        .filter(c => ["3", "4"].includes(c.getAttribute("data-state")))
        .map(c => c.getAttribute("data-cell")).sort(),
      lines: [...document.querySelectorAll(".cf-line")]
        .filter(l => getComputedStyle(l).display !== "none").length,
    };
  };
  document.addEventListener("DOMContentLoaded", () => setTimeout(() => {
    if (document.querySelector("[data-board]") && !window.__held) window.__held = look();
  }, 0));
  new MutationObserver(() => {
    if (document.documentElement.getAttribute("data-ready") === "true" && !window.__ready) {
      window.__ready = look();
    }
  }).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-ready"]});
})();
"""


def test_wait_drops_the_last_disc_then_the_page_is_ready(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    page.add_init_script(DROP_LOOK)
    h.open_named(page, live_server, {"Tray": SAMPLE_TRAY, "Move2": "E", "Wait": "10"}, SET)
    held: dict[str, Any] = page.evaluate("() => window.__held")
    ready: dict[str, Any] = page.evaluate("() => window.__ready")
    # While Wait runs the disc is falling: its cell not yet filled, the disc drawn, its
    # drop animation running for the Wait (10 tenths).
    assert (held["ready"], held["cell"], held["state"], held["after"]) == ("false", "E1", "0", "2")
    assert held["visible"] == "visible"
    assert [(a["name"], a["duration"], a["state"]) for a in held["animations"]] == [
        ("cf-drop", 1000, "running")
    ]
    # Ready once it has landed: the cell filled, the drop over (or in its last frames).
    assert ready["ready"] == "true" and ready["state"] == "2" and ready["after"] is None
    assert ready["at"] > held["at"]  # ready after the hold (its length is Wait, not timed here)
    # The drop is the one animation; how far its clock has run when the page says ready is
    # sampled by frames and by the machine's load, so it is not asserted (no timed test).
    (drop,) = ready["animations"]
    assert drop["name"] == "cf-drop", drop
    disc(page, "E1").evaluate("d => Promise.all(d.getAnimations().map(a => a.finished))")
    disc_x, disc_y = centre(disc(page, "E1"))
    cell_x, cell_y = centre(h.cell(page, "E1").locator("rect"))
    assert abs(disc_x - cell_x) < 1 and abs(disc_y - cell_y) < 1
    assert shown(page) == SAMPLE_TRAY


def test_wait_lights_the_winning_four_after_the_drop(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    final = hot_seat_pages(ConnectFourRules(), "ABABABA")[-1]
    assert final["Method"] == "End" and final["Move1"] == "A"
    page.add_init_script(DROP_LOOK)
    h.open_named(page, live_server, {**final, "Wait": "8"}, SET)
    held: dict[str, Any] = page.evaluate("() => window.__held")
    ready: dict[str, Any] = page.evaluate("() => window.__ready")
    assert (held["cell"], held["state"], held["after"]) == ("A4", "0", "3")
    assert held["lit"] == [] and held["lines"] == 0
    assert ready["lit"] == ["A1", "A2", "A3", "A4"] and ready["lines"] == 1
    assert shown(page) == final["Tray"]


def test_without_wait_everything_is_shown_at_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    final = hot_seat_pages(ConnectFourRules(), "ABABABA")[-1]
    h.open_named(page, live_server, final, SET)
    assert shown(page) == final["Tray"]
    assert visible_lines(page) == ["1"]
    expect(h.cell(page, "A4")).to_have_attribute("data-before", "0")


# --- playing ------------------------------------------------------------------------------


def test_a_click_anywhere_in_a_column_drops_the_disc_and_returns_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_named_returning(
        page, live_server, {"Tray": SAMPLE_TRAY, "Move2": "E", "Input": "One"}, SET
    )
    assert sorted(set(h.playable_values(page))) == list(COLUMNS)
    h.expect_counts(page, {"[data-playable='true']": 42})
    h.cell(page, "D6").dblclick()  # column D: the disc lands on D3
    expect(h.cell(page, "D3")).to_have_attribute("data-state", "1")
    expect(h.cell(page, "D3")).to_have_attribute("data-last-move", "1")
    expect(page.locator("[data-last-move]")).to_have_count(1)
    h.expect_single_return(page, live_server, tag, "D")
    expected = hot_seat_pages(ConnectFourRules(), "DDCED")[-1]["Tray"]
    assert shown(page) == expected == page.evaluate("() => window.tournoyons.tray()")
    h.cell(page, "A1").click(force=True)
    h.press(page, "2")
    assert len(h.return_loads(page)) == 1


def test_a_click_above_the_board_plays_that_column(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_named_returning(page, live_server, {"Tray": SAMPLE_TRAY, "Input": "One"}, SET)
    x, y = centre(h.cell(page, "F6"))
    box = h.cell(page, "F6").bounding_box()
    assert box is not None
    page.mouse.move(x, y - box["height"])
    expect(page.locator(".cf")).to_have_attribute("data-aim", "F")
    page.mouse.click(x, y - box["height"])
    expect(h.cell(page, "F1")).to_have_attribute("data-state", "1")
    h.expect_single_return(page, live_server, tag, "F")


def test_a_winning_click_lights_the_four(live_server: str, page: Page, watch: h.PageWatch) -> None:
    before = hot_seat_pages(ConnectFourRules(), "ABABAB")[-1]
    tag = h.open_named_returning(page, live_server, {**before, "Wait": "0"}, SET)
    h.cell(page, "A5").click()
    for name in ("A1", "A2", "A3", "A4"):
        expect(h.cell(page, name)).to_have_attribute("data-state", "3")
        expect(h.cell(page, name).locator(".w")).to_have_css("stroke", GOLD)
    expect(page.locator(".cf")).to_have_attribute("data-winner", "1")
    expect(page.locator(".cf-line[data-state='1']")).to_have_count(1)
    h.expect_single_return(page, live_server, tag, "A")
    assert shown(page) == hot_seat_pages(ConnectFourRules(), "ABABABA")[-1]["Tray"]


def test_keys_1_to_7_play_columns_a_to_g(live_server: str, page: Page, watch: h.PageWatch) -> None:
    full = hot_seat_pages(ConnectFourRules(), "CCCCCC")[-1]  # column C full, player one to move
    tag = h.open_named_returning(page, live_server, full, SET)
    assert sorted(set(h.playable_values(page))) == list("ABDEFG")
    h.press(page, "3", "8", "0")  # C is full; 8 and 0 are no column
    assert h.return_loads(page) == []
    h.press(page, "7", "7", "1")
    expect(h.cell(page, "G1")).to_have_attribute("data-state", "1")
    h.expect_single_return(page, live_server, tag, "G")
    expect(h.cell(page, "A1")).to_have_attribute("data-state", "0")


def test_arrows_and_enter_play_the_focused_column_with_the_disc_above_it(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_named_returning(page, live_server, {"Tray": SAMPLE_TRAY, "Input": "One"}, SET)
    board = page.locator(".cf")
    h.press_to(page, h.cell(page, "A6"), "Tab")  # the first playable cell, top left
    expect(h.cell(page, "A6").locator(".f")).to_have_css("stroke", FOCUS)
    expect(board).to_have_attribute("data-aim", "A")
    h.press_to(page, h.cell(page, "C6"), "ArrowRight", "ArrowRight")
    expect(board).to_have_attribute("data-aim", "C")
    expect(page.locator(".cf-aim")).to_have_attribute("transform", "translate(160 0)")
    h.press_to(page, h.cell(page, "C4"), "ArrowDown", "ArrowDown")
    expect(board).to_have_attribute("data-aim", "C")
    h.press_to(page, h.cell(page, "C6"), *["ArrowUp"] * 4)  # the top edge stops the focus
    page.keyboard.press("Enter")
    expect(h.cell(page, "C2")).to_have_attribute("data-state", "1")
    h.expect_single_return(page, live_server, tag, "C")
    expect(board).not_to_have_attribute("data-aim", "C")
    h.press(page, "ArrowRight", "Space", "Enter")
    assert len(h.return_loads(page)) == 1


def test_an_arrow_brings_the_focus_to_the_board(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_named_returning(
        page, live_server, {"Tray": "Init", "Input": "Two", "Legend": "x"}, SET
    )
    page.locator("[data-legend]").click()
    h.press_to(page, h.cell(page, "A6"), "ArrowRight")
    h.press_to(page, h.cell(page, "B6"), "ArrowRight")
    page.keyboard.press("Space")
    expect(h.cell(page, "B1")).to_have_attribute("data-state", "2")
    h.expect_single_return(page, live_server, tag, "B")


def test_the_disc_about_to_drop_follows_the_pointer_in_the_player_s_colour(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    full = hot_seat_pages(ConnectFourRules(), "CCCCCCD")[-1]  # column C full, player two to move
    h.open_named(page, live_server, full, SET)
    board, aim = page.locator(".cf"), page.locator(".cf-aim")
    expect(aim).to_be_hidden()
    h.cell(page, "E3").hover()
    expect(board).to_have_attribute("data-aim", "E")
    expect(aim).to_be_visible()
    expect(aim).to_have_attribute("transform", "translate(280 0)")
    colour = aim.evaluate("a => getComputedStyle(a).getPropertyValue('--face').trim()")
    assert colour == YELLOW
    ghost_x, ghost_y = centre(page.locator(".cf-ghost"))
    assert abs(ghost_x - centre(h.cell(page, "E6"))[0]) < 4
    assert ghost_y < centre(h.cell(page, "E6"))[1]
    h.cell(page, "C2").hover()  # a full column: nothing to aim at
    expect(board).not_to_have_attribute("data-aim", "C")
    expect(aim).to_be_hidden()
    page.mouse.move(1, 1)
    expect(aim).to_be_hidden()


def test_without_input_nothing_is_aimed_or_played(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_named(page, live_server, {"Tray": SAMPLE_TRAY, "Move2": "E"}, SET)
    h.expect_counts(page, {"[data-playable]": 0, "[data-turn]": 0})
    h.cell(page, "D4").hover()
    expect(page.locator(".cf")).not_to_have_attribute("data-aim", "D")
    expect(page.locator(".cf-aim")).to_be_hidden()
    h.press(page, "4")
    h.expect_nothing_playable(page, ["D4", "A1"])


def test_end_takes_no_input_and_none_shows_no_board(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    final = hot_seat_pages(ConnectFourRules(), "ABABABA")[-1]
    h.open_named(page, live_server, {**final, "Input": "Two"}, SET)
    expect(page.locator("html")).to_have_attribute("data-method", "end")
    expect(page.locator("html")).not_to_have_attribute("data-input", "2")
    h.press(page, "2", "Tab", "Enter")
    assert page.evaluate("() => window.tournoyons.play('B')") is False
    h.expect_nothing_playable(page, ["B3", "C1"])

    h.open_named(page, live_server, {"Tray": SAMPLE_TRAY, "Method": "None", "Input": "One"}, SET)
    expect(page.locator("[data-board]")).to_have_count(0)
    h.press(page, "4")
    assert h.return_loads(page) == []
    assert page.evaluate("() => window.tournoyons.tray()") == ""


def test_webtest_hands_input_to_the_player_to_move(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_named_returning(page, live_server, {"Tray": SAMPLE_TRAY, "WebTest": "yes"}, SET)
    expect(page.locator("[data-playable]")).to_have_count(0)
    h.press(page, "4")
    assert h.return_loads(page) == []
    page.locator("[data-webtest='play']").click()
    expect(page.locator("html")).to_have_attribute("data-input", "1")
    h.press(page, "5")
    h.expect_single_return(page, live_server, tag, "E")
    expect(h.cell(page, "E2")).to_have_attribute("data-state", "1")


# --- a whole game through the tester ------------------------------------------------------


def test_hot_seat_game_through_the_tester(live_server: str, page: Page, watch: h.PageWatch) -> None:
    moves = "DDCCEEF"
    pages = hot_seat_pages(ConnectFourRules(), moves)
    assert pages[-1]["Method"] == "End"
    frame = h.start_hot_seat(page, live_server, SET)
    html = frame.locator("html")
    log = page.locator("#log li")
    for number, move in enumerate(moves, start=1):
        player = "1" if number % 2 == 1 else "2"
        expect(html).to_have_attribute("data-input", player)
        frame.locator(f"[data-cell='{move}6']").click()
        expect(frame.locator("[data-count]")).to_have_text(str(number))
        expect(html).to_have_attribute("data-ready", "true")
        params = pages[number]
        assert frame.locator("html").evaluate(TRAY_SHOWN) == params["Tray"]
        query = h.frame_query(page)
        assert query["Tray"] == params["Tray"] and query[f"Move{player}"] == move
        expect(frame.locator("[data-last-move]")).to_have_count(1)
        expect(log).to_have_count(number)
    expect(html).to_have_attribute("data-method", "end")
    expect(frame.locator(".cf")).to_have_attribute("data-winner", "1")
    expect(frame.locator("[data-playable='true']")).to_have_count(0)
    assert page.evaluate("() => window.tester.game().over") is True
    assert h.values_returned(page) == list(moves)


@pytest.mark.slow
def test_a_person_plays_the_strong_engine_through_the_arbitre_and_replays_it(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    """A whole game against ``strong`` on the Arbitre's game page, then the same game
    replayed from its first position to its last with the keys: each position drawn by
    this page shows the recorded Tray, the last one the lit four (or a full board)."""
    from tests.browser.arbitre_helpers import (
        board,
        create_game,
        open_game,
        play_game,
        strategy_for,
        wait_over,
    )

    created = create_game(
        live_server,
        SET,
        [{"kind": "person"}, {"kind": "builtin", "engine": "strong"}],
    )
    open_game(page, live_server, created["persons"][0]["url"])
    assert play_game(page, strategy_for(SET), max_moves=30, seconds=120) >= 4
    rec = wait_over(live_server, created["id"])
    assert rec["status"] == "over" and rec["result"] in ("seat1", "seat2", "draw")
    moves = rec["moves"]

    page.goto(f"{live_server}/games/{created['id']}?move=0")
    root = page.locator("[data-game]")
    frame = board(page)
    expect(root).to_have_attribute("data-move", "0")
    expect(frame.locator("[data-cell][data-state='1'], [data-cell][data-state='2']")).to_have_count(
        0
    )
    page.locator("h1").click()
    for number in range(1, len(moves) + 1):
        page.keyboard.press("ArrowRight")
        expect(root).to_have_attribute("data-move", str(number))
        expect(root).to_have_attribute("data-board-ready", "true")
        expect(frame.locator("html")).to_have_attribute("data-ready", "true")
        shown = frame.locator("html").evaluate(TRAY_SHOWN)
        assert shown == moves[number - 1]["tray"], number
    if rec["result"] != "draw":
        expect(
            frame.locator("[data-cell][data-state='3'], [data-cell][data-state='4']")
        ).to_have_count(4)
