"""Process engines of the tests' own (``cmd:python3 line_engines.py MODE MARKER``), each
reproducing what a real program over standard input and output does, well or badly:

- ``good``: a legal move at random in ConnectFour, TicTacToe and Rochambeau, its process
  id and a line of thought on standard error, ``OK`` to a final call; it ends at the end
  of its input.
- ``slow MS``: ``good``, each move after ``MS`` milliseconds.
- ``silent``: reads every line, answers none.
- ``deaf``: never reads its input (it sleeps).
- ``exits``: says why on standard error and exits with status 3 before reading anything.
- ``huge``: answers a line of 10 MiB.
- ``empty``: answers empty lines.
- ``chatty``: ``good``, writing 100 KiB to its standard error before each answer.
- ``crash N FLAG``: ``good`` until its N-th request, then dies (SIGKILL from itself),
  once: it writes the file ``FLAG`` first, and a process that finds it never crashes.
- ``family``: ``good``, having started a child that sleeps (MARKER its argument): what a
  shell wrapper or a multi-process engine leaves behind unless its process group is killed.

``MARKER`` (any word) is in every process's command line, so that a test finds what is
left behind by scanning ``/proc``.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import urllib.parse


def moves(call: dict[str, str]) -> list[str]:
    """Return the legal moves of a request."""
    tray = call.get("Tray", "")
    if call.get("Set") == "ConnectFour":
        return [c for i, c in enumerate("ABCDEFG") if tray[35 + i] == "0"]
    if call.get("Set") == "TicTacToe":
        return [str(i + 1) for i in range(9) if tray[i] == "0"]
    return ["1", "2", "3"]


def answer(line: str) -> str:
    """Return a good engine's line back to ``line``."""
    call = dict(urllib.parse.parse_qsl(line.strip(), keep_blank_values=True))
    if call.get("Status", "0") != "0":
        return "OK"
    print(f"thinking about move {call.get('MoveId')} of {call.get('Game')}", file=sys.stderr)
    sys.stderr.flush()
    return random.choice(moves(call))


def main() -> None:
    """Play as ``sys.argv[1]`` says (see the module)."""
    mode = sys.argv[1]
    print(f"pid {os.getpid()}", file=sys.stderr, flush=True)
    if mode == "exits":
        print("engine.rb:1: syntax error, unexpected end-of-input", file=sys.stderr, flush=True)
        sys.exit(3)
    if mode == "deaf":
        time.sleep(300)
        return
    if mode == "family":
        sleeper = "import time; time.sleep(300)"
        subprocess.Popen([sys.executable, "-c", sleeper, sys.argv[-1]])
    delay = int(sys.argv[2]) / 1000 if mode == "slow" else 0.0
    crash = int(sys.argv[2]) if mode == "crash" and not os.path.exists(sys.argv[3]) else 0
    for count, line in enumerate(sys.stdin, 1):
        if mode == "silent":
            continue
        if crash and count >= crash:
            with open(sys.argv[3], "w") as flag:
                flag.write("crashed\n")
            os.kill(os.getpid(), signal.SIGKILL)
        if mode == "chatty":
            for _ in range(1024):
                sys.stderr.write("x" * 99 + "\n")
            sys.stderr.flush()
        if mode == "huge":
            sys.stdout.write("A" * (10 * 1024 * 1024) + "\n")
        elif mode == "empty":
            sys.stdout.write("\n")
        else:
            time.sleep(delay)
            sys.stdout.write(answer(line) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
