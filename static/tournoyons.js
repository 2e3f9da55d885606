/* Tournoyons interface runtime, shared by every Set (spec sections 3 and 6).
 *
 * It reads the page's context (the JSON block #tournoyons-context, written by the server),
 * shows Wait-delayed impacts, turns input on, returns exactly one value per page load
 * (hidden iframe to URLReturn, and postMessage to the parent), runs the WebTest controls,
 * plays sounds with Web Audio, and moves the keyboard focus on boards. Embedded, it tells
 * the host when it is ready and its size, and plays the host's move only with Host=yes.
 *
 * The page's context, parsed once and frozen, is tournoyons.config: { set, method, player,
 * input, playable, composed, tray, urlReturn, wait, mute, webtest, sound }, as the server
 * wrote it. It is read once the page is parsed (null before): a Set's scripts, which are
 * deferred, read it there, never the JSON block themselves.
 *
 * A Set's own script, loaded after this one, calls tournoyons.define({...}) with:
 *   show(value, player)  draw the value just played on the board;
 *   tray()               the board value now shown, in the Set's Tray syntax (optional);
 *   controls(value)      the elements returning `value` (optional; default: the elements
 *                        with data-value or data-cell equal to it);
 *   input(on, player)    input turned on for `player` (1 or 2), or off (optional);
 *   accepts(value)       whether a value composed on the page (a fleet, a code: the
 *                        view's `composed`) may be returned (optional);
 *   ready()              called once every impact is shown (optional).
 */
(function () {
  "use strict";

  var root = document.documentElement;
  var config = null;   /* the page's context, once read (readConfig) */
  var controller = {};
  var inputOn = false;
  var returned = false;
  var player = null;
  var audio = null;

  var api = {
    set: root.getAttribute("data-set") || "",
    lastValue: null,
    sounds: [],
    tray: function () {
      if (controller.tray) return controller.tray();
      return config ? config.tray : "";
    },
    play: function (value) { return play(String(value)); },
    define: function (definition) { controller = definition || {}; },
    get inputOn() { return inputOn; },
    get config() { return document.readyState === "loading" ? config : readConfig(); },
  };
  window.tournoyons = api;

  /* The original testers read the board through this global (spec section 6). */
  window.Webmaster = function (order) {
    switch (order) {
      case "tray": return api.tray();
      case "joue": webtestPlay(); return undefined;
      case "affiche": webtestShow(true); return api.tray();
      default: return undefined;
    }
  };

  /* The JSON block #tournoyons-context, read once the page is parsed (it ends the body),
     frozen so that no script changes what another reads; {} when it is missing or broken. */
  function readConfig() {
    if (config) return config;
    var block = document.getElementById("tournoyons-context");
    var parsed = null;
    try { parsed = JSON.parse(block ? block.textContent : "{}"); } catch (e) { parsed = null; }
    if (!parsed || typeof parsed !== "object") parsed = {};
    parsed.playable = Object.freeze(parsed.playable || []);
    config = Object.freeze(parsed);
    return config;
  }

  /* value -> the elements returning it, built once: a 19x19 board has 361 cells. */
  var controlMap = null;

  function controlsFor(value) {
    if (controller.controls) return controller.controls(value);
    if (!controlMap) {
      controlMap = Object.create(null);
      document.querySelectorAll("[data-value], [data-cell]").forEach(function (el) {
        var key = el.getAttribute("data-value") || el.getAttribute("data-cell");
        (controlMap[key] = controlMap[key] || []).push(el);
      });
    }
    return controlMap[value] || [];
  }

  function setInput(on, who) {
    inputOn = on;
    player = on ? who : null;
    if (on) root.setAttribute("data-input", String(who));
    else root.removeAttribute("data-input");
    var first = null;
    (config.playable || []).forEach(function (value) {
      controlsFor(value).forEach(function (el) {
        if (on) {
          el.setAttribute("data-playable", "true");
          el.removeAttribute("aria-disabled");
          if (el.hasAttribute("data-cell") && !first) first = el;
        } else {
          el.removeAttribute("data-playable");
          if (el.hasAttribute("data-cell")) el.setAttribute("aria-disabled", "true");
          if (el.tagName === "BUTTON") el.disabled = true;
        }
      });
    });
    document.querySelectorAll("[data-cell]").forEach(function (el) {
      el.setAttribute("tabindex", on && el === first ? "0" : "-1");
    });
    document.querySelectorAll("button[data-value]").forEach(function (el) {
      el.disabled = !on || el.getAttribute("data-playable") !== "true";
    });
    if (controller.input) controller.input(on, on ? who : null);
  }

  function returnUrl(url, value) {
    var parsed;
    try { parsed = new URL(url, document.baseURI); } catch (e) { return null; }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
    var href = parsed.href;
    var fragment = "";
    var hash = href.indexOf("#");
    if (hash >= 0) { fragment = href.slice(hash); href = href.slice(0, hash); }
    var sep = href.indexOf("?") < 0 ? "?" : (/[?&]$/.test(href) ? "" : "&");
    return href + sep + "ReturnValue=" + encodeURIComponent(value) + fragment;
  }

  function sendReturn(value) {
    if (config.urlReturn) {
      var target = returnUrl(config.urlReturn, value);
      var frame = document.querySelector("iframe.return");
      if (target && frame) frame.src = target;
    }
    if (window.parent && window.parent !== window) {
      window.parent.postMessage({ type: "tournoyons:return", value: value, set: config.set }, "*");
    }
  }

  function announce(text) {
    var live = document.querySelector("[data-announce]");
    if (live) live.textContent = text;
  }

  /* The moves shown (Move1, Move2; to Move4 with four seats), as the board shows them:
     "\u25CF1 C5 \u25CF2 D6". */
  function announceMoves() {
    var live = document.querySelector("[data-announce]");
    if (!live) return;
    var said = [];
    ["1", "2", "3", "4"].forEach(function (p) {
      var move = live.getAttribute("data-move" + p);
      if (move) said.push("\u25CF" + p + " " + move);
    });
    if (said.length) announce(said.join(" "));
  }

  function play(value) {
    if (returned || !inputOn || !config) return false;
    var listed = (config.playable || []).indexOf(value) >= 0;
    if (!listed && !(config.composed && controller.accepts && controller.accepts(value))) return false;
    returned = true;
    var who = player;
    setInput(false, null);
    api.lastValue = value;
    root.setAttribute("data-played", value);
    if (controller.show) controller.show(value, who);
    announce("\u25CF" + (who || 1) + " " + value);
    sound("move");
    sendReturn(value);
    refreshWebtest();
    return true;
  }

  /* --- sound: Web Audio tones, no files; silenced by Mute ------------------------------ */

  function tones(kind) {
    var notes = kind === "win" ? [523.25, 659.25, 783.99, 1046.5] : [392.0, 587.33];
    var t0 = audio.currentTime + 0.01;
    notes.forEach(function (frequency, i) {
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      var start = t0 + i * (kind === "win" ? 0.12 : 0.06);
      osc.type = kind === "win" ? "triangle" : "sine";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.18, start + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.28);
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start(start);
      osc.stop(start + 0.3);
    });
    api.sounds.push(kind);
  }

  function sound(kind) {
    if (!config || config.mute) return;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio = audio || new Context();
      if (audio.state === "running") { tones(kind); return; }
      /* Browsers start audio only after a gesture (or with the host's allow="autoplay"):
         play when it starts, unless the moment has passed. */
      var asked = Date.now();
      audio.resume().then(function () {
        if (Date.now() - asked < 1000) tones(kind);
      }, function () {});
    } catch (e) {
      /* No audio device: the page works silently. */
    }
  }

  /* --- WebTest (spec section 3): input held off until the play control is used -------- */

  function webtestPlay() {
    if (returned || inputOn || !config || !config.player) return;
    setInput(true, config.player);
    var button = document.querySelector('[data-webtest="play"]');
    if (button) { button.setAttribute("aria-pressed", "true"); button.disabled = true; }
    var first = document.querySelector('[data-playable="true"]');
    if (first && first.focus) first.focus();
  }

  function refreshWebtest() {
    var tray = document.querySelector("[data-webtest-tray]");
    var value = document.querySelector("[data-webtest-value]");
    if (tray) tray.textContent = api.tray();
    if (value) value.textContent = api.lastValue === null ? "\u2205" : api.lastValue;
  }

  function webtestShow(force) {
    var output = document.querySelector("[data-webtest-output]");
    var button = document.querySelector('[data-webtest="show"]');
    if (!output) return;
    var open = force === true ? true : output.hidden;
    output.hidden = !open;
    if (button) button.setAttribute("aria-expanded", String(open));
    refreshWebtest();
  }

  /* --- pointer and keyboard ------------------------------------------------------------ */

  function valueOf(el) {
    return el.getAttribute("data-value") || el.getAttribute("data-cell");
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var webtest = target.closest("[data-webtest]");
    if (webtest) {
      if (webtest.getAttribute("data-webtest") === "play") webtestPlay();
      else webtestShow();
      return;
    }
    var control = target.closest('[data-playable="true"]');
    if (control) play(valueOf(control));
  });

  var STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var cell = target.closest("[data-cell]");
    if (!cell || target.tagName === "BUTTON") return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (cell.getAttribute("data-playable") === "true") play(valueOf(cell));
      return;
    }
    var step = STEPS[event.key];
    var board = cell.closest("[data-board]");
    if (!step || !board) return;
    event.preventDefault();
    var cells = Array.prototype.slice.call(board.querySelectorAll("[data-cell]"));
    var columns = parseInt(board.getAttribute("data-columns"), 10) || Math.round(Math.sqrt(cells.length));
    var index = cells.indexOf(cell);
    var column = index % columns + step[0];
    var row = Math.floor(index / columns) + step[1];
    if (column < 0 || column >= columns || row < 0 || row * columns + column >= cells.length) return;
    var next = cells[row * columns + column];
    cell.setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus();
  });

  /* --- start: moves first, impacts Wait tenths later, then input ----------------------- */

  function impacts() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-before]"));
  }

  /* An element carrying a Wait-delayed impact shows its state before the impact until
     finish(); the page's HTML holds the final state, so that it is complete without
     JavaScript. */
  function holdImpact(el) {
    if (el.hasAttribute("data-after")) return;
    el.setAttribute("data-after", el.getAttribute("data-state") || "");
    el.setAttribute("data-state", el.getAttribute("data-before"));
  }

  /* This script runs in the head, before the board is parsed: hold each impact as the
     parser inserts it, before the first paint, so the final state never flashes. */
  var observer = null;
  var waitAttribute = parseInt(root.getAttribute("data-wait") || "0", 10);
  if (waitAttribute > 0 && window.MutationObserver && document.readyState === "loading") {
    observer = new MutationObserver(function (records) {
      records.forEach(function (record) {
        record.addedNodes.forEach(function (node) {
          if (node.nodeType !== 1) return;
          if (node.hasAttribute("data-before")) holdImpact(node);
          node.querySelectorAll("[data-before]").forEach(holdImpact);
        });
      });
    });
    observer.observe(document, { childList: true, subtree: true });
  }

  function finish() {
    impacts().forEach(function (el) {
      var after = el.getAttribute("data-after");
      if (after !== null) el.setAttribute("data-state", after);
      el.removeAttribute("data-after");
    });
    if (config.sound === "win") sound("win");
    if (controller.ready) controller.ready();
    announceMoves();
    if (config.input && !config.webtest) setInput(true, config.player);
    root.setAttribute("data-ready", "true");
    hostReady();
  }

  /* --- events to the host (spec section 3): ready, size; play with Host=yes ------------- */

  var embedded = window.parent && window.parent !== window;
  /* The player asked, as Input spells it (four seats: Tarot). */
  var INPUT_WORDS = { 1: "One", 2: "Two", 3: "Three", 4: "Four" };

  function toHost(message) {
    if (!embedded) return;
    try { window.parent.postMessage(message, "*"); } catch (e) { /* no host to tell */ }
  }

  /* Host=yes in the page's own query (name case-insensitive, the last one wins, as the
     server reads the query): the embedder may play for the person. */
  function hostControl() {
    var on = false;
    try {
      new URLSearchParams(window.location.search).forEach(function (value, name) {
        if (name.trim().toLowerCase() === "host") {
          on = ["yes", "oui"].indexOf(value.trim().toLowerCase()) >= 0;
        }
      });
    } catch (e) { on = false; }
    return on;
  }

  var lastSize = "";

  function postSize() {
    var body = document.body;
    var rect = root.getBoundingClientRect();
    var width = Math.ceil(Math.max(rect.width, root.scrollWidth, body ? body.scrollWidth : 0));
    var height = Math.ceil(Math.max(rect.height, root.scrollHeight, body ? body.scrollHeight : 0));
    var key = width + "x" + height;
    if (key === lastSize) return;
    lastSize = key;
    toHost({ type: "tournoyons:size", width: width, height: height });
  }

  function hostReady() {
    if (!embedded) return;
    toHost({
      type: "tournoyons:ready",
      set: config.set || api.set,
      method: config.method || "",
      tray: String(api.tray()),
      input: config.input ? (INPUT_WORDS[config.player] || "One") : null,
    });
    if (window.ResizeObserver) {
      var sizes = new ResizeObserver(postSize);
      sizes.observe(root);
      if (document.body) sizes.observe(document.body);
    }
    postSize();
    if (config.input && hostControl()) {
      window.addEventListener("message", function (event) {
        if (event.source !== window.parent) return;
        var data = event.data;
        if (!data || typeof data !== "object" || data.type !== "tournoyons:play") return;
        var value = data.value;
        if (typeof value === "number" && isFinite(value)) value = String(value);
        if (typeof value === "string") play(value);
      });
    }
  }

  function start() {
    readConfig();
    api.set = config.set || api.set;
    setInput(false, null);
    if (observer) { observer.takeRecords(); observer.disconnect(); }
    var delayed = config.wait > 0 ? impacts() : [];
    delayed.forEach(holdImpact);
    if (config.sound) sound("move");
    refreshWebtest();
    if (delayed.length) window.setTimeout(finish, config.wait * 100);
    else finish();
  }

  /* Deferred scripts run while readyState is already "interactive": wait for
     DOMContentLoaded, which comes after every deferred script (the Set's define()). */
  if (document.readyState === "complete") start();
  else document.addEventListener("DOMContentLoaded", start);
})();
