"""Engine callbacks routed between the workers of one machine (``serve --workers N`` on a
SQLite file): a callback reaching a worker that does not wait for it is decided by the
worker that does, over the machine's bus (Unix datagrams), with no write: taken once,
refused as a duplicate after, unknown at once when nobody waits for it, and still decided
when the driver is slow to hear of it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tournoyons_gui.arbitre.asks import Asks
from tournoyons_gui.arbitre.catalogue import Catalogue
from tournoyons_gui.arbitre.live import SocketBus
from tournoyons_gui.arbitre.outbound import Outbound
from tournoyons_gui.arbitre.store import Game, Seat, Store
from tournoyons_gui.interfaces.registry import Registry


@pytest.mark.slow
def test_a_callback_is_decided_by_the_worker_waiting_for_it(tmp_path: Path) -> None:
    async def run() -> None:
        store = await Store.open(str(tmp_path / "a.sqlite3"), shared=True)
        now = store.now()
        turn = {"state": {}, "params": {}, "over": False}
        game = Game("GAME", "TicTacToe", "playing", {}, turn, turn, 0, None, "", "", now)
        await store.create_game(game, [Seat("GAME", 0, "engine", "e", "http://e/", "KEY", "T")])
        folder = str(tmp_path)
        catalogue = Catalogue(Registry(), store, Outbound())
        workers = []
        for name in ("A", "B"):
            bus = SocketBus(name, folder)
            asks = Asks(store, bus, catalogue, shared=True, routed=True)
            workers.append((bus, asks))
        (bus_a, asks_a), (bus_b, asks_b) = workers
        slow = asyncio.Event()
        slow.set()

        async def heard_b(message: dict[str, object]) -> None:
            await slow.wait()  # B's loop busy a moment
            if message["t"] == "callback":
                await asks_b.routed_callback(message)

        async def heard_a(message: dict[str, object]) -> None:
            if message["t"] == "verdict":
                asks_a.verdict(message)

        await bus_a.start(heard_a)
        await bus_b.start(heard_b)
        future = asks_b.expect("KEY", "3", "GAME", 0)
        query = "Game=KEY&MoveId=3&Value=5"
        params = {"game": "KEY", "moveid": "3", "value": "5"}
        assert await asks_a.callback(params, query) is True
        assert future.done() and future.result().value == "5"
        asks_b.forget("KEY", "3")
        assert await asks_a.callback(params, query) is False  # a duplicate: refused
        await asyncio.sleep(0.2)
        logged = [e.kind for e in await store.exchanges("GAME")]
        assert logged == ["late"], logged  # by the driver, against the game
        started = asyncio.get_running_loop().time()
        assert await asks_a.callback(params, query) is False
        assert asyncio.get_running_loop().time() - started < 1  # the same verdict, at once
        unknown = {"game": "NONE", "moveid": "1", "value": "5"}
        assert await asks_a.callback(unknown, "Game=NONE") is False
        assert asyncio.get_running_loop().time() - started < 1  # said at once
        # B deaf for 2.5 s: the callback is sent again until B decides.
        slow.clear()
        later = asks_b.expect("KEY", "4", "GAME", 0)
        asyncio.get_running_loop().call_later(2.5, slow.set)
        four = {"game": "KEY", "moveid": "4", "value": "6"}
        assert await asks_a.callback(four, "Game=KEY&MoveId=4&Value=6") is True
        assert later.result().value == "6"
        await bus_a.close()
        await bus_b.close()
        await store.close()

    asyncio.run(run())


def test_a_game_taken_twice_by_one_worker_has_one_driver(tmp_path: Path) -> None:
    """A ``drive`` message and a scan may both take a game (the lease is this worker's
    either way): the worker drives it once, not in two tasks recording against each
    other."""
    from typing import Any

    from tournoyons_gui.arbitre.live import Hub, LocalBus
    from tournoyons_gui.arbitre.worker import Worker

    async def run() -> int:
        driven: list[str] = []
        release = asyncio.Event()

        class Master:
            async def drive(self, game_id: str, **_: Any) -> None:
                driven.append(game_id)
                await release.wait()

        store = await Store.open(str(tmp_path / "w.sqlite3"))
        bus = LocalBus("W")
        catalogue = Catalogue(Registry(), store, Outbound())
        asks = Asks(store, bus, catalogue, shared=False)
        worker = Worker(store, bus, Hub(bus), asks, Master(), name="W")  # type: ignore[arg-type]
        worker.start("G1")
        worker.start("G1", resumed=True)
        await asyncio.sleep(0.05)
        release.set()
        await worker.wait("G1")
        worker.start("G1")  # over: a new drive may start
        await asyncio.sleep(0.05)
        await worker.wait("G1")
        await store.close()
        return len(driven)

    assert asyncio.run(run()) == 2
