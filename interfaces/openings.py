"""Openings: the start positions a match plays each game from, one Tray a line.

An openings suite is text: one Tray a line (a position in the Set's own Tray syntax, as its
engines receive it, engine protocol section 4), blank lines and ``#`` comments allowed (a
line whose first character that is not a space is ``#``, or a Tray followed by spaces then
``#``). Every Tray must be a position a game of the Set can start from and go on
(decision 15: :func:`~tournoyons_gui.interfaces.plugin.starts_from_tray`; the rules'
``start(level, tray)`` accepts it), each position once, the game not over there.

A Set ships its suite as ``openings.txt`` in its own package, beside its rules, read with
:func:`importlib.resources.files` (:func:`builtin_openings`): the built-in grid Sets'
(``interfaces/<set>/openings.txt``) were made by ``scripts/make_openings.py``; a third
party's Set ships its own the same way, with no edit elsewhere.

A match plays each opening twice, seats swapped (a pair: fastchess's and cutechess's
``-openings`` with ``-repeat``); the command line's ``play --openings`` reads a suite with
:func:`load_openings`, and orders and seeds its pairs with :func:`ordered` and
:func:`pair_seed` so that ``--seed`` replays a whole run.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import json
import random
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tournoyons_gui.interfaces.plugin import (
    IllegalMove,
    Rules,
    SetInterface,
    TrayStarts,
    starts_from_tray,
)

__all__ = [
    "BUILTIN",
    "MAX_OPENINGS",
    "MAX_OPENINGS_BYTES",
    "MAX_TRAY",
    "OPENINGS_FILE",
    "Opening",
    "OpeningsError",
    "builtin_openings",
    "load_openings",
    "ordered",
    "pair_seed",
    "read_openings",
]

#: The file a Set's package ships its suite in.
OPENINGS_FILE = "openings.txt"
#: What ``play --openings`` calls a Set's shipped suite, and the ``source`` of its openings.
BUILTIN = "builtin"
#: The most characters of one line (Pente's Tray, the longest of ours, has 361).
MAX_TRAY = 4000
#: The most openings of one suite, and the most bytes of a suite's file.
MAX_OPENINGS = 10_000
MAX_OPENINGS_BYTES = 4_000_000


class OpeningsError(ValueError):
    """An openings suite that cannot be played; the message names its source and line
    (``"book.txt, line 3: not a position of ConnectFour: a ConnectFour Tray is 42
    characters 0, 1 or 2"``)."""


@dataclass(frozen=True)
class Opening:
    """One start position of a suite: its ``line`` (1 the first) in its ``source`` (a
    file's path as given, or ``"builtin"`` for a Set's shipped suite) and its ``tray`` (the
    Set's Tray, as the rules' ``start(level, tray)`` takes it)."""

    line: int
    tray: str
    source: str


def read_openings(
    text: str, rules: Rules | None, set_name: str, source: str, *, level: int | None = None
) -> list[Opening]:
    """Return the openings of the suite ``text`` (see the module) for the Set
    ``set_name`` played by ``rules``, in the order written; ``source`` names the text in
    messages and in each :class:`Opening`; ``level``: the rule level the positions are
    checked at (by default the rules' first).

    Each Tray is checked by starting a game from it (``rules.start(level, tray)``,
    decision 15), so a suite is refused before any game is played. Raise
    :class:`OpeningsError` naming the line and why: a control character (NUL ...) or a
    lone surrogate, a line over :data:`MAX_TRAY` characters, two words on a line, a Tray
    that is not a position of this Set (another Set's, a malformed one, unreachable: the
    rules' reason), a position where the game is over, the same position as an earlier
    line, more than :data:`MAX_OPENINGS` openings; without a line, a Set whose Tray does
    not hold the whole position (no rules, or rules that cannot start from a Tray) and a
    suite with no Tray at all.
    """
    played = _tray_rules(rules, set_name, source)
    level = played.levels[0] if level is None else level
    openings: list[Opening] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.split("\n"), 1):
        where = f"{source}, line {number}"
        tray = _tray_of(raw.removesuffix("\r"), where)
        if not tray:
            continue
        if len(openings) == MAX_OPENINGS:
            raise OpeningsError(f"{where}: a suite has at most {MAX_OPENINGS} openings")
        try:
            turn = played.start(level, tray)
            over = turn.over or played.result(turn.state) is not None
        except IllegalMove as illegal:
            raise OpeningsError(f"{where}: not a position of {set_name}: {illegal}") from None
        except (ValueError, KeyError, TypeError, IndexError) as broken:
            # A plugin's rules that fail on a Tray rather than refuse it: refused all the same.
            reason = f"{type(broken).__name__}: {broken}"[:200]
            raise OpeningsError(f"{where}: not a position of {set_name} ({reason})") from None
        if over:
            raise OpeningsError(f"{where}: the game is over in this position of {set_name}")
        key = _position_key(turn.state)
        if key in seen:
            raise OpeningsError(f"{where}: the same position as line {seen[key]}")
        seen[key] = number
        openings.append(Opening(number, tray, source))
    if not openings:
        raise OpeningsError(f"{source}: no opening (every line is blank or a comment)")
    return openings


def builtin_openings(interface: SetInterface | str) -> tuple[Opening, ...]:
    """Return the suite the Set ``interface`` ships (its package's
    :data:`OPENINGS_FILE`, :func:`importlib.resources.files`), each opening's source
    :data:`BUILTIN`; ``()`` when it ships none (or has no package: an added Set). A Set's
    name is looked up among the installed Sets (``KeyError`` when there is none of that
    name). Read and checked once per Set and process; raise :class:`OpeningsError` when
    the shipped file is not a suite of the Set (:func:`read_openings`)."""
    if isinstance(interface, str):
        from tournoyons_gui.interfaces.registry import load_registry

        found = load_registry(only=interface).get(interface)
        if found is None:
            raise KeyError(f"no Set called {interface!r}")
        interface = found
    package = getattr(interface, "package", "")
    if not package:
        return ()
    key = (package, interface.name)
    suite = _SHIPPED.get(key)
    if suite is None:
        suite = _SHIPPED[key] = _shipped(package, interface.name, interface.rules)
    return suite


#: The suites read so far, by (package, Set name): each is read and checked once.
_SHIPPED: dict[tuple[str, str], tuple[Opening, ...]] = {}


def _shipped(package: str, name: str, rules: Rules | None) -> tuple[Opening, ...]:
    """Return the suite shipped in ``package`` (see :func:`builtin_openings`)."""
    resource = importlib.resources.files(package).joinpath(OPENINGS_FILE)
    if not resource.is_file():
        return ()
    text = _decoded(resource.read_bytes(), f"{name}'s {OPENINGS_FILE}")
    return tuple(read_openings(text, rules, name, BUILTIN))


def load_openings(choice: str, interface: SetInterface) -> tuple[Opening, ...]:
    """Return the openings ``choice`` names for the Set ``interface``: :data:`BUILTIN`
    (its shipped suite, :func:`builtin_openings`), else the path of a suite's file (UTF-8,
    at most :data:`MAX_OPENINGS_BYTES` bytes), each opening's source the path as given.

    Raise :class:`OpeningsError` for a Set that ships no suite, a file that cannot be
    read (missing, a folder, too big), text that is not UTF-8 (naming the line of the
    first bad byte), or a suite :func:`read_openings` refuses."""
    if choice == BUILTIN:
        found = builtin_openings(interface)
        if not found:
            raise OpeningsError(f"{interface.name} ships no openings: give a file of Trays")
        return found
    path = Path(choice)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_OPENINGS_BYTES + 1)
    except OSError as failed:
        raise OpeningsError(f"{choice}: cannot be read ({failed.strerror or failed})") from None
    if len(data) > MAX_OPENINGS_BYTES:
        raise OpeningsError(f"{choice}: a suite has at most {MAX_OPENINGS_BYTES} bytes")
    text = _decoded(data, choice)
    return tuple(read_openings(text, interface.rules, interface.name, choice))


def ordered(openings: Iterable[Opening], seed: int | None) -> list[Opening]:
    """Return ``openings`` in the order a run plays them: shuffled by
    ``random.Random("openings-<seed>")`` (the same order on every machine for one
    ``seed``), or by the system's randomness when ``seed`` is ``None``."""
    found = list(openings)
    generator = random.SystemRandom() if seed is None else random.Random(f"openings-{seed}")
    generator.shuffle(found)
    return found


def pair_seed(seed: int, pair: int) -> int:
    """Return the game seed (the match option ``seed``, 0 to 2**63 - 1) both games of pair
    ``pair`` (1 the first) of a run of seed ``seed`` are played with: the first 63 bits of
    SHA-256 of ``"pair-<seed>-<pair>"``, so a pair's two games are dealt alike (a
    duplicate deal) and every pair differently, the same on every machine."""
    digest = hashlib.sha256(f"pair-{seed}-{pair}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _tray_rules(rules: Rules | None, set_name: str, source: str) -> TrayStarts:
    """Return ``rules`` when they start from a Tray; raise :class:`OpeningsError`."""
    if rules is not None and starts_from_tray(rules):
        return rules
    raise OpeningsError(
        f"{source}: {set_name} cannot start from a position (its Tray does not hold "
        "the whole game), so it has no openings"
    )


def _tray_of(raw: str, where: str) -> str:
    """Return the Tray of the line ``raw`` (``""``: blank or a comment); raise
    :class:`OpeningsError` for a line no Tray can be."""
    if len(raw) > MAX_TRAY:
        raise OpeningsError(f"{where}: a line has at most {MAX_TRAY} characters")
    for character in raw:
        category = unicodedata.category(character)
        if category == "Cs":
            raise OpeningsError(f"{where}: a lone surrogate is not text")
        if category == "Cc" and character not in "\t":
            raise OpeningsError(f"{where}: control character U+{ord(character):04X}")
    words = raw.split()
    if not words or words[0].startswith("#"):
        return ""
    if len(words) > 1 and not words[1].startswith("#"):
        raise OpeningsError(f"{where}: one Tray a line (a comment follows a # sign)")
    return words[0]


def _decoded(data: bytes, source: str) -> str:
    """Return ``data`` decoded as UTF-8 (a byte-order mark dropped); raise
    :class:`OpeningsError` naming the line of the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as bad:
        line = data.count(b"\n", 0, bad.start) + 1
        raise OpeningsError(f"{source}, line {line}: not UTF-8 text") from None


def _position_key(state: Any) -> str:
    """Return a text that two starts from the same position share: their state as JSON."""
    return json.dumps(state, sort_keys=True, default=str)
