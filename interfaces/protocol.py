"""The Tournoyons query-string language, read once for every Set.

An interface page is a pure function of its query string (manual, chapter II: "ce contexte
étant intégralement décrit via les paramètres passés en QueryString"). This module turns the
raw bytes of that query string into a typed :class:`Context`; the Set's plugin then reads
its own syntax (``Tray``, ``Gain1``/``Gain2``, ``Move1``/``Move2``) from it.

Sources: spec ``interface-protocol.md`` sections 2 and 3; manual chapter IV.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Self, TypeVar

__all__ = [
    "PAIR",
    "Context",
    "Method",
    "PageParams",
    "ParamError",
    "Player",
    "decode_value",
    "opponent_move",
    "pair_player",
    "parse_query",
    "read_context",
    "read_param",
    "safe_return_url",
]

# Aliases seen in the manual's own example call (spec section 2, Decision).
_ALIASES = {"mode": "method", "return": "urlreturn"}

# WebTest values that leave it off (spec section 3, Decision); anything else turns it on.
_WEBTEST_OFF = frozenset({"", "no", "non", "0", "false", "off"})

# The longest Wait honoured, in tenths of a second: a minute. Longer asks are clamped.
MAX_WAIT = 600

# A single text parameter is cut at this many characters: a name or legend longer than
# this cannot be shown in a 736x660 frame, and the cap bounds the page's size.
MAX_TEXT = 2000


class Method(enum.StrEnum):
    """Display method (spec section 2, ``Method``); the value is the lower-case name."""

    STANDARD = "standard"
    END = "end"
    NONE = "none"
    PREPARE = "prepare"
    DOUBLE = "double"
    INVERSE = "inverse"

    @property
    def takes_input(self) -> bool:
        """Whether a page drawn with this Method may ask for a value: never at ``End`` (the
        final position) or ``None`` (no board), interface protocol section 2."""
        return self not in (Method.END, Method.NONE)


class Player(enum.IntEnum):
    """A seat in play order, 1-based: player one (first to play, ``Name1``/``Move1``/
    ``Gain1``), player two, and for Sets of more seats (four-seat Tarot, ``docs/reference/
    tarot.md`` section 3) players three and four, spelled ``Input=Three``/``Four``.

    A two-seat Set only ever meets :data:`PAIR`; iterate over it, not over the class."""

    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4

    @property
    def opponent(self) -> Player:
        """Return the other player of a two-seat game; raise ``ValueError`` for a seat
        beyond the second (a game of more seats has no single opponent)."""
        if self is Player.ONE:
            return Player.TWO
        if self is Player.TWO:
            return Player.ONE
        raise ValueError(f"player {int(self)} has no single opponent")

    @property
    def word(self) -> str:
        """Return the player as ``Input`` spells it: ``One``, ``Two``, ``Three``, ``Four``."""
        return self.name.capitalize()


#: The two players of a two-seat game, in play order.
PAIR: tuple[Player, Player] = (Player.ONE, Player.TWO)


def pair_player(number: object) -> Player:
    """Return player one or two, numbered ``number`` (``1``, ``"2"`` ...), as a two-seat
    game's state or Tray names them; raise ``ValueError`` for any other (a corrupt state
    naming player 3 is refused like one naming player 9)."""
    player = Player(int(str(number)))
    if player not in PAIR:
        raise ValueError(f"a game of two has no player {int(player)}")
    return player


@dataclass(frozen=True)
class ParamError:
    """A parameter that could not be read.

    ``code`` is the lower-case parameter name (``tray``, ``color``, ``move1`` ...): it is what
    the page puts in its ``data-error`` attribute (spec section 6). ``detail`` is for logs and
    the tester, never shown on an interface page (the page adds no words, spec section 1).
    """

    code: str
    detail: str


@dataclass(frozen=True)
class Context:
    """Everything the Arbitre said in one query string, decoded and validated.

    Texts (``name1``, ``name2``, ``legend``, ``count``) are plain ``str`` to be shown as
    text. Set-specific values (``tray``, ``move1``, ``move2``, ``gain1``, ``gain2``) are
    left raw (decoded, stripped of surrounding spaces) or ``None`` when absent or empty;
    the Set's plugin reads them. ``errors`` lists the shared parameters that were present
    but unreadable; each was replaced by its default.
    """

    set_name: str | None = None
    method: Method = Method.STANDARD
    tray: str | None = None
    move1: str | None = None
    move2: str | None = None
    gain1: str | None = None
    gain2: str | None = None
    input: Player | None = None
    name1: str = ""
    name2: str = ""
    move3: str | None = None
    move4: str | None = None
    gain3: str | None = None
    gain4: str | None = None
    name3: str = ""
    name4: str = ""
    legend: str = ""
    count: str = ""
    color: str | None = None
    url_return: str | None = None
    wait: int = 0
    mute: bool = False
    webtest: bool = False
    errors: tuple[ParamError, ...] = field(default=())

    @property
    def tray_is_init(self) -> bool:
        """Return whether ``Tray`` asks for the start position (``Init``, any case)."""
        return self.tray is not None and self.tray.lower() == "init"

    def move(self, player: Player) -> str | None:
        """Return ``Move1`` .. ``Move4``: ``player``'s."""
        value: str | None = getattr(self, f"move{int(player)}")
        return value

    def gain(self, player: Player) -> str | None:
        """Return ``Gain1`` .. ``Gain4``: ``player``'s."""
        value: str | None = getattr(self, f"gain{int(player)}")
        return value

    def name(self, player: Player) -> str:
        """Return ``Name1`` .. ``Name4``: ``player``'s."""
        value: str = getattr(self, f"name{int(player)}")
        return value


@dataclass(frozen=True)
class PageParams:
    """The next interface page's parameters, as a Set's rules write them (``Turn.params``).

    A writer: each method returns a new one with one more parameter, in the order written
    (the order the page's query string and the tester's log show); a name written again
    keeps its place and takes the new value, as in a ``dict``. Values are typed and spelled
    as the Arbitre spells them: ``Input`` ``One``/``Two`` from a :class:`Player`, ``Method``
    ``End``/``Prepare`` ... from a :class:`Method`, ``Count`` and gains from numbers.
    ``params`` is the mapping. Source: spec section 2 (the parameters), manual chapter IV.
    """

    pairs: tuple[tuple[str, str], ...] = ()

    @classmethod
    def shown(cls, params: Mapping[str, str]) -> Self:
        """Return a writer holding a hot-seat turn's ``params`` without ``Input``: the page
        as the Arbitre shows it (``ArbitreRules.page``), which adds ``Input`` itself to the
        page of the player it asks."""
        return cls(tuple((name, value) for name, value in params.items() if name != "Input"))

    @property
    def params(self) -> dict[str, str]:
        """Return the parameters written, ``{"Tray": ..., "Input": "One", ...}``."""
        return dict(self.pairs)

    def _add(self, name: str, value: str) -> Self:
        return type(self)((*self.pairs, (name, value)))

    def extend(self, other: PageParams) -> Self:
        """Write ``other``'s parameters after these."""
        return type(self)((*self.pairs, *other.pairs))

    def tray(self, value: str) -> Self:
        """Write ``Tray``."""
        return self._add("Tray", value)

    def move(self, player: Player, value: str) -> Self:
        """Write ``Move1`` or ``Move2``: ``player``'s move."""
        return self._add(f"Move{int(player)}", value)

    def gain(self, player: Player, value: str | int) -> Self:
        """Write ``Gain1`` or ``Gain2``: ``player``'s gain (a number, or the Set's text)."""
        return self._add(f"Gain{int(player)}", str(value))

    def gains(self, one: str | int, two: str | int) -> Self:
        """Write ``Gain1`` then ``Gain2``."""
        return self.gain(Player.ONE, one).gain(Player.TWO, two)

    def count(self, value: int) -> Self:
        """Write ``Count``: the moves (rounds, deals ...) played, as the Set counts them."""
        return self._add("Count", str(value))

    def input(self, player: Player) -> Self:
        """Write ``Input``: ``One``, ``Two`` (``Three``, ``Four``), the player asked."""
        return self._add("Input", player.word)

    def method(self, method: Method) -> Self:
        """Write ``Method``: ``Standard``, ``End``, ``None``, ``Prepare``, ``Double`` or
        ``Inverse``."""
        return self._add("Method", method.value.capitalize())

    def ask(self, player: Player | None) -> Self:
        """Write ``Input`` for ``player``, or ``Method=End`` when nobody is asked (the game
        is over)."""
        return self.method(Method.END) if player is None else self.input(player)

    def played(
        self,
        player: Player,
        value: str,
        tray: str,
        count: int,
        over: bool,
        gains: tuple[str | int, str | int] | None = None,
    ) -> Self:
        """Write the page after ``player`` played ``value`` in a game taken in turns:
        ``Tray``, ``player``'s Move, ``Gain1``/``Gain2`` when ``gains`` are given, ``Count``,
        then ``Input`` for the opponent, or ``Method=End`` when the game is ``over``."""
        written = self.tray(tray).move(player, value)
        if gains is not None:
            written = written.gains(*gains)
        return written.count(count).ask(None if over else player.opponent)

    def legend(self, text: str) -> Self:
        """Write ``Legend``: a text the page shows as given."""
        return self._add("Legend", text)


def opponent_move(moves: Mapping[str, object], player: Player) -> dict[str, str]:
    """Return ``{"Move2": ...}`` (or ``Move1``): the last move of ``player``'s opponent, as
    ``player``'s engine is sent it (engine protocol section 2.1), read from ``moves["move2"]``
    (``move1``), where a Set's rules keep it in their state; ``{}`` before that move."""
    opponent = int(player.opponent)
    last = moves.get(f"move{opponent}")
    return {f"Move{opponent}": str(last)} if last else {}


_Read = TypeVar("_Read")


def read_param(
    read: Callable[[str], _Read],
    value: str | None,
    code: str,
    errors: list[ParamError],
    detail: str | None = None,
) -> _Read | None:
    """Return ``read(value)``, a Set's own value (``Gain1``, ``Move2`` ...); ``None`` when
    ``value`` is absent. When ``read`` raises ``ValueError`` the value is not drawn: return
    ``None`` and add the error ``code`` to ``errors``, with ``detail`` or the error's
    message (spec section 6: the page shows the parameter it could not read)."""
    if value is None:
        return None
    try:
        return read(value)
    except ValueError as error:
        errors.append(ParamError(code, detail if detail is not None else str(error)))
        return None


# --- decoding ---------------------------------------------------------------------------

_PERCENT = re.compile(rb"%u([0-9A-Fa-f]{4})|%([0-9A-Fa-f]{2})")


def _utf8_length(lead: int) -> int:
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 1


def _decode_bytes(run: bytes) -> str:
    """Decode bytes as UTF-8 where they form valid sequences, else one Latin-1 char each.

    This is JavaScript ``unescape`` (which maps ``%E9`` to U+00E9) widened to understand
    the UTF-8 that modern hosts send (``%C3%A9``): spec section 2, Decision (decoding).
    """
    try:
        return run.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out: list[str] = []
    i = 0
    while i < len(run):
        lead = run[i]
        size = _utf8_length(lead) if lead >= 0x80 else 1
        if size > 1:
            try:
                out.append(run[i : i + size].decode("utf-8"))
                i += size
                continue
            except UnicodeDecodeError:
                pass
        out.append(chr(lead))
        i += 1
    return "".join(out)


def decode_value(raw: bytes) -> str:
    """Decode one query-string name or value: ``+``, ``%XX``, ``%uXXXX``, raw bytes.

    ``+`` is a space; ``%uXXXX`` is one UTF-16 code unit (surrogate pairs are joined, a lone
    surrogate becomes U+FFFD); runs of ``%XX`` and raw non-ASCII bytes are decoded by
    :func:`_decode_bytes`. A ``%`` not followed by a valid escape stays as it is, as
    ``unescape`` leaves it. Never raises.
    """
    raw = raw.replace(b"+", b" ")
    if b"%" not in raw:
        return _decode_bytes(raw)
    pieces: list[str] = []
    pending = bytearray()  # bytes awaiting UTF-8 / Latin-1 decoding
    units: list[int] = []  # UTF-16 code units from %uXXXX awaiting pairing

    def flush_bytes() -> None:
        if pending:
            pieces.append(_decode_bytes(bytes(pending)))
            pending.clear()

    def flush_units() -> None:
        if units:
            text = b"".join(u.to_bytes(2, "big") for u in units)
            pieces.append(text.decode("utf-16-be", errors="replace"))
            units.clear()

    pos = 0
    for match in _PERCENT.finditer(raw):
        literal = raw[pos : match.start()]
        if literal:
            flush_units()
            pending.extend(literal)
        if match.group(1) is not None:
            flush_bytes()
            units.append(int(match.group(1), 16))
        else:
            flush_units()
            pending.append(int(match.group(2), 16))
        pos = match.end()
    tail = raw[pos:]
    if tail:
        flush_units()
        pending.extend(tail)
    flush_units()
    flush_bytes()
    return "".join(pieces)


def parse_query(query: bytes | str) -> dict[str, str]:
    """Split a raw query string into ``{lower-case name: decoded value}``.

    Names are case-insensitive (spec section 2) and the aliases ``Mode`` (``Method``) and
    ``Return`` (``URLReturn``) are folded into their canonical names. Pairs are split on
    ``&`` and on the first ``=``; a name without ``=`` has the value ``""``. When a name is
    repeated the last one wins, as in the manual's reference page (annex B), which reads
    the pairs in order.
    """
    if isinstance(query, str):
        query = query.encode("utf-8", errors="surrogateescape")
    params: dict[str, str] = {}
    for pair in query.split(b"&"):
        if not pair:
            continue
        raw_name, _, raw_value = pair.partition(b"=")
        name = decode_value(raw_name).strip().lower()
        if not name:
            continue
        params[_ALIASES.get(name, name)] = decode_value(raw_value)
    return params


# --- validation -------------------------------------------------------------------------

_COLOR = re.compile(r"#?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")
# What a browser's URL parser silently drops before reading a scheme.
_URL_INVISIBLE = re.compile(r"[\t\n\r]")
_C0_AND_SPACE = "".join(chr(c) for c in range(0x21))


def safe_return_url(value: str) -> str | None:
    """Return ``value`` if a browser would load it as an ``http:``/``https:`` URL, else ``None``.

    Absolute ``http``/``https`` URLs, scheme-relative (``//host/path``) and relative URLs
    are accepted; every other scheme (``javascript:``, ``data:``, ``vbscript:`` ...) is
    refused, including when disguised by the characters a URL parser ignores (tabs and
    newlines anywhere, control characters and spaces around): spec section 3, Decision.
    The returned URL has those characters removed, so what is checked is what is loaded.
    """
    url = _URL_INVISIBLE.sub("", value).strip(_C0_AND_SPACE)
    if not url or "\\" in url[:12]:
        return None
    match = _SCHEME.match(url)
    if match and match.group(1).lower() not in ("http", "https"):
        return None
    return url


def _text(params: dict[str, str], name: str) -> str:
    return params.get(name, "")[:MAX_TEXT]


def _optional(params: dict[str, str], name: str) -> str | None:
    value = params.get(name, "").strip()
    return value[:MAX_TEXT] or None


def read_context(params: dict[str, str] | bytes | str, seats: int = 2) -> Context:
    """Read the shared parameters of spec section 2 into a :class:`Context`.

    Accepts the output of :func:`parse_query` or a raw query string. Never raises: a value
    that cannot be read is replaced by its default and reported in ``Context.errors``
    (``color`` not 3 or 6 hex digits, ``urlreturn`` not http/https, ``method``, ``input``,
    ``wait`` not understood). Unknown parameters (``Game``, ``MoveId``, ``Turn`` ...) are
    ignored. ``seats``: the Set's seats (``seat_count`` of its rules); a Set of four
    (Tarot, ``tarot.md`` section 3) also reads ``Name3``/``Name4``, ``Gain3``/``Gain4``,
    ``Move3``/``Move4`` and ``Input=Three``/``Four``, which a Set of two never sees.
    """
    if not isinstance(params, dict):
        params = parse_query(params)
    errors: list[ParamError] = []

    method = Method.STANDARD
    if "method" in params:
        raw = params["method"].strip().lower()
        if raw:
            try:
                method = Method(raw)
            except ValueError:
                errors.append(ParamError("method", f"unknown Method {raw[:40]!r}"))

    player: Player | None = None
    if "input" in params:
        raw = params["input"].strip().lower()
        inputs = {seat.word.lower(): seat for seat in Player if seat <= max(seats, 2)}
        inputs.update({str(int(seat)): seat for seat in inputs.values()})
        if raw in inputs:
            player = inputs[raw]
        elif raw:
            words = " or ".join(seat.capitalize() for seat in inputs if not seat.isdigit())
            errors.append(ParamError("input", f"Input is {words}, not {raw[:40]!r}"))

    color: str | None = None
    if params.get("color", "").strip():
        match = _COLOR.fullmatch(params["color"].strip())
        if match:
            color = "#" + match.group(1).lower()
        else:
            errors.append(ParamError("color", "Color is 3 or 6 hex digits"))

    url_return: str | None = None
    if params.get("urlreturn", "").strip():
        url_return = safe_return_url(params["urlreturn"])
        if url_return is None:
            errors.append(ParamError("urlreturn", "URLReturn must be an http or https URL"))

    wait = 0
    raw_wait = params.get("wait", "").strip()
    if raw_wait:
        if raw_wait.isascii() and raw_wait.isdigit():
            wait = int(raw_wait[:6])
            if wait > MAX_WAIT:
                wait = MAX_WAIT
                errors.append(ParamError("wait", f"Wait is clamped to {MAX_WAIT} tenths"))
        else:
            errors.append(ParamError("wait", "Wait is a whole number of tenths of a second"))

    return Context(
        set_name=_optional(params, "set"),
        method=method,
        tray=_optional(params, "tray"),
        move1=_optional(params, "move1"),
        move2=_optional(params, "move2"),
        gain1=_optional(params, "gain1"),
        gain2=_optional(params, "gain2"),
        input=player,
        name1=_text(params, "name1"),
        name2=_text(params, "name2"),
        legend=_text(params, "legend"),
        count=_text(params, "count"),
        color=color,
        url_return=url_return,
        wait=wait,
        mute="mute" in params,
        webtest="webtest" in params and params["webtest"].strip().lower() not in _WEBTEST_OFF,
        errors=tuple(errors),
        **_more_seats(params, seats),
    )


def _more_seats(params: dict[str, str], seats: int) -> dict[str, Any]:
    """Return the ``Context`` fields of seats 3 and 4 that a Set of ``seats`` reads."""
    more: dict[str, Any] = {}
    for number in range(3, min(seats, len(Player)) + 1):
        more[f"move{number}"] = _optional(params, f"move{number}")
        more[f"gain{number}"] = _optional(params, f"gain{number}")
        more[f"name{number}"] = _text(params, f"name{number}")
    return more


def error_codes(errors: Iterable[ParamError]) -> str:
    """Return the ``data-error`` value: the distinct codes, space-separated, in order."""
    return " ".join(dict.fromkeys(error.code for error in errors))
