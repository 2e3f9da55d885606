"""Hostile input in Chromium: no script runs, no non-http URL is loaded.

Per registered Set, pages (embedded ten at a time in iframes of a host page, as the Arbitre
shows them) rotate the payloads of :mod:`tournoyons_gui.server.hostile` through
Name1, Name2, Legend, Count and URLReturn (or its alias Return), so that every payload
lands in every one of them, with a CSS trick in Color. The oracle (:class:`Oracle`): no
dialog opens, the probe global ``window.__xss`` stays undefined, no request goes to a URL
that is not http(s) (Playwright's and Chromium's own network log, which alone reports
``data:`` loads), no element names such a URL, and after a move is played (where the Set
has a playable value) the return iframe was never given one. The oracle is shown to fail:
a page that writes the Legend as HTML without our CSP falls to each payload of ``LIVE``.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from playwright.sync_api import Dialog, Frame, Page, Route

from tests.browser.helpers import PageWatch
from tests.robustness.browser import RECORD_RETURNS, Host, first_value, open_ready
from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.server.hostile import CSS_PAYLOADS, PAYLOADS

REGISTRY = load_registry()
SETS = [pytest.param(interface, id=interface.key) for interface in REGISTRY]
SLOTS = ("Name1", "Name2", "Legend", "Count", "URLReturn")
BATCH = 10  # pages embedded at once, as the Arbitre embeds them
# What the return iframe was given, resolved against the page, as the browser would load it.
RESOLVED_RETURNS = "() => window.__returnLoads.map(u => new URL(u, location.href).protocol)"
# Every URL the document names (loaded or not, e.g. an image Chromium never fetches) whose
# scheme is not http(s); our own empty favicon and the return iframe's blank page aside.
NAMED_URLS = """() => {
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (!['src', 'href', 'xlink:href', 'data', 'action', 'formaction', 'poster',
            'background', 'srcdoc', 'codebase', 'lowsrc', 'dynsrc'].includes(name)) continue;
      if (name === 'srcdoc') { found.push('srcdoc:' + attr.value); continue; }
      let url;
      try { url = new URL(attr.value, document.baseURI); } catch (e) { continue; }
      if (url.protocol === 'http:' || url.protocol === 'https:') continue;
      if (url.href === 'data:,' || url.href === 'about:blank') continue;
      found.push(url.href);
    }
  }
  return found;
}"""


def written(value: str) -> str:
    """Return ``value`` as it goes in the query string (``RAW:`` payloads as they are)."""
    return value[4:] if value.startswith("RAW:") else quote(value, safe="")


def test_the_corpus_is_large_and_varied() -> None:
    assert len(PAYLOADS) >= 50
    assert len(set(PAYLOADS)) == len(PAYLOADS)
    for trick in ("<script", "onerror=", "javascript:", "data:", "%u", "&#", "<svg", "<math"):
        assert any(trick in p for p in PAYLOADS), trick


class Oracle:
    """What hostile input achieved on one page: dialogs, the probe, foreign URLs, returns.

    Attach it before the first visit: it listens for dialogs (dismissed and recorded), for
    requests to a URL that is not http(s) (``data:,``, our own empty favicon, aside), and
    records every URL given to the return iframe (:data:`RECORD_RETURNS`).
    """

    def __init__(self, page: Page) -> None:
        self.page = page
        self.dialogs: list[str] = []
        self.foreign: list[str] = []
        self.probed: list[str] = []
        self.named: list[str] = []
        self.returns: set[str] = set()
        page.on("dialog", self._on_dialog)
        page.on("request", lambda request: self._on_url(request.url))
        # Chromium's own network log also names data: loads, which Playwright's does not.
        cdp = page.context.new_cdp_session(page)
        cdp.on("Network.requestWillBeSent", lambda event: self._on_url(event["request"]["url"]))
        cdp.send("Network.enable")
        page.add_init_script(RECORD_RETURNS)

    def _on_dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _on_url(self, url: str) -> None:
        if (
            urlsplit(url).scheme not in ("http", "https")
            and url != "data:,"
            and (url not in self.foreign)
        ):
            self.foreign.append(url)

    def visit(self, url: str, value: str | None = None) -> None:
        """Open ``url``, play ``value`` if given, and record what ran and what was loaded."""
        open_ready(self.page, url)
        # An image's onerror runs once its request fails, which may come after the page
        # is ready; the document's load event waits for every image, failed ones too.
        self.page.wait_for_load_state("load")
        self._inspect(self.page, url, value)

    def visit_embedded(self, host: Host, urls: list[str], value: str | None = None) -> None:
        """Embed ``urls`` in the host at once; in each, play ``value`` and record as
        :meth:`visit` does (a payload reaching the host page is caught too)."""
        for frame, url in zip(host.embed(urls), urls, strict=True):
            self._inspect(frame, url, value)
        if self.page.evaluate("() => typeof window.__xss") != "undefined":
            self.probed.append(f"the host page of {urls}")

    def _inspect(self, frame: Page | Frame, url: str, value: str | None) -> None:
        if value is not None:
            frame.evaluate("v => window.tournoyons.play(v)", value)
        self.returns.update(frame.evaluate(RESOLVED_RETURNS))
        self.named.extend(u for u in frame.evaluate(NAMED_URLS) if u not in self.named)
        if frame.evaluate("() => typeof window.__xss") != "undefined":
            self.probed.append(url)

    def clear(self) -> None:
        """Forget what was seen so far (the page's next visits start a new record)."""
        self.dialogs.clear()
        self.foreign.clear()
        self.probed.clear()
        self.named.clear()
        self.returns.clear()

    def findings(self) -> list[str]:
        """Return every sign that a payload worked (empty: none did)."""
        return (
            [f"dialog {m!r}" for m in self.dialogs]
            + [f"loaded {u[:80]}" for u in self.foreign]
            + [f"named {u[:80]}" for u in self.named]
            + [f"window.__xss set on {u[:200]}" for u in self.probed]
            + [f"returned to {r}" for r in sorted(self.returns - {"http:", "https:"})]
        )


@pytest.mark.slow
@pytest.mark.parametrize("interface", SETS)
def test_payloads_in_every_text_and_return_url_never_run(
    interface: SetInterface, live_server: str, page: Page
) -> None:
    watch = PageWatch(page)
    oracle = Oracle(page)
    sample = {"Set": interface.name, **interface.sample, "Wait": "0", "Mute": "1"}
    value = first_value(interface, sample)
    count = len(PAYLOADS)
    host = Host(page, live_server)
    urls: list[str] = []
    for k in range(count):
        hostile = {slot: PAYLOADS[(k + i) % count] for i, slot in enumerate(SLOTS)}
        url_name = "URLReturn" if k % 2 == 0 else "rEtUrN"  # the alias, in odd case
        pairs = [f"{name}={quote(v, safe='')}" for name, v in sample.items()]
        pairs += [
            f"{url_name if slot == 'URLReturn' else slot}={written(v)}"
            for slot, v in hostile.items()
        ]
        pairs.append(f"Color={written(CSS_PAYLOADS[k % len(CSS_PAYLOADS)])}")
        urls.append(f"{live_server}/{interface.key}/?{'&'.join(pairs)}")
    for start in range(0, count, BATCH):
        oracle.visit_embedded(host, urls[start : start + BATCH], value)
    assert oracle.findings() == []
    if value is not None:
        assert oracle.returns, "no move was ever returned: the return oracle saw nothing"
    # CSP reports (a refused inline script or style) are console errors: none expected. A
    # payload read as a relative URLReturn is loaded from our server and answers 404: that
    # is the only error expected.
    assert [e for e in watch.errors if "status of 404" not in e] == []


# Payloads that a page writing the Legend as HTML, without our CSP, must fall to, and the
# sign the oracle must see for each.
LIVE = (
    ("<script>window.__xss=1</script>", "window.__xss"),
    ("<img src=x onerror=alert(1)>", "dialog"),
    ("<svg onload=window.__xss=1>", "window.__xss"),
    ("<link rel=stylesheet href=data:text/css,body{}>", "loaded data:"),
    ("<iframe src=javascript:window.top.__xss=1></iframe>", "window.__xss"),
    ("<a href=javascript:window.__xss=1>x</a>", "named javascript:"),
    ("<img src=data:image/gif;base64,R0lGODlhAQABAAAAACw=>", "named data:"),
)


def test_the_oracle_sees_a_page_that_writes_text_as_html(live_server: str, page: Page) -> None:
    """The oracle can fail: served without CSP, with the Legend written raw, each LIVE
    payload is caught; the same payloads on the real page are not."""

    def vulnerable(route: Route) -> None:
        answer = route.fetch()
        legend = parse_qs(urlsplit(route.request.url).query).get("Legend", [""])[-1]
        body = re.sub(
            r"(<p class=\"legend\" data-legend>).*?(</p>)",
            lambda m: m.group(1) + legend + m.group(2),
            answer.text(),
            flags=re.S,
        )
        route.fulfill(
            status=answer.status, body=body, headers={"content-type": "text/html; charset=utf-8"}
        )

    base = f"{live_server}/tictactoe/?Tray=120000000&Wait=0&Legend="
    oracle = Oracle(page)
    for payload, _sign in LIVE:
        oracle.visit(base + quote(payload, safe=""))
    assert oracle.findings() == []
    page.route(f"{live_server}/tictactoe/**", vulnerable)
    for payload, sign in LIVE:
        oracle.clear()
        oracle.visit(base + quote(payload, safe=""))
        findings = oracle.findings()
        assert any(sign in finding for finding in findings), (payload, findings)
    # The same, embedded as the corpus test embeds its pages.
    host = Host(page, live_server)
    for payload, sign in LIVE:
        oracle.clear()
        oracle.visit_embedded(host, [base + quote(payload, safe=""), base + "harmless"])
        findings = oracle.findings()
        assert any(sign in finding for finding in findings), ("embedded", payload, findings)
