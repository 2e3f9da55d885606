"""Pente in real Chromium against the real server: what a person sees and plays.

Spec ``interface-protocol.md`` sections 2, 3, 4 (Pente) and 6. Points are
``[data-cell="AA"]``..``[data-cell="SS"]`` (one ``<circle>`` each); what a point shows is
read from its computed style: a stone is filled with ``url(#pente-stone-1)`` or
``url(#pente-stone-2)``, an empty point is transparent, a winning stone has a gold ring.
"""

from __future__ import annotations

import time
import urllib.request
import uuid
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from playwright.sync_api import FrameLocator, Locator, Page, expect

from interfaces.pente.board import EMPTY_TRAY, LETTERS, point_name, read_point
from interfaces.pente.rules import PenteRules
from interfaces.plugin import Turn
from tests.browser.conftest import RECORD_RETURNS, PageWatch, sink_values

RETURN_LOADED = (
    "() => document.querySelector('iframe.return').contentDocument"
    "?.querySelector('[data-return-value]') != null"
)

# What a point looks like, from its computed style.
LOOK = """e => { const s = getComputedStyle(e);
  return {fill: s.fill, r: s.r, stroke: s.stroke, opacity: s.fillOpacity}; }"""
STONE = {1: 'url("#pente-stone-1")', 2: 'url("#pente-stone-2")'}
TRANSPARENT = "rgba(0, 0, 0, 0)"
GOLD = "rgb(232, 184, 32)"
FOCUS = "rgb(124, 58, 237)"


def interface_url(base: str, params: Mapping[str, str]) -> str:
    """Return the Pente page for ``params`` (values percent-encoded)."""
    query = "&".join(f"{name}={quote(value, safe='')}" for name, value in params.items())
    return f"{base}/?Set=Pente&{query}"


def open_page(page: Page, base: str, params: Mapping[str, str], ready: bool = True) -> None:
    """Load the page with the return recorder installed; wait until it is ready."""
    page.add_init_script(RECORD_RETURNS)
    page.goto(interface_url(base, params))
    if ready:
        expect(page.locator("html")).to_have_attribute("data-ready", "true")


def sink(base: str, tag: str) -> str:
    """Return the URLReturn pointing at the server's sink with ``tag``."""
    return f"{base}/return?tag={tag}"


def point(page: Page | FrameLocator, name: str) -> Locator:
    """Return the point ``name`` (``AA``..``SS``)."""
    return page.locator(f"[data-cell='{name}']")


def look(page: Page, name: str) -> dict[str, str]:
    """Return the fill, radius, stroke and fill opacity point ``name`` is drawn with."""
    result: dict[str, str] = point(page, name).evaluate(LOOK)
    return result


def expect_stone(page: Page, name: str, player: int | None) -> None:
    """Assert that point ``name`` visibly holds ``player``'s stone (``None``: empty)."""
    expected = STONE[player] if player else TRANSPARENT
    page.wait_for_function(
        "([name, fill]) => getComputedStyle(document.querySelector("
        "`[data-cell='${name}']`)).fill === fill", arg=[name, expected], timeout=3000)


SNAPSHOT = """names => ({
  ready: document.documentElement.getAttribute("data-ready"),
  points: Object.fromEntries(names.map(name => {
    const e = document.querySelector(`[data-cell='${name}']`);
    const s = getComputedStyle(e);
    return [name, {state: e.getAttribute("data-state"), fill: s.fill, stroke: s.stroke}];
  })),
})"""


def snapshot(page: Page, names: list[str]) -> dict[str, Any]:
    """Return, read at one instant, data-ready and the state, fill and stroke of ``names``."""
    result: dict[str, Any] = page.evaluate(SNAPSHOT, names)
    return result


def tray_with(stones: Mapping[str, str]) -> str:
    """Return the empty Tray with the points of ``stones`` (``{"JJ": "1"}``) set."""
    cells = list(EMPTY_TRAY)
    for name, code in stones.items():
        index = read_point(name)
        assert index is not None
        cells[index] = code
    return "".join(cells)


def turn_after(*moves: str) -> Turn:
    """Return the rules' turn after ``moves`` from a new game."""
    rules = PenteRules()
    turn = rules.new_game()
    for value in moves:
        turn = rules.play(turn.state, value)
    return turn


def states(page: Page | FrameLocator) -> str:
    """Return the data-state of every point, in order."""
    result: str = page.locator("[data-cell]").evaluate_all(
        "cells => cells.map(c => c.getAttribute('data-state')).join('')")
    return result


def expect_single_return(page: Page, base: str, tag: str, value: str) -> None:
    """Assert that the page returned ``value`` once: one load asked, one value at the sink."""
    page.wait_for_function(RETURN_LOADED)
    loads: list[str] = page.evaluate("() => window.__returnLoads")
    assert loads == [f"{sink(base, tag)}&ReturnValue={value}"]
    assert sink_values(base, tag) == [value]
    assert page.evaluate("() => window.tournoyons.lastValue") == value
    expect(page.locator("[data-playable='true']")).to_have_count(0)


# A player-one capture: MM takes two's KK-LL; two to play (the Set's tester sample).
CAPTURE = ("JJ", "KK", "MP", "LL", "MM")


# --- drawing -------------------------------------------------------------------------------


def test_start_position_is_an_empty_board_with_coordinates(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    open_page(page, live_server, {"Name1": "MissOne", "Name2": "MrTwo", "Input": "One"})
    board = page.locator("[data-board][data-columns='19']")
    expect(board.locator("[data-cell]")).to_have_count(361)
    expect(page.locator("[data-cell][data-state='0']")).to_have_count(361)
    expect(page.locator("[data-playable='true']")).to_have_count(361)
    expect(page.locator("[data-error]")).to_have_count(0)
    names = board.locator("[data-cell]").evaluate_all(
        "cells => cells.map(c => c.getAttribute('data-cell'))")
    assert names == [point_name(i) for i in range(361)]  # row-major, for the arrow keys
    assert page.evaluate("() => window.tournoyons.tray()") == EMPTY_TRAY
    assert page.evaluate("() => Webmaster('tray')") == EMPTY_TRAY
    # Letters on the four edges, and nothing else written on the board.
    for group in ("cols", "rows"):
        labels = page.locator(f".coords .{group}")
        expect(labels).to_have_count(2)
        assert labels.first.text_content() == LETTERS
    expect(page.locator("[data-gain='1']")).to_have_text("0")
    expect(page.locator("[data-gain='1'] .pair")).to_have_count(5)
    expect(page.locator("[data-gain='1'] .pair.taken")).to_have_count(0)
    expect_stone(page, "JJ", None)
    open_page(page, live_server, {"Tray": "Init"})
    expect(page.locator("[data-cell][data-state='0']")).to_have_count(361)
    expect(page.locator("[data-playable]")).to_have_count(0)


def test_init_page_is_small(live_server: str) -> None:
    with urllib.request.urlopen(interface_url(live_server, {"Tray": "Init", "Input": "One"}),
                                timeout=5) as answer:
        body = answer.read()
    assert len(body) < 30_000, len(body)
    assert body.count(b"data-cell=") == 361


def test_stones_winning_stones_and_forbidden_points_are_drawn(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    tray = tray_with({"AA": "1", "BA": "2", "CA": "3", "DA": "4", "EA": "9", "SS": "2"})
    open_page(page, live_server, {"Tray": tray, "Method": "End"})
    assert states(page) == tray
    expect_stone(page, "AA", 1)
    expect_stone(page, "BA", 2)
    expect_stone(page, "CA", 1)
    expect_stone(page, "DA", 2)
    assert look(page, "CA")["stroke"] == GOLD
    assert look(page, "AA")["stroke"] == "none"
    forbidden = look(page, "EA")
    assert forbidden["fill"] not in (TRANSPARENT, STONE[1], STONE[2])
    assert float(forbidden["r"].removesuffix("px")) < 0.3  # a mark, smaller than a stone
    expect_stone(page, "FA", None)


def test_captured_stones_are_shown_then_removed_after_wait(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    params = {**turn_after(*CAPTURE).params, "Wait": "25"}
    assert params["Tray"][read_point("KK") or 0] == "6"
    asked = time.monotonic()
    open_page(page, live_server, params, ready=False)
    # First the move and the captured pair, still drawn as player two's stones.
    shown = snapshot(page, ["KK", "LL", "MM"])
    assert shown["ready"] == "false"
    for name in ("KK", "LL"):
        assert shown["points"][name] == {"state": "2", "fill": STONE[2], "stroke": "none"}
    assert shown["points"]["MM"]["fill"] == STONE[1]
    expect(point(page, "MM")).to_have_attribute("data-last-move", "1")
    # The capture count is drawn at once: one pair of player two's stones.
    expect(page.locator("[data-gain='1']")).to_have_text("1")
    taken = page.locator("[data-gain='1'] .pair.taken circle")
    expect(taken).to_have_count(2)
    assert taken.first.evaluate("e => getComputedStyle(e).fill") == STONE[2]
    expect(page.locator("[data-gain='2'] .pair.taken")).to_have_count(0)
    # Then, 2.5 s later, they are gone.
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=8000)
    assert time.monotonic() - asked >= 2.4
    for name in ("KK", "LL"):
        expect(point(page, name)).to_have_attribute("data-state", "0")
        expect_stone(page, name, None)
    assert page.evaluate("() => window.tournoyons.tray()") == (
        params["Tray"].replace("6", "0"))
    # And the points are playable again.
    expect(point(page, "KK")).to_have_attribute("data-playable", "true")


def test_without_wait_captured_stones_are_removed_at_once(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    open_page(page, live_server, {"Tray": tray_with({"AA": "5", "BA": "5", "CA": "2"}),
                                  "Move2": "CA", "Gain2": "1"})
    expect(point(page, "AA")).to_have_attribute("data-state", "0")
    expect_stone(page, "AA", None)
    expect(page.locator("[data-gain='2'] .pair.taken")).to_have_count(1)


def test_winning_row_waits_after_the_move_that_made_it(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    stones = {"FJ": "1", "GJ": "1", "HJ": "1", "IJ": "1", "AA": "2", "BB": "2", "CC": "2",
              "DD": "2"}
    turn = PenteRules().play({"tray": tray_with(stones), "count": 8, "gain1": 0, "gain2": 0},
                             "JJ")
    row = ["FJ", "GJ", "HJ", "IJ", "JJ"]
    open_page(page, live_server, {**turn.params, "Wait": "25"}, ready=False)
    shown = snapshot(page, row)
    assert shown["ready"] == "false"
    for name in row:  # first ordinary stones
        assert shown["points"][name]["state"] == "1"
        assert shown["points"][name]["stroke"] != GOLD
    assert page.evaluate("() => window.tournoyons.sounds.includes('win')") is False
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=8000)
    for name in row:
        expect(point(page, name)).to_have_attribute("data-state", "3")
    page.wait_for_timeout(950)  # the ring's glow
    assert look(page, "FJ")["stroke"] == GOLD
    assert look(page, "AA")["stroke"] == "none"
    expect(page.locator("[data-playable]")).to_have_count(0)
    # The winner's name box lights up.
    winner = page.locator(".player[data-player='1']")
    assert winner.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 240, 179)"


def test_five_captured_pairs_are_drawn(live_server: str, page: Page, watch: PageWatch) -> None:
    open_page(page, live_server, {"Tray": tray_with({"JJ": "3", "MJ": "3"}), "Gain1": "5",
                                  "Gain2": "3", "Method": "End"})
    expect(page.locator("[data-gain='1']")).to_have_text("5")
    expect(page.locator("[data-gain='1'] .pair.taken")).to_have_count(5)
    expect(page.locator("[data-gain='2']")).to_have_text("3")
    expect(page.locator("[data-gain='2'] .pair.taken")).to_have_count(3)
    # Drawn: the taken pairs are opaque stones, the others faint.
    opacities = page.locator("[data-gain='2'] .pair circle").evaluate_all(
        "cs => cs.map(c => getComputedStyle(c).fillOpacity)")
    assert opacities == ["1"] * 6 + ["0.13"] * 4


def test_last_moves_are_marked(live_server: str, page: Page, watch: PageWatch) -> None:
    open_page(page, live_server, {"Tray": tray_with({"JJ": "1"}), "Move1": "JJ",
                                  "Move2": "KK"})
    expect(point(page, "JJ")).to_have_attribute("data-last-move", "1")
    expect(point(page, "KK")).to_have_attribute("data-last-move", "2")
    expect(point(page, "KK")).to_have_attribute("data-state", "2")
    expect(page.locator("[data-last-move]")).to_have_count(2)
    marks = page.locator(".last-mark")
    expect(marks).to_have_count(2)
    for mark, name in zip(marks.all(), ("JJ", "KK"), strict=True):
        expect(mark).to_be_visible()
        box, stone = mark.bounding_box(), point(page, name).bounding_box()
        assert box and stone
        assert abs(box["x"] + box["width"] / 2 - stone["x"] - stone["width"] / 2) < 1
        assert abs(box["y"] + box["height"] / 2 - stone["y"] - stone["height"] / 2) < 1


# --- input ----------------------------------------------------------------------------------


def test_forbidden_points_are_never_playable(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    tag = uuid.uuid4().hex
    params = {**turn_after("JJ", "KK").params, "URLReturn": sink(live_server, tag)}
    open_page(page, live_server, params)
    forbidden = page.locator("[data-cell][data-state='9']")
    expect(forbidden).to_have_count(23)
    expect(page.locator("[data-state='9'][data-playable]")).to_have_count(0)
    expect(page.locator("[data-playable='true']")).to_have_count(361 - 25)
    # Clicks and keys on them return nothing.
    point(page, "LL").click(force=True)
    point(page, "HJ").click(force=True)
    point(page, "HJ").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    assert page.evaluate("() => window.tournoyons.play('LL')") is False
    assert page.evaluate("() => window.__returnLoads") == []
    assert point(page, "LL").evaluate("e => getComputedStyle(e).cursor") == "not-allowed"
    # A point three away from the centre is played.
    point(page, "JM").click()
    expect_stone(page, "JM", 1)
    expect_single_return(page, live_server, tag, "JM")


def test_hover_shows_the_stone_to_play(live_server: str, page: Page, watch: PageWatch) -> None:
    open_page(page, live_server, {**turn_after("JJ").params})
    point(page, "DD").hover()
    ghost = look(page, "DD")
    assert ghost["fill"] == STONE[2] and float(ghost["opacity"]) < 1
    expect(page.locator(".coords .lit")).to_have_count(4)  # D on each edge
    assert page.locator(".coords .lit").all_text_contents() == ["D", "D", "D", "D"]
    point(page, "JJ").hover()  # a stone: nothing to play there
    assert look(page, "JJ")["fill"] == STONE[1]
    assert look(page, "DD")["fill"] == TRANSPARENT


def test_click_plays_once(live_server: str, page: Page, watch: PageWatch) -> None:
    tag = uuid.uuid4().hex
    params = {**turn_after(*CAPTURE).params, "Wait": "0", "URLReturn": sink(live_server, tag)}
    open_page(page, live_server, params)
    expect(page.locator(".player[data-player='2']")).to_have_attribute("data-turn", "true")
    point(page, "MM").click(force=True)  # a stone
    assert page.evaluate("() => window.__returnLoads") == []
    point(page, "KK").dblclick()  # where a captured stone was
    point(page, "AA").click(force=True)
    expect(point(page, "KK")).to_have_attribute("data-state", "2")
    expect(point(page, "AA")).to_have_attribute("data-state", "0")
    expect_stone(page, "KK", 2)
    expect_single_return(page, live_server, tag, "KK")
    # The stone played is now the only last move.
    expect(page.locator("[data-last-move]")).to_have_count(1)
    expect(point(page, "KK")).to_have_attribute("data-last-move", "2")
    expect(page.locator(".last-mark")).to_have_count(1)
    expect(page.locator(".last-mark")).to_have_attribute("data-mark", "2")
    tray = page.evaluate("() => window.tournoyons.tray()")
    assert tray[read_point("KK") or 0] == "2" and tray.count("2") == 1


def test_keyboard_arrows_and_enter_play_a_point(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    tag = uuid.uuid4().hex
    params = {**turn_after("JJ").params, "URLReturn": sink(live_server, tag)}
    open_page(page, live_server, params)
    page.keyboard.press("Tab")
    expect(point(page, "AA")).to_be_focused()
    for _ in range(9):
        page.keyboard.press("ArrowRight")
    for _ in range(9):
        page.keyboard.press("ArrowDown")
    expect(point(page, "JJ")).to_be_focused()
    # The focus is drawn, and its coordinates light up.
    assert look(page, "JJ")["stroke"] == FOCUS
    assert page.locator(".coords .lit").all_text_contents() == ["J", "J", "J", "J"]
    page.keyboard.press("Enter")  # a stone: nothing
    assert page.evaluate("() => window.__returnLoads") == []
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    expect(point(page, "II")).to_be_focused()
    focused = look(page, "II")
    assert focused["stroke"] == FOCUS and focused["fill"] == STONE[2]
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect_stone(page, "II", 2)
    expect_single_return(page, live_server, tag, "II")
    # The edge stops the focus.
    for _ in range(12):
        page.keyboard.press("ArrowUp")
    expect(point(page, "IA")).to_be_focused()


# --- bad input, Methods, size -------------------------------------------------------------


BAD_INPUT = [
    ({"Tray": "0" * 360}, "tray"),
    ({"Tray": "0" * 362}, "tray"),
    ({"Tray": "7" + "0" * 360}, "tray"),
    ({"Tray": "x" * 361}, "tray"),
    ({"Move1": "TT"}, "move1"),
    ({"Move2": "K10"}, "move2"),
    ({"Tray": tray_with({"JJ": "2"}), "Move1": "JJ"}, "move1"),
    ({"Gain1": "6"}, "gain1"),
    ({"Gain2": "-1"}, "gain2"),
]


def test_bad_input_shows_an_error_and_still_draws_the_board(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    for params, code in BAD_INPUT:
        open_page(page, live_server, {"Name1": "MissOne", "Name2": "MrTwo",
                                      "Legend": "round 3", "Count": "7", **params})
        error = page.locator("[data-error]")
        expect(error).to_be_visible()
        assert code in (error.get_attribute("data-error") or "").split(), params
        expect(page.locator("[data-board] [data-cell]")).to_have_count(361)
        expect(page.locator("[data-board]")).to_be_visible()
        expect(page.locator("[data-name='1']")).to_have_text("MissOne")
        expect(page.locator("[data-legend]")).to_have_text("round 3")
        expect(page.locator("[data-count]")).to_have_text("7")


def test_bad_tray_takes_no_input(live_server: str, page: Page, watch: PageWatch) -> None:
    open_page(page, live_server, {"Tray": "12", "Input": "One", "URLReturn": "/return"})
    expect(page.locator("[data-playable]")).to_have_count(0)
    point(page, "JJ").click(force=True)
    assert page.evaluate("() => window.__returnLoads") == []


def test_method_end_and_none(live_server: str, page: Page, watch: PageWatch) -> None:
    tray = tray_with({"JJ": "1", "KK": "2"})
    open_page(page, live_server, {"Tray": tray, "Method": "End", "Input": "One"})
    expect(page.locator("html")).to_have_attribute("data-method", "end")
    expect(page.locator("[data-cell]")).to_have_count(361)
    expect(page.locator("[data-playable]")).to_have_count(0)
    open_page(page, live_server, {"Tray": tray, "Method": "None", "Input": "One",
                                  "Name1": "MissOne", "Gain1": "2"})
    expect(page.locator("html")).to_have_attribute("data-method", "none")
    expect(page.locator("[data-board]")).to_have_count(0)
    expect(page.locator("[data-name='1']")).to_have_text("MissOne")
    expect(page.locator("[data-gain='1']")).to_have_text("2")


def test_fits_the_arbitres_frame(live_server: str, page: Page, watch: PageWatch) -> None:
    params = {**turn_after(*CAPTURE).params, "Wait": "0", "Name1": "A" * 80,
              "Name2": "B" * 80, "Legend": "L" * 300, "WebTest": "yes"}
    open_page(page, live_server, params)
    size: dict[str, Any] = page.evaluate("""() => ({
        width: document.documentElement.scrollWidth,
        height: document.documentElement.scrollHeight,
        board: document.querySelector('.pente').getBoundingClientRect().toJSON()})""")
    assert size["width"] <= 736 and size["height"] <= 660, size
    assert size["board"]["height"] >= 500, size  # the board takes most of the height
    # Every point is on screen, at least 22 px apart, and is what the pointer hits.
    boxes = {name: point(page, name).bounding_box() for name in ("AA", "SA", "AS", "SS", "JJ")}
    for name, box in boxes.items():
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        assert 0 <= x <= 736 and 0 <= y <= 660, name
        hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y)"
                            "?.getAttribute('data-cell')", [x, y])
        assert hit == name
    aa, sa = boxes["AA"], boxes["SA"]
    assert aa and sa and (sa["x"] - aa["x"]) / 18 >= 22


# --- a whole game in the tester -----------------------------------------------------------

# Player one: JJ, then JM (3 from the centre), MM taking two's KK-LL, then the J column.
HOT_SEAT = ["JJ", "KK", "JM", "LL", "MM", "AA", "JK", "BA", "JL", "CA", "JN"]


def test_hot_seat_game_in_the_tester(live_server: str, page: Page, watch: PageWatch) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server + "/")
    frame = page.frame_locator("#interface")
    page.locator("#set").select_option("Pente")
    page.locator("input[name='Wait']").fill("0")
    page.locator("#new-game").click()
    html = frame.locator("html")
    expect(html).to_have_attribute("data-set", "Pente")
    expect(html).to_have_attribute("data-ready", "true")
    # The first stone: only the centre.
    expect(frame.locator("[data-playable='true']")).to_have_count(1)
    expect(point(frame, "JJ")).to_have_attribute("data-playable", "true")

    for number, value in enumerate(HOT_SEAT, start=1):
        player = "1" if number % 2 else "2"
        expect(html).to_have_attribute("data-input", player)
        point(frame, value).click()
        expect(frame.locator("[data-count]")).to_have_text(str(number))
        expect(html).to_have_attribute("data-ready", "true")
        expect(point(frame, value)).to_have_attribute("data-last-move", player)
        src = page.locator("#interface").get_attribute("src") or ""
        assert f"Move{player}={value}" in src
        if number == 2:  # player one's second stone: the 5x5 square is forbidden
            expect(frame.locator("[data-state='9']")).to_have_count(23)
            expect(frame.locator("[data-state='9'][data-playable]")).to_have_count(0)
        if number == 3:
            expect(frame.locator("[data-state='9']")).to_have_count(0)
        if number == 5:  # MM took KK-LL
            for name in ("KK", "LL"):
                expect(point(frame, name)).to_have_attribute("data-state", "0")
            expect(frame.locator("[data-gain='1']")).to_have_text("1")
            expect(frame.locator("[data-gain='1'] .pair.taken")).to_have_count(1)
    expect(html).to_have_attribute("data-method", "end")
    column = ["JJ", "JK", "JL", "JM", "JN"]
    expect(frame.locator("[data-state='3']")).to_have_count(5)
    for name in column:
        expect(point(frame, name)).to_have_attribute("data-state", "3")
    expect(frame.locator("[data-playable='true']")).to_have_count(0)
    assert page.evaluate("() => window.tester.game().over") is True
    assert [r["value"] for r in page.evaluate("() => window.tester.returns")] == HOT_SEAT
