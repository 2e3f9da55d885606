"""Behaviour every Set shares, in real Chromium against the real server.

Spec ``interface-protocol.md`` sections 2 (parameters), 3 (returning a move, WebTest) and 6
(the page's public contract). Tests that hold for any Set are parametrised over the
registry, which includes the third-party Set ``Nim`` of ``tests/plugins`` (registered by
its entry point only). Each Set is driven from its own ``sample`` context, the one the
tester proposes, which asks a player for a move.
"""

from __future__ import annotations

import json
import urllib.request
import uuid
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Dialog, Locator, Page, expect

from interfaces.plugin import SetInterface
from interfaces.registry import load_registry
from tests.browser.conftest import RECORD_RETURNS, PageWatch, sink_values

REGISTRY = load_registry()
SETS = [pytest.param(interface, id=interface.key) for interface in REGISTRY]


RETURN_LOADED = (
    "() => document.querySelector('iframe.return').contentDocument"
    "?.querySelector('[data-return-value]') != null"
)

PAPER = "rgb(246, 241, 231)"  # the page's own background, without Color


def query(params: Mapping[str, str]) -> str:
    """Return ``params`` as a query string, values percent-encoded."""
    return "&".join(f"{name}={quote(value, safe='')}" for name, value in params.items())


def asking(interface: SetInterface, **extra: str) -> dict[str, str]:
    """Return the Set's sample context, asking a player for a move, plus ``extra``."""
    params = {"Set": interface.name, **interface.sample, **extra}
    params.setdefault("Input", "One")
    return params


def new_tag() -> str:
    """Return a tag unique to one test, to find its values in the sink's log."""
    return uuid.uuid4().hex


def sink(base: str, tag: str) -> str:
    """Return a URLReturn pointing at the server's sink with ``tag``."""
    return f"{base}/return?tag={tag}"


def sink_entries(base: str, tag: str) -> list[dict[str, Any]]:
    """Return the sink's log entries (value and every query parameter) carrying ``tag``."""
    with urllib.request.urlopen(f"{base}/return/log?tag={tag}", timeout=5) as answer:
        log: list[dict[str, Any]] = json.load(answer)
    return [entry for entry in log if entry["params"].get("tag") == tag]


def open_url(page: Page, url: str) -> None:
    """Load ``url`` with the return recorder installed and wait until the page is ready."""
    page.set_default_timeout(5000)
    page.add_init_script(RECORD_RETURNS)
    page.goto(url)
    expect(page.locator("html")).to_have_attribute("data-ready", "true")


def open_page(page: Page, base: str, params: Mapping[str, str]) -> None:
    """Load the interface page for ``params`` (which name the Set) and wait until ready."""
    open_url(page, f"{base}/?{query(params)}")


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
    return page.locator(f'[data-playable="true"][data-value="{v}"], '
                        f'[data-playable="true"][data-cell="{v}"]').first


def return_loads(page: Page) -> list[str]:
    """Return the URLs the page loaded (or tried to) in its return iframe."""
    loads: list[str] = page.evaluate("() => window.__returnLoads")
    return loads


def expect_single_return(page: Page, base: str, tag: str, value: str) -> None:
    """Assert that the page returned ``value`` once: one load asked, one value at the sink."""
    page.wait_for_function(RETURN_LOADED)
    assert return_loads(page) == [f"{sink(base, tag)}&ReturnValue={quote(value, safe='')}"]
    assert sink_values(base, tag) == [value]
    assert page.evaluate("() => window.tournoyons.lastValue") == value
    expect(page.locator("[data-playable='true']")).to_have_count(0)


def collect_dialogs(page: Page) -> list[str]:
    """Return a list that fills with every dialog the page opens (each is dismissed)."""
    dialogs: list[str] = []

    def on_dialog(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    return dialogs


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


@pytest.mark.parametrize(("name", "canonical"), [
    ("Tic-Tac-Toe", "TicTacToe"), ("CHIFOUMI", "Rochambeau"),
])
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
        s.name for s in REGISTRY]
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
    expect(page.locator("[data-set-link]")).to_have_count(len(REGISTRY))
    expect(page.locator("b")).to_have_count(0)
    forget_the_404_status(watch)


def test_method_none_without_set_is_an_empty_interface(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    open_url(page, f"{live_server}/?Method=None&Name1=MissOne&Name2=MrTwo&Legend=Bient%F4t")
    expect(page.locator("html")).to_have_attribute("data-method", "none")
    expect(page.locator("html")).to_have_attribute("data-set", "")
    expect(page.locator("iframe#interface")).to_have_count(0)
    expect(page.locator("[data-board]")).to_have_count(0)
    expect(page.locator("[data-error]")).to_have_count(0)
    expect(page.locator("[data-name='1']")).to_have_text("MissOne")
    expect(page.locator("[data-name='2']")).to_have_text("MrTwo")
    expect(page.locator("[data-legend]")).to_have_text("Bientôt")
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
    expect(page.locator("iframe#interface")).to_have_count(1)
    expect(page.locator("html[data-set]")).to_have_count(0)
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
    page.evaluate("""url => {
        window.received = [];
        window.addEventListener('message', e => {
            if (e.data && e.data.type === 'tournoyons:return') {
                window.received.push({...e.data, origin: e.origin});
            }
        });
        document.querySelector('iframe#interface').src = url;
    }""", f"{live_server}/?{query(asking(interface))}")
    frame = page.frame_locator("iframe#interface")
    expect(frame.locator("html")).to_have_attribute("data-ready", "true")
    playable = frame.locator("[data-playable='true']").first
    value = playable.get_attribute("data-value") or playable.get_attribute("data-cell")
    playable.dblclick()
    page.wait_for_function("() => window.received.length > 0")
    expect(frame.locator("[data-playable='true']")).to_have_count(0)
    assert page.evaluate("() => window.received") == [
        {"type": "tournoyons:return", "value": value, "set": interface.name,
         "origin": live_server}]


@pytest.mark.parametrize(("url_return", "loaded"), [
    ("/return?tag={tag}&game=G1", "{base}/return?tag={tag}&game=G1&ReturnValue=5"),
    ("/return?tag={tag}&", "{base}/return?tag={tag}&ReturnValue=5"),
    ("{base}/return?tag={tag}#end", "{base}/return?tag={tag}&ReturnValue=5#end"),
    ("return?tag={tag}&x=a%26b", "{base}/return?tag={tag}&x=a%26b&ReturnValue=5"),
])
def test_url_return_with_a_query_gets_the_value_appended(
    live_server: str, page: Page, watch: PageWatch, url_return: str, loaded: str
) -> None:
    tag = new_tag()
    url = url_return.format(base=live_server, tag=tag)
    open_page(page, live_server, {"Set": "TicTacToe", "Tray": "Init", "Input": "One",
                                  "URLReturn": url})
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


@pytest.mark.parametrize("url_return", [
    "javascript:alert(1)",
    "java\tscript:alert(1)",
    " javascript:alert(1)",
    "\x01javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
])
def test_url_return_that_is_not_http_is_never_loaded(
    live_server: str, page: Page, watch: PageWatch, url_return: str
) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    dialogs = collect_dialogs(page)
    open_page(page, live_server, {"Set": "TicTacToe", "Tray": "Init", "Input": "One",
                                  "URLReturn": url_return})
    error = page.locator("[data-error]")
    expect(error).to_be_visible()
    assert "urlreturn" in (error.get_attribute("data-error") or "").split()
    page.locator("[data-cell='5']").click()
    # The move is played and shown; it is not sent anywhere.
    expect(page.locator("[data-cell='5']")).to_have_attribute("data-state", "1")
    assert page.evaluate("() => window.tournoyons.lastValue") == "5"
    expect(page.locator("iframe.return")).to_have_attribute("src", "about:blank")
    assert return_loads(page) == []
    page.evaluate("() => new Promise(r => setTimeout(r, 0))")
    assert [url for url in requests if not url.startswith(live_server)] == []
    assert dialogs == []


# --- WebTest ------------------------------------------------------------------------------


@pytest.mark.parametrize("interface", SETS)
def test_webtest_holds_input_until_the_play_control(
    live_server: str, page: Page, watch: PageWatch, interface: SetInterface
) -> None:
    tag = new_tag()
    open_page(page, live_server, asking(interface, WebTest="yes",
                                        URLReturn=sink(live_server, tag)))
    tray_before = page.evaluate("() => window.tournoyons.tray()")
    assert page.evaluate("() => Webmaster('tray')") == tray_before
    listed: list[str] = page.evaluate(
        "() => JSON.parse(document.getElementById('tournoyons-context').textContent).playable")
    # Input is held off, even with Input given: nothing is playable, clicks and play() do
    # nothing.
    expect(page.locator("[data-playable]")).to_have_count(0)
    assert page.evaluate("() => window.tournoyons.inputOn") is False
    controls = page.locator("[data-value], [data-cell]")
    for element in controls.all()[:3]:
        element.click(force=True)
    controls.evaluate_all(
        "els => els.forEach(e => e.dispatchEvent(new MouseEvent('click', {bubbles: true})))")
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
    tag = new_tag()
    open_page(page, live_server, {"Set": "TicTacToe", "Tray": "100000000", "WebTest": "oui",
                                  "URLReturn": sink(live_server, tag)})
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
    open_page(page, live_server, {"Set": "TicTacToe", "Tray": "Init", "Input": "One",
                                  "WebTest": off})
    expect(page.locator("[data-webtest]")).to_have_count(0)
    expect(page.locator("[data-playable='true']")).to_have_count(9)


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
            "() => JSON.parse(document.getElementById('tournoyons-context').textContent).sound")
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


@pytest.mark.parametrize(("color", "background", "error"), [
    ("e0ecff", "rgb(224, 236, 255)", False),
    ("abc", "rgb(170, 187, 204)", False),
    ("#E0ECFF", "rgb(224, 236, 255)", False),
    ("red;x", PAPER, True),
    ("e0ecff;background:red", PAPER, True),
    ("ggg", PAPER, True),
])
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
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    dialogs = collect_dialogs(page)
    texts = {
        "Name1": "<img src=x onerror=alert(1)>",
        "Name2": '"><svg onload=alert(2)>',
        "Legend": "<script>alert(3)</script>&amp;",
        "Count": "<b>3</b>",
    }
    params = asking(interface, **texts)
    del params["Input"]
    open_page(page, live_server, params)
    for selector, name in (("[data-name='1']", "Name1"), ("[data-name='2']", "Name2"),
                           ("[data-legend]", "Legend"), ("[data-count]", "Count")):
        element = page.locator(selector)
        expect(element).to_be_visible()
        expect(element).to_have_text(texts[name])
        assert element.evaluate("e => e.children.length") == 0
    expect(page.locator("img")).to_have_count(0)
    expect(page.locator("svg[onload]")).to_have_count(0)
    expect(page.locator("body script")).to_have_count(1)  # the context block alone
    # Without Input nothing is playable, by click or by play().
    expect(page.locator("[data-playable]")).to_have_count(0)
    assert page.evaluate("() => ['1', '2', '3', 'A1'].map(v => tournoyons.play(v))") == [
        False] * 4
    assert return_loads(page) == []
    page.evaluate("() => new Promise(r => setTimeout(r, 0))")
    assert not [url for url in requests if url.endswith("/x")]
    assert dialogs == []


@pytest.mark.parametrize(("raw", "selector", "text"), [
    ("Legend=%E9t%E9", "[data-legend]", "été"),
    ("Legend=%u00E9t%u00E9", "[data-legend]", "été"),
    ("Legend=%C3%A9t%C3%A9", "[data-legend]", "été"),
    ("Legend=Partie+nulle+%21", "[data-legend]", "Partie nulle !"),
    ("Name2=Jos%C3%A9+%E9%C3%A9", "[data-name='2']", "José éé"),
    ("name1=%u263A%uD83D%uDE00", "[data-name='1']", "\u263a\U0001F600"),
])
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

VIEWPORTS = ((736, 660), (368, 330))


def expect_fits(page: Page, width: int, height: int) -> None:
    """Assert no scroll bar, and the board and texts wholly inside a ``width``x``height`` view."""
    page.set_viewport_size({"width": width, "height": height})
    sizes: dict[str, int] = page.evaluate(SCROLL)
    assert (sizes["iw"], sizes["ih"]) == (width, height)
    assert sizes["dw"] <= width and sizes["dh"] <= height, sizes
    # The body clips: what overflows it is out of sight, so nothing may.
    assert sizes["bw"] <= sizes["bcw"] and sizes["bh"] <= sizes["bch"], sizes
    boxes: list[dict[str, Any]] = page.locator(
        "[data-board], [data-name], [data-count], [data-legend], [data-error], [data-webtest],"
        " [data-webtest-output]"
    ).evaluate_all("""els => els.map(e => {
        const r = e.getBoundingClientRect();
        return {what: e.outerHTML.slice(0, 60), x: r.x, y: r.y, w: r.width, h: r.height};
    })""")
    assert boxes
    for box in boxes:
        assert box["w"] > 0 and box["h"] > 0, box
        assert box["x"] >= 0 and box["y"] >= 0, (width, box)
        assert box["x"] + box["w"] <= width + 0.5, (width, box)
        assert box["y"] + box["h"] <= height + 0.5, (width, box)


@pytest.mark.parametrize("interface", SETS)
def test_page_fits_the_frame_without_scroll_bars(
    live_server: str, page: Page, watch: PageWatch, interface: SetInterface
) -> None:
    """At 736x660 and at half that size, in three states: nothing scrolls or is cut off."""
    long = "W" * 150
    texts = {"Name1": "MissOne", "Name2": "MrTwo", "Legend": "Round 1", "Count": "1"}
    states: list[dict[str, str]] = [
        asking(interface, **texts),
        # Long texts, errors, WebTest controls with their output open, a Color.
        asking(interface, Name1=long, Name2=long, Legend=f"{long} {long}", Count="12345",
               WebTest="yes", Color="e0ecff", Wait="x", URLReturn="javascript:x"),
        asking(interface, **texts, Method="None"),
    ]
    for params in states:
        page.set_viewport_size({"width": 736, "height": 660})
        open_page(page, live_server, params)
        if params.get("WebTest"):
            expect(page.locator("body")).to_have_css("background-color", "rgb(224, 236, 255)")
            expect(page.locator("[data-error]")).to_be_visible()
            page.locator("[data-webtest='show']").click()
            page.locator("[data-webtest='play']").click()
            expect(page.locator("[data-webtest-output]")).to_be_visible()
        if params.get("Method") == "None":
            expect(page.locator("[data-board]")).to_have_count(0)
        else:
            expect(page.locator("[data-board]").first).to_be_visible()
        for width, height in VIEWPORTS:
            expect_fits(page, width, height)
    # Loaded in the small frame from the start, as a host would.
    page.set_viewport_size({"width": 368, "height": 330})
    open_page(page, live_server, states[0])
    expect_fits(page, 368, 330)
