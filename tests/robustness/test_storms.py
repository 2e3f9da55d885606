"""Exactly once under input storms: each storm returns one ReturnValue.

``TOURNOYONS_STORMS`` storms in all (default 200; 9000 with ``--long``), dealt round-robin
to the registered Sets (one test per Set, so that xdist spreads them). A storm is played
on the Input page of the Set's sample context (for Seafight, every other storm on its
Prepare page), and is one of: a double click, a triple click, clicks on two controls
within one frame, Enter held down (keyboard repeat), a click then Enter on a control. Each
storm's URLReturn carries a unique tag; the sink's log is read once per batch and must
hold each tag exactly once. Composed values are composed first with the page's own
controls (MasterMind's palette, Seafight's random fleet).
"""

from __future__ import annotations

import json
import os
import urllib.parse
import urllib.request
import uuid
from collections import Counter
from dataclasses import dataclass

import pytest
from playwright.sync_api import Frame, Page

from tests.browser.helpers import PageWatch, hold_enter, query, sink
from tests.robustness.browser import RECORD_RETURNS, Host
from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.registry import load_registry

REGISTRY = load_registry()
SETS = [
    pytest.param(index, interface, id=interface.key) for index, interface in enumerate(REGISTRY)
]
STORMS = int(os.environ.get("TOURNOYONS_STORMS", "200"))
BATCH = 100  # storms between two reads of the sink's log (it keeps the last 1000)
EMBEDDED = 5  # storm pages embedded at once
KINDS = ("double", "triple", "two-in-a-frame", "enter-held", "click-then-enter")

# Every embedded page's return iframe has loaded the sink's answer; then, for each page,
# the URLs it gave its return iframe.
ALL_RETURNED = """() => {
  const pages = [...document.querySelectorAll('body > iframe')].map(f => f.contentWindow);
  const done = pages.every(w => {
    const doc = w.document.querySelector('iframe.return').contentDocument;
    return doc && doc.querySelector('[data-return-value]');
  });
  return done ? pages.map(w => w.__returnLoads) : null;
}"""
# Two controls clicked in the same task: no frame between them.
TWO_IN_A_FRAME = """sel => {
  const all = [...document.querySelectorAll(sel)];
  const click = el => el.dispatchEvent(
    new MouseEvent('click', {bubbles: true, cancelable: true, view: window, detail: 1}));
  click(all[0]);
  click(all[1] || all[0]);
}"""


@dataclass(frozen=True)
class Setup:
    """How to bring a Set's page to a value ready to return: extra params, clicks, target."""

    params: tuple[tuple[str, str], ...] = ()
    prepare: tuple[str, ...] = ()
    target: str = "[data-playable='true']"


DEFAULT = (Setup(),)
SETUPS: dict[str, tuple[Setup, ...]] = {
    # The guess is composed with the palette, then the validate control returns it.
    "mastermind": (Setup(prepare=tuple(f"[data-pick='{c}']" for c in "ABCD")),),
    # Firing (the sample, Method Inverse), and placing a fleet (Method Prepare).
    "seafight": (
        Setup(),
        Setup(
            params=(("Method", "Prepare"),),
            prepare=("[data-action='random']",),
            target="[data-action='validate']",
        ),
    ),
}


def storm_url(base: str, interface: SetInterface, setup: Setup, tag: str) -> str:
    """Return the page asking for a move, its return going to the sink with ``tag``."""
    # Sound is not under test here: muted, a page spares starting an AudioContext.
    params = {
        **interface.sample,
        **dict(setup.params),
        "Wait": "0",
        "Mute": "1",
        "URLReturn": sink(base, tag),
    }
    params.setdefault("Input", "One")
    return f"{base}/{interface.key}/?{query(params)}"


class Pointer:
    """Real mouse input at the centre of a control, its box measured once per selector.

    Every storm of a test opens the same page but for its URLReturn, each in an iframe at the
    same place, so a control stays where it was first found; measuring it once spares
    Playwright's actionability checks (two animation frames and more) on every click.
    """

    def __init__(self, page: Page) -> None:
        self.page = page
        self.centres: dict[str, tuple[float, float]] = {}

    def centre(self, frame: Frame, selector: str) -> tuple[float, float]:
        """Return the centre, in the page, of the first control matching ``selector`` in
        ``frame``."""
        if selector not in self.centres:
            box = frame.locator(selector).first.bounding_box()
            assert box is not None, f"{selector} is not shown"
            self.centres[selector] = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        return self.centres[selector]

    def click(self, frame: Frame, selector: str, count: int = 1) -> None:
        """Click (``count`` times in a row: a double or triple click) the control."""
        x, y = self.centre(frame, selector)
        self.page.mouse.click(x, y, click_count=count)


def storm(page: Page, frame: Frame, pointer: Pointer, kind: str, target: str) -> None:
    """Play one storm of ``kind`` on the controls matching ``target`` in ``frame``."""
    if kind == "double":
        pointer.click(frame, target, 2)
    elif kind == "triple":
        pointer.click(frame, target, 3)
    elif kind == "two-in-a-frame":
        frame.evaluate(TWO_IN_A_FRAME, target)
    elif kind == "enter-held":
        frame.locator(target).first.focus()
        hold_enter(page)
    else:
        other = frame.locator(target).last.element_handle()  # no longer playable once clicked
        pointer.click(frame, target)
        other.focus()
        page.keyboard.press("Enter")


def sink_counts(base: str, tags: list[str]) -> Counter[str]:
    """Return how many values the sink received per tag, for ``tags``."""
    query = urllib.parse.urlencode([("tag", tag) for tag in tags])
    with urllib.request.urlopen(f"{base}/return/log?{query}", timeout=5) as answer:
        log = json.load(answer)
    return Counter(str(entry["params"].get("tag")) for entry in log)


@pytest.mark.slow
@pytest.mark.parametrize(("index", "interface"), SETS)
def test_every_storm_returns_exactly_one_value(
    index: int, interface: SetInterface, live_server: str, page: Page
) -> None:
    watch = PageWatch(page)
    page.set_default_timeout(5000)
    page.add_init_script(RECORD_RETURNS)
    setups = SETUPS.get(interface.key, DEFAULT)
    count = len(range(index, STORMS, len(REGISTRY)))
    assert count > 0
    run = uuid.uuid4().hex[:12]
    host = Host(page, live_server)
    pointer = Pointer(page)
    pending: list[str] = []
    for start in range(0, count, EMBEDDED):
        numbers = range(start, min(start + EMBEDDED, count))
        tags = [f"{run}-{n}-{KINDS[n % len(KINDS)]}" for n in numbers]
        frames = host.embed(
            [
                storm_url(live_server, interface, setups[n % len(setups)], tag)
                for n, tag in zip(numbers, tags, strict=True)
            ]
        )
        # One storm per page, each page on top in turn; then every page's return.
        for k, (n, frame) in enumerate(zip(numbers, frames, strict=True)):
            setup = setups[n % len(setups)]
            host.raise_frame(k)
            for control in setup.prepare:
                pointer.click(frame, control)
            storm(page, frame, pointer, KINDS[n % len(KINDS)], setup.target)
        returned = page.wait_for_function(ALL_RETURNED).json_value()
        for n, loads in zip(numbers, returned, strict=True):
            assert len(loads) == 1, (KINDS[n % len(KINDS)], loads)
        pending += tags
        if len(pending) >= BATCH or numbers[-1] == count - 1:
            counts = sink_counts(live_server, pending)
            assert {t: counts[t] for t in pending} == dict.fromkeys(pending, 1)
            pending.clear()
    assert watch.errors == []
