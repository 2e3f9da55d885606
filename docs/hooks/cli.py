"""A MkDocs hook: the command line's reference (docs/reference/command-line.md) made from
the argparse parsers at each build, so that it cannot drift from the program.

The page holds the marker ``<!-- commands -->``; this hook puts there, for the program and
each of its commands, the command's ``--help`` exactly as a terminal 88 columns wide shows
it, under a heading of the command's name (``#serve``, ``#room-player`` ...).
"""

from __future__ import annotations

import argparse
import os
from typing import Any

MARKER = "<!-- commands -->"
PAGE = "reference/command-line.md"
COLUMNS = "88"


def _commands(top: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Return the commands of ``top``, by name, in the order they were added."""
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _help(parser: argparse.ArgumentParser) -> str:
    """Return ``parser``'s help as printed in a terminal :data:`COLUMNS` wide."""
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = COLUMNS
    try:
        return parser.format_help().rstrip()
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def reference() -> str:
    """Return the Markdown of every command's help."""
    from tournoyons_gui.server.cli import parser

    top = parser()
    parts = ["## tournoyons-gui", "", "```text", _help(top), "```", ""]
    for name, command in _commands(top).items():
        parts += [f"## {name}", "", "```text", _help(command), "```", ""]
    return "\n".join(parts)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Fill the command line's page (MkDocs' ``on_page_markdown`` event)."""
    if page.file.src_uri != PAGE:
        return markdown
    if MARKER not in markdown:
        raise ValueError(f"{PAGE} has lost its marker {MARKER}")
    return markdown.replace(MARKER, reference())
