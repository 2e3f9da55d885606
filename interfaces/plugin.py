"""The contract between the host and a Set's plugin.

A Set is a package (``interfaces/<set>/`` for the built-in ones) that exports one
:class:`SetInterface` and declares it in the entry-point group ``tournoyons.interfaces``:

.. code-block:: toml

    [project.entry-points."tournoyons.interfaces"]
    checkers = "my_checkers:interface"

The package carries ``templates/<key>/`` (its page, extending ``_interface.html``) and
``static/`` (its script and stylesheet) beside its code. It knows one game and nothing of
HTTP: it turns a :class:`~interfaces.protocol.Context` into a view model, and may carry the
game's rules for the tester (manual chapter VI: "jeu ajouté").
"""

from __future__ import annotations

import importlib.resources
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from typing import Any, Protocol

from interfaces.protocol import Context, Method, ParamError, Player

__all__ = ["IllegalMove", "Rules", "SetInterface", "Turn", "View"]

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
class SetInterface:
    """One Set: its names, its parser, its page and assets, optionally its rules.

    - ``name``: canonical spelling (``"TicTacToe"``), shown in ``data-set``; the URL key
      is ``name.lower()`` (``/tictactoe/``).
    - ``build``: ``Context -> View``; reads ``Tray``, ``Gain1``/``Gain2``, ``Move1``/``Move2``.
      Must not raise on any input: a value it cannot read goes in ``View.errors``.
    - ``package``: the import name of the package holding ``templates/`` and ``static/``.
    - ``template``: the page template's name, ``"<key>/page.html"`` by convention.
    - ``scripts``/``styles``: files of the package's ``static/`` the page loads.
    - ``aliases``: other names accepted for ``Set`` (French names, other spellings).
    - ``methods``: the Methods the Set draws; any other is read as ``Standard``.
    - ``rules``: the game's rules, for the tester; ``None`` if the Set has none.
    - ``sample``: query parameters the tester proposes for a first look.
    """

    name: str
    build: Callable[[Context], View]
    package: str
    template: str
    scripts: tuple[str, ...] = ()
    styles: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    methods: frozenset[Method] = STANDARD_METHODS
    rules: Rules | None = None
    sample: Mapping[str, str] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """Return the lower-case name used in URLs and asset paths."""
        return self.name.lower()

    def resources(self, folder: str) -> Traversable:
        """Return the package's ``templates`` or ``static`` folder."""
        return importlib.resources.files(self.package).joinpath(folder)
