"""A game started from a position (decision 15; seed 000 II: "une partie peut
démarrer directement sur un plateau déjà avancé"): :class:`TrayStarts` rules, for every Set
whose Tray holds the whole position, and :func:`starts_from_tray` for the others."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

import tournoyons_gui.interfaces as package
from tests.interfaces import drive
from tests.interfaces.helpers import with_codes
from tournoyons_gui.interfaces import (
    PAIR,
    IllegalMove,
    Player,
    SetInterface,
    TrayStarts,
    Turn,
    bigtictactoe,
    connectfour,
    mastermind,
    pente,
    plugin,
    poker,
    reversi,
    rochambeau,
    seafight,
    starts_from_tray,
    tictactoe,
)
from tournoyons_gui.interfaces.bigtictactoe.board import EMPTY_TRAY as BIG_EMPTY
from tournoyons_gui.interfaces.bigtictactoe.board import read_cell
from tournoyons_gui.interfaces.bigtictactoe.rules import RULES as BIG_RULES
from tournoyons_gui.interfaces.connectfour.board import EMPTY_TRAY as FOUR_EMPTY
from tournoyons_gui.interfaces.connectfour.board import GRID as FOUR_GRID
from tournoyons_gui.interfaces.connectfour.rules import RULES as FOUR_RULES
from tournoyons_gui.interfaces.pente.board import EMPTY_TRAY as PENTE_EMPTY
from tournoyons_gui.interfaces.pente.board import FORBIDDEN, read_point
from tournoyons_gui.interfaces.pente.rules import RULES as PENTE_RULES
from tournoyons_gui.interfaces.reversi.board import INIT_TRAY, cell_index, legal_moves
from tournoyons_gui.interfaces.reversi.rules import RULES as REVERSI_RULES
from tournoyons_gui.interfaces.tictactoe.rules import RULES as TICTACTOE_RULES
from tournoyons_nim import interface as nim
from tournoyons_nim.rules import NimRules

# mypy checks that each Set's rules satisfy the protocol.
_TICTACTOE: TrayStarts = TICTACTOE_RULES
_BIG: TrayStarts = BIG_RULES
_PENTE: TrayStarts = PENTE_RULES
_REVERSI: TrayStarts = REVERSI_RULES
_FOUR: TrayStarts = FOUR_RULES
_NIM: TrayStarts = NimRules()


def big(codes: Mapping[str, str]) -> str:
    """Return a BigTicTacToe Tray with ``codes`` (cell -> code) set."""
    return with_codes(BIG_EMPTY, read_cell, codes)


def four(codes: Mapping[str, str]) -> str:
    """Return a ConnectFour Tray (bottom row first) with ``codes`` set."""
    return with_codes(FOUR_EMPTY, FOUR_GRID.index, codes)


def stones(codes: Mapping[str, str]) -> str:
    """Return a Pente Tray with ``codes`` (point -> code) set."""
    return with_codes(PENTE_EMPTY, read_point, codes)


def discs(codes: Mapping[str, str], board: str = INIT_TRAY) -> str:
    """Return a Reversi Tray: ``board`` with ``codes`` (cell -> code) set."""
    return with_codes(board, cell_index, codes)


def reversi_after(moves: int) -> str:
    """Return the Reversi board after ``moves`` moves from the start, each the first legal
    cell of the player to move (no pass happens that early)."""
    state: Mapping[str, Any] = REVERSI_RULES.start().state
    for _ in range(moves):
        player = Player(int(state["player"]))
        cell = legal_moves(str(state["tray"]), player)[0]
        value = "ABCDEFGH"[cell % 8] + "12345678"[cell // 8]
        state = REVERSI_RULES.play(state, value).state
    return str(state["tray"])


@dataclass(frozen=True)
class Position:
    """A start position: its Set, Tray, the player to move, the engines that play it out,
    and whether the Set sends ``Gain1``/``Gain2`` from Turn 1."""

    interface: SetInterface
    tray: str
    player: Player
    engines: tuple[str, str] = ("random", "random")
    gains: bool = False

    @property
    def first(self) -> int:
        """Return the first request's ``Turn``: 1 when player one moves, else 2."""
        return int(self.player)


POSITIONS = {
    "tictactoe-one": Position(tictactoe.interface, "100020000", Player.ONE),
    "tictactoe-two": Position(tictactoe.interface, "100020001", Player.TWO, ("perfect",) * 2),
    "connectfour-one": Position(
        connectfour.interface, four({"D1": "1", "D2": "2", "C1": "1", "E1": "2"}), Player.ONE
    ),
    "connectfour-two": Position(
        connectfour.interface, four({"D1": "1", "D2": "2", "D3": "1"}), Player.TWO
    ),
    "bigtictactoe-one": Position(
        bigtictactoe.interface,
        # Player one: six in a row A0-F0 (one alignment); player two: six apart.
        big(
            dict.fromkeys(["A0", "B0", "C0", "D0", "E0", "F0"], "1")
            | dict.fromkeys(["A5", "C5", "E5", "G5", "I5", "B7"], "2")
        ),
        Player.ONE,
        gains=True,
    ),
    "bigtictactoe-two": Position(
        bigtictactoe.interface,
        # Player one: the diagonal A0-J9 (two alignments); player two: A9-E9 and four more.
        big(
            {f"{'ABCDEFGHIJ'[k]}{k}": "1" for k in range(10)}
            | dict.fromkeys(["A9", "B9", "C9", "D9", "E9", "F8", "G8", "H8", "J8"], "2")
        ),
        Player.TWO,
        ("greedy", "random"),
        gains=True,
    ),
    "pente-one": Position(
        pente.interface,
        stones({"JJ": "1", "JK": "2", "AA": "1", "AB": "2"}),
        Player.ONE,
        ("greedy", "random"),
        gains=True,
    ),
    "pente-two": Position(pente.interface, stones({"JJ": "1"}), Player.TWO, gains=True),
    "reversi-one": Position(reversi.interface, reversi_after(6), Player.ONE),
    "reversi-two": Position(reversi.interface, reversi_after(3), Player.TWO),
    "nim": Position(nim, "7", Player.ONE, ("perfect", "random")),
}


@pytest.mark.parametrize("name", POSITIONS)
def test_a_game_from_a_position_plays_on_to_its_end(name: str) -> None:
    position = POSITIONS[name]
    rules = drive.arbitre_rules(position.interface)
    assert starts_from_tray(rules)
    first = position.first
    game = drive.play_out(position.interface, position.engines, tray=position.tray)

    start = game.turns[0]
    assert start.params["Count"] == str(first - 1)
    assert start.params["Input"] == ("One" if first == 1 else "Two")
    assert not start.over and rules.result(start.state) is None
    for k, (player, params) in enumerate(game.requests):
        turn = first + k
        assert params["Turn"] == params["MoveId"] == str(turn)
        assert player is (Player.ONE if turn % 2 else Player.TWO)
        if k == 0:
            assert "Move1" not in params and "Move2" not in params
            assert params["Tray"] == position.tray
            names = [n for n in params if n in ("Turn", "Gain1", "Gain2", "Tray")]
            assert names == ["Turn", *(("Gain1", "Gain2") if position.gains else ()), "Tray"]
        else:
            assert f"Move{player.opponent}" in params
        assert game.turns[k + 1].params["Count"] == str(turn)

    last = game.turns[-1]
    assert last.over and game.result is not None and game.result == rules.result(last.state)
    for player in PAIR:
        assert rules.final(last.state, player)["Turn"] == str(first - 1 + len(game.requests))


@pytest.mark.parametrize("name", POSITIONS)
def test_the_first_request_and_page_of_a_position(name: str) -> None:
    position = POSITIONS[name]
    rules = drive.arbitre_rules(position.interface)
    assert starts_from_tray(rules)
    turn = rules.start(1, position.tray)
    assert rules.asked(turn.state) == (position.player,)
    for init_as_board in (False, True):
        request = rules.request(turn.state, position.player, init_as_board=init_as_board)
        assert request.move_id == position.first
        assert request.params["Turn"] == str(position.first)
        assert request.params["Tray"] == position.tray
    page = rules.page(turn, None, asking=False)
    assert "Input" not in page and page["Count"] == str(position.first - 1)


@pytest.mark.parametrize(
    "interface",
    [
        tictactoe.interface,
        bigtictactoe.interface,
        pente.interface,
        reversi.interface,
        connectfour.interface,
        nim,
    ],
    ids=lambda interface: interface.name,
)
def test_init_and_none_are_the_usual_start(interface: SetInterface) -> None:
    rules = drive.arbitre_rules(interface)
    assert starts_from_tray(rules)
    usual = rules.start()
    assert rules.start(1, None) == usual
    assert rules.start(1, "Init").state == usual.state


def test_bigtictactoe_alignments_on_the_board_are_recounted() -> None:
    one = POSITIONS["bigtictactoe-one"]
    state = BIG_RULES.start(1, one.tray).state
    assert (state["gain1"], state["gain2"]) == ("A0E0", "")  # six in a row count once
    two = POSITIONS["bigtictactoe-two"]
    turn = BIG_RULES.start(1, two.tray)
    assert (turn.state["gain1"], turn.state["gain2"]) == ("A0E4F5J9", "A9E9")
    assert (turn.params["Gain1"], turn.params["Gain2"]) == ("A0E4F5J9", "A9E9")
    request = BIG_RULES.request(turn.state, Player.TWO)
    assert (request.params["Gain1"], request.params["Gain2"]) == ("A0E4F5J9", "A9E9")


def test_bigtictactoe_a_run_left_over_joins_a_later_alignment() -> None:
    tray = big(
        dict.fromkeys(["A0", "B0", "C0", "D0", "E0", "F0", "G0"], "1")
        | dict.fromkeys(["A5", "C5", "E5", "G5", "I5", "B7", "D7"], "2")
    )
    turns = drive.turns_from(BIG_RULES, BIG_RULES.start(1, tray), ["H0", "F7", "I0", "H7"])
    assert turns[0].state["gain1"] == turns[-1].state["gain1"] == "A0E0"
    assert BIG_RULES.play(turns[-1].state, "J0").state["gain1"] == "A0E0F0J0"


def test_pente_the_opening_rule_holds_after_a_position() -> None:
    turn = PENTE_RULES.start(1, stones({"JJ": "1", "JK": "2"}))
    assert PENTE_RULES.asked(turn.state) == (Player.ONE,)
    with pytest.raises(IllegalMove, match="5x5"):
        PENTE_RULES.engine_value(turn.state, Player.ONE, "KK")
    assert PENTE_RULES.engine_value(turn.state, Player.ONE, "AA") == "AA"
    assert turn.params["Tray"][read_point("KK") or 0] == FORBIDDEN
    after = PENTE_RULES.play(turn.state, "AA")
    assert PENTE_RULES.engine_value(after.state, Player.TWO, "KK") == "KK"


def test_pente_a_position_has_no_capture_before_it() -> None:
    turn = PENTE_RULES.start(1, POSITIONS["pente-one"].tray)
    assert (turn.state["gain1"], turn.state["gain2"]) == (0, 0)
    assert (turn.params["Gain1"], turn.params["Gain2"]) == ("0", "0")


def test_reversi_who_moves_follows_the_discs_parity() -> None:
    # 5 discs: one move played, white to move even if black could move too.
    turn = REVERSI_RULES.start(1, reversi_after(1))
    assert REVERSI_RULES.asked(turn.state) == (Player.TWO,)
    assert turn.params["Input"] == "Two" and "2" in turn.params["Tray"]  # white's hints


BAD_TRAYS = [
    (tictactoe.interface, "", "9 characters"),
    (tictactoe.interface, "12000000", "9 characters"),
    (tictactoe.interface, "120000003", "9 characters"),
    (tictactoe.interface, "110000000", "2 marks of player one against 0"),
    (tictactoe.interface, "221000000", "1 marks of player one against 2"),
    (tictactoe.interface, "111220200", "already won"),
    (tictactoe.interface, "121121212", "full"),
    (connectfour.interface, "0" * 41, "42 characters"),
    (connectfour.interface, four({"A2": "1"}), "A2 floats"),
    (connectfour.interface, four({"A1": "2"}), "0 discs of player one against 1"),
    (
        connectfour.interface,
        four({**{f"{c}1": "1" for c in "ABCD"}, **{f"{c}2": "2" for c in "ABC"}}),
        "already won",
    ),
    (bigtictactoe.interface, "0" * 99, "100 characters"),
    (bigtictactoe.interface, big({"A0": "3"}), "100 characters"),
    (bigtictactoe.interface, big({"A0": "1", "B0": "1"}), "2 marks of player one against 0"),
    (bigtictactoe.interface, "12" * 50, "full"),
    (pente.interface, "0" * 360, "361 characters"),
    (pente.interface, stones({"AA": "1", "AB": "2"}), "first stone is on JJ"),
    (pente.interface, stones({"JJ": "1", "JK": "2", "KK": "1", "AA": "2"}), "second stone"),
    (pente.interface, stones({"JJ": "2"}), "0 stones of player one against 1"),
    (
        pente.interface,
        stones({"JJ": "1", **{f"{c}A": "1" for c in "ABCDE"}, **{f"{c}S": "2" for c in "ACEGIK"}}),
        "already won",
    ),
    (reversi.interface, "0" * 63, "64 characters"),
    (reversi.interface, discs({"A1": "1"}), "64 characters"),
    (reversi.interface, discs({"D4": "0", "C4": "4"}), "centre cells"),
    (reversi.interface, discs({"A1": "3"}), "A1 is not linked"),
    (reversi.interface, "3" * 64, "neither player can move"),
    (nim, "0", "over"),
    (nim, "13", "1 to 12"),
    (nim, "x", "1 to 12"),
]


@pytest.mark.parametrize(
    ("interface", "tray", "reason"),
    BAD_TRAYS,
    ids=[f"{interface.name}-{k}" for k, (interface, _, _) in enumerate(BAD_TRAYS)],
)
def test_a_bad_start_tray_is_refused(interface: SetInterface, tray: str, reason: str) -> None:
    rules = drive.arbitre_rules(interface)
    assert starts_from_tray(rules)
    with pytest.raises(IllegalMove, match=reason):
        rules.start(1, tray)


class _OldStyle:
    """A third party's rules from before decision 15: ``start(level)`` only."""

    def start(self, level: int = 1) -> Turn:
        raise AssertionError("not called")


@pytest.mark.parametrize(
    "interface",
    [rochambeau.interface, mastermind.interface, seafight.interface, poker.interface],
    ids=lambda interface: interface.name,
)
def test_sets_whose_tray_is_not_the_whole_position_do_not_start_from_one(
    interface: SetInterface,
) -> None:
    assert interface.arbitre is not None
    assert not starts_from_tray(interface.arbitre)


def test_rules_without_the_attribute_or_none_do_not_start_from_a_tray() -> None:
    assert not starts_from_tray(None)
    assert not starts_from_tray(_OldStyle())  # type: ignore[arg-type]


def test_the_contract_is_exported() -> None:
    for name in ("TrayStarts", "starts_from_tray"):
        assert name in plugin.__all__ and name in package.__all__
    assert package.starts_from_tray is plugin.starts_from_tray
