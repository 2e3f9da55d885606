"""Finished games packed, old logs dropped: the background work that keeps the records at
a tenth of the disk (:mod:`~tournoyons_gui.arbitre.store.archives` says how a game is
packed and read back).

One worker of the database at a time (a slot, ``compaction/1``, held while it works)
walks the finished games that still have rows of moves or exchanges, by id, a batch at a
time, and packs each one: the games that just ended, the rows a late callback added to a
game packed before, and, after an upgrade, every game of an older database (a batch per
transaction while the server serves: killed, it resumes with the games not yet packed;
nothing is lost or doubled, see the store). A move's Turn is left out of the document
when the Set's rules give it back exactly, replaying the game from its first Turn
(:func:`replayer`), checked game by game: a Set whose rules do not (an added Set's
referee) keeps its Turns.

``serve --keep-logs DAYS``: the same worker drops the engine exchanges of the games that
ended more than ``DAYS`` days ago (the moves and the result stay); the game's log page
says so.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable, Sequence
from typing import Any

import orjson

from tournoyons_gui.arbitre.store import Store
from tournoyons_gui.arbitre.store.archives import TurnsDeriver, pack
from tournoyons_gui.arbitre.store.packed import Compactable
from tournoyons_gui.arbitre.turns import turn_from, turn_json

__all__ = ["BATCH", "Compactor", "replayer"]

log = logging.getLogger(__name__)

#: Games packed per transaction.
BATCH = 50
#: Seconds between two looks when nothing is left to pack.
IDLE = 5.0
#: Seconds the compaction slot is held (renewed at every batch).
SLOT_SECONDS = 60.0


def _stored(turns: Any) -> Any:
    """Return ``turns`` as the store gives them back: JSON's own values (tuples as lists,
    keys as text)."""
    return orjson.loads(orjson.dumps(turns, option=orjson.OPT_NON_STR_KEYS))


def replayer(lookup: Callable[[str], Any]) -> TurnsDeriver:
    """Return the function replaying a game's Turns with the rules ``lookup(set_name)``
    gives (a played Set, its ``arbitre`` rules): each move's Turn is its kept one where
    there is one, else the rules' play of its value on the Turn before
    (:meth:`~tournoyons_gui.interfaces.plugin.Rules.play`, as the game master applies
    them), from the first Turn; ``None`` when the Set has no rules here or refuses a
    value."""

    def replay(
        set_name: str,
        first: dict[str, Any],
        values: Sequence[str],
        kept: Sequence[dict[str, Any] | None] = (),
    ) -> list[dict[str, Any]] | None:
        played = lookup(set_name)
        rules = getattr(played, "arbitre", None) if played is not None else None
        if not first or (rules is None and not all(kept)):
            return None
        try:
            turn = turn_from(first)
            turns = []
            for index, value in enumerate(values):
                known = kept[index] if index < len(kept) else None
                if known is not None:
                    turns.append(known)
                    turn = turn_from(known)
                    continue
                if rules is None:
                    return None
                turn = rules.play(turn.state, value)
                turns.append(_stored(turn_json(turn)))
        except Exception:
            return None
        return turns

    return replay


def turns_to_keep(
    replay: TurnsDeriver, set_name: str, first: dict[str, Any], moves: Sequence[Any]
) -> list[dict[str, Any] | None]:
    """Return the Turns a packed game keeps: each move's where the rules' play of its
    value on the Turn before does not give it back exactly (a deal drawn at random, an
    added Set's referee), else ``None``; every Turn when the rules are not here."""
    kept: list[dict[str, Any] | None] = []
    before = first
    for move in moves:
        again = replay(set_name, before, [move.value], [None])
        kept.append(None if again == [move.turn] else move.turn)
        before = move.turn
    return kept


class Compactor:
    """The packing of finished games and the dropping of old logs for one worker (see the
    module): ``owner`` the worker's name, ``keep_logs`` the days an engine exchange is
    kept after its game's end (``None``: forever)."""

    def __init__(
        self,
        store: Store,
        lookup: Callable[[str], Any],
        owner: str,
        *,
        keep_logs: float | None = None,
        batch: int = BATCH,
    ) -> None:
        self.store = store
        self.replay = replayer(lookup)
        self.owner = owner
        self.keep_logs = keep_logs
        self.batch = batch
        self._after = ""
        self._task: asyncio.Task[None] | None = None
        # The store replays with it the Turns a packed game left out.
        store.derive_turns = self.replay
        #: Games packed and logs dropped by this worker (for the tests and the benchmark).
        self.packed = 0
        self.dropped = 0

    async def pack(self, game: Compactable) -> tuple[Compactable, bytes, int]:
        """Return ``game`` packed for :meth:`~.store.archives.ArchiveStore.compact`:
        ``(game, its document, the Turns kept in it)``."""
        kept = turns_to_keep(self.replay, game.set_name, game.first, game.moves)
        # Zstandard lets go of the interpreter while it compresses: in a thread, the
        # server answers meanwhile.
        data = await asyncio.to_thread(
            pack,
            game.created_at,
            game.moves,
            game.exchanges,
            first=game.first,
            turn=game.turn,
            kept_turns=kept,
            logs_dropped_at=game.logs_dropped_at,
        )
        return game, data, sum(turn is not None for turn in kept)

    async def compact(self, game_ids: Sequence[str]) -> int:
        """Pack the finished games ``game_ids`` (those in play are left); return how
        many were written."""
        packed = []
        for game_id in game_ids:
            game = await self.store.compactable(game_id)
            if game is not None:
                packed.append(await self.pack(game))
        written = await self.store.compact(packed) if packed else 0
        self.packed += written
        return written

    async def step(self) -> int:
        """Pack one batch of finished games with rows, from where the last batch ended
        (from the start again once the end is reached); then, with ``keep_logs``, drop
        one batch of old logs. Return the games written."""
        # The kept aggregates' fill after an upgrade first, a step per transaction.
        filled = await self.store.fill_kept_step()
        ids = await self.store.to_compact(self._after, self.batch)
        self._after = ids[-1] if len(ids) >= self.batch else ""
        written = await self.compact(ids) if ids else 0
        if self.keep_logs is not None:
            written += await self.drop_logs()
        return written + int(filled)

    async def drop_logs(self, now: dt.datetime | None = None) -> int:
        """Drop the exchanges of up to one batch of games that ended more than
        ``keep_logs`` days before ``now``; return how many."""
        if self.keep_logs is None:
            return 0
        at = now or self.store.now()
        before = at - dt.timedelta(days=self.keep_logs)
        written = await self.store.drop_exchanges(
            await self.store.logs_to_drop(before, self.batch), at
        )
        self.dropped += written
        return written

    def start(self) -> None:
        """Start :meth:`run` in a task of this process's event loop."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self.run(), name="compaction")

    async def stop(self) -> None:
        """Stop :meth:`run` (its slot given up), if it was started."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def run(self) -> None:
        """Work while this worker holds the compaction slot: a batch, then the next at
        once while there is work, else a look every :data:`IDLE` seconds."""
        slot: str | None = None
        try:
            while True:
                busy = False
                try:
                    slot = await self.store.take_slot("compaction", 1, self.owner, SLOT_SECONDS)
                    if slot is not None:
                        busy = await self.step() > 0
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("packing finished games")
                await asyncio.sleep(0.01 if busy else IDLE)
        finally:
            if slot is not None:
                try:
                    await asyncio.shield(self.store.release_slot(slot, self.owner))
                except Exception:
                    log.debug("giving up the compaction slot", exc_info=True)
