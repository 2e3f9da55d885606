"""What a match is asked as: its seats (:class:`SeatSpec`), its options (:class:`Options`)
and the checks that refuse a match that cannot be played (:class:`GameError`).

Limits (engine protocol section 2.1 and decision 11): ``TimeOut`` 4 to 54 seconds, a rule
``Level`` the Set has, ``Wait`` 0 to 600 tenths of a second, a person's time limit 1 s to a
day, a botsarena bot's 1 to 60 s (seed 003's own limit, 10 s, by default).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from tournoyons_gui.interfaces.plugin import (
    ArbitreRules,
    IllegalMove,
    Turn,
    match_deals,
    starts_from_seed,
    starts_from_tray,
)

__all__ = [
    "BIDI_CONTROLS",
    "DEFAULT_BOT_TIMEOUT",
    "DEFAULT_PERSON_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "MAX_MOVE_TIME",
    "MAX_REGISTERED_NAME",
    "MAX_SEAT_NAME",
    "MAX_SEED",
    "MAX_TIMEOUT",
    "MIN_TIMEOUT",
    "TEXT_PATTERN",
    "GameError",
    "Options",
    "SeatSpec",
    "Taken",
    "check_options",
    "check_registered_name",
    "check_text",
    "first_turn",
]

MIN_TIMEOUT, MAX_TIMEOUT, DEFAULT_TIMEOUT = 4, 54, 20
#: botsarena's own limit for a bot's answer, our default (engine protocol section 4).
DEFAULT_BOT_TIMEOUT = 10
#: Seconds a person has for a move unless the match says otherwise, so that a public Arbitre
#: holds no game open forever: a game its persons abandoned ends, the seat asked losing as
#: having abandoned it.
DEFAULT_PERSON_TIMEOUT = 900
#: The longest ``move_time`` in milliseconds (the longest TimeOut's).
MAX_MOVE_TIME = MAX_TIMEOUT * 1000
#: The largest game seed (a signed 64-bit integer's, so that every store and client keeps
#: it whole).
MAX_SEED = 2**63 - 1


class GameError(ValueError):
    """A game that cannot be made as asked (unknown Set, bad seat, option out of range)."""


class Taken(ValueError):
    """A registration's name taken by another one (an engine's, an interface's): beside
    its kind's own error, it tells the API to answer ``409 Conflict`` rather than 400."""


#: Unicode's explicit bidirectional embeddings, overrides and isolates (UAX #9, 2.1-2.4):
#: in a name they would turn round the text shown after it on the same line, a result or
#: another name included. The marks LRM and RLM (U+200E, U+200F) stay allowed.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: The most characters of a registered engine's or interface's name.
MAX_REGISTERED_NAME = 60
#: The most characters of a seat's name as a game shows it.
MAX_SEAT_NAME = 60
#: What :func:`check_text` refuses, as a JSON Schema pattern (ECMA-262): a text with no
#: control character (Unicode's category Cc: C0, DEL, C1) and no bidirectional control.
TEXT_PATTERN = (
    "^[^\\x00-\\x1f\\x7f-\\x9f" + "".join(f"\\u{ord(c):04x}" for c in sorted(BIDI_CONTROLS)) + "]*$"
)


def check_text(text: str, what: str, most: int) -> str:
    """Return ``text`` with its spaces folded, cut to ``most`` characters; raise
    :class:`GameError` ``"<what> has a control character"`` when it holds one (NUL, C0 or
    C1 controls, DEL, a bidirectional embedding, override or isolate) or a lone surrogate:
    a name is shown, stored and exported as text."""
    if any(unicodedata.category(c) in ("Cc", "Cs") or c in BIDI_CONTROLS for c in text):
        raise GameError(f"{what} has a control character")
    return " ".join(text.split())[:most]


def check_registered_name(name: str) -> str:
    """Return a registration's (an engine's, an interface's: manual I) ``name`` with its
    spaces folded; raise :class:`GameError` ``"a name is 1-60 characters"`` when empty or
    longer, or as :func:`check_text` for a control character."""
    name = check_text(name, "a name", MAX_REGISTERED_NAME + 1)  # one more: too long is refused
    if not 1 <= len(name) <= MAX_REGISTERED_NAME:
        raise GameError(f"a name is 1-{MAX_REGISTERED_NAME} characters")
    return name


@dataclass(frozen=True)
class SeatSpec:
    """A seat as asked for: its ``kind`` (a seat kind's name: ``person``, ``builtin``,
    ``engine``, ``botsarena`` ..., :mod:`~tournoyons_gui.arbitre.seats`), ``engine`` what
    the kind reads (a built-in engine's name, an engine's or a bot's URL, ``""`` for a
    person) and the ``name`` shown."""

    kind: str
    engine: str = ""
    name: str = ""


@dataclass(frozen=True)
class Options:
    """A match's options: ``timeout`` seconds 4-54 (decision 11), rule ``level``, ``wait``
    in tenths of a second for the pages, ``init_as_board`` (decision 14), and
    ``person_timeout`` seconds for a person's move (:data:`DEFAULT_PERSON_TIMEOUT` by
    default; ``None``, in records made before persons had that default: no limit, section 3.1),
    ``bot_timeout`` seconds for a botsarena bot's answer (1-60, default 10); ``deals``:
    the deals a match lasts in a Set played in deals (Tarot, tarot.md section 2; ``None``:
    the Set's default); ``open_table``: spectators of the game in play see every hand
    (tarot.md section 3, "Who sees what"; persons still see only their own); ``seed``: a
    whole number 0 to :data:`MAX_SEED` that makes the game reproducible (the built-in
    engines' choices, :func:`~tournoyons_gui.interfaces.engine_kit.seeded_choices`; the
    cards of a Set the Arbitre deals, :func:`~tournoyons_gui.interfaces.plugin.starts_from_seed`),
    ``None`` (the default, and every record made before it): the system's randomness;
    ``move_time``: the Arbitre's own limit on an engine's or a bot's answer in
    milliseconds, 1 to :data:`MAX_MOVE_TIME` (``play --move-time``, a local run's, below
    the protocol's 4 s minimum if need be: the engine is still sent the ``TimeOut``),
    ``None``: none but the ``TimeOut``."""

    timeout: int = DEFAULT_TIMEOUT
    level: int = 1
    wait: int = 0
    init_as_board: bool = False
    person_timeout: int | None = None
    bot_timeout: int = DEFAULT_BOT_TIMEOUT
    deals: int | None = None
    open_table: bool = False
    seed: int | None = None
    move_time: int | None = None

    def __post_init__(self) -> None:
        if self.person_timeout is None:
            object.__setattr__(self, "person_timeout", DEFAULT_PERSON_TIMEOUT)

    def to_json(self) -> dict[str, Any]:
        """Return the options as stored: ``{"timeout": 10, "level": 1, ...}``, every field
        (``move_time`` only when set: records without it read the same)."""
        stored = asdict(self)
        if self.move_time is None:
            del stored["move_time"]
        return stored

    def limited(self, seconds: float) -> float:
        """Return ``seconds``, or the ``move_time`` (in seconds) when it is shorter."""
        if self.move_time is None:
            return seconds
        return min(seconds, self.move_time / 1000)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Options:
        """Return the options stored as ``data``."""
        return cls(
            int(data.get("timeout", DEFAULT_TIMEOUT)),
            int(data.get("level", 1)),
            int(data.get("wait", 0)),
            bool(data.get("init_as_board", False)),
            bot_timeout=int(data.get("bot_timeout", DEFAULT_BOT_TIMEOUT)),
            deals=None if data.get("deals") is None else int(data["deals"]),
            open_table=bool(data.get("open_table", False)),
            seed=None if data.get("seed") is None else int(data["seed"]),
            move_time=None if data.get("move_time") is None else int(data["move_time"]),
        )._stored(data.get("person_timeout"))

    def _stored(self, person_timeout: Any) -> Options:
        # A record made before the default limit keeps no limit (section 3.1).
        object.__setattr__(self, "person_timeout", person_timeout)
        return self


def check_options(name: str, rules: ArbitreRules | None, options: Options) -> ArbitreRules:
    """Return the rules of the Set called ``name`` when the match ``options`` suit them;
    raise :class:`GameError` (no rules the Arbitre plays, TimeOut 4-54 s, a Level the Set
    has, Wait 0-600, the persons' and bots' limits, ``deals`` only for a Set played in deals
    and within its range, a ``seed`` 0 to :data:`MAX_SEED`, a ``move_time`` 1 to
    :data:`MAX_MOVE_TIME` milliseconds)."""
    if rules is None:
        raise GameError(f"{name} has no rules the Arbitre can play")
    if not MIN_TIMEOUT <= options.timeout <= MAX_TIMEOUT:
        raise GameError(f"TimeOut is {MIN_TIMEOUT} to {MAX_TIMEOUT} seconds")
    if options.level not in rules.levels:
        raise GameError(
            f"{name} has no Level {options.level} (levels: {', '.join(map(str, rules.levels))})"
        )
    if not 0 <= options.wait <= 600:
        raise GameError("Wait is 0 to 600 tenths of a second")
    if options.person_timeout is not None and not 1 <= options.person_timeout <= 86400:
        raise GameError("a person's time limit is 1 to 86400 seconds")
    if not 1 <= options.bot_timeout <= 60:
        raise GameError("a botsarena bot's time limit is 1 to 60 seconds")
    if options.deals is not None:
        deals = match_deals(rules)
        if deals is None:
            raise GameError(f"{name} is not played in deals")
        if options.deals not in deals:
            raise GameError(f"a match of {name} is {deals[0]} to {deals[-1]} deals")
    seed = options.seed
    if seed is not None and (type(seed) is not int or not 0 <= seed <= MAX_SEED):
        raise GameError(f"a seed is a whole number 0 to {MAX_SEED}")
    move_time = options.move_time
    if move_time is not None and not 1 <= move_time <= MAX_MOVE_TIME:
        raise GameError(f"a move time is 1 to {MAX_MOVE_TIME} milliseconds")
    return rules


def first_turn(
    set_name: str,
    rules: ArbitreRules,
    level: int,
    start_tray: str | None,
    deals: int | None = None,
    seed: int | None = None,
) -> Turn:
    """Return the Turn a game starts from: the Set's start (a match of ``deals`` deals
    when given, for a Set played in deals: :func:`match_deals`), or the position
    ``start_tray`` describes (seed 000 II, decision 15) for a Set whose Tray holds the
    whole position; dealt from ``seed`` when given, for a Set that deals from one
    (:func:`starts_from_seed`; others ignore it); raise :class:`GameError` for another
    Set or a Tray that is not a reachable position."""
    start: Any = rules.start
    chance: dict[str, int] = {}
    if seed is not None and starts_from_seed(rules):
        chance["seed"] = seed
    if start_tray is None or not start_tray.strip():
        if deals is not None and match_deals(rules) is not None:
            turn: Turn = start(level, deals=deals, **chance)
            return turn
        turn = start(level, **chance)
        return turn
    if not starts_from_tray(rules):
        raise GameError(
            f"{set_name} cannot start from a position: its Tray does not hold the whole game"
        )
    try:
        turn = start(level, start_tray.strip(), **chance)
    except IllegalMove as illegal:
        raise GameError(f"the start Tray is not a position of {set_name}: {illegal}") from None
    return turn
