"""One MaitreTarot connection over asyncio streams: a :class:`Peer` around the sans-I/O
:class:`~tournoyons_gui.arbitre.maitretarot.protocol.Connection`.

The peer's bytes are read all the time, by a task of their own, so that bytes sent out of
turn are seen when they come, not taken later for an answer (``docs/reference/tarot.md``
section 4: "a connection that sends bytes out of turn is closed"). What goes wrong is a
:class:`Fault` with the seat's failure kind: ``late`` (silent past the limit),
``unreachable`` (disconnected, or not reading what we send), ``illegal`` (bytes out of turn,
garbage). Every message sent and received is handed to ``log`` decoded (its name, its
values), for the exchange log.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from tournoyons_gui.arbitre.maitretarot.codec import Kind, Message
from tournoyons_gui.arbitre.maitretarot.protocol import (
    CLOSED,
    NEED_DATA,
    Connection,
    ProtocolError,
)

__all__ = ["READ_BYTES", "SEND_SECONDS", "Fault", "Peer"]

#: Bytes asked of the socket at a time.
READ_BYTES = 4096
#: Seconds a peer has to take what we send (its socket buffer full) before it has failed.
SEND_SECONDS = 30.0

#: Told each message: ``("sent" | "received", message)``.
Logger = Callable[[str, Message], None]


@dataclass
class Fault(Exception):
    """A peer that failed: ``error`` the seat's failure (``late``, ``unreachable``,
    ``illegal``) and ``detail`` a short English reason for the record."""

    error: str
    detail: str

    def __str__(self) -> str:
        return f"{self.error}: {self.detail}"


class Peer:
    """One connection: ``connection`` the flow, ``reader``/``writer`` its stream, ``log``
    told every message. :meth:`start` begins reading; :meth:`close` ends it."""

    def __init__(
        self,
        connection: Connection,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        log: Logger | None = None,
    ) -> None:
        self.connection = connection
        self.reader = reader
        self.writer = writer
        self.log = log
        self._events: asyncio.Queue[Message | Fault] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.fault: Fault | None = None
        #: Whether :meth:`close` was called.
        self.closed = False

    def start(self) -> None:
        """Start reading the peer's bytes."""
        if self._task is None:
            self._task = asyncio.create_task(self._read(), name="maitretarot peer")

    async def send(self, *messages: Message) -> None:
        """Send ``messages`` in order; raise :class:`Fault` when the peer has failed or does
        not take them within :data:`SEND_SECONDS`."""
        if self.fault is not None:
            raise self.fault
        data = b"".join(self.connection.send(message) for message in messages)
        if self.log is not None:
            for message in messages:
                self.log("sent", message)
        try:
            self.writer.write(data)
            await asyncio.wait_for(self.writer.drain(), SEND_SECONDS)
        except TimeoutError:
            raise self._failed("unreachable", "it does not read what it is sent") from None
        except (ConnectionError, OSError):
            raise self._failed("unreachable", "disconnected") from None

    async def receive(self, kind: Kind, timeout: float | None) -> Message:
        """Return the peer's next message, which the flow says is ``kind``, within
        ``timeout`` seconds (``None``: no limit); raise :class:`Fault`."""
        if self.fault is not None:
            raise self.fault
        self.start()
        if self._events.empty():
            try:
                event = self.connection.next_event()  # a message of 0 values needs no bytes
            except ProtocolError as broken:
                raise self._failed("illegal", str(broken)) from None
            if isinstance(event, Message):
                return self._received(event)
        try:
            got = await asyncio.wait_for(self._events.get(), timeout)
        except TimeoutError:
            raise self._failed("late", f"no {kind.name} within {timeout:g} s") from None
        if isinstance(got, Fault):
            raise got
        return self._received(got)

    async def close(self) -> None:
        """Close the connection and stop reading."""
        self.closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self.writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer.wait_closed(), 1.0)

    def _received(self, message: Message) -> Message:
        if self.log is not None:
            self.log("received", message)
        return message

    def _failed(self, error: str, detail: str) -> Fault:
        if self.fault is None:
            self.fault = Fault(error, detail)
        return self.fault

    async def _read(self) -> None:
        """Feed the flow every byte the peer sends; queue its messages, or its fault."""
        try:
            while True:
                try:
                    data = await self.reader.read(READ_BYTES)
                except (ConnectionError, OSError):
                    data = b""
                self.connection.receive_data(data)
                while True:
                    event = self.connection.next_event()
                    if event is NEED_DATA:
                        break
                    if event is CLOSED:
                        self._events.put_nowait(self._failed("unreachable", "disconnected"))
                        return
                    assert isinstance(event, Message)
                    self._events.put_nowait(event)
                if not data:
                    return
        except ProtocolError as broken:
            self._events.put_nowait(self._failed("illegal", str(broken)))
