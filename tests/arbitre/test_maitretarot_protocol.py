"""MaitreTarot's flow, sans I/O: a server's and a client's :class:`Connection` speaking to
each other in memory through whole deals (tables 3 to 15), and every way a peer can break
the flow."""

from __future__ import annotations

import pytest

from tournoyons_gui.arbitre.maitretarot.codec import BranchPoint, ByteOrder, Kind, Message
from tournoyons_gui.arbitre.maitretarot.protocol import (
    CLOSED,
    NEED_DATA,
    Connection,
    Limits,
    ProtocolError,
    Role,
)

M = Message
B = BranchPoint


class Pair:
    """A server's connection and a client's, the bytes of each given to the other."""

    def __init__(self, order: ByteOrder = ByteOrder.LITTLE) -> None:
        self.server = Connection(Role.SERVER, order)
        self.client = Connection(Role.CLIENT, order)

    def say(self, kind: Kind, *values: int, text: bytes = b"") -> None:
        """The server sends a message; the client reads exactly it."""
        message = M(kind, values, text)
        self.client.receive_data(self.server.send(message))
        assert self.client.next_event() == message

    def answer(self, kind: Kind, *values: int, text: bytes = b"") -> None:
        """The client sends a message; the server reads exactly it."""
        message = M(kind, values, text)
        data = self.client.send(message)
        self.server.receive_data(data)
        assert self.server.next_event() == message

    def branch(self, point: BranchPoint) -> None:
        self.say(Kind.BRANCHEMENT_POINT, point, 0)

    def identify(self, place: int = 0, nick: bytes = b"ann") -> None:
        self.answer(Kind.GET_ID, 1, 1)
        self.say(Kind.SEND_ID, 1, 1)
        self.say(Kind.SEND_PROTOCOL, 1)
        self.answer(Kind.GET_PROTOCOL, 1)
        self.say(Kind.SEND_PLACE, place)
        self.answer(Kind.GET_NICK_LEN, len(nick))
        if nick:
            self.answer(Kind.GET_NICK, text=nick)
        self.say(Kind.SEND_NICK_LEN, 3, 4, 2, 5)
        self.say(Kind.SEND_NICKS, text=b"annbertjocarla")

    def deal_to_bids(self) -> None:
        self.branch(B.NEW_GAME)
        self.branch(B.DILL_CARDS)
        self.say(Kind.DILL_CARDS, *range(18))
        self.branch(B.SEND_BIDS)

    def bidding(self, rounds: list[tuple[int, ...]], bid: int, final: tuple[int, ...]) -> None:
        """Table 7 four times (our client, place 1, asked second and bidding ``bid``), then
        table 8's branch point and ``final`` bids."""
        for turn, bids in enumerate(rounds):
            self.say(Kind.SEND_BIDS, *bids)
            self.say(Kind.ASK_BID_QUESTION, int(turn == 1))
            if turn == 1:
                self.answer(Kind.GET_BID, bid)
        self.branch(B.GET_CHIEN)
        self.say(Kind.SEND_FINAL_BIDS, *final)

    def end(self, again: int, score: tuple[int, ...] | None = None) -> None:
        if score is not None:
            self.say(Kind.SEND_SCORE, *score)
        self.say(Kind.SHOW_CHIEN_AT_END, 72, 73, 74, 75, 76, 77)
        self.answer(Kind.ACK_REPLAY, again)
        self.say(Kind.SEND_REPLAY_ANSWER, again)


@pytest.mark.parametrize("order", list(ByteOrder))
def test_a_whole_match_of_deals_through_both_sides(order: ByteOrder) -> None:
    pair = Pair(order)
    pair.identify(place=1, nick=b"bert")
    assert pair.client.place == pair.server.place == 1
    assert pair.client.nicks == ("ann", "bert", "jo", "carla")

    # Deal 1: place 1 takes a garde, puts 6 cards aside (refused once), plays 18 tricks.
    pair.deal_to_bids()
    pair.bidding(
        [(-1, -1, -1, -1), (0, -1, -1, -1), (0, 2, -1, -1), (0, 2, 0, -1)], 2, (0, 2, 0, 0)
    )
    pair.say(Kind.SHOW_CHIEN, 18, 19, 20, 21, 22, 23)
    pair.answer(Kind.GET_CHIEN, 0, 1, 2, 3, 4, 77)
    pair.say(Kind.SEND_ACK_FOR_CHIEN, 0)
    pair.answer(Kind.GET_CHIEN, 0, 1, 2, 3, 4, 5)
    pair.say(Kind.SEND_ACK_FOR_CHIEN, 1)
    pair.branch(B.READY_TO_PLAY)
    assert pair.server.next_event() == M(Kind.READY_TO_PLAY)  # implied: no bytes
    pair.branch(B.SEND_TURN_CARD)
    previous = (-1, -1, -1, -1)
    for trick in range(18):
        cards = [-1, -1, -1, -1]
        for seat in range(4):
            pair.say(Kind.SEND_TURN_CARDS, *cards, *previous)
            pair.say(Kind.SEND_TURN_CARDS_QUESTION, int(seat == 1))
            card = 4 * trick + seat if trick < 18 else 0
            if seat == 1:
                if trick == 0:
                    pair.answer(Kind.GET_TURN_CARD, 99)
                    pair.say(Kind.SEND_ACK_FOR_CARD, 0)
                pair.answer(Kind.GET_TURN_CARD, card % 78)
                pair.say(Kind.SEND_ACK_FOR_CARD, 1)
            cards[seat] = card % 78
        previous = (cards[0], cards[1], cards[2], cards[3])
    pair.say(Kind.SEND_LAST_TURN_CARDS, *previous)
    pair.end(1, (2, 1, 53, 2, -62, 186, -62, -62))

    # Deal 2: a petit sec, straight from the cards dealt to the score.
    pair.branch(B.NEW_GAME)
    pair.branch(B.DILL_CARDS)
    pair.say(Kind.DILL_CARDS, *range(18))
    pair.end(1, (0, 0, 0, 0, -62, 186, -62, -62))

    # Deal 3: all pass; the dog is shown, then the score of a deal not played.
    pair.deal_to_bids()
    pair.bidding([tuple([0] * turn + [-1] * (4 - turn)) for turn in range(4)], 0, (0, 0, 0, 0))
    pair.say(Kind.SHOW_CHIEN, 18, 19, 20, 21, 22, 23)
    pair.end(1, (0, 0, 0, 0, -62, 186, -62, -62))

    # Deal 4: a garde contre by place 3: no dog shown, no écart; another seat fails in
    # the second trick, so the server ends the deal early: replay answer 0.
    pair.deal_to_bids()
    pair.bidding(
        [(-1, -1, -1, -1), (0, -1, -1, -1), (0, 0, -1, -1), (0, 0, 0, -1)], 0, (0, 0, 0, 4)
    )
    pair.branch(B.READY_TO_PLAY)
    assert pair.server.next_event() == M(Kind.READY_TO_PLAY)
    pair.branch(B.SEND_TURN_CARD)
    pair.say(Kind.SEND_TURN_CARDS, 0, -1, -1, -1, -1, -1, -1, -1)
    pair.say(Kind.SEND_TURN_CARDS_QUESTION, 1)
    pair.answer(Kind.GET_TURN_CARD, 5)
    pair.say(Kind.SEND_ACK_FOR_CARD, 1)
    pair.say(Kind.SEND_TURN_CARDS, 0, 5, -1, -1, -1, -1, -1, -1)
    pair.say(Kind.SEND_TURN_CARDS_QUESTION, 0)
    pair.end(0, (0, 0, 0, 0, -62, 186, -62, -62))  # in place of SEND_TURN_CARDS
    assert pair.client.over and pair.server.over
    assert pair.client.next_event() is CLOSED


def test_messages_arrive_in_any_pieces() -> None:
    server, client = Connection(Role.SERVER), Connection(Role.CLIENT)
    data = client.send(M(Kind.GET_ID, (1, 1)))
    for byte in data[:-1]:
        server.receive_data(bytes([byte]))
        assert server.next_event() is NEED_DATA
    server.receive_data(data[-1:])
    assert server.next_event() == M(Kind.GET_ID, (1, 1))
    assert server.next_event() is NEED_DATA  # our turn: nothing to read
    several = server.send(M(Kind.SEND_ID, (1, 1))) + server.send(M(Kind.SEND_PROTOCOL, (1,)))
    client.receive_data(several)
    assert client.next_event() == M(Kind.SEND_ID, (1, 1))
    assert client.next_event() == M(Kind.SEND_PROTOCOL, (1,))
    assert client.next_event() is NEED_DATA


def test_a_wrong_server_id_ends_the_flow() -> None:
    pair = Pair()
    pair.answer(Kind.GET_ID, 7, 1)
    pair.say(Kind.SEND_ID, -1, 1)
    assert pair.server.over and pair.client.over
    pair.server.receive_data(b"\0")
    with pytest.raises(ProtocolError, match="out of turn"):
        pair.server.next_event()


def test_a_client_that_refuses_the_protocol_ends_the_flow() -> None:
    pair = Pair()
    pair.answer(Kind.GET_ID, 1, 1)
    pair.say(Kind.SEND_ID, 1, 1)
    pair.say(Kind.SEND_PROTOCOL, 1)
    pair.answer(Kind.GET_PROTOCOL, 0)
    assert pair.server.over


def test_bytes_out_of_turn_are_an_error_and_the_connection_stays_dead() -> None:
    pair = Pair()
    pair.identify()
    pair.deal_to_bids()
    pair.say(Kind.SEND_BIDS, -1, -1, -1, -1)
    pair.say(Kind.ASK_BID_QUESTION, 0)
    pair.server.receive_data(b"\x02\0\0\0")  # a bid nobody asked for
    with pytest.raises(ProtocolError, match="out of turn"):
        pair.server.next_event()
    with pytest.raises(ProtocolError, match="out of turn"):
        pair.server.send(M(Kind.SEND_BIDS, (0, -1, -1, -1)))


def test_a_card_before_the_question_is_out_of_turn() -> None:
    server = Connection(Role.SERVER)
    server.receive_data(b"\1\0\0\0\1\0\0\0\7\0\0\0")  # GET_ID and 4 more bytes
    assert server.next_event() == M(Kind.GET_ID, (1, 1))
    with pytest.raises(ProtocolError, match="out of turn"):
        server.next_event()


def test_a_nick_is_bounded_before_it_is_read() -> None:
    server = Connection(Role.SERVER, limits=Limits(nick_bytes=8))
    client = Connection(Role.CLIENT, limits=Limits(nick_bytes=1000))
    for message in (M(Kind.GET_ID, (1, 1)),):
        server.receive_data(client.send(message))
        assert server.next_event() == message
    for message in (M(Kind.SEND_ID, (1, 1)), M(Kind.SEND_PROTOCOL, (1,))):
        client.receive_data(server.send(message))
        client.next_event()
    server.receive_data(client.send(M(Kind.GET_PROTOCOL, (1,))))
    server.next_event()
    client.receive_data(server.send(M(Kind.SEND_PLACE, (0,))))
    client.next_event()
    server.receive_data(client.send(M(Kind.GET_NICK_LEN, (500,))))
    with pytest.raises(ProtocolError, match="0 to 8 bytes"):
        server.next_event()


def test_the_unread_bytes_are_bounded() -> None:
    client = Connection(Role.CLIENT, limits=Limits(buffer_bytes=64))
    client.receive_data(b"\0" * 64)
    with pytest.raises(ProtocolError, match="more than 64 bytes"):
        client.receive_data(b"\0")


def test_a_connection_closed_mid_message_or_between_messages() -> None:
    server = Connection(Role.SERVER)
    server.receive_data(b"\1\0\0")
    server.receive_data(b"")
    with pytest.raises(ProtocolError, match="mid-message"):
        server.next_event()
    other = Connection(Role.SERVER)
    other.receive_data(b"")
    assert other.next_event() is CLOSED


def test_a_server_breaking_the_flow_is_caught_on_both_sides() -> None:
    pair = Pair()
    pair.identify()
    with pytest.raises(ProtocolError, match="sends BRANCHEMENT_POINT now, not DILL_CARDS"):
        pair.server.send(M(Kind.DILL_CARDS, tuple(range(18))))
    with pytest.raises(ProtocolError, match="not our turn"):
        pair.client.send(M(Kind.GET_BID, (1,)))
    pair.client.receive_data(pair.server.send(M(Kind.BRANCHEMENT_POINT, (0, 0))))
    pair.client.next_event()
    pair.client.receive_data(b"\3\0\0\0\0\0\0\0")  # GET_CHIEN's, not DILL_CARDS'
    with pytest.raises(ProtocolError, match="branch point here is 1, not 3"):
        pair.client.next_event()


def test_a_client_refuses_impossible_cards() -> None:
    pair = Pair()
    pair.identify()
    pair.branch(B.NEW_GAME)
    pair.branch(B.DILL_CARDS)
    pair.client.receive_data(b"\x50\0\0\0" * 18)
    with pytest.raises(ProtocolError, match="0 to 77"):
        pair.client.next_event()


def test_a_score_may_be_sent_only_where_a_client_waits_for_one() -> None:
    pair = Pair()
    pair.identify()
    server = pair.server
    assert not server.may_send(Kind.SEND_SCORE)  # NEW_GAME's branch point comes first
    pair.branch(B.NEW_GAME)
    pair.branch(B.DILL_CARDS)
    assert not server.may_send(Kind.SEND_SCORE)  # the cards, then it waits
    assert server.may_send(Kind.DILL_CARDS)
    pair.say(Kind.DILL_CARDS, *range(18))
    assert server.may_send(Kind.SEND_SCORE)  # instead of SEND_BIDS' branch point
    pair.branch(B.SEND_BIDS)
    pair.say(Kind.SEND_BIDS, -1, -1, -1, -1)
    assert not server.may_send(Kind.SEND_SCORE)  # the question is due
    pair.say(Kind.ASK_BID_QUESTION, 1)
    assert not server.may_send(Kind.SEND_SCORE)  # its client is asked: its bid is due
    assert not server.may_send(Kind.SEND_BIDS)
    pair.answer(Kind.GET_BID, 0)
    assert server.may_send(Kind.SEND_SCORE) and server.may_send(Kind.SEND_BIDS)
