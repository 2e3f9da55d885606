"""The records: games, seats, moves and the exchange log, registered engines and
tournaments, in SQLite or PostgreSQL. The only code of the Arbitre with SQL.

A game's whole state lives here, written before anything is published (save, then
publish): the current :class:`~tournoyons_gui.interfaces.plugin.Turn` after every move,
each move as a row with a unique ``(game, number)`` so that a move cannot be recorded
twice, and every request, callback, redirect and final call (engine protocol decision 28).
The rest of the Arbitre, its pages and its API get plain records (:mod:`.records`).

- :mod:`.base`: opening, the schema's creation and upgrades, sessions, the clock;
- :mod:`.schema`: the tables and their migrations;
- :mod:`.games`: games, moves, the exchange log, leases, added Sets;
- :mod:`.pending`: the asks awaiting an answer, shared by the workers;
- :mod:`.tournaments`: registered engines and tournaments;
- :mod:`.rooms`: timi rooms, their leases, the workers refereeing them;
- :mod:`.interfaces`: registered graphical interfaces;
- :mod:`.checks`: the interface checks run by the server, their progress and reports;
- :mod:`.matches`: ``play``'s matches and their games in order;
- :mod:`.lists`: the lists read a page at a time (keyset paging), the leases counted;
- :mod:`.kept`: the kept aggregates the pages read instead of counting (the lists and
  records at a million games);
- :mod:`.ladder` and :mod:`.ladder_board`: the standing ladder's pairs, standings and
  meetings, its scheduling's lease and its leaderboard's reads;
- :mod:`.limits`: the requests counted against the limits, the slots of work held, the
  key the lists' cursors are signed with (shared by the workers).
"""

from __future__ import annotations

from tournoyons_gui.arbitre.store import records
from tournoyons_gui.arbitre.store.base import DEFAULT_DATABASE, aware, database_url, new_id, now
from tournoyons_gui.arbitre.store.checks import CheckStore
from tournoyons_gui.arbitre.store.games import MAX_PAGE, Conflict, LeaseLost
from tournoyons_gui.arbitre.store.interfaces import InterfaceStore
from tournoyons_gui.arbitre.store.ladder import LadderPlace
from tournoyons_gui.arbitre.store.ladder_board import LadderStore
from tournoyons_gui.arbitre.store.limits import Hit, LimitStore
from tournoyons_gui.arbitre.store.lists import (
    MAX_OFFSET,
    GameList,
    Listed,
    ListStore,
    NewestKey,
    SeatFilter,
)
from tournoyons_gui.arbitre.store.matches import MatchStore
from tournoyons_gui.arbitre.store.pending import PENDING_KEPT
from tournoyons_gui.arbitre.store.records import *  # noqa: F403 (every plain record)
from tournoyons_gui.arbitre.store.rooms import RoomStore
from tournoyons_gui.arbitre.store.schema import SCHEMA_VERSION

__all__ = [
    "DEFAULT_DATABASE",
    "MAX_OFFSET",
    "MAX_PAGE",
    "PENDING_KEPT",
    "SCHEMA_VERSION",
    "Conflict",
    "GameList",
    "Hit",
    "LadderPlace",
    "LeaseLost",
    "Listed",
    "NewestKey",
    "SeatFilter",
    "Store",
    "aware",
    "database_url",
    "new_id",
    "now",
]
__all__ += records.__all__


class Store(InterfaceStore, RoomStore, ListStore, LimitStore, MatchStore, CheckStore, LadderStore):
    """The database and every query the Arbitre makes (:meth:`open` it, then use it)."""
