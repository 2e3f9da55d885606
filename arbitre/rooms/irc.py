"""IRC as the rooms' chat system (RFC 1459 / RFC 2812), through jaraco's ``irc`` library
(its asyncio reactor parses the lines, answers the server's ``PING`` and names events):
this module only maps its events onto the :class:`~.chat.Chat` interface and adds what a
referee needs around it.

- **Reconnection** is a strategy object (:class:`Backoff`: 1 s, doubling, at most 60 s),
  reset once the server has taken us in; never loops in the handlers.
- **Nick in use** (433) or refused (432): the next nick is tried (``Arbitre1``,
  ``Arbitre2`` ...), :data:`NICK_TRIES` times at most.
- **The server's flood limits**: every line we send goes through one queue paced by a
  token bucket (:class:`Pace`: a burst, then a steady rate under common servers' limits:
  ngIRCd processes 3 lines a second of a client); protocol lines (``play``, ``end``) go
  before notices, and notices waiting beyond :data:`MAX_NOTICES` are dropped, oldest
  first (a newer board supersedes them).
- **Errors from the server**: banned, channel full, invite only, no such channel, too many
  channels become :class:`~.chat.Refused`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import irc.client
import irc.client_aio
import irc.modes

from tournoyons_gui.arbitre.outbound import Outbound, OutboundRefused
from tournoyons_gui.arbitre.rooms.chat import (
    ChatEvent,
    Connected,
    Disconnected,
    Handler,
    Joined,
    Left,
    Listed,
    Moded,
    Names,
    Quit,
    Refused,
    Renamed,
    Said,
)

__all__ = ["MAX_NOTICES", "NICK_TRIES", "Backoff", "IrcChat", "Pace", "parse_irc_url"]

log = logging.getLogger(__name__)

#: Alternative nicks tried when ours is in use or refused, before giving up the connection.
NICK_TRIES = 20
#: Notices waiting to be sent beyond which the oldest are dropped (six board lines and an
#: address per move: a few moves' worth).
MAX_NOTICES = 40
#: The longest text we put in one line (RFC 2812 allows 512 bytes with the command).
MAX_TEXT = 400
#: Seconds to wait for the server to take us in (its welcome) once connected.
WELCOME_WAIT = 30.0
#: Seconds :meth:`IrcChat.close` waits for the lines still queued to go before quitting.
CLOSE_WAIT = 5.0
#: The nick prefixes of a room's operators in a ``NAMES`` reply (owner, admin, operator).
OPERATOR_PREFIXES = "~&@"
_PREFIXES = OPERATOR_PREFIXES + "%+"
#: The most names kept from one room's ``NAMES`` reply (a bound on a huge room).
MAX_NAMES = 1000

_REFUSALS = {
    "bannedfromchan": "banned",
    "channelisfull": "channel full",
    "inviteonlychan": "invite only",
    "badchannelkey": "channel key needed",
    "nosuchchannel": "no such channel",
    "toomanychannels": "too many channels",
    "needmoreparams": "refused",
}


def parse_irc_url(url: str) -> tuple[str, int]:
    """Return (host, port) of ``irc://HOST[:PORT]`` (port 6667 by default); raise
    ``ValueError`` for another scheme, no host or a port outside 1..65535."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() != "irc":
        raise ValueError(f"an IRC server is irc://HOST:PORT, not {url!r}")
    rest = rest.split("/", 1)[0]
    host, colon, port_text = rest.rpartition(":") if rest.count(":") == 1 else (rest, "", "")
    if not colon:
        host = rest
    host = host.strip("[]")
    if not host:
        raise ValueError(f"no host in {url!r}")
    port = int(port_text) if port_text else 6667
    if not 1 <= port <= 65535:
        raise ValueError(f"no such port: {port}")
    return host, port


@dataclass
class Backoff:
    """The reconnection strategy: wait ``first`` seconds, then twice as long each time, at
    most ``most``; :meth:`reset` once connected."""

    first: float = 1.0
    most: float = 60.0
    _next: float = 0.0

    def __post_init__(self) -> None:
        self._next = self.first

    def delay(self) -> float:
        """Return the seconds to wait before the next try, and lengthen the next wait."""
        now, self._next = self._next, min(self.most, self._next * 2)
        return now

    def reset(self) -> None:
        """Start again from ``first`` (the last try succeeded)."""
        self._next = self.first


@dataclass
class Pace:
    """A token bucket: ``burst`` lines at once, then ``per_second`` lines a second."""

    burst: int = 5
    per_second: float = 2.0
    _tokens: float = 0.0
    _at: float = 0.0

    def __post_init__(self) -> None:
        self._tokens, self._at = float(self.burst), time.monotonic()

    def wait(self) -> float:
        """Return the seconds until a line may go (0: now), taking its token when it may."""
        now = time.monotonic()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.per_second)
        self._at = now
        if self._tokens >= 1:
            self._tokens -= 1
            return 0.0
        return (1 - self._tokens) / self.per_second


def _nick_tries(nick: str) -> Iterator[str]:
    for n in range(1, NICK_TRIES + 1):
        suffix = str(n)
        yield nick[: max(1, 9 - len(suffix))] + suffix


def _clean(text: str) -> str:
    """Return ``text`` as one line of at most :data:`MAX_TEXT` characters."""
    return " ".join(text.replace("\r", " ").replace("\n", " ").split(" "))[:MAX_TEXT]


class _Lines(irc.client.ServerConnection.buffer_class):  # type: ignore[misc]
    """The server's lines decoded as UTF-8, a byte that is not UTF-8 replaced by U+FFFD
    (the library's ``Decoding Input``): its default raises, and the asyncio transport
    then closes the connection, so one user's Latin-1 ``é`` would end every room's game."""

    errors = "replace"


class _Connection(irc.client_aio.AioConnection):  # type: ignore[misc]
    """The library's connection, reading lines with :class:`_Lines` and handing a room's
    ``PRIVMSG`` on with its text as sent (R-decision 3: the message is the PRIVMSG's
    text). The library splits CTCP out of it (``\\x01ACTION ...\\x01`` is no ``pubmsg``,
    ``play 4\\x01VERSION\\x01`` is ``play 4``) and undoes CTCP's low-level quoting
    (``\\x10play 4`` is ``play 4``): neither is the seed's grammar, so a room's message is
    one ``pubmsg`` with the whole text. Overrides the library's ``_handle_message``
    (``irc`` is pinned below 21 in ``pyproject.toml``)."""

    buffer_class = _Lines

    def _handle_message(self, arguments: Any, command: str, source: Any, tags: Any) -> None:
        if command == "privmsg" and len(arguments) > 1 and irc.client.is_channel(arguments[0]):
            event = irc.client.Event("pubmsg", source, arguments[0], [arguments[1]], tags)
            self._handle_event(event)
            return
        super()._handle_message(arguments, command, source, tags)


class IrcChat:
    """One connection to an IRC server as ``nick``, reconnecting with ``backoff``, sending
    at ``pace`` (a :class:`~.chat.Chat`). Given ``outbound`` (a server's policy, issue 20),
    the server's name is resolved once per connection and the checked address connected
    to (``--engine-hosts`` does not apply: the chat server is the operator's choice); a
    refusal is a failure to connect, tried again after the backoff's delay."""

    def __init__(
        self,
        host: str,
        port: int,
        nick: str,
        *,
        pace: Pace | None = None,
        backoff: Backoff | None = None,
        outbound: Outbound | None = None,
    ) -> None:
        self.host, self.port = host, port
        self.outbound = outbound
        self.wanted = nick
        self._nick = nick
        self.pace = pace or Pace()
        self.backoff = backoff or Backoff()
        self._handler: Handler | None = None
        self._connection: Any = None
        self._protocol: deque[str] = deque()
        self._notices: deque[str] = deque()
        self._queued = asyncio.Event()
        self._lost = asyncio.Event()
        self._welcomed = asyncio.Event()
        self._raw = ""
        self._tries: Iterator[str] = iter(())
        self._listing: list[tuple[str, int]] = []
        self._names: dict[str, list[str]] = {}
        self._closing = False
        self._idle = asyncio.Event()

    @property
    def nick(self) -> str:
        """Return the nick the server knows us by."""
        return self._nick

    # --- the interface ----------------------------------------------------------------

    async def run(self, handler: Handler) -> None:
        """Connect and stay connected (reconnecting after the backoff's delay) until
        cancelled or closed; every event goes to ``handler``."""
        self._handler = handler
        sender = asyncio.create_task(self._send_loop(), name="irc sender")
        try:
            while not self._closing:
                try:
                    await self._session()
                except (OSError, irc.client.ServerConnectionError, OutboundRefused) as failed:
                    self._emit(Disconnected(f"cannot connect: {failed}"[:300]))
                if self._closing:
                    break
                await asyncio.sleep(self.backoff.delay())
        finally:
            sender.cancel()
            await asyncio.gather(sender, return_exceptions=True)
            self._hang_up("")

    async def close(self, why: str = "") -> None:
        """Send the lines still queued (for :data:`CLOSE_WAIT` seconds at most), quit
        (``QUIT :why``) and stop reconnecting."""
        self._closing = True
        connection = self._connection
        if connection is not None and connection.is_connected():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(CLOSE_WAIT):
                    while self._protocol or self._notices:
                        self._idle.clear()
                        await self._idle.wait()
        self._hang_up(why)

    def join(self, room: str) -> str:
        """``JOIN room``."""
        return self._queue(f"JOIN {room}", protocol=True)

    def part(self, room: str, why: str = "") -> str:
        """``PART room :why``, after the notices to ``room`` still waiting (they go first,
        and can no longer be dropped: a room's final board and address are posted before
        its referee leaves, R-decision 6)."""
        mine = f"NOTICE {room} :"
        waiting = [line for line in self._notices if line.startswith(mine)]
        if waiting:
            self._notices = deque(line for line in self._notices if not line.startswith(mine))
            self._protocol.extend(waiting)
        return self._queue(f"PART {room} :{_clean(why)}" if why else f"PART {room}", True)

    def say(self, room: str, text: str) -> str:
        """``PRIVMSG room :text``, before any notice waiting."""
        return self._queue(f"PRIVMSG {room} :{_clean(text)}", protocol=True)

    def notice(self, room: str, text: str) -> str:
        """``NOTICE room :text``, after the protocol lines."""
        return self._queue(f"NOTICE {room} :{_clean(text)}", protocol=False)

    def list_rooms(self) -> str:
        """``LIST``: answered by a :class:`~.chat.Listed` event."""
        return self._queue("LIST", protocol=True)

    # --- the connection ---------------------------------------------------------------

    async def _session(self) -> None:
        """One connection, from connecting to its loss."""
        self._lost.clear()
        self._welcomed.clear()
        self._protocol.clear()
        self._notices.clear()
        self._nick, self._tries = self.wanted, _nick_tries(self.wanted)
        reactor = irc.client_aio.AioReactor(loop=asyncio.get_running_loop())
        reactor.connection_class = _Connection
        reactor.add_global_handler("all_raw_messages", self._on_raw, -10)
        for name in (
            "welcome",
            "nicknameinuse",
            "erroneusnickname",
            "nickcollision",
            "join",
            "part",
            "kick",
            "quit",
            "nick",
            "pubmsg",
            "list",
            "listend",
            "namreply",
            "endofnames",
            "mode",
            "disconnect",
            *_REFUSALS,
        ):
            reactor.add_global_handler(name, self._on_event)
        connection = reactor.server()
        if self.outbound is None:
            await connection.connect(self.host, self.port, self.wanted)
        else:
            await connection.connect(
                self.host, self.port, self.wanted, connect_factory=self._checked
            )
        self._connection = connection
        try:
            async with asyncio.timeout(WELCOME_WAIT):
                await self._welcomed.wait()
        except TimeoutError:
            self._hang_up("no welcome")
        await self._lost.wait()
        self._connection = None

    async def _checked(self, protocol: Any, address: tuple[str, int]) -> Any:
        """The library's ``connect_factory`` under the outbound policy (the chat server is
        not held to ``--engine-hosts``): ``protocol`` connected to ``address`` (host,
        port); raise :class:`~tournoyons_gui.arbitre.outbound.OutboundRefused`."""
        assert self.outbound is not None
        host, port = address
        return await self.outbound.create_connection(protocol, host, port, listed=False)

    def _hang_up(self, why: str) -> None:
        connection, self._connection = self._connection, None
        if connection is not None and connection.is_connected():
            with contextlib.suppress(Exception):
                connection.disconnect(why)
        self._lost.set()

    def _queue(self, line: str, protocol: bool) -> str:
        self._idle.clear()
        if protocol:
            self._protocol.append(line)
        else:
            self._notices.append(line)
            while len(self._notices) > MAX_NOTICES:
                self._notices.popleft()
        self._queued.set()
        return line

    async def _send_loop(self) -> None:
        while True:
            if not self._protocol and not self._notices:
                self._idle.set()
                self._queued.clear()
                await self._queued.wait()
                continue
            delay = self.pace.wait()
            if delay:
                await asyncio.sleep(delay)
                continue
            line = self._protocol.popleft() if self._protocol else self._notices.popleft()
            connection = self._connection
            if connection is None or not connection.is_connected():
                continue  # lost: the rooms are joined again once connected
            try:
                connection.send_raw(line)
            except (irc.client.ServerNotConnectedError, irc.client.MessageTooLong, OSError):
                log.warning("IRC: could not send %r", line[:80])
            except irc.client.InvalidCharacters:
                log.warning("IRC: a line with invalid characters: %r", line[:80])

    # --- the library's events ---------------------------------------------------------

    def _on_raw(self, _connection: Any, event: Any) -> None:
        self._raw = str(event.arguments[0]) if event.arguments else ""

    def _emit(self, event: ChatEvent) -> None:
        if self._handler is None:
            return
        try:
            self._handler(event)
        except Exception:
            log.exception("IRC: the handler failed on %r", event)

    def _on_event(self, connection: Any, event: Any) -> None:
        kind, raw = event.type, self._raw
        source = event.source.nick if isinstance(event.source, irc.client.NickMask) else ""
        args = [str(a) for a in event.arguments]
        if kind == "welcome":
            self._nick = connection.get_nickname()
            self.backoff.reset()
            self._welcomed.set()
            self._emit(Connected(self._nick, raw))
        elif kind in ("nicknameinuse", "erroneusnickname", "nickcollision"):
            if self._welcomed.is_set():
                return
            try:
                self._nick = next(self._tries)
            except StopIteration:
                self._hang_up("no nick")
                return
            connection.nick(self._nick)
        elif kind == "join":
            self._emit(Joined(str(event.target), source, raw))
        elif kind == "part":
            self._emit(Left(str(event.target), source, raw))
        elif kind == "kick" and args:
            self._emit(Left(str(event.target), args[0], raw))
        elif kind == "quit":
            self._emit(Quit(source, raw))
        elif kind == "nick":
            if source == self._nick:
                self._nick = str(event.target)
            self._emit(Renamed(source, str(event.target), raw))
        elif kind == "pubmsg" and args:
            self._emit(Said(str(event.target), source, args[0], raw))
        elif kind == "list" and args:
            count = int(args[1]) if len(args) > 1 and args[1].isdigit() else 0
            self._listing.append((args[0], count))
        elif kind == "listend":
            listing, self._listing = tuple(self._listing), []
            self._emit(Listed(listing, raw))
        elif kind == "namreply" and len(args) > 2:
            names = self._names.setdefault(args[1].casefold(), [])
            names.extend(args[2].split()[: max(0, MAX_NAMES - len(names))])
        elif kind == "endofnames" and args:
            names = self._names.pop(args[0].casefold(), [])
            nicks = tuple(n.lstrip(_PREFIXES) for n in names)
            operators = tuple(n.lstrip(_PREFIXES) for n in names if n[0] in OPERATOR_PREFIXES)
            self._emit(Names(args[0], nicks, operators, raw))
        elif kind == "mode" and args:
            for sign, mode, nick in irc.modes.parse_channel_modes(" ".join(args)):
                if mode in "oqa" and nick:
                    self._emit(Moded(str(event.target), nick, sign == "+", raw))
        elif kind == "disconnect":
            self._emit(Disconnected(args[0] if args and args[0] else "connection lost", raw))
            self._lost.set()
        elif kind in _REFUSALS and args:
            self._emit(Refused(args[0], _REFUSALS[kind], raw))
