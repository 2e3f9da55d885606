"""``/metrics``: the Arbitre's metrics in Prometheus's text format
(:mod:`~tournoyons_gui.arbitre.metrics`), and the middleware counting every answer by its
HTTP status.

Where it is served (``serve --metrics``; :class:`Metered`'s ``where``):

- a loopback server (local development) serves ``/metrics`` on its listener;
- a public one does not, unless told: ``--metrics public`` serves it on the public
  listener too (behind a proxy that keeps it in), ``--metrics [HOST:]PORT`` on a listener
  of its own (``127.0.0.1:9464``, say), which serves ``/metrics`` and ``/healthz`` and
  nothing else.

A scrape adds what the store knows of the whole Arbitre, whichever worker answers:
``tournoyons_leases_held`` (games in play driven under a live lease),
``tournoyons_games_waiting`` (games in play waiting for a worker: the queue's depth),
``tournoyons_checks_running`` (interface checks running), and per Set with a ladder
``tournoyons_ladder_games_in_flight{set}`` and ``tournoyons_ladder_engines_paused{set}``:
small counts, each along an index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tournoyons_gui.arbitre.arbitre import Arbitre
from tournoyons_gui.arbitre.metrics import MAX_SETS, exposition, responded

__all__ = ["EVERYWHERE", "NOWHERE", "Metered", "store_metrics"]

#: ``where`` of a server serving ``/metrics`` on every listener (loopback, ``public``).
EVERYWHERE = None
#: ``where`` of a public server told nothing: ``/metrics`` on no listener.
NOWHERE: frozenset[int] = frozenset()
#: What a listener of the metrics' own serves.
_METRICS_PATHS = ("/metrics", "/healthz")


class _Gauges:
    """A collector yielding gauges whose values were read before (from the store), and
    gauges labelled by Set (``by_set``: name, help, ``{set: value}``)."""

    def __init__(
        self,
        values: list[tuple[str, str, float]],
        by_set: list[tuple[str, str, dict[str, float]]] | None = None,
    ) -> None:
        self.values = values
        self.by_set = by_set or []

    def collect(self) -> Iterator[Metric]:
        """Yield each gauge."""
        for name, text, value in self.values:
            yield GaugeMetricFamily(name, text, value=value)
        for name, text, values in self.by_set:
            family = GaugeMetricFamily(name, text, labels=["set"])
            for set_name, count in values.items():
                family.add_metric([set_name], count)
            yield family


async def store_metrics(arbitre: Arbitre) -> bytes:
    """Return what the store knows of the whole Arbitre as gauges in the text format."""
    held, waiting = await arbitre.store.lease_counts()
    checks = await arbitre.store.slots_held("check")
    ladders: dict[str, tuple[int, int]] = {}
    for number, (name, counts) in enumerate((await arbitre.store.ladder_counts()).items()):
        # At most MAX_SETS labels (added Sets are anyone's): the others as "other".
        label = name if number < MAX_SETS else "other"
        flying, paused = ladders.get(label, (0, 0))
        ladders[label] = (flying + counts[0], paused + counts[1])
    registry = CollectorRegistry(auto_describe=True)
    registry.register(
        _Gauges(
            [
                (
                    "tournoyons_leases_held",
                    "Games in play driven under a live lease, by any worker.",
                    held,
                ),
                (
                    "tournoyons_games_waiting",
                    "Games in play waiting for a worker (no lease, or an expired one).",
                    waiting,
                ),
                ("tournoyons_checks_running", "Interface checks running.", checks),
            ],
            [
                (
                    "tournoyons_ladder_games_in_flight",
                    "Ladder games in play, by Set.",
                    {name: float(flying) for name, (flying, _) in ladders.items()},
                ),
                (
                    "tournoyons_ladder_engines_paused",
                    "Engines the ladder paused for their faults, by Set.",
                    {name: float(paused) for name, (_, paused) in ladders.items()},
                ),
            ],
        )
    )
    return generate_latest(registry)


class Metered:
    """The ASGI middleware counting every answer by status (:func:`responded`) and
    serving ``/metrics``: on every listener when ``where`` is :data:`EVERYWHERE`, else
    only to requests reaching one of the ports ``where`` names (a listener of the
    metrics' own, which serves nothing else); ``holder()`` returns the running Arbitre."""

    def __init__(
        self, app: ASGIApp, holder: Callable[[], Arbitre], where: frozenset[int] | None
    ) -> None:
        self.app = app
        self.holder = holder
        self.where = where

    @property
    def state(self) -> Any:
        """Return the wrapped application's ``state``."""
        return getattr(self.app, "state", None)

    def _own_listener(self, scope: Scope) -> bool:
        server = scope.get("server")
        return bool(self.where and server and server[1] in self.where)

    async def metrics(self) -> Response:
        """Return ``/metrics``: this process's (or host's) counts and the store's gauges."""
        body = exposition() + await store_metrics(self.holder())
        return Response(body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve ``/metrics`` where it is served, refuse the rest on the metrics' own
        listener, and count the status of every other answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        own = self._own_listener(scope)
        path = scope["path"]
        if own and path not in _METRICS_PATHS:
            await PlainTextResponse("this listener serves /metrics only", 404)(scope, receive, send)
            return
        if path == "/metrics" and (own or self.where is EVERYWHERE):
            await (await self.metrics())(scope, receive, send)
            return

        async def counted(message: Message) -> None:
            if message["type"] == "http.response.start":
                responded(message["status"])
            await send(message)

        await self.app(scope, receive, counted)
