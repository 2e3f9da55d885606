"""Finished games packed (``game_archives``): every page, record, log, replay and compare
of a game is the same, byte for byte, before and after its compaction; a compaction or a
kept aggregates' fill killed (SIGKILL) mid-way resumes with nothing lost or doubled; an
exchange logged after its game was packed is packed too, once; a read meeting a
compaction counts each entry once; ``serve --keep-logs`` drops old exchanges and the log
page says so. On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from sqlalchemy import Table, func, insert, select, text

from tests.arbitre.conftest import Served, builtin_engines
from tests.arbitre.postgres import new_database, postgres_server
from tournoyons_gui.arbitre.compaction import Compactor
from tournoyons_gui.arbitre.store import GameEnd, NewMove, Seat, SeatEnd, Store, new_id
from tournoyons_gui.arbitre.store.archives import ArchiveRow
from tournoyons_gui.arbitre.store.records import Game
from tournoyons_gui.arbitre.store.schema import ExchangeRow, GameRow, MoveRow
from tournoyons_gui.interfaces.registry import load_registry

ROOT = Path(__file__).resolve().parents[2]
OWNER = "tester"
#: Games of every kind: two seats, a simultaneous Set, hidden information, cards, four
#: seats; each played to its end by built-in engines.
PLAYED = [
    ("TicTacToe", ["random", "perfect"]),
    ("ConnectFour", ["random", "strong"]),
    ("Reversi", ["greedy", "random"]),
    ("Rochambeau", ["random", "counter"]),
    ("Seafight", ["random", "hunter"]),
    ("MasterMind", ["random", "consistent"]),
    ("Poker", ["caller", "strength"]),
    ("Tarot", ["random", "strong", "random", "strong"]),
]


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "packed.sqlite3")
    return new_database(str(request.getfixturevalue("postgres")), "packed")


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def _with_store(url: str, work: Any) -> Any:
    store = await Store.open(url)
    try:
        return await work(store)
    finally:
        await store.close()


def counts(url: str) -> dict[str, int]:
    """The rows of moves and exchanges, and the documents."""

    async def read(store: Store) -> dict[str, int]:
        def count(connection: Any) -> dict[str, int]:
            return {
                table.__tablename__: int(
                    connection.scalar(select(func.count()).select_from(table.__table__))
                )
                for table in (MoveRow, ExchangeRow, ArchiveRow)
            }

        return dict(await store.read(count))

    return dict(run(_with_store(url, read)))


def snapshot(http: httpx.Client, game_ids: list[str]) -> dict[str, tuple[int, str]]:
    """Every page and document of each game, as a client receives it."""
    seen: dict[str, tuple[int, str]] = {}
    for game_id in game_ids:
        moves = http.get(f"/games/{game_id}.json").json()["moves"]
        paths = [
            f"/games/{game_id}.json",
            f"/api/games/{game_id}",
            f"/games/{game_id}/log",
            f"/games/{game_id}",
            f"/games/{game_id}/compare",
            f"/games/{game_id}/view?list=1",
        ]
        step = max(1, len(moves) // 6)
        paths += [f"/games/{game_id}?move={n}" for n in range(0, len(moves) + 1, step)]
        paths += [f"/games/{game_id}/view?move={n}" for n in range(0, len(moves) + 1, step)]
        for path in paths:
            answer = http.get(path)
            seen[path] = (answer.status_code, answer.text)
    return seen


@pytest.mark.slow
def test_every_page_is_the_same_before_and_after_compaction(database: str) -> None:
    # Nobody packs while the games are played and read: the slot is someone else's.
    run(_with_store(database, lambda s: s.take_slot("compaction", 1, "someone", 3600)))
    served = Served(Path(database) if "://" not in database else database)  # type: ignore[arg-type]
    try:
        ids = [served.create(name, builtin_engines(*engines)) for name, engines in PLAYED]
        for game_id in ids:
            assert served.finished(game_id, within=120)["status"] == "over"
        assert counts(database)["game_archives"] == 0
        before = snapshot(served.http, ids)
        assert all(status == 200 for status, _ in before.values())
        # The compaction goes: every game packed, no row of a finished game left.
        run(_with_store(database, lambda s: s.release_slot("compaction/1", "someone")))
        deadline = time.monotonic() + 60
        while counts(database)["game_archives"] < len(ids):
            assert time.monotonic() < deadline, counts(database)
            time.sleep(0.2)
        left = counts(database)
        assert left["moves"] == 0 and left["exchanges"] == 0, left
        after = snapshot(served.http, ids)
    finally:
        served.stop()
    changed = [path for path in before if before[path] != after[path]]
    assert not changed, changed[:5]

    # The built-in Sets' Turns are replayed, not kept; the documents are small.
    async def documents(store: Store) -> list[Any]:
        statement = select(
            GameRow.set_name, ArchiveRow.turns, ArchiveRow.moves, func.length(ArchiveRow.data)
        ).join(GameRow, GameRow.id == ArchiveRow.game_id)
        return list(await store.read(lambda connection: connection.execute(statement).all()))

    found = run(_with_store(database, documents))
    for set_name, turns, moves, _ in found:
        if set_name in ("Poker", "Tarot"):  # a deal drawn at random is kept, nothing else
            assert turns < moves / 4, (set_name, turns, moves)
        else:
            assert turns == 0, (set_name, turns)
    assert sum(size for *_, size in found) / len(found) < 6000, found


# --- the store's guarantees, game by game ----------------------------------------------


async def _game(store: Store, moves: int = 6) -> tuple[Game, list[Seat]]:
    """A game of Turns no rules replay (their documents keep them), moves appended as
    the move path appends them, each with its exchanges, then ended."""
    game = Game(
        id=new_id(12),
        set_name="NoSuchSet",
        status="playing",
        options={},
        turn={"state": {"n": 0}, "params": {"Tray": "0"}, "over": False},
        first={"state": {"n": 0}, "params": {"Tray": "0"}, "over": False},
        moves=0,
        winner=None,
        result="",
        reason="",
        created_at=store.now(),
        lease_owner=OWNER,
        lease_until=store.now() + dt.timedelta(hours=1),
    )
    seats = [
        Seat(game.id, index, "engine", f"e{index}", "http://x.test/", new_id(10), new_id(32))
        for index in range(2)
    ]
    await store.create_game(game, seats)
    for number in range(1, moves + 1):
        at = dt.datetime.now(dt.UTC)
        turn = {"state": {"n": number}, "params": {"Tray": str(number)}, "over": False}
        query = f"Game={seats[number % 2].key}&MoveId={number}&Value=v{number}"
        await store.append_moves(
            game.id,
            OWNER,
            [
                NewMove(
                    number,
                    number % 2,
                    f"v{number}",
                    turn,
                    str(number) if number % 3 else "other tray",
                    ms=number,
                    query=query,
                    exchanges=[
                        (number % 2, "request", f"http://x.test/?MoveId={number}", at),
                        (number % 2, "callback", query, at),
                    ],
                )
            ],
        )
    end = GameEnd("over", 0, "seat1", "done")
    assert await store.finish_game(game.id, OWNER, end, [(s, SeatEnd(1)) for s in seats], [])
    return game, seats


async def _whole(store: Store, game_id: str) -> tuple[Any, ...]:
    found = await store.game(game_id)
    assert found is not None
    return (found[0], await store.moves(game_id), await store.exchanges(game_id))


async def _late_and_twice(url: str) -> None:
    store = await Store.open(url)
    try:
        compactor = Compactor(store, load_registry().get, "w1")
        game, _ = await _game(store)
        before = await _whole(store, game.id)
        # Read for packing, then an engine's late callback arrives before the write.
        read = await store.compactable(game.id)
        assert read is not None
        await store.log(game.id, 1, "late", "9", "Game=x&MoveId=9&Value=late")
        packed = await compactor.pack(read)
        assert await store.compact([packed]) == 1
        # The same snapshot written again (another worker's): refused, nothing doubled.
        assert await store.compact([packed]) == 0
        whole = await _whole(store, game.id)
        assert whole[:2] == before[:2]
        assert [e.kind for e in whole[2]] == [e.kind for e in before[2]] + ["late"]
        assert await store.read(_rows(game.id)) == (0, 1)
        # The next pass packs the late row into the document (version 2), once.
        assert await compactor.compact([game.id]) == 1
        assert await store.read(_rows(game.id)) == (0, 0)
        assert await _whole(store, game.id) == whole
        # A read that met a compaction halfway (the rows read, then the document written
        # with them): each entry counted once.
        await store.write(_put_back(whole[1], whole[2]))
        assert await _whole(store, game.id) == whole
    finally:
        await store.close()


def _rows(game_id: str) -> Any:
    def read(connection: Any) -> tuple[int, int]:
        moves = connection.scalar(
            select(func.count()).select_from(MoveRow.__table__).where(MoveRow.game_id == game_id)
        )
        exchanges = connection.scalar(
            select(func.count())
            .select_from(ExchangeRow.__table__)
            .where(ExchangeRow.game_id == game_id)
        )
        return int(moves), int(exchanges)

    return read


def _put_back(moves: list[Any], exchanges: list[Any]) -> Any:
    def write(connection: Any) -> None:
        connection.execute(
            insert(cast(Table, MoveRow.__table__)),
            [{k: getattr(m, k) for k in m.__dataclass_fields__} for m in moves],
        )
        connection.execute(
            insert(cast(Table, ExchangeRow.__table__)),
            [{k: getattr(e, k) for k in e.__dataclass_fields__} for e in exchanges],
        )

    return write


def test_a_late_exchange_is_packed_once_and_reads_count_each_entry_once(database: str) -> None:
    run(_late_and_twice(database))


async def _keep_logs(url: str) -> str:
    store = await Store.open(url)
    try:
        game, _ = await _game(store, moves=3)
        compactor = Compactor(store, load_registry().get, "w1", keep_logs=2)
        assert await compactor.compact([game.id]) == 1
        moves = await store.moves(game.id)
        assert await compactor.drop_logs(store.now() + dt.timedelta(days=1)) == 0  # too soon
        dropped_at = store.now() + dt.timedelta(days=3)
        assert await compactor.drop_logs(dropped_at) == 1
        assert await store.exchanges(game.id) == []
        assert await store.moves(game.id) == moves
        assert await store.logs_dropped(game.id) == dropped_at
        return game.id
    finally:
        await store.close()


def test_keep_logs_drops_old_exchanges_and_the_log_page_says_so(database: str) -> None:
    game_id = run(_keep_logs(database))
    served = Served(Path(database) if "://" not in database else database)  # type: ignore[arg-type]
    try:
        page = served.http.get(f"/games/{game_id}/log")
        assert page.status_code == 200
        assert "data-logs-dropped=" in page.text and "were dropped on" in page.text
        assert served.http.get(f"/games/{game_id}.json").json()["exchanges"] == []
    finally:
        served.stop()


# --- killed mid-way ---------------------------------------------------------------------

KILLED = """
import asyncio, sys, time
from tournoyons_gui.arbitre.compaction import Compactor
from tournoyons_gui.arbitre.store import Store
from tournoyons_gui.interfaces.registry import load_registry

async def main():
    import tournoyons_gui.arbitre.store.kept_records as records
    records._BATCH_SEATS = 2  # a step an engine or two: the kill lands mid-way
    store = await Store.open(sys.argv[1])
    compactor = Compactor(store, load_registry().get, "killed", batch=2)
    while True:
        if sys.argv[2] == "fill":
            await store.fill_kept_step()
        else:
            await compactor.step()
        print("step", flush=True)
        time.sleep(0.3)

asyncio.run(main())
"""


def _kill_after_a_step(url: str, what: str) -> None:
    """Run the compaction (or the kept fill) in a process of its own, a small batch at a
    time, and SIGKILL it once a step has committed."""
    process = subprocess.Popen(
        [sys.executable, "-c", KILLED, url, what],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "step"
        time.sleep(0.35)  # into the next batch
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        if process.stdout is not None:
            process.stdout.close()


async def _games(url: str, count: int) -> dict[str, tuple[Any, ...]]:
    store = await Store.open(url)
    try:
        await store.take_slot("compaction", 1, "someone", 3600)
        made = [(await _game(store, moves=4))[0].id for _ in range(count)]
        await store.release_slot("compaction/1", "someone")
        return {game_id: await _whole(store, game_id) for game_id in made}
    finally:
        await store.close()


async def _resume(url: str, before: dict[str, tuple[Any, ...]]) -> None:
    store = await Store.open(url)
    try:
        packed = await store.read(
            lambda c: int(c.scalar(select(func.count()).select_from(ArchiveRow.__table__)) or 0)
        )
        assert 0 < packed < len(before)  # killed mid-way
        compactor = Compactor(store, load_registry().get, "resumed", batch=3)
        while await compactor.step():
            pass
        for game_id, whole in before.items():
            assert await _whole(store, game_id) == whole
            assert await store.read(_rows(game_id)) == (0, 0)
        total = await store.read(
            lambda c: c.scalar(select(func.count()).select_from(ArchiveRow.__table__))
        )
        assert total == len(before)
    finally:
        await store.close()


@pytest.mark.slow
def test_a_compaction_killed_mid_batch_resumes_with_nothing_lost_or_doubled(
    database: str,
) -> None:
    before = run(_games(database, 9))
    _kill_after_a_step(database, "compact")
    run(_resume(database, before))


async def _fill_started(url: str) -> Any:
    store = await Store.open(url)
    try:
        for _ in range(3):
            await _game(store, moves=2)
        await store.write(lambda c: c.execute(text("UPDATE seats SET registration = 'E' || key")))
        # What the kept records say filled at once, to compare with.
        await store.backfill_kept()
        reference = await store.read(
            lambda c: sorted(map(tuple, c.execute(text("SELECT * FROM engine_sets"))))
        )
        async with store.engine.begin() as connection:
            from tournoyons_gui.arbitre.store.kept import start_fills

            await connection.run_sync(start_fills)
        return reference
    finally:
        await store.close()


async def _fill_resumed(url: str, reference: Any) -> None:
    store = await Store.open(url)
    try:
        assert await store.kept_filling("engine_records") not in (None, "")  # mid-way
        await store.backfill_kept(resume=True)
        assert await store.kept_filling("engine_records") is None
        found = await store.read(
            lambda c: sorted(map(tuple, c.execute(text("SELECT * FROM engine_sets"))))
        )
        assert found == reference
    finally:
        await store.close()


@pytest.mark.slow
def test_a_kept_fill_killed_mid_way_resumes_where_it_committed(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = run(_fill_started(database))
    _kill_after_a_step(database, "fill")
    run(_fill_resumed(database, reference))


# --- packed by several threads at once --------------------------------------------------

THREADS = """
import datetime as dt, sys, threading
from tournoyons_gui.arbitre.store.archives import pack, unpack_positions

at = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
wrong = []

def packs(n):
    for i in range(300):
        first = {"Tray": "0" * (40 + n), "Turn": 1, "seen": [n] * 50}
        turn = {"Tray": "12" * (i % 50), "Turn": i}
        try:
            data = pack(at, [], [], first=first, turn=turn, kept_turns=[])
            if unpack_positions(data) != (first, turn):
                wrong.append((n, i))
        except Exception as error:  # a document that does not read back
            wrong.append((n, i, error))

threads = [threading.Thread(target=packs, args=(n,)) for n in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(f"{len(wrong)} wrong")
"""


def test_games_packed_by_several_threads_at_once_each_read_back_whole() -> None:
    # Two Arbitres of one process (a server and a `play` beside it) pack in threads of
    # their own: Zstandard's compressor, shared, crashed the process (SIGSEGV) or wrote a
    # document that no longer read back. (In a process of its own: a crash is a failure
    # here, not the loss of the test's worker.)
    done = subprocess.run(
        [sys.executable, "-c", THREADS], capture_output=True, text=True, timeout=300
    )
    assert (done.returncode, done.stdout) == (0, "0 wrong\n"), done.stderr[-3000:]
