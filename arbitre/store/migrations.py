"""The schema's upgrades: :data:`MIGRATIONS` takes a database of an older schema version
to this program's (:data:`~.schema.SCHEMA_VERSION`), step by step, never dropping a record.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["MIGRATIONS"]

# Upgrades: MIGRATIONS[v] takes a database from version v to v + 1. New tables are made by
# ``create_all`` before the upgrades run: version 2 adds ``added_sets``, ``pending``,
# ``engines``, ``tournaments`` and ``entrants``, and the columns below; version 3 each
# seat's rank (games of any number of seats); version 4 adds ``rooms`` and
# ``room_referees`` (timi rooms), made by ``create_all``: its step has no statement.
# Version 5 adds ``interfaces`` (registered graphical interfaces), made by ``create_all``
# too. Version 6 each seat's tournament entrant and total score (Tarot's tournaments at
# tables of four); version 7 the registrations' consent to open tournaments, call key and
# seat kind, and ``organisers`` (for a public Arbitre). Version 8 adds ``hits`` and
# ``slots`` (limits and checks counted across the workers), made by ``create_all``, and the
# indexes the lists are paged along. Version 9 adds ``matches`` and ``match_games``
# (``play``'s matches), made by ``create_all`` with their indexes, and each seat's fault.
# Version 10 is the lists' at a million games (another branch: its steps land with it);
# version 11 adds ``checks`` (interface checks kept in the store), made by ``create_all``,
# and each room's referee and its operator status. Version 12 is the lists and records at a
# million games: indexes and kept aggregates, filled from the rows already there by
# :data:`BACKFILLS` (version 10 had no step of its own: the branch that meant to fill it
# landed as this one). Version 13 binds a room's or a table's game to the process holding
# its players' connections (``games.bound`` and ``holder``, and ``workers``: who is alive
# and holds what). Version 14 is the standing ladder: each engine's ladder settings and
# state, each game's ladder mark; its tables (``ladder_sets``, ``ladder_pairs``,
# ``ladder_games``, ``ladder_standings``, ``ladder_meetings``, ``ladder_days``) are made by
# ``create_all``, empty: no engine is on the ladder until its owner puts it there.
MIGRATIONS: dict[int, Sequence[str]] = {
    1: (
        "ALTER TABLE games ADD COLUMN lease_owner VARCHAR(16)",
        "ALTER TABLE games ADD COLUMN lease_until TIMESTAMP WITH TIME ZONE",
        "ALTER TABLE games ADD COLUMN tournament_id VARCHAR(12)",
        "ALTER TABLE games ADD COLUMN round INTEGER",
        "ALTER TABLE games ADD COLUMN pairing INTEGER",
        "ALTER TABLE games ADD COLUMN entrant1 INTEGER",
        "ALTER TABLE games ADD COLUMN entrant2 INTEGER",
        "ALTER TABLE seats ADD COLUMN registration VARCHAR(12) NOT NULL DEFAULT ''",
        "CREATE INDEX IF NOT EXISTS ix_games_lease_until ON games (lease_until)",
        "CREATE INDEX IF NOT EXISTS ix_games_tournament_id ON games (tournament_id)",
        "CREATE UNIQUE INDEX IF NOT EXISTS ix_games_tournament_pairing"
        " ON games (tournament_id, pairing)",
    ),
    2: ("ALTER TABLE seats ADD COLUMN rank INTEGER",),
    3: (),
    4: (),
    5: (
        "ALTER TABLE seats ADD COLUMN entrant INTEGER",
        "ALTER TABLE seats ADD COLUMN score INTEGER",
    ),
    6: (
        "ALTER TABLE engines ADD COLUMN open_entry BOOLEAN NOT NULL DEFAULT FALSE",
        "ALTER TABLE engines ADD COLUMN call_key VARCHAR(64) NOT NULL DEFAULT ''",
        "ALTER TABLE engines ADD COLUMN kind VARCHAR(16) NOT NULL DEFAULT 'engine'",
    ),
    7: (
        "CREATE INDEX IF NOT EXISTS ix_games_created_id ON games (created_at, id)",
        "CREATE INDEX IF NOT EXISTS ix_tournaments_created_id ON tournaments (created_at, id)",
    ),
    8: ("ALTER TABLE seats ADD COLUMN fault VARCHAR(16) NOT NULL DEFAULT ''",),
    9: (),
    10: (
        "ALTER TABLE rooms ADD COLUMN referee VARCHAR(60) NOT NULL DEFAULT ''",
        "ALTER TABLE rooms ADD COLUMN referee_op BOOLEAN",
    ),
    11: (
        # --- the lists at a million games: seats copy their game's time and
        # Set, which the seat filters page along; a Set's games and the games in play
        # have indexes of their own. The kept counts are filled by kept_lists.fill
        # (kept.FILLERS) after these statements.
        "ALTER TABLE seats ADD COLUMN created_at TIMESTAMP WITH TIME ZONE",
        "ALTER TABLE seats ADD COLUMN set_name VARCHAR(40)",
        "UPDATE seats SET"
        " created_at = (SELECT games.created_at FROM games WHERE games.id = seats.game_id),"
        " set_name = (SELECT games.set_name FROM games WHERE games.id = seats.game_id)",
        "CREATE INDEX IF NOT EXISTS ix_seats_name_newest"
        " ON seats (lower(name), created_at, game_id)",
        "CREATE INDEX IF NOT EXISTS ix_seats_set_name_newest"
        " ON seats (set_name, lower(name), created_at, game_id)",
        "CREATE INDEX IF NOT EXISTS ix_seats_url_newest"
        " ON seats (substr(url, 1, 500), created_at, game_id)",
        "CREATE INDEX IF NOT EXISTS ix_seats_set_url_newest"
        " ON seats (set_name, substr(url, 1, 500), created_at, game_id)",
        "CREATE INDEX IF NOT EXISTS ix_games_set_created_id ON games (set_name, created_at, id)",
        # ix_games_set_created_id leads with the Set: the Set's own index is one more
        # write per game for nothing.
        "DROP INDEX IF EXISTS ix_games_set_name",
        "CREATE INDEX IF NOT EXISTS ix_games_in_play ON games (created_at, id, lease_until)"
        " WHERE status = 'playing'",
        # --- end of the lists' statements.
        # --- the records at a million games: a registered engine's games
        # paged from its seats, a tournament's games streamed in the order made; the
        # kept records (engine_sets, engine_opponents, engine_opponent_ratings,
        # engine_rating_points) are made by create_all, filled by .kept_records.
        "CREATE INDEX IF NOT EXISTS ix_seats_registration_id ON seats (registration, id)",
        "CREATE INDEX IF NOT EXISTS ix_games_tournament_created"
        " ON games (tournament_id, created_at, id)",
    ),
    12: (
        # Games bound to the process holding their players' connections (``workers`` is
        # made by create_all). A game of a room or a table in play during the upgrade is
        # bound by its seats' kind; one whose players were connected (a room's, a
        # table's clients) is held by a process that is gone (``-``, no worker's name):
        # the worker that takes it over ends it as "server error". A Tarot game made from
        # the web still waiting for its clients is held by nobody yet: it waits on.
        "ALTER TABLE games ADD COLUMN bound VARCHAR(16)",
        "ALTER TABLE games ADD COLUMN holder VARCHAR(16)",
        "UPDATE games SET bound = (SELECT min(seats.kind) FROM seats"
        " WHERE seats.game_id = games.id AND seats.kind IN ('irc', 'maitretarot'))"
        " WHERE status = 'playing'",
        "UPDATE games SET holder = '-' WHERE status = 'playing' AND bound IS NOT NULL"
        " AND EXISTS (SELECT 1 FROM seats WHERE seats.game_id = games.id"
        " AND seats.kind = games.bound AND seats.url <> '')",
    ),
    13: (
        "ALTER TABLE games ADD COLUMN ladder BOOLEAN NOT NULL DEFAULT FALSE",
        "ALTER TABLE engines ADD COLUMN ladder BOOLEAN NOT NULL DEFAULT FALSE",
        "ALTER TABLE engines ADD COLUMN ladder_concurrency INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE engines ADD COLUMN ladder_rest INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE engines ADD COLUMN ladder_held INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE engines ADD COLUMN ladder_rest_until TIMESTAMP WITH TIME ZONE",
        "ALTER TABLE engines ADD COLUMN ladder_faults INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE engines ADD COLUMN ladder_paused VARCHAR(16) NOT NULL DEFAULT ''",
        "ALTER TABLE engines ADD COLUMN ladder_reason TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE engines ADD COLUMN ladder_paused_game VARCHAR(12) NOT NULL DEFAULT ''",
    ),
    # Version 15: finished games packed (``game_archives``, made by ``create_all``): the
    # games of an older database are packed after the upgrade, a batch at a time while
    # the server serves (:mod:`~tournoyons_gui.arbitre.compaction`); the tournaments'
    # standings kept (``tournament_scores``, ``tournament_pairs``, made by
    # ``create_all``), filled the same way (``kept_fills``; ``base._FILLS_SINCE``).
    14: (),
}
