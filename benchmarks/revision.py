"""Running a benchmark on the code of another git revision, to measure before and after
in one run: the revision's packages exported to a temporary folder, laid out as
installed, first on ``PYTHONPATH``."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["PACKAGES", "code_of"]

ROOT = Path(__file__).resolve().parent.parent
#: The folders of the installed layout (``tournoyons_gui.<name>``), as setup.py maps them.
PACKAGES = ("server", "interfaces", "arbitre", "static")


@contextlib.contextmanager
def code_of(rev: str | None) -> Iterator[None]:
    """Run the workers started inside on the code of git revision ``rev`` (``None``: this
    tree's): its packages exported to a temporary folder, laid out as installed, first on
    ``PYTHONPATH`` (found before the editable install's import hook)."""
    if rev is None:
        yield
        return
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev, *PACKAGES],
        check=True,
        capture_output=True,
    ).stdout
    saved = os.environ.get("PYTHONPATH")
    with tempfile.TemporaryDirectory(prefix="before-") as folder:
        layout = Path(folder) / "tournoyons_gui"
        layout.mkdir()
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(layout, filter="data")
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [folder, saved]))
        try:
            yield
        finally:
            if saved is None:
                os.environ.pop("PYTHONPATH", None)
            else:
                os.environ["PYTHONPATH"] = saved
