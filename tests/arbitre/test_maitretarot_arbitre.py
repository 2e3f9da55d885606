"""MaitreTarot tables as Tarot games of the Arbitre: clients of the tests' own (written from
the seed's tables) connect over real TCP on 127.0.0.1 to our MaitreTarot server, whose
tables are games of a real Arbitre on a real SQLite file, recorded move by move."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from tests.arbitre.maitretarot_clients import Behaviour, SeedClient, Seen
from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.maitretarot.lobby import Settings
from tournoyons_gui.arbitre.maitretarot.server import MaitreTarotServer
from tournoyons_gui.arbitre.store import Store
from tournoyons_gui.interfaces.registry import load_registry

T = TypeVar("T")


async def served(
    tmp_path: Path, settings: Settings, body: Callable[[MaitreTarotServer, Arbitre], Awaitable[T]]
) -> T:
    """Run an Arbitre and its MaitreTarot server on a free port while ``body`` runs."""
    store = await Store.open(str(tmp_path / "arbitre.sqlite3"))
    arbitre = Arbitre(load_registry(), store, "http://127.0.0.1:9")
    await arbitre.run()
    server = MaitreTarotServer(arbitre, settings)
    await server.start("127.0.0.1", 0)
    try:
        return await body(server, arbitre)
    finally:
        await server.close()
        await arbitre.close()
        await store.close()


async def play(port: int, clients: list[Behaviour | None]) -> list[Seen]:
    """Connect ``clients`` in order and play until every one has ended."""
    players = [SeedClient(port, f"nick{n}", how) for n, how in enumerate(clients)]
    tasks = []
    for player in players:
        tasks.append(asyncio.create_task(player.play()))
        await asyncio.sleep(0.02)
    return list(await asyncio.wait_for(asyncio.gather(*tasks), 120))


async def totals(arbitre: Arbitre, game_id: str) -> tuple[int, ...]:
    """Return the totals of the game's last recorded position (the Tarot Set's state)."""
    moves = await arbitre.store.moves(game_id)
    return tuple(moves[-1].turn["state"]["totals"])


async def records(arbitre: Arbitre) -> list[dict[str, Any]]:
    """Return every game's record, once none is in play."""
    for _ in range(200):
        if not await arbitre.store.playing():
            break
        await asyncio.sleep(0.05)
    found = []
    for game_id in await all_games(arbitre):
        record = await arbitre.record(game_id)
        assert record is not None
        found.append(record)
    return found


async def all_games(arbitre: Arbitre) -> list[str]:
    page = await arbitre.store.list_games()
    return [game.id for game in page.games]


def test_four_clients_play_a_match_recorded_move_by_move(tmp_path: Path) -> None:
    async def body(server: MaitreTarotServer, arbitre: Arbitre) -> Any:
        seen = await play(server.port, [Behaviour(bid=1), Behaviour(bid=2), None, None])
        (record,) = await records(arbitre)
        return seen, record, await totals(arbitre, record["id"])

    seen, record, final = asyncio.run(served(tmp_path, Settings(timeout=10, deals=2), body))
    assert record["status"] == "over" and record["set"] == "Tarot"
    assert [s["name"] for s in record["seats"]] == ["nick0", "nick1", "nick2", "nick3"]
    assert all(
        s["kind"] == "maitretarot" and s["url"].startswith("127.0.0.1:") for s in record["seats"]
    )
    assert all(s.ended == "replay 0" and s.replays[-1] == 0 for s in seen)
    assert all(client.scores[-1][4:] == final for client in seen)
    assert sum(final) == 0 and record["reason"] == "totals " + ", ".join(map(str, final))
    cards = [m for m in record["moves"] if len(m["value"]) == 2]
    assert len(cards) == 2 * 72 and len(record["moves"]) >= 2 * (4 + 72)
    log = {(e["kind"], e["detail"].split()[0]) for e in record["exchanges"]}
    assert {
        ("sent", "SEND_TURN_CARDS"),
        ("received", "GET_TURN_CARD"),
        ("sent", "SEND_SCORE"),
    } <= log
