"""Static assets, read once at start and served from memory under content-hashed URLs.

A URL is ``/static/<digest>/<namespace>/<file>``: ``shared`` for the top-level ``static/``
folder, a Set's key for its package's ``static/``. The digest changes with the content, so
an asset is cached for a year as immutable and the Arbitre's reload after each move fetches
the page alone.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path

__all__ = ["Asset", "AssetStore"]

_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".png": "image/png",
}
_COMPRESSIBLE = (".js", ".css", ".svg", ".json", ".html")


@dataclass(frozen=True)
class Asset:
    """One file: its bytes, gzip form (or ``None``), media type and 12-hex-digit digest."""

    body: bytes
    gzipped: bytes | None
    media_type: str
    digest: str


class AssetStore:
    """Every asset served, keyed by ``(namespace, relative path)``."""

    def __init__(self) -> None:
        self._assets: dict[tuple[str, str], Asset] = {}

    def add_folder(self, namespace: str, folder: Traversable | Path) -> None:
        """Read every file below ``folder`` into ``namespace``; a missing folder adds nothing."""
        if not folder.is_dir():
            return
        stack: list[tuple[str, Traversable | Path]] = [("", folder)]
        while stack:
            prefix, current = stack.pop()
            for entry in current.iterdir():
                name = prefix + entry.name
                if entry.is_dir():
                    stack.append((name + "/", entry))
                elif not entry.name.startswith("."):
                    self._add(namespace, name, entry.read_bytes())

    def _add(self, namespace: str, name: str, body: bytes) -> None:
        suffix = Path(name).suffix.lower()
        guessed = mimetypes.guess_type(name)[0]
        media_type = _TYPES.get(suffix) or guessed or "application/octet-stream"
        gzipped = gzip.compress(body, 9, mtime=0) if suffix in _COMPRESSIBLE else None
        if gzipped is not None and len(gzipped) >= len(body):
            gzipped = None
        digest = hashlib.sha256(body).hexdigest()[:12]
        self._assets[(namespace, name)] = Asset(body, gzipped, media_type, digest)

    def get(self, namespace: str, name: str) -> Asset | None:
        """Return the asset, or ``None``."""
        return self._assets.get((namespace, name))

    def url(self, namespace: str, name: str) -> str:
        """Return the versioned URL of an asset; raise ``KeyError`` if there is none."""
        asset = self._assets[(namespace, name)]
        return f"/static/{asset.digest}/{namespace}/{name}"
