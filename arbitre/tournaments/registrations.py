"""Registered engines (the manual's "engines registered with Tournoyons"): a name, a URL,
the Sets played, Poker level 2, an edit token given to whoever registers it, and a
permanent id that opponents receive as ``Opponent`` in competition matches (decision 27);
whether its owner put it on the standing ladder (:mod:`~tournoyons_gui.arbitre.ladder`),
with its concurrency and rest there.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.ladder.settings import check_concurrency, check_ladder, check_rest
from tournoyons_gui.arbitre.match import GameError, Taken, check_registered_name
from tournoyons_gui.arbitre.naming import engine_names
from tournoyons_gui.arbitre.store import Conflict, Engine, new_id
from tournoyons_gui.arbitre.urls import check_engine_url

__all__ = [
    "KEY",
    "REGISTERED_KINDS",
    "WRONG_TOKEN",
    "EntrantSpec",
    "Registrations",
    "TournamentError",
    "builtin_registration",
    "check_key",
]

#: The error of a change asked without the engine's edit token.
WRONG_TOKEN = "wrong edit token"


class TournamentError(ValueError):
    """A tournament or a registration that cannot be made as asked."""


class NameTaken(TournamentError, Taken):
    """An engine's name taken by another registration."""


@dataclass(frozen=True)
class EntrantSpec:
    """An entrant as asked for: ``kind`` ``registered`` (``engine`` a registration id),
    ``engine`` (an engine URL; registered on the way when no registration has it, so that
    its opponents get a permanent ``Opponent``), ``builtin`` (a built-in engine's name) or
    ``botsarena`` (a botsarena bot's URL, ConnectFour);
    ``name`` shown (default: the registration's, :func:`engine_names`'s, the built-in's);
    ``token``: a registered engine's edit token, its owner's consent to enter it (not
    needed when it is open to every tournament)."""

    kind: str
    engine: str
    name: str = ""
    token: str = ""


#: The seat kinds a registered engine may have: the protocol's callbacks (``engine``), a
#: web service answering JSON (``service``) or its value in its body (``sync``), manual
#: VIII.
REGISTERED_KINDS = ("engine", "service", "sync")
#: A registration's ladder state once its owner put it on or took it off the ladder.
_UNPAUSED = {"ladder_faults": 0, "ladder_paused": "", "ladder_reason": "", "ladder_paused_game": ""}
#: A call key: up to 64 printable ASCII characters (no space).
KEY = r"[!-~]{0,64}"
_KEY = re.compile(KEY)


def check_key(key: str) -> str:
    """Return a call key stripped; raise :class:`TournamentError` unless it is up to 64
    printable ASCII characters (no space)."""
    key = key.strip()
    if not _KEY.fullmatch(key):
        raise TournamentError("a key is up to 64 printable ASCII characters, no space")
    return key


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
            return check_engine_url(url, self.arbitre.outbound)
        except ValueError as refused:
            raise TournamentError(str(refused)) from None

    @staticmethod
    def check_name(name: str) -> str:
        """Return ``name`` with its spaces folded; raise :class:`TournamentError` unless it
        has 1-60 characters, none a control character (:func:`check_registered_name`)."""
        try:
            return check_registered_name(name)
        except GameError as refused:
            raise TournamentError(str(refused)) from None

    async def register(
        self,
        name: str,
        url: str,
        sets: Sequence[str],
        *,
        poker_level2: bool = False,
        open_entry: bool = False,
        call_key: str = "",
        kind: str = "engine",
        ladder: bool = False,
        ladder_concurrency: int | None = None,
        ladder_rest: int | None = None,
    ) -> Engine:
        """Register an engine; return it, with its edit token (``secret``: to be given to
        whoever registered it, and to nobody else). ``open_entry``: anyone may enter it in
        a tournament; ``call_key``: the key its calls are signed with (manual VII) or it
        is given (a ``service`` engine, manual VIII; one is made for it when empty);
        ``kind``: its seat kind (:data:`REGISTERED_KINDS`); ``ladder``: on the standing
        ladder of every Set it plays, ``ladder_concurrency`` ladder pairs at once (1 by
        default, 1-8), ``ladder_rest`` seconds of rest after each ladder game (0 by
        default, at most a day). Raises :class:`TournamentError` for a name taken or
        malformed, a URL an engine may not have (decision 13), an unknown Set or kind, a
        key of more than 64 characters, a ladder setting out of its bounds (the message
        names the field); nothing is stored then."""
        if kind not in REGISTERED_KINDS:
            raise TournamentError(f"an engine's kind is {', '.join(REGISTERED_KINDS)}")
        ladder_settings = self.check_ladder(
            ladder, 1 if ladder_concurrency is None else ladder_concurrency, ladder_rest or 0
        )
        call_key = check_key(call_key)
        if kind == "service" and not call_key:
            call_key = new_id(32)
        engine = Engine(
            id=new_id(10),
            name=self.check_name(name),
            url=self.check_url(url),
            sets=await self.check_sets(sets),
            poker_level2=poker_level2,
            retired=False,
            created_at=self.store.now(),
            secret=new_id(26),
            open_entry=open_entry,
            call_key=call_key,
            kind=kind,
            **ladder_settings,
        )
        try:
            await self.store.add_engine(engine)
        except Conflict:
            raise NameTaken(f"an engine is already registered as {engine.name!r}") from None
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
        open_entry: bool | None = None,
        call_key: str | None = None,
        ladder: bool | None = None,
        ladder_concurrency: int | None = None,
        ladder_rest: int | None = None,
    ) -> Engine:
        """Change a registration (its id, what opponents know it by, never changes); only
        with its edit ``token`` (:class:`TournamentError` "wrong edit token" otherwise).
        ``call_key``: a new key (a renewal, manual VIII). ``ladder`` true puts it on the
        ladder, or back on after its faults paused it (its faults forgotten); false, or
        retiring it, takes it off. A value out of its bounds is refused before anything
        is changed (the message names the field)."""
        changes: dict[str, Any] = {}
        try:
            if ladder is not None:
                # On again, or off: either way its faults and its pause are forgotten.
                changes["ladder"] = check_ladder(ladder)
                changes.update(_UNPAUSED)
            if ladder_concurrency is not None:
                changes["ladder_concurrency"] = check_concurrency(ladder_concurrency)
            if ladder_rest is not None:
                changes["ladder_rest"] = check_rest(ladder_rest)
        except ValueError as refused:
            raise TournamentError(str(refused)) from None
        if open_entry is not None:
            changes["open_entry"] = open_entry
        if call_key is not None:
            changes["call_key"] = check_key(call_key)
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
            if retired:
                changes.update(ladder=False, **_UNPAUSED)  # retiring takes it off the ladder
        try:
            return await self.store.update_engine(engine_id, token, changes)
        except LookupError:
            raise TournamentError("no such engine") from None
        except PermissionError:
            raise TournamentError(WRONG_TOKEN) from None
        except Conflict:
            raise NameTaken("that name is taken by another engine") from None

    async def engine(self, engine_id: str) -> Engine | None:
        """Return a registered engine."""
        return await self.store.registered(engine_id)

    @staticmethod
    def check_ladder(ladder: object, concurrency: object, rest: object) -> dict[str, Any]:
        """Return a new registration's ladder settings as its fields; raise
        :class:`TournamentError` naming the field out of its bounds
        (:mod:`~tournoyons_gui.arbitre.ladder.settings`)."""
        try:
            return {
                "ladder": check_ladder(ladder),
                "ladder_concurrency": check_concurrency(concurrency),
                "ladder_rest": check_rest(rest),
            }
        except ValueError as refused:
            raise TournamentError(str(refused)) from None

    @staticmethod
    def consent(found: Engine, token: str, set_name: str, number: int) -> None:
        """Raise :class:`TournamentError` unless registered engine ``found`` may be entered
        as entrant ``number`` in a tournament of ``set_name``: not retired, playing that
        Set, and open to every tournament or entered with its edit ``token``."""
        if found.retired:
            raise TournamentError(f"entrant {number}: {found.name} is retired")
        if set_name not in found.sets:
            raise TournamentError(f"entrant {number}: {found.name} does not play {set_name}")
        if not found.open_entry and not (
            token
            and found.secret
            and secrets.compare_digest(token.encode("utf-8", "replace"), found.secret.encode())
        ):
            raise TournamentError(
                f"entrant {number}: {found.name} enters a tournament with its edit token "
                "(its owner has not opened it to every tournament)"
            )

    async def registration_for(
        self, url: str, set_name: str, name: str = "", *, token: str = "", number: int = 1
    ) -> tuple[Engine, bool]:
        """Return the registration of engine ``url`` and whether it is new. A URL already
        registered is entered only with its owner's consent (:meth:`consent`) and never
        changed; a new one is made (as ``name``, by default
        :func:`~tournoyons_gui.arbitre.naming.engine_names`', open to every tournament
        since nobody holds its token) but not stored: :meth:`store_new` does, once the
        whole request is accepted."""
        url = self.check_url(url)
        found = await self.store.engine_by_url(url)
        if found is not None:
            self.consent(found, token, set_name, number)
            return found, False
        engine = Engine(
            id=new_id(10),
            name=self.check_name(name or engine_names([url])[0]),
            url=url,
            sets=[set_name],
            poker_level2=False,
            retired=False,
            created_at=self.store.now(),
            secret=new_id(26),
            open_entry=True,
        )
        return engine, True

    async def store_new(self, engine: Engine) -> Engine:
        """Store a registration made by :meth:`registration_for`, under a free name (its
        own, else with a number); return it."""
        base = engine.name
        for attempt in range(100):
            engine.name = base if attempt == 0 else f"{base[:55]} {attempt + 1}"
            try:
                await self.store.add_engine(engine)
                return engine
            except Conflict:
                continue
        raise TournamentError("no free name for this engine")
