"""Where MaitreTarot clients come in: each connection is identified (seed 001, table 3)
and seated at the table being filled, in connection order; once its places are all
identified, every client is sent the four names (table 4) and the table plays
(:class:`~tournoyons_gui.arbitre.maitretarot.table.Table`).

A table being filled is an :class:`Opening`: four places for clients by default, or the
places a match opened elsewhere (from the web or the API) left to them, the others named
already. Its match is made by ``start(opening, names)`` once it is full. A client that
gives a wrong server id gets ``-1`` and is closed; one that refuses the protocol, goes
silent (:attr:`Settings.identify_seconds`) or breaks the flow before its table is full is
closed and its place given to the next. Limits are in :class:`Settings`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import unicodedata
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from tournoyons_gui.arbitre.maitretarot.codec import ByteOrder, Kind, Message
from tournoyons_gui.arbitre.maitretarot.peer import Fault, Peer
from tournoyons_gui.arbitre.maitretarot.protocol import SEATS, Connection, Limits, Role

__all__ = ["PROTOCOL_VERSION", "Lobby", "Opening", "Settings", "clean_nick"]

log = logging.getLogger(__name__)

#: The protocol version the server announces (table 3: "1 : version 0.1").
PROTOCOL_VERSION = 1
#: Seconds between two log lines about connections closed for want of room: a flood of
#: them is one line a minute with its count, not a line each.
REFUSED_LOG_EVERY = 60.0


@dataclass(frozen=True)
class Settings:
    """A MaitreTarot server's settings: ``server_id`` and ``version`` (T-decision 8:
    ``1`` and ``1``), the byte ``order``, the flow's ``limits``, ``identify_seconds`` a
    client has for each answer while identifying, ``timeout`` the tables' TimeOut
    (seconds per answer in a deal), ``deals`` per match, and ``max_clients`` the
    connections held at once (identifying, waiting or seated; more are closed at once:
    a flood of connections makes no unbounded work)."""

    server_id: int = 1
    version: int = 1
    order: ByteOrder = ByteOrder.LITTLE
    limits: Limits = field(default_factory=Limits)
    identify_seconds: float = 20.0
    timeout: int = 20
    deals: int = 4
    max_clients: int = 400


def clean_nick(raw: bytes, place: int) -> str:
    """Return the name shown for a client's nick: UTF-8 (broken bytes replaced), no
    control characters, spaces collapsed, 60 characters at most; ``place N`` (N = place
    + 1) when nothing is left (table 3: length 0, the server names the place)."""
    text = raw.decode("utf-8", "replace")
    text = "".join(c for c in text if unicodedata.category(c)[0] != "C")
    text = " ".join(text.split())[:60]
    return text or f"place {place + 1}"


@dataclass
class Opening:
    """A table being filled: ``places`` left to clients (in the order they are given),
    ``names`` of the other places, ``start`` called with the seated peers and the four
    names once full, ``tag`` what it is (a game's id, for the log)."""

    places: list[int]
    names: dict[int, str]
    start: Callable[[Opening, dict[int, Peer], list[str]], Coroutine[Any, Any, None]]
    tag: str = ""
    peers: dict[int, Peer] = field(default_factory=dict)
    nicks: dict[int, str] = field(default_factory=dict)
    full: asyncio.Event = field(default_factory=asyncio.Event)

    def free(self) -> int | None:
        """Return the first place no client holds, ``None`` when all are held."""
        return next((p for p in self.places if p not in self.peers), None)


class Lobby:
    """The clients coming in: ``settings``; ``new_table()`` returns the opening of a new
    table of four clients when none is being filled (``before_new()`` is awaited first).
    :meth:`handle` is the ``asyncio.start_server`` callback."""

    def __init__(
        self,
        settings: Settings,
        new_table: Callable[[], Opening] | None = None,
        before_new: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.settings = settings
        self.new_table = new_table
        #: Called before a new table is made: may open the tables of matches made
        #: elsewhere that wait for clients.
        self.before_new = before_new
        #: Tables being filled, the first filled first (opened from the web first).
        self.openings: list[Opening] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self._choosing = asyncio.Lock()  # one client seated at a time: no table opened twice
        #: The connections held (closed ones are forgotten as new ones come).
        self.clients: set[Peer] = set()
        #: Connections closed for want of room since the last log line, and its time.
        self.refused = 0
        self._refused_logged = -REFUSED_LOG_EVERY

    def open(self, opening: Opening) -> None:
        """Add a table to fill (a match opened elsewhere with places left to clients)."""
        self.openings.append(opening)

    async def withdraw(self, tag: str) -> None:
        """Take back the tables being filled for ``tag`` (a match that no longer waits for
        its clients: ended, cancelled, or tired of waiting): no client is seated at them
        any more, and those seated already are closed."""
        for opening in [o for o in self.openings if o.tag == tag and not o.full.is_set()]:
            self.openings.remove(opening)
            for peer in list(opening.peers.values()):
                await peer.close()

    async def _choose(self) -> Opening | None:
        for opening in self.openings:
            if opening.free() is not None:
                return opening
        if self.before_new is not None:
            await self.before_new()
            for opening in self.openings:
                if opening.free() is not None:
                    return opening
        if self.new_table is None:
            return None
        opening = self.new_table()
        self.openings.append(opening)
        return opening

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Identify one client and seat it; never raises for what the client does."""
        settings = self.settings
        peer = Peer(Connection(Role.SERVER, settings.order, settings.limits), reader, writer)
        self.clients = {held for held in self.clients if not held.closed}
        if len(self.clients) >= settings.max_clients:
            self.refused += 1
            now = asyncio.get_running_loop().time()
            if now - self._refused_logged >= REFUSED_LOG_EVERY:
                log.warning(
                    "MaitreTarot: %d connections held, %d more closed",
                    len(self.clients),
                    self.refused,
                )
                self.refused, self._refused_logged = 0, now
            await peer.close()
            return
        self.clients.add(peer)
        wait = settings.identify_seconds
        opening: Opening | None = None
        place: int | None = None
        try:
            asked = await peer.receive(Kind.GET_ID, wait)
            if asked.values[0] != settings.server_id:
                await peer.send(Message(Kind.SEND_ID, (-1, settings.version)))
                await peer.close()
                return
            await peer.send(
                Message(Kind.SEND_ID, (settings.server_id, settings.version)),
                Message(Kind.SEND_PROTOCOL, (PROTOCOL_VERSION,)),
            )
            if (await peer.receive(Kind.GET_PROTOCOL, wait)).value != 1:
                await peer.close()
                return
            async with self._choosing:
                opening = await self._choose()
                place = None if opening is None else opening.free()
                if opening is not None and place is not None:
                    opening.peers[place] = peer
            if opening is None or place is None:
                await peer.close()  # no table takes clients
                return
            await peer.send(Message(Kind.SEND_PLACE, (place,)))
            length = (await peer.receive(Kind.GET_NICK_LEN, wait)).value
            raw = (await peer.receive(Kind.GET_NICK, wait)).text if length else b""
            opening.nicks[place] = clean_nick(raw, place)
        except Fault as fault:
            log.info("MaitreTarot client not seated: %s", fault)
            if opening is not None and place is not None:
                opening.peers.pop(place, None)
            await peer.close()
            return
        if len(opening.nicks) == len(opening.places):
            await self._full(opening)

    async def _full(self, opening: Opening) -> None:
        """Send every client of a full table the four names (table 4), then start it."""
        gone = [place for place, peer in opening.peers.items() if peer.fault is not None]
        for place in gone:  # left while the table was filling: their places are free again
            await opening.peers.pop(place).close()
            opening.nicks.pop(place, None)
        if gone:
            return
        with contextlib.suppress(ValueError):
            self.openings.remove(opening)
        names = [
            opening.nicks.get(p) or opening.names.get(p, f"place {p + 1}") for p in range(SEATS)
        ]
        most = self.settings.limits.nick_bytes
        encoded = [n.encode()[:most].decode("utf-8", "ignore").encode() for n in names]
        lengths = Message(Kind.SEND_NICK_LEN, tuple(len(b) for b in encoded))
        text = Message(Kind.SEND_NICKS, text=b"".join(encoded))
        peers = dict(opening.peers)
        sent = await asyncio.gather(
            *(peer.send(lengths, text) for peer in peers.values()), return_exceptions=True
        )
        for place, result in zip(list(peers), sent, strict=True):
            if isinstance(result, BaseException):
                log.info("MaitreTarot place %s left before its table started", place)
        opening.full.set()
        task = asyncio.create_task(opening.start(opening, peers, names), name=opening.tag)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def close(self) -> None:
        """Stop every table started here and close every connection still held."""
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for peer in list(self.clients):
            await peer.close()
