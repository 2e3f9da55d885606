/* MasterMind: composing a code (Method=Prepare) or a guess on the next free line, and the
 * Tray as shown.
 *
 * The page says where to compose: .mm[data-compose] is "code" (the code row of board
 * data-compose-board) or "line" (line data-compose-line of that board); data-prefill is the
 * composition to start from (the previous guess). Holes are chosen by click or arrows,
 * colours by the palette, the keys A-H or 1-8, or ArrowUp/ArrowDown on a hole; Backspace and
 * Delete empty a hole; the validate control (or Enter) returns the value once:
 * the 4 colours for a code, "00" and the 4 colours for a guess (spec section 4).
 */
(function () {
  "use strict";

  var T = window.tournoyons;
  var mm = document.querySelector(".mm");
  var COLOURS = "ABCDEFGH";

  if (!mm) {  /* Method=None: no board, the runtime answers the Tray itself. */
    T.define({});
    return;
  }

  var mode = mm.getAttribute("data-compose") || "";
  var boardNumber = mm.getAttribute("data-compose-board");
  var board = mode ? mm.querySelector('[data-board="' + boardNumber + '"]') : null;
  var target = null;
  if (board && mode === "code") target = board.querySelector("[data-code]");
  if (board && mode === "line") {
    target = board.querySelector('[data-line="' + mm.getAttribute("data-compose-line") + '"]');
  }
  var holes = target ? Array.prototype.slice.call(target.querySelectorAll("[data-peg]")) : [];
  var swatches = Array.prototype.slice.call(mm.querySelectorAll("[data-pick]"));
  var validate = mm.querySelector("[data-validate]");
  var erase = mm.querySelector("[data-erase]");

  var slots = ["", "", "", ""];
  var cursor = 0;
  var paletteFocus = 0;
  var on = false;
  var started = false;

  function paint(peg, colour) {
    peg.setAttribute("data-colour", colour);
    var face = peg.querySelector(".face");
    if (face) face.setAttribute("href", "#mm-" + (colour || "none"));
  }

  function complete() { return slots.every(function (c) { return c !== ""; }); }

  function value() {
    if (!complete()) return null;
    return (mode === "line" ? "00" : "") + slots.join("");
  }

  function syntax(v) {
    if (typeof v !== "string") return false;
    return mode === "line" ? /^00[A-H]{4}$/.test(v) : mode === "code" && /^[A-H]{4}$/.test(v);
  }

  function setControl(el, enabled, focusable) {
    if (!el) return;
    if (enabled) el.removeAttribute("aria-disabled");
    else el.setAttribute("aria-disabled", "true");
    el.setAttribute("tabindex", focusable ? "0" : "-1");
  }

  function render() {
    holes.forEach(function (hole, i) {
      paint(hole, slots[i]);
      hole.setAttribute("data-selected", on && i === cursor ? "true" : "false");
      hole.setAttribute("tabindex", on && i === cursor ? "0" : "-1");
      if (on) {
        hole.setAttribute("role", "button");
        hole.setAttribute("aria-label", (i + 1) + ": " + (slots[i] || "\u2205"));
      }
    });
    swatches.forEach(function (swatch, i) { setControl(swatch, on, on && i === paletteFocus); });
    setControl(erase, on, on);
    var v = on ? value() : null;
    if (validate) {
      setControl(validate, v !== null, on);
      if (v !== null) {
        validate.setAttribute("data-value", v);
        validate.setAttribute("data-playable", "true");
      } else {
        validate.removeAttribute("data-value");
        validate.removeAttribute("data-playable");
      }
    }
    if (target) {
      if (on) target.setAttribute("data-composing", "true");
      else target.removeAttribute("data-composing");
    }
  }

  function focusHole() {
    var active = document.activeElement;
    if (holes.indexOf(active) >= 0 || active === document.body || !active) holes[cursor].focus();
  }

  function select(i) {
    cursor = Math.max(0, Math.min(holes.length - 1, i));
    render();
  }

  /* After a colour is put in, the next empty hole to the right (wrapping), else the next. */
  function advance() {
    for (var step = 1; step <= slots.length; step++) {
      var i = (cursor + step) % slots.length;
      if (slots[i] === "") { select(i); return; }
    }
    select(Math.min(cursor + 1, slots.length - 1));
  }

  function pick(colour) {
    if (!on || COLOURS.indexOf(colour) < 0 || !holes.length) return;
    slots[cursor] = colour;
    advance();
  }

  function cycle(step) {
    var now = COLOURS.indexOf(slots[cursor]);
    var next = now < 0 ? (step > 0 ? 0 : COLOURS.length - 1) : (now + step + COLOURS.length) % COLOURS.length;
    slots[cursor] = COLOURS.charAt(next);
    render();
  }

  function clear(back) {
    if (!on) return;
    if (back && slots[cursor] === "" && cursor > 0) cursor -= 1;
    slots[cursor] = "";
    render();
  }

  function submit() {
    if (!on) return;
    var v = value();
    if (v !== null) { T.play(v); return; }
    holes.forEach(function (hole, i) {
      if (slots[i] === "") {
        hole.removeAttribute("data-missing");
        void hole.getBoundingClientRect();  /* restart the animation */
        hole.setAttribute("data-missing", "true");
      }
    });
  }

  function input(isOn) {
    isOn = Boolean(isOn) && holes.length > 0;
    if (isOn === on) return;
    on = isOn;
    if (on && !started) {
      started = true;
      var prefill = mm.getAttribute("data-prefill") || "";
      if (/^[A-H]{4}$/.test(prefill)) slots = prefill.split("");
      var empty = slots.indexOf("");
      cursor = empty < 0 ? 0 : empty;
    }
    render();
  }

  /* What was played: the line takes the guess (marks to come from the Arbitre), or the
     code just chosen closes under its cover. */
  function show(v) {
    if (!target || !syntax(v)) return;
    slots = v.slice(mode === "line" ? 2 : 0).split("");
    render();
    holes.forEach(function (hole) {
      hole.setAttribute("data-selected", "false");
      hole.removeAttribute("role");
      hole.removeAttribute("tabindex");
    });
    /* Played: no control left inside, the line (or code) is a picture again. */
    target.setAttribute("role", "img");
    if (mode === "line") {
      mm.querySelectorAll("[data-last-move]").forEach(function (el) { el.removeAttribute("data-last-move"); });
      target.setAttribute("data-state", "played");
      target.setAttribute("data-guess", slots.join(""));
      target.setAttribute("data-marks", "00");
      target.setAttribute("aria-label", target.getAttribute("data-line") + ": " + v);
      target.setAttribute("data-last-move", String(board.getAttribute("data-guesser")));
    } else {
      target.setAttribute("data-state", "closed");
      target.setAttribute("data-colours", slots.join(""));
    }
  }

  function tray() {
    return ["1", "2"].map(function (n) {
      var lines = Array.prototype.slice.call(mm.querySelectorAll('[data-board="' + n + '"] [data-line]'));
      lines.sort(function (a, b) { return a.getAttribute("data-line") - b.getAttribute("data-line"); });
      return lines.map(function (line) {
        var guess = line.getAttribute("data-guess") || "";
        return guess ? (line.getAttribute("data-marks") || "00") + guess : "";
      }).join("");
    }).join("***");
  }

  /* --- pointer ------------------------------------------------------------------------ */

  mm.addEventListener("click", function (event) {
    var el = event.target instanceof Element ? event.target : null;
    if (!el || !on) return;
    var swatch = el.closest("[data-pick]");
    if (swatch) { pick(swatch.getAttribute("data-pick")); return; }
    var hole = el.closest("[data-peg]");
    if (hole && holes.indexOf(hole) >= 0) { select(holes.indexOf(hole)); return; }
    if (el.closest("[data-erase]")) { clear(false); return; }
    /* A complete code is returned by the runtime (data-playable); an incomplete one says
       which holes are missing. */
    if (el.closest("[data-validate]") && value() === null) submit();
  });

  /* --- keyboard ----------------------------------------------------------------------- */

  function movePalette(step) {
    paletteFocus = (paletteFocus + step + swatches.length) % swatches.length;
    render();
    swatches[paletteFocus].focus();
  }

  var PALETTE_STEPS = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -2, ArrowDown: 2 };

  document.addEventListener("keydown", function (event) {
    if (!on || event.ctrlKey || event.metaKey || event.altKey) return;
    var el = event.target instanceof Element ? event.target : document.body;
    if (el.tagName === "BUTTON" || el.tagName === "INPUT") return;
    var key = event.key;
    var swatch = el.closest("[data-pick]");
    if (key === "Enter" || key === " ") {
      event.preventDefault();
      if (swatch) pick(swatch.getAttribute("data-pick"));
      else if (el.closest("[data-erase]")) clear(false);
      else if (key === "Enter" || el.closest("[data-validate]")) submit();
      return;
    }
    if (swatch && PALETTE_STEPS[key]) {
      event.preventDefault();
      movePalette(PALETTE_STEPS[key]);
      return;
    }
    var letter = key.length === 1 ? key.toUpperCase() : "";
    var colour = COLOURS.indexOf(letter) >= 0 ? letter
      : (/^[1-8]$/.test(key) ? COLOURS.charAt(Number(key) - 1) : "");
    var handled = true;
    if (colour) pick(colour);
    else if (key === "ArrowLeft") select(cursor - 1);
    else if (key === "ArrowRight") select(cursor + 1);
    else if (key === "Home") select(0);
    else if (key === "End") select(holes.length - 1);
    else if (key === "ArrowUp") cycle(1);
    else if (key === "ArrowDown") cycle(-1);
    else if (key === "Backspace") clear(true);
    else if (key === "Delete") clear(false);
    else handled = false;
    if (!handled) return;
    event.preventDefault();
    if (!swatch) focusHole();
  });

  T.define({
    show: show,
    tray: tray,
    input: input,
    accepts: syntax,
  });

  /* The runtime starts as soon as the document is parsed, before this script: if it has
     already turned input on, follow it now. */
  if (T.inputOn) input(true);
})();
