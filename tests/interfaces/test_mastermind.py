"""MasterMind: the parser, the marks and the rules, without a browser.

Manual chapter V, "Mastermind"; spec section 4 (MasterMind). Board 1 holds player one's
code and the lines player two played against it; board 2 player two's code and player
one's lines (see ``interfaces/mastermind/board.py``).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.interfaces import drive
from tournoyons_gui.interfaces.mastermind import interface
from tournoyons_gui.interfaces.mastermind import rules as mastermind_rules
from tournoyons_gui.interfaces.mastermind.board import (
    Line,
    MasterMindView,
    build,
    found_at,
    outcome,
    player_to_move,
    read_board,
    read_code,
    read_line,
    read_tray,
    score,
)
from tournoyons_gui.interfaces.mastermind.rules import MasterMindRules
from tournoyons_gui.interfaces.plugin import IllegalMove, Turn
from tournoyons_gui.interfaces.protocol import Method, Player, read_context


def view(**params: str) -> MasterMindView:
    """Return the view model of the page for ``params``."""
    return build(read_context(urlencode(params)))


def codes(**params: str) -> set[str]:
    """Return the error codes of the page for ``params``."""
    return {error.code for error in view(**params).errors}


# --- reading lines, boards and the Tray -----------------------------------------------------


def test_the_manuals_example_line() -> None:
    line = read_line("30GCCH")
    assert line == Line(3, 0, "GCCH")
    assert line.value == "30GCCH"
    assert line.marks == ("well", "well", "well", "")
    assert not line.found
    assert read_line("40ABCD").found
    assert read_line("13ABCD").marks == ("well", "misplaced", "misplaced", "misplaced")


def test_colours_are_read_in_any_case_and_written_upper_case() -> None:
    assert read_line("12abch").value == "12ABCH"
    assert read_code("gcch") == "GCCH"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "30GCC",
        "30GCCHH",
        "3GCCH0",
        "x0GCCH",
        "30GCCI",
        "30GC H",
        "30GCC1",
        "50ABCD",
        "23ABCD",
        "14ABCD",
        "31ABCD",
        "05ABCD",
        "-1ABCD",
        "３0GCCH",
    ],
)
def test_unreadable_lines(text: str) -> None:
    with pytest.raises(ValueError):
        read_line(text)


@pytest.mark.parametrize("text", ["", "ABC", "ABCDE", "ABCI", "AB D", "1234"])
def test_unreadable_codes(text: str) -> None:
    with pytest.raises(ValueError):
        read_code(text)


def test_boards_hold_zero_to_eight_lines() -> None:
    assert read_board("") == ()
    assert len(read_board("00ABCD" * 8)) == 8
    with pytest.raises(ValueError):
        read_board("00ABCD" * 9)
    with pytest.raises(ValueError):
        read_board("00ABCD00ABC")


@pytest.mark.parametrize("tray", [None, "Init", "init", "***"])
def test_empty_trays(tray: str | None) -> None:
    assert read_tray(tray) == ((), ())


def test_a_tray_is_board_one_then_board_two() -> None:
    board1, board2 = read_tray("11BBCC00DEFA***21ABCD")
    assert [line.value for line in board1] == ["11BBCC", "00DEFA"]
    assert [line.value for line in board2] == ["21ABCD"]


@pytest.mark.parametrize(
    "tray",
    [
        "11BBCC00DEFA",  # no ***
        "11BBCC***00DEFA***",  # two
        "11BBC***",  # a short line
        "***11BBCCX",  # a long one
        "11BBCZ***",  # an unknown colour
        "32BBCC***",  # marks above 4
        "31BBCC***",  # 3 well placed and 1 misplaced cannot be
        "00ABCD" * 9 + "***",  # more than 8 lines
        "** *",
    ],
)
def test_unreadable_trays_are_two_empty_boards_an_error_and_no_input(tray: str) -> None:
    page = view(Tray=tray, Input="One", Gain1="ABCD")
    assert {e.code for e in page.errors} == {"tray"}
    assert page.tray == "***"
    assert all(board.lines == () for board in page.boards)
    assert page.player is None and not page.composed
    with pytest.raises(ValueError):
        read_tray(tray)


# --- marks ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "guess", "marks"),
    [
        ("ABCD", "ABCD", (4, 0)),
        ("ABCD", "DCBA", (0, 4)),
        ("ABCD", "EFGH", (0, 0)),
        ("ABCD", "ABDC", (2, 2)),
        ("GCCA", "GCCH", (3, 0)),  # the manual's 30GCCH
        # Repeated colours: a colour scores no more often than the code holds it.
        ("ABCD", "AAAA", (1, 0)),
        ("AABC", "AAAA", (2, 0)),
        ("ABBB", "BAAA", (0, 2)),
        ("AABB", "ABAB", (2, 2)),
        ("AABB", "BBAA", (0, 4)),
        ("ABCA", "AAEE", (1, 1)),
        ("BAAC", "AADD", (1, 1)),
        ("GCCH", "BBCC", (1, 1)),
        ("AAAA", "ABAB", (2, 0)),
        ("HHGG", "GHHG", (2, 2)),
    ],
)
def test_marks_count_well_placed_then_misplaced(
    code: str, guess: str, marks: tuple[int, int]
) -> None:
    assert score(code, guess) == marks


def _reference_score(code: str, guess: str) -> tuple[int, int]:
    """Mark as a player does: red marks first, then each guess peg against an unused peg."""
    code_left, guess_left, well = [], [], 0
    for c, g in zip(code, guess, strict=True):
        if c == g:
            well += 1
        else:
            code_left.append(c)
            guess_left.append(g)
    misplaced = 0
    for g in guess_left:
        if g in code_left:
            code_left.remove(g)
            misplaced += 1
    return well, misplaced


def test_marks_agree_with_marking_peg_by_peg() -> None:
    rng = random.Random(4)
    # Few colours, so repeats are common.
    for _ in range(3000):
        code = "".join(rng.choice("ABCH") for _ in range(4))
        guess = "".join(rng.choice("ABCH") for _ in range(4))
        assert score(code, guess) == _reference_score(code, guess), (code, guess)


def test_every_score_is_a_readable_line() -> None:
    for code, guess in itertools.product(["AABB", "ABCD", "AAAB"], ["ABAB", "BAAA", "DCBA"]):
        well, misplaced = score(code, guess)
        assert read_line(f"{well}{misplaced}{guess}").colours == guess


# --- the end of the game ----------------------------------------------------------------------


def lines(*values: str) -> tuple[Line, ...]:
    return tuple(read_line(v) for v in values)


MISS = "00EEEE"
FIND = "40ABCD"


@pytest.mark.parametrize(
    ("ones", "twos", "result"),
    [
        ((), (), (False, None)),
        ((MISS,), (), (False, None)),
        ((FIND,), (), (False, Player.ONE)),  # two still plays line 1
        ((FIND,), (MISS,), (True, Player.ONE)),
        ((FIND,), (FIND,), (True, None)),  # same line: a draw
        ((MISS, FIND), (MISS, MISS), (True, Player.ONE)),
        ((MISS,), (FIND,), (True, Player.TWO)),
        ((MISS, MISS), (MISS, FIND), (True, Player.TWO)),
        ((MISS,) * 8, (MISS,) * 7, (False, None)),
        ((MISS,) * 8, (MISS,) * 8, (True, None)),  # 8 lines each: a draw
        ((MISS,) * 7 + (FIND,), (MISS,) * 8, (True, Player.ONE)),
        ((MISS,) * 8, (MISS,) * 7 + (FIND,), (True, Player.TWO)),
    ],
)
def test_outcome(
    ones: tuple[str, ...], twos: tuple[str, ...], result: tuple[bool, Player | None]
) -> None:
    # Player one's lines are on board 2, player two's on board 1.
    assert outcome(lines(*twos), lines(*ones)) == result


def test_player_one_guesses_first_then_they_alternate() -> None:
    assert player_to_move((), ()) is Player.ONE
    assert player_to_move((), lines(MISS)) is Player.TWO
    assert player_to_move(lines(MISS), lines(MISS)) is Player.ONE


# --- the view model -----------------------------------------------------------------------------


def test_the_sample_asks_player_one_for_a_guess_on_board_two() -> None:
    page = build(read_context(urlencode(interface.sample)))
    assert page.errors == ()
    assert page.player is Player.ONE and page.composed and page.playable == ()
    board1, board2 = page.boards
    assert board1.owner is Player.ONE and board1.guesser is Player.TWO
    assert board2.compose == "line" and board2.next_line == 3 and board1.compose == ""
    assert page.prefill == "AEBF"  # player one's previous guess, to change
    assert board1.code == "GCCH" and board2.code is None
    assert page.turn == (Player.ONE, Player.TWO)
    assert page.tray == interface.sample["Tray"]
    # Player two played last (line 2 on board 1): its marks are the impact shown after Wait.
    assert board1.last and not board2.last
    assert page.sound == "move"


def test_the_opponents_code_is_never_given_to_the_person_asked() -> None:
    both = {"Gain1": "GCCH", "Gain2": "AEBD", "Tray": "11BBCC***21ABCD"}
    page = view(**both, Input="Two")
    assert [b.code for b in page.boards] == [None, "AEBD"]
    page = view(**both, Input="One")
    assert [b.code for b in page.boards] == ["GCCH", None]
    # Spectators and the end of the game see both codes.
    assert [b.code for b in view(**both).boards] == ["GCCH", "AEBD"]
    assert [b.code for b in view(**both, Method="End", Input="One").boards] == ["GCCH", "AEBD"]
    # Preparing, only one's own.
    page = view(**both, Method="Prepare", Input="Two")
    assert [b.code for b in page.boards] == [None, "AEBD"]


def test_prepare_composes_the_code_on_the_players_own_board() -> None:
    page = view(Method="Prepare", Input="Two", Tray="Init")
    assert page.player is Player.TWO and page.composed
    assert [b.compose for b in page.boards] == ["", "code"]
    assert page.prefill == ""
    assert page.turn == (Player.TWO, Player.TWO)
    assert page.tray == "***"
    # Without Input, player one prepares; a code given is where the person starts.
    page = view(Method="Prepare", Gain1="abcd")
    assert page.player is Player.ONE and page.boards[0].compose == "code"
    assert page.prefill == "ABCD"


def test_first_guess_starts_from_empty_holes() -> None:
    page = view(Tray="***", Input="One", Gain1="ABCD")
    assert page.boards[1].compose == "line" and page.boards[1].next_line == 1
    assert page.prefill == ""
    assert page.sound is None


@pytest.mark.parametrize(
    ("params", "player"),
    [
        ({"Tray": "***40ABCD", "Input": "One"}, None),  # one found: waits for two
        ({"Tray": "***40ABCD", "Input": "Two"}, Player.TWO),  # two may equal
        ({"Tray": "***40ABCD", "Input": "Two", "Method": "End"}, None),
        ({"Tray": "***40ABCD", "Input": "Two", "Method": "None"}, None),
        ({"Tray": "00EEEE***40ABCD", "Input": "Two"}, None),  # over
        ({"Tray": MISS * 8 + "***" + MISS * 8, "Input": "One"}, None),  # full boards
        ({"Tray": MISS * 7 + "***" + MISS * 8, "Input": "One"}, None),  # one's board is full
        ({"Tray": MISS * 7 + "***" + MISS * 8, "Input": "Two"}, Player.TWO),
        ({"Tray": "00EEEE***00EEEE", "WebTest": "yes"}, Player.ONE),  # the player to move
        ({"Tray": "***00EEEE", "WebTest": "yes"}, Player.TWO),
        ({"Tray": "***00EEEE"}, None),  # no Input: nobody is asked
    ],
)
def test_who_may_compose(params: dict[str, str], player: Player | None) -> None:
    page = view(**params)
    assert page.player is player
    assert page.composed is (player is not None)


def test_the_end_of_the_game() -> None:
    page = view(Method="End", Tray="00EEEE***40ABCD", Gain1="ABCD", Gain2="ABCD")
    assert page.over and page.winner is Player.ONE and page.turn is None
    assert page.sound == "win"
    draw = view(Method="End", Tray="40ABCD***40ABCD")
    assert draw.over and draw.winner is None and draw.sound == "move"


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"Gain1": "ABC"}, "gain1"),
        ({"Gain2": "ABCI"}, "gain2"),
        ({"Gain2": "00ABCD"}, "gain2"),
    ],
)
def test_unreadable_codes_are_covered_with_an_error(params: dict[str, str], code: str) -> None:
    page = view(Tray="***", **params)
    assert {e.code for e in page.errors} == {code}
    assert all(board.code is None for board in page.boards)


def test_moves_are_not_read() -> None:
    assert codes(Tray="***00ABCD", Move1="zz", Move2="40ABCD") == set()


def test_the_set_declares_its_methods() -> None:
    assert interface.methods == {Method.STANDARD, Method.END, Method.NONE, Method.PREPARE}
    assert interface.name == "MasterMind" and interface.key == "mastermind"


# --- the rules ------------------------------------------------------------------------------


def run(values: list[str]) -> list[Turn]:
    """Play ``values`` from a new game; return every turn, the first one included."""
    rules = MasterMindRules()
    return drive.turns_from(rules, rules.new_game(), values)


def page_of(turn: Turn) -> MasterMindView:
    """Return the view model of the page the tester loads for ``turn``."""
    return build(read_context(urlencode(dict(turn.params))))


def test_a_game_starts_with_both_players_preparing() -> None:
    first, after_one, after_two = run(["GCCH", "AEBD"])
    assert first.params == {"Method": "Prepare", "Input": "One", "Tray": "Init", "Count": "0"}
    assert after_one.params == {
        "Method": "Prepare",
        "Input": "Two",
        "Tray": "Init",
        "Count": "1",
    }  # player one's code is not sent
    assert after_two.params == {
        "Method": "Standard",
        "Input": "One",
        "Tray": "***",
        "Gain1": "GCCH",
        "Count": "2",
    }
    assert after_two.state["code1"] == "GCCH" and after_two.state["code2"] == "AEBD"
    for turn in (first, after_one, after_two):
        page = page_of(turn)
        assert page.errors == () and page.composed and not turn.over
    assert page_of(after_one).boards[1].compose == "code"


def test_a_win_player_one_finds_first() -> None:
    turns = run(["GCCH", "AEBD", "00ABCD", "00BBCC", "00AEBF", "00DEFA", "00AEBD", "00GCCA"])
    tray = "11BBCC00DEFA30GCCA***21ABCD30AEBF40AEBD"
    # Player one's guesses are marked against player two's code, and the reverse.
    assert turns[2 + 1].params["Tray"] == "***21ABCD"
    assert turns[3 + 1].params["Tray"] == "11BBCC***21ABCD"
    assert turns[3 + 1].params["Input"] == "One" and turns[3 + 1].params["Gain1"] == "GCCH"
    assert "Gain2" not in turns[3 + 1].params
    assert turns[2 + 1].params["Input"] == "Two" and turns[2 + 1].params["Gain2"] == "AEBD"
    assert "Gain1" not in turns[2 + 1].params
    # Player one found on line 3: player two still plays line 3, then the game ends.
    found = turns[7]
    assert not found.over and found.params["Input"] == "Two"
    end = turns[8]
    assert end.over
    assert end.params == {
        "Method": "End",
        "Tray": tray,
        "Count": "8",
        "Gain1": "GCCH",
        "Gain2": "AEBD",
    }
    page = page_of(end)
    assert page.over and page.winner is Player.ONE and page.errors == ()
    assert [b.code for b in page.boards] == ["GCCH", "AEBD"]
    with pytest.raises(IllegalMove, match="over"):
        MasterMindRules().play(end.state, "00ABCD")


def test_a_win_player_two_finds_first() -> None:
    end = run(["GCCH", "AEBD", "00ABCD", "00GCCH"])[-1]
    assert end.over and end.params["Tray"] == "40GCCH***21ABCD"
    assert page_of(end).winner is Player.TWO


def test_a_draw_by_equal_lines() -> None:
    end = run(["GCCH", "AEBD", "00ABCD", "00BBCC", "00AEBD", "00GCCH"])[-1]
    assert end.over and end.params["Method"] == "End"
    assert end.params["Tray"] == "11BBCC40GCCH***21ABCD40AEBD"
    page = page_of(end)
    assert page.over and page.winner is None


def test_a_draw_after_eight_lines_each() -> None:
    turns = run(["AAAA", "BBBB"] + ["00CCCC"] * 16)
    assert all(not turn.over for turn in turns[:-1])
    end = turns[-1]
    assert end.over and end.params["Tray"] == "00CCCC" * 8 + "***" + "00CCCC" * 8
    assert page_of(end).winner is None and page_of(end).over


def test_marks_count_repeated_colours_in_play() -> None:
    end = run(["AABB", "ABCD", "00AAAA", "00BBAA"])[-1]
    assert end.params["Tray"] == "04BBAA***10AAAA"


def test_a_guess_carries_marks_the_rules_recompute() -> None:
    turn = run(["GCCH", "AEBD", "40ABCD"])[-1]
    assert turn.params["Tray"] == "***21ABCD"


@pytest.mark.parametrize(
    ("played", "value"),
    [
        ([], "ABC"),
        ([], "abcd"),
        ([], "ABCI"),
        ([], "00ABCD"),
        (["GCCH"], "GCCHA"),
        (["GCCH", "AEBD"], "ABCD"),
        (["GCCH", "AEBD"], "00ABCI"),
        (["GCCH", "AEBD"], "0ABCDE"),
        (["GCCH", "AEBD"], "00abcd"),
    ],
)
def test_illegal_values(played: list[str], value: str) -> None:
    state = run(played)[-1].state
    with pytest.raises(IllegalMove):
        MasterMindRules().play(state, value)


@pytest.mark.parametrize(
    "state",
    [
        {"code1": "XXXX", "code2": None, "board1": [], "board2": [], "count": 1},
        {"code1": "AAAA", "code2": "BBBB", "board1": "oops", "board2": [], "count": 2},
        {"code1": "AAAA", "code2": "BBBB", "board1": ["99AAAA"], "board2": [], "count": 2},
    ],
)
def test_a_corrupt_state_is_refused(state: Mapping[str, Any]) -> None:
    with pytest.raises(IllegalMove, match="corrupt"):
        MasterMindRules().play(state, "00ABCD")


def test_every_page_of_a_game_reads_without_error_and_asks_the_right_player() -> None:
    values = ["GCCH", "AEBD", "00ABCD", "00BBCC", "00AEBF", "00DEFA", "00AEBD", "00GCCA"]
    for turn in run(values):
        page = page_of(turn)
        assert page.errors == ()
        if turn.over:
            assert page.player is None
        else:
            asked = Player.ONE if turn.params["Input"] == "One" else Player.TWO
            assert page.player is asked
            # The opponent's code is neither sent nor drawn.
            assert f"Gain{asked.opponent}" not in turn.params
            assert page.boards[asked.opponent - 1].code is None


# --- the rules' fast paths, against the straightforward ones ---------------------------


@given(value=st.text(alphabet="abcdhijABCDEFGHIZ0 \u00df\u0130", max_size=7))
def test_a_code_is_read_as_four_colours_checked_one_by_one(value: str) -> None:
    code = value.strip().upper()
    if len(code) == 4 and all(colour in "ABCDEFGH" for colour in code):
        assert read_code(value) == code
    else:
        with pytest.raises(ValueError):
            read_code(value)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_boards_read_once_and_kept_are_the_boards_read_line_by_line(seed: int) -> None:
    rng = random.Random(seed)
    rules = MasterMindRules()
    turn = rules.start()
    while not turn.over:
        state = json.loads(json.dumps(turn.state))
        for owner in (Player.ONE, Player.TWO):
            lines = tuple(read_line(value) for value in state[f"board{owner}"])
            assert mastermind_rules._board(state, owner) == lines
            assert [line.value for line in lines] == state[f"board{owner}"]
            assert found_at(lines) == next(
                (number for number, line in enumerate(lines, 1) if line.found), None
            )
        (player,) = rules.asked(state)
        code = "".join(rng.choice("ABCDEFGH") for _ in range(4))
        turn = rules.play(state, rules.engine_value(state, player, code))
