"""Graphical interfaces in competition (seed 002 I and IV: the Arbitre registers
servers in two roles, engines *and graphical interfaces*, and "lets anyone view a recorded
game through the graphical interface of their choice").

An interface is one of **ours** (each Set's own page, ``/<key>/``, or an added game's
outside page: listed first, id ``B-<key>``) or a **registered** one: a name, an http(s)
URL held to ``--engine-hosts`` like an engine's (decision 13), the Sets it draws, and an
edit token given once to whoever registers it. Any game page loads the chosen interface
with exactly the query our own page would get (:meth:`Interface.frame`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tournoyons_gui.arbitre.added import AddedSet
from tournoyons_gui.arbitre.catalogue import Catalogue, PlayedSet
from tournoyons_gui.arbitre.match import GameError, Taken, check_registered_name
from tournoyons_gui.arbitre.outbound import Outbound
from tournoyons_gui.arbitre.store import Conflict, InterfaceRecord, Listed, Store, new_id
from tournoyons_gui.arbitre.urls import check_engine_url

__all__ = ["BUILTIN", "WRONG_TOKEN", "Interface", "Interfaces", "interface_json"]

#: The prefix of our own interfaces' ids (``B-tictactoe``), as built-in engines' are ``B-``.
BUILTIN = "B-"
#: The error of a change asked without the interface's edit token.
WRONG_TOKEN = "wrong edit token"
#: The error for an id no interface has.
NO_SUCH = "no such interface"


class InterfaceTaken(GameError, Taken):
    """An interface's name taken by another registration."""


@dataclass(frozen=True)
class Interface:
    """An interface a game may be shown through: ``id`` (``B-<key>`` for ours), ``name``,
    ``url`` (ours: ``/<key>/``, relative to this server; registered: absolute), the
    ``sets`` it draws, ``builtin`` (one of ours), ``retired``."""

    id: str
    name: str
    url: str
    sets: tuple[str, ...]
    builtin: bool = False
    retired: bool = False

    def frame(self, query: str) -> str:
        """Return the URL that shows ``query`` (the interface protocol's parameters,
        urlencoded) through this interface: ``url?query``, ``&`` when it has a query."""
        joiner = "&" if "?" in self.url else "?"
        return f"{self.url}{joiner}{query}"


def interface_json(found: Interface | InterfaceRecord) -> dict[str, Any]:
    """Return an interface as JSON-ready data (never its edit token)."""
    data: dict[str, Any] = {
        "id": found.id,
        "name": found.name,
        "url": found.url,
        "sets": list(found.sets),
        "retired": found.retired,
    }
    if isinstance(found, InterfaceRecord):
        data["builtin"] = False
        data["created_at"] = found.created_at.isoformat()
    else:
        data["builtin"] = found.builtin
    return data


def _ours(played: PlayedSet) -> Interface:
    url = played.interface_url if isinstance(played, AddedSet) else f"/{played.key}/"
    return Interface(BUILTIN + played.key, played.name, url, (played.name,), builtin=True)


def _registered(row: InterfaceRecord) -> Interface:
    return Interface(row.id, row.name, row.url, tuple(row.sets), retired=row.retired)


class Interfaces:
    """The interfaces of one Arbitre: ours (one per Set of its ``catalogue``) and those
    registered in ``store``; ``engine_hosts`` (when given) the only hosts a
    registered interface's URL may name. Errors are :class:`GameError` with a message fit
    to show (:data:`WRONG_TOKEN`, :data:`NO_SUCH` ...)."""

    def __init__(
        self,
        store: Store,
        catalogue: Catalogue,
        engine_hosts: Outbound | frozenset[str] | None,
    ) -> None:
        self.catalogue = catalogue
        self.store = store
        self.engine_hosts = engine_hosts

    # --- checks ------------------------------------------------------------------------

    async def check_sets(self, sets: Sequence[str]) -> list[str]:
        """Return the Sets' canonical names; raise :class:`GameError` for an unknown one
        or none."""
        names: list[str] = []
        for name in sets:
            found = await self.catalogue.find(name)
            if found is None:
                raise GameError(f"unknown Set {name!r}")
            if found.name not in names:
                names.append(found.name)
        if not names:
            raise GameError("an interface draws at least one Set")
        return names

    def check_url(self, url: str) -> str:
        """Return ``url`` when an interface may have it: http(s), as an engine's, held to
        ``--engine-hosts`` (decision 13); raise :class:`GameError`."""
        try:
            return check_engine_url(url, self.engine_hosts)
        except ValueError as refused:
            raise GameError(str(refused).replace("engine", "interface")) from None

    @staticmethod
    def check_name(name: str) -> str:
        """Return ``name`` with its spaces folded; raise :class:`GameError` unless it has
        1-60 characters, none a control character (:func:`check_registered_name`)."""
        return check_registered_name(name)

    # --- registrations -----------------------------------------------------------------

    async def register(self, name: str, url: str, sets: Sequence[str]) -> InterfaceRecord:
        """Register an interface; return it with its edit token (``secret``: for whoever
        registered it, and nobody else). Raises :class:`GameError` for a name taken or
        malformed, a URL an interface may not have, an unknown Set."""
        row = InterfaceRecord(
            id=new_id(10),
            name=self.check_name(name),
            url=self.check_url(url),
            sets=await self.check_sets(sets),
            retired=False,
            created_at=self.store.now(),
            secret=new_id(26),
        )
        try:
            await self.store.add_interface(row)
        except Conflict:
            raise InterfaceTaken(f"an interface is already registered as {row.name!r}") from None
        return row

    async def update(
        self,
        interface_id: str,
        *,
        token: str,
        name: str | None = None,
        url: str | None = None,
        sets: Sequence[str] | None = None,
        retired: bool | None = None,
    ) -> InterfaceRecord:
        """Change a registration (its id never changes), only with its edit ``token``
        (:data:`WRONG_TOKEN` otherwise, :data:`NO_SUCH` for an unknown id)."""
        changes: dict[str, Any] = {}
        if name is not None:
            changes["name"] = self.check_name(name)
        if url is not None:
            changes["url"] = self.check_url(url)
        if sets is not None:
            changes["sets"] = await self.check_sets(sets)
        if retired is not None:
            changes["retired"] = retired
        try:
            return await self.store.update_interface(interface_id, token, changes)
        except LookupError:
            raise GameError(NO_SUCH) from None
        except PermissionError:
            raise GameError(WRONG_TOKEN) from None
        except Conflict:
            raise InterfaceTaken("that name is taken by another interface") from None

    async def registered(self, interface_id: str) -> InterfaceRecord | None:
        """Return a registered interface's record (its token included), or ``None``."""
        if interface_id.startswith(BUILTIN):
            return None
        return await self.store.interface(interface_id[:12])

    # --- choosing ----------------------------------------------------------------------

    async def page(self, *, after: str | None = None, limit: int = 50) -> Listed[Interface]:
        """Return a page of the interfaces: ours on the first page (``after`` ``None``: a
        few, one per Set), then up to ``limit`` registered ones by name after the name
        ``after`` (the retired ones too); ``more`` when registered ones follow."""
        ours: list[Interface] = []
        if after is None:
            await self.catalogue.load_added()
            ours = [_ours(played) for played in self.catalogue.playable()]
        page = await self.store.interfaces_page(after=after, limit=limit)
        return Listed(ours + [_registered(r) for r in page.rows], page.more)

    async def for_set(self, played: PlayedSet) -> list[Interface]:
        """Return the interfaces that draw ``played``: ours first, then the registered
        ones not retired, by name (the first 200: those of this Set only are read)."""
        rows = await self.store.interfaces_for(played.name)
        return [_ours(played)] + [_registered(r) for r in rows]

    async def find(self, interface_id: str) -> Interface | None:
        """Return the interface ``interface_id`` (``B-<key>``: ours), or ``None``."""
        if interface_id.startswith(BUILTIN):
            played = await self.catalogue.find(interface_id[len(BUILTIN) :])
            return None if played is None else _ours(played)
        row = await self.registered(interface_id)
        return None if row is None else _registered(row)

    async def choose(self, played: PlayedSet, interface_id: str | None) -> Interface:
        """Return the interface a game of ``played`` is shown through: ``interface_id``
        when it draws that Set (a retired one still shows an old link), ours otherwise."""
        if interface_id:
            found = await self.find(interface_id)
            if found is not None and played.name in found.sets:
                return found
        return _ours(played)
