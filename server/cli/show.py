"""``tournoyons-gui show GAME|FILE [--ply N] [--game ID] [--database URL]``: a game replayed
in the terminal.

The game is a record: the one ``/games/<id>.json`` gives, read from the records
(``GAME``, an id, in ``--database``, ``arbitre.sqlite3`` by default) or from a file
(``FILE``: that JSON, or JSON Lines as ``play --games-file`` and ``/matches/<id>/
games.jsonl`` write them, ``--game ID`` choosing one when it holds several). Its moves are
replayed by the Set's own rules from its start (its ``start_tray``, its seed for a Set
that deals), and each position is drawn as text by the rules' own ``text`` (the grid Sets:
the board's rows, ``X`` the first player's, ``O`` the second's; what a Set draws lives in
its own folder, ``interfaces/<set>/``: this command knows no game), else shown as the
Tray the Set's page got. Each ply says whose turn it is, or how the game ended, and the
move that led there.

In a terminal the replay steps with the arrow keys (← →, Home, End; q quits), from the
last ply or ``--ply N``; piped or redirected, every ply is printed in order (``--ply N``:
that one alone). Exit status 0, 2 when refused: no such game or file, a record that is
not one, a game whose moves are hidden while it is played, a ply out of range.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Replay", "ShowRefused", "frames", "read_records", "show"]


class ShowRefused(Exception):
    """A game that cannot be shown; the message says why."""


@dataclass(frozen=True)
class Replay:
    """A game ready to show: its record, each ply's drawing (``drawn[0]`` the start) and
    what each ply's header says (``said``)."""

    record: Mapping[str, Any]
    drawn: list[str]
    said: list[str]

    @property
    def plies(self) -> int:
        """Return the plies played (the last position's number)."""
        return len(self.drawn) - 1

    def frame(self, ply: int) -> str:
        """Return ply ``ply``'s frame: the header, the position, what happened."""
        record = self.record
        names = " – ".join(str(s.get("name", "?")) for s in record.get("seats", []))
        head = f"{record.get('set', '?')} {record.get('id', '?')}: {names}"
        return f"{head}\nply {ply} of {self.plies}\n\n{self.drawn[ply]}\n\n{self.said[ply]}"


def read_records(path: Path) -> list[dict[str, Any]]:
    """Return the game records in ``path``: one JSON object, or one a line (JSON Lines);
    raise :class:`ShowRefused` when it cannot be read or holds none."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as failed:
        raise ShowRefused(f"{path} cannot be read: {failed}") from None
    try:
        found: Any = json.loads(text)
        records = [found]
    except ValueError:
        try:
            records = [json.loads(line) for line in text.splitlines() if line.strip()]
        except ValueError as broken:
            raise ShowRefused(f"{path} is neither JSON nor JSON Lines: {broken}") from None
    games = [r for r in records if isinstance(r, dict) and "moves" in r and "set" in r]
    if not games:
        raise ShowRefused(f"{path} holds no game's record (as /games/<id>.json gives it)")
    return games


def _chosen(records: Sequence[dict[str, Any]], game: str | None, path: Path) -> dict[str, Any]:
    if game:
        found = [r for r in records if r.get("id") == game]
        if not found:
            raise ShowRefused(f"{path} holds no game {game!r}")
        return found[0]
    if len(records) > 1:
        ids = ", ".join(str(r.get("id")) for r in records[:3])
        raise ShowRefused(
            f"{path} holds {len(records)} games ({ids} ...): choose one with --game ID"
        )
    return records[0]


async def _from_database(game_id: str, database: str | None) -> dict[str, Any]:
    """Return the record of ``game_id`` in ``database`` (a SQLite file that must exist,
    or a PostgreSQL URL); raise :class:`ShowRefused`."""
    from tournoyons_gui.arbitre.catalogue import Catalogue
    from tournoyons_gui.arbitre.compaction import replayer
    from tournoyons_gui.arbitre.outbound import Outbound
    from tournoyons_gui.arbitre.record import Records
    from tournoyons_gui.arbitre.store import Store
    from tournoyons_gui.interfaces.registry import load_registry

    url = database or "arbitre.sqlite3"
    if "://" not in url and not Path(url).is_file():
        raise ShowRefused(f"no records at {url} (--database FILE|URL, as play's)")
    store = await Store.open(url)
    try:
        catalogue = Catalogue(load_registry(), store, Outbound())
        # A finished game is kept packed, the Turns its rules give back left out: they
        # are replayed by the Set's rules, as the Arbitre does.
        store.derive_turns = replayer(catalogue.lookup)
        records = Records(store, catalogue)
        found = await records.export(game_id[:40])
    finally:
        await store.close()
    if found is None:
        raise ShowRefused(f"no game {game_id!r} in {url}")
    return found


def frames(record: Mapping[str, Any]) -> Replay:
    """Return the replay of a game's ``record``: each position from its start drawn by its
    Set's rules, with what each ply says; raise :class:`ShowRefused` for a record whose
    moves are hidden, a Set not served here, or moves its rules refuse."""
    from tournoyons_gui.arbitre.match_diff import position_before
    from tournoyons_gui.interfaces.plugin import IllegalMove, position_text
    from tournoyons_gui.interfaces.registry import load_registry

    set_name = str(record.get("set", ""))
    interface = load_registry(only=set_name).get(set_name)
    rules = interface.arbitre if interface is not None else None
    if rules is None:
        raise ShowRefused(f"{set_name or 'this game'} is not a Set played here")
    if record.get("hidden"):
        raise ShowRefused("the game hides its moves while it is played: show it once it is over")
    moves = list(record.get("moves") or [])
    options = record.get("options") or {}
    seed = options.get("seed") if isinstance(options.get("seed"), int) else None
    turn = position_before(
        rules,
        [],
        opening=record.get("start_tray"),
        seed=seed,
        level=int(options.get("level", 1) or 1),
        deals=options.get("deals"),
    )
    if turn is None:
        raise ShowRefused(f"{set_name}'s rules cannot start this game again")
    seats = [str(s.get("name", "?")) for s in record.get("seats", [])]
    drawn, said = [], []
    for ply in range(len(moves) + 1):
        text = position_text(rules, turn.state)
        if text is None:
            tray = moves[ply - 1].get("tray", "") if ply else ""
            text = f"Tray {tray}" if tray else "(the start)"
        drawn.append(text)
        said.append(_said(rules, turn.state, moves, ply, seats, record))
        if ply < len(moves):
            try:
                turn = rules.play(turn.state, str(moves[ply].get("value", "")))
            except (IllegalMove, ValueError, KeyError, TypeError) as refused:
                raise ShowRefused(
                    f"move {ply + 1} ({moves[ply].get('value')!r}) is refused by the rules: "
                    f"{refused}"
                ) from None
    return Replay(record, drawn, said)


def _said(
    rules: Any,
    state: Mapping[str, Any],
    moves: Sequence[Mapping[str, Any]],
    ply: int,
    seats: Sequence[str],
    record: Mapping[str, Any],
) -> str:
    """Return what ply ``ply`` says: the move that led there, then whose turn it is (or
    how the game ended)."""
    lines = []
    if ply:
        move = moves[ply - 1]
        seat = int(move.get("seat", 0))
        who = seats[seat] if 0 <= seat < len(seats) else f"seat {seat + 1}"
        mark = ("X", "O")[seat] if seat < 2 and len(seats) == 2 else f"seat {seat + 1}"
        lines.append(f"last move: {who} ({mark}) played {move.get('value')}")
    if ply == len(moves):
        ended = record.get("result_text") or record.get("status", "")
        if record.get("status") != "playing":
            lines.append(
                f"the end: {ended}" + (f" ({record['reason']})" if record.get("reason") else "")
            )
            return "\n".join(lines)
    try:
        asked = rules.asked(state)
    except (ValueError, KeyError, TypeError):
        asked = ()
    names = [seats[int(p) - 1] for p in asked if 0 < int(p) <= len(seats)]
    if names:
        lines.append(f"to move: {' and '.join(names)}")
    return "\n".join(lines)


#: What each key does (its bytes as a terminal sends them), in :func:`_interactive`.
KEYS = {
    **dict.fromkeys(("q", "Q", "\x03", "\x04", "\x1b"), "quit"),
    **dict.fromkeys(("\x1b[D", "\x1bOD", "h", "p"), "left"),
    **dict.fromkeys(("\x1b[C", "\x1bOC", "l", "n", " "), "right"),
    **dict.fromkeys(("\x1b[H", "\x1b[1~", "\x1bOH", "g"), "home"),
    **dict.fromkeys(("\x1b[F", "\x1b[4~", "\x1bOF", "G"), "end"),
}


def _pressed(typed: str) -> list[str]:
    """Return the keys in ``typed`` (what one read of the terminal gave: several keys when
    they were pressed fast), each as :data:`KEYS` names it; what is no key is skipped."""
    found, rest = [], typed
    by_length = sorted(KEYS, key=len, reverse=True)
    while rest:
        key = next((k for k in by_length if rest.startswith(k)), None)
        if key is None:
            rest = rest[1:]
            continue
        found.append(KEYS[key])
        rest = rest[len(key) :]
    return found


@contextlib.contextmanager
def _cbreak() -> Iterator[int]:
    """Put the terminal in cbreak mode (each key read as it is pressed, not echoed) while
    the block runs; yield its file descriptor. Set before the first frame is drawn: a key
    pressed once it shows is never flushed by the mode's change."""
    import termios
    import tty

    stream = sys.stdin.fileno()
    before = termios.tcgetattr(stream)
    tty.setcbreak(stream)
    try:
        yield stream
    finally:
        termios.tcsetattr(stream, termios.TCSADRAIN, before)


def _interactive(replay: Replay, ply: int) -> None:
    """Show ``replay`` from ply ``ply``, stepping with the keys (:data:`KEYS`) until
    ``q``."""
    hint = "← → step, Home End, q quits"
    out = sys.stdout
    with _cbreak() as stream:
        out.write("\x1b[?25l")  # the cursor hidden while the replay runs
        try:
            while True:
                out.write(f"\x1b[H\x1b[2J{replay.frame(ply)}\n\n{hint}\n")
                out.flush()
                keys = _pressed(os.read(stream, 64).decode("latin-1"))
                if "quit" in keys:
                    break
                for key in keys:
                    ply = {
                        "left": max(0, ply - 1),
                        "right": min(replay.plies, ply + 1),
                        "home": 0,
                        "end": replay.plies,
                    }.get(key, ply)
        finally:
            out.write("\x1b[?25h\n")
            out.flush()


def show(args: argparse.Namespace) -> int:
    """Show the game ``args`` names; return the exit status (see the module)."""
    try:
        path = Path(args.game)
        if path.suffix in (".json", ".jsonl") or path.is_file():
            record = _chosen(read_records(path), args.game_id, path)
        else:
            record = asyncio.run(_from_database(args.game, args.database))
        replay = frames(record)
        if args.ply is not None and not 0 <= args.ply <= replay.plies:
            raise ShowRefused(f"the game has plies 0 to {replay.plies}, not {args.ply}")
    except ShowRefused as refused:
        print(f"tournoyons-gui show: {refused}", file=sys.stderr)
        return 2
    if sys.stdin.isatty() and sys.stdout.isatty():
        _interactive(replay, replay.plies if args.ply is None else args.ply)
        return 0
    chosen = range(replay.plies + 1) if args.ply is None else [args.ply]
    try:
        print("\n\n".join(replay.frame(ply) for ply in chosen))
    except BrokenPipeError:  # `show ... | head`: the reader has what it wanted
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (closed at exit)
    return 0
