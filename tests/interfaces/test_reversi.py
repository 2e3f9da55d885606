"""Reversi: the parser, the view model, the rules and the page, without a browser.

Manual chapter V, "Reversi"; spec ``interface-protocol.md`` section 4 (Reversi) and 6.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tests.interfaces.helpers import with_codes
from tournoyons_gui.interfaces.plugin import IllegalMove, Turn
from tournoyons_gui.interfaces.protocol import PAIR, Method, Player, read_context
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.interfaces.reversi import SAMPLE_TRAY, interface
from tournoyons_gui.interfaces.reversi.board import (
    GRID,
    INIT_TRAY,
    Cell,
    ReversiView,
    apply_move,
    build,
    can_move,
    cell_index,
    cell_name,
    counts,
    flips,
    legal_moves,
    player_to_move,
    read_move,
    read_tray,
    settle,
)
from tournoyons_gui.interfaces.reversi.rules import ReversiRules, interface_tray, is_over

EMPTY = "0" * 64


def view(query: str) -> ReversiView:
    """Return the view model of the page for ``query``."""
    return build(read_context(query))


def codes(query: str) -> set[str]:
    """Return the error codes of the page for ``query``."""
    return {error.code for error in view(query).errors}


def tray_with(cells: dict[str, str], base: str = EMPTY) -> str:
    """Return ``base`` with the named cells set to the given codes."""
    return with_codes(base, cell_index, cells)


def by_name(v: ReversiView) -> dict[str, Cell]:
    """Return the cells of ``v`` by name."""
    return {cell.name: cell for cell in v.cells}


# Black cannot move (white's only disc is in the corner); white can, at D1.
BLACK_MUST_PASS = tray_with({"A1": "4", "B1": "3", "C1": "3"})
# Neither can move: a single colour on the board.
NOBODY_MOVES = tray_with({"A1": "3", "B1": "3", "H8": "3"})


# --- cells and Trays ----------------------------------------------------------------------


def test_cell_names_are_column_first_row_one_at_the_top() -> None:
    assert cell_name(0) == "A1" and cell_name(7) == "H1"
    assert cell_name(8) == "A2" and cell_name(63) == "H8"
    assert cell_name(cell_index("C5") or 0) == "C5"
    assert cell_index("C5") == 4 * 8 + 2
    for bad in ("", "A", "A0", "A9", "I1", "a1", "AA1", "11", "XX"):
        assert cell_index(bad) is None, bad
    assert [cell_name(i) for i in range(64)] == [f"{c}{r}" for r in range(1, 9) for c in "ABCDEFGH"]


@pytest.mark.parametrize("tray", [None, "Init", "init", "INIT"])
def test_init_and_absent_tray_are_the_standard_start(tray: str | None) -> None:
    query = "" if tray is None else f"Tray={tray}"
    v = view(query)
    cells = by_name(v)
    assert cells["D4"].state == "4" and cells["E5"].state == "4"
    assert cells["D5"].state == "3" and cells["E4"].state == "3"
    assert sum(1 for c in v.cells if c.state != "0") == 4
    assert v.counts == (2, 2)
    assert v.tray == INIT_TRAY
    assert v.errors == ()


def test_start_legal_cells_for_each_player() -> None:
    assert view("Tray=Init&Input=One").playable == ("D3", "C4", "F5", "E6")
    assert view("Tray=Init&Input=Two").playable == ("E3", "F4", "C5", "D6")
    assert view("Tray=Init&Input=One").player is Player.ONE


def test_cells_are_row_major_with_rows_and_columns() -> None:
    v = view("Tray=Init")
    assert len(v.cells) == 64
    assert [c.index for c in v.cells] == list(range(64))
    f6 = v.cells[cell_index("F6") or 0]
    assert (f6.name, f6.column, f6.row) == ("F6", 5, 5)


def test_every_code_is_drawn_and_turning_discs_wait() -> None:
    tray = tray_with({"A1": "1", "B1": "2", "C1": "3", "D1": "4", "E1": "7", "F1": "8"})
    v = view(f"Tray={tray}")
    shown = [(c.state, c.before) for c in v.cells[:7]]
    assert shown == [
        ("1", None),
        ("2", None),
        ("3", None),
        ("4", None),
        ("3", "4"),  # 7: white first, black after Wait
        ("4", "3"),  # 8: black first, white after Wait
        ("0", None),
    ]
    assert v.tray == "1234340" + "0" * 57
    assert v.counts == (2, 2)


@pytest.mark.parametrize(
    "tray",
    [
        "0" * 63,
        "0" * 65,
        "",
        "5" + "0" * 63,
        "6" + "0" * 63,
        "9" + "0" * 63,
        "x" * 64,
        INIT_TRAY[:-1] + " ",
        "Init2",
        "Initial",
        "3" * 32 + "-" * 32,
        "０" * 64,
    ],
)
def test_unreadable_tray_is_an_empty_board_with_nothing_playable(tray: str) -> None:
    v = build(read_context({"tray": tray, "input": "One", "webtest": "yes"}))
    if tray == "":
        # An empty Tray is an absent one: the start.
        assert v.errors == () and v.tray == INIT_TRAY
        return
    assert {e.code for e in v.errors} == {"tray"}
    assert v.playable == () and v.player is None
    assert v.tray == EMPTY and len(v.cells) == 64
    assert v.counts is None and v.winner is None


def test_read_tray_and_settle() -> None:
    assert read_tray(None) == INIT_TRAY
    assert read_tray("0" * 63 + "7") == "0" * 63 + "7"
    assert read_tray("0" * 63 + "5") is None
    assert settle("0123478" + "0" * 57) == "0003434" + "0" * 57


# --- moves --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "move"),
    [("C5", "C5"), ("c5", "C5"), (" H8 ", "H8"), ("XX", "XX"), ("xx", "XX"), ("A1", "A1")],
)
def test_read_move(raw: str, move: str) -> None:
    assert read_move(raw) == move


@pytest.mark.parametrize("raw", ["A0", "A9", "I1", "C", "C55", "X", "XY", "00", "", "5C"])
def test_read_move_refuses(raw: str) -> None:
    assert read_move(raw) is None


def test_the_played_disc_is_marked_as_the_last_move() -> None:
    v = view(f"Tray={SAMPLE_TRAY}&Move2=D3")
    cells = by_name(v)
    assert cells["D3"].last_move is Player.TWO and cells["D3"].state == "4"
    assert cells["D3"].before is None  # the played disc appears first, at once
    assert cells["D4"].state == "4" and cells["D4"].before == "3"  # then the flip
    assert [c.name for c in v.cells if c.last_move] == ["D3"]
    assert v.sound == "move" and v.errors == ()


def test_both_moves_may_be_marked_even_when_the_older_is_turning() -> None:
    # Both Moves sent: white's last move (C3) turns black's last disc (D4).
    tray = tray_with({"C3": "4", "D4": "8", "E5": "4", "D5": "3", "E4": "3"})
    v = view(f"Tray={tray}&Move1=D4&Move2=C3")
    cells = by_name(v)
    assert cells["D4"].last_move is Player.ONE and cells["C3"].last_move is Player.TWO
    assert v.errors == ()


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("Move1=I9", "move1"),
        ("Move2=A0", "move2"),
        ("Move1=D", "move1"),
        ("Move2=XY", "move2"),
        ("Move1=D4", "move1"),  # white's disc at the start
        ("Move2=D5", "move2"),  # black's disc
        ("Move1=A1", "move1"),  # empty
        ("Move2=D3", "move2"),  # empty
    ],
)
def test_moves_that_cannot_be_drawn(query: str, code: str) -> None:
    v = view(f"Tray=Init&{query}")
    assert {e.code for e in v.errors} == {code}
    assert all(c.last_move is None for c in v.cells)


def test_move_codes_for_each_player() -> None:
    for code, ok1, ok2 in (
        ("3", True, False),
        ("4", False, True),
        ("7", False, True),
        ("8", True, False),
        ("0", False, False),
        ("1", False, False),
        ("2", False, False),
    ):
        tray = tray_with({"A1": code}, INIT_TRAY)
        assert ("move1" not in codes(f"Tray={tray}&Move1=A1")) is ok1, code
        assert ("move2" not in codes(f"Tray={tray}&Move2=A1")) is ok2, code


def test_two_moves_on_one_cell_is_an_error() -> None:
    tray = tray_with({"A1": "8"}, INIT_TRAY)
    assert codes(f"Tray={tray}&Move1=A1&Move2=A1") == {"move2"}


def test_a_move_with_an_unreadable_tray_is_not_drawn() -> None:
    v = view("Tray=123&Move1=D5")
    assert {e.code for e in v.errors} == {"tray"}
    assert all(c.last_move is None for c in v.cells)
    assert codes("Tray=123&Move1=Z9") == {"tray", "move1"}


def test_a_pass_is_shown_for_its_player() -> None:
    assert view("Tray=Init&Move1=XX").passed == (Player.ONE,)
    assert view("Tray=Init&Move2=xx").passed == (Player.TWO,)
    assert view("Tray=Init&Move1=XX&Move2=XX").passed == (Player.ONE, Player.TWO)
    assert view("Tray=Init&Move2=XX").sound == "move"
    assert view("Tray=Init").passed == () and view("Tray=Init").sound is None


# --- input --------------------------------------------------------------------------------


def test_hints_in_the_tray_are_the_playable_cells() -> None:
    # The Arbitre's hints are trusted, even where this page would not compute a move.
    tray = tray_with({"A1": "1", "H8": "1", "B2": "2"}, INIT_TRAY)
    assert view(f"Tray={tray}&Input=One").playable == ("A1", "H8")
    assert view(f"Tray={tray}&Input=Two").playable == ("B2",)


def test_without_hints_for_the_player_the_page_computes_them() -> None:
    tray = tray_with({"A1": "2"}, INIT_TRAY)  # hints for white only
    assert view(f"Tray={tray}&Input=One").playable == ("D3", "C4", "F5", "E6")


def test_no_legal_move_offers_only_the_pass() -> None:
    assert legal_moves(BLACK_MUST_PASS, Player.ONE) == ()
    assert legal_moves(BLACK_MUST_PASS, Player.TWO) == (cell_index("D1"),)
    v = view(f"Tray={BLACK_MUST_PASS}&Input=One")
    assert v.playable == ("XX",) and v.asks_pass and v.player is Player.ONE
    assert view(f"Tray={BLACK_MUST_PASS}&Input=Two").playable == ("D1",)
    assert not view(f"Tray={BLACK_MUST_PASS}&Input=Two").asks_pass


def test_no_input_when_the_game_is_over_or_ended() -> None:
    v = view(f"Tray={NOBODY_MOVES}&Input=One")
    assert v.playable == () and v.player is None
    assert v.winner is Player.ONE and v.sound == "win"
    assert view("Tray=Init&Input=One&Method=End").playable == ()
    assert view("Tray=Init&Input=One&Method=None").playable == ()
    assert view("Tray=Init&Method=End").winner is None  # 2-2: a draw
    full = "3" * 33 + "4" * 31
    assert view(f"Tray={full}&Input=Two").playable == ()
    assert view(f"Tray={full}&Method=End").winner is Player.ONE
    assert view(f"Tray={'4' * 40 + '3' * 24}&Method=End").winner is Player.TWO
    # During the game nobody has won yet.
    assert view(f"Tray={SAMPLE_TRAY}").winner is None


def test_no_input_asked_no_player() -> None:
    v = view("Tray=Init")
    assert v.player is None and v.playable == ()


def test_webtest_asks_the_player_to_move() -> None:
    assert view("Tray=Init&WebTest=yes").player is Player.ONE
    assert view(f"Tray={SAMPLE_TRAY}&WebTest=yes").player is Player.ONE  # hints for black
    after_black = settle(SAMPLE_TRAY)  # 8 discs, no hints, no move: parity says black
    assert view(f"Tray={after_black}&WebTest=yes").player is Player.ONE
    assert view(f"Tray={after_black}&WebTest=yes&Move1=C3").player is Player.TWO
    assert view(f"Tray={after_black}&WebTest=yes&Move2=D3").player is Player.ONE
    assert view(f"Tray={BLACK_MUST_PASS}&WebTest=yes").playable == ("D1",)  # parity: white


def test_player_to_move() -> None:
    assert player_to_move(INIT_TRAY) is Player.ONE
    assert player_to_move(tray_with({"A1": "2"}, INIT_TRAY)) is Player.TWO
    assert player_to_move(tray_with({"A1": "1", "B1": "2"}, INIT_TRAY)) is Player.ONE
    assert player_to_move(INIT_TRAY, (Player.ONE,)) is Player.TWO
    assert player_to_move(tray_with({"A1": "3"}, INIT_TRAY)) is Player.TWO


def test_build_never_raises() -> None:
    rng = random.Random(3)
    alphabet = "0123456789XxAHah%&=;+ \u00e9\u20ac"
    for _ in range(400):
        tray = "".join(rng.choice("012345678") for _ in range(rng.choice((63, 64, 64, 65))))
        moves = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3))) for _ in "12"]
        for ctx in (
            read_context(
                {
                    "tray": tray,
                    "move1": moves[0],
                    "move2": moves[1],
                    "input": rng.choice(("One", "Two", "")),
                    "webtest": "yes",
                    "method": rng.choice(("End", "None", "Standard", "x")),
                }
            ),
            read_context("Tray=" + "".join(rng.choice(alphabet) for _ in range(64))),
        ):
            v = build(ctx)
            assert len(v.cells) == 64 and len(v.tray) == 64
            assert set(v.playable) <= {cell_name(i) for i in range(64)} | {"XX"}


# --- the game logic -----------------------------------------------------------------------


def test_flips_in_every_direction() -> None:
    # White's D4 surrounded by black on all eight sides at distance 2: black at D4's middle.
    cells = {name: "4" for name in ("C3", "D3", "E3", "C4", "E4", "C5", "D5", "E5")}
    cells.update({name: "3" for name in ("B2", "D2", "F2", "B4", "F4", "B6", "D6", "F6")})
    board = tray_with(cells)
    turned = flips(board, cell_index("D4") or 0, Player.ONE)
    assert sorted(cell_name(i) for i in turned) == sorted(
        ("C3", "D3", "E3", "C4", "E4", "C5", "D5", "E5")
    )
    # A line that ends at the edge or on an empty cell turns nothing.
    assert flips(tray_with({"B1": "4", "C1": "4"}), 0, Player.ONE) == ()
    assert flips(tray_with({"B1": "4", "D1": "3"}), 0, Player.ONE) == ()
    assert flips(INIT_TRAY, cell_index("D4") or 0, Player.ONE) == ()  # taken


def test_apply_move_refuses_an_illegal_move() -> None:
    with pytest.raises(ValueError):
        apply_move(INIT_TRAY, 0, Player.ONE)
    board, turned = apply_move(INIT_TRAY, cell_index("D3") or 0, Player.ONE)
    assert [cell_name(i) for i in turned] == ["D4"]
    assert counts(board) == (4, 1)


def perft(board: str, player: Player, depth: int) -> int:
    """Count the move sequences of ``depth`` plies (a forced pass is a ply)."""
    if depth == 0:
        return 1
    moves = legal_moves(board, player)
    if not moves:
        return 1 if is_over(board) else perft(board, player.opponent, depth - 1)
    return sum(perft(apply_move(board, m, player)[0], player.opponent, depth - 1) for m in moves)


def test_move_generation_matches_the_known_othello_perft_counts() -> None:
    # Positions reachable after n plies from the start (OEIS A124004): 4, 12, 56, 244, ...
    assert [perft(INIT_TRAY, Player.ONE, n) for n in range(1, 7)] == [4, 12, 56, 244, 1396, 8200]


def walked_flips(board: str, index: int, player: Player) -> tuple[int, ...]:
    """Return the discs ``player`` turns at ``index``, walking the eight rays cell by cell
    (the straightforward reading of the rule, against which the bitboards are checked)."""
    if board[index] not in "012":
        return ()
    mine, theirs = str(int(player) + 2), str(5 - int(player))
    turned: list[int] = []
    for dx, dy in ((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy):
        ray = GRID.ray(index, dx, dy)
        for step, cell in enumerate(ray):
            if board[cell] != theirs:
                if board[cell] == mine and step:
                    turned.extend(ray[:step])
                break
    return tuple(sorted(turned))


#: Boards of any page code, sparse or dense (hints and turning discs break a line).
BOARDS = st.sampled_from(["0123478", "034", "0334", "3334440", "0000034", "34"]).flatmap(
    lambda codes: st.text(codes, min_size=64, max_size=64)
)


@settings(max_examples=300, deadline=None)
@given(board=BOARDS)
def test_bitboard_moves_and_flips_are_what_walking_the_rays_finds(board: str) -> None:
    for player in PAIR:
        walked = {index: walked_flips(board, index, player) for index in range(64)}
        assert legal_moves(board, player) == tuple(i for i, turned in walked.items() if turned)
        assert all(flips(board, index, player) == walked[index] for index in range(64))
    assert can_move(board) == (
        bool(legal_moves(board, Player.ONE)),
        bool(legal_moves(board, Player.TWO)),
    )
    assert is_over(board) is not any(can_move(board))


def test_move_generation_holds_along_whole_random_games() -> None:
    play = random.Random(27)
    for _ in range(20):
        board, player = INIT_TRAY, Player.ONE
        while not is_over(board):
            moves = legal_moves(board, player)
            assert moves == tuple(i for i in range(64) if walked_flips(board, i, player))
            if moves:
                index = play.choice(moves)
                assert flips(board, index, player) == walked_flips(board, index, player)
                board, _ = apply_move(board, index, player)
            player = player.opponent


# --- the rules ----------------------------------------------------------------------------


def moves(text: str) -> list[str]:
    """Return the moves written in ``text``, separated by spaces."""
    return text.split()


def replay(played: list[str]) -> list[Turn]:
    """Play ``played`` from a new game; return every turn, the new game's first."""
    rules = ReversiRules()
    turns = [rules.new_game()]
    for move in played:
        assert not turns[-1].over
        turns.append(rules.play(turns[-1].state, move))
    return turns


def check_pages(played: list[str], turns: list[Turn]) -> None:
    """Check every page the rules sent against the move played and the board before it."""
    for number, (move, before, turn) in enumerate(
        zip(played, turns[:-1], turns[1:], strict=True), start=1
    ):
        player = Player(before.state["player"])
        board = before.state["tray"]
        params = turn.params
        assert params[f"Move{int(player)}"] == move
        assert f"Move{int(player.opponent)}" not in params
        assert params["Count"] == str(number)
        tray = params["Tray"]
        if move == "XX":
            assert legal_moves(board, player) == ()
            assert turn.state["tray"] == board
            assert not set(tray) & {"7", "8"}
        else:
            index = cell_index(move)
            assert index is not None
            expected, turned = apply_move(board, index, player)
            assert turn.state["tray"] == expected
            assert tray[index] == ("3" if player is Player.ONE else "4")
            code = "7" if player is Player.ONE else "8"
            assert [i for i, c in enumerate(tray) if c == code] == list(turned)
        assert settle(tray) == turn.state["tray"]
        if turn.over:
            assert params["Method"] == "End" and "Input" not in params
            assert not set(tray) & {"1", "2"}
        else:
            following = player.opponent
            assert params["Input"] == ("One" if following is Player.ONE else "Two")
            hint = "1" if following is Player.ONE else "2"
            assert tuple(i for i, c in enumerate(tray) if c == hint) == legal_moves(
                turn.state["tray"], following
            )
            # The page offers exactly the legal cells, from the hints or computed itself.
            page = build(read_context({k.lower(): v for k, v in params.items()}))
            bare = build(read_context({"tray": turn.state["tray"], "input": params["Input"]}))
            assert page.playable == bare.playable
            assert page.player is following and page.errors == ()


def test_a_new_game_is_the_standard_start() -> None:
    turn = ReversiRules().new_game()
    assert turn.params == {"Tray": "Init", "Input": "One", "Count": "0"}
    assert turn.state == {"tray": INIT_TRAY, "player": 1, "count": 0}
    assert not turn.over


SHORTEST_GAME = moves("E6 F4 E3 F6 G5 D6 E7 F5 C5")


def test_the_known_shortest_game_wipes_white_out_in_nine_moves() -> None:
    # The shortest possible Othello game: black wins 13-0 after nine moves.
    turns = replay(SHORTEST_GAME)
    check_pages(SHORTEST_GAME, turns)
    last = turns[-1]
    assert last.over and last.params["Method"] == "End"
    assert counts(last.state["tray"]) == (13, 0)
    assert all(not t.over for t in turns[:-1])
    page = build(read_context({k.lower(): v for k, v in last.params.items()}))
    assert page.winner is Player.ONE and page.counts == (13, 0)


# Every move the first legal cell in A1..H8 order (XX when none): a full 60-disc game
# with four passes, replayed move by move to its frozen final position.
FIRST_CELL_GAME = moves(
    "D3 C3 B3 B2 B1 A1 C4 C1 C2 D2 D1 E1 A2 A3 F5 E2 F1 G1 XX F2 XX E3 XX B5 B4 A5 A4 C5 A6 "
    "F4 F3 G3 G2 H2 H1 H3 H4 G4 C6 G5 H5 B6 C7 D6 E6 F6 G6 H6 H7 A7 XX B7 A8 D7 E7 F7 G7 G8 "
    "B8 C8 D8 E8 F8 H8"
)
FIRST_CELL_FINAL = "4444444344444433444443434444344344444443444344434444334333333344"


def test_a_full_game_with_passes_to_its_known_result() -> None:
    turns = replay(FIRST_CELL_GAME)
    check_pages(FIRST_CELL_GAME, turns)
    for move, before in zip(FIRST_CELL_GAME, turns[:-1], strict=True):
        legal = legal_moves(before.state["tray"], Player(before.state["player"]))
        assert move == (cell_name(legal[0]) if legal else "XX")
    last = turns[-1]
    assert last.over and last.params["Method"] == "End"
    assert "0" not in last.state["tray"]
    assert counts(last.state["tray"]) == (19, 45)
    assert last.state["tray"] == FIRST_CELL_FINAL
    assert last.params["Count"] == "64"
    assert FIRST_CELL_GAME.count("XX") == 4
    page = build(read_context({k.lower(): v for k, v in last.params.items()}))
    assert page.winner is Player.TWO and page.counts == (19, 45)


# A short game where black passes three times and white wipes black out (0-27).
PASSING_GAME = moves(
    "C4 C3 D3 E3 E2 B4 B5 C5 B3 A3 B2 A4 F6 C2 D2 D1 XX A1 A2 C1 A5 A6 XX E1 XX G7"
)


def test_a_game_with_passes_ends_when_neither_can_move() -> None:
    turns = replay(PASSING_GAME)
    check_pages(PASSING_GAME, turns)
    last = turns[-1]
    assert last.over and counts(last.state["tray"]) == (0, 27)
    assert last.state["tray"].count("0") == 37
    # Before each pass, the page offered the pass alone.
    for move, before in zip(PASSING_GAME, turns[:-1], strict=True):
        if move == "XX":
            page = build(read_context({k.lower(): v for k, v in before.params.items()}))
            assert page.playable == ("XX",)


def test_rules_refuse_illegal_values() -> None:
    rules = ReversiRules()
    start = rules.new_game().state
    for value in ("A1", "D4", "D5", "E3", "I1", "d3", "", "XX", "xx", "D33"):
        with pytest.raises(IllegalMove):
            rules.play(start, value)
    # XX only with no legal move; a move only when legal.
    turns = replay(PASSING_GAME[:16])
    assert legal_moves(turns[-1].state["tray"], Player.ONE) == ()
    with pytest.raises(IllegalMove):
        rules.play(turns[-1].state, "H8")
    rules.play(turns[-1].state, "XX")


def test_rules_refuse_a_finished_game_and_a_corrupt_state() -> None:
    rules = ReversiRules()
    over = replay(SHORTEST_GAME)[-1].state
    with pytest.raises(IllegalMove, match="over"):
        rules.play(over, "A1")
    with pytest.raises(IllegalMove, match="over"):
        rules.play(over, "XX")
    for state in (
        {"tray": "junk"},
        {"tray": INIT_TRAY[:-1] + "7"},
        {},
        {"tray": INIT_TRAY, "player": 3},
        {"tray": INIT_TRAY, "player": True},
        {"tray": INIT_TRAY, "player": "x"},
        {"tray": INIT_TRAY, "count": "x"},
    ):
        with pytest.raises(IllegalMove):
            rules.play(state, "D3")


def test_a_state_with_numbers_as_text_plays_as_with_numbers() -> None:
    # The player and the count as play writes them (ints), or as text: the same game.
    rules = ReversiRules()
    written = {"tray": INIT_TRAY, "player": 1, "count": 0}
    texted = {"tray": INIT_TRAY, "player": "1", "count": "0"}
    assert rules.play(texted, "D3").params == rules.play(written, "D3").params
    assert rules.request(texted, Player.ONE) == rules.request(written, Player.ONE)
    assert rules.asked(texted) == (Player.ONE,)


def test_interface_tray_codes() -> None:
    board, turned = apply_move(INIT_TRAY, cell_index("D3") or 0, Player.ONE)
    tray = interface_tray(board, turned, Player.ONE, Player.TWO)
    assert tray[cell_index("D4") or 0] == "7"
    assert tray[cell_index("D3") or 0] == "3"
    assert [cell_name(i) for i, c in enumerate(tray) if c == "2"] == ["C3", "E3", "C5"]
    assert interface_tray(board) == board


# --- the plugin and its page --------------------------------------------------------------


def test_the_sample_is_the_page_the_rules_send_after_an_opening() -> None:
    turns = replay(moves("F5 D6 C3 D3"))
    assert turns[-1].params == {
        k: v for k, v in interface.sample.items() if k in ("Tray", "Move2", "Input", "Count")
    }
    assert turns[-1].params["Tray"] == SAMPLE_TRAY
    assert view(f"Tray={SAMPLE_TRAY}&Move2=D3&Input=One").errors == ()


def test_the_set_is_registered_with_its_alias() -> None:
    registry = load_registry()
    assert registry.get("Reversi") is interface
    assert registry.get("othello") is interface
    assert interface.key == "reversi" and interface.rules is not None
    assert interface.methods == frozenset({Method.STANDARD, Method.END, Method.NONE})


def page(client: TestClient, query: str) -> str:
    """Return the HTML of the Reversi page for ``query``."""
    answer = client.get(f"/reversi/?{query}")
    assert answer.status_code == 200
    return answer.text


def test_the_page_is_light_and_has_no_inline_script_or_style(client: TestClient) -> None:
    full = "3434343443434343" * 4
    html = page(client, f"Tray={full}&Move1=A1&Name1=A&Name2=B&Count=60&Method=End")
    assert len(html.encode()) < 25_000
    assert len(page(client, f"Tray={SAMPLE_TRAY}&Move2=D3&Input=One").encode()) < 25_000
    assert not re.search(r"\sstyle=", html)
    assert not re.search(r"\son[a-z]+=", html)
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert all("src=" in attrs or "application/json" in attrs for attrs, _ in scripts)


def test_the_page_draws_cells_row_major_with_their_states(client: TestClient) -> None:
    html = page(client, f"Tray={SAMPLE_TRAY}&Move2=D3&Input=One")
    cells = re.findall(r'data-cell="([A-H][1-8])" data-state="(\d)"', html)
    assert [name for name, _ in cells] == [cell_name(i) for i in range(64)]
    assert "".join(state for _, state in cells) == "".join(
        {"7": "3", "8": "4"}.get(code, code) for code in SAMPLE_TRAY
    )
    assert re.search(r'data-cell="D4" data-state="4" data-before="3"', html)
    assert re.search(r'data-cell="D3" data-state="4" data-last-move="2"', html)
    assert 'data-board data-columns="8"' in html
    assert 'data-value="XX"' not in html
    for label in [*"ABCDEFGH", *"12345678"]:
        assert html.count(f">{label}</text>") == 2


def test_the_pass_control_appears_only_when_there_is_no_legal_move(client: TestClient) -> None:
    html = page(client, f"Tray={BLACK_MUST_PASS}&Input=One&Legend=Je+passe")
    buttons = re.findall(r'<button[^>]*data-value="XX"[^>]*>.*?</button>', html, re.S)
    assert len(buttons) == 1
    assert 'aria-label="Je passe"' in buttons[0] and "<span>Je passe</span>" in buttons[0]
    side = html[html.index('data-side="1"') : html.index('data-side="2"')]
    assert 'data-value="XX"' in side
    bare = page(client, f"Tray={BLACK_MUST_PASS}&Input=One")
    assert re.search(r'<button[^>]*data-value="XX"[^>]*aria-label="XX"', bare)
    assert "<span>" not in bare.split('data-value="XX"')[1].split("</button>")[0]
    assert 'data-value="XX"' not in page(client, f"Tray={BLACK_MUST_PASS}&Input=Two")


def test_gains_are_the_disc_counts(client: TestClient) -> None:
    html = page(client, f"Tray={SAMPLE_TRAY}&Move2=D3")
    assert re.search(r'data-gain="1">4<', html) and re.search(r'data-gain="2">4<', html)
    bad = page(client, "Tray=12")
    assert re.search(r'data-gain="1"></span>', bad) and 'data-error="tray"' in bad
