"""A player of timi rooms (``timi-rooms.md`` section 3, *Player*): it joins a room, plays
with an engine (:mod:`.engines`) whenever the room's referee names it, and goes on to the
next room until it has played its games; the same codec as the referee (:mod:`.timi`).

Decisions where the seed leaves the player free:

- **Who the referee is**: the nick given (``--referee``), else the room's **operators**
  (seed 004: the referee is the user with the privilege to create rooms, and the creator
  of an IRC channel is its operator; ours is). Lines of anyone else are never read as
  commands: a spectator typing ``play <nick> 15`` changes nothing.
- **The board** is rebuilt from the room: the first ``play <player> <seconds>`` of a game
  names the first player (``X``); a move is the ``play <column>`` the player named said
  before the referee's next command (our own, as we sent it), applied by the Set's rules
  once that command confirms it.
- **Once per ask**: each ``play <our nick> <seconds>`` is answered once, within the
  seconds less :data:`MARGIN` (the answer's way through the chat server); an engine that
  fails to answer in time is not covered for: the player stays silent and loses on time,
  as its engine would.
- **After a game**: the player stays in the room while its referee is there (a referee
  that keeps its room names it again); when the referee leaves (ours archives the room,
  R-decision 6) it parts and finds the next room by listing the rooms (IRC's ``LIST``) and
  joining one with the same prefix (``#p4-`` of ``#p4-1``) it has not played in, with a
  player waiting first, then the lowest number; a room without its referee is left for
  the next one. It gives up after :data:`ROOM_WAIT` seconds without a room.
- **Leaving**: after its last game it parts the room, then quits.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tournoyons_gui.arbitre.rooms import chat as events
from tournoyons_gui.arbitre.rooms import timi
from tournoyons_gui.arbitre.rooms.engines import Ask, RoomEngine
from tournoyons_gui.interfaces.plugin import ArbitreRules, IllegalMove
from tournoyons_gui.interfaces.protocol import Player

__all__ = ["LIST_EVERY", "MARGIN", "ROOM_WAIT", "GameOver", "RoomPlayer"]

log = logging.getLogger(__name__)

#: Seconds of a ``play <nick> <seconds>`` kept for the answer's way to the referee.
MARGIN = 1.0
#: The least seconds an engine is given, however few the referee allows.
LEAST_THINK = 0.5
#: Seconds between two listings of the rooms while looking for the next one.
LIST_EVERY = 2.0
#: Seconds the player looks for a room to play in before giving up.
ROOM_WAIT = 120.0


@dataclass(frozen=True)
class GameOver:
    """A game the player played (or was in when it ended): its ``room``, the referee's
    ``end`` reason, the columns played (``A``..``G``, in order), and whether we moved
    first."""

    room: str
    reason: str
    moves: tuple[str, ...]
    first: bool


@dataclass
class _Game:
    """The game in the room as the player follows it."""

    state: Mapping[str, Any]
    key: str = field(default_factory=lambda: secrets.token_hex(5))
    first: str | None = None
    asked: str | None = None
    asks: int = 0
    pending: int | None = None
    moves: list[str] = field(default_factory=list)
    named_us: bool = False


def _prefix(room: str) -> str:
    """Return the rooms' prefix of ``room``: its name without its trailing number."""
    return re.sub(r"[0-9]+\Z", "", room)


class RoomPlayer:
    """Plays ``games`` games in the rooms of ``room``'s prefix on ``chat`` with ``engine``
    by ``rules`` (ConnectFour's); ``referee``: the referee's nick (``""``: the room's
    operators); ``on_end`` hears each game over."""

    def __init__(
        self,
        chat: events.Chat,
        room: str,
        engine: RoomEngine,
        rules: ArbitreRules,
        *,
        referee: str = "",
        games: int = 1,
        on_end: Callable[[GameOver], None] | None = None,
    ) -> None:
        self.chat = chat
        self.room = room
        self.prefix = _prefix(room)
        self.engine = engine
        self.rules = rules
        self.referee = referee
        self.games = games
        self.on_end = on_end
        self.played: list[GameOver] = []
        #: Why the player stopped before its games were played (``""``: it did not).
        self.failed = ""
        self.operators: set[str] = set()
        self.game = _Game(rules.start().state)
        self._tried: set[str] = set()
        self._inside = False
        self._searching = False
        self._thinking: asyncio.Task[None] | None = None
        self._search: asyncio.Task[None] | None = None
        self._done = asyncio.Event()

    # --- running ----------------------------------------------------------------------

    async def play(self) -> list[GameOver]:
        """Connect, play the games, leave; return the games over (see :attr:`failed`)."""
        running = asyncio.create_task(self.chat.run(self.heard), name="chat")
        try:
            await self._done.wait()
            if self._inside:
                self.chat.part(self.room, "done")
            await self.chat.close("played")
        finally:
            for task in (self._thinking, self._search, running):
                if task is not None:
                    task.cancel()
            await asyncio.gather(
                *(t for t in (self._thinking, self._search, running) if t is not None),
                return_exceptions=True,
            )
        return self.played

    def stop(self, why: str = "") -> None:
        """Stop playing (``why``: the failure, ``""`` for none)."""
        self.failed = self.failed or why
        self._done.set()

    def _is(self, a: str, b: str | None) -> bool:
        return b is not None and a.casefold() == b.casefold()

    def is_referee(self, nick: str) -> bool:
        """Whether ``nick`` is the room's referee (the nick given, else an operator)."""
        if self.referee:
            return self._is(nick, self.referee)
        return nick.casefold() in self.operators

    # --- the chat's events ------------------------------------------------------------

    def heard(self, event: events.ChatEvent) -> None:
        """Take one event of the chat system (in order, never blocking)."""
        if isinstance(event, events.Connected):
            self._new_game()
            self._searching, self._inside = False, False
            self.chat.join(self.room)
        elif isinstance(event, events.Disconnected):
            self._inside = False
            self._new_game()
        elif isinstance(event, events.Listed):
            self._listed(event)
        elif isinstance(event, events.Refused):
            if self._is(event.room, self.room):
                self._next_room(f"{event.room}: {event.why}")
        elif isinstance(event, events.Quit | events.Renamed):
            self._someone(event)
        elif isinstance(event, events.Sent):
            return  # our own lines: the referee times us from its own
        elif self._is(event.room, self.room):
            self._in_room(event)

    def _in_room(
        self, event: events.Joined | events.Left | events.Said | events.Names | events.Moded
    ) -> None:
        if isinstance(event, events.Joined) and self._is(event.nick, self.chat.nick):
            self._inside = True
        elif isinstance(event, events.Names):
            self.operators = {n.casefold() for n in event.operators}
            present = {n.casefold() for n in event.nicks}
            there = self.referee.casefold() in present if self.referee else bool(self.operators)
            if not there:
                self._next_room(f"no referee in {event.room}")
        elif isinstance(event, events.Moded):
            if event.operator:
                self.operators.add(event.nick.casefold())
            else:
                self.operators.discard(event.nick.casefold())
        elif isinstance(event, events.Left):
            if self._is(event.nick, self.chat.nick):
                self._inside = False
                self._next_room(f"out of {event.room}")
            elif self.is_referee(event.nick):
                self._next_room(f"the referee left {event.room}")
        elif isinstance(event, events.Said):
            self._said(event.nick, event.text)

    def _someone(self, event: events.Quit | events.Renamed) -> None:
        nick = event.old if isinstance(event, events.Renamed) else event.nick
        if not self.is_referee(nick):
            return
        if isinstance(event, events.Renamed):
            self.operators.discard(nick.casefold())
            self.operators.add(event.new.casefold())
            if self.referee:
                self.referee = event.new
        else:
            self._next_room(f"the referee left {self.room}")

    def _said(self, nick: str, text: str) -> None:
        game = self.game
        if self.is_referee(nick):
            command = timi.read_command(text)
            if isinstance(command, timi.TaskPlay):
                self._confirm()
                game.first = game.first or command.player
                game.asked, game.asks = command.player, game.asks + 1
                if self._is(command.player, self.chat.nick):
                    self._think(command.seconds)
            elif isinstance(command, timi.End):
                self._confirm()
                self._over(command.reason)
        elif self._is(nick, game.asked) and game.pending is None:
            game.pending = timi.read_answer(text)

    # --- a game -----------------------------------------------------------------------

    def _new_game(self) -> None:
        if self._thinking is not None:
            self._thinking.cancel()
        self.game = _Game(self.rules.start().state)

    def _confirm(self) -> None:
        """The referee went on: the asked player's move stands; apply it."""
        game = self.game
        if game.asked is None or game.pending is None:
            return
        column, game.pending = chr(64 + game.pending), None
        try:
            game.state = self.rules.play(game.state, column).state
        except IllegalMove:
            log.warning("room %s: a move the rules refuse: %s", self.room, column)
            return
        game.moves.append(column)

    def _think(self, seconds: int) -> None:
        if self._thinking is not None:
            self._thinking.cancel()
        game = self.game
        player = Player.ONE if self._is(self.chat.nick, game.first) else Player.TWO
        ask = Ask(
            game.key, game.state, player, max(LEAST_THINK, seconds - MARGIN), not game.named_us
        )
        game.named_us = True
        self._thinking = asyncio.create_task(self._answer(ask, game, game.asks))

    async def _answer(self, ask: Ask, game: _Game, asks: int) -> None:
        started = time.monotonic()
        answer = await self.engine.play(self.rules, ask)
        if game is not self.game or game.asks != asks or game.pending is not None:
            return  # the referee went on meanwhile
        if answer.value is None:
            log.warning(
                "room %s: %s did not play (%s: %s) after %.1f s",
                self.room,
                self.engine.name,
                answer.error,
                answer.detail,
                time.monotonic() - started,
            )
            return
        game.pending = ord(answer.value) - 64
        self.chat.say(self.room, timi.answer_play(game.pending))

    def _over(self, reason: str) -> None:
        game = self.game
        if game.first is not None:
            first = self._is(self.chat.nick, game.first)
            over = GameOver(self.room, reason, tuple(game.moves), first)
            self.played.append(over)
            self._tried.add(self.room.casefold())
            if self.on_end is not None:
                self.on_end(over)
        self._new_game()
        if len(self.played) >= self.games:
            self.stop()

    # --- the next room ----------------------------------------------------------------

    def _next_room(self, why: str) -> None:
        """Leave this room (``why``) and look for the next one."""
        if self._done.is_set() or self._searching:
            return
        log.info("%s; looking for the next room", why)
        self._tried.add(self.room.casefold())
        self._new_game()
        if self._inside:
            self.chat.part(self.room)
            self._inside = False
        self._searching = True
        self._search = asyncio.create_task(self._search_loop())

    async def _search_loop(self) -> None:
        limit = time.monotonic() + ROOM_WAIT
        while self._searching and time.monotonic() < limit:
            self.chat.list_rooms()
            await asyncio.sleep(LIST_EVERY)
        if self._searching:
            self.stop(f"no room {self.prefix}N to play in within {ROOM_WAIT:g} s")

    def _listed(self, event: events.Listed) -> None:
        if not self._searching:
            return
        found = []
        for name, count in event.rooms:
            number = name[len(self.prefix) :]
            if (
                name.casefold().startswith(self.prefix.casefold())
                and number.isdigit()
                and name.casefold() not in self._tried
                and count <= 2  # the referee and at most one player waiting
            ):
                found.append((-count, int(number), name))
        if not found:
            return
        self.room = min(found)[2]
        self._searching = False
        if self._search is not None:
            self._search.cancel()
        self.chat.join(self.room)
