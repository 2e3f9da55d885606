"""How the rooms' lines go out, alone (no socket): the queue's order (protocol lines first,
boards whole or not at all, a room's last lines before its ``PART``), the pace and how it
slows down, the lag the probes measure, the player's clock that starts when its ``play``
line is written, and the command line's pace options."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import cast

import pytest

from tournoyons_gui.arbitre.answer import ABORTED
from tournoyons_gui.arbitre.match import Options
from tournoyons_gui.arbitre.rooms import session as sessions
from tournoyons_gui.arbitre.rooms import timi
from tournoyons_gui.arbitre.rooms.pace import LEAST_LAG, Lag, Outbox, Pace, Throttle
from tournoyons_gui.arbitre.rooms.session import RoomSession
from tournoyons_gui.arbitre.seats.base import Position
from tournoyons_gui.server.cli import parser
from tournoyons_gui.server.cli.common import PACE_BURST, PACE_RATE
from tournoyons_gui.server.cli.rooms import room_options


def drained(outbox: Outbox) -> list[str]:
    """Return every line the outbox gives, in order."""
    lines = []
    while (popped := outbox.pop()) is not None:
        lines.append(popped[1])
    return lines


def test_protocol_lines_go_first_in_order_and_a_waiting_board_is_superseded_whole() -> None:
    outbox = Outbox()
    outbox.board("#a", ["a1", "a2"])
    outbox.protocol("play x 4", "#a")
    outbox.board("#b", ["b1", "b2"])
    outbox.board("#a", ["A1", "A2"])  # the newer position of #a: a1 a2 never go
    outbox.protocol("PING :lag1")
    assert len(outbox) == 6 and outbox.superseded == 1 and outbox.pressing()
    assert drained(outbox) == ["play x 4", "PING :lag1", "b1", "b2", "A1", "A2"]
    assert len(outbox) == 0 and not outbox.pressing()


def test_a_board_begun_goes_whole_before_the_lines_said_meanwhile() -> None:
    outbox = Outbox()
    outbox.board("#a", ["r1", "r2", "r3"])
    assert not outbox.pressing() and outbox.next_board() == 3
    assert outbox.pop() == ("#a", "r1")
    outbox.protocol("play y 4", "#a")
    outbox.board("#a", ["s1", "s2", "s3"])  # waits: the one begun is not cut
    assert outbox.pressing()
    assert drained(outbox) == ["r2", "r3", "play y 4", "s1", "s2", "s3"]
    assert outbox.superseded == 0


def test_a_rooms_end_final_board_address_then_part_none_dropped() -> None:
    outbox = Outbox()
    outbox.notice("#a", "game http://x/games/1")
    outbox.board("#a", ["old"])
    outbox.board("#b", ["other"])
    outbox.protocol("end x win", "#a")
    outbox.board("#a", ["final1", "final2"])
    outbox.notice("#a", "game http://x/games/1")
    outbox.part("#a", "PART #a :game over")
    outbox.board("#a", ["after"])  # a board said after the PART waits as any other
    assert drained(outbox) == [
        "game http://x/games/1",
        "end x win",
        "final1",
        "final2",
        "game http://x/games/1",
        "PART #a :game over",
        "other",
        "after",
    ]
    assert outbox.superseded == 1


def test_an_empty_board_is_nothing_and_clear_forgets_everything() -> None:
    outbox = Outbox()
    outbox.board("#a", [])
    assert len(outbox) == 0 and outbox.pop() is None
    outbox.protocol("JOIN #a", "#a")
    outbox.board("#a", ["r"])
    outbox.clear()
    assert len(outbox) == 0 and outbox.pop() is None


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_pace_is_a_burst_then_a_rate_and_it_halves_while_the_server_holds_lines() -> None:
    clock = Clock()
    throttle = Throttle(Pace(burst=3, per_second=2.0), clock)
    assert [throttle.wait() for _ in range(3)] == [0.0, 0.0, 0.0]
    assert throttle.wait() == pytest.approx(0.5) and throttle.resting(6) == pytest.approx(1.5)
    assert throttle.resting(1) == pytest.approx(0.5)
    clock.now += 0.5
    assert throttle.wait() == 0.0
    throttle.observe(held=1.5)  # the server held our lines: half the rate, no burst
    assert throttle.rate == 1.0 and throttle.slowed
    clock.now += 10
    assert throttle.wait() == 0.0 and throttle.wait() == pytest.approx(1.0)
    for _ in range(3):
        throttle.observe(held=2.0)
    assert throttle.rate == 0.5  # RFC 1459's one line every two seconds, never less
    throttle.observe(held=0.2)
    assert throttle.rate == 1.0
    throttle.observe(held=0.0)
    throttle.observe(held=0.0)
    assert throttle.rate == 2.0 and not throttle.slowed
    with pytest.raises(ValueError):
        Pace(burst=0)
    with pytest.raises(ValueError):
        Pace(per_second=0)


def test_the_lag_is_the_longest_recent_round_trip_or_the_wait_of_the_probe_out() -> None:
    lag = Lag()
    assert lag.seconds(0.0) == LEAST_LAG  # nothing measured: the least
    token = lag.probe()
    assert token is not None and lag.probe() is None  # one probe out at a time
    assert lag.seconds(50.0) == LEAST_LAG  # queued, not written: no wait counted
    lag.written(token, 10.0)
    assert lag.seconds(13.0) == 3.0 and not lag.dead(13.0)
    assert lag.answered(token, 13.5) == 3.5 and lag.answered(token, 14.0) is None
    assert lag.answered("not ours", 14.0) is None
    for sent, back in ((20.0, 20.1), (30.0, 30.2), (40.0, 40.1)):
        token = lag.probe()
        assert token is not None
        lag.written(token, sent)
        lag.answered(token, back)
    assert lag.seconds(41.0) == LEAST_LAG  # the 3.5 s trip is no longer of the last three
    assert lag.held(0.5) == pytest.approx(0.4)
    token = lag.probe()
    assert token is not None
    lag.written(token, 50.0)
    assert lag.seconds(52.5) == 2.5 and lag.dead(80.0) and lag.seconds(90.0) == 30.0
    lag.reset()
    assert lag.seconds(90.0) == LEAST_LAG and lag.probe() is not None


class QueueChat:
    """A chat whose lines wait in a queue until the test writes them (no socket)."""

    nick = "Arbitre"
    lag = 0.5

    def __init__(self) -> None:
        self.queued: list[str] = []

    def say(self, room: str, text: str) -> str:
        self.queued.append(f"PRIVMSG {room} :{text}")
        return self.queued[-1]


def seated() -> tuple[QueueChat, timi.Room, RoomSession]:
    """Return a chat, a room where alice and bob are seated, and its game's session."""
    chat, room = QueueChat(), timi.Room("Arbitre")
    room.joined("alice")
    room.joined("bob")
    session = RoomSession(chat, "#p4-1", room, ("alice", "bob"), lambda position: None)  # type: ignore[arg-type]
    return chat, room, session


def alices_turn(seconds: int) -> Position:
    """Return the first position of a game, alice asked for ``seconds`` (what the session
    reads of it)."""
    seat = SimpleNamespace(name="alice", url="#p4-1")
    return cast(Position, SimpleNamespace(seat=seat, number=1, options=Options(timeout=seconds)))


def said(room: timi.Room, session: RoomSession, nick: str, text: str) -> None:
    """Hand the session the room's verdicts on ``nick``'s message."""
    for verdict in room.said(nick, text):
        session.verdict(verdict)


@pytest.mark.slow
def test_the_clock_starts_when_the_play_line_is_written_not_when_it_is_queued() -> None:
    """The ``play alice 2`` line waits 2.5 s in the queue (longer than its 2 s): alice,
    answering 1 s after it is written, is in time; her ``play`` before it was written
    would have been out of turn."""

    async def scenario() -> None:
        chat, room, session = seated()
        asking = asyncio.create_task(session.ask(alices_turn(2), time.monotonic() + 2))
        await asyncio.sleep(0)
        assert chat.queued == ["PRIVMSG #p4-1 :play alice 2"] and room.asked is None
        await asyncio.sleep(2.5)
        assert not asking.done()
        before = time.monotonic()
        session.sent(chat.queued[0])
        assert room.asked == "alice"
        await asyncio.sleep(1.0)
        said(room, session, "alice", "play 4")
        answer = await asking
        assert answer.value == "D" and answer.ms <= (time.monotonic() - before) * 1000
        assert [kind for kind, _, _ in answer.log] == ["irc out"]

    asyncio.run(scenario())


def test_a_play_before_its_line_is_written_is_out_of_turn() -> None:
    async def scenario() -> None:
        _, room, session = seated()
        asking = asyncio.create_task(session.ask(alices_turn(2), time.monotonic() + 2))
        await asyncio.sleep(0)
        said(room, session, "alice", "play 4")
        answer = await asking
        assert answer.error == "illegal" and "out of turn" in answer.detail

    asyncio.run(scenario())


def test_the_deadline_is_the_seconds_and_the_lag_after_the_writing_never_less() -> None:
    async def scenario() -> None:
        chat, _, session = seated()
        asking = asyncio.create_task(session.ask(alices_turn(1), time.monotonic() + 1))
        await asyncio.sleep(0.3)
        before = time.monotonic()
        session.sent(chat.queued[0])
        answer = await asking
        assert time.monotonic() - before >= 1 + chat.lag
        assert answer.error == "late" and session.foul is not None
        assert answer.detail == (
            "timeout: alice did not play within 1 s of its play line and 0.50 s of the server's lag"
        )

    asyncio.run(scenario())


def test_a_play_line_never_written_ends_the_game_as_server_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sessions, "PROMPT_WAIT", 0.3)

    async def scenario() -> None:
        _, _, session = seated()
        answer = await session.ask(alices_turn(2), time.monotonic() + 2)
        assert answer.error == ABORTED and answer.detail == "server error"
        assert "waited 0.3 s to be sent" in session.broken

    asyncio.run(scenario())


def test_the_pace_options_of_the_command_line() -> None:
    assert (Pace().burst, Pace().per_second) == (PACE_BURST, PACE_RATE)
    args = parser().parse_args(["rooms", "--irc", "irc://127.0.0.1:6667"])
    options = room_options(args)
    assert options is not None and options.pace == Pace()
    args = parser().parse_args(
        ["rooms", "--irc", "irc://h:1", "--pace-burst", "4", "--pace-rate", "0.5"]
    )
    options = room_options(args)
    assert options is not None and options.pace == Pace(burst=4, per_second=0.5)
    for bad in (["--pace-rate", "0"], ["--pace-rate", "fast"], ["--pace-burst", "0"]):
        with pytest.raises(SystemExit) as refused:
            parser().parse_args(["rooms", "--irc", "irc://h:1", *bad])
        assert refused.value.code == 2
