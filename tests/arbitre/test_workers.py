"""Two real ``serve`` workers on one real PostgreSQL server: a callback and a person's move
sent to the worker that does not drive the game, a watcher on that worker, and one worker
killed (SIGKILL) in the middle of a tournament while an engine dies too: the other worker
takes over its games and the tournament, no move is lost or recorded twice, and the
standings computed again from the records agree."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from tests.arbitre.conftest import (
    builtin_engines,
    create_tournament,
    points_from_records,
    wait_tournament,
)
from tests.arbitre.engines import callback_query
from tests.arbitre.ircd import Ircd, ircd_server
from tests.arbitre.postgres import postgres_server
from tests.arbitre.threaded import Threaded
from tests.arbitre.timi_players import RawPlayer, game_of, raw_player
from tests.conftest import _serving, start_server

LEASE = "3"


class Engines(Threaded):
    """TicTacToe engines of the test's own: ``/cross`` calls back to ``target`` (another
    worker than the Referee's) after ``delay`` s; ``/mortal`` calls its Referee back and
    dies (refuses every connection) after ``lives`` requests."""

    def __init__(self) -> None:
        self.target = ""
        self.delay = 0.05
        self.lives = 12
        self.calls: list[dict[str, str]] = []
        super().__init__([Route("/cross", self.cross), Route("/mortal", self.mortal)])

    async def _call_back(self, referee: str, params: dict[str, str]) -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            await client.get(f"{referee}?{callback_query(params)}", timeout=10)

    async def cross(self, request: Request) -> Response:
        """Call back to the other worker."""
        params = dict(request.query_params)
        self.calls.append(params)
        if params.get("Referee"):
            await asyncio.sleep(self.delay)
            await self._call_back(f"{self.target}/referee", params)
        return PlainTextResponse("OK")

    async def mortal(self, request: Request) -> Response:
        """Play, then die."""
        params = dict(request.query_params)
        self.lives -= 1
        if self.lives < 0:
            self.server.should_exit = True  # stops accepting: later requests are refused
            return PlainTextResponse("dying", 503)
        if params.get("Referee"):
            await asyncio.sleep(self.delay)
            await self._call_back(params["Referee"], params)
        return PlainTextResponse("OK")


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL server's URL."""
    with postgres_server() as url:
        yield url


def _events(base: str, game_id: str, seen: list[dict[str, Any]], stop: threading.Event) -> None:
    """Collect the game's live events from ``base`` (a watcher on that worker)."""
    with (
        httpx.Client(base_url=base, timeout=60, trust_env=False) as client,
        client.stream("GET", f"/games/{game_id}/events") as stream,
    ):
        for line in stream.iter_lines():
            if line.startswith("data:"):
                event = json.loads(line[5:])
                seen.append(event)
                if event.get("over") or stop.is_set():
                    return


@contextmanager
def workers(postgres: str) -> Iterator[tuple[subprocess.Popen[str], str, str]]:
    """Start two workers on ``postgres``; yield the first's process and both URLs; stop
    both at the end, however the block ends."""
    process_a = start_server(postgres, "--lease", LEASE)
    process_b = start_server(postgres, "--lease", LEASE)
    with contextlib.ExitStack() as stack:
        for process in (process_a, process_b):
            stack.callback(_stop, process)
        serving_a, serving_b = _serving(process_a), _serving(process_b)
        stack.callback(next, serving_a, None)
        stack.callback(next, serving_b, None)
        yield process_a, next(serving_a), next(serving_b)


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
        process.wait(10)


@pytest.mark.slow
def test_answers_and_watchers_on_the_other_worker(postgres: str) -> None:
    with workers(postgres) as (_, a, b), Engines().running() as engines:
        engines.target = b
        with (
            httpx.Client(base_url=a, timeout=30, trust_env=False) as on_a,
            httpx.Client(base_url=b, timeout=30, trust_env=False) as on_b,
        ):
            created = on_a.post(
                "/api/games",
                json={
                    "set": "TicTacToe",
                    "seats": [
                        {"kind": "engine", "engine": engines.base + "/cross"},
                        {"kind": "person"},
                    ],
                },
            ).json()
            game_id = created["id"]
            token = created["persons"][0]["url"].split("seat=", 1)[1]
            seen: list[dict[str, Any]] = []
            stop = threading.Event()
            watcher = threading.Thread(target=_events, args=(b, game_id, seen, stop))
            watcher.start()
            deadline = time.monotonic() + 60
            number = 2
            while True:
                record = on_b.get(f"/games/{game_id}.json").json()
                if record["status"] != "playing":
                    break
                assert time.monotonic() < deadline, record
                if len(record["moves"]) == number - 1:
                    cells = ["0"] * 9
                    for move in record["moves"]:
                        cells[int(move["value"]) - 1] = "x"
                    free = str(cells.index("0") + 1)
                    played = on_b.get(f"/play/{token}/{number}", params={"ReturnValue": free})
                    if played.status_code == 200:
                        number += 2
                time.sleep(0.05)
            stop.set()
            watcher.join(30)
        # Every engine move reached the Referee of worker A through worker B.
        assert record["status"] == "over", record["reason"]
        engine_moves = [m for m in record["moves"] if m["seat"] == 0]
        requests = [c for c in engines.calls if c.get("Referee")]
        assert len(engine_moves) == len(requests) >= 3
        assert all(c["Referee"] == f"{a}/referee" for c in requests)
        assert [m["number"] for m in record["moves"]] == list(range(1, len(record["moves"]) + 1))
        # The watcher on worker B saw the game move and end.
        counts = [e["moves"] for e in seen]
        assert seen and seen[-1]["over"] and counts[-1] == len(record["moves"])
        assert len(set(counts)) >= 3, seen


@pytest.mark.slow
def test_a_worker_killed_mid_tournament_loses_nothing(postgres: str) -> None:
    with workers(postgres) as (process_a, a, b), Engines().running() as engines:
        engines.target = a  # /cross calls worker A, which is killed: those answers are lost
        with httpx.Client(base_url=b, timeout=30, trust_env=False) as on_b:
            with httpx.Client(base_url=a, timeout=30, trust_env=False) as on_a:
                entrants = [
                    *builtin_engines("perfect", "random"),
                    {"kind": "engine", "engine": engines.base + "/cross"},
                    {"kind": "engine", "engine": engines.base + "/mortal"},
                ]
                tournament_id = create_tournament(
                    on_a,
                    "TicTacToe",
                    entrants,
                    format="round-robin",
                    games=4,
                    concurrency=3,
                    timeout=5,
                )
                wait_tournament(on_a, tournament_id, within=60, games_over=5)
            process_a.kill()  # SIGKILL: no lease given back, no goodbye
            process_a.wait(10)
            summary = wait_tournament(on_b, tournament_id, within=240)
            assert summary["progress"] == {"planned": 24, "over": 24, "playing": 0}
            met = Counter((g["first"], g["second"]) for g in summary["games"])
            for x, y in itertools.combinations(range(4), 2):
                assert met[(x, y)] == met[(y, x)] == 2, met
            points = points_from_records(on_b, summary)
            mortal_lost_late = 0
            for game in summary["games"]:
                record = on_b.get(f"/games/{game['id']}.json").json()
                seats = (game["first"], game["second"])
                mortal = [i for i, e in enumerate(seats) if e == 3]
                if mortal and "unreachable" in record["seats"][mortal[0]]["error"]:
                    mortal_lost_late += 1
                    assert record["result"] == f"seat{2 - mortal[0]}", record
            for row in summary["standings"]:
                assert row["points"] == points.get(row["entrant"], 0), (row, points)
            assert mortal_lost_late >= 1, "the engine that died lost nothing"


#: The rooms the two workers referee in the rooms' test.
ROOMS = 4


async def names(player: RawPlayer, room: str) -> list[str]:
    """Return who is in ``room`` now (``NAMES``), operators marked ``@``."""
    mark = len(player.heard)
    player.send(f"NAMES {room}")
    await player.expect(
        lambda _: any(
            h.command == "366" and h.target.split()[-1] == room for h in player.heard[mark:]
        )
    )
    found = player.heard[mark:]
    return [
        n for h in found if h.command == "353" and h.target.endswith(room) for n in h.text.split()
    ]


async def referees(player: RawPlayer) -> dict[str, list[str]]:
    """Return the rooms ``#p4-1`` .. each with the referees (``Arbitre...``) in it."""
    rooms = {}
    for number in range(1, ROOMS + 1):
        room = f"#p4-{number}"
        rooms[room] = [n.lstrip("@") for n in await names(player, room) if "Arbitre" in n]
    return rooms


async def until(check: Callable[[], Awaitable[bool]], within: float = 60) -> None:
    """Wait until ``check`` passes, at most ``within`` seconds."""
    deadline = time.monotonic() + within
    while not await check():
        assert time.monotonic() < deadline, "never"
        await asyncio.sleep(0.3)


@pytest.mark.slow
def test_rooms_spread_over_the_workers_and_a_killed_workers_rooms_open_again(
    postgres: str,
) -> None:
    """Two ``serve --irc`` workers on one PostgreSQL referee four rooms, two each (A is
    ``Arbitre``, B, started second, ``Arbitre1``). A game is played in one of A's rooms;
    A is killed (SIGKILL): the game ends as ``server error`` in the records, and B takes
    the room, opens it again and seats the two players still in it in a new game."""
    with ircd_server() as ircd:
        irc = ("--irc", ircd.url, "--rooms", str(ROOMS), "--think", "10", "--lease", LEASE)
        process_a = start_server(postgres, *irc)
        with contextlib.ExitStack() as stack:
            stack.callback(_stop, process_a)
            serving_a = _serving(process_a)
            stack.callback(next, serving_a, None)
            next(serving_a)
            asyncio.run(_rooms_scenario(ircd, postgres, process_a, irc, stack))


async def _rooms_scenario(
    ircd: Ircd,
    postgres: str,
    process_a: subprocess.Popen[str],
    irc: tuple[str, ...],
    stack: contextlib.ExitStack,
) -> None:
    async with (
        raw_player(ircd.port, "watcher") as watcher,
        raw_player(ircd.port, "alice") as alice,
        raw_player(ircd.port, "bob") as bob,
    ):

        async def all_with_a() -> bool:
            return all(r == ["Arbitre"] for r in (await referees(watcher)).values())

        await until(all_with_a)
        process_b = start_server(postgres, *irc)
        stack.callback(_stop, process_b)
        serving_b = _serving(process_b)
        stack.callback(next, serving_b, None)
        b = await asyncio.to_thread(next, serving_b)

        async def spread() -> bool:
            held = list((await referees(watcher)).values())
            return sorted(held) == [["Arbitre"]] * 2 + [["Arbitre1"]] * 2

        await until(spread)
        room = next(r for r, held in (await referees(watcher)).items() if held == ["Arbitre"])
        await alice.join(room)
        await bob.join(room)
        await alice.said(room, "play alice 10")
        alice.say(room, "play 4")
        await alice.said(room, "play bob 10")
        game_id = game_of(alice, room)
        process_a.kill()  # SIGKILL: no lease given back, no QUIT
        process_a.wait(10)
        async with httpx.AsyncClient(base_url=b, timeout=30, trust_env=False) as on_b:

            async def ended() -> bool:
                record = (await on_b.get(f"/games/{game_id}.json")).json()
                return bool(record["status"] != "playing")

            await until(ended)
            record = (await on_b.get(f"/games/{game_id}.json")).json()
            assert (record["result"], record["reason"]) == ("error", "server error")
            assert [m["value"] for m in record["moves"]] == ["D"]
            # B opened the room again and seated those still in it.
            await alice.expect(
                lambda h: h.nick == "Arbitre1" and h.target == room and h.text.startswith("play ")
            )
            assert (await referees(watcher))[room] == ["Arbitre1"]
            listed = (await on_b.get("/rooms")).text
            assert listed.count('data-room="#p4-') == ROOMS
