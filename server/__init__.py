"""The Tournoyons interface server: HTTP only; the games live in ``interfaces/``.

``create_app`` is imported on first use (PEP 562), so that importing a light module of
this package (the command line's parser, ``bind``) does not load the application, the
Arbitre and their libraries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tournoyons_gui.server.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    """Return ``create_app``, importing :mod:`.app` the first time it is asked for."""
    if name == "create_app":
        from tournoyons_gui.server.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
