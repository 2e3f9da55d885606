"""A new seat kind, written as docs/how-to/seat-kind.md says: one class with one ``ask``
and its registration, nothing else. It plays whole games through the real server and its JSON API,
beside the built-in kinds, and its failures are a seat's failures like any other's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.arbitre.conftest import Served
from tournoyons_gui.arbitre.answer import Answer
from tournoyons_gui.arbitre.seats import KINDS, Position, SeatKind, register, through_pages

pytestmark = pytest.mark.arbitre


class Fixed(SeatKind):
    """A seat that plays the values of a fixed list, given as the seat's ``engine``
    (``"5 1 9"``), one after the other; past the list's end it has nothing to say."""

    name = "fixed"
    label = "fixed"

    async def ask(self, position: Position, deadline: float | None) -> Answer:
        values = position.seat.url.split()
        mine = (position.number - 1) // len(position.seats)
        if mine >= len(values):
            return Answer.failure("late", "the list is over")
        return Answer(values[mine])


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """The server, started once the kind is registered (an Arbitre takes the kinds
    registered when it starts)."""
    register(Fixed)
    server = Served(tmp_path / "kinds.sqlite3")
    try:
        yield server
    finally:
        server.stop()
        KINDS.pop("fixed", None)


def test_a_new_kind_plays_a_whole_game_with_only_its_class_and_registration(
    served: Served,
) -> None:
    game_id = served.create(
        "TicTacToe",
        [
            {"kind": "fixed", "engine": "5 1 9", "name": "Lists"},
            {"kind": "fixed", "engine": "2 3"},
        ],
    )
    record = served.finished(game_id)
    assert record["status"] == "over"
    assert record["result"] == "seat1", record["reason"]
    assert [m["value"] for m in record["moves"]] == ["5", "2", "1", "3", "9"]
    assert [s["name"] for s in record["seats"]] == ["Lists", "fixed 2"]
    assert [s["status"] for s in record["seats"]] == [1, 4]
    assert not through_pages(type("S", (), {"kind": "fixed"})())


def test_a_new_kind_against_a_built_in_engine_and_its_illegal_value(served: Served) -> None:
    # 5 is legal, then 5 again is taken: the fixed seat loses with the rules' reason.
    game_id = served.create(
        "TicTacToe",
        [{"kind": "fixed", "engine": "5 5"}, {"kind": "builtin", "engine": "random"}],
    )
    record = served.finished(game_id)
    assert record["result"] == "seat2"
    assert "illegal Value '5'" in record["seats"][0]["error"]
    assert record["seats"][1]["status"] == 2


def test_an_unknown_kind_is_refused_with_the_kinds_known(served: Served) -> None:
    answer = served.http.post(
        "/api/games",
        json={"set": "TicTacToe", "seats": [{"kind": "oracle"}, {"kind": "fixed"}]},
    )
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert "'oracle'" in error and "fixed" in error and "person" in error


def test_an_irc_player_asked_for_through_the_api_is_refused_at_creation(served: Served) -> None:
    """Rooms seat their players themselves: an ``irc`` seat sent to ``POST /api/games`` is
    a 400 saying so, and no game is made (none listed)."""
    seats = [{"kind": "irc", "engine": "#p4-1", "name": "alice"}, {"kind": "builtin"}]
    answer = served.http.post("/api/games", json={"set": "ConnectFour", "seats": seats})
    assert answer.status_code == 400
    assert "seated by its room's referee" in answer.json()["error"]
    assert "data-game-row" not in served.http.get("/games").text
