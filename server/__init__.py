"""The Tournoyons interface server: HTTP only; the games live in ``interfaces/``."""

from __future__ import annotations

from tournoyons_gui.server.app import create_app

__all__ = ["create_app"]
