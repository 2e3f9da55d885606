"""The timi protocol's grammar and a room's referee, sans I/O (seed 004, ``timi-rooms.md``).

Pure: texts in, texts and verdicts out; no socket, no clock, no chat system. The same
codec serves the referee (:func:`task_play`, :func:`end`, :func:`read_answer`, and
:class:`Room`, which seats the players and judges every message of the room) and a player
(:func:`answer_play`, :func:`read_command`). The chat system around it (IRC first) hands
it each room message's text and who sent it (h11's shape: events in, verdicts out).

The grammar (seed 004, last section)::

    command-task-play = "play" SP player SP DIGIT *(DIGIT) CRLF     ; referee -> room
    answer-play       = "play" SP column CRLF                       ; player -> room
    command-end       = "end" [*(ALPHA / DIGIT / SP)] CRLF           ; referee -> room
    player = ALPHA *8(ALPHA / DIGIT)            ; R-decision 4
    column = "1" / "2" / "3" / "4" / "5" / "6" / "7"

ABNF strings are case-insensitive (R-decision 3): ``PLAY 4`` is ``play 4``; nothing else
is tolerated (no extra space, no trailing text). The chat system has taken the CRLF off.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = [
    "COLUMNS",
    "DRAW",
    "FLOOD",
    "ILLEGAL",
    "LEFT",
    "MAX_SECONDS",
    "SERVER_ERROR",
    "THINK",
    "TIMEOUT",
    "WIN",
    "End",
    "Foul",
    "Move",
    "Room",
    "Seated",
    "TaskPlay",
    "answer_play",
    "board_lines",
    "end",
    "is_player_name",
    "read_answer",
    "read_command",
    "task_play",
]

#: The columns of the board, 1..7 in the order the board is held (our letters ``A``..``G``).
COLUMNS = 7
#: The think time a referee gives by default, seconds (seed 004's example, ``play toto 15``).
THINK = 15
#: The most seconds a player reads from a ``play <player> <seconds>`` line (a bound on
#: hostile input: more digits are refused as not a command).
MAX_SECONDS = 86400

#: The reasons of ``end`` (R-decision 2): ASCII letters, digits and spaces only.
WIN = "win"
DRAW = "draw"
TIMEOUT = "timeout"
ILLEGAL = "illegal move"
FLOOD = "flood"
LEFT = "left"
SERVER_ERROR = "server error"

_PLAYER = re.compile(r"[A-Za-z][A-Za-z0-9]{0,8}\Z")
_ANSWER = re.compile(r"(?i:play) ([1-7])\Z")
_TASK = re.compile(r"(?i:play) ([A-Za-z][A-Za-z0-9]{0,8}) ([0-9]{1,6})\Z")
_END = re.compile(r"(?i:end)([A-Za-z0-9 ]*)\Z")


def is_player_name(nick: str) -> bool:
    """Whether ``nick`` can be a player: ``ALPHA *8(ALPHA / DIGIT)`` (R-decision 4)."""
    return _PLAYER.match(nick) is not None


def task_play(player: str, seconds: int) -> str:
    """Return ``play <player> <seconds>``; raise ``ValueError`` for a player name outside
    the grammar or negative seconds."""
    if not is_player_name(player) or seconds < 0:
        raise ValueError(f"not a command-task-play: {player!r} {seconds}")
    return f"play {player} {seconds}"


def answer_play(column: int) -> str:
    """Return ``play <column>`` (1..7); raise ``ValueError`` for another column."""
    if not 1 <= column <= COLUMNS:
        raise ValueError(f"a column is 1..{COLUMNS}, not {column}")
    return f"play {column}"


def end(reason: str = "") -> str:
    """Return ``end`` or ``end <reason>``; raise ``ValueError`` for a reason with anything
    but ASCII letters, digits and spaces (R-decision 2)."""
    line = f"end {reason}" if reason else "end"
    if _END.match(line) is None:
        raise ValueError(f"not a command-end reason: {reason!r}")
    return line


def read_answer(text: str) -> int | None:
    """Return the column (1..7) of an ``answer-play`` text, or ``None`` when the text is
    anything else (chat, ``play 8``, ``play  4``, ``play 4 now``)."""
    found = _ANSWER.match(text)
    return None if found is None else int(found.group(1))


@dataclass(frozen=True)
class TaskPlay:
    """``play <player> <seconds>``: ``player`` is asked to move within ``seconds``."""

    player: str
    seconds: int


@dataclass(frozen=True)
class End:
    """``end [reason]``: the game is over; ``reason`` as sent, without its first space."""

    reason: str


def read_command(text: str) -> TaskPlay | End | None:
    """Return the referee's command a room text is, or ``None`` (an answer, chat, a line
    off the grammar). ``end`` must be the whole first word (``endgame`` is chat)."""
    found = _TASK.match(text)
    if found is not None:
        seconds = int(found.group(2))
        return TaskPlay(found.group(1), seconds) if seconds <= MAX_SECONDS else None
    found = _END.match(text)
    if found is not None and (found.group(1) == "" or found.group(1).startswith(" ")):
        return End(found.group(1)[1:])
    return None


def board_lines(tray: str) -> list[str]:
    """Return the six lines of the grid for people (R-decision 5), top row first: ``X`` the
    first player's discs, ``O`` the second's, ``.`` empty. ``tray``: 42 codes, bottom row
    first (ConnectFour's engines' Tray; ``3``/``4``, a winning line's discs, count as
    ``1``/``2``)."""
    marks = {"1": "X", "3": "X", "2": "O", "4": "O"}
    rows = [tray[row * COLUMNS : (row + 1) * COLUMNS] for row in range(len(tray) // COLUMNS)]
    return ["".join(marks.get(code, ".") for code in row) for row in reversed(rows)]


# --- the referee's room --------------------------------------------------------------------


@dataclass(frozen=True)
class Seated:
    """Two players are in the room: the game starts, ``first`` moves first (R-decision 1:
    the first of the two to have joined)."""

    first: str
    second: str


@dataclass(frozen=True)
class Move:
    """``player`` played ``column`` (1..7) when asked: the referee checks it by the rules."""

    player: str
    column: int


@dataclass(frozen=True)
class Foul:
    """``player`` is disqualified for ``reason`` (:data:`ILLEGAL`, :data:`FLOOD`,
    :data:`LEFT`); ``detail`` says what happened, for the record."""

    player: str
    reason: str
    detail: str


Verdict = Seated | Move | Foul


@dataclass
class Room:
    """One room as its referee sees it: who is there in the order they came, the two
    players once seated, whose move is asked, who moved since the opponent's last move.

    Feed it what happens (:meth:`joined`, :meth:`left`, :meth:`renamed`, :meth:`said`);
    each returns the verdicts it leads to. Tell it whom the game asks (:meth:`ask`) and
    when the game is over (:meth:`close`). ``referee``: the referee's own nick, never a
    player. Nicks compare as IRC compares them, case-insensitively.
    """

    referee: str
    waiting: list[str] = field(default_factory=list)
    players: tuple[str, str] | None = None
    asked: str | None = None
    moved: set[str] = field(default_factory=set)
    over: bool = False

    def _is(self, a: str, b: str | None) -> bool:
        return b is not None and a.casefold() == b.casefold()

    def player(self, nick: str) -> str | None:
        """Return the player ``nick`` names (as seated), or ``None`` for a spectator."""
        if self.players is None or self.over:
            return None
        return next((p for p in self.players if self._is(nick, p)), None)

    def joined(self, nick: str) -> list[Verdict]:
        """Someone came in: the first two whose nick can be a player are seated
        (R-decision 4: any other is a spectator)."""
        if self._is(nick, self.referee) or self.players is not None or not is_player_name(nick):
            return []
        if any(self._is(nick, w) for w in self.waiting):
            return []
        self.waiting.append(nick)
        if len(self.waiting) < 2:
            return []
        self.players = (self.waiting[0], self.waiting[1])
        return [Seated(*self.players)]

    def left(self, nick: str) -> list[Verdict]:
        """Someone parted, quit or was kicked: a player in a game in play is disqualified
        (``left``); one waiting for an opponent simply leaves the queue."""
        seated = self.player(nick)
        if seated is not None:
            return self._foul(seated, LEFT, f"{seated} left the room")
        self.waiting = [w for w in self.waiting if not self._is(nick, w)]
        return []

    def renamed(self, old: str, new: str) -> list[Verdict]:
        """A nick changed: a player of a game in play has left (it is named by its nick);
        one waiting comes back as the new nick, at the end of the queue."""
        seated = self.player(old)
        if seated is not None:
            return self._foul(seated, LEFT, f"{seated} changed its nick to {new}")
        was_waiting = any(self._is(old, w) for w in self.waiting)
        self.waiting = [w for w in self.waiting if not self._is(old, w)]
        return self.joined(new) if was_waiting else []

    def said(self, nick: str, text: str) -> list[Verdict]:
        """A room message: a spectator's (or anyone's before the game) is ignored; a
        player's is read as ``answer-play`` (seed 004: anything else disqualifies), then
        judged: a second ``play`` before the opponent's move is a flood (R-decision 7),
        a ``play`` while the opponent is asked is out of turn."""
        seated = self.player(nick)
        if seated is None:
            return []
        column = read_answer(text)
        if column is None:
            return self._foul(seated, ILLEGAL, f"{seated} said {text[:200]!r}, not play 1-7")
        if seated in self.moved:
            return self._foul(seated, FLOOD, f"{seated} played {column} before its opponent")
        if self.asked != seated:
            return self._foul(seated, ILLEGAL, f"{seated} played {column} out of turn")
        self.moved = {seated}
        self.asked = None
        return [Move(seated, column)]

    def ask(self, player: str) -> None:
        """The game asks ``player`` (its ``play <player> <seconds>`` is being sent)."""
        self.asked = player

    def close(self) -> None:
        """The game is over: nobody's message counts any more."""
        self.over = True
        self.asked = None

    def _foul(self, player: str, reason: str, detail: str) -> list[Verdict]:
        return [Foul(player, reason, detail)]

    def nicks(self) -> Sequence[str]:
        """Return the players (seated) or those waiting, in the order they came."""
        return self.players if self.players is not None else tuple(self.waiting)
