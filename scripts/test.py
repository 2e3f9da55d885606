#!/usr/bin/env python3
"""Run every test: ``python3 scripts/test.py [--long] [pytest arguments]``.

Creates ``.venv`` with the project and its test dependencies, finds or installs a Chromium
(see ``_bootstrap.find_chromium``), PostgreSQL's server programs (``find_postgres``: the
tests run a throwaway server of their own), ngIRCd (``find_ngircd``: an IRC server per
test), nginx, Node.js, PHP, Ruby and Go (``find_node``, ``find_php``, ``find_ruby``, ``find_go``:
the starter engines' runtimes),
then runs pytest: unit tests, server tests, the
Arbitre's tests, and the browser tests in real Chromium against the real server.
"""

from __future__ import annotations

import os
import subprocess
import sys

from _bootstrap import (
    ROOT,
    ensure_venv,
    find_chromium,
    find_go,
    find_nginx,
    find_ngircd,
    find_node,
    find_php,
    find_postgres,
    find_ruby,
    find_wrk,
    say,
)

# ``--long``: the robustness tests' larger counts and every Set where a flow's test plays
# a few (tests/runs.py): the long run of docs/development/testing.md, unless the
# environment already sets them.
LONG_RUN = {
    "TOURNOYONS_FUZZ_EXAMPLES": "100000",
    "TOURNOYONS_FUZZ_PAGES": "100000",
    "TOURNOYONS_FUZZ_PROPERTY": "2000",
    "TOURNOYONS_FUZZ_BROWSER": "500",
    "TOURNOYONS_STORMS": "9000",
    "TOURNOYONS_ENGINE_FUZZ": "3000",
    "TOURNOYONS_TIMI_GAMES": "20",
    "TOURNOYONS_TIMI_ROOMS": "10",
    "TOURNOYONS_EVERY_SET": "1",
    "TOURNOYONS_OPENAPI_EXAMPLES": "100",
}


def main() -> int:
    """Run the suite; return pytest's exit status."""
    python = ensure_venv("test")
    chromium = find_chromium(python)
    say(f"Chromium: {chromium}")
    postgres = find_postgres()
    say(f"PostgreSQL: {postgres}")
    ngircd = find_ngircd()
    say(f"ngIRCd: {ngircd}")
    nginx = find_nginx()
    say(f"nginx: {nginx}")
    node = find_node()
    say(f"Node.js: {node}")
    php = find_php()
    say(f"PHP: {php}")
    ruby = find_ruby()
    say(f"Ruby: {ruby}")
    go = find_go()
    say(f"Go: {go}")
    wrk = find_wrk()
    say(f"wrk: {wrk}")
    env = {
        **os.environ,
        "TOURNOYONS_CHROMIUM": chromium,
        "TOURNOYONS_PG_BIN": postgres,
        "TOURNOYONS_NGIRCD": ngircd,
        "TOURNOYONS_NGINX": nginx,
        "TOURNOYONS_NODE": node,
        "TOURNOYONS_PHP": php,
        "TOURNOYONS_RUBY": ruby,
        "TOURNOYONS_GO": go,
        "TOURNOYONS_WRK": wrk,
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    args = sys.argv[1:]
    if "--long" in args:
        args.remove("--long")
        env = {**LONG_RUN, **env}
    if not any(
        a in ("-n", "--numprocesses") or a.startswith(("-n", "--numprocesses=")) or a == "no:xdist"
        for a in args
    ):
        # One worker per core and one more, at most four, each with its own server and
        # Chromium: with one per core, the cores were idle for near half of a full run
        # (its workers wait on IRC's pace, engines' delays, pages, subprocesses).
        args = ["-n", str(min(4, (os.cpu_count() or 1) + 1)), *args]
    command = [str(python), "-m", "pytest", *args]
    return subprocess.run(command, cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
