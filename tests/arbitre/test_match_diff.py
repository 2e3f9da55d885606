"""Two runs compared game by game (``arbitre/match_diff.py``) on game lines made by hand: the
first ply where two games part, a game cut short, a game lost by fault at the ply, games
one run has alone, the refusals; and the position replayed for the text ``diff`` prints
(the grid Sets' boards drawn as text)."""

from __future__ import annotations

from typing import Any

import pytest

from tournoyons_gui.arbitre.match_diff import (
    DiffRefused,
    check_comparable,
    compare,
    first_difference,
    position_before,
)
from tournoyons_gui.interfaces.plugin import position_text
from tournoyons_gui.interfaces.registry import load_registry


def line(
    pair: int,
    first: int,
    moves: str,
    result: str | None = "win",
    *,
    status: str = "over",
    fault: str | None = None,
    opening: str | None = None,
    game: str = "",
) -> dict[str, Any]:
    """Return a game line as ``play --json`` lists it (moves: one character each)."""
    return {
        "id": game or f"G{pair}{first}",
        "pair": pair,
        "first": first,
        "moves": list(moves),
        "result": result,
        "status": status,
        "fault": fault,
        "reason": "three in a row",
        "opening": opening,
        "opening_line": None,
    }


def document(seed: int = 1, set_name: str = "TicTacToe", **extra: Any) -> dict[str, Any]:
    return {
        "set": set_name,
        "seed": seed,
        "entrants": [{"name": "a"}, {"name": "b"}],
        "games_list": [],
        "options": {"level": 1},
        **extra,
    }


@pytest.mark.parametrize(
    ("a", "b", "ply"),
    [
        ("5193", "5193", None),
        ("5193", "5194", 4),
        ("5193", "6193", 1),
        ("519", "5193", 4),
        ("", "5", 1),
    ],
)
def test_the_first_ply_where_two_games_part(a: str, b: str, ply: int | None) -> None:
    assert first_difference(list(a), list(b)) == ply
    assert first_difference(list(b), list(a)) == ply


def test_couples_are_matched_by_pair_and_first_seat_whatever_their_order() -> None:
    found = compare(
        [line(0, 0, "5193"), line(0, 1, "1234"), line(1, 0, "789", "loss")],
        [line(1, 0, "789", "loss"), line(0, 1, "1239", "draw"), line(0, 0, "5193")],
    )
    assert found.same == 2 and found.compared == 3
    (differ,) = found.differ
    assert (differ.pair, differ.first, differ.ply, differ.a, differ.b) == (0, 1, 4, "4", "9")
    assert (differ.result_a, differ.result_b, differ.moves) == ("win", "draw", ("1", "2", "3"))


def test_a_game_lost_by_fault_at_the_ply_has_no_move_there() -> None:
    found = compare([line(0, 0, "51", "loss", fault="timeout")], [line(0, 0, "519", "win")])
    (differ,) = found.differ
    assert (differ.ply, differ.a, differ.b) == (3, None, "9")
    assert differ.end_a == "lost by fault (timeout)" and differ.end_b == ""
    # The same moves and another end: they part where the game ended.
    found = compare(
        [line(0, 0, "51", "loss", fault="timeout")], [line(0, 0, "51", "loss", fault="illegal")]
    )
    assert [(d.ply, d.a, d.b, d.end_b) for d in found.differ] == [
        (3, None, None, "lost by fault (illegal)")
    ]


def test_a_game_cut_short_is_unfinished_unless_it_parted_before() -> None:
    cut = line(0, 0, "51", None, status="interrupted")
    found = compare(
        [cut, line(1, 0, "12", None, status="interrupted")],
        [
            line(0, 0, "5193"),
            line(1, 0, "17"),
        ],
    )
    assert found.unfinished == 1 and found.same == 0
    assert [(d.pair, d.ply, d.a, d.b) for d in found.differ] == [(1, 2, "2", "7")]


def test_games_one_run_has_alone_are_counted_apart() -> None:
    found = compare([line(0, 0, "5"), line(0, 1, "5"), line(1, 0, "5")], [line(0, 0, "5")])
    assert (found.same, found.only_a, found.only_b) == (1, 2, 0)
    found = compare([line(0, 0, "5")], [line(0, 0, "5"), line(3, 1, "5")])
    assert (found.same, found.only_a, found.only_b) == (1, 0, 1)


def test_runs_that_played_other_games_are_refused() -> None:
    check_comparable(document(), document())
    cases = [
        (document(seed=2), "the runs have other seeds: 1 and 2"),
        (document(set_name="Reversi"), "the runs are of other Sets: TicTacToe and Reversi"),
        (document(options={"level": 2}), "other rule levels: 1 and 2"),
        (document(entrants=[{"name": "x"}] * 4), "other numbers of seats: 2 and 4"),
        ({"set": "TicTacToe"}, "B is not a match document of play --json (no seed"),
        (document(games_list=[{"id": "x"}]), "B's games do not list their moves"),
    ]
    for other, reason in cases:
        with pytest.raises(DiffRefused) as refused:
            check_comparable(document(), other)
        assert reason in str(refused.value)
    with pytest.raises(DiffRefused, match="other openings: pair 0 starts from 100020000 in A"):
        compare([line(0, 0, "5", opening="100020000")], [line(0, 0, "5")])


def test_the_position_where_they_part_is_replayed_and_drawn_as_text() -> None:
    registry = load_registry()
    connectfour = registry.get("ConnectFour")
    assert connectfour is not None and connectfour.arbitre is not None
    turn = position_before(connectfour.arbitre, ["D", "D", "C", "E"])
    assert turn is not None
    assert position_text(connectfour.arbitre, turn.state) == "\n".join(
        [
            "6 . . . . . . .",
            "5 . . . . . . .",
            "4 . . . . . . .",
            "3 . . . . . . .",
            "2 . . . O . . .",
            "1 . . X X O . .",
            "  A B C D E F G",
        ]
    )
    tictactoe = registry.get("TicTacToe")
    assert tictactoe is not None and tictactoe.arbitre is not None
    turn = position_before(tictactoe.arbitre, ["9"], opening="100020000")
    assert turn is not None
    assert position_text(tictactoe.arbitre, turn.state) == "X . .\n. O .\n. . X"
    # A value the rules refuse, an opening that is no position: nothing to draw.
    assert position_before(tictactoe.arbitre, ["5", "5"]) is None
    assert position_before(tictactoe.arbitre, [], opening="12") is None
    rochambeau = registry.get("Rochambeau")
    assert rochambeau is not None and rochambeau.arbitre is not None
    turn = position_before(rochambeau.arbitre, ["1", "2"])
    assert turn is not None and position_text(rochambeau.arbitre, turn.state) is None


@pytest.mark.parametrize(
    ("set_name", "rows", "columns", "marks"),
    [
        ("Reversi", "12345678", "ABCDEFGH", {"X": 2, "O": 2}),
        ("Pente", "ABCDEFGHIJKLMNOPQRS", "ABCDEFGHIJKLMNOPQRS", {"X": 0, "O": 0}),
        ("BigTicTacToe", "0123456789", "ABCDEFGHIJ", {"X": 0, "O": 0}),
    ],
)
def test_each_grid_set_draws_its_start_with_its_labels(
    set_name: str, rows: str, columns: str, marks: dict[str, int]
) -> None:
    played = load_registry().get(set_name)
    assert played is not None and played.arbitre is not None
    turn = position_before(played.arbitre, [])
    assert turn is not None
    drawn = position_text(played.arbitre, turn.state)
    assert drawn is not None
    lines = drawn.splitlines()
    assert [line[0] for line in lines[:-1]] == list(rows)
    assert lines[-1] == "  " + " ".join(columns)
    assert all(len(line.split()) == len(columns) + 1 for line in lines[:-1])
    cells = [cell for line in lines[:-1] for cell in line.split()[1:]]
    assert {mark: cells.count(mark) for mark in marks} == marks
    assert cells.count(".") == len(rows) * len(columns) - sum(marks.values())
