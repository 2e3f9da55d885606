"""The plain records the store hands out: what the game master, the pages, the JSON API and
the templates read, never ORM rows (the tables are :mod:`.schema`, the store's own).

Each record has the fields of its table, by the same names, so that a template reads
``game.status`` or ``seat.name`` whatever holds it. They are mutable: the game master
keeps a game's record while it drives it (its turn, its move count, a seat's error) and
the store writes what changed. Times are aware UTC datetimes.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

__all__ = [
    "CHECK_STATUSES",
    "AddedSetRecord",
    "CheckRun",
    "Engine",
    "Entrant",
    "Exchange",
    "Game",
    "GameEnd",
    "GamePage",
    "InterfaceRecord",
    "LogEntry",
    "Match",
    "MatchEntry",
    "MatchGame",
    "MatchResult",
    "Move",
    "NewMove",
    "Received",
    "Room",
    "Seat",
    "SeatEnd",
    "Tournament",
    "record_of",
]

R = TypeVar("R")


#: Each record class's field names, read once: ``fields()`` is slow, and a page of records
#: asked it for every row.
_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    """Return the field names of the record class ``cls``."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(item.name for item in fields(cls))
    return names


def record_of(cls: type[R], row: Any) -> R:
    """Return the record ``cls`` holding ``row``'s fields (same names), times made aware."""
    values = {}
    for name in _names(cls):
        value = getattr(row, name)
        if isinstance(value, dt.datetime) and value.tzinfo is None:
            value = value.replace(tzinfo=dt.UTC)  # SQLite gives back UTC without a zone
        values[name] = value
    return cls(**values)


@dataclass(slots=True)
class Game:
    """A game: ``turn`` the current Turn as stored (``{"state", "params", "over"}``),
    ``first`` the Turn it started from, ``moves`` the moves recorded, ``status``
    ``playing``, ``over`` or ``interrupted``; ``winner`` the seat index that won alone (0
    the first seat) or ``None``; ``result`` ``seat1``..``seatN``, ``draw``, ``ranked``
    (a ranking of more seats) or ``error``; ``options`` the match options as stored; the
    lease (``lease_owner``, ``lease_until``); the tournament it belongs to, its round,
    pairing and entrants in seats 0 and 1; the seat kind that binds it to the process
    holding its players' connections (``bound``) and that process (``holder``), or
    ``None``."""

    id: str
    set_name: str
    status: str
    options: dict[str, Any]
    turn: dict[str, Any]
    first: dict[str, Any]
    moves: int
    winner: int | None
    result: str
    reason: str
    created_at: dt.datetime
    ended_at: dt.datetime | None = None
    lease_owner: str | None = None
    lease_until: dt.datetime | None = None
    tournament_id: str | None = None
    round: int | None = None
    pairing: int | None = None
    entrant1: int | None = None
    entrant2: int | None = None
    bound: str | None = None
    holder: str | None = None
    ladder: bool = False


@dataclass(slots=True)
class Seat:
    """A seat of a game in play order (``index`` 0 the first player): its ``kind`` (a seat
    kind's name, :mod:`~tournoyons_gui.arbitre.seats`), ``name`` shown, ``url`` (what the
    kind reads: an engine's URL, a built-in engine's name), ``key`` (the secret ``Game``
    id sent to its engine, decision 8), ``token`` (a person's secret seat token, decision
    24), ``final_status`` (engine protocol 3.3), ``error`` (why it failed), ``registration``
    (a registered engine's id, sent as ``Opponent``, decision 27), ``rank`` once over,
    ``entrant`` (the tournament's entrant in the seat, ``None`` outside one and for a
    table's filler), ``score`` (the seat's total at the end, a Set that keeps totals),
    ``fault`` (what it lost by failing: ``timeout``, ``unreachable``, ``malformed``,
    ``illegal``; ``""`` none, :data:`~tournoyons_gui.arbitre.answer.FAULTS`)."""

    game_id: str
    index: int
    kind: str
    name: str
    url: str
    key: str
    token: str
    final_status: int | None = None
    error: str = ""
    registration: str = ""
    rank: int | None = None
    id: int | None = None
    entrant: int | None = None
    score: int | None = None
    fault: str = ""


@dataclass(slots=True)
class Move:
    """A recorded move: ``number`` from 1, the ``seat`` index that played it, its ``value``,
    the Turn after it (``turn``), the spectators' ``tray`` after it, ``ms`` from the ask to
    the answer, an engine callback's raw ``query``, ``at`` when recorded."""

    game_id: str
    number: int
    seat: int
    value: str
    turn: dict[str, Any]
    tray: str
    ms: int
    query: str
    error: str
    at: dt.datetime


@dataclass(slots=True)
class Exchange:
    """One entry of a game's exchange log (decision 28): ``kind`` ``request``,
    ``callback``, ``duplicate``, ``late``, ``redirect``, ``answer``, ``final``, ``error``
    ...; ``detail`` the URL, query or error; ``move_id`` the move it belongs to or ``""``."""

    game_id: str
    seat: int
    kind: str
    move_id: str
    detail: str
    at: dt.datetime
    id: int | None = None


#: A log entry to save: (seat index, kind, detail, when by this host's clock).
LogEntry = tuple[int, str, str, dt.datetime]


@dataclass(slots=True)
class NewMove:
    """A move to append (:meth:`~tournoyons_gui.arbitre.store.Store.append_moves`): its
    ``number``, ``seat`` index, ``value``, ``turn`` after it (stored form), spectators'
    ``tray``, ``ms``, callback ``query`` and the exchanges logged with it."""

    number: int
    seat: int
    value: str
    turn: dict[str, Any]
    tray: str
    ms: int = 0
    query: str = ""
    exchanges: list[LogEntry] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a game ended, as recorded: its ``status`` (``over``, ``interrupted``), the
    ``winner`` seat index (``None``: no sole winner), the ``result`` (``seat1``..,
    ``draw``, ``ranked``, ``error``) and the ``reason`` in English."""

    status: str
    winner: int | None
    result: str
    reason: str


@dataclass(frozen=True, slots=True)
class SeatEnd:
    """How one seat ended a game: its final ``status`` (the final call's ``Status``), its
    ``error`` (why it failed, or ``""``), its ``rank`` (``None``: no ranking), its total
    ``score`` (``None``: the Set keeps none) and its ``fault`` (``""``: none)."""

    status: int
    error: str = ""
    rank: int | None = None
    score: int | None = None
    fault: str = ""


@dataclass(slots=True)
class Received:
    """An ask recorded in the store (``pending``): its ``value`` once answered (``None``
    before), the callback's ``query``, whether it came by ``redirect``, when received, the
    ``game_id`` and ``seat`` it belongs to, its deadline ``expires_at``."""

    key: str
    move_id: str
    game_id: str
    seat: int
    expires_at: dt.datetime
    value: str | None = None
    query: str = ""
    redirect: bool = False
    received_at: dt.datetime | None = None


@dataclass(slots=True)
class AddedSetRecord:
    """A Set added by a person (chapter VI) as stored: ``key`` its lower-case name, its
    outside ``interface_url`` and ``referee_url``, the ``start_tray``, ``simultaneous``."""

    key: str
    name: str
    interface_url: str
    referee_url: str
    start_tray: str
    simultaneous: bool
    created_at: dt.datetime


@dataclass(slots=True)
class Engine:
    """A registered engine: ``id`` permanent and public (what opponents receive as
    ``Opponent``), ``name``, ``url``, the ``sets`` it plays, ``poker_level2``, ``retired``,
    ``secret`` its edit token (shown to whoever registered it, and nobody else),
    ``open_entry`` whether anyone may enter it in a tournament without that token,
    ``call_key`` the key its calls are signed with (or a service engine is given), ``kind``
    its seat kind (``engine``, ``service``, ``sync``); the standing ladder: ``ladder``
    (its owner put it on), ``ladder_concurrency`` (ladder pairs at once, 1-8),
    ``ladder_rest`` (seconds of rest after each ladder game), the pairs it is in
    (``ladder_held``), when its rest ends, its faults in a row and, when they paused it,
    the last one's kind (``ladder_paused``; ``""``: not paused), message and game."""

    id: str
    name: str
    url: str
    sets: list[Any]
    poker_level2: bool
    retired: bool
    created_at: dt.datetime
    secret: str = ""
    open_entry: bool = False
    call_key: str = ""
    kind: str = "engine"
    ladder: bool = False
    ladder_concurrency: int = 1
    ladder_rest: int = 0
    ladder_held: int = 0
    ladder_rest_until: dt.datetime | None = None
    ladder_faults: int = 0
    ladder_paused: str = ""
    ladder_reason: str = ""
    ladder_paused_game: str = ""


@dataclass(slots=True)
class InterfaceRecord:
    """A registered graphical interface: ``id`` permanent and public (a game
    page's ``?interface=<id>``), ``name``, ``url`` (the page loaded with a game's query),
    the ``sets`` it draws, ``retired``, ``secret`` its edit token (shown to whoever
    registered it, and nobody else)."""

    id: str
    name: str
    url: str
    sets: list[Any]
    retired: bool
    created_at: dt.datetime
    secret: str = ""


@dataclass(slots=True)
class Tournament:
    """A tournament: ``format`` ``round-robin`` or ``swiss``, ``games`` per pairing,
    ``rounds`` (Swiss), ``concurrency`` games at once, the games' ``options``, ``status``
    ``running`` or ``over``, the Swiss ``byes`` given (``[[round, entrant], ...]``)."""

    id: str
    name: str
    set_name: str
    format: str
    games: int
    rounds: int
    concurrency: int
    options: dict[str, Any]
    status: str
    byes: list[Any]
    created_at: dt.datetime
    ended_at: dt.datetime | None = None
    lease_owner: str | None = None
    lease_until: dt.datetime | None = None


@dataclass(slots=True)
class Entrant:
    """A tournament's entrant in seed order (``index``): ``kind`` (a seat kind: ``engine``,
    ``builtin``, ``botsarena``), ``name``, ``url`` (the engine's URL or the built-in's
    name), ``registration`` (its registered engine's id, or a built-in's ``B-name``)."""

    kind: str
    name: str
    url: str
    registration: str = ""
    tournament_id: str = ""
    index: int = 0


@dataclass(frozen=True)
class GamePage:
    """One page of the games list, newest first: the ``games``, each game's ``seats`` by
    game id, and whether more follow (``more``: the list is not counted)."""

    games: list[Game]
    seats: dict[str, list[Seat]]
    more: bool


@dataclass(slots=True)
class Room:
    """A timi room (``timi-rooms.md``): its ``channel`` (``prefix`` and ``number``), the
    ``slot`` it fills, ``status`` ``open`` or ``archived``, the ``game_id`` in play or last
    played, ``people`` (``{"players": [...], "spectators": [...]}``) as its holder last
    wrote, when it was opened and closed, and its lease; the nick its ``referee`` is in it
    as and whether that referee is its operator (``referee_op``, ``None``: not in the
    room yet), as its holder last saw."""

    channel: str
    prefix: str
    number: int
    slot: int
    status: str
    game_id: str | None
    people: dict[str, Any]
    opened_at: dt.datetime
    closed_at: dt.datetime | None = None
    lease_owner: str | None = None
    lease_until: dt.datetime | None = None
    referee: str = ""
    referee_op: bool | None = None


#: A check's statuses: running, then done (a report), failed (an error) or interrupted.
CHECK_STATUSES = ("running", "done", "failed", "interrupted")


@dataclass(slots=True)
class CheckRun:
    """An interface check as stored (shared by every web process): its ``id``, the interface
    (``interface_id``, ``name``, the ``url`` loaded) and the Set (``set_name``),
    ``status`` (``running``, ``done``, ``failed`` or ``interrupted``: a ``running`` one
    whose worker stopped renewing it is read as ``interrupted``), ``done`` of ``total``
    visits with the ``label`` of the last, the ``error``, the ``report`` (JSON, the
    contact sheet aside; ``None`` until done) and whether a contact sheet is kept
    (``has_sheet``), when it started and ended. The sheet itself is read alone
    (:meth:`~tournoyons_gui.arbitre.store.checks.CheckStore.check_sheet`)."""

    id: str
    interface_id: str
    name: str
    url: str
    set_name: str
    status: str
    done: int = 0
    total: int = 0
    label: str = ""
    error: str = ""
    report: dict[str, Any] | None = None
    has_sheet: bool = False
    started_at: dt.datetime | None = None
    ended_at: dt.datetime | None = None

    @property
    def finished(self) -> bool:
        """Whether the check has ended (done, failed or interrupted)."""
        return self.status != "running"


@dataclass(slots=True)
class Match:
    """A match of ``play``: its ``set_name``, ``entrants`` in command line order
    (``[{"name", "kind", "engine"}]``; the first one's side is the summary's), the games'
    ``options``, the run's ``seed``, its ``openings`` source (``builtin``, a file's name,
    ``""``), the ``games`` planned (the most, under an SPRT), the ``sprt`` asked
    (``{"elo0", "elo1", "alpha", "beta"}`` or ``None``), its last ``llr`` and ``verdict``
    (``H0``, ``H1``, ``""``), ``status`` ``running``, ``over`` or ``interrupted``."""

    id: str
    set_name: str
    entrants: list[Any]
    options: dict[str, Any]
    seed: int
    openings: str
    games: int
    sprt: dict[str, Any] | None
    llr: float | None
    verdict: str
    status: str
    created_at: dt.datetime
    ended_at: dt.datetime | None = None


@dataclass(slots=True)
class MatchGame:
    """A game's place in its match: ``number`` (from 0, the order the games were made),
    its ``pair`` (the games of one opening or deal), the entrant in its first seat
    (``first``, an index of the match's entrants), its opening (``line`` in its suite or
    file and the ``tray`` it starts from; ``None`` and ``""`` without) and its ``seed``."""

    match_id: str
    number: int
    game_id: str
    pair: int
    first: int
    line: int | None
    tray: str
    seed: int


@dataclass(frozen=True, slots=True)
class MatchEntry:
    """One game of a match as listed: its ``place`` in the match, the ``game`` (its
    positions, ``turn`` and ``first``, left out: ``{}``) and its ``seats`` in play order."""

    place: MatchGame
    game: Game
    seats: list[Seat]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A game of a match as its summary counts it, and nothing more (a long match's
    summary reads every game): its ``place``, the game's ``game_id``, ``status``,
    ``result``, ``ended_at``, ``reason`` and ``moves`` (their count), and its ``seats`` in
    play order, each ``(entrant, rank, score, fault)`` (a :class:`Seat`'s)."""

    place: MatchGame
    game_id: str
    status: str
    result: str | None
    ended_at: dt.datetime | None
    reason: str
    moves: int
    seats: tuple[tuple[int | None, int | None, int | None, str], ...]
