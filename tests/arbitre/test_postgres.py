"""The Arbitre on a real PostgreSQL server: games recorded, read back, listed, and ended as
interrupted by a restart, as on SQLite."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.arbitre.conftest import Served
from tests.arbitre.postgres import postgres_server
from tournoyons_gui.arbitre.store import SCHEMA_VERSION, Store


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
