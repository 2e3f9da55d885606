"""PostgreSQL's appends grouped: the moves of the games in flight go to the
database together, one statement and one commit, on a real PostgreSQL server. Under many
games at once no move is lost or recorded twice and every game's moves are numbered 1..n;
a game whose append fails (a constraint violated, a value refused, the connection lost,
before or after its commit) fails alone, and the other games' moves are recorded."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from collections.abc import Iterator
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest
from sqlalchemy.exc import DBAPIError

from tests.arbitre.conftest import Served
from tests.arbitre.postgres import postgres_server
from tournoyons_gui.arbitre.store import Game, LeaseLost, NewMove, Store
from tournoyons_gui.arbitre.store.appends import GroupedAppends

pytestmark = pytest.mark.arbitre

#: Games appending at once, and the moves each appends one at a time.
GAMES, MOVES = 48, 12


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL server's URL."""
    with postgres_server() as url:
        yield url


def move(number: int, kind: str = "request") -> NewMove:
    """Return move ``number`` (seat 0 on odd numbers) with two exchanges logged."""
    at = dt.datetime.now(dt.UTC)
    seat = (number + 1) % 2
    logged = [(seat, kind, f"/e?MoveId={number}", at), (seat, "callback", "Value=A", at)]
    turn = {"state": {"n": number}, "params": {}, "over": False}
    return NewMove(number, seat, str(number), turn, f"T{number}", 3, "Value=A", logged)


async def new_games(store: Store, prefix: str, count: int, owner: str = "driver") -> list[str]:
    """Record ``count`` games in play driven by ``owner``; return their ids."""
    ids = [f"{prefix}{n:04d}"[:12] for n in range(count)]
    for game_id in ids:
        game = Game(game_id, "TicTacToe", "playing", {}, {}, {}, 0, None, "", "", store.now())
        await store.create_game(game, [])
        assert await store.acquire(game_id, owner, 300)
    return ids


async def recorded(store: Store, game_id: str) -> tuple[list[int], list[str], int]:
    """Return a game's move numbers, its exchanges' move ids in the log's order, and the
    move count its row says."""
    found = await store.game(game_id)
    assert found is not None
    moves = [m.number for m in await store.moves(game_id)]
    logged = [e.move_id for e in await store.exchanges(game_id)]
    return moves, logged, found[0].moves


def grouped(store: Store) -> GroupedAppends:
    """Return the store's grouped appends (made at its first append)."""
    found = store._grouped
    assert found is not None
    return found


def test_many_games_at_once_lose_and_double_no_move(postgres: str) -> None:
    """48 games append 12 moves each, all at once (each game one move at a time, as its
    driver does): every move is recorded once, numbered 1..12 with its exchanges in order,
    and the appends went to the database in fewer statements than moves (grouped)."""

    async def check() -> None:
        store = await Store.open(postgres)
        try:
            ids = await new_games(store, "many", GAMES)
            rng = random.Random(3)

            async def drive(game_id: str) -> None:
                for number in range(1, MOVES + 1):
                    await asyncio.sleep(rng.random() / 200)
                    turn, count = await store.append_moves(game_id, "driver", [move(number)])
                    assert (turn, count) == (move(number).turn, number)

            await asyncio.gather(*(drive(g) for g in ids))
            for game_id in ids:
                moves, logged, count = await recorded(store, game_id)
                assert moves == list(range(1, MOVES + 1)) and count == MOVES
                assert logged == [str(n) for n in range(1, MOVES + 1) for _ in range(2)]
            appends = grouped(store)
            assert appends.grouped == GAMES * MOVES
            assert appends.statements < GAMES * MOVES / 2, appends.statements
        finally:
            await store.close()

    asyncio.run(check())


def test_a_game_whose_append_fails_fails_alone(postgres: str) -> None:
    """Among games appending together, one has a move row of its next number already (a
    constraint violated), one logs an exchange kind too long for its column (a value
    refused), one is driven by a worker that lost its lease: each of them fails with its
    own error, and every other game's moves are recorded, numbered 1..n."""

    async def check() -> None:
        store = await Store.open(postgres)
        try:
            ids = await new_games(store, "fail", 24)
            clashing, refused, stolen = ids[3], ids[10], ids[17]
            for game_id in ids:
                await store.append_moves(game_id, "driver", [move(1)])
            async with store.engine.begin() as connection:
                await connection.exec_driver_sql(
                    "INSERT INTO moves (game_id, number, seat, value, turn, tray, ms, query,"
                    " error, at) VALUES ($1, 2, 1, 'X', '{}', '', 0, '', '', now())",
                    (clashing,),
                )
                await connection.exec_driver_sql(
                    "UPDATE games SET lease_owner = 'another' WHERE id = $1", (stolen,)
                )

            async def second(game_id: str) -> Any:
                kind = "k" * 40 if game_id == refused else "request"
                try:
                    return await store.append_moves(game_id, "driver", [move(2, kind)])
                except Exception as failed:
                    return failed

            results = dict(zip(ids, await asyncio.gather(*(second(g) for g in ids)), strict=True))
            assert isinstance(results[clashing], DBAPIError), results[clashing]
            assert "moves_game_id_number_key" in str(results[clashing]) or "unique" in str(
                results[clashing]
            )
            assert isinstance(results[refused], DBAPIError), results[refused]
            assert isinstance(results[stolen], LeaseLost), results[stolen]
            for game_id in ids:
                moves, logged, count = await recorded(store, game_id)
                if game_id == clashing:
                    assert (moves, count) == ([1, 2], 1)  # the row put there, not the append
                elif game_id in (refused, stolen):
                    assert (moves, logged, count) == ([1], ["1", "1"], 1)
                else:
                    assert (moves, count) == ([1, 2], 2), game_id
                    assert logged == ["1", "1", "2", "2"]
        finally:
            await store.close()

    asyncio.run(check())


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_connection_lost_with_a_group_loses_no_move(
    postgres: str, when: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection carrying a group of appends is lost, ``before`` its statement reached
    the database or ``after`` it was committed (its answer lost): each game is appended
    again alone on a new connection, or found appended already; every game has its moves
    once, numbered 1..n, and no caller sees an error."""

    async def check() -> None:
        store = await Store.open(postgres)
        try:
            ids = await new_games(store, f"lost{when[0]}", 16)
            for game_id in ids:
                await store.append_moves(game_id, "driver", [move(1)])
            appends = grouped(store)
            real = appends.statement
            failures = {"left": 1}

            async def flaky(work: Any) -> Any:
                if failures["left"] and appends.grouped - appends_before > 1:
                    failures["left"] = 0
                    if when == "after":
                        await real(work)
                    raise DBAPIError("INSERT ...", {}, ConnectionResetError("connection lost"))
                return await real(work)

            appends_before = appends.grouped
            monkeypatch.setattr(appends, "statement", flaky)
            results = await asyncio.gather(
                *(store.append_moves(g, "driver", [move(2), move(3)]) for g in ids)
            )
            assert not failures["left"], "no group was sent"
            assert all(count == 3 for _, count in results)
            for game_id in ids:
                moves, logged, count = await recorded(store, game_id)
                assert (moves, count) == ([1, 2, 3], 3)
                assert logged == ["1", "1", "2", "2", "3", "3"]
        finally:
            await store.close()

    asyncio.run(check())


def test_postgresql_dropping_every_connection_mid_games_loses_no_move(postgres: str) -> None:
    """PostgreSQL ends every connection of the Arbitre (``pg_terminate_backend``) while 32
    games append at once: each game's driver starts again from the moves recorded (as a
    worker taking a game over does), and in the end every game has its moves once,
    numbered 1..n, the appends that returned among them."""

    async def check() -> None:
        store = await Store.open(postgres)
        try:
            ids = await new_games(store, "drop", 32)
            told: dict[str, set[int]] = {g: set() for g in ids}
            rng = random.Random(5)
            errors = []

            async def taken_over(game_id: str) -> int:
                """The next move's number as the record says (read again until the
                database answers, as a worker's scan would)."""
                while True:
                    try:
                        return (await recorded(store, game_id))[2] + 1
                    except DBAPIError:
                        await asyncio.sleep(0.05)

            async def drive(game_id: str) -> None:
                number = 1
                while number <= MOVES:
                    try:
                        await store.append_moves(game_id, "driver", [move(number)])
                    except Exception as failed:  # given up: taken over from the record
                        errors.append(failed)
                        await asyncio.sleep(0.05)
                        number = await taken_over(game_id)
                        continue
                    told[game_id].add(number)
                    number += 1
                    await asyncio.sleep(rng.random() / 50)

            async def drop(playing: asyncio.Future[Any]) -> int:
                """End the Arbitre's connections from a connection of the test's own,
                every 50 ms while the games are played."""
                ended = 0
                killer = await asyncpg.connect(store.dsn)
                try:
                    while not playing.done():
                        await asyncio.sleep(0.05)
                        ended += len(
                            await killer.fetch(
                                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE pid <> pg_backend_pid() AND datname = current_database()"
                            )
                        )
                finally:
                    await killer.close()
                return ended

            playing = asyncio.gather(*(drive(g) for g in ids))
            dropped = await drop(playing)
            await playing
            assert dropped >= 1
        finally:
            await store.close()
        reader = await Store.open(postgres)  # the records as any worker reads them now
        try:
            for game_id in ids:
                moves, logged, count = await recorded(reader, game_id)
                assert moves == list(range(1, MOVES + 1)) and count == MOVES
                assert logged == [str(n) for n in range(1, MOVES + 1) for _ in range(2)]
                assert told[game_id] <= set(moves)
        finally:
            await reader.close()

    asyncio.run(check())


def test_games_played_at_once_on_postgresql_are_whole(postgres: str, tmp_path: Any) -> None:
    """30 games of three Sets between built-in engines, created at once through the API of
    a server on PostgreSQL: each one ends over, its moves numbered 1..n."""
    del tmp_path
    served = Served(postgres)  # type: ignore[arg-type]
    try:
        seats = [{"kind": "builtin", "engine": "random"}, {"kind": "builtin", "engine": "random"}]
        ids = [served.create(name, seats) for name in ("TicTacToe", "Reversi", "ConnectFour") * 10]
        for game_id in ids:
            record = served.finished(game_id, within=120)
            numbers = [m["number"] for m in record["moves"]]
            assert record["status"] == "over" and numbers == list(range(1, len(numbers) + 1))
            assert numbers
    finally:
        served.stop()
