"""Seat kinds: each one class with one ``ask(position, deadline)``
(:class:`~tournoyons_gui.arbitre.seats.base.SeatKind`), registered by name.

Built in: ``person`` (:mod:`.person`), ``engine`` and ``builtin`` (:mod:`.engine`),
``botsarena`` (:mod:`.botsarena`), ``irc`` (:mod:`.irc`: a timi room's player),
``maitretarot`` (:mod:`.maitretarot`: a MaitreTarot client at a Tarot table),
``service`` (:mod:`.service`) and ``sync`` (:mod:`.sync`), engines behind a school's wall
(manual VIII). A new kind is one subclass and one :func:`register` call before the
Arbitre starts::

    class Fixed(SeatKind):
        name = "fixed"
        async def ask(self, position, deadline):
            return Answer(VALUES[position.number - 1])

    register(Fixed)

Nothing else names a kind: the game master asks through the class, the pages read
:func:`through_pages`, the record :meth:`SeatKind.exported`.
"""

from __future__ import annotations

from typing import Protocol

from tournoyons_gui.arbitre.seats.base import Position, SeatKind, Services, Session
from tournoyons_gui.arbitre.seats.botsarena import BotsarenaSeat
from tournoyons_gui.arbitre.seats.engine import BuiltinSeat, EngineSeat
from tournoyons_gui.arbitre.seats.irc import IrcSeat
from tournoyons_gui.arbitre.seats.maitretarot import MaitreTarotSeat
from tournoyons_gui.arbitre.seats.person import PersonSeat
from tournoyons_gui.arbitre.seats.service import ServiceSeat
from tournoyons_gui.arbitre.seats.sync import SyncSeat

__all__ = [
    "KINDS",
    "Position",
    "SeatKind",
    "Services",
    "Session",
    "exported",
    "kind_of",
    "register",
    "through_pages",
]

#: The seat kinds by name, in the order the forms offer them.
KINDS: dict[str, type[SeatKind]] = {}


def register(kind: type[SeatKind]) -> type[SeatKind]:
    """Register a seat kind under its ``name`` (usable as a class decorator); raise
    ``ValueError`` for a kind without a name. A later registration of a name replaces the
    earlier one."""
    if not kind.name:
        raise ValueError("a seat kind has a name")
    KINDS[kind.name] = kind
    return kind


for _kind in (
    PersonSeat,
    BuiltinSeat,
    EngineSeat,
    BotsarenaSeat,
    IrcSeat,
    MaitreTarotSeat,
    ServiceSeat,
    SyncSeat,
):
    register(_kind)


def kind_of(name: str) -> type[SeatKind] | None:
    """Return the seat kind called ``name``, or ``None``."""
    return KINDS.get(name)


class _Seated(Protocol):
    kind: str


def exported(seat: _Seated) -> dict[str, str]:
    """Return what a game's record shows of ``seat``'s URL (:meth:`SeatKind.exported`)."""
    kind = KINDS.get(seat.kind)
    if kind is None:
        return {"url": "", "builtin": ""}
    return kind.exported(seat)  # type: ignore[arg-type]


def through_pages(seat: _Seated) -> bool:
    """Whether a person plays ``seat`` through the Set's page with its seat token."""
    kind = KINDS.get(seat.kind)
    return kind is not None and kind.through_pages
