"""A Set defined outside ``interfaces/``, registered by its own entry point: one-pile Nim.

``Tray`` is the number of matches left (``Init``: 12); a move takes 1, 2 or 3; who takes the
last match wins. Used by the tests to prove a third party's Set is served like ours, and
played like ours: its rules (``rules.py``, hot-seat and Arbitre) and built-in engines
(``engines.py``) give it an Arbitre with no edit outside this package.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournoyons_gui.interfaces import Context, Method, ParamError, SetInterface, View
from tournoyons_nim.engines import ENGINES
from tournoyons_nim.rules import NimRules


@dataclass(frozen=True, kw_only=True)
class NimView(View):
    """The pile: how many matches are left."""

    matches: int


def build(ctx: Context) -> NimView:
    """Read the pile from ``Tray``."""
    errors: list[ParamError] = []
    raw = "12" if ctx.tray is None or ctx.tray_is_init else ctx.tray
    matches = int(raw) if raw.isdigit() and int(raw) <= 30 else 0
    if not (raw.isdigit() and int(raw) <= 30):
        errors.append(ParamError("tray", "Tray is 0-30 matches"))
    playable = tuple(str(n) for n in (1, 2, 3) if n <= matches)
    if ctx.method is not Method.STANDARD:
        playable = ()
    return NimView(
        tray=str(matches),
        player=ctx.input if playable else None,
        playable=playable,
        errors=tuple(errors),
        matches=matches,
    )


interface = SetInterface(
    name="Nim",
    build=build,
    sample={"Tray": "Init", "Input": "One"},
    rules=NimRules(),
    engines=ENGINES,
)
