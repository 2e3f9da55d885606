/* The Arbitre's pages: the new-game form, and a game page that follows a game live (SSE)
 * or replays it (first/previous/next/last, slider, arrow, Home and End keys). The game
 * page learns about its board only through the interface's postMessage events
 * (tournoyons:ready, tournoyons:return), never by reading the iframe's DOM, so that an
 * interface from another origin works the same. Every control is also a plain link. */
(function () {
  "use strict";

  /* The board's first tournoyons:ready may come before the page's script has set up the
   * game page (the iframe loads beside the parent's parsing): this script is loaded
   * without defer, so its listener is there before the iframe exists, and messages are
   * kept until the game page takes them. */
  var early = [];
  var onMessage = null;
  window.addEventListener("message", function (event) {
    if (onMessage) { onMessage(event); } else if (early.length < 32) { early.push(event); }
  });

  function readConfig() {
    var node = document.getElementById("arbitre-config");
    try { return node ? JSON.parse(node.textContent) : null; } catch (e) { return null; }
  }

  /* --- the new-game form ------------------------------------------------------------ */
  function newGameForm(form) {
    var setSelect = form.querySelector("[data-set-select]");
    var level = form.querySelector("[data-level]");
    function refresh() {
      var option = setSelect.selectedOptions[0];
      var engines = option ? option.dataset.engines.split(" ") : [];
      var levels = option ? option.dataset.levels.split(" ") : ["1"];
      var seats = option ? parseInt(option.dataset.seats, 10) || 2 : 2;
      form.querySelectorAll("[data-seat]").forEach(function (seat) {
        /* As many seat rows as the Set has seats; a row hidden is not sent. */
        var unused = parseInt(seat.dataset.seat, 10) > seats;
        seat.hidden = unused;
        seat.disabled = unused;
        var chosen = seat.querySelector("[data-kind]").selectedOptions[0];
        var field = chosen ? chosen.dataset.field : "";
        seat.querySelectorAll("[data-for]").forEach(function (label) {
          label.hidden = label.dataset.for !== field;
        });
        var builtin = seat.querySelector("[data-builtin]");
        var firstShown = null;
        Array.prototype.forEach.call(builtin.options, function (o) {
          o.hidden = engines.indexOf(o.value) < 0;
          o.disabled = o.hidden;
          if (!o.hidden && firstShown === null) { firstShown = o; }
        });
        if (builtin.selectedOptions[0] && builtin.selectedOptions[0].disabled && firstShown) {
          builtin.value = firstShown.value;
        }
      });
      Array.prototype.forEach.call(level.options, function (o) {
        o.disabled = levels.indexOf(o.value) < 0;
      });
      form.querySelector("[data-first]").hidden = seats !== 2;
      form.querySelector("[data-deals]").hidden = !(option && option.dataset.deals);
      if (level.selectedOptions[0].disabled) { level.value = levels[0]; }
      level.closest("label").hidden = levels.length < 2;
    }
    form.addEventListener("change", refresh);
    refresh();
  }

  /* --- a game page ------------------------------------------------------------------ */
  function gamePage(root, config) {
    var iframe = root.querySelector("[data-board]");
    var slider = root.querySelector("[data-slider]");
    var position = root.querySelector("[data-position]");
    var list = root.querySelector("[data-moves-list]");
    var stateLine = root.querySelector("[data-state]");
    var seats = config.seats || [];
    var moves = config.moves;
    var shown = config.number;
    var following = !config.live ? false : shown === moves;
    var currentSrc = iframe.getAttribute("src");
    var returnedAt = 0;

    function seatQuery() {
      return seats.map(function (t) { return "&seat=" + encodeURIComponent(t); }).join("") +
        (config.interface ? "&interface=" + encodeURIComponent(config.interface) : "");
    }

    function render(view) {
      moves = view.moves;
      shown = view.move;
      root.dataset.moves = String(moves);
      root.dataset.move = String(shown);
      root.dataset.status = view.status;
      slider.max = String(moves);
      slider.value = String(shown);
      position.textContent = shown + " / " + moves;
      if (view.src !== currentSrc) {
        currentSrc = view.src;
        root.dataset.boardReady = "false";
        iframe.src = view.src;
      }
      if (view.status === "playing") {
        stateLine.textContent = view.asked !== null ? "Your move." : "Playing…";
      } else {
        stateLine.textContent = view.result ? view.result + "." : view.status;
      }
      renderList(view.list || []);
      (view.statuses || []).forEach(function (status, index) {
        var cell = root.querySelector('[data-seat-row="' + index + '"] [data-final-status]');
        if (cell && status !== null) { cell.textContent = String(status); }
      });
      root.querySelectorAll("[data-nav]").forEach(function (link) {
        var target = {first: 0, previous: Math.max(shown - 1, 0),
                      next: Math.min(shown + 1, moves), last: moves}[link.dataset.nav];
        link.href = "?move=" + target + seatQuery();
      });
    }

    function renderList(items) {
      if (!items.length) { return; }
      list.textContent = "";
      items.forEach(function (m) {
        var li = document.createElement("li");
        li.value = m.number;
        if (m.number === shown) { li.setAttribute("aria-current", "step"); }
        var a = document.createElement("a");
        a.href = "?move=" + m.number + seatQuery();
        a.dataset.moveLink = String(m.number);
        a.textContent = m.seat + ": ";
        var code = document.createElement("code");
        code.textContent = m.value;
        a.appendChild(code);
        li.appendChild(a);
        var small = document.createElement("small");
        small.textContent = " " + m.ms + " ms";
        li.appendChild(small);
        list.appendChild(li);
      });
    }

    /* Answers may come back out of order: only the newest request's answer is drawn. */
    var requested = 0;
    var drawn = 0;

    function load(move) {
      var ticket = ++requested;
      var url = "/games/" + encodeURIComponent(config.id) + "/view?list=1" +
        (move === null ? "" : "&move=" + move) + seatQuery();
      return fetch(url, {cache: "no-store"}).then(function (r) { return r.json(); })
        .then(function (view) {
          if (view.error || ticket < drawn) { return; }
          drawn = ticket;
          render(view);
          if (move !== null) {
            history.replaceState(null, "", "?move=" + view.move + seatQuery());
          }
        });
    }

    function go(move) {
      move = Math.max(0, Math.min(move, moves));
      following = config.live && root.dataset.status === "playing" && move === moves;
      load(move);
    }

    window.tournoyonsSteps(root, "[data-nav], [data-move-link]", slider,
      function () { return {shown: shown, moves: moves}; }, go);

    onMessage = function (event) {
      if (event.origin === window.location.origin && event.data &&
          event.data.type === "arbitre:returned") {
        /* Our return page, from inside the board: the move taken, the news comes by the
         * events; refused (422), the same board is drawn again, asked again; not asked now
         * (404: a second click, an old board), the page follows the record. */
        returnedAt = 0;
        if (event.data.code === 422) { currentSrc = ""; }
        if (event.data.code !== 200) { load(null); }
        return;
      }
      if (event.source !== iframe.contentWindow || !event.data) { return; }
      if (event.data.type === "tournoyons:ready") {
        root.dataset.boardReady = "true";
        root.dataset.boardMethod = event.data.method || "";
        root.dataset.boardInput = event.data.input || "";
      } else if (event.data.type === "tournoyons:return") {
        returnedAt = Date.now();
        root.dataset.returned = String(event.data.value);
        /* The return page says what became of the value (arbitre:returned above); a
         * board whose return we cannot hear (a sandboxed one) is drawn again if neither
         * that nor the move's event came within five seconds. */
        setTimeout(function () {
          if (returnedAt && Date.now() - returnedAt >= 4900) {
            returnedAt = 0;
            currentSrc = "";
            load(null);
          }
        }, 5000);
      }
    };
    early.splice(0).forEach(onMessage);

    if (config.live && window.EventSource) {
      var source = new EventSource("/games/" + encodeURIComponent(config.id) + "/events");
      source.addEventListener("move", function (event) {
        var news = JSON.parse(event.data);
        returnedAt = 0;
        moves = Math.max(moves, news.moves);
        if (news.over) { source.close(); config.live = false; }
        if (following || news.over && shown === moves) {
          load(null);
        } else {
          slider.max = String(moves);
          position.textContent = shown + " / " + moves;
        }
      });
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("[data-new-game]");
    if (form) { newGameForm(form); }
    var root = document.querySelector("[data-game]");
    var config = readConfig();
    if (root && config) { gamePage(root, config); }
  });
}());
