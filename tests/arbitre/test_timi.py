"""The timi codec, a room's referee and a room's player, alone (no socket): every state and
bad input."""

from __future__ import annotations

import asyncio

import pytest

from tournoyons_gui.arbitre.answer import Answer
from tournoyons_gui.arbitre.rooms import timi
from tournoyons_gui.arbitre.rooms.chat import Connected, Handler, Names, Said
from tournoyons_gui.arbitre.rooms.engines import Ask
from tournoyons_gui.arbitre.rooms.irc import Backoff, parse_irc_url
from tournoyons_gui.arbitre.rooms.player import GameOver, RoomPlayer
from tournoyons_gui.arbitre.rooms.session import MAX_LOGGED, RoomSession
from tournoyons_gui.interfaces.connectfour.rules import RULES
from tournoyons_gui.interfaces.plugin import ArbitreRules


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("play 4", 4),
        ("PLAY 1", 1),
        ("Play 7", 7),
        ("play 8", None),
        ("play 0", None),
        ("play  4", None),
        ("play 4 ", None),
        (" play 4", None),
        ("play 4 now", None),
        ("play4", None),
        ("play ٤", None),
        ("hello", None),
        ("", None),
    ],
)
def test_an_answer_is_play_and_one_column(text: str, column: int | None) -> None:
    assert timi.read_answer(text) == column


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("play toto 15", timi.TaskPlay("toto", 15)),
        ("PLAY Toto9 4", timi.TaskPlay("Toto9", 4)),
        ("play toto 9999999", None),
        ("play to_to 15", None),
        ("play toto", None),
        ("end", timi.End("")),
        ("end alice win", timi.End("alice win")),
        ("END server error", timi.End("server error")),
        ("endgame", None),
        ("end tata a fait un coup illégal", None),
        ("play 4", None),
    ],
)
def test_the_referees_commands(text: str, command: object) -> None:
    assert timi.read_command(text) == command


def test_lines_written_follow_the_grammar() -> None:
    assert timi.task_play("toto", 15) == "play toto 15"
    assert timi.answer_play(4) == "play 4"
    assert timi.end() == "end" and timi.end("bob illegal move") == "end bob illegal move"
    with pytest.raises(ValueError):
        timi.task_play("to_to", 1)
    with pytest.raises(ValueError):
        timi.answer_play(8)
    with pytest.raises(ValueError):
        timi.end("tata a fait un coup illégal")


def test_nicks_of_players() -> None:
    assert timi.is_player_name("a") and timi.is_player_name("Abcdefgh9")
    assert not timi.is_player_name("Abcdefgh90")  # ten characters
    assert not timi.is_player_name("9lives") and not timi.is_player_name("a_b")


def test_the_board_for_people_top_row_first() -> None:
    tray = "1200000" + "3" + "0" * 34
    lines = timi.board_lines(tray)
    assert len(lines) == 6 and lines[-1] == "XO....." and lines[-2] == "X......"


def seated() -> timi.Room:
    room = timi.Room("Arbitre")
    assert room.joined("Arbitre") == []
    assert room.joined("bad_nick") == []
    assert room.joined("alice") == []
    assert room.joined("bob") == [timi.Seated("alice", "bob")]
    assert room.joined("carol") == []
    return room


def test_the_first_two_valid_nicks_play_the_first_to_join_first() -> None:
    room = seated()
    assert room.players == ("alice", "bob")


def test_a_move_when_asked_then_a_flood_then_out_of_turn() -> None:
    room = seated()
    assert room.said("bob", "play 4")[0] == timi.Foul(
        "bob", timi.ILLEGAL, "bob played 4 out of turn"
    )
    room = seated()
    room.ask("alice")
    assert room.said("alice", "play 4") == [timi.Move("alice", 4)]
    assert room.said("alice", "play 5")[0].reason == timi.FLOOD  # type: ignore[union-attr]
    room.ask("bob")
    assert room.said("bob", "PLAY 3") == [timi.Move("bob", 3)]


def test_spectators_are_ignored_players_chat_and_leaving_are_fouls() -> None:
    room = seated()
    room.ask("alice")
    assert room.said("carol", "play 3") == [] and room.said("bad_nick", "hi") == []
    assert room.said("BOB", "gg")[0].reason == timi.ILLEGAL  # type: ignore[union-attr]
    assert room.left("carol") == []
    assert room.left("alice")[0] == timi.Foul("alice", timi.LEFT, "alice left the room")
    assert room.renamed("bob", "bobby")[0].reason == timi.LEFT  # type: ignore[union-attr]
    room.close()
    assert room.said("alice", "hello") == []


def test_one_waiting_who_leaves_or_renames_is_no_longer_waiting() -> None:
    room = timi.Room("Arbitre")
    room.joined("alice")
    assert room.left("alice") == [] and room.nicks() == ()
    room.joined("alice")
    assert room.renamed("alice", "al_ice") == [] and room.nicks() == ()
    assert room.joined("bob") == [] and room.joined("dan") == [timi.Seated("bob", "dan")]


def test_irc_urls_and_the_backoff() -> None:
    assert parse_irc_url("irc://127.0.0.1:6697") == ("127.0.0.1", 6697)
    assert parse_irc_url("irc://irc.example") == ("irc.example", 6667)
    for bad in ("http://x:1", "irc://", "irc://x:0"):
        with pytest.raises(ValueError):
            parse_irc_url(bad)
    backoff = Backoff(first=1, most=5)
    assert [backoff.delay() for _ in range(5)] == [1, 2, 4, 5, 5]
    backoff.reset()
    assert backoff.delay() == 1


# --- the player, alone (a chat of the test's own: no socket) ------------------------------


class Recorder:
    """A chat that keeps the lines sent (a :class:`~.chat.Chat` for the player)."""

    nick = "me"
    lag = 1.0

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def run(self, handler: Handler) -> None:
        del handler

    async def close(self, why: str = "") -> None:
        self.sent.append(f"QUIT {why}")

    def join(self, room: str) -> str:
        self.sent.append(f"JOIN {room}")
        return self.sent[-1]

    def part(self, room: str, why: str = "") -> str:
        self.sent.append(f"PART {room}")
        return self.sent[-1]

    def say(self, room: str, text: str) -> str:
        self.sent.append(f"PRIVMSG {room} :{text}")
        return self.sent[-1]

    def notice(self, room: str, text: str) -> str:
        return self.say(room, text)

    def board(self, room: str, rows: list[str]) -> None:
        for row in rows:
            self.notice(room, row)

    def list_rooms(self) -> str:
        self.sent.append("LIST")
        return self.sent[-1]

    privileged = False

    def operator(self, room: str, nick: str, on: bool = True) -> str:
        self.sent.append(f"MODE {room} {'+' if on else '-'}o {nick}")
        return self.sent[-1]


class Column:
    """An engine that plays ``C`` and keeps the Trays it was asked on."""

    name = "column C"

    def __init__(self) -> None:
        self.trays: list[str] = []

    async def play(self, rules: ArbitreRules, ask: Ask) -> Answer:
        self.trays.append(rules.request(ask.state, ask.player).params["Tray"])
        return Answer("C")


def test_the_player_answers_its_referee_once_on_the_board_rebuilt_from_the_room() -> None:
    """bob moves first (``play 4``); the referee (the room's operator) names ``me``: the
    engine sees bob's disc in column D and ``me`` answers ``play 3`` once; a spectator's
    ``play me 5`` and bob's chat change nothing; ``end`` closes the game with its moves."""

    async def scenario() -> tuple[list[str], list[str], list[GameOver]]:
        chat, engine = Recorder(), Column()
        rules = RULES
        player = RoomPlayer(chat, "#p4-1", engine, rules)
        player.heard(Connected("me"))
        player.heard(Names("#p4-1", ("Arbitre", "bob", "me", "carol"), ("Arbitre",)))
        for nick, text in [
            ("carol", "play me 5"),  # a spectator is not the referee
            ("Arbitre", "play bob 5"),
            ("bob", "play 4"),
            ("Arbitre", "play me 5"),
        ]:
            player.heard(Said("#p4-1", nick, text))
            await asyncio.sleep(0.05)
        player.heard(Said("#p4-1", "carol", "play me 5"))
        await asyncio.sleep(0.05)
        player.heard(Said("#p4-1", "Arbitre", "play bob 5"))
        player.heard(Said("#p4-1", "Arbitre", "end me win"))
        await asyncio.sleep(0)
        return chat.sent, engine.trays, player.played

    sent, trays, played = asyncio.run(scenario())
    assert sent == ["JOIN #p4-1", "PRIVMSG #p4-1 :play 3"]
    assert trays == ["000100" + "0" * 36]
    assert played == [GameOver("#p4-1", "me win", ("D", "C"), first=False)]


def test_a_talkative_room_keeps_the_first_lines_of_a_turn_and_counts_the_rest() -> None:
    # Spectators may talk as fast as the chat server lets them: the exchange log of a
    # turn keeps MAX_LOGGED lines and says how many more there were (an unbounded list
    # before); the next turn starts afresh.
    session = RoomSession(None, "#p4-1", None, ("alice", "bob"), lambda position: None)  # type: ignore[arg-type]
    for n in range(MAX_LOGGED + 500):
        session.heard(f":carol!c@h PRIVMSG #p4-1 :line {n}")
    session.sent("PRIVMSG #p4-1 :play alice 15")
    entries = session.drain()
    assert len(entries) == MAX_LOGGED + 1
    assert entries[0][1].endswith("line 0") and entries[MAX_LOGGED - 1][1].endswith(
        f"line {MAX_LOGGED - 1}"
    )
    assert entries[-1][:2] == ("irc in", "501 more lines, not logged")
    session.heard(":bob!b@h PRIVMSG #p4-1 :play 4")
    assert [e[1] for e in session.drain()] == [":bob!b@h PRIVMSG #p4-1 :play 4"]
