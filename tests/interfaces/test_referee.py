"""The chapter VI referee (manual 002 chapter VI; engine protocol section 6) of every Set
with rules: whole games played through the referee alone, Tray and Gains carried from one
answer to the next call, agree move by move with the same moves played through the rules;
errors answer ``ReturnCode`` 5 with a reason free of ``/`` and ``|``; each Set's referee
Tray; the query reader and the reason writer."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from tests.interfaces.drive import Refereed, referee_moves, referee_out
from tests.seafight_fleets import FLEET, FLEET_CELLS, OTHER, OTHER_CELLS
from tournoyons_gui.interfaces.pente.board import EMPTY_TRAY as PENTE_EMPTY
from tournoyons_gui.interfaces.pente.board import read_point
from tournoyons_gui.interfaces.plugin import (
    ArbitreRules,
    IllegalMove,
    RefereeAnswer,
    RefereeCall,
    Refereeing,
    SetInterface,
    Turn,
)
from tournoyons_gui.interfaces.poker.rules import DECK, PokerRules
from tournoyons_gui.interfaces.poker.tray import HIDDEN, parse_tray
from tournoyons_gui.interfaces.protocol import Player
from tournoyons_gui.interfaces.referee import MAX_REASON, read_call, referee, tray_text
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.interfaces.seafight.fleet import EMPTY_SHOTS, GRID

REGISTRY = load_registry()
#: The Sets that had rules when the referee came: every one of them must referee.
NINE = (
    "TicTacToe",
    "BigTicTacToe",
    "Pente",
    "Reversi",
    "Rochambeau",
    "MasterMind",
    "Seafight",
    "Poker",
    "Nim",
)
#: Every Set the Arbitre plays; a newcomer without a referee (yet) is skipped.
PLAYED = [interface for interface in REGISTRY if interface.arbitre is not None]
CODES = {Player.ONE: 1, Player.TWO: 2, None: 4}


def parts(interface: SetInterface) -> tuple[ArbitreRules, Refereeing]:
    """Return the Set's rules and referee; skip a newcomer that has no referee."""
    rules, judge = interface.arbitre, interface.referee
    if judge is None:
        assert interface.name not in NINE, f"{interface.name} lost its referee"
        pytest.skip(f"{interface.name} has no referee")
    assert rules is not None
    return rules, judge


def rules_of(name: str) -> tuple[ArbitreRules, Refereeing]:
    """Return the rules and referee of the Set called ``name``."""
    interface = REGISTRY.get(name)
    assert interface is not None, name
    return parts(interface)


def call(name: str, **params: str) -> RefereeAnswer:
    """Return the referee's answer to a request of ``params`` (``Tray`` defaults to
    ``Init``, ``MoveId`` to ``1``)."""
    _, judge = rules_of(name)
    query = {"Game": "REFEREE01", "MoveId": "1", "Tray": "Init", **params}
    return referee(judge, read_call(query))


def error(answer: RefereeAnswer) -> str:
    """Return the reason of an error answer, checked as the manual wants it."""
    assert answer.return_code == 5, answer
    assert answer.tray and not set(answer.tray) & {"/", "|"}
    return answer.tray


def poker_decks(game: Refereed) -> list[list[str]]:
    """Return each deal's nine cards as the referee's answers showed them (the hole cards,
    the board as far as it was shown, then cards nobody saw), for
    :meth:`PokerRules.start`."""
    deals: dict[int, tuple[list[str], list[str]]] = {}
    for answer in game.answers:
        tray = parse_tray(answer.tray)
        assert HIDDEN not in tray.hole
        known = deals.get(tray.deal)
        if known is None or len(tray.board) > len(known[1]):
            deals[tray.deal] = (list(tray.hole), list(tray.board))
    assert sorted(deals) == list(range(1, len(deals) + 1))
    decks = []
    for deal in sorted(deals):
        hole, board = deals[deal]
        rest = [card for card in DECK if card not in hole + board]
        decks.append(hole + board + rest[: 5 - len(board)])
    return decks


def check_against_rules(interface: SetInterface, game: Refereed, level: int = 1) -> Turn:
    """Replay ``game``'s moves through the rules from :meth:`ArbitreRules.start`: at each
    call the referee read the rules' position (same players asked), answered its referee
    Tray and Gains, and that answer reads back as the same position (with the next
    ``MoveId``); the verdict is the rules' result. Return the rules' last turn."""
    rules, judge = parts(interface)
    assert game.last.return_code in (1, 2, 4), game.last
    if isinstance(rules, PokerRules):
        turn = rules.start(level, decks=poker_decks(game))
    else:
        turn = rules.start(level)
    for sent, answer, values in zip(game.calls, game.answers, game.values, strict=True):
        assert rules.result(turn.state) is None
        read = judge.referee_position(sent)
        assert rules.asked(read) == rules.asked(turn.state) == tuple(sorted(values))
        if sent.tray != "Init":
            assert judge.referee_tray(read)[0] == sent.tray
        taken = {p: rules.engine_value(turn.state, p, value) for p, value in values.items()}
        for player in sorted(taken):
            turn = rules.play(turn.state, taken[player])
        tray, gain1, gain2 = judge.referee_tray(turn.state)
        assert (answer.tray, answer.gain1, answer.gain2) == (
            tray,
            gain1 or sent.gain1,
            gain2 or sent.gain2,
        )
        assert not set(answer.tray) & {"/", "|"}
        following = RefereeCall(
            move_id=str(int(sent.move_id) + 1),
            tray=answer.tray,
            gain1=answer.gain1,
            gain2=answer.gain2,
        )
        again = judge.referee_position(following)
        assert judge.referee_tray(again) == judge.referee_tray(turn.state)
        assert rules.asked(again) == rules.asked(turn.state)
        assert (rules.result(again) is None) == (rules.result(turn.state) is None)
    result = rules.result(turn.state)
    assert result is not None
    assert game.last.return_code == CODES[result.winner]
    # The game is over: one more move is an error.
    last = game.calls[-1]
    over = RefereeCall(
        move_id=str(int(last.move_id) + 1),
        tray=game.last.tray,
        gain1=game.last.gain1,
        gain2=game.last.gain2,
        move1="1",
        move2="1",
    )
    assert "already over" in error(referee(judge, over))
    return turn


# --- every Set --------------------------------------------------------------------------


def test_every_set_with_rules_referees() -> None:
    for name in NINE:
        interface = REGISTRY.get(name)
        assert interface is not None and interface.referee is not None, name


@pytest.mark.parametrize("interface", PLAYED, ids=[i.name for i in PLAYED])
def test_a_whole_game_of_random_engines_through_the_referee(interface: SetInterface) -> None:
    parts(interface)
    game = referee_out(interface)
    check_against_rules(interface, game)


@pytest.mark.parametrize("interface", PLAYED, ids=[i.name for i in PLAYED])
def test_a_whole_game_of_the_other_engines_through_the_referee(interface: SetInterface) -> None:
    parts(interface)
    engines = list(interface.engines)
    game = referee_out(interface, (engines[-1], engines[0]))
    check_against_rules(interface, game)


def test_a_whole_level_two_poker_game_through_the_referee() -> None:
    interface = REGISTRY.get("Poker")
    assert interface is not None
    game = referee_out(interface, ("strength", "random"), level=2, gains=("200", "200"))
    check_against_rules(interface, game, level=2)
    assert sum(map(int, (game.last.gain1, game.last.gain2))) == 400


#: Per Set, from the start (``Init``, ``MoveId=1``): an illegal move of the player asked,
#: a move of the player not asked, a Tray that cannot be read.
ERRORS: dict[str, tuple[dict[str, str], dict[str, str], str]] = {
    "TicTacToe": ({"Move1": "0"}, {"Move2": "5"}, "12345678"),
    "BigTicTacToe": ({"Move1": "K0"}, {"Move2": "A0"}, "0" * 99 + "3"),
    "Pente": ({"Move1": "AA"}, {"Move2": "JJ"}, "0" * 360),
    "Reversi": ({"Move1": "A1"}, {"Move2": "D3"}, "0" * 63 + "1"),
    "Rochambeau": ({"Move1": "4", "Move2": "1"}, {"Move2": "1"}, "100"),
    "MasterMind": ({"Move1": "ABCI"}, {"Move2": "ABCD"}, "ABCD***ABC"),
    "Seafight": ({"Move1": "H5A01"}, {"Move2": FLEET}, EMPTY_SHOTS),
    "Poker": ({"Move1": "101"}, {"Move2": "2"}, "01001????C3SKM1-2"),
    "Nim": ({"Move1": "4"}, {"Move2": "1"}, "13"),
}


@pytest.mark.parametrize("name", NINE)
def test_errors_answer_five_with_a_reason(name: str) -> None:
    illegal, wrong, unreadable = ERRORS[name]
    assert "illegal Move1" in error(call(name, **illegal))
    assert "the move expected is Move1" in error(call(name, **wrong))
    assert "unreadable Tray" in error(call(name, Tray=unreadable, Move1="1"))
    assert "no move received" in error(call(name))
    # A move written with the characters a Tray never holds: the reason spells them out.
    assert "illegal Move1" in error(call(name, **dict.fromkeys(illegal, "A/B|C")))


@pytest.mark.parametrize("name", NINE)
def test_the_start_is_init_or_empty_and_reads_back(name: str) -> None:
    rules, judge = rules_of(name)
    start = rules.start().state
    written = judge.referee_tray(start)
    assert "Init" not in written[0]
    for tray in ("Init", "", written[0]):
        state = judge.referee_position(RefereeCall(move_id="1", tray=tray))
        assert rules.asked(state) == rules.asked(start)
        if name != "Poker":  # Poker's start deals cards: other ones at each reading
            assert judge.referee_tray(state) == written


def test_the_method_is_echoed() -> None:
    answer = call("Seafight", Method="Prepare", Move1=FLEET)
    assert (answer.return_code, answer.method) == (3, "Prepare")
    answer = call("Seafight", Method="Prepare", Move1="H5A01")
    assert (answer.return_code, answer.method) == (5, "Prepare")


# --- each Set's referee Tray ------------------------------------------------------------


def test_bigtictactoe_reads_alignments_on_their_players_marks() -> None:
    row = "1111100000" + "2222000000" + "0" * 80
    answer = call("BigTicTacToe", Tray=row, Gain1="A0E0", Move2="E1")
    assert (answer.return_code, answer.gain1, answer.gain2) == (3, "A0E0", "A1E1")
    assert answer.tray == "1111100000" + "2222200000" + "0" * 80
    assert "Gain2" in error(call("BigTicTacToe", Tray=row, Gain1="A0E0", Gain2="A0E0"))
    assert "marks" in error(call("BigTicTacToe", Tray="1" * 3 + "0" * 97, Move2="J9"))


def test_pente_counts_the_moves_from_stones_and_pairs_taken() -> None:
    rules, judge = rules_of("Pente")
    turn = rules.start()
    for point in ("JJ", "JK", "AA", "JL", "JM"):  # JM closes JK-JL: one pair taken
        turn = rules.play(turn.state, point)
    tray, gain1, gain2 = judge.referee_tray(turn.state)
    assert (gain1, gain2) == ("1", "0") and tray.count("1") == 3 and "2" not in tray
    state = judge.referee_position(RefereeCall(move_id="6", tray=tray, gain1="1", gain2="0"))
    assert state["count"] == 5 and rules.asked(state) == (Player.TWO,)
    # Move 3 is player one's second stone: the opening rule follows from the Tray.
    two = list(PENTE_EMPTY)
    two[read_point("JJ") or 0], two[read_point("JK") or 0] = "1", "2"
    assert "forbidden" in error(call("Pente", Tray="".join(two), Move1="JL"))
    assert call("Pente", Tray="".join(two), Move1="JM").return_code == 3
    assert "moves of player one" in error(call("Pente", Tray="".join(two), Gain1="1", Move2="AA"))
    assert "Gain1" in error(call("Pente", Tray="".join(two), Gain1="6", Move1="AA"))
    # Five in a row wins, and is a game over.
    four = list(PENTE_EMPTY)
    for column in "ACEG":
        four[read_point(column + "A") or 0] = "2"
    for column in "ABCD":
        four[read_point(column + "S") or 0] = "1"
    answer = call("Pente", Tray="".join(four), Move1="ES")
    assert answer.return_code == 1 and answer.tray.count("1") == 5
    assert "already over" in error(call("Pente", Tray=answer.tray, Move2="SS"))
    assert "already over" in error(call("Pente", Tray="".join(four), Gain1="5", Move1="SS"))


def test_a_pente_game_with_a_capture_through_the_referee() -> None:
    interface = REGISTRY.get("Pente")
    assert interface is not None
    points = ("JJ", "JK", "AA", "JL", "JM", "BB", "KJ", "DB", "LJ", "FB", "MJ", "HB", "NJ")
    moves = [{Player.ONE if k % 2 == 0 else Player.TWO: p} for k, p in enumerate(points)]
    game = referee_moves(interface, moves)
    assert len(game.answers) == len(points) and game.answers[4].gain1 == "1"
    assert check_against_rules(interface, game).over and game.last.return_code == 1


def test_reversi_asks_by_the_moveid() -> None:
    assert call("Reversi", Move1="D3").return_code == 3
    assert "MoveId" in error(call("Reversi", MoveId="", Move1="D3"))
    assert "MoveId" in error(call("Reversi", MoveId="x", Move1="D3"))
    # Move 2 after black passed: white moves on the start position.
    answer = call("Reversi", MoveId="2", Move2="E3")
    assert answer.return_code == 3 and answer.tray.count("4") == 4
    assert "XX" in error(call("Reversi", Move1="XX"))
    # White has no legal move on move 8: it passes, and black ends the game.
    stuck = "34" + "0" * 62
    assert "turns no disc" in error(call("Reversi", MoveId="8", Tray=stuck, Move2="C1"))
    answer = call("Reversi", MoveId="8", Tray=stuck, Move2="XX")
    assert (answer.return_code, answer.tray) == (3, stuck)
    answer = call("Reversi", MoveId="9", Tray=stuck, Move1="C1")
    assert (answer.return_code, answer.tray) == (1, "333" + "0" * 61)


def test_rochambeau_counts_rounds_in_the_tray_and_scores_in_the_gains() -> None:
    answer = call("Rochambeau", Move1="1", Move2="3")
    assert (answer.return_code, answer.tray, answer.gain1, answer.gain2) == (3, "1", "1", "0")
    answer = call("Rochambeau", Tray="7", Gain1="2", Gain2="4", Move1="1", Move2="2")
    assert (answer.return_code, answer.tray, answer.gain1, answer.gain2) == (2, "8", "2", "5")
    answer = call("Rochambeau", Tray="98", Gain1="3", Gain2="2", Move1="2", Move2="2")
    assert (answer.return_code, answer.tray) == (1, "99")
    assert "unreadable" in error(call("Rochambeau", Tray="3", Gain1="3", Gain2="1", Move1="1"))
    assert "unreadable" in error(call("Rochambeau", Tray="9", Gain1="6", Move1="1", Move2="1"))


def test_mastermind_writes_each_code_after_its_board() -> None:
    answer = call("MasterMind", Move1="ABCD")
    assert (answer.return_code, answer.tray) == (3, "ABCD***")
    answer = call("MasterMind", MoveId="2", Tray="ABCD***", Move2="EFGH")
    assert (answer.return_code, answer.tray) == (3, "ABCD***EFGH")
    answer = call("MasterMind", MoveId="3", Tray="ABCD***EFGH", Move1="EFGH")
    assert (answer.return_code, answer.tray) == (3, "ABCD***40EFGHEFGH")
    answer = call("MasterMind", MoveId="4", Tray=answer.tray, Move2="00AABB")
    assert (answer.return_code, answer.tray) == (1, "11AABBABCD***40EFGHEFGH")
    assert "already over" in error(call("MasterMind", Tray=answer.tray, Move1="ABCD"))
    assert "marks" in error(call("MasterMind", Tray="ABCD***30EFGHEFGH", Move2="AAAA"))
    assert "prepares its code first" in error(call("MasterMind", Tray="***EFGH", Move1="AAAA"))
    assert "once both codes" in error(call("MasterMind", Tray="00EEEEABCD***", Move2="AAAA"))
    assert "lines of player one" in error(
        call("MasterMind", Tray="00EEEEABCD***EFGH", Move1="AAAA")
    )


def test_seafight_writes_each_fleet_after_its_board() -> None:
    answer = call("Seafight", Move1=FLEET)
    assert (answer.return_code, answer.tray) == (3, EMPTY_SHOTS + FLEET + "***" + EMPTY_SHOTS)
    assert "fleet" in error(call("Seafight", Tray=answer.tray, MoveId="2", Move2=FLEET[:20]))
    tray = call("Seafight", Tray=answer.tray, MoveId="2", Move2=OTHER).tray
    assert tray == EMPTY_SHOTS + FLEET + "***" + EMPTY_SHOTS + OTHER
    water = [name for name in GRID.names if name not in FLEET_CELLS]
    move_id = 3
    for target, miss in zip(OTHER_CELLS, water, strict=False):
        answer = call("Seafight", Tray=tray, MoveId=str(move_id), Move1=target)
        tray, move_id = answer.tray, move_id + 1
        if answer.return_code != 3:
            break
        tray = call("Seafight", Tray=tray, MoveId=str(move_id), Move2=miss).tray
        move_id += 1
        assert "fired at already" in error(call("Seafight", Tray=tray, Move1=target))
    assert answer.return_code == 1
    board2 = answer.tray.split("***")[1]
    assert set(board2[100:][4::5]) == {"3"}  # every ship of fleet two sunk
    # Two shots of player two (F0, G0: water), none of player one's.
    assert "F0" not in FLEET_CELLS and "G0" not in FLEET_CELLS
    ahead = EMPTY_SHOTS[:5] + "11" + EMPTY_SHOTS[7:]
    ahead_tray = ahead + FLEET + "***" + EMPTY_SHOTS + OTHER
    assert "shots of player one" in error(call("Seafight", Tray=ahead_tray, Move1="A0"))
    broken = "2" + EMPTY_SHOTS[1:] + OTHER + "***" + EMPTY_SHOTS + FLEET
    assert "not what fleet 1 gives" in error(call("Seafight", Tray=broken, Move2="A0"))


def test_poker_shows_every_hole_card_and_reads_the_level_from_the_gains() -> None:
    rules, judge = rules_of("Poker")
    start = judge.referee_position(RefereeCall(move_id="1", tray="Init"))
    assert start["level"] == 1 and start["gains"] == [0, 0]
    level2 = judge.referee_position(RefereeCall(move_id="1", gain1="200", gain2="200"))
    assert level2["level"] == 2 and rules.asked(level2) == (Player.ONE,)
    assert "Gain1 and Gain2" in error(call("Poker", Gain1="5", Gain2="6", Move1="2"))
    # The dealer (player one on deal 1) folds: the pot goes, the cards stay written out.
    deal = "01001S1H1D1C1M1-2"
    answer = call("Poker", Tray=deal, Move1="0")
    assert (answer.return_code, answer.tray, answer.gain1, answer.gain2) == (
        3,
        "01009S1H1D1C1M0-2",
        "-1",
        "1",
    )
    assert "the move expected is Move1 and Move2" in error(
        call("Poker", Tray=answer.tray, Gain1="-1", Gain2="1", Move1="0")
    )
    answer = call("Poker", Tray=answer.tray, Gain1="-1", Gain2="1", Move1="0", Move2="X")
    assert answer.return_code == 3 and answer.tray.startswith("02001")
    assert answer.tray.endswith("M2-1") and (answer.gain1, answer.gain2) == ("-1", "1")
    assert answer.tray[2:5] == "001"  # no deal completed (a fold), step 1
    assert "twice" in error(call("Poker", Tray="01001S1S1D1C1M1-2", Move1="2"))
    assert "hole cards" in error(call("Poker", Tray="01001????D1C1M1-2", Move1="2"))
    # The board cards not shown are drawn among those not seen.
    flop = call("Poker", Tray="01002S1H1D1C1M2-?2", Move2="2")
    cards = parse_tray(flop.tray)
    assert flop.return_code == 3 and cards.step == 3 and len(cards.board) == 3
    assert not {"S1", "H1", "D1", "C1"} & set(cards.board)


def test_nim_asks_by_the_moveid() -> None:
    answer = call("Nim", MoveId="2", Tray="9", Move2="3")
    assert (answer.return_code, answer.tray) == (3, "6")
    assert call("Nim", MoveId="4", Tray="3", Move2="3").return_code == 2
    assert "MoveId" in error(call("Nim", MoveId="", Tray="9", Move2="3"))
    assert "cannot leave" in error(call("Nim", MoveId="2", Tray="5", Move2="3"))


# --- the reason and the query -----------------------------------------------------------


def test_tray_text_spells_out_the_forbidden_characters() -> None:
    assert tray_text("a/b|c") == "a-b!c"
    assert tray_text("  line\none\t\x7ftwo  ") == "line one two"
    assert len(tray_text("x" * 500)) == MAX_REASON
    assert tray_text("") == ""


def test_read_call_reads_names_in_any_case_first_one_winning() -> None:
    params: Mapping[str, str] = {
        "game": "G1",
        "METHOD": "Prepare",
        "MoveID": "7",
        "tray": " 100 ",
        "Tray": "ignored",
        "gain1": " 2 ",
        "Gain2": "3",
        "move1": " c5 ",
        "Move2": "  ",
        "ReturnURL": "http://example.org/return",
    }
    assert read_call(params) == RefereeCall(
        game="G1",
        method="Prepare",
        move_id="7",
        tray="100",
        gain1="2",
        gain2="3",
        move1="C5",
        move2=None,
    )
    assert read_call({}) == RefereeCall()


def test_an_unreadable_tray_never_raises() -> None:
    for name in NINE:
        _, judge = rules_of(name)
        for tray in ("x", "***", "0" * 1000, "Init***Init", "-1", "?"):
            answer = referee(judge, RefereeCall(move_id="1", tray=tray, move1="1", move2="1"))
            assert answer.return_code in (3, 5), (name, tray)
            if answer.return_code == 5:
                error(answer)
        with pytest.raises(IllegalMove):
            judge.referee_position(RefereeCall(move_id="1", tray="x/y"))
