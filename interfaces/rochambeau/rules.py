"""Rochambeau rules: the tester's hot-seat match and the engines' view of it.

Each round player one chooses, then player two (who is not shown player one's hand), then
both hands are shown and the winner of the round scores a point; a tie scores nothing. The
first to 5 points wins; after 99 rounds the higher score wins, equal scores draw.

For the Arbitre a round is simultaneous (decision 16): both players are asked at once from
the same state, then their hands are applied with :meth:`RochambeauRules.play` in player
order, one then two, which is exactly the hot-seat sequence (player one's hand is kept
``pending`` until player two's). Engines get no ``Tray``: round *r* asks player one with
``Turn=MoveId=2r-1`` and player two with ``2r``, each with the opponent's hand of round
*r*-1 and, from round 2, the scores before the round in ``Gain1``/``Gain2``.
Source: manual chapter V, "ChiFouMi"; annex A; engine protocol section 4, Rochambeau.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournoyons_gui.interfaces.plugin import EngineRequest, IllegalMove, RefereeCall, Result, Turn
from tournoyons_gui.interfaces.protocol import PAIR, PageParams, Player
from tournoyons_gui.interfaces.referee import referee_number
from tournoyons_gui.interfaces.rochambeau.game import HANDS, WINNING_SCORE, round_winner

#: Rounds after which the match ends on the scores (decision 16).
MAX_ROUNDS = 99


def _scores(state: Mapping[str, Any]) -> dict[Player, int]:
    try:
        return {player: int(state.get(f"score{player}", 0)) for player in PAIR}
    except (TypeError, ValueError):
        raise IllegalMove("the match's scores are corrupt") from None


def _rounds(state: Mapping[str, Any]) -> int:
    try:
        return int(state.get("rounds", 0))
    except (TypeError, ValueError):
        raise IllegalMove("the match's round count is corrupt") from None


def _is_over(score: Mapping[Player, int], rounds: int) -> bool:
    return max(score.values()) >= WINNING_SCORE or rounds >= MAX_ROUNDS


class RochambeauRules:
    """The match: ``state`` is ``{"score1", "score2", "rounds", "pending", "hand1",
    "hand2"}``.

    ``rounds`` counts the rounds played; ``pending`` is player one's hand for the round
    under way, kept from player two (``None`` between rounds); ``hand1``/``hand2`` are the
    hands of the last round played (absent before the first), which engines receive as the
    opponent's move.
    """

    engine_set = "Rochambeau"
    levels: tuple[int, ...] = (1,)

    def new_game(self) -> Turn:
        """Return the first round, player one to choose."""
        return Turn(
            state={"score1": 0, "score2": 0, "rounds": 0, "pending": None},
            params=PageParams().input(Player.ONE).gains(0, 0).count(0).params,
        )

    def start(self, level: int = 1) -> Turn:
        """Return the first round of a match for the Arbitre (one level only)."""
        return self.new_game()

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Record player one's hand, or resolve the round with player two's.

        Params: ``Input``, ``Gain1``/``Gain2``, ``Count`` (rounds played) while player one's
        hand is pending; after the round, ``Move1``/``Move2`` (both hands), the scores,
        ``Count``, and ``Input=One`` or ``Method=End``.
        """
        if value not in HANDS:
            raise IllegalMove(f"{value!r} is not 1 rock, 2 paper or 3 scissors")
        score = _scores(state)
        rounds = _rounds(state)
        if _is_over(score, rounds):
            raise IllegalMove("the match is over")
        pending = state.get("pending")
        if pending is None:
            new_state = {**state, "pending": value}
            page = (
                PageParams()
                .input(Player.TWO)
                .gains(score[Player.ONE], score[Player.TWO])
                .count(rounds)
            )
            return Turn(state=new_state, params=page.params)
        if pending not in HANDS:
            raise IllegalMove("the match's pending hand is corrupt")

        winner = round_winner(str(pending), value)
        if winner is not None:
            score[winner] += 1
        rounds += 1
        new_state = {
            "score1": score[Player.ONE],
            "score2": score[Player.TWO],
            "rounds": rounds,
            "pending": None,
            "hand1": str(pending),
            "hand2": value,
        }
        over = _is_over(score, rounds)
        page = (
            PageParams()
            .move(Player.ONE, str(pending))
            .move(Player.TWO, value)
            .gains(score[Player.ONE], score[Player.TWO])
            .count(rounds)
            .ask(None if over else Player.ONE)
        )
        return Turn(state=new_state, params=page.params, over=over)

    # --- the Arbitre's part (engine protocol section 4, Rochambeau; decision 16) ----------

    def asked(self, state: Mapping[str, Any]) -> tuple[Player, ...]:
        """Return both players between rounds (a simultaneous step), player two alone while
        player one's hand is pending, nobody once the match is over."""
        if self.result(state) is not None:
            return ()
        if state.get("pending") is not None:
            return (Player.TWO,)
        return (Player.ONE, Player.TWO)

    def request(
        self, state: Mapping[str, Any], player: Player, *, init_as_board: bool = False
    ) -> EngineRequest:
        """Return ``Turn`` (``2r-1`` for player one, ``2r`` for player two in round *r*),
        from round 2 the scores before the round ``Gain1``/``Gain2`` and the opponent's
        hand of the previous round (``Move2`` to player one, ``Move1`` to player two); no
        ``Tray``. ``init_as_board`` does not apply (there is no board)."""
        round_number = _rounds(state) + 1
        turn = 2 * round_number - 1 if player is Player.ONE else 2 * round_number
        params = {"Turn": str(turn)}
        if round_number > 1:
            score = _scores(state)
            params.update(Gain1=str(score[Player.ONE]), Gain2=str(score[Player.TWO]))
        params.update(self._last_hand(state, player))
        return EngineRequest(move_id=turn, params=params)

    def result(self, state: Mapping[str, Any]) -> Result | None:
        """Return the first to 5 points, or after 99 rounds the higher score (equal: a
        draw), else ``None``."""
        score = _scores(state)
        rounds = _rounds(state)
        if not _is_over(score, rounds):
            return None
        one, two = score[Player.ONE], score[Player.TWO]
        if max(one, two) >= WINNING_SCORE:
            return Result(Player.ONE if one > two else Player.TWO, f"first to 5 ({one}-{two})")
        if one == two:
            return Result(None, f"equal scores after {rounds} rounds ({one}-{two})")
        return Result(
            Player.ONE if one > two else Player.TWO,
            f"higher score after {rounds} rounds ({one}-{two})",
        )

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return ``value`` when it is a hand ``1`` rock, ``2`` paper or ``3`` scissors and
        ``player`` is asked now."""
        if self.result(state) is not None:
            raise IllegalMove("the match is over")
        if player not in self.asked(state):
            raise IllegalMove(f"player {int(player)} is not asked for a hand now")
        if value not in HANDS:
            raise IllegalMove(f"{value!r} is not 1 rock, 2 paper or 3 scissors")
        return value

    #: A person's hand is checked as an engine's.
    person_value = engine_value

    def final(self, state: Mapping[str, Any], player: Player) -> Mapping[str, str]:
        """Return ``Turn`` (the hands played: twice the rounds), the final scores
        ``Gain1``/``Gain2`` and the opponent's hand of the last round; no ``Tray``."""
        score = _scores(state)
        return {
            "Turn": str(2 * _rounds(state)),
            "Gain1": str(score[Player.ONE]),
            "Gain2": str(score[Player.TWO]),
            **self._last_hand(state, player),
        }

    def page(
        self, turn: Turn, viewer: Player | None, *, asking: bool, reveal: bool = False
    ) -> Mapping[str, str]:
        """Return the hot-seat page's parameters without ``Input``: the last round's hands
        ``Move1``/``Move2``, the scores, ``Count``, ``Method=End`` at the end. A hand still
        pending (player one's, while player two chooses) is shown to player one only, or
        with ``reveal``; never to player two or to spectators."""
        page = PageParams.shown(turn.params)
        pending = turn.state.get("pending")
        if pending in HANDS and (viewer is Player.ONE or reveal):
            page = PageParams().move(Player.ONE, str(pending)).extend(page)
        return page.params

    @staticmethod
    def _last_hand(state: Mapping[str, Any], player: Player) -> dict[str, str]:
        opponent = player.opponent
        hand = state.get(f"hand{opponent}")
        return {f"Move{opponent}": str(hand)} if hand in HANDS else {}

    # --- the chapter VI referee (engine protocol section 6) --------------------------------

    def referee_position(self, call: RefereeCall) -> Mapping[str, Any]:
        """Read the rounds played from the Tray and the scores from ``Gain1``/``Gain2``.

        Engines get no Tray (engine protocol section 4, Rochambeau), so the referee Tray is
        ours: the number of rounds played, decimal ``0``..``99`` (``Init`` or empty: 0),
        which the 99-round cap needs and the scores cannot tell (a tie scores nothing).
        ``Gain1``/``Gain2`` are the scores ``0``..``5`` (empty: 0). Each call is one
        round, a simultaneous step: both hands, ``Move1`` and ``Move2``. ``MoveId`` is not
        read. Raise :class:`IllegalMove` when the Tray or a score cannot be read."""
        tray = "0" if call.tray.lower() in ("", "init") else call.tray
        rounds = referee_number(tray, "the Tray (rounds played)", MAX_ROUNDS)
        one = referee_number(call.gain1, "Gain1 (player one's score)", WINNING_SCORE)
        two = referee_number(call.gain2, "Gain2 (player two's score)", WINNING_SCORE)
        if one + two > rounds:
            raise IllegalMove(f"scores {one} and {two} in {rounds} rounds")
        if one == two == WINNING_SCORE:
            raise IllegalMove("both players have won")
        return {"score1": one, "score2": two, "rounds": rounds, "pending": None}

    def referee_tray(self, state: Mapping[str, Any]) -> tuple[str, str, str]:
        """Return the rounds played (the Tray) and the scores (``Gain1``/``Gain2``)."""
        score = _scores(state)
        return str(_rounds(state)), str(score[Player.ONE]), str(score[Player.TWO])


#: The rules the Set plays by (found by :class:`SetInterface`'s convention).
RULES = RochambeauRules()
