#!/usr/bin/env python3
"""Take the README's screenshots (docs/*.png) from the real server in Chromium.

One per registered Set (its sample context), a finished TicTacToe, and the tester.

Run after ``python3 scripts/test.py`` has made ``.venv``:
``.venv/bin/python scripts/screenshots.py``.
"""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

from _bootstrap import CHROMIUM_FLAGS, system_chromium

try:
    from playwright.sync_api import sync_playwright

    from tournoyons_gui.interfaces.registry import load_registry
except ImportError as missing:
    sys.exit(
        f"scripts/screenshots.py needs {missing.name or 'the project'}, which this Python "
        "lacks; run it as .venv/bin/python scripts/screenshots.py once "
        "'python3 scripts/test.py --co -q' has made .venv with the test extra"
    )

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PORT = 8791
# Pages beyond each Set's own sample context (the tester's "Sample context").
EXTRA = {
    "tictactoe-end.png": "/?Set=TicTacToe&Name1=MissOne&Name2=MrTwo&Tray=114140400"
    "&Move2=7&Method=End&Count=6",
}


def shots() -> dict[str, str]:
    """Return ``{file name: URL path}``: every registered Set's sample, then EXTRA."""
    pages = {}
    for interface in load_registry():
        params = {"Name1": "MissOne", "Name2": "MrTwo", **interface.sample}
        pages[f"{interface.key}.png"] = f"/{interface.key}/?{urlencode(params)}"
    return {**pages, **EXTRA}


def main() -> None:
    """Start the server, shoot each page at 736x660 and the tester at 1280x820."""
    DOCS.mkdir(exist_ok=True)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tournoyons_gui.server.cli",
            "serve",
            "--port",
            str(PORT),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        cwd=ROOT,
    )
    base = f"http://127.0.0.1:{PORT}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=system_chromium(), args=list(CHROMIUM_FLAGS)
            )
            page = browser.new_page(viewport={"width": 736, "height": 660})
            for name, url in shots().items():
                page.goto(base + url)
                page.wait_for_selector("html[data-ready='true']")
                page.wait_for_timeout(700)
                page.screenshot(path=DOCS / name)
            page.set_viewport_size({"width": 1280, "height": 820})
            page.goto(base + "/")
            page.select_option("#set", "TicTacToe")
            page.fill("input[name=Wait]", "0")
            page.click("#new-game")
            frame = page.frame_locator("#interface")
            frame.locator("[data-cell='5'][data-playable='true']").click()
            frame.locator("[data-cell='1'][data-playable='true']").click()
            page.wait_for_timeout(1500)
            page.screenshot(path=DOCS / "tester.png")
            browser.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
