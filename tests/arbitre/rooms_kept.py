"""Our referee keeping timi rooms on a real ngIRCd, for the tests: an Arbitre of its own
(a SQLite file) refereeing on the test's server, and what the tests wait for (the room
open, a game's record once over)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from tests.arbitre.ircd import Ircd, ircd_server
from tests.arbitre.timi_players import RawPlayer
from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.outbound import Outbound
from tournoyons_gui.arbitre.rooms.irc import Backoff
from tournoyons_gui.arbitre.rooms.pace import Pace
from tournoyons_gui.arbitre.rooms.referee import RoomOptions, RoomsReferee
from tournoyons_gui.arbitre.store import Game, Move, Seat, Store
from tournoyons_gui.interfaces.registry import load_registry

ROOM = "#p4-1"
#: The referee's pace in the tests: fast (the test server's penalty is off).
FAST = Pace(burst=100, per_second=200.0)
#: Seconds a test waits for a game's end to be recorded.
ENDED_WITHIN = 60.0


@asynccontextmanager
async def refereeing(
    ircd: Ircd,
    folder: Path,
    *,
    rooms: int = 1,
    think: int = 5,
    outbound: Outbound | None = None,
    pace: Pace = FAST,
) -> AsyncIterator[tuple[Arbitre, RoomsReferee]]:
    """Run an Arbitre (its own SQLite file, ``outbound`` its policy: a loopback server's
    by default) refereeing ``rooms`` rooms on ``ircd``, its lines at ``pace``."""
    store = await Store.open(str(folder / "rooms.sqlite3"))
    arbitre = Arbitre(
        load_registry(()), store, "http://127.0.0.1:9", lease_seconds=6, outbound=outbound
    )
    await arbitre.run()
    options = RoomOptions(ircd.url, rooms=rooms, think=think, pace=pace)
    referee = options.referee(arbitre)
    referee.chat.backoff = Backoff(first=0.2, most=1.0)  # type: ignore[attr-defined]
    await referee.run()
    try:
        yield arbitre, referee
    finally:
        await referee.close()
        await arbitre.close()
        await store.close()


async def room_open(player: RawPlayer, room: str = ROOM) -> None:
    """Wait until the referee is in ``room`` (it created it: it is its operator), asking
    ``NAMES`` again once the server has answered the last one (a server with its own
    limits reads a client's lines a few a second)."""
    for _ in range(100):
        mark = len(player.heard)
        player.send(f"NAMES {room}")
        end = await player.expect(
            lambda h: h.command == "366" and h.target.split()[-1:] == [room], since=mark
        )
        names = player.heard[mark : player.heard.index(end, mark)]
        if any(
            h.command == "353" and h.target.split()[-1:] == [room] and "@Arbitre" in h.text.split()
            for h in names
        ):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"the referee never opened {room}")


async def record(arbitre: Arbitre, game_id: str) -> tuple[Game, list[Seat], list[Move]]:
    """Return a game, its seats and its moves once it is over and its room archived
    (within :data:`ENDED_WITHIN` seconds: a referee slowed down by the server's own limits
    sends its last lines a second or more apart)."""
    deadline = time.monotonic() + ENDED_WITHIN
    while time.monotonic() < deadline:
        found = await arbitre.store.game(game_id)
        assert found is not None
        log = await arbitre.store.exchanges(game_id)
        if found[0].status != "playing" and any("archived" in e.detail for e in log):
            return found[0], found[1], await arbitre.store.moves(game_id)
        await asyncio.sleep(0.05)
    raise AssertionError(f"game {game_id} never ended")


def run(
    scenario: Callable[[Ircd, Path], Coroutine[Any, Any, None]],
    tmp_path: Path,
    *,
    penalty: bool = False,
) -> None:
    """Run ``scenario`` with an ngIRCd of its own (``penalty``: with its limits on fast
    clients, as a real server runs)."""
    with ircd_server(penalty=penalty) as ircd:
        asyncio.run(scenario(ircd, tmp_path))


async def record_ended(arbitre: Arbitre, game_id: str) -> tuple[Game, list[Seat], list[Move]]:
    """Return a game, its seats and moves once it is over (its room may be gone), within
    :data:`ENDED_WITHIN` seconds."""
    deadline = time.monotonic() + ENDED_WITHIN
    while time.monotonic() < deadline:
        found = await arbitre.store.game(game_id)
        assert found is not None
        if found[0].status != "playing":
            return found[0], found[1], await arbitre.store.moves(game_id)
        await asyncio.sleep(0.05)
    raise AssertionError(f"game {game_id} never ended")
