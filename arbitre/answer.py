"""The one answer of a seat to an ask, whatever the seat (a person, an engine, a bot ...),
and the entries of the exchange log that come with it (engine protocol decision 28).

An answer is a value, or a failure with its reason: ``late`` (nothing within the seat's
limit), ``unreachable`` (no connection: decision 12), ``illegal`` (a value the rules
refuse, a broken answer), ``unneeded`` (another seat of the step failed first). Failures
are statuses of the seat, never exceptions of the game (kaggle-environments' agents).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

__all__ = ["UNNEEDED", "Answer", "Note", "note"]

#: One entry of an exchange log: (kind, detail, when it happened by this host's clock, UTC).
Note = tuple[str, str, dt.datetime]

#: The failure of a seat no longer waited for, another seat of the step having failed.
UNNEEDED = "unneeded"


def note(kind: str, detail: str) -> Note:
    """Return a log entry stamped now."""
    return (kind, detail, dt.datetime.now(dt.UTC))


@dataclass
class Answer:
    """A seat's answer: its ``value`` (as received: trimmed; an engine's upper-cased), or
    ``None`` with ``error`` (``late``, ``unreachable``, ``illegal``, ``unneeded``) and
    ``detail`` (a short English reason for the record); ``ms`` from the ask to the answer;
    ``query`` an engine callback's raw query; ``log`` the exchanges to record with it."""

    value: str | None
    error: str = ""
    detail: str = ""
    ms: int = 0
    query: str = ""
    log: list[Note] = field(default_factory=list)

    @classmethod
    def failure(cls, error: str, detail: str, ms: int = 0, log: list[Note] | None = None) -> Answer:
        """Return a failed answer (``value`` ``None``)."""
        return cls(None, error, detail or error, ms, log=log if log is not None else [])

    @property
    def failed(self) -> bool:
        """Whether the seat gave no value."""
        return self.value is None
