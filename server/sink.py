"""The tester's return sink: ``GET /return?ReturnValue=...`` records a value a page sent
back, ``GET /return/log?tag=T`` lists the values whose query carried ``tag=T``.

Only with the ``sink`` option (``serve --sink``, on for ``scripts/serve.py`` on 127.0.0.1):
a public server records nothing and lists nothing (both answer 404).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import jinja2
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tournoyons_gui.interfaces.protocol import parse_query

__all__ = ["SINK_LOG_SIZE", "ReturnSink"]

# The values kept, oldest dropped first.
SINK_LOG_SIZE = 1000


class ReturnSink:
    """The last :data:`SINK_LOG_SIZE` values received, each ``{"id", "value", "params"}``
    (``id`` counts from 1; ``value`` is ``ReturnValue`` or ``None``; ``params`` the whole
    query, names lower-case); ``enabled`` False turns both routes off."""

    def __init__(self, env: jinja2.Environment, enabled: bool = False) -> None:
        self.env = env
        self.enabled = enabled
        self.entries: deque[dict[str, Any]] = deque(maxlen=SINK_LOG_SIZE)
        self.count = 0

    async def record(self, request: Request) -> Response:
        """``GET /return?ReturnValue=...``: record the value; the page tells the tester."""
        if not self.enabled:
            return Response("the return sink is off (serve --sink)", 404, media_type="text/plain")
        params = parse_query(request.scope["query_string"])
        self.count += 1
        entry = {"id": self.count, "value": params.get("returnvalue"), "params": params}
        self.entries.append(entry)
        body = self.env.get_template("sink.html").render(entry=entry)
        return Response(body, media_type="text/html", headers={"Cache-Control": "no-store"})

    async def log(self, request: Request) -> Response:
        """``GET /return/log?tag=T[&tag=U]``: the values the sink received whose query had
        one of these ``tag``s, oldest first (JSON; 400 without a tag). A caller reads only
        the returns it tagged itself: there is no list of everything."""
        if not self.enabled:
            return JSONResponse({"error": "the return sink is off (serve --sink)"}, 404)
        tags = set(request.query_params.getlist("tag"))
        if not tags:
            return JSONResponse({"error": "name your tags: /return/log?tag=..."}, 400)
        found = [entry for entry in self.entries if entry["params"].get("tag") in tags]
        return JSONResponse(found, headers={"Cache-Control": "no-store"})
