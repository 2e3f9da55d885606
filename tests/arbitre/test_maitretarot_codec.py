"""MaitreTarot's codec (seed 001, tables 3 to 15): every message encoded and decoded in
both byte orders, against bytes written by hand from the seed's sizes."""

from __future__ import annotations

import struct

import pytest

from tournoyons_gui.arbitre.maitretarot.codec import (
    SHAPES,
    ByteOrder,
    CodecError,
    Kind,
    Message,
    Sender,
    decode,
    encode,
)

#: One message of every kind of tables 3 to 15, with values such a message may carry.
SAMPLES: dict[Kind, Message] = {
    Kind.GET_ID: Message(Kind.GET_ID, (1, 1)),
    Kind.SEND_ID: Message(Kind.SEND_ID, (-1, 1)),
    Kind.SEND_PROTOCOL: Message(Kind.SEND_PROTOCOL, (1,)),
    Kind.GET_PROTOCOL: Message(Kind.GET_PROTOCOL, (1,)),
    Kind.SEND_PLACE: Message(Kind.SEND_PLACE, (3,)),
    Kind.GET_NICK_LEN: Message(Kind.GET_NICK_LEN, (6,)),
    Kind.GET_NICK: Message(Kind.GET_NICK, text="Amélie".encode()[:6]),
    Kind.SEND_NICK_LEN: Message(Kind.SEND_NICK_LEN, (3, 0, 5, 2)),
    Kind.SEND_NICKS: Message(Kind.SEND_NICKS, text=b"annbertyjo"),
    Kind.BRANCHEMENT_POINT: Message(Kind.BRANCHEMENT_POINT, (5, 0)),
    Kind.DILL_CARDS: Message(Kind.DILL_CARDS, tuple(range(0, 72, 4))),
    Kind.SEND_BIDS: Message(Kind.SEND_BIDS, (0, 2, -1, -1)),
    Kind.ASK_BID_QUESTION: Message(Kind.ASK_BID_QUESTION, (1,)),
    Kind.GET_BID: Message(Kind.GET_BID, (4,)),
    Kind.SEND_FINAL_BIDS: Message(Kind.SEND_FINAL_BIDS, (0, 2, 0, 0)),
    Kind.SHOW_CHIEN: Message(Kind.SHOW_CHIEN, (3, 17, 40, 41, 60, 77)),
    Kind.GET_CHIEN: Message(Kind.GET_CHIEN, (1, 2, 3, 4, 5, 6)),
    Kind.SEND_ACK_FOR_CHIEN: Message(Kind.SEND_ACK_FOR_CHIEN, (0,)),
    Kind.READY_TO_PLAY: Message(Kind.READY_TO_PLAY),
    Kind.SEND_TURN_CARDS: Message(Kind.SEND_TURN_CARDS, (12, 77, -1, -1, 1, 2, 3, 76)),
    Kind.SEND_TURN_CARDS_QUESTION: Message(Kind.SEND_TURN_CARDS_QUESTION, (0,)),
    Kind.GET_TURN_CARD: Message(Kind.GET_TURN_CARD, (56,)),
    Kind.SEND_ACK_FOR_CARD: Message(Kind.SEND_ACK_FOR_CARD, (1,)),
    Kind.SEND_LAST_TURN_CARDS: Message(Kind.SEND_LAST_TURN_CARDS, (20, 21, 22, 23)),
    Kind.SEND_SCORE: Message(Kind.SEND_SCORE, (2, 1, 53, 2, 186, -62, -62, -62)),
    Kind.SHOW_CHIEN_AT_END: Message(Kind.SHOW_CHIEN_AT_END, (4, 5, 6, 7, 8, 9)),
    Kind.ACK_REPLAY: Message(Kind.ACK_REPLAY, (1,)),
    Kind.SEND_REPLAY_ANSWER: Message(Kind.SEND_REPLAY_ANSWER, (0,)),
}

#: The seed's data types, table by table: (table, sender, gints; None a string).
SEED = {
    Kind.GET_ID: (3, "C->S", 2),
    Kind.SEND_ID: (3, "S->C", 2),
    Kind.SEND_PROTOCOL: (3, "S->C", 1),
    Kind.GET_PROTOCOL: (3, "C->S", 1),
    Kind.SEND_PLACE: (3, "S->C", 1),
    Kind.GET_NICK_LEN: (3, "C->S", 1),
    Kind.GET_NICK: (3, "C->S", None),
    Kind.SEND_NICK_LEN: (4, "S->C", 4),
    Kind.SEND_NICKS: (4, "S->C", None),
    Kind.BRANCHEMENT_POINT: (5, "S->C", 2),
    Kind.DILL_CARDS: (6, "S->C", 18),
    Kind.SEND_BIDS: (7, "S->C", 4),
    Kind.ASK_BID_QUESTION: (7, "S->C", 1),
    Kind.GET_BID: (7, "C->S", 1),
    Kind.SEND_FINAL_BIDS: (8, "S->C", 4),
    Kind.SHOW_CHIEN: (8, "S->C", 6),
    Kind.GET_CHIEN: (9, "C->S", 6),
    Kind.SEND_ACK_FOR_CHIEN: (9, "S->C", 1),
    Kind.READY_TO_PLAY: (10, "C->S", 0),
    Kind.SEND_TURN_CARDS: (11, "S->C", 8),
    Kind.SEND_TURN_CARDS_QUESTION: (12, "S->C", 1),
    Kind.GET_TURN_CARD: (13, "C->S", 1),
    Kind.SEND_ACK_FOR_CARD: (13, "S->C", 1),
    Kind.SEND_LAST_TURN_CARDS: (14, "S->C", 4),
    Kind.SEND_SCORE: (15, "S->C", 8),
    Kind.SHOW_CHIEN_AT_END: (15, "S->C", 6),
    Kind.ACK_REPLAY: (15, "C->S", 1),
    Kind.SEND_REPLAY_ANSWER: (15, "S->C", 1),
}


def test_every_message_of_tables_3_to_15_has_the_seeds_shape() -> None:
    assert list(SHAPES) == list(SEED) == list(Kind)
    for kind, (table, sender, gints) in SEED.items():
        shape = SHAPES[kind]
        assert (shape.table, shape.sender, shape.gints) == (table, Sender(sender), gints)
        assert kind.value == f"LIBMT_NET_DATA_TYPE_{kind.name}"


@pytest.mark.parametrize("order", list(ByteOrder))
@pytest.mark.parametrize("kind", list(Kind))
def test_every_message_round_trips_in_both_byte_orders(kind: Kind, order: ByteOrder) -> None:
    message = SAMPLES[kind]
    data = encode(message, order)
    gints = SHAPES[kind].gints
    if gints is None:
        assert data == message.text
    else:
        form = ("<" if order is ByteOrder.LITTLE else ">") + "i" * gints
        assert data == struct.pack(form, *message.values)
        assert len(data) == 4 * gints
    assert decode(kind, data, order) == message


def test_the_byte_orders_differ_on_the_wire() -> None:
    bids = Message(Kind.SEND_BIDS, (0, 2, -1, 1))
    assert encode(bids, ByteOrder.LITTLE) == bytes.fromhex("0000000002000000ffffffff01000000")
    assert encode(bids, ByteOrder.NETWORK) == bytes.fromhex("0000000000000002ffffffff00000001")


def test_the_log_shows_a_message_by_its_name_and_values() -> None:
    assert str(SAMPLES[Kind.SEND_BIDS]) == "SEND_BIDS 0 2 -1 -1"
    assert str(Message(Kind.GET_NICK, text=b"bob\xff")) == "GET_NICK 'bob\\\\xff'"
    assert str(SAMPLES[Kind.READY_TO_PLAY]) == "READY_TO_PLAY"


def test_a_wrong_size_or_value_is_refused() -> None:
    with pytest.raises(CodecError, match="4 gints, not 3"):
        encode(Message(Kind.SEND_BIDS, (0, 0, 0)))
    with pytest.raises(CodecError, match="32 bits"):
        encode(Message(Kind.GET_BID, (2**31,)))
    with pytest.raises(CodecError, match="8 bytes, not 7"):
        decode(Kind.GET_ID, b"\0" * 7)
    with pytest.raises(CodecError, match="a string"):
        encode(Message(Kind.GET_NICK, (1,)))
