"""Tournaments between engines: registered engines (:mod:`.registrations`), tournaments and
their standings (:mod:`.service`), their scheduling over the workers (:mod:`.scheduler`),
an engine's record (:mod:`.engine_record`)."""

from __future__ import annotations

from tournoyons_gui.arbitre.tournaments.registrations import (
    WRONG_TOKEN,
    EntrantSpec,
    TournamentError,
    builtin_registration,
)
from tournoyons_gui.arbitre.tournaments.service import (
    FORMATS,
    MAX_ENTRANTS,
    Tournaments,
    standing_json,
    table_standing_json,
)

__all__ = [
    "FORMATS",
    "MAX_ENTRANTS",
    "WRONG_TOKEN",
    "EntrantSpec",
    "TournamentError",
    "Tournaments",
    "builtin_registration",
    "standing_json",
    "table_standing_json",
]
