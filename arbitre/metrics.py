"""What an operator watches: the Arbitre's metrics in Prometheus's text format,
through ``prometheus-client`` (the field's standard), and the functions that record them,
each one call at its place in the move path (listed below, so that a rewrite of that path
keeps them).

Counted where it happens, in this process (cheap: an increment or an observation, no I/O;
``prometheus-client`` keeps them in memory, or in memory-mapped files in its multi-process
mode):

- ``tournoyons_games_started_total{set}``: games made (:func:`started`, in
  :meth:`Arbitre.create <tournoyons_gui.arbitre.arbitre.Arbitre.create>`);
- ``tournoyons_games_ended_total{set,result}``: games ended, ``result`` ``seat1`` ..
  ``seatN``, ``draw``, ``ranked``, ``error``, or ``interrupted`` (:func:`ended`, in
  :meth:`GameMaster.finish <tournoyons_gui.arbitre.master.GameMaster.finish>` once stored);
- ``tournoyons_moves_total{set}``: moves recorded (:func:`moved`, in
  :meth:`GameMaster.play <tournoyons_gui.arbitre.master.GameMaster.play>` once appended);
- ``tournoyons_answer_seconds{kind,outcome}``: a histogram of the time from an ask to its
  answer per seat kind (``engine``, ``builtin``, ``person`` ...) and outcome (``value``,
  ``late``, ``illegal``, ``unreachable``, ``malformed`` ...; :func:`answered`, in
  ``GameMaster.play`` after each step's asks);
- ``tournoyons_http_responses_total{status}``: the answers by HTTP status, so the 4xx,
  the 429 and the 5xx (:func:`responded`, by the web's middleware).

Read from the store when scraped (the whole Arbitre's, whichever worker answers: see
:mod:`tournoyons_gui.arbitre.web.metrics`): ``tournoyons_leases_held`` (games driven under a
live lease), ``tournoyons_games_waiting`` (games in play waiting for a worker: the queue's
depth), ``tournoyons_checks_running``.

**Several processes on one host** share their counts through ``prometheus-client``'s
multi-process mode: ``PROMETHEUS_MULTIPROC_DIR`` names a folder, empty when they start,
which every process writes its counts to, so that any one answers the host's totals. The
variable must be set before ``prometheus_client`` is imported: by whoever starts the
processes (a process manager), or by the command line's ``prepare_metrics_dir``
(``server/cli/common.py``) in the parent before it starts them (this module imports
``prometheus_client``). Processes on other hosts are scraped each, and
Prometheus adds them up.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

from tournoyons_gui.arbitre.answer import ABORTED, UNNEEDED, Answer

__all__ = [
    "ANSWER_BUCKETS",
    "MAX_SETS",
    "MULTIPROC_ENV",
    "answered",
    "ended",
    "exposition",
    "moved",
    "multiprocess_dir",
    "responded",
    "started",
]

#: The environment variable of ``prometheus-client``'s multi-process mode.
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
#: The answer times' buckets, in seconds: a built-in engine's milliseconds to a person's
#: quarter of an hour (the default time limit of a person, 900 s).
ANSWER_BUCKETS = (0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 300, 900)
#: The Sets named in labels; the Sets added past them (chapter VI: anyone may add one)
#: are counted as ``other``, so an added Set cannot grow the metrics without bound.
MAX_SETS = 64

_GAMES_STARTED = Counter("tournoyons_games_started", "Games made, by Set.", ["set"])
_GAMES_ENDED = Counter(
    "tournoyons_games_ended", "Games ended, by Set and result.", ["set", "result"]
)
_MOVES = Counter("tournoyons_moves", "Moves recorded, by Set.", ["set"])
_ANSWERS = Histogram(
    "tournoyons_answer_seconds",
    "Seconds from an ask to its answer, by seat kind and outcome.",
    ["kind", "outcome"],
    buckets=ANSWER_BUCKETS,
)
_RESPONSES = Counter("tournoyons_http_responses", "HTTP answers, by status.", ["status"])
_SETS: set[str] = set()


def _set_label(name: str) -> str:
    """Return the label of Set ``name``: itself among the first :data:`MAX_SETS` seen."""
    if name in _SETS:
        return name
    if len(_SETS) < MAX_SETS:
        _SETS.add(name)
        return name
    return "other"


def started(set_name: str) -> None:
    """Count a game made."""
    _GAMES_STARTED.labels(_set_label(set_name)).inc()


def ended(set_name: str, status: str, result: str) -> None:
    """Count a game ended: ``status`` ``over`` with its ``result`` (``seat1``, ``draw``,
    ``ranked``, ``error``), or another status (``interrupted``) counted as it."""
    _GAMES_ENDED.labels(_set_label(set_name), result if status == "over" else status).inc()


def moved(set_name: str, count: int) -> None:
    """Count ``count`` moves recorded in a game of ``set_name``."""
    child = _BY_SET.get(set_name)
    if child is None:
        child = _BY_SET[set_name] = _MOVES.labels(_set_label(set_name))
    child.inc(count)


def answered(kinds: Sequence[str], answers: Sequence[Answer]) -> None:
    """Observe each answer's time under its seat's kind (``kinds``, in the same order) and
    its outcome; an answer not waited for (another seat failed, the game stopped) is not
    an answer and is left out."""
    for kind, answer in zip(kinds, answers, strict=True):
        if answer.error in (UNNEEDED, ABORTED):
            continue
        outcome = answer.error or "value"
        child = _BY_ANSWER.get((kind, outcome))
        if child is None:
            child = _BY_ANSWER[(kind, outcome)] = _ANSWERS.labels(kind, outcome)
        child.observe(answer.ms / 1000)


#: Each status's counter, found once (a label's lookup is a lock and a few dicts; every
#: request of the move path pays this).
_BY_STATUS: dict[int, Any] = {}
#: Each (kind, outcome)'s histogram and each Set's moves' counter, found once.
_BY_ANSWER: dict[tuple[str, str], Any] = {}
_BY_SET: dict[str, Any] = {}


def responded(status: int) -> None:
    """Count an HTTP answer of ``status``."""
    child = _BY_STATUS.get(status)
    if child is None:
        child = _BY_STATUS[status] = _RESPONSES.labels(str(status))
    child.inc()


def multiprocess_dir() -> str | None:
    """Return the folder of the multi-process mode, or ``None`` (one process)."""
    return os.environ.get(MULTIPROC_ENV) or None


def exposition() -> bytes:
    """Return this process's metrics (the host's, in the multi-process mode) in
    Prometheus's text format."""
    if multiprocess_dir() is None:
        return generate_latest(REGISTRY)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return generate_latest(registry)
