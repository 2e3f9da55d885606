"""Pente in real Chromium against the real server: what a person sees and plays.

Spec ``interface-protocol.md`` sections 2, 3, 4 (Pente) and 6. Points are
``[data-cell="AA"]``..``[data-cell="SS"]`` (one ``<circle>`` each); what a point shows is
read from its computed style: a stone is filled with ``url(#pente-stone-1)`` or
``url(#pente-stone-2)``, an empty point is transparent, a winning stone has a gold ring.
"""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Mapping
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser import helpers as h
from tournoyons_gui.interfaces.pente.board import EMPTY_TRAY, LETTERS, point_name, read_point
from tournoyons_gui.interfaces.pente.rules import PenteRules
from tournoyons_gui.interfaces.plugin import Turn

SET = "Pente"

# What a point looks like, from its computed style.
LOOK = """e => { const s = getComputedStyle(e);
  return {fill: s.fill, r: s.r, stroke: s.stroke, opacity: s.fillOpacity}; }"""
STONE = {1: 'url("#pente-stone-1")', 2: 'url("#pente-stone-2")'}
TRANSPARENT = "rgba(0, 0, 0, 0)"
GOLD = "rgb(232, 184, 32)"
FOCUS = "rgb(124, 58, 237)"


def look(page: Page, name: str) -> dict[str, str]:
    """Return the fill, radius, stroke and fill opacity point ``name`` is drawn with."""
    result: dict[str, str] = h.cell(page, name).evaluate(LOOK)
    return result


def expect_stone(page: Page, name: str, player: int | None) -> None:
    """Assert that point ``name`` visibly holds ``player``'s stone (``None``: empty)."""
    expected = STONE[player] if player else TRANSPARENT
    page.wait_for_function(
        "([name, fill]) => getComputedStyle(document.querySelector("
        "`[data-cell='${name}']`)).fill === fill",
        arg=[name, expected],
        timeout=3000,
    )


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
    return h.with_codes(EMPTY_TRAY, read_point, stones)


def turn_after(*moves: str) -> Turn:
    """Return the rules' turn after ``moves`` from a new game."""
    rules = PenteRules()
    turn = rules.new_game()
    for value in moves:
        turn = rules.play(turn.state, value)
    return turn


# A player-one capture: MM takes two's KK-LL; two to play (the Set's tester sample).
CAPTURE = ("JJ", "KK", "MP", "LL", "MM")


# --- drawing -------------------------------------------------------------------------------


def test_start_position_is_an_empty_board_with_coordinates(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_page(page, live_server, {"Name1": "MissOne", "Name2": "MrTwo", "Input": "One"}, SET)
    board = page.locator("[data-board][data-columns='19']")
    expect(board.locator("[data-cell]")).to_have_count(361)
    h.expect_counts(
        page, {"[data-cell][data-state='0']": 361, "[data-playable='true']": 361, "[data-error]": 0}
    )
    names = board.locator("[data-cell]").evaluate_all(
        "cells => cells.map(c => c.getAttribute('data-cell'))"
    )
    assert names == [point_name(i) for i in range(361)]  # row-major, for the arrow keys
    assert page.evaluate("() => window.tournoyons.tray()") == EMPTY_TRAY
    assert page.evaluate("() => Webmaster('tray')") == EMPTY_TRAY
    # Letters on the four edges, and nothing else written on the board.
    for group in ("cols", "rows"):
        labels = page.locator(f".coords .{group}")
        expect(labels).to_have_count(2)
        assert labels.first.text_content() == LETTERS
    expect(page.locator("[data-gain='1']")).to_have_text("0")
    h.expect_counts(page, {"[data-gain='1'] .pair": 5, "[data-gain='1'] .pair.taken": 0})
    expect_stone(page, "JJ", None)
    h.open_page(page, live_server, {"Tray": "Init"}, SET)
    h.expect_counts(page, {"[data-cell][data-state='0']": 361, "[data-playable]": 0})


def test_init_page_is_small(live_server: str) -> None:
    with urllib.request.urlopen(
        h.interface_url(live_server, {"Tray": "Init", "Input": "One"}, SET), timeout=5
    ) as answer:
        body = answer.read()
    assert len(body) < 30_000, len(body)
    assert body.count(b"data-cell=") == 361


def test_stones_winning_stones_and_forbidden_points_are_drawn(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tray = tray_with({"AA": "1", "BA": "2", "CA": "3", "DA": "4", "EA": "9", "SS": "2"})
    h.open_page(page, live_server, {"Tray": tray, "Method": "End"}, SET)
    assert h.states(page) == tray
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


@pytest.mark.slow
def test_captured_stones_are_shown_then_removed_after_wait(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    params = {**turn_after(*CAPTURE).params, "Wait": "25"}
    assert params["Tray"][read_point("KK") or 0] == "6"
    asked = time.monotonic()
    h.open_page(page, live_server, params, SET, ready=False)
    # First the move and the captured pair, still drawn as player two's stones.
    shown = snapshot(page, ["KK", "LL", "MM"])
    assert shown["ready"] == "false"
    for name in ("KK", "LL"):
        assert shown["points"][name] == {"state": "2", "fill": STONE[2], "stroke": "none"}
    assert shown["points"]["MM"]["fill"] == STONE[1]
    expect(h.cell(page, "MM")).to_have_attribute("data-last-move", "1")
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
        expect(h.cell(page, name)).to_have_attribute("data-state", "0")
        expect_stone(page, name, None)
    assert page.evaluate("() => window.tournoyons.tray()") == (params["Tray"].replace("6", "0"))
    # And the points are playable again.
    expect(h.cell(page, "KK")).to_have_attribute("data-playable", "true")


def test_without_wait_captured_stones_are_removed_at_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_page(
        page,
        live_server,
        {"Tray": tray_with({"AA": "5", "BA": "5", "CA": "2"}), "Move2": "CA", "Gain2": "1"},
        SET,
    )
    expect(h.cell(page, "AA")).to_have_attribute("data-state", "0")
    expect_stone(page, "AA", None)
    expect(page.locator("[data-gain='2'] .pair.taken")).to_have_count(1)


@pytest.mark.slow
def test_winning_row_waits_after_the_move_that_made_it(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    stones = {
        "FJ": "1",
        "GJ": "1",
        "HJ": "1",
        "IJ": "1",
        "AA": "2",
        "BB": "2",
        "CC": "2",
        "DD": "2",
    }
    turn = PenteRules().play({"tray": tray_with(stones), "count": 8, "gain1": 0, "gain2": 0}, "JJ")
    row = ["FJ", "GJ", "HJ", "IJ", "JJ"]
    h.open_page(page, live_server, {**turn.params, "Wait": "25"}, SET, ready=False)
    shown = snapshot(page, row)
    assert shown["ready"] == "false"
    for name in row:  # first ordinary stones
        assert shown["points"][name]["state"] == "1"
        assert shown["points"][name]["stroke"] != GOLD
    assert page.evaluate("() => window.tournoyons.sounds.includes('win')") is False
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=8000)
    for name in row:
        expect(h.cell(page, name)).to_have_attribute("data-state", "3")
    page.wait_for_timeout(950)  # the ring's glow
    assert look(page, "FJ")["stroke"] == GOLD
    assert look(page, "AA")["stroke"] == "none"
    expect(page.locator("[data-playable]")).to_have_count(0)
    # The winner's name box lights up.
    winner = page.locator(".player[data-player='1']")
    assert winner.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 240, 179)"


def test_five_captured_pairs_are_drawn(live_server: str, page: Page, watch: h.PageWatch) -> None:
    h.open_page(
        page,
        live_server,
        {"Tray": tray_with({"JJ": "3", "MJ": "3"}), "Gain1": "5", "Gain2": "3", "Method": "End"},
        SET,
    )
    expect(page.locator("[data-gain='1']")).to_have_text("5")
    expect(page.locator("[data-gain='1'] .pair.taken")).to_have_count(5)
    expect(page.locator("[data-gain='2']")).to_have_text("3")
    expect(page.locator("[data-gain='2'] .pair.taken")).to_have_count(3)
    # Drawn: the taken pairs are opaque stones, the others faint.
    opacities = page.locator("[data-gain='2'] .pair circle").evaluate_all(
        "cs => cs.map(c => getComputedStyle(c).fillOpacity)"
    )
    assert opacities == ["1"] * 6 + ["0.13"] * 4


def test_last_moves_are_marked(live_server: str, page: Page, watch: h.PageWatch) -> None:
    h.open_page(
        page, live_server, {"Tray": tray_with({"JJ": "1"}), "Move1": "JJ", "Move2": "KK"}, SET
    )
    expect(h.cell(page, "JJ")).to_have_attribute("data-last-move", "1")
    expect(h.cell(page, "KK")).to_have_attribute("data-last-move", "2")
    expect(h.cell(page, "KK")).to_have_attribute("data-state", "2")
    expect(page.locator("[data-last-move]")).to_have_count(2)
    marks = page.locator(".last-mark")
    expect(marks).to_have_count(2)
    for mark, name in zip(marks.all(), ("JJ", "KK"), strict=True):
        expect(mark).to_be_visible()
        box, stone = mark.bounding_box(), h.cell(page, name).bounding_box()
        assert box and stone
        assert abs(box["x"] + box["width"] / 2 - stone["x"] - stone["width"] / 2) < 1
        assert abs(box["y"] + box["height"] / 2 - stone["y"] - stone["height"] / 2) < 1


# --- input ----------------------------------------------------------------------------------


def test_forbidden_points_are_never_playable(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_returning(page, live_server, turn_after("JJ", "KK").params, SET)
    forbidden = page.locator("[data-cell][data-state='9']")
    expect(forbidden).to_have_count(23)
    h.expect_counts(
        page, {"[data-state='9'][data-playable]": 0, "[data-playable='true']": 361 - 25}
    )
    # Clicks and keys on them return nothing.
    h.cell(page, "LL").click(force=True)
    h.cell(page, "HJ").click(force=True)
    h.cell(page, "HJ").focus()
    h.press(page, "Enter", "Space")
    assert page.evaluate("() => window.tournoyons.play('LL')") is False
    assert h.return_loads(page) == []
    assert h.cell(page, "LL").evaluate("e => getComputedStyle(e).cursor") == "not-allowed"
    # A point three away from the centre is played.
    h.cell(page, "JM").click()
    expect_stone(page, "JM", 1)
    h.expect_single_return(page, live_server, tag, "JM")


def test_hover_shows_the_stone_to_play(live_server: str, page: Page, watch: h.PageWatch) -> None:
    h.open_page(page, live_server, {**turn_after("JJ").params}, SET)
    h.cell(page, "DD").hover()
    ghost = look(page, "DD")
    assert ghost["fill"] == STONE[2] and float(ghost["opacity"]) < 1
    expect(page.locator(".coords .lit")).to_have_count(4)  # D on each edge
    assert page.locator(".coords .lit").all_text_contents() == ["D", "D", "D", "D"]
    h.cell(page, "JJ").hover()  # a stone: nothing to play there
    assert look(page, "JJ")["fill"] == STONE[1]
    assert look(page, "DD")["fill"] == TRANSPARENT


def test_click_plays_once(live_server: str, page: Page, watch: h.PageWatch) -> None:
    tag = h.open_returning(page, live_server, {**turn_after(*CAPTURE).params, "Wait": "0"}, SET)
    expect(page.locator(".player[data-player='2']")).to_have_attribute("data-turn", "true")
    h.cell(page, "MM").click(force=True)  # a stone
    assert h.return_loads(page) == []
    h.cell(page, "KK").dblclick()  # where a captured stone was
    h.cell(page, "AA").click(force=True)
    expect(h.cell(page, "KK")).to_have_attribute("data-state", "2")
    expect(h.cell(page, "AA")).to_have_attribute("data-state", "0")
    expect_stone(page, "KK", 2)
    h.expect_single_return(page, live_server, tag, "KK")
    # The stone played is now the only last move.
    expect(page.locator("[data-last-move]")).to_have_count(1)
    expect(h.cell(page, "KK")).to_have_attribute("data-last-move", "2")
    expect(page.locator(".last-mark")).to_have_count(1)
    expect(page.locator(".last-mark")).to_have_attribute("data-mark", "2")
    tray = page.evaluate("() => window.tournoyons.tray()")
    assert tray[read_point("KK") or 0] == "2" and tray.count("2") == 1


def test_keyboard_arrows_and_enter_play_a_point(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_returning(page, live_server, turn_after("JJ").params, SET)
    h.press_to(page, h.cell(page, "AA"), "Tab")
    h.press_to(page, h.cell(page, "JJ"), *["ArrowRight"] * 9, *["ArrowDown"] * 9)
    # The focus is drawn, and its coordinates light up.
    assert look(page, "JJ")["stroke"] == FOCUS
    assert page.locator(".coords .lit").all_text_contents() == ["J", "J", "J", "J"]
    page.keyboard.press("Enter")  # a stone: nothing
    assert h.return_loads(page) == []
    h.press_to(page, h.cell(page, "II"), "ArrowUp", "ArrowLeft")
    focused = look(page, "II")
    assert focused["stroke"] == FOCUS and focused["fill"] == STONE[2]
    h.press(page, "Enter", "Enter")
    expect_stone(page, "II", 2)
    h.expect_single_return(page, live_server, tag, "II")
    # The edge stops the focus.
    h.press_to(page, h.cell(page, "IA"), *["ArrowUp"] * 12)


# --- bad input, Methods -----------------------------------------------------------------


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
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    for params, code in BAD_INPUT:
        h.open_with_error(page, live_server, params, SET, code)
        expect(page.locator("[data-board] [data-cell]")).to_have_count(361)


def test_bad_tray_takes_no_input(live_server: str, page: Page, watch: h.PageWatch) -> None:
    h.open_bad_tray(page, live_server, "12", SET, 361, ["JJ"])


def test_method_end_and_none(live_server: str, page: Page, watch: h.PageWatch) -> None:
    tray = tray_with({"JJ": "1", "KK": "2"})
    h.open_page(page, live_server, {"Tray": tray, "Method": "End", "Input": "One"}, SET)
    expect(page.locator("html")).to_have_attribute("data-method", "end")
    h.expect_counts(page, {"[data-cell]": 361, "[data-playable]": 0})
    h.open_method_none(page, live_server, {"Tray": tray, "Input": "One", "Gain1": "2"}, SET)
    expect(page.locator("[data-gain='1']")).to_have_text("2")


# --- a whole game in the tester -----------------------------------------------------------

# Player one: JJ, then JM (3 from the centre), MM taking two's KK-LL, then the J column.
HOT_SEAT = ["JJ", "KK", "JM", "LL", "MM", "AA", "JK", "BA", "JL", "CA", "JN"]


@pytest.mark.slow
def test_hot_seat_game_in_the_tester(live_server: str, page: Page, watch: h.PageWatch) -> None:
    frame = h.start_hot_seat(page, live_server, SET)
    html = frame.locator("html")
    # The first stone: only the centre.
    expect(frame.locator("[data-playable='true']")).to_have_count(1)
    expect(h.cell(frame, "JJ")).to_have_attribute("data-playable", "true")

    for number, value in enumerate(HOT_SEAT, start=1):
        player = "1" if number % 2 else "2"
        expect(html).to_have_attribute("data-input", player)
        h.cell(frame, value).click()
        expect(frame.locator("[data-count]")).to_have_text(str(number))
        expect(html).to_have_attribute("data-ready", "true")
        expect(h.cell(frame, value)).to_have_attribute("data-last-move", player)
        assert h.frame_query(page)[f"Move{player}"] == value
        if number == 2:  # player one's second stone: the 5x5 square is forbidden
            h.expect_counts(frame, {"[data-state='9']": 23, "[data-state='9'][data-playable]": 0})
        if number == 3:
            expect(frame.locator("[data-state='9']")).to_have_count(0)
        if number == 5:  # MM took KK-LL
            for name in ("KK", "LL"):
                expect(h.cell(frame, name)).to_have_attribute("data-state", "0")
            expect(frame.locator("[data-gain='1']")).to_have_text("1")
            expect(frame.locator("[data-gain='1'] .pair.taken")).to_have_count(1)
    expect(html).to_have_attribute("data-method", "end")
    column = ["JJ", "JK", "JL", "JM", "JN"]
    expect(frame.locator("[data-state='3']")).to_have_count(5)
    for name in column:
        expect(h.cell(frame, name)).to_have_attribute("data-state", "3")
    expect(frame.locator("[data-playable='true']")).to_have_count(0)
    assert page.evaluate("() => window.tester.game().over") is True
    assert h.values_returned(page) == HOT_SEAT
