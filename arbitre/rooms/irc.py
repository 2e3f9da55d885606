"""IRC as the rooms' chat system (RFC 1459 / RFC 2812), through jaraco's ``irc`` library
(its asyncio reactor parses the lines, answers the server's ``PING`` and names events):
this module only maps its events onto the :class:`~.chat.Chat` interface and adds what a
referee needs around it.

- **Reconnection** is a strategy object (:class:`Backoff`: 1 s, doubling, at most 60 s),
  reset once the server has taken us in; never loops in the handlers.
- **Nick in use** (433) or refused (432): the next nick is tried (``Arbitre1``,
  ``Arbitre2`` ...), :data:`NICK_TRIES` times at most.
- **The server's flood limits and lag**: every line we send goes through one queue
  (:class:`~.pace.Outbox`: protocol lines before boards, boards whole or not at all, a
  room's final board and address before its ``PART``) paced by a token bucket
  (:class:`~.pace.Throttle` of a :class:`~.pace.Pace`: a burst, then a steady rate under
  common servers' limits, slowed down while the server holds our lines); a ``PING``
  probe every ``Pace.probe_every`` seconds measures the server's lag
  (:class:`~.pace.Lag`), and a probe unanswered for ``MOST_LAG`` seconds drops the
  connection (reconnected). Each line written is handed on as :class:`~.chat.Sent`.
- **Errors from the server**: banned, channel full, invite only, no such channel, too many
  channels, a mode refused become :class:`~.chat.Refused`.
- **An IRC operator account** (``oper``: name and password, the referee's
  ``--irc-oper``): sent (``OPER``) as soon as the server takes us in, before any room is
  joined; once accepted (:attr:`IrcChat.privileged`) the referee may give itself back a
  room's operator status (``MODE #room +o nick``: on ngIRCd, ``OperCanUseMode = yes``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
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
    Sent,
)
from tournoyons_gui.arbitre.rooms.pace import Lag, Outbox, Pace, Throttle

__all__ = ["NICK_TRIES", "Backoff", "IrcChat", "Pace", "parse_irc_url"]

log = logging.getLogger(__name__)

#: Alternative nicks tried when ours is in use or refused, before giving up the connection.
NICK_TRIES = 20
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

#: The beginning of our lag probes (``PING :<token>``).
_PROBE = "PING :"

_REFUSALS = {
    "bannedfromchan": "banned",
    "channelisfull": "channel full",
    "inviteonlychan": "invite only",
    "badchannelkey": "channel key needed",
    "nosuchchannel": "no such channel",
    "toomanychannels": "too many channels",
    "needmoreparams": "refused",
    "chanoprivsneeded": "not a channel operator",
}
#: The server's answers to ``OPER``: accepted, or why not.
_OPER_ANSWERS = {
    "youreoper": "",
    "passwdmismatch": "wrong name or password",
    "nooperhost": "no operator account for this host",
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
    at ``pace`` (a :class:`~.chat.Chat`). Given ``outbound`` (a server's outbound policy),
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
        oper: tuple[str, str] | None = None,
    ) -> None:
        self.host, self.port = host, port
        self.oper = oper
        self._privileged = False
        self.outbound = outbound
        self.wanted = nick
        self._nick = nick
        self.pace = pace or Pace()
        self.throttle = Throttle(self.pace)
        self.backoff = backoff or Backoff()
        self.outbox = Outbox()
        self.probes = Lag()
        self._handler: Handler | None = None
        self._connection: Any = None
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

    @property
    def lag(self) -> float:
        """Return the server's lag now, seconds (:meth:`~.pace.Lag.seconds`)."""
        return self.probes.seconds(time.monotonic())

    @property
    def privileged(self) -> bool:
        """Return whether the server took us as an IRC operator (``OPER`` accepted on this
        connection)."""
        return self._privileged

    # --- the interface ----------------------------------------------------------------

    async def run(self, handler: Handler) -> None:
        """Connect and stay connected (reconnecting after the backoff's delay) until
        cancelled or closed; every event goes to ``handler``."""
        self._handler = handler
        sender = asyncio.create_task(self._send_loop(), name="irc sender")
        prober = asyncio.create_task(self._probe_loop(), name="irc lag probes")
        try:
            while not self._closing:
                try:
                    await self._session()
                except (OSError, irc.client.ServerConnectionError, OutboundRefused) as failed:
                    # Said in the log too: a referee that never connects (a public
                    # server refusing an internal chat server) opens no room, and the
                    # operator must learn why.
                    log.warning("IRC: cannot connect to %s:%d: %s", self.host, self.port, failed)
                    self._emit(Disconnected(f"cannot connect: {failed}"[:300]))
                if self._closing:
                    break
                await asyncio.sleep(self.backoff.delay())
        finally:
            sender.cancel()
            prober.cancel()
            await asyncio.gather(sender, prober, return_exceptions=True)
            self._hang_up("")

    async def close(self, why: str = "") -> None:
        """Send the lines still queued (for :data:`CLOSE_WAIT` seconds at most), quit
        (``QUIT :why``) and stop reconnecting."""
        self._closing = True
        connection = self._connection
        if connection is not None and connection.is_connected():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(CLOSE_WAIT):
                    while len(self.outbox):
                        self._idle.clear()
                        await self._idle.wait()
        self._hang_up(why)

    def join(self, room: str) -> str:
        """``JOIN room``."""
        return self._queue(f"JOIN {room}", room)

    def part(self, room: str, why: str = "") -> str:
        """``PART room :why``, after the board to ``room`` still waiting (it goes first,
        and can no longer be dropped: a room's final board and address are posted before
        its referee leaves, R-decision 6)."""
        line = f"PART {room} :{_clean(why)}" if why else f"PART {room}"
        self.outbox.part(room, line)
        return self._queued_now(line)

    def say(self, room: str, text: str) -> str:
        """``PRIVMSG room :text``, before any notice or board waiting."""
        return self._queue(f"PRIVMSG {room} :{_clean(text)}", room)

    def notice(self, room: str, text: str) -> str:
        """``NOTICE room :text``, in the protocol lines' order, after the board to
        ``room`` still waiting (no longer dropped)."""
        line = f"NOTICE {room} :{_clean(text)}"
        self.outbox.notice(room, line)
        return self._queued_now(line)

    def board(self, room: str, rows: list[str]) -> None:
        """One ``NOTICE room :row`` a row, whole, after the protocol lines; superseded by
        the next board of ``room`` while it waits."""
        self.outbox.board(room, [f"NOTICE {room} :{_clean(row)}" for row in rows])
        self._queued_now("")

    def list_rooms(self) -> str:
        """``LIST``: answered by a :class:`~.chat.Listed` event."""
        return self._queue("LIST", "")

    def operator(self, room: str, nick: str, on: bool = True) -> str:
        """``MODE room +o nick`` (``-o`` when not ``on``): answered by a
        :class:`~.chat.Moded` event, or a :class:`~.chat.Refused` one."""
        return self._queue(f"MODE {room} {'+' if on else '-'}o {nick}", room)

    # --- the connection ---------------------------------------------------------------

    async def _session(self) -> None:
        """One connection, from connecting to its loss."""
        self._lost.clear()
        self._welcomed.clear()
        self._privileged = False
        self.outbox.clear()
        self.probes.reset()
        self.throttle = Throttle(self.pace)  # a new connection: nothing held at the server
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
            "pong",
            "disconnect",
            *_REFUSALS,
            *_OPER_ANSWERS,
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
        self._welcomed.clear()
        connection, self._connection = self._connection, None
        if connection is not None and connection.is_connected():
            with contextlib.suppress(Exception):
                connection.disconnect(why)
        self._lost.set()

    def _queue(self, line: str, room: str) -> str:
        self.outbox.protocol(line, room)
        return self._queued_now(line)

    def _queued_now(self, line: str) -> str:
        self._idle.clear()
        self._queued.set()
        return line

    async def _send_loop(self) -> None:
        while True:
            if not len(self.outbox):
                self._idle.set()
                self._queued.clear()
                await self._queued.wait()
                continue
            pressing = self.outbox.pressing()
            rest = 0.0 if pressing else self.throttle.resting(self.outbox.next_board())
            if rest:  # only boards wait: one starts once the connection has rested
                self._queued.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(rest):
                        await self._queued.wait()
                continue
            delay = self.throttle.wait()
            if delay:
                await asyncio.sleep(delay)
                continue
            popped = self.outbox.pop()
            connection = self._connection
            if popped is None or connection is None or not connection.is_connected():
                continue  # lost: the rooms are joined again once connected
            room, line = popped
            try:
                connection.send_raw(line)
            except (irc.client.ServerNotConnectedError, irc.client.MessageTooLong, OSError):
                log.warning("IRC: could not send %r", line[:80])
                continue
            except irc.client.InvalidCharacters:
                log.warning("IRC: a line with invalid characters: %r", line[:80])
                continue
            if line.startswith(_PROBE):
                self.probes.written(line.removeprefix(_PROBE), time.monotonic())
            elif room:
                self._emit(Sent(room, line))

    async def _probe_loop(self) -> None:
        """Send a lag probe once taken in, then every ``pace.probe_every`` seconds; hang up
        when one waits too long for its ``PONG`` (the server or the way to it is dead)."""
        while True:
            await self._welcomed.wait()
            if self.probes.dead(time.monotonic()):
                log.warning("IRC: no PONG within %g s: reconnecting", self.probes.most)
                self._hang_up("no PONG")
                continue
            token = self.probes.probe()
            if token is not None:
                self._queue(_PROBE + token, "")
            await asyncio.sleep(min(self.pace.probe_every, self.probes.most / 3))

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
            if self.oper is not None:  # before any room is joined (the same queue)
                self._queue(f"OPER {self.oper[0]} {self.oper[1]}", "")
            self._emit(Connected(self._nick, raw))
        elif kind in _OPER_ANSWERS:
            why = _OPER_ANSWERS[kind]
            self._privileged = not why
            if why:
                log.warning("IRC: %s:%d refused our OPER: %s", self.host, self.port, why)
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
        elif kind == "pong":
            trip = self.probes.answered(args[-1] if args else "", time.monotonic())
            if trip is not None:
                rate = self.throttle.rate
                self.throttle.observe(self.probes.held(trip))
                if self.throttle.rate < rate:
                    log.warning(
                        "IRC: the server held our lines (a PING came back in %.1f s): "
                        "%g lines a second now",
                        trip,
                        self.throttle.rate,
                    )
        elif kind == "disconnect":
            self._emit(Disconnected(args[0] if args and args[0] else "connection lost", raw))
            self._lost.set()
        elif kind in _REFUSALS and args:
            self._emit(Refused(args[0], _REFUSALS[kind], raw))
