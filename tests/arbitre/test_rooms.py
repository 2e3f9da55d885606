"""Timi rooms on a real IRC server (ngIRCd), refereed by our referee, played by raw-socket
players of the tests' own speaking the seed's grammar (``timi-rooms.md``). Each game ends
with the spec's exact ``end`` line and a record whose moves and result match."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.arbitre.ircd import Ircd, ircd_server
from tests.arbitre.timi_players import RawPlayer, game_of, raw_player
from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.rooms.irc import Backoff, Pace
from tournoyons_gui.arbitre.rooms.referee import RoomOptions, RoomsReferee
from tournoyons_gui.arbitre.store import Game, Move, Seat, Store
from tournoyons_gui.interfaces.registry import load_registry

pytestmark = pytest.mark.arbitre

ROOM = "#p4-1"
#: The referee's pace in the tests: fast (the test server's penalty is off).
FAST = Pace(burst=100, per_second=200.0)


@asynccontextmanager
async def refereeing(
    ircd: Ircd, folder: Path, *, rooms: int = 1, think: int = 5
) -> AsyncIterator[tuple[Arbitre, RoomsReferee]]:
    """Run an Arbitre (its own SQLite file) refereeing ``rooms`` rooms on ``ircd``."""
    store = await Store.open(str(folder / "rooms.sqlite3"))
    arbitre = Arbitre(load_registry(()), store, "http://127.0.0.1:9", lease_seconds=6)
    await arbitre.run()
    options = RoomOptions(ircd.url, rooms=rooms, think=think, pace=FAST)
    referee = options.referee(arbitre)
    referee.chat.backoff = Backoff(first=0.2, most=1.0)  # type: ignore[attr-defined]
    await referee.run()
    try:
        yield arbitre, referee
    finally:
        await referee.close()
        await arbitre.close()
        await store.close()


async def room_open(player: RawPlayer, room: str = ROOM) -> None:
    """Wait until the referee is in ``room`` (it created it: it is its operator)."""
    for _ in range(200):
        player.send(f"NAMES {room}")
        try:
            await player.expect(
                lambda h: h.command == "353" and "@Arbitre" in h.text.split(), wait=0.1
            )
            return
        except TimeoutError:
            continue
    raise AssertionError(f"the referee never opened {room}")


async def record(arbitre: Arbitre, game_id: str) -> tuple[Game, list[Seat], list[Move]]:
    """Return a game, its seats and its moves once it is over and its room archived."""
    for _ in range(300):
        found = await arbitre.store.game(game_id)
        assert found is not None
        log = await arbitre.store.exchanges(game_id)
        if found[0].status != "playing" and any("archived" in e.detail for e in log):
            return found[0], found[1], await arbitre.store.moves(game_id)
        await asyncio.sleep(0.05)
    raise AssertionError(f"game {game_id} never ended")


def run(scenario: Callable[[Ircd, Path], Coroutine[Any, Any, None]], tmp_path: Path) -> None:
    """Run ``scenario`` with an ngIRCd of its own."""
    with ircd_server() as ircd:
        asyncio.run(scenario(ircd, tmp_path))


async def play_line(player: RawPlayer, nick: str, room: str = ROOM, count: int = 1) -> None:
    """Wait for the ``count``-th ``play <nick> <seconds>`` in the room."""
    await player.expect(
        lambda h: (
            h.target == room
            and sum(1 for t in player.room_texts(room) if t.startswith(f"play {nick} ")) >= count
        )
    )


async def two_players(
    ircd: Ircd, first: str = "alice", second: str = "bob"
) -> AsyncIterator[tuple[RawPlayer, RawPlayer]]:
    async with raw_player(ircd.port, first) as a, raw_player(ircd.port, second) as b:
        await room_open(a)
        await a.join(ROOM)
        await b.join(ROOM)
        yield a, b


async def alternate(a: RawPlayer, b: RawPlayer, columns: list[int]) -> None:
    """Play ``columns`` in turn, ``a`` first, each when named by the referee."""
    turns = {a.nick: 0, b.nick: 0}
    for index, column in enumerate(columns):
        mover = a if index % 2 == 0 else b
        turns[mover.nick] += 1
        await play_line(a, mover.nick, count=turns[mover.nick])
        mover.say(ROOM, f"play {column}")


def test_a_whole_game_to_a_win(tmp_path: Path) -> None:
    """Four in a column: ``end alice win``; the record has the seven moves, seat 1 won."""

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with refereeing(ircd, folder) as (arbitre, _):
            async for a, b in two_players(ircd):
                await play_line(a, "alice")
                assert a.room_texts(ROOM)[0] == "play alice 5"
                await alternate(a, b, [1, 2, 1, 2, 1, 2, 1])
                await a.said(ROOM, "end alice win")
                game, seats, moves = await record(arbitre, game_of(a, ROOM))
                assert (game.status, game.result, game.winner) == ("over", "seat1", 0)
                assert [s.name for s in seats] == ["alice", "bob"]
                assert [s.kind for s in seats] == ["irc", "irc"]
                assert [m.value for m in moves] == list("ABABABA")
                board = a.room_texts(ROOM, "NOTICE")
                assert "X......" in board and "XO....." in board
                log = await arbitre.store.exchanges(game.id)
                assert any("PRIVMSG #p4-1 :play 1" in e.detail for e in log)
                assert any(e.detail == "PRIVMSG #p4-1 :end alice win" for e in log)
                break

    run(scenario, tmp_path)


async def foul_game(
    folder: Path, ircd: Ircd, misbehave: Callable[[RawPlayer, RawPlayer], Awaitable[None]]
) -> tuple[RawPlayer, Game, list[Seat], list[Move], list[str]]:
    """Seat alice and bob, let ``misbehave`` act, return the end line heard and the record."""
    async with refereeing(ircd, folder) as (arbitre, _):
        async for a, b in two_players(ircd):
            await play_line(a, "alice")
            await misbehave(a, b)
            end = await a.expect(lambda h: h.target == ROOM and h.text.startswith("end"))
            game, seats, moves = await record(arbitre, game_of(a, ROOM))
            return a, game, seats, moves, [end.text]
    raise AssertionError("no game")


@pytest.mark.parametrize(
    ("name", "columns", "last", "end", "loser"),
    [
        ("play 8", [4], ("alice", "play 8"), "end alice illegal move", 0),
        ("chat by a player", [4], ("bob", "good luck"), "end bob illegal move", 1),
        ("out of turn", [], ("bob", "play 4"), "end bob illegal move", 1),
        ("full column", [1, 1, 1, 1, 1, 1], ("alice", "play 1"), "end alice illegal move", 0),
        ("trailing text", [], ("alice", "play 4 now"), "end alice illegal move", 0),
    ],
)
def test_a_message_off_the_grammar_or_the_rules_disqualifies(
    tmp_path: Path, name: str, columns: list[int], last: tuple[str, str], end: str, loser: int
) -> None:
    """``play 8``, chat, ``play 4`` out of turn, a full column: the spec's end line; the
    other player wins the record, the moves before it recorded."""
    del name

    async def misbehave(a: RawPlayer, b: RawPlayer) -> None:
        await alternate(a, b, columns)
        who = a if last[0] == "alice" else b
        if columns:
            await play_line(a, who.nick, count=len(columns) // 2 + 1)
        who.say(ROOM, last[1])

    async def scenario(ircd: Ircd, folder: Path) -> None:
        _, game, seats, moves, ends = await foul_game(folder, ircd, misbehave)
        assert ends == [end]
        assert game.winner == 1 - loser and game.result == f"seat{2 - loser}"
        assert seats[loser].error and not seats[1 - loser].error
        assert len(moves) == len(columns)

    run(scenario, tmp_path)


def test_two_moves_before_the_referees_answer_are_a_flood(tmp_path: Path) -> None:
    """Two valid ``play`` lines sent at once: the first is recorded, ``end alice flood``."""

    async def misbehave(a: RawPlayer, b: RawPlayer) -> None:
        del b
        a.writer.write(b"PRIVMSG #p4-1 :play 4\r\nPRIVMSG #p4-1 :play 5\r\n")

    async def scenario(ircd: Ircd, folder: Path) -> None:
        _, game, _, moves, ends = await foul_game(folder, ircd, misbehave)
        assert ends == ["end alice flood"]
        assert game.winner == 1
        assert [m.value for m in moves] == ["D"]

    run(scenario, tmp_path)


def test_a_late_answer_loses_on_time(tmp_path: Path) -> None:
    """Nothing within the think time: ``end alice timeout``; the late move changes nothing."""

    async def misbehave(a: RawPlayer, b: RawPlayer) -> None:
        del b
        await a.expect(lambda h: h.text == "end alice timeout", wait=20)
        a.say(ROOM, "play 4")

    async def scenario(ircd: Ircd, folder: Path) -> None:
        _, game, _, moves, ends = await foul_game(folder, ircd, misbehave)
        assert ends == ["end alice timeout"]
        assert game.winner == 1 and moves == []

    run(scenario, tmp_path)


def test_a_player_who_leaves_mid_game_loses(tmp_path: Path) -> None:
    """bob parts while alice is asked: ``end bob left``."""

    async def misbehave(a: RawPlayer, b: RawPlayer) -> None:
        await alternate(a, b, [4, 4])
        await play_line(a, "alice", count=2)
        b.send(f"PART {ROOM}")

    async def scenario(ircd: Ircd, folder: Path) -> None:
        _, game, _, moves, ends = await foul_game(folder, ircd, misbehave)
        assert ends == ["end bob left"]
        assert game.winner == 0 and [m.value for m in moves] == ["D", "D"]

    run(scenario, tmp_path)


def test_spectators_chat_and_play_and_a_bad_nick_is_not_seated(tmp_path: Path) -> None:
    """``bad_nick`` joins first but is no player; the spectator ``carol`` chats and types
    ``play 3``: nothing changes, the game goes to its win."""

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with (
            refereeing(ircd, folder) as (arbitre, _),
            raw_player(ircd.port, "bad_nick") as bad,
            raw_player(ircd.port, "alice") as a,
            raw_player(ircd.port, "bob") as b,
            raw_player(ircd.port, "carol") as c,
        ):
            await room_open(a)
            await bad.join(ROOM)
            await a.join(ROOM)
            await b.join(ROOM)
            await c.join(ROOM)
            await play_line(a, "alice")
            c.say(ROOM, "hello all")
            c.say(ROOM, "play 3")
            bad.say(ROOM, "play 3")
            await alternate(a, b, [1, 2, 1, 2, 1, 2, 1])
            await a.said(ROOM, "end alice win")
            game, seats, moves = await record(arbitre, game_of(a, ROOM))
            assert [s.name for s in seats] == ["alice", "bob"]
            assert game.winner == 0 and len(moves) == 7
            log = await arbitre.store.exchanges(game.id)
            assert any("carol" in e.detail and "play 3" in e.detail for e in log)

    run(scenario, tmp_path)


def test_the_server_stopped_mid_game_ends_it_as_server_error_and_the_room_reopens(
    tmp_path: Path,
) -> None:
    """ngIRCd stops mid-game: the record ends with no result, reason ``server error``;
    once it is back the referee reconnects (back-off) and opens its room again."""

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with refereeing(ircd, folder) as (arbitre, referee):
            async with raw_player(ircd.port, "alice") as a, raw_player(ircd.port, "bob") as b:
                await room_open(a)
                await a.join(ROOM)
                await b.join(ROOM)
                await play_line(a, "alice")
                a.say(ROOM, "play 4")
                await play_line(a, "bob")
                game_id = game_of(a, ROOM)
                ircd.stop()
            game, _, moves = await record_ended(arbitre, game_id)
            assert (game.result, game.reason, game.winner) == ("error", "server error", None)
            assert [m.value for m in moves] == ["D"]
            ircd.start()
            async with raw_player(ircd.port, "dave") as d:
                await room_open(d)
            assert referee.connected

    run(scenario, tmp_path)


async def record_ended(arbitre: Arbitre, game_id: str) -> tuple[Game, list[Seat], list[Move]]:
    """Return a game, its seats and moves once it is over (its room may be gone)."""
    for _ in range(300):
        found = await arbitre.store.game(game_id)
        assert found is not None
        if found[0].status != "playing":
            return found[0], found[1], await arbitre.store.moves(game_id)
        await asyncio.sleep(0.05)
    raise AssertionError(f"game {game_id} never ended")
