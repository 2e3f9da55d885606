"""A registered engine's record kept as its games end: the kept results,
opponents, ratings and games equal what the record computed from every game before
(the old algorithm, kept here as the reference), whether kept game by game, filled anew
(``Store.backfill_kept``) or filled by the upgrade from schema 11; its pages are read
along indexes; on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import csv
import datetime as dt
import io
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Connection, select, text

from tests.arbitre.conftest import Served
from tests.arbitre.postgres import new_database, postgres_server
from tests.arbitre.test_ops import LISTS_12
from tournoyons_gui.arbitre.standings import GameResult, rating_history
from tournoyons_gui.arbitre.store import (
    Engine,
    Entrant,
    Game,
    GameEnd,
    Seat,
    SeatEnd,
    Store,
    Tournament,
    new_id,
)
from tournoyons_gui.arbitre.store.engine_records import games_page_statement, opponents_statement
from tournoyons_gui.arbitre.store.kept_records import level_of
from tournoyons_gui.arbitre.store.records import record_of
from tournoyons_gui.arbitre.store.schema import GameRow, SeatRow
from tournoyons_gui.arbitre.store.tournaments import tournament_games_statement
from tournoyons_gui.arbitre.tournaments import engine_record as engine_record_module
from tournoyons_gui.arbitre.tournaments.engine_record import RecordPage, engine_record
from tournoyons_gui.arbitre.web import tournament_api

OWNER = "tester"
SETS = ("Nim", "TicTacToe")
KEPT = ("engine_rating_points", "engine_opponent_ratings", "engine_opponents", "engine_sets")


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database's URL: a SQLite file, or a new database of the PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "records.sqlite3")
    return new_database(str(request.getfixturevalue("postgres")), "records")


# --- the games ---------------------------------------------------------------------------


async def register(store: Store, name: str) -> str:
    engine_id = new_id(12)
    await store.add_engine(
        Engine(engine_id, name, f"http://{name}.test/", list(SETS), False, False, store.now())
    )
    return engine_id


async def play(
    store: Store, rng: random.Random, players: list[tuple[str, str]], games: int
) -> None:
    """Play ``games`` games between ``players`` (name, registration or ``""``): two
    seats mostly, some of four, one alone, an engine against itself; every ending:
    won, lost, drawn, in error, interrupted; a few left in play."""
    for number in range(games):
        seats_count = rng.choice([2] * 8 + [4, 1])
        chosen = [rng.choice(players) for _ in range(seats_count)]
        if number % 17 == 0 and seats_count == 2:
            chosen[1] = chosen[0]  # against itself
        game = Game(
            id=new_id(12),
            set_name=rng.choice(SETS),
            status="playing",
            options={},
            turn={"state": "x" * 50},
            first={},
            moves=rng.randint(0, 60),
            winner=None,
            result="",
            reason="",
            created_at=store.now(),
            lease_owner=OWNER,
            lease_until=store.now() + dt.timedelta(hours=1),
            tournament_id=rng.choice([None, "T" + new_id(8)]),
        )
        seats = [
            Seat(
                game.id,
                index,
                "engine",
                name,
                "http://x.test/",
                new_id(10),
                new_id(32),
                None,
                "",
                reg,
            )
            for index, (name, reg) in enumerate(chosen)
        ]
        await store.create_game(game, seats)
        if rng.random() < 0.05:
            continue  # still in play: not in the record
        ending = rng.choice(["won", "won", "drawn", "error", "interrupted"])
        if ending == "won":
            winner = rng.randrange(seats_count)
            end = GameEnd("over", winner, f"seat{winner + 1}", "won")
        elif ending == "drawn":
            end = GameEnd("over", None, "draw", "drawn")
        elif ending == "error":
            end = GameEnd("over", None, "error", "failed")
        else:
            end = GameEnd("interrupted", None, "error", "stopped")
        done = await store.finish_game(
            game.id, OWNER, end, [(seat, SeatEnd(1)) for seat in seats], []
        )
        assert done


# --- the record as it was computed from every game (the reference) -----------------------


def _old_outcome(game: Game, index: int) -> str:
    if game.status != "over" or game.result == "error":
        return "error"
    if game.winner is None:
        return "drawn"
    return "won" if game.winner == index else "lost"


async def old_record(store: Store, engine_id: str) -> dict[str, Any]:
    """The record as ``engine_record`` computed it before the records were kept, from every game."""

    def rows(connection: Connection) -> tuple[list[Seat], dict[str, Game], dict[str, list[Seat]]]:
        mine = [
            record_of(Seat, s)
            for s in connection.execute(
                select(SeatRow.__table__).where(SeatRow.registration == engine_id)
            )
        ]
        ids = [s.game_id for s in mine]
        games = {
            g.id: record_of(Game, g)
            for g in connection.execute(
                select(GameRow.__table__).where(GameRow.id.in_(ids), GameRow.status != "playing")
            )
        }
        seats: dict[str, list[Seat]] = {}
        for row in connection.execute(
            select(SeatRow.__table__).where(SeatRow.game_id.in_(ids)).order_by(SeatRow.index)
        ):
            seats.setdefault(row.game_id, []).append(record_of(Seat, row))
        return mine, games, seats

    mine, games, by_game = await store.read(rows)
    played = []
    per_set: dict[str, dict[str, int]] = {}
    per_opponent: dict[str, dict[str, Any]] = {}
    for seat in mine:
        game = games.get(seat.game_id)
        if game is None:
            continue
        other = next((s for s in by_game.get(game.id, []) if s.index != seat.index), None)
        outcome = _old_outcome(game, seat.index)
        played.append((game, seat, other, outcome))
        counts = per_set.setdefault(game.set_name, {"won": 0, "drawn": 0, "lost": 0, "error": 0})
        counts[outcome] += 1
        if other is not None:
            entry = per_opponent.setdefault(
                other.registration or other.name,
                {"name": other.name, "won": 0, "drawn": 0, "lost": 0, "error": 0},
            )
            entry[outcome] += 1
    played.sort(key=lambda r: (r[0].ended_at or r[0].created_at, r[0].id, r[1].index))
    history: dict[str, list[dict[str, Any]]] = {}
    for set_name in per_set:
        mine_here = [r for r in played if r[0].set_name == set_name]
        keys = sorted({(r[2].registration or r[2].name) if r[2] else "?" for r in mine_here})
        index = {key: number + 1 for number, key in enumerate(keys)}
        results = []
        for _game, _seat, other, outcome in mine_here:
            them = index[(other.registration or other.name) if other else "?"]
            winner = {"won": 0, "lost": them, "drawn": None, "error": None}[outcome]
            results.append(
                GameResult(first=0, second=them, winner=winner, error=outcome == "error")
            )
        points = rating_history(len(keys) + 1, results)[0]
        history[set_name] = [
            {
                "game": mine_here[n][0].id,
                "at": (mine_here[n][0].ended_at or mine_here[n][0].created_at).isoformat(),
                "mu": round(mu, 3),
                "sigma": round(sigma, 3),
            }
            for n, mu, sigma in points
        ]
    return {
        "per_set": per_set,
        "per_opponent": sorted(per_opponent.values(), key=lambda e: str(e["name"]).lower()),
        "ratings": history,
        "games": sorted(
            (
                {
                    "id": game.id,
                    "set": game.set_name,
                    "seat": seat.index,
                    "opponent": other.name if other else "",
                    "outcome": outcome,
                    "moves": game.moves,
                    "ended_at": game.ended_at.isoformat() if game.ended_at else None,
                    "tournament": game.tournament_id,
                }
                for game, seat, other, outcome in played
            ),
            key=lambda g: (g["id"], g["seat"]),
        ),
    }


async def whole_record(store: Store, engine_id: str, order: str = "name") -> dict[str, Any]:
    """The kept record with every page of its games and opponents read."""

    def cursor(_name: str, position: Any) -> str:
        return json.dumps(position)

    first = await engine_record(store, engine_id, RecordPage(opponents=order), cursor)
    assert first is not None
    record = dict(first)
    page: dict[str, Any] | None = first
    while page is not None and page["per_opponent_next"] is not None:
        sort, key = json.loads(page["per_opponent_next"])
        page = await engine_record(store, engine_id, RecordPage(None, order, (sort, key)), cursor)
        assert page is not None
        record["per_opponent"] = [*record["per_opponent"], *page["per_opponent"]]
    page = first
    while page is not None and page["games_next"] is not None:
        (before,) = json.loads(page["games_next"])
        page = await engine_record(store, engine_id, RecordPage(before, order), cursor)
        assert page is not None
        record["games"] = [*record["games"], *page["games"]]
    return record


async def assert_kept_as_computed(store: Store, engine_ids: list[str]) -> None:
    for engine_id in engine_ids:
        old = await old_record(store, engine_id)
        new = await whole_record(store, engine_id)
        assert new["per_set"] == old["per_set"]
        assert new["games_total"] == sum(sum(c.values()) for c in old["per_set"].values())
        assert [{k: v for k, v in o.items() if k != "games"} for o in new["per_opponent"]] == old[
            "per_opponent"
        ]
        assert all(
            o["games"] == o["won"] + o["drawn"] + o["lost"] + o["error"]
            for o in new["per_opponent"]
        )
        most = engine_record_module.MAX_POINTS
        for set_name, history in old["ratings"].items():
            count = len(history)
            numbers = list(range(1, count + 1))
            if count > most:  # every 2**level-th, the first and the last
                level = next(k for k in range(64) if count >> k <= most - 2)
                numbers = sorted({1, count, *range(2**level, count + 1, 2**level)})
                assert len(numbers) <= most
            points = new["ratings"][set_name]
            assert [p["number"] for p in points] == numbers
            assert [{k: v for k, v in p.items() if k != "number"} for p in points] == [
                history[n - 1] for n in numbers
            ]
            rating = new["rating"][set_name]
            assert rating["rated"] == count
            if points:
                assert (rating["mu"], rating["sigma"]) == (points[-1]["mu"], points[-1]["sigma"])
        assert set(new["ratings"]) == set(old["ratings"])
        # Every finished game once, newest made first.
        assert sorted(new["games"], key=lambda g: (g["id"], g["seat"])) == old["games"]
        by_games = await whole_record(store, engine_id, "games")
        counts = [o["games"] for o in by_games["per_opponent"]]
        assert counts == sorted(counts, reverse=True)
        assert sorted(by_games["per_opponent"], key=lambda o: o["name"]) == sorted(
            new["per_opponent"], key=lambda o: o["name"]
        )


async def _scenario(url: str) -> None:
    rng = random.Random(34)
    store = await Store.open(url)
    try:
        engines = [await register(store, name) for name in ("Alpha", "beta", "Gamma")]
        players = [
            *list(zip(("Alpha", "beta", "Gamma"), engines, strict=True)),
            ("zed", ""),
            ("Yann", ""),
            ("alice", ""),
        ]
        await play(store, rng, players, 160)
        # Kept game by game.
        await assert_kept_as_computed(store, engines)
        before = {e: await whole_record(store, e) for e in engines}
        # Filled anew from the games: the same, and twice the same.
        await store.backfill_kept()
        await store.backfill_kept()
        for engine_id in engines:
            assert await whole_record(store, engine_id) == before[engine_id]

        # The upgrade from schema 11 fills them from the games.
        def downgrade(connection: Connection) -> None:
            for table in KEPT:
                connection.execute(text(f"DELETE FROM {table}"))
            connection.execute(text("DROP INDEX ix_seats_registration_id"))
            for statement in LISTS_12:  # the lists' part of schema 12 too
                connection.execute(text(statement))
            connection.execute(text("UPDATE meta SET value = '11' WHERE key = 'schema'"))

        await store.write(downgrade)
        # Emptied (read from the kept table: the registrations lack the later schemas'
        # columns until the upgrade).
        assert await store.engine_sets(engines[0]) == []
    finally:
        await store.close()
    store = await Store.open(url)
    try:
        # The upgrade serves at once: the records are filled after it, a step per
        # transaction, and meanwhile a record says it is not filled yet.
        waiting = await engine_record(store, engines[0])
        assert waiting is not None and waiting["filling"] is True
        steps = 0
        while await store.fill_kept_step():
            steps += 1
        assert steps >= 1
        for engine_id in engines:
            assert await whole_record(store, engine_id) == before[engine_id]
        # Games ending after the upgrade are kept on from there.
        await play(store, rng, players, 30)
        await assert_kept_as_computed(store, engines)
    finally:
        await store.close()


@pytest.mark.slow
def test_the_kept_record_is_the_one_computed_from_every_game(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_record_module, "OPPONENTS_PER_PAGE", 2)  # pages of opponents
    monkeypatch.setattr(engine_record_module, "MAX_POINTS", 7)  # long histories spread
    asyncio.run(_scenario(database))


async def _at_once(url: str) -> None:
    rng = random.Random(5)
    store = await Store.open(url)
    try:
        engines = [await register(store, name) for name in ("One", "Two", "Three")]
        players = [*zip(("One", "Two", "Three"), engines, strict=True), ("Other", "")]
        made = []
        for _ in range(40):
            chosen = rng.sample(players, 2)
            game = Game(
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
            )
            seats = [
                Seat(game.id, i, "engine", n, "http://x.test/", new_id(10), new_id(32), None, "", r)
                for i, (n, r) in enumerate(chosen)
            ]
            await store.create_game(game, seats)
            made.append((game, seats, rng.choice([0, 1, None])))

        async def end(game: Game, seats: list[Seat], winner: int | None) -> bool:
            result = "draw" if winner is None else f"seat{winner + 1}"
            ended = GameEnd("over", winner, result, "")
            return await store.finish_game(
                game.id, OWNER, ended, [(s, SeatEnd(1)) for s in seats], []
            )

        done = await asyncio.gather(*(end(*m) for m in made))
        assert all(done)
        await assert_kept_as_computed(store, engines)
        counted = await engine_record(store, engines[0])
        assert counted is not None and counted["games_total"] > 10
    finally:
        await store.close()


def test_games_ending_at_once_are_rated_in_the_order_they_ended(database: str) -> None:
    # Every game of an engine ending at the same moment (PostgreSQL: on connections of
    # their own): none is lost, none fails, and the ratings follow their ends' order.
    asyncio.run(_at_once(database))


def test_a_rating_points_level_is_the_power_of_two_dividing_its_number() -> None:
    assert [level_of(n) for n in (1, 2, 3, 4, 6, 8, 24, 40, 1024)] == [0, 1, 0, 2, 1, 3, 3, 3, 10]


# --- the pages' queries use indexes ------------------------------------------------------


async def _plans(url: str) -> list[str]:
    store = await Store.open(url)
    try:
        statements = [
            games_page_statement("ENGINE", None, 51),
            games_page_statement("ENGINE", 1000, 51),
            opponents_statement("ENGINE", "name", None, 101),
            opponents_statement("ENGINE", "name", ("m", "KEY"), 101),
            opponents_statement("ENGINE", "games", (10, "KEY"), 101),
            tournament_games_statement("TOURNAMENT", None, 500),
            tournament_games_statement("TOURNAMENT", (store.now(), "GAME"), 500),
        ]

        def explain(connection: Connection) -> list[str]:
            plans = []
            postgres = connection.dialect.name == "postgresql"
            if postgres:
                connection.execute(text("SET enable_seqscan = off"))
            for statement in statements:
                compiled = statement.compile(
                    dialect=connection.dialect, compile_kwargs={"literal_binds": True}
                )
                if postgres:
                    plan = connection.execute(text(f"EXPLAIN (FORMAT JSON) {compiled}")).scalar()
                    plans.append(json.dumps(plan))
                else:
                    rows = connection.execute(text(f"EXPLAIN QUERY PLAN {compiled}")).all()
                    plans.append(" | ".join(str(r[-1]) for r in rows))
            return plans

        return await store.read(explain)
    finally:
        await store.close()


def test_the_engine_pages_queries_read_along_indexes(database: str) -> None:
    plans = asyncio.run(_plans(database))
    games, games_after, by_name, by_name_after, by_games, tournament, tournament_after = plans
    for plan in (games, games_after):
        assert "ix_seats_registration_id" in plan, plan
    for plan in (by_name, by_name_after):
        assert "ix_engine_opponents_name" in plan, plan
    assert "ix_engine_opponents_games" in by_games, by_games
    for plan in (tournament, tournament_after):
        assert "ix_games_tournament_created" in plan, plan
    for plan in plans:
        for table in ("seats", "games", "engine_opponents"):
            assert f"SCAN {table} " not in plan + " ", plan
        assert "Seq Scan" not in plan, plan
        assert "USE TEMP B-TREE" not in plan, plan


# --- the pages, served -------------------------------------------------------------------


async def _fill(path: Path) -> tuple[str, str, list[str]]:
    """Fill a SQLite file: three registered engines' games and a tournament of 7 games
    (over); return an engine's id, the tournament's id and its games' ids in order."""
    rng = random.Random(7)
    store = await Store.open(str(path))
    try:
        engines = [await register(store, name) for name in ("Alpha", "beta", "Gamma")]
        named = list(zip(("Alpha", "beta", "Gamma"), engines, strict=True))
        await play(store, rng, [*named, ("=zed", ""), ("Yann", "")], 140)
        tournament_id = "T" + new_id(11)
        await store.create_tournament(
            Tournament(
                tournament_id, "Cup", "Nim", "round-robin", 7, 0, 2, {}, "over", [], store.now()
            ),
            [
                Entrant("engine", "Alpha", "http://alpha.test/", engines[0]),
                Entrant("engine", "=beta", "http://b.test/", engines[1]),
            ],
        )
        made = []
        for number in range(7):
            game = Game(
                id=new_id(12),
                set_name="Nim",
                status="playing",
                options={},
                turn={},
                first={},
                moves=number,
                winner=None,
                result="",
                reason="",
                created_at=store.now(),
                lease_owner=OWNER,
                lease_until=store.now() + dt.timedelta(hours=1),
                tournament_id=tournament_id,
                round=1,
                pairing=number,
                entrant1=number % 2,
                entrant2=1 - number % 2,
            )
            seats = [
                Seat(game.id, i, "engine", n, "http://x.test/", new_id(10), new_id(32), None, "", r)
                for i, (n, r) in enumerate([("Alpha", engines[0]), ("=beta", engines[1])])
            ]
            await store.create_game(game, seats)
            await store.finish_game(
                game.id,
                OWNER,
                GameEnd("over", 0, "seat1", "won"),
                [(s, SeatEnd(1)) for s in seats],
                [],
            )
            made.append(game.id)
        return engines[0], tournament_id, made
    finally:
        await store.close()


def _next(answer: httpx.Response) -> str | None:
    found = re.search(r'<([^>]+)>; rel="next"', answer.headers.get("link", ""))
    return found.group(1) if found else None


def test_the_engine_page_and_the_tournament_exports_page_and_stream(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_record_module, "GAMES_PER_PAGE", 20)
    monkeypatch.setattr(engine_record_module, "OPPONENTS_PER_PAGE", 2)
    monkeypatch.setattr(tournament_api, "CSV_BATCH", 3)
    database = tmp_path / "served.sqlite3"
    engine_id, tournament_id, made = asyncio.run(_fill(database))
    served = Served(database)
    try:
        # The engine's JSON record, page after page: every game once, newest made first.
        record = served.http.get(f"/api/engines/{engine_id}").json()
        seen, opponents = [], []
        page = record
        while True:
            seen += [g["id"] for g in page["games"]]
            if page["games_next"] is None:
                break
            page = served.http.get(
                f"/api/engines/{engine_id}", params={"games_after": page["games_next"]}
            ).json()
        assert len(seen) == record["games_total"] > 20
        assert seen[:7] == made[::-1]  # the tournament's games, made last
        page = served.http.get(f"/api/engines/{engine_id}", params={"opponents": "games"}).json()
        while True:
            opponents += page["per_opponent"]
            if page["per_opponent_next"] is None:
                break
            page = served.http.get(
                f"/api/engines/{engine_id}",
                params={"opponents": "games", "opponents_after": page["per_opponent_next"]},
            ).json()
        assert len(opponents) >= 4 and len({o["name"] for o in opponents}) == len(opponents)
        assert [o["games"] for o in opponents] == sorted(
            (o["games"] for o in opponents), reverse=True
        )
        # Its page: the first games, a link to the older ones and to more opponents.
        html = served.http.get(f"/engines/{engine_id}")
        assert html.status_code == 200
        assert (
            f'data-game-row="{seen[0]}"' in html.text
            and f'data-game-row="{seen[20]}"' not in html.text
        )
        older = re.search(r'<a href="([^"]+)#games" rel="next" data-older-games>', html.text)
        assert older is not None and "data-more-opponents" in html.text
        second = served.http.get(older.group(1).replace("&amp;", "&"))
        assert (
            f'data-game-row="{seen[20]}"' in second.text
            and f'data-game-row="{seen[0]}"' not in second.text
        )
        # Bad input: a clear 400, never a 500.
        for params in (
            {"opponents": "wins"},
            {"opponents": ""},
            {"games_after": "forged.cursor"},
            {"opponents": "games", "opponents_after": record["per_opponent_next"]},
            {"games_after": record["per_opponent_next"]},
            {"games_after": [record["games_next"], record["games_next"]]},
        ):
            answer = served.http.get(f"/api/engines/{engine_id}", params=params)
            assert answer.status_code == 400 and answer.json()["error"], params
            assert served.http.get(f"/engines/{engine_id}", params=params).status_code == 400
        # The tournament's games: JSON paged along, CSV streamed in batches, the same games.
        listed: list[dict[str, Any]] = []
        url: str | None = f"/tournaments/{tournament_id}/games.json?limit=2"
        while url:
            answer = served.http.get(url)
            listed += answer.json()["rows"]
            url = _next(answer)
        assert [g["id"] for g in listed] == made
        assert {(g["first"], g["winner"]) for g in listed} == {
            ("Alpha", "Alpha"),
            ("=beta", "=beta"),
        }
        text = served.http.get(f"/tournaments/{tournament_id}/games.csv").text
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[0] == ["id", "round", "first", "second", "status", "result", "winner", "moves"]
        assert [r[0] for r in rows[1:]] == made
        assert rows[2][2] == "'=beta" and rows[1][3] == "'=beta"
        old_cursor = served.http.get(
            f"/tournaments/{tournament_id}/games.json", params={"after": "x.y"}
        )
        assert old_cursor.status_code == 400
    finally:
        served.stop()
