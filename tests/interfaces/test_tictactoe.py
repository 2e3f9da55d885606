"""TicTacToe: the parser and the rules, without a browser (manual chapter V; annex B)."""

from __future__ import annotations

from itertools import product

import pytest

from tests.interfaces import drive
from tournoyons_gui.interfaces.plugin import IllegalMove
from tournoyons_gui.interfaces.protocol import PAIR, Player, read_context
from tournoyons_gui.interfaces.tictactoe.board import LINES, build, player_to_move
from tournoyons_gui.interfaces.tictactoe.rules import TicTacToeRules, winning_cells


def states(query: str) -> str:
    return "".join(cell.state for cell in build(read_context(query)).cells)


def codes(query: str) -> set[str]:
    return {error.code for error in build(read_context(query)).errors}


def test_init_and_absent_tray_are_the_empty_board() -> None:
    assert states("Tray=Init") == "000000000"
    assert states("Tray=init") == "000000000"
    assert states("") == "000000000"


def test_tray_codes_are_drawn_in_order() -> None:
    view = build(read_context("Tray=312040000"))
    assert [c.state for c in view.cells] == list("312040000")
    assert view.cells[0].row == 0 and view.cells[2].column == 2 and view.cells[8].row == 2


@pytest.mark.parametrize("tray", ["12", "0000000000", "00000000x", "ABCDEFGHI", "00000000 "])
def test_unreadable_tray_is_an_empty_board_with_nothing_playable(tray: str) -> None:
    view = build(read_context(f"Tray={tray}&Input=One"))
    assert {e.code for e in view.errors} == {"tray"}
    assert view.playable == ()
    assert view.tray == "000000000"


def test_a_move_puts_its_mark_on_its_cell_as_annex_b_does() -> None:
    view = build(read_context("Tray=100000000&Move2=5"))
    assert view.tray == "100020000"
    assert view.cells[4].last_move is Player.TWO
    assert view.sound == "move"


def test_a_move_already_in_the_tray_is_marked_last() -> None:
    view = build(read_context("Tray=100020000&Move2=5&Move1=1"))
    assert view.tray == "100020000"
    assert view.cells[4].last_move is Player.TWO
    assert view.cells[0].last_move is Player.ONE


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("Move1=0", "move1"),
        ("Move2=10", "move2"),
        ("Tray=200000000&Move1=1", "move1"),
        ("Move1=A", "move1"),
    ],
)
def test_unreadable_moves(query: str, code: str) -> None:
    assert codes(query) == {code}


def test_input_on_empty_cells_only() -> None:
    view = build(read_context("Tray=120010002&Input=Two"))
    assert view.player is Player.TWO
    assert view.playable == ("3", "4", "6", "7", "8")


def test_no_input_when_the_game_is_won_or_over() -> None:
    assert build(read_context("Tray=333020200&Input=Two")).playable == ()
    assert build(read_context("Tray=000000000&Input=One&Method=End")).playable == ()
    assert build(read_context("Tray=121212212&Input=One")).playable == ()


def test_winning_cells_wait_after_the_move_that_made_them() -> None:
    view = build(read_context("Tray=333020200&Move1=3"))
    winning = [c for c in view.cells if c.state == "3"]
    assert [c.number for c in winning] == [1, 2, 3]
    assert all(c.before == "1" for c in winning)
    assert view.winner is Player.ONE
    assert view.sound == "win"
    # Without a move there is nothing to wait for.
    assert all(c.before is None for c in build(read_context("Tray=333020200")).cells)


def test_webtest_asks_the_player_to_move() -> None:
    assert build(read_context("Tray=100000000&WebTest=yes")).player is Player.TWO
    assert build(read_context("Tray=120000000&WebTest=yes")).player is Player.ONE
    assert build(read_context("Tray=100000000")).player is None


def test_player_to_move() -> None:
    assert player_to_move("000000000") is Player.ONE
    assert player_to_move("100000000") is Player.ONE.opponent
    assert player_to_move("120000000") is Player.ONE


def test_a_known_game_won_by_player_one() -> None:
    pages = drive.hot_seat_pages(TicTacToeRules(), "14253")
    assert pages[0] == {"Tray": "Init", "Input": "One", "Count": "0"}
    assert pages[1] == {"Tray": "100000000", "Move1": "1", "Count": "1", "Input": "Two"}
    assert pages[2] == {"Tray": "100200000", "Move2": "4", "Count": "2", "Input": "One"}
    assert pages[-1] == {"Tray": "333220000", "Move1": "3", "Count": "5", "Method": "End"}


def test_a_known_draw() -> None:
    pages = drive.hot_seat_pages(TicTacToeRules(), "159287364")
    assert pages[-1]["Method"] == "End"
    assert pages[-1]["Tray"] == "121122211"
    assert "Input" not in pages[-1]
    assert build(read_context("&".join(f"{k}={v}" for k, v in pages[-1].items()))).winner is None


def test_a_diagonal_win_for_player_two() -> None:
    pages = drive.hot_seat_pages(TicTacToeRules(), "132597")
    assert pages[-1]["Method"] == "End"
    # Player two holds 3, 5, 7: the anti-diagonal.
    assert [i + 1 for i, c in enumerate(pages[-1]["Tray"]) if c == "4"] == [3, 5, 7]


@pytest.mark.parametrize("value", ["0", "10", "x", "", "55"])
def test_rules_refuse_what_is_not_a_cell(value: str) -> None:
    drive.check_refused(TicTacToeRules(), [], value)


def test_rules_refuse_a_taken_cell_and_a_finished_game() -> None:
    rules = TicTacToeRules()
    drive.check_refused(rules, ["5"], "5")
    state = {"tray": "111220000", "count": 5}
    with pytest.raises(IllegalMove):
        rules.play(state, "9")
    with pytest.raises(IllegalMove):
        rules.play({"tray": "junk"}, "1")


def test_the_bitboard_lines_are_the_eight_lines_on_every_board() -> None:
    # Every engines' Tray (3^9), and every board of plain and winning marks (a page's):
    # the lines found by shifts are those a walk of the eight lines finds, for each
    # player's mark (a winning code 3/4 is not the mark).
    trays = [*product("012", repeat=9), *product("13", repeat=9), *product("24", repeat=9)]
    for cells in trays:
        tray = "".join(cells)
        for player in PAIR:
            mark = str(int(player))
            walked = {i for line in LINES if all(tray[i] == mark for i in line) for i in line}
            assert winning_cells(tray, player) == walked, (tray, player)
