"""MasterMind's engine view and built-in engines (engine protocol section 4, MasterMind;
decisions 14, 18, 23)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from tests.interfaces import drive
from tournoyons_gui.interfaces import ArbitreRules, IllegalMove, Player, Turn
from tournoyons_gui.interfaces.mastermind import interface
from tournoyons_gui.interfaces.mastermind.board import build, score
from tournoyons_gui.interfaces.mastermind.engines import (
    ALL_CODES,
    consistent_codes,
    consistent_engine,
)
from tournoyons_gui.interfaces.mastermind.rules import MasterMindRules
from tournoyons_gui.interfaces.protocol import PAIR, read_context

rules = drive.arbitre_rules(interface)
_TYPED: ArbitreRules = MasterMindRules()  # mypy checks the protocol

# Player one's code GCCH, player two's AEBD; player one finds on line 3, two plays line 3.
GAME = ["GCCH", "AEBD", "00ABCD", "00BBCC", "00AEBF", "00DEFA", "00AEBD", "00GCCA"]


def run(values: list[str]) -> list[Turn]:
    """Play ``values`` from a new game; return every turn, the first one included."""
    return drive.turns_from(rules, rules.start(), values)


def test_turns_one_and_two_ask_each_player_for_a_code_with_an_empty_tray() -> None:
    start, after_one, after_two = run(GAME[:2])
    assert rules.asked(start.state) == (Player.ONE,)
    for init_as_board in (False, True):
        request = rules.request(start.state, Player.ONE, init_as_board=init_as_board)
        assert (request.move_id, dict(request.params)) == (1, {"Turn": "1", "Tray": ""})
    assert rules.asked(after_one.state) == (Player.TWO,)
    request = rules.request(after_one.state, Player.TWO)
    assert (request.move_id, dict(request.params)) == (2, {"Turn": "2", "Tray": ""})
    assert rules.asked(after_two.state) == (Player.ONE,)
    assert dict(rules.request(after_two.state, Player.ONE).params) == {"Turn": "3", "Tray": ""}


def test_each_engine_gets_its_own_lines_with_the_marks_computed() -> None:
    turns = run(GAME)
    # After player one's first guess (ABCD against AEBD: 2 well placed, 1 misplaced).
    assert dict(rules.request(turns[3].state, Player.TWO).params) == {"Turn": "4", "Tray": ""}
    assert dict(rules.request(turns[4].state, Player.ONE).params) == {"Turn": "5", "Tray": "21ABCD"}
    assert dict(rules.request(turns[5].state, Player.TWO).params) == {"Turn": "6", "Tray": "11BBCC"}
    request = rules.request(turns[7].state, Player.TWO)
    assert request.move_id == 8
    assert dict(request.params) == {"Turn": "8", "Tray": "11BBCC00DEFA"}


def test_code_values() -> None:
    state = rules.start().state
    assert rules.engine_value(state, Player.ONE, "GCCH") == "GCCH"
    assert rules.person_value(state, Player.ONE, "GCCH") == "GCCH"
    for value in ("00GCCH", "GCC", "GCCHA", "GCCI", "gcch", ""):
        with pytest.raises(IllegalMove, match="code"):
            rules.engine_value(state, Player.ONE, value)
        with pytest.raises(IllegalMove):
            rules.person_value(state, Player.ONE, value)
    with pytest.raises(IllegalMove, match="not asked"):
        rules.engine_value(state, Player.TWO, "GCCH")


def test_guess_values_ignore_the_marks_and_accept_bare_colours() -> None:
    state = run(GAME[:2])[-1].state
    for value in ("00ABCD", "40ABCD", "99ABCD", "ABCD"):
        assert rules.engine_value(state, Player.ONE, value) == "00ABCD"
    for value in ("00ABCI", "0ABCDE", "00ABCDE", "ABC", "X0ABCD", ""):
        with pytest.raises(IllegalMove, match="guess"):
            rules.engine_value(state, Player.ONE, value)
    # A person's page returns 00 + colours; bare colours are an engine's form only.
    assert rules.person_value(state, Player.ONE, "00ABCD") == "00ABCD"
    with pytest.raises(IllegalMove):
        rules.person_value(state, Player.ONE, "ABCD")
    with pytest.raises(IllegalMove, match="not asked"):
        rules.engine_value(state, Player.TWO, "ABCD")
    # The value is applied, its marks computed by the rules.
    turn = rules.play(state, rules.engine_value(state, Player.ONE, "40ABCD"))
    assert turn.state["board2"] == ["21ABCD"]


def test_result_and_final_call_when_player_one_finds_first() -> None:
    turns = run(GAME)
    assert all(rules.result(turn.state) is None for turn in turns[:-1])
    # Player one found on line 3; player two is still asked for its line 3.
    assert rules.asked(turns[-2].state) == (Player.TWO,)
    end = turns[-1].state
    result = rules.result(end)
    assert result is not None and result.winner is Player.ONE and "line 3" in result.reason
    assert rules.asked(end) == ()
    assert dict(rules.final(end, Player.ONE)) == {"Turn": "8", "Tray": "21ABCD30AEBF40AEBD"}
    assert dict(rules.final(end, Player.TWO)) == {"Turn": "8", "Tray": "11BBCC00DEFA30GCCA"}
    with pytest.raises(IllegalMove, match="over"):
        rules.engine_value(end, Player.ONE, "ABCD")


@pytest.mark.parametrize(
    ("values", "winner", "reason"),
    [
        (["GCCH", "AEBD", "00ABCD", "00GCCH"], Player.TWO, "line 1"),
        (["GCCH", "AEBD", "00ABCD", "00BBCC", "00AEBD", "00GCCH"], None, "both"),
        (["AAAA", "BBBB"] + ["00CCCC"] * 16, None, "neither"),
    ],
)
def test_other_results(values: list[str], winner: Player | None, reason: str) -> None:
    turns = run(values)
    assert turns[-1].over and not turns[-2].over
    assert rules.result(turns[-2].state) is None
    result = rules.result(turns[-1].state)
    assert result is not None and result.winner is winner and reason in result.reason


def test_pages_show_a_person_only_its_own_code() -> None:
    start, after_one, after_two, guessed = run(GAME[:3])
    page = rules.page(start, Player.ONE, asking=True)
    assert page == {"Method": "Prepare", "Tray": "Init", "Count": "0"}
    # Player two prepares: player one's code is not on its page, nor on spectators'.
    page = rules.page(after_one, Player.TWO, asking=True)
    assert page == {"Method": "Prepare", "Tray": "Init", "Count": "1"}
    view = build(read_context(urlencode({**page, "Input": "Two"})))
    assert view.errors == () and view.player is Player.TWO and view.composed
    assert rules.page(after_one, None, asking=False) == {
        "Method": "Standard",
        "Tray": "Init",
        "Count": "1",
    }
    assert rules.page(after_one, Player.ONE, asking=False)["Gain1"] == "GCCH"
    # Guessing: each person sees its own code only; spectators none, unless replayed.
    page = rules.page(guessed, Player.TWO, asking=True)
    assert page == {"Method": "Standard", "Tray": "***21ABCD", "Count": "3", "Gain2": "AEBD"}
    assert build(read_context(urlencode({**page, "Input": "Two"}))).errors == ()
    assert "Gain2" not in rules.page(after_two, Player.ONE, asking=True)
    assert rules.page(after_two, Player.ONE, asking=True)["Gain1"] == "GCCH"
    spectator = rules.page(guessed, None, asking=False)
    assert "Gain1" not in spectator and "Gain2" not in spectator
    replay = rules.page(guessed, None, asking=False, reveal=True)
    assert (replay["Gain1"], replay["Gain2"]) == ("GCCH", "AEBD")


def test_everyone_sees_both_codes_at_the_end_and_no_page_has_input() -> None:
    turns = run(GAME)
    for viewer in (Player.ONE, Player.TWO, None):
        page = rules.page(turns[-1], viewer, asking=False)
        assert page == {
            "Method": "End",
            "Tray": "11BBCC00DEFA30GCCA***21ABCD30AEBF40AEBD",
            "Count": "8",
            "Gain1": "GCCH",
            "Gain2": "AEBD",
        }
        for turn in turns:
            assert "Input" not in rules.page(turn, viewer, asking=viewer is not None)


def test_the_consistent_engine_answers_consistently() -> None:
    assert consistent_engine({"Turn": "1", "Tray": ""}).isalpha()
    tray = "11ABCD10EEFF10GGHH"  # the marks of the code AEHB, among others
    for _ in range(10):
        guess = consistent_engine({"Turn": "9", "Tray": tray})
        assert len(guess) == 4
        for i in range(0, len(tray), 6):
            assert score(guess, tray[i + 2 : i + 6]) == (int(tray[i]), int(tray[i + 1]))
    # Contradictory marks: still a guess of 4 colours.
    assert len(consistent_engine({"Turn": "5", "Tray": "40ABCD40DCBA"})) == 4


def test_the_consistent_engine_marks_each_code_once_then_only_the_survivors() -> None:
    # Its cost is the codes it marks, whatever the machine's speed (its time a guess is a
    # figure of benchmarks/arbitre.py): the 4096 codes against the first line, then only
    # the codes still consistent against each next line.
    lines = [("ABCD", 1, 1), ("EEFF", 1, 0), ("GGHH", 1, 0)]
    survivors = [len(ALL_CODES)]
    for k in range(1, len(lines) + 1):
        codes, marked = consistent_codes(lines[:k])
        assert marked == sum(survivors)
        assert all(
            score(code, guess) == (well, misplaced)
            for code in codes
            for guess, well, misplaced in lines[:k]
        )
        survivors.append(len(codes))
    assert survivors == [4096, 660, 156, 48]
    assert "AEHB" in consistent_codes(lines)[0]
    # Contradictory marks: it stops at the first line that leaves no code.
    assert consistent_codes([("ABCD", 4, 0), ("ABCD", 0, 0), ("EEEE", 0, 0)]) == ([], 4097)


@pytest.mark.parametrize(
    "engines",
    [
        ("random", "random"),
        ("random", "consistent"),
        ("consistent", "random"),
        ("consistent", "consistent"),
    ],
)
def test_built_in_engines_play_whole_games(engines: tuple[str, str]) -> None:
    games = 10
    found_within_8 = 0
    for _ in range(games):
        played = drive.play_out(interface, engines)
        assert played.result is not None
        end = played.turns[-1]
        assert end.over and end.params["Method"] == "End"
        codes = {p: end.state[f"code{p}"] for p in PAIR}
        for player, params in played.requests:
            turn = int(params["Turn"])
            assert params["MoveId"] == params["Turn"] and turn % 2 == (player == Player.ONE)
            assert set(params) - {"Set", "Game", "MoveId", "Status", "TimeOut", "Referee"} == {
                "Turn",
                "Tray",
            }
            tray = params["Tray"]
            assert len(tray) == 6 * max(0, (turn - 3) // 2)  # the lines played before
            for i in range(0, len(tray), 6):
                marks = score(codes[player.opponent], tray[i + 2 : i + 6])
                assert (int(tray[i]), int(tray[i + 1])) == marks
        for seat, name in enumerate(engines):
            player = Player(seat + 1)
            own_lines = end.state[f"board{player.opponent}"]
            if name == "consistent" and any(line.startswith("4") for line in own_lines):
                found_within_8 += 1
    if "consistent" in engines:
        # The consistent strategy finds the code within 8 lines in most games (unless the
        # other consistent engine found first and ended the game).
        assert found_within_8 >= games * 8 // 10
