"""Process engines: an engine that is a program on this machine, started by the Arbitre and
spoken to over its standard input and output, one line each way (the engine protocol's
line transport, ``docs/reference/engine-protocol.md`` section 8).

Each request is the query string an engine over HTTP would receive, ``Referee`` empty (as
in tester mode: the answer is the Value itself, no callback), written as one line to the
program's standard input; its answer is the next line it writes to its standard output.
A final call is a line too (``Status`` 1-5 or 9, no ``MoveId``, no ``Referee``); its line
back is read and ignored. What the program writes to its standard error goes to the log
of the game it was asked for, :data:`STDERR_PER_GAME` bytes a game and seat at most.

Why a transport of its own: an engine's author writes no web server and no HTTP client (a
Ruby author has no web server in the standard library since 3.0), and a line over a pipe
costs a fraction of an HTTP round trip and its callback (cutechess and fastchess speak to
chess engines so, UCI; CodinGame's bots read and write lines the same way).

**Where it runs.** Only a command given on the command line of ``play`` or ``tournament``
(:meth:`ProcessEngines.allow`) is ever started, never one that came over the web: a server
refuses ``cmd:`` with a sentence (:data:`SERVER_REFUSES`). The command is split as a shell
would split its words (:func:`shlex.split`: quotes and backslashes), never given to a
shell: no variable, glob, pipe or redirection is expanded (``sh -c '...'`` for those).
Each program runs in a process group of its own, so that Ctrl-C in the terminal reaches
the Arbitre alone, which then ends the games and kills every group (grandchildren too).

**How many.** As cutechess runs its engines, a process plays one game at a time: each seat
of a game in play has its own, so that games played at once (``--concurrency``) never wait
for each other's engine. With ``restart`` off (the default, as fastchess's
``restart=off``) a process is kept when its game ends and plays the entrant's next game
(each request names its game: ``Game``), so that a match starts as many processes as it
plays games at once; one that failed is stopped and replaced. With ``restart`` on, each
game has new processes, stopped at its end.

**Faults** are an HTTP engine's (decision 12): no line within the limit is ``late``; a
program that cannot start, or exits, is ``unreachable``; a line over :data:`LINE_LIMIT`
bytes (read without holding more than about twice that) or not UTF-8 is ``malformed``; an
empty line is an answer with no Value (``malformed`` too, by the game master). After a
fault the process is killed, since a late line would be read as the answer to the next
request.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field

from tournoyons_gui.arbitre.answer import ABORTED, MALFORMED, Note, note
from tournoyons_gui.arbitre.match import GameError

__all__ = [
    "GRACE",
    "LINE_LIMIT",
    "PREFIX",
    "SERVER_REFUSES",
    "STDERR_PER_GAME",
    "CommandError",
    "EngineProcess",
    "Exchange",
    "ProcessEngines",
    "command_of",
    "command_words",
    "is_command",
    "kill_every_process",
    "refuse_command",
]

#: How a process engine is written where an engine URL would be: ``cmd:ruby engine.rb``.
PREFIX = "cmd:"
#: The longest line read from an engine, its newline included (as the HTTP body's limit).
LINE_LIMIT = 64 * 1024
#: The bytes of standard error logged per game and seat (then one line says how many more).
STDERR_PER_GAME = 64 * 1024
#: The bytes of standard error held between two requests (the rest counted, not kept).
STDERR_HELD = 16 * 1024
#: The longest line of standard error logged (a longer one is cut).
STDERR_LINE = 2000
#: Seconds an ended process has to exit once its standard input is closed, before its
#: process group is killed.
GRACE = 1.0
#: Seconds a final call's line back is waited for (an HTTP final call's cut).
FINAL_CUT = 10.0
#: The seats whose process is remembered (for their final call and their end).
MAX_SEATS = 10_000
#: The longest command accepted (as an engine URL's 2000 characters).
MAX_COMMAND = 2000

#: What a server says to a ``cmd:`` engine given to it (a game, a tournament, a
#: registration made over the web).
SERVER_REFUSES = (
    "a process engine (cmd:) is a program started on the Arbitre's own machine: only "
    "play and tournament start one, for the engine's author on the command line; a server "
    "plays engines by their http:// or https:// URL"
)


class CommandError(ValueError):
    """A ``cmd:`` engine that cannot be started as given; the message says why."""


def is_command(engine: str) -> bool:
    """Whether ``engine`` (an ``--engine`` value's engine, a seat's URL) is a process
    engine: ``cmd:`` then a command, any case, spaces around ignored."""
    return engine.lstrip()[: len(PREFIX)].lower() == PREFIX


def command_of(engine: str) -> str:
    """Return the command of a ``cmd:`` engine, spaces around it removed."""
    return engine.strip()[len(PREFIX) :].strip()


def command_words(command: str) -> list[str]:
    """Return ``command`` split into the program and its arguments as a POSIX shell splits
    words (:func:`shlex.split`: quotes, backslashes; nothing expanded); raise
    :class:`CommandError` for no command, one over :data:`MAX_COMMAND` characters, a
    control character or a quote left open."""
    if not command:
        raise CommandError('cmd: names no command (cmd:"ruby engine.rb")')
    if len(command) > MAX_COMMAND:
        raise CommandError(f"a command is at most {MAX_COMMAND} characters")
    if any(ord(c) < 32 or ord(c) == 127 for c in command):
        raise CommandError("a command has no control character (one line)")
    try:
        words = shlex.split(command)
    except ValueError as broken:
        raise CommandError(f"the command {command[:80]!r} cannot be split: {broken}") from None
    if not words:
        raise CommandError('cmd: names no command (cmd:"ruby engine.rb")')
    return words


def refuse_command(engine: str) -> None:
    """Raise :class:`GameError` (:data:`SERVER_REFUSES`) when ``engine`` is a ``cmd:``
    engine: what the web's forms and bodies call before anything else."""
    if is_command(engine):
        raise GameError(SERVER_REFUSES)


@dataclass
class _Stderr:
    """What a process wrote to its standard error and nobody logged yet: whole ``lines``,
    the ``partial`` line after them, their ``held`` bytes, and the bytes ``dropped`` past
    :data:`STDERR_HELD`."""

    lines: list[str] = field(default_factory=list)
    partial: bytes = b""
    held: int = 0
    dropped: int = 0

    def take(self, chunk: bytes) -> None:
        """Keep ``chunk``'s lines while :data:`STDERR_HELD` bytes are not held; count the
        rest."""
        data = self.partial + chunk
        *whole, self.partial = data.split(b"\n")
        if len(self.partial) > STDERR_LINE:  # a line that never ends: cut it now
            whole.append(self.partial)
            self.partial = b""
        for raw in whole:
            if self.held + len(raw) > STDERR_HELD:
                self.dropped += len(raw) + 1
                continue
            self.held += len(raw) + 1
            text = raw.decode("utf-8", "backslashreplace").rstrip("\r")
            self.lines.append(text if len(text) <= STDERR_LINE else text[:STDERR_LINE] + "…")

    def end(self) -> None:
        """Take the partial line as a line (the stream ended)."""
        if self.partial:
            self.take(b"\n")


@dataclass
class Exchange:
    """One line sent and what came of it: the ``line`` back (``None``: none), the failure
    (``error``: ``late``, ``unreachable``, ``malformed``; ``""``: none) and its ``detail``,
    the milliseconds from the write to the line (``ms``) and the log's entries (``notes``:
    an error, what came instead of a line)."""

    line: str | None
    error: str = ""
    detail: str = ""
    ms: int = 0
    notes: list[Note] = field(default_factory=list)


class EngineProcess:
    """One running engine program of the entrant ``entrant``: started by :meth:`start`,
    asked by :meth:`exchange` (one at a time: its owner holds :attr:`lock`), stopped by
    :meth:`stop` or :meth:`kill`."""

    def __init__(self, command: str, entrant: str = "") -> None:
        self.command = command
        self.entrant = entrant
        self.lock = asyncio.Lock()
        self.process: asyncio.subprocess.Process | None = None
        self.stderr = _Stderr()
        self._reader: asyncio.Task[None] | None = None
        #: Whether it failed (killed, exited): never asked again.
        self.failed = False

    @property
    def pid(self) -> int | None:
        """Return the process's id (its group's too), ``None`` before it started."""
        return self.process.pid if self.process is not None else None

    async def start(self) -> str:
        """Start the program (its own process group, pipes for its three streams); return
        ``""``, or why it could not start."""
        try:
            words = command_words(self.command)
            self.process = await asyncio.create_subprocess_exec(
                *words,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                start_new_session=True,
                limit=LINE_LIMIT,
            )
        except CommandError as refused:
            self.failed = True
            return str(refused)
        except (OSError, ValueError) as failed:
            self.failed = True
            why = getattr(failed, "strerror", None) or str(failed)
            return f"cannot start {self.command[:200]!r}: {why}"
        self._reader = asyncio.create_task(self._read_stderr())
        return ""

    async def _read_stderr(self) -> None:
        """Read standard error until it ends, into :attr:`stderr` (bounded)."""
        assert self.process is not None and self.process.stderr is not None
        stream = self.process.stderr
        with contextlib.suppress(OSError, ValueError):
            while chunk := await stream.read(4096):
                self.stderr.take(chunk)
        self.stderr.end()

    async def exchange(self, line: str, timeout: float) -> Exchange:
        """Write ``line`` and read the line back within ``timeout`` seconds (the caller
        holds :attr:`lock`); on any failure the process is killed (:meth:`kill`)."""
        process = self.process
        assert process is not None and process.stdin is not None and process.stdout is not None
        started = time.monotonic()
        try:
            async with asyncio.timeout(timeout):
                process.stdin.write(line.encode("utf-8", "backslashreplace") + b"\n")
                await process.stdin.drain()
                raw = await process.stdout.readline()
        except TimeoutError:
            self.kill()
            return self._failed("late", f"no line within {timeout:g} s", started)
        except ValueError:  # the line is longer than the stream's limit
            self.kill()
            return self._failed(MALFORMED, f"a line of more than {LINE_LIMIT // 1024} KiB", started)
        except (ConnectionError, OSError, RuntimeError):  # its standard input is closed
            return self._failed("unreachable", await self._exited(), started)
        ms = _ms(started)
        if not raw:
            return self._failed("unreachable", await self._exited(), started)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            self.kill()
            shown = raw[:120].decode("utf-8", "backslashreplace")
            return self._failed(MALFORMED, f"a line that is not UTF-8: {shown!r}", started)
        return Exchange(text.rstrip("\n").rstrip("\r"), ms=ms)

    def _failed(self, error: str, detail: str, started: float) -> Exchange:
        self.failed = True
        return Exchange(None, error, detail, _ms(started), [note("error", f"{error}: {detail}")])

    async def _exited(self) -> str:
        """Return how the process ended (it closed its output: it exited, or is exiting),
        once it has, its standard error read to its end (a second at most each)."""
        self.failed = True
        process = self.process
        assert process is not None
        try:
            code = await asyncio.wait_for(process.wait(), GRACE)
        except TimeoutError:
            self.kill()
            return "the process closed its standard output without exiting (killed)"
        if self._reader is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._reader), GRACE)
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"the process was killed by {name} before answering"
        return f"the process exited with status {code} before answering"

    def logged(self, budget: int) -> tuple[list[Note], int]:
        """Return the log's entries of the standard error held (each line a ``stderr``
        entry; what is past ``budget`` bytes, or was dropped, said in one line) and the
        bytes they took; the held lines are then forgotten."""
        held = self.stderr
        notes: list[Note] = []
        used = 0
        over = held.dropped
        for text in held.lines:
            size = len(text.encode()) + 1
            if used + size > budget:
                over += size
                continue
            used += size
            notes.append(note("stderr", text))
        if over:
            notes.append(note("stderr", f"… {over} more bytes of standard error not kept"))
        held.lines, held.held, held.dropped = [], 0, 0
        return notes, used

    def kill(self) -> None:
        """Kill the process's group at once (SIGKILL: the program and whatever it
        started); it is never asked again."""
        self.failed = True
        if self.process is not None:
            _kill_group(self.process.pid)

    async def stop(self, grace: float = GRACE) -> None:
        """End the process: its standard input closed (a program reading lines ends at the
        end of its input), ``grace`` seconds to exit, then its whole group killed (what it
        started included); reaped."""
        self.failed = True
        process = self.process
        if process is None:
            return
        try:
            if process.stdin is not None:
                with contextlib.suppress(OSError, RuntimeError):
                    process.stdin.close()
            if process.returncode is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(process.wait(), grace)
        finally:  # cancelled meanwhile (Ctrl-C ending its game) or not: its group dies
            _kill_group(process.pid)
        with contextlib.suppress(ProcessLookupError):
            await process.wait()
        if self._reader is not None:  # its last lines read, unless its group holds the pipe
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._reader), 0.2)
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader


def _kill_group(pid: int) -> None:
    """SIGKILL the process group ``pid`` leads (gone already: nothing)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


class ProcessEngines:
    """The process engines of one Arbitre: the commands its command line allowed
    (:meth:`allow`; none on a server), the process playing each seat of a game in play,
    and between games (``restart`` off) the idle processes of each entrant, to be reused
    (see the module)."""

    def __init__(self) -> None:
        self.commands: set[str] = set()
        #: ``True``: a new process for each game; ``False``: processes reused across games.
        self.restart = False
        self._seats: OrderedDict[str, EngineProcess] = OrderedDict()
        self._idle: dict[tuple[str, str], list[EngineProcess]] = {}
        self._all: set[EngineProcess] = set()
        self._logged: dict[str, int] = {}
        self._stopping: set[asyncio.Task[None]] = set()
        self._closed = False
        _LIVE.add(self)

    def allow(self, engine: str) -> str:
        """Allow the command of ``engine`` (``cmd:COMMAND``, given on this process's
        command line) to be started; return the engine as seats hold it
        (``cmd:COMMAND``). Raises :class:`CommandError` for a command that cannot be
        split (:func:`command_words`)."""
        command = command_of(engine)
        command_words(command)
        self.commands.add(command)
        return PREFIX + command

    def check(self, engine: str) -> str:
        """Return ``engine``'s command when this Arbitre may start it; raise
        :class:`CommandError` (:data:`SERVER_REFUSES` when its command line allowed none,
        or not that one)."""
        command = command_of(engine)
        if command not in self.commands:
            raise CommandError(SERVER_REFUSES)
        return command

    def pids(self) -> list[int]:
        """Return the ids of the processes running now (each leads its group)."""
        return [p.pid for p in self._all if p.pid is not None and not p.failed]

    def _process_for(self, command: str, name: str, seat_key: str) -> EngineProcess:
        """Return the process that plays the seat ``seat_key``: the one it had, else an
        idle one of the entrant ``name`` (``restart`` off), else a new one (not started)."""
        process = self._seats.get(seat_key)
        if process is not None and not process.failed:
            return process
        if process is not None:
            self._retire(process)
        idle = self._idle.get((command, name), [])
        while idle and process is None:
            candidate = idle.pop()
            if candidate.failed:
                self._retire(candidate)
            else:
                process = candidate
        if process is None:
            process = EngineProcess(command, name)
            self._all.add(process)
        self._seats[seat_key] = process
        while len(self._seats) > MAX_SEATS:  # games that never ended here: let go
            gone, forgotten = self._seats.popitem(last=False)
            self._logged.pop(gone, None)
            self._retire(forgotten)
        return process

    async def ask(
        self, command: str, name: str, seat_key: str, line: str, timeout: float
    ) -> tuple[Exchange, list[Note]]:
        """Send ``line`` to the process playing the seat ``seat_key`` of a game for the
        entrant ``name`` (started if need be) and read its line back within ``timeout``
        seconds from the write; return the exchange and the standard error's entries to
        log with it. Never raises for anything the program does."""
        if self._closed or command not in self.commands:
            why = "the process engine is not run by this process (the run that made the game ended)"
            return Exchange(None, ABORTED, why, 0, [note("error", why)]), []
        process = self._process_for(command, name, seat_key)
        async with process.lock:
            if process.process is None:
                why = await process.start()
                if why:
                    return Exchange(None, "unreachable", why, 0, [note("error", why)]), []
            exchange = await process.exchange(line, timeout)
            return exchange, self._stderr(process, seat_key)

    def _stderr(self, process: EngineProcess, seat_key: str) -> list[Note]:
        used = self._logged.get(seat_key, 0)
        notes, taken = process.logged(max(0, STDERR_PER_GAME - used))
        self._logged[seat_key] = used + taken
        return notes

    async def final(self, seat_key: str, line: str) -> str:
        """Send a final call's ``line`` to the process that played the seat ``seat_key``
        and read its line back (ignored) within :data:`FINAL_CUT` seconds; return what is
        logged of it: ``answered``, or why not (never asked, its process ended, late)."""
        process = self._seats.get(seat_key)
        if process is None or process.process is None:
            return "not sent: the engine was not asked in this game"
        async with process.lock:
            if process.failed:
                return "not sent: its process ended"
            exchange = await process.exchange(line, FINAL_CUT)
        return "answered" if exchange.error == "" else f"{exchange.error}: {exchange.detail}"

    async def ended(self, seat_key: str) -> list[Note]:
        """Let go of the seat ``seat_key`` of a game that ended, its final call sent: its
        process is stopped (``restart`` on, or it failed: input closed, :data:`GRACE`
        seconds to exit, its group killed), else kept for the entrant's next game; return
        the log's entries of what it wrote to standard error since its last line."""
        process = self._seats.pop(seat_key, None)
        budget = max(0, STDERR_PER_GAME - self._logged.pop(seat_key, 0))
        if process is None:
            return []
        if self.restart or process.failed or self._closed:
            try:
                await process.stop()
            finally:  # known until its group is dead: kill_all reaches it meanwhile
                self._all.discard(process)
            notes, _ = process.logged(budget)
            return notes
        notes, _ = process.logged(budget)
        self._idle.setdefault((process.command, process.entrant), []).append(process)
        return notes

    def _retire(self, process: EngineProcess) -> None:
        """Stop ``process`` in the background (reaped, its standard error's reader
        ended); it stays known (to :meth:`kill_all`) until it is."""
        task = asyncio.create_task(process.stop())
        self._stopping.add(task)

        def stopped(done: asyncio.Task[None]) -> None:
            self._stopping.discard(done)
            self._all.discard(process)

        task.add_done_callback(stopped)

    async def close(self) -> None:
        """Stop every process (their input closed, :data:`GRACE` seconds, their groups
        killed) and wait for them; nothing is started afterwards."""
        self._closed = True
        for process in list(self._all):
            self._retire(process)
        self._seats.clear()
        self._idle.clear()
        if self._stopping:
            await asyncio.gather(*self._stopping, return_exceptions=True)

    def kill_all(self) -> None:
        """Kill every process's group at once (SIGKILL), from any thread or a signal's
        handler: a second Ctrl-C, the loop gone."""
        self._closed = True
        for process in list(self._all):
            process.kill()


#: Every :class:`ProcessEngines` of this process, for :func:`kill_every_process`.
_LIVE: weakref.WeakSet[ProcessEngines] = weakref.WeakSet()


def kill_every_process() -> None:
    """Kill the process group of every process engine this process started and that still
    runs (SIGKILL): what a command does when it is stopped at once (a second Ctrl-C), its
    event loop gone, so that no engine is left behind."""
    for engines in list(_LIVE):
        engines.kill_all()
