"""A match between engines, as ``play`` runs it: games in pairs, each pair one
opening (or one deal) played once per seat, seats swapped (rotated at four seats), every
game's seed derived from the run's, an optional SPRT that ends the match at its verdict,
and the whole recorded as one match in the store.

**Pairs.** Game ``n`` of a match of ``S`` seats belongs to pair ``n // S`` and rotates the
entrants by ``n % S``: at two seats the pair's second game swaps them; at four (Tarot) the
pair's four games rotate them through every seat. A pair's games share its opening (the
Tray they start from) and its seed, so in a Set the Arbitre deals (Poker's cards, Tarot's
deals) they are one duplicate deal, and where the engines choose their hidden state
(Seafight's fleets, MasterMind's codes) the pair is the seats swapped. ``--games N`` with
N not a multiple of S leaves the last pair short: its games count in the wins, draws and
losses, not in the pentanomial counts (fastchess drops an unfinished pair the same way).

**Seeds.** The run's seed (``--seed``, else drawn and recorded, so that any run can be
played again) orders the openings (:func:`~tournoyons_gui.interfaces.openings.ordered`)
and gives each pair's seed (:func:`~tournoyons_gui.interfaces.openings.pair_seed`: from
the run's seed and the pair's number alone), the game option ``seed`` of both its games:
the cards they are dealt and the built-in engines' choices. Two runs with one seed play
the same games, whatever ran concurrently or was created first.

**SPRT.** With a test (:class:`~tournoyons_gui.arbitre.stats.Sprt`, refused on a Set of
more than two seats) the match is played until the LLR of the pairs completed crosses a
bound, or its games run out (no verdict). The games in play at the verdict, and at a
stop (Ctrl-C), are ended as interrupted (Status 9 to their engines) and not counted; what
was played is kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tournoyons_gui.arbitre.match import GameError, Options, SeatSpec
from tournoyons_gui.arbitre.match_summary import Outcome, Tally, outcome_of
from tournoyons_gui.arbitre.stats import Sprt
from tournoyons_gui.arbitre.store import Match, MatchEntry, MatchGame, new_id
from tournoyons_gui.interfaces.openings import Opening, ordered, pair_seed

if TYPE_CHECKING:
    from tournoyons_gui.arbitre.arbitre import Arbitre

__all__ = [
    "DEFAULT_SPRT_GAMES",
    "MatchPlan",
    "MatchRunner",
    "Planned",
    "check_sprt",
    "pair_games",
]

#: The most games an SPRT plays by default (``--games`` says otherwise): a cap, as a
#: fishtest test has one; engines far apart decide in tens of games, bounds a few Elo
#: apart in thousands.
DEFAULT_SPRT_GAMES = 20_000


def pair_games(seats: int, games: int) -> str:
    """Return ``games`` games and how they fall into pairs of ``seats`` games, in words:
    ``1 game``, ``200 games in 100 pairs``, ``5 games: 2 pairs and 1 game unpaired``;
    ``in 2 pairs of 4 games`` at four seats."""
    whole, rest = divmod(games, seats)
    said = f"{games} game{'' if games == 1 else 's'}"
    if not whole:
        return said
    pairs = f"{whole} pair{'' if whole == 1 else 's'}" + (f" of {seats} games" if seats > 2 else "")
    if not rest:
        return f"{said} in {pairs}"
    return f"{said}: {pairs} and {rest} game{'' if rest == 1 else 's'} unpaired"


def check_sprt(sprt: Sprt | None, seats: int) -> None:
    """Raise :class:`GameError` for an SPRT on a Set of more than two seats (its games
    have no two sides to test; their summary ranks the entrants by their totals)."""
    if sprt is not None and seats != 2:
        raise GameError(
            f"--sprt tests one engine against another: not a Set of {seats} seats "
            "(its summary ranks the entrants instead)"
        )


@dataclass(frozen=True)
class Planned:
    """A game of the match before it is made: its ``number`` (from 0), ``pair``, the
    entrant in each seat (``seats``), its ``opening`` (``None``: the Set's start or the
    match's start Tray) and ``seed``."""

    number: int
    pair: int
    seats: tuple[int, ...]
    opening: Opening | None
    seed: int


@dataclass
class MatchPlan:
    """What a match is asked as: the Set, its ``entrants`` (one per seat, in command line
    order, names already told apart), the games' ``options``, the most ``games``, the
    ``openings`` (in suite order; shuffled by the seed) and where they came from
    (``openings_source``), the run's ``seed``, the ``sprt`` (``None``: none), games at
    once (``concurrency``) and a ``start_tray`` every game starts from (no openings)."""

    set_name: str
    entrants: Sequence[SeatSpec]
    options: Options
    games: int
    seed: int
    openings: Sequence[Opening] = ()
    openings_source: str = ""
    sprt: Sprt | None = None
    concurrency: int = 4
    start_tray: str | None = None
    _order: list[Opening] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._order = ordered(self.openings, self.seed)

    @property
    def seats(self) -> int:
        """Return the seats of a game (the entrants' count)."""
        return len(self.entrants)

    def planned(self, number: int) -> Planned:
        """Return game ``number`` of the match (see the module: pairs, rotation, seeds)."""
        size = self.seats
        pair, turn = divmod(number, size)
        seats = tuple((seat + turn) % size for seat in range(size))
        opening = self._order[pair % len(self._order)] if self._order else None
        return Planned(number, pair, seats, opening, pair_seed(self.seed, pair + 1))

    def record(self, match_id: str, now: Any) -> Match:
        """Return the match's record as it starts."""
        sprt = self.sprt
        return Match(
            id=match_id,
            set_name=self.set_name,
            entrants=[{"name": e.name, "kind": e.kind, "engine": e.engine} for e in self.entrants],
            options=self.options.to_json(),
            seed=self.seed,
            openings=self.openings_source[:300],
            games=self.games,
            sprt=None
            if sprt is None
            else {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta},
            llr=None,
            verdict="",
            status="running",
            created_at=now,
        )


#: What the runner tells as each game ends: its outcome and the match's counts so far.
OnGame = Callable[[Outcome, Tally], None]


class MatchRunner:
    """Plays a :class:`MatchPlan` with ``arbitre``: the match stored, its games made in
    order ``concurrency`` at a time and each linked to it, until they run out, the SPRT's
    verdict, or ``stop`` is set (Ctrl-C). :attr:`match_id` is the match's id once
    :meth:`run` has started."""

    def __init__(self, arbitre: Arbitre, plan: MatchPlan) -> None:
        self.arbitre = arbitre
        self.plan = plan
        self.match_id = new_id(12)
        self.tally = Tally(plan.seats, plan.seats, plan.sprt)
        self.verdict = ""
        self._halt = asyncio.Event()
        self._why = ""

    async def run(self, stop: asyncio.Event, on_game: OnGame) -> Match:
        """Play the match; return its record as ended (``over``; ``interrupted`` when
        ``stop`` was set). Raises :class:`GameError` when a game cannot be made (the match
        is then ended as interrupted)."""
        store = self.arbitre.store
        await store.create_match(self.plan.record(self.match_id, store.now()))
        numbers = itertools.count()
        workers = [
            asyncio.create_task(self._worker(numbers, on_game))
            for _ in range(max(1, min(self.plan.concurrency, self.plan.games)))
        ]
        watcher = asyncio.create_task(self._watch(stop))
        status = "over"
        try:
            done = await asyncio.gather(*workers, return_exceptions=True)
            failed = next((d for d in done if isinstance(d, BaseException)), None)
            if stop.is_set():
                status = "interrupted"
            if failed is not None:
                status = "interrupted"
                raise failed
        finally:
            watcher.cancel()  # it waits for a stop, and does nothing else
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            for task in workers:
                task.cancel()
            llr = self.tally.llr if self.plan.sprt is not None else None
            await store.end_match(self.match_id, status, llr, self.verdict)
        found = await store.match(self.match_id)
        assert found is not None
        return found

    async def _watch(self, stop: asyncio.Event) -> None:
        """Halt the match on ``stop`` (Ctrl-C): each worker ends its game in play."""
        await stop.wait()
        self._why = "interrupted: the match was stopped"
        self._halt.set()

    async def _until_over(self, game_id: str) -> None:
        """Return once ``game_id`` is over, or ended as interrupted if the match halts
        first (the SPRT's verdict, a stop); its record is then written."""
        arbitre = self.arbitre
        ended = asyncio.create_task(arbitre.wait(game_id))
        halted = asyncio.create_task(self._halt.wait())
        try:
            await asyncio.wait({ended, halted}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            halted.cancel()
        if not ended.done():
            await arbitre.cancel(game_id, self._why or "interrupted: the match ended")
        await ended

    async def _worker(self, numbers: itertools.count[int], on_game: OnGame) -> None:
        """Make, play and count the match's next games, one at a time, until they run
        out or the match halts."""
        plan, arbitre = self.plan, self.arbitre
        while not self._halt.is_set():
            number = next(numbers)
            if number >= plan.games:
                return
            planned = plan.planned(number)
            options = dataclasses.replace(plan.options, seed=planned.seed)
            opening = planned.opening
            place = MatchGame(
                self.match_id,
                number,
                "",
                planned.pair,
                planned.seats[0],
                opening.line if opening is not None else None,
                opening.tray if opening is not None else (plan.start_tray or ""),
                planned.seed,
            )
            try:
                game, _ = await arbitre.make(
                    plan.set_name,
                    [plan.entrants[i] for i in planned.seats],
                    options,
                    start_tray=opening.tray if opening is not None else plan.start_tray,
                    entrants=planned.seats,
                    match_place=place,
                )
            except BaseException:
                self._why = "interrupted: a game of the match could not be made"
                self._halt.set()
                raise
            await self._until_over(game.id)
            found = await arbitre.store.game(game.id)
            if found is None:
                continue
            place = dataclasses.replace(place, game_id=game.id)
            outcome = outcome_of(MatchEntry(place, *found))
            if self.tally.add(outcome) and self.verdict == "" and self.tally.verdict:
                self.verdict = self.tally.verdict
                self._why = (
                    f"interrupted: the SPRT accepted {self.verdict} (LLR {self.tally.llr:.2f})"
                )
                self._halt.set()
            on_game(outcome, self.tally)
