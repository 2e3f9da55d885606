"""The ladder with two real ``serve --ladder`` drivers on one real PostgreSQL server, Connect
Four engines of the tests' own over HTTP (tests/arbitre/ladder_engines.py): both schedule
every Set's ladder (each step under the Set's lease in the records), one is killed
(SIGKILL) mid-game, and from the records: every ladder game was made once (each in its
pair, each leg once, the games counted where the pairs count them), no engine ever
played more ladder games at once than its concurrency, the slots the engines hold are
their open pairs', and the games the killed driver was playing were taken over and
ended."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from tests.arbitre.ladder_engines import LadderEngines
from tests.arbitre.postgres import postgres_server
from tests.conftest import _serving, start_server
from tournoyons_gui.arbitre.store import Store

#: The engines: (name, path, concurrency).
ENGINES = (
    ("strong", "strong", 2),
    ("weak", "weak", 1),
    ("random a", "random", 1),
    ("random b", "random", 1),
    ("weak b", "weak", 1),
)
ARGUMENTS = ("--ladder", "--ladder-games", "3", "--ladder-timeout", "4", "--lease", "3")


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL server's URL."""
    with postgres_server() as url:
        yield url


def _over(url: str) -> int:
    """Return the ladder games over, counted in the records."""

    async def count() -> int:
        import asyncpg  # type: ignore[import-untyped]

        connection = await asyncpg.connect(url)
        try:
            return int(
                await connection.fetchval(
                    "SELECT count(*) FROM games WHERE ladder AND status = 'over'"
                )
            )
        finally:
            await connection.close()

    return asyncio.run(count())


def _playing(http: httpx.Client) -> list[str]:
    """Return the games in play among the newest."""
    games = http.get("/api/games", params={"limit": 20}).json()["rows"]
    return [g["id"] for g in games if g["status"] == "playing"]


def _most_at_once(spans: list[tuple[dt.datetime, dt.datetime]]) -> int:
    """Return the most of ``spans`` (start, end) under way at one moment (an end at the
    moment another starts is over by then)."""
    events = sorted([(start, 1) for start, _ in spans] + [(end, -1) for _, end in spans])
    most = now = 0
    for _, step in events:
        now += step
        most = max(most, now)
    return most


async def _records(url: str) -> dict[str, Any]:
    """Read what the checks need straight from the records."""
    store = await Store.open(url)
    try:
        async with store.engine.connect() as conn:

            async def rows(sql: str) -> list[Any]:
                return list((await conn.execute(text(sql))).all())

            return {
                "ladder_games": await rows("SELECT count(*) FROM games WHERE ladder"),
                "legs": await rows("SELECT count(*) FROM ladder_games"),
                "made": await rows("SELECT coalesce(sum(made), 0) FROM ladder_pairs"),
                "pairs": await rows(
                    "SELECT p.number, p.made, p.games, count(l.game_id), "
                    " count(DISTINCT l.leg), coalesce(max(l.leg), -1) "
                    "FROM ladder_pairs p LEFT JOIN ladder_games l "
                    " ON l.set_name = p.set_name AND l.pair = p.number "
                    "GROUP BY p.number, p.made, p.games"
                ),
                "spans": await rows(
                    "SELECT s.registration, g.created_at, g.ended_at, g.status "
                    "FROM games g JOIN seats s ON s.game_id = g.id WHERE g.ladder"
                ),
                "held": await rows(
                    "SELECT e.id, e.ladder_held, e.ladder_concurrency, "
                    " (SELECT count(*) FROM ladder_pairs p WHERE p.status = 'open' "
                    "  AND p.engines::text LIKE '%' || e.id || '%') "
                    "FROM engines e"
                ),
            }
    finally:
        await store.close()


@pytest.mark.slow
def test_two_drivers_make_each_ladder_game_once_and_survive_a_kill(postgres: str) -> None:
    with contextlib.ExitStack() as stack:
        engines = stack.enter_context(LadderEngines().running())
        process_a = start_server(postgres, *ARGUMENTS)
        process_b = start_server(postgres, *ARGUMENTS)
        serving_a, serving_b = _serving(process_a), _serving(process_b)
        stack.callback(next, serving_a, None)
        stack.callback(next, serving_b, None)
        a, b = next(serving_a), next(serving_b)
        on_a = stack.enter_context(httpx.Client(base_url=a, timeout=30, trust_env=False))
        on_b = stack.enter_context(httpx.Client(base_url=b, timeout=30, trust_env=False))
        concurrency: dict[str, int] = {}
        for number, (name, path, most) in enumerate(ENGINES):
            made = (on_a if number % 2 else on_b).post(
                "/api/engines",
                json={
                    "name": name,
                    "url": f"{engines.base}/{path}",
                    "sets": ["ConnectFour"],
                    "kind": "sync",
                    "ladder": True,
                    "ladder_concurrency": most,
                },
            )
            assert made.status_code == 201, made.text
            concurrency[made.json()["id"]] = most

        deadline = time.monotonic() + 90
        while _over(postgres) < 20:
            assert time.monotonic() < deadline, _playing(on_b)
            time.sleep(0.3)
        # Driver A killed in the middle of games (no lease given back, no goodbye).
        engines.delay = 0.05
        time.sleep(0.5)
        playing = _playing(on_b)
        process_a.kill()
        process_a.wait(10)
        before = _over(postgres)
        deadline = time.monotonic() + 90
        while _over(postgres) < before + 12 or any(
            on_b.get(f"/games/{game_id}.json").json()["status"] == "playing" for game_id in playing
        ):
            assert time.monotonic() < deadline, playing
            time.sleep(0.3)
        for game_id in playing:
            record = on_b.get(f"/games/{game_id}.json").json()
            assert record["status"] == "over", record["reason"]
        process_b.terminate()  # the records are read with no driver left
        with contextlib.suppress(subprocess.TimeoutExpired):
            process_b.wait(15)

    found = asyncio.run(_records(postgres))
    # Each ladder game made once, in its pair, each leg once.
    [(games,)], [(legs,)], [(made,)] = found["ladder_games"], found["legs"], found["made"]
    assert games == legs == made >= 32
    for number, pair_made, planned, rows, distinct, last in found["pairs"]:
        assert rows == distinct == pair_made == last + 1 <= planned, (number, pair_made, rows)
    # Never more ladder games at once than an engine's concurrency.
    spans: dict[str, list[tuple[dt.datetime, dt.datetime]]] = {}
    far = dt.datetime.max.replace(tzinfo=dt.UTC)
    for engine, created, ended_at, status in found["spans"]:
        assert status != "playing" or ended_at is None
        spans.setdefault(engine, []).append((created, ended_at or far))
    assert set(spans) == set(concurrency)
    for engine, most in concurrency.items():
        assert _most_at_once(spans[engine]) <= most, engine
    # The slots held are the open pairs'.
    for engine, held, _, open_pairs in found["held"]:
        assert held == open_pairs, engine
