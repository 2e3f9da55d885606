"""The ladder's records, straight through the store on a SQLite file: a pair made with its
engines' slots (an engine of concurrency 1 in one pair at a time, a pair's number and a
leg made once), a game's end (the next leg freed, the rest started, the faults counted,
three in a row pausing the engine with the last one's kind, message and game; a game
played without a fault ending the run), the slots given back when the pair is over or
given up, and an owner's change bringing the standings in line."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

import pytest

from tournoyons_gui.arbitre.store import (
    Conflict,
    Engine,
    Game,
    GameEnd,
    LadderPlace,
    Seat,
    SeatEnd,
    Store,
    new_id,
)
from tournoyons_gui.arbitre.store.ladder import OFF, PAUSED, PROVISIONAL

SET = "TicTacToe"
OWNER = "worker-1"


async def _engine(store: Store, name: str, **ladder: object) -> Engine:
    engine = Engine(
        new_id(10),
        name,
        f"http://{name}.test/",
        [SET],
        False,
        False,
        store.now(),
        secret=f"token-{name}",
        ladder=True,
        **ladder,  # type: ignore[arg-type]
    )
    await store.add_engine(engine)
    return engine


async def _game(store: Store, engines: tuple[str, ...], place: LadderPlace) -> str:
    """Make a ladder game of ``engines`` (in seat order) at ``place``; return its id."""
    game = Game(
        new_id(12),
        SET,
        "playing",
        {},
        {},
        {},
        0,
        None,
        "",
        "",
        store.now(),
        lease_owner=OWNER,
        lease_until=store.now() + dt.timedelta(hours=1),
        ladder=True,
    )
    seats = [
        Seat(game.id, i, "engine", e, "http://x.test/", new_id(10), new_id(26), registration=e)
        for i, e in enumerate(engines)
    ]
    await store.create_game(game, seats, ladder=place)
    return game.id


async def _end(store: Store, game_id: str, faults: dict[int, str]) -> None:
    """End a game: the seat without a fault wins; ``faults`` by seat index."""
    found = await store.game(game_id)
    assert found is not None
    _, seats = found
    winner = next(s.index for s in seats if s.index not in faults)
    ends = [
        (
            seat,
            SeatEnd(
                9 if seat.index in faults else 1,
                f"no answer within 4 s ({seat.index})" if seat.index in faults else "",
                2 if seat.index in faults else 1,
                None,
                faults.get(seat.index, ""),
            ),
        )
        for seat in seats
    ]
    end = GameEnd("over", winner, f"seat{winner + 1}", "")
    assert await store.finish_game(game_id, OWNER, end, ends, [])


def _place(pair: int, leg: int, engines: tuple[str, ...]) -> LadderPlace:
    return LadderPlace(SET, pair, leg, 2, engines, None, "", 7)


def test_slots_rests_faults_and_a_pause_are_kept_in_the_records(tmp_path: Path) -> None:
    asyncio.run(_scenario(str(tmp_path / "ladder.sqlite3")))


async def _scenario(url: str) -> None:
    store = await Store.open(url)
    try:
        dead = await _engine(store, "dead", ladder_rest=60)
        good = await _engine(store, "good", ladder_concurrency=2)
        other = await _engine(store, "other")
        pair = (dead.id, good.id)
        first = await _game(store, pair, _place(0, 0, pair))
        # One slot each taken; the dead one (concurrency 1) has none left.
        assert (await store.registered(dead.id)).ladder_held == 1  # type: ignore[union-attr]
        with pytest.raises(Conflict):
            await _game(store, (dead.id, other.id), _place(1, 0, (dead.id, other.id)))
        # A pair's number and a leg are made once.
        with pytest.raises(Conflict):
            await _game(store, (good.id, other.id), _place(0, 0, (good.id, other.id)))
        with pytest.raises(Conflict):
            await _game(store, pair[::-1], _place(0, 1, pair))  # leg 0 still in play
        await _end(store, first, {0: "timeout"})
        dead_now = await store.registered(dead.id)
        assert dead_now is not None and dead_now.ladder_faults == 1 and dead_now.ladder_held == 1
        assert dead_now.ladder_rest_until is not None
        rest = (dead_now.ladder_rest_until - store.now()).total_seconds()
        assert 55 < rest <= 60
        # Resting, it is no candidate; the good one is (a slot left).
        state = await store.ladder_state(SET, store.now())
        assert state is not None
        assert {c.id for c in state.candidates} == {good.id, other.id}
        assert [(p.number, p.made, p.playing) for p in state.open] == [(0, 1, None)]
        second = await _game(store, pair[::-1], _place(0, 1, pair))
        await _end(store, second, {1: "unreachable"})
        # The pair is over: its slots are given back.
        assert (await store.registered(dead.id)).ladder_held == 0  # type: ignore[union-attr]
        assert (await store.registered(good.id)).ladder_held == 0  # type: ignore[union-attr]
        # Resting, no new pair takes it; its owner lets it play at once from now.
        with pytest.raises(Conflict):
            await _game(store, pair, _place(1, 0, pair))
        changes = {"ladder_rest": 0, "ladder_rest_until": None}
        await store.update_engine(dead.id, "token-dead", changes)
        # A game played without a fault ends the run of faults...
        third = await _game(store, pair, _place(1, 0, pair))
        await _end(store, third, {1: "illegal"})
        assert (await store.registered(dead.id)).ladder_faults == 0  # type: ignore[union-attr]
        assert await store.give_up_pair(SET, 1) and not await store.give_up_pair(SET, 1)
        # ... three in a row pause it, with the last one's kind, message and game.
        games = []
        for number, leg in ((2, 0), (2, 1), (3, 0)):
            seats = pair if leg == 0 else pair[::-1]
            games.append(await _game(store, seats, _place(number, leg, pair)))
            await _end(store, games[-1], {seats.index(dead.id): "timeout"})
        paused = await store.registered(dead.id)
        assert paused is not None and paused.ladder_paused == "timeout"
        assert paused.ladder_paused_game == games[-1] and "no answer" in paused.ladder_reason
        board, _ = await store.ladder_board(SET)
        assert [(line.name, line.tier) for line in board][-1] == ("dead", PAUSED)
        assert board[-1].paused == "timeout" and board[-1].last_game == games[-1]
        # Paused, its open pair is no longer a candidate's; owned changes bring it back.
        state = await store.ladder_state(SET, store.now())
        assert state is not None and dead.id not in {c.id for c in state.candidates}
        assert not state.seated[dead.id].playable
        await store.update_engine(dead.id, "token-dead", {"ladder": True, "ladder_paused": ""})
        board, _ = await store.ladder_board(SET)
        assert ("dead", PROVISIONAL) in [(line.name, line.tier) for line in board]
        await store.update_engine(other.id, "token-other", {"sets": ["Reversi"]})
        names = {line.name for line in (await store.ladder_board(SET))[0]}
        assert "other" not in names and "other" in {
            line.name for line in (await store.ladder_board("Reversi"))[0]
        }
        await store.update_engine(good.id, "token-good", {"retired": True, "ladder": False})
        assert "good" not in {line.name for line in (await store.ladder_board(SET))[0]}
        meetings = await store.engine_meetings(good.id)
        assert meetings[SET][0].name == "dead" and meetings[SET][0].games == 6
        assert (meetings[SET][0].won, meetings[SET][0].lost) == (5, 1)
        assert OFF not in {line.tier for line in board}
    finally:
        await store.close()
