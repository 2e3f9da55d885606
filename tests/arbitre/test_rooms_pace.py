"""Timi rooms under real pace, on a real ngIRCd, with ``--think 4`` and players of
the tests' own that answer 0.2 to 1.5 s after their ``play`` line *arrives*
(:mod:`tests.arbitre.paced_players`): the referee's lines wait in its paced queue, yet
every game ends as its moves say (never ``timeout`` for a player that answered in time),
every board shown is a whole position of the game, in order, and each room's final board
and address go out before its ``PART``. Then what goes wrong on purpose: a player
answering at the very end of its seconds or later, flooding players, a referee killed
mid-game, the server restarted mid-game.

Counts: ``TOURNOYONS_TIMI_GAMES`` games in a row in one room (3 by default) and
``TOURNOYONS_TIMI_ROOMS`` rooms at once (4); ``scripts/test.py --long`` runs 20 and 10.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import time
from pathlib import Path

import pytest

from tests.arbitre.ircd import OPER, Ircd
from tests.arbitre.paced_players import (
    REFEREE,
    Script,
    check_played,
    play_script,
    play_seated,
    scripts,
)
from tests.arbitre.rooms_kept import ROOM, record, record_ended, refereeing, room_open, run
from tests.arbitre.timi_players import RawPlayer, game_of, raw_player
from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.rooms.pace import Pace

pytestmark = pytest.mark.arbitre

#: Games in a row in one room, and rooms at once.
GAMES = int(os.environ.get("TOURNOYONS_TIMI_GAMES", "3"))
ROOMS = int(os.environ.get("TOURNOYONS_TIMI_ROOMS", "4"))
#: The seconds a move (``rooms --think 4``).
THINK = 4


async def check_record(
    arbitre: Arbitre, game_id: str, letters: list[str], winner: str, *, archived: bool = True
) -> None:
    """Check the record of a scripted game: its moves, its result, nobody in error (once
    its room is archived too, unless ``archived`` is false)."""
    game, seats, moves = await (record if archived else record_ended)(arbitre, game_id)
    assert [m.value for m in moves] == letters
    results = {"X": ("seat1", 0), "O": ("seat2", 1), "draw": ("draw", None)}
    assert (game.result, game.winner) == results[winner]
    assert not any(seat.error for seat in seats)


async def scripted_room(
    ircd: Ircd,
    arbitre: Arbitre,
    number: int,
    script: Script,
    letters: str = "xo",
    *,
    archived: bool = True,
) -> None:
    """Two new players (``letters`` and ``number``: ``x1``, ``o1``) play ``script`` paced
    in room ``#p4-<number>``; check what they saw and the game's record (and that its room
    is archived, unless ``archived`` is false)."""
    room, nicks = f"#p4-{number}", (f"{letters[0]}{number}", f"{letters[1]}{number}")
    async with raw_player(ircd.port, nicks[0]) as a, raw_player(ircd.port, nicks[1]) as b:
        await room_open(a, room)
        played = await play_script(a, b, room, script, random.Random(number))
        check_played(played, script, *nicks, THINK)
        await check_record(
            arbitre, game_of(a, room), script.letters(), script.winner, archived=archived
        )


@pytest.mark.slow
def test_games_in_a_row_in_one_room_end_as_their_moves_say(tmp_path: Path) -> None:
    """One room, ``GAMES`` games in a row (each in the room the referee opens next), the
    referee at a configured pace (burst 3, 6 lines a second): each game's end line and
    record are its moves', its boards whole positions in order, its archive whole."""
    rng = random.Random(28)
    games = scripts(rng, GAMES)

    async def scenario(ircd: Ircd, folder: Path) -> None:
        pace = Pace(burst=3, per_second=6.0)
        async with (
            refereeing(ircd, folder, think=THINK, pace=pace) as (arbitre, _),
            raw_player(ircd.port, "alice") as a,
            raw_player(ircd.port, "bob") as b,
        ):
            for number, script in enumerate(games, start=1):
                room = f"#p4-{number}"
                await room_open(a, room)
                played = await play_script(a, b, room, script, rng)
                check_played(played, script, "alice", "bob", THINK)
                await check_record(arbitre, game_of(a, room), script.letters(), script.winner)
                a.send(f"PART {room}")
                b.send(f"PART {room}")

    run(scenario, tmp_path)


@pytest.mark.slow
def test_rooms_at_once_at_the_default_pace_on_ngircds_own_limits(tmp_path: Path) -> None:
    """``ROOMS`` rooms played at once, the referee at its default pace on an ngIRCd with
    its own limits: the ``play`` lines wait in the referee's queue (one line a room a move
    at 2 lines a second), boards are superseded, yet no player is timed out and every game
    ends as its moves say, every board shown whole and in order."""
    rng = random.Random(2810)
    games = scripts(rng, ROOMS)

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with refereeing(ircd, folder, rooms=ROOMS, think=THINK, pace=Pace()) as (
            arbitre,
            _,
        ):
            await asyncio.gather(
                *(scripted_room(ircd, arbitre, n, games[n - 1]) for n in range(1, ROOMS + 1))
            )

    run(scenario, tmp_path, penalty=True)


@pytest.mark.slow
def test_an_answer_at_the_very_end_of_its_seconds_counts_and_a_later_one_loses(
    tmp_path: Path,
) -> None:
    """alice answers exactly 4 s after her ``play alice 4`` arrived: her move counts (the
    server's lag allowed covers its way back). bob does not answer within his 4 s and the
    lag: ``end bob timeout``, never before his 4 s have passed since his line arrived;
    his move then changes nothing, and the record says why he lost."""

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with (
            refereeing(ircd, folder, think=THINK) as (arbitre, _),
            raw_player(ircd.port, "alice") as a,
            raw_player(ircd.port, "bob") as b,
        ):
            await room_open(a)
            await a.join(ROOM)
            await b.join(ROOM)
            asked = await a.said(ROOM, f"play alice {THINK}")
            await asyncio.sleep(max(0.0, asked.at + THINK - time.monotonic()))
            a.say(ROOM, "play 4")
            asked = await b.said(ROOM, f"play bob {THINK}")
            end = await b.expect(lambda h: h.target == ROOM and h.text.startswith("end"))
            assert end.text == "end bob timeout"
            assert end.at - asked.at >= THINK
            b.say(ROOM, "play 4")
            game, seats, moves = await record(arbitre, game_of(a, ROOM))
            assert [m.value for m in moves] == ["D"] and game.winner == 0
            assert seats[1].error.startswith(f"timeout: bob did not play within {THINK} s")
            assert "lag" in seats[1].error and not seats[0].error

    run(scenario, tmp_path)


@pytest.mark.slow
def test_flooding_players_lose_their_own_game_and_the_other_rooms_go_on(tmp_path: Path) -> None:
    """In ``#p4-1`` alice answers her ``play`` line with 50 ``play 4`` at once: ``end alice
    flood``, her first move recorded. In ``#p4-2`` a spectator floods 300 lines of chat
    while carl and dora play a game paced: it ends as its moves say, boards whole."""
    script = scripts(random.Random(7), 1)[0]

    async def flood(ircd: Ircd, arbitre: Arbitre) -> None:
        async with raw_player(ircd.port, "alice") as a, raw_player(ircd.port, "bob") as b:
            await room_open(a, "#p4-1")
            await a.join("#p4-1")
            await b.join("#p4-1")
            await a.said("#p4-1", f"play alice {THINK}")
            a.writer.write(b"PRIVMSG #p4-1 :play 4\r\n" * 50)
            end = await a.expect(lambda h: h.target == "#p4-1" and h.text.startswith("end"))
            assert end.text == "end alice flood"
            game, _, moves = await record(arbitre, game_of(a, "#p4-1"))
            assert game.winner == 1 and [m.value for m in moves] == ["D"]

    async def paced(ircd: Ircd, arbitre: Arbitre) -> None:
        async with (
            raw_player(ircd.port, "carl") as c,
            raw_player(ircd.port, "dora") as d,
            raw_player(ircd.port, "eve") as e,
        ):
            await room_open(c, "#p4-2")
            game = asyncio.create_task(play_script(c, d, "#p4-2", script, random.Random(8)))
            await c.expect(lambda h: h.command == "JOIN" and h.nick == "dora")
            await e.join("#p4-2")
            e.writer.write(b"".join(b"PRIVMSG #p4-2 :chat %d\r\n" % n for n in range(300)))
            played = await game
            check_played(played, script, "carl", "dora", THINK)
            await check_record(arbitre, game_of(c, "#p4-2"), script.letters(), script.winner)

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with refereeing(ircd, folder, rooms=2, think=THINK, pace=Pace()) as (arbitre, _):
            await asyncio.gather(flood(ircd, arbitre), paced(ircd, arbitre))

    run(scenario, tmp_path)


async def after_end(player: RawPlayer, text: str = "end server error") -> int:
    """Return the index of the line heard after the referee's ``text`` in the room."""
    end = await player.expect(lambda h: h.nick == REFEREE and h.target == ROOM and h.text == text)
    return player.heard.index(end) + 1


@pytest.mark.slow
def test_a_referee_killed_mid_game_comes_back_says_end_and_plays_on(tmp_path: Path) -> None:
    """An IRC operator kills the referee while bob is asked: the game's record ends with
    no result (``server error``); the referee reconnects and rejoins the room, where alice
    and bob stayed, tells them ``end server error`` (logged with that game), then seats
    them in a new game, which ends as its moves say."""
    script = scripts(random.Random(9), 1)[0]

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with (
            refereeing(ircd, folder, think=THINK) as (arbitre, _),
            raw_player(ircd.port, "alice") as a,
            raw_player(ircd.port, "bob") as b,
            raw_player(ircd.port, "oper") as oper,
        ):
            await room_open(a)
            await a.join(ROOM)
            await b.join(ROOM)
            await a.said(ROOM, f"play alice {THINK}")
            a.say(ROOM, "play 4")
            await a.said(ROOM, f"play bob {THINK}")
            first = game_of(a, ROOM)
            oper.send(f"OPER {OPER[0]} {OPER[1]}")
            await oper.expect(lambda h: h.command == "381")
            oper.send(f"KILL {REFEREE} :killed by the test")
            game, _, moves = await record_ended(arbitre, first)
            assert (game.result, game.reason) == ("error", "server error")
            assert [m.value for m in moves] == ["D"]
            starts = await after_end(a), await after_end(b)
            asked = await a.expect(
                lambda h: h.nick == REFEREE and h.text.startswith("play"), since=starts[0]
            )
            if asked.text.split()[1] == "alice":
                players, first_starts = (a, b), starts
            else:
                players, first_starts = (b, a), (starts[1], starts[0])
            played = await play_seated(*players, ROOM, script, random.Random(10), first_starts)
            check_played(played, script, players[0].nick, players[1].nick, THINK)
            second = next(
                t.rsplit("/", 1)[-1]
                for h in played.lines
                if h.command == "NOTICE" and (t := h.text).startswith("game ")
            )
            assert second != first
            await check_record(arbitre, second, script.letters(), script.winner)
            log = await arbitre.store.exchanges(first)
            assert any(e.detail == f"PRIVMSG {ROOM} :end server error" for e in log)

    run(scenario, tmp_path)


@pytest.mark.slow
def test_the_server_restarted_mid_game_ends_every_rooms_game_then_every_room_plays_on(
    tmp_path: Path,
) -> None:
    """ngIRCd stops while two rooms are in play: both records end with no result
    (``server error``); once it is back, the referee opens both rooms again and new
    players' games in both end as their moves say."""
    games = scripts(random.Random(11), 2)

    async def until_stopped(ircd: Ircd, number: int, ready: asyncio.Event) -> str:
        room = f"#p4-{number}"
        async with (
            raw_player(ircd.port, f"x{number}") as a,
            raw_player(ircd.port, f"o{number}") as b,
        ):
            await room_open(a, room)
            await a.join(room)
            await b.join(room)
            await a.said(room, f"play x{number} {THINK}")
            a.say(room, "play 4")
            await a.said(room, f"play o{number} {THINK}")
            ready.set()
            await a.closed()
            return game_of(a, room)

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with refereeing(ircd, folder, rooms=2, think=THINK) as (arbitre, _):
            ready = [asyncio.Event(), asyncio.Event()]
            playing = [asyncio.create_task(until_stopped(ircd, n, ready[n - 1])) for n in (1, 2)]
            async with asyncio.timeout(60):
                await asyncio.gather(*(r.wait() for r in ready))
            ircd.stop()
            for game_id in await asyncio.gather(*playing):
                game, _, moves = await record_ended(arbitre, game_id)
                assert (game.result, game.reason, game.winner) == ("error", "server error", None)
                assert [m.value for m in moves] == ["D"]
            ircd.start()
            await asyncio.gather(
                *(scripted_room(ircd, arbitre, n, games[n - 1], "yp") for n in (1, 2))
            )

    run(scenario, tmp_path)


@pytest.mark.slow
def test_a_pace_too_fast_for_the_server_slows_down_and_players_are_timed_fairly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The referee set at 10 lines at once and 10 a second, on an ngIRCd that reads 3 of
    a client's lines a second: the server holds the referee's lines, its lag probes (one
    a second here) come back late, so it says it slows down and counts the lag in every
    deadline: the games of three rooms at once end as their moves say."""
    games = scripts(random.Random(12), 3)
    caplog.set_level(logging.WARNING, logger="tournoyons_gui.arbitre.rooms.irc")

    async def scenario(ircd: Ircd, folder: Path) -> None:
        pace = Pace(burst=10, per_second=10.0, probe_every=1.0)
        async with refereeing(ircd, folder, rooms=3, think=THINK, pace=pace) as (arbitre, _):
            await asyncio.gather(
                # The record only: a referee slowed to under a line a second writes three
                # rooms' last lines (end, board, address, PART) a minute or more apart.
                *(scripted_room(ircd, arbitre, n, games[n - 1], archived=False) for n in (1, 2, 3))
            )

    run(scenario, tmp_path, penalty=True)
    assert any("the server held our lines" in r.getMessage() for r in caplog.records)
