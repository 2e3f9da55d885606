"""MaitreTarot's flow, sans I/O: one :class:`Connection` per client, the same object for
the server's side and for a client's (h11's shape, style.md).

A connection takes the bytes its peer sent (:meth:`Connection.receive_data`) and hands
back the messages they are (:meth:`Connection.next_event`), and turns the messages its
side sends into bytes (:meth:`Connection.send`), checking each against the flow: the
seed's tables 3 to 15 in order, written below as one sequence per phase (:func:`_match`,
:func:`_deal`, :func:`_bidding`, :func:`_dog`, :func:`_play`). Since a message carries no
header (T-decision 6), the flow is what says which message the next bytes are.

What the flow holds to (``docs/reference/tarot.md`` section 4):

- a client answers only when asked: after GET_ID's reply, the protocol, its place, a
  question that is not 0, a refused écart or card, the replay question; bytes that come
  when the peer is not to send are **out of turn**, a :class:`ProtocolError`;
- a nick is at most :attr:`Limits.nick_bytes` bytes, and no more than
  :attr:`Limits.buffer_bytes` bytes are ever held unread: nothing a peer sends is read or
  buffered without bound;
- when a match ends early (a client failed), the server sends the others, at the point
  they are waiting at, the score of a deal not played (contract 0 and three 0s, the totals)
  and the end of the deal with replay answer 0. The four 0s that begin it begin none of
  the messages it stands in for (a SEND_BIDS holds the ``-1`` of the seat about to bid, a
  branch point is not 0, a trick's cards are different cards or ``-1``), so a client tells
  it from them; so does a petit sec's score after the cards dealt (T-decision 11).
- READY_TO_PLAY, 0 values, puts nothing on the wire: the flow passes it by itself (the
  server's side reports it as received).
"""

from __future__ import annotations

import enum
from collections.abc import Generator
from dataclasses import dataclass
from typing import NoReturn

from tournoyons_gui.arbitre.maitretarot.codec import (
    GINT_BYTES,
    SHAPES,
    BranchPoint,
    ByteOrder,
    CodecError,
    Kind,
    Message,
    Sender,
    decode,
    encode,
    gint,
    size,
)

__all__ = [
    "CLOSED",
    "DEAL_TURNS",
    "NEED_DATA",
    "NOT_PLAYED",
    "SEATS",
    "TRICKS",
    "Connection",
    "Event",
    "Expect",
    "Limits",
    "ProtocolError",
    "Role",
    "Sentinel",
    "taker",
]

#: Seats at a table, places 0..3 (T-decision 1).
SEATS = 4
#: Tricks in a deal (18 cards each).
TRICKS = 18
#: Bids asked in a deal: one round, one per seat (table 7 "répétée quatre fois").
DEAL_TURNS = SEATS
#: A card not played yet, a bid not spoken (tables 7 and 11).
NOT_PLAYED = -1
#: The highest card number (the excuse, table 1).
_LAST_CARD = 77
#: The first four values of the score of a deal not played (contract 0, three 0s).
_NOT_PLAYED_SCORE = (0, 0, 0, 0)


class ProtocolError(Exception):
    """The peer broke the flow: bytes out of turn, a message too long, a value no message
    of that place can have, or the connection closed mid-message."""


class Role(enum.Enum):
    """Which side of the connection we are."""

    SERVER = "server"
    CLIENT = "client"

    @property
    def sender(self) -> Sender:
        """Return how the seed writes what this side sends."""
        return Sender.SERVER if self is Role.SERVER else Sender.CLIENT


class Sentinel(enum.Enum):
    """What :meth:`Connection.next_event` says when it has no message: ``NEED_DATA``
    (more bytes are needed, or it is our side's turn), ``CLOSED`` (the flow is over, or
    the peer closed the connection between two messages)."""

    NEED_DATA = "need data"
    CLOSED = "closed"


NEED_DATA = Sentinel.NEED_DATA
CLOSED = Sentinel.CLOSED
#: One event of a connection: a message, or a sentinel.
Event = Message | Sentinel


@dataclass(frozen=True)
class Limits:
    """A connection's bounds: ``nick_bytes`` the longest nick (in UTF-8 bytes) a client
    may send and a server may announce; ``buffer_bytes`` the most bytes held unread (the
    server may send a client a long run of messages while it waits for others)."""

    nick_bytes: int = 64
    buffer_bytes: int = 64 * 1024


@dataclass(frozen=True)
class Expect:
    """The next message of the flow: its ``sender`` and ``kind``; ``chars`` a string's
    bytes; ``or_score`` the server may send a deal's SEND_SCORE of a deal not played
    instead (a petit sec after the cards, an early end at a waiting point)."""

    sender: Sender
    kind: Kind
    chars: int = 0
    or_score: bool = False
    point: BranchPoint | None = None


#: The flow: it yields the next message expected and is sent the message exchanged.
Flow = Generator[Expect, Message, None]
#: A deal's flow, returning the SEND_SCORE that ended it early, or ``None``.
DealFlow = Generator[Expect, Message, Message | None]

_S, _C = Sender.SERVER, Sender.CLIENT


def taker(bids: tuple[int, ...]) -> int | None:
    """Return the place of the taker given the final bids (the highest bid; ``None`` when
    all passed)."""
    best = max(bids)
    return None if best <= 0 else bids.index(best)


def _branch(point: BranchPoint, or_score: bool = False) -> Expect:
    return Expect(_S, Kind.BRANCHEMENT_POINT, or_score=or_score, point=point)


def _match() -> Flow:
    """The whole connection: identification (tables 3 and 4), then deals until the
    server's replay answer is not 1 (tables 5 to 15)."""
    # Table 3: identification of the client and the server.
    yield Expect(_C, Kind.GET_ID)
    ours = yield Expect(_S, Kind.SEND_ID)
    if ours.values[0] == -1:
        return  # a wrong server id: the server closes the connection
    yield Expect(_S, Kind.SEND_PROTOCOL)
    can = yield Expect(_C, Kind.GET_PROTOCOL)
    if can.value != 1:
        return  # the client cannot use this protocol: it closes
    place = (yield Expect(_S, Kind.SEND_PLACE)).value
    length = (yield Expect(_C, Kind.GET_NICK_LEN)).value
    if length:
        yield Expect(_C, Kind.GET_NICK, chars=length)
    # Table 4: every player's name, once, on channel 0 (T-decision 7).
    lengths = (yield Expect(_S, Kind.SEND_NICK_LEN)).values
    yield Expect(_S, Kind.SEND_NICKS, chars=sum(lengths))
    while True:
        score = yield from _deal(place)
        # Table 15: the score, the dog, and playing again.
        if score is None:
            score = yield Expect(_S, Kind.SEND_SCORE)
        yield Expect(_S, Kind.SHOW_CHIEN_AT_END)
        yield Expect(_C, Kind.ACK_REPLAY)
        again = yield Expect(_S, Kind.SEND_REPLAY_ANSWER)
        if again.value != 1:
            return


def _deal(place: int) -> DealFlow:
    """One deal up to its score (tables 5 to 14); returns the SEND_SCORE that ended it
    early (a petit sec, all passed with the dog shown, a failure), else ``None``."""
    yield _branch(BranchPoint.NEW_GAME)
    # Table 6: the cards dealt.
    yield _branch(BranchPoint.DILL_CARDS)
    yield Expect(_S, Kind.DILL_CARDS)
    first = yield _branch(BranchPoint.SEND_BIDS, or_score=True)
    if first.kind is Kind.SEND_SCORE:
        return first  # a petit sec: straight to the score
    final = yield from _bidding()
    if final is None or final.kind is Kind.SEND_SCORE:
        return final
    contract = max(final.values)
    if contract in (0, 1, 2):
        yield Expect(_S, Kind.SHOW_CHIEN)
    if contract == 0:
        return None  # all passed: the dog shown, then the score of a deal not played
    if contract in (1, 2) and taker(final.values) == place:
        yield from _dog()
    ready = yield _branch(BranchPoint.READY_TO_PLAY, or_score=True)
    if ready.kind is Kind.SEND_SCORE:
        return ready
    # Table 10: the client's READY_TO_PLAY, 0 values.
    yield Expect(_C, Kind.READY_TO_PLAY)
    return (yield from _play())


def _bidding() -> DealFlow:
    """Table 7 four times, then table 8's final bids; returns SEND_FINAL_BIDS, or the
    SEND_SCORE of an early end."""
    for _ in range(DEAL_TURNS):
        bids = yield Expect(_S, Kind.SEND_BIDS, or_score=True)
        if bids.kind is Kind.SEND_SCORE:
            return bids
        asked = yield Expect(_S, Kind.ASK_BID_QUESTION)
        if asked.value:
            yield Expect(_C, Kind.GET_BID)
    point = yield _branch(BranchPoint.GET_CHIEN, or_score=True)
    if point.kind is Kind.SEND_SCORE:
        return point
    return (yield Expect(_S, Kind.SEND_FINAL_BIDS))


def _dog() -> Generator[Expect, Message, None]:
    """Table 9, the taker's écart after a petite or a garde: sent again until acked 1."""
    while True:
        yield Expect(_C, Kind.GET_CHIEN)
        ack = yield Expect(_S, Kind.SEND_ACK_FOR_CHIEN)
        if ack.value == 1:
            return


def _play() -> DealFlow:
    """Tables 11 to 14: for each trick, four times the cards, the question and the card
    asked (sent again until acked 1); then the last trick. Returns the SEND_SCORE of an
    early end, else ``None``."""
    yield _branch(BranchPoint.SEND_TURN_CARD)
    for _ in range(TRICKS * SEATS):
        cards = yield Expect(_S, Kind.SEND_TURN_CARDS, or_score=True)
        if cards.kind is Kind.SEND_SCORE:
            return cards
        asked = yield Expect(_S, Kind.SEND_TURN_CARDS_QUESTION)
        while asked.value:
            yield Expect(_C, Kind.GET_TURN_CARD)
            ack = yield Expect(_S, Kind.SEND_ACK_FOR_CARD)
            if ack.value == 1:
                break
    last = yield Expect(_S, Kind.SEND_LAST_TURN_CARDS, or_score=True)
    return last if last.kind is Kind.SEND_SCORE else None


def _cards_ok(values: tuple[int, ...], played: bool) -> bool:
    """Whether ``values`` are cards 0..77 (or ``-1`` when some may be unplayed), each
    card once."""
    cards = [v for v in values if v != NOT_PLAYED or not played]
    low = NOT_PLAYED if played else 0
    return all(low <= v <= _LAST_CARD for v in values) and len(set(cards)) == len(cards)


def _check(message: Message, step: Expect, limits: Limits) -> str:
    """Return why ``message``'s values cannot be at this ``step`` of the flow (``""``:
    they can). A client's bid, card or écart is the table's to judge (ack 0), not this."""
    kind, values = message.kind, message.values
    if kind is Kind.BRANCHEMENT_POINT and values[0] != step.point:
        return f"the branch point here is {step.point}, not {values[0]}"
    if kind is Kind.GET_NICK_LEN and not 0 <= message.value <= limits.nick_bytes:
        return f"a nick is 0 to {limits.nick_bytes} bytes"
    if kind is Kind.SEND_NICK_LEN and not all(0 <= v <= limits.nick_bytes for v in values):
        return f"a nick is 0 to {limits.nick_bytes} bytes"
    if kind is Kind.SEND_PLACE and not 0 <= message.value < SEATS:
        return "a place is 0 to 3"
    if kind in (Kind.DILL_CARDS, Kind.SHOW_CHIEN, Kind.SHOW_CHIEN_AT_END) and not _cards_ok(
        values, False
    ):
        return "cards are 0 to 77, each once"
    if kind in (Kind.SEND_TURN_CARDS, Kind.SEND_LAST_TURN_CARDS) and not (
        _cards_ok(values[:4], True) and _cards_ok(values[4:], True)
    ):
        return "a trick's cards are 0 to 77 or -1"
    if kind in (Kind.SEND_BIDS, Kind.SEND_FINAL_BIDS) and not all(-1 <= v <= 4 for v in values):
        return "a bid is 0 to 4, -1 before it is spoken"
    return ""


class Connection:
    """One client's connection, seen from ``role``'s side, in byte ``order``, within
    ``limits``.

    - :meth:`send` returns a message's bytes, or raises :class:`ProtocolError` when the
      flow does not have our side send that message now (our own bug, never the peer's);
    - :meth:`receive_data` takes the peer's bytes (``b""``: it closed), raising
      :class:`ProtocolError` when more are held unread than ``limits`` allow;
    - :meth:`next_event` returns the next message the peer sent, :data:`NEED_DATA` or
      :data:`CLOSED`; it raises :class:`ProtocolError` for bytes out of turn, a value no
      message of that place has, or a connection closed mid-message. After an error the
      connection is dead: every later call raises it again.
    """

    def __init__(
        self, role: Role, order: ByteOrder = ByteOrder.LITTLE, limits: Limits | None = None
    ) -> None:
        self.role = role
        self.order = order
        self.limits = limits or Limits()
        self._flow = _match()
        self._step: Expect | None = next(self._flow)
        self._buffer = bytearray()
        self._eof = False
        self._error: ProtocolError | None = None
        #: The client's place 0..3 once SEND_PLACE went by.
        self.place: int | None = None
        #: Every nick announced (SEND_NICKS split by SEND_NICK_LEN), once they went by.
        self.nicks: tuple[str, ...] = ()
        self._lengths: tuple[int, ...] = ()

    # --- the state --------------------------------------------------------------------

    @property
    def expecting(self) -> Expect | None:
        """Return the next message of the flow (``None``: the flow is over)."""
        return self._step

    @property
    def our_turn(self) -> bool:
        """Whether our side is the one to send now."""
        return self._step is not None and self._step.sender is self.role.sender

    def may_send(self, kind: Kind) -> bool:
        """Whether our side may send a ``kind`` message now (a deal's SEND_SCORE where the
        flow may end the deal early: the points a client waits at)."""
        step = self._step
        if step is None or step.sender is not self.role.sender:
            return False
        return kind is step.kind or (step.or_score and kind is Kind.SEND_SCORE)

    @property
    def over(self) -> bool:
        """Whether the flow has ended (a wrong id, a refused protocol, replay answer 0)."""
        return self._step is None

    # --- our side ---------------------------------------------------------------------

    def send(self, message: Message) -> bytes:
        """Return ``message``'s bytes and move the flow past it; raise
        :class:`ProtocolError` when it is not what our side sends now."""
        self._raise_if_dead()
        step = self._step
        if step is None or step.sender is not self.role.sender:
            raise ProtocolError(f"{message.kind.name}: it is not our turn to send")
        kind = message.kind
        if kind is not step.kind and not (step.or_score and kind is Kind.SEND_SCORE):
            raise ProtocolError(f"the flow sends {step.kind.name} now, not {kind.name}")
        if SHAPES[kind].gints is None and len(message.text) != step.chars:
            raise ProtocolError(f"{kind.name} is {step.chars} bytes, not {len(message.text)}")
        if why := _check(message, step, self.limits):
            raise ProtocolError(f"{kind.name}: {why}")
        try:
            data = encode(message, self.order)
        except CodecError as wrong:
            raise ProtocolError(str(wrong)) from None
        self._advance(message)
        return data

    # --- the peer's side --------------------------------------------------------------

    def receive_data(self, data: bytes) -> None:
        """Take bytes the peer sent; ``b""`` means it closed the connection. Raise
        :class:`ProtocolError` when more than ``limits.buffer_bytes`` would be unread."""
        self._raise_if_dead()
        if not data:
            self._eof = True
            return
        if len(self._buffer) + len(data) > self.limits.buffer_bytes:
            self._fail(f"more than {self.limits.buffer_bytes} bytes sent unasked")
        self._buffer += data

    def next_event(self) -> Event:
        """Return the next message the peer sent, :data:`NEED_DATA` or :data:`CLOSED`."""
        self._raise_if_dead()
        step = self._step
        if step is not None and step.sender is self.role.sender:
            if self._buffer:
                self._fail(f"bytes out of turn (the flow waits for our {step.kind.name})")
            return CLOSED if self._eof else NEED_DATA
        if step is None:
            if self._buffer:
                self._fail("bytes out of turn (the flow is over)")
            return CLOSED
        kind = self._kind(step)
        if kind is None:
            return self._short()
        need = size(kind, step.chars)
        if len(self._buffer) < need:
            return self._short()
        message = decode(kind, bytes(self._buffer[:need]), self.order)
        del self._buffer[:need]
        if why := _check(message, step, self.limits):
            self._fail(f"{kind.name}: {why}")
        self._advance(message)
        return message

    # --- inside -----------------------------------------------------------------------

    def _kind(self, step: Expect) -> Kind | None:
        """Return which message the peer's next bytes are: the step's, or when the step may
        be replaced by a deal's score, SEND_SCORE if they begin with four 0s (``None``: not
        enough bytes to tell yet)."""
        if not step.or_score:
            return step.kind
        for at, zero in enumerate(_NOT_PLAYED_SCORE):
            end = (at + 1) * GINT_BYTES
            if len(self._buffer) < end:
                return None
            if gint(bytes(self._buffer[at * GINT_BYTES : end]), self.order) != zero:
                return step.kind
        return Kind.SEND_SCORE

    def _short(self) -> Sentinel:
        if self._eof:
            if self._buffer:
                self._fail("the connection closed mid-message")
            return CLOSED
        return NEED_DATA

    def _advance(self, message: Message) -> None:
        if message.kind is Kind.SEND_PLACE:
            self.place = message.value
        elif message.kind is Kind.SEND_NICK_LEN:
            self._lengths = message.values
        elif message.kind is Kind.SEND_NICKS:
            nicks, at = [], 0
            for length in self._lengths:
                nicks.append(message.text[at : at + length].decode("utf-8", "replace"))
                at += length
            self.nicks = tuple(nicks)
        try:
            step: Expect | None = self._flow.send(message)
        except StopIteration:
            step = None
        # READY_TO_PLAY is 0 values: nothing on the wire, passed by itself.
        while step is not None and SHAPES[step.kind].gints == 0 and self.role is Role.CLIENT:
            try:
                step = self._flow.send(Message(step.kind))
            except StopIteration:
                step = None
        self._step = step

    def _fail(self, why: str) -> NoReturn:
        self._error = ProtocolError(why)
        raise self._error

    def _raise_if_dead(self) -> None:
        if self._error is not None:
            raise self._error
