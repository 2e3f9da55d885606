"""Tournoyons interfaces: the shared protocol layer, the plugin contract, the built-in Sets.

A Set's plugin imports what it needs from here::

    from tournoyons_gui.interfaces import Context, Player, SetInterface, View
"""

from __future__ import annotations

from tournoyons_gui.interfaces import plugin
from tournoyons_gui.interfaces.plugin import *  # noqa: F403 (the whole Set contract)
from tournoyons_gui.interfaces.protocol import (
    PAIR,
    Context,
    Method,
    PageParams,
    ParamError,
    Player,
)

__all__ = ["PAIR", "Context", "Method", "PageParams", "ParamError", "Player"]
__all__ += plugin.__all__
