"""The contract between the host and a Set's plugin.

A Set is a package (``interfaces/<set>/`` for the built-in ones) that exports one
:class:`SetInterface` and declares it in the entry-point group ``tournoyons.interfaces``:

.. code-block:: toml

    [project.entry-points."tournoyons.interfaces"]
    checkers = "my_checkers:interface"

The package carries ``templates/<key>/page.html`` (its page, extending ``_interface.html``)
and ``static/`` (its scripts and stylesheets) beside its code; they are found by looking,
with :func:`importlib.resources.files`, so the :class:`SetInterface` names none of them. It
knows one game and nothing of HTTP: it turns a :class:`~tournoyons_gui.interfaces.protocol.Context`
into a
view model, and may carry the game's rules for the tester (manual chapter VI: "jeu ajouté").
"""

from __future__ import annotations

import importlib
import importlib.resources
import importlib.util
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from types import MappingProxyType
from typing import Any, Protocol, TypeGuard

from tournoyons_gui.interfaces.protocol import Context, Method, ParamError, Player

__all__ = [
    "ArbitreRules",
    "Botsarena",
    "Engine",
    "EngineRequest",
    "IllegalMove",
    "RefereeAnswer",
    "RefereeCall",
    "Refereeing",
    "Result",
    "Rules",
    "SeedStarts",
    "SetInterface",
    "TrayStarts",
    "Turn",
    "View",
    "forfeit_result",
    "match_deals",
    "position_text",
    "seat_count",
    "seat_totals",
    "starts_from_seed",
    "starts_from_tray",
]

STANDARD_METHODS = frozenset({Method.STANDARD, Method.END, Method.NONE})


@dataclass(frozen=True, kw_only=True)
class View:
    """What every Set's view model carries; a Set subclasses it with its board.

    - ``tray``: the board value as drawn, in the Set's ``Tray`` syntax (what
      ``window.tournoyons.tray()`` answers before a move; spec section 6).
    - ``player``: the player the page asks for a move (``Input``), or under ``WebTest`` the
      player to move, whom the play control hands input to; ``None`` when nobody can play.
    - ``playable``: the values that player may return now (cells, hands ...), in the order
      keyboard navigation visits them.
    - ``errors``: the Set's parameters that could not be read (``tray``, ``move1`` ...).
    - ``composed``: the value is composed on the page (a fleet placed, a code chosen) rather
      than picked from ``playable``; the Set's script then validates it with its
      ``accepts(value)`` before the single return.
    - ``sound``: ``"move"``, ``"win"`` or ``None``: what the page plays once drawn.
    """

    tray: str = ""
    player: Player | None = None
    playable: tuple[str, ...] = ()
    composed: bool = False
    errors: tuple[ParamError, ...] = ()
    sound: str | None = None


@dataclass(frozen=True)
class Turn:
    """One step of a game played by a Set's rules.

    ``state`` is the whole game, JSON-serialisable, kept by the tester between two moves
    (it may hold what no page shows, such as a hand not yet revealed); ``params`` are the
    next interface page's query parameters (``Tray``, ``Move1``, ``Gain1``, ``Count``,
    ``Input``, ``Method`` ...), as the Arbitre would send them; ``over`` is true once the
    game has ended (``params`` then carry ``Method=End``).
    """

    state: Mapping[str, Any]
    params: Mapping[str, str]
    over: bool = False


class IllegalMove(ValueError):
    """A value the rules refuse (not the Set's syntax, or not legal now)."""


class Rules(Protocol):
    """A Set's game rules, for the tester's hot-seat play (the Arbitre's part)."""

    def new_game(self) -> Turn:
        """Return the first turn of a new game."""
        ...

    def play(self, state: Mapping[str, Any], value: str) -> Turn:
        """Apply ``value`` (a ReturnValue) to ``state``; raise :class:`IllegalMove`."""
        ...


@dataclass(frozen=True)
class Result:
    """How a game ended, as the rules see it (engine protocol section 3.3; four seats:
    ``docs/reference/tarot.md`` section 3, T-decision 5).

    ``winner`` is the winning player of a two-seat game, ``None`` for a draw; ``reason`` a
    short English note for the record (``"three in a row"``, ``"more discs 40-24"``), never
    shown on a page. ``ranks``: a game of any number of seats says how it ended as each
    seat's rank in play order, 1 the best, equal ranks shared (``(1, 3, 1, 4)``: seats 1
    and 3 share the first place); a two-seat Set may leave it empty and give ``winner``.
    """

    winner: Player | None = None
    reason: str = ""
    ranks: tuple[int, ...] = ()

    def ranking(self, seats: int) -> tuple[int, ...]:
        """Return each of ``seats`` seats' rank in play order (1 the best, shared ranks
        equal): :attr:`ranks` when given, else from :attr:`winner` (a draw ranks every seat
        first). Raises ``ValueError`` when :attr:`ranks` does not have ``seats`` ranks."""
        if self.ranks:
            if len(self.ranks) != seats or any(rank < 1 for rank in self.ranks):
                raise ValueError(f"a result of {seats} seats ranks each seat from 1")
            return self.ranks
        if self.winner is None:
            return (1,) * seats
        return tuple(1 if number == int(self.winner) else 2 for number in range(1, seats + 1))

    @property
    def sole_winner(self) -> int | None:
        """Return the index (0 the first seat) of the one seat ranked first alone, or
        ``None`` (a draw, a shared first place)."""
        if not self.ranks:
            return None if self.winner is None else int(self.winner) - 1
        firsts = [index for index, rank in enumerate(self.ranks) if rank == 1]
        return firsts[0] if len(firsts) == 1 else None


@dataclass(frozen=True)
class EngineRequest:
    """The game part of one in-progress call to an engine (engine protocol section 2.1).

    - ``move_id``: the call's ``MoveId`` (the move number; Poker: the request's number).
    - ``params``: the Set's own parameters in the protocol's order, among ``Turn``,
      ``Gain1``, ``Gain2``, ``Move1``/``Move2``, ``Tray`` (only those the Set sends now). The
      Arbitre adds ``Set``, ``Game``, ``MoveId``, ``Status``, ``TimeOut``, ``Level``,
      ``Opponent`` and ``Referee`` around them.
    """

    move_id: int
    params: Mapping[str, str]


class ArbitreRules(Rules, Protocol):
    """What the Arbitre needs of a Set's rules beyond the tester's hot-seat play.

    The Arbitre knows no game: it keeps the :class:`Turn` these methods return (its
    ``state`` is stored as JSON after every move, so it must hold whatever the engines'
    and the pages' parameters are made from, e.g. each player's last move), asks the seats
    named by :meth:`asked`, turns their answers into the rules' values, applies them with
    :meth:`Rules.play` in seat order, and ends the game when :meth:`result` says so.
    Source: engine protocol sections 1-4 (per Set) and decisions 14-24.

    A game has two seats unless the rules say otherwise with an ``int`` attribute ``seats``
    (read with :func:`seat_count`); its players are ``Player(1)`` .. ``Player(seats)``.
    """

    #: The Set's name as engines receive it in ``Set`` (decision 2: ``SeaFight``).
    engine_set: str
    #: The rule levels the Set plays (``Level``, engine protocol 2.1); ``(1,)`` for most.
    levels: tuple[int, ...]

    def start(self, level: int = 1) -> Turn:
        """Return the first turn of a game at rule ``level`` (one of :attr:`levels`).

        Rules that can also start from a given position (decision 15) are
        :class:`TrayStarts`: they take a ``tray`` too, and say so with ``tray_starts``;
        the host passes ``tray`` only when :func:`starts_from_tray` says it may.
        """
        ...

    def asked(self, state: Mapping[str, Any]) -> tuple[Player, ...]:
        """Return the players asked for a value now: one, both for a simultaneous step
        (Rochambeau's round, Poker's step 9), none once the game is over."""
        ...

    def request(
        self, state: Mapping[str, Any], player: Player, *, init_as_board: bool = False
    ) -> EngineRequest:
        """Return what ``player``'s engine is sent now (``player`` is in :meth:`asked`).

        ``init_as_board``: the match option that sends the explicit empty board instead of
        ``Init`` (decision 14).
        """
        ...

    def engine_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return the rules' value for an engine's callback ``Value`` (already trimmed and
        upper-cased, decision 5); raise :class:`IllegalMove` when it breaks the Set's
        syntax or rules now (e.g. MasterMind's 4 bare colours become ``00`` + colours)."""
        ...

    def person_value(self, state: Mapping[str, Any], player: Player, value: str) -> str:
        """Return the rules' value for a person's ``ReturnValue`` (decision 24); raise
        :class:`IllegalMove` when it is not legal now."""
        ...

    def result(self, state: Mapping[str, Any]) -> Result | None:
        """Return the game's result once it is over, else ``None``."""
        ...

    def final(self, state: Mapping[str, Any], player: Player) -> Mapping[str, str]:
        """Return the Set's parameters of ``player``'s final call (decision 10): ``Turn``
        (not Poker), the final ``Gain1``/``Gain2``, the opponent's last move, ``Tray``; the
        Arbitre adds ``Status``."""
        ...

    def page(
        self, turn: Turn, viewer: Player | None, *, asking: bool, reveal: bool = False
    ) -> Mapping[str, str]:
        """Return the interface page's Set parameters after ``turn``.

        ``viewer`` is the person's player whose page this is, or ``None`` for spectators;
        ``asking`` is true when that page asks ``viewer`` for a value (the Arbitre then adds
        ``Input`` and ``URLReturn``; the Set chooses ``Method``, e.g. ``Prepare``). Hidden
        information (a fleet, a code, hole cards) is shown only to its owner, and to
        everyone once the game is over or when ``reveal`` is true (a replay), decision 23.
        Returns ``Tray``, ``Move1``/``Move2``, ``Gain1``/``Gain2``, ``Count``, ``Method``,
        ``Legend`` as the Set needs; never ``Input``, ``URLReturn``, names or ``Wait``.
        """
        ...


def seat_count(rules: object) -> int:
    """Return how many seats a game of ``rules`` has: its ``seats`` attribute, 2 when it
    has none (a Set written for the two-seat contract)."""
    seats = getattr(rules, "seats", 2)
    return seats if isinstance(seats, int) and seats >= 1 else 2


def match_deals(rules: object) -> range | None:
    """Return the numbers of deals a match of ``rules`` may be asked to last (the match
    option ``deals``; Tarot: ``docs/reference/tarot.md`` section 2, "A match"): the rules'
    ``deals_range`` attribute, whose ``start(level, deals=n)`` then takes ``deals``;
    ``None`` for rules without it (a match the Set's own length)."""
    found = getattr(rules, "deals_range", None)
    return found if isinstance(found, range) and len(found) > 0 else None


def forfeit_result(
    rules: object, state: Mapping[str, Any], failed: tuple[Player, ...], reason: str
) -> Result | None:
    """Return how a game of more than two seats ends when the ``failed`` players failed
    (late, unreachable, an illegal Value) in ``state``: the rules' optional
    ``forfeit(state, failed) -> Result`` (Tarot: the failed seats last, the others ranked by
    their totals as they stand, tarot.md section 3 "Status"), its reason replaced by
    ``reason``; ``None`` for rules without it, or whose ``forfeit`` cannot read ``state``
    (the Arbitre then ranks the others first together)."""
    method = getattr(rules, "forfeit", None)
    if not callable(method):
        return None
    try:
        result = method(state, failed)
    except (IllegalMove, ValueError, KeyError, TypeError):
        return None
    if not isinstance(result, Result):
        return None
    return Result(result.winner, reason, result.ranks)


def position_text(rules: object, state: Mapping[str, Any]) -> str | None:
    """Return a position drawn as text for a terminal (``tournoyons-gui diff`` prints it)
    by the rules' optional ``text(state) -> str`` (the grid Sets: the board's rows, the
    top one first, ``X`` player one's, ``O`` player two's); ``None`` for rules without it
    or a state it cannot read."""
    method = getattr(rules, "text", None)
    if not callable(method):
        return None
    try:
        drawn = method(state)
    except (IllegalMove, ValueError, KeyError, TypeError, IndexError):
        return None
    return drawn if isinstance(drawn, str) and drawn else None


def seat_totals(rules: object, state: Mapping[str, Any]) -> tuple[int, ...] | None:
    """Return each seat's total score in ``state`` (play order), from the rules' optional
    ``totals(state)`` (Tarot: the match's totals, summing to 0), or ``None`` for rules
    without it or a state it cannot read. Tournaments at tables rank equal match points by
    it."""
    method = getattr(rules, "totals", None)
    if not callable(method):
        return None
    try:
        return tuple(int(total) for total in method(state))
    except (IllegalMove, ValueError, KeyError, TypeError):
        return None


class TrayStarts(ArbitreRules, Protocol):
    """Rules whose game may start from a position given as a Tray (decision 15;
    seed 000 II: "une partie peut démarrer directement sur un plateau déjà avancé").

    Only a Set whose Tray holds the whole position can: TicTacToe, BigTicTacToe, Pente,
    Reversi, ConnectFour (not Rochambeau, MasterMind, SeaFight, Poker). Such rules set the
    class attribute ``tray_starts = True``; :func:`starts_from_tray` reads it, so Sets
    without it (third parties' included) keep being started with ``start(level)`` alone.
    """

    #: ``True``: :meth:`start` takes a ``tray``.
    tray_starts: bool

    def start(self, level: int = 1, tray: str | None = None) -> Turn:
        """Return the first turn of a game at rule ``level``, from the position ``tray``.

        ``tray=None`` is the usual start. Otherwise ``tray`` is a position in the Set's own
        Tray syntax, as its engines and pages receive it (engine protocol section 4; the
        Set's ``Init``, or its explicit empty board, is the usual start). The position says
        who moves (e.g. TicTacToe: as many ``1`` as ``2``, player one; one ``1`` more,
        player two); the first request's ``Turn`` and ``MoveId`` are then 1 when player one
        moves and 2 when player two does, so odd ``Turn`` still means first player
        (decision 15), and every later request, page (``Count`` = ``Turn`` - 1), final call
        (``Turn``) and result follows from there. The first request carries no
        ``Move1``/``Move2``.

        Raise :class:`IllegalMove` with a short English reason when ``tray`` is malformed
        or is not a position a game can reach and go on from (wrong counts, a game already
        over ...); each Set's docstring says what it checks.
        """
        ...


def starts_from_tray(rules: Rules | None) -> TypeGuard[TrayStarts]:
    """Return whether ``rules`` can start a game from a Tray (their class attribute
    ``tray_starts``, :class:`TrayStarts`); ``False`` for ``None`` and for rules without it,
    which are started with ``start(level)`` alone. Source: decision 15."""
    return bool(getattr(rules, "tray_starts", False))


class SeedStarts(ArbitreRules, Protocol):
    """Rules whose game draws what the Arbitre deals (cards) from a seed the host gives:
    Poker's deals, Tarot's. Such rules set the class attribute ``seed_starts = True``;
    :func:`starts_from_seed` reads it, so Sets without it (third parties' included) are
    started as before. A Set's rules opt in by taking a keyword ``seed`` in
    :meth:`ArbitreRules.start`, beside whatever else their ``start`` takes (a ``tray``,
    ``deals``).

    A game of a seed must be dealt the same, deal after deal, by every process and
    machine, whatever the seats and whatever the players do between two deals as far as
    the rules allow (a duplicate deal: the same seed with the seats swapped or rotated
    deals each seat the same cards): so derive each deal from the seed and the deal's
    number (``random.Random(f"<set>-{seed}-{deal}")``, which hashes the text with
    SHA-512), never from a generator carried from deal to deal, and keep the seed in the
    game's ``state``. The seed is the match option ``seed`` (a whole number 0 to
    2**63 - 1); whoever knows it knows the cards, so it is for reproducible runs, not for
    games with something at stake.
    """

    #: ``True``: :meth:`start` takes a keyword ``seed``.
    seed_starts: bool

    def start(self, level: int = 1, *, seed: int | None = None) -> Turn:
        """Return the first turn of a game at rule ``level`` whose chance follows from
        ``seed`` (``None``: the system's randomness, the usual start)."""
        ...


def starts_from_seed(rules: Rules | None) -> TypeGuard[SeedStarts]:
    """Return whether ``rules`` deal from a seed the host gives (their class attribute
    ``seed_starts``, :class:`SeedStarts`); ``False`` for ``None`` and for rules without
    it, which are started without one (their built-in engines' choices are still seeded
    by the Arbitre, :func:`~tournoyons_gui.interfaces.engine_kit.seeded_choices`)."""
    return bool(getattr(rules, "seed_starts", False))


@dataclass(frozen=True, kw_only=True)
class RefereeCall:
    """What Tournoyons sends an added game's referee for one move (engine protocol section 6,
    manual 002 chapter VI), read by name: ``Game``, ``Method``, ``MoveId``, ``Tray`` (the
    board before the move), ``Gain1``/``Gain2`` before the move, ``Move1``/``Move2`` (the
    move just played, ``Move1`` when its player is the first; both in a simultaneous game;
    ``None`` when absent). ``ReturnURL`` is the host's business and is not carried here.
    """

    game: str = ""
    method: str = ""
    move_id: str = ""
    tray: str = ""
    gain1: str = ""
    gain2: str = ""
    move1: str | None = None
    move2: str | None = None


@dataclass(frozen=True, kw_only=True)
class RefereeAnswer:
    """A referee's verdict (engine protocol section 6): ``return_code`` 3 the game goes on,
    1 the first player wins, 2 the second, 4 a draw, 5 an error in the move received, then
    ``tray`` is the reason in English (it never holds ``/`` or ``|``). Otherwise ``tray``,
    ``gain1`` and ``gain2`` are the board and gains after the move; ``method`` is echoed
    (or ``""``)."""

    return_code: int
    tray: str
    gain1: str = ""
    gain2: str = ""
    method: str = ""


class Refereeing(Protocol):
    """What a Set's rules add to answer as a chapter VI referee (``/referee/<set>``).

    The referee is stateless: everything the game needs is in the ``Tray`` and the
    ``Gain``s it receives, in the Set's **referee Tray**: the Tray its engines receive
    (engine protocol section 4), with what a player's engine is not shown (a fleet, a code,
    cards) written out in full, since Tournoyons keeps nothing else between two moves. The
    generic referee (:func:`tournoyons_gui.interfaces.referee.referee`) reads the position
    with :meth:`referee_position`, checks and plays each move with the Set's
    :meth:`ArbitreRules.engine_value` and :meth:`Rules.play`, asks :meth:`ArbitreRules.result`
    for the verdict and writes the new position with :meth:`referee_tray`.
    """

    def referee_position(self, call: RefereeCall) -> Mapping[str, Any]:
        """Return the rules' ``state`` for the position ``call`` describes (its ``Tray``,
        ``Gain``s, ``Method`` and ``MoveId``; ``Init`` or ``""`` is the start); the players
        asked in it (:meth:`ArbitreRules.asked`) must be those whose move ``call`` carries.
        Raise :class:`IllegalMove` with a short English reason when the Tray cannot be read.
        """
        ...

    def referee_tray(self, state: Mapping[str, Any]) -> tuple[str, str, str]:
        """Return ``(Tray, Gain1, Gain2)`` of ``state`` in the referee Tray's syntax, which
        :meth:`referee_position` reads back; an empty gain (a Set that keeps none) echoes
        the call's."""
        ...


@dataclass(frozen=True, kw_only=True)
class Botsarena:
    """A Set's side of botsarena's JSON bots (seed 003; engine protocol section 4,
    ConnectFour): how an engine request maps to a ``play-turn`` message and back.

    - ``game``: the ``game`` field sent (``"connectFour"``).
    - ``board``: the engine request's parameters (``Turn``, ``Tray`` ...) -> the message's
      ``board`` (rows of cells ``""``/``"X"``/``"O"``, row 0 at the bottom).
    - ``value``: the bot's ``play`` (a number, or a string of one digit) -> the engine
      protocol's ``Value``; raises :class:`IllegalMove` when it is neither.
    - ``request``: a ``play-turn`` message (decoded JSON) -> the engine request's parameters
      a built-in engine reads; raises :class:`IllegalMove` when the message is malformed.
    - ``play``: a built-in engine's ``Value`` -> the ``play`` answered (the column number).
    """

    game: str
    board: Callable[[Mapping[str, str]], list[list[str]]]
    value: Callable[[object], str]
    request: Callable[[Mapping[str, Any]], Mapping[str, str]]
    play: Callable[[str], int]


#: A built-in engine: the whole query an engine receives (engine protocol section 2.1,
#: names as sent: ``Set``, ``Game``, ``MoveId``, ``Turn``, ``Tray`` ...) -> its ``Value``.
#: It is a pure function of the request, as the protocol allows ("an engine may keep no
#: state"), and may use randomness. Served over HTTP by the Arbitre (``/engines/<set>/<name>``).
Engine = Callable[[Mapping[str, str]], str]


class _Found(tuple[str, ...]):
    """The default of ``scripts`` and ``styles``: an empty tuple told apart by identity
    from a ``()`` given explicitly, which means "none" and wins like any value given."""

    __slots__ = ()


_FOUND = _Found()

#: The players' names the tester proposes with every Set's sample unless it names them.
SAMPLE_NAMES = {"Name1": "MissOne", "Name2": "MrTwo"}


def _unfound(ctx: Context) -> View:
    """The default of ``build``: told apart by identity, replaced by ``board.build``."""
    raise TypeError("build was not found")  # never called: __post_init__ replaces it


#: The default of ``rules``, ``engines`` and ``botsarena``: "not given", told apart by
#: identity from ``None`` or ``{}`` given explicitly (which mean "none" and win).
_NOT_GIVEN: Any = object()


def _found(package: str, module: str, name: str) -> Any:
    """Return ``name`` from the module ``package.module``, or ``None`` when ``package`` is
    a plain module (not a package), has no such module, or the module no such name (errors
    raised by the module itself pass)."""
    parent = sys.modules.get(package) or importlib.import_module(package)
    if not hasattr(parent, "__path__"):
        return None
    full = f"{package}.{module}"
    if importlib.util.find_spec(full) is None:
        return None
    return getattr(importlib.import_module(full), name, None)


@dataclass(frozen=True, eq=False)
class SetInterface:
    """One Set: its names, its parser, its page and assets, optionally its rules.

    A Set says what is particular to it; where its code, page and assets are follows from
    its package (convention over configuration, as Datasette finds a plugin's folders):

    - ``name``: canonical spelling (``"TicTacToe"``), shown in ``data-set``; the URL key
      is ``name.lower()`` (``/tictactoe/``).
    - ``build``: ``Context -> View``; reads ``Tray``, ``Gain1``/``Gain2``, ``Move1``/``Move2``.
      Must not raise on any input: a value it cannot read goes in ``View.errors``.
    - ``aliases``: other names accepted for ``Set`` (French names, other spellings).
    - ``methods``: the Methods the Set draws; any other is read as ``Standard``.
    - ``rules``: the game's rules, for the tester; ``None`` if the Set has none. Rules that
      also satisfy :class:`ArbitreRules` let the Arbitre play the Set.
    - ``engines``: built-in engines by name (``"random"``, ``"perfect"`` ...), the first
      being the default; each speaks the real engine protocol through the Arbitre.
    - ``sample``: query parameters the tester proposes for a first look; the players are
      named as in :data:`SAMPLE_NAMES` unless the sample names them.
    - ``botsarena``: how the Set speaks botsarena's JSON bots (:class:`Botsarena`), or
      ``None``; only ConnectFour does.

    Found by convention unless given (a value given always wins):

    - ``package``: the import name of the package holding the Set's modules, ``templates/``
      and ``static/``; a Set's ``__init__.py`` gives ``package=__name__``. By default the
      package of the module defining ``build`` (``tournoyons_gui.interfaces.tictactoe`` for
      ``tournoyons_gui.interfaces.tictactoe.board.build``).
    - ``build``: ``build`` of the package's ``board`` module.
    - ``rules``, ``engines``, ``botsarena``: ``RULES`` of its ``rules`` module, ``ENGINES`` of
      its ``engines`` module, ``BOTSARENA`` of its ``botsarena`` module; none where the
      package has no such module or the module no such name. These modules are imported
      while the package's ``__init__.py`` makes its ``SetInterface``, so they must not
      import from it. ``rules=None``, ``engines={}`` or ``botsarena=None`` given say "none"
      (a Set borrowing another Set's ``build`` gives them, or gets that Set's rules).
    - ``template``: the page template's name; by default ``"<key>/page.html"``.
    - ``scripts``/``styles``: files of the package's ``static/`` the page loads, in this
      order; by default its ``.js`` and its ``.css`` files, by name (code-point order, so
      ``seafight-prepare.js`` comes before ``seafight.js``), hidden files left out, none
      when there is no ``static/``. Scripts are deferred: they run in this order.

    Equality and hashing are by identity: one object per Set, usable as a template's
    fragment key.
    """

    name: str
    build: Callable[[Context], View] = _unfound
    package: str = ""
    template: str = ""
    scripts: tuple[str, ...] = _FOUND
    styles: tuple[str, ...] = _FOUND
    aliases: tuple[str, ...] = ()
    methods: frozenset[Method] = STANDARD_METHODS
    rules: Rules | None = _NOT_GIVEN
    sample: Mapping[str, str] = field(default_factory=dict)
    engines: Mapping[str, Engine] = _NOT_GIVEN
    botsarena: Botsarena | None = _NOT_GIVEN

    def __post_init__(self) -> None:
        """Fill the fields left to the convention from the package's folders."""
        # Frozen: object.__setattr__, as the dataclass's own __init__ sets its fields.
        if not self.package:
            object.__setattr__(self, "package", _package_of(self.build, self.name))
        if self.build is _unfound:
            build = _found(self.package, "board", "build")
            if not callable(build):
                raise TypeError(f"Set {self.name}: give build=, {self.package}.board has none")
            object.__setattr__(self, "build", build)
        for attribute, module, name, empty in _CONVENTIONS:
            if getattr(self, attribute) is _NOT_GIVEN:
                found = _found(self.package, module, name)
                object.__setattr__(self, attribute, empty if found is None else found)
        object.__setattr__(self, "sample", {**SAMPLE_NAMES, **self.sample})
        if not self.template:
            object.__setattr__(self, "template", f"{self.key}/page.html")
        if self.scripts is _FOUND:
            object.__setattr__(self, "scripts", self._static_files(".js"))
        if self.styles is _FOUND:
            object.__setattr__(self, "styles", self._static_files(".css"))

    def _static_files(self, suffix: str) -> tuple[str, ...]:
        """Return the names of the ``static/`` files ending in ``suffix``, sorted."""
        folder = self.resources("static")
        if not folder.is_dir():
            return ()
        return tuple(
            sorted(
                entry.name
                for entry in folder.iterdir()
                if entry.name.endswith(suffix)
                and not entry.name.startswith(".")
                and entry.is_file()
            )
        )

    @property
    def arbitre(self) -> ArbitreRules | None:
        """Return the rules when the Arbitre can play them (:class:`ArbitreRules`)."""
        rules = self.rules
        needed = (
            "engine_set",
            "levels",
            "start",
            "asked",
            "request",
            "engine_value",
            "person_value",
            "result",
            "final",
            "page",
        )
        if rules is None or not all(hasattr(rules, name) for name in needed):
            return None
        return rules  # type: ignore[return-value]

    @property
    def referee(self) -> Refereeing | None:
        """Return the rules when they answer as a chapter VI referee (:class:`Refereeing`
        beside :class:`ArbitreRules`)."""
        rules = self.arbitre
        if rules is None or not all(
            hasattr(rules, name) for name in ("referee_position", "referee_tray")
        ):
            return None
        return rules  # type: ignore[return-value]

    @property
    def key(self) -> str:
        """Return the lower-case name used in URLs and asset paths."""
        return self.name.lower()

    def resources(self, folder: str) -> Traversable:
        """Return the package's ``templates`` or ``static`` folder."""
        return importlib.resources.files(self.package).joinpath(folder)


# The fields found by convention: (field, module of the Set's package, name in the module).
# The fields found by convention: (field, module of the Set's package, name in the module,
# the value when there is none).
_CONVENTIONS: tuple[tuple[str, str, str, Any], ...] = (
    ("rules", "rules", "RULES", None),
    ("engines", "engines", "ENGINES", MappingProxyType({})),
    ("botsarena", "botsarena", "BOTSARENA", None),
)


def _package_of(build: Callable[[Context], View], name: str) -> str:
    """Return the package of the module defining ``build`` (itself if it is a package)."""
    if build is _unfound:
        raise TypeError(f"Set {name}: give package= (the Set's package, __name__) or build=")
    module = sys.modules.get(getattr(build, "__module__", None) or "")
    package = getattr(module, "__package__", None)
    if not package:
        raise TypeError(f"Set {name}: give package=, the package of build cannot be found")
    return str(package)
