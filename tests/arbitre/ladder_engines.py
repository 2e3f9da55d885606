"""Connect Four engines of the tests' own for the ladder, over real HTTP on 127.0.0.1: each
answers its column in the body of the request's answer (a ``sync`` registration, manual
VIII), as an engine of three strengths would, and one that stops answering on cue.

- ``/strong``: wins when it can, blocks the opponent's win, never gives the opponent a
  win it can help giving, the centre first: it beats the other two nearly always;
- ``/weak``: wins when it can, blocks the opponent's win, else a column at random: it
  beats ``/random`` nearly always and loses to ``/strong`` more often than not;
- ``/random``: a column at random;
- ``/dying``: plays as ``/weak`` until :attr:`LadderEngines.dead` is set, then never
  answers (the connection is held open: its moves time out).

Each answer waits :attr:`LadderEngines.delay` seconds first (0 by default; more: a game
that lasts, for a page to watch). Every request's path is counted
(:attr:`LadderEngines.asked`), and the ``Opponent`` each path is told
(:attr:`LadderEngines.opponents`).
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from tests.arbitre.threaded import Threaded
from tournoyons_gui.interfaces.connectfour.board import (
    COLUMNS,
    EMPTY_TRAY,
    drop,
    playable_columns,
    player_to_move,
    winning_cells,
)
from tournoyons_gui.interfaces.protocol import Player

#: The columns from the centre out.
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)


def _wins(tray: str, column: int, player: Player) -> bool:
    """Whether ``player`` dropping in ``column`` makes a line of four."""
    after, _ = drop(tray, column, player)
    return bool(winning_cells(after, player))


def strong(tray: str, rng: random.Random) -> int:
    """Return the strong engine's column (see the module)."""
    del rng
    me = player_to_move(tray)
    them = Player.TWO if me == Player.ONE else Player.ONE
    free = playable_columns(tray)
    for column in free:
        if _wins(tray, column, me):
            return column
    for column in free:
        if _wins(tray, column, them):
            return column
    safe = []
    for column in free:
        after, _ = drop(tray, column, me)
        if not any(_wins(after, c, them) for c in playable_columns(after)):
            safe.append(column)
    choices = safe or list(free)
    return min(choices, key=CENTRE_FIRST.index)


def weak(tray: str, rng: random.Random) -> int:
    """Return the weak engine's column: a win, else a block, else any."""
    me = player_to_move(tray)
    them = Player.TWO if me == Player.ONE else Player.ONE
    free = playable_columns(tray)
    for player in (me, them):
        for column in free:
            if _wins(tray, column, player):
                return column
    return rng.choice(free)


def at_random(tray: str, rng: random.Random) -> int:
    """Return a column at random."""
    return rng.choice(playable_columns(tray))


class LadderEngines(Threaded):
    """The engines (see the module); ``base`` is their URL's start."""

    def __init__(self, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        self.dead = False
        self.delay = 0.0
        self.asked: Counter[str] = Counter()
        self.opponents: dict[str, set[str]] = {}
        routes = [
            Route("/strong", self._engine(strong)),
            Route("/weak", self._engine(weak)),
            Route("/random", self._engine(at_random)),
            Route("/dying", self._dying),
        ]
        super().__init__(routes)

    def _engine(
        self, choose: Callable[[str, random.Random], int]
    ) -> Callable[[Request], Awaitable[Response]]:
        async def answer(request: Request) -> Response:
            self.asked[request.url.path] += 1
            if self.delay and request.query_params.get("MoveId"):
                await asyncio.sleep(self.delay)
            return self._answer(request, choose)

        return answer

    def _answer(self, request: Request, choose: Callable[[str, random.Random], int]) -> Response:
        told = self.opponents.setdefault(request.url.path, set())
        told.add(request.query_params.get("Opponent", ""))
        tray = request.query_params.get("Tray", "")
        if tray in ("", "Init"):
            tray = EMPTY_TRAY
        if len(tray) != len(EMPTY_TRAY) or not playable_columns(tray):
            return PlainTextResponse("D")  # a final call, or a board it cannot read
        return PlainTextResponse(COLUMNS[choose(tray, self.rng)])

    async def _dying(self, request: Request) -> Response:
        self.asked[request.url.path] += 1
        if self.dead and request.query_params.get("MoveId"):
            # Never answers: held open until the game gives up (or the server stops).
            while not self.server.should_exit:
                await asyncio.sleep(0.1)
        return self._answer(request, weak)
