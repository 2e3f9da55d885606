"""MaitreTarot clients of the tests' own, written from the seed's tables (001, tables 3 to
15) with ``struct`` and a socket, not with our codec: what a real MaitreTarot client does,
and what a broken one does (a wrong card, garbage, silence, leaving, stopping)."""

from __future__ import annotations

import asyncio
import contextlib
import struct
from dataclasses import dataclass, field
from typing import NoReturn

from tournoyons_gui.interfaces.tarot.play import ecart_choices, legal_cards


@dataclass
class Behaviour:
    """How a client misbehaves: ``wrong_card`` sends a card it does not hold first (once);
    ``garbage_at``/``silent_at``/``leave_at`` do so at that card of the match (1 the
    first); ``replay`` its answer to the replay question; ``server_id`` the id it asks;
    ``garbage_first`` sends garbage as soon as it has the names, before the first deal;
    ``garbage_at_dog`` sends garbage when it is shown the dog and is not the taker, then
    sets ``dog_garbage``; a taker with ``dog_garbage`` waits for it before its écart;
    ``leave_at_bid`` closes its connection when first asked for its bid; ``card_delay``
    waits that many seconds before each card it plays (a match that lasts)."""

    wrong_card: bool = False
    garbage_at: int = 0
    silent_at: int = 0
    leave_at: int = 0
    replay: int = 1
    server_id: int = 1
    bid: int = 0
    garbage_first: bool = False
    garbage_at_dog: bool = False
    dog_garbage: asyncio.Event | None = None
    leave_at_bid: bool = False
    card_delay: float = 0.0


@dataclass
class Seen:
    """What a client saw: its place, the names, scores (8 gints each), replay answers,
    acks, how it ended."""

    place: int = -1
    names: list[str] = field(default_factory=list)
    scores: list[tuple[int, ...]] = field(default_factory=list)
    replays: list[int] = field(default_factory=list)
    acks: list[int] = field(default_factory=list)
    deals: int = 0
    ended: str = ""
    server_id: int = 0


class SeedClient:
    """One client: ``await play()`` until the server ends the match or the connection."""

    def __init__(self, port: int, nick: str, behaviour: Behaviour | None = None) -> None:
        self.port = port
        self.nick = nick.encode()
        self.how = behaviour or Behaviour()
        self.seen = Seen()
        self.cards_played = 0
        self.wrong_sent = False

    async def gints(self, n: int) -> tuple[int, ...]:
        data = await self.reader.readexactly(4 * n)
        return struct.unpack(f"<{n}i", data)

    async def put(self, *values: int) -> None:
        self.writer.write(struct.pack(f"<{len(values)}i", *values))
        await self.writer.drain()

    async def play(self) -> Seen:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            await self._play()
        except asyncio.IncompleteReadError:
            self.seen.ended = self.seen.ended or "closed by the server"
        except (ConnectionError, OSError):
            self.seen.ended = self.seen.ended or "connection reset"
        finally:
            self.writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await self.writer.wait_closed()
        return self.seen

    async def _play(self) -> None:
        # Table 3.
        await self.put(self.how.server_id, 1)
        server_id, _version = await self.gints(2)
        self.seen.server_id = server_id
        if server_id == -1:
            self.seen.ended = "wrong id"
            await self.reader.read()  # the server closes
            return
        (protocol,) = await self.gints(1)
        assert protocol == 1
        await self.put(1)
        (self.seen.place,) = await self.gints(1)
        await self.put(len(self.nick))
        self.writer.write(self.nick)
        # Table 4.
        lengths = await self.gints(4)
        text = await self.reader.readexactly(sum(lengths))
        at = 0
        for length in lengths:
            self.seen.names.append(text[at : at + length].decode())
            at += length
        if self.how.garbage_first:
            await self._garbage()
        while True:
            if not await self._deal():
                return

    async def _deal(self) -> bool:
        assert await self.gints(2) == (0, 0)  # NEW_GAME
        assert await self.gints(2) == (1, 0)  # DILL_CARDS
        hand = list(await self.gints(18))
        first = await self.gints(2)
        if first == (2, 0):
            score = await self._bids_and_play(hand)
        else:  # a petit sec: the score already
            score = first + await self.gints(6)
        return await self._end(score)

    async def _maybe_score(self, head: tuple[int, ...], rest: int) -> tuple[int, ...] | None:
        """Read the rest of a message whose first gints are ``head``; a score of a deal
        not played when they are four 0s."""
        if head[:4] == (0, 0, 0, 0) and len(head) >= 4:
            return head + await self.gints(8 - len(head))
        return None

    async def _bids_and_play(self, hand: list[int]) -> tuple[int, ...]:
        place = self.seen.place
        for _ in range(4):
            bids = await self.gints(4)
            if (score := await self._maybe_score(bids, 4)) is not None:
                return score
            (question,) = await self.gints(1)
            if question and self.how.leave_at_bid:
                self.writer.close()
                raise ConnectionResetError
            if question:
                best = max(bids)
                await self.put(self.how.bid if self.how.bid > best else 0)
        point = await self.gints(2)
        if point != (3, 0):
            return point + await self.gints(6)
        final = await self.gints(4)
        contract = max(final)
        if contract <= 2:
            dog = list(await self.gints(6))
            if contract == 0:
                return await self.gints(8)
            if self.how.garbage_at_dog and final.index(contract) != place:
                await self._garbage()
            if final.index(contract) == place:
                if self.how.dog_garbage is not None:
                    await self.how.dog_garbage.wait()
                held = sorted(set(hand) | set(dog))
                allowed, _trumps = ecart_choices(held)
                plain = [c for c in allowed if c < 56]
                ecart = (plain + [c for c in allowed if c >= 56])[:6]
                await self.put(*ecart)
                (ack,) = await self.gints(1)
                self.seen.acks.append(ack)
                hand = [c for c in held if c not in ecart]
        point = await self.gints(2)
        if point != (4, 0):
            return point + await self.gints(6)
        assert await self.gints(2) == (5, 0)
        for _ in range(18 * 4):
            shown = await self.gints(4)
            if (score := await self._maybe_score(shown, 4)) is not None:
                return score
            await self.gints(4)
            (question,) = await self.gints(1)
            if question:
                played = sum(1 for card in shown if card != -1)
                leader = (place - played) % 4
                in_order = [shown[(leader + step) % 4] for step in range(played)]
                hand = await self._card(hand, in_order)
        await self.gints(4)  # the last trick
        return await self.gints(8)

    async def _garbage(self) -> NoReturn:
        """Send garbage, tell ``dog_garbage``, and wait for the server to close."""
        self.writer.write(b"\xde\xad\xbe\xef" * 8)
        await self.writer.drain()
        if self.how.dog_garbage is not None:
            self.how.dog_garbage.set()
        await self.reader.read()
        raise asyncio.IncompleteReadError(b"", None)

    async def _card(self, hand: list[int], played: list[int]) -> list[int]:
        self.cards_played += 1
        if self.how.card_delay:
            await asyncio.sleep(self.how.card_delay)
        if self.cards_played == self.how.garbage_at:
            await self._garbage()
        if self.cards_played == self.how.silent_at:
            await self.reader.read()
            raise asyncio.IncompleteReadError(b"", None)
        if self.cards_played == self.how.leave_at:
            self.writer.close()
            raise ConnectionResetError
        if self.how.wrong_card and not self.wrong_sent:
            self.wrong_sent = True
            await self.put(next(c for c in range(78) if c not in hand))
            (ack,) = await self.gints(1)
            self.seen.acks.append(ack)
        for card in legal_cards(hand, played):
            await self.put(card)
            (ack,) = await self.gints(1)
            self.seen.acks.append(ack)
            if ack == 1:
                return [c for c in hand if c != card]
        raise AssertionError("no card of the hand was taken")

    async def _end(self, score: tuple[int, ...]) -> bool:
        self.seen.scores.append(score)
        self.seen.deals += 1
        await self.gints(6)  # the dog at the end
        await self.put(self.how.replay)
        (again,) = await self.gints(1)
        self.seen.replays.append(again)
        if not again:
            self.seen.ended = "replay 0"
        return again == 1
