"""The timi rooms' state in the store, on a real ngIRCd, with ``serve --irc`` (a
driver refereeing the rooms) and a web process of its own (``serve --no-drive``) on one
PostgreSQL database, as a deployment runs them:

- ``/rooms`` of the web process names who is in each room as it changes: both players in
  the middle of a game, a spectator with a nick full of IRC's odd characters (shown as
  text), a player waiting alone; once they leave, no longer;
- the referee's operator status: a referee restarted (its process killed, another one
  taking the room over) joins a room where the players stayed and is not its operator any
  more. Without an IRC operator account it stays so, and ``/rooms`` says it; with one
  (``$TOURNOYONS_IRC_OPER``) it gives itself the status back, and again when someone takes
  it from it.
"""

from __future__ import annotations

import asyncio
import html.parser
import signal
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from tests.arbitre.ircd import OPER, Ircd, ircd_server
from tests.arbitre.postgres import postgres_server
from tests.arbitre.rooms_kept import ROOM, room_open
from tests.arbitre.timi_players import RawPlayer, raw_player
from tests.arbitre.web_processes import Web

pytestmark = pytest.mark.arbitre

#: The drivers' lease: a killed driver's rooms are taken over after it. Long enough that
#: ``/rooms`` showing who came in cannot be the lease's renewal (every third of it).
LEASE = "60"
#: A spectator's nick of IRC's odd characters (RFC 2812: ``[]\\`_^{|}`` and ``-``).
ODD = "[x]\\`^{y}|_-"


class Rooms(html.parser.HTMLParser):
    """The rooms of a ``/rooms`` page: by channel, the text of each cell marked ``data-*``
    (players, spectators, referee) and the referee's ``data-referee-op``."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.rooms: dict[str, dict[str, str]] = {}
        self._room: dict[str, str] | None = None
        self._cell = ""
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "tr" and found.get("data-room"):
            self._room = self.rooms.setdefault(str(found["data-room"]), {})
        elif tag == "td" and self._room is not None:
            for name in ("data-players", "data-spectators", "data-referee"):
                if name in found:
                    self._cell = name.removeprefix("data-")
                    self._room[self._cell] = ""
            if "data-referee-op" in found:
                self._room["op"] = str(found["data-referee-op"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self._cell = ""
        elif tag == "tr":
            self._room = None

    def handle_data(self, data: str) -> None:
        if self._room is not None and self._cell:
            self._room[self._cell] += data


@pytest.fixture
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL server's URL (one a test: rooms are numbered on)."""
    with postgres_server() as url:
        yield url


async def rooms_of(web: Web) -> dict[str, dict[str, str]]:
    """Return the rooms ``/rooms`` of ``web`` shows."""
    answer = await asyncio.to_thread(web.get, "/rooms")
    assert answer.status_code == 200
    return Rooms(answer.text).rooms


async def shown(
    web: Web, test: Callable[[dict[str, dict[str, str]]], bool], within: float = 15
) -> dict[str, dict[str, str]]:
    """Return ``/rooms`` of ``web`` once ``test(rooms)`` holds."""
    deadline = time.monotonic() + within
    while True:
        rooms = await rooms_of(web)
        if test(rooms):
            return rooms
        assert time.monotonic() < deadline, rooms
        await asyncio.sleep(0.2)


def driver(database: str, ircd: Ircd, lease: str = LEASE, env: dict[str, str] | None = None) -> Web:
    """Return a driver refereeing one room on ``ircd`` (``serve --irc``), not started."""
    options = ("--irc", ircd.url, "--rooms", "1", "--think", "20", "--lease", lease)
    return Web(database, *options, env=env)


@asynccontextmanager
async def started(*processes: Web) -> AsyncIterator[None]:
    """Start ``processes``; stop them at the end."""
    try:
        for process in processes:
            await asyncio.to_thread(process.start)
        yield
    finally:
        for process in processes:
            await asyncio.to_thread(process.stop)


async def names(player: RawPlayer, room: str = ROOM) -> list[str]:
    """Return the nicks ``NAMES room`` lists now, with their prefixes (``@`` operator)."""
    mark = len(player.heard)
    player.send(f"NAMES {room}")
    end = await player.expect(
        lambda h: h.command == "366" and h.target.split()[-1:] == [room], since=mark
    )
    return [
        nick
        for h in player.heard[mark : player.heard.index(end, mark)]
        if h.command == "353"
        for nick in h.text.split()
    ]


async def in_room(player: RawPlayer, nick: str, room: str = ROOM, within: float = 60) -> list[str]:
    """Return ``NAMES room`` once ``nick`` (with its prefix, if any) is listed."""
    deadline = time.monotonic() + within
    while True:
        found = await names(player, room)
        if nick in found:
            return found
        assert time.monotonic() < deadline, found
        await asyncio.sleep(0.2)


def run(scenario: Callable[[Ircd, str], Any], postgres: str) -> None:
    """Run ``scenario`` with an ngIRCd of its own and the database."""
    with ircd_server() as ircd:
        asyncio.run(scenario(ircd, postgres))


@pytest.mark.slow
def test_rooms_names_who_is_in_each_room_as_it_changes(postgres: str) -> None:
    """Mid-game, ``/rooms`` of the web process names both players and the spectator (her
    odd nick as text) long before the lease's renewal; once the players leave (the game
    ends, the room is archived), they are named no more; a player waiting alone in the
    next room is named, then not once he leaves."""

    async def scenario(ircd: Ircd, database: str) -> None:
        web = Web(database)
        async with (
            started(driver(database, ircd), web),
            raw_player(ircd.port, "alice") as a,
            raw_player(ircd.port, "bob") as b,
            raw_player(ircd.port, ODD) as odd,
        ):
            await room_open(a)
            await odd.join(ROOM)
            await a.join(ROOM)
            await b.join(ROOM)
            await a.said(ROOM, "play alice 20")
            came = time.monotonic()
            rooms = await shown(web, lambda r: r.get(ROOM, {}).get("players") == "alice, bob")
            assert time.monotonic() - came < float(LEASE) / 6
            assert rooms[ROOM]["spectators"] == ODD and rooms[ROOM]["referee"].startswith(
                "Arbitre (operator)"
            )
            assert rooms[ROOM]["op"] == "yes"
            a.send(f"PART {ROOM}")
            await b.expect(lambda h: h.text == "end alice left")
            rooms = await shown(web, lambda r: ROOM not in r and "#p4-2" in r)
            assert "alice" not in str(rooms) and "bob" not in str(rooms)
            await room_open(b, "#p4-2")
            await b.join("#p4-2")
            await shown(web, lambda r: r["#p4-2"]["players"] == "bob")
            b.send("PART #p4-2")
            rooms = await shown(web, lambda r: r["#p4-2"]["players"] == "")
            assert rooms["#p4-2"]["spectators"] == ""

    run(scenario, postgres)


@pytest.mark.slow
def test_a_restarted_referee_gets_its_operator_status_back(postgres: str) -> None:
    """The driver is killed mid-game; the one started in its place takes the room over and
    joins it, where alice and bob stayed: it is not the room's operator, and without an
    IRC operator account it stays so (``/rooms`` says it). Killed again, the next one,
    given the account, is the room's operator again; when the test's IRC operator takes
    the status from it, it gives it back to itself."""

    async def scenario(ircd: Ircd, database: str) -> None:
        web = Web(database)
        first = driver(database, ircd, "3")
        async with (
            started(web, first),
            raw_player(ircd.port, "alice") as a,
            raw_player(ircd.port, "bob") as b,
            raw_player(ircd.port, "oper") as oper,
        ):
            await room_open(a)
            await a.join(ROOM)
            await b.join(ROOM)
            await a.said(ROOM, "play alice 20")
            await shown(web, lambda r: r.get(ROOM, {}).get("op") == "yes")
            mark = len(a.heard)
            await asyncio.to_thread(first.stop, signal.SIGKILL)
            await a.expect(lambda h: h.command == "QUIT" and h.nick == "Arbitre", since=mark)

            plain = driver(database, ircd, "3")
            async with started(plain):
                listed = await in_room(a, "Arbitre")
                assert "@Arbitre" not in listed and "@alice" not in listed, listed
                rooms = await shown(web, lambda r: r.get(ROOM, {}).get("op") == "no", 60)
                assert "not the room's operator" in rooms[ROOM]["referee"]
                assert sorted(rooms[ROOM]["players"].split(", ")) == ["alice", "bob"]
                mark = len(a.heard)
                await asyncio.to_thread(plain.stop, signal.SIGKILL)
            await a.expect(lambda h: h.command == "QUIT" and h.nick == "Arbitre", since=mark)

            account = {"TOURNOYONS_IRC_OPER": f"{OPER[0]}:{OPER[1]}"}
            privileged = driver(database, ircd, "3", env=account)
            async with started(privileged):
                listed = await in_room(a, "@Arbitre")
                assert "alice" in listed and "bob" in listed, listed
                await a.expect(lambda h: h.command == "MODE" and "+o Arbitre" in h.raw)
                await shown(web, lambda r: r.get(ROOM, {}).get("op") == "yes", 60)
                oper.send(f"OPER {OPER[0]} {OPER[1]}")
                await oper.expect(lambda h: h.command == "381")
                mark = len(a.heard)
                oper.send(f"MODE {ROOM} -o Arbitre")
                await a.expect(lambda h: h.command == "MODE" and "-o Arbitre" in h.raw, since=mark)
                await a.expect(lambda h: h.command == "MODE" and "+o Arbitre" in h.raw, since=mark)
                assert "@Arbitre" in await names(a)

    run(scenario, postgres)


def test_a_schema_10_database_is_upgraded_with_its_rooms(postgres: str) -> None:
    """A PostgreSQL database of schema 10 (no checks, no room referee) with a room open is
    upgraded in place when a server opens it: the room is kept, its referee not known yet,
    and checks can be stored."""
    import datetime as dt

    from tests.arbitre.test_ops import LISTS_12
    from tournoyons_gui.arbitre.store import SCHEMA_VERSION, CheckRun, Store

    async def check() -> None:
        store = await Store.open(postgres)
        room = await store.take_room("#p4-", 1, "worker-a", 60)
        assert room is not None
        async with store.engine.begin() as connection:
            await connection.exec_driver_sql("DROP TABLE checks")
            await connection.exec_driver_sql("ALTER TABLE rooms DROP COLUMN referee")
            await connection.exec_driver_sql("ALTER TABLE rooms DROP COLUMN referee_op")
            for statement in LISTS_12:  # schema 12's columns, added again by its upgrade
                await connection.exec_driver_sql(statement)
            await connection.exec_driver_sql("UPDATE meta SET value = '10' WHERE key = 'schema'")
        await store.close()
        store = await Store.open(postgres)
        try:
            [(found, _)] = await store.open_rooms()
            assert (found.channel, found.referee, found.referee_op) == ("#p4-1", "", None)
            assert await store.room_seen("#p4-1", "worker-a", {"players": ["ann"]}, "Arb", True)
            [(found, _)] = await store.open_rooms()
            assert (found.people, found.referee, found.referee_op) == (
                {"players": ["ann"]},
                "Arb",
                True,
            )
            run = CheckRun("RUN0000001", "B-tictactoe", "T", "/t/", "TicTacToe", "running")
            await store.start_check(run, "worker-a", 30)
            stored = await store.check("RUN0000001")
            assert stored is not None and stored.status == "running"
            assert stored.started_at is not None
            assert abs(stored.started_at - store.now()) < dt.timedelta(minutes=1)
            async with store.engine.connect() as connection:
                version = (
                    await connection.exec_driver_sql("SELECT value FROM meta WHERE key = 'schema'")
                ).scalar_one()
            assert version == str(SCHEMA_VERSION)
        finally:
            await store.close()

    asyncio.run(check())
