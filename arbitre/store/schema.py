"""The records' tables (SQLAlchemy 2 ORM), their schema version and its upgrades.

Only the store package reads these classes: the rest of the Arbitre gets plain records
(:mod:`~tournoyons_gui.arbitre.store.records`). The schema carries a version
(``meta.schema``); :class:`~tournoyons_gui.arbitre.store.Store` creates a new database and
upgrades an older one step by step (:data:`MIGRATIONS`), never dropping a record.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    func,
    literal_column,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.expression import false

__all__ = [
    "GAME_IN_PLAY",
    "SCHEMA_VERSION",
    "SEAT_NAME_KEY",
    "SEAT_URL_KEY",
    "URL_KEPT",
    "AddedSetRow",
    "Base",
    "CheckRow",
    "EngineRow",
    "EntrantRow",
    "ExchangeRow",
    "GameRow",
    "HitRow",
    "InterfaceRow",
    "MatchGameRow",
    "MatchRow",
    "MetaRow",
    "MoveRow",
    "OrganiserRow",
    "PendingRow",
    "RoomRefereeRow",
    "RoomRow",
    "SeatRow",
    "SlotRow",
    "TournamentRow",
]

SCHEMA_VERSION = 15


class Base(DeclarativeBase):
    """The tables' base."""

    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class MetaRow(Base):
    """``meta``: one row per setting; ``schema`` holds the schema version."""

    __tablename__ = "meta"
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class GameRow(Base):
    """``games``: one game. ``turn`` is the current Turn (``{"state", "params", "over"}``).

    ``first`` is the Turn the game started from (a replay's position 0: a Poker deal is
    random). ``status``: ``playing``, ``over`` or ``interrupted``; ``winner`` the winning seat
    index (0 first player) or ``None`` (a draw, or no result); ``options`` the match options
    (``timeout`` s, ``level``, ``wait`` tenths, ``init_as_board``, ``person_timeout`` s).
    """

    __tablename__ = "games"
    # A tournament's pairing is played once, whichever worker schedules it; the games list
    # is read newest first a page at a time from a cursor (created_at, id: keyset paging).
    __table_args__ = (
        Index("ix_games_tournament_pairing", "tournament_id", "pairing", unique=True),
        Index("ix_games_created_id", "created_at", "id"),
        # A Set's games newest first (the games list filtered by Set).
        Index("ix_games_set_created_id", "set_name", "created_at", "id"),
        # The games in play only (the drivers' scans: orphans, leases, playing): the
        # finished games, nearly all of them, are not in it.
        Index(
            "ix_games_in_play",
            "created_at",
            "id",
            "lease_until",
            sqlite_where=text("status = 'playing'"),
            postgresql_where=text("status = 'playing'"),
        ),
        # A tournament's games are read in the order they were made a batch at a time
        # (its games list and CSV, streamed).
        Index("ix_games_tournament_created", "tournament_id", "created_at", "id"),
    )
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    # Indexed by ix_games_set_created_id, which leads with it (schema 12 dropped the
    # index of its own).
    set_name: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(16), index=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    turn: Mapped[dict[str, Any]] = mapped_column(JSON)
    first: Mapped[dict[str, Any]] = mapped_column(JSON)
    moves: Mapped[int] = mapped_column(Integer, default=0)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result: Mapped[str] = mapped_column(String(16), default="")
    reason: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    ended_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: The worker driving the game and until when (a lease: one driver at a time).
    lease_owner: Mapped[str | None] = mapped_column(String(16), nullable=True)
    lease_until: Mapped[dt.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    #: The tournament the game belongs to, its round and its pairing's number.
    tournament_id: Mapped[str | None] = mapped_column(String(12), nullable=True, index=True)
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    pairing: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The tournament's entrants (their indexes) in seat 0 and seat 1.
    entrant1: Mapped[int | None] = mapped_column(Integer, nullable=True)
    entrant2: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: A game whose players are reached through connections one process holds (a timi
    #: room's players over its IRC session, MaitreTarot clients over their sockets): the
    #: seat kind that binds it (``None``: any worker may drive it), and the worker holding
    #: its players' connections once it has them (``holder``). Only the holder drives it
    #: while it lives; a worker holding no such connection never takes it
    #: (:mod:`~tournoyons_gui.arbitre.store.leases`).
    bound: Mapped[str | None] = mapped_column(String(16), nullable=True)
    holder: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: A game of the standing ladder (made by its scheduler: its pair is in
    #: ``ladder_games``): a competition match, its engines told their ``Opponent``.
    ladder: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class SeatRow(Base):
    """``seats``: a game's seats in play order (index 0 is the first player).

    ``kind``: the seat kind's name (:mod:`~tournoyons_gui.arbitre.seats`: ``engine``,
    ``builtin``, ``person``, ``botsarena`` ...); ``url`` what the kind reads (an engine's
    URL, a built-in engine's name). ``key``: the seat's secret ``Game`` id sent to its engine
    (decision 8); ``token``: a person's secret seat token (decision 24). ``final_status``:
    the Status of the final call (engine protocol 3.3).
    """

    __tablename__ = "seats"
    # A registered engine's games are read newest first a page at a time from its seats
    # (keyset paging on the seat's id, the order games were made).
    __table_args__ = (
        UniqueConstraint("game_id", "index"),
        Index("ix_seats_registration_id", "registration", "id"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(200))
    url: Mapped[str] = mapped_column(Text, default="")
    key: Mapped[str] = mapped_column(String(10), unique=True)
    token: Mapped[str] = mapped_column(String(32), unique=True)
    final_status: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The seat's rank once the game is over (1 the best, shared ranks equal), or ``None``.
    rank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    error: Mapped[str] = mapped_column(Text, default="")
    #: The registered engine's id (``EngineRow.id``) or ``""``; sent to the opponent as
    #: ``Opponent`` in competition matches (decision 27).
    registration: Mapped[str] = mapped_column(String(12), default="")
    #: The tournament's entrant (its index) in this seat, ``None`` outside a tournament
    #: and for a table's filler (a built-in engine whose results do not count).
    entrant: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The seat's total score at the end (a Set that keeps totals: Tarot), or ``None``.
    score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: What the seat lost the game by failing (a match counts them apart): ``timeout``,
    #: ``unreachable``, ``malformed`` (no Value at all), ``illegal`` (a Value the rules
    #: refuse); ``""`` none.
    fault: Mapped[str] = mapped_column(String(16), default="")
    #: The game's ``created_at`` and ``set_name``, copied: the games list
    #: filtered by seat pages along the seats' indexes below, newest first, without
    #: reading the games it skips (``None`` only in a bulk load not yet backfilled).
    created_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    set_name: Mapped[str | None] = mapped_column(String(40), nullable=True)


#: A game in play, as the partial index ``ix_games_in_play`` is defined: written as a
#: literal (a parameter would keep PostgreSQL's generic plans from proving that the
#: index holds the rows asked).
GAME_IN_PLAY = GameRow.status == literal_column("'playing'")

#: The part of a seat's URL its indexes hold: PostgreSQL's B-tree takes an entry of at
#: most about 2,700 bytes, which 2,000 characters of UTF-8 may pass; 500 characters cannot.
#: The seat filter compares this part (the index's key) and then the whole URL.
URL_KEPT = 500
SEAT_URL_KEY = func.substr(SeatRow.url, literal_column("1"), literal_column(str(URL_KEPT)))
#: A seat's name as the seat filter compares it (any case).
SEAT_NAME_KEY = func.lower(SeatRow.name)
# The games list filtered by a seat's name or URL, with or without a Set, newest first
# (at a million games): each filter is one range of one of these, read in order.
Index("ix_seats_name_newest", SEAT_NAME_KEY, SeatRow.created_at, SeatRow.game_id)
Index(
    "ix_seats_set_name_newest",
    SeatRow.set_name,
    SEAT_NAME_KEY,
    SeatRow.created_at,
    SeatRow.game_id,
)
Index("ix_seats_url_newest", SEAT_URL_KEY, SeatRow.created_at, SeatRow.game_id)
Index(
    "ix_seats_set_url_newest",
    SeatRow.set_name,
    SEAT_URL_KEY,
    SeatRow.created_at,
    SeatRow.game_id,
)


class MoveRow(Base):
    """``moves``: one applied value. ``number`` counts from 1 and is unique in its game.

    ``turn``: the Turn after it (``{"state", "params", "over"}``); ``tray`` the spectators'
    page Tray after it; ``ms``: from the request (or the page's ask) to the answer;
    ``query``: an engine callback's raw query string; ``error``: what was wrong.
    """

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("game_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    value: Mapped[str] = mapped_column(Text)
    turn: Mapped[dict[str, Any]] = mapped_column(JSON)
    tray: Mapped[str] = mapped_column(Text, default="")
    ms: Mapped[int] = mapped_column(Integer, default=0)
    query: Mapped[str] = mapped_column(Text, default="")
    error: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ExchangeRow(Base):
    """``exchanges``: every request, callback, redirect and final call (decision 28).

    ``kind``: ``request``, ``callback``, ``duplicate``, ``late``, ``redirect``, ``answer``
    (the engine's HTTP answer, status only), ``final``, ``error``; ``detail`` the URL or
    query (capped), or the error.
    """

    __tablename__ = "exchanges"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    move_id: Mapped[str] = mapped_column(String(20), default="")
    detail: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class AddedSetRow(Base):
    """``added_sets``: a Set added by a person (chapter VI): its name (``key``, the
    lower-case name, is unique), its outside interface URL and referee URL, the Tray it
    starts from and whether both players move at once."""

    __tablename__ = "added_sets"
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    interface_url: Mapped[str] = mapped_column(Text)
    referee_url: Mapped[str] = mapped_column(Text)
    start_tray: Mapped[str] = mapped_column(Text, default="Init")
    simultaneous: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class PendingRow(Base):
    """``pending``: a value asked and not yet applied, shared by the workers: an engine
    request (``key`` the seat's ``Game`` id, ``move_id`` its ``MoveId``) or a person's
    ask (``key`` the seat token, ``move_id`` the move number). Whichever worker receives
    the answer records it here, the first one only (``value IS NULL``), before
    ``expires_at``; the driving worker reads it. A worker taking a game over finds a value
    received but not applied, so no answered move is lost."""

    __tablename__ = "pending"
    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    move_id: Mapped[str] = mapped_column(String(20), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(12), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    value: Mapped[str | None] = mapped_column(Text, nullable=True)
    query: Mapped[str] = mapped_column(Text, default="")
    redirect: Mapped[bool] = mapped_column(Boolean, default=False)
    received_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class EngineRow(Base):
    """``engines``: a registered engine. ``id`` is its permanent opaque id (what opponents
    receive as ``Opponent``, decision 27); ``sets`` the Sets it plays (canonical names);
    ``poker_level2`` whether it plays Poker at level 2; ``retired`` engines keep their
    records but enter no new tournament; ``secret`` its edit token."""

    __tablename__ = "engines"
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    name: Mapped[str] = mapped_column(String(60), unique=True)
    url: Mapped[str] = mapped_column(Text)
    sets: Mapped[list[Any]] = mapped_column(JSON)
    poker_level2: Mapped[bool] = mapped_column(Boolean, default=False)
    retired: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    #: The edit token given to whoever registered it: needed to change or retire it (the
    #: id is public: opponents receive it as ``Opponent``).
    secret: Mapped[str] = mapped_column(String(32), default="")
    #: The owner lets anyone enter it in a tournament; otherwise entering it
    #: takes its edit token.
    open_entry: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The key given at registration: the Arbitre signs its calls to the engine with it
    #: (manual VII), a ``service`` engine receives it (manual VIII); empty: none.
    call_key: Mapped[str] = mapped_column(String(64), default="")
    #: The engine's seat kind: ``engine`` (the protocol's callbacks), ``service`` or
    #: ``sync`` (manual VIII).
    kind: Mapped[str] = mapped_column(String(16), default="engine")
    #: The standing ladder (:mod:`~tournoyons_gui.arbitre.ladder`): the owner put it on
    #: (in every Set of ``sets``); at most ``ladder_concurrency`` ladder pairs at once
    #: (1-8), ``ladder_rest`` seconds of rest after each ladder game (0 to a day).
    ladder: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    ladder_concurrency: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    ladder_rest: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: The ladder pairs it is in that are not over (the slots it holds, at most its
    #: concurrency: the scheduler takes one with a conditional update), when its rest
    #: ends, and its ladder games lost by fault in a row.
    ladder_held: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    ladder_rest_until: Mapped[dt.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    ladder_faults: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: Paused by its faults: the last fault's kind (``timeout``, ``unreachable``,
    #: ``malformed``, ``illegal``; ``""``: not paused), its message and the game; until
    #: its owner sets ``ladder`` true again.
    ladder_paused: Mapped[str] = mapped_column(String(16), default="", server_default="")
    ladder_reason: Mapped[str] = mapped_column(Text, default="", server_default="")
    ladder_paused_game: Mapped[str] = mapped_column(String(12), default="", server_default="")


class OrganiserRow(Base):
    """``organisers``: the organiser tokens made by ``tournoyons-gui token``,
    each stored as its SHA-256 (the token itself is shown once); they lift the limits and
    may cancel a tournament or a game."""

    __tablename__ = "organisers"
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    note: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class InterfaceRow(Base):
    """``interfaces``: a registered graphical interface (the manual's servers in
    their second role, seed 002 I and IV). ``id`` is its permanent public id (the game pages'
    ``?interface=``); ``url`` the page the Arbitre loads with a game's query; ``sets`` the
    Sets it draws (canonical names); ``retired`` interfaces keep their id but are offered
    no more; ``secret`` its edit token."""

    __tablename__ = "interfaces"
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    name: Mapped[str] = mapped_column(String(60), unique=True)
    url: Mapped[str] = mapped_column(Text)
    sets: Mapped[list[Any]] = mapped_column(JSON)
    retired: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    #: The edit token given to whoever registered it: needed to change or retire it.
    secret: Mapped[str] = mapped_column(String(32), default="")


class TournamentRow(Base):
    """``tournaments``: one tournament. ``format`` ``round-robin``, ``swiss`` or ``tables``
    (tables of four); ``games`` per pairing (round-robin) and ``rounds`` (Swiss, tables);
    ``concurrency`` games at once; ``options`` the games' options; ``status`` ``running``
    or ``over``; a lease as games have (the worker scheduling its games)."""

    __tablename__ = "tournaments"
    # The tournaments list is read newest first a page at a time (keyset paging).
    __table_args__ = (Index("ix_tournaments_created_id", "created_at", "id"),)
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    set_name: Mapped[str] = mapped_column(String(40))
    format: Mapped[str] = mapped_column(String(16))
    games: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    concurrency: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    #: Swiss byes given: ``[[round, entrant], ...]`` (a bye scores as a win).
    byes: Mapped[list[Any]] = mapped_column(JSON, default=list)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    lease_owner: Mapped[str | None] = mapped_column(String(16), nullable=True)
    lease_until: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class EntrantRow(Base):
    """``entrants``: a tournament's engines in seed order: ``kind`` ``engine`` (``url``,
    ``registration`` its :class:`EngineRow` id when registered) or ``builtin`` (``url`` the
    built-in engine's name)."""

    __tablename__ = "entrants"
    __table_args__ = (UniqueConstraint("tournament_id", "index"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(60))
    url: Mapped[str] = mapped_column(Text)
    registration: Mapped[str] = mapped_column(String(12), default="")


class RoomRow(Base):
    """``rooms``: a timi room (``timi-rooms.md``), every one ever opened: ``channel``
    (``#p4-3``: ``prefix`` and ``number``, a number never used again), the ``slot`` it
    fills (1..the rooms configured), ``status`` ``open`` or ``archived``, the ``game_id``
    in play or last played, who is in it as its holder last wrote (``people``:
    ``{"players": [...], "spectators": [...]}``, written as it changes), its referee's
    nick and operator status, and the lease of the worker holding it (one IRC session
    per room)."""

    __tablename__ = "rooms"
    # One open room per slot, whichever worker opens it.
    __table_args__ = (
        Index(
            "ix_rooms_open_slot",
            "prefix",
            "slot",
            unique=True,
            sqlite_where=text("status = 'open'"),
            postgresql_where=text("status = 'open'"),
        ),
    )
    channel: Mapped[str] = mapped_column(String(60), primary_key=True)
    prefix: Mapped[str] = mapped_column(String(40), index=True)
    number: Mapped[int] = mapped_column(Integer)
    slot: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), index=True)
    game_id: Mapped[str | None] = mapped_column(String(12), nullable=True)
    people: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: The nick the holder's referee is in the room as, and whether it is the room's
    #: operator (``None``: not in the room yet), as the holder last saw (any web process's
    #: ``/rooms`` shows it).
    referee: Mapped[str] = mapped_column(String(60), default="")
    referee_op: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    opened_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    closed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    lease_owner: Mapped[str | None] = mapped_column(String(16), nullable=True)
    lease_until: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RoomRefereeRow(Base):
    """``room_referees``: the workers refereeing rooms and until when each is known alive
    (renewed as their leases are), so that they share the rooms evenly."""

    __tablename__ = "room_referees"
    name: Mapped[str] = mapped_column(String(16), primary_key=True)
    until: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class WorkerRow(Base):
    """``workers``: every worker known alive and until when (a heartbeat renewed with its
    leases), and the bound seat kinds whose connections it holds (``holds``: the kinds'
    names, each between commas: ``",irc,maitretarot,"``), so that a bound game is driven
    by its holder alone while it lives, and by a worker holding its kind otherwise."""

    __tablename__ = "workers"
    name: Mapped[str] = mapped_column(String(16), primary_key=True)
    until: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    holds: Mapped[str] = mapped_column(String(200), default="")


class HitRow(Base):
    """``hits``: the requests counted against a limit, one row per counted key
    (``addr:<client address>``, ``token:<an organiser token's hash>``, ``reg:<client
    address>``), shared by every worker of the database so that N workers allow what one
    does: ``count`` requests since ``started``, the window ending at ``until`` (seconds
    since the epoch by the database's clock). A request past ``until`` starts a new window
    in the same row; rows whose window ended are swept."""

    __tablename__ = "hits"
    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    started: Mapped[float] = mapped_column(Float)
    until: Mapped[float] = mapped_column(Float, index=True)
    count: Mapped[int] = mapped_column(Integer)


class SlotRow(Base):
    """``slots``: the work held by a worker and counted across the workers: an
    interface check running (``check/1`` .. ``check/N``, N the checks allowed at once),
    held by ``owner`` until ``until`` (seconds since the epoch by the database's clock,
    renewed while it runs): a worker killed mid-check frees its slot when it expires."""

    __tablename__ = "slots"
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    owner: Mapped[str] = mapped_column(String(16))
    until: Mapped[float] = mapped_column(Float)


class CheckRow(Base):
    """``checks``: an interface check run by the server, kept in the store so that
    every web process of the database shows it and a restart keeps it:
    the interface (``interface_id``, ``name``, the ``url`` loaded), the Set, ``status``
    ``running``, ``done`` (a report), ``failed`` (``error`` says why) or ``interrupted``
    (its worker stopped or died), the progress (``done`` of ``total`` visits, ``label``),
    the ``report`` (JSON, the contact sheet aside) and the contact ``sheet`` (PNG), the
    worker running it (``owner``) and until when it is known alive (``until``, seconds
    since the epoch by the database's clock, renewed while it runs: a ``running`` check
    past it was interrupted)."""

    __tablename__ = "checks"
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    interface_id: Mapped[str] = mapped_column(String(12), index=True)
    name: Mapped[str] = mapped_column(String(60))
    url: Mapped[str] = mapped_column(Text)
    set_name: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(16), index=True)
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    label: Mapped[str] = mapped_column(String(200), default="")
    error: Mapped[str] = mapped_column(Text, default="")
    report: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    sheet: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    owner: Mapped[str] = mapped_column(String(16))
    until: Mapped[float] = mapped_column(Float)
    started_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    ended_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class MatchRow(Base):
    """``matches``: a match of ``play``: its Set, its ``entrants`` in command
    line order (``[{"name", "kind", "engine"}]``, the first one's side the summary's),
    the games' ``options``, the run's ``seed`` (every game's derived from it), where its
    ``openings`` came from (``builtin``, a file's name; ``""``: none), the ``games``
    planned (the most, under an SPRT), the SPRT asked (``{"elo0", "elo1", "alpha",
    "beta"}``, ``None``: none) with its last ``llr`` and ``verdict`` (``H0``, ``H1``,
    ``""``: none), ``status`` ``running``, ``over`` or ``interrupted`` (Ctrl-C)."""

    __tablename__ = "matches"
    # The matches are read newest first a page at a time (keyset paging), as games are.
    __table_args__ = (Index("ix_matches_created_id", "created_at", "id"),)
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    set_name: Mapped[str] = mapped_column(String(40))
    entrants: Mapped[list[Any]] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    openings: Mapped[str] = mapped_column(String(300), default="")
    games: Mapped[int] = mapped_column(Integer)
    sprt: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    llr: Mapped[float | None] = mapped_column(Float, nullable=True)
    verdict: Mapped[str] = mapped_column(String(4), default="")
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class MatchGameRow(Base):
    """``match_games``: a match's games in the order they were made (``number`` from 0),
    each with its ``pair`` (the games of one opening or one deal, seats swapped or
    rotated), the entrant in its first seat (``first``), its ``opening`` (``line`` in its
    suite or file, ``tray`` it starts from; ``None`` and ``""`` without) and its ``seed``
    (the deal's and the built-in engines', from the match's seed and the pair). Read in
    order by the primary key; a game's match by ``game_id``."""

    __tablename__ = "match_games"
    __table_args__ = (Index("ix_match_games_game", "game_id", unique=True),)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    pair: Mapped[int] = mapped_column(Integer)
    first: Mapped[int] = mapped_column(Integer)
    line: Mapped[int | None] = mapped_column(Integer, nullable=True)
    tray: Mapped[str] = mapped_column(Text, default="")
    seed: Mapped[int] = mapped_column(BigInteger)
