"""One game of a timi room as its seats see it: the link between the game master's asks
(through the ``irc`` seat kind) and the room's messages (``timi-rooms.md``).

The referee (:mod:`.referee`) hands the session the room's verdicts (:class:`~.timi.Move`,
:class:`~.timi.Foul`) and every line in and out (a line out when it is written to the
server, :class:`~.chat.Sent`); the seat's ``ask`` broadcasts ``play <nick> <seconds>`` and
waits for the player's move, a foul by either player, the end of its time or the loss of
the chat server. Every line goes into the game's exchange log with its time: those heard
during an ask with the answer, the rest when the game ends.

**The clock** (a player that answers in its time never loses on time): lines wait in the
chat's paced queue, so a player's time counts from the moment its ``play <nick> <seconds>``
line is written to the socket, never from its queueing; it is asked from then on (a ``play``
before is out of turn), and its deadline is that moment plus the seconds it was told plus
the chat server's lag as measured then (:attr:`~.chat.Chat.lag`: at least a second), never
less. A move read before the referee has found the deadline passed counts. A ``play`` line
the queue could not write within :data:`PROMPT_WAIT` seconds ends the game as
``server error``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from tournoyons_gui.arbitre.answer import ABORTED, UNRESUMED, Answer, Note, note
from tournoyons_gui.arbitre.rooms import timi
from tournoyons_gui.arbitre.rooms.chat import Chat
from tournoyons_gui.arbitre.seats.base import Position

__all__ = ["LEFT_GRACE", "MAX_LOGGED", "PROMPT_WAIT", "RoomSession"]

#: Lines kept for the exchange log between two of its writes (an ask's answer, the end):
#: spectators may talk as much as the chat server lets them, the record keeps the first
#: lines and the count of the others.
MAX_LOGGED = 1000

#: Seconds a player's leaving waits before it ends the game: a server going down first
#: tells its users' quits, then closes; a game whose server is lost within this time ends
#: as ``server error``, not as a player's ``left``.
LEFT_GRACE = 1.0

#: Seconds a ``play <nick> <seconds>`` line may wait in the chat's queue before the game
#: ends as ``server error`` (the referee could not ask; nobody's fault).
PROMPT_WAIT = 300.0

#: Which failure of the seat each foul is (:class:`~tournoyons_gui.arbitre.answer.Answer`).
_FAILURES = {
    timi.ILLEGAL: "illegal",
    timi.FLOOD: "illegal",
    timi.LEFT: "unreachable",
    timi.TIMEOUT: "late",
}


class RoomSession:
    """The game in play in ``room`` (a channel) between ``players`` (nicks, the first to
    move first), said through ``chat``; ``state`` is the room's referee
    (:class:`~.timi.Room`); ``board`` posts the position for people after each move."""

    def __init__(
        self,
        chat: Chat,
        room: str,
        state: timi.Room,
        players: tuple[str, str],
        board: Callable[[Position], None],
    ) -> None:
        self.chat = chat
        self.room = room
        self.state = state
        self.players = players
        self.board = board
        #: The first foul: (nick, reason, detail); the game ends on it.
        self.foul: tuple[str, str, str] | None = None
        #: Why the room is lost (the chat server), or ``""``.
        self.broken = ""
        self._log: list[Note] = []
        self._unlogged = 0
        self._waiter: asyncio.Future[timi.Move | None] | None = None
        self._leaving: asyncio.TimerHandle | None = None
        #: The ``play`` line being sent and the nick it asks, until it is written.
        self._prompt: tuple[str, str] | None = None
        self._written: asyncio.Future[float] | None = None
        #: Lines whose writing someone waits for (:meth:`written`).
        self._flushes: dict[str, asyncio.Future[None]] = {}

    # --- from the room ----------------------------------------------------------------

    def heard(self, raw: str) -> None:
        """Log a line received in the room (the first :data:`MAX_LOGGED` of a turn)."""
        self._keep(note("irc in", raw))

    def sent(self, line: str) -> None:
        """A line to the room was written to the server now: log it (the first
        :data:`MAX_LOGGED` of a turn); the ``play`` line of the ask in flight starts the
        player's clock, and asks it (its ``play`` before was out of turn)."""
        self._keep(note("irc out", line))
        if self._prompt is not None and self._prompt[0] == line:
            nick = self._prompt[1]
            self._prompt = None
            self.state.ask(nick)
            if self._written is not None and not self._written.done():
                self._written.set_result(time.monotonic())
        flushed = self._flushes.pop(line, None)
        if flushed is not None and not flushed.done():
            flushed.set_result(None)

    async def written(self, line: str, within: float) -> bool:
        """Wait until ``line`` (queued) is written, ``within`` seconds at most, or the chat
        server is lost; return whether it was written."""
        if self.broken:
            return False
        flushed = self._flushes.setdefault(line, asyncio.get_running_loop().create_future())
        try:
            async with asyncio.timeout(within):
                await asyncio.shield(flushed)
        except TimeoutError:
            return False
        return flushed.done() and not self.broken

    def _keep(self, entry: Note) -> None:
        if len(self._log) < MAX_LOGGED:
            self._log.append(entry)
        else:
            self._unlogged += 1

    def verdict(self, verdict: timi.Verdict) -> None:
        """Take the room's verdict on a message: a move answers the ask; the first foul
        ends the game (the ask in flight, or the next one, returns it)."""
        if isinstance(verdict, timi.Foul) and verdict.reason == timi.LEFT:
            if self._leaving is None:
                args = (verdict.player, verdict.reason, verdict.detail)
                self._leaving = asyncio.get_running_loop().call_later(
                    LEFT_GRACE, self._fouled, *args
                )
        elif isinstance(verdict, timi.Foul):
            self._fouled(verdict.player, verdict.reason, verdict.detail)
        elif (
            isinstance(verdict, timi.Move) and self._waiter is not None and not self._waiter.done()
        ):
            self._waiter.set_result(verdict)

    def lost(self, why: str) -> None:
        """The chat server is lost: the game ends with no result (``end server error``)."""
        self.broken = why or "connection lost"
        if self._leaving is not None:
            self._leaving.cancel()
        for flushed in self._flushes.values():
            if not flushed.done():
                flushed.set_result(None)
        self._wake()

    def drain(self) -> list[Note]:
        """Return the lines logged and not yet recorded."""
        entries, self._log = self._log, []
        if self._unlogged:
            entries.append(note("irc in", f"{self._unlogged} more lines, not logged"))
            self._unlogged = 0
        return entries

    # --- from the seat ----------------------------------------------------------------

    async def ask(self, position: Position, deadline: float | None) -> Answer:
        """Post the board, broadcast ``play <nick> <seconds>`` and wait for the nick's
        ``play <column>`` within the seconds from the line's writing, plus the server's
        lag (module docstring; ``deadline`` gives the seconds: the match's TimeOut); a
        foul, the end of the time or a lost server end the game."""
        started = time.monotonic()
        nick = position.seat.name
        limit = position.options.timeout if deadline is None else deadline - started
        seconds = max(0, int(limit + 0.5))
        move: timi.Move | None = None
        if self.foul is None and not self.broken:
            if position.number > 1:
                self.board(position)
            self._waiter = asyncio.get_running_loop().create_future()
            self._written = asyncio.get_running_loop().create_future()
            line = self.chat.say(self.room, timi.task_play(nick, seconds))
            self._prompt = (line, nick)
            try:
                move, started = await self._answer(nick, seconds, started)
            finally:
                self._waiter = self._written = self._prompt = None
            # A move received before a foul counts (the foul, a flood say, ends the game
            # at the next ask), whatever the order the master reads them in.
            if move is not None and not self.broken:
                ms = int((time.monotonic() - started) * 1000)
                return Answer(chr(64 + move.column), ms=ms, log=self.drain())
        ms = int((time.monotonic() - started) * 1000)
        if self.broken:
            return Answer.failure(ABORTED, UNRESUMED, ms, self.drain())
        assert self.foul is not None
        who, reason, detail = self.foul
        culprit = None if who == nick else self.players.index(who)
        return Answer.failure(_FAILURES[reason], f"{reason}: {detail}", ms, self.drain(), culprit)

    async def _answer(
        self, nick: str, seconds: int, queued: float
    ) -> tuple[timi.Move | None, float]:
        """Wait for the ``play`` line's writing, then for the move until the deadline;
        return the move (``None``: a foul, the end of the time, a lost server) and when the
        clock started."""
        assert self._waiter is not None and self._written is not None
        waiter, written = self._waiter, self._written
        either: set[asyncio.Future[Any]] = {waiter, written}
        done, _ = await asyncio.wait(
            either, timeout=PROMPT_WAIT, return_when=asyncio.FIRST_COMPLETED
        )
        if not written.done():
            written.cancel()
            if not done:
                self.lost(f"the play line for {nick} waited {PROMPT_WAIT:g} s to be sent")
            return None, queued
        at = written.result()
        while not waiter.done():
            lag = self.chat.lag
            left = at + seconds + lag - time.monotonic()
            if left <= 0:
                self._fouled(
                    nick,
                    timi.TIMEOUT,
                    f"{nick} did not play within {seconds} s of its play line "
                    f"and {lag:.2f} s of the server's lag",
                )
                return None, at
            await asyncio.wait({waiter}, timeout=left)
        return waiter.result(), at

    def refused(self, position: Position, detail: str) -> None:
        """The rules refused the nick's column (a full column): an illegal move."""
        nick = position.seat.name
        self._fouled(nick, timi.ILLEGAL, f"{nick}'s move: {detail}")

    def _fouled(self, nick: str, reason: str, detail: str) -> None:
        if self.foul is None:
            self.foul = (nick, reason, detail)
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)
