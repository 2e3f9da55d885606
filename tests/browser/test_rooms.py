"""A timi room's game in real Chromium: ``serve --irc`` referees a room on a real ngIRCd
beside the web; two test players of raw sockets play on IRC while the game's page follows
every move live (no reload), then the finished game is replayed move by move; ``/rooms``
lists the room, its players and a link to the game in play."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import Page, expect

from tests.arbitre.ircd import Ircd, ircd_server
from tests.arbitre.timi_players import RawPlayer, game_of, raw_player
from tests.browser.arbitre_helpers import board_query, open_game, record, view, wait_over
from tests.browser.helpers import PageWatch, query_of
from tests.conftest import _serving, start_server

ROOM = "#p4-1"
#: alice plays column 1 four times, bob column 2: ``end alice win`` after 7 moves.
COLUMNS = [1, 2, 1, 2, 1, 2, 1]

T = TypeVar("T")


class OnIrc:
    """Test players on IRC, driven from the (synchronous) browser test through an event
    loop of their own in a thread."""

    def __init__(self, ircd: Ircd) -> None:
        self.ircd = ircd
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.players: dict[str, RawPlayer] = {}
        self._exits: list[Any] = []

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        """Run ``work`` on the players' loop and return its result."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(60)

    def connect(self, nick: str) -> RawPlayer:
        """Connect ``nick`` and return its player."""

        async def enter() -> RawPlayer:
            context = raw_player(self.ircd.port, nick)
            self._exits.append(context)
            return await context.__aenter__()

        self.players[nick] = self.run(enter())
        return self.players[nick]

    def close(self) -> None:
        """Quit every player, stop the loop and close it (an unclosed loop's sockets
        would be reported by a later test)."""

        async def leave() -> None:
            for context in reversed(self._exits):
                await context.__aexit__(None, None, None)

        try:
            self.run(leave())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            if not self.thread.is_alive():
                self.loop.close()


@pytest.fixture
def rooms_server(tmp_path: Path) -> Iterator[tuple[str, OnIrc]]:
    """``serve --irc`` on its own ngIRCd, one room, 10 s a move; its URL and the players."""
    with ircd_server() as ircd:
        process = start_server(
            tmp_path / "rooms.sqlite3", "--irc", ircd.url, "--rooms", "1", "--think", "10"
        )
        serving = _serving(process)
        base = next(serving)
        on_irc = OnIrc(ircd)
        try:
            yield base, on_irc
        finally:
            on_irc.close()
            next(serving, None)


@pytest.mark.slow
def test_a_room_game_followed_live_then_replayed(
    rooms_server: tuple[str, OnIrc], page: Page, watch: PageWatch
) -> None:
    base, on_irc = rooms_server
    page.goto(base + "/rooms")
    for _ in range(100):
        if page.locator(f"[data-room='{ROOM}']").count():
            break
        page.wait_for_timeout(200)
        page.reload()
    expect(page.locator(f"[data-room='{ROOM}']")).to_be_visible()
    alice, bob = on_irc.connect("alice"), on_irc.connect("bob")
    on_irc.run(alice.join(ROOM))
    on_irc.run(bob.join(ROOM))
    on_irc.run(alice.said(ROOM, "play alice 10"))
    game_id = game_of(alice, ROOM)
    # /rooms: the room, its players, the game in play (written as they come in).
    for _ in range(100):
        page.reload()
        row = page.locator(f"[data-room='{ROOM}']")
        if row.locator("[data-players]").inner_text() == "alice, bob":
            break
        page.wait_for_timeout(300)
    expect(row.locator("[data-players]")).to_have_text("alice, bob")
    row.locator(f"[data-room-game='{game_id}']").click()
    open_game(page, base, f"/games/{game_id}")
    root = page.locator("[data-game]")
    expect(root).to_have_attribute("data-board-ready", "true")
    page.evaluate("() => { window.__same = true; }")
    players = {0: alice, 1: bob}
    for number, column in enumerate(COLUMNS, 1):
        mover = players[(number - 1) % 2]
        asked = f"play {mover.nick} 10"
        count = (number + 1) // 2

        async def named(
            player: RawPlayer = mover, text: str = asked, n: int = count, c: int = column
        ) -> None:
            await alice.expect(lambda _: alice.room_texts(ROOM).count(text) >= n)
            player.say(ROOM, f"play {c}")

        on_irc.run(named())
        expect(root).to_have_attribute("data-moves", str(number))
        expect(root).to_have_attribute("data-move", str(number))
        expect(root).to_have_attribute("data-board-ready", "true")
        tray = record(base, game_id)["moves"][number - 1]["tray"]
        assert board_query(page)["Tray"] == tray
        assert page.evaluate("() => window.__same") is True, "the page was reloaded"
    on_irc.run(alice.said(ROOM, "end alice win"))
    expect(root).to_have_attribute("data-status", "over")
    rec = wait_over(base, game_id)
    assert [m["value"] for m in rec["moves"]] == [chr(64 + c) for c in COLUMNS]
    assert [s["name"] for s in rec["seats"]] == ["alice", "bob"]
    # The replay: first, then move by move, each position the record's.
    page.locator("[data-nav='first']").click()
    expect(root).to_have_attribute("data-move", "0")
    for number in range(1, len(COLUMNS) + 1):
        page.locator("[data-nav='next']").click()
        expect(root).to_have_attribute("data-move", str(number))
        expected = view(base, game_id, move=str(number))["src"]
        expect(page.locator("[data-board]")).to_have_attribute("src", expected)
        assert query_of(expected)["Tray"] == rec["moves"][number - 1]["tray"]
    expect(page.locator("[data-position]")).to_have_text(f"{len(COLUMNS)} / {len(COLUMNS)}")
