"""Openings suites: every Set whose Tray holds the whole position ships
a suite in its own package, found by convention (a third party's too: the test plugin
Nim); every line of every suite is a position its rules start from, each once, the game
not over, as many with each side to move; a suite that is not is refused before any game,
naming its line and why."""

from __future__ import annotations

import importlib.resources
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from tournoyons_gui.interfaces.openings import (
    BUILTIN,
    MAX_TRAY,
    Opening,
    OpeningsError,
    builtin_openings,
    load_openings,
    ordered,
    pair_seed,
    read_openings,
)
from tournoyons_gui.interfaces.plugin import SetInterface, starts_from_tray
from tournoyons_gui.interfaces.registry import load_registry

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = load_registry()
#: The grid Sets' suites and the fewest openings each holds (at least 50 for the three).
SHIPPED = {"ConnectFour": 60, "Reversi": 60, "Pente": 60, "TicTacToe": 46, "BigTicTacToe": 60}


def interface(name: str) -> SetInterface:
    found = REGISTRY.get(name)
    assert found is not None, name
    return found


@pytest.mark.parametrize("set_name", sorted(SHIPPED))
def test_every_line_of_a_shipped_suite_is_a_distinct_position_not_over(set_name: str) -> None:
    played = interface(set_name)
    rules = played.arbitre
    assert starts_from_tray(rules)
    openings = builtin_openings(played)
    assert len(openings) >= SHIPPED[set_name]
    assert all(o.source == BUILTIN for o in openings)
    movers = []
    states = set()
    text = importlib.resources.files(played.package).joinpath("openings.txt").read_text("utf-8")
    lines = text.split("\n")
    for opening in openings:
        assert lines[opening.line - 1].split()[0] == opening.tray
        turn = rules.start(rules.levels[0], opening.tray)  # the rules' start accepts it
        assert not turn.over and rules.result(turn.state) is None
        asked = rules.asked(turn.state)
        assert len(asked) == 1
        movers.append(int(asked[0]))
        states.add(json.dumps(turn.state, sort_keys=True))
    assert len(states) == len(openings)  # each position once
    assert movers.count(1) == movers.count(2)  # as many with each side to move
    assert builtin_openings(set_name) == openings  # by name, the same suite


def test_sets_whose_tray_is_not_the_whole_game_ship_no_suite() -> None:
    for played in REGISTRY:
        if not starts_from_tray(played.rules):
            assert builtin_openings(played) == (), played.name
            with pytest.raises(OpeningsError, match="cannot start from a position"):
                read_openings("Init\n", played.rules, played.name, "mine.txt")


def test_a_third_party_set_ships_its_own_suite() -> None:
    nim = interface("Nim")
    assert nim.package == "tournoyons_nim"
    openings = builtin_openings(nim)
    assert [o.tray for o in openings] == ["11", "10", "9", "7", "6", "5"]
    assert openings[0] == Opening(7, "11", BUILTIN)
    assert load_openings(BUILTIN, nim) == openings


TICTACTOE_BAD = [
    ("", "mine.txt: no opening (every line is blank or a comment)"),
    ("# only\n\n   \n# comments\n", "mine.txt: no opening"),
    ("100000000\n120000000\n100000000\n", "mine.txt, line 3: the same position as line 1"),
    ("100000000\n" + "0" * 42 + "\n", "line 2: not a position of TicTacToe: a TicTacToe Tray"),
    ("111220000\n", "line 1: not a position of TicTacToe: player 1 has already won"),
    ("110100200\n", "line 1: not a position of TicTacToe: 3 marks of player one against 1"),
    ("222000000\n", "line 1: not a position of TicTacToe: 0 marks of player one against 3"),
    ("# c\n1000\x0000000\n", "line 2: control character U+0000"),
    ("100000000\n\x1b[31m\n", "line 2: control character U+001B"),
    ("1\ud80000000000\n", "line 1: a lone surrogate is not text"),
    ("0" * 10_000, f"line 1: a line has at most {MAX_TRAY} characters"),
    ("100000000 120000000\n", "line 1: one Tray a line"),
    ("\u00e9t\u00e9\n", "line 1: not a position of TicTacToe"),
    ("100000000\r\n120000000\r\nxyz\r\n", "line 3: not a position of TicTacToe"),
]


@pytest.mark.parametrize(("text", "message"), TICTACTOE_BAD)
def test_bad_openings_text_is_refused_naming_its_line(text: str, message: str) -> None:
    tictactoe = interface("TicTacToe")
    with pytest.raises(OpeningsError) as refused:
        read_openings(text, tictactoe.rules, "TicTacToe", "mine.txt")
    assert message in str(refused.value)
    assert str(refused.value).startswith("mine.txt")


def test_another_sets_trays_and_a_finished_game_are_refused() -> None:
    connectfour = interface("ConnectFour")
    tictactoe_suite = "\n".join(o.tray for o in builtin_openings("TicTacToe"))
    with pytest.raises(OpeningsError, match=r"line 1: not a position of ConnectFour"):
        read_openings(tictactoe_suite, connectfour.rules, "ConnectFour", "ttt.txt")
    floating = "0" * 7 + "1" + "0" * 34  # a disc above an empty cell
    with pytest.raises(OpeningsError, match=r"line 2: not a position of ConnectFour"):
        read_openings("# one\n" + floating, connectfour.rules, "ConnectFour", "c4.txt")
    four = "1111000" + "2220000" + "0" * 28
    with pytest.raises(OpeningsError, match=r"line 1: not a position of ConnectFour"):
        read_openings(four, connectfour.rules, "ConnectFour", "c4.txt")


def test_rules_that_fail_on_a_tray_rather_than_refuse_it_are_refused_too() -> None:
    class Brittle:
        """A plugin's rules that raise a bare ValueError on a Tray they cannot read."""

        tray_starts = True
        levels = (1,)

        def start(self, level: int = 1, tray: str | None = None) -> Any:
            raise ValueError(f"invalid literal for int(): {tray!r}")

    with pytest.raises(OpeningsError, match=r"x\.txt, line 2: not a position of Brittle \(Value"):
        read_openings("# c\nabc\n", cast(Any, Brittle()), "Brittle", "x.txt")


def test_a_suite_reads_comments_blank_lines_and_crlf() -> None:
    text = "# a suite\r\n\r\n100000000   # X in a corner\r\n  120000000\r\n# end"
    openings = read_openings(text, interface("TicTacToe").rules, "TicTacToe", "s.txt")
    assert openings == [Opening(3, "100000000", "s.txt"), Opening(4, "120000000", "s.txt")]


def test_a_suite_file_is_read_as_utf8_and_refused_naming_its_line(tmp_path: Path) -> None:
    tictactoe = interface("TicTacToe")
    good = tmp_path / "good.txt"
    good.write_bytes(b"\xef\xbb\xbf100000000\n010000000\n")  # a byte-order mark is dropped
    assert [o.tray for o in load_openings(str(good), tictactoe)] == ["100000000", "010000000"]
    assert load_openings(str(good), tictactoe)[0].source == str(good)
    broken = tmp_path / "broken.txt"
    broken.write_bytes(b"100000000\n# ok\n01\xff0000000\n")
    with pytest.raises(OpeningsError, match=r"broken\.txt, line 3: not UTF-8 text"):
        load_openings(str(broken), tictactoe)
    with pytest.raises(OpeningsError, match=r"missing\.txt: cannot be read"):
        load_openings(str(tmp_path / "missing.txt"), tictactoe)
    with pytest.raises(OpeningsError, match="cannot be read"):
        load_openings(str(tmp_path), tictactoe)
    with pytest.raises(OpeningsError, match="Poker ships no openings"):
        load_openings(BUILTIN, interface("Poker"))


def test_a_runs_order_and_pair_seeds_follow_from_its_seed() -> None:
    openings = builtin_openings("TicTacToe")
    assert ordered(openings, 5) == ordered(openings, 5)
    assert ordered(openings, 5) != ordered(openings, 6)
    assert sorted(ordered(openings, None), key=lambda o: o.line) == list(openings)
    assert pair_seed(5, 1) == pair_seed(5, 1) != pair_seed(5, 2)
    assert all(0 <= pair_seed(s, p) < 2**63 for s in (0, 2**70) for p in (1, 10**6))


def test_the_script_remakes_the_tictactoe_suite_byte_for_byte() -> None:
    done = subprocess.run(
        [sys.executable, "scripts/make_openings.py", "--set", "TicTacToe", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "TicTacToe: same" in done.stdout
