"""Registered engines (the manual's "engines registered with Tournoyons"): a name, a URL,
the Sets played, Poker level 2, an edit token given to whoever registers it, and a
permanent id that opponents receive as ``Opponent`` in competition matches (decision 27).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.naming import engine_names
from tournoyons_gui.arbitre.store import Conflict, Engine, new_id
from tournoyons_gui.arbitre.urls import check_engine_url

__all__ = ["WRONG_TOKEN", "EntrantSpec", "Registrations", "TournamentError", "builtin_registration"]

#: The error of a change asked without the engine's edit token.
WRONG_TOKEN = "wrong edit token"
_NAME = re.compile(r"[^\x00-\x1f\x7f]{1,60}")


class TournamentError(ValueError):
    """A tournament or a registration that cannot be made as asked."""


@dataclass(frozen=True)
class EntrantSpec:
    """An entrant as asked for: ``kind`` ``registered`` (``engine`` a registration id),
    ``engine`` (an engine URL; registered on the way when no registration has it, so that
    its opponents get a permanent ``Opponent``), ``builtin`` (a built-in engine's name) or
    ``botsarena`` (a botsarena bot's URL, ConnectFour);
    ``name`` shown (default: the registration's, :func:`engine_names`'s, the built-in's)."""

    kind: str
    engine: str
    name: str = ""


def builtin_registration(name: str) -> str:
    """Return the ``Opponent`` id of a built-in engine (public, the same everywhere)."""
    return f"B-{name}"[:12]


class Registrations:
    """The registered engines of the :class:`Arbitre`'s store."""

    def __init__(self, arbitre: Arbitre) -> None:
        self.arbitre = arbitre
        self.store = arbitre.store

    async def check_sets(self, sets: Sequence[str]) -> list[str]:
        """Return the Sets' canonical names; raise :class:`TournamentError` for an unknown
        one or none."""
        names: list[str] = []
        for name in sets:
            found = await self.arbitre.find_set(name)
            if found is None or found.arbitre is None:
                raise TournamentError(f"unknown Set {name!r}")
            if found.name not in names:
                names.append(found.name)
        if not names:
            raise TournamentError("an engine plays at least one Set")
        return names

    def check_url(self, url: str) -> str:
        """Return ``url`` when an engine may have it (decision 13); raise
        :class:`TournamentError`."""
        try:
            return check_engine_url(url, self.arbitre.engine_hosts)
        except ValueError as refused:
            raise TournamentError(str(refused)) from None

    @staticmethod
    def check_name(name: str) -> str:
        """Return ``name`` with its spaces folded; raise :class:`TournamentError` unless it
        has 1-60 characters, none a control character."""
        name = " ".join(name.split())
        if not _NAME.fullmatch(name):
            raise TournamentError("a name is 1-60 characters")
        return name

    async def register(
        self, name: str, url: str, sets: Sequence[str], *, poker_level2: bool = False
    ) -> Engine:
        """Register an engine; return it, with its edit token (``secret``: to be given to
        whoever registered it, and to nobody else). Raises :class:`TournamentError` for a
        name taken or malformed, a URL an engine may not have (decision 13), an unknown
        Set."""
        engine = Engine(
            id=new_id(10),
            name=self.check_name(name),
            url=self.check_url(url),
            sets=await self.check_sets(sets),
            poker_level2=poker_level2,
            retired=False,
            created_at=self.store.now(),
            secret=new_id(26),
        )
        try:
            await self.store.add_engine(engine)
        except Conflict:
            raise TournamentError(f"an engine is already registered as {engine.name!r}") from None
        return engine

    async def update(
        self,
        engine_id: str,
        *,
        token: str,
        name: str | None = None,
        url: str | None = None,
        sets: Sequence[str] | None = None,
        poker_level2: bool | None = None,
        retired: bool | None = None,
    ) -> Engine:
        """Change a registration (its id, what opponents know it by, never changes); only
        with its edit ``token`` (:class:`TournamentError` "wrong edit token" otherwise)."""
        changes: dict[str, Any] = {}
        if sets is not None:
            changes["sets"] = await self.check_sets(sets)
        if name is not None:
            changes["name"] = self.check_name(name)
        if url is not None:
            changes["url"] = self.check_url(url)
        if poker_level2 is not None:
            changes["poker_level2"] = poker_level2
        if retired is not None:
            changes["retired"] = retired
        try:
            return await self.store.update_engine(engine_id, token, changes)
        except LookupError:
            raise TournamentError("no such engine") from None
        except PermissionError:
            raise TournamentError(WRONG_TOKEN) from None
        except Conflict:
            raise TournamentError("that name is taken by another engine") from None

    async def engines(self, *, retired: bool = True) -> list[Engine]:
        """Return the registered engines by name (the retired ones too unless told)."""
        return await self.store.engines(retired=retired)

    async def engine(self, engine_id: str) -> Engine | None:
        """Return a registered engine."""
        return await self.store.registered(engine_id)

    async def registration_for(self, url: str, set_name: str, name: str = "") -> Engine:
        """Return the registration of engine ``url``, registering it when it has none (as
        ``name``, by default :func:`~tournoyons_gui.arbitre.naming.engine_names`'), and
        adding ``set_name`` to its Sets."""
        url = self.check_url(url)
        found = await self.store.engine_by_url(url)
        if found is not None:
            if set_name not in found.sets:
                found = await self.update(
                    found.id, token=found.secret, sets=[*found.sets, set_name]
                )
            return found
        base = name or engine_names([url])[0]
        for attempt in range(100):
            name = base if attempt == 0 else f"{base} {attempt + 1}"
            try:
                return await self.register(name, url, [set_name])
            except TournamentError as taken:
                if "already registered" not in str(taken):
                    raise
        raise TournamentError("no free name for this engine")
