"""MaitreTarot tables as Tarot games of the Arbitre: clients of the tests' own (written from
the seed's tables) connect over real TCP on 127.0.0.1 to our MaitreTarot server, whose
tables are games of a real Arbitre on a real SQLite file, recorded move by move."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.arbitre.maitretarot_clients import Behaviour, SeedClient, Seen
from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.maitretarot.lobby import Settings
from tournoyons_gui.arbitre.maitretarot.server import MaitreTarotServer
from tournoyons_gui.arbitre.match import SeatSpec
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


def seat_ends(record: dict[str, Any]) -> list[tuple[int | None, int | None, str]]:
    """Return each seat's (Status, rank, error) in the record."""
    return [(s["status"], s["rank"], s["error"]) for s in record["seats"]]


def test_a_client_sending_garbage_loses_and_the_match_ends_cleanly(tmp_path: Path) -> None:
    async def body(server: MaitreTarotServer, arbitre: Arbitre) -> Any:
        seen = await play(server.port, [Behaviour(bid=1), Behaviour(garbage_at=2), None, None])
        (record,) = await records(arbitre)
        return seen, record

    seen, record = asyncio.run(served(tmp_path, Settings(timeout=10, deals=1), body))
    assert record["status"] == "over"
    ends = seat_ends(record)
    assert ends[1][0] == 9 and ends[1][1] == 4 and "out of turn" in ends[1][2]
    assert [end[:2] for n, end in enumerate(ends) if n != 1] == [(1, 1)] * 3
    assert seen[1].ended == "closed by the server"
    assert all(s.ended == "replay 0" and s.scores[-1][:4] == (0, 0, 0, 0) for s in seen[::2])


@pytest.mark.slow
def test_a_silent_client_and_a_client_leaving_mid_trick_lose(tmp_path: Path) -> None:
    async def body(server: MaitreTarotServer, arbitre: Arbitre) -> Any:
        silent = asyncio.create_task(
            play(server.port, [None, Behaviour(bid=2), Behaviour(silent_at=3), None])
        )
        await asyncio.sleep(0.5)
        leaving = await play(server.port, [Behaviour(bid=1), None, None, Behaviour(leave_at=4)])
        return await silent, leaving, await records(arbitre)

    silent, leaving, found = asyncio.run(served(tmp_path, Settings(timeout=4, deals=1), body))
    by_fault = {r["seats"][2]["error"] != "": r for r in found}
    late, left = by_fault[True], by_fault[False]
    assert seat_ends(late)[2][0] == 9 and "no GET_TURN_CARD within 4 s" in seat_ends(late)[2][2]
    assert seat_ends(left)[3][0] == 9 and "disconnected" in seat_ends(left)[3][2]
    assert all(s.ended == "replay 0" for s in silent[:2] + leaving[:3])


def test_a_client_answering_0_to_the_replay_question_ends_the_match(tmp_path: Path) -> None:
    async def body(server: MaitreTarotServer, arbitre: Arbitre) -> Any:
        seen = await play(server.port, [Behaviour(bid=2), None, Behaviour(replay=0), None])
        (record,) = await records(arbitre)
        return seen, record, await totals(arbitre, record["id"])

    seen, record, final = asyncio.run(served(tmp_path, Settings(timeout=10, deals=3), body))
    assert all(s.deals == 1 and s.replays == [0] for s in seen)
    assert record["status"] == "over" and "answered 0 to the replay question" in record["reason"]
    assert all(error == "" and status in (1, 3) for status, _, error in seat_ends(record))
    ranks = [end[1] for end in seat_ends(record)]
    assert ranks == [1 + sum(t > mine for t in final) for mine in final]
    assert all(s.scores[-1][4:] == final for s in seen)


@pytest.mark.slow
def test_twenty_tables_at_once_every_one_recorded(tmp_path: Path) -> None:
    async def body(server: MaitreTarotServer, arbitre: Arbitre) -> Any:
        seen = await play(server.port, [Behaviour(bid=1)] * 80)
        return seen, await records(arbitre)

    seen, found = asyncio.run(served(tmp_path, Settings(timeout=30, deals=1), body))
    assert len(found) == 20
    assert all(r["status"] == "over" and len(r["moves"]) >= 4 for r in found)
    assert all(s.ended == "replay 0" for s in seen)
    for record in found:
        names = sorted(s["name"] for s in record["seats"])
        assert len(set(names)) == 4 and all(n.startswith("nick") for n in names)


def test_a_game_of_clients_whose_driver_stopped_ends_in_error(tmp_path: Path) -> None:
    """A table's game made by another process holding its clients, which stopped: taken
    over here, it ends with no result (its clients' connections died with their holder)."""

    async def body(server: MaitreTarotServer, arbitre: Arbitre) -> Any:
        holder = Arbitre(load_registry(), arbitre.store, "http://127.0.0.1:9")
        await holder.run()
        await holder.hold("maitretarot")
        seats = [SeatSpec("maitretarot", f"127.0.0.1:{n}", f"p{n}") for n in range(4)]
        game_id = await holder.create("Tarot", seats, start=False)
        assert game_id not in await arbitre.worker.scan()  # its holder is alive
        await holder.close()
        assert game_id in await arbitre.worker.scan()
        await arbitre.wait(game_id)
        return await arbitre.record(game_id)

    record = asyncio.run(served(tmp_path, Settings(), body))
    assert record is not None and record["result"] == "error"
    assert record["reason"] == "server error"
    assert all(s["status"] == 9 for s in record["seats"])


def test_a_client_coming_after_a_cancelled_game_gets_a_table_of_its_own(tmp_path: Path) -> None:
    async def body(server: MaitreTarotServer, arbitre: Arbitre) -> Any:
        left = SeatSpec("maitretarot", "", "")
        seats = [left] + [SeatSpec("builtin", "random", f"b{n}") for n in range(3)]
        game_id = await arbitre.create("Tarot", seats)
        while not any(o.tag == game_id for o in server.lobby.openings):
            await asyncio.sleep(0.02)  # the game waits for its client
        assert await arbitre.cancel(game_id)
        seen = await play(server.port, [Behaviour(bid=1)] * 4)
        return seen, game_id, await records(arbitre)

    seen, cancelled, found = asyncio.run(served(tmp_path, Settings(timeout=30, deals=1), body))
    assert all(s.names == ["nick0", "nick1", "nick2", "nick3"] for s in seen)
    assert all(s.ended == "replay 0" for s in seen)
    (dead,) = [r for r in found if r["id"] == cancelled]
    assert dead["status"] == "interrupted" and dead["moves"] == []
    (table,) = [r for r in found if r["id"] != cancelled]
    assert table["status"] == "over" and [s["name"] for s in table["seats"]] == [
        "nick0",
        "nick1",
        "nick2",
        "nick3",
    ]
