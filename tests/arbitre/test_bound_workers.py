"""Games bound to one process's connections, under ``serve --workers 2`` as an operator runs
it on a machine of two cores: timi rooms on a real ngIRCd played by raw-socket players of
the tests' own, and MaitreTarot tables played by clients of the tests' own over real TCP.
Every game is made, leased and driven by the worker holding its players' connections:
twenty room games and ten table matches in a row end whole; a worker SIGKILLed mid-game
leaves the survivor's games whole and ends its own as documented (``end server error`` in
the room, the record over with no result), then rooms and tables open again; a game ended
by an error is said to its players, and the room or the table opens again."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.arbitre.ircd import Ircd, ircd_server
from tests.arbitre.maitretarot_clients import Behaviour, SeedClient, Seen
from tests.arbitre.rooms_kept import room_open
from tests.arbitre.supervised import children, connected_to, kill, listening_on, two_workers
from tests.arbitre.timi_players import Heard, RawPlayer, raw_player

pytestmark = [pytest.mark.arbitre, pytest.mark.slow]

TOKEN = "organiser-token-of-the-tests"
#: The referee's lines as fast as the test's server takes them (its penalty is off).
FAST = ("--pace-burst", "100", "--pace-rate", "100")
#: Seconds the tests wait for what a game or a worker does.
WAIT = 60.0


def _get(base: str, path: str, **params: Any) -> Any:
    """Return the JSON ``base`` answers at ``path``, asked again on a new connection when
    one is refused or reset (a worker killed meanwhile, whose socket the kernel still
    gave it)."""
    for _ in range(50):
        try:
            with httpx.Client(base_url=base, timeout=10, trust_env=False) as client:
                return client.get(path, params=params).json()
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError(f"{path}: no answer")


def _record(base: str, game_id: str, *, over: bool = True) -> dict[str, Any]:
    """Return ``game_id``'s record from ``base`` (once over, when ``over``)."""
    deadline = time.monotonic() + WAIT
    while True:
        record: dict[str, Any] = _get(base, f"/games/{game_id}.json")
        if not over or record["status"] != "playing":
            return record
        assert time.monotonic() < deadline, record
        time.sleep(0.1)


def _holder(pid: int, held: Callable[[int], bool]) -> tuple[int, int]:
    """Return the worker of ``serve`` ``pid`` that ``held`` says holds the connections, and
    the other one (waiting for both to be there)."""
    deadline = time.monotonic() + WAIT
    while True:
        workers = children(pid)
        holding = [w for w in workers if held(w)]
        if len(workers) == 2 and len(holding) == 1:
            (holder,) = holding
            (other,) = [w for w in workers if w != holder]
            return holder, other
        assert time.monotonic() < deadline, f"workers {workers}, holding {holding}"
        time.sleep(0.1)


def _cancel(base: str, game_id: str) -> None:
    """Cancel ``game_id`` as an organiser through whichever worker the kernel gives the
    connection: the one driving the game ends it, the other asks it to over the bus."""
    with httpx.Client(base_url=base, timeout=30, trust_env=False) as client:
        answer = client.post(
            f"/api/games/{game_id}/cancel", headers={"Authorization": f"Bearer {TOKEN}"}
        )
    assert answer.status_code == 200, answer.text


# --- timi rooms ---------------------------------------------------------------------------


async def _play_line(player: RawPlayer, room: str, nick: str, count: int, since: int) -> None:
    """Wait for the ``count``-th ``play <nick> <seconds>`` in ``room`` heard from the
    ``since``-th line on."""

    def asked(_: Heard) -> bool:
        return (
            sum(
                1
                for h in player.heard[since:]
                if h.command == "PRIVMSG"
                and h.target == room
                and h.text.startswith(f"play {nick} ")
            )
            >= count
        )

    await player.expect(asked, WAIT)


async def _moves(
    first: RawPlayer,
    second: RawPlayer,
    room: str,
    columns: list[int],
    *,
    since: int = 0,
    done: int = 0,
    observer: RawPlayer | None = None,
) -> None:
    """Play ``columns`` in turn in ``room``, ``first`` first, each when the referee asks
    (``done`` moves of the game played already; its lines heard by ``observer``, by
    default ``first``, from its ``since``-th on)."""
    for number, column in enumerate(columns[done:], done):
        mover = first if number % 2 == 0 else second
        await _play_line(observer or first, room, mover.nick, number // 2 + 1, since)
        mover.say(room, f"play {column}")


def _last_game(player: RawPlayer, room: str) -> str:
    """Return the id of the last game the referee noticed in ``room``."""
    found = [t for t in player.room_texts(room, "NOTICE") if t.startswith("game ")]
    assert found, f"no game noticed in {room}"
    return found[-1].rsplit("/", 1)[-1]


async def _seated(first: RawPlayer, second: RawPlayer, room: str) -> None:
    """Have ``first`` then ``second`` join ``room`` once its referee opened it."""
    await room_open(first, room)
    await first.join(room)
    await second.join(room)


#: Four discs in column 1 for the first player, three in column 2 for the second.
WIN = [1, 2, 1, 2, 1, 2, 1]


async def _whole_game(base: str, first: RawPlayer, second: RawPlayer, room: str) -> str:
    """Play a game to the first player's win in ``room`` (both already in it); check the
    ``end`` line and the record; leave the room; return the game's id."""
    await _moves(first, second, room, WIN)
    await first.said(room, f"end {first.nick} win", WAIT)
    game_id = _last_game(first, room)
    record = await asyncio.to_thread(_record, base, game_id)
    assert (record["status"], record["result"]) == ("over", "seat1"), record["reason"]
    assert [s["name"] for s in record["seats"]] == [first.nick, second.nick]
    assert [m["number"] for m in record["moves"]] == list(range(1, 8))
    for player in (first, second):
        player.send(f"PART {room}")
    return game_id


@asynccontextmanager
async def _players(ircd: Ircd) -> AsyncIterator[tuple[RawPlayer, RawPlayer]]:
    async with raw_player(ircd.port, "alice") as a, raw_player(ircd.port, "bob") as b:
        yield a, b


def _rooms(
    tmp_path: Path, scenario: Callable[[Ircd, int, str], Coroutine[Any, Any, None]], *extra: str
) -> None:
    """Run ``scenario(ircd, serve's pid, base URL)`` with an ngIRCd and ``serve --workers
    2 --irc`` refereeing one room on it."""
    with (
        ircd_server() as ircd,
        two_workers(
            tmp_path / "rooms.sqlite3",
            "--irc",
            ircd.url,
            "--rooms",
            "1",
            "--think",
            "5",
            "--admin-token",
            TOKEN,
            *FAST,
            *extra,
        ) as (pid, base),
    ):
        asyncio.run(scenario(ircd, pid, base))


def test_twenty_room_games_in_a_row_are_whole_under_two_workers(tmp_path: Path) -> None:
    """Each game is driven by the worker holding the IRC session, whichever worker took
    the last one: all twenty end with their ``end`` line and a whole record."""

    async def scenario(ircd: Ircd, pid: int, base: str) -> None:
        async with _players(ircd) as (a, b):
            made = []
            for number in range(1, 21):
                first, second = (a, b) if number % 2 else (b, a)
                room = f"#p4-{number}"
                await _seated(first, second, room)
                made.append(await _whole_game(base, first, second, room))
            assert len(set(made)) == 20

    _rooms(tmp_path, scenario)


def test_a_worker_killed_mid_game_the_holders_rooms_go_on_or_end_as_documented(
    tmp_path: Path,
) -> None:
    """The worker without the IRC session killed mid-game: the game goes on to its end.
    The holder killed mid-game: its replacement takes the room over, says ``end server
    error`` to the players still in it, the record is over with no result and its moves
    kept, and the players seated again play a whole game."""

    async def scenario(ircd: Ircd, pid: int, base: str) -> None:
        async with _players(ircd) as (a, b):
            await _seated(a, b, "#p4-1")
            await _moves(a, b, "#p4-1", WIN[:2])
            holder, other = _holder(pid, lambda w: connected_to(w, ircd.port))
            kill(other)
            await _moves(a, b, "#p4-1", WIN, done=2)
            await a.said("#p4-1", "end alice win", WAIT)
            await _whole_game_after(base, a, "#p4-1")
            for player in (a, b):
                player.send("PART #p4-1")

            await _seated(a, b, "#p4-2")
            await _moves(a, b, "#p4-2", WIN[:3])
            await _play_line(a, "#p4-2", "bob", 2, 0)
            game_id = _last_game(a, "#p4-2")
            holder, _ = _holder(pid, lambda w: connected_to(w, ircd.port))
            kill(holder)
            told = await a.said("#p4-2", "end server error", WAIT)
            record = await asyncio.to_thread(_record, base, game_id)
            assert (record["status"], record["result"], record["reason"]) == (
                "over",
                "error",
                "server error",
            )
            assert [m["value"] for m in record["moves"]] == ["A", "B", "A"]
            # Still in the room: seated again by the new holder, as if they joined now (in
            # the order the server lists them).
            since = a.heard.index(told)
            asked = await a.expect(
                lambda h: h.target == "#p4-2" and h.text.startswith("play "), WAIT, since
            )
            first, second = (a, b) if asked.text.split()[1] == "alice" else (b, a)
            await _moves(first, second, "#p4-2", WIN, since=since, observer=a)
            await a.said("#p4-2", f"end {first.nick} win", WAIT)
            await _whole_game_after(base, a, "#p4-2")

    _rooms(tmp_path, scenario)


async def _whole_game_after(base: str, player: RawPlayer, room: str) -> None:
    """Check the record of the last game noticed in ``room``: over, won by seat 1, its
    seven moves numbered once each."""
    game_id = _last_game(player, room)
    record = await asyncio.to_thread(_record, base, game_id)
    assert (record["status"], record["result"]) == ("over", "seat1"), record["reason"]
    assert [m["number"] for m in record["moves"]] == list(range(1, 8))


def test_a_room_game_cancelled_or_left_mid_game_is_ended_and_the_room_opens_again(
    tmp_path: Path,
) -> None:
    """An organiser's cancel reaching either worker: the room hears ``end server error``,
    the record is interrupted, the room is archived. A player leaving mid-game: ``end bob
    left``, the record won by alice with the moves played. Each time the next room seats
    the players, and the last game is whole."""

    async def scenario(ircd: Ircd, pid: int, base: str) -> None:
        async with _players(ircd) as (a, b):
            await _seated(a, b, "#p4-1")
            await _moves(a, b, "#p4-1", WIN[:2])
            game_id = _last_game(a, "#p4-1")
            await asyncio.to_thread(_cancel, base, game_id)
            await a.said("#p4-1", "end server error", WAIT)
            record = await asyncio.to_thread(_record, base, game_id)
            assert (record["status"], record["result"]) == ("interrupted", "error")
            for player in (a, b):
                player.send("PART #p4-1")

            await _seated(a, b, "#p4-2")
            await _moves(a, b, "#p4-2", WIN[:3])
            await _play_line(a, "#p4-2", "bob", 2, 0)
            b.send("PART #p4-2")
            await a.said("#p4-2", "end bob left", WAIT)
            record = await asyncio.to_thread(_record, base, _last_game(a, "#p4-2"))
            assert (record["status"], record["result"]) == ("over", "seat1")
            assert [m["value"] for m in record["moves"]] == ["A", "B", "A"]
            a.send("PART #p4-2")

            await _seated(a, b, "#p4-3")
            await _whole_game(base, a, b, "#p4-3")

    _rooms(tmp_path, scenario)


# --- MaitreTarot tables -------------------------------------------------------------------


def _tables(tmp_path: Path, scenario: Callable[[int, str, int], Coroutine[Any, Any, None]]) -> None:
    """Run ``scenario(serve's pid, base URL, the tables' port)`` with ``serve --workers 2
    --maitretarot`` (one deal a match)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    with two_workers(
        tmp_path / "tables.sqlite3",
        "--maitretarot",
        f"127.0.0.1:{port}",
        "--deals",
        "1",
        "--timeout",
        "20",
        "--admin-token",
        TOKEN,
    ) as (pid, base):
        asyncio.run(scenario(pid, base, port))


async def _match(port: int, how: list[Behaviour | None] | None = None, tag: str = "") -> list[Seen]:
    """Connect four clients (``how`` each misbehaves) and play until every one ended."""
    how = how or [Behaviour(bid=1)] * 4
    clients = [SeedClient(port, f"{tag}n{n}", b) for n, b in enumerate(how)]
    tasks = []
    for client in clients:
        tasks.append(asyncio.create_task(client.play()))
        await asyncio.sleep(0.02)
    return list(await asyncio.wait_for(asyncio.gather(*tasks), WAIT * 2))


def _tarot_games(base: str) -> list[dict[str, Any]]:
    """Return the records of every game of ``base``, newest first."""
    listed = _get(base, "/api/games", limit=100)["rows"]
    return [_get(base, f"/games/{g['id']}.json") for g in listed]


def _whole_match(record: dict[str, Any], names: list[str]) -> None:
    """Assert a table's record is whole: over with a ranking, nobody in error, its moves
    numbered 1..n, seated as the clients came."""
    assert (record["status"], record["result"]) == ("over", "ranked"), record["reason"]
    assert [s["name"] for s in record["seats"]] == names
    assert not any(s["error"] for s in record["seats"])
    numbers = [m["number"] for m in record["moves"]]
    assert len(numbers) > 20 and numbers == list(range(1, len(numbers) + 1))


def test_ten_table_matches_in_a_row_are_whole_under_two_workers(tmp_path: Path) -> None:
    async def scenario(pid: int, base: str, port: int) -> None:
        _holder(pid, lambda w: listening_on(w, port))
        for number in range(10):
            seen = await _match(port, tag=f"m{number}")
            assert all(s.ended == "replay 0" for s in seen), [s.ended for s in seen]
            assert all(s.deals >= 1 and s.scores for s in seen)
        records = await asyncio.to_thread(_tarot_games, base)
        assert len(records) == 10
        for number, record in enumerate(reversed(records)):
            _whole_match(record, [f"m{number}n{n}" for n in range(4)])

    _tables(tmp_path, scenario)


def test_a_worker_killed_mid_match_the_tables_go_on_or_end_as_documented(
    tmp_path: Path,
) -> None:
    """The worker without the listener killed mid-match: the match ends whole. The
    holder killed mid-match: its clients lose their connection, the record ends with no
    result (``server error``), and the replacement listens again for a whole match."""

    async def scenario(pid: int, base: str, port: int) -> None:
        holder, other = _holder(pid, lambda w: listening_on(w, port))
        playing = asyncio.create_task(_match(port, tag="a"))
        await _until_moves(base, 10)
        kill(other)
        seen = await playing
        assert all(s.ended == "replay 0" for s in seen), [s.ended for s in seen]
        (first,) = await asyncio.to_thread(_tarot_games, base)
        _whole_match(first, [f"an{n}" for n in range(4)])

        holder, _ = _holder(pid, lambda w: listening_on(w, port))
        # Cards played slowly: the kill lands mid-match, never after a quick match's end.
        slow: list[Behaviour | None] = [Behaviour(bid=1, card_delay=0.05)] * 4
        playing = asyncio.create_task(_match(port, slow, tag="b"))
        killed = (await _until_moves(base, 10, skip=first["id"]))["id"]
        kill(holder)
        seen = await playing
        ended = [s.ended for s in seen]
        assert all(e in ("closed by the server", "connection reset") for e in ended), ended
        record = await asyncio.to_thread(_record, base, killed)
        assert (record["status"], record["result"], record["reason"]) == (
            "over",
            "error",
            "server error",
        )
        assert all(s["status"] == 9 for s in record["seats"])

        _holder(pid, lambda w: listening_on(w, port))
        seen = await _match(port, tag="c")
        assert all(s.ended == "replay 0" for s in seen), [s.ended for s in seen]
        newest = (await asyncio.to_thread(_tarot_games, base))[0]
        _whole_match(newest, [f"cn{n}" for n in range(4)])

    _tables(tmp_path, scenario)


async def _until_moves(base: str, count: int, skip: str = "") -> dict[str, Any]:
    """Return the record of the game in play (other than ``skip``) once it has ``count``
    moves."""
    deadline = time.monotonic() + WAIT
    while True:
        records = await asyncio.to_thread(_tarot_games, base)
        for record in records:
            playing = record["id"] != skip and record["status"] == "playing"
            if playing and len(record["moves"]) >= count:
                return record
        assert time.monotonic() < deadline, records
        await asyncio.sleep(0.05)


def test_a_table_match_cancelled_or_left_mid_deal_is_told_and_the_table_opens_again(
    tmp_path: Path,
) -> None:
    """An organiser's cancel reaching either worker: each client gets, where it waits, the
    score of a deal not played and replay answer 0 (what the protocol sends at a match's
    end), the record is interrupted. A client gone at its first bid loses the match by
    fault, the others are told the same way. Then four new clients play a whole match."""

    async def scenario(pid: int, base: str, port: int) -> None:
        _holder(pid, lambda w: listening_on(w, port))
        # The first client thinks past the bids and its first card (the match waits for
        # it, TimeOut 20 s): the cancel comes mid-deal.
        how: list[Behaviour | None] = [Behaviour(bid=1, silent_at=1), *[Behaviour(bid=1)] * 3]
        playing = asyncio.create_task(_match(port, how, tag="a"))
        game = await _until_moves(base, 5)
        await asyncio.to_thread(_cancel, base, game["id"])
        seen = await playing
        # Each where it waits: the score of a deal not played and replay 0, or, asked
        # for an answer as the match ended (its flow has no score before it), closed.
        ended = [s.ended for s in seen]
        assert set(ended) <= {"replay 0", "closed by the server"} and ended.count("replay 0") >= 2
        assert all(s.scores[-1][:4] == (0, 0, 0, 0) for s in seen if s.ended == "replay 0")
        record = await asyncio.to_thread(_record, base, game["id"])
        assert (record["status"], record["result"]) == ("interrupted", "error")

        how = [Behaviour(leave_at_bid=True), *[Behaviour(bid=1)] * 3]
        seen = await _match(port, how, tag="b")
        assert seen[0].ended == "connection reset"
        others = [s.ended for s in seen[1:]]
        assert set(others) <= {"replay 0", "closed by the server"}, others
        record = (await asyncio.to_thread(_tarot_games, base))[0]
        assert (record["status"], record["result"]) == ("over", "ranked")
        assert record["seats"][0]["status"] == 9 and record["seats"][0]["error"]
        assert not any(seat["error"] for seat in record["seats"][1:])

        seen = await _match(port, tag="c")
        assert all(s.ended == "replay 0" for s in seen), [s.ended for s in seen]
        _whole_match((await asyncio.to_thread(_tarot_games, base))[0], [f"cn{n}" for n in range(4)])

    _tables(tmp_path, scenario)
