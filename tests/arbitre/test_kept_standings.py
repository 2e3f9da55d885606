"""A tournament's standings kept as its games end: the standings, cross table and table of
meetings read from the kept counts are the ones computed from every game (the pure
functions the standings have always been computed with, on the games read back), whether
kept game by game or filled anew (``Store.backfill_kept``, a batch of tournaments per
transaction), for two seats (wins, draws, errors, interrupted games, byes) and at tables
of four (ranks shared, fillers, a failed seat); on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.arbitre.postgres import new_database, postgres_server
from tournoyons_gui.arbitre.standings import (
    cross_table,
    kept_cross_table,
    kept_standings,
    standings,
)
from tournoyons_gui.arbitre.store import (
    Entrant,
    Game,
    GameEnd,
    Seat,
    SeatEnd,
    Store,
    Tournament,
    new_id,
)
from tournoyons_gui.arbitre.tables import (
    kept_meetings,
    kept_table_standings,
    meetings,
    table_standings,
)
from tournoyons_gui.arbitre.tournaments.scheduler import game_results, table_results

OWNER = "tester"


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "standings.sqlite3")
    return new_database(str(request.getfixturevalue("postgres")), "standings")


async def make_tournament(store: Store, kind: str, count: int) -> tuple[str, list[str]]:
    tournament_id = new_id(12)
    names = [f"entrant {n}" for n in range(count)]
    await store.create_tournament(
        Tournament(tournament_id, "cup", "Nim", kind, 2, 3, 4, {}, "running", [], store.now()),
        [Entrant("builtin", name, "random") for name in names],
    )
    return tournament_id, names


def _game(store: Store, tournament_id: str, pairing: int, first: int, second: int) -> Game:
    return Game(
        id=new_id(12),
        set_name="Nim",
        status="playing",
        options={},
        turn={},
        first={},
        moves=3,
        winner=None,
        result="",
        reason="",
        created_at=store.now(),
        lease_owner=OWNER,
        lease_until=store.now() + dt.timedelta(hours=1),
        tournament_id=tournament_id,
        round=1 + pairing // 10,
        pairing=pairing,
        entrant1=first,
        entrant2=second,
    )


def _seat(game_id: str, index: int, entrant: int | None) -> Seat:
    return Seat(game_id, index, "builtin", f"e{entrant}", "random", new_id(10), new_id(32),
                entrant=entrant)  # fmt: skip


async def play_two(
    store: Store, rng: random.Random, tournament_id: str, count: int, start: int = 0
) -> None:
    """Games between two entrants: won, drawn, in error, interrupted; some left in play,
    some ending together."""
    pending = []
    for pairing in range(start, start + 70):
        first, second = rng.sample(range(count), 2)
        game = _game(store, tournament_id, pairing, first, second)
        seats = [_seat(game.id, 0, first), _seat(game.id, 1, second)]
        await store.create_game(game, seats)
        if rng.random() < 0.05:
            continue  # in play
        ending = rng.choice(["won", "won", "won", "drawn", "error", "interrupted"])
        if ending == "won":
            winner = rng.randrange(2)
            end = GameEnd("over", winner, f"seat{winner + 1}", "won")
        elif ending == "drawn":
            end = GameEnd("over", None, "draw", "drawn")
        elif ending == "error":
            end = GameEnd("over", None, "error", "failed")
        else:
            end = GameEnd("interrupted", None, "error", "stopped")
        pending.append(store.finish_game(game.id, OWNER, end, [(s, SeatEnd(1)) for s in seats], []))
        if len(pending) >= rng.choice([1, 1, 3]):
            assert all(await asyncio.gather(*pending))
            pending = []
    assert all(await asyncio.gather(*pending))


async def play_tables(store: Store, rng: random.Random, tournament_id: str, count: int) -> None:
    """Games at tables of four: ranks shared, a filler's seat, a failed seat, errors."""
    for pairing in range(40):
        seated: list[int | None] = list(rng.sample(range(count), 4))
        if rng.random() < 0.3:
            seated[rng.randrange(4)] = None  # a filler
        game = _game(store, tournament_id, pairing, 0, 0)
        game.entrant1 = game.entrant2 = None
        seats = [_seat(game.id, index, entrant) for index, entrant in enumerate(seated)]
        await store.create_game(game, seats)
        if rng.random() < 0.1:
            end = GameEnd("over", None, "error", "failed")
            ends = [(s, SeatEnd(9 if s.index == 0 else 1)) for s in seats]
        else:
            ranks = [rng.choice([1, 2, 2, 3, 4]) for _ in seats]
            end = GameEnd("over", None, "ranked", "ranked")
            ends = [
                (s, SeatEnd(9 if rng.random() < 0.1 else 1, rank=rank, score=rng.randint(-50, 90)))
                for s, rank in zip(seats, ranks, strict=True)
            ]
        assert await store.finish_game(game.id, OWNER, end, ends, [])


def assert_same(kept: Sequence[Any], computed: Sequence[Any]) -> None:
    """The same lines in the same order, floats equal to the last digits."""
    assert len(kept) == len(computed)
    for mine, theirs in zip(kept, computed, strict=True):
        for name, value in dataclasses.asdict(mine).items():
            other = getattr(theirs, name)
            if isinstance(value, float):
                assert value == pytest.approx(other, rel=1e-12), name
            else:
                assert value == other, name


async def assert_kept_as_computed(store: Store, tournament_id: str, names: list[str]) -> None:
    found = await store.tournament(tournament_id, positions=False)
    assert found is not None
    row, _, games = found
    kept = await store.kept_standings(tournament_id)
    if row.format == "tables":
        seats = await store.tournament_seats(tournament_id)
        at_tables = table_results(games, seats)
        # Buchholz summed exactly from the kept pairs, game by game in floats from the
        # games: equal to the last digits.
        assert_same(
            kept_table_standings(names, kept.scores, kept.pairs), table_standings(names, at_tables)
        )
        assert kept_meetings(len(names), kept.pairs) == meetings(len(names), at_tables)
    else:
        results = game_results(games, row.byes or [])
        assert kept_standings(names, kept.scores, kept.pairs, row.byes) == standings(names, results)
        assert kept_cross_table(len(names), kept.pairs) == cross_table(len(names), results)


async def _scenario(url: str) -> None:
    rng = random.Random(40)
    store = await Store.open(url)
    try:
        two, names = await make_tournament(store, "swiss", 7)
        await store.save_byes(two, [[1, 3], [2, 5]])
        await play_two(store, rng, two, len(names))
        tables, table_names = await make_tournament(store, "tables", 9)
        await play_tables(store, rng, tables, len(table_names))
        empty, empty_names = await make_tournament(store, "round-robin", 3)
        for tournament_id, entrants in ((two, names), (tables, table_names)):
            await assert_kept_as_computed(store, tournament_id, entrants)
        await assert_kept_as_computed(store, empty, empty_names)
        before = {t: await store.kept_standings(t) for t in (two, tables)}
        # Filled anew from the games, a batch of tournaments per transaction: the same.
        await store.backfill_kept()
        for tournament_id, entrants in ((two, names), (tables, table_names)):
            await assert_kept_as_computed(store, tournament_id, entrants)
            again = await store.kept_standings(tournament_id)
            assert again.scores == before[tournament_id].scores
            assert again.pairs == before[tournament_id].pairs
        # Games ending after the fill are kept on from there.
        await play_two(store, rng, two, len(names), start=100)
        await assert_kept_as_computed(store, two, names)
    finally:
        await store.close()


@pytest.mark.slow
def test_kept_standings_are_the_ones_computed_from_every_game(database: str) -> None:
    asyncio.run(_scenario(database))
