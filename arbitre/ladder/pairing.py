"""Who meets whom on a Set's ladder: a pure function of the engines that wait (their
rating, their ladder games, the pairs they are in and may be in, their rest, since when
they wait), run by the scheduler at every step (:mod:`.scheduler`).

**The rule**, lichess's pools' (``modules/pool/src/main/MatchMaking.scala``: a pairing's
score is the rating difference less a bonus for the waves a player has waited, allowed
under a bound), in openskill's units:

- an engine is free when it holds fewer pairs than its concurrency and its rest is over;
- the free engines are taken in order of their ladder games in the Set (the fewest
  first), then of how long they have waited (the longest first), then of id;
- each one taken meets the free engine nearest in rating (mu) within its **window**,
  ``(2 beta + sigma_a + sigma_b) * (1 + waited / WIDEN_EVERY)``: two engines' mus are
  near when they differ by less than the performance spread of one game (openskill's
  ``beta``, 25/6, on each side) and their uncertainties; the window doubles every
  :data:`WIDEN_EVERY` seconds that the longer waiter of the two has waited, so an
  engine far from every other (the strongest, a new one) meets someone after a while;
- an engine is never paired with itself, and is in one new pair per step;
- at a table of four (``seats`` 4), the engine taken sits with the (up to) three free
  engines nearest in rating within the window, the seats left filled by the Set's
  built-in engine (``""``); a table needs two registered engines;
- at most ``room`` pairs are made (the Set's games in flight are bounded).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = ["BETA", "FILLER", "WIDEN_EVERY", "Waiting", "pairings", "window"]

#: openskill's beta (Plackett-Luce's default, 25/6): the spread of one game's performance.
BETA = float(PlackettLuce().beta)
#: Seconds of waiting that double an engine's window.
WIDEN_EVERY = 10.0
#: A seat at a table of four left to the Set's built-in engine.
FILLER = ""


@dataclass(frozen=True, slots=True)
class Waiting:
    """An engine on a Set's ladder as the pairing sees it: its ``engine`` id, its rating
    (``mu``, ``sigma``), its ladder ``games`` in the Set, the ladder pairs it is in
    (``held``) and may be in at once (``concurrency``), the end of its rest
    (``rest_until``, ``None``: none) and since when it waits (``since``: its last ladder
    game's end, or its coming on the ladder)."""

    engine: str
    mu: float
    sigma: float
    games: int
    held: int
    concurrency: int
    rest_until: dt.datetime | None
    since: dt.datetime

    def free(self, now: dt.datetime) -> bool:
        """Whether it may be in one more pair at ``now``."""
        return self.held < self.concurrency and (self.rest_until is None or self.rest_until <= now)

    def waited(self, now: dt.datetime) -> float:
        """Return the seconds it has waited at ``now`` (0 for a time to come)."""
        return max(0.0, (now - self.since).total_seconds())


def window(first: Waiting, second: Waiting, now: dt.datetime) -> float:
    """Return how far apart (in mu) ``first`` and ``second`` may be to meet at ``now``:
    ``(2 beta + sigma_a + sigma_b) * (1 + waited / WIDEN_EVERY)``, ``waited`` the longer
    of their waits (see the module)."""
    waited = max(first.waited(now), second.waited(now))
    return (2 * BETA + first.sigma + second.sigma) * (1 + waited / WIDEN_EVERY)


def pairings(
    waiting: Sequence[Waiting], *, now: dt.datetime, room: int, seats: int = 2
) -> list[tuple[str, ...]]:
    """Return the pairs (tables at four ``seats``) to make now, each the engines in the
    seats of its first game (``FILLER`` for the Set's built-in engine at a table), at
    most ``room`` of them (see the module). ``waiting`` may hold an engine once; engines
    that are not free are left out."""
    free = sorted(
        (w for w in waiting if w.free(now)),
        key=lambda w: (w.games, w.since, w.engine),
    )
    used: set[str] = set()
    made: list[tuple[str, ...]] = []
    for first in free:
        if len(made) >= room:
            break
        if first.engine in used:
            continue
        near = sorted(
            (
                other
                for other in free
                if other.engine not in used
                and other.engine != first.engine
                and abs(other.mu - first.mu) <= window(first, other, now)
            ),
            key=lambda other: (abs(other.mu - first.mu), other.games, other.since, other.engine),
        )
        if not near:
            continue
        table = [first, *near[: max(1, seats - 1)]]
        used.update(w.engine for w in table)
        engines = [w.engine for w in table]
        made.append(tuple(engines + [FILLER] * (seats - len(engines))))
    return made
