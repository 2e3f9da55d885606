"""IRC players of the tests' own for the timi rooms: raw sockets and the seed's grammar,
nothing of ours (no IRC library, no codec), so that the referee is judged from outside."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

#: Seconds a test waits for a line it expects before failing.
EXPECT_WAIT = 30.0

_LINE = re.compile(r"(?::(?P<nick>[^!\s]+)\S*\s+)?(?P<command>\S+)\s*(?P<rest>.*)")


@dataclass
class Heard:
    """A line heard: who sent it, its command, its target and its text, and when it
    arrived (``time.monotonic()``)."""

    nick: str
    command: str
    target: str
    text: str
    raw: str
    at: float = field(default_factory=time.monotonic)


@dataclass
class RawPlayer:
    """One IRC client on a raw socket: ``nick``, the lines it heard (``heard``)."""

    nick: str
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    heard: list[Heard] = field(default_factory=list)
    _new: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task[None] | None = None

    def send(self, line: str) -> None:
        """Send one raw line (CRLF added)."""
        self.writer.write(line.encode() + b"\r\n")

    def say(self, room: str, text: str) -> None:
        """Say ``text`` in ``room``."""
        self.send(f"PRIVMSG {room} :{text}")

    async def read(self) -> None:
        """Read lines until the connection closes, answering PING."""
        while True:
            data = await self.reader.readline()
            if not data:
                return
            raw = data.decode("utf-8", "replace").rstrip("\r\n")
            found = _LINE.match(raw)
            if found is None:
                continue
            command, rest = found["command"], found["rest"]
            if command == "PING":
                self.send(f"PONG {rest}")
                continue
            target, _, text = rest.partition(" :")
            if rest.startswith(":"):
                target, text = "", rest[1:]
            self.heard.append(Heard(found["nick"] or "", command, target.strip(), text, raw))
            self._new.set()

    async def expect(
        self, test: Callable[[Heard], bool], wait: float = EXPECT_WAIT, since: int = 0
    ) -> Heard:
        """Return the first line heard (from the ``since``-th, by default the first) that
        passes ``test``."""
        seen = since
        async with asyncio.timeout(wait):
            while True:
                for line in self.heard[seen:]:
                    if test(line):
                        return line
                seen = len(self.heard)
                self._new.clear()
                await self._new.wait()

    async def follow(self, start: int = 0) -> AsyncGenerator[Heard, None]:
        """Yield every line heard from the ``start``-th on, as it comes (forever)."""
        seen = start
        while True:
            while seen < len(self.heard):
                seen += 1
                yield self.heard[seen - 1]
            self._new.clear()
            await self._new.wait()

    async def said(self, room: str, text: str, wait: float = EXPECT_WAIT) -> Heard:
        """Return the room message ``text`` (a PRIVMSG) once heard."""
        return await self.expect(
            lambda h: h.command == "PRIVMSG" and h.target == room and h.text == text, wait
        )

    def room_texts(self, room: str, command: str = "PRIVMSG") -> list[str]:
        """Return the texts said (or noticed) in ``room`` so far."""
        return [h.text for h in self.heard if h.command == command and h.target == room]

    async def closed(self, wait: float = EXPECT_WAIT) -> None:
        """Return once the server has closed the connection."""
        assert self._task is not None
        async with asyncio.timeout(wait):
            await asyncio.shield(self._task)

    async def join(self, room: str) -> None:
        """Join ``room`` and return once in (the server's echo of this JOIN, not of one to
        another room before)."""
        mark = len(self.heard)
        self.send(f"JOIN {room}")
        await self.expect(
            lambda h: (
                h.command == "JOIN"
                and h.nick == self.nick
                and room.casefold() in (h.target.casefold(), h.text.casefold())
            ),
            since=mark,
        )

    async def close(self) -> None:
        """Quit and close."""
        if not self.writer.is_closing():
            self.send("QUIT :bye")
            self.writer.close()
        if self._task is not None:
            self._task.cancel()


@asynccontextmanager
async def raw_player(port: int, nick: str) -> AsyncIterator[RawPlayer]:
    """Connect as ``nick`` and yield the player once the server took it in."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    player = RawPlayer(nick, reader, writer)
    player._task = asyncio.create_task(player.read())
    player.send(f"NICK {nick}")
    user = "".join(c for c in nick if c.isalnum())[:9] or "x"  # a nick's odd characters
    player.send(f"USER {user} 0 * :test player")  # are no user name's
    await player.expect(lambda h: h.command == "001")
    try:
        yield player
    finally:
        await player.close()


def game_of(player: RawPlayer, room: str) -> str:
    """Return the game id the referee noticed in ``room`` (``game <address>``)."""
    for text in player.room_texts(room, "NOTICE"):
        if text.startswith("game "):
            return text.rsplit("/", 1)[-1]
    raise AssertionError(f"no game address noticed in {room}")
