"""What a game's end does to the standing ladder (:mod:`.ladder` has its tables), in
:meth:`~.games.GameStore.finish_game`'s transaction, after the engines' records
(:func:`~.kept_records.keep_game_end`): the standings of its registered engines take
their new rating (any game of their Set); a ladder game also frees its pair for its next
leg (or ends it and gives its engines' slots back), starts each engine's rest, counts its
faults in a row (:data:`~.ladder.FAULTS_TO_PAUSE` pause it, with the last fault's kind,
message and game; a game played without one ends the run) and its meetings. Rows are
locked in the order the other writes lock them (the pair, then the engines in order of
id, then the standings): no deadlock with a pair being made or another game's end.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select, update

from tournoyons_gui.arbitre.store.ladder import (
    ENGINES,
    FAULTS_TO_PAUSE,
    GAMES,
    LADDER_GAMES,
    MEETINGS,
    PAIRS,
    PAUSED,
    PROVISIONAL,
    RANKED,
    STANDINGS,
    insert_or,
    ordinal,
    release_slots,
    standing_record,
    tier_of,
)

__all__ = ["LadderSeat", "keep_ladder_end"]


@dataclass(frozen=True, slots=True)
class LadderSeat:
    """A seat of a game that ends, as the ladder reads it: its ``index``, its
    ``registration`` (``""`` none), its ``rank`` (``None``: none), its ``fault`` and the
    ``error`` that says it."""

    index: int
    registration: str
    rank: int | None
    fault: str
    error: str


def _refresh_standings(connection: Connection, set_name: str, engines: Sequence[str]) -> None:
    """Copy the engines' new records in the Set into their standings (those that have
    one), their tier following their rated games."""
    for engine in engines:
        row = connection.execute(
            select(STANDINGS.c.tier).where(
                STANDINGS.c.engine_id == engine, STANDINGS.c.set_name == set_name
            )
        ).one_or_none()
        if row is None:
            continue
        record = standing_record(connection, engine, set_name)
        tier = row.tier
        if tier in (RANKED, PROVISIONAL):
            tier = tier_of(record["rated"], on=True, paused=False)
        connection.execute(
            update(STANDINGS)
            .where(STANDINGS.c.engine_id == engine, STANDINGS.c.set_name == set_name)
            .values(tier=tier, rank_key=-ordinal(record["mu"], record["sigma"]), **record)
        )


def _against(first: LadderSeat, second: LadderSeat, winner: int | None, seats: int) -> str:
    """Return how a game went for ``first`` against ``second``: ``won``, ``drawn`` or
    ``lost``; at more than two seats by their ranks; ``""`` when it cannot be told."""
    if seats == 2:
        if winner is None:
            return "drawn"
        return "won" if winner == first.index else "lost"
    if first.rank is None or second.rank is None:
        return ""
    if first.rank == second.rank:
        return "drawn"
    return "won" if first.rank < second.rank else "lost"


def keep_ladder_end(
    connection: Connection,
    *,
    game_id: str,
    clock: Callable[[], dt.datetime],
    status: str,
    result: str,
    winner: int | None,
    seats: Sequence[LadderSeat],
) -> None:
    """Keep the ladder up to date as a game ends (see the module), in the caller's
    transaction, after the engines' records (:func:`.kept_records.keep_game_end`)."""
    registered = sorted({s.registration for s in seats if s.registration})
    if not registered:
        return
    place = connection.execute(
        select(LADDER_GAMES.c.set_name, LADDER_GAMES.c.pair).where(
            LADDER_GAMES.c.game_id == game_id
        )
    ).one_or_none()
    if place is None:
        set_name = connection.scalar(select(GAMES.c.set_name).where(GAMES.c.id == game_id))
        if set_name is not None:
            _refresh_standings(connection, str(set_name), registered)
        return
    at = clock()
    set_name = str(place.set_name)
    pair = connection.execute(
        select(PAIRS.c.engines, PAIRS.c.games, PAIRS.c.made, PAIRS.c.status)
        .where(PAIRS.c.set_name == set_name, PAIRS.c.number == place.pair)
        .with_for_update()
    ).one()
    laddered = sorted({str(e) for e in pair.engines if e})
    over = pair.status == "open" and pair.made >= pair.games
    changes: dict[str, Any] = {"playing": None}
    if over:
        changes.update(status="over", ended_at=at)
    connection.execute(
        update(PAIRS)
        .where(PAIRS.c.set_name == set_name, PAIRS.c.number == place.pair)
        .values(**changes)
    )
    played = status == "over" and result != "error"
    by_engine = {s.registration: s for s in seats if s.registration in laddered}
    for engine in laddered:
        _engine_end(connection, engine, by_engine.get(engine), status, game_id, at)
    if over:
        release_slots(connection, laddered)
    _refresh_standings(connection, set_name, registered)
    for engine in laddered:
        connection.execute(
            update(STANDINGS)
            .where(STANDINGS.c.engine_id == engine, STANDINGS.c.set_name == set_name)
            .values(games=STANDINGS.c.games + 1, since=at, last_game=game_id)
        )
    if played:
        _meet(connection, set_name, list(by_engine.values()), winner, len(seats))


def _engine_end(
    connection: Connection,
    engine: str,
    seat: LadderSeat | None,
    status: str,
    game_id: str,
    at: dt.datetime,
) -> None:
    """An engine's ladder game ended: its rest starts; a fault counts in its faults in a
    row (pausing it at :data:`FAULTS_TO_PAUSE`, the reason kept), a game played without
    one ends the run; a game interrupted changes neither."""
    row = connection.execute(
        select(ENGINES.c.ladder_rest, ENGINES.c.ladder_faults, ENGINES.c.ladder_paused).where(
            ENGINES.c.id == engine
        )
    ).one_or_none()
    if row is None:
        return
    changes: dict[str, Any] = {
        "ladder_rest_until": at + dt.timedelta(seconds=max(0, int(row.ladder_rest)))
    }
    if seat is not None and seat.fault:
        faults = int(row.ladder_faults) + 1
        changes["ladder_faults"] = faults
        if faults >= FAULTS_TO_PAUSE and not row.ladder_paused:
            changes.update(
                ladder_paused=seat.fault[:16],
                ladder_reason=seat.error[:2000] or seat.fault,
                ladder_paused_game=game_id,
            )
            connection.execute(
                update(STANDINGS)
                .where(STANDINGS.c.engine_id == engine, STANDINGS.c.tier < PAUSED)
                .values(tier=PAUSED)
            )
    elif status == "over":
        changes["ladder_faults"] = 0
    connection.execute(update(ENGINES).where(ENGINES.c.id == engine).values(**changes))


def _meet(
    connection: Connection,
    set_name: str,
    seats: Sequence[LadderSeat],
    winner: int | None,
    count: int,
) -> None:
    """Count a ladder game played in the meetings of each two registered engines."""
    for first in seats:
        for second in seats:
            if first.registration == second.registration:
                continue
            went = _against(first, second, winner, count)
            if not went:
                continue
            counts = {name: int(name == went) for name in ("won", "drawn", "lost")}
            connection.execute(
                insert_or(connection, MEETINGS)
                .values(
                    set_name=set_name,
                    engine_id=first.registration,
                    opponent=second.registration,
                    games=1,
                    **counts,
                )
                .on_conflict_do_update(
                    index_elements=[MEETINGS.c.set_name, MEETINGS.c.engine_id, MEETINGS.c.opponent],
                    set_={"games": MEETINGS.c.games + 1, went: MEETINGS.c[went] + 1},
                )
            )
