"""``tournoyons-gui room-player`` run as a user runs it, on a real ngIRCd, in rooms kept by
our referee: built-in engines against each other over two games (the second in the next
room), against a test player of raw sockets (a spectator's ``play <nick> 15`` does not
trick it), and a botsarena bot and a Tournoyons engine of the tests' own seated by it."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from tests.arbitre.ircd import Ircd
from tests.arbitre.rooms_kept import ROOM, record, refereeing, room_open, run
from tests.arbitre.test_botsarena import Bots
from tests.arbitre.threaded import Threaded
from tests.arbitre.timi_players import game_of, raw_player
from tests.conftest import ROOT
from tournoyons_gui.arbitre.store import Store

pytestmark = pytest.mark.arbitre

#: Seconds a room-player is given to play its games and exit.
PLAYER_WAIT = 240.0


@dataclass
class Done:
    """A room-player that exited: its status and what it printed."""

    status: int
    output: str


async def room_player(ircd: Ircd, nick: str, engine: str, *more: str) -> Done:
    """Run ``tournoyons-gui room-player`` as ``nick`` with ``engine`` until it exits."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tournoyons_gui.server.cli",
        "room-player",
        "--irc",
        ircd.url,
        "--room",
        ROOM,
        "--nick",
        nick,
        "--engine",
        engine,
        *more,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "120"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        async with asyncio.timeout(PLAYER_WAIT):
            output, _ = await process.communicate()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode is not None
    return Done(process.returncode, output.decode("utf-8", "replace"))


async def games_over(store: Store, count: int) -> list[tuple[str, list[str], list[str]]]:
    """Return (result, seat names, moves) of the ``count`` room games once all are over."""
    for _ in range(400):
        games = [g for g in (await store.list_games()).games if g.status != "playing"]
        if len(games) >= count:
            found = []
            for game in sorted(games, key=lambda g: g.created_at):
                record_ = await store.game(game.id)
                assert record_ is not None
                moves = [m.value for m in await store.moves(game.id)]
                found.append((game.result, [s.name for s in record_[1]], moves))
            return found
        await asyncio.sleep(0.1)
    raise AssertionError(f"fewer than {count} room games ended")


def ends(done: Done) -> list[str]:
    """Return the lines a room-player printed for its games (``#p4-1: end ...``)."""
    return [line for line in done.output.splitlines() if ": end " in line]


@pytest.mark.slow
def test_built_in_engines_play_two_games_against_each_other(tmp_path: Path) -> None:
    """``builtin:strong`` against ``builtin:random``, ``--games 2``: the first game in
    ``#p4-1``, the second in the room the referee opened next; both exit 0, each game is
    recorded whole with the nicks as seats."""

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with refereeing(ircd, folder) as (arbitre, _):
            async with raw_player(ircd.port, "watcher") as watcher:
                await room_open(watcher)
            strong, weak = await asyncio.gather(
                room_player(ircd, "Strong", "builtin:strong", "--games", "2"),
                room_player(ircd, "Weak", "builtin:random", "--games", "2"),
            )
            assert (strong.status, weak.status) == (0, 0), strong.output + weak.output
            played = await games_over(arbitre.store, 2)
            assert [sorted(names) for _, names, _ in played] == [["Strong", "Weak"]] * 2
            assert all(result in ("seat1", "seat2", "draw") for result, _, _ in played)
            assert all(len(moves) >= 7 for _, _, moves in played)
            rooms = [line.split(":")[0] for line in ends(strong)]
            assert rooms == ["#p4-1", "#p4-2"], strong.output
            assert [line.split(" (")[0] for line in ends(weak)] == [
                line.split(" (")[0] for line in ends(strong)
            ]

    run(scenario, tmp_path)


@pytest.mark.slow
def test_a_room_player_against_a_test_player_is_not_tricked_by_a_spectator(
    tmp_path: Path,
) -> None:
    """bob (raw socket) plays the columns in turn, ``Strong`` answers once per ask; carol,
    a spectator, types ``play Strong 15`` while bob is asked: Strong does not answer it
    (it would be out of turn: ``end Strong illegal move``), and wins."""

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with (
            refereeing(ircd, folder, think=10) as (arbitre, _),
            raw_player(ircd.port, "bob") as bob,
            raw_player(ircd.port, "carol") as carol,
        ):
            await room_open(bob)
            await bob.join(ROOM)
            player = asyncio.create_task(room_player(ircd, "Strong", "builtin:strong"))
            await bob.expect(lambda h: h.command == "JOIN" and h.nick == "Strong")
            await carol.join(ROOM)
            column, asked = 0, [0]

            def turn() -> str | None:
                texts = bob.room_texts(ROOM)
                if any(t.startswith("end") for t in texts):
                    return "end"
                plays = sum(t.startswith("play bob ") for t in texts)
                return "play" if plays >= asked[0] else None

            while True:
                asked[0] += 1
                await bob.expect(lambda _: turn() is not None)
                if turn() == "end":
                    break
                carol.say(ROOM, "play Strong 15")
                column = column % 7 + 1
                bob.say(ROOM, f"play {column}")
            done = await player
            assert done.status == 0, done.output
            texts = bob.room_texts(ROOM)
            assert texts[-1] == "end Strong win"
            game, seats, moves = await record(arbitre, game_of(bob, ROOM))
            assert [s.name for s in seats] == ["bob", "Strong"] and game.winner == 1
            asks = [
                h for h in bob.heard if h.nick == "Arbitre" and h.text.startswith("play Strong ")
            ]
            tricks = [h for h in bob.heard if h.nick == "carol" and h.text == "play Strong 15"]
            assert len(tricks) == len(asks)
            answers = [h for h in bob.heard if h.nick == "Strong" and h.command == "PRIVMSG"]
            assert len(answers) == len(asks) == len(moves) // 2
            assert [h.text for h in answers] == [f"play {ord(m.value) - 64}" for m in moves[1::2]]

    run(scenario, tmp_path)


class Engine(Threaded):
    """A Tournoyons engine of the tests' own, answering in tester mode (an empty
    ``Referee``: the value in the body): the rightmost column with room. Every request's
    parameters are kept, in order."""

    def __init__(self) -> None:
        self.requests: list[list[tuple[str, str]]] = []
        super().__init__([Route("/engine", self.handle)])

    async def handle(self, request: Request) -> Response:
        """Answer the column in the body."""
        self.requests.append(list(request.query_params.multi_items()))
        tray = request.query_params.get("Tray", "")
        top = tray[35:42] if len(tray) == 42 else "0" * 7
        free = [index for index, code in enumerate(top) if code == "0"]
        return PlainTextResponse(chr(65 + free[-1]) if free else "A")


@pytest.mark.slow
def test_a_bot_and_a_tournoyons_engine_of_the_tests_own_seated_by_room_players(
    tmp_path: Path,
) -> None:
    """``botsarena:URL`` against a Tournoyons engine's URL: the bot is greeted with
    ``init`` then asked ``play-turn`` with the room's board; the engine is called in tester
    mode with the protocol's parameters in order; the game is recorded whole."""

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with refereeing(ircd, folder, think=10) as (arbitre, _):
            async with raw_player(ircd.port, "watcher") as watcher:
                await room_open(watcher)
            bot, url = await asyncio.gather(
                room_player(ircd, "Bot", f"botsarena:{bots.base}/good"),
                room_player(ircd, "Url", f"{engine.base}/engine"),
            )
            assert (bot.status, url.status) == (0, 0), bot.output + url.output
            [(result, names, moves)] = await games_over(arbitre.store, 1)
            assert sorted(names) == ["Bot", "Url"] and result in ("seat1", "seat2", "draw")
            greetings = [m for _, m in bots.messages if m["action"] == "init"]
            turns = [m for _, m in bots.messages if m["action"] == "play-turn"]
            assert len(greetings) == 1 and len(turns) == len(moves[names.index("Bot") :: 2])
            assert all(len(m["board"]) == 6 for m in turns)
            first = engine.requests[0]
            names_sent = [name for name, _ in first]
            assert names_sent[:6] == ["Set", "Game", "MoveId", "Turn", "Status", "TimeOut"]
            assert names_sent[-1] == "Referee" and first[-1][1] == ""
            assert dict(first)["Set"] == "ConnectFour"
            assert len(engine.requests) == len(moves[names.index("Url") :: 2])

    with Bots().running() as bots, Engine().running() as engine:
        run(scenario, tmp_path)


@pytest.mark.slow
def test_room_player_refuses_what_cannot_play(tmp_path: Path) -> None:
    """A nick outside the grammar, an unknown built-in engine, an engine URL with a
    password: status 2 with the reason, before connecting anywhere."""

    async def scenario(ircd: Ircd, folder: Path) -> None:
        del folder
        cases: Sequence[tuple[str, str, str]] = [
            ("bad_nick", "builtin:strong", "cannot play"),
            ("Good", "builtin:nope", "no built-in engine"),
            ("Good", "http://u:p@127.0.0.1:9/e", "no user or password"),
        ]
        for nick, engine, reason in cases:
            done = await room_player(ircd, nick, engine)
            assert done.status == 2 and reason in done.output, done.output

    run(scenario, tmp_path)
