"""The lists' kept aggregates (the lists at a million games): what the games list and a
game's page read instead of counting or scanning rows.

- ``set_counts``: the games of each Set (every status), one row per Set name; the games
  list says its total from it (a Set's row, or the sum of the rows: as many rows as
  Sets), never from a ``count(*)`` over ``games``. Kept by
  :meth:`~tournoyons_gui.arbitre.store.games.GameStore.create_game`, in its transaction
  (:func:`count_game`); no game is ever deleted.
- ``tournament_ends``: the games over (any status but ``playing``) of each tournament
  that has one; the tournaments list says "games over" from it for the page's
  tournaments, never from their games. Kept by
  :meth:`~tournoyons_gui.arbitre.store.games.GameStore.finish_game` (:func:`game_over`),
  in its transaction: every game ends there.
- ``interface_sets``: the Sets each registered interface draws (its ``sets`` JSON list
  as rows), so that a game's page reads the interfaces of its Set only
  (:meth:`~tournoyons_gui.arbitre.store.interfaces.InterfaceStore.interfaces_for`). Kept by
  ``add_interface`` and ``update_interface``, in their transaction.
- each seat's copy of its game's ``created_at`` and ``set_name`` (columns of ``seats``),
  which the seat filters page along (:mod:`.lists`): written by ``create_game``; the
  upgrade to schema 12 copies them for the seats already there.

:func:`fill` (in :data:`.kept.FILLERS`) empties and fills the three tables anew from the
base rows and copies the games' time and Set into the seats that lack them (a bulk load
that wrote none): running it twice gives the same result.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from sqlalchemy import (
    Connection,
    Integer,
    String,
    Table,
    delete,
    func,
    insert,
    literal_column,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, mapped_column

from tournoyons_gui.arbitre.store.kept import FILLERS
from tournoyons_gui.arbitre.store.schema import Base, GameRow, InterfaceRow, SeatRow

__all__ = [
    "InterfaceSetRow",
    "SetCountRow",
    "TournamentEndsRow",
    "count_game",
    "fill",
    "game_over",
    "interface_set_rows",
    "set_interface_sets",
]


class SetCountRow(Base):
    """``set_counts``: how many games of Set ``set_name`` (its canonical name, as games
    hold it) the records hold, every status (see the module)."""

    __tablename__ = "set_counts"
    set_name: Mapped[str] = mapped_column(String(40), primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)


class TournamentEndsRow(Base):
    """``tournament_ends``: how many games of tournament ``tournament_id`` are over
    (see the module)."""

    __tablename__ = "tournament_ends"
    tournament_id: Mapped[str] = mapped_column(String(12), primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)


class InterfaceSetRow(Base):
    """``interface_sets``: registered interface ``interface_id`` draws Set ``set_name``
    (canonical name); the primary key leads with the Set, so the interfaces of one Set
    are one range of it (see the module)."""

    __tablename__ = "interface_sets"
    set_name: Mapped[str] = mapped_column(String(40), primary_key=True)
    interface_id: Mapped[str] = mapped_column(String(12), primary_key=True)


_SET_COUNTS = cast(Table, SetCountRow.__table__)
_INTERFACE_SETS = cast(Table, InterfaceSetRow.__table__)
_TOURNAMENT_ENDS = cast(Table, TournamentEndsRow.__table__)
_GAMES = cast(Table, GameRow.__table__)
_SEATS = cast(Table, SeatRow.__table__)
_INTERFACES = cast(Table, InterfaceRow.__table__)


def count_game(connection: Connection, set_name: str) -> None:
    """Count one more game of ``set_name`` in ``set_counts`` (an upsert: the first game
    of a Set makes its row), in the caller's transaction."""
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(_SET_COUNTS).values(set_name=set_name, games=1)
    connection.execute(
        statement.on_conflict_do_update(
            index_elements=[_SET_COUNTS.c.set_name],
            set_={"games": _SET_COUNTS.c.games + 1},
        )
    )


def game_over(connection: Connection, game_id: str) -> None:
    """Count one more game over in ``tournament_ends`` for the tournament of game
    ``game_id`` (nothing for a game outside one), in the caller's transaction (the one
    that ends the game)."""
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(_TOURNAMENT_ENDS).from_select(
        ["tournament_id", "games"],
        select(_GAMES.c.tournament_id, literal_column("1")).where(
            _GAMES.c.id == game_id, _GAMES.c.tournament_id.is_not(None)
        ),
    )
    connection.execute(
        statement.on_conflict_do_update(
            index_elements=[_TOURNAMENT_ENDS.c.tournament_id],
            set_={"games": _TOURNAMENT_ENDS.c.games + 1},
        )
    )


def interface_set_rows(interface_id: str, sets: Iterable[Any]) -> list[dict[str, str]]:
    """Return the ``interface_sets`` rows of an interface drawing ``sets`` (its JSON
    list of Set names; anything else in it is left out), each Set once."""
    names = dict.fromkeys(str(name) for name in sets if isinstance(name, str) and name)
    return [{"set_name": name, "interface_id": interface_id} for name in names]


def set_interface_sets(connection: Connection, interface_id: str, sets: Iterable[Any]) -> None:
    """Make ``interface_sets`` say that ``interface_id`` draws ``sets``, in the caller's
    transaction."""
    connection.execute(
        delete(_INTERFACE_SETS).where(_INTERFACE_SETS.c.interface_id == interface_id)
    )
    rows = interface_set_rows(interface_id, sets)
    if rows:
        connection.execute(insert(_INTERFACE_SETS), rows)


def fill(connection: Connection) -> None:
    """Fill ``set_counts``, ``tournament_ends`` and ``interface_sets`` anew from ``games``
    and ``interfaces``,
    and copy each game's ``created_at`` and ``set_name`` into its seats that lack them
    (see the module), in the caller's transaction."""
    connection.execute(
        update(_SEATS)
        .where(_SEATS.c.created_at.is_(None))
        .values(
            created_at=select(_GAMES.c.created_at)
            .where(_GAMES.c.id == _SEATS.c.game_id)
            .scalar_subquery(),
            set_name=select(_GAMES.c.set_name)
            .where(_GAMES.c.id == _SEATS.c.game_id)
            .scalar_subquery(),
        )
    )
    connection.execute(delete(_SET_COUNTS))
    connection.execute(
        insert(_SET_COUNTS).from_select(
            ["set_name", "games"],
            select(_GAMES.c.set_name, func.count()).group_by(_GAMES.c.set_name),
        )
    )
    connection.execute(delete(_TOURNAMENT_ENDS))
    connection.execute(
        insert(_TOURNAMENT_ENDS).from_select(
            ["tournament_id", "games"],
            select(_GAMES.c.tournament_id, func.count())
            .where(_GAMES.c.tournament_id.is_not(None), _GAMES.c.status != "playing")
            .group_by(_GAMES.c.tournament_id),
        )
    )
    connection.execute(delete(_INTERFACE_SETS))
    rows = [
        row
        for interface_id, sets in connection.execute(
            select(_INTERFACES.c.id, _INTERFACES.c.sets)
        ).all()
        for row in interface_set_rows(interface_id, sets if isinstance(sets, list) else [])
    ]
    if rows:
        connection.execute(insert(_INTERFACE_SETS), rows)


FILLERS.append(fill)
