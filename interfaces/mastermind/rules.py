"""MasterMind rules, as the Arbitre applies them, for the tester's hot-seat games.

1. Each player prepares a secret code: ``Method=Prepare`` with ``Input=One``, then ``Two``;
   the value is the code, 4 colours ``A``..``H``.
2. They alternate guesses at the other's code, player one first; a guess is a
   ``ValeurLigne`` whose marks the Arbitre computes (a person returns ``00`` + the 4
   colours, spec section 4). The line goes on the opponent's board with its marks.
3. The first to find wins; when player one finds on line n, player two still plays line n
   and a find there is a draw; neither found after 8 lines each is a draw.

The pages follow the Arbitre's ways: ``Move1``/``Move2`` are not sent ("sans objet"); only
the code of the player asked is sent (``Gain1`` or ``Gain2``) until ``Method=End``, when
both are, so a hot-seat page never shows a person the opponent's code.
Source: manual chapter V, "Mastermind"; issue 4.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from interfaces.mastermind.board import (
    GUESS_MARKS,
    Line,
    outcome,
    player_to_move,
    read_code,
    read_line,
    score,
    write_tray,
)
from interfaces.plugin import IllegalMove, Turn
from interfaces.protocol import Player

_INPUT = {Player.ONE: "One", Player.TWO: "Two"}
_CODE = re.compile(r"[A-H]{4}")
_GUESS = re.compile(r"[0-9]{2}[A-H]{4}")


def _code(state: Mapping[str, Any], player: Player) -> str | None:
    raw = state.get(f"code{player}")
    if raw is None:
        return None
    try:
        return read_code(str(raw))
    except ValueError:
        raise IllegalMove("the game's codes are corrupt") from None


def _board(state: Mapping[str, Any], owner: Player) -> tuple[Line, ...]:
    raw = state.get(f"board{owner}", [])
    if not isinstance(raw, list):
        raise IllegalMove("the game's boards are corrupt")
    try:
        return tuple(read_line(str(value)) for value in raw)
    except ValueError:
        raise IllegalMove("the game's boards are corrupt") from None


class MasterMindRules:
    """The game: ``state`` is ``{"code1", "code2", "board1", "board2", "count"}``.

    ``code1``/``code2`` are the secret codes (``None`` until prepared); ``board1`` the lines
    (``ValeurLigne`` strings) player two played on player one's board, ``board2`` player
    one's lines; ``count`` the values played, codes included.
    """

    def new_game(self) -> Turn:
        """Return the first step: player one prepares a code."""
        return Turn(
            state={"code1": None, "code2": None, "board1": [], "board2": [], "count": 0},
            params={"Method": "Prepare", "Input": "One", "Tray": "Init", "Count": "0"},
        )

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Record a code while preparing, else a guess at the opponent's code."""
        codes = {player: _code(state, player) for player in Player}
        boards = {owner: _board(state, owner) for owner in Player}
        count = int(state.get("count", 0)) + 1
        for player in Player:
            if codes[player] is None:
                if not _CODE.fullmatch(value):
                    raise IllegalMove(f"{value!r} is not a code of 4 colours A-H")
                new = {**state, f"code{player}": value, "count": count}
                if player is Player.ONE:
                    params = {"Method": "Prepare", "Input": "Two", "Tray": "Init"}
                else:
                    params = {"Method": "Standard", "Input": "One", "Tray": write_tray((), ()),
                              "Gain1": str(codes[Player.ONE])}
                return Turn(state=new, params={**params, "Count": str(count)})

        board1, board2 = boards[Player.ONE], boards[Player.TWO]
        if outcome(board1, board2)[0]:
            raise IllegalMove("the game is over")
        if not _GUESS.fullmatch(value):
            raise IllegalMove(f"{value!r} is not {GUESS_MARKS} and 4 colours A-H")
        mover = player_to_move(board1, board2)
        target = mover.opponent
        well, misplaced = score(str(codes[target]), value[2:])
        boards[target] = (*boards[target], Line(well, misplaced, value[2:]))
        board1, board2 = boards[Player.ONE], boards[Player.TWO]
        new = {
            **state,
            "board1": [line.value for line in board1],
            "board2": [line.value for line in board2],
            "count": count,
        }
        params = {"Tray": write_tray(board1, board2), "Count": str(count)}
        over, _ = outcome(board1, board2)
        if over:
            params.update(Method="End", Gain1=str(codes[Player.ONE]),
                          Gain2=str(codes[Player.TWO]))
            return Turn(state=new, params=params, over=True)
        following = player_to_move(board1, board2)
        params.update(Method="Standard", Input=_INPUT[following],
                      **{f"Gain{following}": str(codes[following])})
        return Turn(state=new, params=params)
