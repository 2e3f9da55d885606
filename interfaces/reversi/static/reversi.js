/* Reversi: lays the disc the person plays, turns the discs it captures, shows a pass; keeps
   the disc counts ([data-gain]) equal to the discs shown. The board value is the cells'
   states (0-4), row-major from A1. */
(function () {
  "use strict";
  var SIZE = 8;
  var DISC = { 1: "3", 2: "4" };
  var STEPS = [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1]];

  function cells() {
    return Array.prototype.slice.call(document.querySelectorAll(".rv-board [data-cell]"));
  }

  function states() {
    return cells().map(function (c) { return c.getAttribute("data-state"); });
  }

  /* The discs `player` turns by playing at `index` (states as now shown). */
  function captured(shown, index, player) {
    var mine = DISC[player];
    var theirs = DISC[player === 1 ? 2 : 1];
    var row = Math.floor(index / SIZE);
    var column = index % SIZE;
    var turned = [];
    STEPS.forEach(function (step) {
      var line = [];
      var x = column + step[0];
      var y = row + step[1];
      while (x >= 0 && x < SIZE && y >= 0 && y < SIZE && shown[y * SIZE + x] === theirs) {
        line.push(y * SIZE + x);
        x += step[0];
        y += step[1];
      }
      if (line.length && x >= 0 && x < SIZE && y >= 0 && y < SIZE && shown[y * SIZE + x] === mine) {
        turned = turned.concat(line);
      }
    });
    return turned;
  }

  function recount() {
    var shown = states();
    [1, 2].forEach(function (player) {
      var gain = document.querySelector('[data-gain="' + player + '"]');
      if (!gain || gain.textContent === "") return;
      gain.textContent = String(shown.filter(function (s) { return s === DISC[player]; }).length);
    });
  }

  function showPass(player) {
    var side = document.querySelector('.rv-side[data-side="' + player + '"]');
    if (side) side.setAttribute("data-passed", "true");
    var button = document.querySelector('.rv-pass[data-value="XX"]');
    if (button) button.hidden = true;
  }

  function layDisc(value, player) {
    var all = cells();
    var shown = all.map(function (c) { return c.getAttribute("data-state"); });
    var index = -1;
    all.forEach(function (c, i) { if (c.getAttribute("data-cell") === value) index = i; });
    if (index < 0 || !DISC[player]) return;
    var turned = captured(shown, index, player);
    all.forEach(function (c) {
      c.removeAttribute("data-last-move");
      var state = c.getAttribute("data-state");
      if (state === "1" || state === "2") c.setAttribute("data-state", "0"); /* stale hints */
    });
    var cell = all[index];
    cell.removeAttribute("data-before");
    cell.setAttribute("data-state", DISC[player]);
    cell.setAttribute("data-last-move", String(player));
    turned.forEach(function (i) {
      all[i].setAttribute("data-before", shown[i]);
      all[i].setAttribute("data-state", DISC[player]);
    });
  }

  /* The runtime may have shown the discs as before the impacts already (it starts as soon
     as the document is parsed): count what is shown now, then follow every change. */
  var board = document.querySelector(".rv-board");
  recount();
  if (board && window.MutationObserver) {
    new MutationObserver(recount).observe(board, {
      subtree: true, attributes: true, attributeFilter: ["data-state"],
    });
  }

  window.tournoyons.define({
    show: function (value, player) {
      if (value === "XX") showPass(player);
      else layDisc(value, player);
    },
    tray: function () {
      return states().join("");
    },
  });
})();
