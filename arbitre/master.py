"""The game master: drives one game, step by step, knowing no game and no transport.

Each step is one fixed sequence (style.md, boardgame.io's master)::

    result? -> end | asked = rules.asked(state)
    -> every seat asked at once (its kind's ask, within the kind's limit)
    -> each answer checked by the rules on the position it was asked on
    -> a seat that failed (late, unreachable, illegal) loses: end
    -> the values applied in seat order (an added game's: by its referee)
    -> the moves saved with their exchanges in one transaction, then published

At the end each seat's Status is recorded with the result and the final calls in one
transaction, watchers are told, then the final calls are sent (decision 10). The master
holds the game's lease while it drives it: a game whose driver died is taken over from its
last recorded move by the worker that finds it (:mod:`~tournoyons_gui.arbitre.worker`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Any

from sqlalchemy.exc import InterfaceError, OperationalError, SQLAlchemyError

from tournoyons_gui.arbitre import metrics
from tournoyons_gui.arbitre.added import AddedRules, RefereeFailed
from tournoyons_gui.arbitre.answer import (
    ABORTED,
    MALFORMED,
    STOPPED,
    UNNEEDED,
    UNRESUMED,
    Answer,
    fault_of,
    note,
)
from tournoyons_gui.arbitre.catalogue import Catalogue, PlayedSet
from tournoyons_gui.arbitre.match import Options
from tournoyons_gui.arbitre.seats import Position, SeatKind, Services
from tournoyons_gui.arbitre.store import (
    Game,
    GameEnd,
    LeaseLost,
    LogEntry,
    NewMove,
    Seat,
    SeatEnd,
)
from tournoyons_gui.arbitre.turns import turn_from, turn_json
from tournoyons_gui.interfaces.plugin import (
    ArbitreRules,
    IllegalMove,
    Result,
    Turn,
    forfeit_result,
    seat_totals,
)
from tournoyons_gui.interfaces.protocol import Player

__all__ = ["GameMaster", "status_for"]

log = logging.getLogger(__name__)


def status_for(ranks: Sequence[int] | None, index: int, failed: bool = False) -> int:
    """Return the final ``Status`` of seat ``index`` (0 the first) given every seat's rank
    (``None``: no result). Two seats (section 3.3): 1/2 won as first/second, 3/4 lost as
    first/second, 5 a draw, 9 an end not attributable to one player. More seats (tarot.md
    T-decision 5): 1 for a seat ranked first (shared too), 3 for the others, 9 for a seat
    that ``failed`` or no result."""
    if ranks is None:
        return 9
    if len(ranks) == 2:
        if ranks[0] == ranks[1]:
            return 5
        won = ranks[index] == 1
        return (1 if won else 3) + index
    if failed:
        return 9
    return 1 if ranks[index] == 1 else 3


def _forfeit(
    rules: ArbitreRules, state: Mapping[str, Any], seats: int, failed: Sequence[int], why: str
) -> Result:
    """Return the result of a game a seat lost by failing: two seats, the other wins; more,
    the rules' own forfeit when they have one (:func:`forfeit_result`: Tarot ranks the
    others by their totals as they stand), else the seats that failed are ranked last and
    the others share the first place."""
    if seats == 2:
        return Result(Player(failed[0] + 1).opponent, why)
    own = forfeit_result(rules, state, tuple(Player(index + 1) for index in failed), why)
    if own is not None and len(own.ranks) == seats:
        return own
    last = seats - len(failed) + 1
    return Result(None, why, tuple(last if i in failed else 1 for i in range(seats)))


def _refused(answer: Answer, illegal: IllegalMove) -> None:
    """Make ``answer``, whose value the rules refused, the failure it is: ``illegal`` (a
    Value the rules refuse, decision 12) or, empty, ``malformed`` (no Value at all)."""
    if answer.value and answer.value.strip():
        answer.error, answer.detail = "illegal", f"illegal Value {answer.value!r}: {illegal}"
    else:
        answer.error, answer.detail = MALFORMED, f"an answer with no Value: {illegal}"


class GameMaster:
    """Drives the games of one worker (``worker`` its lease owner's name, holding a game's
    lease for ``lease_seconds``): ``kinds`` the seat kinds by name, ``catalogue`` the Sets,
    ``nudge`` wakes the workers' scans (a tournament's next game may start when one ends)."""

    def __init__(
        self,
        services: Services,
        kinds: Mapping[str, SeatKind],
        catalogue: Catalogue,
        worker: str,
        nudge: Callable[[], Awaitable[None]],
        lease_seconds: float = 15.0,
    ) -> None:
        self.services = services
        self.lease_seconds = lease_seconds
        self.store = services.store
        self.kinds = kinds
        self.catalogue = catalogue
        self.worker = worker
        self.nudge = nudge

    async def drive(
        self,
        game_id: str,
        *,
        resumed: bool = False,
        made: tuple[Game, list[Seat]] | None = None,
    ) -> None:
        """Drive ``game_id`` to its end while this worker holds its lease; a database
        failure gives the game up (another worker, or this one later, takes it over), any
        other failure ends it in error (Status 9). ``resumed``: the game is taken over from
        a driver that died; one whose players' connections that driver held ends at once
        with no result (:data:`UNRESUMED`). ``made``: the game and its seats as this worker has
        just stored them, its lease this worker's (nothing to read or take)."""
        try:
            if made is None and not await self.store.acquire(
                game_id, self.worker, self.lease_seconds
            ):
                return
            if resumed and await self._unresumable(game_id):
                return
            await self.play(game_id, made)
        except asyncio.CancelledError:
            raise
        except LeaseLost:
            log.warning("game %s: its lease was lost; another worker drives it", game_id)
        except (OperationalError, InterfaceError, OSError) as failed:
            # The database (or the network to it) failed, not the game: give the game up; a
            # scan takes it over from its last recorded move once the database answers.
            log.warning("game %s: given up for now (%s)", game_id, type(failed).__name__)
            with contextlib.suppress(SQLAlchemyError, OSError):
                await self.store.release_game(game_id, self.worker)
        except Exception:
            log.exception("game %s failed", game_id)
            try:
                found = await self.store.game(game_id)
                if found is not None and found[0].status == "playing":
                    game, seats = found
                    why = "the Arbitre failed on this game"
                    await self.finish(game, seats, None, turn_from(game.turn), None, why)
            except (SQLAlchemyError, OSError):
                log.exception("game %s could not be ended", game_id)

    async def _unresumable(self, game_id: str) -> bool:
        """End ``game_id`` with no result when its players were reached through
        connections another process held (a bound game whose holder died); return
        whether it did. One no process held yet (a table waiting for clients) goes on."""
        found = await self.store.game(game_id)
        if found is None:
            return False
        game, seats = found
        if game.bound is None or game.holder in (None, self.worker):
            return False
        await self.finish(game, seats, None, turn_from(game.turn), None, UNRESUMED)
        return True

    async def play(self, game_id: str, made: tuple[Game, list[Seat]] | None = None) -> None:
        """Play ``game_id`` from its last recorded move to its end (``made``: the game and
        its seats as just stored, else read from the store)."""
        found = made or await self.store.game(game_id)
        if found is None:
            return
        game, seats = found
        interface = await self.catalogue.find(game.set_name)
        rules = interface.arbitre if interface else None
        if interface is None or rules is None:
            raise RuntimeError(f"Set {game.set_name} is not served")
        options = Options.from_json(game.options)
        turn = turn_from(game.turn)
        while True:
            result = rules.result(turn.state)
            if result is not None:
                await self.finish(game, seats, rules, turn, result, result.reason)
                return
            asked = rules.asked(turn.state)
            if not asked:
                raise RuntimeError("the rules ask nobody in a game not over")
            positions = [
                Position(
                    game,
                    seats,
                    seats[int(p) - 1],
                    p,
                    interface,
                    rules,
                    turn,
                    game.moves + 1,
                    options,
                )
                for p in asked
            ]
            answers = await self._ask_all([self._ask(position) for position in positions])
            metrics.answered([position.seat.kind for position in positions], answers)
            exchanges: list[LogEntry] = [
                (position.seat.index, *entry)
                for position, answer in zip(positions, answers, strict=True)
                for entry in answer.log
            ]
            aborted = next((a for a in answers if a.error == ABORTED), None)
            if aborted is not None:
                await self.store.log_many(game.id, exchanges)
                await self.finish(game, seats, rules, turn, None, aborted.detail)
                return
            values, failed = self._check(positions, answers)
            if failed:
                await self.store.log_many(game.id, exchanges)
                await self._lost(game, seats, rules, turn, failed, len(asked))
                return
            played = await self._apply(
                game, seats, rules, turn, values, answers, positions, exchanges
            )
            if played is None:
                return
            turn = turn_from(played[-1].turn)
            await self.store.append_moves(game.id, self.worker, played)
            metrics.moved(game.set_name, len(played))
            game.turn, game.moves = played[-1].turn, played[-1].number
            for move in played:
                await self.services.hub.publish(game.id, {"moves": move.number, "over": False})

    async def _ask(self, position: Position) -> Answer:
        """Ask one seat through its kind, within the kind's limit."""
        kind = self.kinds[position.seat.kind]
        limit = kind.time_limit(position.options)
        return await kind.ask(position, None if limit is None else time.monotonic() + limit)

    @staticmethod
    async def _ask_all(asks: list[Coroutine[Any, Any, Answer]]) -> list[Answer]:
        """Ask every seat of a step at once; once one has failed (late, unreachable ...),
        stop waiting for the others (a person with no time limit, facing an engine that
        cannot be reached, would hold the game forever): their answer is :data:`UNNEEDED`.
        One seat asked (most steps) is awaited as it is, without a task of its own."""
        if len(asks) == 1:
            return [await asks[0]]
        tasks = [asyncio.create_task(ask) for ask in asks]
        waiting: set[asyncio.Task[Answer]] = set(tasks)
        while waiting:
            done, waiting = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if waiting and any(t.result().failed for t in done):
                for task in waiting:
                    task.cancel()
                await asyncio.gather(*waiting, return_exceptions=True)
                break
        return [
            t.result()
            if t.done() and not t.cancelled()
            else Answer.failure(UNNEEDED, "not needed: another seat failed in this step")
            for t in tasks
        ]

    def _check(
        self, positions: Sequence[Position], answers: Sequence[Answer]
    ) -> tuple[dict[Player, str], list[tuple[Position, Answer]]]:
        """Return the rules' values of the answers by player, and the seats that failed
        (a value the rules refuse fails its seat, decision 12: :func:`_refused`)."""
        values: dict[Player, str] = {}
        failed: list[tuple[Position, Answer]] = []
        for position, answer in zip(positions, answers, strict=True):
            if answer.error == UNNEEDED:
                continue
            if answer.value is None:
                failed.append((position, answer))
                continue
            try:
                values[position.player] = self.kinds[position.seat.kind].value(
                    position, answer.value
                )
            except IllegalMove as illegal:
                _refused(answer, illegal)
                failed.append((position, answer))
        return values, failed

    async def _lost(
        self,
        game: Game,
        seats: list[Seat],
        rules: ArbitreRules,
        turn: Turn,
        failed: Sequence[tuple[Position, Answer]],
        asked: int,
    ) -> None:
        """End a game in which seats failed: all the seats asked at once, in error; else
        the first that failed loses (the seat an answer blames, its ``culprit``, when it
        names one). A seat that stopped the match (:data:`STOPPED`) ends it with the ranks
        its answer gives, nobody failed."""
        stopped = next((a for _, a in failed if a.error == STOPPED and a.ranks), None)
        if stopped is not None and len(stopped.ranks) == len(seats):
            result = Result(None, stopped.detail, stopped.ranks)
            await self.finish(game, seats, rules, turn, result, stopped.detail)
            return
        for position, answer in failed:
            blamed = position.seat.index if answer.culprit is None else answer.culprit
            seats[blamed].error = answer.detail[:2000]
            seats[blamed].fault = fault_of(answer.error)
        if len(failed) == asked and asked > 1:
            why = "every player failed in the same round: " + "; ".join(a.detail for _, a in failed)
            await self.finish(game, seats, rules, turn, None, why)
            return
        first = failed[0]
        loser = seats[first[1].culprit] if first[1].culprit is not None else first[0].seat
        why = f"{loser.name} loses: {failed[0][1].detail}"
        result = _forfeit(rules, turn.state, len(seats), [loser.index], why)
        await self.finish(game, seats, rules, turn, result, why, failed=[loser.index])

    async def _apply(
        self,
        game: Game,
        seats: list[Seat],
        rules: ArbitreRules,
        turn: Turn,
        values: Mapping[Player, str],
        answers: Sequence[Answer],
        positions: Sequence[Position],
        exchanges: list[LogEntry],
    ) -> list[NewMove] | None:
        """Return the moves the step makes: each value applied by the rules in seat order
        (a simultaneous step's moves are recorded together: a worker stopped between them
        would otherwise ask the second again), or one move from an added game's referee;
        ``None`` when the referee ended the game."""
        by_player = {p.player: a for p, a in zip(positions, answers, strict=True)}
        number = game.moves
        if isinstance(rules, AddedRules):
            after = await self._referee(game, seats, rules, turn, values, exchanges)
            if after is None:
                return None
            first = sorted(values)[0]
            value = " ".join(values[p] for p in sorted(values))
            return [self._move(rules, number + 1, first, value, after, by_player[first], exchanges)]
        played = []
        for player in sorted(values):
            turn = rules.play(turn.state, values[player])
            number += 1
            own = [entry for entry in exchanges if entry[0] == int(player) - 1]
            played.append(
                self._move(rules, number, player, values[player], turn, by_player[player], own)
            )
        return played

    @staticmethod
    def _move(
        rules: ArbitreRules,
        number: int,
        player: Player,
        value: str,
        turn: Turn,
        answer: Answer,
        exchanges: list[LogEntry],
    ) -> NewMove:
        tray = str(rules.page(turn, None, asking=False).get("Tray", ""))
        return NewMove(
            number,
            int(player) - 1,
            value,
            turn_json(turn),
            tray,
            answer.ms,
            answer.query,
            exchanges,
        )

    async def _referee(
        self,
        game: Game,
        seats: list[Seat],
        rules: AddedRules,
        turn: Turn,
        values: Mapping[Player, str],
        exchanges: list[LogEntry],
    ) -> Turn | None:
        """Have an added game's referee apply ``values`` (decision 26); return the turn
        after them, or end the game with Status 9 and return ``None`` when the referee gave
        no usable verdict. The referee's exchanges are added to ``exchanges``."""
        options = Options.from_json(game.options)
        logs: list[tuple[str, str, Any]] = []
        seat = int(sorted(values)[0]) - 1
        try:
            after = await rules.apply(
                self.services.client,
                turn.state,
                values,
                return_url=self.services.added_return_url,
                timeout=float(options.timeout + 5),
                log=logs,
                allowed_hosts=self.services.engine_hosts,
            )
        except RefereeFailed as failed:
            logs.append(note("error", str(failed)))
            await self.store.log_many(game.id, [*exchanges, *((seat, *entry) for entry in logs)])
            await self.finish(game, seats, rules, turn, None, str(failed))
            return None
        exchanges.extend((seat, *entry) for entry in logs)
        return after

    async def finish(
        self,
        game: Game,
        seats: list[Seat],
        rules: ArbitreRules | None,
        turn: Turn,
        result: Result | None,
        reason: str,
        *,
        status: str = "over",
        failed: Sequence[int] = (),
    ) -> None:
        """End the game with ``result`` (``None``: in error, Status 9 for every seat): store
        the result, each seat's Status and rank, and the final calls in one transaction;
        publish; then send the final calls (decision 10). Each seat's total score is
        stored too when the rules keep totals (:func:`seat_totals`)."""
        ranks = None if result is None else result.ranking(len(seats))
        totals = None if rules is None else seat_totals(rules, turn.state)
        if totals is not None and len(totals) != len(seats):
            totals = None
        ends = [
            SeatEnd(
                status_for(ranks, seat.index, seat.index in failed),
                seat.error,
                None if ranks is None else ranks[seat.index],
                None if totals is None else totals[seat.index],
                seat.fault,
            )
            for seat in seats
        ]
        calls = self._final_calls(game, seats, rules, turn, ends)
        if result is None:
            winner, text = None, "error"
        elif len(seats) == 2:
            winner = result.sole_winner
            text = "draw" if winner is None else f"seat{winner + 1}"
        else:
            winner, text = result.sole_winner, "ranked"
        end = GameEnd(status, winner, text, reason)
        done = await self.store.finish_game(
            game.id, self.worker, end, list(zip(seats, ends, strict=True)), calls
        )
        if not done:
            return  # over already, or another worker drives it now
        metrics.ended(game.set_name, status, text)
        game.status = status
        self.services.asks.close_game(game.id)  # late from now on, at any worker
        await self.services.hub.publish(game.id, {"moves": game.moves, "over": True})
        if game.tournament_id is not None:
            await self.nudge()  # its tournament's next game may start now
        kinds = {seat.index: self.kinds[seat.kind] for seat in seats if seat.kind in self.kinds}
        answers = await asyncio.gather(*(kinds[index].send_final(url) for index, url in calls))
        await self.store.log_many(
            game.id,
            [
                (index, *note("answer", f"final call answered: {answer}"))
                for (index, _), answer in zip(calls, answers, strict=True)
            ],
        )

    def _final_calls(
        self,
        game: Game,
        seats: list[Seat],
        rules: ArbitreRules | None,
        turn: Turn,
        ends: list[SeatEnd],
    ) -> list[tuple[int, str]]:
        """Return (seat index, URL) of each final call the seats' kinds make, each seat
        with its ``Status`` and, for its final call's ``Rank``, its rank (``ends``)."""
        interface: PlayedSet | None = self.catalogue.lookup(game.set_name)
        if rules is None or interface is None:
            return []
        options = Options.from_json(game.options)
        calls = []
        for seat, end in zip(seats, ends, strict=True):
            kind = self.kinds.get(seat.kind)
            player = Player(seat.index + 1)
            ranked = dataclasses.replace(seat, rank=end.rank)
            position = Position(
                game, seats, ranked, player, interface, rules, turn, game.moves, options
            )
            url = kind.final_call(position, end.status) if kind is not None else None
            if url is not None:
                calls.append((seat.index, url))
        return calls
