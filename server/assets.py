"""Static assets, read once at start and served from memory under content-hashed URLs.

A URL is ``/static/<digest>/<namespace>/<file>``: ``shared`` for the top-level ``static/``
folder (the interface runtime), ``arbitre`` for the Arbitre package's ``static/`` (its own
pages' style and scripts), a Set's key for its package's ``static/``. The digest changes
with the content, so an asset is cached for a year as immutable and the Arbitre's reload
after each move fetches the page alone. :meth:`AssetStore.serve` is the route ``GET
/static/<digest>/<namespace>/<file>``.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.resources
import mimetypes
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

from tournoyons_gui.interfaces.registry import Registry
from tournoyons_gui.server.http import NotModifiedResponse, PreparedResponse, is_not_modified

__all__ = ["ARBITRE_PACKAGE", "IMMUTABLE", "SHARED_STATIC", "Asset", "AssetStore", "load_assets"]

#: The shared front-end's package (``static/`` in the repository), found with
#: ``importlib.resources`` so that an installed wheel serves it too.
SHARED_STATIC = "tournoyons_gui.static"
#: The Arbitre's package: its ``static/`` folder is served as the ``arbitre`` namespace (the
#: server registers it, as the Arbitre never imports the server).
ARBITRE_PACKAGE = "tournoyons_gui.arbitre"
# An asset under its current digest never changes.
IMMUTABLE = b"public, max-age=31536000, immutable"

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

    @property
    def etag(self) -> str:
        """Return the strong ETag: the digest, quoted (the same for both encodings)."""
        return f'"{self.digest}"'

    @property
    def content_type(self) -> str:
        """Return the ``Content-Type``: the media type, with UTF-8 named for text."""
        if self.media_type.startswith("text/") and "charset=" not in self.media_type.lower():
            return self.media_type + "; charset=utf-8"
        return self.media_type


# A package's Python files are not assets (the shared static/ is a package, for the wheel).
_NOT_ASSETS = frozenset({"__init__.py", "__pycache__"})


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
                if entry.name in _NOT_ASSETS:
                    continue
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

    async def serve(self, request: Request) -> Response:
        """``GET /static/<digest>/<namespace>/<file>``: an asset, immutable when current.

        404 (text) for an unknown asset; ``no-cache`` under a digest that is not the
        current one; 304 when ``If-None-Match`` holds its ETag; gzipped when accepted.
        """
        asset = self.get(request.path_params["namespace"], request.path_params["name"])
        if asset is None:
            return Response("not found", 404, media_type="text/plain")
        current = request.path_params["digest"] == asset.digest
        headers = [
            (b"cache-control", IMMUTABLE if current else b"no-cache"),
            (b"etag", asset.etag.encode()),
            (b"vary", b"Accept-Encoding"),
        ]
        if is_not_modified(request.headers.get("if-none-match", ""), asset.etag):
            return NotModifiedResponse(headers)
        body = asset.body
        if asset.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
            body = asset.gzipped
            headers.append((b"content-encoding", b"gzip"))
        headers += [
            (b"content-length", str(len(body)).encode()),
            (b"content-type", asset.content_type.encode("latin-1")),
        ]
        return PreparedResponse(body, 200, headers)


def load_assets(registry: Registry) -> AssetStore:
    """Return the assets served: the shared ``static/`` as ``shared``, the Arbitre's
    ``static/`` as ``arbitre``, then each Set's package's ``static/`` under the Set's key."""
    assets = AssetStore()
    assets.add_folder("shared", importlib.resources.files(SHARED_STATIC))
    assets.add_folder("arbitre", importlib.resources.files(ARBITRE_PACKAGE) / "static")
    for interface in registry:
        assets.add_folder(interface.key, interface.resources("static"))
    return assets
