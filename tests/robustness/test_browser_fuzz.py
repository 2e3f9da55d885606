"""Generated queries in Chromium: no page error, no console error, no blank page.

Per registered Set, ``TOURNOYONS_FUZZ_BROWSER`` queries (default 40; the long run 500)
from the same generator as the server-side fuzzing, each loaded in an iframe of a host page,
as the Arbitre shows them, ten at a time. ``Wait`` is forced to 0 (the last value wins) so
that every page is ready at once, and ``Mute`` to 1 (sound is not under test here: a
muted page starts no AudioContext).
"""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page

from tests.browser.helpers import PageWatch
from tests.robustness.browser import EMBED, SHOWS_IN_FRAMES, Host, raw_url
from tests.robustness.queries import random_queries
from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.registry import load_registry

REGISTRY = load_registry()
SETS = [pytest.param(interface, id=interface.key) for interface in REGISTRY]
QUERIES = int(os.environ.get("TOURNOYONS_FUZZ_BROWSER", "40"))
# Chromium takes long URLs, but a huge one only measures the URL parser: the server side
# fuzzing sends those.
MAX_QUERY = 6000
BATCH = 10  # pages embedded at once


@pytest.mark.slow
@pytest.mark.parametrize("interface", SETS)
def test_generated_queries_load_without_error_and_never_blank(
    interface: SetInterface, live_server: str, page: Page
) -> None:
    watch = PageWatch(page)
    page.set_default_timeout(5000)
    host = Host(page, live_server)
    queries = [q for q in random_queries(interface, QUERIES * 2, seed=1) if len(q) < MAX_QUERY]
    assert len(queries) >= QUERIES
    blank: list[bytes] = []
    errors: list[tuple[list[bytes], list[str]]] = []
    for start in range(0, QUERIES, BATCH):
        batch = queries[start : min(start + BATCH, QUERIES)]
        host.embed([raw_url(live_server, interface, q + b"&Wait=0&Mute=1") for q in batch])
        shown = page.evaluate(SHOWS_IN_FRAMES)
        blank += [q for q, seen in zip(batch, shown, strict=True) if not seen]
        if watch.errors:  # the events do not say which frame: name the batch
            errors.append((batch, list(watch.errors)))
            watch.errors.clear()
    assert errors == [], f"{len(errors)} pages with errors, first: {errors[:3]}"
    assert blank == [], f"{len(blank)} blank pages, first: {blank[:3]}"


def test_the_blank_page_oracle_can_fail(live_server: str, page: Page) -> None:
    """A page with no board, no error sign and no text (here a JSON answer) is blank."""
    Host(page, live_server)
    urls = [f"{live_server}/tictactoe/?Wait=0", f"{live_server}/healthz"]
    assert page.evaluate(EMBED, [urls, 736, 660]) == [True, False]  # loaded; ready or not
    assert page.evaluate(SHOWS_IN_FRAMES) == [True, False]
