"""What ``play`` prints: a line per game as it ends, the match's summary at a
glance (cutechess's and fastchess's reports: wins, draws, losses and score per entrant, the
Elo difference with its interval and the LOS, the pentanomial counts, the SPRT), then the
failure report, each game lost by fault with the command that reproduces it.

Everything here reads the summary document (:func:`~tournoyons_gui.arbitre.match_summary.
summarize`, what ``--json`` writes) or the failures
(:func:`~tournoyons_gui.arbitre.faults.failure_of`): the terminal shows what the document
says, nothing computed apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from tournoyons_gui.arbitre.faults import Failure
from tournoyons_gui.arbitre.match_summary import Outcome, Tally, elo_line, nelo_line

__all__ = [
    "elo_line",
    "game_line",
    "print_failures",
    "print_summary",
    "progress_text",
    "result_words",
    "think_words",
]

_PENTA_HEAD = "Pentanomial (pairs of 0, ½, 1, 1½, 2 points)"


def result_words(outcome: Outcome, names: Sequence[str]) -> str:
    """Return how a game ended in words: ``<name> wins``, ``draw``, the ranking of a game
    of more seats (``1. Ann  2. Bob, Cy  4. Dee``), ``ended in error``, ``interrupted``."""
    if outcome.status == "interrupted":
        return "interrupted"
    if outcome.points is None:
        return "ended in error"
    if len(names) == 2:
        if outcome.points[0] == outcome.points[1]:
            return "draw"
        return f"{names[0 if outcome.points[0] > outcome.points[1] else 1]} wins"
    places: dict[int, list[str]] = {}
    for entrant in sorted(range(len(names)), key=lambda i: (outcome.ranks[i] or 0, i)):
        places.setdefault(outcome.ranks[entrant] or 0, []).append(names[entrant])
    return "  ".join(f"{rank}. {', '.join(who)}" for rank, who in places.items())


def game_line(outcome: Outcome, names: Sequence[str]) -> str:
    """Return a game's line as it ends: id, result, moves, the seats in play order, and
    the fault that decided it."""
    seated = " - ".join(names[i] for i in outcome.seats)
    line = f"{outcome.game_id}  {result_words(outcome, names)}  {outcome.moves} moves  {seated}"
    if outcome.fault and outcome.fault_by is not None:
        line += f"  ({outcome.fault}: {names[outcome.fault_by]}, ply {outcome.ply})"
    return line


def progress_text(set_name: str, tally: Tally) -> str:
    """Return the progress bar's description: the Set, the first entrant's wins, draws
    and losses, and with an SPRT its LLR between its bounds."""
    wins, draws, losses = tally.wdl["win"], tally.wdl["draw"], tally.wdl["loss"]
    text = f"{set_name}  {wins}-{draws}-{losses}"
    if tally.sprt is not None:
        sprt = tally.sprt
        text += f"  LLR {tally.llr:+.2f} ({sprt.lower:+.2f}, {sprt.upper:+.2f})"
    return text


def _faults(faults: Mapping[str, int]) -> str:
    """Return an entrant's losses by fault: ``2 timeout, 1 illegal``, or ``·`` for none."""
    return ", ".join(f"{n} {kind}" for kind, n in faults.items() if n) or "·"


def think_words(think: Mapping[str, int] | None) -> str:
    """Return an entrant's thinking times as the summary shows them: ``12 / 30 / 95``
    (p50, p95, max in milliseconds), ``·`` for none."""
    if not think:
        return "·"
    return f"{think['p50']} / {think['p95']} / {think['max']}"


def print_summary(console: Console, document: Mapping[str, Any]) -> None:
    """Print the match's summary from its document: a table of the entrants (wins, draws,
    losses, losses by fault by kind, points and score; at more than two seats ranked by
    their totals; each one's thinking time per move, p50, p95 and max, as the Arbitre
    measured it from request to answer), then for two entrants the Elo difference, its
    95% interval and the LOS, the pentanomial counts and the SPRT."""
    entrants = document["entrants"]
    games = document["games"]
    head = f"{document['set']}: {games} game{'' if games == 1 else 's'}"
    if document.get("openings"):
        head += f", openings {document['openings']}"
    head += f", seed {document['seed']}"
    if document["status"] == "interrupted":
        head += " (stopped: the games finished)"
    table = Table(title=head, title_justify="left")
    multi = len(entrants) > 2
    if multi:
        table.add_column("Rank", justify="right")
    table.add_column("Entrant", overflow="fold")
    for column in ("Games", "W", "D", "L"):
        table.add_column(column, justify="right")
    table.add_column("Lost by fault", overflow="fold")
    table.add_column("Total" if multi else "Points", justify="right")
    table.add_column("Mean rank" if multi else "Score", justify="right")
    table.add_column("Think ms p50/p95/max", justify="right")
    rows = sorted(entrants, key=lambda e: e["rank"]) if multi else entrants
    for entrant in rows:
        score = entrant["score"]
        cells = [
            entrant["name"],
            str(entrant["games"]),
            str(entrant["wins"]),
            str(entrant["draws"]),
            str(entrant["losses"]),
            _faults(entrant["faults"]),
            str(entrant["total"]) if multi else f"{entrant['points']:g}",
            ("" if entrant["mean_rank"] is None else f"{entrant['mean_rank']:.2f}")
            if multi
            else ("" if score is None else f"{score * 100:.1f} %"),
            think_words(entrant.get("think_ms")),
        ]
        table.add_row(*([str(entrant["rank"])] if multi else []), *cells)
    console.print(table)
    if document["errors"]:
        console.print(
            f"Games with no result (not counted): {document['errors']}",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
    if multi:
        return
    for said in (elo_line(document), nelo_line(document)):
        if said:
            console.print(said, highlight=False, markup=False, soft_wrap=True)
    penta = document["pentanomial"]
    if penta is not None and sum(penta):
        console.print(
            f"{_PENTA_HEAD}: {penta}, {sum(penta)} pairs",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
    sprt = document["sprt"]
    if sprt is not None:
        verdict = {"H0": "H0 accepted", "H1": "H1 accepted"}.get(sprt["verdict"] or "", "")
        console.print(
            f"SPRT [{sprt['elo0']:g}, {sprt['elo1']:g}] ({sprt['model']} Elo), "
            f"alpha {sprt['alpha']:g}, beta {sprt['beta']:g}: LLR {sprt['llr']:+.2f} "
            f"({sprt['lower']:+.2f}, {sprt['upper']:+.2f}): "
            + (verdict or "no verdict (the games ran out, or the match was stopped)"),
            highlight=False,
            markup=False,
            soft_wrap=True,
        )


def print_failures(console: Console, failures: Sequence[Failure], notes: Sequence[str]) -> None:
    """Print the failure report: each game lost by fault with its kind, game, ply, the
    request (secrets redacted), what came back and when, and the command reproducing it;
    then what the games say of an engine that stopped answering."""
    if not failures:
        return
    console.print(Text(f"\nGames lost by fault ({len(failures)})", style="bold"), soft_wrap=True)
    for failure in failures:
        console.print(
            Text(
                f"{failure.kind}  game {failure.game_id}  ply {failure.ply}  "
                f"{failure.name} (seat {failure.seat + 1})",
                style="red",
            ),
            soft_wrap=True,
        )
        when = []
        if failure.latency_ms is not None:
            when.append(f"answered after {failure.latency_ms} ms")
        if failure.waited_ms is not None:
            when.append(f"failed after {failure.waited_ms} ms")
        for label, value in (
            ("why", failure.detail),
            ("request", failure.request),
            ("answer", failure.answer or "nothing"),
            ("latency", ", ".join(when)),
            ("reproduce", failure.curl or "(a built-in engine: served by play itself)"),
        ):
            if value:
                console.print(
                    f"  {label:<9} {value}", soft_wrap=True, highlight=False, markup=False
                )
    for said in notes:
        console.print(Text(said, style="yellow"), soft_wrap=True)
