"""The interface pages: what a page asks of its runtime, the cache, the unknown Set."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.robustness.asgi import get_many
from tournoyons_gui.interfaces.protocol import Method, read_context
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.interfaces.runtime import RuntimeConfig
from tournoyons_gui.server.assets import load_assets
from tournoyons_gui.server.environment import make_environment
from tournoyons_gui.server.pages import PAGE_CACHE_SIZE, Pages
from tournoyons_gui.server.tester import Tester

CONTEXT = re.compile(r'<script type="application/json" id="tournoyons-context">(.*?)</script>')
KEYS = [
    "set",
    "method",
    "player",
    "input",
    "playable",
    "composed",
    "tray",
    "urlReturn",
    "wait",
    "mute",
    "webtest",
    "sound",
]


def runtime_of(client: TestClient, url: str) -> dict[str, Any]:
    found = CONTEXT.search(client.get(url).text)
    assert found, url
    config: dict[str, Any] = json.loads(found.group(1))
    return config


def test_the_runtime_config_has_its_keys_in_order() -> None:
    config = RuntimeConfig.from_view(read_context(b""), None, Method.NONE, "")
    assert list(config.to_json()) == KEYS
    assert not config.asks


def test_a_page_asking_for_a_move(client: TestClient) -> None:
    config = runtime_of(
        client,
        "/tictactoe/?Tray=100000000&Input=Two&Wait=5&Mute=1&URLReturn=http%3A%2F%2Fh.test%2Fr",
    )
    assert config == {
        "set": "TicTacToe",
        "method": "standard",
        "player": 2,
        "input": True,
        "playable": ["2", "3", "4", "5", "6", "7", "8", "9"],
        "composed": False,
        "tray": "100000000",
        "urlReturn": "http://h.test/r",
        "wait": 5,
        "mute": True,
        "webtest": False,
        "sound": config["sound"],
    }


@pytest.mark.parametrize("method", ["End", "None"])
def test_no_input_at_end_or_none(client: TestClient, method: str) -> None:
    config = runtime_of(client, f"/tictactoe/?Tray=100000000&Input=Two&Method={method}")
    assert config["method"] == method.lower()
    assert (config["player"], config["input"], config["playable"]) == (None, False, [])


def test_webtest_names_the_player_without_asking(client: TestClient) -> None:
    config = runtime_of(client, "/tictactoe/?Tray=100000000&WebTest=1")
    assert config["webtest"] is True and config["player"] == 2 and config["input"] is False


def test_the_empty_page_asks_nothing(client: TestClient) -> None:
    config = runtime_of(client, "/?Method=None&Legend=x")
    assert config["set"] == "" and config["method"] == "none" and config["tray"] == ""


def test_the_cache_keeps_the_last_pages_asked() -> None:
    registry = load_registry()
    env = make_environment(registry, load_assets(registry))
    pages = Pages(registry, env, home=Tester(registry, env).page)
    tictactoe = registry.get("TicTacToe")
    first = pages.cached(tictactoe, b"Tray=Init")
    assert pages.cached(tictactoe, b"Tray=Init") is first
    for n in range(PAGE_CACHE_SIZE):
        pages.cached(tictactoe, b"Count=%d" % n)
    assert len(pages.cache) == PAGE_CACHE_SIZE
    assert pages.cached(tictactoe, b"Tray=Init") is not first
    assert pages.cached(tictactoe, b"Tray=Init").body == first.body


def test_an_unknown_set_with_a_query_that_is_not_utf8_is_404(client: TestClient) -> None:
    """A query of raw bytes (a browser never sends one; a script may) is no 500 either: the
    404's links carry it back percent-encoded."""
    answers: list[tuple[int, bytes]] = []
    get_many(
        client.app,
        "/",
        [b"Set=Chess&Name1=\xe9\x87#x"],
        lambda query, status, body: answers.append((status, body)),
    )
    [(status, body)] = answers
    assert status == 404
    assert b'href="/tictactoe/?Set=Chess&amp;Name1=%E9%87%23x"' in body
