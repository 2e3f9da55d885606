/* The Arbitre's front page: the games in play follow their moves live. One stream of
 * events (/arbitre/events?game=...) for every game shown; at a game's move its small board
 * is drawn again from /games/<id>/view (the same query its page would give its frame) and
 * its move count and state change. Without this script the page is a still picture with
 * a link to each game. Text is only ever set with textContent. */
(function () {
  "use strict";

  function readConfig() {
    var node = document.getElementById("front-config");
    try { return node ? JSON.parse(node.textContent) : null; } catch (e) { return null; }
  }

  function start() {
    var config = readConfig();
    var tiles = {};
    Array.prototype.forEach.call(document.querySelectorAll("[data-tile]"), function (tile) {
      tiles[tile.dataset.tile] = tile;
    });
    var ids = Object.keys(tiles);
    if (!config || !ids.length || typeof EventSource === "undefined") { return; }
    var asked = {};

    function redraw(id) {
      var tile = tiles[id];
      var ticket = (asked[id] || 0) + 1;
      asked[id] = ticket;
      fetch("/games/" + encodeURIComponent(id) + "/view", {cache: "no-store"})
        .then(function (r) { return r.json(); })
        .then(function (view) {
          if (view.error || asked[id] !== ticket) { return; }
          var frame = tile.querySelector("[data-mini]");
          if (frame && frame.getAttribute("src") !== view.src) { frame.setAttribute("src", view.src); }
          tile.querySelector("[data-tile-moves]").textContent = String(view.moves);
          tile.dataset.moves = String(view.moves);
          tile.dataset.status = view.status;
          if (view.status !== "playing") {
            tile.querySelector("[data-tile-state]").textContent =
              " · " + (view.result ? view.result : view.status);
          }
        })
        .catch(function () { /* the next event draws it */ });
    }

    var query = ids.map(function (id) { return "game=" + encodeURIComponent(id); }).join("&");
    var source = new EventSource(config.events + "?" + query);
    source.addEventListener("move", function (message) {
      var event;
      try { event = JSON.parse(message.data); } catch (e) { return; }
      var tile = tiles[event.id];
      if (!tile) { return; }
      if (String(event.moves) !== tile.dataset.moves || event.over) { redraw(event.id); }
    });
    source.addEventListener("error", function () {
      /* The stream ends once every game shown is over: nothing more to follow. */
      if (source.readyState === EventSource.CLOSED) { return; }
      var playing = ids.filter(function (id) { return tiles[id].dataset.status !== "over"; });
      if (!playing.length) { source.close(); }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
