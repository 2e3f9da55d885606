"""ConnectFour's engine view and built-in engines (engine protocol section 4, ConnectFour;
decisions 14 and 15), played in process as the Arbitre plays them (``tests/interfaces/drive``),
and its engines answering botsarena's messages (seed 003)."""

from __future__ import annotations

import pytest

from tests.interfaces.drive import check_alternating_requests, play_out, played
from tournoyons_gui.interfaces import ArbitreRules, IllegalMove, Player
from tournoyons_gui.interfaces.connectfour import interface
from tournoyons_gui.interfaces.connectfour.board import COLUMNS, EMPTY_TRAY, winning_cells

EMPTY = "0" * 42


def _arbitre() -> ArbitreRules:
    arbitre = interface.arbitre
    assert arbitre is not None
    return arbitre


rules = _arbitre()


def test_turn_one_gets_the_explicit_empty_board_never_init() -> None:
    assert EMPTY_TRAY == EMPTY
    for init_as_board in (False, True):
        request = rules.request(rules.start().state, Player.ONE, init_as_board=init_as_board)
        assert (request.move_id, dict(request.params)) == (1, {"Turn": "1", "Tray": EMPTY})
    assert rules.asked(rules.start().state) == (Player.ONE,)
    assert rules.engine_set == "ConnectFour" and rules.levels == (1,)


def test_each_player_gets_the_opponent_s_last_column_and_the_tray() -> None:
    state = played(rules, "D")
    assert rules.asked(state) == (Player.TWO,)
    request = rules.request(state, Player.TWO)
    assert request.move_id == 2
    assert list(request.params.items()) == [
        ("Turn", "2"),
        ("Move1", "D"),
        ("Tray", "0001000" + "0" * 35),
    ]
    state = played(rules, "D", "C")
    assert list(rules.request(state, Player.ONE).params.items()) == [
        ("Turn", "3"),
        ("Move2", "C"),
        ("Tray", "0021000" + "0" * 35),
    ]


@pytest.mark.parametrize("value", ["", "H", "d", "D1", "0", "3", "DD", "XX", "A "])
def test_values_outside_the_syntax_are_illegal(value: str) -> None:
    with pytest.raises(IllegalMove, match="not a column"):
        rules.engine_value(rules.start().state, Player.ONE, value)


def test_a_full_column_and_the_wrong_player_are_illegal() -> None:
    state = played(rules, *"DDDDDD")
    with pytest.raises(IllegalMove, match="column D is full"):
        rules.engine_value(state, Player.ONE, "D")
    with pytest.raises(IllegalMove, match="not to move"):
        rules.engine_value(state, Player.TWO, "C")
    assert [rules.engine_value(state, Player.ONE, v) for v in "ABCEFG"] == list("ABCEFG")


def test_final_call_and_result_after_a_line() -> None:
    state = played(rules, *"ABABABA")
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
    page = rules.page(turn, Player.TWO, asking=True)
    assert page == {name: v for name, v in turn.params.items() if name != "Input"}
    assert page["Move1"] == "D" and "Legend" not in page
    assert rules.page(turn, None, asking=False) == page
    end = rules.play(played(rules, *"ABABAB"), "A")
    assert rules.page(end, None, asking=False)["Method"] == "End"
    assert end.over and end.params["Tray"].startswith("32")


@pytest.mark.parametrize(
    "engines", [("random", "random"), ("strong", "random"), ("random", "strong")]
)
def test_built_in_engines_play_legal_games_to_the_end(engines: tuple[str, str]) -> None:
    for k in range(4):
        game = play_out(interface, engines, init_as_board=k % 2 == 1)
        check_alternating_requests(game, first=EMPTY, gains=False, alphabet="012")
        for turn in game.turns:
            assert (rules.result(turn.state) is not None) == turn.over
        state = game.turns[-1].state
        assert game.result is not None and game.result == rules.result(state)
        winners = [p for p in Player if winning_cells(state["tray"], p)]
        assert game.result.winner is (winners[0] if winners else None)
        assert len(winners) <= 1


def test_strong_beats_random() -> None:
    wins = 0
    for k in range(10):
        engines = ("strong", "random") if k % 2 == 0 else ("random", "strong")
        game = play_out(interface, engines)
        assert game.result is not None
        wins += game.result.winner is Player(engines.index("strong") + 1)
    assert wins >= 8, f"strong won only {wins} of 10 against random"


def test_strong_against_strong_ends() -> None:
    game = play_out(interface, ("strong", "strong"))
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
