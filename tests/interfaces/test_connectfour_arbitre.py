"""ConnectFour's engine view and built-in engines (engine protocol section 4, ConnectFour;
decisions 14 and 15), played in process as the Arbitre plays them (``tests/interfaces/drive``),
and its engines answering botsarena's messages (seed 003)."""

from __future__ import annotations

import pytest

from tests.interfaces import drive
from tournoyons_gui.interfaces import PAIR, IllegalMove, Player
from tournoyons_gui.interfaces.connectfour import interface
from tournoyons_gui.interfaces.connectfour.board import COLUMNS, EMPTY_TRAY, winning_cells

EMPTY = "0" * 42

rules = drive.arbitre_rules(interface)


def check_requests(game: drive.Played, init_as_board: bool) -> None:
    """Check every request of a game against the spec (:func:`check_alternating_requests`):
    Turn 1 gets the explicit empty board, with or without ``init_as_board``."""
    drive.check_alternating_requests(game, first=EMPTY, gains=False, alphabet="012")


def test_turn_one_gets_the_explicit_empty_board_never_init() -> None:
    assert EMPTY_TRAY == EMPTY
    for init_as_board in (False, True):
        request = rules.request(rules.start().state, Player.ONE, init_as_board=init_as_board)
        assert (request.move_id, dict(request.params)) == (1, {"Turn": "1", "Tray": EMPTY})
    assert rules.asked(rules.start().state) == (Player.ONE,)
    assert rules.engine_set == "ConnectFour" and rules.levels == (1,)


def test_each_player_gets_the_opponent_s_last_column_and_the_tray() -> None:
    state = drive.played(rules, "D")
    tray = "0001000" + "0" * 35
    drive.check_request(
        rules, state, Player.TWO, 2, [("Turn", "2"), ("Move1", "D"), ("Tray", tray)]
    )
    state = drive.played(rules, "D", "C")
    tray = "0021000" + "0" * 35
    drive.check_request(
        rules, state, Player.ONE, 3, [("Turn", "3"), ("Move2", "C"), ("Tray", tray)]
    )


@pytest.mark.parametrize("value", ["", "H", "d", "D1", "0", "3", "DD", "XX", "A "])
def test_values_outside_the_syntax_are_illegal(value: str) -> None:
    with pytest.raises(IllegalMove, match="not a column"):
        rules.engine_value(rules.start().state, Player.ONE, value)


def test_a_full_column_and_the_wrong_player_are_illegal() -> None:
    state = drive.played(rules, *"DDDDDD")
    with pytest.raises(IllegalMove, match="column D is full"):
        rules.engine_value(state, Player.ONE, "D")
    with pytest.raises(IllegalMove, match="not to move"):
        rules.engine_value(state, Player.TWO, "C")
    assert [rules.engine_value(state, Player.ONE, v) for v in "ABCEFG"] == list("ABCEFG")


def test_final_call_and_result_after_a_line() -> None:
    state = drive.played(rules, *"ABABABA")
    result = rules.result(state)
    assert result is not None and (result.winner, result.reason) == (Player.ONE, "four in a row")
    assert rules.asked(state) == ()
    tray = "12" + "0" * 5 + "12" + "0" * 5 + "12" + "0" * 5 + "1" + "0" * 20
    assert dict(rules.final(state, Player.TWO)) == {"Turn": "7", "Move1": "A", "Tray": tray}
    assert dict(rules.final(state, Player.ONE)) == {"Turn": "7", "Move2": "B", "Tray": tray}
    with pytest.raises(IllegalMove, match="over"):
        rules.engine_value(state, Player.TWO, "C")


def test_pages_hide_nothing_and_never_carry_input() -> None:
    turn = rules.play(rules.start().state, "D")
    page = drive.check_pages_show_the_turn(rules, turn, Player.TWO)
    assert page["Move1"] == "D" and "Legend" not in page
    end = rules.play(drive.played(rules, *"ABABAB"), "A")
    assert rules.page(end, None, asking=False)["Method"] == "End"
    assert end.over and end.params["Tray"].startswith("32")


@pytest.mark.parametrize(
    "engines", [("random", "random"), ("strong", "random"), ("random", "strong")]
)
def test_built_in_engines_play_legal_games_to_the_end(engines: tuple[str, str]) -> None:
    for game in drive.play_games(interface, engines, 4, check_requests):
        winners = [p for p in PAIR if winning_cells(game.turns[-1].state["tray"], p)]
        assert game.result is not None and game.result.winner is (winners[0] if winners else None)
        assert len(winners) <= 1


@pytest.mark.slow
def test_strong_beats_random() -> None:
    wins = drive.wins_against(interface, "strong", "random", 10)
    assert wins >= 8, f"strong won only {wins} of 10 against random"


def test_strong_against_strong_ends() -> None:
    game = drive.play_out(interface, ("strong", "strong"))
    assert game.result is not None
    assert 7 <= len(game.turns) - 1 <= 42


def test_a_built_in_engine_answers_botsarena_s_messages() -> None:
    """The engine request a botsarena message maps to, and back: a whole game of play-turn
    messages built from the rules' requests, each answered by ``strong``'s column."""
    bots = interface.botsarena
    assert bots is not None
    turn = rules.start()
    while rules.result(turn.state) is None:
        (player,) = rules.asked(turn.state)
        request = rules.request(turn.state, player)
        message = {
            "game-id": "9916",
            "action": "play-turn",
            "game": bots.game,
            "players": 2,
            "board": bots.board(request.params),
            "you": "X" if player is Player.ONE else "O",
            "player-index": int(player) - 1,
        }
        params = bots.request(message)
        assert params == {"Turn": request.params["Turn"], "Tray": request.params["Tray"]}
        column = bots.play(interface.engines["strong"](params))
        value = bots.value(column)
        assert value == COLUMNS[column]
        turn = rules.play(turn.state, rules.engine_value(turn.state, player, value))
