"""Tarot's four seats in the Arbitre, over real HTTP (tarot.md section 3): a
Tournoyons engine of the tests' own plays whole matches with three built-in engines; one
that plays an illegal card, one that answers late, each loses with Status 9 and the match
ends there, the others' totals standing; spectators see no hand unless the table is open;
a replay shows every hand; the match option ``deals``."""

from __future__ import annotations

import asyncio
import time
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest

from tests.arbitre.conftest import Served, builtin_engines
from tests.arbitre.engines import QuirkyEngines, Received
from tournoyons_gui.interfaces.tarot.engines import random_engine

pytestmark = pytest.mark.arbitre

HIDDEN_CARD = "??"


def fields(tray: str) -> list[str]:
    """Return a Tarot Tray's nine fields."""
    parts = tray.split(".")
    assert len(parts) == 9, tray
    return parts


def hands(tray: str) -> list[str]:
    """Return the four hands of a Tarot Tray, each as written (2 characters a card)."""
    return fields(tray)[2:6]


def shown(hand: str) -> bool:
    """Whether every card of ``hand`` is shown (no ``??``)."""
    return HIDDEN_CARD not in [hand[at : at + 2] for at in range(0, len(hand), 2)]


class TarotEngines(QuirkyEngines):
    """Tarot engines of the tests' own on 127.0.0.1, each path one behaviour; each checks
    what it is shown (``view_errors``: what broke the four-seat contract):

    - ``/tarot``: calls back with a legal Value before answering, as real engines do;
    - ``/tarot-illegal``: plays legally until its first card of deal 2, then a card it
      does not hold (``78``);
    - ``/tarot-late``: plays legally until its first card of deal 2, then calls back
      after its TimeOut.
    """

    view_errors: list[str]

    def __init__(self) -> None:
        super().__init__()
        self.view_errors = []

    def check_view(self, params: dict[str, str]) -> None:
        """Record what in ``params`` breaks the four-seat contract: ``Players=4``, a
        ``Seat`` 1-4, its own hand shown and no other."""
        seat = params.get("Seat", "")
        if params.get("Players") != "4" or seat not in ("1", "2", "3", "4"):
            self.view_errors.append(f"Seat {seat!r}, Players {params.get('Players')!r}")
            return
        for number, hand in enumerate(hands(params["Tray"]), 1):
            if hand and shown(hand) != (number == int(seat)):
                self.view_errors.append(f"seat {seat} shown hand {number}: {params['Tray']}")

    async def _behave(
        self, path: str, params: dict[str, str], in_progress: bool, writer: asyncio.StreamWriter
    ) -> None:
        ok = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nOK"
        if not in_progress:
            writer.write(ok)
            await writer.drain()
            return
        self.check_view(params)
        head = fields(params["Tray"])[0]
        second_deal_card = head[2:] == "P" and int(head[:2]) >= 2
        if path == "/tarot-illegal" and second_deal_card:
            await self._callback(params, value="78")
        elif path == "/tarot-late" and second_deal_card:
            await asyncio.sleep(int(params.get("TimeOut", "4")) + 1.5)
            await self._callback(params, value=random_engine(params))
        else:
            await self._callback(params, value=random_engine(params))
        writer.write(ok)
        await writer.drain()


@pytest.fixture(scope="module")
def tarot() -> Iterator[TarotEngines]:
    """The Tarot engines of the tests' own on 127.0.0.1."""
    engines = TarotEngines()
    engines.start()
    try:
        yield engines
    finally:
        engines.stop()


def in_progress(engines: TarotEngines, path: str) -> list[Received]:
    """Return the in-progress requests ``path`` received."""
    return [r for r in engines.requests_to(path) if r.query.get("Referee")]


def finals(engines: TarotEngines, path: str, within: float = 10) -> list[Received]:
    """Return the final calls ``path`` received, waiting for the first one (they are sent
    once the game is recorded over)."""
    deadline = time.monotonic() + within
    while True:
        found = [r for r in engines.requests_to(path) if not r.query.get("Referee")]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def view(served: Served, game_id: str, **params: Any) -> str:
    """Return the Tray of the page ``/games/<id>/view`` gives for ``params``."""
    answer = served.http.get(f"/games/{game_id}/view", params=params)
    assert answer.status_code == 200, answer.text
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(answer.json()["src"]).query)
    return str(query["Tray"][0])


def deals_played(record: dict[str, Any]) -> int:
    """Return the deals scored in a record: positions of phase S after 18 tricks."""
    return sum(
        1
        for move in record["moves"]
        if fields(move["tray"])[0].endswith("S") and len(fields(move["tray"])[8]) == 180
    )


def test_an_engine_of_ours_plays_a_whole_match_with_three_built_ins(
    served: Served, tarot: TarotEngines
) -> None:
    seats = builtin_engines("strong", "random", "strong")
    seats.insert(1, {"kind": "engine", "engine": f"{tarot.base}/tarot", "name": "Ours"})
    game_id = served.create("Tarot", seats)
    record = served.finished(game_id, within=180)
    assert record["status"] == "over", record["reason"]
    assert record["result"] == "ranked", record["reason"]
    assert deals_played(record) == 4  # the default match: each seat deals once
    scores = [s["score"] for s in record["seats"]]
    assert sum(scores) == 0 and all(isinstance(score, int) for score in scores)
    ranks = [s["rank"] for s in record["seats"]]
    assert ranks == [1 + sum(other > mine for other in scores) for mine in scores]
    assert [s["status"] for s in record["seats"]] == [1 if r == 1 else 3 for r in ranks]
    # The engine was asked only when it had to act, with the four-seat parameters.
    asked = in_progress(tarot, "/tarot")
    assert asked and not tarot.view_errors, tarot.view_errors[:3]
    assert {r.query["Seat"] for r in asked} == {"2"}
    assert all(r.query["Set"] == "Tarot" for r in asked)
    ours = [m for m in record["moves"] if m["seat"] == 1]
    assert len(asked) == len(ours)
    # Its final call: Status with its Rank beside it (T-decision 5), the four totals as
    # stored, no MoveId.
    (final,) = finals(tarot, "/tarot")
    assert final.query["Status"] == str(record["seats"][1]["status"])
    assert final.query["Rank"] == str(ranks[1])
    assert [int(final.query[f"Gain{n}"]) for n in range(1, 5)] == scores
    assert "MoveId" not in final.query and final.query["Seat"] == "2"


@pytest.mark.parametrize(
    ("path", "error"), [("/tarot-illegal", "illegal Value '78'"), ("/tarot-late", "")]
)
@pytest.mark.slow
def test_a_seat_that_fails_loses_and_the_others_totals_stand(
    served: Served, tarot: TarotEngines, path: str, error: str
) -> None:
    seats = builtin_engines("random", "random", "random")
    seats.insert(2, {"kind": "engine", "engine": f"{tarot.base}{path}", "name": "Failing"})
    game_id = served.create("Tarot", seats, timeout=4, deals=3)
    record = served.finished(game_id, within=180)
    assert record["status"] == "over" and record["result"] == "ranked"
    failing = record["seats"][2]
    assert failing["status"] == 9 and failing["rank"] == 4, failing
    assert error in failing["error"] and failing["error"]
    assert record["reason"].startswith("Failing loses")
    assert deals_played(record) < 3  # the match ended there
    others = [s for s in record["seats"] if s["index"] != 2]
    scores = [s["score"] for s in record["seats"]]
    assert sum(scores) == 0
    for seat in others:  # ranked by their totals as they stood
        assert seat["rank"] == 1 + sum(o["score"] > seat["score"] for o in others)
        assert seat["status"] == (1 if seat["rank"] == 1 else 3)
    # A deal played to its end is scored; one the four passed scores nothing (random
    # bidders all pass now and then), and the failing seat fails in the deal after.
    assert any(score != 0 for score in scores) == (deals_played(record) >= 1), record["reason"]
    (final,) = finals(tarot, path)
    assert final.query["Status"] == "9" and final.query["Rank"] == "4"


def test_spectators_see_no_hand_unless_the_table_is_open_and_replays_every_hand(
    served: Served,
) -> None:
    answer = served.http.post(
        "/api/games",
        json={
            "set": "Tarot",
            "seats": [
                {"kind": "person", "name": "Ann"},
                *builtin_engines("random", "random", "strong"),
            ],
            "options": {"deals": 1},
        },
    )
    assert answer.status_code == 201, answer.text
    closed, token = answer.json()["id"], answer.json()["persons"][0]["url"].split("seat=")[1]
    open_id = served.create("Tarot", builtin_engines("random", "random", "random", "random"))
    opened = served.create(
        "Tarot",
        [{"kind": "person"}, *builtin_engines("random", "random", "random")],
        open_table=True,
    )
    # A spectator of a closed table: no hand; the record withholds the values.
    assert not any(shown(hand) for hand in hands(view(served, closed)))
    assert served.record(closed)["hidden"] is True
    # Ann's page: her own hand only.
    mine = hands(view(served, closed, seat=token))
    assert shown(mine[0]) and not any(shown(hand) for hand in mine[1:])
    # An open table: the spectators see every hand, the record too.
    assert all(shown(hand) for hand in hands(view(served, opened)))
    record = served.record(opened)
    assert record["hidden"] is False and record["options"]["open_table"] is True
    # A finished game's replay shows every hand at every position.
    done = served.finished(open_id, within=180)
    for move in (1, len(done["moves"]) // 2):
        assert all(shown(hand) for hand in hands(view(served, open_id, move=move)))
        assert all(shown(hand) for hand in hands(done["moves"][move - 1]["tray"]))


def test_the_deals_option_is_checked_and_stored(served: Served) -> None:
    game_id = served.create(
        "Tarot", builtin_engines("random", "strong", "random", "strong"), deals=1
    )
    record = served.finished(game_id, within=120)
    assert record["options"]["deals"] == 1 and deals_played(record) == 1
    for options, refused in (
        ({"deals": 0}, "1 to 40 deals"),
        ({"deals": "four"}, "deals is a whole number"),
        ({"deals": True}, "deals is a whole number"),
    ):
        answer = served.http.post(
            "/api/games",
            json={"set": "Tarot", "seats": builtin_engines(*["random"] * 4), "options": options},
        )
        assert answer.status_code == 400 and refused in answer.json()["error"], answer.text
    answer = served.http.post(
        "/api/games",
        json={
            "set": "TicTacToe",
            "seats": builtin_engines("random", "random"),
            "options": {"deals": 2},
        },
    )
    assert answer.status_code == 400 and "not played in deals" in answer.json()["error"]
    answer = served.http.post(
        "/api/games", json={"set": "Tarot", "seats": builtin_engines("random", "random")}
    )
    assert answer.status_code == 400 and "played by 4 seats, not 2" in answer.json()["error"]


def test_the_new_game_form_has_a_row_per_seat_and_starts_a_tarot_game(served: Served) -> None:
    form = served.http.get("/arbitre/new", params={"set": "Tarot"})
    assert form.status_code == 200
    for number in (1, 2, 3, 4):
        assert f'data-seat="{number}"' in form.text
    posted = {
        "set": "Tarot",
        **{f"seat{n}_kind": "builtin" for n in (1, 2, 3, 4)},
        **{f"seat{n}_builtin": "random" for n in (1, 2, 3, 4)},
        "seat3_name": "Cleo",
        "timeout": "20",
        "level": "1",
        "deals": "1",
        "open_table": "on",
    }
    answer = served.http.post("/arbitre/games", data=posted, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    game_id = answer.headers["location"].split("/games/")[1].split("?")[0]
    record = served.finished(game_id, within=120)
    assert [s["name"] for s in record["seats"]] == ["random", "random", "Cleo", "random"]
    assert record["options"]["deals"] == 1 and record["options"]["open_table"] is True
