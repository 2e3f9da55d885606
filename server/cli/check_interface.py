"""``tournoyons-gui check-interface URL --set TicTacToe [--json] [--sheet FILE] [--alone]``:
the interface check (:mod:`tournoyons_gui.server.check`) from the command line.

Our own page for the Set is served on 127.0.0.1 in this process (the whole server, its
records in a temporary folder), so that the contact sheet shows it beside the interface
checked; ``--alone`` checks the interface without it (no server here, half the visits,
the same faults found). A progress bar while it runs (on stderr), then the table
(``rich``), or the report as JSON on stdout with ``--json``. Exit status 0 when every
context passes, 1 when one fails, 2 when refused (an unknown Set, a URL that is not
http(s), no Playwright or no Chromium: one sentence on stderr, with the command that
installs what is missing).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

from tournoyons_gui.arbitre.urls import check_engine_url
from tournoyons_gui.interfaces.registry import load_registry
from tournoyons_gui.server.check import CheckReport, check_interface, lacking
from tournoyons_gui.server.cli.headless import progress_bar, serving_here

__all__ = ["run_check", "table"]


def table(report: CheckReport) -> Table:
    """Return the report as a ``rich`` table: one row per context."""
    shown = Table(title=f"{report.set}: {report.url}")
    for column in ("Context", "HTTP", "Load ms", "Ready ms", "Errors", "Fits", "Verdict"):
        shown.add_column(column, overflow="fold")
    for r in report.results:
        shown.add_row(
            r.label,
            "—" if r.status is None else str(r.status),
            "—" if r.load_ms is None else f"{r.load_ms:.0f}",
            "—" if r.ready_ms is None else f"{r.ready_ms:.0f}",
            str(len(r.errors)),
            "yes" if r.fits else f"no ({r.size[0]}x{r.size[1]})",
            "pass" if r.passed else "; ".join(r.faults),
        )
    return shown


async def run_check(args: argparse.Namespace) -> int:
    """Run the check ``args`` ask for; return the exit status (see the module)."""
    err = Console(stderr=True)
    out = Console()
    interface = load_registry().get(args.set)
    if interface is None:
        err.print(f"unknown Set {args.set!r}")
        return 2
    try:
        url = check_engine_url(args.url)
    except ValueError as refused:
        err.print(str(refused).replace("engine", "interface"))
        return 2
    missing = lacking()
    if missing is not None:
        # One line, unwrapped and unstyled: its command is copied as it stands.
        print(missing.sentence("check-interface"), file=sys.stderr)
        return 2
    with progress_bar(err) as bar:
        task = bar.add_task(f"{interface.name} contexts", total=None)

        def progress(done: int, total: int, label: str) -> None:
            bar.update(task, completed=done, total=total, description=label)

        try:
            if args.alone:
                report = await check_interface(url, interface, progress=progress)
            else:
                with tempfile.TemporaryDirectory() as folder:
                    args.database = str(Path(folder) / "arbitre.sqlite3")
                    args.engine_hosts = ""
                    async with serving_here(args) as app:
                        ours = None if app is None else f"{app_url(app)}/{interface.key}/"
                        report = await check_interface(url, interface, ours=ours, progress=progress)
        except RuntimeError as failed:
            err.print(str(failed), markup=False, highlight=False, soft_wrap=True)
            return 2
    if args.sheet:
        Path(args.sheet).write_bytes(report.sheet)
    if args.json:
        out.print_json(json.dumps(report.to_json()))
    else:
        out.print(table(report))
        out.print("every context passes" if report.passed else "some contexts fail")
    return 0 if report.passed else 1


def app_url(app: object) -> str:
    """Return the base URL the in-process server of :func:`serving_here` listens on."""
    arbitre = app.app.state.arbitre_holder()  # type: ignore[attr-defined]
    return str(arbitre.public_url)
