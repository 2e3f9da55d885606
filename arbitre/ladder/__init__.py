"""The standing ladder: registered engines whose owners put them on it meet all the time
in every Set they play, in pairs of games (one opening or deal, seats swapped), between
engines near in rating; the leaderboard ranks them by the rating their page already
charts. Its parts:

- :mod:`.settings`: what an owner sets (``ladder``, ``ladder_concurrency``,
  ``ladder_rest``) and their bounds;
- :mod:`.pairing`: who meets whom (a pure function: ratings, games, slots, rests, waits);
- :mod:`.scheduler`: a step per Set under the store's lease, at every scan of a driver
  run with ``serve --ladder`` (no process owns the ladder);
- :mod:`.service`: the leaderboard and the standings as the pages and the API read them.

The records (pairs, standings, meetings, faults) are the store's
(:mod:`~tournoyons_gui.arbitre.store.ladder`): state that matters lives in the database.
"""

from __future__ import annotations

from tournoyons_gui.arbitre.ladder.pairing import Waiting, pairings, window
from tournoyons_gui.arbitre.ladder.scheduler import LadderScheduler
from tournoyons_gui.arbitre.ladder.service import BoardPage, LadderBoard, entry_json
from tournoyons_gui.arbitre.ladder.settings import DEFAULT_GAMES, MAX_CONCURRENCY, MAX_REST

__all__ = [
    "DEFAULT_GAMES",
    "MAX_CONCURRENCY",
    "MAX_REST",
    "BoardPage",
    "LadderBoard",
    "LadderScheduler",
    "Waiting",
    "entry_json",
    "pairings",
    "window",
]
