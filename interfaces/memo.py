"""A bounded memo of what a Set's rules read from a state, keyed by the state's values.

The Arbitre's game master calls a Set's rules several times on one position (``result``,
``asked``, ``request``, ``engine_value``, ``play``, ``page``), each time with the
state as JSON-shaped data. Rules that read a state into their own objects keep what they
read in a :class:`Memo`, keyed by the state's values as an immutable tuple (never by an
object's identity, which could be reused for other content), and ``play`` keeps the game
it made under the key of the state it returns, so the next calls on that position read
nothing again. The rules stay pure functions of their arguments: a memo only ever holds,
for a key, what reading a state of those values gives.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["Memo"]

_Key = TypeVar("_Key", bound=Hashable)
_Value = TypeVar("_Value")


class Memo(Generic[_Key, _Value]):
    """At most ``size`` values by key, the oldest kept forgotten first (a bounded FIFO:
    the calls on a position follow each other, so the newest positions are the ones
    asked for). Safe to share between threads: a race can only forget a value early."""

    def __init__(self, size: int) -> None:
        """Keep at most ``size`` values (``size`` at least 1)."""
        if size < 1:
            raise ValueError("a memo keeps at least one value")
        self.size = size
        self._values: OrderedDict[_Key, _Value] = OrderedDict()

    def __len__(self) -> int:
        """Return the number of values kept."""
        return len(self._values)

    def get(self, key: _Key) -> _Value | None:
        """Return the value kept for ``key``, or ``None``; raise ``TypeError`` when
        ``key`` cannot be hashed (it holds a list ...)."""
        return self._values.get(key)

    def keep(self, key: _Key, value: _Value) -> _Value:
        """Keep ``value`` for ``key`` (a new key forgets the oldest when full); return it."""
        values = self._values
        values[key] = value  # a key kept again keeps its place
        while len(values) > self.size:
            try:
                values.popitem(last=False)
            except KeyError:  # emptied by another thread meanwhile
                break
        return value

    def clear(self) -> None:
        """Forget every value."""
        self._values.clear()
