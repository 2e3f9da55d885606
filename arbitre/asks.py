"""One place for every ask awaiting an answer: engines' callbacks, persons' moves, and
their relay between the workers of one database.

An ask is named by (``key``, ``move_id``): an engine request by the seat's secret ``Game``
id and its ``MoveId``, a person's ask by the seat token and the move number. The way of an
answer, from whoever sends it to the game's driver::

    web (/referee, /play) -> Asks.callback / Asks.person_move -> Store.answer (the first in
    time wins, whichever worker got it) -> the driver's future here, or over the bus to the
    worker that drives the game (Asks.heard) -> the seat's ask returns its Answer

On SQLite (one worker) engine callbacks are matched in memory, as nothing else can take
them; persons' moves are recorded in the store either way (so that ``/play`` on a page
reloaded after a restart still finds its ask). A duplicate or late answer is refused
(404) and logged against its game (decision 9); asks answered or given up are remembered
a while (the last 10,000 here, an hour in the store) for that.

The workers of one machine sharing a SQLite file (``serve --workers N``: ``routed``) match
engine callbacks in memory too, the driver's memory deciding: a callback that reaches a
worker not waiting for it is passed over the bus to the others (``callback``), and the one
waiting for it takes it (the first in time) and says so (``verdict``), which the engine's
answer then tells (200 or 404); no worker waiting for it: 404. No write per callback, as
in one process: an answer taken but not yet applied by a driver that dies is asked again
with the same ``MoveId`` by the worker that takes the game over.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tournoyons_gui.arbitre.catalogue import Catalogue
from tournoyons_gui.arbitre.live import Bus
from tournoyons_gui.arbitre.store import Received, Store, aware
from tournoyons_gui.arbitre.turns import turn_from
from tournoyons_gui.interfaces.plugin import ArbitreRules, IllegalMove
from tournoyons_gui.interfaces.protocol import Player

__all__ = ["POLL_EVERY", "Asks", "Callback", "PersonCheck"]

#: How often a driver looks in the store for an answer another worker recorded (seconds).
POLL_EVERY = 1.0
#: Seconds a worker waits for the others' verdict on a callback it passed on (routed), and
#: between two sendings of it (a datagram dropped, a worker busy a moment): a worker that
#: is gone says nothing but is known gone at once (its socket refuses).
VERDICT_WAIT = 10.0
VERDICT_AGAIN = 1.0
#: The verdicts given on callbacks passed on, remembered (a callback sent again gets the
#: same verdict, not a duplicate's).
VERDICTS_KEPT = 1000


@dataclass(frozen=True)
class Callback:
    """An answer taken: its ``value`` (an engine's trimmed and upper-cased, decision 5),
    the raw ``query``, the monotonic time it arrived (``at``), whether it came as a
    redirect to the Referee URL (decision 7), and when it was received (UTC, this host)."""

    value: str
    query: str
    at: float
    redirect: bool = False
    received: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))


@dataclass(frozen=True)
class PersonCheck:
    """What a person's value is checked against before it is taken: the Set's ``rules``,
    the game's ``state`` when asked, the ``player`` asked (decision 24)."""

    rules: ArbitreRules
    state: Mapping[str, Any]
    player: Player

    def check(self, value: str) -> None:
        """Raise :class:`IllegalMove` when ``value`` is not legal for the person now."""
        self.rules.person_value(self.state, self.player, value)


@dataclass
class _Waiting:
    future: asyncio.Future[Callback]
    game_id: str
    seat: int
    person: PersonCheck | None = None


class Asks:
    """The asks of one worker, over the shared ``store`` (the first answer wins there) and
    the ``bus`` (news of an answer to the worker that waits for it). ``shared``: several
    workers share the database (PostgreSQL); ``catalogue`` finds a game's rules when a
    person's move reaches a worker that does not drive the game."""

    RECENT = 10_000

    def __init__(
        self, store: Store, bus: Bus, catalogue: Catalogue, *, shared: bool, routed: bool = False
    ) -> None:
        self.store = store
        self.bus = bus
        self.catalogue = catalogue
        #: Engine callbacks are recorded in the store (workers of several machines).
        self.shared = shared and not routed
        #: Engine callbacks are matched in the drivers' memory over the bus (see module).
        self.routed = routed
        self._waiting: dict[tuple[str, str], _Waiting] = {}
        self._recent: OrderedDict[tuple[str, str], tuple[str, int]] = OrderedDict()
        self._verdicts: dict[str, tuple[asyncio.Future[bool | None], set[str], list[int]]] = {}
        self._given: OrderedDict[str, bool | None] = OrderedDict()
        self._nonces = itertools.count()

    # --- the drivers' side ---------------------------------------------------------------

    async def open(
        self,
        key: str,
        move_id: str,
        game_id: str,
        seat: int,
        seconds: float | None,
        *,
        stored: bool,
    ) -> Callback | None:
        """Record the ask in the store when ``stored`` (any worker may then take its
        answer), for ``seconds`` (``None``: ten years); return its answer when one was
        recorded already (a game taken over: apply it, ask nothing)."""
        if not stored:
            return None
        expires = self.store.now() + dt.timedelta(
            seconds=seconds if seconds is not None else 10 * 365 * 86400
        )
        found = await self.store.expect(key, move_id, game_id, seat, expires)
        return None if found is None else self._callback(found)

    def expect(
        self, key: str, move_id: str, game_id: str, seat: int, person: PersonCheck | None = None
    ) -> asyncio.Future[Callback]:
        """Wait here for (``key``, ``move_id``)'s answer; return the future it resolves. A
        ``person``'s answer is checked before it is taken."""
        future: asyncio.Future[Callback] = asyncio.get_running_loop().create_future()
        self._waiting[(key, move_id)] = _Waiting(future, game_id, seat, person)
        return future

    def forget(self, key: str, move_id: str) -> None:
        """Stop waiting for (``key``, ``move_id``) (answered, given up, or its game over)."""
        waiting = self._waiting.pop((key, move_id), None)
        if waiting is None:
            return
        if not waiting.future.done():
            waiting.future.cancel()
        self._recent[(key, move_id)] = (waiting.game_id, waiting.seat)
        while len(self._recent) > self.RECENT:
            self._recent.popitem(last=False)

    async def poll(self, key: str, move_id: str) -> Callback | None:
        """Return the answer another worker recorded (a missed bus message), if engine
        callbacks are recorded in the store (``shared``)."""
        return await self.read(key, move_id) if self.shared else None

    async def read(self, key: str, move_id: str) -> Callback | None:
        """Return the answer recorded in the store for (``key``, ``move_id``), if any."""
        found = await self.store.pending(key, move_id)
        return None if found is None or found.value is None else self._callback(found)

    def close_game(self, game_id: str) -> None:
        """End a finished game's asks here (the store closed them with the game's end,
        :meth:`~tournoyons_gui.arbitre.store.Store.finish_game`): an answer arriving later
        is refused as late and logged against the game."""
        for (key, move_id), waiting in list(self._waiting.items()):
            if waiting.game_id == game_id:
                self.forget(key, move_id)

    # --- the answering side: web -> asks -> store --------------------------------------

    async def callback(
        self, params: Mapping[str, str], query: str, *, redirect: bool = False
    ) -> bool:
        """Take an engine's callback (``params`` by lower-cased name, decision 5); return
        whether it answered an outstanding request (200) or was refused (404)."""
        key = params.get("game", "").strip()
        move_id = params.get("moveid", "").strip()
        value = params.get("value", "").strip().upper()
        waiting = self._waiting.get((key, move_id))
        if waiting is not None and waiting.person is not None:
            waiting = None  # a person's ask is answered by /play only
        answer = Callback(value, query, time.monotonic(), redirect)
        if self.shared:
            kind, found = await self.store.answer(key, move_id, value, query, redirect=redirect)
            if kind == "taken":
                if not self._resolve(key, move_id, answer):
                    await self._relay(key, move_id)
                return True
            where = (found.game_id, found.seat) if found else self._known(key, move_id)
            await self._refused(where, kind, move_id, query)
            return False
        if waiting is None and self.routed:
            verdict = await self._route(key, move_id, value, query, redirect)
            if verdict is not None:
                return verdict
        if waiting is None or waiting.future.done():
            kind = "duplicate" if waiting is not None else "late"
            await self._refused(self._known(key, move_id), kind, move_id, query)
            return False
        waiting.future.set_result(answer)
        return True

    async def _route(
        self, key: str, move_id: str, value: str, query: str, redirect: bool
    ) -> bool | None:
        """Pass a callback no ask here waits for to the other workers (routed); return
        their verdict (taken: ``True``, refused and logged by its driver: ``False``), or
        ``None`` when none waits for it or none answered in time."""
        nonce = f"{self.bus.worker}-{next(self._nonces)}"
        future: asyncio.Future[bool | None] = asyncio.get_running_loop().create_future()
        expected = [0]
        self._verdicts[nonce] = (future, set(), expected)
        message: dict[str, Any] = {"t": "callback", "id": nonce, "key": key}
        message.update(move_id=move_id, value=value, query=query, r=redirect)
        deadline = time.monotonic() + VERDICT_WAIT
        try:
            while time.monotonic() < deadline:
                expected[0] = await self.bus.send(message)
                if expected[0] <= 0:
                    return None
                done, _ = await asyncio.wait({future}, timeout=VERDICT_AGAIN)
                if done:
                    return future.result()
            return None
        finally:
            self._verdicts.pop(nonce, None)

    async def routed_callback(self, message: Mapping[str, Any]) -> None:
        """Take a callback another worker passed on (routed): answer its ``verdict``,
        ``None`` when no ask here waits for it."""
        key, move_id = str(message.get("key", "")), str(message.get("move_id", ""))
        query = str(message.get("query", ""))
        nonce = str(message.get("id", ""))
        sender = str(message.get("from", ""))
        if nonce in self._given:  # sent again: the same verdict
            await self.bus.send_to(sender, {"t": "verdict", "id": nonce, "ok": self._given[nonce]})
            return
        waiting = self._waiting.get((key, move_id))
        ok: bool | None = None
        refused = ""
        if waiting is not None and waiting.person is None:
            if waiting.future.done():
                ok, refused = False, "duplicate"
            else:
                value = str(message.get("value", ""))
                redirect = message.get("r") is True
                waiting.future.set_result(Callback(value, query, time.monotonic(), redirect))
                ok = True
        elif (key, move_id) in self._recent:
            ok, refused = False, "late"
        self._given[nonce] = ok
        while len(self._given) > VERDICTS_KEPT:
            self._given.popitem(last=False)
        await self.bus.send_to(sender, {"t": "verdict", "id": nonce, "ok": ok})
        if refused:  # logged once the verdict is out
            await self._refused(self._known(key, move_id), refused, move_id, query)

    def verdict(self, message: Mapping[str, Any]) -> None:
        """Take another worker's verdict on a callback passed on from here."""
        found = self._verdicts.get(str(message.get("id", "")))
        if found is None or found[0].done():
            return
        future, none_from, expected = found
        ok = message.get("ok")
        if isinstance(ok, bool):
            future.set_result(ok)
            return
        none_from.add(str(message.get("from", "")))
        if len(none_from) >= expected[0] > 0:
            future.set_result(None)  # every other worker said it waits for no such ask

    async def person_move(self, token: str, number: int, value: str) -> tuple[int, str]:
        """Take a person's ``ReturnValue`` for move ``number``; return (HTTP status, note).
        Any worker may take it: it is checked against the game's recorded position and
        recorded in the store, the first one only.

        200: taken. 404: no move of this seat is asked now (wrong token, an old page, the
        game over). 422: the value is not legal here (the page is asked again).
        """
        value = value.strip()
        move_id = str(number)
        waiting = self._waiting.get((token, move_id))
        if waiting is not None and waiting.person is not None and not waiting.future.done():
            check: PersonCheck | None = waiting.person
        else:
            check = await self._person_check(token, number)
        if check is None:
            return 404, "no move is asked of this seat now"
        try:
            check.check(value)
        except IllegalMove as illegal:
            return 422, f"not legal: {illegal}"
        kind, _ = await self.store.answer(token, move_id, value, "")
        if kind != "taken":
            return 404, "no move is asked of this seat now"
        if not self._resolve(token, move_id, Callback(value, "", time.monotonic())):
            await self._relay(token, move_id)
        return 200, "taken"

    async def asked_person(self, token: str) -> int | None:
        """Return the move number asked of the person holding ``token``, or ``None``."""
        for (key, move_id), waiting in self._waiting.items():
            if key == token and waiting.person is not None and not waiting.future.done():
                return int(move_id)
        return await self.store.asked_move(token)

    async def heard(self, key: str, move_id: str) -> None:
        """Another worker recorded the answer to (``key``, ``move_id``): wake its driver,
        if it is here."""
        waiting = self._waiting.get((key, move_id))
        if waiting is None or waiting.future.done():
            return
        found = await self.read(key, move_id)
        if found is not None:
            self._resolve(key, move_id, found)

    # --- helpers ----------------------------------------------------------------------

    def _resolve(self, key: str, move_id: str, answer: Callback) -> bool:
        waiting = self._waiting.get((key, move_id))
        if waiting is None or waiting.future.done():
            return False
        waiting.future.set_result(answer)
        return True

    async def _relay(self, key: str, move_id: str) -> None:
        await self.bus.send({"t": "answer", "key": key, "move_id": move_id})

    def _known(self, key: str, move_id: str) -> tuple[str, int] | None:
        waiting = self._waiting.get((key, move_id))
        if waiting is not None:
            return waiting.game_id, waiting.seat
        return self._recent.get((key, move_id))

    async def _refused(
        self, where: tuple[str, int] | None, kind: str, move_id: str, query: str
    ) -> None:
        if where is not None:
            await self.store.log(where[0], where[1], kind, move_id, query)

    def _callback(self, found: Received) -> Callback:
        # Log entries are stamped by this host's clock (Store.from_host when saved).
        at = (
            aware(found.received_at) - self.store.clock_offset
            if found.received_at
            else dt.datetime.now(dt.UTC)
        )
        return Callback(found.value or "", found.query, time.monotonic(), found.redirect, at)

    async def _person_check(self, token: str, number: int) -> PersonCheck | None:
        """Return what a person's move is checked against, read from the store (the ask
        reached a worker that does not drive its game), or ``None`` when no move
        ``number`` is asked of ``token`` now."""
        found = await self.store.pending(token, str(number))
        if found is None or found.value is not None or aware(found.expires_at) < self.store.now():
            return None
        game = await self.store.game(found.game_id)
        interface = await self.catalogue.find(game[0].set_name) if game else None
        rules = interface.arbitre if interface else None
        if game is None or rules is None or game[0].status != "playing":
            return None
        if game[0].moves != number - 1:
            return None
        return PersonCheck(rules, turn_from(game[0].turn).state, Player(found.seat + 1))
