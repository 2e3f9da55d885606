/* Poker: the betting controls and the bet the person makes.
 *
 * The raise controls (a slider, its - and + steps, the keys + and -, Enter on the slider)
 * choose a total; the bet button's data-value is kept equal to it, so the shared runtime's
 * single, checked return applies (every legal total is in the view's playable list). A bet
 * is drawn as the player's new total and a chip flying into the pot; a fold turns the
 * player's total to 0. The board value is the Tray, its totals as now shown. */
(function () {
  "use strict";
  var board = document.querySelector(".pk-table");
  var shownTray = board ? window.tournoyons.config.tray : "";

  function control(name) { return document.querySelector('.pk-controls [data-control="' + name + '"]'); }

  var slider = control("slider");
  var bet = control("bet");
  var inputOn = false;

  function inRange(value) {
    if (!slider || !/^\d+$/.test(value)) return false;
    var total = parseInt(value, 10);
    return total >= parseInt(slider.min, 10) && total <= parseInt(slider.max, 10);
  }

  /* Make `total` the chosen one: the slider, the bet button's value and its number. */
  function choose(total) {
    if (!slider || !bet) return;
    var low = parseInt(slider.min, 10);
    var high = parseInt(slider.max, 10);
    total = Math.max(low, Math.min(high, total));
    slider.value = String(total);
    slider.setAttribute("aria-valuetext", String(total));
    bet.setAttribute("data-value", String(total));
    bet.setAttribute("aria-label", "bet " + total);
    var number = bet.querySelector("[data-bet-total]");
    if (number) number.textContent = String(total);
  }

  function step(by) {
    if (!inputOn || !slider) return;
    choose(parseInt(slider.value, 10) + by);
  }

  if (slider) {
    slider.addEventListener("input", function () { choose(parseInt(slider.value, 10)); });
    slider.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();
        window.tournoyons.play(bet.getAttribute("data-value"));
      }
    });
  }
  document.querySelectorAll(".pk-controls [data-step]").forEach(function (button) {
    button.addEventListener("click", function () {
      step(parseInt(button.getAttribute("data-step"), 10));
    });
  });
  document.addEventListener("keydown", function (event) {
    if (!inputOn || !slider || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "+" || event.key === "=") { event.preventDefault(); step(1); }
    else if (event.key === "-" || event.key === "_") { event.preventDefault(); step(-1); }
  });

  /* The Tray with `player`'s total set and their "?" removed (the bet is made). */
  function trayWith(player, total) {
    var match = /^(.*M)(\??)(\d+)-(\??)(\d+)$/.exec(shownTray);
    if (!match) return shownTray;
    var one = player === 1 ? String(total) : match[2] + match[3];
    var two = player === 2 ? String(total) : match[4] + match[5];
    return match[1] + one + "-" + two;
  }

  function setText(selector, text) {
    var el = document.querySelector(selector);
    if (el) el.textContent = text;
  }

  function fly(player, total) {
    var chip = document.querySelector('.fly[data-fly="' + player + '"]');
    if (!chip) return;
    setText('.fly[data-fly="' + player + '"] [data-fly-amount]', String(total));
    chip.removeAttribute("data-before");
    chip.setAttribute("data-state", "");
    chip.getBoundingClientRect(); /* restart the animation */
    chip.setAttribute("data-state", "pot");
  }

  function input(on) {
    inputOn = on;
    document.querySelectorAll(".pk-controls [data-step], .pk-controls .pk-slider").forEach(
      function (el) { el.disabled = !on; });
    if (on && slider) choose(parseInt(slider.value, 10));
  }

  window.tournoyons.define({
    show: function (value, player) {
      if (!board || document.querySelector('.pk-controls [data-control="acknowledge"]')) return;
      var total = value === "-1" ? 0 : parseInt(value, 10);
      if (isNaN(total)) return;
      var seat = board.querySelector('.seat[data-seat="' + player + '"]');
      shownTray = trayWith(player, total);
      setText('[data-total="' + player + '"]', String(total));
      var other = board.querySelector('[data-total="' + (player === 1 ? 2 : 1) + '"]');
      setText("[data-pot]", String(total + (other ? parseInt(other.textContent, 10) || 0 : 0)));
      board.querySelectorAll(".seat").forEach(function (s) { s.removeAttribute("data-last-move"); });
      if (seat) seat.setAttribute("data-last-move", String(player));
      if (total === 0) {
        if (seat) seat.setAttribute("data-folded", "true");
      } else {
        fly(player, total);
      }
    },
    tray: function () { return shownTray; },
    controls: function (value) {
      var found = Array.prototype.slice.call(
        document.querySelectorAll('.pk-controls [data-value="' + CSS.escape(value) + '"]'));
      if (bet && inRange(value) && found.indexOf(bet) < 0) found.push(bet);
      return found;
    },
    input: input,
  });
  /* The runtime starts as soon as the document is parsed, maybe before this script: input
     may be on already. */
  if (window.tournoyons.inputOn) input(true);
})();
