"""Fixtures of the Arbitre's tests: the real server in this process (uvicorn on 127.0.0.1,
its own SQLite file) and the quirky engines of :mod:`tests.arbitre.engines`."""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from tests.arbitre.engines import QuirkyEngines
from tests.conftest import _serving, start_server
from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.server.app import create_app
from tournoyons_gui.server.cli import bind


class Served:
    """The Arbitre served in a thread: ``base`` URL, a client, and game helpers;
    ``settings`` go to ``create_app`` (``listen=("0.0.0.0", 0)`` makes a public server's
    outbound policy and limits on 127.0.0.1)."""

    def __init__(self, database: Path, **settings: Any) -> None:
        sock, self.base = bind("127.0.0.1", 0)
        self.port = int(self.base.rsplit(":", 1)[1])
        if "listen" in settings:  # the address pretended, on the port bound
            settings["listen"] = (settings["listen"][0], self.port)
        self.app = create_app(database=str(database), public_url=self.base, **settings)
        self.server = uvicorn.Server(
            uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="on")
        )
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [sock]}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the Arbitre did not start"
            time.sleep(0.02)
        self.http = httpx.Client(base_url=self.base, timeout=30, trust_env=False)

    def arbitre(self) -> Arbitre:
        """Return the running Arbitre (what only this process can tell; the security
        headers' middleware wraps the Starlette app)."""
        inner: Any = self.app
        running: Arbitre = inner.app.state.arbitre_holder()
        return running

    def stop(self) -> None:
        """Stop the server."""
        self.http.close()
        self.server.should_exit = True
        self.thread.join(15)

    def create(self, set_name: str, seats: list[dict[str, str]], **options: Any) -> str:
        """Start a game through the API; return its id."""
        answer = self.http.post(
            "/api/games", json={"set": set_name, "seats": seats, "options": options}
        )
        assert answer.status_code == 201, answer.text
        return str(answer.json()["id"])

    def record(self, game_id: str) -> dict[str, Any]:
        """Return the game's record."""
        answer = self.http.get(f"/games/{game_id}.json")
        assert answer.status_code == 200
        return dict(answer.json())

    def finished(self, game_id: str, within: float = 60) -> dict[str, Any]:
        """Wait until the game is no longer in progress; return its record."""
        deadline = time.monotonic() + within
        while True:
            record = self.record(game_id)
            if record["status"] != "playing":
                return record
            assert time.monotonic() < deadline, f"game {game_id} still playing: {record}"
            time.sleep(0.05)


@contextmanager
def server_process(database: Path | str, *extra: str) -> Iterator[httpx.Client]:
    """Run ``tournoyons-gui serve`` on ``database`` in a subprocess while the block runs
    (``extra``: more arguments); yield a client of its base URL; stop it at the end."""
    serving = _serving(start_server(database, *extra))
    try:
        with httpx.Client(base_url=next(serving), timeout=30, trust_env=False) as client:
            yield client
    finally:
        next(serving, None)


def builtin_engines(*engines: str) -> list[dict[str, str]]:
    """Return entrants or seats of the built-in ``engines``, one each."""
    return [{"kind": "builtin", "engine": engine} for engine in engines]


def create_tournament(
    http: httpx.Client,
    set_name: str,
    entrants: list[dict[str, str]],
    timeout: int | None = None,
    **settings: Any,
) -> str:
    """Start a tournament through the API (``timeout``: the engines' TimeOut option;
    ``settings``: format, games, options ..); return its id."""
    if timeout is not None:
        settings["options"] = {**settings.get("options", {}), "timeout": timeout}
    answer = http.post("/api/tournaments", json={"set": set_name, "entrants": entrants, **settings})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def wait_tournament(
    http: httpx.Client, tournament_id: str, within: float = 180, games_over: int | None = None
) -> dict[str, Any]:
    """Wait until the tournament is over, or until ``games_over`` of its games are when it
    is given (asking more often then, to come back soon after), asking ``http``'s server;
    return its summary."""
    deadline = time.monotonic() + within
    while True:
        summary: dict[str, Any] = http.get(f"/tournaments/{tournament_id}.json").json()
        if games_over is None and summary["status"] == "over":
            return summary
        if games_over is not None and summary["progress"]["over"] >= games_over:
            return summary
        assert time.monotonic() < deadline, summary["progress"]
        time.sleep(0.2 if games_over is None else 0.05)


def start_with_person(
    http: httpx.Client, set_name: str, seats: list[dict[str, str]]
) -> tuple[str, str]:
    """Create a game whose seats include one person through the API; return its id and
    the person's seat token."""
    answer = http.post("/api/games", json={"set": set_name, "seats": seats})
    assert answer.status_code == 201, answer.text
    return answer.json()["id"], answer.json()["persons"][0]["url"].split("seat=", 1)[1]


def wait_moves(http: httpx.Client, game_id: str, count: int, within: float = 10) -> None:
    """Wait until the game has ``count`` moves recorded, asking ``http``'s server."""
    deadline = time.monotonic() + within
    while len(http.get(f"/games/{game_id}.json").json()["moves"]) < count:
        assert time.monotonic() < deadline, f"game {game_id}: fewer than {count} moves"
        time.sleep(0.05)


def play_as_person(
    http: httpx.Client, token: str, number: int, value: str, within: float = 10
) -> None:
    """Play ``value`` as move ``number`` of the person's seat ``token``, asking again until
    the server asks that move (a server just started takes the game over first)."""
    deadline = time.monotonic() + within
    while True:
        played = http.get(f"/play/{token}/{number}", params={"ReturnValue": value})
        if played.status_code == 200:
            return
        assert played.status_code == 404 and time.monotonic() < deadline, played.text
        time.sleep(0.1)


def points_from_records(http: httpx.Client, summary: dict[str, Any]) -> dict[int, float]:
    """Return each entrant's points computed from the games' own records (each checked
    over, its moves numbered 1..n), byes counting 1."""
    points: defaultdict[int, float] = defaultdict(float)
    for game in summary["games"]:
        record = http.get(f"/games/{game['id']}.json").json()
        assert record["status"] == "over", record["reason"]
        numbers = [m["number"] for m in record["moves"]]
        assert numbers == list(range(1, len(numbers) + 1)), record["moves"]
        seats = (game["first"], game["second"])
        if record["result"] == "draw":
            points[seats[0]] += 0.5
            points[seats[1]] += 0.5
        elif record["result"] in ("seat1", "seat2"):
            points[seats[int(record["result"][-1]) - 1]] += 1
    for _round, entrant in summary["byes"]:
        points[entrant] += 1
    return dict(points)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The Arbitre on 127.0.0.1, its records in a SQLite file of this module's."""
    served = Served(tmp_path_factory.mktemp("arbitre") / "arbitre.sqlite3")
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture(scope="module")
def quirky() -> Iterator[QuirkyEngines]:
    """The quirky engines on 127.0.0.1."""
    engines = QuirkyEngines()
    engines.start()
    try:
        yield engines
    finally:
        engines.stop()
