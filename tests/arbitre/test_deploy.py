"""The operator's deployment, run as an operator runs it: ``scripts/deploy.py``
in a folder of its own starts a real PostgreSQL, ngIRCd, two web processes (``serve
--no-drive``), two drivers and nginx in front. A tournament is played through nginx
between built-in engines and engines of the test's own over HTTP, whose callbacks go to
nginx's public URL, so through a web process to the records and by ``NOTIFY`` to the
driver; both web processes take some. A driver is SIGKILLed while both drive games: the
other (or itself, started again by deploy.py) takes its games over when their leases
expire, and every game ends whole. The rooms are open on ngIRCd. Then the deployment is
stopped (``--stop``: SIGTERM) and no process of it is left, no port held."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NamedTuple

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from tests.arbitre.conftest import builtin_engines, create_tournament, points_from_records
from tests.arbitre.engines import callback_query
from tests.arbitre.supervised import proc_stat
from tests.arbitre.threaded import Threaded
from tests.arbitre.timi_players import raw_player
from tournoyons_gui.arbitre.store import Store

ROOT = Path(__file__).resolve().parents[2]
#: Seconds a dead driver's games wait before another worker takes them (serve --lease):
#: leases are renewed every LEASE / 3 s, so half of it tells the live driver's games
#: (renewed) from the dead one's (not yet expired) with a second to spare each way.
LEASE = 6
#: Web processes and drivers (deploy.py's defaults).
WEB, DRIVERS = 2, 2
#: Seconds deploy.py may take to say it is ready (a first start makes the cluster).
READY_WAIT = 120.0


class Engines(Threaded):
    """TicTacToe engines of the test's own at ``/play/<name>``: each request with a
    ``Referee`` is answered by a callback there (the first free cell) after ``delay`` s,
    then 200, as real engines do."""

    def __init__(self) -> None:
        self.delay = 0.3  # a game of theirs lasts a second or more: a driver is killed mid-game
        self.calls: list[tuple[str, dict[str, str]]] = []
        super().__init__([Route("/play/{name}", self.play)])

    async def play(self, request: Request) -> Response:
        """Call the Referee back, then answer."""
        params = dict(request.query_params)
        self.calls.append((request.path_params["name"], params))
        if params.get("Referee"):
            await asyncio.sleep(self.delay)
            async with httpx.AsyncClient(trust_env=False) as client:
                await client.get(f"{params['Referee']}?{callback_query(params)}", timeout=10)
        return PlainTextResponse("OK")


@dataclass
class Deployed:
    """A running deployment: deploy.py's process, its folder, ports and state."""

    process: subprocess.Popen[str]
    folder: Path
    ports: list[int]
    errors: Path

    def state(self) -> dict[str, Any]:
        """Return ``run/deploy.json``."""
        found: dict[str, Any] = json.loads((self.folder / "run" / "deploy.json").read_text())
        return found

    def log(self, name: str) -> str:
        """Return the log ``logs/<name>.log``."""
        return (self.folder / "logs" / f"{name}.log").read_text(errors="replace")


def _ephemeral_low() -> int:
    """Return the first port of the kernel's ephemeral range (32768 when unreadable)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def _free_ports(count: int) -> list[int]:
    """Return ``count`` consecutive ports free on 127.0.0.1 now, below the kernel's
    ephemeral range (``ip_local_port_range``, from 32768 by default): the ports the other
    tests' connections and ``bind(0)`` probes take come from that range, so one of them
    cannot take a port of the block between this probe and the deployment's bind."""
    low = _ephemeral_low()
    for _ in range(200):
        base = random.randrange(10000, low - count)
        ports = list(range(base, base + count))
        with contextlib.ExitStack() as stack:
            try:
                for port in ports:
                    probe = stack.enter_context(socket.socket())
                    probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        return ports
    raise AssertionError("no block of free ports")


def _read_until_ready(stream: IO[str], seen: list[str], ready: threading.Event) -> None:
    for line in stream:
        seen.append(line)
        if line.strip() == "deploy: ready":
            ready.set()


@contextmanager
def deployment() -> Iterator[Deployed]:
    """Run ``scripts/deploy.py`` in a new folder on free ports until the block ends; yield
    it once it says it is ready. The folder is reachable by other users (PostgreSQL runs
    as ``postgres`` when we are root)."""
    parent = Path(tempfile.mkdtemp(prefix="tournoyons-deploy-"))
    parent.chmod(0o755)
    folder = parent / "srv"
    # nginx, then from the next (deploy.py's plan) PostgreSQL, the web processes, the
    # drivers and their metrics; then ngIRCd.
    ports = _free_ports(2 + 2 * (WEB + DRIVERS) + 1)
    errors = parent / "deploy.err"
    command = [
        sys.executable,
        str(ROOT / "scripts" / "deploy.py"),
        "--folder",
        str(folder),
        "--port",
        str(ports[0]),
        "--irc-port",
        str(ports[-1]),
        "--lease",
        str(LEASE),
    ]
    with errors.open("w") as stderr:
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=stderr, text=True, cwd=ROOT
        )
    seen: list[str] = []
    ready = threading.Event()
    assert process.stdout is not None
    reader = threading.Thread(target=_read_until_ready, args=(process.stdout, seen, ready))
    reader.start()
    try:
        deadline = time.monotonic() + READY_WAIT
        while not ready.wait(0.2):
            assert process.poll() is None, "deploy.py exited:\n" + errors.read_text()
            assert time.monotonic() < deadline, "deploy.py not ready:\n" + errors.read_text()
        yield Deployed(process, folder, ports, errors)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(90)
            except subprocess.TimeoutExpired:
                process.kill()  # its children get SIGTERM (PR_SET_PDEATHSIG)
                process.wait()
        reader.join(10)
        process.stdout.close()
        shutil.rmtree(parent, ignore_errors=True)


def _script(deployed: Deployed, *options: str) -> subprocess.CompletedProcess[str]:
    """Run ``scripts/deploy.py --folder FOLDER OPTIONS`` (``--status``, ``--stop``)."""
    script = [sys.executable, str(ROOT / "scripts" / "deploy.py")]
    return subprocess.run(
        [*script, "--folder", str(deployed.folder), *options],
        capture_output=True,
        text=True,
        timeout=150,
        check=False,
    )


def _descendants(pid: int) -> dict[int, str]:
    """Return every process under ``pid`` (children, theirs ...), each with its start time
    (so that a number used again is not taken for it)."""
    parents: dict[int, list[int]] = {}
    started: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or (fields := proc_stat(int(entry.name))) is None:
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry.name))
        started[int(entry.name)] = fields[19]
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found[child] = started[child]
            todo.append(child)
    return found


def _alive(pid: int, started: str) -> bool:
    """Whether process ``pid``, started at ``started``, still exists (a zombie is gone)."""
    fields = proc_stat(pid)
    return fields is not None and fields[19] == started and fields[0] != "Z"


class Lease(NamedTuple):
    """A game's lease: its ``owner`` (a driver), its end, and whether the game will last a
    while yet (an engine of the test's own in it: each of its moves waits a while, so that
    the game does not end in the milliseconds before a kill lands, as one of built-in
    engines alone does)."""

    owner: str
    until: dt.datetime | None
    lasting: bool


#: What :func:`_leases` gives a game no longer in play.
NO_LEASE = Lease("", None, False)


async def _leases(store: Store) -> dict[str, Lease]:
    """Return the lease of each game in play under one."""
    found = {}
    for game_id in await store.playing():
        got = await store.game(game_id)
        if got is not None and got[0].lease_owner:
            lasting = any(seat.kind == "engine" for seat in got[1])
            found[game_id] = Lease(got[0].lease_owner, got[0].lease_until, lasting)
    return found


async def _kill_a_driver(deployed: Deployed, database: str, tournament_id: str) -> set[str]:
    """Once both drivers drive games of the tournament that will last a while (some games
    already over), SIGKILL driver-1; return the games it was driving (their leases no
    longer renewed), once each is taken over (another owner) or over. (A game of built-in
    engines only ends within milliseconds: a driver holding only such games when the check
    was made may hold none when killed.)"""
    store = await Store.open(database)
    try:
        async with httpx.AsyncClient(base_url=deployed.state()["public_url"]) as http:
            deadline = time.monotonic() + 60
            while True:
                assert time.monotonic() < deadline, "the two drivers never drove games together"
                summary = (await http.get(f"/tournaments/{tournament_id}.json")).json()
                before = await _leases(store)
                owners = {lease.owner for lease in before.values() if lease.lasting}
                if summary["progress"]["over"] >= 2 and len(owners) == DRIVERS:
                    break
                await asyncio.sleep(0.05)
        os.kill(deployed.state()["children"]["driver-1"]["pid"], signal.SIGKILL)
        killed = time.monotonic()
        # A renewal the killed driver sent as it died lands now or never.
        await asyncio.sleep(0.3)
        since = await _leases(store)
        stalled = set(since)
        while time.monotonic() < killed + LEASE / 2:
            await asyncio.sleep(0.1)
            now = await _leases(store)
            stalled = {g for g in stalled if now.get(g) == since[g]}  # (a game's seats stay)
        dead = {since[g].owner for g in stalled}
        assert len(dead) == 1 and dead < {lease.owner for lease in before.values()}, (
            before,
            since,
        )
        deadline = time.monotonic() + 30
        while any(now.get(g, NO_LEASE).owner in dead for g in stalled):
            assert time.monotonic() < deadline, "the dead driver's games were not taken over"
            await asyncio.sleep(0.2)
            now = await _leases(store)
        return stalled
    finally:
        await store.close()


async def _rooms(port: int) -> list[str]:
    """Return the rooms ``LIST`` shows on the IRC server (``#p4-1`` ...), asked by a
    visitor of a new nick (the last one's QUIT may still wait in the server's queue)."""
    async with raw_player(port, f"visitor{random.randrange(10**6)}") as watcher:
        mark = len(watcher.heard)
        watcher.send("LIST")
        await watcher.expect(lambda h: h.command == "323", since=mark)
        listed = [h.target.split()[1] for h in watcher.heard[mark:] if h.command == "322"]
        return sorted(room for room in listed if room.startswith("#"))


async def _irc_operators(port: int) -> int:
    """Return how many IRC operators the server counts (``LUSERS``: its 252 reply)."""
    async with raw_player(port, f"visitor{random.randrange(10**6)}") as watcher:
        mark = len(watcher.heard)
        watcher.send("LUSERS")
        end = await watcher.expect(lambda h: h.command in ("252", "255"), since=mark)
        if end.command == "255":  # no 252 reply: no operator
            return 0
        return int(end.target.split()[1])


def _a_game_in_play(http: httpx.Client, tournament_id: str) -> str:
    """Return a game of the tournament in play with an engine of the test's own in it
    (entrants 2 and 3: its moves take a tenth of a second at least)."""
    deadline = time.monotonic() + 30
    while True:
        for game in http.get(f"/tournaments/{tournament_id}.json").json()["games"]:
            if game["status"] == "playing" and {game["first"], game["second"]} & {2, 3}:
                return str(game["id"])
        assert time.monotonic() < deadline, "no game of an engine in play"
        time.sleep(0.05)


def _rooms_or_log(deployed: Deployed) -> list[str]:
    """Return :func:`_rooms`, or fail with ngIRCd's log."""
    try:
        return asyncio.run(_rooms(deployed.ports[-1]))
    except TimeoutError:
        raise AssertionError(deployed.log("ngircd")[-3000:]) from None


def _watch(base: str, game_id: str, seen: list[dict[str, Any]]) -> None:
    """Collect a game's live events through nginx (a watcher's page does the same)."""
    with (
        httpx.Client(base_url=base, timeout=60, trust_env=False) as client,
        client.stream("GET", f"/games/{game_id}/events") as stream,
    ):
        for line in stream.iter_lines():
            if line.startswith("data:"):
                seen.append(json.loads(line[5:]))
                if seen[-1].get("over"):
                    return


@pytest.mark.slow
def test_the_deployment_plays_a_tournament_through_nginx_and_survives_a_driver() -> None:
    with deployment() as deployed, Engines().running() as engines:
        state = deployed.state()
        base = state["public_url"]
        database = (deployed.folder / "postgres" / "database.url").read_text().strip()
        assert base == f"http://127.0.0.1:{deployed.ports[0]}"
        with httpx.Client(base_url=base, timeout=30, trust_env=False) as http:
            assert "Arbitre" in http.get("/arbitre").text
            assert http.get("/metrics").status_code == 404  # never through nginx
            entrants = [
                *builtin_engines("perfect", "random"),
                {"kind": "engine", "engine": f"{engines.base}/play/alpha"},
                {"kind": "engine", "engine": f"{engines.base}/play/beta"},
            ]
            tournament_id = create_tournament(
                http, "TicTacToe", entrants, games=2, concurrency=4, timeout=10
            )
            watched = _a_game_in_play(http, tournament_id)
            seen: list[dict[str, Any]] = []
            watcher = threading.Thread(target=_watch, args=(base, watched, seen))
            watcher.start()
            taken_over = asyncio.run(_kill_a_driver(deployed, database, tournament_id))
            deadline = time.monotonic() + 90
            while (summary := http.get(f"/tournaments/{tournament_id}.json").json())[
                "status"
            ] != "over":
                assert time.monotonic() < deadline, summary["progress"]
                time.sleep(0.2)
            watcher.join(30)
            # Every game whole, those of the killed driver included: moves 1..n, a result.
            assert summary["progress"] == {"planned": 12, "over": 12, "playing": 0}
            points = points_from_records(http, summary)
            assert sum(points.values()) == 12
            for game in summary["games"]:
                record = http.get(f"/games/{game['id']}.json").json()
                assert record["result"] in ("seat1", "seat2", "draw"), record
            assert taken_over <= {g["id"] for g in summary["games"]}
            # The watcher, through nginx, saw its game move and end as it went.
            assert seen and seen[-1]["over"], seen
            assert len({e["moves"] for e in seen}) >= 2, seen
        # The engines' callbacks reached nginx's URL and both web processes took some.
        assert all(p["Referee"] == f"{base}/referee" for _, p in engines.calls if p.get("Referee"))
        for name in ("web-1", "web-2"):
            assert '"GET /referee?' in deployed.log(name), name
        # Nothing failed on the way: no 5xx through nginx, no traceback in a process's log.
        statuses = [
            line.split('" ', 1)[1].split()[0] for line in deployed.log("nginx-access").splitlines()
        ]
        assert statuses and not [s for s in statuses if s.startswith("5")], statuses
        for name in ("web-1", "web-2", "driver-1", "driver-2", "postgres"):
            assert "Traceback" not in deployed.log(name), deployed.log(name)[-3000:]
        assert "driver-1 exited (signal 9): starting it again" in deployed.errors.read_text()
        # The rooms are open on ngIRCd (refereed by the drivers).
        deadline = time.monotonic() + 30
        while (rooms := _rooms_or_log(deployed)) != ["#p4-1", "#p4-2", "#p4-3"]:
            assert time.monotonic() < deadline, rooms
            time.sleep(0.5)
        # /rooms through nginx: each room's referee is its operator; the drivers' IRC
        # operator account (given back its status with it) was taken by ngIRCd.
        while (shown := httpx.get(f"{base}/rooms", trust_env=False).text).count(
            'data-referee-op="yes"'
        ) != 3:
            assert time.monotonic() < deadline, shown
            time.sleep(0.5)
        for name in ("driver-1", "driver-2"):
            assert "refused our OPER" not in deployed.log(name), deployed.log(name)[-3000:]
        assert asyncio.run(_irc_operators(deployed.ports[-1])) == 2
        # Every part answers, driver-1 started again included (--status).
        status = _script(deployed, "--status")
        assert status.returncode == 0, status.stdout
        assert status.stdout.count(": answers") == 7, status.stdout
        # Stopped (--stop: SIGTERM): it exits 0, leaving no process and no port.
        processes = _descendants(deployed.process.pid)
        assert len(processes) >= 7, processes
        stopped = _script(deployed, "--stop")
        assert stopped.returncode == 0, stopped.stdout
        assert deployed.process.wait(10) == 0
        assert not [pid for pid, started in processes.items() if _alive(pid, started)]
        for port in deployed.ports:
            with pytest.raises(ConnectionRefusedError):
                socket.create_connection(("127.0.0.1", port), timeout=5).close()
