"""The wheel serves every page: built from the repository, installed in a fresh virtual
environment, started as ``tournoyons-gui serve`` far from the source tree, and every Set's
page loaded in Chromium with its stylesheets and scripts. Its ``new-engine`` writes the
starter engines as the repository has them."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import ROOT, _serving, serve_arguments
from tournoyons_gui.interfaces.registry import load_registry

SETS = [s for s in load_registry() if not s.package.startswith("tournoyons_nim")]
#: The starter engines' folders and engine files.
#: The starter engines new-engine writes: each language's engine file, over each transport.
STARTERS = (
    ("python", "engine.py"),
    ("javascript", "engine.js"),
    ("php", "engine.php"),
    ("ruby", "engine.rb"),
    ("go", "engine.go"),
)
TRANSPORTS = ("http", "stdio")


@pytest.fixture(scope="module")
def wheel_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server run from the wheel installed in a fresh venv; yields its base URL."""
    folder = tmp_path_factory.mktemp("wheel")
    # Built from a copy of the sources, so that no earlier build/ in the tree leaks in.
    source = folder / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "build",
            "*.egg-info",
            "tests",
            "docs",
            "__pycache__",
            "*.sqlite3*",
            ".mypy_cache",
            ".ruff_cache",
            ".pytest_cache",
        ),
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--wheel-dir",
            str(folder),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    wheel = next(folder.glob("tournoyons_gui-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"tournoyons_gui", wheel.name.split("-py3")[0] + ".dist-info"}, tops
    assert "tournoyons_gui/static/tournoyons.js" in names
    # The Arbitre's own style and scripts, beside its package.
    for name in (
        "arbitre.css",
        "arbitre.js",
        "compare.js",
        "front.js",
        "returned.js",
        "steps.js",
        "tournament.js",
    ):
        assert f"tournoyons_gui/arbitre/static/{name}" in names
    assert "tournoyons_gui/interfaces/tictactoe/templates/tictactoe/page.html" in names
    # The starter engines that new-engine writes, each language's engine per transport,
    # and the READMEs' templates.
    for language, engine in STARTERS:
        for transport in TRANSPORTS:
            assert f"tournoyons_gui/arbitre/starters/{language}/{transport}/{engine}" in names
    for transport in TRANSPORTS:
        assert f"tournoyons_gui/arbitre/starters/README.{transport}.md" in names
    assert "tournoyons_gui/arbitre/web/examples.json" in names
    env_dir = folder / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    target = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    # The dependencies come from the test environment's site-packages, added as a plain
    # path: its .pth files (the editable install's import hook) are not run.
    (Path(target) / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    console = env_dir / "bin" / "tournoyons-gui"
    assert console.read_text().startswith(f"#!{python}"), console.read_text()[:200]
    # new-engine writes the starters from the installed package, as the repository has them.
    for language, engine in STARTERS:
        for transport in TRANSPORTS:
            made_in = folder / f"{language}-{transport}"
            made = subprocess.run(
                [
                    str(console),
                    "new-engine",
                    "--lang",
                    language,
                    "--transport",
                    transport,
                    str(made_in),
                ],
                capture_output=True,
                text=True,
                env={"PATH": "/usr/bin:/bin", "HOME": str(folder)},
            )
            assert made.returncode == 0, made.stdout + made.stderr
            written = (made_in / engine).read_bytes()
            source = ROOT / "arbitre" / "starters" / language / transport / engine
            assert written == source.read_bytes()
            assert (made_in / "README.md").is_file()
    # Each grid Set's openings suite, read from the installed package as play reads it.
    for key in ("tictactoe", "connectfour", "reversi", "pente", "bigtictactoe"):
        assert f"tournoyons_gui/interfaces/{key}/openings.txt" in names
    shipped = subprocess.run(
        [
            str(python),
            "-c",
            "from tournoyons_gui.interfaces.openings import builtin_openings as b;"
            "print(len(b('ConnectFour')), b('Reversi')[0].source)",
        ],
        capture_output=True,
        text=True,
        cwd=folder,
    )
    assert shipped.stdout.split() == ["60", "builtin"], shipped.stdout + shipped.stderr
    process = subprocess.Popen(
        [str(console), *serve_arguments(folder / "arbitre.sqlite3")],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(folder)},
    )
    check = subprocess.run(
        [str(python), "-c", "import tournoyons_gui.server as s; print(s.__file__)"],
        capture_output=True,
        text=True,
        cwd=folder,
    )
    assert check.stdout.startswith(target), check.stdout + check.stderr
    yield from _serving(process)


@pytest.mark.slow
@pytest.mark.parametrize("interface", SETS, ids=[s.key for s in SETS])
def test_the_installed_wheel_serves_every_set(
    wheel_server: str, page: Page, interface: object
) -> None:
    from tournoyons_gui.interfaces.plugin import SetInterface

    assert isinstance(interface, SetInterface)
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    query = "&".join(f"{k}={v}" for k, v in interface.sample.items())
    page.goto(f"{wheel_server}/{interface.key}/?{query}")
    expect(page.locator("html")).to_have_attribute("data-ready", "true")
    assert page.locator("html").get_attribute("data-set") == interface.name
    assert page.locator("[data-error]").count() == 0
    assert failed == []
    sheets = page.evaluate("() => document.styleSheets.length")
    assert sheets >= 1 + len(interface.styles)
