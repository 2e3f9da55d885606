"""A :class:`~tournoyons_gui.interfaces.plugin.Turn` as the store keeps it (JSON)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournoyons_gui.interfaces.plugin import Turn

__all__ = ["turn_from", "turn_json"]


def turn_json(turn: Turn) -> dict[str, Any]:
    """Return a Turn as stored: ``{"state": {...}, "params": {...}, "over": bool}``."""
    return {"state": dict(turn.state), "params": dict(turn.params), "over": turn.over}


def turn_from(data: Mapping[str, Any]) -> Turn:
    """Return the Turn stored as ``data``."""
    return Turn(state=data["state"], params=data["params"], over=bool(data.get("over")))
