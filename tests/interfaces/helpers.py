"""Small helpers the Sets' tests share (boards built from named cells)."""

from __future__ import annotations

from collections.abc import Callable, Mapping


def with_codes(empty: str, index_of: Callable[[str], int | None], codes: Mapping[str, str]) -> str:
    """Return the board ``empty`` with ``codes`` (cell name -> code) set; ``index_of`` reads a
    cell name, and a name it does not read fails the test."""
    indexes = {name: index_of(name) for name in codes}
    unread = [name for name, index in indexes.items() if index is None]
    assert not unread, unread
    by_index = {index: codes[name] for name, index in indexes.items()}
    return "".join(by_index.get(k, code) for k, code in enumerate(empty))
