"""Helpers for the robustness tests in Chromium: URLs, readiness, what a page shows."""

from __future__ import annotations

import os
import string
from collections.abc import Mapping
from urllib.parse import quote

import pytest
from playwright.sync_api import Page

from interfaces.plugin import SetInterface
from interfaces.protocol import read_context
from tests.browser.conftest import RECORD_RETURNS

__all__ = [
    "LONG_RUN", "RECORD_RETURNS", "SHOWS_SOMETHING", "first_value", "raw_url", "wait_ready",
]

# What may stay as written in a URL we hand Chromium; everything else is %-escaped, which
# the server decodes to the same bytes (a raw control byte or space would not survive).
_URL_SAFE = "".join(c for c in string.printable if c not in " #\t\n\r\x0b\x0c\\")


# True when the body shows something: a board, an error sign, a name, the count or the
# legend; or when the page is Method None, the empty interface by design.
SHOWS_SOMETHING = """() => {
  if (document.documentElement.getAttribute('data-method') === 'none') return true;
  const seen = el => el.getClientRects().length > 0 &&
    getComputedStyle(el).visibility !== 'hidden' && getComputedStyle(el).opacity !== '0';
  const any = (selector, text) => [...document.querySelectorAll(selector)]
    .some(el => seen(el) && (!text || el.textContent.trim() !== ''));
  return any('[data-board]') || any('[data-error]') ||
    any('[data-name], [data-legend], [data-count]', true);
}"""


def raw_url(base: str, interface: SetInterface, query: bytes) -> str:
    """Return the URL of ``interface``'s page for the raw ``query`` (bytes kept as sent)."""
    return f"{base}/{interface.key}/?{quote(query, safe=_URL_SAFE)}"


def wait_ready(page: Page, timeout: float = 5000) -> None:
    """Wait until the page says every impact is shown (``data-ready="true"``)."""
    page.wait_for_selector("html[data-ready='true']", state="attached", timeout=timeout)


def first_value(interface: SetInterface, params: Mapping[str, str]) -> str | None:
    """Return a value the page for ``params`` accepts from ``play()``, if one is playable."""
    view = interface.build(read_context({k.lower(): v for k, v in params.items()}))
    if view.composed or not view.playable or view.player is None:
        return None
    return view.playable[0]


# The Chromium parts (fuzz, XSS corpus, storms) take longer than the README's test command
# may (about 15 minutes on 2 cores with the rest): they run when asked, as the long run does.
LONG_RUN = pytest.mark.skipif(
    os.environ.get("TOURNOYONS_ROBUSTNESS", "") in ("", "0"),
    reason="Chromium robustness runs with TOURNOYONS_ROBUSTNESS=1",
)
