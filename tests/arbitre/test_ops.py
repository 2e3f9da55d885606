"""Several servers, one Arbitre. Two real ``serve`` processes on one real
PostgreSQL refuse a burst of 100 connections at once at the limit one process has, and
share their metrics (``prometheus-client``'s multi-process mode); the lists are paged by
signed cursors (10,000 engines paged through, bad cursors refused with the reason);
``/metrics`` counts what was played and is off a public listener unless told."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest
from sqlalchemy import insert

from tests.arbitre.conftest import Served, builtin_engines, create_tournament, wait_tournament
from tests.arbitre.postgres import postgres_server
from tests.conftest import _serving, start_server
from tournoyons_gui.arbitre.paging import FORGED, OTHER_LIST, OUT_OF_RANGE, Cursors
from tournoyons_gui.arbitre.store import SCHEMA_VERSION, Store
from tournoyons_gui.arbitre.store.schema import EngineRow

PUBLIC = ("--public-url", "http://arbitre.example")
ENGINES = 10_000


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL server's URL."""
    with postgres_server() as url:
        yield url


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def _two_workers(database: str, metrics_dir: Path, *extra: str) -> Iterator[tuple[str, str]]:
    """Start two public ``serve`` workers on ``database``, sharing ``metrics_dir`` as their
    metrics' multi-process folder; yield their base URLs."""
    metrics_dir.mkdir()
    saved = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)
    try:
        processes = [start_server(database, *PUBLIC, *extra) for _ in range(2)]
    finally:
        if saved is None:
            del os.environ["PROMETHEUS_MULTIPROC_DIR"]
        else:
            os.environ["PROMETHEUS_MULTIPROC_DIR"] = saved
    with ExitStack() as stack:
        servings = [_serving(p) for p in processes]
        for process, serving in zip(processes, servings, strict=True):
            stack.callback(_stop, process)
            stack.callback(next, serving, None)
        yield next(servings[0]), next(servings[1])


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
        process.wait(10)


async def _burst(bases: list[str], count: int) -> list[httpx.Response]:
    """Send ``count`` requests that start work at once, each on a connection of its own,
    spread over ``bases``."""
    async with httpx.AsyncClient(
        timeout=60, trust_env=False, limits=httpx.Limits(max_connections=count)
    ) as client:
        return await asyncio.gather(
            *(client.post(f"{bases[n % len(bases)]}/api/games", json={}) for n in range(count))
        )


@pytest.mark.slow
def test_two_workers_refuse_a_burst_at_the_limit_of_one(postgres: str, tmp_path: Path) -> None:
    """100 connections at once from one address, half on each worker: exactly the 30 a
    public server allows per minute pass (400: the body is refused, but counted), the 70
    others get 429 with ``Retry-After``; the metrics of either worker count both."""
    with _two_workers(postgres, tmp_path / "metrics", "--metrics", "public") as (a, b):
        answers = asyncio.run(_burst([a, b], 100))
        statuses = Counter(answer.status_code for answer in answers)
        assert statuses == {400: 30, 429: 70}, statuses
        refused = [answer for answer in answers if answer.status_code == 429]
        assert all(1 <= int(r.headers["retry-after"]) <= 60 for r in refused)
        assert {r.json()["error"] for r in refused} == {"too many requests: try again later"}
        # Both workers' answers are in the metrics either one serves.
        with httpx.Client(trust_env=False, timeout=30) as http:
            text = http.get(f"{a}/metrics").text
        assert _sample(text, "tournoyons_http_responses_total", status="429") == 70
        assert _sample(text, "tournoyons_http_responses_total", status="400") == 30


def test_a_check_slot_is_held_across_workers_and_freed_when_its_holder_dies(
    postgres: str,
) -> None:
    """The interface checks running are counted in the store: a slot held by one worker
    is refused to another until it is given back, or until its lease ends (a worker
    killed mid-check renews it no more)."""

    async def run() -> None:
        first, second = await Store.open(postgres), await Store.open(postgres)
        try:
            assert await first.take_slot("test-check", 1, "worker-a", 0.5) == "test-check/1"
            assert await second.take_slot("test-check", 1, "worker-b", 30) is None
            assert await first.slots_held("test-check") == 1
            await asyncio.sleep(0.6)  # worker A renews it no more
            assert await second.take_slot("test-check", 1, "worker-b", 30) == "test-check/1"
            assert not await first.renew_slot("test-check/1", "worker-a", 30)
            await second.release_slot("test-check/1", "worker-b")
            assert await first.slots_held("test-check") == 0
        finally:
            await first.close()
            await second.close()

    asyncio.run(run())


# --- paged lists ---------------------------------------------------------------------------


def _add_engines(database: Path, count: int) -> None:
    """Register ``count`` engines straight in the records (what 10,000 registrations
    through the API would leave, without the wait)."""

    async def run() -> None:
        store = await Store.open(str(database))
        try:
            at = store.now()
            rows = [
                {
                    "id": f"E{n:09d}",
                    "name": f"engine {n:05d}",
                    "url": f"http://engines.example/{n}",
                    "sets": ["TicTacToe"],
                    "poker_level2": False,
                    "retired": n % 7 == 0,
                    "created_at": at,
                    "secret": "",
                    "open_entry": False,
                    "call_key": "",
                    "kind": "engine",
                }
                for n in range(count)
            ]
            await store.write(lambda connection: connection.execute(insert(EngineRow), rows))
        finally:
            await store.close()

    asyncio.run(run())


def _next_link(answer: httpx.Response) -> str | None:
    link = answer.headers.get("link")
    if link is None:
        return None
    found = re.fullmatch(r'<([^>]+)>; rel="next"', link)
    assert found is not None, link
    return found.group(1)


@pytest.fixture(scope="module")
def crowded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """An Arbitre (SQLite) with 10,000 registered engines."""
    database = tmp_path_factory.mktemp("crowded") / "crowded.sqlite3"
    served = Served(database)
    try:
        _add_engines(database, ENGINES)
        yield served
    finally:
        served.stop()


def test_ten_thousand_engines_are_paged_through_by_cursor(crowded: Served) -> None:
    """The first page holds the first 50 engines by name and a ``Link`` to the next;
    following the links (100 a page) gives every engine once, in order, and the last
    page has no link."""
    first = crowded.http.get("/api/engines")
    assert first.status_code == 200
    names = [e["name"] for e in first.json()["rows"]]
    assert names == [f"engine {n:05d}" for n in range(50)]
    following = _next_link(first)
    assert following is not None and following.startswith(f"{crowded.base}/api/engines?after=")
    seen: list[str] = []
    url: str | None = f"{crowded.base}/api/engines?limit=100"
    pages = 0
    while url is not None:
        answer = crowded.http.get(url)
        assert answer.status_code == 200, answer.text
        page = answer.json()["rows"]
        assert 1 <= len(page) <= 100
        seen += [e["name"] for e in page]
        url = _next_link(answer)
        pages += 1
    assert pages == ENGINES // 100
    assert seen == [f"engine {n:05d}" for n in range(ENGINES)]
    # The page for people: 50 rows and a plain link to the next, no script needed.
    html = crowded.http.get("/engines").text
    assert html.count("data-engine-row=") == 50
    link = re.search(r'<a href="([^"]+)" rel="next" data-page="next">', html)
    assert link is not None
    second = crowded.http.get(link.group(1).replace("&amp;", "&")).text
    rows = re.findall(r'data-engine-row="([^"]+)"', second)
    assert rows[0] == "E000000050" and len(rows) == 50
    # The new-tournament form offers a bounded number of them.
    form = crowded.http.get("/tournaments").text
    assert form.count('<option value="E0') <= 200 * 8


def test_bad_cursors_and_limits_are_refused_with_the_reason(crowded: Served) -> None:
    """A forged, damaged or cut cursor, one from another list (or the same list with
    other filters), one pointing outside its list, and a page size out of 1-100 are each
    answered 400 with the reason; a page's 400 links to the first page."""
    answer = crowded.http.get("/api/engines")
    cursor = answer.headers["link"].split("after=", 1)[1].split(">", 1)[0]
    payload, signature = cursor.split(".")
    flipped = signature[:-1] + ("A" if signature[-1] != "A" else "B")
    for bad in (f"{payload}.{flipped}", cursor[:-3], "x" * 500, "nothing-here", f"{payload}."):
        refused = crowded.http.get("/api/engines", params={"after": bad})
        assert refused.status_code == 400 and refused.json() == {"error": FORGED}, bad
    for path in ("/api/tournaments", "/api/interfaces", "/api/games"):
        refused = crowded.http.get(path, params={"after": cursor})
        assert refused.status_code == 400 and refused.json() == {"error": OTHER_LIST}, path
    # Games filtered by one Set: its cursor is not good for another Set's list.
    for _ in range(3):
        crowded.create("TicTacToe", builtin_engines("random", "random"))
    ttt = crowded.http.get("/api/games", params={"set": "TicTacToe", "limit": 1})
    games_cursor = ttt.headers["link"].split("after=", 1)[1].split("&", 1)[0].split(">", 1)[0]
    other = crowded.http.get("/api/games", params={"set": "Reversi", "after": games_cursor})
    assert other.status_code == 400 and other.json() == {"error": OTHER_LIST}
    # A cursor signed with the Arbitre's own key but naming no row of the list.
    key = asyncio.run(_paging_key(crowded))
    games = Cursors.list_id("games", [("set", "tictactoe"), ("seat", "")])
    for position in (["yesterday", "G"], [7, "G"], ["2024-01-01T00:00:00", "G"]):
        made = Cursors(key).make(games, position)
        refused = crowded.http.get("/api/games", params={"set": "TicTacToe", "after": made})
        assert refused.status_code == 400 and refused.json() == {"error": OUT_OF_RANGE}
    for limit in ("0", "101", "-1", "ten", "1e3"):
        refused = crowded.http.get("/api/engines", params={"limit": limit})
        assert refused.status_code == 400 and "limit" in refused.json()["error"], limit
    page = crowded.http.get("/games", params={"set": "TicTacToe", "after": "forged.cursor"})
    assert page.status_code == 400 and "data-page-error" in page.text
    assert 'href="/games?set=TicTacToe"' in page.text
    # The old page links still read their page.
    assert crowded.http.get("/games", params={"page": "2"}).status_code == 200


async def _paging_key(served: Served) -> bytes:
    store = await Store.open(str(served.arbitre().store.engine.url.database))
    try:
        return await store.paging_key()
    finally:
        await store.close()


def test_games_and_tournaments_are_paged_newest_first(served: Served) -> None:
    """The games of a filter and the tournaments, newest first, page by page: every one
    once; a tournament's standings and games JSON too."""
    seats = [{"kind": "builtin", "engine": "random", "name": "Pager"}, {"kind": "builtin"}]
    made = [served.create("TicTacToe", seats) for _ in range(5)]
    seen: list[str] = []
    url: str | None = f"{served.base}/api/games?seat=pager&limit=2"
    while url is not None:
        answer = served.http.get(url)
        seen += [g["id"] for g in answer.json()["rows"]]
        url = _next_link(answer)
    assert seen == made[::-1]
    tournaments = [
        create_tournament(served.http, "TicTacToe", builtin_engines("random", "perfect"), games=2)
        for _ in range(3)
    ]
    listed = served.http.get("/api/tournaments", params={"limit": 2})
    assert [t["id"] for t in listed.json()["rows"]] == tournaments[::-1][:2]
    rest = served.http.get(_next_link(listed) or "").json()["rows"]
    assert rest[0]["id"] == tournaments[0]
    summary = wait_tournament(served.http, tournaments[0])
    path = f"/tournaments/{tournaments[0]}/games.json"
    one = served.http.get(path, params={"limit": 1})
    two = served.http.get(_next_link(one) or "")
    assert [g["id"] for g in one.json()["rows"] + two.json()["rows"]] == [
        g["id"] for g in summary["games"]
    ]
    standings = served.http.get(f"/tournaments/{tournaments[0]}/standings.json").json()["rows"]
    assert len(standings) == 2 and "link" not in served.http.get(path).headers


# --- metrics -------------------------------------------------------------------------------


def _sample(text: str, name: str, **labels: str) -> float:
    """Return the sum of metric ``name``'s samples with ``labels`` in ``text``."""
    total = 0.0
    for line in text.splitlines():
        if line.startswith("#") or not line.startswith(name):
            continue
        head, _, value = line.rpartition(" ")
        if head.split("{", 1)[0] != name:
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', head))
        if all(found.get(k) == v for k, v in labels.items()):
            total += float(value)
    return total


def test_metrics_count_what_was_played(served: Served) -> None:
    """``/metrics`` (a loopback server serves it) counts the games made and ended by Set
    and result, the moves, the answer times per seat kind, the answers by status, and
    the leases held and games waiting as the store knows them."""
    before = served.http.get("/metrics")
    assert before.status_code == 200
    assert before.headers["content-type"].startswith("text/plain")
    started = _sample(before.text, "tournoyons_games_started_total", set="TicTacToe")
    game_id = served.create("TicTacToe", builtin_engines("perfect", "perfect"))
    record = served.finished(game_id)
    assert record["result"] == "draw"
    served.http.get("/games/NO-SUCH-GAME.json")
    text = served.http.get("/metrics").text
    assert _sample(text, "tournoyons_games_started_total", set="TicTacToe") >= started + 1
    assert _sample(text, "tournoyons_games_ended_total", set="TicTacToe", result="draw") >= 1
    assert _sample(text, "tournoyons_moves_total", set="TicTacToe") >= 9
    assert _sample(text, "tournoyons_answer_seconds_count", kind="builtin", outcome="value") >= 9
    assert _sample(text, "tournoyons_http_responses_total", status="404") >= 1
    assert _sample(text, "tournoyons_http_responses_total", status="201") >= 1
    for gauge in ("tournoyons_leases_held", "tournoyons_games_waiting"):
        assert re.search(rf"^{gauge} \d+(\.\d+)?$", text, re.M), gauge


def test_metrics_are_off_a_public_listener_unless_told(tmp_path: Path) -> None:
    """A public server serves no ``/metrics`` on its listener; ``--metrics HOST:PORT``
    serves them on a listener of its own, which serves nothing else."""
    port = _free_port()
    process = start_server(tmp_path / "public.sqlite3", *PUBLIC, "--metrics", f"127.0.0.1:{port}")
    serving = _serving(process)
    try:
        base = next(serving)
        with httpx.Client(trust_env=False, timeout=30) as http:
            assert http.get(f"{base}/metrics").status_code == 404
            own = http.get(f"http://127.0.0.1:{port}/metrics")
            assert own.status_code == 200 and "tournoyons_games_waiting" in own.text
            assert http.get(f"http://127.0.0.1:{port}/api/engines").status_code == 404
            assert http.get(f"http://127.0.0.1:{port}/healthz").status_code == 200
    finally:
        next(serving, None)


def test_the_limits_per_registration_and_per_token(tmp_path: Path) -> None:
    """Registrations have a limit of their own per address; an organiser token lifts the
    limits per address but is held to its own count."""
    from tournoyons_gui.arbitre.web.guard import Limits

    served = Served(
        tmp_path / "reg.sqlite3",
        listen=("0.0.0.0", 0),
        limits=Limits(work=100, registrations=2, token_work=3),
        admin_tokens=["the-token"],
    )
    try:
        bodies = [
            {"name": f"reg {n}", "url": f"http://engines.example/{n}", "sets": ["TicTacToe"]}
            for n in range(3)
        ]
        statuses = [served.http.post("/api/engines", json=b).status_code for b in bodies]
        assert statuses == [201, 201, 429]
        # Other work is still allowed to the same address.
        assert served.http.post("/api/games", json={}).status_code == 400
        organiser = {"Authorization": "Bearer the-token"}
        statuses = [
            served.http.post("/api/games", json={}, headers=organiser).status_code for _ in range(4)
        ]
        assert statuses == [400, 400, 400, 429]
    finally:
        served.stop()


#: What takes a new database back to schema 13: the ladder's columns (its tables are made
#: again by ``create_all``, empty, as an upgrade finds them).
LADDER_14 = (
    "ALTER TABLE games DROP COLUMN ladder",
    *(
        f"ALTER TABLE engines DROP COLUMN {column}"
        for column in (
            "ladder",
            "ladder_concurrency",
            "ladder_rest",
            "ladder_held",
            "ladder_rest_until",
            "ladder_faults",
            "ladder_paused",
            "ladder_reason",
            "ladder_paused_game",
        )
    ),
    "DROP TABLE ladder_sets",
    "DROP TABLE ladder_pairs",
    "DROP TABLE ladder_games",
    "DROP TABLE ladder_standings",
    "DROP TABLE ladder_meetings",
    "DROP TABLE ladder_days",
)
#: What takes a new database's lists back to schema 11 (the lists at a million games: the
#: seats' copies of their game's time and Set, their indexes, the kept tables).
#: What schema 13 added (a game bound to the process holding its players' connections,
#: and the workers alive), dropped to make a database of an older schema.
BOUND_13 = (
    "ALTER TABLE games DROP COLUMN bound",
    "ALTER TABLE games DROP COLUMN holder",
    "DROP TABLE workers",
)
#: What schema 12 added (the lists and records at a million games) and every later one
#: (schema 13's, the ladder's of schema 14), dropped to make a database of schema 11 or
#: older.
LISTS_12 = (
    *LADDER_14,
    *BOUND_13,
    "DROP INDEX ix_seats_name_newest",
    "DROP INDEX ix_seats_set_name_newest",
    "DROP INDEX ix_seats_url_newest",
    "DROP INDEX ix_seats_set_url_newest",
    "DROP INDEX ix_games_set_created_id",
    "DROP INDEX ix_games_in_play",
    "CREATE INDEX ix_games_set_name ON games (set_name)",
    "ALTER TABLE seats DROP COLUMN created_at",
    "ALTER TABLE seats DROP COLUMN set_name",
    "DROP TABLE set_counts",
    "DROP TABLE tournament_ends",
    "DROP TABLE interface_sets",
)


def test_an_upgraded_database_keeps_its_records_and_pages(tmp_path: Path) -> None:
    """A database of schema 7 is upgraded in place to the current one (8: the limits'
    tables and the paging's indexes; 9: the matches' tables and each seat's fault; 11: the
    checks' table and each room's referee) and its games are listed by the new paging."""
    database = tmp_path / "old.sqlite3"

    async def run() -> None:
        store = await Store.open(str(database))
        await store.close()

    asyncio.run(run())
    import sqlite3

    with sqlite3.connect(database) as connection:
        for statement in LISTS_12:
            connection.execute(statement)
        connection.execute("DROP TABLE hits")
        connection.execute("DROP TABLE slots")
        connection.execute("DROP TABLE checks")
        connection.execute("DROP INDEX ix_games_created_id")
        connection.execute("ALTER TABLE rooms DROP COLUMN referee")
        connection.execute("ALTER TABLE rooms DROP COLUMN referee_op")
        connection.execute("DROP TABLE match_games")
        connection.execute("DROP TABLE matches")
        connection.execute("ALTER TABLE seats DROP COLUMN fault")
        connection.execute("UPDATE meta SET value = '7' WHERE key = 'schema'")
    served = Served(database)
    try:
        game_id = served.create("TicTacToe", builtin_engines("random", "random"))
        assert [g["id"] for g in served.http.get("/api/games").json()["rows"]] == [game_id]
    finally:
        served.stop()
    with sqlite3.connect(database) as connection:
        version = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        indexes = {row[1] for row in connection.execute("PRAGMA index_list('games')")}
        faults = [row[0] for row in connection.execute("SELECT fault FROM seats")]
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        rooms = {row[1] for row in connection.execute("PRAGMA table_info('rooms')")}
    assert version == (str(SCHEMA_VERSION),) and "ix_games_created_id" in indexes
    assert faults == ["", ""] and {"matches", "match_games", "ix_match_games_game"} <= tables
    assert "checks" in tables and {"referee", "referee_op"} <= rooms
