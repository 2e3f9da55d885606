"""Browser-test helpers: every page is watched for script errors and console errors."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

# Records every URL a page gives its hidden return iframe (kept across navigations of one
# page): proof that even a second return cancelled by the first never happened.
RECORD_RETURNS = """
(() => {
  if (window.__returnLoads) return;  // installed once per document
  const desc = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, "src");
  window.__returnLoads = [];
  Object.defineProperty(HTMLIFrameElement.prototype, "src", {
    configurable: true,
    get() { return desc.get.call(this); },
    set(value) {
      if (this.classList.contains("return")) window.__returnLoads.push(String(value));
      desc.set.call(this, value);
    },
  });
})();
"""


class PageWatch:
    """What went wrong in a page: uncaught exceptions and console errors."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        page.on("console", lambda message: self.errors.append(f"console: {message.text}")
                if message.type == "error" else None)


@pytest.fixture
def watch(page: Page) -> Iterator[PageWatch]:
    """Fail the test if the page threw or logged an error."""
    watcher = PageWatch(page)
    yield watcher
    assert watcher.errors == [], watcher.errors


def sink_values(base: str, tag: str) -> list[str | None]:
    """Return the ReturnValues the server's sink received with ``tag=<tag>`` in their query."""
    with urllib.request.urlopen(f"{base}/return/log?tag={tag}", timeout=5) as answer:
        log: list[dict[str, Any]] = json.load(answer)
    return [entry["value"] for entry in log if entry["params"].get("tag") == tag]
