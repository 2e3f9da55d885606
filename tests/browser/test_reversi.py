"""Reversi in real Chromium against the real server: what a person sees and plays.

Spec ``interface-protocol.md`` sections 2, 3, 4 (Reversi) and 6 (DOM contract). Cells are
``[data-cell="A1"]``..``[data-cell="H8"]``; their ``data-state`` is the Tray code shown
(``3`` black, ``4`` white; a turning disc shows its old colour until ``Wait`` has elapsed).
A disc is drawn by the cell's ``use.d``, visible when the cell holds one. Each player's
side of the board (``.rv-side[data-side]``) holds their pass: the mark of a Move ``XX``,
or the ``<button data-value="XX">`` that returns it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser import helpers as h
from tests.interfaces.drive import hot_seat_pages
from tournoyons_gui.interfaces.protocol import Player, read_context
from tournoyons_gui.interfaces.reversi.board import apply_move, build, cell_index, counts, settle
from tournoyons_gui.interfaces.reversi.rules import ReversiRules

SET = "Reversi"

# What a page shows, read at once: cell states, last-move marks, visible passes, gains.
SEEN = """() => ({
  states: Array.from(document.querySelectorAll("[data-board] [data-cell]"),
                     c => c.getAttribute("data-state")).join(""),
  last: Array.from(document.querySelectorAll("[data-last-move]"),
                   c => [c.getAttribute("data-cell"), c.getAttribute("data-last-move")]),
  passed: Array.from(document.querySelectorAll(".rv-side"))
    .filter(s => s.querySelector(".rv-passed").getBoundingClientRect().width > 0)
    .map(s => s.getAttribute("data-side")),
  gains: ["1", "2"].map(p => document.querySelector(`[data-gain="${p}"]`).textContent),
})"""
CURSOR = "rgb(255, 224, 77)"  # --cursor: the keyboard focus ring

INIT = "0" * 27 + "43" + "0" * 6 + "34" + "0" * 27
# The rules' page after F5 D6 C3 (black) D3 (white): D3 turns D4 (code 8), black to move,
# its legal cells hinted (code 1).
AFTER_D3 = "0000000000100000003410000018300000143300001400000010000000000000"
# A game in which black passes three times; white wipes black out on the 26th move.
PASSING_GAME = [
    "C4",
    "C3",
    "D3",
    "E3",
    "E2",
    "B4",
    "B5",
    "C5",
    "B3",
    "A3",
    "B2",
    "A4",
    "F6",
    "C2",
    "D2",
    "D1",
    "XX",
    "A1",
    "A2",
    "C1",
    "A5",
    "A6",
    "XX",
    "E1",
    "XX",
    "G7",
]


def rules_pages(moves: list[str]) -> list[dict[str, str]]:
    """Return the page parameters the rules send before the first move and after each."""
    return hot_seat_pages(ReversiRules(), moves)


# Black's page when it must pass (after white's D1), and white's after black's pass.
MUST_PASS, AFTER_PASS = rules_pages(PASSING_GAME[:17])[16:18]


def shown(tray: str) -> str:
    """Return the data-states of ``tray`` once every impact is shown (7 is 3, 8 is 4)."""
    return "".join({"7": "3", "8": "4"}.get(code, code) for code in tray)


def expect_disc(page: Page, name: str, visible: bool) -> None:
    """Assert that cell ``name`` draws a disc (or draws none)."""
    expect(h.cell(page, name).locator("use.d")).to_have_css(
        "visibility", "visible" if visible else "hidden"
    )


def expect_gains(page: Page, black: int, white: int) -> None:
    """Assert the disc counts shown for each player."""
    expect(page.locator("[data-gain='1']")).to_have_text(str(black))
    expect(page.locator("[data-gain='2']")).to_have_text(str(white))


# --- drawing ------------------------------------------------------------------------------


def test_start_position_with_coordinates_counts_and_legal_hints(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_named(page, live_server, {"Tray": "Init", "Input": "One"}, SET)
    expect(page.locator("html")).to_have_attribute("data-set", "Reversi")
    expect(page.locator("[data-board] [data-cell]")).to_have_count(64)
    assert h.states(page) == INIT
    for name, disc in (("D4", True), ("E5", True), ("D5", True), ("E4", True), ("A1", False)):
        expect_disc(page, name, disc)
    expect_gains(page, 2, 2)
    labels = page.locator(".rv-coords text").all_text_contents()
    assert sorted(labels) == sorted([*"ABCDEFGH", *"12345678"] * 2)
    expect(page.locator(".rv-coords text").first).to_be_visible()
    # Input: the four legal cells only, each hinted by a small disc of black's colour.
    assert h.playable_values(page) == ["D3", "C4", "F5", "E6"]
    expect(page.locator("[data-player='1']")).to_have_attribute("data-turn", "true")
    for name in ("D3", "C4", "F5", "E6"):
        expect_disc(page, name, True)
        expect(h.cell(page, name).locator("use.d")).to_have_css("opacity", "0.5")
    expect_disc(page, "C3", False)
    expect(page.locator("[data-error]")).to_have_count(0)
    assert page.evaluate("() => window.tournoyons.tray()") == INIT
    assert page.evaluate("() => Webmaster('tray')") == INIT


def test_without_input_no_cell_is_hinted_or_playable(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_named(page, live_server, {"Tray": AFTER_D3}, SET)
    h.expect_counts(page, {"[data-playable]": 0, "[data-turn]": 0})
    expect_disc(page, "C4", False)  # a 1 in the Tray, but nobody is asked
    h.cell(page, "C4").click(force=True)
    assert h.return_loads(page) == []


# What the page shows, in the page's own clock, so that a loaded test machine cannot make
# a look come too late: the board once the runtime has started (every impact held back,
# the Wait running), every change of the counts shown, and the moment the page becomes
# ready.
FIRST_LOOK = """
(() => {
  window.__counts = [];
  const look = () => ({
    at: performance.now(),
    ready: document.documentElement.getAttribute("data-ready"),
    states: Array.from(document.querySelectorAll("[data-board] [data-cell]"),
                       c => c.getAttribute("data-state")).join(""),
    last: Array.from(document.querySelectorAll("[data-last-move]"),
                     c => [c.getAttribute("data-cell"), c.getAttribute("data-last-move")]),
    gains: ["1", "2"].map(p => document.querySelector(`[data-gain="${p}"]`)?.textContent),
  });
  new MutationObserver(records => records.forEach(record => {
    if (!document.querySelector("[data-board]")) return;  // a frame inside the page
    const name = record.attributeName;
    if (name === "data-ready" && record.target.getAttribute("data-ready") === "true"
        && window.__readyAt === undefined) window.__readyAt = performance.now();
    const node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
    if (!name && node && node.closest("[data-gain]")) window.__counts.push(look());
  })).observe(document, {subtree: true, attributes: true, childList: true,
                         characterData: true, attributeFilter: ["data-ready"]});
  // Just after the runtime's start (DOMContentLoaded) every impact is held and Wait runs.
  document.addEventListener("DOMContentLoaded", () => setTimeout(() => {
    if (document.querySelector("[data-board]") && !window.__held) window.__held = look();
  }, 0));
})();
"""


@pytest.mark.parametrize(
    ("params", "turning", "before", "after", "gains"),
    [
        # White's D3 turns black's D4: D4 is black (3) first, white (4) after Wait.
        ({"Tray": AFTER_D3, "Move2": "D3"}, "D4", "3", "4", ((5, 3), (4, 4))),
        # Black's D3 from the start turns white's D4: white first, then black.
        ({"Tray": rules_pages(["D3"])[1]["Tray"], "Move1": "D3"}, "D4", "4", "3", ((3, 2), (4, 1))),
    ],
)
@pytest.mark.slow
def test_wait_shows_the_disc_played_then_turns_the_captured(
    live_server: str,
    page: Page,
    watch: h.PageWatch,
    params: dict[str, str],
    turning: str,
    before: str,
    after: str,
    gains: tuple[tuple[int, int], tuple[int, int]],
) -> None:
    mover = "1" if "Move1" in params else "2"
    played = params[f"Move{mover}"]
    index = cell_index(turning) or 0
    page.add_init_script(FIRST_LOOK)
    h.open_named(page, live_server, {**params, "Wait": "20"}, SET)
    held = page.evaluate("() => window.__held")
    # First the disc played, marked as the last move; the captured disc not yet turned.
    assert held["ready"] == "false"
    assert held["last"] == [[played, mover]]
    assert held["states"][cell_index(played) or 0] == ("3" if mover == "1" else "4")
    assert held["states"][index] == before
    expected = shown(params["Tray"])
    assert held["states"] == expected[:index] + before + expected[index + 1 :]
    # The counts follow the discs shown: first with the captured disc not yet turned.
    shown_counts = page.evaluate("() => window.__counts")
    assert [str(n) for n in gains[0]] in [
        c["gains"] for c in shown_counts if c["ready"] == "false"
    ], shown_counts
    # Then, 2 seconds after, the captured disc turns.
    # The runtime starts the Wait during DOMContentLoaded: ready comes 2 s after, at least.
    waited = page.evaluate(
        "() => window.__readyAt - performance.getEntriesByType("
        "'navigation')[0].domContentLoadedEventStart"
    )
    assert waited >= 1990, waited
    expect(h.cell(page, turning)).to_have_attribute("data-state", after)
    expect_disc(page, turning, True)
    expect_gains(page, *gains[1])
    assert h.states(page) == expected


def test_without_wait_the_captured_disc_turns_at_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_named(page, live_server, {"Tray": AFTER_D3, "Move2": "D3"}, SET)
    expect(h.cell(page, "D4")).to_have_attribute("data-state", "4")
    expect(h.cell(page, "D4")).to_have_attribute("data-before", "3")
    assert h.states(page) == shown(AFTER_D3)
    expect_gains(page, 4, 4)


# --- playing ------------------------------------------------------------------------------


def test_a_click_lays_the_disc_turns_the_captured_and_returns_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_named_returning(
        page, live_server, {"Tray": AFTER_D3, "Move2": "D3", "Input": "One"}, SET
    )
    expected = build(read_context({"tray": AFTER_D3, "input": "One"})).playable
    assert h.playable_values(page) == list(expected) == ["C2", "E3", "C4", "C5", "C6", "C7"]
    for taken in ("D4", "A1", "F6"):  # a disc, an empty cell, a cell that turns nothing
        h.cell(page, taken).click(force=True)
    assert h.return_loads(page) == []

    h.cell(page, "C5").dblclick()
    board, turned = apply_move(settle(AFTER_D3), cell_index("C5") or 0, Player.ONE)
    assert [n for n in ("D4", "D5") if cell_index(n) in turned] == ["D5"]
    expect(h.cell(page, "C5")).to_have_attribute("data-state", "3")
    expect(h.cell(page, "D5")).to_have_attribute("data-state", "3")
    expect(h.cell(page, "D5")).to_have_attribute("data-before", "4")
    expect(h.cell(page, "C5")).to_have_attribute("data-last-move", "1")
    expect(page.locator("[data-last-move]")).to_have_count(1)
    assert h.states(page) == board
    expect_gains(page, *counts(board))
    h.expect_single_return(page, live_server, tag, "C5")
    assert page.evaluate("() => window.tournoyons.tray()") == board


def test_keyboard_arrows_and_enter_play_a_legal_cell(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_named_returning(page, live_server, {"Tray": "Init", "Input": "One"}, SET)
    h.press_to(page, h.cell(page, "D3"), "Tab")  # the first legal cell
    expect(h.cell(page, "D3").locator("rect")).to_have_css("stroke", CURSOR)
    h.press_to(page, h.cell(page, "C3"), "ArrowLeft")
    expect(h.cell(page, "C3").locator("rect")).to_have_css("stroke", CURSOR)
    expect(h.cell(page, "D3").locator("rect")).not_to_have_css("stroke", CURSOR)
    h.press(page, "Enter", "Space")  # not legal: nothing happens
    assert h.return_loads(page) == []
    h.press_to(page, h.cell(page, "C1"), *["ArrowUp"] * 3)  # the top edge stops the focus
    h.press_to(page, h.cell(page, "C4"), *["ArrowDown"] * 3)
    page.keyboard.press("Enter")
    expect(h.cell(page, "C4")).to_have_attribute("data-state", "3")
    expect(h.cell(page, "D4")).to_have_attribute("data-state", "3")
    h.expect_single_return(page, live_server, tag, "C4")
    h.press(page, "ArrowRight", "Enter")
    assert len(h.return_loads(page)) == 1


def test_the_cell_under_the_pointer_is_shown(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_named(page, live_server, {"Tray": "Init", "Input": "Two"}, SET)
    rect = h.cell(page, "F4").locator("rect")
    idle = rect.evaluate("e => getComputedStyle(e).fill")
    h.cell(page, "F4").hover()
    expect(rect).not_to_have_css("fill", idle)
    expect(h.cell(page, "F4").locator("use.d")).not_to_have_css("opacity", "0.5")


def test_the_pass_control_is_the_only_input_and_returns_xx_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_named_returning(page, live_server, {**MUST_PASS, "Legend": "Je passe"}, SET)
    button = page.locator(".rv-side[data-side='1'] button[data-value='XX']")
    expect(button).to_be_visible()
    expect(button).to_be_enabled()
    expect(button).to_have_text("Je passe")
    assert h.playable_values(page) == ["XX"]
    h.expect_counts(page, {"[data-cell][data-playable]": 0, "button[data-value]": 1})
    h.cell(page, "H8").click(force=True)
    assert h.return_loads(page) == []

    button.dblclick()
    h.expect_single_return(page, live_server, tag, "XX")
    expect(button).to_be_hidden()
    expect(page.locator(".rv-side[data-side='1'] .rv-passed")).to_be_visible()
    assert h.states(page) == shown(MUST_PASS["Tray"])


def test_the_pass_without_legend_is_a_symbol_played_by_keyboard(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_named_returning(page, live_server, MUST_PASS, SET)
    button = page.locator("button[data-value='XX']")
    expect(button).to_have_attribute("aria-label", "XX")
    expect(button).to_have_text("")
    expect(button.locator("svg")).to_be_visible()
    h.press_to(page, button, "Tab")
    page.keyboard.press("Enter")
    h.expect_single_return(page, live_server, tag, "XX")


def test_a_move_xx_shows_that_players_pass(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_named(page, live_server, {**AFTER_PASS, "Legend": "Les noirs passent"}, SET)
    expect(page.locator(".rv-side[data-side='1']")).to_have_attribute("data-passed", "true")
    expect(page.locator(".rv-side[data-side='1'] .rv-passed")).to_be_visible()
    expect(page.locator(".rv-side[data-side='2'] .rv-passed")).to_be_hidden()
    expect(page.locator("[data-last-move]")).to_have_count(0)
    expect(page.locator("[data-legend]")).to_have_text("Les noirs passent")
    # White, asked next, has its legal cells from the hints and no pass control.
    assert h.playable_values(page) == [
        n
        for n, c in zip(
            (f"{col}{row}" for row in range(1, 9) for col in "ABCDEFGH"),
            AFTER_PASS["Tray"],
            strict=True,
        )
        if c == "2"
    ]
    expect(page.locator("button[data-value='XX']")).to_have_count(0)


# --- errors and Methods -------------------------------------------------------------------


@pytest.mark.parametrize("tray", ["0" * 63, "5" + "0" * 63, "abc"])
def test_bad_tray_shows_an_error_and_takes_no_input(
    live_server: str, page: Page, watch: h.PageWatch, tray: str
) -> None:
    h.open_bad_tray(page, live_server, tray, SET, 64, ["D3"])


def test_bad_move_is_an_error_and_not_marked(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_with_error(page, live_server, {"Tray": "Init", "Move1": "D4"}, SET, "move1")
    assert h.states(page) == INIT  # the move is not drawn
    expect(page.locator("[data-last-move]")).to_have_count(0)


def test_end_shows_the_winner_and_none_shows_no_board(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    end = rules_pages(PASSING_GAME)[-1]
    assert end["Method"] == "End"
    h.open_named(page, live_server, {**end, "Input": "One"}, SET)
    expect(page.locator("html")).to_have_attribute("data-method", "end")
    expect(page.locator(".rv")).to_have_attribute("data-winner", "2")
    expect(page.locator("[data-player='2']")).to_have_css("background-color", "rgb(255, 240, 179)")
    expect(page.locator("[data-player='1']")).not_to_have_css(
        "background-color", "rgb(255, 240, 179)"
    )
    expect_gains(page, 0, 27)
    expect(page.locator("[data-playable]")).to_have_count(0)
    assert page.evaluate("() => window.tournoyons.play('A1')") is False

    h.open_named(page, live_server, {"Tray": "Init", "Method": "None", "Legend": "Soon"}, SET)
    expect(page.locator("[data-board]")).to_have_count(0)
    expect(page.locator("[data-legend]")).to_have_text("Soon")
    expect(page.locator("[data-gain='1']")).to_have_text("")


def test_webtest_hands_input_to_the_player_to_move(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_named_returning(page, live_server, {"Tray": AFTER_D3, "WebTest": "yes"}, SET)
    expect(page.locator("[data-playable]")).to_have_count(0)
    page.locator("[data-webtest='play']").click()
    assert h.playable_values(page) == ["C2", "E3", "C4", "C5", "C6", "C7"]
    h.cell(page, "E3").click()
    h.expect_single_return(page, live_server, tag, "E3")


# --- a whole game through the tester ------------------------------------------------------


@pytest.mark.slow
def test_hot_seat_game_with_passes_through_the_tester(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    frame = h.start_hot_seat(page, live_server, SET)
    html = frame.locator("html")
    pages = rules_pages(PASSING_GAME)
    log = page.locator("#log li")

    for number, move in enumerate(PASSING_GAME, start=1):
        player = "1" if pages[number - 1]["Input"] == "One" else "2"
        if move == "XX":
            control = frame.locator(f".rv-side[data-side='{player}'] button[data-value='XX']")
        else:
            control = frame.locator(f"[data-cell='{move}']")
        expect(control).to_have_attribute("data-playable", "true")
        assert html.get_attribute("data-input") == player
        if move == "XX":
            assert frame.locator("[data-cell][data-playable]").count() == 0
        control.click()
        # The next page, drawn from the context the rules produced.
        expect(frame.locator("[data-count]")).to_have_text(str(number))
        expect(html).to_have_attribute("data-ready", "true")
        params = pages[number]
        seen = html.evaluate(SEEN)
        black, white = counts(settle(params["Tray"]))
        assert seen == {
            "states": shown(params["Tray"]),
            "last": [] if move == "XX" else [[move, player]],
            "passed": [player] if move == "XX" else [],
            "gains": [str(black), str(white)],
        }, number
        query = h.frame_query(page)
        assert query["Tray"] == params["Tray"] and query[f"Move{player}"] == move
        expect(log).to_have_count(number)

    expect(html).to_have_attribute("data-method", "end")
    expect(frame.locator(".rv")).to_have_attribute("data-winner", "2")
    expect(frame.locator("[data-playable='true']")).to_have_count(0)
    assert page.evaluate("() => window.tester.game().over") is True
    assert h.values_returned(page) == PASSING_GAME
