"""Make the project's virtual environment and find a Chromium: shared by serve.py and test.py.

Nothing but Python 3.11+ is assumed. The environment is ``.venv/`` beside this folder,
created on first use and refreshed when ``pyproject.toml`` changes.

This is also the one place that says which Chromium runs and how: :func:`system_chromium`
(``$TOURNOYONS_CHROMIUM``, else a Chromium on the PATH, else ``None``: Playwright's own build)
and :data:`CHROMIUM_FLAGS`, imported by ``tests/conftest.py``, ``benchmarks/run.py`` and
``scripts/screenshots.py`` (``from scripts._bootstrap import ...`` with the repository's root
on ``sys.path``; the scripts of this folder import ``_bootstrap``). :func:`find_chromium`,
for ``scripts/test.py``, goes further (Playwright's own build first, then installing one)
and hands its choice to the tests in ``$TOURNOYONS_CHROMIUM``.

The other programs the tests and ``scripts/deploy.py`` run are found the same way, each
installed with Debian's packages when missing and we are root: PostgreSQL's server
(:func:`find_postgres`), ngIRCd (:func:`find_ngircd`), nginx (:func:`find_nginx`), and the
runtimes of the starter engines, Node.js (:func:`find_node`), PHP (:func:`find_php`), Ruby
(:func:`find_ruby`) and Go (:func:`find_go`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import venv
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed"

# Where a system Chromium usually lives, best first: Chromium's headless shell (Debian's
# chromium-headless-shell: the same Blink without the browser's window machinery, which
# ran the browser tests in half the CPU time of the full browser headless), then the full
# browsers (Debian's chromium, Ubuntu's, Google's builds).
SYSTEM_CHROMIUMS = (
    "chromium-headless-shell",
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "chrome",
)

# How every Chromium of ours is launched (tests, benchmarks, screenshots): headless on a
# machine without a sandbox or a GPU, and quiet (no update, no first-run, no background
# traffic).
CHROMIUM_FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
)


def say(message: str) -> None:
    """Print a progress line to stderr."""
    print(f"[tournoyons] {message}", file=sys.stderr, flush=True)


def ensure_venv(extras: str = "") -> Path:
    """Create ``.venv`` and install the project (editable) with ``extras``; return its python.

    Installs again only when ``pyproject.toml`` changed or an extra is not yet installed,
    so serving after testing (or the reverse) starts at once.
    """
    if sys.version_info < (3, 11):  # noqa: UP036 - the scripts run on any python3
        sys.exit("Python 3.11 or newer is needed.")
    project = hashlib.sha256(
        (ROOT / "pyproject.toml").read_bytes() + (ROOT / "setup.py").read_bytes()
    ).hexdigest()
    wanted = {e for e in extras.split(",") if e}
    try:
        stamp = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        stamp = {}
    have = set(stamp.get("extras", [])) if stamp.get("project") == project else None
    if PYTHON.exists() and have is not None and wanted <= have:
        return PYTHON
    if not PYTHON.exists():
        say(f"creating {VENV}")
        venv.EnvBuilder(with_pip=True, clear=False).create(VENV)
    wanted |= have or set()
    target = f".[{','.join(sorted(wanted))}]" if wanted else "."
    say(f"installing {target} into {VENV}")
    subprocess.run(
        [
            str(PYTHON),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--editable",
            target,
        ],
        cwd=ROOT,
        check=True,
    )
    STAMP.write_text(json.dumps({"project": project, "extras": sorted(wanted)}))
    return PYTHON


def _apt_install(package: str) -> bool:
    """As root on Debian or Ubuntu, ``apt-get install`` ``package``; return whether it was
    tried (it may still have failed)."""
    if not (shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0):
        return False
    say(f"installing Debian's {package} with apt-get")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=False, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", package], check=False, env=env)
    return True


def _playwright_chromium(python: Path) -> str | None:
    """Return the path of Playwright's own Chromium if it is installed and runs."""
    code = (
        "from playwright.sync_api import sync_playwright\n"
        "import os\n"
        "with sync_playwright() as p:\n"
        "    path = p.chromium.executable_path\n"
        "    print(path if os.path.exists(path) else '')\n"
    )
    try:
        found = subprocess.run(
            [str(python), "-c", code], capture_output=True, text=True, timeout=60
        ).stdout.strip()
    except (subprocess.SubprocessError, OSError):
        return None
    return found or None


def _chromium_on_path() -> str | None:
    """Return the first of :data:`SYSTEM_CHROMIUMS` found on the PATH."""
    for name in SYSTEM_CHROMIUMS:
        path = shutil.which(name)
        if path:
            return path
    return None


def system_chromium() -> str | None:
    """Return the Chromium to launch without installing anything: ``$TOURNOYONS_CHROMIUM``,
    else one on the PATH; ``None`` leaves the choice to Playwright (its own build)."""
    return os.environ.get("TOURNOYONS_CHROMIUM") or _chromium_on_path()


def find_chromium(python: Path) -> str:
    """Return a Chromium executable, installing one if need be; exit with advice if none.

    Order: ``$TOURNOYONS_CHROMIUM``; a headless shell on the PATH, else installed as root
    on Debian or Ubuntu (``apt-get install chromium-headless-shell``); Playwright's own
    build if already downloaded; another system Chromium on the PATH; ``playwright install
    chromium``; ``apt-get install chromium``.
    """
    explicit = os.environ.get("TOURNOYONS_CHROMIUM")
    if explicit:
        return explicit
    shell = shutil.which(SYSTEM_CHROMIUMS[0])
    if shell is None and _apt_install(SYSTEM_CHROMIUMS[0]):
        shell = shutil.which(SYSTEM_CHROMIUMS[0])
    found = shell or _playwright_chromium(python) or _chromium_on_path()
    if found:
        return found
    say("no Chromium found: trying 'playwright install chromium'")
    try:
        subprocess.run(
            [str(python), "-m", "playwright", "install", "chromium"], check=True, timeout=600
        )
        found = _playwright_chromium(python)
        if found:
            return found
    except (subprocess.SubprocessError, OSError) as failure:
        say(f"playwright could not download its browser ({failure})")
    if _apt_install("chromium"):
        found = _chromium_on_path()
        if found:
            return found
    sys.exit(
        "No Chromium could be found or installed. Install one (Debian/Ubuntu: "
        "'sudo apt-get install chromium') or set TOURNOYONS_CHROMIUM to its path."
    )


def postgres_bin() -> str | None:
    """Return a folder holding PostgreSQL's ``initdb`` and ``pg_ctl``, or ``None``."""
    candidates = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            candidates.append(
                subprocess.run(
                    [pg_config, "--bindir"], capture_output=True, text=True, timeout=10
                ).stdout.strip()
            )
    candidates += sorted(
        (str(p) for p in Path("/usr/lib/postgresql").glob("*/bin")),
        key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0,
        reverse=True,
    )
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(str(Path(initdb).parent))
    for folder in candidates:
        if folder and (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return folder
    return None


def find_postgres() -> str:
    """Return the folder of PostgreSQL's server programs, installing them if need be.

    The tests run a throwaway PostgreSQL server of their own from it. Order:
    ``$TOURNOYONS_PG_BIN``; ``pg_config --bindir``; Debian's ``/usr/lib/postgresql/*/bin``;
    ``initdb`` on the PATH; as root on Debian or Ubuntu, ``apt-get install postgresql``.
    """
    explicit = os.environ.get("TOURNOYONS_PG_BIN")
    if explicit:
        return explicit
    found = postgres_bin()
    if found:
        return found
    if _apt_install("postgresql"):
        found = postgres_bin()
        if found:
            return found
    sys.exit(
        "No PostgreSQL server programs could be found or installed. Install them (Debian/"
        "Ubuntu: 'sudo apt-get install postgresql') or set TOURNOYONS_PG_BIN to their folder."
    )


def sbin_program(name: str) -> str | None:
    """Return the executable ``name`` on the PATH, else Debian's ``/usr/sbin/<name>`` (a
    daemon's place, often off a user's PATH), or ``None``."""
    found = shutil.which(name)
    if found:
        return found
    debian = Path("/usr/sbin") / name
    return str(debian) if debian.exists() else None


def ngircd_path() -> str | None:
    """Return an ngIRCd executable (``ngircd`` on the PATH, Debian's ``/usr/sbin/ngircd``),
    or ``None``."""
    return sbin_program("ngircd")


def find_ngircd() -> str:
    """Return the ngIRCd the tests run their own IRC servers with, installing it if need be.

    Order: ``$TOURNOYONS_NGIRCD``; ``ngircd`` on the PATH or ``/usr/sbin/ngircd``; as root on
    Debian or Ubuntu, ``apt-get install ngircd``.
    """
    explicit = os.environ.get("TOURNOYONS_NGIRCD")
    if explicit:
        return explicit
    found = ngircd_path()
    if found:
        return found
    if _apt_install("ngircd"):
        found = ngircd_path()
        if found:
            return found
    sys.exit(
        "No ngIRCd could be found or installed. Install it (Debian/Ubuntu: 'sudo apt-get "
        "install ngircd') or set TOURNOYONS_NGIRCD to its path."
    )


def nginx_path() -> str | None:
    """Return an nginx executable (``nginx`` on the PATH, Debian's ``/usr/sbin/nginx``), or
    ``None``."""
    return sbin_program("nginx")


def find_wrk() -> str:
    """Return wrk, the HTTP load tool of the pages benchmark (``benchmarks/run.py``, which
    the test command runs at its smallest size), installing it if need be.

    Order: ``$TOURNOYONS_WRK``; ``wrk`` on the PATH; as root on Debian or Ubuntu,
    ``apt-get install wrk``.
    """
    explicit = os.environ.get("TOURNOYONS_WRK")
    if explicit:
        return explicit
    found = shutil.which("wrk")
    if found:
        return found
    if _apt_install("wrk"):
        found = shutil.which("wrk")
        if found:
            return found
    sys.exit(
        "No wrk could be found or installed. Install it (Debian/Ubuntu: 'sudo apt-get "
        "install wrk') or set TOURNOYONS_WRK to its path."
    )


def find_nginx() -> str:
    """Return the nginx that ``scripts/deploy.py`` puts in front of the web processes (and
    its test runs), installing it if need be.

    Order: ``$TOURNOYONS_NGINX``; ``nginx`` on the PATH or ``/usr/sbin/nginx``; as root on
    Debian or Ubuntu, ``apt-get install nginx-light`` (the smallest build: the proxy is
    all we use), then ``nginx`` where there is no light build.
    """
    explicit = os.environ.get("TOURNOYONS_NGINX")
    if explicit:
        return explicit
    found = nginx_path()
    if found:
        return found
    for package in ("nginx-light", "nginx"):
        if not _apt_install(package):
            break
        found = nginx_path()
        if found:
            return found
    sys.exit(
        "No nginx could be found or installed. Install it (Debian/Ubuntu: 'sudo apt-get "
        "install nginx-light') or set TOURNOYONS_NGINX to its path."
    )


def node_path() -> str | None:
    """Return a Node.js executable (``node`` on the PATH, or Debian's older name
    ``nodejs``), or ``None``."""
    return shutil.which("node") or shutil.which("nodejs")


def php_path() -> str | None:
    """Return a PHP command-line executable (``php`` on the PATH), or ``None``."""
    return shutil.which("php")


def _find_runtime(variable: str, finder: Callable[[], str | None], package: str) -> str:
    """Return ``$variable``, else what ``finder`` finds, else what it finds once
    ``package`` is installed with apt-get (as root on Debian or Ubuntu); exit with advice
    when there is none."""
    explicit = os.environ.get(variable)
    if explicit:
        return explicit
    found = finder()
    if found:
        return found
    if _apt_install(package):
        found = finder()
        if found:
            return found
    sys.exit(
        f"No {package} could be found or installed. Install it (Debian/Ubuntu: 'sudo apt-get "
        f"install {package}') or set {variable} to its program's path."
    )


def find_node() -> str:
    """Return the Node.js that runs the JavaScript starter engine in the tests, installing
    it if need be. Order: ``$TOURNOYONS_NODE``; ``node`` or ``nodejs`` on the PATH; as root
    on Debian or Ubuntu, ``apt-get install nodejs``."""
    return _find_runtime("TOURNOYONS_NODE", node_path, "nodejs")


def find_php() -> str:
    """Return the PHP that runs the PHP starter engine (its built-in web server) in the
    tests, installing it if need be. Order: ``$TOURNOYONS_PHP``; ``php`` on the PATH; as
    root on Debian or Ubuntu, ``apt-get install php-cli``."""
    return _find_runtime("TOURNOYONS_PHP", php_path, "php-cli")


def ruby_path() -> str | None:
    """Return a Ruby interpreter (``ruby`` on the PATH), or ``None``."""
    return shutil.which("ruby")


def go_path() -> str | None:
    """Return a Go toolchain's ``go`` command (on the PATH, or Debian's
    ``/usr/lib/go/bin/go``), or ``None``."""
    found = shutil.which("go")
    if found:
        return found
    debian = Path("/usr/lib/go/bin/go")
    return str(debian) if debian.exists() else None


def find_ruby() -> str:
    """Return the Ruby that runs the Ruby starter engine in the tests, installing it if
    need be. Order: ``$TOURNOYONS_RUBY``; ``ruby`` on the PATH; as root on Debian or
    Ubuntu, ``apt-get install ruby``."""
    return _find_runtime("TOURNOYONS_RUBY", ruby_path, "ruby")


def find_go() -> str:
    """Return the Go toolchain that builds the Go starter engine in the tests, installing
    it if need be. Order: ``$TOURNOYONS_GO``; ``go`` on the PATH or Debian's
    ``/usr/lib/go/bin/go``; as root on Debian or Ubuntu, ``apt-get install golang-go``."""
    return _find_runtime("TOURNOYONS_GO", go_path, "golang-go")
