"""Helpers for the robustness tests in Chromium: URLs, readiness, what a page shows."""

from __future__ import annotations

import string
from collections.abc import Mapping
from urllib.parse import quote

from playwright.sync_api import Frame, Page

from tests.browser.helpers import RECORD_RETURNS
from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.protocol import read_context

__all__ = [
    "EMBED",
    "RECORD_RETURNS",
    "SHOWS_IN_FRAMES",
    "Host",
    "first_value",
    "open_ready",
    "raw_url",
    "wait_ready",
]

# What may stay as written in a URL we hand Chromium; everything else is %-escaped, which
# the server decodes to the same bytes (a raw control byte or space would not survive).
_URL_SAFE = "".join(c for c in string.printable if c not in " #\t\n\r\x0b\x0c\\")


# True when the body shows something: a board, an error sign, a name, the count or the
# legend; or when the page is Method None, the empty interface by design.
_SHOWS = """doc => {
  if (doc.documentElement.getAttribute('data-method') === 'none') return true;
  const style = el => doc.defaultView.getComputedStyle(el);
  const seen = el => el.getClientRects().length > 0 &&
    style(el).visibility !== 'hidden' && style(el).opacity !== '0';
  const any = (selector, text) => [...doc.querySelectorAll(selector)]
    .some(el => seen(el) && (!text || el.textContent.trim() !== ''));
  return any('[data-board]') || any('[data-error]') ||
    any('[data-name], [data-legend], [data-count]', true);
}"""
# For each page embedded by :class:`Host`, in order: whether its body shows something (a
# board, an error sign, a name, the count or the legend), or it is Method None, the empty
# interface by design.
SHOWS_IN_FRAMES = (
    "() => [...document.querySelectorAll('body > iframe')]"
    f".map(frame => ({_SHOWS})(frame.contentDocument))"
)


def raw_url(base: str, interface: SetInterface, query: bytes) -> str:
    """Return the URL of ``interface``'s page for the raw ``query`` (bytes kept as sent)."""
    return f"{base}/{interface.key}/?{quote(query, safe=_URL_SAFE)}"


def wait_ready(page: Page, timeout: float = 5000) -> None:
    """Wait until the page says every impact is shown (``data-ready="true"``)."""
    page.wait_for_selector("html[data-ready='true']", state="attached", timeout=timeout)


def open_ready(page: Page, url: str) -> None:
    """Navigate to ``url`` and return once its page is ready (``data-ready="true"``).

    With ``Wait=0`` the runtime sets ``data-ready`` at DOMContentLoaded, so one check then
    is enough (polling for the attribute costs a frame or more per page); a page that is not
    yet ready is waited for.
    """
    page.goto(url, wait_until="domcontentloaded")
    if not page.evaluate("() => document.documentElement.dataset.ready === 'true'"):
        wait_ready(page)


def first_value(interface: SetInterface, params: Mapping[str, str]) -> str | None:
    """Return a value the page for ``params`` accepts from ``play()``, if one is playable."""
    view = interface.build(read_context({k.lower(): v for k, v in params.items()}))
    if view.composed or not view.playable or view.player is None:
        return None
    return view.playable[0]


# Loads the given URLs into as many iframes of the host page, all at once, and resolves when
# every one has loaded, to whether each says it is ready (Wait=0 sets data-ready at
# DOMContentLoaded). The frames are stacked at the top left, hidden (laid out, not painted)
# until one is raised.
EMBED = """async ([urls, width, height]) => {
  document.body.replaceChildren();
  document.body.style.margin = '0';
  const frames = urls.map((url, k) => {
    const frame = document.createElement('iframe');
    frame.name = 'embed-' + k;
    Object.assign(frame.style, {position: 'absolute', left: '0', top: '0', border: '0',
                                visibility: 'hidden', width: width + 'px',
                                height: height + 'px'});
    frame.src = url;
    return frame;
  });
  const loaded = frames.map(f => new Promise(done => {
    f.addEventListener('load', done, {once: true});
    setTimeout(done, 10000);  // a page that never loads is then found not ready
  }));
  frames.forEach(frame => document.body.append(frame));
  await Promise.all(loaded);
  return frames.map(f => f.contentDocument?.documentElement?.dataset.ready === 'true');
}"""


class Host:
    """A page of ours that embeds interface pages in iframes, as the Arbitre does.

    Several pages load at once (one Chromium navigation costs about twice the CPU of an
    iframe's load here), each in a 736x660 iframe stacked at the top left of the host,
    hidden: laid out and scripted, not painted; :meth:`raise_frame` shows one, on top, for
    pointer input.
    """

    WIDTH, HEIGHT = 736, 660

    def __init__(self, page: Page, base: str) -> None:
        self.page = page
        # The host page is the test's own, on the server's origin, never asked of the server.
        url = base + "/__host__"
        page.route(
            url,
            lambda route: route.fulfill(
                status=200,
                content_type="text/html",
                body='<!doctype html><html lang="fr"><head><link rel="icon" href="data:,">'
                "<title>host</title></head><body></body></html>",
            ),
        )
        page.goto(url)

    def embed(self, urls: list[str]) -> list[Frame]:
        """Load ``urls`` in as many iframes (replacing the previous ones); return their frames,
        each ready (``data-ready="true"``) or waited for."""
        readiness = self.page.evaluate(EMBED, [urls, self.WIDTH, self.HEIGHT])
        frames: list[Frame] = []
        for k, is_ready in enumerate(readiness):
            frame = self.page.frame(name=f"embed-{k}")
            assert frame is not None, "an embedded page has no frame"
            if not is_ready:
                frame.wait_for_selector("html[data-ready='true']", state="attached", timeout=5000)
            frames.append(frame)
        return frames

    def raise_frame(self, index: int) -> None:
        """Show iframe ``index`` alone, above the others (pointer input goes to it)."""
        self.page.evaluate(
            "k => document.querySelectorAll('body > iframe').forEach((f, i) => {"
            " f.style.zIndex = i === k ? '1' : '0';"
            " f.style.visibility = i === k ? 'visible' : 'hidden'; })",
            index,
        )
