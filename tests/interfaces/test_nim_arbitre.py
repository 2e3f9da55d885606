"""The third-party Set Nim (``tests/plugins/tournoyons_nim``) played by the Arbitre's rules and
built-in engines, with no edit outside its own package."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from starlette.testclient import TestClient

from tests.interfaces import drive
from tournoyons_gui.interfaces import ArbitreRules, IllegalMove, Player, Turn
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_nim import interface
from tournoyons_nim.rules import NimRules

rules = drive.arbitre_rules(interface)
_TYPED: ArbitreRules = NimRules()  # mypy checks the protocol


def run(values: list[str]) -> list[Turn]:
    """Play ``values`` from a new game; return every turn, the first one included."""
    return drive.turns_from(rules, rules.start(), values)


def test_the_registered_set_has_arbitre_rules_and_engines() -> None:
    registered = load_registry().get("nim")
    assert registered is not None and registered.arbitre is not None
    assert rules.engine_set == "Nim" and rules.levels == (1,)
    assert list(interface.engines) == ["random", "perfect"]


def test_turn_one_gets_init_or_the_full_pile() -> None:
    state = rules.start().state
    assert rules.asked(state) == (Player.ONE,)
    request = rules.request(state, Player.ONE)
    assert (request.move_id, dict(request.params)) == (1, {"Turn": "1", "Tray": "Init"})
    assert rules.request(state, Player.ONE, init_as_board=True).params["Tray"] == "12"


def test_each_player_gets_the_opponents_last_take_and_the_matches_left() -> None:
    turns = run(["3", "2", "1"])
    assert rules.asked(turns[1].state) == (Player.TWO,)
    request = rules.request(turns[1].state, Player.TWO)
    assert (request.move_id, list(request.params.items())) == (
        2,
        [("Turn", "2"), ("Move1", "3"), ("Tray", "9")],
    )
    assert dict(rules.request(turns[2].state, Player.ONE).params) == {
        "Turn": "3",
        "Move2": "2",
        "Tray": "7",
    }
    assert dict(rules.request(turns[3].state, Player.TWO).params) == {
        "Turn": "4",
        "Move1": "1",
        "Tray": "6",
    }


@pytest.mark.parametrize("value", ["0", "4", "", "01", "A", "-1", "1 "])
def test_values_outside_the_syntax_are_illegal(value: str) -> None:
    with pytest.raises(IllegalMove, match="1, 2 or 3"):
        rules.engine_value(rules.start().state, Player.ONE, value)
    with pytest.raises(IllegalMove):
        rules.person_value(rules.start().state, Player.ONE, value)


def test_taking_more_than_is_left_or_out_of_turn_is_illegal() -> None:
    state = run(["3", "3", "3", "1"])[-1].state  # 2 left, player one to take
    assert rules.engine_value(state, Player.ONE, "2") == "2"
    with pytest.raises(IllegalMove, match="only 2"):
        rules.engine_value(state, Player.ONE, "3")
    with pytest.raises(IllegalMove, match="not asked"):
        rules.engine_value(state, Player.TWO, "1")


def test_who_takes_the_last_match_wins_and_the_final_call() -> None:
    turns = run(["3", "3", "3", "1", "2"])
    assert all(rules.result(turn.state) is None and not turn.over for turn in turns[:-1])
    end = turns[-1]
    assert end.over and end.params == {"Tray": "0", "Move1": "2", "Count": "5", "Method": "End"}
    result = rules.result(end.state)
    assert result is not None and result.winner is Player.ONE
    assert rules.asked(end.state) == ()
    assert dict(rules.final(end.state, Player.TWO)) == {"Turn": "5", "Move1": "2", "Tray": "0"}
    assert dict(rules.final(end.state, Player.ONE)) == {"Turn": "5", "Move2": "1", "Tray": "0"}
    with pytest.raises(IllegalMove, match="over"):
        rules.play(end.state, "1")
    with pytest.raises(IllegalMove, match="over"):
        rules.engine_value(end.state, Player.TWO, "1")


@pytest.mark.parametrize(
    "state", [{}, {"matches": "12"}, {"matches": 13}, {"matches": 5, "count": -1}]
)
def test_a_corrupt_state_is_refused(state: dict[str, object]) -> None:
    with pytest.raises(IllegalMove, match="corrupt"):
        rules.play(state, "1")


def test_pages_hide_nothing_never_carry_input_and_render(client: TestClient) -> None:
    for turn in run(["3", "2", "3", "2", "2"]):
        for viewer in (Player.ONE, Player.TWO, None):
            page = rules.page(turn, viewer, asking=viewer is not None)
            assert "Input" not in page
            assert page == rules.page(turn, None, asking=False)
        answer = client.get("/nim/?" + urlencode({**page, "Input": "One"}))
        assert answer.status_code == 200 and "data-error" not in answer.text
        assert f'data-matches="{page["Tray"].replace("Init", "12")}"' in answer.text


def test_the_testers_hot_seat_api_plays_nim(client: TestClient) -> None:
    new = client.post("/tester/nim/new")
    assert new.status_code == 200 and new.json()["params"]["Tray"] == "Init"
    played = client.post("/tester/nim/play", json={"state": new.json()["state"], "value": "3"})
    assert played.status_code == 200
    assert played.json()["params"] == {"Tray": "9", "Move1": "3", "Count": "1", "Input": "Two"}
    refused = client.post("/tester/nim/play", json={"state": new.json()["state"], "value": "4"})
    assert refused.status_code == 422


@pytest.mark.parametrize(
    "engines",
    [("random", "random"), ("random", "perfect"), ("perfect", "random"), ("perfect", "perfect")],
)
def test_built_in_engines_play_legal_games_to_the_end(engines: tuple[str, str]) -> None:
    wins = {Player.ONE: 0, Player.TWO: 0}
    games = 30
    for _ in range(games):
        played = drive.play_out(interface, engines)
        assert played.result is not None and played.result.winner is not None
        wins[played.result.winner] += 1
        assert played.turns[-1].params["Tray"] == "0"
        for player, params in played.requests:
            assert int(params["Turn"]) % 2 == (player is Player.ONE)
    if engines[1] == "perfect":
        # 12 is a multiple of 4: the second player, playing perfectly, always wins.
        assert wins[Player.TWO] == games
    elif engines[0] == "perfect":
        # The first player can only wait for random to miss a multiple of 4 (it does in
        # about 93% of games).
        assert wins[Player.ONE] >= games * 2 // 3
