"""Fixtures of the browser tests (their plain helpers are in ``helpers.py``): every page is
watched for script errors and console errors."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from tests.browser.helpers import PageWatch


@pytest.fixture
def watch(page: Page) -> Iterator[PageWatch]:
    """Fail the test if the page threw or logged an error."""
    watcher = PageWatch(page)
    yield watcher
    assert watcher.errors == [], watcher.errors
