"""The house's checks, run by the test command so that CI enforces them: one formatter
(``ruff format``), ruff's lint rules, and ``mypy --strict`` on the code and the tests.

mypy reads the installed layout (``tournoyons_gui.server`` ...) from a folder of links
to the repository's ``server/``, ``interfaces/``, ``arbitre/`` and ``static/``: the
editable install maps them with an import hook, which mypy does not run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PACKAGES = ("server", "interfaces", "arbitre", "static")


def run(*command: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run a tool of the environment from the repository's root; return what it did."""
    return subprocess.run(
        [str(BIN / command[0]), *command[1:]],
        cwd=ROOT,
        text=True,
        capture_output=True,
        timeout=600,
        env=env,
    )


def test_the_code_is_formatted() -> None:
    done = run("ruff", "format", "--check", "--diff", ".")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_ruff_finds_nothing() -> None:
    done = run("ruff", "check", "--output-format", "concise", ".")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


@pytest.mark.slow
def test_mypy_strict_finds_nothing(tmp_path: Path) -> None:
    layout = tmp_path / "tournoyons_gui"
    layout.mkdir()
    (layout / "__init__.py").write_text("")
    for name in PACKAGES:
        (layout / name).symlink_to(ROOT / name, target_is_directory=True)
    path = [tmp_path, ROOT / "tests" / "plugins"]
    env = {**os.environ, "MYPYPATH": os.pathsep.join(map(str, path))}
    cache = ("--cache-dir", str(tmp_path / "cache"))
    # The packages as installed, then the tests as files (the test plugin under
    # tests/plugins is the installed module tournoyons_nim, not part of the tests package).
    done = run("mypy", "--strict", *cache, "-p", "tournoyons_gui", "-p", "tournoyons_nim", env=env)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    tests = sorted(
        str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("*.py") if "plugins" not in p.parts
    )
    done = run("mypy", "--strict", *cache, *tests, env=env)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
