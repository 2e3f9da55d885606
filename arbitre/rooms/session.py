"""One game of a timi room as its seats see it: the link between the game master's asks
(through the ``irc`` seat kind) and the room's messages (``timi-rooms.md``).

The referee (:mod:`.referee`) hands the session the room's verdicts (:class:`~.timi.Move`,
:class:`~.timi.Foul`) and every line in and out; the seat's ``ask`` broadcasts ``play
<nick> <seconds>`` and waits for the player's move, a foul by either player, the end of
its time or the loss of the chat server. Every line goes into the game's exchange log
with its time: those heard during an ask with the answer, the rest when the game ends.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from tournoyons_gui.arbitre.answer import ABORTED, UNRESUMED, Answer, Note, note
from tournoyons_gui.arbitre.rooms import timi
from tournoyons_gui.arbitre.rooms.chat import Chat
from tournoyons_gui.arbitre.seats.base import Position

__all__ = ["LEFT_GRACE", "MAX_LOGGED", "RoomSession"]

#: Lines kept for the exchange log between two of its writes (an ask's answer, the end):
#: spectators may talk as much as the chat server lets them, the record keeps the first
#: lines and the count of the others.
MAX_LOGGED = 1000

#: Seconds a player's leaving waits before it ends the game: a server going down first
#: tells its users' quits, then closes; a game whose server is lost within this time ends
#: as ``server error``, not as a player's ``left``.
LEFT_GRACE = 1.0

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

    # --- from the room ----------------------------------------------------------------

    def heard(self, raw: str) -> None:
        """Log a line received in the room (the first :data:`MAX_LOGGED` of a turn)."""
        self._keep(note("irc in", raw))

    def sent(self, line: str) -> None:
        """Log a line we sent to the room (the first :data:`MAX_LOGGED` of a turn)."""
        self._keep(note("irc out", line))

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
        ``play <column>``; a foul, the end of the time or a lost server end the game."""
        started = time.monotonic()
        nick = position.seat.name
        if self.foul is None and not self.broken:
            if position.number > 1:
                self.board(position)
            limit = position.options.timeout if deadline is None else deadline - started
            seconds = max(0, int(limit + 0.5))
            self.state.ask(nick)
            self._waiter = asyncio.get_running_loop().create_future()
            self.sent(self.chat.say(self.room, timi.task_play(nick, seconds)))
            try:
                async with asyncio.timeout(None if deadline is None else deadline - started):
                    move = await asyncio.shield(self._waiter)
            except TimeoutError:
                move = None
                self._fouled(nick, timi.TIMEOUT, f"{nick} did not play within {seconds} s")
            finally:
                self._waiter = None
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
