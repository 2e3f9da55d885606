"""TicTacToe's engine view and built-in engines (engine protocol section 4, TicTacToe)."""

from __future__ import annotations

import pytest

from tests.interfaces.drive import play_out
from tournoyons_gui.interfaces import IllegalMove, Player
from tournoyons_gui.interfaces.tictactoe import interface
from tournoyons_gui.interfaces.tictactoe.rules import TicTacToeRules

rules = TicTacToeRules()
assert interface.arbitre is not None


def test_turn_one_gets_the_explicit_empty_board_never_init() -> None:
    request = rules.request(rules.start().state, Player.ONE, init_as_board=False)
    assert request.move_id == 1
    assert dict(request.params) == {"Turn": "1", "Tray": "000000000"}


def test_second_player_gets_the_first_players_cell_in_move1() -> None:
    turn = rules.play(rules.start().state, "5")
    assert rules.asked(turn.state) == (Player.TWO,)
    request = rules.request(turn.state, Player.TWO)
    assert (request.move_id, dict(request.params)) == (
        2,
        {"Turn": "2", "Move1": "5", "Tray": "000010000"},
    )


@pytest.mark.parametrize("value", ["0", "10", "A", "", "5 ", "05"])
def test_values_outside_the_syntax_are_illegal(value: str) -> None:
    with pytest.raises(IllegalMove):
        rules.engine_value(rules.start().state, Player.ONE, value)


def test_an_occupied_cell_is_illegal() -> None:
    turn = rules.play(rules.start().state, "5")
    with pytest.raises(IllegalMove, match="taken"):
        rules.engine_value(turn.state, Player.TWO, "5")


def test_final_call_and_result_after_a_line() -> None:
    state = rules.start().state
    for cell in "14253":
        state = rules.play(state, cell).state
    result = rules.result(state)
    assert result is not None and result.winner is Player.ONE
    assert rules.asked(state) == ()
    assert dict(rules.final(state, Player.TWO)) == {
        "Turn": "5",
        "Move1": "3",
        "Tray": "112220000".replace("112220000", state["tray"]),
    }
    assert rules.final(state, Player.ONE)["Move2"] == "5"


def test_pages_hide_nothing_and_never_carry_input() -> None:
    turn = rules.play(rules.start().state, "5")
    page = rules.page(turn, Player.TWO, asking=True)
    assert "Input" not in page and page["Move1"] == "5"
    assert rules.page(turn, None, asking=False) == page


@pytest.mark.parametrize(
    "engines", [("random", "random"), ("random", "perfect"), ("perfect", "random")]
)
def test_built_in_engines_play_legal_games_to_the_end(engines: tuple[str, str]) -> None:
    for _ in range(20):
        played = play_out(interface, engines)
        assert played.result is not None
        if "perfect" in engines:
            loser = Player(engines.index("random") + 1)
            assert played.result.winner in (None, loser.opponent)


def test_perfect_against_perfect_is_always_a_draw() -> None:
    for _ in range(5):
        played = play_out(interface, ("perfect", "perfect"))
        assert played.result is not None and played.result.winner is None
