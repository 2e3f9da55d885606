"""ConnectFour: the parser and view model, the rules, the referee, the engines and the
botsarena mapping, without a browser.

Spec ``interface-protocol.md`` section 5 (ConnectFour); engine protocol sections 4
(ConnectFour, botsarena) and 6 (the referee); seed 003 (botsarena's messages).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournoyons_gui.interfaces.connectfour import SAMPLE_TRAY, interface
from tournoyons_gui.interfaces.connectfour.board import (
    COLUMNS,
    EMPTY_TRAY,
    GRID,
    HEIGHT,
    WINDOWS,
    Cell,
    ConnectFourView,
    build,
    counts,
    drop,
    fours,
    landing,
    playable_columns,
    player_to_move,
    winning_cells,
)
from tournoyons_gui.interfaces.connectfour.botsarena import BOTSARENA
from tournoyons_gui.interfaces.connectfour.engines import (
    BUDGET_OVERRUN,
    ENGINES,
    NODE_BUDGET,
    choose,
    searched,
)
from tournoyons_gui.interfaces.connectfour.rules import ConnectFourRules, check_tray
from tournoyons_gui.interfaces.lines import OWN
from tournoyons_gui.interfaces.plugin import IllegalMove, RefereeCall
from tournoyons_gui.interfaces.protocol import PAIR, Method, Player, read_context
from tournoyons_gui.interfaces.referee import read_call, referee
from tournoyons_gui.interfaces.registry import load_registry

rules = ConnectFourRules()

# A whole game that fills the board without a line of four, and its last Tray.
DRAWN_GAME = "BBECDDECCFGCDECEGFBABFDEEBBGCGGGAADAFDAAFF"
DRAWN_TRAY = "212112112221212111222212121212112112112122"


def tray_of(rows: Mapping[int, str]) -> str:
    """Return the Tray whose row ``r`` (1 at the bottom) is ``rows[r]`` (7 codes), the other
    rows empty."""
    return "".join(rows.get(row, "0000000") for row in range(1, 7))


def after(*columns: str) -> str:
    """Return the engines' Tray after ``columns`` were played from the start."""
    state: Mapping[str, Any] = rules.new_game().state
    for column in columns:
        state = rules.play(state, column).state
    return str(state["tray"])


def view(query: str) -> ConnectFourView:
    """Return the view model of the page for ``query``."""
    return build(read_context(query))


def codes(query: str) -> set[str]:
    """Return the error codes of the page for ``query``."""
    return {error.code for error in view(query).errors}


def by_name(v: ConnectFourView) -> dict[str, Cell]:
    """Return the cells of ``v`` by name."""
    return {cell.name: cell for cell in v.cells}


# --- the Set ------------------------------------------------------------------------------


def test_the_set_is_registered_with_its_aliases_rules_engines_and_botsarena() -> None:
    registry = load_registry()
    for name in ("ConnectFour", "connectfour", "Puissance4", "P4", "Connect4", "CONNECT-FOUR"):
        assert registry.get(name) is interface, name
    assert interface.arbitre is not None and interface.referee is not None
    assert set(interface.engines) == {"random", "strong"}
    assert next(iter(interface.engines)) == "random"
    assert interface.botsarena is BOTSARENA and BOTSARENA.game == "connectFour"
    assert interface.methods == {Method.STANDARD, Method.END, Method.NONE}
    assert interface.scripts == ("connectfour.js",)
    assert interface.styles == ("connectfour.css",)
    assert interface.template == "connectfour/page.html"


def test_the_sample_is_the_rules_page_after_four_moves() -> None:
    turn = rules.new_game()
    for column in "DDCE":
        turn = rules.play(turn.state, column)
    assert turn.params == {"Tray": SAMPLE_TRAY, "Move2": "E", "Count": "4", "Input": "One"}
    sample = dict(interface.sample)
    assert {k: sample[k] for k in ("Tray", "Move2", "Count", "Input")} == turn.params
    v = build(read_context({name.lower(): value for name, value in sample.items()}))
    assert v.player is Player.ONE and v.playable == tuple(COLUMNS) and v.errors == ()


# --- the board: names, Tray order, gravity ----------------------------------------------


def test_cells_are_named_column_then_row_from_the_bottom_in_tray_order() -> None:
    assert GRID.names[:8] == ("A1", "B1", "C1", "D1", "E1", "F1", "G1", "A2")
    assert GRID.names[-1] == "G6"
    assert GRID.read("d3") == 2 * 7 + 3
    v = view("Tray=" + tray_of({1: "1000002", 6: "0000001"}))
    cells = by_name(v)
    assert (cells["A1"].state, cells["G1"].state, cells["G6"].state) == ("1", "2", "1")
    assert (cells["A1"].row, cells["A1"].column, cells["G6"].row) == (0, 0, 5)
    # Laid out from the top row: G6 above G1, A6 first.
    assert [c.name for c in v.top_down[:7]] == [f"{c}6" for c in COLUMNS]
    assert [c.name for c in v.top_down[-7:]] == [f"{c}1" for c in COLUMNS]
    assert cells["A1"].y > cells["A6"].y and cells["G1"].x > cells["A1"].x
    assert cells["D1"].letter == "D"


def test_init_and_absent_tray_are_the_empty_board() -> None:
    for query in ("Tray=Init", "Tray=init", ""):
        v = view(query)
        assert v.tray == EMPTY_TRAY and v.errors == ()


@pytest.mark.parametrize(
    "tray", ["0" * 41, "0" * 43, "5" + "0" * 41, "x" * 42, "1" * 41 + " ", "Init2"]
)
def test_unreadable_tray_is_an_empty_board_with_nothing_playable(tray: str) -> None:
    v = view(f"Tray={tray}&Input=One")
    assert codes(f"Tray={tray}&Input=One") == {"tray"}
    assert v.tray == EMPTY_TRAY and v.playable == () and v.player is None


def test_gravity_landing_and_full_columns() -> None:
    tray = after("D", "D", "D")
    assert landing(tray, 3) == GRID.read("D4")
    assert landing(tray, 0) == GRID.read("A1")
    full = after(*"AAAAAA")
    assert landing(full, 0) is None
    assert playable_columns(full) == (1, 2, 3, 4, 5, 6)
    with pytest.raises(ValueError, match="column A is full"):
        drop(full, 0, Player.ONE)
    assert player_to_move(full) is Player.ONE and player_to_move(after("A")) is Player.TWO


# --- Moves, the drop and the winning discs ------------------------------------------------


def test_a_column_move_marks_the_players_topmost_disc_which_drops() -> None:
    v = view(f"Tray={SAMPLE_TRAY}&Move2=E")
    cells = by_name(v)
    assert cells["E1"].last_move is Player.TWO and cells["E1"].before == "0"
    assert v.sound == "move" and v.errors == ()
    # Column D holds one's D1 and two's D2: a Move1 D is D1, a Move2 D is D2.
    assert by_name(view(f"Tray={SAMPLE_TRAY}&Move1=D"))["D1"].last_move is Player.ONE
    assert by_name(view(f"Tray={SAMPLE_TRAY}&Move2=d"))["D2"].last_move is Player.TWO
    # A cell holding the player's disc is a Move too.
    assert by_name(view(f"Tray={SAMPLE_TRAY}&Move1=c1"))["C1"].last_move is Player.ONE


def test_of_two_moves_only_the_last_played_drops() -> None:
    # Player one is to move (two discs each): two played last.
    v = view(f"Tray={SAMPLE_TRAY}&Move1=C&Move2=E")
    cells = by_name(v)
    assert (cells["C1"].last_move, cells["C1"].before) == (Player.ONE, None)
    assert (cells["E1"].last_move, cells["E1"].before) == (Player.TWO, "0")


@pytest.mark.parametrize(
    ("query", "code"),
    [
        (f"Tray={SAMPLE_TRAY}&Move1=E", "move1"),  # E holds no disc of player one
        (f"Tray={SAMPLE_TRAY}&Move2=A", "move2"),  # an empty column
        (f"Tray={SAMPLE_TRAY}&Move1=H", "move1"),
        (f"Tray={SAMPLE_TRAY}&Move2=E2", "move2"),  # an empty cell
        (f"Tray={SAMPLE_TRAY}&Move1=D2", "move1"),  # the other player's disc
        (f"Tray={SAMPLE_TRAY}&Move1=4", "move1"),
        ("Tray=bad&Move2=Z9", "move2"),
    ],
)
def test_unreadable_moves_are_errors_and_not_drawn(query: str, code: str) -> None:
    assert code in codes(query)
    assert all(cell.last_move is None for cell in view(query).cells)


def test_a_move_on_an_unreadable_tray_is_read_but_not_drawn() -> None:
    assert codes("Tray=bad&Move1=D") == {"tray"}


def test_winning_discs_light_up_after_the_move_that_made_them() -> None:
    won = tray_of({1: "3222000", 2: "3000000", 3: "3000000", 4: "3000000"})
    v = view(f"Tray={won}&Move1=A&Input=Two")
    cells = by_name(v)
    assert v.winner is Player.ONE and v.delayed and v.sound == "win"
    assert cells["A4"].before == "0"  # the disc that dropped: empty, then lit
    assert [cells[n].before for n in ("A1", "A2", "A3")] == ["1", "1", "1"]
    assert cells["B1"].before is None
    assert v.playable == () and v.player is None  # the game is over
    ((line, player),) = v.lines
    assert player is Player.ONE and line.points == (70.0, 398.0, 70.0, 218.0)
    # Without a Move (the End page), lit at once.
    end = view(f"Tray={won}&Method=End")
    assert not end.delayed and all(c.before is None for c in end.cells) and end.lines


def test_a_line_of_five_is_one_line() -> None:
    five = tray_of({1: "4444412", 2: "1121010", 3: "1000000"})
    lines = list(fours(five, Player.TWO))
    assert lines == [(0, 4, 1, 0)]
    assert list(fours(five, Player.ONE)) == []


def test_input_on_the_columns_not_full_unless_the_game_is_over() -> None:
    tray = after(*"AAAAAA")
    v = view(f"Tray={tray}&Input=One")
    assert v.player is Player.ONE and v.playable == tuple("BCDEFG")
    assert view(f"Tray={tray}&Input=One&Method=End").playable == ()
    assert view(f"Tray={tray}&Input=One&Method=None").playable == ()
    assert view(f"Tray={DRAWN_TRAY}&Input=One").playable == ()
    # A four of plain discs (an engine's Tray) ends the game too.
    four = tray_of({1: "1111222"})
    assert view(f"Tray={four}&Input=Two").playable == ()


def test_webtest_hands_input_to_the_player_to_move() -> None:
    v = view(f"Tray={after('D')}&WebTest=yes")
    assert v.player is Player.TWO and v.playable == tuple(COLUMNS)
    assert view(f"Tray={after('D')}").player is None


def test_build_never_raises_on_junk() -> None:
    rng = random.Random(7)
    alphabet = "0123456789ABCDEFGHXxyz%&= "
    for _ in range(3000):
        params = {
            name: "".join(rng.choice(alphabet) for _ in range(rng.choice((1, 2, 41, 42, 43))))
            for name in rng.sample(["tray", "move1", "move2", "input", "method", "webtest"], 4)
        }
        if rng.random() < 0.5:
            params["tray"] = "".join(rng.choice("01234") for _ in range(42))
        v = build(read_context(params))
        assert len(v.cells) == 42 and len(v.tray) == 42


# --- the rules: hot-seat play -------------------------------------------------------------


def test_new_game_and_moves_alternate_from_the_bottom() -> None:
    turn = rules.new_game()
    assert turn.params == {"Tray": "Init", "Input": "One", "Count": "0"}
    turn = rules.play(turn.state, "D")
    assert turn.params == {
        "Tray": tray_of({1: "0001000"}),
        "Move1": "D",
        "Count": "1",
        "Input": "Two",
    }
    turn = rules.play(turn.state, "D")
    assert turn.state["tray"] == tray_of({1: "0001000", 2: "0002000"})
    assert turn.state["move1"] == "D" and turn.state["move2"] == "D" and not turn.over


@pytest.mark.parametrize("value", ["", "H", "d", "D1", "1", "DD", " D"])
def test_play_refuses_what_is_not_a_column(value: str) -> None:
    with pytest.raises(IllegalMove, match="not a column"):
        rules.play(rules.new_game().state, value)


def test_play_refuses_a_full_column_and_a_finished_game() -> None:
    state = {"tray": after(*"AAAAAA"), "count": 6}
    with pytest.raises(IllegalMove, match="column A is full"):
        rules.play(state, "A")
    won = rules.play({"tray": after(*"ABABAB"), "count": 6}, "A")
    assert won.over and won.params["Method"] == "End" and "Input" not in won.params
    assert won.params["Tray"] == tray_of({1: "3200000", 2: "3200000", 3: "3200000", 4: "3000000"})
    with pytest.raises(IllegalMove, match="over"):
        rules.play(won.state, "C")


def test_a_full_board_without_four_is_a_draw() -> None:
    turn = rules.new_game()
    for column in DRAWN_GAME:
        turn = rules.play(turn.state, column)
    assert turn.over and turn.state["tray"] == DRAWN_TRAY
    assert turn.params["Method"] == "End" and turn.params["Tray"] == DRAWN_TRAY
    result = rules.result(turn.state)
    assert result is not None and result.winner is None and result.reason == "full board"


def test_winning_cells_in_every_direction() -> None:
    diagonal = tray_of({1: "1222000", 2: "0112000", 3: "0011000", 4: "0001000"})
    assert winning_cells(diagonal, Player.ONE) == {GRID.read(n) for n in ("A1", "B2", "C3", "D4")}
    anti = tray_of({1: "0001222", 2: "0001120", 3: "0001200", 4: "0002000"})
    assert winning_cells(anti, Player.TWO) == {GRID.read(n) for n in ("G1", "F2", "E3", "D4")}
    assert winning_cells(anti, Player.ONE) == set()


#: Trays of the page's codes, sparse or dense, where lines of four are common.
TRAYS = st.sampled_from(["01234", "0012", "0111222", "01", "0113", "0000001"]).flatmap(
    lambda codes: st.text(codes, min_size=42, max_size=42)
)


@settings(max_examples=400, deadline=None)
@given(tray=TRAYS)
def test_bitboard_lines_and_gravity_are_what_walking_the_board_finds(tray: str) -> None:
    for player in PAIR:
        own = OWN[player]
        walked = {i for line in WINDOWS if all(tray[k] in own for k in line) for i in line}
        assert winning_cells(tray, player) == walked
    for column in range(7):
        # The cell above the topmost cell that is not 0, scanning the column from the top.
        cells = [GRID.at(column, row) for row in range(HEIGHT)]
        taken = [row for row in range(HEIGHT) if tray[cells[row]] != "0"]
        top = taken[-1] + 1 if taken else 0
        assert landing(tray, column) == (cells[top] if top < HEIGHT else None)
    assert counts(tray) == (sum(c in "13" for c in tray), sum(c in "24" for c in tray))


# --- the Arbitre's part and the person's value -----------------------------------------


def test_person_values_are_columns_or_the_landing_cell() -> None:
    state = {"tray": after("D"), "count": 1}
    assert rules.person_value(state, Player.TWO, "d") == "D"
    assert rules.person_value(state, Player.TWO, " D ") == "D"
    assert rules.person_value(state, Player.TWO, "D2") == "D"
    assert rules.person_value(state, Player.TWO, "a1") == "A"
    for bad in ("D3", "D1", "H", "", "XX"):
        with pytest.raises(IllegalMove):
            rules.person_value(state, Player.TWO, bad)
    with pytest.raises(IllegalMove, match="not to move"):
        rules.person_value(state, Player.ONE, "C")


def test_check_tray_refuses_what_is_no_position() -> None:
    assert check_tray(EMPTY_TRAY) == EMPTY_TRAY
    for bad, reason in (
        ("0" * 41, "42 characters"),
        ("3" + "0" * 41, "42 characters"),
        (tray_of({2: "1000000"}), "A2 floats"),
        (tray_of({1: "1100000"}), "2 discs of player one against 0"),
        (tray_of({1: "2000000"}), "0 discs of player one against 1"),
    ):
        with pytest.raises(IllegalMove, match=reason):
            check_tray(bad)


# --- the chapter VI referee ---------------------------------------------------------------


def call(**params: str) -> RefereeCall:
    """Return the referee call of ``params`` (as a query would carry them)."""
    return read_call({"Game": "G1", "MoveId": "1", **params})


def test_the_referee_plays_a_move_and_the_game_goes_on() -> None:
    answer = referee(rules, call(Tray="Init", Move1="d", Gain1="x"))
    assert (answer.return_code, answer.tray) == (3, tray_of({1: "0001000"}))
    assert answer.gain1 == "x"  # echoed: ConnectFour keeps no gains
    answer = referee(rules, call(Tray=answer.tray, Move2="D"))
    assert (answer.return_code, answer.tray) == (3, tray_of({1: "0001000", 2: "0002000"}))
    assert referee(rules, call(Tray="", Move1="A")).return_code == 3


def test_the_referee_says_who_won_and_a_draw() -> None:
    three = after(*"ABABA")  # player one has A1 A2 A3, player two B1 B2
    answer = referee(rules, call(Tray=three, Move2="B"))
    assert answer.return_code == 3
    answer = referee(rules, call(Tray=answer.tray, Move1="A"))
    assert answer.return_code == 1 and set(answer.tray) <= set("012")
    two_wins = after(*"GABABAB")  # two has A1-A3, one B1-B3; two to move
    assert referee(rules, call(Tray=two_wins, Move2="A")).return_code == 2
    before_last = after(*DRAWN_GAME[:-1])
    answer = referee(rules, call(Tray=before_last, Move2=DRAWN_GAME[-1]))
    assert (answer.return_code, answer.tray) == (4, DRAWN_TRAY)


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        ({"Tray": "0" * 41, "Move1": "D"}, "unreadable Tray"),
        ({"Tray": "1" + "0" * 40 + "x", "Move1": "D"}, "unreadable Tray"),
        ({"Tray": tray_of({3: "1000000"}), "Move2": "D"}, "floats"),
        ({"Tray": tray_of({1: "1100000"}), "Move2": "D"}, "discs of player one"),
        ({"Tray": "Init", "Move2": "D"}, "the move expected is Move1"),
        ({"Tray": "Init", "Move1": "D", "Move2": "D"}, "the move expected is Move1"),
        ({"Tray": "Init"}, "no move received"),
        ({"Tray": "Init", "Move1": "H"}, "not a column"),
        ({"Tray": "Init", "Move1": "D1"}, "not a column"),
        ({"Tray": "Init", "Move1": "7"}, "not a column"),
    ],
)
def test_the_referee_answers_5_with_the_reason(params: dict[str, str], reason: str) -> None:
    answer = referee(rules, call(**params))
    assert answer.return_code == 5
    assert reason in answer.tray and "/" not in answer.tray and "|" not in answer.tray


def test_the_referee_refuses_a_full_column_and_a_finished_game() -> None:
    full = after(*"AAAAAA")
    answer = referee(rules, call(Tray=full, Move1="A"))
    assert answer.return_code == 5 and "column A is full" in answer.tray
    won = after(*"ABABABA")
    answer = referee(rules, call(Tray=won, Move2="C"))
    assert answer.return_code == 5 and "already over" in answer.tray


# --- the engines --------------------------------------------------------------------------


def engine_params(tray: str) -> dict[str, str]:
    """Return an engine request for ``tray`` (Turn from the discs on it)."""
    discs = sum(1 for code in tray if code != "0")
    return {"Set": "ConnectFour", "Turn": str(discs + 1), "Tray": tray, "Referee": ""}


def test_random_plays_only_columns_not_full() -> None:
    tray = after(*"AAAAAABBBBBB")
    seen = {ENGINES["random"](engine_params(tray)) for _ in range(200)}
    assert seen == set("CDEFG")
    assert ENGINES["random"]({"Tray": "Init", "Turn": "1"}) in COLUMNS


def test_strong_opens_in_the_centre_wins_at_once_and_blocks() -> None:
    assert ENGINES["strong"]({"Turn": "1", "Tray": EMPTY_TRAY}) == "D"
    # Player one (to move) has C1 D1 E1 open at both ends: it completes the four.
    tray = tray_of({1: "0011100", 2: "0022200"})
    assert ENGINES["strong"](engine_params(tray)) in ("B", "F")
    # Player two to move: player one threatens A4 (A1-A3); two must block there.
    block = tray_of({1: "1022000", 2: "1000000", 3: "1000000"})
    assert player_to_move(block) is Player.TWO
    assert ENGINES["strong"](engine_params(block)) == "A"
    # Winning beats blocking: one has A1-A3, two B1-B3; one to move.
    both = tray_of({1: "1200000", 2: "1200000", 3: "1200000"})
    assert player_to_move(both) is Player.ONE
    assert ENGINES["strong"](engine_params(both)) == "A"


def test_strong_does_not_play_under_the_opponents_winning_cell() -> None:
    # Player two threatens A2 and E2 (B2 C2 D2 across), neither reachable yet: one, to
    # move, must fill neither A1 nor E1.
    tray = tray_of({1: "0112011", 2: "0222000"})
    assert player_to_move(tray) is Player.ONE
    played = ENGINES["strong"](engine_params(tray))
    assert played not in ("A", "E"), played


def test_strong_finds_a_win_in_three() -> None:
    # One to move: D1 makes C1 D1 E1 open at B1 and F1, two cells no block can cover.
    tray = tray_of({1: "0010100", 2: "0020200"})
    assert player_to_move(tray) is Player.ONE
    assert ENGINES["strong"](engine_params(tray)) == "D"


def test_strong_searches_within_its_node_budget() -> None:
    # The engine's cost is the nodes it searches, whatever the machine's speed (its time a
    # move is a figure of benchmarks/arbitre.py): a game of strong against a partly random
    # player, every position's search within the budget, which limits some of them.
    rng = random.Random(3)
    heaviest = 0
    tray = EMPTY_TRAY
    while playable_columns(tray) and not (
        winning_cells(tray, Player.ONE) or winning_cells(tray, Player.TWO)
    ):
        column, nodes = searched(tray)
        assert nodes <= NODE_BUDGET + BUDGET_OVERRUN, (tray, nodes)
        heaviest = max(heaviest, nodes)
        if rng.random() < 0.4:
            column = rng.choice(playable_columns(tray))
        tray, _ = drop(tray, column, player_to_move(tray))
    assert heaviest > NODE_BUDGET // 2  # the budget, not the depth, ends the longest searches


def test_strong_searches_nothing_when_a_column_is_forced() -> None:
    tray = tray_of({1: "1110000", 2: "2200000"})  # player two must block D
    assert player_to_move(tray) is Player.TWO
    assert searched(tray) == (COLUMNS.index("D"), 0)


def test_engines_answer_a_bad_tray_with_a_column() -> None:
    for name in ("random", "strong"):
        assert ENGINES[name]({"Tray": "junk"}) in COLUMNS
    assert choose(after(*DRAWN_GAME[:-1])) == COLUMNS.index(DRAWN_GAME[-1])


# --- botsarena (seed 003) -----------------------------------------------------------------

SEED_INIT = {
    "game-id": "1126",
    "action": "init",
    "game": "connectFour",
    "players": 2,
    "board": "",
    "player-index": 0,
}
SEED_PLAY = {
    "game-id": "9916",
    "action": "play-turn",
    "game": "connectFour",
    "players": 2,
    "board": [["", "", "", "", "", "", ""] for _ in range(6)],
    "you": "X",
    "player-index": 0,
}
# The seed's board example, row 0 at the bottom (its "0" is an "O").
SEED_BOARD = [
    ["", "", "", "X", "0", "", ""],
    ["", "", "", "X", "", "", ""],
    ["", "", "", "", "", "", ""],
    ["", "", "", "", "", "", ""],
    ["", "", "", "", "", "", ""],
    ["", "", "", "", "", "", ""],
]


def test_the_seed_s_play_turn_is_turn_1_on_the_empty_board() -> None:
    assert BOTSARENA.request(SEED_PLAY) == {"Turn": "1", "Tray": EMPTY_TRAY}
    assert BOTSARENA.board({"Turn": "1", "Tray": EMPTY_TRAY}) == SEED_PLAY["board"]
    assert BOTSARENA.board({"Turn": "1", "Tray": "Init"}) == SEED_PLAY["board"]


def test_the_seed_s_board_example_reads_row_0_at_the_bottom() -> None:
    message = {**SEED_PLAY, "board": SEED_BOARD, "you": "O", "player-index": 1}
    tray = tray_of({1: "0001200", 2: "0001000"})
    assert BOTSARENA.request(message) == {"Turn": "4", "Tray": tray}
    board = BOTSARENA.board({"Turn": "4", "Tray": tray})
    assert board[0] == ["", "", "", "X", "O", "", ""] and board[1][3] == "X"
    # Tray index i is board[i // 7][i % 7].
    for i, code in enumerate(tray):
        assert board[i // 7][i % 7] == {"0": "", "1": "X", "2": "O"}[code]
    # A built-in engine answers it as a bot would.
    value = ENGINES["strong"](BOTSARENA.request(message))
    assert BOTSARENA.play(value) == COLUMNS.index(value)


@pytest.mark.parametrize(
    "message",
    [
        SEED_INIT,
        {**SEED_PLAY, "board": ""},
        {**SEED_PLAY, "board": SEED_BOARD[:5]},
        {**SEED_PLAY, "board": [[*row, ""] for row in SEED_BOARD]},
        {**SEED_PLAY, "board": [["", "", "", "Z", "", "", ""], *SEED_BOARD[1:]]},
        {**SEED_PLAY, "board": [["", "", "", 1, "", "", ""], *SEED_BOARD[1:]]},
        {**SEED_PLAY, "board": SEED_BOARD},  # "you": "X", yet O is to move
        {**SEED_PLAY, "board": SEED_BOARD, "you": "O", "player-index": 0},
        {**SEED_PLAY, "you": "Y"},
        {**SEED_PLAY, "player-index": True},
        {**SEED_PLAY, "board": [SEED_BOARD[1], SEED_BOARD[0], *SEED_BOARD[2:]]},  # floating
    ],
)
def test_malformed_messages_are_illegal(message: dict[str, Any]) -> None:
    with pytest.raises(IllegalMove):
        BOTSARENA.request(message)


@pytest.mark.parametrize(("play", "value"), [(0, "A"), (3, "D"), (6, "G"), ("0", "A"), ("6", "G")])
def test_a_bot_s_play_is_a_column_number_or_one_digit(play: object, value: str) -> None:
    assert BOTSARENA.value(play) == value
    assert BOTSARENA.play(value) == COLUMNS.index(value)


@pytest.mark.parametrize("play", [True, False, 7, -1, "7", "33", " 3", "", "D", 3.0, None, [3]])
def test_anything_else_a_bot_plays_is_illegal(play: object) -> None:
    with pytest.raises(IllegalMove):
        BOTSARENA.value(play)


def test_play_refuses_what_is_not_a_column_letter() -> None:
    for value in ("H", "", "DD", "3"):
        with pytest.raises(IllegalMove):
            BOTSARENA.play(value)
    with pytest.raises(IllegalMove):
        BOTSARENA.board({"Tray": "12"})


def test_the_page_hides_nothing_and_never_carries_input() -> None:
    turn = rules.play(rules.new_game().state, "D")
    page = rules.page(turn, Player.TWO, asking=True)
    assert page == {"Tray": turn.params["Tray"], "Move1": "D", "Count": "1"}
    assert rules.page(turn, None, asking=False) == page
