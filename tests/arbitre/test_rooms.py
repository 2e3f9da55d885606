"""Timi rooms on a real IRC server (ngIRCd), refereed by our referee, played by raw-socket
players of the tests' own speaking the seed's grammar (``timi-rooms.md``). Each game ends
with the spec's exact ``end`` line and a record whose moves and result match."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from tests.arbitre.ircd import Ircd
from tests.arbitre.rooms_kept import ROOM, record, record_ended, refereeing, room_open, run
from tests.arbitre.timi_players import RawPlayer, game_of, raw_player
from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.outbound import Outbound
from tournoyons_gui.arbitre.store import Game, Move, Seat

pytestmark = pytest.mark.arbitre


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


async def alternate(a: RawPlayer, b: RawPlayer, columns: list[int], room: str = ROOM) -> None:
    """Play ``columns`` in turn in ``room``, ``a`` first, each when named by the referee."""
    turns = {a.nick: 0, b.nick: 0}
    for index, column in enumerate(columns):
        mover = a if index % 2 == 0 else b
        turns[mover.nick] += 1
        await play_line(a, mover.nick, room, count=turns[mover.nick])
        mover.say(room, f"play {column}")


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


@pytest.mark.slow
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


#: A whole game of 42 moves with no four in a row (found by a search over random games,
#: checked by the rules): ``end draw``.
DRAWN = [7, 5, 7, 3, 4, 1, 1, 3, 2, 7, 7, 3, 5, 7, 5, 6, 4, 7, 2, 6, 2, 4, 1, 6, 3, 2, 3, 1]
DRAWN += [3, 4, 6, 5, 2, 2, 5, 4, 6, 5, 4, 6, 1, 1]


def test_a_whole_game_to_a_draw(tmp_path: Path) -> None:
    """The board filled with no four in a row: ``end draw``; the record has the 42 moves
    and no winner."""

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with refereeing(ircd, folder) as (arbitre, _):
            async for a, b in two_players(ircd):
                await alternate(a, b, DRAWN)
                await a.said(ROOM, "end draw")
                game, _, moves = await record(arbitre, game_of(a, ROOM))
                assert (game.status, game.result, game.winner) == ("over", "draw", None)
                assert [m.value for m in moves] == [chr(64 + c) for c in DRAWN]
                assert a.room_texts(ROOM).count("end draw") == 1
                break

    run(scenario, tmp_path)


@pytest.mark.parametrize("leaving", ["PART #p4-1", "QUIT :gone"])
def test_a_player_who_leaves_mid_game_loses(tmp_path: Path, leaving: str) -> None:
    """bob parts or quits while alice is asked: ``end bob left``."""

    async def misbehave(a: RawPlayer, b: RawPlayer) -> None:
        await alternate(a, b, [4, 4])
        await play_line(a, "alice", count=2)
        b.send(leaving)

    async def scenario(ircd: Ircd, folder: Path) -> None:
        _, game, _, moves, ends = await foul_game(folder, ircd, misbehave)
        assert ends == ["end bob left"]
        assert game.winner == 0 and [m.value for m in moves] == ["D", "D"]

    run(scenario, tmp_path)


def test_three_rooms_at_once_a_misbehaving_player_harms_no_other(tmp_path: Path) -> None:
    """Three rooms played at once; in ``#p4-2`` dora chats when asked: ``end dora illegal
    move`` there, while the games of ``#p4-1`` and ``#p4-3`` go on to their wins."""

    async def pair(
        ircd: Ircd, arbitre: Arbitre, room: str, nicks: tuple[str, str], bad: bool
    ) -> None:
        async with raw_player(ircd.port, nicks[0]) as a, raw_player(ircd.port, nicks[1]) as b:
            await room_open(a, room)
            await a.join(room)
            await b.join(room)
            if bad:
                await alternate(a, b, [4], room)
                await play_line(a, b.nick, room)
                b.say(room, "gg")
                end = f"end {b.nick} illegal move"
                columns = [4]
            else:
                columns = [1, 2, 1, 2, 1, 2, 1]
                await alternate(a, b, columns, room)
                end = f"end {a.nick} win"
            await a.said(room, end)
            assert [t for t in a.room_texts(room) if t.startswith("end")] == [end]
            game, seats, moves = await record(arbitre, game_of(a, room))
            assert [s.name for s in seats] == list(nicks)
            assert game.winner == 0  # alice, carl (dora's foul), eve
            assert [m.value for m in moves] == [chr(64 + c) for c in columns]

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with refereeing(ircd, folder, rooms=3) as (arbitre, _):
            await asyncio.gather(
                pair(ircd, arbitre, "#p4-1", ("alice", "bob"), False),
                pair(ircd, arbitre, "#p4-2", ("carl", "dora"), True),
                pair(ircd, arbitre, "#p4-3", ("eve", "fred"), False),
            )

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


def test_a_public_server_reaches_an_internal_chat_server_only_when_allowed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The referee's connection goes through the outbound policy like every
    other: a public server does not connect to a chat server on an internal address
    (here 127.0.0.1) unless ``--allow-hosts`` lists it, and says why in its log."""

    async def scenario(ircd: Ircd, folder: Path) -> None:
        public = "https://arbitre.example"
        refused = Outbound.for_server(public, public=True)
        (folder / "refused").mkdir()
        async with (
            refereeing(ircd, folder / "refused", outbound=refused) as (_, referee),
            raw_player(ircd.port, "alice") as alice,
        ):
            await asyncio.sleep(1.5)  # several tries, with the tests' short backoff
            alice.send(f"NAMES {ROOM}")
            names = await alice.expect(lambda h: h.command in ("353", "366"))
            assert "Arbitre" not in names.text and not referee.connected
            assert f"IRC: cannot connect to 127.0.0.1:{ircd.port}: 127.0.0.1 is an internal" in (
                caplog.text
            )
        allowed = Outbound.for_server(public, public=True, allow_hosts=["127.0.0.1"])
        (folder / "allowed").mkdir()
        async with (
            refereeing(ircd, folder / "allowed", outbound=allowed) as (_, referee),
            raw_player(ircd.port, "bob") as bob,
        ):
            await room_open(bob)
            assert referee.connected

    run(scenario, tmp_path)
