"""Plain helpers of the browser tests: the fixtures stay in ``conftest.py``; what a test
calls is here (the Arbitre's game page and its per-Set players are in ``arbitre_helpers``).

- HTTP: :func:`get_json`, :func:`get_status`, :func:`query_of`.
- The server's return sink (``--sink``): :func:`new_tag`, :func:`sink`, :func:`sink_entries`,
  :func:`sink_values`.
- Opening an interface page: :func:`interface_url`, :func:`open_page` (the return recorder
  :data:`RECORD_RETURNS` installed, then ``html[data-ready="true"]`` waited for; actions
  time out after 5 s), :func:`open_url`, :func:`open_returning` (its return to the sink
  under a new tag), :func:`open_named` and :func:`open_named_returning` (both
  :data:`NAMES` added), :func:`open_with_error`, :func:`open_bad_tray`,
  :func:`open_method_none` (both with :data:`TEXTS`), :func:`open_move`.
- Reading and playing it: :func:`cell`, :func:`states`, :func:`playable_values`,
  :func:`return_loads`, :func:`with_codes`, :func:`press`, :func:`press_to`,
  :func:`hold_enter`; :class:`PageWatch` (its script and console errors).
- What it shows: :func:`expect_texts`, :func:`expect_counts`, :func:`expect_error`,
  :func:`expect_last_move`, :func:`expect_empty_start`, :func:`expect_single_return`,
  :func:`expect_nothing_playable`.
- The tester at ``/``: :func:`open_tester`, :func:`start_hot_seat`, :func:`frame_query`,
  :func:`values_returned`.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from playwright.sync_api import FrameLocator, Locator, Page, expect

# Records every URL a page gives its hidden return iframe (kept across navigations of one
# page): proof that even a second return cancelled by the first never happened.
RECORD_RETURNS = """
(() => {
  if (window.__returnLoads) return;  // installed once per document
  const desc = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, "src");
  window.__returnLoads = [];
  Object.defineProperty(HTMLIFrameElement.prototype, "src", {
    configurable: true,
    get() { return desc.get.call(this); },
    set(value) {
      if (this.classList.contains("return")) window.__returnLoads.push(String(value));
      desc.set.call(this, value);
    },
  });
})();
"""

# True once the page's hidden return iframe has loaded the sink's answer.
RETURN_LOADED = (
    "() => document.querySelector('iframe.return').contentDocument"
    "?.querySelector('[data-return-value]') != null"
)

# The cells' data-state, in DOM order, joined.
STATES = "cells => cells.map(c => c.getAttribute('data-state')).join('')"


class PageWatch:
    """What went wrong in a page: uncaught exceptions and console errors."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        page.on(
            "console",
            lambda message: (
                self.errors.append(f"console: {message.text}") if message.type == "error" else None
            ),
        )


# --- HTTP -------------------------------------------------------------------------------


def get_json(base: str, path: str) -> Any:
    """GET ``base + path`` and return its JSON body."""
    with urllib.request.urlopen(base + path, timeout=10) as answer:
        return json.load(answer)


def get_status(url: str) -> int:
    """GET ``url`` and return its HTTP status (errors included)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def query_of(src: str) -> dict[str, str]:
    """Return the query parameters of a URL (the last of each name, blank ones kept)."""
    return {k: v[-1] for k, v in parse_qs(urlsplit(src).query, keep_blank_values=True).items()}


# --- the return sink --------------------------------------------------------------------


def new_tag() -> str:
    """Return a tag unique to one test, to find its values in the sink's log."""
    return uuid.uuid4().hex


def sink(base: str, tag: str) -> str:
    """Return a URLReturn pointing at the server's sink with ``tag``."""
    return f"{base}/return?tag={tag}"


def sink_entries(base: str, tag: str) -> list[dict[str, Any]]:
    """Return the sink's log entries (value and every query parameter) carrying ``tag``."""
    log: list[dict[str, Any]] = get_json(base, f"/return/log?tag={tag}")
    return [entry for entry in log if entry["params"].get("tag") == tag]


def sink_values(base: str, tag: str) -> list[str | None]:
    """Return the ReturnValues the server's sink received with ``tag=<tag>`` in their query."""
    return [entry["value"] for entry in sink_entries(base, tag)]


# --- opening an interface page ----------------------------------------------------------


def query(params: Mapping[str, str]) -> str:
    """Return ``params`` as a query string, values percent-encoded."""
    return "&".join(f"{name}={quote(value, safe='')}" for name, value in params.items())


def interface_url(base: str, params: Mapping[str, str], set_name: str | None = None) -> str:
    """Return the interface page for ``params`` (``Set=<set_name>`` first, when given)."""
    return f"{base}/?{query({'Set': set_name, **params} if set_name else params)}"


def open_url(page: Page, url: str, ready: bool = True) -> None:
    """Load ``url`` with the return recorder installed; wait until the page is ready
    (unless ``ready`` is false). Actions then time out after 5 s."""
    page.set_default_timeout(5000)
    page.add_init_script(RECORD_RETURNS)
    page.goto(url)
    if ready:
        expect(page.locator("html")).to_have_attribute("data-ready", "true")


def open_page(
    page: Page,
    base: str,
    params: Mapping[str, str],
    set_name: str | None = None,
    ready: bool = True,
) -> None:
    """Load the interface page for ``params`` (of ``set_name``, else of the Set they name)
    as :func:`open_url` does."""
    open_url(page, interface_url(base, params, set_name), ready)


def open_returning(
    page: Page, base: str, params: Mapping[str, str], set_name: str | None = None
) -> str:
    """Open the page for ``params`` as :func:`open_page` does, returning to the sink under a
    new tag; return the tag."""
    tag = new_tag()
    open_page(page, base, {**params, "URLReturn": sink(base, tag)}, set_name)
    return tag


# The players' names a page is shown with.
NAMES = {"Name1": "MissOne", "Name2": "MrTwo"}


def open_named(page: Page, base: str, params: Mapping[str, str], set_name: str) -> None:
    """Open ``set_name``'s page for ``params`` and both :data:`NAMES` as :func:`open_page`
    does."""
    open_page(page, base, {**NAMES, **params}, set_name)


def open_named_returning(page: Page, base: str, params: Mapping[str, str], set_name: str) -> str:
    """Open ``set_name``'s page for ``params`` and both :data:`NAMES` as :func:`open_returning`
    does; return the tag."""
    return open_returning(page, base, {**NAMES, **params}, set_name)


# The texts of a page opened with an error or with Method None.
TEXTS = {**NAMES, "Legend": "Round 2", "Count": "4"}


def open_with_error(
    page: Page, base: str, params: Mapping[str, str], set_name: str, code: str
) -> None:
    """Open ``set_name``'s page for ``params`` and :data:`TEXTS`; assert that the error sign
    names ``code`` while the board and the texts are still shown."""
    open_page(page, base, {**TEXTS, **params}, set_name)
    expect_error(page, code)
    expect(page.locator("[data-board]").first).to_be_visible()
    expect_texts(page, TEXTS)


def open_bad_tray(
    page: Page, base: str, tray: str, set_name: str, cells: int, unplayable: Iterable[str]
) -> None:
    """Open ``set_name``'s page asking player one to move on the unreadable ``tray``; assert
    the error sign names ``tray``, the board of ``cells`` cells is still drawn and nothing is
    playable (:func:`expect_nothing_playable` on ``unplayable``)."""
    open_with_error(
        page, base, {"Tray": tray, "Input": "One", "URLReturn": "/return"}, set_name, "tray"
    )
    expect(page.locator("[data-board] [data-cell]")).to_have_count(cells)
    expect_nothing_playable(page, unplayable)


def open_method_none(
    page: Page, base: str, params: Mapping[str, str], set_name: str | None = None
) -> None:
    """Open the page for ``params`` and :data:`TEXTS` with Method None (of ``set_name``, else
    of the Set they name); assert it says so, draws no board, no cell and nothing playable,
    and shows the texts."""
    open_page(page, base, {**TEXTS, **params, "Method": "None"}, set_name)
    expect(page.locator("html")).to_have_attribute("data-method", "none")
    expect_counts(page, {"[data-board]": 0, "[data-cell]": 0, "[data-playable]": 0})
    expect_texts(page, TEXTS)


def open_move(
    page: Page, base: str, params: Mapping[str, str], set_name: str, name: str, player: int
) -> None:
    """Open ``set_name``'s page for ``params``, which show ``player``'s move ``name``; assert
    the move drawn there, the one last move marked, and no error."""
    open_page(page, base, params, set_name)
    expect_last_move(page, name, player)
    expect(page.locator("[data-error]")).to_have_count(0)


# --- reading and playing it -------------------------------------------------------------


def cell(scope: Page | FrameLocator, name: str | int) -> Locator:
    """Return the cell (or point) ``name`` of the board."""
    return scope.locator(f"[data-cell='{name}']")


def states(scope: Page | FrameLocator) -> str:
    """Return the data-state of every cell of the board, in DOM order."""
    result: str = scope.locator("[data-board] [data-cell]").evaluate_all(STATES)
    return result


def playable_values(scope: Page | FrameLocator) -> list[str]:
    """Return the values of the controls playable now, in DOM order."""
    values: list[str] = scope.locator("[data-playable='true']").evaluate_all(
        "els => els.map(e => e.getAttribute('data-value') || e.getAttribute('data-cell'))"
    )
    return values


def return_loads(page: Page) -> list[str]:
    """Return the URLs the page loaded (or tried to) in its return iframe."""
    loads: list[str] = page.evaluate("() => window.__returnLoads")
    return loads


def with_codes(empty: str, index_of: Callable[[str], int | None], codes: Mapping[str, str]) -> str:
    """Return the board ``empty`` with ``codes`` (cell name -> code) set; ``index_of`` reads a
    cell name."""
    cells = list(empty)
    for name, code in codes.items():
        index = index_of(name)
        assert index is not None, name
        cells[index] = code
    return "".join(cells)


def press(page: Page, *keys: str) -> None:
    """Press ``keys`` in turn."""
    for key in keys:
        page.keyboard.press(key)


def press_to(page: Page, target: Locator, *keys: str) -> None:
    """Press ``keys`` in turn; assert that ``target`` then has the focus."""
    press(page, *keys)
    expect(target).to_be_focused()


def hold_enter(page: Page) -> None:
    """Hold Enter down, as keyboard auto-repeat sends it: the first keydown, then five with
    ``repeat`` set, then the keyup."""
    for _ in range(6):
        page.keyboard.down("Enter")
    page.keyboard.up("Enter")


# --- what it shows ----------------------------------------------------------------------

# Where each text parameter is shown.
TEXT_SLOTS = {
    "Name1": "[data-name='1']",
    "Name2": "[data-name='2']",
    "Legend": "[data-legend]",
    "Count": "[data-count]",
}


def expect_texts(scope: Page | FrameLocator, texts: Mapping[str, str]) -> None:
    """Assert that each of ``texts`` (by its parameter: Name1, Name2, Legend, Count) is shown
    in its place."""
    for name, text in texts.items():
        element = scope.locator(TEXT_SLOTS[name])
        expect(element).to_be_visible()
        expect(element).to_have_text(text)


def expect_counts(scope: Page | FrameLocator, counts: Mapping[str, int]) -> None:
    """Assert how many elements match each selector of ``counts``."""
    for selector, count in counts.items():
        expect(scope.locator(selector)).to_have_count(count)


def expect_error(page: Page, code: str) -> None:
    """Assert that the error sign is shown and names ``code`` among its codes."""
    error = page.locator("[data-error]")
    expect(error).to_be_visible()
    assert code in (error.get_attribute("data-error") or "").split()


def expect_last_move(page: Page, name: str, player: int) -> None:
    """Assert that cell ``name`` holds ``player``'s move, the one last move marked."""
    expect(cell(page, name)).to_have_attribute("data-state", str(player))
    expect(cell(page, name)).to_have_attribute("data-last-move", str(player))
    expect(page.locator("[data-last-move]")).to_have_count(1)


def expect_empty_start(page: Page, base: str, set_name: str, tray: str | None, cells: int) -> None:
    """Open ``set_name``'s page for both names and ``tray`` (no Tray at all when ``None``);
    assert a board of ``cells`` empty cells, no error, the names shown."""
    open_page(page, base, NAMES if tray is None else {**NAMES, "Tray": tray}, set_name)
    expect_counts(
        page,
        {
            "[data-board] [data-cell]": cells,
            "[data-cell][data-state='0']": cells,
            "[data-error]": 0,
        },
    )
    expect_texts(page, NAMES)
    assert page.evaluate("() => window.tournoyons.tray()") == "0" * cells


def expect_single_return(page: Page, base: str, tag: str, value: str) -> None:
    """Assert that the page returned ``value`` once: one load asked, one value at the sink,
    nothing playable any more."""
    page.wait_for_function(RETURN_LOADED)
    assert return_loads(page) == [f"{sink(base, tag)}&ReturnValue={quote(value, safe='')}"]
    assert sink_values(base, tag) == [value]
    assert page.evaluate("() => window.tournoyons.lastValue") == value
    expect(page.locator("[data-playable='true']")).to_have_count(0)


def expect_nothing_playable(page: Page, cells: Iterable[str]) -> None:
    """Assert that no cell takes input and a click on each of ``cells`` returns nothing."""
    expect(page.locator("[data-playable]")).to_have_count(0)
    for name in cells:
        cell(page, name).click(force=True)
    assert return_loads(page) == []
    assert page.evaluate("() => window.tournoyons.lastValue") is None
    expect(page.locator("iframe.return")).to_have_attribute("src", "about:blank")


# --- the tester -------------------------------------------------------------------------


def open_tester(page: Page, base: str) -> FrameLocator:
    """Open the tester in a window large enough for it; return its interface frame."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base + "/")
    expect(page.locator("#set")).to_be_visible()
    return page.frame_locator("#interface")


def start_hot_seat(page: Page, base: str, set_name: str) -> FrameLocator:
    """Open the tester, choose ``set_name``, set Wait to 0 and start a hot-seat game; return
    the interface frame once its first page is ready."""
    frame = open_tester(page, base)
    page.locator("#set").select_option(set_name)
    page.locator("input[name='Wait']").fill("0")
    expect(page.locator("#new-game")).to_be_enabled()
    page.locator("#new-game").click()
    expect(frame.locator("html")).to_have_attribute("data-set", set_name)
    expect(frame.locator("html")).to_have_attribute("data-ready", "true")
    return frame


def frame_query(page: Page, iframe: str = "#interface") -> dict[str, str]:
    """Return the query parameters of the URL now given to ``iframe`` (the tester's)."""
    return query_of(page.locator(iframe).get_attribute("src") or "")


def values_returned(page: Page) -> list[str]:
    """Return the values the tester received, in order."""
    return [r["value"] for r in page.evaluate("() => window.tester.returns")]
