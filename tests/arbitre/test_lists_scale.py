"""The lists at a million games: what the Set and seat filters match, the totals
kept per Set, bad filters refused with a 400, deep and past-the-end pages empty, the
upgrade from schema 11 filling the kept counts (SQLite and PostgreSQL), and the query
plans: each filtered list reads one index in order, no scan and no sort of games.

Speed itself is measured by ``benchmarks/scale.py``; these tests assert what a reader or
a program receives, and what the database says it will do (``EXPLAIN``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from tests.arbitre.conftest import Served
from tests.arbitre.postgres import postgres_server
from tests.arbitre.test_ops import LISTS_12
from tournoyons_gui.arbitre.store import (
    MAX_OFFSET,
    SCHEMA_VERSION,
    Game,
    GameEnd,
    InterfaceRecord,
    Seat,
    SeatFilter,
    Store,
)
from tournoyons_gui.arbitre.store.lists import ListStore

START = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
#: The games made by :func:`_fill`: (Set, seat names and URLs), one a minute from START.
GAMES: list[tuple[str, list[tuple[str, str]]]] = [
    ("TicTacToe", [("Random", "random"), ("Ann", "https://ann.example/play")]),
    ("Reversi", [("random", "random"), ("Bob", "https://bob.example/")]),
    ("TicTacToe", [("Ann", "https://ann.example/play"), ("Ann", "https://ann.example/play")]),
    ("Tarot", [("100%_x\\y", "random"), ("Ann", "random"), ("Cy", "random"), ("Di", "random")]),
    ("Reversi", [("Bob", "https://bob.example/"), ("Annette", "https://annette.example/")]),
]


def _game(number: int, set_name: str) -> Game:
    return Game(
        id=f"G{number:09d}",
        set_name=set_name,
        status="over",
        options={},
        turn={},
        first={},
        moves=0,
        winner=None,
        result="draw",
        reason="",
        created_at=START + dt.timedelta(minutes=number),
    )


def _seats(game_id: str, seats: list[tuple[str, str]]) -> list[Seat]:
    return [
        Seat(game_id, index, "engine", name, url, f"{game_id[-5:]}K{index}", f"{game_id}T{index}")
        for index, (name, url) in enumerate(seats)
    ]


async def _fill(store: Store) -> list[str]:
    """Make :data:`GAMES` in ``store``; return their ids, oldest first."""
    ids = []
    for number, (set_name, seats) in enumerate(GAMES):
        game = _game(number, set_name)
        await store.create_game(game, _seats(game.id, seats))
        ids.append(game.id)
    return ids


async def _ids(store: ListStore, **filters: Any) -> list[str]:
    return [g.id for g in (await store.games_page(limit=100, **filters)).games]


def test_the_filters_match_whole_names_and_urls_newest_first(tmp_path: Path) -> None:
    async def run() -> None:
        store = await Store.open(str(tmp_path / "lists.sqlite3"))
        try:
            g = await _fill(store)
            assert await _ids(store) == g[::-1]
            assert await _ids(store, set_name="TicTacToe") == [g[2], g[0]]
            assert await _ids(store, set_name="NoGames") == []
            # A name, whole, in any case; a game with two such seats once.
            ann = SeatFilter("ann", "ann")
            assert await _ids(store, seat=ann) == [g[3], g[2], g[0]]
            # Not a part of a name ("Ann" is no match for "Annette").
            assert g[4] not in await _ids(store, seat=ann)
            assert await _ids(store, seat=SeatFilter("an", "an")) == []
            # A URL, whole; a built-in engine's name is its URL.
            url = "https://ann.example/play"
            assert await _ids(store, seat=SeatFilter("", url)) == [g[2], g[0]]
            assert await _ids(store, seat=SeatFilter("", url[:-1])) == []
            assert await _ids(store, seat=SeatFilter("random", "random")) == [g[3], g[1], g[0]]
            # Seat and Set together.
            both = await _ids(store, set_name="TicTacToe", seat=SeatFilter("random", "random"))
            assert both == [g[0]]
            # LIKE's wildcards and the escape are plain characters.
            odd = SeatFilter("100%_x\\y", "100%_x\\y")
            assert await _ids(store, seat=odd) == [g[3]]
            assert await _ids(store, seat=SeatFilter("100%", "%")) == []
            assert await _ids(store, seat=SeatFilter("_", "_")) == []
            # Pages of one, by position: every game once, in order.
            seen, after = [], None
            while True:
                page = await store.games_page(seat=ann, after=after, limit=1)
                seen += [x.id for x in page.games]
                if not page.more:
                    break
                after = (page.games[-1].created_at, page.games[-1].id)
            assert seen == [g[3], g[2], g[0]]
            # Deep offsets: within the bound they read their page; past it, empty.
            assert [x.id for x in (await store.games_page(offset=4, limit=1)).games] == [g[0]]
            assert (await store.games_page(offset=5, limit=1)).games == []
            assert (await store.games_page(offset=MAX_OFFSET)).games == []
            assert (await store.games_page(seat=ann, offset=MAX_OFFSET)).games == []
            # URLs longer than the part indexed are compared whole.
            long = "https://long.example/" + "x" * 600
            for number, url in ((7, long + "a"), (8, long + "b")):
                game = _game(number, "Nim")
                await store.create_game(game, _seats(game.id, [("L", url), ("M", "m")]))
            assert await _ids(store, seat=SeatFilter("", long + "b")) == ["G000000008"]
            assert await _ids(store, seat=SeatFilter("", long)) == []
            assert await _ids(store, seat=SeatFilter("", long[:500])) == []
            # The totals are kept per Set, never counted over games.
            assert await store.count_games() == 7
            assert await store.count_games(set_name="Reversi") == 2
            assert await store.count_games(set_name="NoGames") == 0
        finally:
            await store.close()

    asyncio.run(run())


def test_a_set_s_interfaces_are_read_from_the_kept_pairs(tmp_path: Path) -> None:
    async def run() -> None:
        store = await Store.open(str(tmp_path / "guis.sqlite3"))
        try:
            for number, sets in enumerate([["TicTacToe"], ["Reversi", "TicTacToe"], ["Nim"]]):
                await store.add_interface(
                    InterfaceRecord(
                        id=f"I{number}",
                        name=f"gui {number}",
                        url=f"https://gui{number}.example/",
                        sets=sets,
                        retired=False,
                        created_at=START,
                        secret=f"s{number}",
                    )
                )
            names = [r.name for r in await store.interfaces_for("TicTacToe")]
            assert names == ["gui 0", "gui 1"]
            await store.update_interface("I0", "s0", {"sets": ["Nim"]})
            await store.update_interface("I1", "s1", {"retired": True})
            assert await store.interfaces_for("TicTacToe") == []
            assert [r.name for r in await store.interfaces_for("Nim")] == ["gui 0", "gui 2"]
        finally:
            await store.close()

    asyncio.run(run())


# --- the web: what a reader and a program receive --------------------------------------


@pytest.fixture(scope="module")
def listed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, list[str]]]:
    """A server whose records hold :data:`GAMES`."""
    database = tmp_path_factory.mktemp("listed") / "listed.sqlite3"

    async def fill() -> list[str]:
        store = await Store.open(str(database))
        try:
            return await _fill(store)
        finally:
            await store.close()

    ids = asyncio.run(fill())
    served = Served(database)
    try:
        yield served, ids
    finally:
        served.stop()


def _rows(html: str) -> list[str]:
    return [part.split('"', 1)[0] for part in html.split('data-game-row="')[1:]]


def test_the_games_page_and_api_filter_as_documented(listed: tuple[Served, list[str]]) -> None:
    served, g = listed
    page = served.http.get("/games")
    assert page.status_code == 200 and "<p data-total>5 games.</p>" in page.text
    assert _rows(page.text) == g[::-1]
    # A Set in any case is the Set: its kept total and its games.
    page = served.http.get("/games", params={"set": "tictactoe"})
    assert "<p data-total>2 games.</p>" in page.text and _rows(page.text) == [g[2], g[0]]
    # A seat filter: whole names in any case, whole URLs; no total.
    page = served.http.get("/games", params={"seat": "  ANN "})
    assert _rows(page.text) == [g[3], g[2], g[0]]
    assert "data-total" not in page.text and "data-seat-filter" in page.text
    api = served.http.get("/api/games", params={"seat": "https://bob.example/"})
    assert api.status_code == 200 and [x["id"] for x in api.json()["rows"]] == [g[4], g[1]]
    api = served.http.get("/api/games", params={"seat": "random", "set": "REVERSI"})
    assert [x["id"] for x in api.json()["rows"]] == [g[1]]
    for wild in ("%", "_", "\\", "an%", "100%_x"):
        assert served.http.get("/api/games", params={"seat": wild}).json()["rows"] == [], wild
    assert [x["id"] for x in served.http.get("/api/games?seat=100%25_x%5Cy").json()["rows"]] == [
        g[3]
    ]
    # A Set that is not one of ours finds the games of that name: none.
    assert served.http.get("/api/games", params={"set": "Nothing%_"}).json()["rows"] == []


BAD_QUERIES = [
    ("seat=a%00b", "control character"),
    ("set=%00", "control character"),
    ("seat=%01", "control character"),
    ("seat=" + "x" * 10_000, "at most 2000"),
    ("set=" + "x" * 41, "at most 40"),
    ("seat=%ED%A0%80", "not UTF-8"),
    ("set=%ED%B0%80", "not UTF-8"),
    ("seat=%FF", "not UTF-8"),
    ("seat=%E2%80%AE", "control character"),
    ("seat=a&seat=b", "once"),
]


@pytest.mark.parametrize(("query", "reason"), BAD_QUERIES)
def test_a_filter_that_cannot_be_a_name_or_url_is_a_400(
    listed: tuple[Served, list[str]], query: str, reason: str
) -> None:
    served, _ = listed
    api = served.http.get(f"/api/games?{query}")
    assert api.status_code == 400 and reason in api.json()["error"], api.text
    page = served.http.get(f"/games?{query}")
    assert page.status_code == 400 and "data-page-error" in page.text and reason in page.text


def test_deep_and_past_the_end_pages_are_empty(listed: tuple[Served, list[str]]) -> None:
    served, _ = listed
    deepest = MAX_OFFSET // 25
    page = served.http.get("/games", params={"page": str(deepest + 1)})
    assert page.status_code == 200 and _rows(page.text) == []
    assert "data-too-deep" in page.text and f"page {deepest}" in page.text
    for far in ("6", str(2**63), "99999999999999999999999"):
        page = served.http.get("/games", params={"page": far, "seat": "ann"})
        assert page.status_code == 200 and _rows(page.text) == [], far
        assert served.http.get("/api/games", params={"page": far}).json()["rows"] == []
    # A cursor at the last game: the next page is empty, not an error.
    first = served.http.get("/api/games", params={"limit": 4})
    link = first.headers["link"].split("<", 1)[1].split(">", 1)[0]
    last = served.http.get(link)
    assert last.status_code == 200 and len(last.json()["rows"]) == 1 and "link" not in last.headers
    assert last.json()["next"] is None and first.json()["next_url"] == link


# --- the upgrade from schema 11 ---------------------------------------------------------


def test_the_upgrade_from_schema_11_fills_the_kept_lists_on_sqlite(tmp_path: Path) -> None:
    database = tmp_path / "eleven.sqlite3"

    async def make() -> None:
        store = await Store.open(str(database))
        try:
            await _fill(store)
        finally:
            await store.close()

    asyncio.run(make())
    with sqlite3.connect(database) as connection:
        for statement in LISTS_12:
            connection.execute(statement)
        connection.execute("INSERT INTO interfaces VALUES (?, ?, ?, ?, 0, ?, '')", _OLD_GUI)
        connection.execute("UPDATE meta SET value = '11' WHERE key = 'schema'")
    asyncio.run(_check_upgraded(str(database)))
    with sqlite3.connect(database) as connection:
        indexes = {row[1] for row in connection.execute("PRAGMA index_list('games')")}
        seats = {row[1] for row in connection.execute("PRAGMA index_list('seats')")}
    assert {"ix_games_set_created_id", "ix_games_in_play"} <= indexes
    assert "ix_games_set_name" not in indexes
    assert {"ix_seats_name_newest", "ix_seats_set_url_newest"} <= seats


#: An interface registered before schema 12 (id, name, url, sets, created_at).
_OLD_GUI = ("IOLD", "old gui", "https://old.example/", json.dumps(["Reversi"]), "2025-01-01")


async def _ends(store: Store) -> dict[str, int]:
    """Return the kept games over per tournament."""
    async with store.engine.connect() as conn:
        rows = (await conn.execute(text("SELECT tournament_id, games FROM tournament_ends"))).all()
    return {str(tournament): int(games) for tournament, games in rows}


async def _check_upgraded(url: str) -> None:
    """Open the database at ``url`` (schema 11 holding :data:`GAMES` and an interface of
    Reversi): upgraded, its kept counts, seat copies and interface pairs are filled."""
    store = await Store.open(url)
    try:
        async with store.engine.connect() as conn:
            version = (await conn.execute(text("SELECT value FROM meta"))).scalar()
            rows = (await conn.execute(text("SELECT set_name, games FROM set_counts"))).all()
            counts = {str(name): int(games) for name, games in rows}
            unfilled = (
                await conn.execute(text("SELECT count(*) FROM seats WHERE created_at IS NULL"))
            ).scalar()
        assert version == str(SCHEMA_VERSION)
        assert counts == {"TicTacToe": 2, "Reversi": 2, "Tarot": 1}
        assert unfilled == 0
        assert await _ids(store, seat=SeatFilter("ann", "ann")) == [
            "G000000003",
            "G000000002",
            "G000000000",
        ]
        assert [r.name for r in await store.interfaces_for("Reversi")] == ["old gui"]
        # A game made after the upgrade is counted, in its transaction.
        await store.create_game(_game(9, "Reversi"), _seats("G000000009", [("Ann", "a")]))
        assert await store.count_games(set_name="Reversi") == 3
        assert await store.count_games() == 6
        # A tournament's game ended is counted over, in the transaction that ends it.
        playing = _game(10, "Reversi")
        playing.status, playing.tournament_id = "playing", "T1"
        await store.create_game(playing, _seats(playing.id, [("Ann", "a"), ("Bob", "b")]))
        assert await _ends(store) == {}
        assert await store.acquire(playing.id, "w1", 30)
        assert await store.finish_game(playing.id, "w1", GameEnd("over", 0, "seat1", ""), [], [])
        assert not await store.finish_game(playing.id, "w1", GameEnd("over", 0, "", ""), [], [])
        assert await _ends(store) == {"T1": 1}
        # Filling again gives the same.
        await store.backfill_kept()
        assert await store.count_games() == 7
        assert await _ends(store) == {"T1": 1}
    finally:
        await store.close()


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL server's URL."""
    with postgres_server() as url:
        yield url


def test_the_upgrade_from_schema_11_fills_the_kept_lists_on_postgresql(postgres: str) -> None:
    async def run() -> None:
        store = await Store.open(postgres)
        try:
            await _fill(store)
            async with store.engine.begin() as conn:
                for statement in LISTS_12:
                    await conn.exec_driver_sql(statement)
                await conn.exec_driver_sql(
                    "INSERT INTO interfaces VALUES ($1, $2, $3, $4, false, $5, '')",
                    (*_OLD_GUI[:4], dt.datetime(2025, 1, 1, tzinfo=dt.UTC)),
                )
                await conn.exec_driver_sql("UPDATE meta SET value = '11' WHERE key = 'schema'")
        finally:
            await store.close()
        await _check_upgraded(postgres)

    asyncio.run(run())


# --- the plans: one index read in order, no scan or sort of games ---------------------


def _sqlite_plan(database: Path, sql: str, params: Any) -> str:
    with sqlite3.connect(database) as connection:
        rows = connection.execute("EXPLAIN QUERY PLAN " + sql, params).fetchall()
    return "\n".join(str(row[-1]) for row in rows)


class _Capture:
    """Collects the statements run on ``store``'s engines while it is installed."""

    def __init__(self, store: Store) -> None:
        from sqlalchemy import event

        self.statements: list[tuple[str, Any]] = []
        self.engines = [store.engine.sync_engine]
        self._event = event
        for engine in self.engines:
            event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, _conn: Any, _cursor: Any, sql: str, params: Any, *_: Any) -> None:
        self.statements.append((sql, params))

    def close(self) -> None:
        for engine in self.engines:
            self._event.remove(engine, "before_cursor_execute", self._seen)


async def _scans(store: Store) -> list[tuple[str, Any]]:
    """Return the SELECTs of the drivers' scans and the counts the pages read."""
    capture = _Capture(store)
    try:
        await store.orphans(10)
        await store.playing()
        await store.lease_counts()
        await store.count_games()
        await store.count_games(set_name="Reversi")
        await store.interfaces_for("Reversi")
        await store.counts_of(["T1", "T2"])
    finally:
        capture.close()
    return [(sql, params) for sql, params in capture.statements if "FROM" in sql]


async def _captured(store: Store, **filters: Any) -> list[tuple[str, Any]]:
    """Return the SELECTs a games page with ``filters`` runs, after the first game."""
    capture = _Capture(store)
    try:
        after = (START + dt.timedelta(minutes=4), "G000000004")
        await store.games_page(after=after, limit=2, **filters)
    finally:
        capture.close()
    return [(sql, params) for sql, params in capture.statements if "FROM" in sql]


FILTERS: list[dict[str, Any]] = [
    {},
    {"set_name": "TicTacToe"},
    {"seat": SeatFilter("ann", "ann")},
    {"seat": SeatFilter("", "https://ann.example/play")},
    {"set_name": "Reversi", "seat": SeatFilter("bob", "https://bob.example/")},
    {"seat": SeatFilter("", "https://long.example/" + "x" * 600)},
]


def test_sqlite_plans_read_an_index_in_order(tmp_path: Path) -> None:
    database = tmp_path / "plans.sqlite3"

    async def run() -> list[list[tuple[str, Any]]]:
        store = await Store.open(str(database))
        try:
            await _fill(store)
            return [await _captured(store, **filters) for filters in FILTERS]
        finally:
            await store.close()

    for filters, statements in zip(FILTERS, asyncio.run(run()), strict=True):
        listing = [s for s in statements if "ORDER BY" in s[0] and "game_id IN" not in s[0]]
        assert listing, filters
        for sql, params in listing:
            plan = _sqlite_plan(database, sql, params)
            assert "USING INDEX" in plan or "USING COVERING INDEX" in plan, (filters, plan)
            assert "TEMP B-TREE" not in plan, (filters, sql, plan)
            assert "SCAN games" not in plan and "SCAN seats" not in plan, (filters, plan)


def _pg_nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _pg_nodes(child)


def _pg_plan(found: Any) -> list[dict[str, Any]]:
    """Return the nodes of ``EXPLAIN (FORMAT JSON)``'s answer."""
    plan = json.loads(found) if isinstance(found, str) else found
    return list(_pg_nodes(plan[0]["Plan"]))


def test_postgresql_plans_read_an_index_in_order(postgres: str) -> None:
    async def run() -> None:
        store = await Store.open(postgres)
        try:
            async with store.engine.begin() as conn:
                await conn.exec_driver_sql("TRUNCATE games, seats, set_counts CASCADE")
            await _fill(store)
            async with store.engine.begin() as conn:
                # The planner would read five rows whole; told not to, it shows the index
                # path it takes on a large table.
                await conn.exec_driver_sql("SET LOCAL enable_seqscan = off")
                await conn.exec_driver_sql("ANALYZE")
                checked = 0
                for filters in FILTERS:
                    for sql, params in await _captured(store, **filters):
                        if "ORDER BY" not in sql or "game_id IN" in sql:
                            continue
                        found = await conn.exec_driver_sql("EXPLAIN (FORMAT JSON) " + sql, params)
                        nodes = _pg_plan(found.scalar())
                        kinds = {node["Node Type"] for node in nodes}
                        assert "Seq Scan" not in kinds and "Sort" not in kinds, (filters, nodes)
                        assert kinds & {"Index Scan", "Index Only Scan"}, (filters, nodes)
                        checked += 1
                assert checked >= len(FILTERS)
                # The drivers' scans read the games in play only, the counts kept rows.
                scans = await _scans(store)
                assert len(scans) == 9  # the orphans' scan reads the workers alive first
                for sql, params in scans:
                    found = await conn.exec_driver_sql("EXPLAIN (FORMAT JSON) " + sql, params)
                    plan = found.scalar()
                    nodes = _pg_plan(plan)
                    # set_counts holds a row per Set: its sum reads them all; workers a
                    # row per worker.
                    scanned = {
                        n.get("Relation Name") for n in nodes if n["Node Type"] == "Seq Scan"
                    }
                    assert scanned <= {"set_counts", "workers"}, (sql, plan)
                    relations = {node.get("Relation Name") for node in nodes}
                    if "games" in relations:
                        names = {node.get("Index Name") for node in nodes}
                        assert names & {"ix_games_in_play", "ix_games_status"}, (sql, plan)
        finally:
            await store.close()

    asyncio.run(run())
