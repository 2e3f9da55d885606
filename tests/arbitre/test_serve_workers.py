"""``serve --workers 2`` on one SQLite file: two processes on one listening
socket, each serving HTTP and driving games. Engines call back to whichever process the
kernel hands the connection to, persons play through either, a watcher on either sees
every move; one process killed (SIGKILL) mid-games is replaced by uvicorn's supervisor
and its games are taken over from their last recorded move: none is lost or recorded
twice."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from tests.arbitre.engines import callback_query, first_free
from tests.arbitre.supervised import children, cpu, kill, two_workers
from tests.arbitre.threaded import Threaded


class SlowEngines(Threaded):
    """A TicTacToe engine of the test's own (``/slow``): the first free cell, called back
    ``delay`` s after the request, before answering (as real engines do). A callback that
    got no answer (its connection reset: a worker killed) is sent again, as a careful
    engine does: it cannot know whether it was heard."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.requests = 0
        super().__init__([Route("/slow", self.slow)])

    async def slow(self, request: Request) -> Response:
        """Call the Referee back after a while, then answer."""
        params = dict(request.query_params)
        if params.get("Referee"):
            self.requests += 1
            await asyncio.sleep(self.delay)
            value = first_free(params.get("Tray", ""))
            url = f"{params['Referee']}?{callback_query(params, value)}"
            for _ in range(5):
                try:
                    async with httpx.AsyncClient(trust_env=False) as client:
                        await client.get(url, timeout=10)
                    break
                except httpx.TransportError:
                    await asyncio.sleep(0.2)
        return PlainTextResponse("OK")


def _check(record: dict[str, Any]) -> None:
    """Assert a finished engine game's record is whole: over with a result, no seat in
    error, its moves numbered 1..n (none lost, none twice)."""
    assert record["status"] == "over", record["reason"]
    assert record["result"] in ("seat1", "seat2", "draw"), record["reason"]
    errors = [seat["error"] for seat in record["seats"]]
    assert not any(errors), errors
    numbers = [move["number"] for move in record["moves"]]
    assert numbers == list(range(1, len(numbers) + 1)), numbers


def _events(base: str, game_id: str, seen: list[dict[str, Any]]) -> None:
    """Collect the game's live events from ``base`` until it is over."""
    with (
        httpx.Client(base_url=base, timeout=60, trust_env=False) as client,
        client.stream("GET", f"/games/{game_id}/events") as stream,
    ):
        for line in stream.iter_lines():
            if line.startswith("data:"):
                event = json.loads(line[5:])
                seen.append(event)
                if event.get("over"):
                    return


@pytest.mark.slow
def test_two_workers_share_the_games_answers_and_watchers(tmp_path: Path) -> None:
    """Thirty engine games at once and a person's game, on two workers: every game ends
    whole, a watcher sees the person's game move and end, and both workers worked."""
    database = tmp_path / "arbitre.sqlite3"
    with two_workers(database) as (pid, base), SlowEngines(0.02).running() as engines:
        workers = children(pid)
        before = {worker: cpu(worker) for worker in workers}
        seat = {"kind": "engine", "engine": f"{engines.base}/slow"}
        with httpx.Client(base_url=base, timeout=30, trust_env=False) as http:
            ids = []
            for _ in range(30):
                made = http.post("/api/games", json={"set": "TicTacToe", "seats": [seat, seat]})
                assert made.status_code == 201, made.text
                ids.append(made.json()["id"])
            person = http.post(
                "/api/games",
                json={"set": "TicTacToe", "seats": [{"kind": "person"}, seat]},
            ).json()
            token = person["persons"][0]["url"].split("seat=", 1)[1]
            seen: list[dict[str, Any]] = []
            watcher = threading.Thread(target=_events, args=(base, person["id"], seen))
            watcher.start()
            deadline = time.monotonic() + 120
            number = 1
            while True:
                record = http.get(f"/games/{person['id']}.json").json()
                if record["status"] != "playing":
                    break
                assert time.monotonic() < deadline, record
                if len(record["moves"]) == number - 1:
                    cells = ["0"] * 9
                    for move in record["moves"]:
                        cells[int(move["value"]) - 1] = "x"
                    played = http.get(
                        f"/play/{token}/{number}",
                        params={"ReturnValue": str(cells.index("0") + 1)},
                    )
                    if played.status_code == 200:
                        number += 2
                time.sleep(0.05)
            watcher.join(30)
            records = []
            for game_id in ids:
                while (record := http.get(f"/games/{game_id}.json").json())["status"] == "playing":
                    assert time.monotonic() < deadline, record
                    time.sleep(0.1)
                records.append(record)
        for record in records:
            _check(record)
        moves = sum(len(r["moves"]) for r in records)
        assert engines.requests >= moves, "a move was applied without its engine's callback"
        assert seen and seen[-1]["over"], seen
        assert len({e["moves"] for e in seen}) >= 3, seen
        used = [cpu(worker) - before[worker] for worker in workers]
        assert all(seconds > 0.2 for seconds in used), used


@pytest.mark.slow
def test_a_worker_killed_mid_games_is_replaced_and_loses_nothing(tmp_path: Path) -> None:
    """SIGKILL one of two workers while twenty games are under way: the supervisor starts
    another, the games it drove are taken over once their leases expire, and every game
    ends whole (a move recorded once, none lost)."""
    database = tmp_path / "arbitre.sqlite3"
    with two_workers(database) as (pid, base), SlowEngines(0.15).running() as engines:
        seat = {"kind": "engine", "engine": f"{engines.base}/slow"}
        with httpx.Client(base_url=base, timeout=30, trust_env=False) as http:
            ids = [
                http.post("/api/games", json={"set": "TicTacToe", "seats": [seat, seat]}).json()[
                    "id"
                ]
                for _ in range(20)
            ]
            time.sleep(0.6)
            victim = children(pid)[0]
            kill(victim)
        deadline = time.monotonic() + 120
        records = []
        # A new connection each time: one kept to the killed worker is reset, as any
        # client's would be; one to its socket waits until its replacement serves.
        with httpx.Client(
            base_url=base,
            timeout=60,
            trust_env=False,
            limits=httpx.Limits(max_keepalive_connections=0),
        ) as fresh:
            for game_id in ids:
                while (record := fresh.get(f"/games/{game_id}.json").json())["status"] == "playing":
                    assert time.monotonic() < deadline, record
                    time.sleep(0.1)
                records.append(record)
        replaced = children(pid)
        assert victim not in replaced and len(replaced) == 2, replaced
        for record in records:
            _check(record)
        assert any(len(r["moves"]) >= 5 for r in records)
