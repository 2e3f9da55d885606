"""The starter engines, as an author gets them: written by the real ``tournoyons-gui
new-engine``, started in their real runtimes with the commands their README gives.

Over HTTP (``python3 engine.py PORT``, ``node engine.js PORT``, ``php -S 127.0.0.1:PORT
engine.php``, ``ruby engine.rb PORT``, ``./engine PORT`` built by ``go build``): checked by
the Arbitre's engine check and tester, made to play games of each of their Sets against
``builtin:random`` both ways, called back through a Referee of the tests' own, and fed
hostile input. Over standard input and output (``--transport stdio``): made to play each
Set both ways by ``play --engine cmd:...``, and fed lines by hand, hostile ones among them.
Node.js, PHP, Ruby and Go are found or installed by ``scripts/test.py``, never skipped; the
Go starters are built once per test session, their build cache in a temporary folder and
no network."""

from __future__ import annotations

import json
import os
import re
import shlex
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from scripts._bootstrap import go_path, node_path, php_path, ruby_path
from tests.arbitre.conftest import Served
from tests.arbitre.ircd import _free_port as free_port
from tests.conftest import PLUGINS, ROOT
from tests.processes import end
from tournoyons_gui.arbitre.starters import LANGUAGES, TRANSPORTS, write_starter
from tournoyons_gui.server.cli import main

SETS = ("TicTacToe", "ConnectFour", "Rochambeau")
RANDOM = {"kind": "builtin", "engine": "random"}
NEW_ENGINE = ("new-engine", "--lang")
#: Games of each Set against builtin:random, per language, half of them each way.
GAMES = 8
#: The runtimes' environment variables (set by scripts/test.py) and their finders.
RUNTIMES: dict[str, tuple[str, Callable[[], str | None]]] = {
    "node": ("TOURNOYONS_NODE", node_path),
    "php": ("TOURNOYONS_PHP", php_path),
    "ruby": ("TOURNOYONS_RUBY", ruby_path),
    "go": ("TOURNOYONS_GO", go_path),
}


def program(name: str) -> str:
    """Return the runtime ``name`` (``node``, ``php``, ``ruby``, ``go``) to run:
    ``$TOURNOYONS_NODE`` ... as ``scripts/test.py`` sets them, else the one on the PATH; a
    missing runtime fails the test (CI must have it), it never skips."""
    variable, finder = RUNTIMES[name]
    found = os.environ.get(variable) or finder()
    if not found:
        pytest.fail(f"no {name}: run the tests with scripts/test.py, which installs it")
    return found


@dataclass
class Running:
    """A starter engine written by ``new-engine`` into ``folder`` and running at ``url``."""

    language: str
    folder: Path
    made: subprocess.CompletedProcess[str]
    url: str = ""
    process: subprocess.Popen[bytes] | None = None
    output: Path | None = None
    built: Path | None = None
    http: httpx.Client = field(default_factory=lambda: httpx.Client(timeout=20, trust_env=False))

    def start(self) -> None:
        """Run the engine with its README's command (the runtime found here), on a free
        port, its output in a file; wait until it answers."""
        port = free_port()
        words = LANGUAGES[self.language].command(port).split()
        runtime = {
            "python3": [sys.executable, "-S"],  # -S: the standard library and nothing else
            "node": [program("node")],
            "php": [program("php")],
            "ruby": [program("ruby")],
            "./engine": [str(self.built)],  # go build's program, built for the session
        }[words[0]]
        self.output = self.folder.parent / f"{self.language}-output.txt"
        with self.output.open("wb") as out:
            self.process = subprocess.Popen(
                [*runtime, *words[1:]], cwd=self.folder, stdout=out, stderr=subprocess.STDOUT
            )
        self.url = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 20
        while True:
            try:
                if self.http.get(self.url).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert self.process.poll() is None, self.log()
            assert time.monotonic() < deadline, f"the engine did not start: {self.log()}"
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop the engine and close the client."""
        self.http.close()
        if self.process is not None:
            end(self.process)

    def log(self) -> str:
        """Return the end of what the engine printed."""
        if self.output is None or not self.output.exists():
            return ""
        return self.output.read_text(errors="replace")[-3000:]

    def call(self, query: str) -> tuple[int | None, str]:
        """Send ``GET <url>?<query>``; return the status and text (``None``: the
        connection was closed with no answer). A query past httpx's limit on a URL is
        sent on a socket of its own (:meth:`raw_call`)."""
        if len(query) > 60_000:
            return self.raw_call(query), ""
        try:
            answer = self.http.get(f"{self.url}?{query}" if query else self.url)
        except httpx.RemoteProtocolError:
            return None, ""
        return answer.status_code, answer.text

    def raw_call(self, query: str) -> int | None:
        """Send ``GET /?<query>`` on a socket; return the answer's status, ``None`` when
        the connection was closed (or reset) before one."""
        host, port = urllib.parse.urlsplit(self.url).netloc.split(":")
        with socket.create_connection((host, int(port)), timeout=20) as sock:
            request = f"GET /?{query} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
            try:
                sock.sendall(request.encode())
                first = sock.makefile("rb").readline()
            except ConnectionError:
                return None
        parts = first.split()
        return int(parts[1]) if len(parts) >= 2 and parts[1].isdigit() else None

    def alive(self) -> bool:
        """Whether the engine's process still runs."""
        return self.process is not None and self.process.poll() is None


def new_engine(
    language: str, folder: Path, transport: str = "http"
) -> subprocess.CompletedProcess[str]:
    """Run ``tournoyons-gui new-engine --lang LANGUAGE --transport TRANSPORT FOLDER`` as a
    user does."""
    words = [*NEW_ENGINE, language, "--transport", transport, str(folder)]
    return subprocess.run(
        [sys.executable, "-m", "tournoyons_gui.server.cli", *words],
        cwd=ROOT,
        env={"PYTHONPATH": str(PLUGINS), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def go_build(source: Path, program_file: Path, cache: Path) -> None:
    """Build the Go program ``source`` into ``program_file`` as its README says (``go build
    -o engine engine.go``), the build cache and module folder in ``cache``, no network."""
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(cache),
        "GOCACHE": str(cache / "build"),
        "GOPATH": str(cache / "path"),
        "GOTOOLCHAIN": "local",
        "GOPROXY": "off",
    }
    done = subprocess.run(
        [program("go"), "build", "-o", str(program_file), source.name],
        cwd=source.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="session")
def go_programs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The Go starters (each transport's) built once for the test session, from the files
    new-engine writes."""
    folder = tmp_path_factory.mktemp("go-starters")
    built = {}
    for transport in TRANSPORTS:
        source = folder / transport / "engine.go"
        source.parent.mkdir()
        source.write_bytes(LANGUAGES["go"].files(transport)["engine.go"])
        go_build(source, source.parent / "engine", folder / "cache")
        built[transport] = source.parent / "engine"
    return built


@pytest.fixture(scope="module", params=sorted(LANGUAGES))
def engine(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Running]:
    """Each language's starter over HTTP, written by the real command and running."""
    language = str(request.param)
    folder = tmp_path_factory.mktemp(language) / "my-engine"
    running = Running(language, folder, new_engine(language, folder))
    assert running.made.returncode == 0, running.made.stdout + running.made.stderr
    if language == "go":
        running.built = request.getfixturevalue("go_programs")["http"]
    try:
        running.start()
        yield running
    finally:
        running.stop()


@dataclass
class Referee:
    """A Referee of the tests' own at ``url`` (``/referee``): records each callback (its
    parameters in order, and when it came) and answers ``OK`` after ``delay`` seconds."""

    url: str = ""
    delay: float = 0.0
    calls: list[tuple[list[tuple[str, str]], float]] = field(default_factory=list)


@pytest.fixture(scope="module")
def referee() -> Iterator[Referee]:
    """The recording Referee, on a free port of 127.0.0.1."""
    kept = Referee()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            query = urllib.parse.urlsplit(self.path).query
            kept.calls.append((urllib.parse.parse_qsl(query), time.monotonic()))
            time.sleep(kept.delay)
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"OK")

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    kept.url = f"http://127.0.0.1:{server.server_address[1]}/referee"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield kept
    finally:
        server.shutdown()
        server.server_close()


def legal(set_name: str, tray: str, value: str) -> bool:
    """Whether ``value`` is a legal move of ``set_name`` on the engine Tray ``tray``."""
    if set_name == "TicTacToe":
        return value in "123456789" and len(value) == 1 and tray[int(value) - 1] == "0"
    if set_name == "ConnectFour":
        return value in "ABCDEFG" and len(value) == 1 and tray[35 + "ABCDEFG".index(value)] == "0"
    return value in ("1", "2", "3")


def wait_over(served: Served, game_id: str, engine_seat: int) -> dict[str, Any]:
    """Wait until the game is over and its final call to the engine's seat (0: the first)
    was answered; return its record."""
    deadline = time.monotonic() + 120
    while True:
        record = served.record(game_id)
        finals = [
            e["detail"]
            for e in record["exchanges"]
            if e["seat"] == engine_seat and e["detail"].startswith("final call answered")
        ]
        if record["status"] != "playing" and finals:
            return record
        assert time.monotonic() < deadline, f"game {game_id}: {record['status']}, {finals}"
        time.sleep(0.1)


def assert_clean(record: dict[str, Any], engine_seat: int) -> None:
    """The game is over with a result, nobody at fault, nothing logged as an error, and
    the engine answered its final call 200."""
    assert record["status"] == "over", record["reason"]
    assert record["result"] in ("seat1", "seat2", "draw"), record["reason"]
    assert all(not seat["error"] for seat in record["seats"]), record["seats"]
    errors = [e for e in record["exchanges"] if e["kind"] == "error"]
    assert errors == [], errors
    finals = [
        e["detail"]
        for e in record["exchanges"]
        if e["seat"] == engine_seat and e["detail"].startswith("final call answered")
    ]
    assert finals == ["final call answered: 200"], finals


def test_new_engine_writes_the_starter_and_says_what_to_run(engine: Running) -> None:
    starter = LANGUAGES[engine.language]
    assert sorted(p.name for p in engine.folder.iterdir()) == sorted([starter.engine, "README.md"])
    for name, content in starter.files().items():
        assert (engine.folder / name).read_bytes() == content
    out = engine.made.stdout
    assert starter.command(8001) in out and f"cd {engine.folder}" in out
    assert "tournoyons-gui play --set ConnectFour --engine http://127.0.0.1:8001/" in out
    readme = (engine.folder / "README.md").read_text()
    # The README's run command and the tools it points to.
    assert starter.command(8001) in readme
    for tool in ("/engine-tester", "/engine-check", "--engine builtin:random"):
        assert tool in readme
    assert "tournoyons-gui play --set ConnectFour --engine http://127.0.0.1:8001/" in readme


@pytest.mark.slow
def test_the_engine_check_and_games_of_each_set_both_ways(served: Served, engine: Running) -> None:
    games: list[tuple[str, int]] = []
    for set_name in SETS:
        page = served.http.post(
            "/engine-check", data={"url": engine.url, "set": set_name, "games": "2"}
        )
        assert page.status_code == 200, page.text
        checked = [part.split('"')[0] for part in page.text.split('data-check-log="')[1:]]
        assert len(checked) == 2
        games += [(checked[0], 0), (checked[1], 1)]  # first, then second (the check's order)
    seat = {"kind": "engine", "engine": engine.url, "name": engine.language}
    for set_name in SETS:
        for n in range(GAMES):
            seats = [seat, RANDOM] if n % 2 == 0 else [RANDOM, seat]
            games.append((served.create(set_name, seats), n % 2))
    for game_id, engine_seat in games:
        assert_clean(wait_over(served, game_id, engine_seat), engine_seat)
    assert engine.alive(), engine.log()


def test_the_engine_tester_reads_a_legal_move(served: Served, engine: Running) -> None:
    for set_name, tray in (("TicTacToe", "000000000"), ("ConnectFour", "0" * 42)):
        page = served.http.post(
            "/engine-tester",
            data={"url": engine.url, "set": set_name, "turn": "1", "tray": tray},
        )
        assert page.status_code == 200
        assert "legal at Turn 1" in page.text, page.text[-2000:]
    # The form as a newcomer leaves it: the Tray empty sends the start the Arbitre sends.
    for set_name in ("TicTacToe", "ConnectFour", "Rochambeau"):
        page = served.http.post(
            "/engine-tester", data={"url": engine.url, "set": set_name, "turn": "1", "tray": ""}
        )
        assert "legal at Turn 1" in page.text, page.text[-2000:]


@pytest.mark.parametrize(
    ("query", "set_name", "tray"),
    [
        ("Set=TicTacToe&Game=TEST&Turn=3&MoveId=3&Move2=5&Referee=&Tray=100020000", "", ""),
        ("Set=TicTacToe&Game=TEST&Turn=8&MoveId=8&Referee=&Tray=121122210", "", ""),
        ("Set=ConnectFour&Game=TEST&Turn=1&MoveId=1&Referee=&Tray=Init", "ConnectFour", "0" * 42),
        # Columns A to F full: only G is left.
        ("Set=ConnectFour&Turn=37&MoveId=37&Referee=&Tray=" + "1212120" * 6, "", ""),
        ("Set=Rochambeau&Game=TEST&Turn=5&MoveId=5&Gain1=1&Gain2=0&Move2=3&Referee=", "", ""),
        # The original tester's form: no Set (read from the Tray), no Status, no TimeOut.
        ("Game=TEST&Move2=5&Gain1=0&Gain2=0&Turn=3&MoveId=3&Referee=&Tray=100020000", "", ""),
        ("Game=TEST&Turn=1&MoveId=1&Referee=", "Rochambeau", ""),
        # A signed call (manual VII) is played as any other.
        ("Set=TicTacToe&Turn=1&MoveId=1&Referee=&Tray=000000000&Signature=" + "0" * 64, "", ""),
    ],
)
def test_tester_mode_answers_the_value_alone(
    engine: Running, query: str, set_name: str, tray: str
) -> None:
    params = dict(urllib.parse.parse_qsl(query, keep_blank_values=True))
    set_name = set_name or params.get("Set", "TicTacToe")
    tray = tray or params.get("Tray", "")
    for _ in range(5):  # random moves: a few draws
        status, text = engine.call(query)
        assert status == 200 and text == text.strip() and legal(set_name, tray, text), (
            status,
            text,
            engine.log(),
        )


def test_it_calls_the_referee_back_before_answering(engine: Running, referee: Referee) -> None:
    referee.calls.clear()
    referee.delay = 0.3
    try:
        query = urllib.parse.urlencode(
            {
                "Set": "ConnectFour",
                "Game": "K7QX2MZP4D",
                "MoveId": "4",
                "Turn": "4",
                "Status": "0",
                "TimeOut": "20",
                "Move1": "D",
                "Tray": "0001000" + "0" * 35,
                "Referee": referee.url,
            },
            safe=":/",
        )
        status, text = engine.call(query)
        answered = time.monotonic()
    finally:
        referee.delay = 0.0
    assert (status, text) == (200, "OK"), engine.log()
    assert len(referee.calls) == 1
    params, received = referee.calls[0]
    assert [name for name, _ in params] == ["Game", "MoveId", "Value"]
    values = dict(params)
    assert values["Game"] == "K7QX2MZP4D" and values["MoveId"] == "4"
    assert legal("ConnectFour", "0001000" + "0" * 35, values["Value"])
    # The engine answered after the Referee had answered its callback.
    assert answered - received >= 0.3


@pytest.mark.parametrize("status", ["1", "2", "3", "4", "5", "9"])
def test_a_final_call_is_never_called_back(engine: Running, referee: Referee, status: str) -> None:
    referee.calls.clear()
    # Even a final call that (wrongly) carries a MoveId and a Referee gets no callback.
    for query in (
        f"Set=TicTacToe&Game=K7QX2MZP4D&Turn=7&Status={status}&TimeOut=20&Move2=4&Tray=102220111",
        f"Set=TicTacToe&Game=K7QX2MZP4D&MoveId=7&Turn=7&Status={status}&Tray=102220111"
        f"&Referee={referee.url}",
    ):
        assert engine.call(query) == (200, "OK")
    # A move request to the same Referee is called back at once: the final calls' silence
    # is no slow callback.
    engine.call(
        f"Set=TicTacToe&Game=K7QX2MZP4D&MoveId=5&Turn=5&Tray=102020010&Referee={referee.url}"
    )
    assert [dict(params)["MoveId"] for params, _ in referee.calls] == ["5"]


@pytest.mark.slow
def test_hostile_input_is_answered_and_it_plays_on(served: Served, engine: Running) -> None:
    silent = socket.socket()  # a Referee that takes the connection and never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)
    closed = free_port()  # a Referee that refuses the connection
    move = "Set=TicTacToe&Game=K7QX2MZP4D&MoveId=1&Turn=1&Tray=000000000"
    cases: list[tuple[str, set[int | None]]] = [
        ("%%%&&==&=&Set", {400}),
        ("Set&Referee&Tray", {400}),
        ("Referee=&Tray=12", {400}),  # no Set, and no Tray to tell it
        ("Set=Chess&Turn=1&Referee=", {400}),
        ("Set=__proto__&Turn=1&Referee=", {400}),
        ("Set=toString&Turn=1&Referee=", {400}),
        ("Set=TicTacToe&Turn=1&Referee=&Tray=12x000000", {400}),
        ("Set=TicTacToe&Turn=1&Referee=&Tray=000", {400}),
        ("Set=TicTacToe&Turn=10&Referee=&Tray=121212212", {400}),  # a full board
        ("Set=ConnectFour&Turn=1&Referee=&Tray=" + "1" * 42, {400}),
        ("Set=TicTacToe&Turn=%FF%FE&Referee=&Tray=%00%01", {400}),
        ("Set=TicTacToe&Turn=1&Tray=000000000&Referee=http://127.0.0.1:1/", {400}),  # no Game
        (move + "&Referee=file:///etc/passwd", {400}),
        (move + "&Referee=php://stdin", {400}),
        (move + "&Referee=javascript:alert(1)", {400}),
        (move + f"&Referee=http://127.0.0.1:{closed}/referee", {502}),
        ("Set=TicTacToe&Turn=1&Referee=&Tray=" + "0" * 17_000, {414, 431}),
        # 100 KB: past every server's limit on a request line (PHP's closes it unanswered).
        ("Set=TicTacToe&Turn=1&Referee=&Tray=" + "0" * 100_000, {414, 431, None}),
    ]
    for query, expected in cases:
        status, text = engine.call(query)
        if engine.language != "php":
            expected = expected - {None}
        assert status in expected, (query[:100], status, text, engine.log())
        assert engine.alive(), engine.log()
    # The silent Referee: the call is answered once the engine gave up waiting (its
    # TimeOut, 1 s here), not never.
    started = time.monotonic()
    address = silent.getsockname()
    status, text = engine.call(move + f"&TimeOut=1&Referee=http://{address[0]}:{address[1]}/r")
    assert status == 502 and time.monotonic() - started < 8, (status, text, engine.log())
    silent.close()
    # A request that is not a GET.
    assert engine.http.post(engine.url, content=b"Set=TicTacToe").status_code >= 400
    # And it plays on: in tester mode, and a whole game through the Arbitre.
    assert engine.alive(), engine.log()
    status, text = engine.call("Set=TicTacToe&Turn=1&MoveId=1&Referee=&Tray=000000000")
    assert status == 200 and legal("TicTacToe", "000000000", text)
    seat = {"kind": "engine", "engine": engine.url, "name": engine.language}
    game_id = served.create("ConnectFour", [seat, RANDOM])
    assert_clean(wait_over(served, game_id, 0), 0)


@pytest.mark.slow
def test_the_readme_play_command(engine: Running, tmp_path: Path) -> None:
    # The README's command (tournoyons-gui play ...), its records in a file of the test's.
    play = ["play", "--set", "ConnectFour", "--engine", engine.url, "--engine", "builtin:random"]
    records = ["--database", str(tmp_path / "play.sqlite3")]
    done = subprocess.run(
        [sys.executable, "-m", "tournoyons_gui.server.cli", *play, *records],
        cwd=ROOT,
        env={"PYTHONPATH": str(PLUGINS), "PATH": "/usr/bin:/bin", "COLUMNS": "160"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # The game's line (a winner, or a draw), then the match's summary, no seat at fault.
    assert re.search(r"^[A-Z0-9]{12}  (.+ wins|draw)  \d+ moves", done.stdout, re.M), done.stdout
    assert "Lost by fault" in done.stdout and "timeout" not in done.stdout, done.stdout


def test_new_engine_refuses_a_folder_that_is_not_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "engine.py").write_text("my own work\n")
    for language in sorted(LANGUAGES):
        assert main(["new-engine", "--lang", language, str(taken)]) == 2
        assert "is not empty: nothing was written" in capsys.readouterr().err
    assert [p.name for p in taken.iterdir()] == ["engine.py"]
    assert (taken / "engine.py").read_text() == "my own work\n"
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    assert main(["new-engine", "--lang", "php", str(a_file)]) == 2
    assert "is a file" in capsys.readouterr().err and a_file.read_text() == "x"
    # An empty folder, and one to make with its parents, take a starter.
    (tmp_path / "empty").mkdir()
    assert main(["new-engine", "--lang", "javascript", str(tmp_path / "empty")]) == 0
    assert main(["new-engine", "--lang", "python", str(tmp_path / "a" / "b")]) == 0
    assert (tmp_path / "a" / "b" / "engine.py").exists()
    with pytest.raises(SystemExit) as refused:
        main(["new-engine", "--lang", "cobol", str(tmp_path / "c")])
    assert refused.value.code == 2 and not (tmp_path / "c").exists()


def test_a_file_that_appears_meanwhile_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "race"
    made = Path.mkdir

    def mkdir_then_a_readme(self: Path, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        if self == folder:  # someone writes README.md between the check and the files
            (folder / "README.md").write_text("mine\n")

    monkeypatch.setattr(Path, "mkdir", mkdir_then_a_readme)
    with pytest.raises(FileExistsError):
        write_starter("python", folder)
    assert (folder / "README.md").read_text() == "mine\n"


# --- over standard input and output ---------------------------------------------------


@dataclass
class LineEngine:
    """A starter over standard input and output written by ``new-engine --transport
    stdio`` into ``folder``, and the command that runs it (its runtime found here)."""

    language: str
    folder: Path
    made: subprocess.CompletedProcess[str]
    command: list[str]

    def talk(self, *lines: str) -> tuple[list[str], str, int]:
        """Run the engine, write ``lines`` (then close its input); return its lines of
        output, its standard error and its exit status (it must end at the end of its
        input)."""
        done = subprocess.run(
            self.command,
            cwd=self.folder,
            input="".join(f"{line}\n" for line in lines),
            capture_output=True,
            text=True,
            timeout=30,
        )
        return done.stdout.split("\n")[:-1], done.stderr, done.returncode


@pytest.fixture(scope="module", params=sorted(LANGUAGES))
def line_engine(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> LineEngine:
    """Each language's starter over standard input and output, written by the real
    command; its run command from its README's, the runtime found here."""
    language = str(request.param)
    folder = tmp_path_factory.mktemp(f"{language}-stdio") / "my-engine"
    made = new_engine(language, folder, "stdio")
    assert made.returncode == 0, made.stdout + made.stderr
    words = LANGUAGES[language].stdio.split()
    runtime = {
        "python3": [sys.executable, "-S"],
        "node": [program("node")],
        "php": [program("php")],
        "ruby": [program("ruby")],
        "./engine": [],
    }[words[0]]
    if language == "go":
        runtime = [str(request.getfixturevalue("go_programs")["stdio"])]
    # The engine's file by its whole path: play starts it in its own folder, not this one.
    return LineEngine(language, folder, made, [*runtime, *(str(folder / w) for w in words[1:])])


def test_new_engine_over_stdio_says_what_to_run(line_engine: LineEngine) -> None:
    starter = LANGUAGES[line_engine.language]
    written = {p.name: p.read_bytes() for p in line_engine.folder.iterdir()}
    assert written == starter.files("stdio")
    out = line_engine.made.stdout
    assert "over standard input and output" in out and "cmd:" + starter.stdio in out, out
    readme = written["README.md"].decode()
    assert f'--engine me=cmd:"{starter.stdio}" --engine builtin:random' in readme
    assert f"| {starter.stdio}" in readme  # the line sent by hand


def test_a_stdio_starter_plays_each_set_both_ways(
    line_engine: LineEngine, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = " ".join(shlex.quote(word) for word in line_engine.command)
    for set_name in SETS:
        report = tmp_path / f"{set_name}.json"
        status = main(
            [
                "play",
                *("--set", set_name, "--engine", f"{line_engine.language}=cmd:{command}"),
                *("--engine", "builtin:random", "--games", "4", "--json", str(report)),
                *("--database", str(tmp_path / "games.sqlite3")),
            ]
        )
        out = capsys.readouterr().out
        assert status == 0, out
        document = json.loads(report.read_text())
        # Four games, two first and two second, every one over with a result: no fault
        # (an illegal move, a missing line would be one).
        assert document["games"] == 4 and document["entrants"][0]["faults"] == dict.fromkeys(
            ("timeout", "illegal", "unreachable", "malformed"), 0
        ), out
        assert [g["first"] for g in document["games_list"]] == [0, 1, 0, 1]
        assert document["errors"] == 0 and document["entrants"][0]["think_ms"] is not None


def test_a_stdio_starter_answers_each_line_and_plays_on(line_engine: LineEngine) -> None:
    lines, stderr, status = line_engine.talk(
        "Set=TicTacToe&Game=K7QX2MZP4D&MoveId=3&Turn=3&Status=0&TimeOut=20&Move2=5"
        "&Tray=100020000&Referee=",
        "Set=ConnectFour&Game=TEST&Turn=1&MoveId=1&Referee=&Tray=Init",
        # Columns A to F full: only G is left.
        "Set=ConnectFour&Turn=37&MoveId=37&Referee=&Tray=" + "1212120" * 6,
        "Set=Rochambeau&Game=TEST&Turn=5&MoveId=5&Gain1=1&Gain2=0&Move2=3&Referee=",
        # The original tester's form: no Set, read from the Tray.
        "Game=TEST&Move2=5&Gain1=0&Gain2=0&Turn=3&MoveId=3&Referee=&Tray=100020000",
        # A final call: OK, and nothing played.
        "Set=TicTacToe&Game=K7QX2MZP4D&Turn=7&Status=1&TimeOut=20&Move2=4&Tray=102220111",
        # Garbage: an empty line each (no move), and the engine goes on.
        "%%%&&==&=&Set",
        "Set=Chess&Turn=1&Referee=",
        "Set=__proto__&Turn=1&Referee=",
        "Set=TicTacToe&Turn=1&Referee=&Tray=12x000000",
        "Set=TicTacToe&Turn=10&Referee=&Tray=121212212",
        "Set=TicTacToe&Turn=%FF%FE&Referee=&Tray=%00%01",
        "Set=TicTacToe&Turn=1&Referee=&Tray=" + "0" * 20_000,
        "",
        "Set=TicTacToe&Game=TEST&Turn=1&MoveId=1&Status=0&Referee=&Tray=000000000",
    )
    assert status == 0, stderr  # it ended at the end of its input
    assert len(lines) == 15, (lines, stderr)
    assert legal("TicTacToe", "100020000", lines[0])
    assert legal("ConnectFour", "0" * 42, lines[1]) and lines[2] == "G"
    assert legal("Rochambeau", "", lines[3]) and legal("TicTacToe", "100020000", lines[4])
    assert lines[5] == "OK"
    assert lines[6:14] == [""] * 8, lines
    assert legal("TicTacToe", "000000000", lines[14])
    # What it did, and why it could not answer, on its standard error.
    assert "over: won (first player)" in stderr and "unknown Set" in stderr, stderr
