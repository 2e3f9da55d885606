"""Rochambeau rules for the tester's hot-seat match: first to 5 points wins.

Each round player one chooses, then player two (who is not shown player one's hand), then
both hands are shown and the winner of the round scores a point; a tie scores nothing.
Source: manual chapter V, "ChiFouMi"; annex A (the Arbitre's engine example).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interfaces.plugin import IllegalMove, Turn
from interfaces.protocol import Player
from interfaces.rochambeau.game import HANDS, WINNING_SCORE, round_winner


class RochambeauRules:
    """The match: ``state`` is ``{"score1", "score2", "rounds", "pending"}``.

    ``pending`` is player one's hand for the round under way, kept from player two.
    """

    def new_game(self) -> Turn:
        """Return the first round, player one to choose."""
        return Turn(
            state={"score1": 0, "score2": 0, "rounds": 0, "pending": None},
            params={"Input": "One", "Gain1": "0", "Gain2": "0", "Count": "0"},
        )

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Record player one's hand, or resolve the round with player two's."""
        if value not in HANDS:
            raise IllegalMove(f"{value!r} is not 1 rock, 2 paper or 3 scissors")
        score = {Player.ONE: int(state.get("score1", 0)), Player.TWO: int(state.get("score2", 0))}
        if max(score.values()) >= WINNING_SCORE:
            raise IllegalMove("the match is over")
        rounds = int(state.get("rounds", 0))
        pending = state.get("pending")
        gains = {"Gain1": str(score[Player.ONE]), "Gain2": str(score[Player.TWO])}
        if pending is None:
            new_state = {**state, "pending": value}
            return Turn(state=new_state, params={"Input": "Two", **gains, "Count": str(rounds)})

        winner = round_winner(str(pending), value)
        if winner is not None:
            score[winner] += 1
        rounds += 1
        new_state = {"score1": score[Player.ONE], "score2": score[Player.TWO],
                     "rounds": rounds, "pending": None}
        params = {"Move1": str(pending), "Move2": value,
                  "Gain1": str(score[Player.ONE]), "Gain2": str(score[Player.TWO]),
                  "Count": str(rounds)}
        if max(score.values()) >= WINNING_SCORE:
            params["Method"] = "End"
            return Turn(state=new_state, params=params, over=True)
        params["Input"] = "One"
        return Turn(state=new_state, params=params)
