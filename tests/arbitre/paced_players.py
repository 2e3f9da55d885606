"""Players of the tests' own that answer as a bot or a quick person does: each
``play <column>`` 0.2 to 1.5 s after its ``play <nick> <seconds>`` line *arrived*, the
columns of a game drawn in advance by a Connect Four of the tests' own (not ours: the
referee is judged by another program's rules). Everything the referee says in the room can
then be checked against the game: its end line, every board a whole position of the game
and in order, the final board and the game's address before its ``PART``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from dataclasses import dataclass

from tests.arbitre.timi_players import Heard, RawPlayer

#: Seconds a paced player takes to answer, counted from its ``play`` line's arrival.
QUICKEST, SLOWEST = 0.2, 1.5
#: The most moves of a game drawn for the tests (short games keep the suite quick).
LONGEST = 14
#: Seconds a scripted game may take before the test fails.
GAME_WAIT = 240.0
ROWS, COLUMNS = 6, 7
REFEREE = "Arbitre"
_ROW = re.compile(r"[XO.]{7}\Z")


class Four:
    """Connect Four, alone: ``X`` moves first, columns 1..7, discs stacked from the bottom."""

    def __init__(self) -> None:
        self.stacks: list[list[str]] = [[] for _ in range(COLUMNS)]
        self.moves = 0

    def free(self) -> list[int]:
        """Return the columns (1..7) with room."""
        return [c + 1 for c in range(COLUMNS) if len(self.stacks[c]) < ROWS]

    def at(self, x: int, y: int) -> str:
        """Return the mark at column ``x``, row ``y`` (0-based, bottom first), ``.``: none."""
        stack = self.stacks[x]
        return stack[y] if y < len(stack) else "."

    def play(self, column: int) -> str | None:
        """Drop the next disc in ``column``; return ``X``/``O`` when it makes four in a row,
        ``draw`` when the board is full, else ``None``."""
        mark = "XO"[self.moves % 2]
        stack = self.stacks[column - 1]
        stack.append(mark)
        self.moves += 1
        x, y = column - 1, len(stack) - 1
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while 0 <= cx < COLUMNS and 0 <= cy < ROWS and self.at(cx, cy) == mark:
                    run += 1
                    cx, cy = cx + sign * dx, cy + sign * dy
            if run >= 4:
                return mark
        return "draw" if self.moves == ROWS * COLUMNS else None

    def rows(self) -> tuple[str, ...]:
        """Return the six rows as the referee shows them: top row first."""
        return tuple("".join(self.at(x, y) for x in range(COLUMNS)) for y in reversed(range(ROWS)))


@dataclass(frozen=True)
class Script:
    """A game drawn in advance: its ``columns``, its ``winner`` (``X``, ``O`` or ``draw``)
    and the board after each move (``boards[k]``: after move ``k + 1``)."""

    columns: tuple[int, ...]
    winner: str
    boards: tuple[tuple[str, ...], ...]

    def end(self, first: str, second: str) -> str:
        """Return the referee's end line for this game, ``first`` playing ``X``."""
        if self.winner == "draw":
            return "end draw"
        return f"end {first if self.winner == 'X' else second} win"

    def letters(self) -> list[str]:
        """Return the moves as the record holds them (``A``..``G``)."""
        return [chr(64 + c) for c in self.columns]


def scripts(rng: random.Random, count: int, longest: int = LONGEST) -> list[Script]:
    """Return ``count`` random games that end within ``longest`` moves."""
    found: list[Script] = []
    while len(found) < count:
        four = Four()
        columns: list[int] = []
        boards: list[tuple[str, ...]] = []
        winner = None
        while winner is None and len(columns) < longest:
            column = rng.choice(four.free())
            winner = four.play(column)
            columns.append(column)
            boards.append(four.rows())
        if winner is not None:
            found.append(Script(tuple(columns), winner, tuple(boards)))
    return found


@dataclass(frozen=True)
class Answered:
    """One answer: when its ``play`` line arrived, when the answer went, the seconds the
    line gave."""

    asked: float
    answered: float
    seconds: int


async def answer_paced(
    player: RawPlayer, room: str, columns: list[int], rng: random.Random, start: int
) -> tuple[str, list[Answered]]:
    """Play ``columns`` in ``room``, each when the referee names ``player``, 0.2-1.5 s after
    its line arrived (lines followed from the ``start``-th heard); return the referee's
    ``end`` line and the answers. Fail when asked more than ``columns``."""
    answers: list[Answered] = []
    waiting = list(columns)
    async with contextlib.aclosing(player.follow(start)) as lines:
        async for heard in lines:
            if heard.nick != REFEREE or heard.target != room or heard.command != "PRIVMSG":
                continue
            if heard.text.startswith("end"):
                return heard.text, answers
            words = heard.text.split()
            if len(words) == 3 and words[:2] == ["play", player.nick]:
                assert waiting, f"{player.nick} asked after its game's last move"
                delay = rng.uniform(QUICKEST, SLOWEST)
                await asyncio.sleep(max(0.0, heard.at + delay - time.monotonic()))
                player.say(room, f"play {waiting.pop(0)}")
                answers.append(Answered(heard.at, time.monotonic(), int(words[2])))
    raise AssertionError(f"{player.nick} stopped hearing {room}")


@dataclass(frozen=True)
class Played:
    """A scripted game as its first player heard it: the ``end`` line, the referee's lines
    in the room (from the game's start), both players' answers."""

    end: str
    lines: list[Heard]
    answers: list[Answered]


async def play_script(
    a: RawPlayer, b: RawPlayer, room: str, script: Script, rng: random.Random
) -> Played:
    """Join ``room`` (``a`` first: it moves first), play ``script`` paced, and return the
    game once the referee has parted the room."""
    starts = len(a.heard), len(b.heard)
    await a.join(room)
    await b.join(room)
    return await play_seated(a, b, room, script, rng, starts)


async def play_seated(
    a: RawPlayer,
    b: RawPlayer,
    room: str,
    script: Script,
    rng: random.Random,
    starts: tuple[int, int],
) -> Played:
    """Play ``script`` paced in ``room``, where ``a`` (first) and ``b`` are seated, their
    game's lines heard from the ``starts``-th on; return the game once the referee has
    parted the room."""
    async with asyncio.timeout(GAME_WAIT):
        (end, answers_a), (_, answers_b) = await asyncio.gather(
            answer_paced(a, room, list(script.columns[0::2]), rng, starts[0]),
            answer_paced(b, room, list(script.columns[1::2]), rng, starts[1]),
        )
        await a.expect(lambda h: h.command == "PART" and h.nick == REFEREE and h.target == room)
    lines = [
        h
        for h in a.heard[starts[0] :]
        if h.nick == REFEREE and h.target == room and h.command in ("PRIVMSG", "NOTICE", "PART")
    ]
    return Played(end, lines, answers_a + answers_b)


def boards_shown(lines: list[Heard], script: Script) -> list[int]:
    """Return the moves after which the boards the referee showed stand (0-based), after
    checking each is whole (six rows in a row, nothing of the referee's between) and a
    position of ``script``, and that they come in order."""
    shown: list[int] = []
    rows: list[str] = []

    def close() -> None:
        assert len(rows) % ROWS == 0, f"a board cut: {rows}"
        for k in range(0, len(rows), ROWS):
            board = tuple(rows[k : k + ROWS])
            assert board in script.boards, f"not a position of the game: {board}"
            shown.append(script.boards.index(board))
        rows.clear()

    for heard in lines:
        if heard.command == "NOTICE" and _ROW.match(heard.text):
            rows.append(heard.text)
        else:
            close()
    close()
    assert shown == sorted(set(shown)), f"boards out of order: {shown}"
    return shown


def check_played(played: Played, script: Script, first: str, second: str, think: int) -> None:
    """Check what a person in the room saw of ``script``'s game: every ``play`` line gives
    ``think`` seconds and was answered within them; the end line is the game's; the
    boards are whole positions in order; the archive is ``end``, the final board, the
    game's address, then ``PART``."""
    end = script.end(first, second)
    assert played.end == end, f"{played.end!r}, the moves say {end!r}"
    assert all(a.seconds == think and a.answered - a.asked < think for a in played.answers)
    assert len(played.answers) == len(script.columns)
    shown = boards_shown(played.lines, script)
    assert shown[-1] == len(script.columns) - 1
    texts = [(h.command, h.text) for h in played.lines]
    assert [t for c, t in texts if c == "PRIVMSG" and t.startswith("end")] == [end]
    tail = texts[texts.index(("PRIVMSG", end)) :]
    final = [("PRIVMSG", end), *[("NOTICE", r) for r in script.boards[-1]]]
    assert tail[: ROWS + 1] == final, tail
    assert tail[ROWS + 1][0] == "NOTICE" and tail[ROWS + 1][1].startswith("game http"), tail
    assert tail[ROWS + 2 :] == [("PART", "game over")], tail
