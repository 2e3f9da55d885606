"""The front page and the ladder's pages in real Chromium, on a real ``serve --ladder``
whose ladder Connect Four engines of the tests' own play (tests/arbitre/ladder_engines.py):
the games in play drawn small and moving live (one stream of events), the leaders, the
new-game form one click away; every Set's ladder and a Set's table, each engine linked to
its page and its standing there; the same pages complete without JavaScript; no
accessibility violation (axe-core) and no script or console error."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, Page, expect

from tests.arbitre.ladder_engines import LadderEngines
from tests.browser.helpers import PageWatch
from tests.conftest import _serving, start_server

#: The engines, strongest first.
ENGINES = ("strong", "weak", "random")
AXE = Axe()
#: A frame drawing a ConnectFour position through our own interface.
ENGINE_PAGE = re.compile(r"/connectfour/\?Set=ConnectFour&")


@pytest.fixture(scope="module")
def ladder_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``serve --ladder`` with the three engines on ConnectFour's ladder, each ranked (ten
    rated games) and ranked by strength before the tests look (a few games more, if the
    first ten left two close: the ladder's order by strength is the Arbitre tests' claim,
    these pages' is to show it); then their moves slowed (a game lasts a few seconds:
    there is always one to watch). Yields the server's base URL."""
    database = tmp_path_factory.mktemp("ladder") / "arbitre.sqlite3"
    with LadderEngines().running() as engines:
        serving = _serving(start_server(database, "--ladder", "--ladder-timeout", "4"))
        base = next(serving)
        try:
            with httpx.Client(base_url=base, timeout=30, trust_env=False) as http:
                for name in ENGINES:
                    made = http.post(
                        "/api/engines",
                        json={
                            "name": name,
                            "url": f"{engines.base}/{name}",
                            "sets": ["ConnectFour"],
                            "kind": "sync",
                            "ladder": True,
                        },
                    )
                    assert made.status_code == 201, made.text
                deadline = time.monotonic() + 120
                while True:
                    table = http.get("/api/ladder/ConnectFour").json()["engines"]
                    ranked = all(row["rank"] is not None for row in table)
                    if ranked and tuple(row["name"] for row in table) == ENGINES:
                        break
                    assert time.monotonic() < deadline, table
                    time.sleep(0.3)
            engines.delay = 0.3
            yield base
        finally:
            next(serving, None)


def _playing(base: str) -> bool:
    """Whether a game has just started (a few moves: it has many more to come)."""
    with httpx.Client(base_url=base, timeout=10, trust_env=False) as http:
        return any(
            g["status"] == "playing" and g["moves"] < 4
            for g in http.get("/api/games").json()["rows"]
        )


@pytest.mark.slow
def test_the_front_page_draws_the_games_in_play_live(
    ladder_server: str, page: Page, watch: PageWatch
) -> None:
    deadline = time.monotonic() + 30
    while not _playing(ladder_server):
        assert time.monotonic() < deadline, "no ladder game in play"
        time.sleep(0.2)
    page.goto(ladder_server + "/arbitre")
    tile = page.locator("[data-tile]").first  # the newest game
    expect(tile).to_be_visible()
    expect(tile.locator("iframe[data-mini]")).to_have_attribute("src", ENGINE_PAGE)
    expect(tile.locator(".badge")).to_have_text("ladder")
    # What it shows now, read at once (the page may change between two reads).
    moves, source = tile.evaluate(
        "t => [Number(t.dataset.moves), t.querySelector('iframe').getAttribute('src')]"
    )
    # Live: the tile's moves and its board follow the game, without a reload.
    page.wait_for_function(
        "([tile, moves]) => Number(tile.dataset.moves) > moves",
        arg=[tile.element_handle(), moves],
        timeout=20_000,
    )
    assert tile.locator("iframe[data-mini]").get_attribute("src") != source
    expect(tile.locator("[data-tile-moves]")).not_to_have_text(str(moves))
    # The leaders, strongest first, each linked to its page.
    leaders = page.locator("[data-leader-set='ConnectFour'] [data-leaders] li a")
    expect(leaders).to_have_text(list(ENGINES))
    assert int((page.locator("[data-games-total]").text_content() or "0").replace(",", "")) >= 15
    # The new-game form, one click away.
    page.get_by_role("link", name="Start a game").click()
    page.wait_for_url("**/arbitre/new")
    expect(page.locator("[data-new-game]")).to_be_visible()


@pytest.mark.slow
def test_the_ladder_pages_link_each_engine_to_its_standing(
    ladder_server: str, page: Page, watch: PageWatch
) -> None:
    page.goto(ladder_server + "/ladder")
    section = page.locator("[data-ladder-set='ConnectFour']")
    expect(section.locator("[data-leaders] li a")).to_have_text(list(ENGINES))
    assert int(section.locator("[data-games-today]").text_content() or "0") >= 15
    section.get_by_role("link", name="ConnectFour").click()
    page.wait_for_url("**/ladder/ConnectFour")
    rows = page.locator("[data-ladder-row]")
    expect(rows).to_have_count(3)
    expect(rows.locator("[data-engine-link]")).to_have_text(list(ENGINES))
    expect(rows.locator("[data-rank]")).to_have_text(["1", "2", "3"])
    expect(rows.first.locator("[data-sparkline] polyline")).to_have_count(1)
    # The second row's record against the first: won-drawn-lost, as the engines met.
    expect(rows.nth(1).locator("[data-above]")).to_have_text(re.compile(r"\d+–\d+–\d+"))
    rows.first.locator("[data-engine-link]").click()
    page.wait_for_url("**/engines/*")
    standing = page.locator("[data-standing='ConnectFour']")
    expect(standing.locator("[data-rank]")).to_have_text("1")
    expect(standing.locator("[data-standing-state]")).to_have_text("ranked")
    met = page.locator("[data-ladder-meetings='ConnectFour'] tbody th a")
    expect(met.first).to_be_visible()
    assert set(met.all_text_contents()) <= {"weak", "random"}


@pytest.mark.slow
def test_the_pages_are_complete_without_javascript_and_accessible(
    ladder_server: str, browser: Browser
) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(ladder_server + "/ladder/ConnectFour")
        expect(page.locator("[data-ladder-row] [data-engine-link]")).to_have_text(list(ENGINES))
        page.goto(ladder_server + "/arbitre")
        expect(page.locator("[data-leader-set='ConnectFour'] [data-leaders] li")).to_have_count(3)
        expect(page.get_by_role("link", name="Start a game")).to_have_attribute(
            "href", "/arbitre/new"
        )
    finally:
        context.close()
    checked = browser.new_page()
    try:
        for path in ("/arbitre", "/ladder", "/ladder/ConnectFour"):
            checked.goto(ladder_server + path)
            found = AXE.run(checked)
            assert found.violations_count == 0, (path, found.generate_report())
    finally:
        checked.close()
