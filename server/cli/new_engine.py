"""``tournoyons-gui new-engine --lang python|javascript|php|ruby|go [--transport http|stdio]
DIR``: write a starter engine (:mod:`tournoyons_gui.arbitre.starters`) into ``DIR`` and say
what to run next.

``DIR`` is made when missing; one that exists and is not empty is refused (exit status
2, nothing written), as is one that is a file.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from tournoyons_gui.arbitre.starters import LANGUAGES, StarterRefused, write_starter

__all__ = ["EXAMPLE_PORT", "new_engine"]

#: The port the printed commands use (``serve``'s default is 8000).
EXAMPLE_PORT = 8001


def new_engine(args: argparse.Namespace) -> int:
    """Write the starter of ``args.lang`` for ``args.transport`` into ``args.dir``; return
    0, 2 when the folder is refused, 1 when a file could not be written."""
    folder = Path(args.dir)
    starter = LANGUAGES[args.lang]
    try:
        written = write_starter(args.lang, folder, args.transport)
    except StarterRefused as refused:
        print(f"tournoyons-gui new-engine: {refused}", file=sys.stderr)
        return 2
    except OSError as failed:
        print(f"tournoyons-gui new-engine: {failed}", file=sys.stderr)
        return 1
    over = "over HTTP" if args.transport == "http" else "over standard input and output"
    print(f"Wrote a {args.lang} engine {over}: {', '.join(str(path) for path in written)}")
    steps = [f"  cd {shlex.quote(str(folder))}"]
    if starter.build:
        steps.append(f"  {starter.build}")
    if args.transport == "http":
        url = f"http://127.0.0.1:{EXAMPLE_PORT}/"
        steps.append(f"  {starter.command(EXAMPLE_PORT)}          # the engine, at {url}")
        then = (
            "and, in another terminal, let it play ten games against our random engine:\n"
            f"  tournoyons-gui play --set ConnectFour --engine {url} --engine builtin:random "
            "--games 10"
        )
    else:
        engine = shlex.quote(f"me=cmd:{starter.stdio}")
        then = (
            "and let it play ten games against our random engine (play starts it):\n"
            f"  tournoyons-gui play --set ConnectFour --engine {engine} --engine "
            "builtin:random --games 10"
        )
    print("\nNext:\n" + "\n".join(steps) + "\n" + then)
    print(
        f"Your logic goes in {starter.engine}'s {starter.functions} at the top of the file "
        "(tictactoe, connectfour, rochambeau); README.md says what to try next."
    )
    return 0
