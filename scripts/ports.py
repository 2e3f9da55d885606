#!/usr/bin/env python3
"""Say whether the ports a tutorial will use are free: ``python3 scripts/ports.py PORT
PAGE_PORT ...``.

Each argument names an environment variable holding a port (the tutorials set theirs once
at their top: ``export PORT=8000 PAGE_PORT=8001``). A port is free when a server could
listen on it at 127.0.0.1 now (the test binds it as servers do, with ``SO_REUSEADDR``).
Prints one line: the ports, all free; or, for each one taken or not a port, what is wrong
and a free port to choose instead, on stderr, with exit status 1. Needs nothing but
Python 3.
"""

from __future__ import annotations

import errno
import os
import socket
import sys


def refusal(port: int) -> str | None:
    """Return why no server could listen on 127.0.0.1:``port`` now, or ``None``: free."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as refused:
            if refused.errno == errno.EADDRINUSE:
                return "is taken: another program listens there"
            if refused.errno == errno.EACCES:
                return "needs root (ports below 1024)"
            return f"cannot be listened on ({refused.strerror})"
    return None


def suggestion(taken: set[int]) -> int:
    """Return a free port above 8000 that is none of ``taken`` (the ports already named)."""
    for port in range(8000, 30000):
        if port not in taken and refusal(port) is None:
            return port
    raise SystemExit("no free port between 8000 and 30000")


def main(names: list[str]) -> int:
    """Check the ports named by ``names``; return the exit status."""
    if not names:
        print(__doc__, file=sys.stderr)
        return 2
    values: dict[str, int] = {}
    wrong: list[tuple[str, str]] = []
    for name in names:
        value = os.environ.get(name, "")
        if not (value.isascii() and value.isdigit()) or not 0 < int(value) < 65536:
            wrong.append((name, f"{name} is {value!r}, not a port: export {name}=<a port>"))
        elif int(value) in values.values():
            wrong.append((name, f"{name}={value} is another variable's port too"))
        else:
            values[name] = int(value)
    for name, port in values.items():
        why = refusal(port)
        if why is not None:
            wrong.append((name, f"{name}={port} {why}"))
    if not wrong:
        print("free: " + " ".join(f"{name}={port}" for name, port in values.items()))
        return 0
    named = set(values.values())
    for name, problem in wrong:
        other = suggestion(named)
        named.add(other)
        print(f"{problem}; choose another, e.g. export {name}={other}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
