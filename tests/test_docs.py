"""The docs site (``mkdocs.yml``, ``docs/``) and its tutorials, as a reader meets them.

- The site builds with ``mkdocs build --strict``: a page outside the navigation, a link to
  a page or an anchor that is not there, an absolute link, a missing page is an error
  (``validation:`` in ``mkdocs.yml``), and the command line's page holds every command's
  help, made from the program's parsers at build time (``docs/hooks/cli.py``).
- Every shell command of a tutorial runs, as written, in a folder of its own: the blocks
  marked ``.tested`` in the order of the page, ``.tested-background`` started and waited
  for, ``.tested-file`` written; a shell block marked none of these (nor ``.not-tested``
  with a reason) fails the test. The convention: ``docs/development/testing.md``.
- A tutorial sets its ports once, at its top (``export PORT=8000 PAGE_PORT=8001``), and
  names no port anywhere else; the test runs it on other ports, free ones of its own
  choice, and finds nothing written outside the tutorial's folder ``work/``, which git
  ignores.
- Nothing in the repository points at the folder ``shared`` beside it, which a clone
  does not have.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import random
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import ROOT

DOCS = ROOT / "docs"
#: The pages whose shell commands must all run: every tutorial, the first page, and the
#: how-to guides whose commands are a program's (their clients run against a server).
TUTORIALS = [
    *sorted((DOCS / "tutorials").glob("*.md")),
    DOCS / "getting-started.md",
    DOCS / "how-to" / "follow-a-game.md",
]
SHELL = {"sh", "bash", "shell", "console"}
#: A block's marks: run it, start it in the background, write it to a file, or not run it.
MARKS = {"tested", "tested-background", "tested-file", "not-tested"}
_FENCE = re.compile(r"^(?P<indent> *)```(?P<info>.*)$")
#: A tutorial's ports, set once at its top: ``export PORT=8000 PAGE_PORT=8001``.
_PORTS = re.compile(r"^export (?P<names>(?:(?:[A-Z][A-Z0-9_]*_)?PORT=\d+ *)+)$", re.MULTILINE)
_PORT = re.compile(r"(?P<name>(?:[A-Z][A-Z0-9_]*_)?PORT)=(?P<port>\d+)")
#: The folder a tutorial writes its files into (``.gitignore`` has it).
WORK = "work"
_ATTRIBUTE = re.compile(r'(?P<key>[\w-]+)="(?P<value>[^"]*)"|\.(?P<cls>[\w-]+)|#[\w-]+')


@dataclass
class Block:
    """A fenced code block of a page: its language, classes, attributes and text."""

    line: int
    language: str
    classes: set[str] = field(default_factory=set)
    attributes: dict[str, str] = field(default_factory=dict)
    text: str = ""

    @property
    def where(self) -> str:
        """The block's place, for messages: ``line N``."""
        return f"line {self.line}"


def blocks(page: Path) -> list[Block]:
    """Return the fenced code blocks of ``page``, top-level or indented, in order. The
    info string is a language (```` ```sh ````) or attributes in braces, the first class
    the language (```` ``` { .sh .tested data-wait="URL" } ````: pymdownx.superfences)."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    number = 0
    while number < len(lines):
        match = _FENCE.match(lines[number])
        number += 1
        if match is None:
            continue
        indent, info = match["indent"], match["info"].strip()
        block = Block(number, "")
        if info.startswith("{"):
            for part in _ATTRIBUTE.finditer(info.strip("{} ")):
                if part["cls"]:
                    if not block.language:
                        block.language = part["cls"]
                    else:
                        block.classes.add(part["cls"])
                elif part["key"]:
                    block.attributes[part["key"]] = part["value"]
        else:
            words = info.split()
            block.language = words[0] if words else ""
        body: list[str] = []
        while number < len(lines) and lines[number].rstrip() != f"{indent}```":
            body.append(lines[number].removeprefix(indent))
            number += 1
        number += 1
        block.text = "\n".join(body) + "\n"
        found.append(block)
    return found


def ports(page: Path) -> dict[str, int]:
    """Return the ports ``page`` sets at its top (``export PORT=8000 ...``): the default
    of each variable, by name."""
    found: dict[str, int] = {}
    for block in blocks(page):
        if "tested" in block.classes:
            for line in _PORTS.finditer(block.text):
                found.update((m["name"], int(m["port"])) for m in _PORT.finditer(line[0]))
    return found


def script(page: Path, chosen: Mapping[str, int] | None = None) -> str:
    """Return the bash script that does what ``page``'s marked blocks say, in order: each
    ``.tested`` block run in the one shell (so its variables live on), each
    ``.tested-background`` block started in a process group of its own and waited for
    (``data-wait``: a URL that answers once it is ready, the page's variables expanded),
    stopped at the end; each ``.tested-file`` block written to its ``title``. ``chosen``:
    ports to set instead of the page's own (``{"PORT": 23456}``)."""
    parts = [
        "set -euo pipefail",
        "set -m  # each background block in a process group of its own",
        "_pids=()",
        "_stop() {",
        '  for p in "${_pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done',
        '  for p in "${_pids[@]}"; do wait "$p" 2>/dev/null || true; done',
        "}",
        "trap _stop EXIT",
        "_wait_for() {",
        "  for _ in $(seq 1 1800); do",
        '    if curl -fsS -o /dev/null "$1" 2>/dev/null; then return 0; fi',
        "    sleep 0.1",
        "  done",
        '  echo "never answered: $1" >&2; return 1',
        "}",
        "_wait_log() {",
        "  for _ in $(seq 1 1800); do",
        '    if grep -qF -- "$2" "$1" 2>/dev/null; then return 0; fi',
        "    sleep 0.1",
        "  done",
        '  echo "never said: $2" >&2; return 1',
        "}",
    ]
    for number, block in enumerate(blocks(page)):
        mark = f"echo '### {page.name}, {block.where}' >&2"
        if "tested-file" in block.classes:
            name = block.attributes["title"]
            parts += [
                mark,
                f"mkdir -p {shlex.quote(str(Path(name).parent))}",
                f"cat > {shlex.quote(name)} <<'TUTORIAL_FILE_END'",
                block.text.rstrip("\n"),
                "TUTORIAL_FILE_END",
            ]
        elif "tested-background" in block.classes:
            body = f"background-{number}.sh"
            parts += [
                mark,
                f"cat > {body} <<'TUTORIAL_BLOCK_END'",
                block.text.rstrip("\n"),
                "TUTORIAL_BLOCK_END",
                f"bash {body} > background-{number}.log 2>&1 &",
                '_pids+=("$!"); echo "$!" >> .background-pids',
                _waiting(block.attributes["data-wait"], f"background-{number}.log"),
            ]
        elif "tested" in block.classes:
            text = block.text.rstrip("\n")
            if chosen:
                text = _PORTS.sub(lambda line: _ports_line(line[0], chosen), text)
            parts += [mark, text]
    return "\n".join(parts) + "\n"


def _ports_line(line: str, chosen: Mapping[str, int]) -> str:
    """Return the ports line ``line`` with the ports ``chosen`` for its variables."""
    return _PORT.sub(lambda m: f"{m['name']}={chosen.get(m['name'], m['port'])}", line)


def _waiting(wait: str, log: str) -> str:
    """Return the command that waits for a background block: until the URL ``wait``
    answers, or until its output ``log`` has the text ``wait``."""
    if wait.startswith(("http://", "https://")):
        # In double quotes: the page's variables ($PORT) are expanded, nothing else.
        quoted = re.sub(r'(["\\`])', r"\\\1", wait)
        return f'_wait_for "{quoted}"'
    return f"_wait_log {log} {shlex.quote(wait)}"


@pytest.mark.slow
def test_the_site_builds_strict_with_every_command_documented(tmp_path: Path) -> None:
    site = tmp_path / "site"
    # Where it can, without a network (nothing is fetched at build time).
    done = subprocess.run(
        [
            *_network_of_its_own(),
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--site-dir",
            str(site),
        ],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    page = (site / "reference" / "command-line" / "index.html").read_text()
    from tournoyons_gui.server.cli import parser

    for action in parser()._subparsers._group_actions:  # type: ignore[union-attr]
        for name in action.choices:  # type: ignore[union-attr]
            assert f'id="{name}"' in page and f"tournoyons-gui {name} [-h]" in page, name
    assert "--tokens FILE" in page and "``" not in page


@pytest.mark.slow
def test_a_page_outside_the_navigation_fails_the_build(tmp_path: Path) -> None:
    """The check above can fail: an orphan page or a broken link is an error."""
    copy = tmp_path / "copy"
    shutil.copytree(DOCS, copy / "docs")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    (copy / "docs" / "orphan.md").write_text("# Nobody links here\n\n[gone](nowhere.md)\n")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "s")],
        cwd=copy,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode != 0
    assert "orphan.md" in done.stderr and "nowhere.md" in done.stderr


@pytest.mark.parametrize("page", TUTORIALS, ids=lambda p: p.stem)
def test_every_shell_block_of_a_tutorial_is_marked(page: Path) -> None:
    for block in blocks(page):
        if block.language not in SHELL and "tested-file" not in block.classes:
            continue
        marks = block.classes & MARKS
        assert len(marks) == 1, f"{page.name}, {block.where}: mark it one of {sorted(MARKS)}"
        if marks == {"not-tested"}:
            assert block.attributes.get("data-why"), f"{page.name}, {block.where}: say why"
        if marks == {"tested-background"}:
            assert block.attributes.get("data-wait"), f"{page.name}, {block.where}: data-wait"
        if marks == {"tested-file"}:
            assert block.attributes.get("title"), f"{page.name}, {block.where}: title"


def _network_of_its_own() -> list[str]:
    """Return the command that runs a script in a network namespace of its own with only
    ``lo`` up (so a tutorial's ports meet nobody else's, and nothing outside is reached),
    or ``[]`` where namespaces are not allowed (not root)."""
    unshare = shutil.which("unshare")
    if unshare is None or os.geteuid() != 0:
        return []
    probe = subprocess.run([unshare, "--net", "true"], capture_output=True)
    return [unshare, "--net"] if probe.returncode == 0 else []


#: The tutorials proper (``docs/tutorials/``) and the how-to guides whose commands run
#: servers: their ports and files follow the rules.
STEPS = [*sorted((DOCS / "tutorials").glob("*.md")), DOCS / "how-to" / "follow-a-game.md"]


@pytest.mark.parametrize("page", STEPS, ids=lambda p: p.stem)
def test_a_tutorial_sets_its_ports_once_at_its_top(page: Path) -> None:
    """Its first command sets every port it uses; no other command names a port, so
    that a reader whose port is taken changes one line (and the test can, below)."""
    run = [b for b in blocks(page) if b.classes & {"tested", "tested-background"}]
    defaults = ports(page)
    assert run and defaults, f"{page.name}: export its ports in its first command"
    assert _PORTS.search(run[0].text), f"{page.name}: its first command sets its ports"
    assert "python3 scripts/ports.py" in run[0].text, f"{page.name}: check they are free"
    numbers = re.compile(r"\b(?:{})\b".format("|".join(map(str, defaults.values()))))
    for block in run:
        text = _PORTS.sub("", block.text) + " " + block.attributes.get("data-wait", "")
        assert not re.search(r"(127\.0\.0\.1|localhost):\d", text), (page.name, block.where)
        assert not numbers.search(text), f"{page.name}, {block.where}: a port not from $...PORT"


@pytest.mark.slow
@pytest.mark.parametrize("page", TUTORIALS, ids=lambda p: p.stem)
def test_every_command_of_a_tutorial_runs(page: Path) -> None:
    """Run on ports of the test's choice (not the page's defaults); a tutorial writes only
    into ``work/``, which git ignores."""
    if not any(b.classes & {"tested", "tested-background"} for b in blocks(page)):
        pytest.skip(f"{page.name} has no command to run")
    # Made by tempfile and opened to all: PostgreSQL and nginx run as other users.
    folder = Path(tempfile.mkdtemp(prefix=f"tournoyons-{page.stem}-"))
    folder.chmod(0o755)
    (folder / ".venv").symlink_to(sys.prefix)
    (folder / "scripts").symlink_to(ROOT / "scripts")
    chosen = _free_ports(list(ports(page)))
    assert not set(chosen.values()) & set(ports(page).values())
    (folder / "tutorial.sh").write_text(script(page, chosen))
    assert all(f"{n}={p}" in script(page, chosen) for n, p in chosen.items()), chosen
    namespace = _network_of_its_own()
    command = ["bash", "tutorial.sh"]
    if namespace:
        command = [*namespace, "sh", "-c", "ip link set lo up && exec bash tutorial.sh"]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1", "COLUMNS": "100"}
    with _one_at_a_time(alone=not namespace):
        _run_tutorial(command, folder, env)
    if page in STEPS:
        made = {p.name for p in folder.iterdir()} - {".venv", "scripts", "tutorial.sh"}
        made -= {p.name for p in folder.glob("background-*")} | {".background-pids"}
        assert made <= {WORK}, f"{page.name} wrote outside {WORK}/: {sorted(made)}"
    shutil.rmtree(folder, ignore_errors=True)


def test_git_ignores_the_tutorials_folder() -> None:
    done = subprocess.run(
        ["git", "check-ignore", "-q", "--no-index", f"{WORK}/tutorial.sqlite3"], cwd=ROOT
    )
    assert done.returncode == 0, f".gitignore: add {WORK}/"


#: Where the test's ports are drawn from: below the kernel's ephemeral range (32768 and
#: up on Linux), where no connection's own port lands, and above the tutorials' defaults.
PORT_RANGE = (20000, 32000)
#: Ports kept free after each one chosen: a deployment takes nine after its own.
PORT_SPAN = 10


def _free_ports(names: list[str]) -> dict[str, int]:
    """Return a port for each of ``names``, each free on 127.0.0.1 now with the
    :data:`PORT_SPAN` - 1 after it, no two spans overlapping."""
    chosen: dict[str, int] = {}
    taken: set[int] = set()
    draw = random.Random()
    for name in names:
        for _ in range(200):
            base = draw.randrange(PORT_RANGE[0], PORT_RANGE[1] - PORT_SPAN)
            span = set(range(base, base + PORT_SPAN))
            if not span & taken and all(_bindable(port) for port in span):
                chosen[name] = base
                taken |= span
                break
        else:
            pytest.fail(f"no {PORT_SPAN} free ports in a row for {name}")
    return chosen


def _bindable(port: int) -> bool:
    """Whether a server could listen on 127.0.0.1:``port`` now."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@contextlib.contextmanager
def _one_at_a_time(*, alone: bool) -> Iterator[None]:
    """Hold a lock shared by the test processes while the block runs, when ``alone``: the
    ports are then the machine's, and the first page's (``getting-started.md``: 8000) are
    its defaults; the others' are free when chosen, but two pages started at once on two
    xdist workers may still meet on a port, or on one a server takes meanwhile."""
    if not alone:
        yield
        return
    with open(Path(tempfile.gettempdir()) / "tournoyons-tutorials.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _run_tutorial(command: list[str], folder: Path, env: dict[str, str]) -> None:
    """Run a tutorial's script; fail with its output and its background blocks' logs
    unless it exits 0. Whatever it started is killed in the end."""
    process = subprocess.Popen(
        command,
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=600)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
    finally:
        _kill_leftovers(folder)
    logs = "".join(
        f"\n--- {log.name}\n{log.read_text(errors='replace')[-3000:]}"
        for log in sorted(folder.glob("background-*.log"))
    )
    assert process.returncode == 0, f"{output[-6000:]}{logs}"


def _kill_leftovers(folder: Path) -> None:
    """Kill the process group of any background block still alive."""
    pids = folder / ".background-pids"
    if not pids.exists():
        return
    for line in pids.read_text().split():
        with contextlib.suppress(ProcessLookupError, PermissionError, ValueError):
            os.killpg(int(line), signal.SIGKILL)


def test_nothing_points_outside_the_repository() -> None:
    """The protocols are restated under docs/reference/: no file of the repository cites
    the folder ``shared`` beside it, which a clone of it does not have."""
    done = subprocess.run(
        ["git", "grep", "-n", "-I", "-F", "-e", "../" + "shared"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stdout  # git grep: 1 when nothing matches
