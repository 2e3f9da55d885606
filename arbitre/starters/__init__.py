"""The starter engines (issue 33): a complete Tournoyons engine in Python, JavaScript and
PHP, each one file with no dependency beyond its language, with a README; written into a
folder of the author's by ``tournoyons-gui new-engine``.

Each language's folder here holds the files exactly as the author gets them, each
runnable as it stands (``python3 engine.py PORT``, ``node engine.js PORT``,
``php -S 127.0.0.1:PORT engine.php``; the engine's URL is then
``http://127.0.0.1:PORT/``). They speak the whole engine protocol (sections 1-3 and 5): the
callback to the ``Referee`` before the answer, the final call (a ``Status``) never called
back, tester mode (an empty ``Referee``: the Value is the body), ``Init`` and the board
Trays, and bad input answered (400, 414, 502) without stopping. Each plays a random legal
move in TicTacToe, ConnectFour and Rochambeau, one function per Set at the top of the file.
``docs/reference/starter-engines.md`` describes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

__all__ = ["LANGUAGES", "Starter", "StarterRefused", "write_starter"]


@dataclass(frozen=True)
class Starter:
    """One language's starter: its folder here, the engine's file name, and the command
    that runs it (``{port}`` stands for the port)."""

    language: str
    engine: str
    run: str

    def files(self) -> dict[str, bytes]:
        """Return the starter's files by name: the engine and ``README.md``."""
        folder = resources.files(__name__).joinpath(self.language)
        return {name: folder.joinpath(name).read_bytes() for name in (self.engine, "README.md")}

    def command(self, port: int) -> str:
        """Return the command that runs the engine on ``port``."""
        return self.run.format(port=port)


#: The starters by language, as ``--lang`` names them.
LANGUAGES = {
    "python": Starter("python", "engine.py", "python3 engine.py {port}"),
    "javascript": Starter("javascript", "engine.js", "node engine.js {port}"),
    "php": Starter("php", "engine.php", "php -S 127.0.0.1:{port} engine.php"),
}


class StarterRefused(Exception):
    """The folder cannot take a starter (it exists and is not empty, or is a file)."""


def write_starter(language: str, folder: Path) -> list[Path]:
    """Write ``language``'s starter into ``folder`` (made, with its parents, when missing)
    and return the files written. Nothing is ever overwritten: raises
    :class:`StarterRefused` when ``folder`` is a file or a folder that is not empty,
    ``KeyError`` for a language without a starter, ``OSError`` when a file cannot be
    written (the files are created exclusively: one that appeared meanwhile is kept)."""
    starter = LANGUAGES[language]
    if folder.exists() and not folder.is_dir():
        raise StarterRefused(f"{folder} is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()):
        raise StarterRefused(f"{folder} is not empty: nothing was written (choose a new folder)")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, content in starter.files().items():
        path = folder / name
        with path.open("xb") as out:
            out.write(content)
        written.append(path)
    return written
