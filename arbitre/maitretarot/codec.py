"""MaitreTarot's messages (seed 001, tables 3 to 15): their names, who sends them, their
sizes, and their bytes.

A message is N values with no header and no length (``docs/reference/tarot.md`` section
4, T-decision 6): a ``gint`` is 4 bytes, signed, little-endian by default
(:attr:`ByteOrder.LITTLE`; :attr:`ByteOrder.NETWORK` is big-endian); a ``gchar`` is 1
byte. So the bytes alone do not say which message they are: the flow does
(:mod:`~tournoyons_gui.arbitre.maitretarot.protocol`), and this module encodes and decodes
a message of a known :class:`Kind`. Messages of 0 values (the client's READY_TO_PLAY) put
nothing on the wire. Names are the seed's, without their ``LIBMT_NET_DATA_TYPE_`` prefix.
"""

from __future__ import annotations

import enum
import struct
from dataclasses import dataclass

__all__ = [
    "GINT_BYTES",
    "SHAPES",
    "BranchPoint",
    "ByteOrder",
    "CodecError",
    "Kind",
    "Message",
    "Sender",
    "Shape",
    "decode",
    "encode",
]

#: Bytes of one ``gint`` on the wire (T-decision 6).
GINT_BYTES = 4
_GINT_MIN, _GINT_MAX = -(2**31), 2**31 - 1


class CodecError(ValueError):
    """Bytes or values that are not the message asked for (a wrong size, a value out of a
    gint's range)."""


class Sender(enum.Enum):
    """Who sends a message: ``S->C`` or ``C->S`` as the seed writes it."""

    SERVER = "S->C"
    CLIENT = "C->S"


class ByteOrder(enum.Enum):
    """The byte order of a ``gint``: ``little`` (the default, T-decision 6) or ``network``
    (big-endian, ``--byte-order network``)."""

    LITTLE = "little"
    NETWORK = "network"

    @property
    def gint(self) -> struct.Struct:
        """Return the ``struct`` of one gint in this order."""
        return _LITTLE if self is ByteOrder.LITTLE else _NETWORK


_LITTLE = struct.Struct("<i")
_NETWORK = struct.Struct(">i")


class Kind(enum.Enum):
    """A message of the seed's tables 3 to 15, its value the seed's full name."""

    # Table 3: identification of the client and the server.
    GET_ID = "LIBMT_NET_DATA_TYPE_GET_ID"
    SEND_ID = "LIBMT_NET_DATA_TYPE_SEND_ID"
    SEND_PROTOCOL = "LIBMT_NET_DATA_TYPE_SEND_PROTOCOL"
    GET_PROTOCOL = "LIBMT_NET_DATA_TYPE_GET_PROTOCOL"
    SEND_PLACE = "LIBMT_NET_DATA_TYPE_SEND_PLACE"
    GET_NICK_LEN = "LIBMT_NET_DATA_TYPE_GET_NICK_LEN"
    GET_NICK = "LIBMT_NET_DATA_TYPE_GET_NICK"
    # Table 4: the players' names.
    SEND_NICK_LEN = "LIBMT_NET_DATA_TYPE_SEND_NICK_LEN"
    SEND_NICKS = "LIBMT_NET_DATA_TYPE_SEND_NICKS"
    # Table 5: a branch point.
    BRANCHEMENT_POINT = "LIBMT_NET_DATA_TYPE_BRANCHEMENT_POINT"
    # Table 6: the deal.
    DILL_CARDS = "LIBMT_NET_DATA_TYPE_DILL_CARDS"
    # Table 7: the bids.
    SEND_BIDS = "LIBMT_NET_DATA_TYPE_SEND_BIDS"
    ASK_BID_QUESTION = "LIBMT_NET_DATA_TYPE_ASK_BID_QUESTION"
    GET_BID = "LIBMT_NET_DATA_TYPE_GET_BID"
    # Table 8: the end of the bids.
    SEND_FINAL_BIDS = "LIBMT_NET_DATA_TYPE_SEND_FINAL_BIDS"
    SHOW_CHIEN = "LIBMT_NET_DATA_TYPE_SHOW_CHIEN"
    # Table 9: the taker's écart.
    GET_CHIEN = "LIBMT_NET_DATA_TYPE_GET_CHIEN"
    SEND_ACK_FOR_CHIEN = "LIBMT_NET_DATA_TYPE_SEND_ACK_FOR_CHIEN"
    # Table 10: ready to play (0 values: nothing on the wire).
    READY_TO_PLAY = "LIBMT_NET_DATA_TYPE_READY_TO_PLAY"
    # Tables 11 to 13: a trick.
    SEND_TURN_CARDS = "LIBMT_NET_DATA_TYPE_SEND_TURN_CARDS"
    SEND_TURN_CARDS_QUESTION = "LIBMT_NET_DATA_TYPE_SEND_TURN_CARDS_QUESTION"
    GET_TURN_CARD = "LIBMT_NET_DATA_TYPE_GET_TURN_CARD"
    SEND_ACK_FOR_CARD = "LIBMT_NET_DATA_TYPE_SEND_ACK_FOR_CARD"
    # Table 14: the last trick.
    SEND_LAST_TURN_CARDS = "LIBMT_NET_DATA_TYPE_SEND_LAST_TURN_CARDS"
    # Table 15: the score, and playing again.
    SEND_SCORE = "LIBMT_NET_DATA_TYPE_SEND_SCORE"
    SHOW_CHIEN_AT_END = "LIBMT_NET_DATA_TYPE_SHOW_CHIEN_AT_END"
    ACK_REPLAY = "LIBMT_NET_DATA_TYPE_ACK_REPLAY"
    SEND_REPLAY_ANSWER = "LIBMT_NET_DATA_TYPE_SEND_REPLAY_ANSWER"


class BranchPoint(enum.IntEnum):
    """A branch point's number (T-decision 9: the seed names them and gives no numbers)."""

    NEW_GAME = 0
    DILL_CARDS = 1
    SEND_BIDS = 2
    GET_CHIEN = 3
    READY_TO_PLAY = 4
    SEND_TURN_CARD = 5


@dataclass(frozen=True)
class Shape:
    """A message's ``table`` in the seed, its ``sender``, and its ``gints`` (``None``: a
    string of gchars whose length the flow gives, GET_NICK and SEND_NICKS)."""

    table: int
    sender: Sender
    gints: int | None


_S, _C = Sender.SERVER, Sender.CLIENT
#: Every message's shape, in the seed's order.
SHAPES: dict[Kind, Shape] = {
    Kind.GET_ID: Shape(3, _C, 2),
    Kind.SEND_ID: Shape(3, _S, 2),
    Kind.SEND_PROTOCOL: Shape(3, _S, 1),
    Kind.GET_PROTOCOL: Shape(3, _C, 1),
    Kind.SEND_PLACE: Shape(3, _S, 1),
    Kind.GET_NICK_LEN: Shape(3, _C, 1),
    Kind.GET_NICK: Shape(3, _C, None),
    Kind.SEND_NICK_LEN: Shape(4, _S, 4),
    Kind.SEND_NICKS: Shape(4, _S, None),
    Kind.BRANCHEMENT_POINT: Shape(5, _S, 2),
    Kind.DILL_CARDS: Shape(6, _S, 18),
    Kind.SEND_BIDS: Shape(7, _S, 4),
    Kind.ASK_BID_QUESTION: Shape(7, _S, 1),
    Kind.GET_BID: Shape(7, _C, 1),
    Kind.SEND_FINAL_BIDS: Shape(8, _S, 4),
    Kind.SHOW_CHIEN: Shape(8, _S, 6),
    Kind.GET_CHIEN: Shape(9, _C, 6),
    Kind.SEND_ACK_FOR_CHIEN: Shape(9, _S, 1),
    Kind.READY_TO_PLAY: Shape(10, _C, 0),
    Kind.SEND_TURN_CARDS: Shape(11, _S, 8),
    Kind.SEND_TURN_CARDS_QUESTION: Shape(12, _S, 1),
    Kind.GET_TURN_CARD: Shape(13, _C, 1),
    Kind.SEND_ACK_FOR_CARD: Shape(13, _S, 1),
    Kind.SEND_LAST_TURN_CARDS: Shape(14, _S, 4),
    Kind.SEND_SCORE: Shape(15, _S, 8),
    Kind.SHOW_CHIEN_AT_END: Shape(15, _S, 6),
    Kind.ACK_REPLAY: Shape(15, _C, 1),
    Kind.SEND_REPLAY_ANSWER: Shape(15, _S, 1),
}


@dataclass(frozen=True)
class Message:
    """One message: its ``kind``, its gint ``values`` (in the seed's order), or for a
    string of gchars (GET_NICK, SEND_NICKS) its ``text`` bytes."""

    kind: Kind
    values: tuple[int, ...] = ()
    text: bytes = b""

    @property
    def shape(self) -> Shape:
        """Return the message's :class:`Shape`."""
        return SHAPES[self.kind]

    @property
    def value(self) -> int:
        """Return the first value (a one-gint message's only one); raise ``IndexError``
        for a message without values."""
        return self.values[0]

    def __str__(self) -> str:
        """Return the message as the exchange log shows it: its name and its values
        (``SEND_BIDS -1 -1 -1 -1``), a string as its escaped text."""
        if self.shape.gints is None:
            return f"{self.kind.name} {self.text.decode('utf-8', 'backslashreplace')!r}"
        return " ".join([self.kind.name, *map(str, self.values)])


def size(kind: Kind, chars: int = 0) -> int:
    """Return the bytes of a message of ``kind`` (``chars`` bytes for a string)."""
    gints = SHAPES[kind].gints
    return chars if gints is None else gints * GINT_BYTES


def encode(message: Message, order: ByteOrder = ByteOrder.LITTLE) -> bytes:
    """Return ``message``'s bytes in ``order``; raise :class:`CodecError` when its values
    are not as many as its kind has, or one is out of a gint's range."""
    gints = message.shape.gints
    if gints is None:
        if message.values:
            raise CodecError(f"{message.kind.name} is a string, not gints")
        return message.text
    if len(message.values) != gints or message.text:
        raise CodecError(f"{message.kind.name} is {gints} gints, not {len(message.values)}")
    packer = order.gint
    try:
        return b"".join(packer.pack(value) for value in message.values)
    except struct.error:
        raise CodecError(f"{message.kind.name}: a gint is 32 bits signed") from None


def decode(kind: Kind, data: bytes, order: ByteOrder = ByteOrder.LITTLE) -> Message:
    """Return the message of ``kind`` that ``data`` is (exactly its bytes); raise
    :class:`CodecError` on a size that is not the kind's."""
    gints = SHAPES[kind].gints
    if gints is None:
        return Message(kind, text=bytes(data))
    if len(data) != gints * GINT_BYTES:
        raise CodecError(f"{kind.name} is {gints * GINT_BYTES} bytes, not {len(data)}")
    unpacker = order.gint
    return Message(
        kind, tuple(unpacker.unpack_from(data, at)[0] for at in range(0, len(data), GINT_BYTES))
    )


def gint(data: bytes, order: ByteOrder = ByteOrder.LITTLE) -> int:
    """Return the gint written in the 4 bytes ``data``."""
    value: int = order.gint.unpack(data)[0]
    return value


def in_range(value: int) -> bool:
    """Whether ``value`` fits a gint."""
    return _GINT_MIN <= value <= _GINT_MAX
