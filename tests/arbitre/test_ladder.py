"""The standing ladder through the real server: the owners' settings and their bad input
(400 naming the field, 403 without the edit token, nothing stored), the ladder's
addresses (an unknown or odd Set is a 404, never a 500), the front page and the new-game
form's old links, the upgrade that brings the ladder; and, with Connect Four engines of
the tests' own over HTTP (tests/arbitre/ladder_engines.py), a ladder that plays: after a
few dozen games each the leaderboard orders them by strength, the engine that stops
answering is paused with its reason and plays no more, no engine plays two ladder games
at once, each pair is one opening with the seats swapped, each engine told its Opponent.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.arbitre.conftest import Served
from tests.arbitre.ladder_engines import LadderEngines
from tests.arbitre.test_ops import LADDER_14
from tournoyons_gui.arbitre.store import SCHEMA_VERSION, Store

#: A URL an engine may have on a loopback server (the bad-input tests play no game).
SOMEWHERE = "http://127.0.0.1:9/engine"


def register(http: httpx.Client, name: str, **fields: Any) -> httpx.Response:
    """Register an engine of TicTacToe at :data:`SOMEWHERE` (``fields`` added)."""
    body = {"name": name, "url": SOMEWHERE, "sets": ["TicTacToe"], **fields}
    return http.post("/api/engines", json=body)


def board(http: httpx.Client, set_name: str) -> list[dict[str, Any]]:
    """Return a Set's whole leaderboard (one page: the tests' ladders are small)."""
    answer = http.get(f"/api/ladder/{set_name}")
    assert answer.status_code == 200, answer.text
    engines: list[dict[str, Any]] = answer.json()["engines"]
    return engines


# --- the owners' settings ---------------------------------------------------------------


def test_bad_ladder_settings_are_refused_naming_the_field(served: Served) -> None:
    http = served.http
    for fields, field in (
        ({"ladder": "yes"}, "ladder"),
        ({"ladder": 1}, "ladder"),
        ({"ladder": True, "ladder_concurrency": 0}, "ladder_concurrency"),
        ({"ladder": True, "ladder_concurrency": 9}, "ladder_concurrency"),
        ({"ladder_concurrency": 2.5}, "ladder_concurrency"),
        ({"ladder_concurrency": "2"}, "ladder_concurrency"),
        ({"ladder": True, "ladder_rest": -1}, "ladder_rest"),
        ({"ladder": True, "ladder_rest": 86_401}, "ladder_rest"),
        ({"ladder_rest": True}, "ladder_rest"),
    ):
        refused = register(http, "Refused one", **fields)
        assert refused.status_code == 400, (fields, refused.text)
        assert refused.json()["error"].startswith(field + " "), (fields, refused.json())
    listed = http.get("/api/engines", params={"limit": 100}).json()["rows"]
    names = [e["name"] for e in listed]
    assert "Refused one" not in names  # nothing stored
    assert "Refused one" not in [e["name"] for e in board(http, "TicTacToe")]

    made = register(http, "Climber", ladder=True, ladder_concurrency=2, ladder_rest=30)
    assert made.status_code == 201, made.text
    engine = made.json()
    assert (engine["ladder"], engine["ladder_concurrency"], engine["ladder_rest"]) == (True, 2, 30)
    assert engine["ladder_paused"] is None
    [row] = [e for e in board(http, "TicTacToe") if e["name"] == "Climber"]
    assert row["provisional"] and not row["paused"] and row["rank"] is None
    assert (row["games"], row["rating"], row["reason"], row["last_game"]) == (0, 0.0, "", "")

    # Without its edit token (or with another), nothing changes: 403.
    path = f"/api/engines/{engine['id']}"
    for token in ("", "not its token"):
        answer = http.post(path, json={"token": token, "ladder": False})
        assert answer.status_code == 403, answer.text
    assert "Climber" in [e["name"] for e in board(http, "TicTacToe")]
    # Out of bounds with its token: 400 naming the field, unchanged.
    token = engine["edit_token"]
    changes: tuple[tuple[dict[str, Any], str], ...] = (
        ({"ladder_concurrency": 9}, "ladder_concurrency"),
        ({"ladder_rest": -5}, "ladder_rest"),
        ({"ladder": "no"}, "ladder"),
        ({"ladder": None}, "ladder"),
    )
    for fields, field in changes:
        answer = http.post(path, json={"token": token, **fields})
        assert answer.status_code == 400 and answer.json()["error"].startswith(field), answer.text
    assert http.get(path).json()["ladder_concurrency"] == 2
    # Its owner takes it off: gone from the table; back on: there again; retired: off.
    changed = http.post(path, json={"token": token, "ladder": False, "ladder_rest": 0})
    assert changed.status_code == 200 and changed.json()["ladder"] is False
    assert "Climber" not in [e["name"] for e in board(http, "TicTacToe")]
    assert http.post(path, json={"token": token, "ladder": True}).json()["ladder"] is True
    assert "Climber" in [e["name"] for e in board(http, "TicTacToe")]
    retired = http.post(path, json={"token": token, "retired": True}).json()
    assert retired["retired"] and not retired["ladder"]
    assert "Climber" not in [e["name"] for e in board(http, "TicTacToe")]


def test_the_registration_form_puts_an_engine_on_the_ladder(served: Served) -> None:
    http = served.http
    form = {
        "name": "Form climber",
        "url": SOMEWHERE,
        "sets": "TicTacToe",
        "ladder": "yes",
        "ladder_concurrency": "abc",
        "ladder_rest": "5",
    }
    refused = http.post("/engines", data=form)
    assert refused.status_code == 400
    assert "ladder_concurrency is a whole number" in refused.text
    made = http.post("/engines", data={**form, "ladder_concurrency": "2"})
    assert made.status_code == 303, made.text
    page = http.get(made.headers["location"]).text
    assert "on, 2 games at once, 5 s of rest after each" in page
    assert "Form climber" in [e["name"] for e in board(http, "TicTacToe")]
    # The edit form, sent as it is shown, keeps it on; "Off the ladder" takes it off.
    location = made.headers["location"]
    token = location.split("token=", 1)[1]
    edit = {**form, "ladder_concurrency": "2", "token": token, "action": "edit"}
    assert http.post(location.split("?")[0], data=edit).status_code == 303
    assert "Form climber" in [e["name"] for e in board(http, "TicTacToe")]
    off = http.post(location.split("?")[0], data={**edit, "ladder": "no"})
    assert off.status_code == 303
    assert "Form climber" not in [e["name"] for e in board(http, "TicTacToe")]


# --- the addresses ----------------------------------------------------------------------


def test_no_such_ladder_is_a_404_never_a_500(served: Served) -> None:
    http = served.http
    for name in (
        "Nope",
        "%00",
        "Connect%00Four",
        "Connect%0AFour",
        "%E2%80%AEruoFtcennoC",
        "%F0%9F%98%80",
        "x" * 300,
        "%2e%2e",
        "%FF%FE",
        "Connect%25Four",
    ):
        api = http.get(f"/api/ladder/{name}")
        assert api.status_code == 404 and "error" in api.json(), (name, api.text)
        page = http.get(f"/ladder/{name}")
        assert page.status_code == 404 and "No such ladder" in page.text, name
    assert http.get("/api/ladder/a/b").json() == {"error": "no such route"}
    # Any case names the Set; an empty ladder is an empty table.
    empty: dict[str, Any] = {"set": "ConnectFour", "engines": [], "next": None, "next_url": None}
    assert http.get("/api/ladder/connectfour").json() == empty
    assert "No engine on ConnectFour" in http.get("/ladder/ConnectFour").text
    for cursor in ("garbage", "x" * 5000):
        assert http.get("/api/ladder/TicTacToe", params={"after": cursor}).status_code == 400
        assert http.get("/ladder/TicTacToe", params={"after": cursor}).status_code == 400
    assert http.get("/api/ladder/TicTacToe", params={"limit": "0"}).status_code == 400
    overview = http.get("/ladder")
    assert overview.status_code == 200 and "ConnectFour" in overview.text


def test_the_front_page_and_the_old_links_to_the_new_game_form(served: Served) -> None:
    http = served.http
    front = http.get("/arbitre")
    assert front.status_code == 200
    assert 'href="/arbitre/new"' in front.text and "In play now" in front.text
    assert "games played here" in front.text or "game played here" in front.text
    # The form's old address and its presets: the same query, on the form's new address.
    for query in ("set=Reversi", "set=Tarot&x=1"):
        moved = http.get(f"/arbitre?{query}")
        assert moved.status_code == 308 and moved.headers["location"] == f"/arbitre/new?{query}"
    form = http.get("/arbitre?set=Reversi", follow_redirects=True)
    assert form.url.path == "/arbitre/new"
    assert '<option value="Reversi"' in form.text and 'value="Reversi" selected' in form.text
    # The live stream of the front page names its games.
    for bad in ("", "?game=", "?game=nope!", "?" + "&".join(f"game=G{i}" for i in range(20))):
        assert http.get(f"/arbitre/events{bad}").status_code == 400, bad


def test_the_upgrade_from_schema_13_brings_the_ladder(tmp_path: Path) -> None:
    database = tmp_path / "thirteen.sqlite3"

    async def make() -> None:
        store = await Store.open(str(database))
        await store.close()

    asyncio.run(make())
    with sqlite3.connect(database) as connection:
        connection.execute(
            "INSERT INTO engines (id, name, url, sets, poker_level2, retired, created_at, "
            "secret, open_entry, call_key, kind) VALUES ('OLD', 'Old one', ?, ?, 0, 0, "
            "'2025-01-01 00:00:00', 's', 0, '', 'engine')",
            (SOMEWHERE, '["TicTacToe"]'),
        )
        for statement in LADDER_14:
            connection.execute(statement)
        connection.execute("UPDATE meta SET value = '13' WHERE key = 'schema'")

    async def check() -> None:
        store = await Store.open(str(database))
        try:
            old = await store.registered("OLD")
            assert old is not None and not old.ladder and old.ladder_concurrency == 1
            await store.update_engine("OLD", "s", {"ladder": True})
            [line], more = await store.ladder_board("TicTacToe")
            assert line.name == "Old one" and not more
        finally:
            await store.close()

    asyncio.run(check())
    with sqlite3.connect(database) as connection:
        version = connection.execute("SELECT value FROM meta").fetchone()
    assert version == (str(SCHEMA_VERSION),)


# --- Tarot: tables of four --------------------------------------------------------------


@pytest.mark.slow
def test_tarot_is_played_at_tables_of_four_one_deal_at_every_seat(tmp_path: Path) -> None:
    from tests.arbitre.test_tarot_games import TarotEngines

    database = tmp_path / "tarot.sqlite3"
    served = Served(database, ladder_games=4, ladder_timeout=4)
    tarot = TarotEngines()
    tarot.start()
    try:
        ids = []
        for name in ("Tarot one", "Tarot two"):
            made = served.http.post(
                "/api/engines",
                json={
                    "name": name,
                    "url": f"{tarot.base}/tarot",
                    "sets": ["Tarot"],
                    "ladder": True,
                },
            )
            assert made.status_code == 201, made.text
            ids.append(made.json()["id"])
        deadline = time.monotonic() + 120
        while True:
            with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
                legs = db.execute(
                    "SELECT l.leg, g.status, g.options, "
                    " (SELECT group_concat(registration || ':' || name, ',') FROM "
                    "   (SELECT registration, name FROM seats WHERE game_id = g.id "
                    '    ORDER BY "index")) '
                    "FROM ladder_games l JOIN games g ON g.id = l.game_id "
                    "WHERE l.pair = 0 ORDER BY l.leg"
                ).fetchall()
            if len(legs) >= 2 and legs[1][1] != "playing":
                break
            assert time.monotonic() < deadline, legs
            time.sleep(0.3)
    finally:
        served.stop()
        tarot.stop()
    # One table: the two engines and two of the Set's built-in engines, the seats turning
    # from one game to the next; one deal a game, the same deal (one seed) at every seat.
    first, second = (legs[0][3].split(","), legs[1][3].split(","))
    assert sorted(seat.split(":")[0] for seat in first) == sorted(["", "", *ids])
    assert second == first[1:] + first[:1]
    assert [seat.split(":")[1] for seat in first if not seat.split(":")[0]] == [
        "random (filler)",
        "random (filler)",
    ]
    options = [json.loads(leg[2]) for leg in legs[:2]]
    assert options[0]["deals"] == options[1]["deals"] == 1
    assert options[0]["seed"] == options[1]["seed"] is not None
    assert legs[0][1] == "over" and tarot.view_errors == []


# --- a ladder that plays ----------------------------------------------------------------

#: The engines of the ladder that plays, and their order of strength.
STRENGTH = ("strong", "weak", "random")


@pytest.fixture
def ladder(tmp_path: Path) -> Iterator[tuple[Served, LadderEngines, Path]]:
    """A server scheduling the ladder (4 games in flight per Set, a TimeOut of 4 s), the
    engines, and the server's database file."""
    database = tmp_path / "ladder.sqlite3"
    served = Served(database, ladder_games=4, ladder_timeout=4)
    try:
        with LadderEngines().running() as engines:
            yield served, engines, database
    finally:
        served.stop()


def _games_of(http: httpx.Client, name: str) -> list[dict[str, Any]]:
    """Return every game a seat named ``name`` played, newest first (following the pages)."""
    found: list[dict[str, Any]] = []
    url: str | None = f"/api/games?seat={name}&limit=100"
    while url:
        page = http.get(url).json()
        found += page["rows"]
        url = page["next_url"]
    return found


@pytest.mark.slow
def test_engines_meet_on_the_ladder_and_the_dead_one_is_paused(
    ladder: tuple[Served, LadderEngines, Path],
) -> None:
    served, engines, database = ladder
    http = served.http
    ids: dict[str, str] = {}
    tokens: dict[str, str] = {}
    for name in (*STRENGTH, "dying"):
        made = http.post(
            "/api/engines",
            json={
                "name": name,
                "url": f"{engines.base}/{name}",
                "sets": ["ConnectFour"],
                "kind": "sync",
                "ladder": True,
            },
        )
        assert made.status_code == 201, made.text
        ids[name], tokens[name] = made.json()["id"], made.json()["edit_token"]
    deadline = time.monotonic() + 150
    while True:
        rows = {e["name"]: e for e in board(http, "ConnectFour")}
        if rows["dying"]["games"] >= 6:
            engines.dead = True  # it stops answering: its moves time out
        if rows["dying"]["paused"] and all(rows[n]["games"] >= 24 for n in STRENGTH):
            break
        assert time.monotonic() < deadline, rows
        time.sleep(0.5)

    # The table: the three by strength, ranked; the dead one last, paused, with why.
    table = board(http, "ConnectFour")
    assert [e["name"] for e in table] == [*STRENGTH, "dying"], table
    assert [e["rank"] for e in table] == [1, 2, 3, None]
    assert table[0]["rating"] > table[1]["rating"] > table[2]["rating"]
    for row in table[:3]:
        assert not row["provisional"] and not row["paused"] and row["last_game"]
        assert row["games"] == row["wins"] + row["draws"] + row["losses"]
    dead = table[3]
    assert dead["paused"] and dead["reason"].startswith("timeout: ")
    paused_game = dead["reason"].rsplit("(game ", 1)[1].rstrip(")")
    assert dead["last_game"] == paused_game
    record = served.record(paused_game)
    [seat] = [s for s in record["seats"] if s["name"] == "dying"]
    assert record["status"] == "over" and record["result"] == f"seat{2 - seat['index']}"
    assert "no answer within 4 s" in seat["error"], record["seats"]
    engine = http.get(f"/api/engines/{ids['dying']}").json()
    assert engine["ladder_paused"]["fault"] == "timeout"
    assert engine["ladder_paused"]["game"] == paused_game

    # Paused, it plays no more: no game made after its last one ended.
    time.sleep(2)
    dying = _games_of(http, "dying")
    last_end = max((g["ended_at"] for g in dying if g["ended_at"]), key=dt.datetime.fromisoformat)
    assert dying[0]["id"] == paused_game and dying[0]["ended_at"] == last_end
    assert all(g["status"] != "playing" for g in dying)

    # No engine played two ladder games at once (its concurrency is 1).
    for name in (*STRENGTH, "dying"):
        played = sorted(
            _games_of(http, name), key=lambda g: dt.datetime.fromisoformat(g["created_at"])
        )
        assert all(g["ladder"] for g in played)
        for before, after in itertools.pairwise(played):
            assert before["ended_at"] is not None, (name, before)
            ended, made = (dt.datetime.fromisoformat(before["ended_at"]), after["created_at"])
            assert ended <= dt.datetime.fromisoformat(made), (name, before, after)

    # Each pair: one opening, the seats swapped; every engine told its Opponent. (The
    # opening is read from each game's record: a finished game's row keeps no Turn once
    # the game is packed.)
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        legs = db.execute(
            "SELECT l.pair, l.leg, g.id, "
            " (SELECT group_concat(registration, ',') FROM "
            '   (SELECT registration FROM seats WHERE game_id = g.id ORDER BY "index")) '
            "FROM ladder_games l JOIN games g ON g.id = l.game_id ORDER BY l.pair, l.leg"
        ).fetchall()
        # (One statement: the ladder goes on making games while the test reads.)
        unplaced = db.execute(
            "SELECT count(*) FROM games g WHERE g.ladder AND NOT EXISTS "
            "(SELECT 1 FROM ladder_games l WHERE l.game_id = g.id)"
        ).fetchone()[0]
    assert unplaced == 0 and len({(pair, leg) for pair, leg, _, _ in legs}) == len(legs)
    pairs: dict[int, list[tuple[str, str]]] = {}
    for pair, _leg, game_id, seated in legs:
        record = http.get(f"/games/{game_id}.json").json()
        assert record["start_tray"], record  # from one of the Set's openings
        pairs.setdefault(pair, []).append((record["start_tray"], seated))
    whole = [games for games in pairs.values() if len(games) == 2]
    assert len(whole) >= 12  # (some 40 games were played: about 20 pairs)
    for (first_a, seats_a), (first_b, seats_b) in whole:
        assert first_a == first_b and seats_b.split(",") == seats_a.split(",")[::-1]
    assert len({games[0][0] for games in whole}) > 5  # the suite's openings, not one
    for name in STRENGTH:
        told = engines.opponents[f"/{name}"] - {""}
        assert told and told <= set(ids.values()) - {ids[name]}, (name, told)

    # What people see: its page and the table say why; /metrics counts it.
    page = http.get(f"/engines/{ids['dying']}").text
    assert "Paused by its faults: timeout" in page
    assert "Paused: timeout" in http.get("/ladder/ConnectFour").text
    metrics = http.get("/metrics").text
    assert 'tournoyons_ladder_engines_paused{set="ConnectFour"} 1.0' in metrics

    # Its owner puts it back: no longer paused (its faults forgotten); then takes it off.
    path = f"/api/engines/{ids['dying']}"
    back = http.post(path, json={"token": tokens["dying"], "ladder": True}).json()
    assert back["ladder_paused"] is None
    [row] = [e for e in board(http, "ConnectFour") if e["name"] == "dying"]
    assert not row["paused"] and row["reason"] == ""
    http.post(path, json={"token": tokens["dying"], "ladder": False})
    assert "dying" not in [e["name"] for e in board(http, "ConnectFour")]
