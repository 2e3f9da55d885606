"""MaitreTarot tables over real TCP on 127.0.0.1: clients of the tests' own, written from
the seed's tables (:mod:`tests.arbitre.maitretarot_clients`), at our server's tables,
each following a stand-in of a Tarot match (:mod:`tests.arbitre.maitretarot_standin`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tests.arbitre.maitretarot_clients import Behaviour, SeedClient, Seen
from tests.arbitre.maitretarot_standin import StandIn
from tournoyons_gui.arbitre.maitretarot.lobby import Lobby, Opening, Settings
from tournoyons_gui.arbitre.maitretarot.peer import Peer
from tournoyons_gui.arbitre.maitretarot.table import Table

Games = list[StandIn]


async def serving(
    settings: Settings,
    body: Callable[[int, Games], Awaitable[Any]],
    places: list[int] | None = None,
    before: Callable[[dict[int, Peer]], Awaitable[None]] | None = None,
    **standin: Any,
) -> Any:
    """Run a MaitreTarot server on a free port while ``body(port, games)`` runs; every
    table's stand-in match is appended to ``games``; ``before(peers)`` is awaited before
    each table plays."""
    games: Games = []
    seats = places or [0, 1, 2, 3]

    async def start(opening: Opening, peers: dict[int, Peer], names: list[str]) -> None:
        if before is not None:
            await before(peers)
        game = StandIn(set(peers), deals=settings.deals, **standin)
        games.append(game)
        await Table(peers, game, settings.timeout).run()

    lobby = Lobby(settings, lambda: Opening(list(seats), {}, start))
    server = await asyncio.start_server(lobby.handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        return await body(port, games)
    finally:
        server.close()
        await lobby.close()
        await server.wait_closed()


def run(
    clients: list[Behaviour | None],
    settings: Settings | None = None,
    places: list[int] | None = None,
    before: Callable[[dict[int, Peer]], Awaitable[None]] | None = None,
    **standin: Any,
) -> tuple[list[Seen], Games]:
    """Connect ``clients`` one after the other, play until every one has ended; return
    what each saw and the matches (``before``: see :func:`serving`)."""

    async def body(port: int, games: Games) -> tuple[list[Seen], Games]:
        players = [SeedClient(port, f"nick{n}", how) for n, how in enumerate(clients)]
        tasks = []
        for player in players:
            tasks.append(asyncio.create_task(player.play()))
            await asyncio.sleep(0.02)  # connection order
        seen = await asyncio.wait_for(asyncio.gather(*tasks), 60)
        return list(seen), games

    result: tuple[list[Seen], Games] = asyncio.run(
        serving(settings or Settings(timeout=5), body, places, before, **standin)
    )
    return result


def test_four_clients_play_a_whole_match_of_four_deals() -> None:
    seen, games = run([Behaviour(bid=2), None, Behaviour(bid=1), None])
    (game,) = games
    assert [s.place for s in seen] == [0, 1, 2, 3]
    assert all(s.names == ["nick0", "nick1", "nick2", "nick3"] for s in seen)
    assert all(s.deals == 4 and s.replays == [1, 1, 1, 0] for s in seen)
    last = [s.scores[-1] for s in seen]
    assert all(score[4:] == tuple(game.totals) for score in last)
    assert sum(game.totals) == 0 and game.totals != [0, 0, 0, 0]
    assert len([m for m in game.moves if len(m.value) == 2]) == 4 * 72  # every card
    assert all(ack == 1 for s in seen for ack in s.acks)


def test_a_table_of_two_clients_and_two_other_seats() -> None:
    seen, games = run([None, Behaviour(bid=1)], places=[1, 3], bids={0: 2})
    assert [s.place for s in seen] == [1, 3]
    assert all(s.deals == 4 and s.replays[-1] == 0 for s in seen)
    assert seen[0].names[0] == "place 1" and seen[0].names[1] == "nick0"
    assert seen[0].scores[-1][4:] == tuple(games[0].totals)


def test_an_illegal_card_gets_ack_0_then_a_legal_one_is_taken() -> None:
    seen, games = run([Behaviour(wrong_card=True, bid=2), None, None, None], Settings(deals=1))
    assert seen[0].acks[:3] == [1, 0, 1]  # the écart, the wrong card, the right one
    assert games[0].failed is None and all(s.replays == [0] for s in seen)


def test_garbage_fails_its_client_and_the_others_end_cleanly() -> None:
    seen, games = run([None, Behaviour(garbage_at=3, bid=1), None, None])
    (game,) = games
    assert game.failed is not None and game.failed[0] == 1
    assert game.failed[1].error == "illegal"
    assert seen[1].ended == "closed by the server"
    for other in (seen[0], seen[2], seen[3]):
        assert other.ended == "replay 0" and other.scores[-1][:4] == (0, 0, 0, 0)


def test_garbage_before_the_first_deal_fails_its_client_and_the_others_end_cleanly() -> None:
    async def garbage_read(peers: dict[int, Peer]) -> None:
        while peers[2].fault is None:  # the table starts once place 2's garbage is read
            await asyncio.sleep(0.01)

    seen, games = run([None, None, Behaviour(garbage_first=True), None], before=garbage_read)
    (game,) = games
    assert game.failed is not None and game.failed[0] == 2
    assert game.failed[1].error == "illegal"
    assert seen[2].ended == "closed by the server"
    for other in (seen[0], seen[1], seen[3]):
        assert other.ended == "replay 0" and other.scores == [(0, 0, 0, 0, 0, 0, 0, 0)]


def test_garbage_as_the_dog_is_shown_ends_the_others_past_their_empty_ready() -> None:
    # The garbage is seen when READY_TO_PLAY's branch point is sent: the others are then to
    # send their empty READY_TO_PLAY, and a score may come only after SEND_TURN_CARD's.
    said = asyncio.Event()
    taker = Behaviour(bid=1, dog_garbage=said)
    seen, games = run([taker, Behaviour(garbage_at_dog=True, dog_garbage=said), None, None])
    (game,) = games
    assert game.failed is not None and game.failed[0] == 1
    assert seen[1].ended == "closed by the server"
    for other in (seen[0], seen[2], seen[3]):
        assert other.ended == "replay 0" and other.scores[-1][:4] == (0, 0, 0, 0)


def test_a_silent_client_fails_after_the_timeout() -> None:
    seen, games = run([None, None, Behaviour(silent_at=2, bid=3), None], Settings(timeout=1))
    assert games[0].failed is not None and games[0].failed[1].error == "late"
    assert all(s.ended == "replay 0" for n, s in enumerate(seen) if n != 2)


def test_a_client_leaving_mid_trick_fails() -> None:
    seen, games = run([None, None, None, Behaviour(leave_at=5, bid=4)])
    assert games[0].failed is not None and games[0].failed[0] == 3
    assert games[0].failed[1].error == "unreachable"
    assert all(s.ended == "replay 0" for s in seen[:3])


def test_a_client_answering_0_to_the_replay_question_ends_the_match() -> None:
    seen, games = run([None, Behaviour(replay=0), None, None])
    assert all(s.deals == 1 and s.replays == [0] for s in seen)
    assert games[0].stopped == 1 and games[0].failed is None


def test_a_wrong_server_id_gets_minus_1_and_the_table_still_fills() -> None:
    seen, _games = run([Behaviour(server_id=7), None, None, None, None], Settings(deals=1))
    assert seen[0].server_id == -1 and seen[0].ended == "wrong id"
    assert [s.place for s in seen[1:]] == [0, 1, 2, 3]
    assert all(s.replays == [0] for s in seen[1:])


def test_twenty_tables_at_once() -> None:
    seen, games = run([Behaviour(bid=1)] * 80, Settings(deals=1))
    assert len(games) == 20
    assert all(s.deals == 1 and s.ended == "replay 0" for s in seen)
    for game in games:
        assert len(game.moves) >= 72 and game.failed is None


def test_garbage_or_silence_before_identification_frees_the_place() -> None:
    async def body(port: int, games: Games) -> list[Seen]:
        _, flood = await asyncio.open_connection("127.0.0.1", port)
        flood.write(b"\x01\0\0\0\x01\0\0\0" + b"\xff" * 100_000)  # GET_ID, then junk
        _, silent = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.sleep(0.2)
        players = [SeedClient(port, f"nick{n}", Behaviour(bid=1)) for n in range(4)]
        seen = await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 60)
        for writer in (flood, silent):
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()
        return list(seen)

    settings = Settings(deals=1, identify_seconds=0.5, timeout=5)
    seen = asyncio.run(serving(settings, body))
    assert sorted(s.place for s in seen) == [0, 1, 2, 3]
    assert all(s.ended == "replay 0" for s in seen)


def test_connections_beyond_the_limit_are_closed_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Twenty more than the limit: each is closed without a byte, and the log says so in
    # one line with the count, not twenty (a flood must not flood the log).
    async def body(port: int, games: Games) -> list[bytes]:
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(3)]
        await asyncio.sleep(0.1)
        gone = []
        for _ in range(20):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            gone.append(await asyncio.wait_for(reader.read(), 5))
            held.append((reader, writer))
        for _, other in held:
            other.close()
            with contextlib.suppress(ConnectionError):
                await other.wait_closed()
        return gone

    with caplog.at_level(logging.WARNING, logger="tournoyons_gui.arbitre.maitretarot.lobby"):
        assert asyncio.run(serving(Settings(max_clients=3), body)) == [b""] * 20
    lines = [r.getMessage() for r in caplog.records if "more closed" in r.getMessage()]
    assert lines == ["MaitreTarot: 3 connections held, 1 more closed"], lines
