"""Accessibility of every Set's page and of the tester, in real Chromium.

- axe-core (the ``axe-playwright-python`` package, which injects it with ``page.evaluate``)
  finds no violation on each Set's page in its Standard, Input and End states (and Prepare,
  for the Sets that have it), built from the Set's ``sample`` context, nor on the tester.
  Every rule axe runs by default is on: WCAG 2 A and AA and the best practices.
- Each Set can be played with the keyboard alone from its Input page: exactly one value
  reaches the sink.
- The live region ``[data-announce]`` says the moves shown (Move1/Move2) once the page is
  ready and the move played, in symbols and coordinates only, and is not seen on screen.
- The focused playable element shows a visible focus indicator.

Parametrised over the registry, which includes the third-party Set ``Nim``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import FloatRect, Page, expect

from tests.browser.helpers import (
    RETURN_LOADED,
    PageWatch,
    new_tag,
    open_page,
    press,
    sink,
    sink_values,
)
from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.protocol import Method
from tournoyons_gui.interfaces.registry import load_registry

REGISTRY = load_registry()
AXE = Axe()
BLACK_CIRCLE = "\u25cf"  # the players' symbol in announcements: "●1 C5 ●2 D6"

# The keys that play a move on a Set whose value is composed rather than chosen from listed
# controls: MasterMind's letters put colours in the holes, Enter validates the line.
COMPOSE_KEYS: Mapping[str, tuple[str, ...]] = {"MasterMind": ("a", "b", "c", "d", "Enter")}

# The element now focused, if it is one the person plays with (a playable control, or a
# control of a composing Set: a hole, a colour, a button of the board).
# The focused control's box, read once its transitions are over (a Tarot card rises 16 px
# in 0.15 s under the focus: read mid-way, the same card seemed to have moved).
FOCUSED_PLAYABLE = """async () => {
  const moving = document.getAnimations().filter(a => a instanceof CSSTransition);
  await Promise.all(moving.map(a => a.finished.catch(() => null)));
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const playable = el.closest('[data-playable="true"]');
  const control = playable
    || (el.closest('main') && el.matches('[role="button"], button, [tabindex]') ? el : null);
  if (!control) return null;
  const box = control.getBoundingClientRect();
  return {value: control.getAttribute('data-value') || control.getAttribute('data-cell'),
          playable: Boolean(playable),
          x: box.x, y: box.y, width: box.width, height: box.height};
}"""


def states(interface: SetInterface) -> list[tuple[str, dict[str, str]]]:
    """Return the named query contexts of ``interface`` to check: Input, Standard, End, Prepare."""
    sample = dict(interface.sample)
    standard = {k: v for k, v in sample.items() if k not in ("Input", "Method")}
    found = [("input", {**sample, "Input": sample.get("Input", "One")}), ("standard", standard)]
    if Method.END in interface.methods:
        found.append(("end", {**standard, "Method": "End"}))
    if Method.PREPARE in interface.methods:
        found.append(
            ("prepare", {"Method": "Prepare", "Input": "One", "Name1": "MissOne", "Name2": "MrTwo"})
        )
    return found


SETS = [pytest.param(interface, id=interface.key) for interface in REGISTRY]


def violations(page: Page) -> list[str]:
    """Run axe-core on ``page``; return one line per violation: id, impact and target nodes."""
    results: dict[str, Any] = AXE.run(page).response
    return [
        f"{v['id']} ({v['impact']}): {[node['target'] for node in v['nodes']]}"
        for v in results["violations"]
    ]


def assert_no_violation(page: Page) -> None:
    """Fail, printing each violation, if axe-core finds any on ``page``."""
    found = violations(page)
    for line in found:
        print(line)
    assert found == [], "\n".join(found)


# --- axe-core ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("interface", SETS)
def test_axe_finds_no_violation_on_the_page_in_any_state(
    live_server: str, page: Page, watch: PageWatch, interface: SetInterface
) -> None:
    # One page for the Set's states, one after the other: a new browser context per state
    # would cost more than axe itself.
    found: list[str] = []
    for state, params in states(interface):
        open_page(page, live_server, {"Set": interface.name, **params})
        expect(page.locator("[data-board]").first).to_be_attached()
        found += [f"{state}: {line}" for line in violations(page)]
    for line in found:
        print(line)
    assert found == [], "\n".join(found)


@pytest.mark.slow
def test_axe_finds_no_violation_on_the_tester(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    page.goto(live_server + "/")
    expect(page.locator("h1")).to_be_visible()
    assert_no_violation(page)
    # With a Set's page in its frame too (axe checks inside iframes).
    page.locator("#sample").click()
    frame = page.frame_locator("#interface")
    expect(frame.locator("html")).to_have_attribute("data-ready", "true")
    assert_no_violation(page)


def test_axe_finds_no_violation_on_the_unknown_set_page(live_server: str, page: Page) -> None:
    response = page.goto(live_server + "/?Set=Chess&Input=One")
    assert response is not None and response.status == 404
    expect(page.locator("[data-set-link]").first).to_be_visible()
    assert_no_violation(page)


def test_axe_sees_a_violation_when_there_is_one(live_server: str, page: Page) -> None:
    """The oracle can fail: an unnamed button on a Set's page is reported."""
    open_page(page, live_server, {"Set": "TicTacToe", "Tray": "Init", "Input": "One"})
    page.evaluate("""() => {
      const b = document.createElement('button');
      document.querySelector('main').appendChild(b);
    }""")
    assert any(line.startswith("button-name ") for line in violations(page))


# --- the keyboard alone, and the live region ----------------------------------------------


def moves_said(params: Mapping[str, str]) -> str:
    """Return what the live region says at load for ``params``: the moves shown, in symbols
    (Move1 .. Move4: a Set of four seats says all four)."""
    return " ".join(
        f"{BLACK_CIRCLE}{p} {params[f'Move{p}']}" for p in "1234" if params.get(f"Move{p}")
    )


def tab_to_playable(page: Page) -> dict[str, Any]:
    """Press Tab until a control the person plays with has the focus; return it (box, value)."""
    for _ in range(40):
        page.keyboard.press("Tab")
        found: dict[str, Any] | None = page.evaluate(FOCUSED_PLAYABLE)
        if found:
            return found
    raise AssertionError("Tab never reached a playable control")


def assert_focus_is_visible(page: Page, focused: dict[str, Any]) -> None:
    """Assert that the focused control looks different without the focus, then focus it again.

    The region around the control is compared, focused and not (the focus taken away with
    ``blur``); Shift+Tab then Tab bring the keyboard focus back to it.
    """
    margin = 8
    clip: FloatRect = {
        "x": max(0, focused["x"] - margin),
        "y": max(0, focused["y"] - margin),
        "width": focused["width"] + 2 * margin,
        "height": focused["height"] + 2 * margin,
    }
    with_focus = page.screenshot(clip=clip, animations="disabled")
    page.evaluate("() => document.activeElement.blur()")
    without_focus = page.screenshot(clip=clip, animations="disabled")
    assert with_focus != without_focus, f"no visible focus on {focused}"
    press(page, "Shift+Tab", "Tab")
    again: dict[str, Any] | None = page.evaluate(FOCUSED_PLAYABLE)
    assert again is not None  # the same control (its box may grow with the focus)
    assert (again["value"], again["playable"]) == (focused["value"], focused["playable"])
    assert abs(again["x"] - focused["x"]) < 4 and abs(again["y"] - focused["y"]) < 4
    assert page.screenshot(clip=clip, animations="disabled") != without_focus


@pytest.mark.parametrize("interface", SETS)
def test_the_keyboard_alone_plays_one_move_with_visible_focus_and_the_live_region_says_it(
    live_server: str, page: Page, watch: PageWatch, interface: SetInterface
) -> None:
    tag = new_tag()
    params = {"Set": interface.name, **interface.sample, "URLReturn": sink(live_server, tag)}
    params.setdefault("Input", "One")
    open_page(page, live_server, params)
    live = page.locator("[data-announce]")
    expect(live).to_have_text(moves_said(params))
    # The live region is for screen readers only: nothing of it is seen on screen.
    box = live.bounding_box()
    assert box is not None and box["width"] <= 1 and box["height"] <= 1
    focused = tab_to_playable(page)
    assert_focus_is_visible(page, focused)
    keys = COMPOSE_KEYS.get(interface.name, ("Enter",))
    press(page, *keys)
    page.wait_for_function("() => window.tournoyons.lastValue !== null")
    value = page.evaluate("() => window.tournoyons.lastValue")
    if interface.name not in COMPOSE_KEYS:
        assert focused["playable"] and value == focused["value"]
    expect(page.locator("iframe.return")).to_have_attribute(
        "src", f"{sink(live_server, tag)}&ReturnValue={value}".replace("+", "%2B")
    )
    page.wait_for_function(RETURN_LOADED)
    assert sink_values(live_server, tag) == [value]
    player = "2" if params["Input"].lower() in ("two", "2") else "1"
    expect(live).to_have_text(f"{BLACK_CIRCLE}{player} {value}")


def test_the_live_region_says_both_moves_shown(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    open_page(
        page, live_server, {"Set": "TicTacToe", "Tray": "100020000", "Move1": "1", "Move2": "5"}
    )
    expect(page.locator("[data-announce]")).to_have_text(f"{BLACK_CIRCLE}1 1 {BLACK_CIRCLE}2 5")
    expect(page.locator("[data-announce]")).to_have_attribute("role", "status")
    expect(page.locator("[data-announce]")).to_have_attribute("aria-live", "polite")


def test_the_live_region_says_nothing_without_moves_or_board(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    open_page(
        page, live_server, {"Set": "TicTacToe", "Tray": "Init", "Move1": "1", "Method": "None"}
    )
    expect(page.locator("[data-announce]")).to_have_text("")
