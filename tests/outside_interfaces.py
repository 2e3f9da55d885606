"""Outside graphical interfaces of the tests' own, served on 127.0.0.1 by
:class:`~tests.arbitre.threaded.Threaded`: a plain static TicTacToe page written from the
interface spec (``docs/reference/interface-protocol.md`` sections 1-3: the query read
case-insensitively, names, legend and count written as text, the board from ``Tray``
with its marks drawn as the letters ``X`` and ``O``, the last moves marked and written as
coordinates with the number of cells filled (``X B2 O A1 3/9``: no added word, by the
protocol's rule), ``Input`` making the empty cells playable, one move returned through a
hidden iframe to ``URLReturn?ReturnValue=n`` and posted to the parent, ``tournoyons:ready``
posted once drawn), and four pages each with one fault the interface check must report:

- ``/errors/``: logs an error to the console and throws one;
- ``/wide/``: draws 1000 px wide and 800 px high (does not fit 736x660);
- ``/words/``: writes words no parameter gave (``Your move``, and ``Next turn`` drawn by
  its style sheet);
- ``/html-legend/``: writes the Legend and the names as HTML.

Every page is ``/<variant>/`` with its script ``/<variant>/page.js``; the variant's fault is
the only difference. No CSP: a page that writes HTML lets a hostile text run.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from tests.arbitre.threaded import Threaded

__all__ = ["VARIANTS", "OutsideInterfaces"]

#: Each page and the fault the check must find in it (``""``: none).
VARIANTS = {
    "plain": "",
    "errors": "console error",
    "wide": "does not fit",
    "words": "added words",
    "html-legend": "a hostile text ran",
}

_PAGE = """<!doctype html>
<html lang="und"><head><meta charset="utf-8"><title>&#9638;</title>
<style>
html, body { margin: 0; font: 18px sans-serif; background: #f4f1e8; }
body { width: 736px; height: 660px; overflow: hidden; }
body.wide { width: 1000px; height: 800px; overflow: visible; }
header { display: flex; gap: 16px; padding: 12px; }
header span { min-width: 120px; }
#board { display: grid; grid-template-columns: repeat(3, 150px); gap: 6px; margin: 20px 170px; }
#board button { height: 150px; font-size: 90px; background: #fff; border: 2px solid #555; }
#board button[data-last-move] { background: #ffe9a8; }
#board button:disabled { color: #222; }
footer { padding: 0 12px; }
[data-moves]::before { content: "\\2192  "; }
body[data-variant="words"] [data-count]::after { content: " Next turn"; }
iframe[hidden] { display: none; }
</style>
<script src="page.js" defer></script></head>
<body data-variant="VARIANT">
<header><span data-name="1"></span><span data-count></span><span data-name="2"></span>
<span data-moves></span></header>
<div id="board" data-board></div>
<footer><p data-legend></p></footer>
<iframe name="ret" hidden title="&#8617;"></iframe>
</body></html>
"""

_SCRIPT = """(function () {
  "use strict";
  var variant = document.body.dataset.variant;
  var params = {};
  new URLSearchParams(location.search).forEach(function (v, k) { params[k.toLowerCase()] = v; });
  function text(selector, value, asHtml) {
    var el = document.querySelector(selector);
    if (asHtml) { el.innerHTML = value || ""; } else { el.textContent = value || ""; }
  }
  var html = variant === "html-legend";
  text('[data-name="1"]', params.name1, html);
  text('[data-name="2"]', params.name2, html);
  text("[data-count]", params.count, false);
  text("[data-legend]", params.legend, html);
  if (variant === "wide") { document.body.classList.add("wide"); }
  if (variant === "words") {
    var extra = document.createElement("p");
    extra.textContent = "Your move";
    document.body.appendChild(extra);
  }
  if (variant === "errors") {
    console.error("outside interface: something went wrong");
    setTimeout(function () { throw new Error("outside interface: thrown"); }, 0);
  }
  var method = (params.method || params.mode || "standard").toLowerCase();
  var tray = !params.tray || params.tray.toLowerCase() === "init" ? "000000000" : params.tray;
  var input = (params.input || "").toLowerCase();
  var back = params.urlreturn || params["return"] || "";
  var marks = {"1": "X", "2": "O", "3": "X", "4": "O"};
  var board = document.getElementById("board");
  var returned = false;
  function play(cell) {
    if (returned) { return; }
    returned = true;
    board.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    var url;
    try { url = new URL(back, location.href); } catch (e) { url = null; }
    if (url && (url.protocol === "http:" || url.protocol === "https:")) {
      url.searchParams.set("ReturnValue", cell);
      document.querySelector("iframe[name=ret]").src = url.href;
    }
    parent.postMessage({type: "tournoyons:return", value: cell, set: "TicTacToe"}, "*");
  }
  function coordinate(cell) {  // 1-9 -> A1-C3: column letter, row number
    var n = Number(cell) - 1;
    return n >= 0 && n < 9 ? "ABC".charAt(n % 3) + String(Math.floor(n / 3) + 1) : "";
  }
  if (method !== "none") {
    var filled = tray.replace(/0/g, "").length;
    var last = [];
    if (coordinate(params.move1)) { last.push("X " + coordinate(params.move1)); }
    if (coordinate(params.move2)) { last.push("O " + coordinate(params.move2)); }
    text("[data-moves]", last.concat([filled + "/9"]).join(" "), false);
    for (var i = 0; i < 9; i++) {
      var button = document.createElement("button");
      var cell = String(i + 1);
      var state = tray.charAt(i) || "0";
      button.dataset.cell = cell;
      button.dataset.state = state;
      button.textContent = marks[state] || "";
      if (params.move1 === cell) { button.dataset.lastMove = "1"; }
      if (params.move2 === cell) { button.dataset.lastMove = "2"; }
      var playable = state === "0" && method !== "end" && (input === "one" || input === "two");
      button.disabled = !playable;
      if (playable) {
        button.dataset.playable = "true";
        button.addEventListener("click", play.bind(null, cell));
      }
      board.appendChild(button);
    }
  }
  document.documentElement.dataset.ready = "true";
  if (parent !== window) {
    parent.postMessage({type: "tournoyons:ready", set: "TicTacToe", method: method,
                        tray: tray, input: input ? params.input : null}, "*");
  }
}());
"""


async def _page(request: Request) -> Response:
    variant = request.path_params["variant"]
    if variant not in VARIANTS:
        return Response("no such page", 404)
    return HTMLResponse(_PAGE.replace("VARIANT", variant))


async def _script(request: Request) -> Response:
    return Response(_SCRIPT, media_type="text/javascript")


class OutsideInterfaces(Threaded):
    """The pages of :data:`VARIANTS`, served on a free port: :meth:`url` of each. Also
    ``/peek/``, the plain page with an image from ``127.0.0.1``'s ``/secret.png`` (an
    internal address once the page is reached by a name allowed on a public server), whose
    requests are counted in :attr:`secret_hits`."""

    def __init__(self) -> None:
        self.secret_hits = 0
        super().__init__(
            [
                Route("/secret.png", self._secret),
                Route("/bounce", self._bounce),
                WebSocketRoute("/socket", self._socket),
                Route("/peek/", self._peek),
                Route("/{variant}/page.js", _script),
                Route("/{variant}/", _page),
            ]
        )

    async def _peek(self, request: Request) -> Response:
        port = request.url.port
        secret = f"http://127.0.0.1:{port}/secret.png"
        worker = f"new WebSocket('ws://127.0.0.1:{port}/socket')"
        peeking = (
            f'<img alt="" src="{secret}"><img alt="" src="/bounce">'
            f'<script>window.open("{secret}?popup");'
            f'new Worker(URL.createObjectURL(new Blob(["{worker}"])));</script>'
        )
        return HTMLResponse(
            _PAGE.replace("VARIANT", "plain").replace("</body>", f"{peeking}</body>")
        )

    async def _bounce(self, request: Request) -> Response:
        location = f"http://127.0.0.1:{request.url.port}/secret.png?bounced"
        return Response(status_code=302, headers={"Location": location})

    async def _secret(self, request: Request) -> Response:
        self.secret_hits += 1
        return Response(b"SECRET", media_type="image/png")

    async def _socket(self, socket: WebSocket) -> None:
        self.secret_hits += 1
        await socket.close()

    def url(self, variant: str) -> str:
        """Return the page of ``variant`` (``plain``, ``errors`` ...)."""
        return f"{self.base}/{variant}/"
