"""The starter engines: a complete Tournoyons engine in Python, JavaScript, PHP, Ruby and Go,
each one file with no dependency beyond its language and its standard library, with a
README; written into a folder of the author's by ``tournoyons-gui new-engine``.

Each language has two, one per transport (``<language>/<transport>/``, package data):

- ``http``: a web server at a URL (``python3 engine.py PORT``, ``node engine.js PORT``,
  ``php -S 127.0.0.1:PORT engine.php``, ``ruby engine.rb PORT``, ``./engine PORT`` once
  ``go build`` made it). It speaks the whole engine protocol (sections 1-3 and 5): the
  callback to the ``Referee`` before the answer, the final call (a ``Status``) never
  called back, tester mode (an empty ``Referee``: the Value is the body), ``Init`` and the
  board Trays, and bad input answered (400, 405, 414, 431, 502) without stopping.
- ``stdio``: a program the Arbitre starts (``--engine cmd:"python3 engine.py"``) that
  reads a request per line on its standard input and writes its Value as a line on its
  standard output (section 8); no port, no server, no HTTP client.

Each plays a random legal move in TicTacToe, ConnectFour and Rochambeau, one function per
Set at the top of the file. The README is written from one template per transport
(``README.http.md``, ``README.stdio.md``), filled with the language's words.
``docs/reference/starter-engines.md`` describes them.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

__all__ = ["LANGUAGES", "TRANSPORTS", "Starter", "StarterRefused", "write_starter"]

#: The transports a starter is written for, the first the default.
TRANSPORTS = ("http", "stdio")

#: The fields each function receives, described once, in the order the README lists them.
_FIELDS = (
    (
        "board",
        "the board: TicTacToe 9 characters row by row from the top, ConnectFour 42 "
        "characters, the bottom row first; `0` empty, `1` the first player's, `2` the "
        'second\'s (Rochambeau: `""`)',
    ),
    ("me", '`"1"` if you play first, `"2"` if second'),
    ("moves", 'the legal moves: cells `"1"`..`"9"`, columns `"A"`..`"G"`, hands `"1"`..`"3"`'),
    ("last", 'the opponent\'s last move (`""` before its first)'),
    (
        "turn",
        "the `Turn`: odd when you play first, even when second (from the Set's start, the "
        "moves played with this one; from a start position it begins at 1 or 2)",
    ),
    ("call", "every parameter the Arbitre sent (`Game`, `Gain1`, `Gain2` ...)"),
)


@dataclass(frozen=True)
class Starter:
    """One language's starters: its folder here, the engine's file name, the command that
    runs it over HTTP (``{port}`` stands for the port) and the one the Arbitre starts for
    standard input and output, what it needs over each, a build step (``""``: none), the words
    its README uses: the field reader (``{}`` the field's name, ``capital``: capitalized),
    a game's id read from it (``call_game``), the word for its functions, its map of Sets
    and of boards, its legal moves' function, how to listen elsewhere, and notes."""

    language: str
    title: str
    engine: str
    run: str
    stdio: str
    needs: str
    needs_http: str
    field: str
    call_game: str
    build: str = ""
    functions: str = "functions"
    players: str = "PLAYERS"
    boards: str = "BOARDS"
    legal: str = "legal_moves"
    elsewhere: str = ""
    notes: str = ""
    capital: bool = False

    def files(self, transport: str = "http") -> dict[str, bytes]:
        """Return the starter's files for ``transport`` by name: the engine and
        ``README.md`` (written from the transport's template)."""
        folder = resources.files(__name__)
        engine = folder.joinpath(self.language, transport, self.engine).read_bytes()
        template = folder.joinpath(f"README.{transport}.md").read_text(encoding="utf-8")
        return {self.engine: engine, "README.md": self.readme(template).encode("utf-8")}

    def command(self, port: int) -> str:
        """Return the command that runs the engine over HTTP on ``port``."""
        return self.run.format(port=port)

    def readme(self, template: str) -> str:
        """Return ``template`` (``string.Template``) filled with this language's words."""

        def key(name: str) -> str:
            return self.field.format(name.capitalize() if self.capital else name)

        rows = "\n".join(f"| `{key(name)}` | {what} |" for name, what in _FIELDS)
        change = (
            f"Your engine is the three {self.functions} at the top of `{self.engine}`, one "
            f"per Set: `tictactoe`,\n`connectfour` and `rochambeau`. Each receives "
            f"`{key('').partition('[')[0].partition('.')[0]}`, the position as the Arbitre "
            f"sent it:\n\n| Field | What it is |\n|---|---|\n{rows}\n\nand returns the move "
            "to play. Start with ConnectFour: play the column that makes four in\na row when "
            "there is one, else the one that stops the opponent's; then check that you beat\n"
            "`builtin:random` in nearly every game."
        )
        following = (
            "- Beat the stronger built-in engines: `builtin:strong` (ConnectFour), "
            "`builtin:perfect`\n  (TicTacToe, which never loses), `builtin:counter` "
            "(Rochambeau, which answers your last\n  hand).\n"
            "- Measure each change against the version before it: `--sprt 0,20` plays "
            "pairs until it\n  can say whether the change is stronger (see the engine "
            "tutorial in the project's docs).\n"
            f"- Remember things across a game: each game has its own `{self.call_game}` id "
            "(each\n  move gets the whole position anyway, so an engine may remember "
            "nothing).\n"
            f"- Another Set (Reversi, Pente ...): add a function and its line in "
            f"`{self.players}`, the Set's\n  board in `{self.boards}` and its moves in "
            f"`{self.legal}`; the engine protocol's table per Set\n  says what its Tray "
            "and moves are."
        )
        run_block = f"    {self.command(8001)}"
        build_block = "\n"
        if self.build:
            run_block = f"    {self.build}\n    {self.command(8001)}"
            build_block = (
                "\nBuild it once, and again after each change (the Arbitre runs the program "
                f"built):\n\n    {self.build}\n"
            )
        words = {
            "title": self.title,
            "engine": self.engine,
            "needs": self.needs,
            "needs_http": self.needs_http,
            "language": self.language,
            "run_block": run_block,
            "build_block": build_block,
            "stdio": self.stdio,
            "elsewhere": self.elsewhere,
            "notes": self.notes,
            "functions": self.functions,
            "change": change,
            "next": following,
        }
        return string.Template(template).substitute(words)


#: The starters by language, as ``--lang`` names them.
LANGUAGES = {
    "python": Starter(
        "python",
        "Python",
        "engine.py",
        "python3 engine.py {port}",
        "python3 engine.py",
        "Python 3.9 or newer",
        "Python 3.9 or newer",
        'game["{}"]',
        'game["call"]["Game"]',
        elsewhere="`python3 engine.py 8001 0.0.0.0` listens on every address, for an\n"
        "Arbitre on another machine.",
    ),
    "javascript": Starter(
        "javascript",
        "JavaScript",
        "engine.js",
        "node engine.js {port}",
        "node engine.js",
        "Node.js 18 or newer",
        "Node.js 18 or newer (its `http` module)",
        "game.{}",
        "game.call.Game",
        legal="legalMoves",
        elsewhere="`node engine.js 8001 0.0.0.0` listens on every address, for an\n"
        "Arbitre on another machine.",
    ),
    "php": Starter(
        "php",
        "PHP",
        "engine.php",
        "php -S 127.0.0.1:{port} engine.php",
        "php engine.php",
        "PHP 7.4 or newer's command line",
        "PHP 7.4 or newer and its built-in web server",
        "$game['{}']",
        "$game['call']['Game']",
        elsewhere="`php -S 0.0.0.0:8001 engine.php` listens on every address, for an\n"
        "Arbitre on another machine.",
        notes=" PHP's server answers one request at a time:\n"
        "`PHP_CLI_SERVER_WORKERS=4 php -S 127.0.0.1:8001 engine.php` serves four games at "
        "once.\n`engine.php` also runs as a page of any PHP host (Apache, nginx with "
        "PHP-FPM): its URL is\nthen the page's.",
    ),
    "ruby": Starter(
        "ruby",
        "Ruby",
        "engine.rb",
        "ruby engine.rb {port}",
        "ruby engine.rb",
        "Ruby 2.7 or newer",
        "Ruby 2.7 or newer and its standard library\n(`socket` and `net/http`)",
        "game[:{}]",
        'game[:call]["Game"]',
        functions="methods",
        elsewhere="`ruby engine.rb 8001 0.0.0.0` listens on every address, for an\n"
        "Arbitre on another machine.",
    ),
    "go": Starter(
        "go",
        "Go",
        "engine.go",
        "./engine {port}",
        "./engine",
        "Go 1.19 or newer",
        "Go 1.19 or newer and its standard library\n(`net/http`)",
        "game.{}",
        'game.Call["Game"]',
        capital=True,
        build="go build -o engine engine.go",
        players="players",
        boards="boards",
        legal="legalMoves",
        elsewhere="`./engine 8001 0.0.0.0` listens on every address, for an Arbitre on\n"
        "another machine.",
    ),
}


class StarterRefused(Exception):
    """The folder cannot take a starter (it exists and is not empty, or is a file)."""


def write_starter(language: str, folder: Path, transport: str = "http") -> list[Path]:
    """Write ``language``'s starter for ``transport`` (``http`` or ``stdio``) into
    ``folder`` (made, with its parents, when missing) and return the files written.
    Nothing is ever overwritten: raises :class:`StarterRefused` when ``folder`` is a file
    or a folder that is not empty, ``KeyError`` for a language or a transport without a
    starter, ``OSError`` when a file cannot be written (the files are created exclusively:
    one that appeared meanwhile is kept)."""
    starter = LANGUAGES[language]
    if transport not in TRANSPORTS:
        raise KeyError(transport)
    if folder.exists() and not folder.is_dir():
        raise StarterRefused(f"{folder} is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()):
        raise StarterRefused(f"{folder} is not empty: nothing was written (choose a new folder)")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, content in starter.files(transport).items():
        path = folder / name
        with path.open("xb") as out:
            out.write(content)
        written.append(path)
    return written
