"""Seafight's engine view and built-in engines (engine protocol section 4, SeaFight;
decisions 14, 15, 17, 23)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.interfaces import drive
from tests.seafight_fleets import FLEET, OTHER, OTHER_CELLS
from tournoyons_gui.interfaces import IllegalMove, Player
from tournoyons_gui.interfaces.plugin import Turn
from tournoyons_gui.interfaces.protocol import read_context
from tournoyons_gui.interfaces.seafight import interface
from tournoyons_gui.interfaces.seafight.board import build
from tournoyons_gui.interfaces.seafight.engines import hunter_engine, random_engine
from tournoyons_gui.interfaces.seafight.fleet import (
    EMPTY_SHOTS,
    check_classic,
    read_cell,
    read_fleet,
)

rules = drive.arbitre_rules(interface)


def shots(**codes: str) -> str:
    cells = list(EMPTY_SHOTS)
    for name, code in codes.items():
        cells[read_cell(name) or 0] = code
    return "".join(cells)


def play(turn: Turn, *values: str) -> Turn:
    for value in values:
        turn = rules.play(turn.state, value)
    return turn


def fired() -> Turn:
    """Both fleets placed, one has hit G0 (two's G0-H0), two has hit A0 (one's A0-E0)."""
    return play(rules.start(), FLEET, OTHER, "G0", "A0")


def page_ok(params: Mapping[str, str]) -> bool:
    return "Input" not in params and build(read_context(urlencode(params))).errors == ()


def test_the_set_is_spelled_seafight_for_engines_with_one_level() -> None:
    assert rules.engine_set == "SeaFight" and rules.levels == (1,)
    assert set(interface.engines) == {"random", "hunter"}


def test_fleets_on_turns_one_and_two_with_init_or_the_explicit_board() -> None:
    turn = rules.start()
    assert rules.asked(turn.state) == (Player.ONE,)
    request = rules.request(turn.state, Player.ONE)
    assert (request.move_id, dict(request.params)) == (1, {"Turn": "1", "Tray": "Init"})
    explicit = rules.request(turn.state, Player.ONE, init_as_board=True)
    assert dict(explicit.params) == {"Turn": "1", "Tray": "0" * 200}
    turn = play(turn, FLEET)
    assert rules.asked(turn.state) == (Player.TWO,)
    request = rules.request(turn.state, Player.TWO)
    assert (request.move_id, dict(request.params)) == (2, {"Turn": "2", "Tray": "Init"})
    turn = play(turn, OTHER)
    request = rules.request(turn.state, Player.ONE)  # the first shot: still no shot at all
    assert (request.move_id, dict(request.params)) == (3, {"Turn": "3", "Tray": "Init"})
    assert rules.request(turn.state, Player.ONE, init_as_board=True).params["Tray"] == "0" * 200


def test_tray_is_own_shots_then_shots_on_own_board_and_move_carries_the_result() -> None:
    turn = play(rules.start(), FLEET, OTHER, "G0")
    request = rules.request(turn.state, Player.TWO, init_as_board=True)
    assert (request.move_id, dict(request.params)) == (
        4,
        {"Turn": "4", "Move1": "G02", "Tray": EMPTY_SHOTS + shots(G0="2")},
    )
    assert rules.request(turn.state, Player.TWO).params["Tray"] != "Init"
    turn = play(turn, "A0")
    request = rules.request(turn.state, Player.ONE)
    assert (request.move_id, dict(request.params)) == (
        5,
        {"Turn": "5", "Move2": "A02", "Tray": shots(G0="2") + shots(A0="2")},
    )
    turn = play(turn, "H0")  # sinks G0-H0: both its cells become 3
    request = rules.request(turn.state, Player.TWO)
    assert request.params["Move1"] == "H03"
    assert request.params["Tray"] == shots(A0="2") + shots(G0="3", H0="3")


@pytest.mark.parametrize(
    "fleet",
    [
        "",
        "A0",
        "H5A01",
        FLEET + "H2A91",
        "H5G01V4H21H3C51V3A71H2F81",  # sizes, past the edge
        "H5A01V4A01H3C51V3A71H2F81",  # overlap
        "H5A02V4H21H3C51V3A71H2F81",  # a ship already hit
        "H5A01V4H21H3C51V3A71H2F8",
    ],
)
def test_a_bad_fleet_is_illegal(fleet: str) -> None:
    with pytest.raises(IllegalMove, match="fleet"):
        rules.engine_value(rules.start().state, Player.ONE, fleet)


def test_a_fleet_is_written_back_intact_and_a_person_may_write_i() -> None:
    state = rules.start().state
    written = FLEET.replace("1", "I").replace("AI", "A1")  # V4H2I ... the manual's I state
    assert rules.engine_value(state, Player.ONE, FLEET) == FLEET
    assert rules.person_value(state, Player.ONE, written.lower()) == FLEET


@pytest.mark.parametrize("value", ["K1", "A10", "A", "", FLEET, "1A", "A0 "])
def test_shots_outside_the_syntax_are_illegal(value: str) -> None:
    with pytest.raises(IllegalMove, match="not a cell"):
        rules.engine_value(fired().state, Player.ONE, value)


def test_shooting_the_same_cell_twice_is_illegal_and_only_the_asked_player_plays() -> None:
    turn = fired()
    assert rules.engine_value(turn.state, Player.ONE, "G1") == "G1"
    with pytest.raises(IllegalMove, match="already"):
        rules.engine_value(turn.state, Player.ONE, "G0")
    assert rules.engine_value(turn.state, Player.ONE, "A0") == "A0"  # two's board: free
    with pytest.raises(IllegalMove, match="not asked"):
        rules.engine_value(turn.state, Player.TWO, "B0")
    assert rules.person_value(turn.state, Player.ONE, " h0 ") == "H0"


def scripted_win() -> Turn:
    """One sinks two's whole fleet while two fires at water."""
    turn = play(rules.start(), FLEET, OTHER)
    water = [f"{c}{r}" for c in "IJ" for r in range(10)]
    for n, cell in enumerate(OTHER_CELLS):
        turn = play(turn, cell)
        if n < len(OTHER_CELLS) - 1:
            turn = play(turn, water[n])
    return turn


def test_the_game_ends_when_a_fleet_is_sunk_and_the_final_call_reveals_both_fleets() -> None:
    turn = scripted_win()
    assert turn.over
    result = rules.result(turn.state)
    assert result is not None and result.winner is Player.ONE
    assert rules.asked(turn.state) == ()
    with pytest.raises(IllegalMove, match="over"):
        rules.engine_value(turn.state, Player.TWO, "A0")
    # 2 fleets + 17 shots of one + 16 of two.
    final = rules.final(turn.state, Player.TWO)
    assert list(final) == ["Turn", "Gain1", "Gain2", "Move1", "Tray"]
    assert final["Turn"] == "35" and final["Move1"] == "H03"
    assert final["Gain1"] == FLEET and final["Gain2"] == "V5B13H4E33V3J53H3D83H2G03"
    assert len(final["Tray"]) == 200 and final["Tray"][100:].count("3") == 17
    assert rules.final(turn.state, Player.ONE)["Move2"] == "J51"


def test_in_progress_requests_never_carry_a_fleet() -> None:
    played = drive.play_out(interface, ("hunter", "random"))
    assert played.result is not None and played.turns[-1].over
    for player, params in played.requests:
        assert not {"Gain1", "Gain2"} & set(params) and params["Set"] == "SeaFight"
        turn = int(params["Turn"])
        assert params["MoveId"] == params["Turn"] and turn % 2 == int(player) % 2
        assert set(params) & {"Move1", "Move2"} <= {f"Move{player.opponent}"}
        tray = params["Tray"]
        assert tray == "Init" or (len(tray) == 200 and set(tray) <= set("0123"))
    assert [p["Turn"] for _, p in played.requests] == [
        str(n) for n in range(1, len(played.requests) + 1)
    ]


def test_a_persons_page_shows_only_their_fleet_and_the_others_sunk_ships() -> None:
    turn = rules.start()
    assert rules.page(turn, Player.ONE, asking=True) == {"Method": "Prepare", "Count": "0"}
    turn = play(turn, FLEET)
    waiting = rules.page(turn, Player.ONE, asking=False)
    assert waiting["Method"] == "Inverse" and waiting["Gain1"] == FLEET and "Gain2" not in waiting
    turn = play(turn, OTHER, "G0", "A0", "H0")  # one sinks G0-H0
    one = rules.page(turn, Player.ONE, asking=False)
    assert one["Method"] == "Inverse" and one["Gain1"].startswith("H5A02")
    assert one["Gain2"] == "H2G03" and one["Move2"] == "H03" and "Move1" not in one
    two = rules.page(turn, Player.TWO, asking=True)
    assert two["Method"] == "Standard" and two["Gain2"] == OTHER.replace("H2G01", "H2G03")
    assert two["Gain1"] == "" and two["Tray"] == shots(A0="2") + "***" + shots(G0="3", H0="3")
    assert all(page_ok(page) for page in (waiting, one, two))


def test_spectators_see_fleets_only_at_the_end_or_in_a_replay() -> None:
    turn = play(rules.start(), FLEET, OTHER, "G0", "A0", "H0")
    live = rules.page(turn, None, asking=False)
    assert live["Method"] == "Double" and not {"Gain1", "Gain2"} & set(live)
    assert rules.page(play(rules.start(), FLEET), None, asking=False)["Method"] == "Double"
    replay = rules.page(turn, None, asking=False, reveal=True)
    assert replay["Method"] == "Double" and replay["Gain1"].startswith("H5A02")
    assert replay["Gain2"] == OTHER.replace("H2G01", "H2G03")
    end = rules.page(scripted_win(), None, asking=False)
    assert end["Method"] == "End" and end["Gain2"] == "V5B13H4E33V3J53H3D83H2G03"
    assert all(page_ok(page) for page in (live, replay, end))
    assert build(read_context(urlencode(end))).winner is Player.ONE


def test_engines_answer_a_legal_fleet_then_a_free_cell() -> None:
    for engine in (random_engine, hunter_engine):
        for turn in ("1", "2"):
            fleet = read_fleet(engine({"Set": "SeaFight", "Turn": turn, "Tray": "Init"}))
            check_classic(fleet)
        own = "1" * 99 + "0"  # every cell shot but J9
        assert engine({"Turn": "201", "Tray": own + EMPTY_SHOTS}) == "J9"


def test_hunter_fires_along_the_line_of_its_hits() -> None:
    params: dict[str, Any] = {"Turn": "9", "Tray": shots(E5="2") + EMPTY_SHOTS}
    assert {hunter_engine(params) for _ in range(40)} == {"E4", "E6", "D5", "F5"}
    params["Tray"] = shots(E5="2", F5="2", D5="1") + EMPTY_SHOTS
    assert {hunter_engine(params) for _ in range(20)} == {"G5"}
    params["Tray"] = shots(E5="3", F5="3") + EMPTY_SHOTS  # sunk: back to the pattern
    cells = {hunter_engine(params) for _ in range(40)}
    assert all((ord(c[0]) - 65 + int(c[1])) % 2 == 0 for c in cells)


@pytest.mark.parametrize(
    "engines",
    [("random", "random"), ("random", "hunter"), ("hunter", "random"), ("hunter", "hunter")],
)
def test_built_in_engines_play_legal_games_to_the_end(engines: tuple[str, str]) -> None:
    for _ in range(3):
        played = drive.play_out(interface, engines, init_as_board=engines[0] == "hunter")
        assert played.result is not None and played.result.winner is not None
        last = played.turns[-1]
        assert last.over and last.params["Method"] == "End"


def test_hunter_beats_random_in_most_games() -> None:
    wins = 0
    for game in range(10):
        seats = ("hunter", "random") if game % 2 else ("random", "hunter")
        played = drive.play_out(interface, seats)
        assert played.result is not None and played.result.winner is not None
        wins += seats[played.result.winner - 1] == "hunter"
    assert wins >= 8
