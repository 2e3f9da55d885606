"""What an interface page asks of its runtime script (``static/tournoyons.js``).

A page carries one JSON object in ``<script type="application/json"
id="tournoyons-context">``: which Set and Method it draws, whether it asks a player for a
value and which values it may return, where it returns them, how long it waits before
animating, whether it is silent, whether the WebTest control is shown, and what it plays
once drawn. It follows from the query's :class:`~tournoyons_gui.interfaces.protocol.Context` and
the Set's
:class:`~tournoyons_gui.interfaces.plugin.View` alone: protocol, not HTTP.

Sources: spec ``interface-protocol.md`` sections 2 (``Input``, ``Method``, ``URLReturn``,
``Wait``, ``Mute``, ``WebTest``), 3 (``Method=Prepare``) and 6 (the page's script).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournoyons_gui.interfaces.plugin import View
from tournoyons_gui.interfaces.protocol import Context, Method, Player

__all__ = ["RuntimeConfig"]


@dataclass(frozen=True)
class RuntimeConfig:
    """The page's runtime configuration; :meth:`to_json` is the object the script reads.

    - ``set``: the Set's canonical name, ``""`` for the empty page.
    - ``method``: the Method drawn (after falling back to ``Standard`` or ``None``).
    - ``player``: the player asked for a value; ``None`` when the page asks nobody.
    - ``input``: whether the page asks for a value now (``Input`` given, or
      ``Method=Prepare``); ``False`` under ``WebTest`` alone, whose control hands input over.
    - ``playable``: the values ``player`` may return; ``()`` when the page asks nobody.
    - ``composed``: the value is composed on the page rather than picked from ``playable``.
    - ``tray``: the board value as drawn (``View.tray``), ``""`` without a board.
    - ``url_return``: where the value goes (already checked to be http(s)), or ``None``.
    - ``wait`` (tenths of a second), ``mute``, ``webtest``: as the query said.
    - ``sound``: ``"move"``, ``"win"`` or ``None``: what the page plays once drawn.
    """

    set: str
    method: Method
    player: Player | None
    input: bool
    playable: tuple[str, ...]
    composed: bool
    tray: str
    url_return: str | None
    wait: int
    mute: bool
    webtest: bool
    sound: str | None

    @classmethod
    def from_view(
        cls, ctx: Context, view: View | None, method: Method, interface_name: str
    ) -> RuntimeConfig:
        """Return the configuration of a page drawing ``view`` (``None``: no board) for
        ``ctx`` with ``method``, the Set being ``interface_name`` (``""``: none).

        The page asks for a value only when the view names a player who has something to
        play (``playable`` values, or a value composed on the page) and the Method takes
        input (never at ``End`` or ``None``, :attr:`Method.takes_input`).
        """
        asks = (
            view is not None
            and view.player is not None
            and bool(view.playable or view.composed)
            and method.takes_input
        )
        return cls(
            set=interface_name,
            method=method,
            player=view.player if asks and view is not None else None,
            input=asks and (ctx.input is not None or method is Method.PREPARE),
            playable=tuple(view.playable) if asks and view is not None else (),
            composed=asks and view is not None and bool(view.composed),
            tray=view.tray if view is not None else "",
            url_return=ctx.url_return,
            wait=ctx.wait,
            mute=ctx.mute,
            webtest=ctx.webtest,
            sound=view.sound if view is not None else None,
        )

    @property
    def asks(self) -> bool:
        """Whether the page may hand input to a player (now, or through WebTest's control)."""
        return self.player is not None

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object the page embeds (keys in camelCase, as the script reads)."""
        return {
            "set": self.set,
            "method": self.method.value,
            "player": int(self.player) if self.player is not None else None,
            "input": self.input,
            "playable": list(self.playable),
            "composed": self.composed,
            "tray": self.tray,
            "urlReturn": self.url_return,
            "wait": self.wait,
            "mute": self.mute,
            "webtest": self.webtest,
            "sound": self.sound,
        }
