"""Poker: reading ``Tray``, ``Move1``/``Move2`` and ``Gain1``/``Gain2`` into the table drawn.

The table shows both players' hole cards (backs when hidden), the board (0, 3, 4 or 5
cards: the step is read from the cards shown), each player's total bet and the pot, the
dealer button, the deals completed, and at step 9 the verdict. ``Move1``/``Move2`` (the
total just bet) fly as chips into the pot ``Wait`` tenths after the page is shown.

Sources: manual 002 chapter V "Poker", manual 000 (the ace written ``1``; level 2); spec
section 4 (Poker) and section 6 (``[data-card]``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tournoyons_gui.interfaces.plugin import View
from tournoyons_gui.interfaces.poker.tray import (
    DEALS_TO_PLAY,
    HIDDEN,
    MAX_BET,
    SHOWDOWN,
    Tray,
    TrayError,
    Verdict,
    bet_range,
    legal_values,
    parse_tray,
    verdict,
)
from tournoyons_gui.interfaces.protocol import PAIR, Context, Method, ParamError, Player, read_param

__all__ = ["BOARD_SLOTS", "CardView", "PokerView", "Seat", "build", "read_gain", "read_move"]

BOARD_SLOTS = 5
_GAIN = re.compile(r"[+-]?\d{1,6}")
_MOVE = re.compile(r"-1|\d{1,3}")
_SHOWN_VALUE = {"A": "A", "1": "A", "T": "10"}


@dataclass(frozen=True)
class CardView:
    """A card as drawn: ``code`` as in the Tray (``"??"`` hidden), suit and value to draw.

    ``value`` is the index printed in the corner (``A``, ``K`` ... ``10`` ... ``2``);
    ``best`` marks a card of the winning five at the showdown.
    """

    code: str
    best: bool = False

    @property
    def hidden(self) -> bool:
        """Return whether the card is face down."""
        return self.code == HIDDEN

    @property
    def suit(self) -> str:
        """Return ``S``, ``C``, ``H``, ``D``, or ``""`` when hidden."""
        return "" if self.hidden else self.code[0]

    @property
    def value(self) -> str:
        """Return the index drawn on the card (``A`` for ``1`` or ``A``, ``10`` for ``T``)."""
        if self.hidden:
            return ""
        return _SHOWN_VALUE.get(self.code[1], self.code[1])

    @property
    def red(self) -> bool:
        """Return whether the suit is red (hearts, diamonds)."""
        return self.suit in ("H", "D")


@dataclass(frozen=True)
class Seat:
    """One player's place at the table.

    - ``cards``: the two hole cards (empty when no Tray is shown);
    - ``total``: the player's total bet on the deal (``None``: unknown);
    - ``dealer``: the dealer button is theirs; ``turn``: they are to bet at this step;
    - ``folded``: their total is 0 (manual NB2);
    - ``outcome``: at the showdown ``"win"``, ``"lose"`` or ``"split"``, else ``""``;
    - ``move``: the total they just bet (``Move1``/``Move2``), flying to the pot;
      ``moved``: their Move is shown (a bet, or a fold: ``0`` or ``-1``);
    - ``gain``: their cumulated winnings (``Gain1``/``Gain2``), ``None`` when not given;
    - ``label``: their best hand's category at the showdown (pokerkit's words, for
      ``aria-label`` only).
    """

    player: Player
    cards: tuple[CardView, ...] = ()
    total: int | None = None
    dealer: bool = False
    turn: bool = False
    folded: bool = False
    outcome: str = ""
    move: int | None = None
    moved: bool = False
    gain: int | None = None
    label: str = ""

    @property
    def gain_text(self) -> str:
        """Return the gain signed (``+12``, ``-12``, ``0``), ``""`` when not given."""
        if self.gain is None:
            return ""
        return f"{self.gain:+d}" if self.gain else "0"


@dataclass(frozen=True, kw_only=True)
class PokerView(View):
    """The table as drawn, and the betting controls' limits.

    - ``deal`` (``None`` when no Tray is drawn), ``completed``, ``step`` (0: none);
    - ``seats``: player one's then player two's; ``board``: the community cards shown;
    - ``pot``: both totals; ``verdict``: the showdown's outcome at step 9, when known;
    - ``low``/``high``: the lowest and highest total the person may bet (``None``: no bet);
      ``call``: the opponent's total when answering, else ``None``; ``raise_low``: the
      lowest total the raise slider offers (``None``: no raise possible);
      ``acknowledge``: step 9, a single control returns ``0``;
    - ``winner``: at ``Method=End``, the player with the higher gain.
    """

    deal: int | None = None
    completed: int = 0
    step: int = 0
    seats: tuple[Seat, Seat]
    board: tuple[CardView, ...] = ()
    pot: int | None = None
    verdict: Verdict | None = None
    low: int | None = None
    high: int | None = None
    call: int | None = None
    raise_low: int | None = None
    acknowledge: bool = False
    winner: Player | None = None

    @property
    def pips(self) -> tuple[str, ...]:
        """Return the 12 marks of the deals to complete: ``"done"``, ``"now"`` or ``""``.

        ``"now"`` is the deal just completed by a showdown (step 9, nobody folded), which
        the Tray does not count yet.
        """
        now = (
            self.step == SHOWDOWN
            and self.pot is not None
            and all(not seat.folded for seat in self.seats)
        )
        return tuple(
            "done" if i < self.completed else ("now" if now and i == self.completed else "")
            for i in range(DEALS_TO_PLAY)
        )

    @property
    def empty_slots(self) -> int:
        """Return the number of board places not dealt yet."""
        return BOARD_SLOTS - len(self.board)


def read_gain(value: str | None) -> int | None:
    """Return a signed whole number of chips from ``Gain``, ``None`` if absent.

    Level 1 sends cumulated winnings (``-12``), level 2 each player's capital (``200``);
    both read the same. Raise ``ValueError`` when it is not a whole number.
    """
    if value is None:
        return None
    if _GAIN.fullmatch(value):
        return int(value)
    raise ValueError(value)


def read_move(value: str | None) -> int | None:
    """Return a ``Move``: a total 1..100, ``0`` (an engine's fold) or ``-1`` (a person's).

    ``None`` if absent; raise ``ValueError`` when it is none of these.
    """
    if value is None:
        return None
    if _MOVE.fullmatch(value) and int(value) <= MAX_BET:
        return int(value)
    raise ValueError(value)


def _read_tray(ctx: Context, errors: list[ParamError]) -> tuple[Tray | None, bool]:
    """Return the Tray (``None``: nothing to draw) and whether it is consistent."""
    if ctx.tray is None or ctx.tray_is_init:
        return None, False
    try:
        tray = parse_tray(ctx.tray)
    except TrayError as error:
        errors.append(ParamError("tray", str(error)))
        return None, False
    problems = tray.problems()
    if problems:
        errors.append(ParamError("tray", "; ".join(problems)))
    return tray, not problems


def _seat(
    tray: Tray | None,
    player: Player,
    outcome: Verdict | None,
    move: int | None,
    gain: int | None,
) -> Seat:
    if tray is None:
        return Seat(player=player, gain=gain)
    result = label = ""
    marked: tuple[int, ...] = ()
    if outcome is not None:
        label = outcome.label[player - 1]
        if outcome.winner is None:
            result = "split"
        elif outcome.winner is player:
            result, marked = "win", outcome.best[player - 1]
        else:
            result = "lose"
    return Seat(
        player=player,
        cards=tuple(CardView(code, best=i in marked) for i, code in enumerate(tray.hand(player))),
        total=tray.total(player),
        dealer=tray.dealer is player,
        turn=tray.bettor is player,
        folded=tray.total(player) == 0,
        outcome=result,
        move=move if move is not None and move > 0 else None,
        moved=move is not None,
        gain=gain,
        label=label,
    )


def build(ctx: Context) -> PokerView:
    """Build the page's view model from the Context; never raises.

    An unreadable ``Tray`` draws an empty table with nothing playable (error ``tray``); a
    readable one whose parts contradict each other is drawn, with the error and no input.
    ``Move``/``Gain`` values that are not numbers are not shown (``move1``, ``gain2`` ...).
    Input (``Input``, or under ``WebTest`` the player to bet) is given only to the player
    the step names; at step 9 either player acknowledges.
    """
    errors: list[ParamError] = []
    tray, consistent = _read_tray(ctx, errors)

    moves: dict[Player, int | None] = {}
    gains: dict[Player, int | None] = {}
    for side in PAIR:
        moves[side] = read_param(
            read_move, ctx.move(side), f"move{side}", errors, "Move is a total 1-100, 0 or -1"
        )
        gains[side] = read_param(
            read_gain, ctx.gain(side), f"gain{side}", errors, "Gain is a whole number of chips"
        )
    if tray is None:
        moves = {Player.ONE: None, Player.TWO: None}

    outcome = verdict(tray) if tray is not None and consistent else None
    marked = outcome.best[outcome.winner - 1] if outcome and outcome.winner else ()
    board = tuple(
        CardView(code, best=i + 2 in marked) for i, code in enumerate(tray.board if tray else ())
    )
    seats = (
        _seat(tray, Player.ONE, outcome, moves[Player.ONE], gains[Player.ONE]),
        _seat(tray, Player.TWO, outcome, moves[Player.TWO], gains[Player.TWO]),
    )

    player: Player | None = ctx.input
    playing = ctx.method is Method.STANDARD and tray is not None and consistent
    if tray is not None and player is None and ctx.webtest and playing:
        player = tray.bettor or Player.ONE
    playable: tuple[str, ...] = ()
    if tray is not None and playing and player is not None:
        if tray.step == SHOWDOWN or tray.bettor is player:
            playable = legal_values(tray)
        elif ctx.input is not None:
            errors.append(ParamError("input", f"step {tray.step} asks the other player"))

    low = high = call = raise_low = None
    limits = bet_range(tray) if tray is not None and playable else None
    if tray is not None and limits is not None and player is not None:
        low, high = limits
        if tray.answering and low == tray.total(player.opponent):
            call = low
            raise_low = low + 1 if low < high else None
        else:
            raise_low = low

    game_winner: Player | None = None
    gain1, gain2 = gains[Player.ONE], gains[Player.TWO]
    if ctx.method is Method.END and gain1 is not None and gain2 is not None and gain1 != gain2:
        game_winner = Player.ONE if gain1 > gain2 else Player.TWO

    moved = any(seat.moved for seat in seats)
    won = game_winner is not None or (outcome is not None and outcome.winner is not None)
    return PokerView(
        tray=tray.text() if tray else "",
        player=player if playable else None,
        playable=playable,
        errors=tuple(errors),
        sound="win" if won else ("move" if moved else None),
        deal=tray.deal if tray else None,
        completed=tray.completed if tray else 0,
        step=tray.step if tray else 0,
        seats=seats,
        board=board,
        pot=tray.pot if tray else None,
        verdict=outcome,
        low=low,
        high=high,
        call=call,
        raise_low=raise_low,
        acknowledge=playable == ("0",),
        winner=game_winner,
    )
