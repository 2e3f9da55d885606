/* The tester: a host page for every registered Set, as the Arbitre embeds it.
 *
 * "Show page" loads the interface with the form's parameters. "New hot-seat game" plays a
 * whole game with the Set's rules (POST /tester/<set>/new and /play): after each ReturnValue
 * the iframe is reloaded with the next context, as the Arbitre did, until the game ends.
 * ReturnValues arrive from the local sink (/return, loaded by the interface's hidden
 * iframe), which posts them to this window; every one is logged. A Set of four seats
 * (Tarot) shows the form's fields of seats 3 and 4, and in a hot-seat game each page waits
 * behind a screen (#handover) until the player to move asks to see their hand.
 */
(function () {
  "use strict";

  var config = JSON.parse(document.getElementById("tester-context").textContent);
  var form = document.getElementById("context");
  var frame = document.getElementById("interface");
  var setSelect = document.getElementById("set");
  var status = document.getElementById("status");
  var log = document.getElementById("log");
  var pageUrl = document.getElementById("page-url");
  var newGame = document.getElementById("new-game");
  var interfaceUrl = document.getElementById("interface-url");

  /* Parameters a game's turn sets; the others (names, colour, wait...) are the person's. */
  var CONTEXT_FIELDS = [
    "Method", "Input", "Tray", "Move1", "Move2", "Move3", "Move4",
    "Gain1", "Gain2", "Gain3", "Gain4", "Count", "Legend",
  ];
  var WORDS = { One: 1, Two: 2, Three: 3, Four: 4 };
  var handover = document.getElementById("handover");

  var game = null; /* {set, state, id, turn, busy} while a hot-seat game runs */
  var gameCounter = 0;
  var tester = { messages: [], returns: [], game: function () { return game; } };
  window.tester = tester;

  function setInfo(name) {
    for (var i = 0; i < config.sets.length; i++) {
      if (config.sets[i].name === name) return config.sets[i];
    }
    return null;
  }

  function field(name) { return form.elements.namedItem(name); }

  function setField(name, value) {
    var el = field(name);
    if (!el) return;
    if (el.type === "checkbox") el.checked = Boolean(value);
    else el.value = value == null ? "" : String(value);
  }

  function query(extra) {
    var params = new URLSearchParams();
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name) return;
      if (el.type === "checkbox") { if (el.checked) params.set(el.name, el.value); return; }
      if (el.value !== "") params.set(el.name, el.value);
    });
    Object.keys(extra || {}).forEach(function (key) { params.set(key, extra[key]); });
    return params.toString();
  }

  /* The interface shown: ours ("/?Set=..."), or the page at the Interface URL field (an
     outside interface), given the same query with URLReturn made absolute, so that its
     moves come back to this server's sink. Only http(s) URLs are loaded. */
  function outside() {
    var text = interfaceUrl.value.trim();
    if (!text) return null;
    try {
      var url = new URL(text);
      return url.protocol === "http:" || url.protocol === "https:" ? url : false;
    } catch (e) { return false; }
  }

  function load(extra) {
    var base = outside();
    if (base === false) { say("The interface URL is http:// or https://."); return; }
    var params = new URLSearchParams(query(extra));
    var url;
    if (base) {
      if (params.get("URLReturn")) {
        params.set("URLReturn", new URL(params.get("URLReturn"), window.location.href).href);
      }
      url = base.href + (base.search ? "&" : "?") + params.toString();
    } else {
      url = "/?" + params.toString();
    }
    frame.src = url;
    pageUrl.textContent = url;
    pageUrl.href = url;
  }

  function say(text) { status.textContent = text; }

  /* During a hot-seat game the two players share this screen: a value may be a secret
     (a hand chosen first, a code, a fleet), so the log hides values until the game ends. */
  var HIDDEN = "\u2022\u2022\u2022";

  function addLog(value, detail) {
    var item = document.createElement("li");
    var strong = document.createElement("strong");
    var hidden = Boolean(game && !game.over);
    strong.textContent = hidden ? HIDDEN : value;
    if (hidden) { strong.title = "hidden until the game ends"; item.setAttribute("data-hidden", "true"); }
    item.appendChild(strong);
    item.appendChild(document.createTextNode(" " + detail));
    item.setAttribute("data-value", value);
    log.insertBefore(item, log.firstChild);
  }

  function revealLog() {
    log.querySelectorAll('li[data-hidden="true"]').forEach(function (item) {
      var strong = item.querySelector("strong");
      strong.textContent = item.getAttribute("data-value");
      strong.removeAttribute("title");
      item.removeAttribute("data-hidden");
    });
  }

  function updateButtons() {
    var info = setInfo(setSelect.value);
    newGame.disabled = !(info && info.rules);
    newGame.title = info && info.rules ? "" : "This Set carries no rules";
    /* The fields of seats beyond the Set's are hidden (and left empty). */
    var seats = (info && info.seats) || 2;
    form.querySelectorAll("[data-seat]").forEach(function (el) {
      var shown = parseInt(el.getAttribute("data-seat"), 10) <= seats;
      el.hidden = !shown;
      if (!shown) {
        var input = el.querySelector("input");
        if (input) input.value = "";
        if (el.selected) field("Input").value = "";
      }
    });
  }

  /* A game of more than two seats: before each page, a screen until the player to move
     asks to see it, so that the others do not see their hand. */
  function hideUntilShown(input) {
    var seat = WORDS[input];
    if (!game || game.set.seats <= 2 || !seat) { handover.hidden = true; return false; }
    var name = field("Name" + seat);
    handover.querySelector("[data-handover-name]").textContent = (name && name.value) || input;
    handover.hidden = false;
    frame.src = "about:blank";
    handover.querySelector("button").focus();
    return true;
  }

  document.getElementById("handover-show").addEventListener("click", function () {
    handover.hidden = true;
    load();
  });

  function applyTurn(turn) {
    CONTEXT_FIELDS.forEach(function (name) { setField(name, ""); });
    Object.keys(turn.params).forEach(function (name) { setField(name, turn.params[name]); });
    game.state = turn.state;
    game.turn += 1;
    game.over = turn.over;
    var returnUrl = "/return?game=" + game.id + "&turn=" + game.turn;
    setField("URLReturn", returnUrl);
    var input = turn.params.Input || "";
    if (turn.over || !hideUntilShown(input)) load();
    if (turn.over) { revealLog(); say("Game over. Start a new game when you like."); }
    else say("Turn " + game.turn + ": player " + (input || "One").toLowerCase() + " to play.");
  }

  function post(path, body) {
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
    }).then(function (response) {
      return response.json().then(function (data) { return { ok: response.ok, data: data }; });
    });
  }

  function startGame() {
    var info = setInfo(setSelect.value);
    if (!info || !info.rules) return;
    gameCounter += 1;
    game = { set: info, state: null, id: gameCounter, turn: 0, busy: true, over: false };
    post("/tester/" + info.key + "/new").then(function (answer) {
      game.busy = false;
      if (!answer.ok) { say("The rules refused to start: " + answer.data.error); return; }
      applyTurn(answer.data);
    });
  }

  function played(value, search) {
    if (!game || game.over || game.busy) return;
    var params = new URLSearchParams(search || "");
    if (params.get("game") !== String(game.id) || params.get("turn") !== String(game.turn)) return;
    game.busy = true;
    post("/tester/" + game.set.key + "/play", { state: game.state, value: value }).then(function (answer) {
      game.busy = false;
      if (!answer.ok) {
        say("Refused by the rules (" + answer.data.error + "): play again.");
        load();
        return;
      }
      applyTurn(answer.data);
    });
  }

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || typeof data !== "object") return;
    if (data.type === "tournoyons:return") {
      tester.messages.push({ value: data.value, set: data.set });
      if (!field("URLReturn").value) addLog(String(data.value), "from " + data.set + " (postMessage)");
      return;
    }
    if (data.type === "tournoyons:sink" && event.origin === window.location.origin) {
      tester.returns.push({ value: data.value, search: data.search });
      var info = game ? game.set.name + ", turn " + game.turn : setSelect.value;
      addLog(String(data.value), "from " + info + " (URLReturn)");
      played(String(data.value), data.search);
    }
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    game = null;
    handover.hidden = true;
    revealLog();
    load();
    say("Showing " + setSelect.value + ".");
  });

  newGame.addEventListener("click", startGame);

  document.getElementById("sample").addEventListener("click", function () {
    var info = setInfo(setSelect.value);
    game = null;
    handover.hidden = true;
    revealLog();
    CONTEXT_FIELDS.forEach(function (name) { setField(name, ""); });
    Object.keys((info && info.sample) || {}).forEach(function (name) { setField(name, info.sample[name]); });
    setField("URLReturn", "/return");
    load();
    say("Sample context of " + setSelect.value + ".");
  });

  setSelect.addEventListener("change", function () {
    game = null;
    handover.hidden = true;
    revealLog();
    updateButtons();
    say(setSelect.value + " chosen.");
  });

  updateButtons();
})();
