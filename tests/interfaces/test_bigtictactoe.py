"""BigTicTacToe (Morpion): the parser and the rules, without a browser.

Manual chapter V, "Morpion"; spec section 4 (BigTicTacToe); engine protocol decision 21 (the
scoring rule).
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.interfaces import drive
from tests.interfaces.helpers import with_codes
from tournoyons_gui.interfaces.bigtictactoe import interface
from tournoyons_gui.interfaces.bigtictactoe.board import (
    BigTicTacToeView,
    build,
    cell_name,
    player_to_move,
    read_alignment,
    read_alignments,
    read_cell,
    read_tray,
)
from tournoyons_gui.interfaces.bigtictactoe.rules import BigTicTacToeRules, new_alignments
from tournoyons_gui.interfaces.plugin import IllegalMove, Turn
from tournoyons_gui.interfaces.protocol import PAIR, Method, Player, read_context

EMPTY = "0" * 100


def tray(ones: str = "", twos: str = "") -> str:
    """Return a Tray with player one's marks on ``ones`` and two's on ``twos`` ("A0 B1")."""
    marks = {name: mark for names, mark in ((ones, "1"), (twos, "2")) for name in names.split()}
    return with_codes(EMPTY, read_cell, marks)


def view(**params: str) -> BigTicTacToeView:
    """Return the view model of the page for ``params``."""
    return build(read_context(urlencode(params)))


def codes(**params: str) -> set[str]:
    """Return the error codes of the page for ``params``."""
    return {error.code for error in view(**params).errors}


def lines(v: BigTicTacToeView) -> list[tuple[int, str]]:
    """Return the alignments drawn, as ``(player, "D3H3")``."""
    return [(int(a.player), a.code) for a in v.alignments]


# --- cells and alignments ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "index"),
    [("A0", 0), ("J0", 9), ("A1", 10), ("C5", 52), ("J9", 99), ("c5", 52), ("j9", 99)],
)
def test_cells_are_a_column_letter_then_a_row(name: str, index: int) -> None:
    assert read_cell(name) == index
    assert cell_name(index) == name.upper()


@pytest.mark.parametrize(
    "name", ["", "A", "K0", "A10", "0A", "AA", "55", "Z9", " A0", "A٣", "Ä0", "A-"]
)
def test_cells_off_the_board(name: str) -> None:
    assert read_cell(name) is None


@pytest.mark.parametrize(
    ("text", "start", "direction"),
    [
        ("D3H3", "D3", (1, 0)),
        ("H3D3", "D3", (1, 0)),
        ("A0E0", "A0", (1, 0)),
        ("F9J9", "F9", (1, 0)),
        ("D3D7", "D3", (0, 1)),
        ("J9J5", "J5", (0, 1)),
        ("A0E4", "A0", (1, 1)),
        ("J9F5", "F5", (1, 1)),
        ("E0A4", "E0", (-1, 1)),
        ("A4E0", "E0", (-1, 1)),
        ("J5F9", "J5", (-1, 1)),
        ("d3h3", "D3", (1, 0)),
    ],
)
def test_alignments_are_five_cells_in_a_line(
    text: str, start: str, direction: tuple[int, int]
) -> None:
    assert read_alignment(text) == (read_cell(start), direction)


@pytest.mark.parametrize(
    "text",
    [
        "D3G3",  # four cells
        "D3I3",  # six cells
        "D3D3",
        "D3E4",
        "A0B4",
        "A0D4",
        "A0E3",  # not a line of five
        "G0A1",
        "H0C1",  # would wrap around the edge
        "K0K4",
        "A0E",
        "A0E0A",
        "",
        "A0-E0",
        "A0 E0",
    ],
)
def test_anything_else_is_not_an_alignment(text: str) -> None:
    assert read_alignment(text) is None


# --- the Tray ------------------------------------------------------------------------------


def test_init_and_absent_tray_are_the_empty_board() -> None:
    for params in ({"Tray": "Init"}, {"Tray": "INIT"}, {}):
        v = view(**params)
        assert v.tray == EMPTY
        assert len(v.cells) == 100 and {c.state for c in v.cells} == {"0"}
        assert v.errors == () and v.alignments == () and v.scores == (0, 0)


def test_tray_is_read_row_by_row_top_row_first() -> None:
    t = tray("A0 C5 J9", "B0 A1 J8")
    v = view(Tray=t)
    assert v.tray == t
    states = {c.name: c.state for c in v.cells if c.state != "0"}
    assert states == {"A0": "1", "C5": "1", "J9": "1", "B0": "2", "A1": "2", "J8": "2"}
    c5 = v.cells[52]
    assert (c5.name, c5.column, c5.row) == ("C5", 2, 5)
    assert [c.name for c in v.cells[:12]] == [
        "A0",
        "B0",
        "C0",
        "D0",
        "E0",
        "F0",
        "G0",
        "H0",
        "I0",
        "J0",
        "A1",
        "B1",
    ]


@pytest.mark.parametrize(
    "bad",
    ["0" * 99, "0" * 101, "3" + "0" * 99, "x" * 100, "0" * 99 + " ", "1" * 50, "0" * 200, "Start"],
)
def test_unreadable_tray_is_an_empty_board_with_nothing_playable(bad: str) -> None:
    v = view(Tray=bad, Input="One")
    assert {e.code for e in v.errors} == {"tray"}
    assert v.tray == EMPTY and len(v.cells) == 100
    assert v.playable == () and v.player is None
    assert read_tray(bad) is None


# --- moves ---------------------------------------------------------------------------------


def test_a_move_puts_its_mark_on_its_empty_cell() -> None:
    v = view(Tray=tray("A0"), Move2="C5")
    assert v.tray == tray("A0", "C5")
    assert v.cells[52].last_move is Player.TWO
    assert [c.name for c in v.cells if c.last_move] == ["C5"]
    assert v.sound == "move" and v.errors == ()


def test_a_move_already_in_the_tray_is_only_marked_last() -> None:
    t = tray("A0", "C5")
    v = view(Tray=t, Move1="A0", Move2="C5")
    assert v.tray == t
    assert v.cells[0].last_move is Player.ONE and v.cells[52].last_move is Player.TWO


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"Move1": "K0"}, "move1"),
        ({"Move2": "A10"}, "move2"),
        ({"Move1": "5"}, "move1"),
        ({"Tray": tray("", "C5"), "Move1": "C5"}, "move1"),
        ({"Tray": tray("C5"), "Move2": "C5"}, "move2"),
        ({"Move1": "C5", "Move2": "C5"}, "move2"),
    ],
)
def test_moves_that_cannot_be_drawn(params: dict[str, str], code: str) -> None:
    v = view(**params)
    assert {e.code for e in v.errors} == {code}
    mover = Player(int(code[-1]))
    assert all(c.last_move is not mover for c in v.cells)


# --- Gain: the alignments drawn and the score -----------------------------------------------


def test_alignments_of_both_players_are_drawn_and_counted() -> None:
    t = tray("D3 E3 F3 G3 H3 A0 A1 A2 A3 A4", "J5 I6 H7 G8 F9 B9")
    v = view(Tray=t, Gain1="D3H3A4A0", Gain2="F9J5")
    assert lines(v) == [(1, "D3H3"), (1, "A0A4"), (2, "J5F9")]
    assert v.scores == (2, 1) and v.errors == ()
    diagonal = v.alignments[2]
    assert diagonal.start_xy == (9, 5) and diagonal.end_xy == (5, 9)


def test_a_cell_may_be_in_alignments_of_different_directions() -> None:
    # E4 is in a row, a column, a diagonal and an anti-diagonal of player one.
    t = tray("A4 B4 C4 D4 E4 F4 G4 H4 I4 E0 E1 E2 E3 A0 B1 C2 D3 I0 H1 G2 F3")
    v = view(Tray=t, Gain1="A4E4E0E4A0E4I0E4")
    assert v.scores == (4, 0) and v.errors == ()


@pytest.mark.parametrize(
    ("gain", "kept"),
    [
        ("D3G3", []),  # four cells
        ("D3I3", []),  # six cells
        ("D3H3D3H3", ["D3H3"]),  # the same twice
        ("D3H3E3I3", ["D3H3"]),  # two fives sharing cells in the same direction
        ("D3H3C3", ["D3H3"]),  # a trailing piece
        ("D3H3A0E0", ["D3H3"]),  # not on the player's marks
        ("X3H3D3H3", ["D3H3"]),
    ],
)
def test_bad_alignments_are_left_out_with_an_error(gain: str, kept: list[str]) -> None:
    t = tray("C3 D3 E3 F3 G3 H3 I3", "A0 B0 C0 D0 E0")
    v = view(Tray=t, Gain1=gain)
    assert [a.code for a in v.alignments] == kept
    assert v.scores == (len(kept), 0)
    assert {e.code for e in v.errors} == {"gain1"}


def test_alignment_on_the_other_players_marks_is_an_error_of_its_gain() -> None:
    t = tray("A0 B0 C0 D0 E0", "A1 B1 C1 D1 E1")
    assert codes(Tray=t, Gain2="A0E0") == {"gain2"}
    assert codes(Tray=t, Gain1="A0E0", Gain2="A1E1") == set()


def test_two_fives_of_a_line_of_ten_sharing_no_cell_are_both_drawn() -> None:
    t = tray(" ".join(f"{c}0" for c in "ABCDEFGHIJ"))
    assert view(Tray=t, Gain1="A0E0F0J0").scores == (2, 0)
    assert codes(Tray=t, Gain1="A0E0F0J0") == set()


def test_alignments_lowercase_are_read() -> None:
    assert lines(view(Tray=tray("D3 E3 F3 G3 H3"), Gain1="h3d3")) == [(1, "D3H3")]


def test_with_an_unreadable_tray_alignments_are_checked_for_shape_only() -> None:
    v = view(Tray="junk", Gain1="D3H3D3G3")
    assert lines(v) == [(1, "D3H3")]
    assert {e.code for e in v.errors} == {"tray", "gain1"}


# --- the move's impact: alignments it completed wait for Wait --------------------------------


def test_alignments_through_the_move_shown_are_its_impact() -> None:
    t = tray(
        "D3 E3 F3 G3 H3 D4 D5 D6 D7 A0 B0 C0 D0 E0", "A9 B9 C9 D9 E9 F9 G9 H9 I9 J9 J8 J7 J6 J5"
    )
    # D3 completes the row and the column; A0E0 was there before.
    v = view(Tray=t, Move1="D3", Gain1="A0E0D3H3D3D7", Gain2="A9E9F9J9J5J9")
    new = {a.code for a in v.alignments if a.new}
    assert new == {"D3H3", "D3D7"}
    assert v.sound == "win"
    # Without a move there is nothing to wait for.
    assert not any(a.new for a in view(Tray=t, Gain1="A0E0D3H3D3D7").alignments)


def test_with_both_moves_only_the_last_movers_alignments_wait() -> None:
    t = tray("A0 B0 C0 D0 E0 J9", "A1 B1 C1 D1 E1")
    both = {"Tray": t, "Gain1": "A0E0", "Gain2": "A1E1"}
    # Player one holds more marks: player one moved last.
    v = view(**both, Move1="E0", Move2="E1")
    assert [(int(a.player), a.new) for a in v.alignments] == [(1, True), (2, False)]
    t2 = tray("A0 B0 C0 D0 E0", "A1 B1 C1 D1 E1")
    v = view(**{**both, "Tray": t2}, Move1="E0", Move2="E1")
    assert [(int(a.player), a.new) for a in v.alignments] == [(1, False), (2, True)]


def test_a_move_scoring_nothing_sounds_a_move() -> None:
    assert view(Tray=tray("A0 B0 C0 D0"), Move2="J9").sound == "move"
    assert view(Tray=tray("A0")).sound is None


# --- input, Methods, end of game ----------------------------------------------------------


def test_input_on_empty_cells_in_reading_order() -> None:
    t = tray("A0 B0 C0", "J9 I9")
    v = view(Tray=t, Input="Two")
    assert v.player is Player.TWO
    assert len(v.playable) == 95
    assert v.playable[:3] == ("D0", "E0", "F0") and v.playable[-1] == "H9"
    assert "A0" not in v.playable and "J9" not in v.playable


@pytest.mark.parametrize("method", ["End", "None"])
def test_no_input_at_end_or_between_games(method: str) -> None:
    v = view(Tray=tray("A0"), Input="Two", Method=method)
    assert v.playable == () and v.player is None


def test_no_input_on_a_full_board() -> None:
    full = "12" * 50
    assert view(Tray=full, Input="One").playable == ()


def test_webtest_asks_the_player_to_move() -> None:
    assert view(Tray=tray("A0"), WebTest="yes").player is Player.TWO
    assert view(Tray=tray("A0", "B0"), WebTest="yes").player is Player.ONE
    assert view(Tray=tray("A0")).player is None
    assert player_to_move(EMPTY) is Player.ONE
    assert player_to_move(tray("A0")) is Player.TWO


def test_the_winner_is_shown_at_the_end_only() -> None:
    t = tray("A0 B0 C0 D0 E0", "A1 B1 C1 D1 J9")
    assert view(Tray=t, Gain1="A0E0", Method="End").winner is Player.ONE
    assert view(Tray=t, Gain1="A0E0", Method="End").sound == "win"
    assert view(Tray=t, Gain1="A0E0").winner is None
    assert view(Tray=t, Method="End").winner is None  # 0 to 0: a draw
    full = ("1111122222" * 5) + ("2222211111" * 5)
    assert view(Tray=full, Gain2="F0J0").winner is Player.TWO  # a full board is over


def test_method_none_keeps_the_scores() -> None:
    v = view(Tray=tray("A0 B0 C0 D0 E0"), Gain1="A0E0", Method="None")
    assert v.scores == (1, 0)


def test_the_plugin_object() -> None:
    assert interface.name == "BigTicTacToe" and "Morpion" in interface.aliases
    assert interface.key == "bigtictactoe"
    assert interface.methods == {Method.STANDARD, Method.END, Method.NONE}
    assert interface.rules is not None
    sample = view(**dict(interface.sample))
    assert sample.errors == () and sample.scores == (1, 0) and sample.player is Player.TWO


# --- the rules -----------------------------------------------------------------------------


def state(ones: str = "", twos: str = "", gain1: str = "", gain2: str = "") -> dict[str, object]:
    """Return a game's state with those marks and alignments."""
    t = tray(ones, twos)
    return {"tray": t, "count": t.count("1") + t.count("2"), "gain1": gain1, "gain2": gain2}


def test_new_game() -> None:
    turn = BigTicTacToeRules().new_game()
    assert turn.params == {"Tray": "Init", "Gain1": "", "Gain2": "", "Input": "One", "Count": "0"}
    assert turn.over is False
    assert turn.state["tray"] == EMPTY


def test_a_move_gives_the_next_page_as_the_arbitre_would() -> None:
    rules = BigTicTacToeRules()
    turn = rules.play(rules.new_game().state, "C5")
    assert turn.params == {
        "Tray": tray("C5"),
        "Move1": "C5",
        "Gain1": "",
        "Gain2": "",
        "Count": "1",
        "Input": "Two",
    }
    turn = rules.play(turn.state, "J0")
    assert turn.params == {
        "Tray": tray("C5", "J0"),
        "Move2": "J0",
        "Gain1": "",
        "Gain2": "",
        "Count": "2",
        "Input": "One",
    }


@pytest.mark.parametrize(
    ("ones", "twos", "move", "gain"),
    [
        ("A0 B0 C0 D0", "A1 B1 C1 D1", "E0", "A0E0"),  # horizontal, at the end
        ("A0 B0 D0 E0", "A1 B1 C1 D1", "C0", "A0E0"),  # horizontal, filling the gap
        ("C2 C3 C4 C6", "A1 B1 C1 D1", "C5", "C2C6"),  # vertical
        ("B1 C2 E4 F5", "A1 A2 A3 A4", "D3", "B1F5"),  # diagonal
        ("J0 I1 H2 G3", "A1 A2 A3 A4", "F4", "J0F4"),  # anti-diagonal, first cell on top
        ("F9 G8 H7 I6", "A1 A2 A3 A4", "J5", "J5F9"),
    ],
)
def test_five_in_a_line_scores_an_alignment(ones: str, twos: str, move: str, gain: str) -> None:
    turn = BigTicTacToeRules().play(state(ones, twos), move)
    assert turn.params["Gain1"] == gain
    assert turn.params["Gain2"] == ""
    assert turn.params["Move1"] == move and turn.params["Input"] == "Two"


def test_four_and_a_broken_line_score_nothing() -> None:
    rules = BigTicTacToeRules()
    assert rules.play(state("A0 B0 C0", "J9 J8 J7"), "D0").params["Gain1"] == ""
    assert rules.play(state("A0 B0 C0 E0", "D0 J8 J7 J6"), "F0").params["Gain1"] == ""


def test_player_two_scores_in_gain2() -> None:
    turn = BigTicTacToeRules().play(state("A0 A1 A2 A3 J9", "B0 B1 B2 B3"), "B4")
    assert turn.params["Gain2"] == "B0B4" and turn.params["Gain1"] == ""
    assert turn.params["Move2"] == "B4" and turn.params["Input"] == "One"


def test_a_line_of_six_scores_once() -> None:
    rules = BigTicTacToeRules()
    turn = rules.play(state("A0 B0 C0 D0 E0", "A9 B9 C9 D9", gain1="A0E0"), "F0")
    assert turn.params["Gain1"] == "A0E0"
    # Filling the gap of a run of six scores the first five through it, once.
    turn = rules.play(state("A0 B0 D0 E0 F0", "A9 B9 C9 D9 E9"), "C0")
    assert turn.params["Gain1"] == "A0E0"


def test_a_line_of_ten_scores_twice_as_two_fives_sharing_no_cell() -> None:
    rules = BigTicTacToeRules()
    s = state("A0 B0 C0 D0 E0 F0 G0 H0 I0", "A9 B9 C9 D9 E9 F9 G9 H9 I9", gain1="A0E0")
    assert rules.play(s, "J0").params["Gain1"] == "A0E0F0J0"
    # Eight with a gap at E0: filling it scores the first five through it (A0E0); F0-I0
    # score only when J0 joins them.
    s = state("A0 B0 C0 D0 F0 G0 H0 I0", "A9 B9 C9 D9 E9 F9 G9 H9")
    turn = rules.play(s, "E0")
    assert turn.params["Gain1"] == "A0E0"
    turn = rules.play({**turn.state, "tray": turn.state["tray"][:-1] + "2"}, "J0")
    assert turn.params["Gain1"] == "A0E0F0J0"


def test_a_cell_scores_in_several_directions_at_once() -> None:
    ones = "A4 B4 C4 D4 E0 E1 E2 E3 A0 B1 C2 D3 I0 H1 G2 F3"
    twos = "J9 J8 J7 J6 J5 I9 I8 I7 I6 I5 H9 H8 H7 H6 G9 G8"
    turn = BigTicTacToeRules().play(state(ones, twos), "E4")
    # Horizontal, vertical, diagonal, anti-diagonal, in that order.
    assert turn.params["Gain1"] == "A4E4E0E4A0E4I0E4"


def test_new_alignments_respects_the_same_direction_rule() -> None:
    t = tray("A0 B0 C0 D0 E0 F0 G0 H0 I0 J0")
    assert new_alignments(t, "", 4) == ["A0E0"]
    assert new_alignments(t, "A0E0", 9) == ["F0J0"]
    assert new_alignments(t[:6] + "0" * 94, "A0E0", 5) == []  # F0 ends a line of six
    assert new_alignments(t, "B0F0", 9) == []  # G0-J0 are only four


@st.composite
def gains_on_trays(draw: st.DrawFn) -> tuple[str, str, str]:
    """Draw a Tray and two Gains of alignments on it: mostly five cells in a line put on
    the player's marks, some overlapping in a direction, off the marks, or garbage."""
    cells = list(draw(st.text("0000012", min_size=100, max_size=100)))
    gains = []
    for player in ("1", "2"):
        gain = ""
        for _ in range(draw(st.integers(0, 3))):
            dx, dy = draw(st.sampled_from([(1, 0), (0, 1), (1, 1), (-1, 1)]))
            column, row = draw(st.integers(0, 9)), draw(st.integers(0, 9))
            line = [(column + k * dx, row + k * dy) for k in range(5)]
            if not all(0 <= x < 10 and 0 <= y < 10 for x, y in line):
                gain += draw(st.sampled_from(["A0A3", "A0", "ZZZZ", cell_name(column + 10 * row)]))
                continue
            if draw(st.integers(0, 4)):  # on the player's marks, else on whatever is there
                for x, y in line:
                    cells[10 * y + x] = player
            (x0, y0), (x4, y4) = line[0], line[-1]
            first, last = cell_name(x0 + 10 * y0), cell_name(x4 + 10 * y4)
            gain += draw(st.sampled_from([first + last, last + first]))
        gains.append(gain)
    return "".join(cells), gains[0], gains[1]


@settings(max_examples=300, deadline=None)
@given(drawn=gains_on_trays())
def test_a_state_gain_is_refused_exactly_when_its_alignments_do_not_read(
    drawn: tuple[str, str, str],
) -> None:
    # The rules check a stored Gain on bitboards; the page reads it alignment by alignment:
    # the same alignments are wrong for both.
    board, one, two = drawn
    state = {"tray": board, "count": 0, "gain1": one, "gain2": two}
    bad = [
        p for p, gain in zip(PAIR, (one, two), strict=True) if read_alignments(gain, p, board)[1]
    ]
    if bad:
        with pytest.raises(IllegalMove, match=f"Gain{bad[0]} is corrupt"):
            BigTicTacToeRules().referee_tray(state)
    else:
        assert BigTicTacToeRules().referee_tray(state) == (board, one, two)


def test_the_board_full_ends_the_game() -> None:
    last = tray(
        " ".join(cell_name(i) for i in range(0, 99, 2)),
        " ".join(cell_name(i) for i in range(1, 98, 2)),
    )
    assert last.count("0") == 1 and last.count("1") == last.count("2") + 1
    s = {"tray": last, "count": 99, "gain1": "", "gain2": ""}
    turn = BigTicTacToeRules().play(s, "J9")
    assert turn.over is True
    assert turn.params["Method"] == "End" and "Input" not in turn.params
    assert turn.params["Count"] == "100" and turn.params["Move2"] == "J9"
    with pytest.raises(IllegalMove, match="over"):
        BigTicTacToeRules().play(turn.state, "A0")


@pytest.mark.parametrize("value", ["", "A", "K0", "A10", "a0", "5", "A0A1", " A0"])
def test_rules_refuse_what_is_not_a_cell(value: str) -> None:
    drive.check_refused(BigTicTacToeRules(), [], value)


def test_rules_refuse_a_taken_cell() -> None:
    drive.check_refused(BigTicTacToeRules(), ["E5"], "E5", match="taken")


@pytest.mark.parametrize(
    "bad",
    [
        {"tray": "junk"},
        {"tray": "3" * 100},
        {"tray": EMPTY, "count": "x"},
        {"tray": EMPTY, "count": -1},
        {"tray": EMPTY, "gain1": "A0E0"},
        {"tray": EMPTY, "gain2": 5},
        {},
    ],
)
def test_rules_refuse_a_corrupt_state(bad: dict[str, object]) -> None:
    with pytest.raises(IllegalMove, match="corrupt"):
        BigTicTacToeRules().play(bad, "A0")


# --- a known game, move by move --------------------------------------------------------------
#
# Player one takes columns A-E of rows 0-8, then A9-D9 and J9; player two columns F-J of rows
# 0-8, then E9-I9; each plays their own cells in reading order, player one first.
# Worked out by hand (see the comments of KNOWN_GAIN1/2): player one scores 9 rows, 9
# columns (A-D twice, E once: E9 is two's), 5 diagonals (A5-E9 is broken by E9) and
# 6 anti-diagonals: 29. Player two scores 10 rows (E9-I9 too), 9 columns, 5 diagonals (F5-J9
# is broken by J9) and 6 anti-diagonals (J4-E9 is six long: J4F8 only): 30. Player two wins.

ONE_CELLS = [f"{c}{r}" for r in range(9) for c in "ABCDE"] + ["A9", "B9", "C9", "D9", "J9"]
TWO_CELLS = [f"{c}{r}" for r in range(9) for c in "FGHIJ"] + ["E9", "F9", "G9", "H9", "I9"]

KNOWN_GAIN1 = (
    "A0E0A1E1A2E2A3E3"  # rows 0-3, each at E
    "A0A4E0A4B0B4C0C4D0D4A4E4E0E4A0E4"  # row 4: A4 column A and anti-diagonal, B4-D4 columns,
    # E4 row, column E, diagonal
    "E1A5A5E5A1E5"  # row 5: A5 anti-diagonal, E5 row and diagonal
    "E2A6A6E6A2E6"
    "E3A7A7E7A3E7"
    "E4A8A8E8A4E8"
    "A5A9E5A9B5B9C5C9D5D9"  # row 9: second fives of columns A-D, the last anti-diagonal
)
KNOWN_GAIN2 = (
    "F0J0F1J1F2J2F3J3"
    "F0F4J0F4G0G4H0H4I0I4F4J4J0J4F0J4"
    "J1F5F5J5F1J5"
    "J2F6F6J6F2J6"
    "J3F7F7J7F3J7"
    "J4F8F8J8F4J8"
    "F5F9J5F9G5G9H5H9E9I9I5I9"  # E9 scores nothing: I5-E9 meets J4F8
)


def alignments_of(gain: str) -> list[str]:
    """Split a Gain into its 4-character alignments."""
    return [gain[i : i + 4] for i in range(0, len(gain), 4)]


def replay(moves: Iterable[str]) -> list[Turn]:
    """Return every turn of a new game where ``moves`` are played in order."""
    rules = BigTicTacToeRules()
    turns = [rules.new_game()]
    for move in moves:
        turns.append(rules.play(turns[-1].state, move))
    return turns


def test_a_known_game_replayed_move_by_move() -> None:
    moves = [cell for pair in zip(ONE_CELLS, TWO_CELLS, strict=True) for cell in pair]
    assert len(set(moves)) == 100
    turns = replay(moves)
    gains = {Player.ONE: alignments_of(KNOWN_GAIN1), Player.TWO: alignments_of(KNOWN_GAIN2)}
    assert (len(gains[Player.ONE]), len(gains[Player.TWO])) == (29, 30)

    board = ["0"] * 100
    for number, (move, turn) in enumerate(zip(moves, turns[1:], strict=True), start=1):
        player = Player.ONE if number % 2 else Player.TWO
        index = read_cell(move)
        assert index is not None
        board[index] = str(int(player))
        params = turn.params
        assert params["Tray"] == "".join(board), number
        assert params[f"Move{player}"] == move and params["Count"] == str(number)
        # Each Gain so far is the start of the known one, growing only with its player's moves.
        for who in PAIR:
            made = alignments_of(params[f"Gain{who}"])
            assert made == gains[who][: len(made)], (number, who)
        before = turns[number - 1].params
        if player is Player.ONE:
            assert params["Gain2"] == before["Gain2"]
        assert turn.over is (number == 100)
        assert params.get("Input") == (
            None if number == 100 else ("Two" if player is Player.ONE else "One")
        )

    final = turns[-1].params
    assert final["Gain1"] == KNOWN_GAIN1 and final["Gain2"] == KNOWN_GAIN2
    assert final["Method"] == "End"
    # Spot checks along the way: player one's first alignment comes with E0 (move 9), player
    # two's E9 (move 92) scores nothing.
    assert turns[9].params["Gain1"] == "A0E0" and turns[8].params["Gain1"] == ""
    assert turns[92].params["Gain2"] == turns[90].params["Gain2"]

    # The last page, as the interface draws it: every line, the scores, the winner.
    end = build(read_context(urlencode(final)))
    assert end.errors == ()
    assert end.scores == (29, 30) and end.winner is Player.TWO
    assert [a.code for a in end.alignments if a.player is Player.TWO] == gains[Player.TWO]
    assert {a.code for a in end.alignments if a.new} == {"E9I9", "I5I9"}
