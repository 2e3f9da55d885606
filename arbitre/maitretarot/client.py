"""Our MaitreTarot client: one of our engines (a built-in Tarot engine, or a Tournoyons
engine at its URL) seated at anybody's MaitreTarot server (seed 001;
``docs/reference/tarot.md`` section 4).

The client keeps the table as its seat sees it (:class:`SeatView`, built from the
messages alone), and when asked turns it into the Tarot Set's engine parameters (section
3: ``Seat``, ``Players=4``, ``Gain1..4``, ``Move1..4``, the Tray with its own hand only).
A Tournoyons engine is called in **tester mode** (engine protocol section 5: an empty
``Referee``, the Value in the body, at most 64 KiB), through the Arbitre's HTTP client:
no Referee URL has to be served. A Value the rules refuse (the engine's, or one the
server acks 0) is replaced by the first legal one, so that a match never stops on our
side. The client answers 1 to every replay question: the server ends the match.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

import httpx

from tournoyons_gui.arbitre.calls import tester_call
from tournoyons_gui.arbitre.maitretarot.codec import ByteOrder, Kind, Message
from tournoyons_gui.arbitre.maitretarot.protocol import (
    CLOSED,
    NEED_DATA,
    NOT_PLAYED,
    Connection,
    Limits,
    ProtocolError,
    Role,
    taker,
)
from tournoyons_gui.arbitre.match import DEFAULT_TIMEOUT
from tournoyons_gui.arbitre.urls import check_engine_url, engine_url
from tournoyons_gui.interfaces.tarot.cards import Phase, Tray, Trick, card_text
from tournoyons_gui.interfaces.tarot.play import ecart_choices, legal_cards, trick_winner

__all__ = [
    "IDLE_SECONDS",
    "ClientSettings",
    "Engine",
    "MatchSeen",
    "SeatView",
    "builtin_engine",
    "play_match",
    "url_engine",
]

#: Seconds the client waits for the server's next message (others may think long).
IDLE_SECONDS = 600.0
#: Bytes asked of the socket at a time.
READ_BYTES = 4096

#: An engine: the Tarot parameters of a request -> its Value.
Engine = Callable[[Mapping[str, str]], Awaitable[str]]


@dataclass(frozen=True)
class ClientSettings:
    """How the client connects: the ``server_id`` and ``version`` it asks for (T-decision
    8), the byte ``order``, the flow's ``limits``, ``idle_seconds`` it waits for the
    server."""

    server_id: int = 1
    version: int = 1
    order: ByteOrder = ByteOrder.LITTLE
    limits: Limits = field(default_factory=Limits)
    idle_seconds: float = IDLE_SECONDS


@dataclass
class MatchSeen:
    """What the client saw of a match: its ``place``, the ``names``, every SEND_SCORE's
    8 values (``scores``), the deals, and how it ended (``ended``: ``replay 0`` when the
    server ended it, else the reason)."""

    place: int = -1
    names: tuple[str, ...] = ()
    scores: list[tuple[int, ...]] = field(default_factory=list)
    deals: int = 0
    refused: int = 0
    ended: str = ""


class SeatView:
    """The table as the client's seat sees it, from the messages alone."""

    def __init__(self) -> None:
        self.place = 0
        self.deal = 0
        self.totals = [0, 0, 0, 0]
        self.asks = 0
        self.new_deal()

    def new_deal(self) -> None:
        """Forget the previous deal."""
        self.deal += 1
        self.phase = Phase.BIDDING
        self.hand: list[int] = []
        self.bids = [NOT_PLAYED] * 4
        self.first = 0  # the first bidder (0-based), once seen
        self.dog: tuple[int, ...] = ()
        self.aside: tuple[int, ...] = ()
        self.taker: int | None = None
        self.played = [0, 0, 0, 0]
        self.trick = [NOT_PLAYED] * 4
        self.leader = 0
        self.tricks: list[Trick] = []
        self.moves = ["", "", "", ""]

    def saw_bids(self, bids: tuple[int, ...]) -> None:
        """A SEND_BIDS: the bids so far (the first one spoken tells who spoke first)."""
        spoken = [p for p in range(4) if bids[p] != NOT_PLAYED and self.bids[p] == NOT_PLAYED]
        if all(b == NOT_PLAYED for b in self.bids) and spoken:
            self.first = spoken[0]
        for place in spoken:
            self.moves[place] = str(bids[place])
        self.bids = list(bids)

    def saw_trick(self, cards: tuple[int, ...], asked: bool) -> None:
        """A SEND_TURN_CARDS: the trick so far (and who leads it, when it can be told)."""
        self.phase = Phase.PLAY
        current = list(cards[:4])
        if all(c == NOT_PLAYED for c in current) and any(c != NOT_PLAYED for c in self.trick):
            self._won(cards[4:])
        for place, card in enumerate(current):
            if card != NOT_PLAYED and self.trick[place] == NOT_PLAYED:
                self.played[place] += 1
                self.moves[place] = card_text(card)
        if all(c == NOT_PLAYED for c in current) and not self.tricks:
            self.leader = self.first
        self.trick = current
        if asked:  # we play next: the leader is as many places back as cards were played
            self.leader = (self.place - sum(c != NOT_PLAYED for c in current)) % 4

    def _won(self, cards: tuple[int, ...]) -> None:
        winner = trick_winner(self.leader + 1, cards) - 1
        self.tricks.append(
            Trick(self.leader + 1, (cards[0], cards[1], cards[2], cards[3]), winner + 1)
        )
        for place, card in enumerate(cards):
            if self.trick[place] == NOT_PLAYED:
                self.played[place] += 1
                self.moves[place] = card_text(card)
        self.trick = [NOT_PLAYED] * 4
        self.leader = winner

    def in_order(self) -> list[int]:
        """Return the trick's cards in the order played."""
        order = [(self.leader + step) % 4 for step in range(4)]
        return [self.trick[p] for p in order if self.trick[p] != NOT_PLAYED]

    def params(self) -> dict[str, str]:
        """Return the Tarot Set's engine parameters for this seat now (spec section 3)."""
        self.asks += 1
        counts = [18 - self.played[p] for p in range(4)]
        hands = tuple(
            tuple(sorted(self.hand)) if p == self.place else (None,) * counts[p] for p in range(4)
        )
        if self.aside:
            dog: tuple[int | None, ...] = self.aside
        else:
            dog = self.dog if self.dog else (None,) * 6
        trick = None
        if self.phase is Phase.PLAY:
            shown = tuple(None if c == NOT_PLAYED else c for c in self.trick)
            trick = Trick(self.leader + 1, (shown[0], shown[1], shown[2], shown[3]))
        tray = Tray(
            deal=min(self.deal, 99),
            phase=self.phase,
            bids=tuple(None if b == NOT_PLAYED else b for b in self.bids),
            hands=hands,
            dog=dog,
            trick=trick,
            tricks=tuple(self.tricks),
        )
        params = {"Set": "Tarot", "Turn": str(self.asks), "Seat": str(self.place + 1)}
        params["Players"] = "4"
        for number in range(4):
            params[f"Gain{number + 1}"] = str(self.totals[number])
        for number, move in enumerate(self.moves):
            if move:
                params[f"Move{number + 1}"] = move
        params["Tray"] = tray.text()
        return params


def _cards(value: str, count: int) -> tuple[int, ...] | None:
    """Return the ``count`` cards of 2 digits each that ``value`` is, or ``None``."""
    value = value.strip()
    if len(value) != 2 * count or not (value.isascii() and value.isdigit()):
        return None
    return tuple(int(value[at : at + 2]) for at in range(0, len(value), 2))


class _Client:
    """One match over one connection."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        nick: str,
        engine: Engine,
        settings: ClientSettings,
    ) -> None:
        self.reader, self.writer = reader, writer
        self.nick = nick.encode()[: settings.limits.nick_bytes]
        self.engine = engine
        self.settings = settings
        self.connection = Connection(Role.CLIENT, settings.order, settings.limits)
        self.view = SeatView()
        self.seen = MatchSeen()
        self.refused: set[int] = set()
        self.turn_cards: tuple[int, ...] = (NOT_PLAYED,) * 8
        self.playing = 0

    async def send(self, kind: Kind, *values: int, text: bytes = b"") -> None:
        self.writer.write(self.connection.send(Message(kind, values, text)))
        await self.writer.drain()

    async def next(self) -> Message | None:
        """Return the server's next message, ``None`` once it closed."""
        while True:
            event = self.connection.next_event()
            if isinstance(event, Message):
                return event
            if event is CLOSED:
                return None
            assert event is NEED_DATA
            data = await asyncio.wait_for(self.reader.read(READ_BYTES), self.settings.idle_seconds)
            self.connection.receive_data(data)

    async def play(self) -> MatchSeen:
        settings = self.settings
        await self.send(Kind.GET_ID, settings.server_id, settings.version)
        while (message := await self.next()) is not None:
            await self.on(message)
        if not self.seen.ended:
            self.seen.ended = "closed by the server"
        return self.seen

    async def on(self, message: Message) -> None:
        """React to one message of the server (tables 3 to 15)."""
        kind, values, view = message.kind, message.values, self.view
        if kind is Kind.SEND_ID and values[0] == -1:
            self.seen.ended = "wrong server id"
        elif kind is Kind.SEND_PROTOCOL:
            await self.send(Kind.GET_PROTOCOL, int(values[0] == 1))
        elif kind is Kind.SEND_PLACE:
            view.place = self.seen.place = values[0]
            await self.send(Kind.GET_NICK_LEN, len(self.nick))
            if self.nick:
                await self.send(Kind.GET_NICK, text=self.nick)
        elif kind is Kind.SEND_NICKS:
            self.seen.names = self.connection.nicks
        elif kind is Kind.BRANCHEMENT_POINT and values[0] == 0 and self.seen.deals:
            view.new_deal()
        elif kind is Kind.DILL_CARDS:
            view.hand = list(values)
        elif kind is Kind.SEND_BIDS:
            view.saw_bids(values)
        elif kind is Kind.ASK_BID_QUESTION and values[0]:
            await self.bid()
        elif kind is Kind.SEND_FINAL_BIDS:
            view.bids, view.taker = list(values), taker(values)
        elif kind is Kind.SHOW_CHIEN:
            view.dog = values
            if view.taker == view.place and max(view.bids) <= 2:
                view.phase = Phase.ECART
                view.hand = sorted(set(view.hand) | set(values))
                await self.ecart()
        elif kind is Kind.SEND_ACK_FOR_CHIEN:
            await self.acked_ecart(values[0])
        elif kind is Kind.SEND_TURN_CARDS:
            self.turn_cards = values
        elif kind is Kind.SEND_TURN_CARDS_QUESTION:
            view.saw_trick(self.turn_cards, bool(values[0]))
            if values[0]:
                self.refused = set()
                await self.card()
        elif kind is Kind.SEND_ACK_FOR_CARD:
            await self.acked_card(values[0])
        elif kind is Kind.SEND_SCORE:
            self.seen.scores.append(values)
            self.seen.deals += 1
            view.totals = list(values[4:])
        elif kind is Kind.SHOW_CHIEN_AT_END:
            await self.send(Kind.ACK_REPLAY, 1)
        elif kind is Kind.SEND_REPLAY_ANSWER and values[0] != 1:
            self.seen.ended = "replay 0"

    async def ask(self) -> str:
        try:
            return (await self.engine(self.view.params())).strip()
        except Exception:  # an engine's failure must not stop the match: a legal value
            return ""

    async def bid(self) -> None:
        value = await self.ask()
        best = max(self.view.bids)
        bid = int(value) if value in ("0", "1", "2", "3", "4") else 0
        await self.send(Kind.GET_BID, bid if bid > best else 0)

    async def ecart(self, fallback: bool = False) -> None:
        hand = self.view.hand
        chosen = None if fallback else _cards(await self.ask(), 6)
        allowed, _trumps = ecart_choices(hand)
        if chosen is None or len(set(chosen)) != 6 or not set(chosen) <= set(allowed):
            plain = [c for c in allowed if not 56 <= c <= 76]
            chosen = tuple((plain + [c for c in allowed if 56 <= c <= 76])[:6])
            self.seen.refused += 0 if fallback else 1
        self.view.aside = tuple(sorted(chosen))
        await self.send(Kind.GET_CHIEN, *chosen)

    async def acked_ecart(self, ack: int) -> None:
        if ack == 1:
            self.view.hand = [c for c in self.view.hand if c not in self.view.aside]
            return
        self.seen.refused += 1
        await self.ecart(fallback=True)

    async def card(self) -> None:
        view = self.view
        legal = [c for c in legal_cards(view.hand, view.in_order()) if c not in self.refused]
        chosen = _cards(await self.ask(), 1) if not self.refused else None
        card = chosen[0] if chosen and chosen[0] in legal else (legal or view.hand or [0])[0]
        self.playing = card
        await self.send(Kind.GET_TURN_CARD, card)

    async def acked_card(self, ack: int) -> None:
        if ack == 1:
            self.view.hand = [c for c in self.view.hand if c != self.playing]
            return
        self.seen.refused += 1
        self.refused.add(self.playing)
        await self.card()


async def play_match(
    host: str, port: int, nick: str, engine: Engine, settings: ClientSettings | None = None
) -> MatchSeen:
    """Connect to the MaitreTarot server at ``host``:``port`` as ``nick`` and play one
    match with ``engine`` until the server ends it; return what was seen. A server that
    breaks the flow, goes silent past ``settings.idle_seconds`` or closes ends the match
    (``MatchSeen.ended`` says how); connection errors are raised (``OSError``)."""
    reader, writer = await asyncio.open_connection(host, port)
    client = _Client(reader, writer, nick, engine, settings or ClientSettings())
    try:
        return await client.play()
    except ProtocolError as broken:
        client.seen.ended = f"the server broke the flow: {broken}"
    except TimeoutError:
        client.seen.ended = "the server went silent"
    except (ConnectionError, OSError) as gone:
        client.seen.ended = f"connection lost: {gone}"
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await writer.wait_closed()
    return client.seen


def builtin_engine(engines: Mapping[str, Callable[[Mapping[str, str]], str]], name: str) -> Engine:
    """Return the built-in Tarot engine ``name`` of ``engines`` as an :data:`Engine`;
    raise ``KeyError`` for a name it does not have."""
    play = engines[name]

    async def engine(params: Mapping[str, str]) -> str:
        return play(params)

    return engine


def url_engine(client: httpx.AsyncClient, url: str, timeout: int = DEFAULT_TIMEOUT) -> Engine:
    """Return the Tournoyons engine at ``url`` (checked, decision 13) as an
    :data:`Engine` called in tester mode with ``client`` (``Game=TEST``, ``MoveId`` =
    ``Turn``, ``Status=0``, ``TimeOut``, an empty ``Referee``), each call within
    ``timeout`` seconds; raise ``ValueError`` for a URL an engine may not have."""
    checked = check_engine_url(url)

    async def engine(params: Mapping[str, str]) -> str:
        call = {"Set": params["Set"], "Game": "TEST", "MoveId": params["Turn"]}
        call.update({"Turn": params["Turn"], "Status": "0", "TimeOut": str(timeout)})
        call.update({k: v for k, v in params.items() if k not in call})
        call["Referee"] = ""
        status, body, _error = await tester_call(client, engine_url(checked, call), timeout)
        return body.decode("utf-8", "replace").strip() if status == 200 else ""

    return engine
