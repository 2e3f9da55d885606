"""Who may take a bound game (its players reached through connections one process holds),
read from the store as the workers' scans and leases read it: two Arbitres of one SQLite
file stand for two workers. A game held by a worker alive is never taken by another, even
once its lease ran out; it is taken (and ended with no result) once its holder's heartbeat
lapsed; a bound game nobody holds yet goes to a worker holding its kind, or to any when
none does; the upgrade from schema 12 binds the games of rooms and tables in play."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from tests.arbitre.test_ops import BOUND_13, LADDER_14
from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.match import SeatSpec
from tournoyons_gui.arbitre.store import SCHEMA_VERSION, Store
from tournoyons_gui.interfaces.registry import load_registry

pytestmark = pytest.mark.arbitre

TABLE = [SeatSpec("maitretarot", f"127.0.0.1:{n}", f"p{n}") for n in range(4)]
WAITING = [SeatSpec("maitretarot", "", "")] + [
    SeatSpec("builtin", "random", f"b{n}") for n in range(3)
]


@asynccontextmanager
async def two_workers(folder: Path) -> AsyncIterator[tuple[Store, Arbitre, Arbitre]]:
    """Yield one store and two Arbitres on it, each its own worker (scans run by hand)."""
    store = await Store.open(str(folder / "bound.sqlite3"))
    first = Arbitre(load_registry(), store, "http://127.0.0.1:9", scan_every=3600)
    second = Arbitre(load_registry(), store, "http://127.0.0.1:9", scan_every=3600)
    await first.run()
    await second.run()
    for arbitre in (first, second):
        # Scans by hand only: the loop's own scan, nudged by each game made (here or by
        # the other worker), would take a game before the test's scan looks for it.
        for task in arbitre.worker._background:
            if task.get_name() == "scan":
                task.cancel()
    try:
        yield store, first, second
    finally:
        await first.close()
        await second.close()
        await store.close()


async def expire(store: Store, game_id: str, *, worker: str = "") -> None:
    """Make ``game_id``'s lease (and ``worker``'s heartbeat, when named) run out now."""
    past = store.now() - dt.timedelta(seconds=60)
    async with store.engine.begin() as connection:
        await connection.execute(
            text("UPDATE games SET lease_until = :at WHERE id = :id"), {"at": past, "id": game_id}
        )
        if worker:
            await connection.execute(
                text("UPDATE workers SET until = :at WHERE name = :name"),
                {"at": past, "name": worker},
            )


def test_a_game_held_by_a_worker_alive_is_never_taken_by_another(tmp_path: Path) -> None:
    async def run() -> None:
        async with two_workers(tmp_path) as (store, holder, other):
            await holder.hold("maitretarot")
            game_id = await holder.create("Tarot", TABLE, start=False)
            game, _ = await _game(store, game_id)
            assert (game.bound, game.holder) == ("maitretarot", holder.worker.name)
            await expire(store, game_id)  # the lease ran out, its holder alive
            assert game_id not in await other.worker.scan()
            assert not await store.acquire(game_id, other.worker.name, 15)
            assert await store.acquire(game_id, holder.worker.name, 15)
            await expire(store, game_id, worker=holder.worker.name)  # now it died
            assert game_id in await other.worker.scan()
            await other.wait(game_id)
            game, seats = await _game(store, game_id)
            assert (game.status, game.result, game.reason) == ("over", "error", "server error")
            assert [s.final_status for s in seats] == [9, 9, 9, 9]

    asyncio.run(run())


def test_a_bound_game_nobody_holds_yet_goes_to_a_worker_holding_its_kind(
    tmp_path: Path,
) -> None:
    """A Tarot game made from the web whose seat waits for a MaitreTarot client: made on a
    worker without the listener, it is left to the one with it (no lease, no holder);
    when none holds the kind, any worker takes it, and it ends with no result at once
    rather than wait for clients no process takes."""

    async def run() -> None:
        async with two_workers(tmp_path) as (store, web, tables):
            await tables.hold("maitretarot")
            game_id = await web.create("Tarot", WAITING)
            game, _ = await _game(store, game_id)
            assert (game.bound, game.holder, game.lease_owner) == ("maitretarot", None, None)
            assert game_id not in await web.worker.scan()
            assert game_id in await tables.worker.scan()
            await tables.cancel(game_id)

            await tables.hold("maitretarot", held=False)
            game_id = await web.create("Tarot", WAITING, start=False)
            assert game_id in await web.worker.scan()
            await web.wait(game_id)
            game, _ = await _game(store, game_id)
            assert (game.status, game.result) == ("over", "error")
            assert "takes no MaitreTarot clients" in game.reason

    asyncio.run(run())


def test_an_unbound_game_goes_to_any_worker(tmp_path: Path) -> None:
    async def run() -> None:
        async with two_workers(tmp_path) as (store, first, second):
            await first.hold("maitretarot")
            seats = [SeatSpec("builtin", "random", "a"), SeatSpec("builtin", "random", "b")]
            game_id = await first.create("TicTacToe", seats, start=False)
            game, _ = await _game(store, game_id)
            assert (game.bound, game.holder) == (None, None)
            # Offered to a worker holding nothing as to the one holding a bound kind.
            for worker in (first.worker, second.worker):
                found = await store.orphans(10, worker.name, worker.holding, worker.bound_kinds)
                assert game_id in found, worker.name

    asyncio.run(run())


def test_the_upgrade_from_schema_12_binds_the_games_of_rooms_and_tables(tmp_path: Path) -> None:
    """A room's game and a full table's in play are bound to a holder that is gone; a table
    made from the web, still waiting for its clients, is bound to no holder yet."""

    async def run() -> None:
        async with two_workers(tmp_path) as (store, first, _):
            await first.hold("maitretarot")
            held = await first.create("Tarot", TABLE, start=False)
            waiting = await first.create("Tarot", WAITING, start=False)
            seats = [SeatSpec("builtin", "random", "a"), SeatSpec("builtin", "random", "b")]
            free = await first.create("TicTacToe", seats, start=False)
        async with store_of(tmp_path) as old, old.engine.begin() as connection:
            for statement in (*LADDER_14, *BOUND_13):  # the later schemas' too
                await connection.exec_driver_sql(statement)
            await connection.exec_driver_sql("UPDATE meta SET value = '12' WHERE key = 'schema'")
        async with store_of(tmp_path) as store:
            bound = {g: (await _game(store, g))[0] for g in (held, waiting, free)}
            assert (bound[held].bound, bound[held].holder) == ("maitretarot", "-")
            assert (bound[waiting].bound, bound[waiting].holder) == ("maitretarot", None)
            assert (bound[free].bound, bound[free].holder) == (None, None)
            assert await store.workers_alive() == {}
            async with store.engine.connect() as connection:
                version = await connection.exec_driver_sql(
                    "SELECT value FROM meta WHERE key = 'schema'"
                )
                assert version.scalar_one() == str(SCHEMA_VERSION)

    asyncio.run(run())


@asynccontextmanager
async def store_of(folder: Path) -> AsyncIterator[Store]:
    store = await Store.open(str(folder / "bound.sqlite3"))
    try:
        yield store
    finally:
        await store.close()


async def _game(store: Store, game_id: str) -> tuple[Any, Any]:
    found = await store.game(game_id)
    assert found is not None
    return found


def test_a_cancel_reaching_another_worker_is_made_by_the_driver(tmp_path: Path) -> None:
    """Two workers of one SQLite file, telling each other over their sockets: a game driven
    by one (two persons, waiting for their moves) is cancelled through the other, which
    asks the driver over the bus: the record says who ended it and why."""

    async def run() -> None:
        database = str(tmp_path / "shared.sqlite3")
        folder = tmp_path / "run"
        folder.mkdir()
        stores = [await Store.open(database, shared=True) for _ in range(2)]
        arbitres = [
            Arbitre(load_registry(), store, "http://127.0.0.1:9", run_folder=str(folder))
            for store in stores
        ]
        for arbitre in arbitres:
            await arbitre.run()
        try:
            seats = [SeatSpec("person", "", "ann"), SeatSpec("person", "", "bob")]
            game, _ = await arbitres[0].make("TicTacToe", seats)
            for _ in range(100):  # made through one, handed to either: the workers take turns
                driving = [a for a in arbitres if game.id in a.worker.tasks]
                if driving:
                    break
                await asyncio.sleep(0.05)
            (driver,) = driving
            (other,) = [a for a in arbitres if a is not driver]
            assert await other.cancel(game.id, "a test's organiser")
            ended, _ = await _game(stores[1], game.id)
            assert (ended.status, ended.reason) == ("interrupted", "a test's organiser")
            assert not await other.cancel(game.id, "again")  # over: nothing to cancel
        finally:
            for arbitre in arbitres:
                await arbitre.close()
            for store in stores:
                await store.close()

    asyncio.run(run())
