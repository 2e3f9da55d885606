"""The chat system behind one small interface: what a timi referee or player needs of it
(``timi-rooms.md``: rooms, broadcast, user privileges), nothing more.

A chat system is a :class:`Chat`: it connects (and reconnects, by its own strategy), joins
and parts rooms, says a line, a notice or a board in a room, lists rooms, measures its
lag, and hands every event to one handler, in the order they happened, as plain records
(:data:`ChatEvent`), the lines it wrote to the server included (:class:`Sent`: a
player's time counts from its ``play`` line's writing, not its queueing). IRC is the first
implementation (:mod:`.irc`); another chat system is one new module with a class of this
shape. Each event carries ``raw``: the line as the chat system gave it, for the games'
exchange logs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "Chat",
    "ChatEvent",
    "Connected",
    "Disconnected",
    "Handler",
    "Joined",
    "Left",
    "Listed",
    "Moded",
    "Names",
    "Quit",
    "Refused",
    "Renamed",
    "Said",
    "Sent",
]


@dataclass(frozen=True)
class Connected:
    """The chat system took us in, as ``nick`` (perhaps not the nick asked for)."""

    nick: str
    raw: str = ""


@dataclass(frozen=True)
class Disconnected:
    """The connection is lost (``why``); the chat reconnects by its own strategy."""

    why: str
    raw: str = ""


@dataclass(frozen=True)
class Joined:
    """``nick`` came into ``room`` (ourselves included)."""

    room: str
    nick: str
    raw: str = ""


@dataclass(frozen=True)
class Left:
    """``nick`` left ``room`` (parted or was kicked)."""

    room: str
    nick: str
    raw: str = ""


@dataclass(frozen=True)
class Quit:
    """``nick`` left the chat system, and so every room."""

    nick: str
    raw: str = ""


@dataclass(frozen=True)
class Renamed:
    """``old`` is now called ``new``."""

    old: str
    new: str
    raw: str = ""


@dataclass(frozen=True)
class Said:
    """``nick`` said ``text`` in ``room`` (a broadcast message: IRC's PRIVMSG to a channel;
    notices are not said)."""

    room: str
    nick: str
    text: str
    raw: str = ""


@dataclass(frozen=True)
class Sent:
    """We wrote ``raw`` (a line to ``room``) to the chat server, now: lines are queued and
    paced, so a line said is sent later, and a board may never be (superseded)."""

    room: str
    raw: str


@dataclass(frozen=True)
class Listed:
    """The rooms the chat system lists: (name, how many are in it), as it listed them."""

    rooms: tuple[tuple[str, int], ...]
    raw: str = ""


@dataclass(frozen=True)
class Names:
    """Who is in ``room`` as the chat system told us on joining it (IRC's ``NAMES``
    reply): ``nicks``, and among them its ``operators`` (the room's privileged users: a
    timi referee is one, ``timi-rooms.md`` section 1)."""

    room: str
    nicks: tuple[str, ...]
    operators: tuple[str, ...]
    raw: str = ""


@dataclass(frozen=True)
class Moded:
    """``nick`` became (``operator``) or stopped being an operator of ``room``."""

    room: str
    nick: str
    operator: bool
    raw: str = ""


@dataclass(frozen=True)
class Refused:
    """The chat system refused us ``room`` (banned, full, invite only ...): ``why``."""

    room: str
    why: str
    raw: str = ""


ChatEvent = (
    Connected
    | Disconnected
    | Joined
    | Left
    | Quit
    | Renamed
    | Said
    | Sent
    | Listed
    | Names
    | Moded
    | Refused
)
#: What receives a chat's events, one at a time, in order (never awaited: it must not block).
Handler = Callable[[ChatEvent], None]


class Chat(Protocol):
    """A chat system with rooms (the referee's and the player's only way to it)."""

    @property
    def nick(self) -> str:
        """Return the nick we have now."""
        ...

    @property
    def lag(self) -> float:
        """Return the seconds a line may take from our socket through the chat server and
        an answer back (the server's measured lag, :class:`~.pace.Lag`)."""
        ...

    async def run(self, handler: Handler) -> None:
        """Connect, hand every event to ``handler``, reconnect when the connection is lost
        (by the chat's strategy), until cancelled or :meth:`close`."""
        ...

    async def close(self, why: str = "") -> None:
        """Leave the chat system (IRC's QUIT) and stop reconnecting."""
        ...

    def join(self, room: str) -> str:
        """Join (on IRC: create, when no one is in it) ``room``; return the line sent."""
        ...

    def part(self, room: str, why: str = "") -> str:
        """Leave ``room`` after the lines already said, noticed and shown in it (none of
        them dropped any more); return the line queued."""
        ...

    def say(self, room: str, text: str) -> str:
        """Say ``text`` in ``room`` (a protocol line: before any notice or board waiting);
        return the line queued (:class:`Sent` tells when it is written)."""
        ...

    def notice(self, room: str, text: str) -> str:
        """Say ``text`` in ``room`` for people (IRC's NOTICE: protocol clients ignore it),
        in the order of the protocol lines, after the room's board waiting (which is then
        no longer superseded); return the line queued."""
        ...

    def board(self, room: str, rows: list[str]) -> None:
        """Show ``rows`` in ``room`` for people, as notices that go whole or not at all: a
        newer board of the room supersedes this one while it waits."""
        ...

    def list_rooms(self) -> str:
        """Ask for the rooms (answered by :class:`Listed`); return the line sent."""
        ...

    @property
    def privileged(self) -> bool:
        """Return whether the chat system gives us its operators' powers (IRC: ``OPER``
        accepted): a room's operator status can then be given back to us."""
        ...

    def operator(self, room: str, nick: str, on: bool = True) -> str:
        """Make ``nick`` an operator of ``room`` (not, when not ``on``): answered by
        :class:`Moded` or :class:`Refused`; return the line sent."""
        ...
