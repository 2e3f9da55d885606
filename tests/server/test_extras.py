"""A command whose extra is missing says, in one sentence and without a traceback, what is
missing and the exact command that installs it (``server/extras.py``): the interface
check without Playwright, without a Chromium, with a ``$TOURNOYONS_CHROMIUM`` that names
nothing; the command fitted to the Python running; the server's Check button refusing
with what it lacks."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.conftest import ROOT
from tournoyons_gui.server import checks, extras
from tournoyons_gui.server.app import create_app
from tournoyons_gui.server.extras import Lack

#: The check of a page nobody serves: refused before anything is visited.
CHECK = ["check-interface", "http://127.0.0.1:9/", "--set", "TicTacToe", "--alone"]


def check_interface(
    *, env: dict[str, str] | None = None, cwd: Path = ROOT, hide: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run ``tournoyons-gui check-interface`` on a page nobody serves, in this test's
    Python, with the module ``hide`` made unimportable."""
    code = (
        "import sys\n"
        + (f"sys.modules[{hide!r}] = None\n" if hide else "")
        + "from tournoyons_gui.server.cli import main\n"
        + f"sys.exit(main({CHECK!r}))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env=env or dict(os.environ),
        cwd=cwd,
    )


def one_sentence(done: subprocess.CompletedProcess[str]) -> str:
    """Return the one line the refused command printed, after checking how it ended."""
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_without_playwright_the_check_names_the_command_that_installs_it() -> None:
    said = one_sentence(check_interface(hide="playwright"))
    assert said == (
        "check-interface needs Playwright (the project's 'check' extra), which is missing "
        "here; install it with: .venv/bin/pip install -e '.[check]'"
    )


def test_from_another_folder_the_command_goes_to_the_repository(tmp_path: Path) -> None:
    said = one_sentence(check_interface(hide="playwright", cwd=tmp_path))
    assert said.endswith(f"cd {shlex.quote(str(ROOT))} && .venv/bin/pip install -e '.[check]'")


def test_without_a_chromium_the_check_says_how_to_get_one(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "TOURNOYONS_CHROMIUM"}
    env |= {"PATH": str(empty), "PLAYWRIGHT_BROWSERS_PATH": str(tmp_path / "browsers")}
    said = one_sentence(check_interface(env=env))
    assert said.startswith("check-interface needs a Chromium, which is missing here; ")
    assert ".venv/bin/python -m playwright install chromium" in said
    assert "sudo apt-get install chromium" in said and "TOURNOYONS_CHROMIUM" in said


def test_a_chromium_named_that_is_not_there_is_said(tmp_path: Path) -> None:
    env = {**os.environ, "TOURNOYONS_CHROMIUM": str(tmp_path / "no-chromium")}
    said = one_sentence(check_interface(env=env))
    assert f"the Chromium that TOURNOYONS_CHROMIUM names ({tmp_path / 'no-chromium'})" in said


def test_outside_the_projects_environment_the_command_is_this_pythons_pip(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Installed elsewhere (``pip install .`` into a virtual environment of one's own), the
    command is that Python's pip, with the extra's requirements as the package declares
    them (``pyproject.toml``)."""
    monkeypatch.setattr(extras, "project_root", lambda: None)
    python = shlex.quote(sys.executable)
    assert extras.install_command("check", "playwright") == (
        f"{python} -m pip install 'playwright>=1.44'"
    )
    assert extras.lacking_module("json", "JSON", "check") is None
    lack = extras.lacking_module("no_such_module_here", "Nothing", "test")
    assert lack is not None and lack.what == "Nothing (the project's 'test' extra)"
    assert lack.how.startswith(f"install it with: {python} -m pip install 'pytest>=8' ")


def test_the_servers_check_button_says_what_the_server_lacks(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    lack = Lack("Playwright (the project's 'check' extra)", "install it with: pip ...")
    monkeypatch.setattr(checks, "lacking", lambda: lack)
    app = create_app(database=str(tmp_path / "arbitre.sqlite3"))
    with TestClient(app) as client:
        page = client.get("/interfaces/B-tictactoe")
        assert "data-no-check" in page.text and "the command that installs it" in page.text
        refused = client.post(
            "/interfaces/B-tictactoe/check",
            data={"set": "TicTacToe"},
            headers={"Origin": "http://testserver"},
        )
    assert refused.status_code == 503
    assert "this server cannot check interfaces: it lacks Playwright" in refused.text
    assert any("install it with: pip ..." in r.getMessage() for r in caplog.records)
