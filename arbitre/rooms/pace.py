"""How a chat client's lines go out, sans I/O (``timi-rooms.md`` section 3): in
which order (:class:`Outbox`), how fast (:class:`Pace`, :class:`Throttle`), and how long
the server takes to pass a line on (:class:`Lag`). No socket, no event loop, no clock of
their own (times are given): the IRC client (:mod:`.irc`) asks them what to send and
when, and tells them what came back; each is tested alone.

- **Order** (:class:`Outbox`): lines go in the order they were said (protocol lines:
  ``JOIN``, ``PART``, ``play``, ``end``, the lag probes; and notices: the game's
  address), except boards. A board is a block of lines that goes whole or not at all:
  while it waits, a newer board of its room supersedes it (dropped whole) and the
  protocol lines said after it go first; it starts only when no other line waits and the
  connection has rested (as many of its lines as the pace's burst allows may go at once:
  a board then keeps a line said meanwhile waiting only for its lines past the burst),
  and once its first line is out its other lines go before any other, so that nothing
  cuts it. A notice to
  a room or its ``PART`` makes the room's board waiting final: it goes before them, no
  longer superseded (a room's final board, then its address, then ``PART``:
  R-decision 6).
- **Pace** (:class:`Pace`, :class:`Throttle`): a token bucket, ``burst`` lines at once,
  then ``per_second``. The defaults stay under ngIRCd's limit (it reads a client's lines
  3 a second, on one-second ticks) and solanum's (Libera's server: 5 at once, then 2 a
  second). When the server holds our lines (a probe's round trip more than
  :data:`HELD` seconds longer than the best one seen), the rate halves, down to RFC
  1459's one line every two seconds (:data:`LEAST_RATE`), with no burst; each probe that
  comes back promptly gives back a quarter of the configured rate.
- **Lag** (:class:`Lag`): ``PING`` probes timed from the moment each is written to the
  socket to its ``PONG``. The lag is the longest round trip of the last
  :data:`KEPT_PROBES`, or the wait of the probe still out when longer, and never less than
  :data:`LEAST_LAG`; a probe out for :data:`MOST_LAG` seconds means the connection is dead.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

__all__ = [
    "HELD",
    "KEPT_PROBES",
    "LEAST_LAG",
    "LEAST_RATE",
    "MOST_LAG",
    "PROBE_EVERY",
    "Block",
    "Lag",
    "Outbox",
    "Pace",
    "Throttle",
]

#: The least lag counted, seconds: a line may wait up to a second at the server (ngIRCd
#: reads a client's lines on one-second ticks), and as long on its way back.
LEAST_LAG = 1.0
#: Seconds a probe may stay unanswered before the connection is taken for dead (and the
#: most lag ever counted).
MOST_LAG = 30.0
#: The probes whose round trips make the lag.
KEPT_PROBES = 3
#: Seconds between two probes.
PROBE_EVERY = 10.0
#: Seconds a probe's round trip may exceed the best one seen before the server is taken
#: to be holding our lines (and the rate halves).
HELD = 1.0
#: The slowest rate the pace falls to, lines a second (RFC 1459 section 8.10: a client
#: is read one line every two seconds once past its burst).
LEAST_RATE = 0.5


@dataclass(frozen=True)
class Pace:
    """How fast a chat client may send: ``burst`` lines at once, then ``per_second``
    lines a second; a lag probe every ``probe_every`` seconds. Raise ``ValueError`` for a
    burst under 1 or a rate or probe period that is not positive."""

    burst: int = 3
    per_second: float = 2.0
    probe_every: float = PROBE_EVERY

    def __post_init__(self) -> None:
        if self.burst < 1 or not self.per_second > 0 or not self.probe_every > 0:
            raise ValueError(f"not a pace: {self.burst} at once, {self.per_second} a second")


class Throttle:
    """The token bucket of a :class:`Pace` on one connection, slowed down while the server
    holds our lines (module docstring); ``clock`` gives seconds (``time.monotonic``)."""

    def __init__(self, pace: Pace, clock: Callable[[], float] = time.monotonic) -> None:
        self.pace = pace
        self.clock = clock
        #: Lines a second now (``pace.per_second`` unless slowed down).
        self.rate = pace.per_second
        self._tokens = float(pace.burst)
        self._at = clock()

    @property
    def slowed(self) -> bool:
        """Whether the rate is under the configured one."""
        return self.rate < self.pace.per_second

    def wait(self) -> float:
        """Return the seconds until a line may go (0: now), taking its token when it may."""
        now = self.clock()
        burst = 1.0 if self.slowed else float(self.pace.burst)
        self._tokens = min(burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens >= 1:
            self._tokens -= 1
            return 0.0
        return (1 - self._tokens) / self.rate

    def resting(self, lines: int) -> float:
        """Return the seconds until ``lines`` lines may go at once, as many as the burst
        allows (0: now)."""
        burst = 1.0 if self.slowed else float(self.pace.burst)
        tokens = min(burst, self._tokens + (self.clock() - self._at) * self.rate)
        return max(0.0, min(burst, float(lines)) - tokens) / self.rate

    def observe(self, held: float) -> None:
        """Hear a probe's round trip, ``held`` seconds longer than the best one seen: halve
        the rate when the server held our lines (more than :data:`HELD`), else give back a
        quarter of the configured rate."""
        least = min(LEAST_RATE, self.pace.per_second)
        if held > HELD:
            self.rate = max(least, self.rate / 2)
            self._tokens = min(self._tokens, 1.0)
        else:
            self.rate = min(self.pace.per_second, self.rate + self.pace.per_second / 4)


@dataclass
class Lag:
    """The server's lag as its ``PING`` probes measure it (module docstring). Times are
    ``time.monotonic()`` seconds, given by the caller."""

    least: float = LEAST_LAG
    most: float = MOST_LAG
    _trips: deque[float] = field(default_factory=lambda: deque(maxlen=KEPT_PROBES))
    _best: float | None = None
    _out: dict[str, float | None] = field(default_factory=dict)
    _count: int = 0

    def reset(self) -> None:
        """Forget every probe (a new connection)."""
        self._trips.clear()
        self._out.clear()
        self._best = None

    def probe(self) -> str | None:
        """Return the token of a new probe to send (``PING :<token>``), or ``None`` while
        one is still out."""
        if self._out:
            return None
        self._count += 1
        token = f"lag{self._count}"
        self._out[token] = None
        return token

    def written(self, token: str, now: float) -> None:
        """The probe ``token`` was written to the socket at ``now``."""
        if token in self._out:
            self._out[token] = now

    def answered(self, token: str, now: float) -> float | None:
        """Hear the ``PONG`` of ``token`` at ``now``; return its round trip (``None`` for
        no probe of ours), and how much longer than the best one is :meth:`held`."""
        sent = self._out.pop(token, None)
        if sent is None:
            return None
        trip = max(0.0, now - sent)
        self._trips.append(trip)
        self._best = trip if self._best is None else min(self._best, trip)
        return trip

    def held(self, trip: float) -> float:
        """Return how much longer than the best round trip seen ``trip`` is."""
        return max(0.0, trip - (self._best if self._best is not None else trip))

    def waiting(self, now: float) -> float:
        """Return how long the probe out has waited for its ``PONG`` (0: none out)."""
        sent = [at for at in self._out.values() if at is not None]
        return max(0.0, now - min(sent)) if sent else 0.0

    def seconds(self, now: float) -> float:
        """Return the lag: the longest of the last round trips and of the probe still
        out's wait, at least :attr:`least`, at most :attr:`most`."""
        longest = max([*self._trips, self.waiting(now)])
        return min(self.most, max(self.least, longest))

    def dead(self, now: float) -> bool:
        """Whether a probe has waited :attr:`most` seconds for its ``PONG``."""
        return self.waiting(now) >= self.most


@dataclass
class Block:
    """Lines that go out one after the other with nothing between them: one protocol
    line or notice, or a ``board`` (superseded while it waits by a newer board of its
    ``room``)."""

    room: str
    lines: deque[str]
    board: bool = False

    def of(self, room: str) -> bool:
        """Whether the block's lines go to ``room`` (names compare case-insensitively)."""
        return self.room.casefold() == room.casefold()


class Outbox:
    """The lines waiting to go to the chat server, in the order they go (module
    docstring); :attr:`superseded` counts the boards dropped whole."""

    def __init__(self) -> None:
        self._current: Block | None = None
        self._protocol: deque[Block] = deque()
        self._people: deque[Block] = deque()
        self.superseded = 0

    def __len__(self) -> int:
        """Return how many lines wait."""
        blocks = [self._current] if self._current is not None else []
        return sum(len(b.lines) for b in [*blocks, *self._protocol, *self._people])

    def protocol(self, line: str, room: str = "") -> None:
        """Queue a protocol line (to ``room``, ``""`` for none)."""
        self._protocol.append(Block(room, deque([line])))

    def notice(self, room: str, line: str) -> None:
        """Queue a line for people in ``room``, in the protocol lines' order, after the
        room's board waiting (no longer superseded)."""
        self._settle(room)
        self.protocol(line, room)

    def board(self, room: str, lines: Iterable[str]) -> None:
        """Queue a board for ``room`` (no line: nothing); a board of the room still waiting
        is dropped."""
        rows = deque(lines)
        if not rows:
            return
        kept = deque(b for b in self._people if not (b.board and b.of(room)))
        self.superseded += len(self._people) - len(kept)
        self._people = kept
        self._people.append(Block(room, rows, board=True))

    def part(self, room: str, line: str) -> None:
        """Queue ``line`` (the ``PART``) after the room's board waiting (no longer
        superseded)."""
        self._settle(room)
        self.protocol(line, room)

    def _settle(self, room: str) -> None:
        """Make ``room``'s board waiting final: it goes next in the protocol lines' order."""
        self._protocol.extend(b for b in self._people if b.of(room))
        self._people = deque(b for b in self._people if not b.of(room))

    def pressing(self) -> bool:
        """Whether a line other than a board not yet started waits."""
        return self._current is not None or bool(self._protocol)

    def next_board(self) -> int:
        """Return how many lines the next board to start has (0: none waits)."""
        return len(self._people[0].lines) if self._people else 0

    def pop(self) -> tuple[str, str] | None:
        """Return the next line to send and its room (``""`` for none), or ``None``."""
        if self._current is None:
            if self._protocol:
                self._current = self._protocol.popleft()
            elif self._people:
                self._current = self._people.popleft()
            else:
                return None
        block = self._current
        line = block.lines.popleft()
        if not block.lines:
            self._current = None
        return block.room, line

    def clear(self) -> None:
        """Forget every line (the connection is lost: the rooms are joined again)."""
        self._current = None
        self._protocol.clear()
        self._people.clear()
