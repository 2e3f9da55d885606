"""The manual's own example call, in real Chromium against the real server."""

from __future__ import annotations

from urllib.parse import quote

from playwright.sync_api import Page, expect

from tests.browser.conftest import PageWatch, sink_values


def test_manual_example_call_returns_the_clicked_cell(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    sink = quote(f"{live_server}/return?tag=manual", safe="")
    page.goto(f"{live_server}/?Set=TicTacToe&Game=CH7613&Mode=standard&Name1=MissOne"
              f"&Name2=MrTwo&Tray=Init&Input=One&Return={sink}")
    expect(page.locator("html")).to_have_attribute("data-ready", "true")
    expect(page.locator("[data-name='1']")).to_have_text("MissOne")
    expect(page.locator("[data-cell][data-state='0']")).to_have_count(9)
    expect(page.locator("[data-playable='true']")).to_have_count(9)
    page.locator("[data-cell='5']").click()
    expect(page.locator("[data-cell='5']")).to_have_attribute("data-state", "1")
    expect(page.locator("[data-playable='true']")).to_have_count(0)
    page.wait_for_function("() => document.querySelector('iframe.return').contentDocument"
                           "?.querySelector('[data-return-value]')")
    assert sink_values(live_server, "manual") == ["5"]
