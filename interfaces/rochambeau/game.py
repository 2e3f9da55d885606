"""Rochambeau (ChiFouMi, rock-paper-scissors): hands, scores and the match.

Values ``1`` rock, ``2`` paper, ``3`` scissors; ``Gain1``/``Gain2`` are scores 0..5; each
round is independent, so ``Tray`` is not used. Source: manual chapter V, "ChiFouMi";
spec section 4 (Rochambeau).
"""

from __future__ import annotations

from dataclasses import dataclass

from tournoyons_gui.interfaces.plugin import View
from tournoyons_gui.interfaces.protocol import PAIR, Context, Method, ParamError, Player, read_param

ROCK, PAPER, SCISSORS = "1", "2", "3"
HANDS = (ROCK, PAPER, SCISSORS)
WINNING_SCORE = 5


def beats(a: str, b: str) -> bool:
    """Return whether hand ``a`` beats hand ``b`` (paper covers rock, and so on)."""
    return (int(a) - int(b)) % 3 == 1


def round_winner(hand1: str, hand2: str) -> Player | None:
    """Return the player whose hand wins the round, ``None`` on a tie."""
    if beats(hand1, hand2):
        return Player.ONE
    if beats(hand2, hand1):
        return Player.TWO
    return None


@dataclass(frozen=True)
class Side:
    """One player's side: the hand shown (``None``: none) and the score (``None``: not given).

    ``outcome`` is ``"win"``, ``"lose"`` or ``"tie"`` once both hands are shown, drawn
    ``Wait`` tenths after the hands (the round's impact); ``""`` otherwise.
    """

    player: Player
    hand: str | None
    score: int | None
    outcome: str = ""


@dataclass(frozen=True, kw_only=True)
class RochambeauView(View):
    """Both sides, and the match winner when a score of 5 is shown."""

    sides: tuple[Side, Side]
    winner: Player | None = None


def read_score(value: str | None) -> int | None:
    """Return a score 0..5 from ``Gain``, ``None`` if absent; raise ``ValueError`` if unreadable."""
    if value is None:
        return None
    if value.isascii() and value.isdigit() and int(value) <= WINNING_SCORE:
        return int(value)
    raise ValueError(value)


def build(ctx: Context) -> RochambeauView:
    """Build the page's view model; never raises.

    A Move that is not ``1``/``2``/``3`` is not drawn (error ``move1``/``move2``); a Gain
    that is not a score 0..5 is not shown (error ``gain1``/``gain2``). ``Tray`` is ignored.
    """
    errors: list[ParamError] = []
    hands: dict[Player, str | None] = {}
    scores: dict[Player, int | None] = {}
    for side in PAIR:
        move = ctx.move(side)
        hands[side] = move if move in HANDS else None
        if move is not None and move not in HANDS:
            errors.append(ParamError(f"move{side}", "Move is 1 rock, 2 paper or 3 scissors"))
        scores[side] = read_param(
            read_score, ctx.gain(side), f"gain{side}", errors, "Gain is a score 0-5"
        )

    hand1, hand2 = hands[Player.ONE], hands[Player.TWO]
    outcome = {Player.ONE: "", Player.TWO: ""}
    if hand1 and hand2:
        won = round_winner(hand1, hand2)
        for side in PAIR:
            outcome[side] = "tie" if won is None else ("win" if won is side else "lose")

    winner = next((p for p in PAIR if scores[p] == WINNING_SCORE), None)
    player: Player | None = ctx.input
    if player is None and ctx.webtest and ctx.method is Method.STANDARD and winner is None:
        # Between rounds both choose; the play control asks player one, then two.
        player = Player.TWO if hand1 and not hand2 else Player.ONE
    playable = HANDS if player and ctx.method is Method.STANDARD and winner is None else ()
    return RochambeauView(
        tray="",
        player=player if playable else None,
        playable=playable,
        errors=tuple(errors),
        sound="win" if winner else ("move" if hand1 or hand2 else None),
        sides=(
            Side(Player.ONE, hand1, scores[Player.ONE], outcome[Player.ONE]),
            Side(Player.TWO, hand2, scores[Player.TWO], outcome[Player.TWO]),
        ),
        winner=winner,
    )
