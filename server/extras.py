"""What an optional part of the program lacks, said in one sentence with the command that
installs it: no traceback.

A plain install (``pip install .``, or the ``.venv`` that ``scripts/serve.py`` makes) has
the project's dependencies and none of its extras (``pyproject.toml``'s
``[project.optional-dependencies]``): ``check`` (Playwright, for the interface check) and
``test`` (the test tools, yappi for a benchmark's profile ...). A command that needs one
asks :func:`lacking_module` before it starts and, given a :class:`Lack`, prints
:meth:`Lack.sentence` and exits with status 2.

The command given is the one that fits the Python running: in the repository's own
``.venv`` (an editable install, as ``scripts/serve.py`` makes it) ``.venv/bin/pip install
-e '.[check]'`` from the repository's top, so that the install stays editable; elsewhere
that Python's pip with the extra's requirements as the installed package declares them
(``python -m pip install 'playwright>=1.44'``).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Lack", "install_command", "lacking_module", "project_root", "python_command"]

#: The distribution's name, whose metadata lists each extra's requirements.
DISTRIBUTION = "tournoyons-gui"
_EXTRA = re.compile(r"""extra\s*==\s*["']([\w.-]+)["']""")


@dataclass(frozen=True)
class Lack:
    """Something a command needs and this process does not have: ``what`` (``"Playwright
    (the project's 'check' extra)"``) and ``how`` it is got (a clause ending with the exact
    command: ``"install it with: .venv/bin/pip install -e '.[check]'"``)."""

    what: str
    how: str

    def sentence(self, who: str) -> str:
        """Return the one sentence a command prints: ``"<who> needs <what>, which is missing
        here; <how>"``; ``who`` names the command (``"check-interface"``)."""
        return f"{who} needs {self.what}, which is missing here; {self.how}"


def project_root() -> Path | None:
    """Return the repository's top when this process runs from its own ``.venv`` (where
    ``.venv/bin/pip install -e '.[extra]'`` is the command), else ``None``."""
    root = Path(__file__).resolve().parent.parent
    if not (root / "pyproject.toml").is_file() or not (root / ".venv").exists():
        return None
    try:
        ours = (root / ".venv").resolve() == Path(sys.prefix).resolve()
    except OSError:
        return None
    return root if ours else None


def python_command() -> str:
    """Return how a reader runs this Python: ``.venv/bin/python`` from the repository's
    top when it is the project's own environment, else its full path (shell-quoted)."""
    if project_root() is not None:
        return ".venv/bin/python"
    return shlex.quote(sys.executable)


def requirements(extra: str) -> list[str]:
    """Return the requirements of ``extra`` as the installed package declares them
    (``["playwright>=1.44"]``); ``[]`` when it is not installed as a distribution."""
    try:
        declared = importlib.metadata.requires(DISTRIBUTION) or []
    except importlib.metadata.PackageNotFoundError:
        return []
    found = []
    for line in declared:
        requirement, _, marker = line.partition(";")
        if extra in _EXTRA.findall(marker):
            found.append(requirement.strip())
    return found


def install_command(extra: str, fallback: str) -> str:
    """Return the shell command that installs ``extra`` into the Python running (see the
    module); ``fallback`` is the requirement given when the package's metadata cannot be
    read (``"playwright"``)."""
    root = project_root()
    if root is not None:
        here = Path.cwd().resolve() == root
        where = "" if here else f"cd {shlex.quote(str(root))} && "
        return f"{where}.venv/bin/pip install -e '.[{extra}]'"
    wanted = requirements(extra) or [fallback]
    return f"{python_command()} -m pip install {' '.join(shlex.quote(r) for r in wanted)}"


def lacking_module(module: str, name: str, extra: str) -> Lack | None:
    """Return the :class:`Lack` of ``module`` (``"playwright"``, shown as ``name``,
    ``"Playwright"``), installed by the project's ``extra``, or ``None`` when it imports."""
    try:
        importlib.import_module(module)
    except ImportError:
        return Lack(
            f"{name} (the project's '{extra}' extra)",
            f"install it with: {install_command(extra, module)}",
        )
    return None
