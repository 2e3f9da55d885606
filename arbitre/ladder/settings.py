"""What an engine's owner sets of its ladder (its registration's ``ladder``,
``ladder_concurrency``, ``ladder_rest``) and their bounds, checked where a registration
is made or changed (:mod:`~tournoyons_gui.arbitre.tournaments.registrations`) and given to
the API's schema (:mod:`~tournoyons_gui.arbitre.web.bodies`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tournoyons_gui.arbitre.store import Engine

__all__ = [
    "CONCURRENCY_SCHEMA",
    "DEFAULT_GAMES",
    "MAX_CONCURRENCY",
    "MAX_GAMES",
    "MAX_REST",
    "REST_SCHEMA",
    "check_concurrency",
    "check_ladder",
    "check_rest",
    "ladder_fields",
]

#: The most ladder pairs an engine may be in at once (its ``ladder_concurrency``, 1 the
#: default: one ladder game at a time).
MAX_CONCURRENCY = 8
#: The longest rest an engine may ask after each ladder game: a day, in seconds.
MAX_REST = 86_400
#: Ladder games in flight per Set by default (``serve --ladder-games``), and the most.
DEFAULT_GAMES = 4
MAX_GAMES = 500
#: The settings' bounds as the API's schema says them (:mod:`~tournoyons_gui.arbitre.web.bodies`).
CONCURRENCY_SCHEMA: dict[str, Any] = {"minimum": 1, "maximum": MAX_CONCURRENCY}
REST_SCHEMA: dict[str, Any] = {"minimum": 0, "maximum": MAX_REST}


def check_ladder(value: Any) -> bool:
    """Return ``ladder`` when it is ``true`` or ``false``; raise ``ValueError`` naming the
    field otherwise."""
    if type(value) is not bool:
        raise ValueError("ladder is true or false")
    return value


def check_concurrency(value: Any) -> int:
    """Return ``ladder_concurrency`` when it is a whole number 1 to :data:`MAX_CONCURRENCY`;
    raise ``ValueError`` naming the field otherwise."""
    if type(value) is not int or not 1 <= value <= MAX_CONCURRENCY:
        raise ValueError(f"ladder_concurrency is a whole number 1 to {MAX_CONCURRENCY}")
    return value


def check_rest(value: Any) -> int:
    """Return ``ladder_rest`` when it is a whole number of seconds 0 to :data:`MAX_REST`
    (a day); raise ``ValueError`` naming the field otherwise."""
    if type(value) is not int or not 0 <= value <= MAX_REST:
        raise ValueError(f"ladder_rest is a whole number of seconds 0 to {MAX_REST} (a day)")
    return value


def ladder_fields(engine: Engine) -> dict[str, Any]:
    """Return a registered engine's ladder settings and pause as its JSON gives them:
    ``ladder``, ``ladder_concurrency``, ``ladder_rest`` and ``ladder_paused`` (``{"fault",
    "reason", "game"}``: the last fault's kind, its message and its game; ``None`` when
    not paused)."""
    paused = None
    if engine.ladder_paused:
        paused = {
            "fault": engine.ladder_paused,
            "reason": engine.ladder_reason,
            "game": engine.ladder_paused_game,
        }
    return {
        "ladder": engine.ladder,
        "ladder_concurrency": engine.ladder_concurrency,
        "ladder_rest": engine.ladder_rest,
        "ladder_paused": paused,
    }
