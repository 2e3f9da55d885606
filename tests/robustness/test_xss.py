"""Hostile input in Chromium (issue 6): no script runs, no non-http URL is loaded.

Per registered Set, page loads rotate the payloads of :mod:`tests.robustness.xss` through
Name1, Name2, Legend, Count and URLReturn (or its alias Return), so that every payload
lands in every one of them, with a CSS trick in Color. The oracle: no dialog opens, the
probe global ``window.__xss`` stays undefined, no request goes to a URL that is not
http(s), and after a move is played (where the Set has a playable value) the return iframe
was never given a URL that is not http(s).
"""

from __future__ import annotations

from urllib.parse import quote, urlsplit

import pytest
from playwright.sync_api import Dialog, Page, Request

from interfaces.plugin import SetInterface
from interfaces.registry import load_registry
from tests.browser.conftest import PageWatch
from tests.robustness.browser import LONG_RUN, RECORD_RETURNS, first_value, wait_ready
from tests.robustness.xss import CSS_PAYLOADS, PAYLOADS

pytestmark = [pytest.mark.browser, LONG_RUN]

REGISTRY = load_registry()
SETS = [pytest.param(interface, id=interface.key) for interface in REGISTRY]
SLOTS = ("Name1", "Name2", "Legend", "Count", "URLReturn")
# What the return iframe was given, resolved against the page, as the browser would load it.
RESOLVED_RETURNS = "() => window.__returnLoads.map(u => new URL(u, location.href).protocol)"


def written(value: str) -> str:
    """Return ``value`` as it goes in the query string (``RAW:`` payloads as they are)."""
    return value[4:] if value.startswith("RAW:") else quote(value, safe="")


def test_the_corpus_is_large_and_varied() -> None:
    assert len(PAYLOADS) >= 50
    assert len(set(PAYLOADS)) == len(PAYLOADS)
    for trick in ("<script", "onerror=", "javascript:", "data:", "%u", "&#", "<svg", "<math"):
        assert any(trick in p for p in PAYLOADS), trick


@pytest.mark.parametrize("interface", SETS)
def test_payloads_in_every_text_and_return_url_never_run(
    interface: SetInterface, live_server: str, page: Page
) -> None:
    watch = PageWatch(page)
    dialogs: list[str] = []
    foreign: list[str] = []

    def on_dialog(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    def on_request(request: Request) -> None:
        if urlsplit(request.url).scheme not in ("http", "https") and request.url != "data:,":
            foreign.append(request.url)

    page.on("dialog", on_dialog)
    page.on("request", on_request)
    page.add_init_script(RECORD_RETURNS)
    page.set_default_timeout(5000)
    sample = {"Set": interface.name, **interface.sample, "Wait": "0"}
    value = first_value(interface, sample)
    returns: set[str] = set()
    count = len(PAYLOADS)
    for k in range(count):
        hostile = {slot: PAYLOADS[(k + i) % count] for i, slot in enumerate(SLOTS)}
        url_name = "URLReturn" if k % 2 == 0 else "rEtUrN"  # the alias, in odd case
        pairs = [f"{name}={quote(v, safe='')}" for name, v in sample.items()]
        pairs += [f"{url_name if slot == 'URLReturn' else slot}={written(v)}"
                  for slot, v in hostile.items()]
        pairs.append(f"Color={written(CSS_PAYLOADS[k % len(CSS_PAYLOADS)])}")
        page.goto(f"{live_server}/{interface.key}/?{'&'.join(pairs)}", wait_until="commit")
        wait_ready(page)
        if value is not None:
            page.evaluate("v => window.tournoyons.play(v)", value)
        returns.update(page.evaluate(RESOLVED_RETURNS))
        assert page.evaluate("() => typeof window.__xss") == "undefined", hostile
    assert dialogs == []
    assert foreign == []
    assert returns <= {"http:", "https:"}
    if value is not None:
        assert returns, "no move was ever returned: the return oracle saw nothing"
    # CSP reports (a refused inline script or style) are console errors: none expected. A
    # payload read as a relative URLReturn is loaded from our server and answers 404: that
    # is the only error expected.
    assert [e for e in watch.errors if "status of 404" not in e] == []
