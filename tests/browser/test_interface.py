"""Behaviour every Set shares, in real Chromium against the real server.

Spec ``interface-protocol.md`` sections 2 (parameters), 3 (returning a move, WebTest) and 6
(the page's public contract). Tests that hold for any Set are parametrised over the
registry, which includes the third-party Set ``Nim`` of ``tests/plugins`` (registered by
its entry point only). Each Set is driven from its own ``sample`` context, the one the
tester proposes, which asks a player for a move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Dialog, FloatRect, Locator, Page, expect

from tests.browser.helpers import (
    RETURN_LOADED,
    PageWatch,
    expect_counts,
    expect_error,
    expect_single_return,
    expect_texts,
    interface_url,
    new_tag,
    open_page,
    open_returning,
    open_url,
    return_loads,
    sink,
    sink_entries,
)
from tests.tarot_deals import positions, seen_by
from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.interfaces.tarot.cards import Phase

REGISTRY = load_registry()
SETS = [pytest.param(interface, id=interface.key) for interface in REGISTRY]
SAMPLES = {interface.name: dict(interface.sample) for interface in REGISTRY}


PAPER = "rgb(246, 241, 231)"  # the page's own background, without Color


def asking(interface: SetInterface, **extra: str) -> dict[str, str]:
    """Return the Set's sample context, asking a player for a move, plus ``extra``."""
    params = {"Set": interface.name, **interface.sample, **extra}
    params.setdefault("Input", "One")
    return params


def first_playable(page: Page) -> str:
    """Return the value of the first control the person may play now."""
    control = page.locator("[data-playable='true']").first
    expect(control).to_be_visible()
    value = control.get_attribute("data-value") or control.get_attribute("data-cell")
    assert value
    return value


def control(page: Page, value: str) -> Locator:
    """Return the control that plays ``value``."""
    v = value.replace('"', '\\"')
    return page.locator(
        f'[data-playable="true"][data-value="{v}"], [data-playable="true"][data-cell="{v}"]'
    ).first


class Traffic:
    """What a page asks of the network and of the person: every URL it requests, every
    dialog it opens (each dismissed)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("dialog", self.dismiss)

    def dismiss(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def settled(self) -> list[str]:
        """Return the URLs requested once the page's pending tasks have run."""
        self.page.evaluate("() => new Promise(r => setTimeout(r, 0))")
        return self.requests


# --- the registry and the plugin system ---------------------------------------------------


def test_registry_holds_the_built_in_sets_and_the_third_party_one() -> None:
    assert {"TicTacToe", "Rochambeau", "Nim"} <= {s.name for s in REGISTRY}


@pytest.mark.parametrize("path", ["/nim/", "/NIM", "/?set=nim"])
def test_third_party_set_is_served_by_its_entry_point(
    live_server: str, page: Page, watch: PageWatch, path: str
) -> None:
    sep = "&" if "?" in path else "?"
    response = page.goto(f"{live_server}{path}{sep}Tray=5&Input=One&Name1=Ann")
    assert response is not None and response.status == 200
    expect(page.locator("html")).to_have_attribute("data-ready", "true")
    expect(page.locator("html")).to_have_attribute("data-set", "Nim")
    expect(page.locator("[data-board]")).to_have_attribute("data-matches", "5")
    expect(page.locator("[data-playable='true']")).to_have_count(3)
    expect(page.locator("[data-name='1']")).to_have_text("Ann")


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("Tic-Tac-Toe", "TicTacToe"),
        ("CHIFOUMI", "Rochambeau"),
    ],
)
def test_set_names_and_aliases_are_case_insensitive(
    live_server: str, page: Page, watch: PageWatch, name: str, canonical: str
) -> None:
    open_page(page, live_server, {"Set": name, "Input": "One"})
    expect(page.locator("html")).to_have_attribute("data-set", canonical)
    expect(page.locator("[data-board]")).to_be_visible()


def test_unknown_set_lists_the_sets_as_links(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    response = page.goto(f"{live_server}/?Set=Chess&Tray=Init&Input=One")
    assert response is not None and response.status == 404
    expect(page.locator("[data-error]")).to_have_attribute("data-error", "set")
    expect(page.locator("[data-error]")).to_be_visible()
    expect(page.get_by_text("Set=Chess")).to_be_visible()
    links = page.locator("[data-set-link]")
    expect(links).to_have_count(len(REGISTRY))
    assert links.evaluate_all("els => els.map(e => e.dataset.setLink)") == [
        s.name for s in REGISTRY
    ]
    for interface in REGISTRY:
        link = page.locator(f"[data-set-link='{interface.name}']")
        expect(link).to_be_visible()
        expect(link).to_have_text(interface.name)
    page.locator("[data-set-link='TicTacToe']").click()
    expect(page.locator("html")).to_have_attribute("data-set", "TicTacToe")
    expect(page.locator("html")).to_have_attribute("data-ready", "true")
    expect(page.locator("[data-playable='true']")).to_have_count(9)
    forget_the_404_status(watch)


def forget_the_404_status(watch: PageWatch) -> None:
    """Drop the one console error Chromium logs for a 404 document; any other stays."""
    logged = [error for error in watch.errors if "status of 404" in error]
    assert len(logged) == 1, watch.errors
    watch.errors.remove(logged[0])


def test_unknown_set_path_is_a_404_with_the_list(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    response = page.goto(f"{live_server}/chess/?Name1=%3Cb%3Ex%3C/b%3E")
    assert response is not None and response.status == 404
    expect_counts(page, {"[data-set-link]": len(REGISTRY), "b": 0})
    forget_the_404_status(watch)


def test_method_none_without_set_is_an_empty_interface(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    open_url(page, f"{live_server}/?Method=None&Name1=MissOne&Name2=MrTwo&Legend=Bient%F4t")
    expect(page.locator("html")).to_have_attribute("data-method", "none")
    expect(page.locator("html")).to_have_attribute("data-set", "")
    expect_counts(page, {"iframe#interface": 0, "[data-board]": 0, "[data-error]": 0})
    expect_texts(page, {"Name1": "MissOne", "Name2": "MrTwo", "Legend": "Bientôt"})
    assert page.evaluate("() => window.tournoyons.tray()") == ""


def test_no_set_without_method_none_is_an_empty_page_with_an_error(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    open_url(page, f"{live_server}/?Name1=MissOne&Input=One")
    expect(page.locator("html")).to_have_attribute("data-method", "none")
    expect(page.locator("[data-board]")).to_have_count(0)
    expect(page.locator("[data-error]")).to_have_attribute("data-error", "set")
    expect(page.locator("[data-name='1']")).to_have_text("MissOne")


def test_root_without_query_is_the_tester(live_server: str, page: Page, watch: PageWatch) -> None:
    response = page.goto(f"{live_server}/")
    assert response is not None and response.status == 200
    expect_counts(page, {"iframe#interface": 1, "html[data-set]": 0})
    options = page.locator("select#set option")
    assert options.all_inner_texts() == [s.name for s in REGISTRY]


# --- returning a value --------------------------------------------------------------------


def input_player(params: Mapping[str, str]) -> str:
    """Return ``"1"`` or ``"2"``: the player whose move ``params`` ask for."""
    return "2" if params["Input"].strip().lower() in ("two", "2") else "1"


@pytest.mark.parametrize("interface", SETS)
def test_a_move_is_returned_once_by_click_or_by_play(
    live_server: str, page: Page, watch: PageWatch, interface: SetInterface
) -> None:
    tag = new_tag()
    params = asking(interface, URLReturn=sink(live_server, tag))
    open_page(page, live_server, params)
    expect(page.locator("html")).to_have_attribute("data-input", input_player(params))
    assert page.evaluate("() => window.tournoyons.inputOn") is True
    value = first_playable(page)
    # play() makes the same checks as a click: a value not playable is refused.
    assert page.evaluate("() => window.tournoyons.play('not-a-value')") is False
    control(page, value).dblclick()
    assert page.evaluate("v => window.tournoyons.play(v)", value) is False
    expect_single_return(page, live_server, tag, value)
    expect(page.locator("html")).to_have_attribute("data-played", value)
    expect(page.locator("html")).not_to_have_attribute("data-input", input_player(params))
    assert page.evaluate("() => window.tournoyons.inputOn") is False


@pytest.mark.parametrize("interface", SETS)
def test_post_message_to_the_host(
    live_server: str, page: Page, watch: PageWatch, interface: SetInterface
) -> None:
    # The host is another site, as the Arbitre is: the tester, served from another origin
    # (localhost, where the page is 127.0.0.1), frames the page cross-origin.
    host = live_server.replace("127.0.0.1", "localhost")
    assert host != live_server
    page.set_default_timeout(5000)
    page.goto(f"{host}/")
    page.evaluate(
        """url => {
        window.received = [];
        window.addEventListener('message', e => {
            if (e.data && e.data.type === 'tournoyons:return') {
                window.received.push({...e.data, origin: e.origin});
            }
        });
        document.querySelector('iframe#interface').src = url;
    }""",
        interface_url(live_server, asking(interface)),
    )
    frame = page.frame_locator("iframe#interface")
    expect(frame.locator("html")).to_have_attribute("data-ready", "true")
    playable = frame.locator("[data-playable='true']").first
    value = playable.get_attribute("data-value") or playable.get_attribute("data-cell")
    playable.dblclick()
    page.wait_for_function("() => window.received.length > 0")
    expect(frame.locator("[data-playable='true']")).to_have_count(0)
    assert page.evaluate("() => window.received") == [
        {"type": "tournoyons:return", "value": value, "set": interface.name, "origin": live_server}
    ]


@pytest.mark.parametrize(
    ("url_return", "loaded"),
    [
        ("/return?tag={tag}&game=G1", "{base}/return?tag={tag}&game=G1&ReturnValue=5"),
        ("/return?tag={tag}&", "{base}/return?tag={tag}&ReturnValue=5"),
        ("{base}/return?tag={tag}#end", "{base}/return?tag={tag}&ReturnValue=5#end"),
        ("return?tag={tag}&x=a%26b", "{base}/return?tag={tag}&x=a%26b&ReturnValue=5"),
    ],
)
def test_url_return_with_a_query_gets_the_value_appended(
    live_server: str, page: Page, watch: PageWatch, url_return: str, loaded: str
) -> None:
    tag = new_tag()
    url = url_return.format(base=live_server, tag=tag)
    open_page(
        page, live_server, {"Set": "TicTacToe", "Tray": "Init", "Input": "One", "URLReturn": url}
    )
    page.locator("[data-cell='5']").click()
    page.wait_for_function(RETURN_LOADED)
    assert return_loads(page) == [loaded.format(base=live_server, tag=tag)]
    entries = sink_entries(live_server, tag)
    assert [entry["value"] for entry in entries] == ["5"]
    params = entries[0]["params"]
    assert params["tag"] == tag
    if "game=" in url:
        assert params["game"] == "G1"
    if "x=" in url:
        assert params["x"] == "a&b"


@pytest.mark.parametrize(
    "url_return",
    [
        "javascript:alert(1)",
        "java\tscript:alert(1)",
        " javascript:alert(1)",
        "\x01javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
    ],
)
def test_url_return_that_is_not_http_is_never_loaded(
    live_server: str, page: Page, watch: PageWatch, url_return: str
) -> None:
    traffic = Traffic(page)
    open_page(
        page,
        live_server,
        {"Set": "TicTacToe", "Tray": "Init", "Input": "One", "URLReturn": url_return},
    )
    expect_error(page, "urlreturn")
    page.locator("[data-cell='5']").click()
    # The move is played and shown; it is not sent anywhere.
    expect(page.locator("[data-cell='5']")).to_have_attribute("data-state", "1")
    assert page.evaluate("() => window.tournoyons.lastValue") == "5"
    expect(page.locator("iframe.return")).to_have_attribute("src", "about:blank")
    assert return_loads(page) == []
    assert [url for url in traffic.settled() if not url.startswith(live_server)] == []
    assert traffic.dialogs == []


# --- WebTest ------------------------------------------------------------------------------


@pytest.mark.parametrize("interface", SETS)
def test_webtest_holds_input_until_the_play_control(
    live_server: str, page: Page, watch: PageWatch, interface: SetInterface
) -> None:
    tag = new_tag()
    open_page(page, live_server, asking(interface, WebTest="yes", URLReturn=sink(live_server, tag)))
    tray_before = page.evaluate("() => window.tournoyons.tray()")
    assert page.evaluate("() => Webmaster('tray')") == tray_before
    listed: list[str] = page.evaluate(
        "() => JSON.parse(document.getElementById('tournoyons-context').textContent).playable"
    )
    # Input is held off, even with Input given: nothing is playable, clicks and play() do
    # nothing.
    expect(page.locator("[data-playable]")).to_have_count(0)
    assert page.evaluate("() => window.tournoyons.inputOn") is False
    controls = page.locator("[data-value], [data-cell]")
    for element in controls.all()[:3]:
        element.click(force=True)
    controls.evaluate_all(
        "els => els.forEach(e => e.dispatchEvent(new MouseEvent('click', {bubbles: true})))"
    )
    # (A Set whose value is composed on the page, MasterMind's code, lists none.)
    for held in listed[:3]:
        assert page.evaluate("v => window.tournoyons.play(v)", held) is False
    assert return_loads(page) == []

    # The show control reveals the board value and the last value (none yet).
    output = page.locator("[data-webtest-output]")
    expect(output).to_be_hidden()
    page.locator("[data-webtest='show']").click()
    expect(output).to_be_visible()
    expect(page.locator("[data-webtest='show']")).to_have_attribute("aria-expanded", "true")
    expect(page.locator("[data-webtest-tray]")).to_have_text(tray_before)
    expect(page.locator("[data-webtest-value]")).to_have_text("\u2205")

    # The play control hands input to the player.
    play = page.locator("[data-webtest='play']")
    expect(play).to_be_enabled()
    play.click()
    expect(play).to_be_disabled()
    assert page.evaluate("() => window.tournoyons.inputOn") is True
    value = first_playable(page)
    expect(control(page, value)).to_be_enabled()
    # play(value) plays as a click does, once.
    assert page.evaluate("v => [tournoyons.play(v), tournoyons.play(v)]", value) == [True, False]
    expect_single_return(page, live_server, tag, value)
    tray_after = page.evaluate("() => window.tournoyons.tray()")
    assert page.evaluate("() => Webmaster('tray')") == tray_after
    expect(page.locator("[data-webtest-value]")).to_have_text(value)
    expect(page.locator("[data-webtest-tray]")).to_have_text(tray_after)
    # Once played, the play control cannot give input back.
    play.click(force=True)
    expect(page.locator("[data-playable]")).to_have_count(0)
    page.locator("[data-webtest='show']").click()
    expect(output).to_be_hidden()


def test_webtest_without_input_plays_for_the_player_to_move(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    tag = open_returning(
        page, live_server, {"Set": "TicTacToe", "Tray": "100000000", "WebTest": "oui"}
    )
    expect(page.locator("[data-playable]")).to_have_count(0)
    assert page.evaluate("() => Webmaster('tray')") == "100000000"
    page.locator("[data-webtest='play']").click()
    expect(page.locator("[data-playable='true']")).to_have_count(8)
    page.locator("[data-cell='9']").click()
    expect(page.locator("[data-cell='9']")).to_have_attribute("data-state", "2")
    expect_single_return(page, live_server, tag, "9")
    assert page.evaluate("() => [Webmaster('tray'), tournoyons.tray()]") == ["100000002"] * 2


@pytest.mark.parametrize("off", ["no", "NON", "false", ""])
def test_webtest_off_values_show_no_controls(
    live_server: str, page: Page, watch: PageWatch, off: str
) -> None:
    open_page(
        page, live_server, {"Set": "TicTacToe", "Tray": "Init", "Input": "One", "WebTest": off}
    )
    expect_counts(page, {"[data-webtest]": 0, "[data-playable='true']": 9})


# --- Mute, Color, texts -------------------------------------------------------------------


@pytest.mark.parametrize("interface", SETS)
def test_mute_silences_the_move_sound(
    live_server: str, page: Page, watch: PageWatch, interface: SetInterface
) -> None:
    for mute in (False, True):
        tag = new_tag()
        params = asking(interface, URLReturn=sink(live_server, tag))
        if mute:
            params["Mute"] = "1"
        open_page(page, live_server, params)
        # A sample showing a move sounds once drawn: let that sound come first.
        drawn = page.evaluate(
            "() => JSON.parse(document.getElementById('tournoyons-context').textContent).sound"
        )
        if drawn and not mute:
            page.wait_for_function("s => window.tournoyons.sounds.includes(s)", arg=drawn)
        before: list[str] = page.evaluate("() => window.tournoyons.sounds")
        control(page, first_playable(page)).click()
        page.wait_for_function(RETURN_LOADED)
        if mute:
            assert page.evaluate("() => window.tournoyons.sounds") == []
        else:
            page.wait_for_function("n => window.tournoyons.sounds.length > n", arg=len(before))
            assert page.evaluate("() => window.tournoyons.sounds") == [*before, "move"]


@pytest.mark.parametrize(
    ("color", "background", "error"),
    [
        ("e0ecff", "rgb(224, 236, 255)", False),
        ("abc", "rgb(170, 187, 204)", False),
        ("#E0ECFF", "rgb(224, 236, 255)", False),
        ("red;x", PAPER, True),
        ("e0ecff;background:red", PAPER, True),
        ("ggg", PAPER, True),
    ],
)
def test_color_is_the_background_unless_not_hex(
    live_server: str, page: Page, watch: PageWatch, color: str, background: str, error: bool
) -> None:
    open_page(page, live_server, {"Set": "TicTacToe", "Tray": "Init", "Color": color})
    expect(page.locator("body")).to_have_css("background-color", background)
    if error:
        expect(page.locator("[data-error]")).to_have_attribute("data-error", "color")
        expect(page.locator("[data-error]")).to_be_visible()
    else:
        expect(page.locator("[data-error]")).to_have_count(0)


@pytest.mark.parametrize("interface", SETS)
def test_texts_are_shown_as_text_never_as_html_and_input_is_off(
    live_server: str, page: Page, watch: PageWatch, interface: SetInterface
) -> None:
    traffic = Traffic(page)
    texts = {
        "Name1": "<img src=x onerror=alert(1)>",
        "Name2": '"><svg onload=alert(2)>',
        "Legend": "<script>alert(3)</script>&amp;",
        "Count": "<b>3</b>",
    }
    params = asking(interface, **texts)
    del params["Input"]
    open_page(page, live_server, params)
    for selector, name in (
        ("[data-name='1']", "Name1"),
        ("[data-name='2']", "Name2"),
        ("[data-legend]", "Legend"),
        ("[data-count]", "Count"),
    ):
        element = page.locator(selector)
        expect(element).to_be_visible()
        expect(element).to_have_text(texts[name])
        assert element.evaluate("e => e.children.length") == 0
    expect_counts(page, {"img": 0, "svg[onload]": 0})
    expect(page.locator("body script")).to_have_count(1)  # the context block alone
    # Without Input nothing is playable, by click or by play().
    expect(page.locator("[data-playable]")).to_have_count(0)
    assert page.evaluate("() => ['1', '2', '3', 'A1'].map(v => tournoyons.play(v))") == [False] * 4
    assert return_loads(page) == []
    assert not [url for url in traffic.settled() if url.endswith("/x")]
    assert traffic.dialogs == []


@pytest.mark.parametrize(
    ("raw", "selector", "text"),
    [
        ("Legend=%E9t%E9", "[data-legend]", "été"),
        ("Legend=%u00E9t%u00E9", "[data-legend]", "été"),
        ("Legend=%C3%A9t%C3%A9", "[data-legend]", "été"),
        ("Legend=Partie+nulle+%21", "[data-legend]", "Partie nulle !"),
        ("Name2=Jos%C3%A9+%E9%C3%A9", "[data-name='2']", "José éé"),
        ("name1=%u263A%uD83D%uDE00", "[data-name='1']", "\u263a\U0001f600"),
    ],
)
def test_legacy_and_utf8_percent_encodings_decode(
    live_server: str, page: Page, watch: PageWatch, raw: str, selector: str, text: str
) -> None:
    open_url(page, f"{live_server}/?Set=TicTacToe&Tray=Init&{raw}")
    expect(page.locator(selector)).to_have_text(text)
    expect(page.locator(selector)).to_be_visible()


# --- fitting the Arbitre's frame ----------------------------------------------------------

SCROLL = """() => {
  const d = document.documentElement, b = document.body;
  return {dw: d.scrollWidth, dh: d.scrollHeight, bw: b.scrollWidth, bh: b.scrollHeight,
          bcw: b.clientWidth, bch: b.clientHeight, iw: innerWidth, ih: innerHeight};
}"""

BOXES = """els => els.map(e => {
  const r = e.getBoundingClientRect();
  return {what: e.outerHTML.slice(0, 60), x: r.x, y: r.y, w: r.width, h: r.height};
})"""

VIEWPORTS = ((736, 660), (368, 330))
# What every page with a board shows, each element wholly in the frame.
FRAMED = (
    "[data-board], [data-name], [data-count], [data-legend], [data-error], [data-webtest],"
    " [data-webtest-output]"
)
LONG = "W" * 150


def expect_inside(page: Page, selector: str, width: int, height: int, shown: bool = True) -> int:
    """Assert that every element matching ``selector`` is drawn wholly inside a ``width`` x
    ``height`` view (one not drawn, of no width or height, fails; or is left out if ``shown``
    is false); return how many were checked."""
    boxes: list[dict[str, Any]] = page.locator(selector).evaluate_all(BOXES)
    if not shown:
        boxes = [box for box in boxes if box["w"] > 0 and box["h"] > 0]
    for box in boxes:
        assert box["w"] > 0 and box["h"] > 0, box
        assert box["x"] >= 0 and box["y"] >= 0, (width, box)
        assert box["x"] + box["w"] <= width + 0.5, (width, box)
        assert box["y"] + box["h"] <= height + 0.5, (width, box)
    return len(boxes)


def expect_fits(page: Page, width: int, height: int, shown: bool = True) -> None:
    """Assert no scroll bar, and the board and texts wholly inside a ``width``x``height`` view
    (each of them drawn, unless ``shown`` is false)."""
    page.set_viewport_size({"width": width, "height": height})
    sizes: dict[str, int] = page.evaluate(SCROLL)
    assert (sizes["iw"], sizes["ih"]) == (width, height)
    assert sizes["dw"] <= width and sizes["dh"] <= height, sizes
    # The body clips: what overflows it is out of sight, so nothing may.
    assert sizes["bw"] <= sizes["bcw"] and sizes["bh"] <= sizes["bch"], sizes
    assert expect_inside(page, FRAMED, width, height, shown) > 0


def box_of(scope: Page | Locator, selector: str) -> FloatRect:
    """Return the box of the first element matching ``selector``, which must be shown."""
    box = scope.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


# Each Set's own part of the fit, run at every size on each of its own pages: the room its
# board takes, and its own controls wholly in the frame.


def bigtictactoe_fit(page: Page, params: Mapping[str, str], width: int, height: int) -> None:
    """The scores in the frame; the board uses the room it has."""
    expect_inside(page, "[data-gain='2']", width, height)
    a0, j9 = box_of(page, "[data-cell='A0']"), box_of(page, "[data-cell='J9']")
    assert j9["x"] - a0["x"] > 0.5 * min(width, height)
    assert a0["width"] >= 0.06 * min(width, height)


# A ConnectFour board filled without a line of four (the rules' draw).
CONNECTFOUR_FULL = "212112112221212111222212121212112112112122"


def connectfour_fit(page: Page, params: Mapping[str, str], width: int, height: int) -> None:
    """The four corner cells in the frame, and the strip above the board where the disc
    about to drop is shown; the board's six rows take over half the height."""
    expect_inside(
        page,
        "[data-cell='A6'], [data-cell='G6'], [data-cell='A1'], [data-cell='G1']",
        width,
        height,
    )
    top, bottom = box_of(page, "[data-cell='A6']"), box_of(page, "[data-cell='G1']")
    assert top["y"] - top["height"] >= 0
    assert bottom["y"] + bottom["height"] - top["y"] >= 0.5 * height


def mastermind_fit(page: Page, params: Mapping[str, str], width: int, height: int) -> None:
    """Both boards, their lines and codes, the palette and its controls in the frame; the
    boards side by side."""
    drawn = expect_inside(
        page,
        "[data-board], [data-line], [data-code], [data-pick],"
        " [data-validate], [data-erase], .players",
        width,
        height,
        shown=False,
    )
    assert drawn >= 2 + 16 + 2
    one, two = box_of(page, "[data-board='1']"), box_of(page, "[data-board='2']")
    assert one["x"] + one["width"] <= two["x"]
    assert abs(one["y"] - two["y"]) < 1


def pente_fit(page: Page, params: Mapping[str, str], width: int, height: int) -> None:
    """The board takes most of the height; every point is on screen, what the pointer hits
    there, and at least 22 px from the next at 736x660."""
    scale = min(width / 736, height / 660)
    assert box_of(page, ".pente")["height"] >= 500 * scale
    boxes = {name: box_of(page, f"[data-cell='{name}']") for name in ("AA", "SA", "AS", "SS", "JJ")}
    for name, box in boxes.items():
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        assert 0 <= x <= width and 0 <= y <= height, name
        hit = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.getAttribute('data-cell')", [x, y]
        )
        assert hit == name
    assert (boxes["SA"]["x"] - boxes["AA"]["x"]) / 18 >= 22 * scale


def poker_fit(page: Page, params: Mapping[str, str], width: int, height: int) -> None:
    """The cards, the betting controls and the scores given, in the frame."""
    scores = ", [data-gain]" if "Gain1" in params else ""
    expect_inside(page, f".pk-controls, .pk-controls button, [data-card]{scores}", width, height)


REVERSI_MUST_PASS = {
    "Tray": "0004000003883000444840004448400003443000000003000000000000000000",
    "Move2": "D1",
    "Count": "16",
    "Input": "One",
    "Legend": "Je passe",
}


def reversi_fit(page: Page, params: Mapping[str, str], width: int, height: int) -> None:
    """A corner and the scores in the frame, the board three quarters of its height; the
    pass control, when asked, beside the board."""
    expect_inside(page, "[data-cell='H8'], [data-gain='2']", width, height)
    board = box_of(page, "[data-board]")
    assert board["height"] >= 0.75 * height
    if params.get("Tray") == REVERSI_MUST_PASS["Tray"]:
        expect_inside(page, "button[data-value='XX']", width, height)
        button = box_of(page, "button[data-value='XX']")
        assert button["x"] + button["width"] <= board["x"]


def seafight_fit(page: Page, params: Mapping[str, str], width: int, height: int) -> None:
    """The players, the fleets and the tools in the frame; preparing, the validate control."""
    expect_inside(page, ".players, [data-fleet], .pship, .sf-tools button", width, height)
    if params.get("Method") == "Prepare":
        expect(page.locator("[data-action='validate']")).to_be_visible()


def tarot_pages() -> tuple[dict[str, str], ...]:
    """Tarot's own pages (tarot.md section 3), four long names: the bids asked, the taker's
    écart (24 cards in hand, the validation control), a card asked in the play, and a deal's
    end (every hand face up, the four totals), from a deal of ``tests/tarot_deals.py``."""
    names = {f"Name{seat}": LONG for seat in range(1, 5)}
    gains = {"Gain1": "-1234", "Gain2": "+1234", "Gain3": "-600", "Gain4": "+600"}
    deal = list(positions(2, bids=(0, 2, 0, 0)))
    asked = [
        next(p for p in deal if p.tray.phase is phase)
        for phase in (Phase.BIDDING, Phase.ECART, Phase.PLAY)
    ]
    words = {1: "One", 2: "Two", 3: "Three", 4: "Four"}
    return (
        *(
            {
                **names,
                "Tray": seen_by(p.tray, p.acting).text(),
                "Input": words[p.acting or 1],
                "Legend": LONG,
            }
            for p in asked
        ),
        {**names, **gains, "Tray": deal[-1].tray.text(), "Method": "End", "Count": "77"},
    )


def tarot_fit(page: Page, params: Mapping[str, str], width: int, height: int) -> None:
    """The four seats' plates and cards, the trick, the bids and the écart's validation
    when asked, in the frame."""
    drawn = expect_inside(
        page,
        ".tr-plate, [data-hand] .tr-card, [data-trick] .tr-card, [data-bid], [data-ecart]",
        width,
        height,
    )
    assert drawn >= (4 + 18 if "Input" in params else 4)


@dataclass(frozen=True)
class Fit:
    """A Set's own part of the fit check: its own pages (other Methods, a pass, a showdown,
    its controls in play), and what its layout must do on them besides fitting."""

    pages: tuple[Mapping[str, str], ...]
    check: Callable[[Page, Mapping[str, str], int, int], None]


LONG_TEXTS = {"Name1": LONG, "Name2": LONG, "Legend": f"{LONG} {LONG}"}
FITS = {
    "BigTicTacToe": Fit(
        ({**SAMPLES["BigTicTacToe"], "Legend": "Round 1", "WebTest": "yes"},), bigtictactoe_fit
    ),
    "ConnectFour": Fit(
        (
            {"Tray": CONNECTFOUR_FULL, "Method": "End", **LONG_TEXTS, "Count": "42"},
            {**SAMPLES["ConnectFour"], **LONG_TEXTS, "WebTest": "yes"},
        ),
        connectfour_fit,
    ),
    "MasterMind": Fit(
        (
            {**SAMPLES["MasterMind"], "Legend": LONG, "WebTest": "yes"},
            {"Method": "Prepare", "Input": "One", "Legend": "Code", "Name1": LONG, "Name2": LONG},
            {
                "Method": "End",
                "Tray": "00ABCD" * 8 + "***" + "00ABCD" * 7 + "40ABCD",
                "Gain1": "ABCD",
                "Gain2": "ABCD",
                "Count": "16",
            },
        ),
        mastermind_fit,
    ),
    "Pente": Fit(({**SAMPLES["Pente"], **LONG_TEXTS, "WebTest": "yes"},), pente_fit),
    "Poker": Fit(
        (
            {
                "Tray": "01002????C3SKM12-?2",
                "Input": "Two",
                **LONG_TEXTS,
                "Gain1": "-1234",
                "Gain2": "1234",
                "Count": "99",
                "WebTest": "yes",
            },  # answering: call, raise
            {
                "Tray": "01009H2H9S5S6H4HKH7D8CJM12-12",
                "Input": "One",
                "Legend": "x",
                "Name1": "MissOne",
                "Name2": "MrTwo",
            },  # the showdown, acknowledged
        ),
        poker_fit,
    ),
    "Reversi": Fit(({**REVERSI_MUST_PASS, "Name1": "MissOne", "Name2": "MrTwo"},), reversi_fit),
    "Seafight": Fit(
        tuple(
            {
                **SAMPLES["Seafight"],
                **LONG_TEXTS,
                "Method": method,
                "Count": "12345",
                "Gain2": "V5B11H4E31V3J51H3D81H2G01",
                "WebTest": "yes",
            }  # both whole fleets
            for method in ("Prepare", "Double")
        ),
        seafight_fit,
    ),
    "Tarot": Fit(tarot_pages(), tarot_fit),
}


def show_at_full_size(page: Page, base: str, params: Mapping[str, str]) -> None:
    """Open the page for ``params`` at 736x660; with ``Color``, the page of long texts and
    errors, open its WebTest output; with WebTest, hand input to the player."""
    page.set_viewport_size({"width": 736, "height": 660})
    open_page(page, base, params)
    if params.get("Color"):
        expect(page.locator("body")).to_have_css("background-color", "rgb(224, 236, 255)")
        expect(page.locator("[data-error]")).to_be_visible()
        page.locator("[data-webtest='show']").click()
    if params.get("WebTest"):
        page.locator("[data-webtest='play']").click()
    if params.get("Color"):
        expect(page.locator("[data-webtest-output]")).to_be_visible()
    if params.get("Method") == "None":
        expect(page.locator("[data-board]")).to_have_count(0)
    else:
        expect(page.locator("[data-board]").first).to_be_visible()


@pytest.mark.slow
@pytest.mark.parametrize("interface", SETS)
def test_page_fits_the_frame_without_scroll_bars(
    live_server: str, page: Page, watch: PageWatch, interface: SetInterface
) -> None:
    """At 736x660 and at half that size, in three states and on the Set's own pages: nothing
    scrolls or is cut off, and the Set's own layout holds."""
    texts = {"Name1": "MissOne", "Name2": "MrTwo", "Legend": "Round 1", "Count": "1"}
    states: list[dict[str, str]] = [
        asking(interface, **texts),
        # Long texts, errors, WebTest controls with their output open, a Color.
        asking(
            interface,
            Name1=LONG,
            Name2=LONG,
            Legend=f"{LONG} {LONG}",
            Count="12345",
            WebTest="yes",
            Color="e0ecff",
            Wait="x",
            URLReturn="javascript:x",
        ),
        asking(interface, **texts, Method="None"),
    ]
    for params in states:
        show_at_full_size(page, live_server, params)
        for width, height in VIEWPORTS:
            expect_fits(page, width, height)
    if fit := FITS.get(interface.name):
        for extra in fit.pages:
            show_at_full_size(page, live_server, {"Set": interface.name, **extra})
            for width, height in VIEWPORTS:
                expect_fits(page, width, height, shown=False)
                fit.check(page, extra, width, height)
    # Loaded in the small frame from the start, as a host would.
    page.set_viewport_size({"width": 368, "height": 330})
    open_page(page, live_server, states[0])
    expect_fits(page, 368, 330)
