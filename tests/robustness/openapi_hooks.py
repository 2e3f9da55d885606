"""schemathesis's hooks for tests/robustness/test_openapi.py (loaded by the ``st`` command
through ``SCHEMATHESIS_HOOKS``): a check that a refused request stored nothing, and the
cursors of the requests meant to be accepted.

A list's cursor (``after``, an engine record's ``games_after`` and ``opponents_after``) is
opaque and signed: one the server did not give is refused 400, as it must be. A request
schemathesis generates to be accepted (its *positive* cases) drops a cursor it made up,
and asks the first page; the requests meant to be refused keep theirs.

Before each call the records' counts are read from the server's SQLite file
(``TOURNOYONS_OPENAPI_DATABASE``); after a 4xx they must be the same. The counts are of what
only a request makes: registered engines and interfaces, added Sets, tournaments, and the
games started by a request (a tournament's games are started by the server, on its own
time). The run has one worker, so nothing else is called in between. Each refusal
checked is tallied, one line each, in the file ``TOURNOYONS_OPENAPI_TALLY`` names.
"""

from __future__ import annotations

import os
import sqlite3
from typing import Any

import schemathesis

#: What a request may add, counted.
COUNTS = (
    "SELECT (SELECT count(*) FROM engines), (SELECT count(*) FROM interfaces),"
    " (SELECT count(*) FROM added_sets), (SELECT count(*) FROM tournaments),"
    " (SELECT count(*) FROM games WHERE tournament_id IS NULL)"
)
_before: dict[str, tuple[int, ...]] = {}


def counts() -> tuple[int, ...]:
    """Return the records' counts (see the module), read from the server's file."""
    path = os.environ["TOURNOYONS_OPENAPI_DATABASE"]
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30) as connection:
        row = connection.execute(COUNTS).fetchone()
    connection.close()
    return tuple(row)


#: The query parameters that carry a cursor.
CURSORS = ("after", "games_after", "opponents_after")


def positive(case: Any) -> bool:
    """Whether schemathesis generated ``case`` to be accepted."""
    meta = getattr(case, "meta", None)
    generation = getattr(meta, "generation", None)
    return getattr(getattr(generation, "mode", None), "value", "") == "positive"


@schemathesis.hook
def before_call(context: Any, case: Any, kwargs: dict[str, Any]) -> None:
    """Drop a made-up cursor from a request meant to be accepted; remember the counts
    before a ``POST`` (the only method that stores)."""
    del context, kwargs
    if positive(case) and case.query:
        for name in CURSORS:
            case.query.pop(name, None)
    if case.method.upper() == "POST":
        _before["last"] = counts()


@schemathesis.check
def refused_stores_nothing(ctx: Any, response: Any, case: Any) -> bool | None:
    """A ``POST`` answered 4xx left the records as they were."""
    del ctx
    if case.method.upper() != "POST" or not 400 <= response.status_code < 500:
        return None
    before = _before.pop("last", None)
    if before is None:
        return None
    after = counts()
    tally = os.environ.get("TOURNOYONS_OPENAPI_TALLY")
    if tally:
        with open(tally, "a", encoding="utf-8") as out:
            out.write(f"{response.status_code}\n")
    if after != before:
        raise AssertionError(
            f"a refused request ({response.status_code}) stored something: "
            f"(engines, interfaces, added Sets, tournaments, games) {before} -> {after}"
        )
    return True
