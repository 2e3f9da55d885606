"""The timi referee of one worker (``timi-rooms.md`` sections 2-3): it holds rooms by lease,
opens them on the chat system, seats the first two players to join, has each game
played by the Arbitre (a ConnectFour game with two ``irc`` seats), ends it with the
spec's ``end`` line, posts the board for people, archives the room and opens the next.

Rooms spread over the workers of one database: each worker holds at most its share (the
rooms configured over the workers refereeing, :meth:`RoomStore.referee_alive`), takes a
free room when under it and hands an idle one back when over it. A room's game is bound
to the worker holding the room (its players are reached through that worker's IRC
session: :attr:`SeatKind.bound`), which makes, leases and drives it whatever
``--workers`` says. A worker that dies stops renewing its leases and another takes its
rooms and opens them again (the game that was in play there ends as ``server error``;
those still in the room are seated again, as if they joined then). A lost chat
connection ends the games in play as ``server error``; the chat reconnects by its own
strategy and the rooms are joined again. Whoever is still in a room whose game's end it
did not see (this referee's connection lost, or a dead worker's room taken over) hears
its ``end`` line first (``end server error`` for a game cut short), then a new game
starts.

Every line out is logged when the chat writes it (:class:`~.chat.Sent`), and a room is
archived once its ``PART`` is written (R-decision 6: after the ``end`` line, the final
board and the game's address).

Who is in each room, the referee's nick and whether it is the room's operator are written
to the store as they change (:meth:`RoomStore.room_seen`), so that ``/rooms`` of any web
process shows them at once. The referee is its rooms' operator (section 1: players that
are not told its nick take the room's operator for it): one that finds itself not, on
joining a room others kept (it reconnected, or took over a dead worker's room) or when
someone takes the status from it, gives it back to itself when the chat system lets it
(an IRC operator account, ``--irc-oper``: ``MODE +o``, and ``-o`` for whoever else took
it meanwhile), at most :data:`RESTORES` times a minute; otherwise it says so in the log
and ``/rooms`` shows it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from dataclasses import dataclass, field

from tournoyons_gui.arbitre.answer import note
from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.match import GameError, Options, SeatSpec
from tournoyons_gui.arbitre.rooms import timi
from tournoyons_gui.arbitre.rooms.chat import (
    Chat,
    ChatEvent,
    Connected,
    Disconnected,
    Joined,
    Left,
    Moded,
    Names,
    Quit,
    Refused,
    Renamed,
    Said,
    Sent,
)
from tournoyons_gui.arbitre.rooms.irc import IrcChat, Pace, parse_irc_url
from tournoyons_gui.arbitre.rooms.session import RoomSession
from tournoyons_gui.arbitre.seats import Position
from tournoyons_gui.arbitre.seats.irc import TIMI_SET, IrcSeat
from tournoyons_gui.arbitre.store import Game, Seat
from tournoyons_gui.arbitre.turns import turn_from

__all__ = ["PART_WAIT", "RESTORES", "RoomOptions", "RoomsReferee", "end_reason"]

log = logging.getLogger(__name__)

#: Seconds a room's archive waits for its last lines (``end``, the final board, the
#: address, ``PART``) to be written before it is archived all the same.
PART_WAIT = 300.0
#: The most times a minute the referee gives itself back a room's operator status (a
#: bound on a fight with whoever takes it).
RESTORES = 3
#: Seconds the store's view of the rooms waits to gather the changes of one moment.
SEEN_EVERY = 0.05


def end_reason(game: Game, seats: list[Seat], foul: tuple[str, str, str] | None) -> str:
    """Return the ``end`` line's reason for a game over (R-decision 2): ``<nick> win``,
    ``draw``, ``<nick> <foul>`` for the seat that lost by failing (``foul`` the room's
    record of it: nick, reason, detail), ``server error`` for a game with no result."""
    if game.result == "draw":
        return timi.DRAW
    if game.winner is None:
        return timi.SERVER_ERROR
    loser = seats[1 - game.winner] if len(seats) == 2 else None
    if loser is not None and loser.error:
        if foul is not None and foul[0] == loser.name:
            return f"{loser.name} {foul[1]}"
        return f"{loser.name} {timi.ILLEGAL}"
    return f"{seats[game.winner].name} {timi.WIN}"


@dataclass
class Held:
    """A room this worker holds: its ``channel`` and ``slot``, the referee's view of it
    (``state``), who is in it (``people``), the game in play (``session``, ``game_id``),
    the ``end`` line those still in the room are owed for a game whose end the room did not
    see (``owed``: line, game id; its chat connection lost, or the room taken over from a
    worker that died), then the line said for it (``owing``: line, game id);
    whether the referee is the room's ``operator`` (``None``: not in it) and when it gave
    itself the status back (``restored``, monotonic seconds)."""

    channel: str
    slot: int
    state: timi.Room
    people: list[str] = field(default_factory=list)
    session: RoomSession | None = None
    game_id: str | None = None
    joined: bool = False
    task: asyncio.Task[None] | None = None
    owed: tuple[str, str] | None = None
    owing: tuple[str, str] | None = None
    operator: bool | None = None
    restored: list[float] = field(default_factory=list)

    def snapshot(self) -> dict[str, list[str]]:
        """Return who is in the room for ``/rooms``: the players, then the others (no one
        while the referee is not in it: it does not know)."""
        if not self.joined:
            return {"players": [], "spectators": []}
        players = list(self.state.nicks())
        lowered = {p.casefold() for p in players}
        return {
            "players": players,
            "spectators": [p for p in self.people if p.casefold() not in lowered],
        }


class RoomsReferee:
    """Referees ``rooms`` rooms named ``prefix`` + number on ``chat`` for ``arbitre``,
    giving ``think`` seconds a move; the games' pages are under ``public_url``."""

    def __init__(
        self,
        arbitre: Arbitre,
        chat: Chat,
        *,
        rooms: int = 3,
        prefix: str = "#p4-",
        think: int = timi.THINK,
        public_url: str = "",
    ) -> None:
        self.arbitre = arbitre
        self.chat = chat
        self.rooms = rooms
        self.prefix = prefix
        self.think = think
        self.public_url = (public_url or arbitre.public_url).rstrip("/")
        self.store = arbitre.store
        self.name = arbitre.worker.name
        self.lease = arbitre.lease_seconds
        self.held: dict[str, Held] = {}
        self.connected = False
        self._tasks: list[asyncio.Task[None]] = []
        self._logging: set[asyncio.Task[None]] = set()
        self._changed: set[str] = set()
        self._change = asyncio.Event()

    # --- running ----------------------------------------------------------------------

    async def run(self) -> None:
        """Say that this process holds the rooms' players (their games are bound to it),
        start the chat connection and the rooms' holding."""
        await self.arbitre.hold(IrcSeat.name)
        self._tasks = [
            asyncio.create_task(self.chat.run(self.heard), name="chat"),
            asyncio.create_task(self._hold_loop(), name="rooms"),
            asyncio.create_task(self._seen_loop(), name="rooms seen"),
        ]

    async def close(self) -> None:
        """Leave the chat system and give the rooms up (their games, if any, end as
        ``server error`` when taken over)."""
        with contextlib.suppress(Exception):
            await self.chat.close("referee stopping")
        games = [h.task for h in self.held.values() if h.task is not None]
        for task in [*self._tasks, *games]:
            task.cancel()
        await asyncio.gather(*self._tasks, *games, return_exceptions=True)
        try:
            await self.store.referee_gone(self.name)
            await self.arbitre.hold(IrcSeat.name, held=False)
        except Exception:
            log.exception("giving the rooms up")

    async def _hold_loop(self) -> None:
        while True:
            try:
                await self.hold()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("holding the rooms")
            await asyncio.sleep(self.lease / 3)

    def seen(self, held: Held) -> None:
        """Have the store told, in a moment, who is in ``held``'s room and whether the
        referee is its operator (:meth:`_seen_loop`)."""
        self._changed.add(held.channel.casefold())
        self._change.set()

    async def _seen_loop(self) -> None:
        """Write the rooms that changed to the store, one at a time (the latest view of
        each), gathering the changes of :data:`SEEN_EVERY` seconds."""
        while True:
            await self._change.wait()
            await asyncio.sleep(SEEN_EVERY)
            self._change.clear()
            changed, self._changed = self._changed, set()
            for key in changed:
                held = self.held.get(key)
                if held is None:
                    continue
                try:
                    await self.store.room_seen(
                        held.channel, self.name, held.snapshot(), self.chat.nick, held.operator
                    )
                except Exception:
                    log.exception("writing who is in %s", held.channel)

    async def hold(self) -> None:
        """Renew this worker's rooms, take free ones up to its share, hand an idle one
        back when over it."""
        alive = await self.store.referee_alive(self.name, self.lease)
        people = {h.channel: h.snapshot() for h in self.held.values()}
        kept = {c.casefold() for c in await self.store.renew_rooms(self.name, self.lease, people)}
        for key in [k for k in self.held if k not in kept]:
            self._drop(self.held.pop(key))  # its lease was lost meanwhile
        share = math.ceil(self.rooms / alive)
        slots = [
            s for s in range(1, self.rooms + 1) if s not in {h.slot for h in self.held.values()}
        ]
        random.shuffle(slots)
        for slot in slots:
            if len(self.held) >= share:
                break
            room = await self.store.take_room(self.prefix, slot, self.name, self.lease)
            if room is not None:
                self._open(room.channel, slot, await self._interrupted(room.game_id))
        idle = [h for h in self.held.values() if h.session is None and not h.state.nicks()]
        if len(self.held) > share and idle:
            held = idle[0]
            self.held.pop(held.channel.casefold())
            self._drop(held)
            await self.store.close_room(held.channel, self.name, archive=False)

    async def _interrupted(self, game_id: str | None) -> tuple[str, str] | None:
        """Return the ``end`` line owed to those still in a room taken over with its game
        ``game_id`` (a room is archived once its game's end is said: one that is not was
        held by a worker that died, or lost its lease, before it could) and the game's
        id, or ``None``. A game still in play ends here as ``server error`` (its players'
        IRC session died with its holder); one that ended meanwhile is told as it ended."""
        found = None if game_id is None else await self.store.game(game_id)
        if found is None or game_id is None:
            return None
        game, seats = found
        if game.status == "playing":
            # Ended here when its holder's heartbeat has lapsed too; else by the worker
            # that takes it over once it has (its players' connection is gone either way:
            # a holder that only stalled finds its room lost and ends it itself).
            await self.arbitre.cancel(game_id, timi.SERVER_ERROR, status="over")
            return timi.end(timi.SERVER_ERROR), game_id
        return timi.end(end_reason(game, seats, None)), game_id

    def _open(self, channel: str, slot: int, owed: tuple[str, str] | None = None) -> None:
        held = Held(channel, slot, timi.Room(self.chat.nick), owed=owed)
        self.held[channel.casefold()] = held
        if self.connected:
            self.chat.join(channel)

    def _drop(self, held: Held) -> None:
        if held.session is not None:
            held.session.lost("the room's lease was lost")
        if self.connected and held.joined:
            self.chat.part(held.channel)

    # --- the chat's events ------------------------------------------------------------

    def heard(self, event: ChatEvent) -> None:
        """Take one event of the chat system (in order, never blocking)."""
        if isinstance(event, Connected):
            self.connected = True
            for held in self.held.values():
                held.state, held.people, held.joined = timi.Room(event.nick), [], False
                held.operator = None
                self.chat.join(held.channel)
                self.seen(held)
        elif isinstance(event, Disconnected):
            self.connected = False
            for held in self.held.values():
                held.operator = None
                self.seen(held)
                if held.session is not None and not held.state.over:
                    held.session.lost(event.why)
                    held.session = None
                    if held.game_id is not None:
                        held.owed = (timi.end(timi.SERVER_ERROR), held.game_id)
                elif held.session is not None:
                    held.session.lost(event.why)
                held.joined = False
        elif isinstance(event, Sent):
            found = self.held.get(event.room.casefold())
            if found is not None:
                self._sent(found, event.raw)
        elif isinstance(event, Joined | Left | Said):
            found = self.held.get(event.room.casefold())
            if found is not None:
                self._in_room(found, event)
        elif isinstance(event, Quit | Renamed):
            for held in list(self.held.values()):
                self._in_room(held, event)
        elif isinstance(event, Names):
            found = self.held.get(event.room.casefold())
            if found is not None:
                self._present(found, event)
                self._operator(found, event.operators)
        elif isinstance(event, Moded):
            found = self.held.get(event.room.casefold())
            if found is not None and event.nick.casefold() == self.chat.nick.casefold():
                self._operator(found, [event.nick] if event.operator else [])
        elif isinstance(event, Refused):
            log.warning("the chat refused %s: %s", event.room, event.why)

    def _sent(self, held: Held, line: str) -> None:
        """A line to ``held``'s room was written: to its game's log (the owed ``end`` to
        the log of the game it ends)."""
        if held.owing is not None and held.owing[0] == line:
            entry = (0, *note("irc out", line))
            task = asyncio.create_task(self.store.log_many(held.owing[1], [entry]))
            self._logging.add(task)
            task.add_done_callback(self._logging.discard)
            held.owing = None
        elif held.session is not None:
            held.session.sent(line)

    def _present(self, held: Held, names: Names) -> None:
        """Those already in a room we (re)open (taken over from a worker that died, or
        rejoined) come in as if they joined now, in the order listed: a game can start.
        If the room's game ended as ``server error`` meanwhile, they hear its ``end``
        first."""
        if held.owed is not None:
            if any(n.casefold() != self.chat.nick.casefold() for n in names.nicks):
                line = self.chat.say(held.channel, held.owed[0])
                held.owing = (line, held.owed[1])
            held.owed = None
        if held.session is not None or held.state.players is not None:
            return
        known = {p.casefold() for p in held.people} | {self.chat.nick.casefold()}
        known |= {o.casefold() for o in names.operators}  # another referee, leaving
        for nick in names.nicks:
            if nick.casefold() not in known:
                known.add(nick.casefold())
                self._in_room(held, Joined(held.channel, nick, names.raw))

    def _in_room(self, held: Held, event: Joined | Left | Said | Quit | Renamed) -> None:
        if isinstance(event, Joined) and event.nick == self.chat.nick:
            held.joined = True
            self.seen(held)
            return
        nick = event.old if isinstance(event, Renamed) else event.nick
        present = any(p.casefold() == nick.casefold() for p in held.people)
        if isinstance(event, Quit | Renamed) and not present:
            return
        if held.session is not None:
            held.session.heard(event.raw)
        if not isinstance(event, Said):
            self.seen(held)
        if isinstance(event, Joined):
            held.people.append(event.nick)
            verdicts = held.state.joined(event.nick)
        elif isinstance(event, Said):
            verdicts = held.state.said(event.nick, event.text)
        else:
            held.people = [p for p in held.people if p.casefold() != nick.casefold()]
            if isinstance(event, Renamed):
                held.people.append(event.new)
                verdicts = held.state.renamed(event.old, event.new)
            else:
                verdicts = held.state.left(nick)
        for verdict in verdicts:
            if isinstance(verdict, timi.Seated):
                # The session is the room's from the seating on: a player's foul heard
                # while the game is being made (its JOIN and PART in one write) counts.
                players = (verdict.first, verdict.second)
                session = RoomSession(self.chat, held.channel, held.state, players, self._board)
                held.session, held.game_id = session, None
                held.task = asyncio.create_task(self._game(held, session), name=held.channel)
                self.seen(held)
            elif held.session is not None:
                held.session.verdict(verdict)

    def _operator(self, held: Held, operators: list[str] | tuple[str, ...]) -> None:
        """The room's operators as the chat system says (all of them on joining, or ours
        given or taken): note whether the referee is one; when it is not, give the status
        back to itself (and take it from the others) if the chat system lets it."""
        me = self.chat.nick.casefold()
        held.operator = any(o.casefold() == me for o in operators)
        self.seen(held)
        if held.operator:
            return
        now = time.monotonic()
        held.restored = [t for t in held.restored if now - t < 60.0]
        if not self.chat.privileged:
            log.warning(
                "not the operator of %s, and the chat system gives no way back: players "
                "that take the room's operator for its referee will not follow it "
                "(give the referee an IRC operator account: --irc-oper)",
                held.channel,
            )
            return
        if len(held.restored) >= RESTORES:
            log.warning("%s: operator status taken again; not given back for now", held.channel)
            return
        held.restored.append(now)
        log.info("%s: giving the referee its operator status back", held.channel)
        self.chat.operator(held.channel, self.chat.nick)
        for other in operators:
            if other.casefold() != me:
                self.chat.operator(held.channel, other, on=False)

    # --- a game -----------------------------------------------------------------------

    async def _game(self, held: Held, session: RoomSession) -> None:
        """Play the room's game (``session``, made on seating), end it, archive the room."""
        try:
            await self._play(held, session)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s failed", held.channel)

    async def _play(self, held: Held, session: RoomSession) -> None:
        seats = [SeatSpec("irc", held.channel, nick) for nick in session.players]
        seating = self.arbitre.services.seating
        seating[held.channel.casefold()] = session.players
        try:
            game_id = await self.arbitre.create(TIMI_SET, seats, Options(timeout=self.think))
        except GameError:
            log.exception("room %s: the game could not be made", held.channel)
            if held.session is session:
                held.session = None
            return
        finally:
            seating.pop(held.channel.casefold(), None)
        # The game's task has not run yet (no await since it was made): its first ask
        # finds the session.
        self.arbitre.services.sessions[game_id] = session
        held.game_id = game_id
        address = f"{self.public_url}/games/{game_id}"
        self.chat.notice(held.channel, f"game {address}")
        try:
            await self.store.room_game(held.channel, game_id)
            await self.arbitre.wait(game_id)
        finally:
            self.arbitre.services.sessions.pop(game_id, None)
            session.state.close()  # its own room: a reconnection may have made a new one
        await self._ended(held, session, game_id, address)

    async def _ended(self, held: Held, session: RoomSession, game_id: str, address: str) -> None:
        found = await self.store.game(game_id)
        if found is None:
            return
        game, seats = found
        if session.broken:
            if held.session is session:
                held.session = None
            await self.store.log_many(game_id, [(0, *entry) for entry in session.drain()])
            return  # the room is gone with the server: it is opened again on reconnection
        if game.status == "playing":
            game, seats = await self._end_given_up(held, game, seats)
        self.chat.say(held.channel, timi.end(end_reason(game, seats, session.foul)))
        interface = self.arbitre.lookup(game.set_name)
        if interface is not None and interface.arbitre is not None:
            tray = interface.arbitre.page(turn_from(game.turn), None, asking=False).get("Tray", "")
            self.chat.board(held.channel, timi.board_lines(str(tray)))
        self.chat.notice(held.channel, f"game {address}")
        if not await session.written(self.chat.part(held.channel, "game over"), PART_WAIT):
            log.warning("room %s: archived before its last lines were written", held.channel)
        entries = [(0, *entry) for entry in session.drain()]
        entries.append((0, *note("irc out", f"room {held.channel} archived")))
        await self.store.log_many(game_id, entries)
        self.held.pop(held.channel.casefold(), None)
        if held.session is session:
            held.session = None
        await self.store.close_room(held.channel, self.name, archive=True)
        room = await self.store.take_room(self.prefix, held.slot, self.name, self.lease)
        if room is not None:
            self._open(room.channel, held.slot)

    async def _end_given_up(
        self, held: Held, game: Game, seats: list[Seat]
    ) -> tuple[Game, list[Seat]]:
        """Return the game of ``held``'s room ended, whose task here stopped while it was in
        play (its driver gave it up: the database failed under it, or an organiser is
        cancelling it): its players' session is this room's alone, so it ends here as a
        server error (or as the organiser's cancel ends it), waited for at most a lease;
        still in play then, it is told as ``server error`` all the same (no room waits
        forever), and ends as one when this worker's scan takes it again (its seats find
        no session)."""
        log.warning("room %s: game %s stopped in play; ending it", held.channel, game.id)
        deadline = time.monotonic() + self.lease
        while True:
            if game.id not in self.arbitre.worker.cancelling:
                await self.arbitre.cancel(game.id, timi.SERVER_ERROR, status="over")
            found = await self.store.game(game.id)
            if found is None:
                return game, seats
            if found[0].status != "playing" or time.monotonic() > deadline:
                return found
            await asyncio.sleep(0.2)

    def _board(self, position: Position) -> None:
        """Post the position asked on for people: six NOTICE lines, whole or superseded by
        the next position's (R-decision 5)."""
        tray = position.rules.page(position.turn, None, asking=False).get("Tray", "")
        self.chat.board(position.seat.url, timi.board_lines(str(tray)))


@dataclass(frozen=True)
class RoomOptions:
    """How a worker referees rooms (``tournoyons-gui rooms`` and ``serve --irc``): the chat
    ``server`` (``irc://HOST:PORT``), the referee's ``nick``, how many ``rooms`` are open at
    once, their channels' ``prefix``, the ``think`` seconds a move (4-54, the match's
    TimeOut), the web address of the games' pages (``public_url``, default the Arbitre's),
    the ``pace`` of the lines sent (default under common servers' flood limits), and the
    IRC operator account (``oper``: name, password) with which the referee gives itself
    back a room's operator status."""

    server: str
    nick: str = "Arbitre"
    rooms: int = 3
    prefix: str = "#p4-"
    think: int = timi.THINK
    public_url: str = ""
    pace: Pace | None = None
    oper: tuple[str, str] | None = field(default=None, repr=False)

    def referee(self, arbitre: Arbitre) -> RoomsReferee:
        """Return the referee of these rooms for ``arbitre``, on IRC, its connection held
        to ``arbitre``'s outbound policy (a public server reaches an internal
        chat server only when ``--allow-hosts`` lists it); raise ``ValueError`` for a
        server that is not ``irc://HOST[:PORT]``."""
        host, port = parse_irc_url(self.server)
        chat = IrcChat(
            host, port, self.nick, pace=self.pace, outbound=arbitre.outbound, oper=self.oper
        )
        return RoomsReferee(
            arbitre,
            chat,
            rooms=self.rooms,
            prefix=self.prefix,
            think=self.think,
            public_url=self.public_url,
        )
