"""schemathesis against a live ``tournoyons-gui serve``: every operation of the OpenAPI
document (``/api/openapi.json``) with generated requests, valid and not (malformed JSON,
wrong types, huge numbers, lone surrogates, unknown fields, every path parameter
mangled), through its examples, coverage, fuzzing and stateful phases, with every check:
no 5xx, every answer's status, content type, headers and body (an event stream's every
event too) as the document says, a request that breaks the schema refused with a 4xx, a
request the schema allows accepted (but where a Set's rules or the records refuse it:
``schemathesis.toml`` names those operations and why), no operation refusing every request
its schema allows (schemathesis's "schema validation mismatch"), the Allow header of a
405, and a refused ``POST`` storing nothing (:mod:`tests.robustness.openapi_hooks`).

The server runs in a network namespace of its own with only ``lo`` (``unshare --net``:
the generated engine, interface, referee and callback URLs reach nothing but loopback);
the ``st`` command joins it (``nsenter --net``). Where namespaces cannot be made (not
root), the server's every outbound host is limited to ``127.0.0.1`` instead
(``--engine-hosts``).

``TOURNOYONS_OPENAPI_EXAMPLES`` examples per operation and phase (default 10, about a
minute; 100 with ``--long``), from the seed ``TOURNOYONS_OPENAPI_SEED`` (default 35).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.conftest import PLUGINS, ROOT, serve_arguments
from tests.processes import end
from tests.robustness import openapi_hooks

EXAMPLES = int(os.environ.get("TOURNOYONS_OPENAPI_EXAMPLES", "10"))
SEED = os.environ.get("TOURNOYONS_OPENAPI_SEED", "35")
ST = Path(sys.executable).parent / "st"
CONFIG = Path(__file__).with_name("schemathesis.toml")


def namespaces_work() -> bool:
    """Whether this process may run a program in a network namespace of its own."""
    if not (shutil.which("unshare") and shutil.which("nsenter") and shutil.which("ip")):
        return False
    done = subprocess.run(["unshare", "--net", "true"], capture_output=True, check=False)
    return done.returncode == 0


ISOLATED = namespaces_work()


class Isolated:
    """The server: its process, base URL and records; ``inside(command)`` runs a command
    where the server is reachable (in its namespace when it has one)."""

    def __init__(self, process: subprocess.Popen[str], url: str, database: Path) -> None:
        self.process = process
        self.url = url
        self.database = database

    def inside(self, command: list[str]) -> list[str]:
        """Return ``command`` run in the server's network namespace (as is without one)."""
        if not ISOLATED:
            return command
        return ["nsenter", f"--net=/proc/{self.process.pid}/ns/net", *command]


def _wait(process: subprocess.Popen[str]) -> str:
    """Return the base URL ``serve`` prints, once it has printed it."""
    assert process.stdout is not None
    deadline = time.monotonic() + 30
    seen = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line and process.poll() is not None:
            break
        seen.append(line)
        if "serving on " in line:
            return line.split("serving on ", 1)[1].strip().rstrip("/")
    pytest.fail("the server did not start:\n" + "".join(seen))


@pytest.fixture(scope="module")
def isolated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Isolated]:
    """``tournoyons-gui serve --sink`` in a network namespace with only ``lo`` up."""
    database = tmp_path_factory.mktemp("openapi") / "arbitre.sqlite3"
    serve = [sys.executable, "-m", "tournoyons_gui.server.cli", *serve_arguments(database)]
    serve.append("--sink")
    if ISOLATED:
        command = ["unshare", "--net", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *serve]
    else:
        command = [*serve, "--engine-hosts", "127.0.0.1"]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PLUGINS), str(ROOT)])),
    }
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        yield Isolated(process, _wait(process), database)
    finally:
        end(process)


def test_the_server_reaches_nothing_but_loopback(isolated: Isolated) -> None:
    if not ISOLATED:
        pytest.skip("no network namespace here: every outbound host is 127.0.0.1 instead")
    links = subprocess.run(
        isolated.inside(["ip", "-o", "link"]), capture_output=True, text=True, check=True
    ).stdout
    assert [line.split(":")[1].strip() for line in links.splitlines()] == ["lo"]
    # And its port is not reachable from outside the namespace.
    outside = subprocess.run(
        [sys.executable, "-c", f"import urllib.request; urllib.request.urlopen('{isolated.url}')"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert outside.returncode != 0 and "refused" in outside.stderr.lower()


@pytest.mark.slow
def test_schemathesis_finds_nothing(isolated: Isolated, tmp_path: Path) -> None:
    command = [
        str(ST),
        # Fails on a schema looser than the server (validation_mismatch); the few
        # operations whose refusals come from the records or a Set's rules say so there.
        "--config-file",
        str(CONFIG),
        "run",
        f"{isolated.url}/api/openapi.json",
        "--checks",
        "all",
        "--max-examples",
        str(EXAMPLES),
        "--seed",
        SEED,
        "--workers",
        "1",
        "--request-timeout",
        "20",
        "--wait-for-schema",
        "30",
        "--no-color",
    ]
    env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": "tests.robustness.openapi_hooks",
        "TOURNOYONS_OPENAPI_DATABASE": str(isolated.database),
        "TOURNOYONS_OPENAPI_TALLY": str(tmp_path / "refusals"),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(
        isolated.inside(command),
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    report = done.stdout + done.stderr
    assert done.returncode == 0, report[-12000:]
    assert "Schema validation mismatch" not in report, report[-6000:]
    # Every phase ran, and the refusals were checked for what they stored.
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅  {phase}" in report, report[-6000:]
    refusals = (tmp_path / "refusals").read_text().split()
    assert len(refusals) > 100 and {"400", "404"} <= set(refusals), report[-3000:]
    assert isolated.process.poll() is None, "the server died"


def test_the_check_of_a_refusal_sees_a_row_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hooks' check fails when a refused request stored a row (it can fail)."""
    database = tmp_path / "records.sqlite3"
    with sqlite3.connect(database) as made:
        for table in ("engines", "interfaces", "added_sets", "tournaments"):
            made.execute(f"CREATE TABLE {table} (id TEXT)")
        made.execute("CREATE TABLE games (id TEXT, tournament_id TEXT)")
    made.close()
    monkeypatch.setenv("TOURNOYONS_OPENAPI_DATABASE", str(database))
    monkeypatch.delenv("TOURNOYONS_OPENAPI_TALLY", raising=False)
    case = SimpleNamespace(method="post")
    answer = SimpleNamespace(status_code=400)
    openapi_hooks.before_call(None, case, {})
    assert openapi_hooks.refused_stores_nothing(None, answer, case) is True
    openapi_hooks.before_call(None, case, {})
    with sqlite3.connect(database) as changed:
        changed.execute("INSERT INTO games VALUES ('G', NULL)")
    changed.close()
    with pytest.raises(AssertionError, match="stored something"):
        openapi_hooks.refused_stores_nothing(None, answer, case)
