"""The timi codec and a room's referee, alone (no socket): every state and bad input."""

from __future__ import annotations

import pytest

from tournoyons_gui.arbitre.rooms import timi
from tournoyons_gui.arbitre.rooms.irc import Backoff, parse_irc_url


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
