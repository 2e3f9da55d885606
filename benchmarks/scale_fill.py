"""The fill of ``benchmarks/scale.py``: a database of N finished games made in
minutes through the real schema, from real games' rows.

- *templates*: a few games of every Set played by ``tournoyons-gui play`` between built-in
  engines in a scratch SQLite file (:func:`play_templates`), read back whole
  (:func:`read_templates`): their games, seats, moves and exchanges rows;
- *the fill* (:func:`fill`): the database opened once with
  :class:`~tournoyons_gui.arbitre.store.Store` (which creates the schema), then bulk rows
  in the ORM tables' columns (:mod:`~tournoyons_gui.arbitre.store.schema`): PostgreSQL
  ``COPY`` (asyncpg), SQLite ``executemany`` on one connection. N games copied from the
  templates with new ids, seat names and times spread over three years; N/10 registered
  engines, N/1000 interfaces, N/100 tournaments of 5 entrants (20 games each, a fifth of
  the games), N/1000 matches of 20 games, 300 games in play with leases, rooms. The
  non-unique indexes are dropped during the load and made again after it, then the kept
  aggregates are filled (:meth:`~tournoyons_gui.arbitre.store.Store.backfill_kept`) and
  the statistics gathered (``ANALYZE``).

Seat names follow what a public Arbitre sees: built-in engines (``random`` in about one
game in five), one registered engine in about 3.5 % of the games, the other registered
engines drawn log-uniformly (a few with thousands of games, a long tail with one or two),
and unregistered engine URLs.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import math
import random
import sqlite3
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from tournoyons_gui.arbitre.compaction import replayer, turns_to_keep
from tournoyons_gui.arbitre.store import Store
from tournoyons_gui.arbitre.store.archives import FORMAT, ArchiveRow, pack
from tournoyons_gui.arbitre.store.base import json_text, sqlite_time
from tournoyons_gui.arbitre.store.schema import (
    SCHEMA_VERSION,
    Base,
    EngineRow,
    EntrantRow,
    ExchangeRow,
    GameRow,
    InterfaceRow,
    MatchGameRow,
    MatchRow,
    MoveRow,
    RoomRow,
    SeatRow,
    TournamentRow,
)
from tournoyons_gui.interfaces.registry import load_registry

__all__ = ["Templates", "fill", "play_templates", "read_templates"]

ROOT = Path(__file__).resolve().parent.parent
#: The seats of each template match: ``play``'s ``--engine`` values (the second built-in
#: engine is the Set's stronger one).
MATCHES: dict[str, list[str]] = {
    "TicTacToe": ["random", "perfect"],
    "BigTicTacToe": ["random", "greedy"],
    "ConnectFour": ["random", "strong"],
    "MasterMind": ["random", "consistent"],
    "Pente": ["random", "greedy"],
    "Poker": ["caller", "strength"],
    "Reversi": ["random", "greedy"],
    "Rochambeau": ["random", "counter"],
    "Seafight": ["random", "hunter"],
    "Tarot": ["random", "strong", "random", "strong"],
}
#: How often each Set is played on the public Arbitre the fill imitates (weights).
SHARE: dict[str, float] = {
    "TicTacToe": 20,
    "ConnectFour": 20,
    "Reversi": 10,
    "Rochambeau": 10,
    "MasterMind": 8,
    "Pente": 8,
    "Seafight": 8,
    "BigTicTacToe": 6,
    "Poker": 6,
    "Tarot": 4,
}
#: The ORM tables' columns in the order the rows are written (ids given: the serial
#: counters are set after the load).
COLUMNS: dict[str, list[str]] = {
    table.__tablename__: [c.name for c in table.__table__.columns]
    for table in (
        ArchiveRow,
        GameRow,
        SeatRow,
        MoveRow,
        ExchangeRow,
        EngineRow,
        InterfaceRow,
        TournamentRow,
        EntrantRow,
        RoomRow,
        MatchRow,
        MatchGameRow,
    )
}
#: Each table's columns' defaults as the schema gives them (a scalar default, ``None`` for
#: none): a column a later schema added is filled with its default, as an upgrade does.
DEFAULTS: dict[str, dict[str, Any]] = {
    table.__tablename__: {
        c.name: c.default.arg if c.default is not None and c.default.is_scalar else None
        for c in table.__table__.columns
    }
    for table in (ArchiveRow, GameRow, SeatRow, MoveRow, ExchangeRow, EngineRow, InterfaceRow)
}
TIME_COLUMNS = {"created_at", "ended_at", "at", "lease_until", "opened_at", "closed_at"}
JSON_COLUMNS = {"options", "turn", "first", "sets", "byes", "people", "entrants", "sprt"}
#: Days the games are spread over, ending now.
DAYS = 3 * 365
#: The games in play at the end of the fill (fewer in a small fill: a hundredth of it).
PLAYING = 300
BATCH = 20_000


def playing_games(games: int) -> int:
    """Return the games in play a fill of ``games`` finished games ends with."""
    return min(PLAYING, max(3, games // 100))


def play_templates(folder: Path, games: int = 4, seed: int = 7) -> Path:
    """Play ``games`` games of every Set between built-in engines with ``tournoyons-gui
    play`` into ``folder/templates-<schema>.sqlite3`` (kept: a second run of the same schema
    reuses it); return it."""
    # Kept from one run to the next, for the schema and the packing that made it: a
    # template file of another schema (a column added since) is played again.
    made_by = hashlib.sha256(
        repr((SCHEMA_VERSION, FORMAT, sorted(Base.metadata.tables), COLUMNS)).encode()
    ).hexdigest()[:12]
    database = folder / f"templates-{made_by}.sqlite3"
    if database.exists():
        return database
    scratch = folder / "templates-partial.sqlite3"
    scratch.unlink(missing_ok=True)
    for set_name, engines in MATCHES.items():
        command = [sys.executable, "-m", "tournoyons_gui.server.cli", "play"]
        command += ["--set", set_name, "--games", str(games), "--seed", str(seed)]
        command += ["--database", str(scratch)]
        if set_name == "Tarot":
            command += ["--deals", "1"]
        for engine in engines:
            command += ["--engine", f"builtin:{engine}"]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            raise RuntimeError(f"play {set_name}: {done.stdout[-400:]}{done.stderr[-400:]}")
    scratch.rename(database)
    return database


@dataclass
class Template:
    """One real game's rows (values in the ORM columns' order, times as offsets in seconds
    from the game's creation)."""

    game: dict[str, Any]
    seats: list[dict[str, Any]]
    moves: list[tuple[Any, ...]]
    exchanges: list[tuple[Any, ...]]
    move_at: list[float]
    exchange_at: list[float]
    duration: float
    #: Its moves and exchanges packed as a finished game's are
    #: (:mod:`~tournoyons_gui.arbitre.store.archives`: times from the game's creation, so
    #: the same bytes for every copy), and whether its Turns are in the document.
    archive: bytes = b""
    turns_kept: int = 0


@dataclass
class Templates:
    """The template games of each Set, and the matches' entrants as ``play`` wrote them."""

    games: dict[str, list[Template]] = field(default_factory=lambda: defaultdict(list))
    entrants: dict[str, str] = field(default_factory=dict)


def _when(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.UTC)


def read_templates(database: Path) -> Templates:
    """Read every game of the templates' SQLite file ``database`` (see :class:`Template`)
    through the store (``play`` packs its games as they end: the store gives them back
    whole)."""
    return asyncio.run(_read_templates(database))


async def _read_templates(database: Path) -> Templates:
    found = Templates()
    replay = replayer(load_registry().get)
    store = await Store.open(str(database))
    store.derive_turns = replay
    try:
        with sqlite3.connect(database) as db:
            db.row_factory = sqlite3.Row
            ids = [
                row["id"]
                for row in db.execute(
                    "SELECT id FROM games WHERE status = 'over' ORDER BY created_at"
                )
            ]
            entrants = list(db.execute("SELECT set_name, entrants FROM matches"))
            seats_of = {
                game_id: [
                    dict(s)
                    for s in db.execute(
                        'SELECT * FROM seats WHERE game_id = ? ORDER BY "index"', (game_id,)
                    )
                ]
                for game_id in ids
            }
        for game_id in ids:
            made = await store.game(game_id)
            assert made is not None
            game = made[0]
            start = game.created_at
            moves = await store.moves(game_id)
            exchanges = await store.exchanges(game_id)
            row = {
                **{name: getattr(game, name) for name in COLUMNS["games"]},
                "options": json_text(game.options),
                "turn": json_text(game.turn),
                "first": json_text(game.first),
            }
            move_rows = [
                (
                    *(0, game_id, m.number, m.seat, m.value, json_text(m.turn), m.tray),
                    *(m.ms, m.query, m.error, m.at),
                )
                for m in moves
            ]
            exchange_rows = [
                (e.id, game_id, e.seat, e.kind, e.move_id, e.detail, e.at) for e in exchanges
            ]
            ended = game.ended_at
            template = Template(
                row,
                seats_of[game_id],
                move_rows,
                exchange_rows,
                [(m.at - start).total_seconds() for m in moves],
                [(e.at - start).total_seconds() for e in exchanges],
                (ended - start).total_seconds() if ended else 1.0,
            )
            kept = turns_to_keep(replay, game.set_name, game.first, moves)
            template.turns_kept = sum(turn is not None for turn in kept)
            template.archive = pack(
                start,
                moves,
                exchanges,
                first=game.first,
                turn=game.turn,
                kept_turns=kept,
            )
            found.games[game.set_name].append(template)
        for match in entrants:
            found.entrants[match["set_name"]] = match["entrants"]
    finally:
        await store.close()
    return found


class Writer:
    """Bulk rows into one database: PostgreSQL ``COPY`` or SQLite ``executemany``; the
    non-unique indexes of the loaded tables dropped first (:meth:`drop_indexes`) and made
    again after (:meth:`make_indexes`)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.postgres = url.startswith("postgres")
        self.indexes: list[str] = []
        self.pg: Any = None
        self.lite: sqlite3.Connection | None = None

    async def open(self) -> None:
        """Connect (PostgreSQL: foreign keys' triggers off for this session: the rows are
        written parents first all the same)."""
        if self.postgres:
            import asyncpg

            self.pg = await asyncpg.connect(self.url.replace("postgresql+asyncpg", "postgresql"))
            await self.pg.execute("SET session_replication_role = replica")
            await self.pg.execute("SET synchronous_commit = off")
            await self.pg.execute("SET maintenance_work_mem = '512MB'")
        else:
            path = self.url.removeprefix("sqlite:///") if "://" in self.url else self.url
            self.lite = sqlite3.connect(path, isolation_level=None)
            self.lite.execute("PRAGMA synchronous = OFF")
            self.lite.execute("PRAGMA cache_size = -400000")
            self.lite.execute("BEGIN")

    def time(self, moment: dt.datetime) -> Any:
        """Return ``moment`` as this database's driver takes it."""
        return moment if self.postgres else sqlite_time(moment)

    async def drop_indexes(self, tables: Sequence[str]) -> None:
        """Drop the plain (not primary, not unique-constraint) indexes of ``tables``,
        remembering how to make them again."""
        if self.postgres:
            rows = await self.pg.fetch(
                "SELECT i.indexname, i.indexdef FROM pg_indexes i WHERE i.tablename = ANY($1)"
                " AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)",
                list(tables),
            )
            for row in rows:
                self.indexes.append(row["indexdef"])
                await self.pg.execute(f'DROP INDEX "{row["indexname"]}"')
        else:
            assert self.lite is not None
            marks = ",".join("?" * len(tables))
            rows = self.lite.execute(
                f"SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
                f" AND tbl_name IN ({marks})",
                list(tables),
            ).fetchall()
            for name, sql in rows:
                self.indexes.append(sql)
                self.lite.execute(f'DROP INDEX "{name}"')

    async def make_indexes(self, progress: Callable[[str], None]) -> None:
        """Make the dropped indexes again."""
        for sql in self.indexes:
            progress(sql.split(" ON ")[0].split()[-1])
            if self.postgres:
                await self.pg.execute(sql)
            else:
                assert self.lite is not None
                self.lite.execute(sql)

    async def put(self, table: str, rows: list[tuple[Any, ...]]) -> None:
        """Write ``rows`` (values in :data:`COLUMNS` order) into ``table``."""
        if not rows:
            return
        columns = COLUMNS[table]
        if self.postgres:
            await self.pg.copy_records_to_table(table, records=rows, columns=columns)
        else:
            assert self.lite is not None
            names = ",".join(f'"{c}"' for c in columns)
            marks = ",".join("?" * len(columns))
            self.lite.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)

    async def finish(self) -> None:
        """Set the serial counters past the ids given, commit, close."""
        if self.postgres:
            for table in ("seats", "moves", "exchanges", "entrants"):
                await self.pg.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" COALESCE((SELECT max(id) FROM {table}), 0) + 1, false)"
                )
            await self.pg.close()
        else:
            assert self.lite is not None
            self.lite.execute("COMMIT")
            self.lite.close()


def row_of(table: str, **values: Any) -> tuple[Any, ...]:
    """Return a row of ``table`` in :data:`COLUMNS` order from its ``values`` by column
    name; a column the fill does not know (one a later schema added, nullable or with a
    default) is its default (:data:`DEFAULTS`), else ``None``. A value for a column the
    table lacks is a mistake (a rename): ``KeyError``."""
    columns = COLUMNS[table]
    unknown = set(values) - set(columns)
    if unknown:
        raise KeyError(f"{table} has no column {sorted(unknown)}")
    defaults = DEFAULTS.get(table, {})
    return tuple(values[name] if name in values else defaults.get(name) for name in columns)


def _ids(prefix: str, salt: int) -> Iterator[str]:
    """Yield distinct 12-character ids (``prefix`` then base 32 of a scrambled counter)."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    width = 12 - len(prefix)
    modulus = 32**width
    step = 0x9E3779B97F4A7C15 % modulus | 1  # odd: a bijection modulo a power of two
    number = 0
    while True:
        value = (number * step + salt) % modulus
        chars = []
        for _ in range(width):
            value, digit = divmod(value, 32)
            chars.append(alphabet[digit])
        yield prefix + "".join(chars)
        number += 1


class Seats:
    """Who sits in the games (see the module): returns ``(kind, name, url, registration)``."""

    def __init__(self, engines: int, rng: random.Random) -> None:
        self.engines = engines
        self.rng = rng

    def engine(self, number: int) -> tuple[str, str, str, str]:
        """Return registered engine ``number``'s seat."""
        return ("engine", engine_name(number), engine_url(number), engine_id(number))

    def draw(self, builtin: str) -> tuple[str, str, str, str]:
        """Return a seat: the built-in ``builtin``, a registered engine or a URL."""
        pick = self.rng.random()
        if pick < 0.25:
            return ("builtin", builtin, builtin, "")
        if pick < 0.2675:  # about 3.5 % of the games have it in one seat of two
            return self.engine(0)
        if pick < 0.88:
            # log-uniform over 1..engines-1: a few with thousands of games, a long tail
            return self.engine(
                min(self.engines - 1, int(math.exp(self.rng.random() * math.log(self.engines))))
            )
        number = self.rng.randrange(50_000)
        return (
            "engine",
            f"http://anon{number}.example/play",
            f"http://anon{number}.example/play",
            "",
        )


def engine_id(number: int) -> str:
    """Return registered engine ``number``'s id."""
    return f"E{number:011d}"


def engine_name(number: int) -> str:
    """Return registered engine ``number``'s name (engine 0 the most played)."""
    return "deep-blue-sea" if number == 0 else f"engine-{number:06d}"


def engine_url(number: int) -> str:
    """Return registered engine ``number``'s URL."""
    return f"http://engines{number % 97}.example/{number}/play"


async def _engines_and_interfaces(
    writer: Writer, count: int, interfaces: int, sets: list[str], now: dt.datetime
) -> None:
    start = now - dt.timedelta(days=DAYS + 10)
    rows: list[tuple[Any, ...]] = []
    for number in range(count):
        at = writer.time(start + dt.timedelta(seconds=number * 60))
        rows.append(
            row_of(
                "engines",
                id=engine_id(number),
                name=engine_name(number),
                url=engine_url(number),
                sets=json.dumps(sets),
                poker_level2=False,
                retired=number % 50 == 49,
                created_at=at,
                secret=f"s{number:031d}",
                open_entry=number % 3 == 0,
                call_key="",
                kind="engine",
            )
        )
        if len(rows) >= BATCH:
            await writer.put("engines", rows)
            rows = []
    await writer.put("engines", rows)
    rows: list[tuple[Any, ...]] = [
        (
            f"I{number:011d}",
            f"interface-{number:05d}",
            f"https://draw{number}.example/page",
            json.dumps(sets[number % len(sets) :][:3]),
            number % 20 == 19,
            writer.time(start + dt.timedelta(hours=number)),
            f"t{number:031d}",
        )
        for number in range(interfaces)
    ]
    await writer.put("interfaces", rows)


class Filler:
    """Makes the games' rows (see :func:`fill`)."""

    def __init__(self, writer: Writer, templates: Templates, games: int, seed: int) -> None:
        self.writer = writer
        self.templates = templates
        self.rng = random.Random(seed)
        self.total = games
        self.engines = max(100, games // 10)
        self.seats = Seats(self.engines, self.rng)
        self.game_ids = _ids("G", seed)
        self.seat_id = self.move_id = self.exchange_id = self.entrant_id = 0
        self.keys = 0
        self.buffers: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
        self.sets = [s for s in SHARE if templates.games.get(s)]
        self.weights = [SHARE[s] for s in self.sets]
        self.two_seat = [s for s in self.sets if len(templates.games[s][0].seats) == 2]

    async def flush(self, force: bool = False) -> None:
        """Write the rows buffered (every table once its buffer is big, or all)."""
        for table in (
            "games",
            "seats",
            "game_archives",
            "moves",
            "exchanges",
            "tournaments",
            "entrants",
            "matches",
            "match_games",
            "rooms",
        ):
            rows = self.buffers[table]
            if rows and (force or len(rows) >= BATCH):
                await self.writer.put(table, rows)
                rows.clear()

    def game(
        self,
        set_name: str,
        created: dt.datetime,
        sitters: list[tuple[str, str, str, str]],
        *,
        playing: bool = False,
        tournament: tuple[str, int, int, int, int] | None = None,
    ) -> str:
        """Buffer one game of ``set_name`` copied from a template; return its id."""
        w = self.writer
        template = self.rng.choice(self.templates.games[set_name])
        source = template.game
        game_id = next(self.game_ids)
        moves = template.moves
        if playing:
            moves = moves[: max(1, len(moves) // 2)]
        turn = moves[-1][5] if playing and moves else source["turn"]
        first = source["first"]
        packed = not playing and bool(moves or template.exchanges)
        if packed:  # a packed game's row keeps no Turn: its document has them
            turn = first = "{}"
        ended = None if playing else w.time(created + dt.timedelta(seconds=template.duration))
        lease_owner = lease_until = None
        if playing:
            lease_owner, lease_until = "scale-w1", w.time(created + dt.timedelta(days=1))
        tid = rnd = pairing = e1 = e2 = None
        if tournament is not None:
            tid, rnd, pairing, e1, e2 = tournament
        self.buffers["games"].append(
            row_of(
                "games",
                id=game_id,
                set_name=set_name,
                status="playing" if playing else "over",
                options=source["options"],
                turn=turn,
                first=first,
                moves=len(moves),
                winner=None if playing else source["winner"],
                result="" if playing else source["result"],
                reason="" if playing else source["reason"],
                created_at=w.time(created),
                ended_at=ended,
                lease_owner=lease_owner,
                lease_until=lease_until,
                tournament_id=tid,
                round=rnd,
                pairing=pairing,
                entrant1=e1,
                entrant2=e2,
            )
        )
        for index, seat in enumerate(template.seats):
            kind, name, url, registration = sitters[index]
            self.seat_id += 1
            self.keys += 1
            entrant = None
            if tournament is not None:
                entrant = e1 if index == 0 else e2
            self.buffers["seats"].append(
                row_of(
                    "seats",
                    id=self.seat_id,
                    game_id=game_id,
                    index=index,
                    kind=kind,
                    name=name,
                    url=url,
                    key=f"K{self.keys:09d}",
                    token=f"T{self.keys:031d}",
                    final_status=None if playing else seat["final_status"],
                    rank=None if playing else seat["rank"],
                    error=seat["error"],
                    registration=registration,
                    entrant=entrant,
                    score=seat["score"],
                    fault=seat["fault"],
                    created_at=w.time(created),
                    set_name=set_name,
                )
            )
        if not playing:
            # A finished game's moves and exchanges as the compaction packs them.
            if packed:
                self.buffers["game_archives"].append(
                    (
                        game_id,
                        FORMAT,
                        1,
                        len(moves),
                        len(template.exchanges),
                        template.turns_kept,
                        None,
                        template.archive,
                    )
                )
            return game_id
        for number, (move, offset) in enumerate(zip(moves, template.move_at, strict=False)):
            self.move_id += 1
            self.buffers["moves"].append(
                (self.move_id, game_id, *move[2:10], w.time(created + dt.timedelta(seconds=offset)))
            )
            del number
        cut = len(template.exchanges) if not playing else len(template.exchanges) // 2
        for exchange, offset in zip(template.exchanges[:cut], template.exchange_at, strict=False):
            self.exchange_id += 1
            self.buffers["exchanges"].append(
                (
                    self.exchange_id,
                    game_id,
                    *exchange[2:6],
                    w.time(created + dt.timedelta(seconds=offset)),
                )
            )
        return game_id

    def sitters(self, set_name: str) -> list[tuple[str, str, str, str]]:
        """Return the seats of a game of ``set_name`` outside tournaments."""
        builtins = MATCHES[set_name]
        return [
            self.seats.draw(builtins[index % len(builtins)] if index else "random")
            for index in range(len(self.templates.games[set_name][0].seats))
        ]


async def fill(
    url: str, games: int, templates: Templates, *, seed: int = 34, console: Any = None
) -> dict[str, float]:
    """Fill the database at ``url`` (a SQLite path or a ``postgresql://`` URL; it holds no
    games yet) with ``games`` games and the rest (see the module); return the seconds each
    step took."""
    took: dict[str, float] = {}
    started = time.perf_counter()
    store = await Store.open(url)  # creates the schema
    now = store.now()
    await store.close()
    writer = Writer(url)
    await writer.open()
    filler = Filler(writer, templates, games, seed)
    loaded = [
        "games",
        "seats",
        "game_archives",
        "moves",
        "exchanges",
        "engines",
        "interfaces",
        "tournaments",
        "entrants",
        "rooms",
        "matches",
        "match_games",
    ]
    await writer.drop_indexes(loaded)
    sets = sorted(templates.games)
    await _engines_and_interfaces(writer, filler.engines, max(10, games // 1000), sets, now)
    tournaments = max(1, games // 100)
    tournament_games = tournaments * 20
    matches = max(1, games // 1000)
    span = dt.timedelta(days=DAYS).total_seconds()
    step = span / max(1, games)
    first = now - dt.timedelta(days=DAYS)
    ids = _ids("T", seed)
    match_ids = _ids("M", seed)
    rng = filler.rng
    # Which game numbers start a tournament's 20 games, or a match's 20 games.
    tournament_starts = (
        set(rng.sample(range(0, games - 20, 20), min(tournaments, max(1, (games - 20) // 20))))
        if games > 40
        else set()
    )
    free = [n for n in range(0, games - 20, 20) if n not in tournament_starts]
    match_starts = set(rng.sample(free, min(matches, len(free)))) if free else set()
    columns = [
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    ]
    with Progress(*columns, console=console) as progress:
        playing = playing_games(games)
        task = progress.add_task("games", total=games + playing)
        # Where nobody sees the bar (a log file), a line at each tenth instead.
        logged = max(1, games // 10) if console is None or not console.is_terminal else None
        number = 0
        while number < games:
            created = first + dt.timedelta(seconds=number * step)
            if number in tournament_starts:
                number += await _tournament(filler, next(ids), created, step)
            elif number in match_starts:
                number += await _match(filler, next(match_ids), created, step)
            else:
                set_name = rng.choices(filler.sets, filler.weights)[0]
                filler.game(set_name, created, filler.sitters(set_name))
                number += 1
            if len(filler.buffers["seats"]) >= BATCH:
                await filler.flush()
                progress.update(task, completed=number)
                if logged is not None and number >= logged:  # a log file: a line a tenth
                    print(f"games: {number:,} of {games:,}", flush=True)
                    logged += max(1, games // 10)
        for count in range(playing):
            set_name = rng.choices(filler.sets, filler.weights)[0]
            filler.game(
                set_name,
                now - dt.timedelta(seconds=playing - count),
                filler.sitters(set_name),
                playing=True,
            )
        _rooms(filler, now)
        await filler.flush(force=True)
        progress.update(task, completed=games + playing)
        took["rows"] = time.perf_counter() - started
        index_task = progress.add_task("indexes", total=len(writer.indexes))
        await writer.make_indexes(
            lambda name: progress.update(index_task, advance=1, description=f"index {name}")
        )
        await writer.finish()
        took["indexes"] = time.perf_counter() - started - took["rows"]
    del tournament_games
    return took


async def _tournament(filler: Filler, tournament_id: str, created: dt.datetime, step: float) -> int:
    """Buffer a round-robin tournament of 5 registered entrants, 2 games a pairing (20
    games, seats swapped); return the games made."""
    w, rng = filler.writer, filler.rng
    set_name = rng.choice(filler.two_seat)
    numbers = sorted(
        {
            min(filler.engines - 1, int(math.exp(rng.random() * math.log(filler.engines))))
            for _ in range(8)
        }
    )[:5]
    while len(numbers) < 5:
        numbers.append(rng.randrange(1, filler.engines))
        numbers = sorted(set(numbers))
    entrants = [filler.seats.engine(n) for n in numbers]
    end = created + dt.timedelta(seconds=step * 20)
    filler.buffers["tournaments"].append(
        (
            tournament_id,
            f"Cup {tournament_id[-5:]}",
            set_name,
            "round-robin",
            2,
            0,
            4,
            json.dumps({"timeout": 20, "level": 1}),
            "over",
            "[]",
            w.time(created),
            w.time(end),
            None,
            None,
        )
    )
    for index, (kind, name, url, registration) in enumerate(entrants):
        filler.entrant_id += 1
        filler.buffers["entrants"].append(
            (filler.entrant_id, tournament_id, index, kind, name, url, registration)
        )
    pairs = [(a, b) for a in range(5) for b in range(a + 1, 5)]
    made = 0
    for pairing, (a, b) in enumerate(pairs):
        for swap in (0, 1):
            one, two = (a, b) if not swap else (b, a)
            number = pairing * 2 + swap
            filler.game(
                set_name,
                created + dt.timedelta(seconds=step * made),
                [entrants[one], entrants[two]],
                tournament=(tournament_id, pairing // 2 + 1, number, one, two),
            )
            made += 1
    return made


async def _match(filler: Filler, match_id: str, created: dt.datetime, step: float) -> int:
    """Buffer a ``play`` match of 20 games between two seats (in pairs, seats swapped);
    return the games made."""
    w, rng = filler.writer, filler.rng
    set_name = rng.choice(filler.two_seat)
    one, two = filler.sitters(set_name)
    entrants = json.dumps([{"name": s[1], "kind": s[0], "engine": s[2]} for s in (one, two)])
    filler.buffers["matches"].append(
        (
            match_id,
            set_name,
            entrants,
            json.dumps({"timeout": 20, "level": 1}),
            rng.getrandbits(62),
            "",
            20,
            None,
            None,
            "",
            "over",
            w.time(created),
            w.time(created + dt.timedelta(seconds=step * 20)),
        )
    )
    for number in range(20):
        pair, first = divmod(number, 2)
        seats = [one, two] if not first else [two, one]
        game_id = filler.game(set_name, created + dt.timedelta(seconds=step * number), seats)
        filler.buffers["match_games"].append(
            (match_id, number, game_id, pair, first, None, "", rng.getrandbits(62))
        )
    return 20


def _rooms(filler: Filler, now: dt.datetime) -> None:
    """Buffer 500 archived timi rooms and 4 open ones (held by a worker, a game in play)."""
    w = filler.writer
    playing = [row[0] for row in filler.buffers["games"] if row[2] == "playing"]
    for number in range(1, 505):
        is_open = number > 500
        opened = now - dt.timedelta(hours=505 - number)
        game_id = playing[number % len(playing)] if playing else None
        people = json.dumps(
            {"players": ["alice", "bob"], "spectators": ["carol"]}
            if is_open
            else {"players": [], "spectators": []}
        )
        filler.buffers["rooms"].append(
            (
                f"#p4-{number}",
                "#p4-",
                number,
                number - 500 if is_open else (number % 4) + 1,
                "open" if is_open else "archived",
                game_id,
                people,
                "arbitre" if is_open else "",
                True if is_open else None,
                w.time(opened),
                None if is_open else w.time(opened + dt.timedelta(minutes=30)),
                "scale-w1" if is_open else None,
                w.time(now + dt.timedelta(days=1)) if is_open else None,
            )
        )
