"""The one answer of a seat to an ask, whatever the seat (a person, an engine, a bot ...),
and the entries of the exchange log that come with it (engine protocol decision 28).

An answer is a value, or a failure with its reason: ``late`` (nothing within the seat's
limit), ``unreachable`` (no connection: decision 12), ``malformed`` (an answer that is no
Value at all: an HTTP error status and no callback, a broken or empty answer, a callback
without a Value), ``illegal`` (a Value the rules refuse), ``unneeded`` (another seat of
the step failed first), ``aborted`` (the way to the seats is gone, nobody's fault: the
game ends with no result). Failures are statuses of the seat, never exceptions of the
game (kaggle-environments' agents, whose failures are classed Timeout, Error, Invalid).
A seat that loses by failing has its **fault** recorded (:data:`FAULTS`: ``timeout``,
``illegal``, ``unreachable``, ``malformed``), what a match's summary counts apart.
A seat may also ``stopped`` the match as its protocol allows (a MaitreTarot client's
replay answer 0): the match then ends with the ranks the answer gives, nobody failed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

__all__ = [
    "ABORTED",
    "FAULTS",
    "MALFORMED",
    "STOPPED",
    "UNNEEDED",
    "UNRESUMED",
    "Answer",
    "Note",
    "fault_of",
    "note",
]

#: One entry of an exchange log: (kind, detail, when it happened by this host's clock, UTC).
Note = tuple[str, str, dt.datetime]

#: The failure of a seat no longer waited for, another seat of the step having failed.
UNNEEDED = "unneeded"
#: A seat that ended the match as its protocol allows (tarot.md section 4, the replay
#: question): not a failure; the answer's ``ranks`` are the match's result.
STOPPED = "stopped"
#: The failure of a seat whose way to its player is gone for the whole game (a chat
#: server lost: ``timi-rooms.md``'s ``end server error``): the game ends with no result.
ABORTED = "aborted"
#: The reason a game ends with, no result, when the process holding its players'
#: connections died and its seats cannot be asked by another driver (a ``bound`` seat
#: kind: a timi room's players, whose IRC session died with it; the timi protocol's ``end
#: server error``).
UNRESUMED = "server error"

#: The failure of a seat whose answer is no Value at all (decision 12's "missing Value"):
#: an HTTP error status or a broken answer and no callback by the deadline, an empty body,
#: no JSON, a callback without ``Value``.
MALFORMED = "malformed"
#: The faults a seat loses a game by, as a match's summary counts them apart, by the
#: answer's error: ``late`` is a ``timeout``.
FAULTS = {
    "late": "timeout",
    "illegal": "illegal",
    "unreachable": "unreachable",
    MALFORMED: "malformed",
}


def fault_of(error: str) -> str:
    """Return the fault (``timeout``, ``illegal``, ``unreachable``, ``malformed``) of an
    answer's ``error``, ``""`` for one that is no fault of the seat (``unneeded``,
    ``aborted``, ``stopped``)."""
    return FAULTS.get(error, "")


def note(kind: str, detail: str) -> Note:
    """Return a log entry stamped now."""
    return (kind, detail, dt.datetime.now(dt.UTC))


@dataclass
class Answer:
    """A seat's answer: its ``value`` (as received: trimmed; an engine's upper-cased), or
    ``None`` with ``error`` (``late``, ``unreachable``, ``malformed``, ``illegal``,
    ``unneeded`` ...) and
    ``detail`` (a short English reason for the record); ``ms`` from the ask to the answer;
    ``query`` an engine callback's raw query; ``log`` the exchanges to record with it;
    ``culprit`` the index of the seat to blame when it is not the seat asked (a timi
    room's player who fouled while its opponent was asked, a MaitreTarot client that left
    while another seat was asked); ``ranks`` the result of a match the seat ``stopped``
    (each seat's rank)."""

    value: str | None
    error: str = ""
    detail: str = ""
    ms: int = 0
    query: str = ""
    log: list[Note] = field(default_factory=list)
    culprit: int | None = None
    ranks: tuple[int, ...] = ()

    @classmethod
    def failure(
        cls,
        error: str,
        detail: str,
        ms: int = 0,
        log: list[Note] | None = None,
        culprit: int | None = None,
    ) -> Answer:
        """Return a failed answer (``value`` ``None``)."""
        return cls(
            None, error, detail or error, ms, log=log if log is not None else [], culprit=culprit
        )

    @property
    def failed(self) -> bool:
        """Whether the seat gave no value."""
        return self.value is None
