"""Tournoyons interfaces: the shared protocol layer, the plugin contract, the built-in Sets.

A Set's plugin imports what it needs from here::

    from tournoyons_gui.interfaces import Context, Player, SetInterface, View
"""

from __future__ import annotations

from tournoyons_gui.interfaces.plugin import (
    ArbitreRules,
    Botsarena,
    Engine,
    EngineRequest,
    IllegalMove,
    RefereeAnswer,
    RefereeCall,
    Refereeing,
    Result,
    Rules,
    SetInterface,
    Turn,
    View,
)
from tournoyons_gui.interfaces.protocol import Context, Method, PageParams, ParamError, Player

__all__ = [
    "ArbitreRules",
    "Botsarena",
    "Context",
    "Engine",
    "EngineRequest",
    "IllegalMove",
    "Method",
    "PageParams",
    "ParamError",
    "Player",
    "RefereeAnswer",
    "RefereeCall",
    "Refereeing",
    "Result",
    "Rules",
    "SetInterface",
    "Turn",
    "View",
]
