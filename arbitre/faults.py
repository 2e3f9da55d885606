"""A match's failure report: every game lost by fault, told from its record so
that its engine's author reproduces it in one paste.

For each such game: the fault's kind (``timeout``, ``unreachable``, ``malformed``,
``illegal``: :data:`~tournoyons_gui.arbitre.answer.FAULTS`), the game, the ply (the move
asked), the request exactly as sent with its secrets redacted (the seat's ``Game`` id,
decision 8; a ``Signature``, manual VII; a service's key), what came back (the engine's
HTTP status and first bytes, its callback, or why nothing did), the latency (from the
request to that answer, and to the failure), and a ``curl`` command sending the same
context to the engine in tester mode (engine protocol section 5: an empty ``Referee``,
``Game=TEST`` as the original tester sent; the engine answers its Value in the body), or
the same ``POST`` to a bot, or for a process engine its request's line piped to its
command. A built-in engine gets no command: it was served by the ``play`` process itself.
All of it comes from the game's exchange log (decision 28), the failing step's entries
being the seat's last request and what followed it.

An entrant whose last games were all lost by fault (a process that crashed or hangs
mid-match) is said so once (:func:`stopped_answering`), after the games.
"""

from __future__ import annotations

import datetime as dt
import re
import shlex
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass

from tournoyons_gui.arbitre.answer import FAULTS
from tournoyons_gui.arbitre.match_summary import Outcome
from tournoyons_gui.arbitre.processes import command_of, is_command
from tournoyons_gui.arbitre.record import redact
from tournoyons_gui.arbitre.store import Exchange, Seat
from tournoyons_gui.arbitre.urls import engine_url

__all__ = ["Failure", "curl_command", "failure_of", "redact_request", "stopped_answering"]

#: The id the original tester sent as ``Game`` (engine protocol section 5).
TESTER_GAME = "TEST"
_SIGNATURE = re.compile(r"([?&]Signature=)[0-9a-fA-F]*")
#: Seconds ``curl`` waits when the request says no ``TimeOut``.
DEFAULT_WAIT = 20


@dataclass(frozen=True)
class Failure:
    """One game lost by fault: ``kind``, ``game_id``, the faulty seat (its ``index`` and
    ``name``), the ``ply`` asked, ``detail`` (the seat's error as recorded), ``request``
    (as sent, secrets redacted; a ``POST`` reads ``POST <url> <body>``), ``answer`` (what
    came back: ``HTTP 500 'first bytes'``, the callback's query, or why nothing did),
    ``latency_ms`` (from the request to that answer; ``None``: none came), ``waited_ms``
    (from the request to the failure), and ``curl`` (the command reproducing the request
    in tester mode; ``None`` for a built-in engine or a request not recorded)."""

    kind: str
    game_id: str
    seat: int
    name: str
    ply: int | None
    detail: str
    request: str
    answer: str
    latency_ms: int | None
    waited_ms: int | None
    curl: str | None


def redact_request(text: str, seats: Sequence[Seat]) -> str:
    """Return a request (or callback) with its secrets redacted: every seat's ``Game`` id
    as ``<seat N>`` (decision 8), a ``Signature``'s hex as ``<signature>``."""
    return _SIGNATURE.sub(r"\1<signature>", redact(text, seats))


def curl_command(request: str, seat: Seat) -> str | None:
    """Return the ``curl`` command sending ``request`` (a recorded engine request ``URL``,
    or ``POST URL BODY``) to the seat in tester mode: ``Game`` the tester's ``TEST``, an
    empty ``Referee`` (the engine answers its Value in the body), no ``Signature``; a
    bot's ``POST`` with its ``game-id`` as ``TEST``; a process engine's line piped to its
    command (:func:`_piped`). It prints the body, then ``HTTP`` and
    the status; it waits the request's ``TimeOut`` (curl's exit status 28 past it).
    ``None`` for a built-in engine (served by the ``play`` process, gone) or nothing
    recorded."""
    if seat.kind == "builtin" or not request:
        return None
    if is_command(seat.url):
        return _piped(request, seat)
    shown = "-w '\\nHTTP %{http_code}\\n'"
    if request.startswith("POST "):
        _, url, body = ([*request.split(" ", 2), ""])[:3]
        body = body.replace(seat.key, TESTER_GAME)
        return (
            f"curl -sS --max-time {DEFAULT_WAIT} {shown} -H 'Content-Type: application/json' "
            f"--data-binary {shlex.quote(body)} {shlex.quote(url)}"
        )
    base, _, query = request.partition("?")
    pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
    params: dict[str, str] = {}
    for name, value in pairs:
        if name == "Signature" or name in params:
            continue
        params[name] = TESTER_GAME if name == "Game" else value
    params["Referee"] = ""
    wait = params.get("TimeOut", "")
    seconds = int(wait) if wait.isdigit() else DEFAULT_WAIT
    return f"curl -sS --max-time {seconds} {shown} {shlex.quote(engine_url(base, params))}"


def _piped(request: str, seat: Seat) -> str:
    """Return the shell command that sends a process engine's request line (``Game`` the
    tester's ``TEST``, no ``Signature``) to its command, run where ``play`` ran, and
    prints its line back: ``printf '%s\\n' 'Set=...' | ruby engine.rb``."""
    pairs = urllib.parse.parse_qsl(request, keep_blank_values=True)
    params: dict[str, str] = {}
    for name, value in pairs:
        if name == "Signature" or name in params:
            continue
        params[name] = TESTER_GAME if name == "Game" else value
    line = engine_url("", params)[1:]
    return f"printf '%s\\n' {shlex.quote(line)} | {command_of(seat.url)}"


def _ms(start: dt.datetime, end: dt.datetime) -> int:
    return max(0, round((end - start).total_seconds() * 1000))


def failure_of(
    outcome: Outcome, seats: Sequence[Seat], exchanges: Sequence[Exchange]
) -> Failure | None:
    """Return the failure of a game lost by fault (``None``: no fault), from its seats and
    its exchange log: the faulty seat's last request and what followed it."""
    if not outcome.fault:
        return None
    seat = next((s for s in seats if s.fault), None)
    if seat is None:
        return None
    own = [e for e in exchanges if e.seat == seat.index]
    ended = next((i for i, e in enumerate(own) if e.kind == "final"), len(own))
    own = own[:ended]  # the final call and its answer are no part of the failing step
    start = max((i for i, e in enumerate(own) if e.kind == "request"), default=None)
    step = own[start:] if start is not None else []
    request = step[0] if step else None
    answer, answered_at = "", None
    errors = [e for e in step if e.kind == "error"]
    failed_at = errors[-1].at if errors else None
    for entry in step[1:]:
        if entry.kind == "callback":
            answer, answered_at = f"callback {entry.detail}", entry.at
            break
        if entry.kind == "answer" and answered_at is None:
            status, _, rest = entry.detail.partition(" ")
            if rest.startswith(("http://", "https://")):  # an engine's: status and URL
                answer = f"HTTP {status}"
            else:  # a bot's or a sync engine's: status and first bytes of the body
                answer = f"HTTP {status} {rest[:200]!r}"
            answered_at = entry.at
        if entry.kind == "body":
            answer = f"HTTP {entry.detail}" if entry.detail[:1].isdigit() else entry.detail
    if request is not None and not answer and errors:
        kind, _, why = errors[-1].detail.partition(": ")
        answer = f"nothing: {why if kind in FAULTS else errors[-1].detail}"
    if answered_at is None and len(errors) > 1 and answer.startswith("no HTTP answer"):
        answered_at = errors[0].at  # when what was not HTTP came (the failure is later)
    sent = request.detail if request is not None else ""
    return Failure(
        outcome.fault,
        outcome.game_id,
        seat.index,
        seat.name,
        outcome.ply,
        seat.error,
        redact_request(sent, seats),
        redact_request(answer, seats),
        _ms(request.at, answered_at) if request and answered_at else None,
        _ms(request.at, failed_at) if request and failed_at else None,
        curl_command(sent, seat),
    )


#: What to look at when an engine lost every game by one kind of fault.
_HINTS = {
    "unreachable": "nothing answered at its address (or its program did not start, or "
    "exited): is it running, at this URL (this command)?",
    "timeout": "it was reached, and never answered in time: does it call the Referee back "
    "(over HTTP), write its Value as one line (a process), and within the TimeOut?",
    "malformed": "it was reached, and its answers were no Value: an HTTP error or a "
    "crash's message (see its output), an empty line, a line too long",
}


def _why(kinds: Sequence[str]) -> str:
    """Return what to check of an engine that lost every game by the faults ``kinds``, a
    hint per kind: "is it running?" only where nothing answered at all."""
    return " ".join(_HINTS[kind] for kind in kinds if kind in _HINTS) or "see its failures above"


#: The faults that say an engine gave no answer at all (an illegal Value is an answer).
SILENT = frozenset({"timeout", "unreachable", "malformed"})


def stopped_answering(outcomes: Sequence[Outcome], names: Sequence[str]) -> list[str]:
    """Return a sentence per entrant whose last two games or more (by the time they
    ended) were all lost by its own fault of no answer (:data:`SILENT`: an engine that
    answers illegal Values is answering): it crashed, hangs or went away mid-match (or
    never answered at all); the match went on without it."""
    ended = sorted(
        (o for o in outcomes if o.counted and o.ended_at is not None),
        key=lambda o: (o.ended_at, o.number),
    )
    said = []
    for entrant, name in enumerate(names):
        played = [o for o in ended if entrant in o.seats]
        run: list[Outcome] = []
        for outcome in reversed(played):
            if outcome.fault_by != entrant or outcome.fault not in SILENT:
                break
            run.append(outcome)
        if len(run) < 2:
            continue
        kinds = sorted({o.fault for o in run})
        since = run[-1]
        if len(run) == len(played):
            said.append(f"{name} lost every game by fault ({', '.join(kinds)}): {_why(kinds)}")
        else:
            said.append(
                f"{name} lost its last {len(run)} games by fault ({', '.join(kinds)}), from "
                f"game {since.game_id} (ply {since.ply}) on: it crashed or hangs; the match "
                "went on without it"
            )
    return said
