"""Graphical interfaces in competition, in Chromium: the interface check finds
each fault the tests' outside interfaces have and none they lack, our own interfaces pass
it (run by the server's button), a game replayed through an outside interface, the compare
page stepping both frames, a person playing a whole TicTacToe game through an outside
interface against a built-in engine, and the tester playing a hot-seat game through one."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.arbitre_helpers import create_game, record, view, wait_over
from tests.browser.helpers import get_json, open_tester, query_of, values_returned
from tests.conftest import PLUGINS, ROOT
from tests.outside_interfaces import VARIANTS, OutsideInterfaces
from tests.runs import sets_of
from tournoyons_gui.interfaces.registry import load_registry

#: Our own Sets (the third party's Nim of tests/plugins aside).
OURS = [pytest.param(s.name, id=s.key) for s in load_registry() if s.key != "nim"]
#: The fault kinds the check names, as its faults begin.
KINDS = ("HTTP", "no answer", "console error", "does not fit", "added words", "a hostile text ran")


def kinds(faults: list[str]) -> set[str]:
    """Return the kinds of a context's faults."""
    return {kind for kind in KINDS for fault in faults if kind in fault}


def post_json(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` as JSON; return the JSON answered."""
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        found: dict[str, Any] = json.load(answer)
    return found


@pytest.fixture(scope="module")
def outside() -> Iterator[OutsideInterfaces]:
    """The tests' outside interfaces on 127.0.0.1."""
    with OutsideInterfaces().running() as pages:
        yield pages


@pytest.fixture(scope="module")
def registered(live_server: str, outside: OutsideInterfaces) -> dict[str, str]:
    """Each outside interface registered on the live server for TicTacToe: id by variant."""
    stamp = str(time.monotonic_ns())[-6:]
    return {
        variant: post_json(
            live_server + "/api/interfaces",
            {"name": f"{variant} {stamp}", "url": outside.url(variant), "sets": ["TicTacToe"]},
        )["id"]
        for variant in VARIANTS
    }


@pytest.fixture(scope="module")
def finished_game(live_server: str) -> dict[str, Any]:
    """A TicTacToe game between two built-in engines, over: its record."""
    created = create_game(
        live_server,
        "TicTacToe",
        [{"kind": "builtin", "engine": "random"}, {"kind": "builtin", "engine": "perfect"}],
    )
    return wait_over(live_server, created["id"])


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_check_reports_each_fault_and_none_it_lacks(
    outside: OutsideInterfaces, variant: str, tmp_path: Path
) -> None:
    sheet = tmp_path / "sheet.png"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGINS), str(ROOT)])}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tournoyons_gui.server.cli",
            "check-interface",
            outside.url(variant),
            "--set",
            "TicTacToe",
            "--json",
            "--sheet",
            str(sheet),
            # The plain page with ours beside it on the sheet; each faulty one alone.
            *([] if variant == "plain" else ["--alone"]),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        cwd=ROOT,
    )
    report = json.loads(done.stdout)
    expected = VARIANTS[variant]
    assert done.returncode == (0 if not expected else 1), done.stderr[-2000:]
    assert report["passed"] is (not expected)
    contexts = report["contexts"]
    assert len(contexts) >= 10 and all(c["status"] == 200 for c in contexts)
    assert all(c["ready_ms"] is not None and c["load_ms"] is not None for c in contexts)
    if variant == "plain":
        assert all(c["ours"].startswith("http://127.0.0.1:") for c in contexts)
    else:
        assert not any(c["ours"] for c in contexts)
    for context in contexts:
        found = kinds(context["faults"])
        if context["hostile"] and variant == "html-legend":
            assert "a hostile text ran" in found, context
        elif expected and expected != "a hostile text ran":
            assert found == {expected}, context
        else:
            assert found == set(), context
        if variant == "words":  # the page's own text and its style sheet's, nothing else
            assert context["words"] == ["Next", "Your", "move", "turn"], context
        else:  # X, O, coordinates (B2), numbers (3/9): no added word
            assert context["words"] == [], context
    assert sheet.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


#: The default run's checks (tests/runs.py): the reference two-seat grid and four-seat
#: Tarot's cards; the long run checks every one of our interfaces.
CHECKED = ("tictactoe", "tarot")


@pytest.mark.slow
@pytest.mark.parametrize("set_name", sets_of(OURS, CHECKED))
def test_our_interfaces_pass_the_check_run_by_the_server(
    live_server: str, page: Page, set_name: str
) -> None:
    key = set_name.lower()
    page.goto(f"{live_server}/interfaces/B-{key}")
    page.locator("[data-check-form] select").select_option(set_name)
    page.locator("[data-check]").click()
    expect(page.locator("[data-check-verdict]")).to_be_visible(timeout=600_000)
    rows = page.locator("[data-context]")
    assert rows.count() >= 10
    failing = page.locator("[data-context][data-passed='false']")
    assert failing.count() == 0, failing.all_inner_texts()
    expect(page.locator("[data-check-verdict]")).to_have_attribute("data-check-verdict", "pass")
    run = get_json(live_server, page.url.removeprefix(live_server) + ".json")
    assert run["finished"] and run["report"]["passed"] and run["done"] == run["total"]
    sheet = page.locator("[data-sheet]")
    expect(sheet).to_be_visible()
    assert sheet.evaluate("img => img.naturalHeight") > 660


def test_a_game_replayed_through_an_outside_interface(
    live_server: str, page: Page, registered: dict[str, str], finished_game: dict[str, Any]
) -> None:
    game_id = finished_game["id"]
    plain = registered["plain"]
    page.goto(f"{live_server}/games/{game_id}?interface={plain}&move=0")
    board = page.frame_locator("[data-board]")
    moves = len(finished_game["moves"])
    for number in range(moves + 1):
        if number:
            page.keyboard.press("ArrowRight")
        expect(page.locator("[data-game]")).to_have_attribute("data-move", str(number))
        expected = query_of(view(live_server, game_id, move=str(number))["src"])
        src = page.locator("[data-board]").get_attribute("src") or ""
        assert src.startswith("http://127.0.0.1:") and "/plain/?" in src
        assert query_of(src) == expected
        cells = expected["Tray"] if expected["Tray"] != "Init" else "0" * 9
        for cell, state in enumerate(cells, 1):
            expect(board.locator(f"[data-cell='{cell}']")).to_have_attribute("data-state", state)
    assert f"interface={plain}" in page.url


def test_the_compare_page_steps_both_frames(
    live_server: str, page: Page, registered: dict[str, str], finished_game: dict[str, Any]
) -> None:
    game_id = finished_game["id"]
    plain = registered["plain"]
    page.goto(f"{live_server}/games/{game_id}/compare?a=B-tictactoe&b={plain}&move=0")
    ours, theirs = page.frame_locator("[data-frame='a']"), page.frame_locator("[data-frame='b']")
    root = page.locator("[data-compare]")
    for number in range(1, len(finished_game["moves"]) + 1):
        page.keyboard.press("ArrowRight")
        expect(root).to_have_attribute("data-move", str(number))
        a = page.locator("[data-frame='a']").get_attribute("src") or ""
        b = page.locator("[data-frame='b']").get_attribute("src") or ""
        assert query_of(a) == query_of(b) and a.startswith("/tictactoe/?")
        move = finished_game["moves"][number - 1]
        assert query_of(b)[f"Move{move['seat'] + 1}"] == move["value"]
        for cell in range(1, 10):
            state = ours.locator(f"[data-cell='{cell}']").get_attribute("data-state")
            expect(theirs.locator(f"[data-cell='{cell}']")).to_have_attribute(
                "data-state", state or ""
            )
    page.keyboard.press("Home")
    expect(root).to_have_attribute("data-move", "0")
    assert "move=0" in page.url


def test_a_person_plays_a_whole_game_through_an_outside_interface(
    live_server: str, page: Page, registered: dict[str, str]
) -> None:
    created = create_game(live_server, "TicTacToe")
    plain = registered["plain"]
    page.goto(f"{live_server}{created['persons'][0]['url']}&interface={plain}")
    root = page.locator("[data-game]")
    board = page.frame_locator("[data-board]")
    played = 0
    while True:
        page.wait_for_function(
            """() => { const r = document.querySelector('[data-game]');
                return r.dataset.status !== 'playing' ||
                  (r.dataset.boardReady === 'true' && r.dataset.boardInput === 'One'); }""",
            timeout=30_000,
        )
        if root.get_attribute("data-status") != "playing":
            break
        src = page.locator("[data-board]").get_attribute("src") or ""
        assert "/plain/?" in src and query_of(src)["URLReturn"].startswith(f"{live_server}/play/")
        board.locator("[data-playable='true']").first.click()
        played += 1
        assert played <= 5
        page.wait_for_function(
            """src => document.querySelector('[data-game]').dataset.status !== 'playing' ||
                document.querySelector('[data-board]').getAttribute('src') !== src""",
            arg=src,
            timeout=30_000,
        )
    over = record(live_server, created["id"])
    assert over["status"] == "over"
    mine = [m for m in over["moves"] if m["seat"] == 0]
    assert len(mine) == played >= 3
    end = re.compile(r"/plain/\?.*[?&]Method=End(&|$)")
    expect(page.locator("[data-board]")).to_have_attribute("src", end)


def test_a_board_ready_before_the_page_script_is_still_heard(
    live_server: str, page: Page, registered: dict[str, str]
) -> None:
    # The game page's script arrives a second late (a slow network, a busy machine): the
    # outside board has loaded and posted tournoyons:ready by then, and the page must
    # still know its board is ready and asks for One's move (the CI run that lost it).
    def late(route: Any) -> None:
        time.sleep(1.0)
        route.continue_()

    page.route(re.compile(r".*/arbitre\.js(\?.*)?$"), late)
    created = create_game(live_server, "TicTacToe")
    page.goto(f"{live_server}{created['persons'][0]['url']}&interface={registered['plain']}")
    root = page.locator("[data-game]")
    expect(root).to_have_attribute("data-board-ready", "true", timeout=15_000)
    expect(root).to_have_attribute("data-board-input", "One")


def test_the_tester_plays_a_hot_seat_game_through_an_outside_interface(
    live_server: str, page: Page, outside: OutsideInterfaces
) -> None:
    # The tester's Interface URL field: the outside page gets the tester's query with an
    # absolute URLReturn, its moves come back to our sink, and the Set's rules go on.
    open_tester(page, live_server)
    page.locator("[data-interface-url]").fill(outside.url("plain"))
    page.locator("#set").select_option("TicTacToe")
    page.locator("input[name='Wait']").fill("0")
    page.locator("#new-game").click()
    frame = page.frame_locator("#interface")
    for number, cell in enumerate(["1", "4", "2", "5", "3"], 1):
        # The tester gives the frame its URL once the server has answered.
        outside_page = re.compile("^" + re.escape(outside.url("plain") + "?"))
        expect(page.locator("#interface")).to_have_attribute("src", outside_page)
        src = page.locator("#interface").get_attribute("src") or ""
        assert query_of(src)["URLReturn"].startswith(live_server + "/")
        expect(frame.locator("html")).to_have_attribute("data-ready", "true")
        frame.locator(f"[data-cell='{cell}'][data-playable='true']").click()
        page.wait_for_function("n => window.tester.returns.length >= n", arg=number)
    assert values_returned(page) == ["1", "4", "2", "5", "3"]
    end = re.compile(r"/plain/\?.*Method=End")
    expect(page.locator("#interface")).to_have_attribute("src", end)


@pytest.mark.slow
def test_the_servers_check_holds_the_page_to_its_outbound_policy(
    outside: OutsideInterfaces, tmp_path: Path
) -> None:
    """A public server's check once let its Chromium load whatever a registered page
    asked for, so a page could make the server read an internal address and show it on the
    contact sheet. The checked page's requests now go through the outbound policy: the
    page (its name allowed) is checked; an image from an internal address, directly or
    through a redirect, is refused and reported; neither it, nor a popup of it, nor a
    worker's WebSocket to that address ever reaches it."""
    from tests.arbitre.conftest import Served
    from tournoyons_gui.arbitre.web.guard import UNLIMITED

    served = Served(
        tmp_path / "public.sqlite3",
        listen=("0.0.0.0", 0),
        allow_hosts=("localhost",),
        limits=UNLIMITED,
    )
    try:
        url = outside.base.replace("127.0.0.1", "localhost") + "/peek/"
        answer = served.http.post(
            "/api/interfaces", json={"name": "Peek", "url": url, "sets": ["TicTacToe"]}
        )
        assert answer.status_code == 201, answer.text
        started = served.http.post(
            f"/interfaces/{answer.json()['id']}/check",
            data={"set": "TicTacToe"},
            headers={"Origin": served.base},
        )
        assert started.status_code == 303, started.text
        deadline = time.monotonic() + 300
        while True:
            run = served.http.get(started.headers["location"] + ".json").json()
            if run["finished"]:
                break
            assert time.monotonic() < deadline, run
            time.sleep(0.5)
        assert run["error"] == "" and run["report"]["passed"] is False
        contexts = run["report"]["contexts"]
        assert len(contexts) >= 10 and all(c["status"] == 200 for c in contexts)
        for context in contexts:
            assert context["ready_ms"] is not None, context  # the page itself was loaded
            for asked in ("/secret.png:", "/bounce:"):  # direct, and redirected there
                assert any(asked in r and "internal address" in r for r in context["refused"]), (
                    asked,
                    context,
                )
            assert any("refused by this server's policy" in f for f in context["faults"])
        assert outside.secret_hits == 0
    finally:
        served.stop()
