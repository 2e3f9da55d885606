#!/usr/bin/env python3
"""Serve the interfaces: ``python3 scripts/serve.py [--host 127.0.0.1] [--port 8000]``.

Creates ``.venv`` with the project on first use, then runs ``tournoyons-gui serve`` with
the arguments given. The tester is at the printed URL; on 127.0.0.1 (the default) the
tester's return sink is on (``--sink``).
"""

from __future__ import annotations

import os
import sys

from _bootstrap import BIN, ensure_venv


def main() -> None:
    """Replace this process with the server."""
    ensure_venv()
    command = str(BIN / ("tournoyons-gui.exe" if os.name == "nt" else "tournoyons-gui"))
    args = sys.argv[1:]
    # The tester's return sink is for a local server: on by default on 127.0.0.1 only.
    host = args[args.index("--host") + 1] if "--host" in args[:-1] else "127.0.0.1"
    if host in ("127.0.0.1", "localhost", "::1") and "--sink" not in args:
        args.append("--sink")
    os.execv(command, [command, "serve", *args])


if __name__ == "__main__":
    main()
