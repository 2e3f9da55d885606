"""The Arbitre on a real PostgreSQL server: games recorded, read back, listed, and ended as
interrupted by a restart, as on SQLite."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.arbitre.conftest import Served
from tests.arbitre.postgres import postgres_server
from tests.arbitre.test_match_summary import match_listed_in_order
from tournoyons_gui.arbitre.store import (
    SCHEMA_VERSION,
    Game,
    LeaseLost,
    NewMove,
    Store,
    aware,
)
from tournoyons_gui.arbitre.store import base as store_module


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL server's URL."""
    with postgres_server() as url:
        yield url


def test_games_are_recorded_in_postgresql(postgres: str) -> None:
    served = Served(postgres)  # type: ignore[arg-type]
    try:
        ids = [
            served.create(
                name,
                [{"kind": "builtin", "engine": "random"}, {"kind": "builtin", "engine": "random"}],
            )
            for name in ("TicTacToe", "Reversi", "MasterMind")
        ]
        for game_id in ids:
            record = served.finished(game_id)
            assert record["status"] == "over" and record["moves"]
            assert [m["number"] for m in record["moves"]] == list(
                range(1, len(record["moves"]) + 1)
            )
        listed = served.http.get("/games", params={"set": "reversi"}).text
        assert ids[1] in listed and ids[0] not in listed
    finally:
        served.stop()


def test_a_match_s_games_are_listed_in_order_in_postgresql(postgres: str) -> None:
    async def run() -> None:
        store = await Store.open(postgres)
        try:
            await match_listed_in_order(store)
        finally:
            await store.close()

    asyncio.run(run())


def test_schema_version_is_kept_and_a_newer_one_refused(postgres: str) -> None:
    async def check() -> None:
        store = await Store.open(postgres)
        async with store.engine.begin() as conn:
            version = (
                await conn.exec_driver_sql("SELECT value FROM meta WHERE key = 'schema'")
            ).scalar_one()
            assert version == str(SCHEMA_VERSION)
            await conn.exec_driver_sql("UPDATE meta SET value = '999' WHERE key = 'schema'")
        await store.close()
        with pytest.raises(RuntimeError, match="newer"):
            await Store.open(postgres)
        engine_store = Store(store.engine)
        async with engine_store.engine.begin() as conn:
            await conn.exec_driver_sql(
                f"UPDATE meta SET value = '{SCHEMA_VERSION}' WHERE key = 'schema'"
            )
        await engine_store.close()
        again = await Store.open(postgres)
        assert await again.playing() == []
        await again.close()

    asyncio.run(check())


def test_sqlite_file_reopens_with_its_records(tmp_path: Path) -> None:
    database = tmp_path / "a.sqlite3"
    served = Served(database)
    try:
        game_id = served.finished(
            served.create(
                "TicTacToe",
                [
                    {"kind": "builtin", "engine": "perfect"},
                    {"kind": "builtin", "engine": "perfect"},
                ],
            )
        )["id"]
    finally:
        served.stop()
    again = Served(database)
    try:
        record = again.record(game_id)
        assert record["result"] == "draw" and len(record["moves"]) == 9
    finally:
        again.stop()


async def _add_game(store: Store, game_id: str) -> None:
    """Record a TicTacToe game in play, with no seats (what leases and asks need)."""
    game = Game(game_id, "TicTacToe", "playing", {}, {}, {}, 0, None, "", "", store.now())
    await store.create_game(game, [])


def test_workers_whose_clocks_differ_agree_on_a_lease(
    postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker on a host whose clock runs 40 s ahead measures leases by the database's
    clock: it does not take a game whose 15 s lease another worker holds and renews, and
    takes it once that lease has really expired."""
    real_now = store_module.now

    async def check() -> None:
        on_time = await Store.open(postgres)
        await _add_game(on_time, "clockgame001")
        assert await on_time.acquire("clockgame001", "worker-a", 15)
        monkeypatch.setattr(store_module, "now", lambda: real_now() + dt.timedelta(seconds=40))
        ahead = await Store.open(postgres)
        assert abs(ahead.clock_offset + dt.timedelta(seconds=40)) < dt.timedelta(seconds=1)
        assert abs(ahead.now() - real_now()) < dt.timedelta(seconds=1)
        assert not await ahead.acquire("clockgame001", "worker-b", 15)
        assert "clockgame001" not in await ahead.orphans(10)
        # The host's clock is stepped on (NTP): the database's time runs on regardless.
        monkeypatch.setattr(store_module, "now", lambda: real_now() + dt.timedelta(seconds=100))
        assert abs(ahead.now() - real_now()) < dt.timedelta(seconds=1)
        assert not await ahead.acquire("clockgame001", "worker-b", 15)
        # The lease runs out by the database's clock: the host that is ahead may take it.
        await on_time.renew("worker-a", -1, ["clockgame001"])
        assert "clockgame001" in await ahead.orphans(10)
        assert await ahead.acquire("clockgame001", "worker-b", 15)
        monkeypatch.undo()  # back on the host whose clock is right
        assert not await on_time.acquire("clockgame001", "worker-a", 15)
        await ahead.close()
        await on_time.close()

    asyncio.run(check())


@pytest.mark.parametrize("where", ["sqlite", "postgresql"])
def test_a_finished_games_asks_answer_late_then_are_forgotten(
    where: str, postgres: str, tmp_path: Path
) -> None:
    """Once a game is over its asks are closed, not dropped: an answer arriving later, at
    any worker, is refused as late and names its game (so it is logged against it); an
    hour after their deadline they are forgotten."""

    async def check() -> None:
        store = await Store.open(postgres if where == "postgresql" else str(tmp_path / "a.db"))
        game_id = f"late{where[:8]}"
        await _add_game(store, game_id)
        later = store.now() + dt.timedelta(seconds=30)
        for move_id in ("3", "4"):
            assert await store.expect(f"k{where}", move_id, game_id, 0, later) is None
        kind, _ = await store.answer(f"k{where}", "3", "5", "Value=5")
        assert kind == "taken"
        await store.close_pending(game_id)
        kind, row = await store.answer(f"k{where}", "4", "6", "Value=6")
        assert kind == "late" and row is not None and (row.game_id, row.seat) == (game_id, 0)
        kind, _ = await store.answer(f"k{where}", "3", "7", "Value=7")
        assert kind == "duplicate"
        await store.purge_pending()  # kept an hour after their deadline
        assert (await store.answer(f"k{where}", "4", "6", "Value=6"))[0] == "late"
        # (Other tests' asks share the PostgreSQL database: at least these two go.)
        assert await store.purge_pending(dt.timedelta(seconds=-60)) >= 2
        assert await store.answer(f"k{where}", "4", "6", "Value=6") == ("unknown", None)
        assert await store.answer(f"k{where}", "3", "7", "Value=7") == ("unknown", None)
        await store.close()

    asyncio.run(check())


def test_a_connection_postgresql_dropped_while_idle_is_replaced_before_use(
    postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool pings a connection idle for ``PING_IDLE`` seconds before handing it out
    (not every one: the move path would pay three round trips a transaction): one the
    server closed meanwhile is replaced, and the store's next query is answered."""

    async def check() -> None:
        store = await Store.open(postgres)
        try:
            playing = await store.playing()
            monkeypatch.setattr(store_module, "PING_IDLE", 0.0)
            killer = await Store.open(postgres)
            try:
                async with killer.engine.begin() as conn:
                    ended = await conn.exec_driver_sql(
                        "SELECT count(*) FROM pg_stat_activity, "
                        "LATERAL pg_terminate_backend(pid) AS killed "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                        "AND killed"
                    )
                    assert ended.scalar_one() >= 1  # the store's pooled connection among them
            finally:
                await killer.close()
            assert await store.playing() == playing
        finally:
            await store.close()

    asyncio.run(check())


@pytest.mark.parametrize("where", ["sqlite", "postgresql"])
def test_moves_are_appended_by_their_driver_only_and_once(
    where: str, postgres: str, tmp_path: Path
) -> None:
    """A step's moves and their exchanges are appended together by the worker holding the
    game's lease, as the moves that follow the recorded ones; another worker, or a driver
    whose idea of the game is stale, writes nothing (PostgreSQL appends in one statement,
    SQLite in one transaction)."""

    def move(number: int, seat: int) -> NewMove:
        at = dt.datetime.now(dt.UTC)
        logged = [(seat, "request", f"/e?MoveId={number}", at), (seat, "callback", "Value=A", at)]
        turn = {"state": {"n": number}, "params": {}, "over": False}
        return NewMove(number, seat, str(number), turn, f"T{number}", 3, "Value=A", logged)

    async def check() -> None:
        store = await Store.open(postgres if where == "postgresql" else str(tmp_path / "a.db"))
        try:
            game_id = f"append{where}"[:12]
            await _add_game(store, game_id)
            assert await store.acquire(game_id, "driver", 15)
            assert await store.append_moves(game_id, "driver", [move(1, 0)]) == (
                move(1, 0).turn,
                1,
            )
            with pytest.raises(LeaseLost):
                await store.append_moves(game_id, "another", [move(2, 1)])
            with pytest.raises(RuntimeError, match="changed under its driver"):
                await store.append_moves(game_id, "driver", [move(1, 1)])  # move 1 again
            assert await store.append_moves(game_id, "driver", [move(2, 1), move(3, 0)]) == (
                move(3, 0).turn,
                3,
            )
            found = await store.game(game_id)
            assert found is not None and found[0].moves == 3 and found[0].turn == move(3, 0).turn
            moves = await store.moves(game_id)
            assert [(m.number, m.seat, m.value, m.tray) for m in moves] == [
                (1, 0, "1", "T1"),
                (2, 1, "2", "T2"),
                (3, 0, "3", "T3"),
            ]
            stamped = [m.at for m in moves] + [e.at for e in await store.exchanges(game_id)]
            assert all(abs(aware(at) - store.now()) < dt.timedelta(minutes=1) for at in stamped)
            logged = [(e.move_id, e.kind, e.detail) for e in await store.exchanges(game_id)]
            assert logged == [
                (str(n), kind, detail)
                for n in (1, 2, 3)
                for kind, detail in (("request", f"/e?MoveId={n}"), ("callback", "Value=A"))
            ]
        finally:
            await store.close()

    asyncio.run(check())


def test_a_nul_in_an_id_or_a_filter_finds_nothing_on_postgresql(postgres: str) -> None:
    # PostgreSQL's text holds no NUL and refuses one even to compare: a NUL from a request
    # finds no record, as on SQLite, rather than a 500.
    served = Served(postgres)  # type: ignore[arg-type]
    try:
        for path in ("/games/%00", "/games/%00.json", "/interfaces/%00", "/engines/%00"):
            assert served.http.get(path).status_code == 404, path
        for path in ("/tournaments/%00", "/api/interfaces/%00", "/games/%00/compare"):
            assert served.http.get(path).status_code == 404, path
        # A filter holding a NUL can be no name: refused before any read.
        listed = served.http.get("/games", params={"seat": "a\x00", "set": "\x00"})
        assert listed.status_code == 400 and "control character" in listed.text
    finally:
        served.stop()
