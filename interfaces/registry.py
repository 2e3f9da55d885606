"""Finding the Sets: the entry-point group ``tournoyons.interfaces``.

The built-in Sets are declared in this project's ``pyproject.toml`` exactly as a third
party's are in theirs (style.md, pluggy's host): the registry loads the group, then any Sets
given explicitly (tests, embedding applications).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from importlib.metadata import entry_points

from tournoyons_gui.interfaces.plugin import SetInterface

__all__ = ["ENTRY_POINT_GROUP", "Registry", "load_registry"]

ENTRY_POINT_GROUP = "tournoyons.interfaces"

log = logging.getLogger(__name__)


class Registry:
    """The Sets served, looked up by name or alias, case-insensitively (spec section 4)."""

    def __init__(self, sets: Iterable[SetInterface] = ()) -> None:
        self._sets: dict[str, SetInterface] = {}
        self._names: dict[str, SetInterface] = {}
        for interface in sets:
            self.add(interface)

    def add(self, interface: SetInterface) -> None:
        """Register ``interface``; a name or alias already taken keeps its first owner."""
        if interface.key in self._sets:
            log.warning("Set %s is registered twice; keeping the first", interface.name)
            return
        self._sets[interface.key] = interface
        for name in (interface.name, *interface.aliases):
            owner = self._names.setdefault(name.lower(), interface)
            if owner is not interface:
                log.warning("Set name %r is taken by %s", name, owner.name)

    def get(self, name: str | None) -> SetInterface | None:
        """Return the Set called ``name`` (any case, or an alias), or ``None``."""
        if not name:
            return None
        return self._names.get(name.strip().lower())

    def __iter__(self) -> Iterator[SetInterface]:
        return iter(sorted(self._sets.values(), key=lambda s: s.name.lower()))

    def __len__(self) -> int:
        return len(self._sets)


def load_registry(extra: Iterable[SetInterface] = (), *, only: str | None = None) -> Registry:
    """Return a registry of every Set declared in the entry-point group, then ``extra``;
    with ``only`` (a Set's name, as a headless command is given it), of that Set alone
    when an entry point bears its name (lower-cased: ``TicTacToe`` -> ``tictactoe``), so
    that a command playing one Set does not import the others; of every Set otherwise (an
    alias is known only to its Set).

    An entry point that fails to import, or that is not a :class:`SetInterface`, is logged
    and skipped: one broken third-party Set must not take the others down.
    """
    registry = Registry()
    points = sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name)
    if only is not None and any(p.name == only.lower() for p in points):
        points = [p for p in points if p.name == only.lower()]
    for point in points:
        try:
            interface = point.load()
        except Exception:
            log.exception("Set entry point %s could not be loaded", point.value)
            continue
        if not isinstance(interface, SetInterface):
            log.error("Set entry point %s is not a SetInterface", point.value)
            continue
        registry.add(interface)
    for interface in extra:
        registry.add(interface)
    return registry
