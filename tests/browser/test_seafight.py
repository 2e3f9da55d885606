"""Seafight in real Chromium against the real server: every Method, firing, the landing of a
shot, preparing a fleet (mouse, touch, keyboard), bad input, and a whole hot-seat game in the
tester, preparation included (manual chapter V, "Bataille navale"; spec sections 2-4 and 6).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, FrameLocator, Locator, Page, expect

from tests.browser import helpers as h
from tests.seafight_fleets import FLEET, OTHER, OTHER_CELLS
from tournoyons_gui.interfaces.seafight.fleet import (
    EMPTY_SHOTS,
    check_classic,
    read_cell,
    read_fleet,
)

SET = "Seafight"

# Player one: A0-E0, H2-H5, C5-E5, A7-A9, F8-G8. Player two: B1-B5, E3-H3, J5-J7, D8-F8,
# G0-H0.
FLEET1, FLEET2 = FLEET, OTHER


# Records what the page shows once the runtime has started (it marks each Wait-delayed
# element data-after; the observer runs right after, before any timer), and when it says it
# is ready (every impact shown): a loaded machine cannot make the first look come late.
RECORD_LANDING = """
(() => {
  if (window !== window.top) return;
  // Just after the runtime's start (DOMContentLoaded): every impact is held, Wait runs.
  document.addEventListener('DOMContentLoaded', () => setTimeout(() => {
    const q = s => document.querySelector(s);
    const h0 = q("[data-board='2'] [data-cell='H0']"), g0 = q("[data-board='2'] [data-cell='G0']");
    const ship = q("[data-board='2'] [data-ship]");
    window.__first = {
      ready: document.documentElement.getAttribute('data-ready'),
      h0: h0.getAttribute('data-state'), g0: g0.getAttribute('data-state'),
      ship: ship.getAttribute('data-state'), shipOpacity: getComputedStyle(ship).opacity,
      shell: getComputedStyle(h0.querySelector('.mk-shell')).opacity !== '0',
      playable: document.querySelectorAll('[data-playable]').length,
      at: performance.now(),
    };
  }, 0));
  new MutationObserver(() => {
    if (!window.__readyAt && document.documentElement?.getAttribute('data-ready') === 'true') {
      window.__readyAt = performance.now();
    }
  }).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-ready']});
})();
"""


def shots(**codes: str) -> str:
    """Return a board's 100 shot codes with ``codes`` (cell name -> code) fired."""
    return h.with_codes(EMPTY_SHOTS, read_cell, codes)


def tray(one: str = EMPTY_SHOTS, two: str = EMPTY_SHOTS) -> str:
    return f"{one}***{two}"


def open_seafight(page: Page, base: str, **params: str) -> None:
    """Open the Seafight page (``/seafight/``) for ``params`` as :func:`helpers.open_url`
    does: once ready, every impact is shown."""
    h.open_url(page, f"{base}/seafight/?{h.query(params)}")


def open_returning(page: Page, base: str, **params: str) -> str:
    """Open the Seafight page for ``params`` as :func:`open_seafight` does, returning to the
    sink under a new tag; return the tag."""
    tag = h.new_tag()
    open_seafight(page, base, **params, URLReturn=h.sink(base, tag))
    return tag


def expect_single_return(page: Page, base: str, tag: str, value: str) -> None:
    """Assert the page returned ``value``, once, and asks player one nothing more."""
    h.expect_single_return(page, base, tag, value)
    expect(page.locator("html")).not_to_have_attribute("data-input", "1")


def board(scope: Page | FrameLocator, player: int) -> Locator:
    return scope.locator(f"[data-board='{player}']")


def ships(scope: Page | FrameLocator, player: int) -> list[str]:
    return [
        code or ""
        for code in board(scope, player)
        .locator("[data-ship]")
        .evaluate_all("els => els.map(e => e.getAttribute('data-ship'))")
    ]


def drag(page: Page, source: Locator, target: Locator, grab: float = 16) -> None:
    """Drag ``source`` (held ``grab`` units from its head) with the mouse onto ``target``."""
    box, goal = source.bounding_box(), target.bounding_box()
    assert box and goal
    page.mouse.move(box["x"] + grab, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=6)
    page.mouse.up()


def pship(scope: Page | FrameLocator, index: int) -> Locator:
    return scope.locator(f".pship[data-index='{index}']")


# --- Methods ----------------------------------------------------------------------------

SUNK_G0 = tray(shots(H3="2", D4="1"), shots(G0="3", H0="3", E3="2", A9="1"))


@pytest.mark.parametrize(
    ("method", "extra", "shown1", "shown2"),
    [
        ("Inverse", {"Input": "One"}, 5, ["H2G03"]),
        ("Standard", {"Input": "Two"}, [], 5),
        ("Double", {}, 5, 5),
        ("End", {}, 5, 5),
    ],
)
def test_each_method_shows_the_fleets_it_may(
    live_server: str,
    page: Page,
    watch: h.PageWatch,
    method: str,
    extra: dict[str, str],
    shown1: int | list[str],
    shown2: int | list[str],
) -> None:
    open_seafight(
        page,
        live_server,
        Method=method,
        Tray=SUNK_G0,
        Gain1=FLEET1,
        Gain2=FLEET2,
        Name1="Ann",
        Name2="Bob",
        **extra,
    )
    expect(page.locator("html")).to_have_attribute("data-method", method.lower())
    expect(page.locator("[data-board]")).to_have_count(2)
    for player, shown in ((1, shown1), (2, shown2)):
        codes = ships(page, player)
        if isinstance(shown, int):
            assert len(codes) == shown, (player, codes)
        else:
            assert codes == shown, (player, codes)
        # Every cell of both boards, named as the spec says, in row-major order.
        assert board(page, player).locator("[data-cell]").evaluate_all(
            "els => els.map(e => e.getAttribute('data-cell')).join('')"
        ) == "".join(f"{c}{r}" for r in range(10) for c in "ABCDEFGHIJ")
    expect(board(page, 2).locator("[data-cell='G0']")).to_have_attribute("data-state", "3")
    expect(board(page, 1).locator("[data-cell='D4']")).to_have_attribute("data-state", "1")
    expect(page.locator("[data-error]")).to_have_count(0)
    assert page.evaluate("() => window.tournoyons.tray()") == SUNK_G0
    assert page.evaluate("() => Webmaster('tray')") == SUNK_G0


def test_method_none_draws_no_board(live_server: str, page: Page, watch: h.PageWatch) -> None:
    open_seafight(
        page, live_server, Method="None", Name1="Ann", Name2="Bob", Legend="Bient%F4t", Input="One"
    )
    expect(page.locator("[data-board]")).to_have_count(0)
    expect(page.locator("[data-name='1']")).to_have_text("Ann")
    expect(page.locator("[data-legend]")).to_be_visible()
    assert page.evaluate("() => tournoyons.play('A0')") is False


def test_end_reveals_every_fleet_and_the_winner(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    sunk = shots(**dict.fromkeys(OTHER_CELLS, "3"))
    open_seafight(
        page,
        live_server,
        Method="End",
        Tray=tray(shots(A0="2"), sunk),
        Gain1=FLEET1,
        Gain2=FLEET2.replace("1", "3"),
        Move2="H03",
        Input="One",
    )
    expect(page.locator("svg.sf")).to_have_attribute("data-winner", "1")
    expect(board(page, 2)).to_have_attribute("data-lost", "true")
    expect(board(page, 2).locator("[data-ship][data-state='3']")).to_have_count(5)
    expect(board(page, 1).locator("[data-ship]")).to_have_count(5)
    expect(page.locator("[data-playable]")).to_have_count(0)
    expect(page.locator(".player[data-player='1']")).to_have_css(
        "background-color", "rgb(255, 240, 179)"
    )


# --- firing -----------------------------------------------------------------------------


def test_firing_returns_the_cell_once_from_the_opponent_board(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = open_returning(
        page, live_server, Method="Inverse", Tray=SUNK_G0, Gain1=FLEET1, Gain2="H2G03", Input="One"
    )
    expect(page.locator("html")).to_have_attribute("data-input", "1")
    # Only the cells of player two's board not fired at yet: 100 - 4.
    expect(page.locator("[data-playable='true']")).to_have_count(96)
    expect(board(page, 1).locator("[data-playable]")).to_have_count(0)
    expect(board(page, 2).locator("[data-cell='E3']")).not_to_have_attribute(
        "data-playable", "true"
    )
    # A click on one's own board, or on a cell fired at, returns nothing.
    board(page, 1).locator("[data-cell='C5']").click(force=True)
    board(page, 2).locator("[data-cell='E3']").click(force=True)
    assert page.evaluate("() => tournoyons.play('E3')") is False
    target = board(page, 2).locator("[data-cell='C5']")
    target.dblclick()
    expect(target).to_have_attribute("data-aimed", "true")
    expect_single_return(page, live_server, tag, "C5")
    expect(page.locator("[data-playable]")).to_have_count(0)
    assert page.evaluate("() => tournoyons.play('D5')") is False
    # The board value is unchanged: the result comes with the next page.
    assert page.evaluate("() => tournoyons.tray()") == SUNK_G0


def test_player_two_fires_at_board_one(live_server: str, page: Page, watch: h.PageWatch) -> None:
    tag = open_returning(
        page, live_server, Method="Standard", Tray=SUNK_G0, Gain2=FLEET2, Input="Two"
    )
    expect(page.locator("html")).to_have_attribute("data-input", "2")
    expect(board(page, 1).locator("[data-playable='true']")).to_have_count(98)
    expect(board(page, 2).locator("[data-playable]")).to_have_count(0)
    board(page, 1).locator("[data-cell='J9']").click()
    expect_single_return(page, live_server, tag, "J9")


def test_keyboard_fires(live_server: str, page: Page, watch: h.PageWatch) -> None:
    tag = open_returning(
        page, live_server, Method="Inverse", Tray=SUNK_G0, Gain1=FLEET1, Input="One"
    )
    page.keyboard.press("Tab")
    focused = (
        "() => [document.activeElement.closest('[data-board]')?.getAttribute('data-board'),"
        " document.activeElement.getAttribute('data-cell')]"
    )
    assert page.evaluate(focused) == ["2", "A0"]
    h.press(page, "ArrowRight", "ArrowRight", "ArrowDown", "ArrowDown", "ArrowDown")
    assert page.evaluate(focused) == ["2", "C3"]
    page.keyboard.press("Enter")
    expect_single_return(page, live_server, tag, "C3")


def test_a_shot_lands_wait_tenths_after_it_is_shown(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    # Player one fires the last shot at G0-H0: the shell, then the sinking, 1.2 s later.
    page.add_init_script(RECORD_LANDING)
    page.set_default_timeout(5000)
    params = {
        "Method": "Inverse",
        "Tray": tray(two=shots(G0="2")),
        "Gain1": FLEET1,
        "Gain2": "H2G03",
        "Move2": "H03",
        "Wait": "12",
        "Input": "Two",
    }
    page.goto(f"{live_server}/seafight/?{urlencode(params)}")
    html = page.locator("html")
    h0, g0 = (board(page, 2).locator(f"[data-cell='{c}']") for c in ("H0", "G0"))
    sunk_ship = board(page, 2).locator("[data-ship='H2G03']")
    # Shown first: the shell falling on H0, G0 still hit, the ship still hidden, no input.
    first = page.evaluate("() => window.__first")
    assert first["at"] < page.evaluate("() => window.__readyAt || 1e9")
    assert {
        k: first[k] for k in ("ready", "h0", "g0", "ship", "shipOpacity", "shell", "playable")
    } == {
        "ready": "false",
        "h0": "0",
        "g0": "2",
        "ship": "hidden",
        "shipOpacity": "0",
        "shell": True,
        "playable": 0,
    }
    expect(h0).to_have_attribute("data-last-move", "2")
    # Then the impact: every cell of the ship sunk, the ship shown, then input.
    expect(html).to_have_attribute("data-ready", "true")
    # The runtime starts the Wait during DOMContentLoaded: ready comes 1.2 s after, at least.
    assert (
        page.evaluate(
            "() => window.__readyAt - performance.getEntriesByType("
            "'navigation')[0].domContentLoadedEventStart"
        )
        >= 1190
    )
    expect(h0).to_have_attribute("data-state", "3")
    expect(g0).to_have_attribute("data-state", "3")
    expect(sunk_ship).to_have_attribute("data-state", "3")
    expect(board(page, 2).locator(".mark[data-size='2']")).to_have_attribute("data-state", "3")
    expect(page.locator("html")).to_have_attribute("data-input", "2")
    assert page.evaluate("() => tournoyons.tray()") == tray(two=shots(G0="3", H0="3"))


def test_a_shot_in_the_water_splashes(live_server: str, page: Page, watch: h.PageWatch) -> None:
    open_seafight(page, live_server, Method="Inverse", Gain1=FLEET1, Move1="J91", Wait="0")
    cell = board(page, 1).locator("[data-cell='J9']")
    expect(cell).to_have_attribute("data-state", "1")
    expect(cell).to_have_attribute("data-last-move", "1")
    expect(cell.locator(".mk-1")).to_have_css("opacity", "1")
    expect(cell.locator(".mk-2")).to_have_count(0)


# --- Prepare ----------------------------------------------------------------------------


def test_prepare_random_then_validate_returns_a_legal_fleet_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = open_returning(page, live_server, Method="Prepare", Input="Two", Legend="Valider")
    svg = page.locator("svg.sf[data-prepare='2']")
    expect(board(page, 2)).to_be_visible()
    expect(board(page, 1)).to_have_count(0)
    validate = page.locator("[data-action='validate']")
    expect(validate).to_have_text("Valider")
    expect(validate).to_be_disabled()  # the fleet is in the dock
    expect(page.locator(".pship[data-placed='false']")).to_have_count(5)
    page.locator("[data-action='random']").click()
    expect(svg).to_have_attribute("data-legal", "true")
    composed = svg.get_attribute("data-composed") or ""
    check_classic(read_fleet(composed))
    expect(validate).to_be_enabled()
    validate.dblclick()
    expect_single_return(page, live_server, tag, composed)
    expect(svg).to_have_attribute("data-validated", "true")
    expect(validate).to_be_disabled()
    assert page.evaluate("v => tournoyons.play(v)", composed) is False


def test_random_placements_are_always_legal(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    open_seafight(page, live_server, Method="Prepare", Input="One")
    random = page.locator("[data-action='random']")
    seen = set()
    for _ in range(15):
        random.click()
        composed = page.locator("svg.sf").get_attribute("data-composed") or ""
        check_classic(read_fleet(composed))
        expect(page.locator(".pship[data-overlap='true']")).to_have_count(0)
        seen.add(composed)
    assert len(seen) > 12


def test_an_illegal_fleet_cannot_be_validated(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = open_returning(
        page, live_server, Method="Prepare", Input="One", Gain1="H5A01H4A11H3A21H3A31H2A41"
    )
    svg = page.locator("svg.sf")
    validate = page.locator("[data-action='validate']")
    expect(svg).to_have_attribute("data-legal", "true")
    # The 4-ship onto the 5-ship: they overlap, both turn red, validation is refused.
    drag(page, pship(page, 1), board(page, 1).locator("[data-cell='C0']"))
    expect(pship(page, 1)).to_have_attribute("data-ship", "H4C01")
    expect(svg).to_have_attribute("data-legal", "false")
    expect(page.locator(".pship[data-overlap='true']")).to_have_count(2)
    expect(validate).to_be_disabled()
    validate.click(force=True)
    overlapping = "H5A01H4C01H3A21H3A31H2A41"
    assert page.evaluate("v => tournoyons.play(v)", overlapping) is False
    for bad in ("H5A01H4A11H3A21H3A31", "H5G01H4A11H3A21H3A31H2A41", "C5", ""):
        assert page.evaluate("v => tournoyons.play(v)", bad) is False, bad
    assert h.sink_values(live_server, tag) == []
    # Moved apart again, it may be validated.
    drag(page, pship(page, 1), board(page, 1).locator("[data-cell='A6']"))
    expect(svg).to_have_attribute("data-legal", "true")
    validate.click()
    expect_single_return(page, live_server, tag, "H5A01H4A61H3A21H3A31H2A41")


def test_prepare_with_the_mouse_drag_click_and_rotate(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    open_seafight(page, live_server, Method="Prepare", Input="One")
    five, four = pship(page, 0), pship(page, 1)
    # Dragged by its head from the dock onto B2.
    drag(page, five, board(page, 1).locator("[data-cell='B2']"))
    expect(five).to_have_attribute("data-ship", "H5B21")
    # Dragged off the board: back to the dock.
    drag(page, five, page.locator(".dock-panel"))
    expect(five).to_have_attribute("data-placed", "false")
    expect(five).to_have_attribute("data-ship", "")
    # Selected by a click, placed by a click on a cell.
    four.click()
    expect(four).to_have_attribute("data-selected", "true")
    board(page, 1).locator("[data-cell='C3']").click()
    expect(four).to_have_attribute("data-ship", "H4C31")
    # Rotated by the control, by the R key, by a click on the selected ship.
    page.locator("[data-action='rotate']").click()
    expect(four).to_have_attribute("data-ship", "V4C31")
    expect(page.locator("[data-action='rotate']")).to_have_attribute("data-dir", "V")
    page.keyboard.press("r")
    expect(four).to_have_attribute("data-ship", "H4C31")
    four.click()
    expect(four).to_have_attribute("data-ship", "V4C31")
    # Near the edge a turned ship stays on the board.
    drag(page, four, board(page, 1).locator("[data-cell='C9']"))
    expect(four).to_have_attribute("data-ship", "V4C61")
    # The next ship placed by a click takes the orientation in force.
    board(page, 1).locator("[data-cell='J0']").click()  # moves the selected 4-ship
    expect(four).to_have_attribute("data-ship", "V4J01")
    pship(page, 2).click()
    board(page, 1).locator("[data-cell='A0']").click()
    expect(pship(page, 2)).to_have_attribute("data-ship", "V3A01")


def test_prepare_by_keyboard_only(live_server: str, page: Page, watch: h.PageWatch) -> None:
    tag = open_returning(page, live_server, Method="Prepare", Input="One")
    focused = "() => document.activeElement.getAttribute('data-index')"
    page.keyboard.press("Tab")  # the board's first cell
    page.keyboard.press("Tab")  # the 5-ship
    assert page.evaluate(focused) == "0"
    page.keyboard.press("Enter")
    expect(pship(page, 0)).to_have_attribute("data-ship", "H5A01")
    page.keyboard.press("Tab")
    assert page.evaluate(focused) == "1"
    page.keyboard.press("Enter")
    expect(pship(page, 1)).to_have_attribute("data-ship", "H4F01")
    page.keyboard.press("r")
    expect(pship(page, 1)).to_have_attribute("data-ship", "V4F01")
    page.keyboard.press("ArrowDown")
    expect(pship(page, 1)).to_have_attribute("data-ship", "V4F11")
    for index, expected in ((2, "V3G01"), (3, "V3H01"), (4, "V2I01")):
        h.press(page, "Tab", "Enter")
        expect(pship(page, index)).to_have_attribute("data-ship", expected)
    page.keyboard.press("Escape")
    expect(pship(page, 4)).to_have_attribute("data-placed", "false")
    expect(page.locator("[data-action='validate']")).to_be_disabled()
    page.keyboard.press("Enter")
    # The board's cells take a ship too: Enter on a cell places the selected one there.
    h.press(page, *["Shift+Tab"] * 5)
    assert page.evaluate("() => document.activeElement.getAttribute('data-cell')") == "A0"
    h.press(page, *["ArrowDown"] * 8, *["ArrowRight"] * 8)
    page.keyboard.press("Enter")
    expect(pship(page, 4)).to_have_attribute("data-ship", "V2I81")
    expect(page.locator("[data-action='validate']")).to_be_enabled()
    h.press(page, *["Tab"] * 8)  # the five ships, rotate, random, validate
    assert page.evaluate("() => document.activeElement.getAttribute('data-action')") == "validate"
    page.keyboard.press("Enter")
    expect_single_return(page, live_server, tag, "H5A01V4F11V3G01V3H01V2I81")


def test_prepare_by_touch(live_server: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 736, "height": 660}, has_touch=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        open_seafight(page, live_server, Method="Prepare", Input="One")
        pship(page, 3).tap()
        expect(pship(page, 3)).to_have_attribute("data-selected", "true")
        board(page, 1).locator("[data-cell='E7']").tap()
        expect(pship(page, 3)).to_have_attribute("data-ship", "H3E71")
        pship(page, 3).tap()  # a tap on the selected ship turns it
        expect(pship(page, 3)).to_have_attribute("data-ship", "V3E71")
        page.locator("[data-action='random']").tap()
        expect(page.locator("svg.sf")).to_have_attribute("data-legal", "true")
        assert errors == []
    finally:
        context.close()


def test_webtest_holds_the_preparation_until_the_play_control(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = open_returning(page, live_server, Method="Prepare", WebTest="yes")
    random = page.locator("[data-action='random']")
    expect(random).to_be_disabled()
    pship(page, 0).click()
    expect(pship(page, 0)).to_have_attribute("data-selected", "false")
    page.locator("[data-webtest='play']").click()
    random.click()
    page.locator("[data-action='validate']").click()
    page.wait_for_function(h.RETURN_LOADED)
    (value,) = h.sink_values(live_server, tag)
    check_classic(read_fleet(value))
    expect(page.locator("[data-webtest-value]")).to_have_text(value or "")


# --- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"Tray": "0" * 200}, "tray"),
        ({"Tray": "0" * 100 + "***" + "0" * 90}, "tray"),
        ({"Tray": "0" * 100 + "***" + "5" * 100}, "tray"),
        ({"Gain1": "H5A01V3C01"}, "gain1"),
        ({"Gain2": "H5H01"}, "gain2"),
        ({"Gain2": "<b>x</b>"}, "gain2"),
        ({"Move1": "Z99"}, "move1"),
        ({"Method": "Prepare", "Gain1": "H5A01H5A01"}, "gain1"),
    ],
)
def test_bad_input_shows_the_error_sign(
    live_server: str, page: Page, watch: h.PageWatch, params: dict[str, str], code: str
) -> None:
    sent = {"Method": "Double", "Input": "One", **params}
    response = page.goto(f"{live_server}/seafight/?{urlencode(sent)}")
    assert response is not None and response.status == 200
    expect(page.locator("html")).to_have_attribute("data-ready", "true")
    h.expect_error(page, code)
    expect(page.locator("[data-board]").first).to_be_visible()


# --- a whole game through the tester ----------------------------------------------------


@pytest.fixture
def tester(live_server: str, page: Page) -> Iterator[FrameLocator]:
    """The tester, a Seafight hot-seat game started with Wait 0; yields its frame."""
    page.set_default_timeout(8000)
    yield h.start_hot_seat(page, live_server, SET)


def prepare_in(frame: FrameLocator, player: int) -> None:
    expect(frame.locator(f"svg.sf[data-prepare='{player}']")).to_be_visible()
    expect(frame.locator("html")).to_have_attribute("data-input", str(player))
    frame.locator("[data-action='random']").click()
    frame.locator("[data-action='validate']").click()


@pytest.mark.slow
def test_a_whole_game_in_the_tester_preparation_included(
    live_server: str, page: Page, watch: h.PageWatch, tester: FrameLocator
) -> None:
    frame = tester
    prepare_in(frame, 1)
    prepare_in(frame, 2)
    expect(frame.locator("html")).to_have_attribute("data-method", "inverse")
    state: dict[str, Any] = page.evaluate("() => window.tester.game().state")
    fleets = [read_fleet(fleet) for fleet in state["fleets"]]
    returned = [r["value"] for r in page.evaluate("() => window.tester.returns")]
    assert returned == state["fleets"]
    for fleet in fleets:
        check_classic(fleet)
    # Player one fires at every cell of player two's fleet; player two only at water.
    hits = sorted(i for ship in fleets[1] for i in ship.cells())
    taken = {i for ship in fleets[0] for i in ship.cells()}
    water = [i for i in range(100) if i not in taken]
    names = [f"{'ABCDEFGHIJ'[i % 10]}{i // 10}" for i in range(100)]
    count = 0
    for n, cell in enumerate(hits):
        for player, index in ((1, cell), (2, water[n])):
            if player == 2 and n == len(hits) - 1:
                break
            # The next page (its Count is the shots fired), asking the player to move.
            expect(frame.locator("[data-count]")).to_have_text(str(count))
            opponent = 3 - player
            target = board(frame, opponent).locator(f"[data-cell='{names[index]}']")
            expect(target).to_have_attribute("data-playable", "true")
            if count in (0, 1):
                # Hot seat: the player to move sees their own fleet, not the other's.
                expect(frame.locator("html")).to_have_attribute("data-input", str(player))
                expect(board(frame, player).locator("[data-ship]")).to_have_count(5)
                expect(board(frame, opponent).locator("[data-ship]")).to_have_count(0)
            target.click()
            count += 1
    expect(frame.locator("[data-count]")).to_have_text(str(count))
    expect(frame.locator("html")).to_have_attribute("data-method", "end")
    expect(frame.locator("svg.sf")).to_have_attribute("data-winner", "1")
    expect(board(frame, 1).locator("[data-ship]")).to_have_count(5)
    expect(board(frame, 2).locator("[data-ship][data-state='3']")).to_have_count(5)
    last = names[hits[-1]]
    expect(board(frame, 2).locator(f"[data-cell='{last}']")).to_have_attribute(
        "data-last-move", "2"
    )
    expect(frame.locator("[data-playable]")).to_have_count(0)
    assert count == 33
    assert page.evaluate("() => window.tester.game().over") is True
    expect(page.locator("#log li")).to_have_count(2 + count)
