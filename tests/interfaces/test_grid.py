"""The board Sets' shared grid (tournoyons_gui.interfaces.grid) and the page parameters' writer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournoyons_gui.interfaces.grid import Cell, Codes, Grid, Lines, cells_of
from tournoyons_gui.interfaces.protocol import (
    Method,
    PageParams,
    ParamError,
    Player,
    opponent_move,
    read_context,
    read_param,
)

LETTERED = Grid.lettered("ABC", "12")  # A1 B1 C1 / A2 B2 C2
OWN = {Player.ONE: "13", Player.TWO: "24"}
MARK = {Player.ONE: "1", Player.TWO: "2"}


def test_names_and_indexes_go_both_ways() -> None:
    assert LETTERED.names == ("A1", "B1", "C1", "A2", "B2", "C2")
    assert (LETTERED.width, LETTERED.height, LETTERED.size) == (3, 2, 6)
    assert LETTERED.places[4] == ("B2", 1, 1) and LETTERED.at(1, 1) == 4
    assert [LETTERED.index(n) for n in ("C1", "c1", "D1", None)] == [2, None, None, None]
    assert [LETTERED.read(n) for n in ("C1", "c1", "b2", "B", "B22", "ÀA", None)] == [
        2,
        2,
        4,
        None,
        None,
        None,
        None,
    ]
    assert Grid.numbered(3, 3).names == tuple("123456789")
    with pytest.raises(ValueError):
        Grid(2, 2, ["A", "B", "C"])


def test_a_tray_is_one_code_a_cell_or_init() -> None:
    assert LETTERED.read_tray(None, "012") == "000000" == LETTERED.empty
    assert LETTERED.read_tray("INIT", "012", "000120") == "000120"
    assert LETTERED.read_tray("012012", "012") == "012012"
    assert LETTERED.read_tray("012013", "012") is None
    assert LETTERED.read_tray("01201", "012") is None
    assert LETTERED.board("Init", "012") is None  # no Init where a whole board is due


def test_rays_and_runs_walk_to_the_edge() -> None:
    grid = Grid.lettered("ABCD", "1234")
    assert grid.ray(5, 1, 1) == (10, 15)
    assert grid.ray(5, -1, 0) == (4,) and grid.ray(4, -1, 0) == ()
    assert grid.run("1111011000100001", 5, 1, 0) == [6]
    assert grid.run("1111011000100001", 0, 1, 1) == [5, 10, 15]
    with pytest.raises(ValueError):
        grid.ray(0, 0, 0)


def test_a_span_counts_a_run_both_ways_and_the_cell() -> None:
    grid = Grid.lettered("ABCD", "1234")
    board = "1111011000100001"
    assert grid.span(board, 5, 1, 0) == 2 and grid.span(board, 6, -1, 0) == 2
    assert grid.span(board, 5, 1, 1) == 4 == grid.span(board, 10, -1, -1)
    assert grid.span(board, 4, 1, 0) == 1  # a "0" among "1"s: its own run of one
    assert grid.rays(1, 1)[5] == grid.ray(5, 1, 1) and len(grid.rays(0, 1)) == grid.size


# --- bitboards: the rules' fast path -----------------------------------------------------


def test_codes_read_a_board_at_c_speed() -> None:
    marks = Codes("13")
    assert marks.bits("0130") == 0b0110 and marks.bits("1") == 1 and marks.bits("") == 0
    assert marks.bits("3" + "0" * 99) == 1 and marks.bits("0" * 99 + "1") == 1 << 99
    # Any other character, one that Latin-1 cannot spell too, is none of the codes.
    assert marks.bits("1é€?3") == 0b10001
    assert Codes("012").only("0120") and Codes("012").only("")
    assert not Codes("012").only("0123") and not Codes("012").only("01€")
    assert not Codes("012").only("01?")
    for bad in ("1€", "1?"):
        with pytest.raises(ValueError):
            Codes(bad)
    assert cells_of(0) == () and cells_of(0b101) == (0, 2) and cells_of(1 << 360) == (360,)


def _walked(grid: Grid, board: str, length: int, directions: list[tuple[int, int]]) -> set[int]:
    """Return the cells of every line of ``length`` "1"s on ``board``, walking each line."""
    return {
        cell
        for _, cells in grid.windows(length, directions)
        if all(board[cell] == "1" for cell in cells)
        for cell in cells
    }


@st.composite
def boards(draw: st.DrawFn) -> tuple[Grid, str, int, list[tuple[int, int]]]:
    """Draw a grid, a board of "0"/"1" on it (dense or sparse), a line length and some
    directions among the eight."""
    width, height = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    alphabet = draw(st.sampled_from(["01", "011", "0111", "0001"]))
    board = draw(st.text(alphabet, min_size=width * height, max_size=width * height))
    steps = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
    directions = draw(st.lists(st.sampled_from(steps), min_size=1, max_size=4))
    grid = Grid.lettered("ABCDEFGHI"[:width], "123456789"[:height])
    return grid, board, draw(st.integers(1, 6)), directions


def test_bitboard_lines_of_each_direction_on_a_narrow_board() -> None:
    # Two cells wide, a row and an anti-diagonal both step by one index.
    grid = Grid.lettered("AB", "12")  # A1 B1 / A2 B2
    lines = Lines(grid, 2, [(1, 0), (-1, 1)])
    assert cells_of(lines.completed(Codes("1").bits("1100"))) == (0, 1)  # A1 B1
    assert cells_of(lines.completed(Codes("1").bits("0110"))) == (1, 2)  # B1 A2
    assert lines.completed(Codes("1").bits("1001")) == 0  # A1 B2: not these directions
    assert Lines(grid, 1, [(1, 0)]).completed(0b1010) == 0b1010


@settings(max_examples=300, deadline=None)
@given(drawn=boards())
def test_bitboard_lines_are_the_lines_a_walk_finds(
    drawn: tuple[Grid, str, int, list[tuple[int, int]]],
) -> None:
    grid, board, length, directions = drawn
    lines = Lines(grid, length, directions)
    bits = Codes("1").bits(board)
    walked = _walked(grid, board, length, directions)
    assert set(cells_of(lines.completed(bits))) == walked


def test_cells_are_tuples_with_their_place_and_most_are_made_once() -> None:
    table = Cell.table(LETTERED, "01")
    plain = table[4]["1"]
    assert (plain.index, plain.name, plain.row, plain.column, plain.state) == (4, "B2", 1, 1, "1")
    assert plain.before is None and plain.last_move is None
    assert Cell.on(LETTERED, 4, "1") == plain and hash(Cell.on(LETTERED, 4, "1")) == hash(plain)
    moved = Cell.on(LETTERED, 4, "1", last_move=Player.ONE)
    assert moved != plain and moved.last_move is Player.ONE


def position(
    query: str, mark: dict[Player, str] | None = None, passing: str | None = None
) -> tuple[object, ...]:
    read = LETTERED.read_position(
        read_context(query),
        "01234",
        own=OWN,
        mark=mark,
        passing=passing,
        tray_error="t",
        move_error="m",
    )
    return ("".join(read.board), read.moves, read.passed, [e.code for e in read.errors])


def test_moves_mark_empty_cells_or_point_at_their_own() -> None:
    assert position("Tray=000000&Move1=b1&Move2=C2", mark=MARK) == (
        "010002",
        {1: Player.ONE, 5: Player.TWO},
        (),
        [],
    )
    # On the other's mark, or on a cell the other Move names: refused, not drawn.
    assert position("Tray=200000&Move1=A1&Move2=A1", mark=MARK) == (
        "200000",
        {0: Player.TWO},
        (),
        ["move1"],
    )
    assert position("Tray=000000&Move1=A1&Move2=A1", mark=MARK) == (
        "100000",
        {0: Player.ONE},
        (),
        ["move2"],
    )
    # An unreadable Tray: the empty board, and the Moves' own marks on it.
    assert position("Tray=9&Move1=A2", mark=MARK) == ("000100", {3: Player.ONE}, (), ["tray"])


def test_moves_without_marks_only_point_and_may_pass() -> None:
    assert position("Tray=300040&Move1=A1&Move2=xx", passing="XX") == (
        "300040",
        {0: Player.ONE},
        (Player.TWO,),
        [],
    )
    assert position("Tray=300040&Move1=B1&Move2=Z9", passing="XX") == (
        "300040",
        {},
        (),
        ["move1", "move2"],
    )
    # An unreadable Tray: what a Move points at is unknown; only its syntax is checked.
    assert position("Tray=x&Move1=A1&Move2=Z9", passing="XX") == (
        "000000",
        {},
        (),
        ["tray", "move2"],
    )


def test_offer_gives_the_empty_cells_to_the_player_asked() -> None:
    def offer(query: str, over: bool = False) -> tuple[Player | None, tuple[str, ...]]:
        return LETTERED.offer(read_context(query), "010020", over=over, to_move=lambda: Player.TWO)

    assert offer("Input=One") == (Player.ONE, ("A1", "C1", "A2", "C2"))
    assert offer("WebTest=1") == (Player.TWO, ("A1", "C1", "A2", "C2"))
    assert offer("") == (None, ("A1", "C1", "A2", "C2"))
    assert offer("Input=One&Method=End") == offer("Input=One&Method=None") == (None, ())
    assert offer("Input=One", over=True) == (None, ())


def test_page_params_are_written_in_order_and_typed() -> None:
    page = (
        PageParams()
        .tray("Init")
        .move(Player.TWO, "C5")
        .gains(0, "D3H3")
        .count(3)
        .ask(Player.ONE)
        .legend("a")
        .legend("b")
    )
    assert list(page.params.items()) == [
        ("Tray", "Init"),
        ("Move2", "C5"),
        ("Gain1", "0"),
        ("Gain2", "D3H3"),
        ("Count", "3"),
        ("Input", "One"),
        ("Legend", "b"),
    ]
    assert PageParams().ask(None).method(Method.PREPARE).params == {"Method": "Prepare"}
    assert list(PageParams().method(Method.INVERSE).input(Player.TWO).params.items()) == [
        ("Method", "Inverse"),
        ("Input", "Two"),
    ]
    shown = PageParams.shown({"Tray": "T", "Input": "Two", "Count": "1"})
    assert list(PageParams().move(Player.ONE, "2").extend(shown).params.items()) == [
        ("Move1", "2"),
        ("Tray", "T"),
        ("Count", "1"),
    ]


def test_the_opponents_last_move_and_a_sets_own_values() -> None:
    state = {"move1": "C5", "move2": ""}
    assert opponent_move(state, Player.TWO) == {"Move1": "C5"}
    assert opponent_move(state, Player.ONE) == {}
    errors: list[ParamError] = []
    assert read_param(int, "12", "gain1", errors) == 12
    assert read_param(int, None, "gain1", errors) is None and errors == []
    assert read_param(int, "x", "gain2", errors, "Gain is a number") is None
    assert read_param(int, "y", "move1", errors) is None
    assert [(e.code, e.detail) for e in errors] == [
        ("gain2", "Gain is a number"),
        ("move1", "invalid literal for int() with base 10: 'y'"),
    ]
