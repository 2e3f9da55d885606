"""Timi rooms against ``timi-rooms.md``, clause by clause, on a real ngIRCd: what an IRC user
receives when a player's message is not UTF-8 or carries CTCP quoting, when a player
leaves or chats as soon as it is seated, and how a room is archived (the final board and
the game's address, then the referee parts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.arbitre.ircd import Ircd
from tests.arbitre.rooms_kept import ROOM, record, refereeing, room_open, run
from tests.arbitre.test_rooms import alternate, foul_game, play_line, two_players
from tests.arbitre.timi_players import RawPlayer, game_of, raw_player

pytestmark = pytest.mark.arbitre


@pytest.mark.parametrize(
    ("name", "line", "end"),
    [
        ("not UTF-8", b"PRIVMSG #p4-1 :play 4\xff\r\n", "end alice illegal move"),
        ("Latin-1 chat", b"PRIVMSG #p4-1 :d\xe9j\xe0\r\n", "end alice illegal move"),
        ("CTCP ACTION", b"PRIVMSG #p4-1 :\x01ACTION waves\x01\r\n", "end alice illegal move"),
        (
            "CTCP after a move",
            b"PRIVMSG #p4-1 :play 4\x01VERSION\x01\r\n",
            "end alice illegal move",
        ),
        ("CTCP quote", b"PRIVMSG #p4-1 :\x10play 4\r\n", "end alice illegal move"),
    ],
)
def test_a_message_is_the_privmsgs_text_as_sent(
    tmp_path: Path, name: str, line: bytes, end: str
) -> None:
    """R-decision 3: the message is the PRIVMSG's text; anything but ``play <column>``
    disqualifies (seed 004), whatever bytes it holds: the referee stays in the room and
    says the spec's end line, and the record has no move."""
    del name

    async def misbehave(a: RawPlayer, b: RawPlayer) -> None:
        del b
        a.writer.write(line)

    async def scenario(ircd: Ircd, folder: Path) -> None:
        _, game, _, moves, ends = await foul_game(folder, ircd, misbehave)
        assert ends == [end]
        assert game.winner == 1 and moves == []

    run(scenario, tmp_path)


def test_a_spectators_bytes_that_are_not_utf8_harm_no_game(tmp_path: Path) -> None:
    """A spectator's Latin-1 chat is ignored: the game goes on (section 3: a room's
    misbehaving user harms no other room, nor its own)."""

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with refereeing(ircd, folder) as (arbitre, _):
            async for a, b in two_players(ircd):
                async with raw_player(ircd.port, "carol") as c:
                    await c.join(ROOM)
                    await play_line(a, "alice")
                    c.writer.write(b"PRIVMSG #p4-1 :d\xe9j\xe0 vu\r\n")
                    await alternate(a, b, [1, 2, 1, 2, 1, 2, 1])
                    await a.said(ROOM, "end alice win")
                game, _, moves = await record(arbitre, game_of(a, ROOM))
                assert game.winner == 0 and len(moves) == 7
                break

    run(scenario, tmp_path)


@pytest.mark.parametrize(
    ("then", "end"),
    [("PART #p4-1", "end bob left"), ("PRIVMSG #p4-1 :hello", "end bob illegal move")],
)
def test_a_player_who_leaves_or_chats_as_soon_as_seated(
    tmp_path: Path, then: str, end: str
) -> None:
    """bob joins (the second player: seated) and at once parts or chats, in the same
    write: his foul counts as any other (``end bob left``, ``end bob illegal move``),
    not lost while the game is being made."""

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with (
            refereeing(ircd, folder) as (arbitre, _),
            raw_player(ircd.port, "alice") as a,
            raw_player(ircd.port, "bob") as b,
        ):
            await room_open(a)
            await a.join(ROOM)
            b.writer.write(f"JOIN {ROOM}\r\n{then}\r\n".encode())
            heard = await a.expect(lambda h: h.target == ROOM and h.text.startswith("end"))
            assert heard.text == end
            game, seats, _ = await record(arbitre, game_of(a, ROOM))
            assert game.winner == 0 and seats[1].error

    run(scenario, tmp_path)


def test_the_room_is_archived_final_board_and_address_then_part(tmp_path: Path) -> None:
    """R-decision 6: after ``end``, the referee posts the final board (six NOTICE lines,
    top row first) and the game's address, and only then parts the room."""

    async def scenario(ircd: Ircd, folder: Path) -> None:
        async with refereeing(ircd, folder) as (arbitre, _):
            async for a, b in two_players(ircd):
                await alternate(a, b, [1, 2, 1, 2, 1, 2, 1])
                await a.expect(lambda h: h.command == "PART" and h.nick == "Arbitre")
                heard = [(h.command, h.text) for h in a.heard if h.target == ROOM]
                ending = heard[heard.index(("PRIVMSG", "end alice win")) :]
                final = ["X......", "XO.....", "XO.....", "XO....."]
                assert ending == [
                    ("PRIVMSG", "end alice win"),
                    *[("NOTICE", row) for row in [".......", ".......", *final]],
                    ("NOTICE", f"game http://127.0.0.1:9/games/{game_of(a, ROOM)}"),
                    ("PART", "game over"),
                ]
                await record(arbitre, game_of(a, ROOM))
                break

    run(scenario, tmp_path)


def test_a_player_who_changes_nick_mid_game_has_left(tmp_path: Path) -> None:
    """bob becomes ``bobby`` while alice is asked: players are named by their nick
    (R-decision 4), so ``end bob left``; ``bobby``'s ``play 4`` changes nothing."""

    async def misbehave(a: RawPlayer, b: RawPlayer) -> None:
        await alternate(a, b, [4, 4])
        await play_line(a, "alice", count=2)
        b.send("NICK bobby")
        b.say(ROOM, "play 4")

    async def scenario(ircd: Ircd, folder: Path) -> None:
        _, game, _, moves, ends = await foul_game(folder, ircd, misbehave)
        assert ends == ["end bob left"]
        assert game.winner == 0 and [m.value for m in moves] == ["D", "D"]

    run(scenario, tmp_path)


def test_a_second_move_after_the_referees_answer_is_still_a_flood(tmp_path: Path) -> None:
    """R-decision 7: alice's ``play 5`` heard after ``play bob 5`` went out but before
    bob's move is a flood (``end alice flood``), not an illegal move."""

    async def misbehave(a: RawPlayer, b: RawPlayer) -> None:
        del b
        a.say(ROOM, "play 4")
        await play_line(a, "bob")
        a.say(ROOM, "play 5")

    async def scenario(ircd: Ircd, folder: Path) -> None:
        _, game, _, moves, ends = await foul_game(folder, ircd, misbehave)
        assert ends == ["end alice flood"]
        assert game.winner == 1 and [m.value for m in moves] == ["D"]

    run(scenario, tmp_path)
