"""What the default run plays and what the long run adds (``scripts/test.py --long``).

The default run proves every capability; the long run repeats the proofs that are the same
flow once per Set, and the robustness tests' counts (each module reads its own). With
``TOURNOYONS_EVERY_SET=1`` (set by ``--long``) :func:`sets_of` gives every Set; otherwise the
few chosen by the test, each a different shape of the flow.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")

#: Whether this run plays every Set where a test would otherwise choose a few.
EVERY_SET = os.environ.get("TOURNOYONS_EVERY_SET") == "1"


def sets_of(items: Sequence[T], chosen: Iterable[str]) -> list[T]:
    """Return ``items`` (Set names, or ``pytest.param``\\ s whose id is a Set's key) whole in
    the long run, else those named in ``chosen``. Raises ``ValueError`` when a chosen
    name is none of ``items`` (a Set renamed must not silently leave the default run)."""
    wanted = set(chosen)

    def name(item: T) -> str:
        return str(getattr(item, "id", None) or item)

    missing = wanted - {name(item) for item in items}
    if missing:
        raise ValueError(f"chosen Sets not among the items: {sorted(missing)}")
    return list(items) if EVERY_SET else [item for item in items if name(item) in wanted]
