"""The one answer of a seat to an ask, whatever the seat (a person, an engine, a bot ...),
and the entries of the exchange log that come with it (engine protocol decision 28).

An answer is a value, or a failure with its reason: ``late`` (nothing within the seat's
limit), ``unreachable`` (no connection: decision 12), ``illegal`` (a value the rules
refuse, a broken answer), ``unneeded`` (another seat of the step failed first). Failures
are statuses of the seat, never exceptions of the game (kaggle-environments' agents).
A seat may also ``stopped`` the match as its protocol allows (a MaitreTarot client's
replay answer 0): the match then ends with the ranks the answer gives, nobody failed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

__all__ = ["STOPPED", "UNNEEDED", "Answer", "Note", "note"]

#: One entry of an exchange log: (kind, detail, when it happened by this host's clock, UTC).
Note = tuple[str, str, dt.datetime]

#: The failure of a seat no longer waited for, another seat of the step having failed.
UNNEEDED = "unneeded"
#: A seat that ended the match as its protocol allows (tarot.md section 4, the replay
#: question): not a failure; the answer's ``ranks`` are the match's result.
STOPPED = "stopped"


def note(kind: str, detail: str) -> Note:
    """Return a log entry stamped now."""
    return (kind, detail, dt.datetime.now(dt.UTC))


@dataclass
class Answer:
    """A seat's answer: its ``value`` (as received: trimmed; an engine's upper-cased), or
    ``None`` with ``error`` (``late``, ``unreachable``, ``illegal``, ``unneeded``) and
    ``detail`` (a short English reason for the record); ``ms`` from the ask to the answer;
    ``query`` an engine callback's raw query; ``log`` the exchanges to record with it;
    ``ranks`` the result of a match the seat ``stopped`` (each seat's rank); ``seat`` the
    index of the seat that failed when it is not the one asked (a client of a shared
    connection that left while another seat was asked)."""

    value: str | None
    error: str = ""
    detail: str = ""
    ms: int = 0
    query: str = ""
    log: list[Note] = field(default_factory=list)
    ranks: tuple[int, ...] = ()
    seat: int | None = None

    @classmethod
    def failure(cls, error: str, detail: str, ms: int = 0, log: list[Note] | None = None) -> Answer:
        """Return a failed answer (``value`` ``None``)."""
        return cls(None, error, detail or error, ms, log=log if log is not None else [])

    @property
    def failed(self) -> bool:
        """Whether the seat gave no value."""
        return self.value is None
