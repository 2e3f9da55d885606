"""Seafight: fleets, the parser and view model, and the rules, without a browser.

Manual chapter V, "Bataille navale"; spec section 4 (Seafight) and its Decisions (``I`` read
as ``1``; the classic fleet 5, 4, 3, 3, 2, inside the board, no overlap).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.interfaces.helpers import with_codes
from tests.seafight_fleets import FLEET, FLEET_CELLS, OTHER, OTHER_CELLS
from tournoyons_gui.interfaces.plugin import IllegalMove, Turn
from tournoyons_gui.interfaces.protocol import Method, Player, read_context
from tournoyons_gui.interfaces.seafight import interface
from tournoyons_gui.interfaces.seafight import rules as seafight_rules
from tournoyons_gui.interfaces.seafight.board import SeafightView, build, read_tray
from tournoyons_gui.interfaces.seafight.fleet import (
    EMPTY_SHOTS,
    FleetError,
    Ship,
    cell_name,
    check_classic,
    check_layout,
    random_fleet,
    read_cell,
    read_fleet,
    read_shot,
    ship_state,
)
from tournoyons_gui.interfaces.seafight.rules import SeafightRules, fire


def shots(**codes: str) -> str:
    """Return a board's 100 shot codes with ``codes`` (cell name -> code) fired."""
    return with_codes(EMPTY_SHOTS, read_cell, codes)


def view(**params: str) -> SeafightView:
    """Build the view of a query made of ``params``."""
    return build(read_context(urlencode(params)))


def codes(**params: str) -> set[str]:
    return {error.code for error in view(**params).errors}


def states(board: Any) -> str:
    return "".join(cell.state for cell in board.cells)


# --- fleets -------------------------------------------------------------------------------


def test_a_ship_is_read_as_the_manual_writes_it() -> None:
    (ship,) = read_fleet("V3C5I")
    assert ship == Ship(vertical=True, size=3, column=2, row=5, state="1")
    assert ship.code == "V3C51"
    assert [cell_name(i) for i in ship.cells()] == ["C5", "C6", "C7"]
    (flat,) = read_fleet("h2j93")
    assert flat.code == "H2J93" and not flat.inside


def test_a_fleet_is_ships_concatenated_possibly_none() -> None:
    assert read_fleet("") == ()
    assert read_fleet(None) == ()
    fleet = read_fleet(FLEET)
    assert [ship.size for ship in fleet] == [5, 4, 3, 3, 2]
    assert {cell_name(i) for ship in fleet for i in ship.cells()} == FLEET_CELLS
    check_classic(fleet)


@pytest.mark.parametrize(
    "text", ["H5A0", "H5A011", "X5A01", "H6A01", "H1A01", "H5K01", "H5AA1", "H5A04", "H5A0I H"]
)
def test_unreadable_fleets_are_refused(text: str) -> None:
    with pytest.raises(FleetError):
        read_fleet(text)


@pytest.mark.parametrize(
    ("fleet", "why"),
    [
        ("H5G01", "edge"),  # G..K: past the right edge
        ("V4C71", "edge"),  # rows 7..10
        ("H5A01V3C01", "overlaps"),
        ("H2A01H2A01", "overlaps"),
    ],
)
def test_layout_inside_the_board_without_overlap(fleet: str, why: str) -> None:
    with pytest.raises(FleetError, match=why):
        check_layout(read_fleet(fleet))


@pytest.mark.parametrize(
    "fleet",
    [
        "",
        "H5A01V4H21H3C51V3A71",
        FLEET + "H2A91",
        "H5A01V4H21H3C51V3A71H3F81",
        "H5A01V4H21H3C51V3A71H2D51",
    ],
)
def test_a_prepared_fleet_is_the_classic_one_and_legal(fleet: str) -> None:
    with pytest.raises(FleetError):
        check_classic(read_fleet(fleet))


def test_random_fleets_are_always_legal_and_varied() -> None:
    rng = random.Random(4)
    seen = set()
    for _ in range(150):
        fleet = random_fleet(rng)
        check_classic(fleet)
        assert all(ship.state == "1" for ship in fleet)
        seen.add(fleet)
    assert len(seen) == 150
    assert any(ship.vertical for fleet in seen for ship in fleet)
    assert any(not ship.vertical for fleet in seen for ship in fleet)


def test_ship_state_follows_the_shots() -> None:
    (ship,) = read_fleet("H3C51")
    assert ship_state(ship, EMPTY_SHOTS) == "1"
    assert ship_state(ship, shots(D5="2")) == "2"
    assert ship_state(ship, shots(C5="3", D5="3", E5="3")) == "3"


def test_cells_and_shots() -> None:
    assert read_cell("A0") == 0 and read_cell("J9") == 99 and read_cell("C5") == 52
    assert read_cell("K0") is None and read_cell("A10") is None and read_cell("") is None
    assert read_shot("C53") == (52, "3")
    assert read_shot("C50") is None and read_shot("C5") is None


# --- Tray ---------------------------------------------------------------------------------


def test_init_and_absent_tray_are_two_boards_never_fired_at() -> None:
    assert read_tray("Init") == read_tray("INIT") == read_tray(None) == (EMPTY_SHOTS,) * 2
    one, two = shots(A0="1"), shots(J9="3")
    assert read_tray(f"{one}***{two}") == (one, two)


@pytest.mark.parametrize(
    "tray",
    [
        "0" * 200,  # no ***
        "0" * 100 + "***" + "0" * 99,  # a board of the wrong length
        "0" * 100 + "***" + "0" * 99 + "4",  # a bad code
        "0" * 100 + "***" + "0" * 100 + "***",  # three boards
        "***",
    ],
)
def test_unreadable_tray_is_two_empty_boards_with_nothing_playable(tray: str) -> None:
    built = view(Tray=tray, Input="One", Method="Inverse")
    assert {e.code for e in built.errors} == {"tray"}
    assert built.playable == () and built.player is None
    assert built.tray == EMPTY_SHOTS + "***" + EMPTY_SHOTS
    assert len(built.boards) == 2


# --- what each Method shows ---------------------------------------------------------------


def test_inverse_shows_player_one_fleet_and_player_two_sunk_ships_only() -> None:
    tray = f"{shots(H3='2', A5='1')}***{shots(G0='3', H0='3', E3='2')}"
    built = view(Method="Inverse", Tray=tray, Gain1=FLEET, Gain2=OTHER, Input="One")
    one, two = built.boards
    assert one.revealed and not two.revealed
    assert [s.code for s in one.ships] == ["H5A01", "V4H22", "H3C51", "V3A71", "H2F81"]
    assert [s.code for s in two.ships] == ["H2G03"]
    # The row under the hidden board: the sunk ship, and four not known yet.
    assert [(m.size, m.state) for m in two.fleet] == [
        (5, "0"),
        (4, "0"),
        (3, "0"),
        (3, "0"),
        (2, "3"),
    ]
    assert two.target and not one.target
    assert built.player is Player.ONE
    assert len(built.playable) == 97 and "G0" not in built.playable and "A5" in built.playable


def test_standard_is_the_same_for_player_two() -> None:
    tray = f"{shots(A0='3', B0='3', C0='3', D0='3', E0='3')}***{shots(B1='2')}"
    built = view(Method="Standard", Tray=tray, Gain1=FLEET, Gain2=OTHER, Input="Two")
    one, two = built.boards
    assert not one.revealed and two.revealed
    assert [s.code for s in one.ships] == ["H5A03"]
    assert two.ships[0].code == "V5B12"
    assert one.target and built.playable[0] == "F0" and len(built.playable) == 95


def test_double_and_end_show_every_fleet() -> None:
    for method in ("Double", "End"):
        built = view(Method=method, Gain1=FLEET, Gain2=OTHER)
        assert [len(b.ships) for b in built.boards] == [5, 5], method
        assert all(b.revealed for b in built.boards)


def test_double_with_input_fires_at_the_other_board() -> None:
    built = view(Method="Double", Gain1=FLEET, Gain2=OTHER, Input="Two")
    assert built.boards[0].target and len(built.playable) == 100


def test_no_input_at_the_end_between_games_or_without_input() -> None:
    assert view(Method="End", Input="One").playable == ()
    assert view(Method="None", Input="One").playable == ()
    assert view(Method="Inverse").player is None
    # A board whose every ship is sunk ends the game: nothing to fire at.
    sunk = shots(**dict.fromkeys(OTHER_CELLS, "3"))
    built = view(Method="Inverse", Tray=f"{EMPTY_SHOTS}***{sunk}", Gain2=OTHER, Input="One")
    assert built.playable == () and built.winner is Player.ONE
    assert built.boards[1].lost


def test_webtest_without_input_plays_for_the_player_to_move() -> None:
    assert view(WebTest="yes").player is Player.ONE
    assert view(WebTest="yes", Tray=f"{EMPTY_SHOTS}***{shots(A0='1')}").player is Player.TWO


def test_end_names_the_winner_and_plays_the_win_sound() -> None:
    sunk = shots(**dict.fromkeys(FLEET_CELLS, "3"))
    built = view(Method="End", Tray=f"{sunk}***{shots(B1='2')}", Gain1=FLEET, Gain2=OTHER)
    assert built.winner is Player.TWO and built.sound == "win"
    assert [s.state for s in built.boards[0].ships] == ["3"] * 5


# --- Moves: a shot landing ----------------------------------------------------------------


def test_a_move_lands_on_its_player_board_with_the_shell_first() -> None:
    built = view(Method="Inverse", Move1="D41", Gain1=FLEET)
    cell = built.boards[0].cells[read_cell("D4") or 0]
    assert (cell.state, cell.before, cell.last_move) == ("1", "0", Player.ONE)
    assert built.tray.startswith(shots(D4="1"))
    assert built.sound == "move"
    # Already in the Tray: the same.
    again = view(Method="Inverse", Move2="A02", Tray=f"{EMPTY_SHOTS}***{shots(A0='2')}")
    cell = again.boards[1].cells[0]
    assert (cell.state, cell.before, cell.last_move) == ("2", "0", Player.TWO)


def test_a_sinking_turns_the_ship_cells_and_shows_a_hidden_ship() -> None:
    tray = f"{EMPTY_SHOTS}***{shots(G0='2')}"
    built = view(Method="Inverse", Move2="H03", Tray=tray, Gain2=OTHER)
    board = built.boards[1]
    g0, h0 = board.cells[read_cell("G0") or 0], board.cells[read_cell("H0") or 0]
    assert (g0.state, g0.before) == ("3", "2")
    assert (h0.state, h0.before) == ("3", "0")
    (ship,) = board.ships
    assert (ship.code, ship.before) == ("H2G03", "hidden")
    assert [(m.state, m.before) for m in board.fleet if m.size == 2] == [("3", "0")]
    # On a revealed board the ship was hit before it sank.
    revealed = view(Method="Double", Move2="H03", Tray=tray, Gain2=OTHER).boards[1]
    assert [s.before for s in revealed.ships if s.ship.size == 2] == ["2"]


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"Move1": "C5"}, "move1"),
        ({"Move2": "K53"}, "move2"),
        ({"Move1": "C54"}, "move1"),
        ({"Move1": "C52", "Tray": f"{shots(C5='1')}***{EMPTY_SHOTS}"}, "move1"),
        ({"Gain1": "H5A01H5A01"}, "gain1"),
        ({"Gain2": "H5G01"}, "gain2"),
        ({"Gain1": "V3C5"}, "gain1"),
    ],
)
def test_unreadable_moves_and_fleets(params: dict[str, str], code: str) -> None:
    built = view(Method="Double", **params)
    assert {e.code for e in built.errors} == {code}
    assert len(built.boards) == 2


def test_an_unreadable_fleet_draws_no_ship_the_other_stays() -> None:
    built = view(Method="Double", Gain1="H5A01H5A01", Gain2=OTHER)
    assert [len(b.ships) for b in built.boards] == [0, 5]


# --- Prepare ------------------------------------------------------------------------------


def test_prepare_asks_the_player_for_a_composed_fleet() -> None:
    built = view(Method="Prepare", Input="Two")
    assert built.composed and built.player is Player.TWO and built.playable == ()
    assert built.preparation is not None
    assert [s.size for s in built.preparation.ships] == [5, 4, 3, 3, 2]
    assert all(s.placed is None for s in built.preparation.ships)
    assert [b.player for b in built.boards] == [Player.TWO]
    assert view(Method="Prepare").player is Player.ONE


def test_prepare_starts_from_the_player_fleet_when_given() -> None:
    built = view(Method="Prepare", Input="One", Gain1="V2F83" + FLEET[:-5])
    assert built.preparation is not None
    placed = [s.placed.code if s.placed else "" for s in built.preparation.ships]
    assert placed == ["H5A01", "V4H21", "H3C51", "V3A71", "V2F81"]
    bad = view(Method="Prepare", Input="One", Gain1="H5A01")
    assert {e.code for e in bad.errors} == {"gain1"}
    assert bad.preparation is not None
    assert all(s.placed is None for s in bad.preparation.ships)


def test_the_plugin_declares_every_method_and_a_sample() -> None:
    assert interface.name == "Seafight" and "BatailleNavale" in interface.aliases
    assert interface.methods == frozenset(Method)
    sample = view(**interface.sample)
    assert sample.errors == () and sample.playable and sample.sound is None


# --- rules --------------------------------------------------------------------------------


def test_fire_water_hit_and_sink() -> None:
    fleet = read_fleet(OTHER)
    board, result = fire(fleet, EMPTY_SHOTS, read_cell("A0") or 0)
    assert result == "1" and board == shots(A0="1")
    board, result = fire(fleet, board, read_cell("G0") or 0)
    assert result == "2"
    board, result = fire(fleet, board, read_cell("H0") or 0)
    assert result == "3" and board == shots(A0="1", G0="3", H0="3")
    with pytest.raises(IllegalMove, match="already"):
        fire(fleet, board, read_cell("H0") or 0)


def prepared(rules: SeafightRules) -> Turn:
    turn = rules.new_game()
    assert turn.params == {"Method": "Prepare", "Input": "One", "Count": "0"}
    turn = rules.play(turn.state, FLEET)
    assert turn.params == {"Method": "Prepare", "Input": "Two", "Count": "0"}
    assert "Gain1" not in turn.params  # player two does not see player one's fleet
    # The state written I (the manual's V3C5I), letters in any case.
    written = "".join(OTHER[i : i + 4].lower() + "I" for i in range(0, len(OTHER), 5))
    return rules.play(turn.state, written)


@pytest.mark.parametrize(
    "fleet",
    ["", "C5", "H5A01", "H5A01H5A01V4H21H3C51V3A71", "H5G01V4H21H3C51V3A71H2F81", FLEET + "H2A91"],
)
def test_rules_refuse_an_illegal_fleet(fleet: str) -> None:
    rules = SeafightRules()
    with pytest.raises(IllegalMove):
        rules.play(rules.new_game().state, fleet)


def test_after_both_fleets_player_one_fires_on_an_inverse_page() -> None:
    turn = prepared(SeafightRules())
    assert turn.params == {
        "Method": "Inverse",
        "Input": "One",
        "Tray": f"{EMPTY_SHOTS}***{EMPTY_SHOTS}",
        "Gain1": FLEET,
        "Gain2": "",
        "Count": "0",
    }
    assert turn.state["fleets"] == [FLEET, OTHER]


def test_turns_alternate_and_show_only_what_the_player_may_see() -> None:
    rules = SeafightRules()
    turn = prepared(rules)
    turn = rules.play(turn.state, "G0")  # one hits two's G0-H0
    assert turn.params["Method"] == "Standard" and turn.params["Input"] == "Two"
    assert turn.params["Move2"] == "G02" and "Move1" not in turn.params
    assert turn.params["Gain2"] == OTHER.replace("H2G01", "H2G02")
    assert turn.params["Gain1"] == ""
    turn = rules.play(turn.state, "a0")  # two hits one's A0-E0
    assert turn.params["Method"] == "Inverse" and turn.params["Move1"] == "A02"
    assert turn.params["Gain1"].startswith("H5A02") and turn.params["Gain2"] == ""
    turn = rules.play(turn.state, "H0")  # one sinks G0-H0
    assert turn.params["Move2"] == "H03" and turn.params["Gain1"] == ""
    assert turn.params["Tray"].endswith(shots(G0="3", H0="3"))
    turn = rules.play(turn.state, "J9")
    assert turn.params["Move1"] == "J91"
    assert turn.params["Gain2"] == "H2G03"  # the sunk ship: player one may see it
    with pytest.raises(IllegalMove, match="already"):
        rules.play(turn.state, "G0")
    with pytest.raises(IllegalMove, match="not a cell"):
        rules.play(turn.state, "K1")
    # Each page the rules send draws without error.
    assert build(read_context(urlencode(turn.params))).errors == ()


def test_a_scripted_game_ends_with_its_known_winner() -> None:
    rules = SeafightRules()
    turn = prepared(rules)
    water = sorted({cell_name(i) for i in range(100)} - FLEET_CELLS)
    targets = sorted(OTHER_CELLS)
    pages: list[Mapping[str, str]] = []
    for n, cell in enumerate(targets):
        assert not turn.over
        turn = rules.play(turn.state, cell)
        pages.append(turn.params)
        if n < len(targets) - 1:
            turn = rules.play(turn.state, water[n])
            pages.append(turn.params)
    assert turn.over and turn.state["phase"] == "over"
    assert turn.params["Method"] == "End" and turn.params["Count"] == "33"
    assert turn.params["Gain1"] == FLEET
    assert turn.params["Gain2"] == "V5B13H4E33V3J53H3D83H2G03"
    end = build(read_context(urlencode(turn.params)))
    assert end.winner is Player.ONE and end.errors == ()
    assert all(build(read_context(urlencode(p))).errors == () for p in pages)
    with pytest.raises(IllegalMove, match="over"):
        rules.play(turn.state, "A1")


@pytest.mark.parametrize(
    "state",
    [
        {},
        {
            "phase": "fire",
            "next": 3,
            "fleets": [FLEET, OTHER],
            "shots": [EMPTY_SHOTS] * 2,
            "count": 0,
        },
        {
            "phase": "fire",
            "next": 1,
            "fleets": [FLEET, "H5A01"],
            "shots": [EMPTY_SHOTS] * 2,
            "count": 0,
        },
        {"phase": "fire", "next": 1, "fleets": [FLEET, OTHER], "shots": ["0"] * 2, "count": 0},
        {
            "phase": "sleep",
            "next": 1,
            "fleets": [FLEET, OTHER],
            "shots": [EMPTY_SHOTS] * 2,
            "count": 0,
        },
    ],
)
def test_a_corrupt_state_is_refused(state: dict[str, Any]) -> None:
    with pytest.raises(IllegalMove):
        SeafightRules().play(state, "A0")


# --- the rules' fast paths, against the straightforward ones ---------------------------


def straightforward_cells(ship: Ship) -> tuple[int, ...]:
    """Return a ship's cells stepping from its head, those past the edge left out."""
    down, right = (1, 0) if ship.vertical else (0, 1)
    places = [(ship.row + k * down, ship.column + k * right) for k in range(ship.size)]
    return tuple(row * 10 + column for row, column in places if row < 10 and column < 10)


def straightforward_state(ship: Ship, board: str) -> str:
    """Return a ship's state from its cells' codes one by one (:func:`ship_state`)."""
    codes = [board[index] for index in straightforward_cells(ship)]
    if codes and all(code == "3" for code in codes):
        return "3"
    return max(ship.state, "2") if any(code in "23" for code in codes) else ship.state


@settings(max_examples=200, deadline=None)
@given(
    vertical=st.booleans(),
    size=st.integers(1, 6),
    column=st.integers(0, 11),
    row=st.integers(0, 11),
    state=st.sampled_from("123"),
    board=st.text(alphabet="0123", min_size=100, max_size=100),
)
def test_a_ship_cells_and_state_are_those_worked_out_cell_by_cell(
    vertical: bool, size: int, column: int, row: int, state: str, board: str
) -> None:
    ship = Ship(vertical, size, column, row, state)
    assert ship.cells() == straightforward_cells(ship)
    assert ship_state(ship, board) == straightforward_state(ship, board)
    short = board[:50]  # not 100 codes: read cell by cell, an IndexError past its end
    try:
        expected = straightforward_state(ship, short)
    except IndexError:
        with pytest.raises(IndexError):
            ship_state(ship, short)
    else:
        assert ship_state(ship, short) == expected


def played_states(seed: int) -> list[dict[str, Any]]:
    """Return every state of a game of random fleets and shots, through JSON."""
    rng = random.Random(seed)
    rules = SeafightRules()
    turn = rules.start()
    found: list[dict[str, Any]] = [json.loads(json.dumps(turn.state))]
    for player in (Player.ONE, Player.TWO):
        fleet = "".join(ship.code for ship in random_fleet(rng))
        turn = rules.play(turn.state, rules.engine_value(turn.state, player, fleet))
        found.append(json.loads(json.dumps(turn.state)))
    while not turn.over:
        (player,) = rules.asked(turn.state)
        free = [i for i, code in enumerate(turn.state["shots"][player.opponent - 1]) if code == "0"]
        turn = rules.play(turn.state, cell_name(rng.choice(free)))
        found.append(json.loads(json.dumps(turn.state)))
    return found


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_state_read_once_and_kept_is_the_state_read_again(seed: int) -> None:
    for state in played_states(seed):
        kept = seafight_rules._read(state)  # kept by play, or read and kept now
        assert kept == seafight_rules._read_any(state)
        assert kept == seafight_rules._read(dict(state))
