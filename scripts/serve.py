#!/usr/bin/env python3
"""Serve the interfaces: ``python3 scripts/serve.py [--host 127.0.0.1] [--port 8000]``.

Creates ``.venv`` with the project on first use, then runs ``tournoyons-gui serve`` with
the arguments given. The tester is at the printed URL.
"""

from __future__ import annotations

import os
import sys

from _bootstrap import BIN, ensure_venv


def main() -> None:
    """Replace this process with the server."""
    ensure_venv()
    command = str(BIN / ("tournoyons-gui.exe" if os.name == "nt" else "tournoyons-gui"))
    os.execv(command, [command, "serve", *sys.argv[1:]])


if __name__ == "__main__":
    main()
