"""Events to the host (spec section 3): ``tournoyons:ready``, ``tournoyons:size``, and
``tournoyons:play`` accepted only with ``Host=yes`` on a page that asks for input.

The host is a page of ours on the server's origin (answered by the test, never asked of the
server) that embeds one interface in an iframe and records every message the iframe posts
in ``window.events``.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from playwright.sync_api import Frame, Page

from tests.browser.helpers import (
    PageWatch,
    interface_url,
    new_tag,
    sink,
    sink_values,
)

REVERSI_TRAY = "0000000000100000003410000018300000143300001400000010000000000000"
# The board as the page answers it (window.tournoyons.tray()): the disc turning shown.
REVERSI_SHOWN = "0000000000100000003410000014300000143300001400000010000000000000"

HOST_HTML = """<!doctype html><html lang="fr"><head><link rel="icon" href="data:,">
<title>host</title></head><body style="margin:0">
<iframe name="game" width="736" height="660" style="border:0;display:block"></iframe>
<script>
  window.events = [];
  const frame = document.querySelector("iframe");
  window.addEventListener("message", (event) => {
    if (event.source === frame.contentWindow) window.events.push(event.data);
  });
  window.send = (message) => frame.contentWindow.postMessage(message, "*");
</script></body></html>"""


def events(page: Page, kind: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(
        "kind => window.events.filter(e => e && e.type === 'tournoyons:' + kind)", kind
    )
    return found


def embed(page: Page, base: str, params: dict[str, str]) -> Frame:
    """Open the host page with the interface for ``params``; return its frame once ready."""
    page.set_default_timeout(5000)
    host = base + "/__host__"
    page.route(
        host, lambda route: route.fulfill(status=200, content_type="text/html", body=HOST_HTML)
    )
    page.goto(host)
    page.evaluate(
        "src => { document.querySelector('iframe').src = src; }", interface_url(base, params)
    )
    page.wait_for_function("() => window.events.some(e => e && e.type === 'tournoyons:ready')")
    frame = page.frame(name="game")
    assert frame is not None
    return frame


def settle(page: Page) -> None:
    """Let messages already posted arrive (each way)."""
    page.wait_for_timeout(250)


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        (
            {"Set": "TicTacToe", "Tray": "120000000", "Input": "One"},
            {"set": "TicTacToe", "method": "standard", "tray": "120000000", "input": "One"},
        ),
        (
            {"Set": "Morpion3x3", "Tray": "100000000", "Input": "Two"},
            {"set": "TicTacToe", "method": "standard", "tray": "100000000", "input": "Two"},
        ),
        (
            {"Set": "Reversi", "Tray": REVERSI_TRAY, "Move2": "D3"},
            {"set": "Reversi", "method": "standard", "tray": REVERSI_SHOWN, "input": None},
        ),
        (
            {"Set": "TicTacToe", "Method": "End", "Tray": "334120210", "Input": "One"},
            {"set": "TicTacToe", "method": "end", "tray": "334120210", "input": None},
        ),
    ],
    ids=["tictactoe-one", "tictactoe-two", "reversi-no-input", "tictactoe-end"],
)
def test_ready_once_with_the_context(
    page: Page, live_server: str, watch: PageWatch, params: dict[str, str], expected: dict[str, Any]
) -> None:
    frame = embed(page, live_server, params)
    settle(page)
    ready = events(page, "ready")
    assert ready == [{"type": "tournoyons:ready", **expected}]
    # The tray is the page's own answer, and the page was ready when it said so.
    assert frame.evaluate("() => window.tournoyons.tray()") == expected["tray"]
    assert frame.evaluate("() => document.documentElement.dataset.ready") == "true"
    # Ready comes before any size.
    kinds = [e["type"] for e in page.evaluate("() => window.events")]
    assert kinds[0] == "tournoyons:ready"


def test_no_event_when_not_embedded(page: Page, live_server: str, watch: PageWatch) -> None:
    page.add_init_script(
        "window.__seen = []; window.addEventListener('message', e => window.__seen.push(e.data));"
    )
    page.goto(f"{live_server}/?Set=TicTacToe&Tray=120000000&Input=One")
    page.wait_for_selector("html[data-ready='true']", state="attached")
    # The recorder itself works: a message posted to the page is seen.
    page.evaluate("() => window.postMessage({type: 'probe'}, '*')")
    page.wait_for_function("() => window.__seen.length > 0")
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.__seen") == [{"type": "probe"}]


def test_size_follows_the_frame(page: Page, live_server: str, watch: PageWatch) -> None:
    embed(page, live_server, {"Set": "TicTacToe", "Tray": "120000000", "Input": "One"})
    page.wait_for_function("() => window.events.some(e => e.type === 'tournoyons:size')")
    settle(page)
    sizes = events(page, "size")
    assert sizes == [{"type": "tournoyons:size", "width": 736, "height": 660}]
    page.evaluate(
        "() => { const f = document.querySelector('iframe'); f.width = '500'; f.height = '420'; }"
    )
    page.wait_for_function(
        "() => window.events.filter(e => e.type === 'tournoyons:size').length >= 2"
    )
    # The same size again posts nothing new.
    page.evaluate(
        "() => { const f = document.querySelector('iframe'); f.height = '421';"
        " f.getBoundingClientRect(); f.height = '420'; }"
    )
    settle(page)
    sizes = events(page, "size")
    assert sizes[-1] == {"type": "tournoyons:size", "width": 500, "height": 420}
    assert all(isinstance(s["width"], int) and isinstance(s["height"], int) for s in sizes)
    assert all(a != b for a, b in itertools.pairwise(sizes)), sizes  # only changes are posted
    assert len(sizes) <= 3, sizes


@pytest.mark.parametrize("host_param", ["Host=yes", "HOST=Yes", "host=oui"])
def test_host_plays_once(page: Page, live_server: str, watch: PageWatch, host_param: str) -> None:
    tag = new_tag()
    name, value = host_param.split("=")
    frame = embed(
        page,
        live_server,
        {
            "Set": "TicTacToe",
            "Tray": "120000000",
            "Input": "One",
            "URLReturn": sink(live_server, tag),
            name: value,
        },
    )
    # Unknown messages, an occupied cell, a value off the board, a play from elsewhere than
    # the parent: none plays (the first value returned below proves it).
    for message in [
        "hello",
        None,
        5,
        {"type": "tournoyons:nope", "value": "3"},
        {"type": "tournoyons:play"},
        {"type": "tournoyons:play", "value": "1"},
        {"type": "tournoyons:play", "value": "99"},
        {"type": "tournoyons:play", "value": ["3"]},
    ]:
        page.evaluate("m => window.send(m)", message)
    frame.evaluate("() => window.postMessage({type: 'tournoyons:play', value: '4'}, '*')")
    settle(page)
    assert events(page, "return") == []
    # Then a play, repeated, and another value: one return, the first valid value.
    page.evaluate(
        "() => { window.send({type: 'tournoyons:play', value: '5'});"
        " window.send({type: 'tournoyons:play', value: '5'});"
        " window.send({type: 'tournoyons:play', value: '6'}); }"
    )
    page.wait_for_function("() => window.events.some(e => e.type === 'tournoyons:return')")
    settle(page)
    assert events(page, "return") == [
        {"type": "tournoyons:return", "value": "5", "set": "TicTacToe"}
    ]
    assert frame.evaluate("() => document.documentElement.dataset.played") == "5"
    page.wait_for_function(
        "() => document.querySelector('iframe').contentDocument"
        ".querySelector('iframe.return').src !== ''"
    )
    for _ in range(20):
        if sink_values(live_server, tag):
            break
        page.wait_for_timeout(100)
    assert sink_values(live_server, tag) == ["5"]


@pytest.mark.parametrize("extra", [{}, {"Host": "no"}, {"Host": "yesplease"}])
def test_no_host_play_without_host_yes(
    page: Page, live_server: str, watch: PageWatch, extra: dict[str, str]
) -> None:
    frame = embed(
        page, live_server, {"Set": "TicTacToe", "Tray": "120000000", "Input": "One", **extra}
    )
    page.evaluate("() => window.send({type: 'tournoyons:play', value: '5'})")
    settle(page)
    assert events(page, "return") == []
    # The page was asking: a click still plays, and it is the one value returned.
    frame.locator('[data-cell="6"]').click()
    page.wait_for_function("() => window.events.some(e => e.type === 'tournoyons:return')")
    settle(page)
    assert [e["value"] for e in events(page, "return")] == ["6"]


def test_no_host_play_when_the_page_asks_nothing(
    page: Page, live_server: str, watch: PageWatch
) -> None:
    frame = embed(page, live_server, {"Set": "TicTacToe", "Tray": "120000000", "Host": "yes"})
    assert events(page, "ready")[0]["input"] is None
    page.evaluate("() => window.send({type: 'tournoyons:play', value: '5'})")
    settle(page)
    assert events(page, "return") == []
    assert frame.evaluate("() => document.documentElement.dataset.played") is None
