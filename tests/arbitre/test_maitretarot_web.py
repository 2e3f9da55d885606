"""A MaitreTarot table opened from the API with two seats chosen (built-in engines, called
over real HTTP) and two left to MaitreTarot clients, which join over real TCP: the game is
played, recorded, and its exchange log shows each message decoded."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from tests.arbitre.maitretarot_clients import Behaviour, SeedClient
from tournoyons_gui.arbitre.maitretarot.lobby import Settings
from tournoyons_gui.server.app import create_app
from tournoyons_gui.server.cli.common import bind, bind_tcp


@asynccontextmanager
async def app_with_tables(tmp_path: Path, settings: Settings) -> AsyncIterator[tuple[str, int]]:
    """Serve the whole application and its MaitreTarot server on free ports of
    127.0.0.1; yield the base URL and the MaitreTarot port."""
    sock, url = bind("127.0.0.1", 0)
    tables, where = bind_tcp("127.0.0.1", 0)
    app = create_app(
        database=str(tmp_path / "arbitre.sqlite3"), public_url=url, maitretarot=(tables, settings)
    )
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    )
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and not serving.done(), "the server did not start"
        await asyncio.sleep(0.02)
    try:
        yield url, int(where.rsplit(":", 1)[1])
    finally:
        server.should_exit = True
        await serving


def test_a_table_of_two_clients_and_two_builtins_opened_from_the_api(tmp_path: Path) -> None:
    async def body() -> tuple[list[Any], dict[str, Any], str]:
        async with (
            app_with_tables(tmp_path, Settings()) as (base, port),
            httpx.AsyncClient(base_url=base, timeout=30, trust_env=False) as http,
        ):
            seats = [
                {"kind": "builtin", "engine": "strong", "name": "Ann"},
                {"kind": "maitretarot", "engine": "", "name": ""},
                {"kind": "builtin", "engine": "random", "name": "Bob"},
                {"kind": "maitretarot", "engine": "", "name": ""},
            ]
            made = await http.post(
                "/api/games",
                json={"set": "Tarot", "seats": seats, "options": {"timeout": 10, "deals": 1}},
            )
            assert made.status_code == 201, made.text
            game_id = made.json()["id"]
            players = [SeedClient(port, "cli", Behaviour(bid=1)), SeedClient(port, "cla")]
            seen = await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 120)
            for _ in range(200):
                record = (await http.get(f"/games/{game_id}.json")).json()
                if record["status"] != "playing":
                    break
                await asyncio.sleep(0.05)
            log = (await http.get(f"/games/{game_id}/log")).text
            watched = await http.get(f"/games/{game_id}?move=5")
            assert watched.status_code == 200
            return list(seen), record, log

    seen, record, log = asyncio.run(body())
    assert sorted(s.place for s in seen) == [1, 3]
    assert all(s.names[0] == "Ann" and s.names[2] == "Bob" for s in seen)
    assert all(s.ended == "replay 0" for s in seen)
    assert record["status"] == "over" and record["result"] == "ranked"
    assert [s["kind"] for s in record["seats"]] == ["builtin", "maitretarot"] * 2
    final = record["reason"].removeprefix("totals ").replace(",", "").split()
    assert all(list(map(str, s.scores[-1][4:])) == final for s in seen)
    assert "SEND_TURN_CARDS" in log and "GET_TURN_CARD" in log and "SEND_NICK" not in log
