"""Poker rules (heads-up hold'em, level 1), as the Arbitre applies them, for the tester.

A game is deals of rank 1, 2, 3 ... (odd: player one deals). Each deal: blinds (the dealer 1
chip, the other 2); two hole cards each; step 1 the dealer bets, step 2 the other answers;
the flop (3 cards); steps 3 and 4 (the other player opens); the turn (4th card); steps 5
and 6; the river (5th card); steps 7 and 8; step 9 the showdown and verdict. A raise sends
the round back to the other player's step, with the ``?`` on them; a call ends the round; a
fold (``-1``, or an engine's ``0``) ends the deal and gives the pot to the other player.
At the showdown pokerkit ranks both hands (equal hands split the pot). The game ends when 12
deals are completed (not folded), or after deal 99 (``Method=End``). ``Gain1``/``Gain2``
are the cumulated winnings, updated at each verdict. Source: manual 002 chapter V "Poker";
spec section 4 (Poker).

**Decisions.** Cards come from a fresh shuffled deck for each deal (seeded per game, so a
game replays); when both totals reach the cap of 100 no bet is possible any more, so the
remaining board cards are dealt and the deal goes straight to the showdown. The page of
step 9 asks one player to acknowledge (the other one than the player who acted last); it
shows both hands after a showdown, neither after a fold (manual 000, NB2). Each page hides
the other player's hole cards from the player asked.

**The Arbitre's games** (:meth:`PokerRules.start`, engine protocol section 4 "Poker",
decisions 19 and 24) follow the June manual where the tester's hot-seat game follows
February's: any total at least the opponent's is legal (the dealer may call the big blind
at step 1, a round may be opened with a check), a raise being by at least 1 chip (level 2:
the small blind); both players acknowledge step 9 (two values, player one's then player
two's); each deal's cards are a cryptographic draw, unless the game has a seed
(:meth:`PokerRules.start`'s ``seed``: deal ``n``'s cards then follow from the seed and
``n``, so two games of one seed are dealt alike, a duplicate deal). Level 2: capitals of 200 in
``Gain1``/``Gain2``, small blind 1 plus 2 every 8 deals, big blind double, totals at most 100
and the smaller capital; the game ends when a capital is below the next big blind, after 15
completed deals or after deal 99.
"""

from __future__ import annotations

import functools
import operator
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tournoyons_gui.interfaces.memo import Memo
from tournoyons_gui.interfaces.plugin import EngineRequest, IllegalMove, RefereeCall, Result, Turn
from tournoyons_gui.interfaces.poker.tray import (
    BIG_BLIND,
    DEALS_TO_PLAY,
    FOLD,
    HIDDEN,
    MAX_BET,
    MAX_DEALS,
    SHOWDOWN,
    SMALL_BLIND,
    SUITS,
    VALUES,
    Tray,
    TrayError,
    board_size,
    hand_strength,
    legal_values,
    load_pokerkit,
    parse_tray,
)
from tournoyons_gui.interfaces.protocol import PAIR, Method, PageParams, Player

__all__ = ["DECK", "RULES", "PokerRules", "blinds"]

# The 52 cards, the ace written 1 as in the Arbitre's real Trays (manual 000).
DECK = tuple(suit + value for suit in SUITS for value in "1KQJT98765432")
CAPITAL = 200  # each player's capital at the start of a level-2 game
DEALS_TO_PLAY_2 = 15  # completed deals in a level-2 game
_TOTAL = re.compile(r"0|[1-9][0-9]{0,5}")
_GAIN = re.compile(r"[+-]?[0-9]{1,6}")
_rng = random.SystemRandom()


def blinds(level: int, deal: int) -> tuple[int, int]:
    """Return the small (dealer's) and big blinds of deal ``deal`` at rule ``level``.

    Level 1: 1 and 2. Level 2: the small blind is 1 plus 2 every 8 deals (1 for deals 1-8,
    3 for 9-16 ...), the big blind its double (engine protocol section 4, Poker).
    """
    if level == 1:
        return SMALL_BLIND, BIG_BLIND
    small = SMALL_BLIND + 2 * ((deal - 1) // 8)
    return small, 2 * small


def _cards(value: Any) -> tuple[str, ...]:
    """Return nine cards (4 hole, 5 board) from ``value``; raise :class:`IllegalMove`.

    Nine strings are read once and kept (by their text, a bounded cache): the rules read
    the deal's cards at each call."""
    if type(value) is list and len(value) == 9 and all(type(card) is str for card in value):
        return _nine_cards(tuple(value))  # the state as written: nine strings
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 9:
        raise IllegalMove("the deal's cards are 9 cards: 4 hole cards then 5 board cards")
    return _nine_cards(tuple(str(card) for card in value))


@functools.lru_cache(maxsize=1024)
def _nine_cards(value: tuple[str, ...]) -> tuple[str, ...]:
    """Return the nine cards written ``value``, upper case: :func:`_cards`."""
    cards = tuple(card.upper() for card in value)
    if any(len(card) != 2 or card[0] not in SUITS or card[1] not in VALUES for card in cards):
        raise IllegalMove(f"the deal's cards are not cards: {cards}")
    return cards


def deal_cards(seed: int, deal: int) -> tuple[str, ...]:
    """Return the nine cards of deal ``deal`` of the game ``seed``: a fresh deck, shuffled."""
    return tuple(random.Random(f"poker-{seed}-{deal}").sample(DECK, 9))


def _changed(game: Game, **changes: Any) -> Game:
    """Return ``game`` with ``changes`` (fields of :class:`Game`): what
    :func:`dataclasses.replace` does, without running ``__init__`` again (a Game has no
    ``__post_init__``), as the rules make a few new games per move."""
    new = object.__new__(Game)
    new.__dict__.update(game.__dict__, **changes)
    return new


#: The fields of a state (:meth:`Game.state`) that are whole numbers.
_WHOLE = ("seed", "deal", "completed", "step", "waiting", "count", "shown", "last", "level", "acks")
_WHOLE_OF = operator.itemgetter(*_WHOLE)
#: A state's values (:func:`_state_key`): the whole numbers of :data:`_WHOLE` in order,
#: ``arbitre``, the nine cards, ``totals``, ``gains``, ``bets``.
_StateKey = tuple[Any, ...]


def _state_key(state: Mapping[str, Any]) -> _StateKey | None:
    """Return the values of ``state`` as :meth:`Game.read` reads them: the whole numbers
    through ``int`` (so that values a key finds equal, ``1`` and ``1.0``, read the same),
    the lists of :meth:`Game.state` as tuples, the bets as written (``str``); ``None`` for
    a state with scripted decks, bets not strings, or not the shape of a game's state."""
    try:
        cards, totals, gains, bets = state["cards"], state["totals"], state["gains"], state["bets"]
        if (
            state["decks"] != []
            or type(cards) is not list
            or type(totals) is not list
            or type(gains) is not list
            or type(bets) is not list
            or len(bets) != 2
            or type(bets[0]) is not str
            or type(bets[1]) is not str
        ):
            return None
        whole = _WHOLE_OF(state)
    except KeyError:
        return None
    return (
        *whole,
        state["arbitre"],
        tuple(cards),
        tuple(totals),
        tuple(gains),
        tuple(bets),
        state.get("seeded") is True,
    )


def _game_key(game: Game) -> _StateKey | None:
    """Return :func:`_state_key` of ``game.state()``, from the game's own values."""
    if game.decks:
        return None
    return (
        game.seed,
        game.deal,
        game.completed,
        game.step,
        int(game.waiting) if game.waiting else 0,
        game.count,
        game.shown,
        int(game.last) if game.last else 0,
        game.level,
        game.acks,
        game.arbitre,
        game.cards,
        game.totals,
        game.gains,
        game.bets,
        game.seeded,
    )


#: The games read last, by their state's values (:func:`_state_key`), and those the
#: rules made, by the values of the state of the Turn they return (a bounded memo).
_GAMES: Memo[_StateKey, Game] = Memo(256)


@dataclass(frozen=True)
class Game:
    """The whole game between two moves (the tester keeps it as ``Turn.state``).

    - ``seed``: draws each deal's cards; ``decks``: cards scripted for the next deals
      (tests), used before the seed's;
    - ``deal``, ``completed``, ``step``, ``totals``, ``waiting``: as in the Tray;
    - ``cards``: the deal's nine cards (player one's two, player two's two, the board's
      five), whether shown yet or not; ``shown``: board cards shown at step 9;
    - ``gains``: cumulated winnings (level 2: capitals); ``count``: values played (in an
      Arbitre game, the requests answered); ``last``: who played last;
    - ``level``: rule level 1 or 2; ``arbitre``: a game played by the Arbitre (June rules,
      both acknowledge step 9); ``acks``: acknowledgements of step 9 received;
      ``bets``: each player's last value in this deal (``"0"`` a fold, ``""`` none yet);
    - ``seeded``: an Arbitre game whose cards follow from ``seed`` (the match option
      ``seed``) rather than a cryptographic draw; kept in the state only when true.
    """

    seed: int
    deal: int
    completed: int
    step: int
    cards: tuple[str, ...]
    totals: tuple[int, int]
    waiting: Player | None = None
    gains: tuple[int, int] = (0, 0)
    count: int = 0
    shown: int = 0
    last: Player | None = None
    decks: tuple[tuple[str, ...], ...] = field(default=())
    level: int = 1
    arbitre: bool = False
    acks: int = 0
    bets: tuple[str, str] = ("", "")
    seeded: bool = False

    # --- state --------------------------------------------------------------------------

    @classmethod
    def load(cls, state: Mapping[str, Any]) -> Game:
        """Read ``state``; raise :class:`IllegalMove` when it is not a game of ours.

        A state without scripted decks is read once and kept, by its values (a bounded
        cache, :func:`_state_key`): each call of the rules on a position reads the same
        state."""
        key = _state_key(state)
        if key is None:
            return cls.read(state)
        try:
            game = _GAMES.get(key)
        except TypeError:  # a value that cannot be a key (a list for a number ...)
            return cls.read(state)
        return game if game is not None else _GAMES.keep(key, cls.read(state))

    @classmethod
    def read(cls, state: Mapping[str, Any]) -> Game:
        """Read ``state`` whatever its values' types (:meth:`load`, without the cache)."""
        try:
            waiting = int(state.get("waiting") or 0)
            last = int(state.get("last") or 0)
            bets = state.get("bets") or ("", "")
            game = cls(
                seed=int(state["seed"]),
                deal=int(state["deal"]),
                completed=int(state["completed"]),
                step=int(state["step"]),
                cards=_cards(state["cards"]),
                totals=(int(state["totals"][0]), int(state["totals"][1])),
                waiting=Player(waiting) if waiting else None,
                gains=(int(state["gains"][0]), int(state["gains"][1])),
                count=int(state.get("count", 0)),
                shown=int(state.get("shown", 0)),
                last=Player(last) if last else None,
                decks=tuple(_cards(deck) for deck in state.get("decks") or ()),
                level=int(state.get("level", 1)),
                arbitre=bool(state.get("arbitre", False)),
                acks=int(state.get("acks", 0)),
                bets=(str(bets[0]), str(bets[1])),
                seeded=state.get("seeded") is True,
            )
        except (KeyError, IndexError, TypeError, ValueError) as broken:
            raise IllegalMove(f"the game's state is corrupt: {broken}") from None
        if not game.sound:
            raise IllegalMove("the game's state is corrupt")
        return game

    @property
    def sound(self) -> bool:
        """Return whether the game's numbers are in their ranges (deal, step, totals,
        level, acknowledgements), as a state read back must be."""
        return (
            1 <= self.deal <= MAX_DEALS
            and 1 <= self.step <= SHOWDOWN
            and min(self.totals) >= 0
            and max(self.totals) <= MAX_BET
            and self.level in (1, 2)
            and self.acks in (0, 1)
        )

    def state(self) -> dict[str, Any]:
        """Return the JSON-serialisable state (``seeded`` only when true)."""
        state: dict[str, Any] = {
            "seed": self.seed,
            "deal": self.deal,
            "completed": self.completed,
            "step": self.step,
            "cards": list(self.cards),
            "totals": list(self.totals),
            "waiting": int(self.waiting) if self.waiting else 0,
            "gains": list(self.gains),
            "count": self.count,
            "shown": self.shown,
            "last": int(self.last) if self.last else 0,
            "decks": [list(deck) for deck in self.decks],
            "level": self.level,
            "arbitre": self.arbitre,
            "acks": self.acks,
            "bets": list(self.bets),
        }
        if self.seeded:
            state["seeded"] = True
        return state

    @property
    def over(self) -> bool:
        """Return whether the game has ended: at a deal's step 9, deal 99 or 12 completed
        deals (level 2: 15, or a capital below the next deal's big blind)."""
        if self.step != SHOWDOWN or self.deal >= MAX_DEALS:
            return self.step == SHOWDOWN
        if self.level == 1:
            return self.completed >= DEALS_TO_PLAY
        return self.completed >= DEALS_TO_PLAY_2 or min(self.gains) < blinds(2, self.deal + 1)[1]

    @property
    def cap(self) -> int:
        """Return the highest total of this deal: 100 (level 2: also the smaller capital)."""
        return MAX_BET if self.level == 1 else max(0, min(MAX_BET, *self.gains))

    @property
    def min_raise(self) -> int:
        """Return the least raise: 1 chip (level 2: the small blind)."""
        return blinds(self.level, self.deal)[0] if self.level == 2 else 1

    # --- the Tray -----------------------------------------------------------------------

    def tray(self, seen_by: Player | None) -> Tray:
        """Return the Tray as ``seen_by`` is shown it (the other's hole cards hidden).

        At step 9 both hands are shown after a showdown, neither after a fold; ``None``
        shows every card (the rules' own view).
        """
        hole = list(self.cards[:4])
        folded = 0 in self.totals
        for player in PAIR:
            hide = (self.step == SHOWDOWN and folded) or (
                self.step < SHOWDOWN and seen_by is not None and player is not seen_by
            )
            if hide:
                hole[2 * (player - 1)] = hole[2 * (player - 1) + 1] = HIDDEN
        shown = self.shown if self.step == SHOWDOWN else board_size(self.step)
        return Tray(
            deal=self.deal,
            # The Tray counts the deals completed before this one (00 to 11).
            completed=self.completed - (1 if self.step == SHOWDOWN and not folded else 0),
            step=self.step,
            hole=(hole[0], hole[1], hole[2], hole[3]),
            board=self.cards[4 : 4 + shown],
            totals=self.totals,
            waiting=self.waiting,
        )

    def tray_text(self, seen_by: Player | None) -> str:
        """Return ``self.tray(seen_by).text()``, written straight from the game's values."""
        cards, step, totals, waiting = self.cards, self.step, self.totals, self.waiting
        folded = 0 in totals
        if step == SHOWDOWN:  # both hands shown after a showdown, neither after a fold
            hide_one = hide_two = folded
        elif step < SHOWDOWN and seen_by is not None:  # the other's hand hidden
            hide_one, hide_two = seen_by is not Player.ONE, seen_by is not Player.TWO
        else:
            hide_one = hide_two = False
        one = HIDDEN + HIDDEN if hide_one else cards[0] + cards[1]
        two = HIDDEN + HIDDEN if hide_two else cards[2] + cards[3]
        shown = self.shown if step == SHOWDOWN else board_size(step)
        completed = self.completed - (1 if step == SHOWDOWN and not folded else 0)
        return (
            f"{self.deal:02d}{completed:02d}{step}{one}{two}{''.join(cards[4 : 4 + shown])}"
            f"M{'?' if waiting is Player.ONE else ''}{totals[0]}"
            f"-{'?' if waiting is Player.TWO else ''}{totals[1]}"
        )

    @property
    def bettor(self) -> Player | None:
        """Return the player to bet at this step, ``None`` at the showdown: the Tray's
        :attr:`~tournoyons_gui.interfaces.poker.tray.Tray.bettor`."""
        if self.step >= SHOWDOWN:
            return None
        dealer = Player.ONE if self.deal % 2 else Player.TWO
        return dealer if self.step in (1, 4, 6, 8) else dealer.opponent

    def turn(self, asked: Player | None, move: tuple[Player, str] | None) -> Turn:
        """Return the Turn asking ``asked`` (``None``: the game is over): ``Tray`` as
        ``asked`` sees it, ``Gain1``, ``Gain2``, ``Count``, the ``move`` just played
        (``Move1``/``Move2``), then ``Input`` (or ``Method=End``), as :class:`PageParams`
        writes them."""
        params = {
            "Tray": self.tray_text(asked),
            "Gain1": str(self.gains[0]),
            "Gain2": str(self.gains[1]),
            "Count": str(self.count),
        }
        if move is not None:
            params[f"Move{int(move[0])}"] = move[1]
        params.update(_ASK[asked])
        key = _game_key(self)
        if key is not None and self.sound:  # as Game.load would read the Turn's state
            _GAMES.keep(key, self)
        return Turn(state=self.state(), params=params, over=asked is None)

    # --- playing ------------------------------------------------------------------------

    def new_deal(self, deal: int) -> Game:
        """Return deal ``deal`` after its blinds: step 1, the dealer to bet."""
        decks = self.decks
        if decks:
            cards, decks = decks[0], decks[1:]
        elif self.arbitre and not self.seeded:  # decision 19: a cryptographic shuffle
            cards = tuple(_rng.sample(DECK, 9))
        else:
            cards = deal_cards(self.seed, deal)
        dealer = Player.ONE if deal % 2 else Player.TWO
        small, big = blinds(self.level, deal)
        totals = (small, big) if dealer is Player.ONE else (big, small)
        return _changed(
            self,
            deal=deal,
            step=1,
            cards=cards,
            totals=totals,
            waiting=None,
            shown=0,
            decks=decks,
            acks=0,
            bets=("", ""),
        )


#: The end of a Turn's parameters: ``Input`` for the player asked, ``Method=End`` when
#: nobody is (:meth:`PageParams.ask`).
_ASK = {player: PageParams().ask(player).params for player in (None, *PAIR)}
#: ``Method`` of a page: ``End`` once the game is over, else ``Standard``.
_METHOD = {
    over: PageParams().method(Method.END if over else Method.STANDARD).params
    for over in (True, False)
}


def _check_total(game: Game, value: str) -> int:
    """Return the total ``value`` bets at steps 1..8 of an Arbitre game (``0``: a fold);
    raise :class:`IllegalMove` unless it is legal (engine protocol section 4, Poker).

    Legal (June manual): ``0``; the opponent's total (a call, or a check); or a raise to at
    least the opponent's total plus 1 chip (level 2: plus the small blind), at most 100
    (level 2: also at most the smaller capital).
    """
    if _TOTAL.fullmatch(value) is None:
        raise IllegalMove(f"{value!r} is not a total: 0 folds, else a whole number of chips")
    total = int(value)
    bettor = game.bettor
    if total == 0 or bettor is None:
        return total
    other = game.totals[bettor.opponent - 1]
    if total < other:
        raise IllegalMove(f"bet too low: {total} is below the opponent's total {other}")
    if total == other:
        return total
    if total > game.cap:
        raise IllegalMove(f"bet too high: {total} is above the most, {game.cap}")
    if total < other + game.min_raise:
        raise IllegalMove(f"bet too low: a raise is to {other + game.min_raise} at least")
    return total


def _asked(game: Game) -> tuple[Player, ...]:
    """Return the players asked in ``game``: :meth:`PokerRules.asked`."""
    if game.over:
        return ()
    if game.step == SHOWDOWN:
        return (Player.ONE, Player.TWO)[game.acks :] if game.arbitre else (Player.ONE,)
    bettor = game.bettor
    assert bettor is not None  # steps 1..8 name a bettor
    return (bettor,)


def _showdown(cards: tuple[str, ...]) -> Player | None:
    """Return the winner of a showdown of the deal's nine ``cards`` (player one's two hole
    cards, player two's, the five board cards), ``None`` for a split pot: the higher hand
    as pokerkit ranks it (:func:`hand_strength`; :func:`verdict` of the Tray at step 9)."""
    board = cards[4:9]
    one, two = hand_strength(cards[0:2], board), hand_strength(cards[2:4], board)
    return Player.ONE if one > two else (Player.TWO if two > one else None)


def _referee_gains(call: RefereeCall) -> tuple[int, tuple[int, int]]:
    """Return the rule level and the gains of a referee call's ``Gain1``/``Gain2``.

    Level 1 gains are cumulated winnings, whose sum is 0 (both empty: 0 and 0); level 2
    gains are capitals, whose sum is twice the starting capital, 400 (``200`` and ``200``
    at the start): the sum tells the level, which no other parameter carries.
    """
    if call.gain1 == call.gain2 == "":
        return 1, (0, 0)
    if not (_GAIN.fullmatch(call.gain1) and _GAIN.fullmatch(call.gain2)):
        raise IllegalMove("Gain1 and Gain2 are whole numbers of chips")
    gains = (int(call.gain1), int(call.gain2))
    if sum(gains) == 0:
        return 1, gains
    if sum(gains) == 2 * CAPITAL and min(gains) >= 0:
        return 2, gains
    raise IllegalMove(
        f"Gain1 and Gain2 are level 1 winnings (sum 0) or level 2 capitals (sum {2 * CAPITAL})"
    )


def _ace_one(card: str) -> str:
    """Return ``card`` with the ace written ``1``, as in :data:`DECK`."""
    return card[0] + ("1" if card[1] == "A" else card[1])


def _unplayed(
    *,
    seed: int,
    gains: tuple[int, int],
    level: int,
    arbitre: bool,
    count: int = 0,
    decks: tuple[tuple[str, ...], ...] = (),
    seeded: bool = False,
) -> Game:
    """Return a game before its first deal (``new_deal(1)`` deals it): the blinds' totals,
    no card yet, ``gains`` at the start (level 2: the capitals)."""
    return Game(
        seed=seed,
        deal=1,
        completed=0,
        step=1,
        cards=("S1",) * 9,
        totals=(SMALL_BLIND, BIG_BLIND),
        gains=gains,
        count=count,
        level=level,
        arbitre=arbitre,
        decks=decks,
        seeded=seeded,
    )


def _referee_game(call: RefereeCall) -> Game:
    """Return the game a referee call describes (see :meth:`PokerRules.referee_position`)."""
    level, gains = _referee_gains(call)
    move_id = call.move_id.strip()
    count = max(int(move_id) - 1, 0) if move_id.isascii() and move_id.isdigit() else 0
    empty = _unplayed(seed=0, gains=gains, level=level, arbitre=True, count=count)
    if call.tray.lower() in ("", "init"):
        return empty.new_deal(1)
    try:
        tray = parse_tray(call.tray)
    except TrayError as error:
        raise IllegalMove(str(error)) from None
    problems = tray.problems()
    if HIDDEN in tray.hole:
        problems.append("the referee Tray shows the four hole cards")
    seen = [_ace_one(card) for card in (*tray.hole, *tray.board)]
    if len(set(seen)) != len(seen):
        problems.append("a card is dealt twice")
    folded = tray.folded is not None
    if tray.step == SHOWDOWN and not folded and len(tray.board) != 5:
        problems.append("a showdown shows the 5 board cards")
    game = replace(
        empty,
        deal=tray.deal,
        completed=tray.completed + (1 if tray.step == SHOWDOWN and not folded else 0),
        step=tray.step,
        # The board cards not shown yet: a fair draw from the cards not seen (decision 19).
        cards=(*seen, *_rng.sample(sorted(set(DECK) - set(seen)), 9 - len(seen))),
        totals=tray.totals,
        waiting=tray.waiting,
        shown=len(tray.board) if tray.step == SHOWDOWN else 0,
    )
    if tray.step < SHOWDOWN and max(tray.totals) > game.cap:
        problems.append(f"a total is at most {game.cap}")
    if problems:
        raise IllegalMove(problems[0])
    return game


class PokerRules:
    """Heads-up hold'em for the tester's hot-seat game; see the module's docstring."""

    def __init__(self, seed: int | None = None) -> None:
        """``seed`` fixes every game's cards (tests); by default each game draws its own."""
        self.seed = seed

    #: The Set as engines receive it; both rule levels (engine protocol section 4, Poker).
    engine_set = "Poker"
    levels = (1, 2)

    def new_game(self, decks: Sequence[Sequence[str]] = ()) -> Turn:
        """Return deal 1, player one dealing and to bet first (``decks``: scripted cards)."""
        return self._new(1, arbitre=False, decks=decks)

    #: A game may be dealt from a seed (:func:`~tournoyons_gui.interfaces.plugin.starts_from_seed`).
    seed_starts = True

    def start(
        self, level: int = 1, decks: Sequence[Sequence[str]] = (), *, seed: int | None = None
    ) -> Turn:
        """Return deal 1 of an Arbitre game at rule ``level`` 1 or 2 (``decks``: scripted
        cards, for tests): the June rules, both players acknowledging step 9. ``seed``:
        each deal's nine cards follow from it and the deal's number (:func:`deal_cards`),
        so two games of one seed get the same cards deal after deal, whoever sits where
        (a duplicate deal); ``None``: a cryptographic draw per deal (decision 19)."""
        if level not in self.levels:
            raise IllegalMove(f"Poker plays rule level 1 or 2, not {level}")
        return self._new(level, arbitre=True, decks=decks, seed=seed)

    def _new(
        self,
        level: int,
        *,
        arbitre: bool,
        decks: Sequence[Sequence[str]],
        seed: int | None = None,
    ) -> Turn:
        load_pokerkit()  # the showdowns' hand tables, loaded before the game, not in it
        seeded = seed is not None
        if seed is None:
            seed = self.seed if self.seed is not None else random.SystemRandom().randrange(2**32)
        gains = (CAPITAL, CAPITAL) if level == 2 else (0, 0)
        empty = _unplayed(
            seed=seed,
            gains=gains,
            level=level,
            arbitre=arbitre,
            decks=tuple(_cards(list(deck)) for deck in decks),
            seeded=seeded,
        )
        game = empty.new_deal(1)
        return game.turn(game.bettor, None)

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Apply ``value``: a total bet, ``-1`` (or ``0``) to fold, ``0`` at the showdown."""
        game = Game.load(state)
        if game.over:
            raise IllegalMove("the game is over")
        if game.step == SHOWDOWN:
            if value != "0":
                raise IllegalMove("at the showdown, acknowledge with 0")
            if game.arbitre and game.acks == 0:  # player one's acknowledgement; two's next
                game = _changed(game, count=game.count + 1, acks=1)
                return game.turn(Player.TWO, None)
            game = _changed(game, count=game.count + 1, last=None).new_deal(game.deal + 1)
            return game.turn(game.bettor, None)

        bettor = game.bettor
        assert bettor is not None  # steps 1..8 name a bettor
        if game.arbitre:
            _check_total(game, "0" if value == FOLD else value)
        elif value not in (*legal_values(game.tray(None)), "0"):
            raise IllegalMove(
                f"{value!r} is not a legal total now: fold -1, or "
                f"{legal_values(game.tray(None))[1]} to {MAX_BET}"
            )
        bets = list(game.bets)
        bets[bettor - 1] = "0" if value in (FOLD, "0") else value
        played = {"count": game.count + 1, "last": bettor, "bets": (bets[0], bets[1])}
        if value in (FOLD, "0"):
            return self._fold(_changed(game, **played), bettor)
        total = int(value)
        opponent = bettor.opponent
        totals = list(game.totals)
        totals[bettor - 1] = total
        answering = game.waiting is not None and game.waiting is bettor  # Tray.answering
        if answering and total == totals[opponent - 1]:
            return self._call(
                _changed(game, totals=(totals[0], totals[1]), **played), bettor, value
            )
        # A bet or a raise: the other player answers, at their step of the same round.
        step = game.step + 1 if game.step % 2 else game.step - 1
        game = _changed(game, totals=(totals[0], totals[1]), step=step, waiting=opponent, **played)
        return game.turn(opponent, (bettor, value))

    def _fold(self, game: Game, folder: Player) -> Turn:
        """End the deal: the folder's total becomes 0, the other player wins their chips."""
        shown = board_size(game.step)
        stake = game.totals[folder - 1]
        totals = list(game.totals)
        totals[folder - 1] = 0
        gains = list(game.gains)
        gains[folder - 1] -= stake
        gains[folder.opponent - 1] += stake
        game = _changed(
            game,
            step=SHOWDOWN,
            waiting=None,
            shown=shown,
            totals=(totals[0], totals[1]),
            gains=(gains[0], gains[1]),
        )
        return game.turn(None if game.over else folder.opponent, (folder, "0"))

    def _call(self, game: Game, caller: Player, value: str) -> Turn:
        """End the betting round; deal the next cards, or go to the showdown."""
        round_number = (game.step + 1) // 2
        if round_number < 4 and min(game.totals) < game.cap:
            game = _changed(game, step=2 * round_number + 1, waiting=None)
            return game.turn(game.bettor, (caller, value))
        game = _changed(game, step=SHOWDOWN, waiting=None, shown=5)
        winner = _showdown(game.cards)
        stake = game.totals[0]
        gains = list(game.gains)
        if winner is not None:
            gains[winner - 1] += stake
            gains[winner.opponent - 1] -= stake
        game = _changed(game, gains=(gains[0], gains[1]), completed=game.completed + 1)
        return game.turn(None if game.over else caller.opponent, (caller, value))

    # --- the Arbitre's part (engine protocol section 4, Poker; decisions 19, 23, 24) ------

    def asked(self, state: Mapping[str, Any]) -> tuple[Player, ...]:
        """Return the player to bet at steps 1..8; both at step 9 (then player two alone
        once player one's acknowledgement is applied); nobody once the game is over."""
        return _asked(Game.load(state))

    def request(
        self, state: Mapping[str, Any], player: Player, *, init_as_board: bool = False
    ) -> EngineRequest:
        """Return what ``player``'s engine is sent: no ``Turn``; ``Gain1``/``Gain2`` once a
        value has been applied (level 1 cumulated winnings, level 2 capitals); the
        opponent's last bet of this deal (``0`` a fold) in ``Move1``/``Move2``; the Tray as
        this engine sees it (the opponent's cards ``????`` except at a showdown, the current
        round's ``M`` segment, ``?`` on the player answering a bet).

        ``MoveId`` numbers the game's requests: the values answered so far plus one, plus
        one more for player two when both are asked at step 9 (``init_as_board`` does not
        apply: a deal is never empty).
        """
        game = Game.load(state)
        asked = _asked(game)
        index = asked.index(player) if player in asked else 0
        params: dict[str, str] = {}
        if game.count:
            params.update(Gain1=str(game.gains[0]), Gain2=str(game.gains[1]))
        params.update(self._last_bet(game, player))
        params["Tray"] = game.tray_text(player)
        return EngineRequest(move_id=game.count + 1 + index, params=params)

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return the rules' value for an engine's ``Value``: at steps 1..8 its new total
        (``0`` folds; else at least the opponent's total, a raise by at least 1 chip, level
        2 the small blind, at most 100, level 2 the smaller capital); at step 9 any Value
        is the acknowledgement ``0``."""
        game = Game.load(state)
        if game.over:
            raise IllegalMove("the game is over")
        if player not in _asked(game):
            raise IllegalMove(f"player {int(player)} is not asked now")
        if game.step == SHOWDOWN:
            return "0"
        return str(_check_total(game, value))

    def person_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return the rules' value for a person's ``ReturnValue``: ``-1`` or ``0`` folds
        (decision 24), otherwise a total as for engines; at step 9 only ``0``."""
        value = value.strip()
        game = Game.load(state)
        if game.step == SHOWDOWN and not game.over and value != "0":
            raise IllegalMove("at the showdown, acknowledge with 0")
        return self.engine_value(state, player, "0" if value == FOLD else value)

    def result(self, state: Mapping[str, Any]) -> Result | None:
        """Return the result once ``play`` has ended the game: the higher cumulated
        winnings (level 2: capital) wins, equal is a draw."""
        game = Game.load(state)
        if not game.over:
            return None
        one, two = game.gains
        what = "capital" if game.level == 2 else "winnings"
        if one == two:
            return Result(None, f"equal {what} {one}")
        return Result(Player.ONE if one > two else Player.TWO, f"{what} {one} to {two}")

    def final(self, state: Mapping[str, Any], player: Player) -> Mapping[str, str]:
        """Return the final ``Gain1``/``Gain2``, the opponent's last bet of the deal and
        the Tray as ``player`` sees it (no ``Turn`` for Poker, decision 10)."""
        game = Game.load(state)
        return {
            "Gain1": str(game.gains[0]),
            "Gain2": str(game.gains[1]),
            **self._last_bet(game, player),
            "Tray": game.tray_text(player),
        }

    def page(
        self, turn: Turn, viewer: Player | None, *, asking: bool, reveal: bool = False
    ) -> Mapping[str, str]:
        """Return the page's parameters: ``Tray`` (the viewer's opponent's cards ``??``; a
        spectator's both hands ``??`` before the showdown unless ``reveal``, decision 23),
        ``Gain1``/``Gain2``, the last bet (``Move1``/``Move2``), ``Count`` (the deal's rank)
        and ``Method`` (``End`` once over, else ``Standard``)."""
        game = Game.load(turn.state)
        over = game.over
        if over or reveal:
            tray = game.tray(None)
        elif viewer is None:
            tray = game.tray(None)
            if game.step < SHOWDOWN:
                tray = Tray(
                    tray.deal,
                    tray.completed,
                    tray.step,
                    (HIDDEN, HIDDEN, HIDDEN, HIDDEN),
                    tray.board,
                    tray.totals,
                    tray.waiting,
                )
        else:
            tray = game.tray(viewer)
        params = {"Tray": tray.text(), "Gain1": str(game.gains[0]), "Gain2": str(game.gains[1])}
        if game.last is not None and game.bets[game.last - 1]:
            params[f"Move{int(game.last)}"] = game.bets[game.last - 1]
        params["Count"] = str(game.deal)
        params.update(_METHOD[over])
        return params

    @staticmethod
    def _last_bet(game: Game, player: Player) -> dict[str, str]:
        """Return the opponent's last bet of this deal as ``Move1``/``Move2``, if any."""
        opponent = player.opponent
        bet = game.bets[opponent - 1]
        return {f"Move{opponent}": bet} if bet else {}

    # --- the chapter VI referee (engine protocol section 6) --------------------------------

    def referee_position(self, call: RefereeCall) -> Mapping[str, Any]:
        """Read the referee Tray: the engines' Tray (engine protocol section 4, Poker) with
        the four hole cards always written out, never ``????`` (``03023D5H9D1S8C2HTS9M4-4``;
        ace ``1``, ``A`` read too); ``Init`` or empty: deal 1 before its first bet.

        - The level is not sent to a referee: ``Gain1``/``Gain2`` tell it, level 1
          cumulated winnings summing to 0 (both empty: 0 and 0), level 2 capitals summing
          to 400 (``200`` and ``200`` to start a level-2 game).
        - Board cards not shown yet are not in the Tray: they are drawn, when needed, at
          random among the cards not seen (the hole cards and the board shown), which is
          a fair deal from the rest of a shuffled deck (decision 19); a new deal draws a
          fresh deck. So one position may go on with other cards at each call.
        - Who is asked follows from the Tray (the step, the deal's dealer, the ``?``): one
          bettor at steps 1 to 8; both at step 9 (``Move1`` and ``Move2``, any value
          acknowledges), which deals the next deal. ``MoveId`` only sets the requests'
          count (``MoveId`` - 1); the last bets are not kept.

        Raise :class:`IllegalMove` when the Tray or the Gains cannot be read or contradict
        the rules (a hidden or twice-dealt card, a board short for the step ...)."""
        return _referee_game(call).state()

    def referee_tray(self, state: Mapping[str, Any]) -> tuple[str, str, str]:
        """Return the referee Tray (every hole card shown, also after a fold) and the gains
        (level 1 winnings, level 2 capitals)."""
        game = Game.load(state)
        cards = game.cards
        tray = replace(game.tray(None), hole=(cards[0], cards[1], cards[2], cards[3]))
        return tray.text(), str(game.gains[0]), str(game.gains[1])


#: The rules the Set plays by (found by :class:`SetInterface`'s convention).
RULES = PokerRules()
