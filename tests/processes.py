"""Ending the tests' own processes (servers, engines, an IRC server) as one does by hand:
SIGTERM, a grace period, then SIGKILL, and the pipe read from it closed."""

from __future__ import annotations

import subprocess
from typing import Any

__all__ = ["end"]


def end(process: subprocess.Popen[Any], grace: float = 10.0) -> None:
    """Stop ``process`` if it still runs: SIGTERM, then SIGKILL after ``grace`` seconds;
    wait for it, and close its standard output if the test read it through a pipe."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if process.stdout:
        process.stdout.close()
