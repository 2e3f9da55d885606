"""Registered engines and tournaments in real Chromium against the real server
(``arbitre/web/tournament_pages.py``, ``arbitre/static/tournament.js``): a person registers
an engine with the form, starts a round-robin with it and two built-in engines, watches the
progress bar reach the end without reloading (the script reads ``/tournaments/<id>.json``
every 2 s), reads the standings, opens a finished game and downloads the standings as CSV.
axe-core finds no violation on the four pages.

The pages' hooks: ``[data-progress]`` (a ``<progress>``), ``[data-status]``, the standings
``[data-standings]`` with rows ``[data-entrant]``, ``[data-cross]``, ``[data-playing]`` and
``[data-finished]`` lists; the root ``[data-tournament]`` counts the script's redraws in
``data-updates``.
"""

from __future__ import annotations

import csv
import json
import re
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Page, expect

from tests.browser.helpers import PageWatch, get_json

AXE = Axe()


def post_json(base: str, path: str, data: dict[str, Any]) -> Any:
    """POST ``data`` as JSON to ``base + path``; return the JSON answer."""
    request = urllib.request.Request(
        base + path,
        data=json.dumps(data).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def wait_over(base: str, tournament_id: str, within: float = 90) -> dict[str, Any]:
    """Wait until the tournament is over; return its summary."""
    deadline = time.monotonic() + within
    while True:
        summary: dict[str, Any] = get_json(base, f"/tournaments/{tournament_id}.json")
        if summary["status"] == "over":
            return summary
        assert time.monotonic() < deadline, summary["progress"]
        time.sleep(0.25)


def assert_no_violation(page: Page, where: str) -> None:
    """Fail, printing each violation, if axe-core finds any on ``page``."""
    results: dict[str, Any] = AXE.run(page).response
    found = [
        f"{where}: {v['id']} ({v['impact']}): {[node['target'] for node in v['nodes']]}"
        for v in results["violations"]
    ]
    for line in found:
        print(line)
    assert found == [], "\n".join(found)


@pytest.mark.slow
def test_a_person_registers_an_engine_and_follows_its_tournament_to_the_end(
    live_server: str, elsewhere: str, page: Page, watch: PageWatch, tmp_path: Path
) -> None:
    page.set_default_timeout(10_000)
    name = f"Browser perfect {uuid.uuid4().hex[:6]}"

    # Register an engine: another Arbitre's perfect Nim engine, at its engine-protocol URL.
    page.goto(live_server + "/engines")
    form = page.locator("[data-engine-form]")
    form.get_by_label("Name").fill(name)
    form.get_by_label("URL").fill(elsewhere + "/engines/nim/perfect")
    form.locator("input[name='sets'][value='Nim']").check()
    form.locator("[data-open-entry]").check()  # anyone may enter it
    form.locator("[data-register]").click()
    page.wait_for_url(re.compile(r"/engines/[A-Za-z0-9_-]+\?token=[A-Z2-7]{26}$"))
    engine_id = page.url.rsplit("/", 1)[1].split("?", 1)[0]
    expect(page.locator("[data-token]")).to_have_value(page.url.rsplit("=", 1)[1])
    expect(page.locator("h1")).to_have_text(name)
    expect(page.locator("[data-engine-sets]")).to_have_text("Nim")
    page.get_by_role("navigation", name="Arbitre").get_by_role("link", name="Engines").click()
    expect(page.locator(f"[data-engine-row='{engine_id}']")).to_contain_text(name)

    # Start a round-robin: the engine and two built-ins, two games per pairing, one at a
    # time (so that it is still running when its page opens).
    page.get_by_role("navigation", name="Arbitre").get_by_role("link", name="Tournaments").click()
    form = page.locator("[data-new-tournament]")
    expect(form.locator("[data-add-entrant]")).to_be_visible()
    form.locator("[data-set-select]").select_option("Nim")
    form.locator("[data-format]").select_option("round-robin")
    expect(form.locator("[data-rounds]")).to_be_hidden()  # Swiss only
    form.get_by_label("Games per pairing").fill("2")
    form.get_by_label("Games at once").fill("1")
    form.get_by_label("TimeOut (s)").fill("10")
    first, second, third = (form.locator(f"[data-entrant-row='{n}']") for n in (1, 2, 3))
    first.locator("[data-kind]").select_option("registered")
    expect(first.locator("[data-builtin]")).to_be_hidden()
    expect(first.locator("input[type='url']")).to_be_hidden()
    first.locator("[data-registered]").select_option(label=name)
    second.locator("[data-kind]").select_option("builtin")
    second.locator("[data-builtin]").select_option("random")
    third.locator("[data-builtin]").select_option("perfect")
    third.get_by_label("Name (optional)").fill("Perfect builtin")
    # A ninth row is added by the script; left empty, it is ignored.
    form.locator("[data-add-entrant]").click()
    expect(form.locator("[data-entrant-row='9'] legend")).to_have_text("Entrant 9")
    expect(form.locator("select[name='entrant9_kind']")).to_be_focused()
    form.locator("[data-start]").click()
    page.wait_for_url(re.compile(r"/tournaments/[A-Za-z0-9_-]+$"))
    tournament_id = page.url.rsplit("/", 1)[1]

    # The progress bar moves to the end with no reload: a mark set now survives.
    progress = page.locator("[data-progress]")
    expect(progress).to_have_attribute("max", "6")
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "running")
    assert int(progress.get_attribute("value") or "0") < 6
    expect(page.locator("[data-refresh]")).to_be_visible()
    page.evaluate("() => { window.__samePage = true; }")
    expect(progress).to_have_attribute("value", "6", timeout=90_000)
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "over")
    expect(page.locator("[data-status]")).to_have_text("over")
    expect(page.locator("[data-progress-text]")).to_have_text("6 of 6 games over, 0 in play.")
    expect(page.locator("[data-refresh]")).to_be_hidden()
    assert page.evaluate("() => window.__samePage === true"), "the page was reloaded"
    assert int(page.locator("[data-tournament]").get_attribute("data-updates") or "0") > 0

    # The standings, as the JSON has them.
    summary = wait_over(live_server, tournament_id)
    rows = page.locator("[data-standings] tbody tr")
    expect(rows).to_have_count(3)
    for number, standing in enumerate(summary["standings"]):
        row = rows.nth(number)
        expect(row).to_have_attribute("data-entrant", str(standing["entrant"]))
        expect(row.locator("[data-rank]")).to_have_text(str(standing["rank"]))
        expect(row.locator("[data-name]")).to_have_text(standing["name"])
        expect(row.locator("[data-played]")).to_have_text("4")
        expect(row.locator("[data-points]")).to_have_text(f"{standing['points']:g}")
        expect(row.locator("[data-rating]")).to_have_text(
            f"{standing['mu']:.2f} ± {standing['sigma']:.2f}"
        )
    names = [e["name"] for e in summary["entrants"]]
    assert names == [name, "random", "Perfect builtin"]
    expect(page.locator("[data-cross] tbody tr")).to_have_count(3)
    expect(page.locator("[data-cross-row='0'] td").nth(1)).to_have_text(
        summary["cross_table"][0][1]
    )
    expect(page.locator("[data-playing] li")).to_have_count(0)
    finished = page.locator("[data-finished] li")
    expect(finished).to_have_count(6)

    # A finished game opens on its replay page.
    link = finished.first.locator("a")
    game_id = summary["games"][0]["id"]
    expect(link).to_have_attribute("href", f"/games/{game_id}")
    link.click()
    page.wait_for_url(f"**/games/{game_id}")
    expect(page.locator("[data-game]")).to_have_attribute("data-status", "over")
    page.go_back()

    # The standings as CSV, downloaded from the page.
    with page.expect_download() as info:
        page.get_by_role("link", name="Standings (CSV)").click()
    download = info.value
    assert download.suggested_filename == f"{tournament_id}-standings.csv"
    target = tmp_path / "standings.csv"
    download.save_as(target)
    lines = list(csv.DictReader(target.read_text(encoding="utf-8").splitlines()))
    assert [line["name"] for line in lines] == [s["name"] for s in summary["standings"]]
    assert [line["points"] for line in lines] == [f"{s['points']:g}" for s in summary["standings"]]
    assert {line["played"] for line in lines} == {"4"}

    # The engine's own page now has its games and a rating chart.
    page.goto(f"{live_server}/engines/{engine_id}")
    expect(page.locator("[data-engine-games] tbody tr")).to_have_count(4)
    expect(page.locator("[data-rating-chart='Nim'] svg polyline")).to_have_count(1)


@pytest.mark.slow
def test_axe_finds_no_violation_on_the_engines_and_tournaments_pages(
    live_server: str, elsewhere: str, page: Page, watch: PageWatch
) -> None:
    engine = post_json(
        live_server,
        "/api/engines",
        {
            "name": f"Axe engine {uuid.uuid4().hex[:6]}",
            "url": elsewhere + "/engines/nim/random",
            "sets": ["Nim"],
        },
    )
    created = post_json(
        live_server,
        "/api/tournaments",
        {
            "set": "Nim",
            "games": 1,
            "entrants": [
                {"kind": "registered", "engine": engine["id"], "token": engine["edit_token"]},
                {"kind": "builtin", "engine": "perfect"},
                {"kind": "builtin", "engine": "random"},
            ],
        },
    )
    # The running page first (its Refresh link, the games in play), then the rest.
    page.goto(f"{live_server}/tournaments/{created['id']}")
    expect(page.locator("h1")).to_be_visible()
    assert_no_violation(page, "tournament (running)")
    wait_over(live_server, created["id"])
    for path in (
        "/engines",
        f"/engines/{engine['id']}",
        "/tournaments",
        f"/tournaments/{created['id']}",
    ):
        page.goto(live_server + path)
        expect(page.locator("h1")).to_be_visible()
        assert_no_violation(page, path)
