"""Exactly once under input storms (issue 6): each storm returns one ReturnValue.

``TOURNOYONS_STORMS`` storms in all (default 1000), dealt round-robin to the registered
Sets (one test per Set, so that xdist spreads them). A storm is played on the Input page of
the Set's sample context (for Seafight, every other storm on its Prepare page), and is one
of: a double click, a triple click, clicks on two controls within one frame, Enter held
down (keyboard repeat), a click then Enter on a control. Each storm's URLReturn carries a
unique tag; the sink's log is read once per batch and must hold each tag exactly once.
Composed values are composed first with the page's own controls (MasterMind's palette,
Seafight's random fleet).
"""

from __future__ import annotations

import json
import os
import urllib.request
import uuid
from collections import Counter
from dataclasses import dataclass
from urllib.parse import quote

import pytest
from playwright.sync_api import Page

from interfaces.plugin import SetInterface
from interfaces.registry import load_registry
from tests.browser.conftest import PageWatch
from tests.robustness.browser import LONG_RUN, RECORD_RETURNS, wait_ready

pytestmark = [pytest.mark.browser, LONG_RUN]

REGISTRY = load_registry()
SETS = [pytest.param(index, interface, id=interface.key)
        for index, interface in enumerate(REGISTRY)]
STORMS = int(os.environ.get("TOURNOYONS_STORMS", "1000"))
BATCH = 100  # storms between two reads of the sink's log (it keeps the last 1000)
KINDS = ("double", "triple", "two-in-a-frame", "enter-held", "click-then-enter")

# The return iframe has loaded the sink's answer; then what the page gave it.
RETURNED = """() => {
  const doc = document.querySelector('iframe.return').contentDocument;
  return doc && doc.querySelector('[data-return-value]') ? window.__returnLoads : null;
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
    "seafight": (Setup(), Setup(params=(("Method", "Prepare"),),
                                prepare=("[data-action='random']",),
                                target="[data-action='validate']")),
}


def storm_url(base: str, interface: SetInterface, setup: Setup, tag: str) -> str:
    """Return the page asking for a move, its return going to the sink with ``tag``."""
    params = {**interface.sample, **dict(setup.params), "Wait": "0",
              "URLReturn": f"{base}/return?tag={tag}"}
    params.setdefault("Input", "One")
    query = "&".join(f"{k}={quote(v, safe='')}" for k, v in params.items())
    return f"{base}/{interface.key}/?{query}"


def storm(page: Page, kind: str, target: str) -> None:
    """Play one storm of ``kind`` on the controls matching ``target``."""
    first = page.locator(target).first
    if kind == "double":
        first.dblclick()
    elif kind == "triple":
        first.click(click_count=3)
    elif kind == "two-in-a-frame":
        page.evaluate(TWO_IN_A_FRAME, target)
    elif kind == "enter-held":
        first.focus()
        for _ in range(6):  # the first keydown, then five with repeat=true
            page.keyboard.down("Enter")
        page.keyboard.up("Enter")
    else:
        other = page.locator(target).last.element_handle()  # no longer playable once clicked
        first.click()
        other.focus()
        page.keyboard.press("Enter")


def sink_counts(base: str) -> Counter[str]:
    """Return how many values the sink received per tag."""
    with urllib.request.urlopen(base + "/return/log", timeout=5) as answer:
        log = json.load(answer)
    return Counter(str(entry["params"].get("tag")) for entry in log)


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
    pending: list[str] = []
    for n in range(count):
        setup = setups[n % len(setups)]
        kind = KINDS[n % len(KINDS)]
        tag = f"{run}-{n}-{kind}"
        page.goto(storm_url(live_server, interface, setup, tag), wait_until="commit")
        wait_ready(page)
        for control in setup.prepare:
            page.locator(control).first.click()
        storm(page, kind, setup.target)
        loads = page.wait_for_function(RETURNED).json_value()
        assert len(loads) == 1, (kind, loads)
        pending.append(tag)
        if len(pending) == BATCH or n == count - 1:
            counts = sink_counts(live_server)
            assert {t: counts[t] for t in pending} == dict.fromkeys(pending, 1)
            pending.clear()
    assert watch.errors == []
