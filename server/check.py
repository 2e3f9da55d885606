"""The interface check: an interface loaded in headless Chromium at 736x660 through
the contexts of :mod:`.contexts`, each reported with what a person judging an interface
wants to know, and a contact sheet of every context's screenshot beside ours.

Per context (:class:`ContextResult`): the HTTP status; the time to the load event and to
``tournoyons:ready`` when the page posts it (interface protocol section 3); errors in the
console; whether the page fits 736x660 without scrolling; the words on the page that no
parameter gave (section 1: the interface "adds no text of its own"; what a word is:
:mod:`.words`); whether a hostile text ran (the probe global of :mod:`.hostile` set, or a
dialog opened). A context *passes* when it has none of these faults; times are reported,
never judged.

Used by the command line (``tournoyons-gui check-interface URL --set S``) and by the
server's button on an interface's page; it drives a browser and knows nothing of the
Arbitre. The server hands it a :data:`Fetch`: every request the checked page makes (its
popups' too) then goes through the server's outbound policy instead of
Chromium's network, and one the policy refuses is reported (``refused``) and never sent;
WebSockets, service workers and WebRTC's direct UDP are blocked, and anything else goes to
a proxy that is not there (:data:`NOWHERE`). Playwright (the ``check`` extra, or the test
dependencies) and a Chromium (:func:`chromium_path`) are needed: :func:`lacking` says
which is missing and how to get it, in one sentence.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import html
import os
import shutil
import time
import urllib.parse
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.server.contexts import RETURN_URL, Context, contexts
from tournoyons_gui.server.extras import Lack, lacking_module, python_command
from tournoyons_gui.server.hostile import PROBE
from tournoyons_gui.server.words import added_words, given_words

__all__ = [
    "CHROMIUM_FLAGS",
    "NAVIGATION_TIMEOUT",
    "READY_WAIT",
    "VIEWPORT",
    "CheckReport",
    "ContextResult",
    "Fetch",
    "Fetched",
    "Refused",
    "available",
    "check_interface",
    "chromium_path",
    "frame_url",
    "lacking",
]

#: The Arbitre's iframe, in CSS pixels (interface protocol section 1).
VIEWPORT = {"width": 736, "height": 660}
#: Seconds a context's page has to answer and reach its load event.
NAVIGATION_TIMEOUT = 15.0
#: Seconds waited after the load event for ``tournoyons:ready`` (beyond the context's own
#: ``Wait``): a page that never posts it costs this much per context.
READY_WAIT = 3.0
#: Pages a check visits at once (each in its own browser context): two keep a small
#: machine's two cores busy while a page waits on its server; each page's times are
#: measured from its own navigation.
VISITS_AT_ONCE = 2
#: Console errors (and refused requests) kept per context (the first ones).
MAX_ERRORS = 10
#: The proxy of a check whose requests a :data:`Fetch` makes: a port nothing listens on.
NOWHERE = "http://127.0.0.1:9"


class Refused(Exception):
    """A request of the checked page that a :data:`Fetch` may not make (its message says
    why: the outbound policy's reason)."""


@dataclass(frozen=True)
class Fetched:
    """A :data:`Fetch`'s answer, given to Chromium as the network's: ``status``,
    ``headers`` (one value per name, as Playwright takes them) and the whole ``body``."""

    status: int
    headers: Mapping[str, str]
    body: bytes


#: How a page's requests are made when the caller makes them: ``(method, url, headers,
#: body)`` -> :class:`Fetched`, a redirect followed (Chromium follows none by itself
#: then: its own network is a proxy that goes nowhere); raises :class:`Refused` for one it
#: may not make (any other error fails the request as a network error would).
Fetch = Callable[[str, str, Mapping[str, str], bytes | None], Awaitable[Fetched]]

#: How Chromium is launched: headless on a machine without a sandbox or a GPU, quiet (the
#: same flags as the tests' and benchmarks', ``scripts/_bootstrap.py``).
CHROMIUM_FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    # The host page is the checking browser's own (nothing listens at its address): Chromium
    # would take it for a public page and refuse it an interface on a local address.
    "--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessForNavigations,"
    "BlockInsecurePrivateNetworkRequests",
)
#: Chromium's usual names on the PATH.
#: Chromiums looked for on the PATH, best first: Chromium's headless shell (the same Blink,
#: half the CPU of the full browser headless), then the full browsers.
_CHROMIUMS = (
    "chromium-headless-shell",
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "chrome",
)

#: The host page the interface is embedded in, as the Arbitre embeds it: served by the
#: checking browser itself at this address (nothing listens there). A loopback address,
#: so that Chromium lets it embed an interface on a local address (a public page may not).
HOST_URL = "http://127.0.0.1:9/check-host"
# The host: a 736x660 iframe at the top left; it times the frame's load event and its first
# tournoyons:ready from the moment the frame is given its URL (interface protocol section 3:
# a page posts its events to window.parent).
_HOST = """<!doctype html><meta charset=utf-8><style>html,body{margin:0;overflow:hidden}
iframe{border:0;display:block}</style>
<iframe width=736 height=660 allow=autoplay></iframe><script>
const frame = document.querySelector("iframe");
window.__check = {load: null, ready: null, start: 0};
window.addEventListener("message", (event) => {
  if (event.source === frame.contentWindow && event.data &&
      event.data.type === "tournoyons:ready" && window.__check.ready === null) {
    window.__check.ready = performance.now() - window.__check.start;
  }
});
frame.addEventListener("load", () => {
  if (window.__check.load === null && frame.src) {
    window.__check.load = performance.now() - window.__check.start;
  }
});
window.__show = (url) => { window.__check.start = performance.now(); frame.src = url; };
</script>"""
# The text a person sees: text nodes of visible elements (scripts, styles, SVG titles and
# the like aside), and the labels of input buttons and placeholders.
_VISIBLE_TEXT = """() => {
  const out = [];
  const root = document.body || document.documentElement;
  if (!root) return "";
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const hidden = "script, style, noscript, template, title, desc, metadata";
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest(hidden)) continue;
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) continue;
    out.push(node.nodeValue);
  }
  for (const el of root.querySelectorAll("input, textarea")) {
    if (["button", "submit", "reset"].includes(el.type)) out.push(el.value || "");
    out.push(el.placeholder || "");
  }
  // Text drawn by the style sheet: the quoted strings of ::before and ::after content.
  for (const el of [root, ...root.querySelectorAll("*")]) {
    if (el.closest(hidden)) continue;
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) continue;
    for (const pseudo of ["::before", "::after"]) {
      const content = getComputedStyle(el, pseudo).content;
      for (const quoted of content.matchAll(/"((?:[^"\\\\]|\\\\.)*)"/g)) out.push(quoted[1]);
    }
  }
  return out.join(" ");
}"""
_MEASURE = """() => {
  const d = document.documentElement, b = document.body;
  return {
    width: Math.max(d.scrollWidth, b ? b.scrollWidth : 0),
    height: Math.max(d.scrollHeight, b ? b.scrollHeight : 0),
    probe: typeof window[PROBE] !== "undefined",
  };
}""".replace("PROBE", repr(PROBE))
_HOST_PROBE = "() => typeof window[PROBE] !== 'undefined'".replace("PROBE", repr(PROBE))


@dataclass
class ContextResult:
    """One context's findings: ``status`` (``None``: no answer), ``load_ms`` and
    ``ready_ms`` from the navigation's start (``None``: not reached or not posted),
    ``errors`` in the console, ``size`` ``[width, height]`` of the content and ``fits``,
    ``words`` no parameter gave, ``hostile_ran`` (and ``dialogs``), ``refused``: the
    requests the caller's :data:`Fetch` refused, with why; ``faults`` (empty: it passes);
    ``url`` loaded, ``ours`` our page's URL for the same context."""

    label: str
    url: str
    ours: str = ""
    hostile: bool = False
    status: int | None = None
    load_ms: float | None = None
    ready_ms: float | None = None
    errors: list[str] = field(default_factory=list)
    size: list[int] = field(default_factory=lambda: [0, 0])
    fits: bool = False
    words: list[str] = field(default_factory=list)
    hostile_ran: bool = False
    dialogs: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Whether the context shows no fault."""
        return not self.faults


@dataclass
class CheckReport:
    """A whole check: the interface ``url`` and ``set``, each context's result, and the
    contact sheet (a PNG: every context's screenshot, ours beside it when given)."""

    url: str
    set: str
    results: list[ContextResult] = field(default_factory=list)
    sheet: bytes = b""

    @property
    def passed(self) -> bool:
        """Whether every context passes."""
        return all(r.passed for r in self.results)

    def to_json(self) -> dict[str, Any]:
        """Return the report as JSON-ready data (the sheet left out)."""
        return {
            "url": self.url,
            "set": self.set,
            "passed": self.passed,
            "contexts": [{**asdict(r), "passed": r.passed} for r in self.results],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], sheet: bytes = b"") -> CheckReport:
        """Return the report :meth:`to_json` gave (a stored check's), with its ``sheet``;
        a key it does not know is left out (a report of another version)."""
        known = set(ContextResult.__dataclass_fields__)
        results = [
            ContextResult(**{k: v for k, v in context.items() if k in known})
            for context in data.get("contexts", [])
        ]
        return cls(str(data.get("url", "")), str(data.get("set", "")), results, sheet)


def chromium_path() -> str | None:
    """Return the Chromium to launch: ``$TOURNOYONS_CHROMIUM``, else one on the PATH, else
    ``None`` (Playwright's own build, when it has one)."""
    explicit = os.environ.get("TOURNOYONS_CHROMIUM")
    if explicit:
        return explicit
    return next((p for p in map(shutil.which, _CHROMIUMS) if p), None)


def _playwright_build() -> bool:
    folder = Path(
        os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache" / "ms-playwright"
    )
    return folder.is_dir() and any(folder.glob("chromium*"))


def _chromium_advice() -> str:
    """Return how a Chromium is got, as the end of a sentence."""
    return (
        f"get Playwright's own with: {python_command()} -m playwright install chromium "
        "(or your system's, on Debian or Ubuntu: sudo apt-get install chromium; or set "
        "TOURNOYONS_CHROMIUM to a Chromium's path)"
    )


def lacking() -> Lack | None:
    """Return what this process lacks to run a check, with how to get it (Playwright,
    then a Chromium: ``$TOURNOYONS_CHROMIUM`` when set, else one on the PATH or
    Playwright's own build), or ``None`` when it lacks nothing."""
    missing = lacking_module("playwright", "Playwright", "check")
    if missing is not None:
        return missing
    explicit = os.environ.get("TOURNOYONS_CHROMIUM")
    if explicit:
        if shutil.which(explicit) is None:
            return Lack(
                f"the Chromium that TOURNOYONS_CHROMIUM names ({explicit})",
                "set TOURNOYONS_CHROMIUM to a Chromium's path, or unset it to use one on "
                "the PATH or Playwright's own",
            )
        return None
    if chromium_path() is not None or _playwright_build():
        return None
    return Lack("a Chromium", _chromium_advice())


def available() -> bool:
    """Whether this process can run a check: Playwright importable and a Chromium found
    (:func:`lacking` says what is missing and how to get it)."""
    return lacking() is None


def frame_url(base: str, params: Mapping[str, str]) -> str:
    """Return ``base`` with the context's ``params`` as its query (``&`` when it has one),
    percent-encoded as the Arbitre's game page writes them."""
    query = urllib.parse.urlencode(params, quote_via=urllib.parse.quote)
    return f"{base}{'&' if '?' in base else '?'}{query}"


def _faults(result: ContextResult) -> list[str]:
    faults = []
    if result.status is None:
        faults.append("no answer")
    elif not 200 <= result.status < 300:
        faults.append(f"HTTP {result.status}")
    if result.errors:
        faults.append(f"{len(result.errors)} console error(s)")
    if result.status is not None and not result.fits:
        faults.append(f"does not fit 736x660 ({result.size[0]}x{result.size[1]})")
    if result.words:
        faults.append("added words: " + ", ".join(result.words[:8]))
    if result.hostile_ran:
        faults.append("a hostile text ran")
    if result.refused:
        faults.append(f"{len(result.refused)} request(s) refused by this server's policy")
    return faults


async def _guard(browser_context: Any, fetch: Fetch, result: ContextResult) -> None:
    """Make every request of ``browser_context`` (every page of it: a popup the checked
    page opens too) through ``fetch``: Chromium is given its answer, or the request is
    blocked (``refused`` noted) or failed; WebSockets are closed. A page's own routes
    (the host's, the return's) take precedence over these."""

    async def outbound(route: Any) -> None:
        request = route.request
        try:
            fetched = await fetch(
                request.method, request.url, await request.all_headers(), request.post_data_buffer
            )
        except Refused as refused:
            if len(result.refused) < MAX_ERRORS:
                result.refused.append(f"{request.url[:200]}: {str(refused)[:200]}")
            answer = route.abort("blockedbyclient")
        except Exception:
            answer = route.abort("failed")
        else:
            headers = dict(fetched.headers)
            answer = route.fulfill(status=fetched.status, headers=headers, body=fetched.body)
        with contextlib.suppress(Exception):  # the page may be gone meanwhile
            await answer

    async def no_socket(socket: Any) -> None:
        if len(result.refused) < MAX_ERRORS:
            result.refused.append(f"{socket.url[:200]}: no WebSocket is opened in a check")
        with contextlib.suppress(Exception):
            await socket.close()

    await browser_context.route("**/*", outbound)
    await browser_context.route_web_socket("**/*", no_socket)


async def _visit(
    browser: Any, url: str, context: Context, interface: SetInterface, fetch: Fetch | None
) -> tuple[ContextResult, bytes]:
    """Embed ``url`` in the host page, in a new browser context (its requests made through
    ``fetch`` when given); return its findings and the screenshot of the frame."""
    result = ContextResult(label=context.label, url=url, hostile=context.hostile)
    page_context = await browser.new_context(
        viewport=VIEWPORT,
        service_workers="block" if fetch else "allow",
        # Held by ``fetch``: what Chromium would reach by itself (a worker's WebSocket, a
        # redirect it follows) goes to a proxy that is not there, loopback included.
        proxy={"server": NOWHERE, "bypass": "<-loopback>"} if fetch else None,
    )
    try:
        if fetch is not None:  # before any page: a popup of the checked page is held too
            await _guard(page_context, fetch, result)
        page = await page_context.new_page()
        await page.route(
            HOST_URL, lambda route: route.fulfill(body=_HOST, content_type="text/html")
        )
        # A move returned goes nowhere: the check answers it itself.
        host = urllib.parse.urlsplit(RETURN_URL).hostname
        await page.route(f"**://{host}/**", lambda route: route.fulfill(status=204, body=""))

        def on_console(message: Any) -> None:
            if message.type == "error" and len(result.errors) < MAX_ERRORS:
                result.errors.append(message.text[:300])

        def on_error(error: Any) -> None:
            if len(result.errors) < MAX_ERRORS:
                result.errors.append(str(error)[:300])

        async def on_dialog(dialog: Any) -> None:
            result.dialogs.append(dialog.message[:100])
            await dialog.dismiss()

        def on_response(response: Any) -> None:
            request = response.request
            if (
                result.status is None
                and request.is_navigation_request()
                and request.frame != page.main_frame
            ):
                result.status = response.status

        await page.goto(HOST_URL)
        page.on("console", on_console)
        page.on("pageerror", on_error)
        page.on("dialog", on_dialog)
        page.on("response", on_response)
        wait = float(context.params.get("Wait", "0") or 0) / 10
        await page.evaluate("url => window.__show(url)", url)
        try:
            await page.wait_for_function(
                "() => window.__check.load !== null", timeout=NAVIGATION_TIMEOUT * 1000
            )
            await page.wait_for_function(
                "() => window.__check.ready !== null", timeout=(READY_WAIT + wait) * 1000
            )
        except Exception:
            await page.wait_for_timeout(100)
        timing = await page.evaluate("() => window.__check")
        result.load_ms = None if timing["load"] is None else round(timing["load"], 1)
        result.ready_ms = None if timing["ready"] is None else round(timing["ready"], 1)
        frame = page.main_frame.child_frames[0] if page.main_frame.child_frames else None
        if frame is None or result.load_ms is None:
            result.errors.append("the page did not load")
            return result, await _shot(page)
        try:
            measured = await frame.evaluate(_MEASURE)
            text = await frame.evaluate(_VISIBLE_TEXT)
        except Exception as failed:
            result.errors.append(f"the page could not be read: {str(failed)[:200]}")
            return result, await _shot(page)
        result.size = [int(measured["width"]), int(measured["height"])]
        result.fits = result.size[0] <= VIEWPORT["width"] and result.size[1] <= VIEWPORT["height"]
        on_top = await page.evaluate(_HOST_PROBE)
        result.hostile_ran = bool(measured["probe"] or on_top or result.dialogs)
        given = given_words([interface.name, *interface.aliases, *context.params.values()])
        result.words = added_words(text, given)
        return result, await _shot(page)
    finally:
        await page_context.close()


async def _shot(page: Any) -> bytes:
    try:
        return bytes(await page.screenshot(timeout=10_000))
    except Exception:
        return b""


def _sheet_html(rows: Sequence[tuple[str, bytes, bytes | None]], title: str) -> str:
    """Return the contact sheet's page: per context its label, theirs, ours beside."""

    def img(png: bytes | None) -> str:
        if png is None:
            return ""
        if not png:
            return '<div class="shot none"></div>'
        data = base64.b64encode(png).decode()
        return f'<img class="shot" src="data:image/png;base64,{data}">'

    cells = "".join(
        f'<div class="row"><div class="label">{html.escape(label)}</div>{img(theirs)}'
        f"{img(ours)}</div>"
        for label, theirs, ours in rows
    )
    return (
        "<!doctype html><meta charset=utf-8><style>body{margin:8px;font:14px sans-serif;"
        "background:#eee}.row{display:flex;gap:8px;align-items:flex-start;margin:6px 0}"
        ".label{width:110px}.shot{width:368px;height:330px;border:1px solid #999;"
        "background:#fff}.none{background:repeating-linear-gradient(45deg,#fff,#fff 8px,"
        f"#ddd 8px,#ddd 16px)}}</style><h1>{html.escape(title)}</h1>{cells}"
    )


async def check_interface(
    url: str,
    interface: SetInterface,
    *,
    ours: str | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    fetch: Fetch | None = None,
) -> CheckReport:
    """Check the interface at ``url`` (its page; the contexts' queries are added to it) for
    ``interface``'s Set; ``ours``: the URL of our own page for that Set (absolute), shown
    beside it on the contact sheet; ``fetch``: how the checked page's requests are made
    (``None``: by Chromium; ours always are). ``progress(done, total, label)`` is called
    before each context and once at the end. Raises ``RuntimeError``, its message one
    sentence that says how to get what is missing, when Playwright is not installed or no
    Chromium can be launched."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        missing = lacking_module("playwright", "Playwright", "check")
        raise RuntimeError((missing or Lack("Playwright", "")).sentence("the check")) from None

    found = list(contexts(interface))
    report = CheckReport(url=url, set=interface.name)
    rows: list[tuple[str, bytes, bytes | None]] = []
    total = len(found) * (2 if ours else 1)
    done = 0
    started = time.monotonic()
    async with async_playwright() as driver:
        try:
            held = ["--force-webrtc-ip-handling-policy=disable_non_proxied_udp"] if fetch else []
            browser = await driver.chromium.launch(
                executable_path=chromium_path(), args=[*CHROMIUM_FLAGS, *held]
            )
        except Exception as failed:
            first = (str(failed).strip().splitlines() or [type(failed).__name__])[0]
            raise RuntimeError(
                f"the check could not launch Chromium ({first[:300]}); {_chromium_advice()}"
            ) from None
        try:
            gate = asyncio.Semaphore(VISITS_AT_ONCE)

            async def visit(
                target: str, context: Context, label: str, through: Fetch | None = None
            ) -> tuple[ContextResult, bytes]:
                nonlocal done
                async with gate:
                    if progress:
                        progress(done, total, label)
                    found_there = await _visit(browser, target, context, interface, through)
                    done += 1
                    return found_there

            async def both(context: Context) -> tuple[ContextResult, bytes, bytes | None]:
                theirs = visit(frame_url(url, context.params), context, context.label, fetch)
                if not ours:
                    result, shot = await theirs
                    return result, shot, None
                mine = visit(frame_url(ours, context.params), context, f"{context.label} (ours)")
                (result, shot), (_, mine_shot) = await asyncio.gather(theirs, mine)
                result.ours = frame_url(ours, context.params)
                return result, shot, mine_shot

            for context, (result, theirs, mine) in zip(
                found, await asyncio.gather(*(both(c) for c in found)), strict=True
            ):
                result.faults = _faults(result)
                report.results.append(result)
                rows.append((context.label, theirs, mine))
            page = await browser.new_page(viewport={"width": 900 if ours else 520, "height": 600})
            await page.set_content(_sheet_html(rows, f"{interface.name}: {url}"))
            report.sheet = bytes(await page.screenshot(full_page=True))
        finally:
            await browser.close()
    if progress:
        progress(total, total, f"done in {time.monotonic() - started:.0f} s")
    return report
