"""The manual's own example call, in real Chromium against the real server."""

from __future__ import annotations

from urllib.parse import quote

from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    RETURN_LOADED,
    PageWatch,
    expect_counts,
    sink,
    sink_values,
)


def test_manual_example_call_returns_the_clicked_cell(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    url_return = quote(sink(live_server, "manual"), safe="")
    page.goto(
        f"{live_server}/?Set=TicTacToe&Game=CH7613&Mode=standard&Name1=MissOne"
        f"&Name2=MrTwo&Tray=Init&Input=One&Return={url_return}"
    )
    expect(page.locator("html")).to_have_attribute("data-ready", "true")
    expect(page.locator("[data-name='1']")).to_have_text("MissOne")
    expect_counts(page, {"[data-cell][data-state='0']": 9, "[data-playable='true']": 9})
    page.locator("[data-cell='5']").click()
    expect(page.locator("[data-cell='5']")).to_have_attribute("data-state", "1")
    expect(page.locator("[data-playable='true']")).to_have_count(0)
    page.wait_for_function(RETURN_LOADED)
    assert sink_values(live_server, "manual") == ["5"]
