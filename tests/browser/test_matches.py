"""A match of ``play`` as a person sees it in Chromium: its page shows the
summary and draws the SPRT (gauges, the LLR between its bounds, the pairs' bars), with
JavaScript and without; two versions of an engine's games side by side at the ply where
they part, each through the Set's page.

The runs are real ``play`` processes recorded in one database, served by a real
``tournoyons-gui serve`` on it: TicTacToe, ``perfect`` against ``random`` under an SPRT;
and the tests' own engine (:mod:`tests.arbitre.faulty_engine`) as ``/good`` then as
``/differ/3`` (the last free cell instead of the first at ply 3), each against
``builtin:random`` from one seed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.arbitre.conftest import server_process
from tests.arbitre.play_runs import command, faulty_engine, finish, start, words
from tests.browser.helpers import PageWatch, cell
from tests.browser.test_tournaments import assert_no_violation

RUNS = {
    "sprt": "--set TicTacToe --engine builtin:perfect --engine builtin:random --sprt 0,50 --seed 1",
    "v1": "--set TicTacToe --engine v1=BASE/good --engine builtin:random --games 4 --seed 9",
    "v2": "--set TicTacToe --engine v2=BASE/differ/3 --engine builtin:random --games 4 --seed 9",
}


@dataclass
class Served:
    """The runs' ``--json`` documents by name, their files' folder, the server's URL."""

    base: str
    folder: Path
    documents: dict[str, dict[str, Any]]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("browser-matches")
    database = folder / "m.sqlite3"
    with faulty_engine() as (engine, _):
        for name, line in RUNS.items():
            args = [*words(line.replace("BASE", engine)), "--json", str(folder / f"{name}.json")]
            status, out = finish(start(*args, database=database))
            assert status == 0, out
    documents = {name: json.loads((folder / f"{name}.json").read_text()) for name in RUNS}
    with server_process(database) as http:
        yield Served(str(http.base_url).rstrip("/"), folder, documents)


def _expect_the_figures(page: Page, document: dict[str, Any]) -> None:
    """Assert what the page of the SPRT's match shows: its table, its verdict, its plot,
    its gauges and its bars, each drawn with a size."""
    perfect = document["entrants"][0]
    row = page.locator("[data-summary] tr[data-entrant='perfect']")
    expect(row.locator("[data-wins]")).to_have_text(str(perfect["wins"]))
    expect(row.locator("[data-draws]")).to_have_text(str(perfect["draws"]))
    expect(row.locator("[data-losses]")).to_have_text("0")
    expect(page.locator("[data-verdict='H1']")).to_contain_text(
        "H1 accepted: perfect is stronger than random"
    )
    expect(page.locator("[data-llr-value]")).to_have_text(f"{document['sprt']['llr']:+.2f}")
    for selector in (
        "[data-llr-chart] svg",
        "[data-llr]",
        "[data-bound='upper']",
        "[data-bound='lower']",
        "[data-gauge='llr-gauge'] [data-needle]",
        "[data-gauge='los-gauge'] svg",
        "[data-pentanomial] svg",
    ):
        box = page.locator(selector).bounding_box()
        assert box is not None and (box["width"] > 0 or box["height"] > 0), selector
    chart = page.locator("[data-llr-chart] svg").bounding_box()
    assert chart is not None and chart["width"] >= 300 and chart["height"] >= 120
    # The line ends above the upper bound's line, where H1 was accepted.
    line = page.locator("[data-llr]").bounding_box()
    upper = page.locator("[data-bound='upper']").bounding_box()
    assert line is not None and upper is not None and line["y"] <= upper["y"]
    counts = document["pentanomial"]
    tallest = page.locator(f"[data-bar='{counts.index(max(counts))}']").bounding_box()
    assert tallest is not None and tallest["height"] > 50


@pytest.mark.slow
def test_the_page_of_a_play_run_shows_its_figures_and_the_plot(
    page: Page, watch: PageWatch, served: Served
) -> None:
    document = served.documents["sprt"]
    page.goto(f"{served.base}/matches")
    page.get_by_role("link", name=document["match"]).click()
    expect(page).to_have_url(f"{served.base}/matches/{document['match']}")
    _expect_the_figures(page, document)
    assert_no_violation(page, "the match's page")
    expect(page.locator("[data-game-row]")).to_have_count(min(50, len(document["games_list"])))
    first = document["games_list"][0]["id"]
    page.locator(f"[data-game-row='{first}'] a").first.click()
    expect(page).to_have_url(f"{served.base}/games/{first}")


def test_the_match_page_needs_no_javascript(browser: Browser, served: Served) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 900, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{served.base}/matches/{served.documents['sprt']['match']}")
        _expect_the_figures(page, served.documents["sprt"])
    finally:
        context.close()


def test_two_versions_games_side_by_side_at_the_ply_where_they_part(
    page: Page, watch: PageWatch, served: Served
) -> None:
    found = json.loads(
        command("diff", "--json", served.folder / "v1.json", served.folder / "v2.json").stdout
    )
    difference = found["differ"][0]
    assert difference["ply"] == 3
    page.set_viewport_size({"width": 1600, "height": 900})
    page.goto(served.base + difference["link"])
    expect(page.locator("[data-differ-ply]")).to_have_text("3")
    frames = {side: page.frame_locator(f"iframe[data-frame='{side}']") for side in "ab"}
    # Each game after its own answer at ply 3: the position they shared, and one more mark
    # of the first player's, where each version put it.
    for side in "ab":
        expect(cell(frames[side], difference[side])).to_have_attribute("data-state", "1")
    expect(cell(frames["a"], difference["b"])).to_have_attribute("data-state", "0")
    expect(cell(frames["b"], difference["a"])).to_have_attribute("data-state", "0")
    # One step back, both frames show the one position they shared.
    page.locator("[data-nav='common']").click()
    expect(page.locator("[data-position]")).to_contain_text("2 /")
    for side in "ab":
        for index, code in enumerate(difference["tray"], 1):
            expect(cell(frames[side], index)).to_have_attribute("data-state", code)
    expect(page.locator("tr[data-ply='3'][aria-current='step']")).to_have_count(1)
    assert_no_violation(page, "two games side by side")
