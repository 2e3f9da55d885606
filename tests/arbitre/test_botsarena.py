"""botsarena's JSON bots (seed 003) in the Arbitre, over real HTTP on 127.0.0.1: bots of the
tests' own that play well or misbehave (late, a string column, a full column, invalid JSON,
HTTP 500), against a built-in engine, a Tournoyons engine and a person; and our built-in
ConnectFour engines answering botsarena's JSON, with the seed's own example messages."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from tests.arbitre.conftest import (
    Served,
    play_as_person,
    server_process,
    start_with_person,
    wait_moves,
)
from tests.arbitre.threaded import Threaded

# The seed's own example messages (003, "Message d'initialisation", "Message vous demandant
# de jouer").
SEED_INIT = (
    '{"game-id":"1126","action":"init","game":"connectFour","players":2,"board":"",'
    '"player-index":0}'
)
SEED_PLAY = (
    '{"game-id":"9916","action":"play-turn","game":"connectFour","players":2,"board":'
    '[["","","","","","",""],["","","","","","",""],["","","","","","",""],'
    '["","","","","","",""],["","","","","","",""],["","","","","","",""]],'
    '"you":"X","player-index":0}'
)


def lowest_free(board: list[list[str]]) -> int:
    """Return the leftmost column with room."""
    return next(c for c in range(7) if board[5][c] == "")


class Bots(Threaded):
    """Bots of the tests' own. ``/good`` (and ``/again``, for one test alone): the leftmost
    column with room, as a number;
    ``/string``: the same as a one-digit string; ``/late``: answers after 2.5 s; ``/full``:
    always column 0; ``/junk``: not JSON; ``/crash``: HTTP 500. Every message is kept."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, dict[str, Any]]] = []
        routes = [
            Route(f"/{name}", self.handle, methods=["POST"])
            for name in ("good", "again", "string", "late", "full", "junk", "crash", "deep")
        ]
        super().__init__(routes)

    async def handle(self, request: Request) -> Response:
        """Answer as the path says."""
        name = request.url.path.strip("/")
        message = json.loads(await request.body())
        self.messages.append((name, message))
        if message["action"] == "init":
            return JSONResponse({"name": f"bot-{name}"})
        column = lowest_free(message["board"])
        if name == "late":
            await asyncio.sleep(2.5)
        if name == "string":
            return JSONResponse({"play": str(column)})
        if name == "full":
            return JSONResponse({"play": 0})
        if name == "junk":
            return PlainTextResponse("play: 3")
        if name == "crash":
            return PlainTextResponse("oops", 500)
        if name == "deep":  # JSON nested beyond any parser's recursion
            return PlainTextResponse("[" * 50_000, media_type="application/json")
        return JSONResponse({"play": column})


@pytest.fixture(scope="module")
def bots() -> Iterator[Bots]:
    """The bots on 127.0.0.1."""
    with Bots().running() as running:
        yield running


def bot(bots: Bots, name: str) -> dict[str, str]:
    """A botsarena seat."""
    return {"kind": "botsarena", "engine": f"{bots.base}/{name}", "name": name}


@pytest.mark.parametrize("path", ["good", "string"])
def test_a_bot_plays_a_whole_game_against_a_built_in_engine(
    served: Served, bots: Bots, path: str
) -> None:
    game_id = served.create(
        "ConnectFour", [bot(bots, path), {"kind": "builtin", "engine": "random"}]
    )
    record = served.finished(game_id)
    assert record["status"] == "over" and record["result"] in ("seat1", "seat2", "draw")
    assert [s["error"] for s in record["seats"]] == ["", ""], record["seats"]
    assert record["seats"][0]["kind"] == "botsarena"
    # The seat got init once, then one play-turn per move of its own, as the seed says.
    sent = [
        json.loads(e["detail"].split(" ", 2)[2])
        for e in record["exchanges"]
        if e["seat"] == 0 and e["kind"] == "request"
    ]
    assert sent[0]["action"] == "init" and sent[0]["board"] == "" and sent[0]["player-index"] == 0
    turns = sent[1:]
    assert all(t["action"] == "play-turn" and t["game"] == "connectFour" for t in turns)
    assert all(t["you"] == "X" and t["player-index"] == 0 and t["players"] == 2 for t in turns)
    assert len(turns) == len([m for m in record["moves"] if m["seat"] == 0])
    assert turns[0]["board"] == [[""] * 7 for _ in range(6)]
    # Each board is the position the bot was asked in: row 0 at the bottom, X and O.
    for turn, move in zip(
        turns[1:], [m for m in record["moves"] if m["seat"] == 0][1:], strict=True
    ):
        tray = record["moves"][move["number"] - 2]["tray"]
        expected = [
            [{"0": "", "1": "X", "2": "O", "3": "X", "4": "O"}[tray[r * 7 + c]] for c in range(7)]
            for r in range(6)
        ]
        assert turn["board"] == expected
    # The record says the value as a column letter.
    assert all(m["value"] in "ABCDEFG" for m in record["moves"])


def test_a_bot_plays_second_against_a_tournoyons_engine(
    served: Served, bots: Bots, elsewhere: str
) -> None:
    engine = {"kind": "engine", "engine": f"{elsewhere}/engines/connectfour/random"}
    game_id = served.create("ConnectFour", [engine, bot(bots, "good")])
    record = served.finished(game_id)
    assert record["status"] == "over" and [s["error"] for s in record["seats"]] == ["", ""]
    sent = [
        json.loads(e["detail"].split(" ", 2)[2])
        for e in record["exchanges"]
        if e["seat"] == 1 and e["kind"] == "request"
    ]
    assert sent[0]["player-index"] == 1
    assert all(t["you"] == "O" for t in sent[1:])
    # The engine got no botsarena message, and its final call; the bot has none.
    finals = [e for e in record["exchanges"] if e["kind"] == "final"]
    assert [f["seat"] for f in finals] == [0]


def test_a_person_plays_a_bot(served: Served, bots: Bots) -> None:
    answer = served.http.post(
        "/api/games",
        json={"set": "ConnectFour", "seats": [{"kind": "person"}, bot(bots, "good")]},
    )
    token = answer.json()["persons"][0]["url"].split("seat=", 1)[1]
    game_id = answer.json()["id"]
    number, deadline = 1, time.monotonic() + 60
    while served.record(game_id)["status"] == "playing":
        assert time.monotonic() < deadline
        played = served.http.get(f"/play/{token}/{number}", params={"ReturnValue": "G"})
        if played.status_code == 200:
            number += 2
        elif played.status_code == 422:  # column G full: the next one
            served.http.get(f"/play/{token}/{number}", params={"ReturnValue": "F"})
        time.sleep(0.05)
    record = served.record(game_id)
    assert record["status"] == "over" and record["seats"][1]["error"] == ""


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("late", "no answer within 1 s"),
        ("junk", "not JSON"),
        ("crash", "HTTP 500"),
        ("deep", "not JSON"),
        ("full", "illegal"),
    ],
)
def test_a_misbehaving_bot_loses_with_the_reason_recorded(
    served: Served, bots: Bots, path: str, why: str
) -> None:
    # Against /good, which fills column A with /full: A is full after six moves, no four.
    other = bot(bots, "good") if path == "full" else {"kind": "builtin", "engine": "random"}
    game_id = served.create("ConnectFour", [bot(bots, path), other], bot_timeout=1)
    record = served.finished(game_id)
    assert record["result"] == "seat2", record["reason"]
    assert why in record["seats"][0]["error"], record["seats"][0]
    assert [s["status"] for s in record["seats"]] == [3, 2]
    if path == "full":  # column A was full when the bot played it again
        assert len(record["moves"]) == 6, record["moves"]
        tray = record["moves"][-1]["tray"]
        assert all(tray[row * 7] != "0" for row in range(6)), tray
        assert "A" in record["seats"][0]["error"]


def test_botsarena_seats_are_refused_where_they_cannot_play(served: Served) -> None:
    for seat, why in [
        ({"kind": "botsarena", "engine": "http://127.0.0.1:1/"}, "no botsarena"),
        ({"kind": "botsarena", "engine": "javascript:alert(1)"}, "http"),
    ]:
        answer = served.http.post(
            "/api/games",
            json={
                "set": "TicTacToe" if "127" in seat["engine"] else "ConnectFour",
                "seats": [seat, {"kind": "person"}],
            },
        )
        assert answer.status_code == 400 and why in answer.json()["error"], answer.text
    answer = served.http.post(
        "/api/games",
        json={
            "set": "ConnectFour",
            "seats": [{"kind": "botsarena", "engine": "http://127.0.0.1:1/"}, {"kind": "person"}],
            "options": {"bot_timeout": 0},
        },
    )
    assert answer.status_code == 400


def test_our_engines_answer_the_seeds_own_messages(served: Served) -> None:
    for name in ("random", "strong"):
        url = f"/engines/connectfour/{name}/botsarena"
        init = served.http.post(
            url, content=SEED_INIT, headers={"Content-Type": "application/json"}
        )
        assert init.status_code == 200 and init.json() == {"name": name}
        play = served.http.post(
            url, content=SEED_PLAY, headers={"Content-Type": "application/json"}
        )
        assert play.status_code == 200
        column = play.json()["play"]
        assert isinstance(column, int) and 0 <= column <= 6
    # The strong engine takes a win on the board: three X on row 0, columns 0-2.
    board = [["X", "X", "X", "", "", "", ""], ["O", "O", "O", "", "", "", ""]] + [
        [""] * 7 for _ in range(4)
    ]
    message = {**json.loads(SEED_PLAY), "board": board}
    play = served.http.post("/engines/connectfour/strong/botsarena", json=message)
    assert play.json() == {"play": 3}
    for bad in (
        b"not json",
        b"[1]",
        b'{"action":"dance"}',
        b'{"action":"play-turn","board":[]}',
    ):
        answer = served.http.post("/engines/connectfour/strong/botsarena", content=bad)
        assert answer.status_code == 400 and "error" in answer.json()
    # A body past its limit is not read further: 413.
    answer = served.http.post("/engines/connectfour/strong/botsarena", content=b"[" * 50_000)
    assert answer.status_code == 413 and "error" in answer.json()
    assert (
        served.http.post("/engines/tictactoe/perfect/botsarena", content=SEED_PLAY).status_code
        == 404
    )


@pytest.mark.slow
def test_a_resumed_game_does_not_greet_its_bot_again(tmp_path: Path, bots: Bots) -> None:
    """The bot gets ``init`` once per game, told by the records: a server stopped after the
    bot's first move and another one resuming the game send it ``play-turn`` only."""
    database = tmp_path / "arbitre.sqlite3"
    with server_process(database) as client:
        seats = [bot(bots, "again"), {"kind": "person"}]
        game_id, token = start_with_person(client, "ConnectFour", seats)
        wait_moves(client, game_id, 1)
    with server_process(database) as client:
        play_as_person(client, token, 2, "D")
        wait_moves(client, game_id, 3)
    actions = [message["action"] for name, message in bots.messages if name == "again"]
    assert actions == ["init", "play-turn", "play-turn"]
