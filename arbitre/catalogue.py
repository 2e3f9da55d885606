"""The catalogue of Sets the Arbitre plays: the registry's (the plugins whose rules have the
Arbitre's part, :class:`~tournoyons_gui.interfaces.plugin.ArbitreRules`) and the games
added by persons from an outside interface and referee (manual 002 chapter VI, engine
protocol section 6), which live in the store so that every worker plays them.
"""

from __future__ import annotations

from typing import TypeAlias

from tournoyons_gui.arbitre.added import AddedSet, check_added_name
from tournoyons_gui.arbitre.match import GameError, Taken
from tournoyons_gui.arbitre.outbound import Outbound
from tournoyons_gui.arbitre.store import AddedSetRecord, Store
from tournoyons_gui.arbitre.urls import check_engine_url
from tournoyons_gui.interfaces.plugin import SetInterface
from tournoyons_gui.interfaces.registry import Registry

__all__ = ["Catalogue", "PlayedSet", "SetTaken"]

#: A Set the Arbitre plays: one of the registry's, or one added by a person (chapter VI).
PlayedSet: TypeAlias = SetInterface | AddedSet


class SetTaken(GameError, Taken):
    """An added Set's name already played here."""


class Catalogue:
    """The Sets of one Arbitre: ``registry``'s and the added ones read from ``store``;
    ``outbound`` the policy an added game's URLs are held to."""

    def __init__(self, registry: Registry, store: Store, outbound: Outbound | None = None) -> None:
        self.registry = registry
        self.store = store
        self.outbound = outbound or Outbound()
        self.added: dict[str, AddedSet] = {}

    def playable(self) -> list[PlayedSet]:
        """Return the Sets the Arbitre can play: the registry's whose rules have the
        Arbitre's part, then the added ones (as last loaded)."""
        return [
            *(s for s in self.registry if s.arbitre is not None),
            *sorted(self.added.values(), key=lambda s: s.key),
        ]

    def lookup(self, name: str | None) -> PlayedSet | None:
        """Return the Set called ``name`` (any case; a registry alias too), or ``None``."""
        return self.registry.get(name) or self.added.get((name or "").strip().lower())

    async def find(self, name: str | None) -> PlayedSet | None:
        """Return the Set called ``name``, reading the added Sets again when it is not
        known here (another worker may have added it)."""
        found = self.lookup(name)
        if found is None and name:
            await self.load_added()
            found = self.lookup(name)
        return found

    async def load_added(self) -> None:
        """Read the added Sets from the store."""
        self.added = {
            row.key: AddedSet(
                row.name, row.interface_url, row.referee_url, row.start_tray, row.simultaneous
            )
            for row in await self.store.added_sets()
        }

    async def add(
        self,
        name: str,
        interface_url: str,
        referee_url: str,
        *,
        start_tray: str = "Init",
        simultaneous: bool = False,
    ) -> AddedSet:
        """Store an added Set (chapter VI) and return it; raise :class:`GameError` for a
        name taken or malformed, a URL that is not http(s) (or not allowed here), or a
        start Tray with ``/`` or ``|``."""
        try:
            name = check_added_name(name)
            interface_url = check_engine_url(interface_url, self.outbound, "an interface URL")
            referee_url = check_engine_url(referee_url, self.outbound, "a referee URL")
        except ValueError as refused:
            raise GameError(str(refused)) from None
        start_tray = start_tray.strip() or "Init"
        if "/" in start_tray or "|" in start_tray or len(start_tray) > 4000:
            raise GameError("a start Tray has at most 4000 characters, never / or |")
        await self.load_added()
        if self.lookup(name) is not None:
            raise SetTaken(f"a Set called {name} is already played here")
        added = AddedSet(name, interface_url, referee_url, start_tray, simultaneous)
        stored = await self.store.add_set(
            AddedSetRecord(
                added.key,
                name,
                interface_url,
                referee_url,
                start_tray,
                simultaneous,
                self.store.now(),
            )
        )
        if not stored:  # another worker added the same name meanwhile
            raise SetTaken(f"a Set called {name} is already played here")
        self.added[added.key] = added
        return added
