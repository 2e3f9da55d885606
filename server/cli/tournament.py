"""``tournoyons-gui tournament``: a round-robin, Swiss or tables tournament between engines,
headless, with a progress bar, then its standings (points, tie-breaks, ratings) and cross
table.

The whole server runs on 127.0.0.1 in this process (:func:`.headless.serving_here`). The
tables fit the terminal: every name is printed whole, wrapped or folded, never cut.
"""

from __future__ import annotations

import argparse
import asyncio
import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from tournoyons_gui.arbitre.match import GameError, Options
from tournoyons_gui.arbitre.processes import CommandError
from tournoyons_gui.arbitre.tournaments import EntrantSpec, TournamentError, Tournaments
from tournoyons_gui.server.cli.headless import (
    arbitre_of,
    output_console,
    progress_bar,
    serving_here,
    tournaments_of,
)
from tournoyons_gui.server.cli.play import allow_commands, told_referee

__all__ = ["cross_table_of", "parse_entrant", "read_tokens", "standings_table", "tournament"]


def parse_entrant(value: str, tokens: Mapping[str, str] | None = None) -> EntrantSpec:
    """Return the entrant an ``--engine`` names: ``builtin:NAME``, ``registered:ID`` (a
    registered engine), ``botsarena:URL``, ``cmd:COMMAND`` (a process engine, never
    registered) or an engine URL; ``NAME=`` before any of them
    names the entrant (``Ann=builtin:random``; a NAME has no ``:``). A registered engine's
    edit token, its owner's consent, is ``tokens[ID]`` (or ``tokens[URL]`` for an engine
    entered by its URL): :func:`read_tokens`."""
    tokens = tokens or {}
    name = ""
    head, sep, rest = value.partition("=")
    if sep and "://" not in head and ":" not in head:
        name, value = head, rest
    if value.startswith("builtin:"):
        return EntrantSpec("builtin", value.removeprefix("builtin:"), name)
    if value.startswith("registered:"):
        engine = value.removeprefix("registered:")
        return EntrantSpec("registered", engine, name, tokens.get(engine, ""))
    if value.startswith("botsarena:"):
        return EntrantSpec("botsarena", value.removeprefix("botsarena:"), name)
    return EntrantSpec("engine", value, name, tokens.get(value, ""))


def read_tokens(path: str) -> dict[str, str]:
    """Read ``tournament --tokens FILE``: one registered engine a line, its id (or the URL
    it is entered by), white space, then its edit token; blank lines and lines starting
    with ``#`` are skipped. A file, not the command line, since any local user reads a
    command line (``ps``). Raises ``OSError`` when the file cannot be read and
    ``ValueError`` for a line without a token."""
    tokens: dict[str, str] = {}
    text = Path(path).read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if len(words) != 2:
            raise ValueError(
                f"{path}, line {number}: write an engine's id (or URL), a space, its edit token"
            )
        tokens[words[0]] = words[1]
    return tokens


async def tournament(args: argparse.Namespace) -> int:
    """Run a tournament to its end; return 0 when it ended, 1 when the server did not start,
    2 when refused (an unknown Set, an entrant it cannot have ...)."""
    console = output_console()
    try:
        tokens = read_tokens(args.tokens) if args.tokens else {}
    except (OSError, ValueError) as refused:
        console.print(f"[red]{escape(str(refused))}[/red]", highlight=False, soft_wrap=True)
        return 2
    async with serving_here(args) as app:
        if app is None:
            return 1
        try:
            allow_commands(arbitre_of(app), args.engine, args.restart == "on")
        except CommandError as refused:
            console.print(f"[red]{escape(str(refused))}[/red]", highlight=False, soft_wrap=True)
            return 2
        told_referee(args, console, arbitre_of(app).public_url)
        return await _tournament(args, console, tournaments_of(app), tokens)


async def _tournament(
    args: argparse.Namespace, console: Console, service: Tournaments, tokens: Mapping[str, str]
) -> int:
    try:
        tournament_id = await service.create(
            args.set,
            [parse_entrant(e, tokens) for e in args.engine],
            format=args.format,
            games=args.games or (1 if args.format == "tables" else 2),
            rounds=args.rounds,
            concurrency=args.concurrency,
            options=Options(timeout=args.timeout, level=args.level),
            name=args.name,
        )
    except (TournamentError, GameError) as refused:
        console.print(f"[red]{escape(str(refused))}[/red]", soft_wrap=True)
        return 2
    summary = await service.summary(tournament_id)
    assert summary is not None
    with progress_bar(console) as progress:
        bar = progress.add_task(
            f"{summary['name']} ({tournament_id})", total=summary["progress"]["planned"]
        )
        while True:
            summary = await service.summary(tournament_id)
            assert summary is not None
            progress.update(
                bar, completed=summary["progress"]["over"], total=summary["progress"]["planned"]
            )
            if summary["status"] == "over":
                break
            await asyncio.sleep(0.3)
    console.print(standings_table(summary, console.width))
    console.print(cross_table_of(summary))
    console.print(
        f"Records: /tournaments/{tournament_id} (standings.csv, games.csv, .json) "
        f"in {args.database or 'arbitre.sqlite3'}",
        soft_wrap=True,
    )
    return 0


def standings_table(summary: dict[str, Any], width: int | None = None) -> Table:
    """Return the standings of a tournament summary (``summary["name"]`` and
    ``summary["standings"]``, rows as :meth:`Tournaments.summary` gives them) as a rich
    table, every name whole: wrapped, or folded when longer than its column, never cut.

    Given the terminal's ``width`` (columns), a table wider than that is drawn compact: no
    lines between the columns, ``Played`` left out (it is W + D + L + E) and the wins,
    draws, losses and errors in one column ``W-D-L-E``."""
    table = _standings(summary, compact=False)
    if width is not None and _natural_width(table) > width:
        table = _standings(summary, compact=True)
    return table


def _natural_width(table: Table) -> int:
    """Return the columns ``table`` takes when nothing is wrapped."""
    return Console(width=10_000, file=io.StringIO()).measure(table).maximum


def _at_tables(summary: dict[str, Any]) -> Table:
    """Return the standings of a tournament at tables of four: match points, total score."""
    table = Table(title=f"{summary['name']}: standings (match points 3-2-1-0)")
    for column in ("#", "Entrant", "Played", "1st", "Err", "Points", "Score", "Buchholz"):
        table.add_column(
            column, overflow="fold", justify="left" if column == "Entrant" else "right"
        )
    table.add_column("Rating", justify="right", no_wrap=True, overflow="fold")
    for row in summary["standings"]:
        table.add_row(
            str(row["rank"]),
            escape(row["name"]),
            *(str(row[key]) for key in ("played", "firsts", "errors")),
            f"{row['points']:g}",
            str(row["score"]),
            f"{row['buchholz']:g}",
            f"{row['mu']:.1f} ± {row['sigma']:.1f}",
        )
    return table


def _standings(summary: dict[str, Any], *, compact: bool) -> Table:
    if summary.get("format") == "tables":
        return _at_tables(summary)
    counts = ("W-D-L-E",) if compact else ("Played", "W", "D", "L", "Err")
    table = Table(title=f"{summary['name']}: standings")
    if compact:  # no vertical lines, no padding at the edges nor doubled between columns
        table = Table(
            title=table.title,
            caption="W-D-L-E: wins, draws, losses, errors",
            box=box.SIMPLE_HEAD,
            show_edge=False,
            pad_edge=False,
            collapse_padding=True,
        )
    for column in ("#", "Entrant", *counts, "Points", "SB", "Buchholz", "Rating"):
        if column == "Entrant":
            table.add_column(column, overflow="fold")
        else:  # numbers stay on one line; folded, never cut, when even they cannot fit
            table.add_column(column, justify="right", no_wrap=True, overflow="fold")
    for row in summary["standings"]:
        wins, draws, losses, errors = (
            str(row[key]) for key in ("wins", "draws", "losses", "errors")
        )
        table.add_row(
            str(row["rank"]),
            escape(row["name"]),
            *(
                (f"{wins}-{draws}-{losses}-{errors}",)
                if compact
                else (str(row["played"]), wins, draws, losses, errors)
            ),
            f"{row['points']:g}",
            f"{row['sonneborn_berger']:g}",
            f"{row['buchholz']:g}",
            f"{row['mu']:.1f} ± {row['sigma']:.1f}",
        )
    return table


def cross_table_of(summary: dict[str, Any]) -> Table:
    """Return the cross table of a tournament summary (``summary["entrants"]`` and
    ``summary["cross_table"]``): W-D-L of each row's entrant against each column's, every
    name whole (wrapped or folded, never cut)."""
    names = [e["name"] for e in summary["entrants"]]
    title = "Cross table (wins-draws-losses)"
    if summary.get("format") == "tables":
        title = "Table of meetings (ahead-level-behind)"
    table = Table(title=title)
    table.add_column("", overflow="fold")
    for number in range(len(names)):
        table.add_column(str(number + 1), justify="center", overflow="fold")
    for number, (name, cells) in enumerate(zip(names, summary["cross_table"], strict=True)):
        table.add_row(
            f"{number + 1} {escape(name)}",
            *(cell or ("·" if cell == "" else cell) for cell in cells),
        )
    return table
