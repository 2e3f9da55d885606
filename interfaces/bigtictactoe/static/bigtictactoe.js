/* BigTicTacToe: draws the mark the person plays; the board value is the cells' states.
 * Each score ([data-gain]) counts the alignment lines shown, so a line that waits for
 * Wait (data-before, data-state "" until then) is counted once it appears. This script may
 * run before or after the runtime has hidden the waiting lines: it counts the same. */
(function () {
  "use strict";
  var board = function () { return document.querySelector(".btt[data-board]"); };
  var cells = function () {
    return Array.prototype.slice.call(document.querySelectorAll(".btt [data-cell]"));
  };

  /* Whether the page delays impacts: lines with data-before appear Wait tenths late. */
  var waits = window.tournoyons.config.wait > 0;

  /* Count the lines shown, or to be shown before Wait is over (whether the runtime has
     hidden the waiting lines yet or not); once every impact is shown, all of them. */
  function scores(final) {
    var svg = board();
    if (!svg) return; /* Method None: no board, the scores stay as written */
    ["1", "2"].forEach(function (p) {
      var gain = document.querySelector('[data-gain="' + p + '"]');
      var lines = svg.querySelectorAll('[data-alignment][data-state="' + p + '"]');
      var shown = Array.prototype.filter.call(lines, function (line) {
        return final || !waits || !line.hasAttribute("data-before");
      });
      if (gain) gain.textContent = String(shown.length);
    });
  }

  window.tournoyons.define({
    show: function (value, player) {
      var cell = document.querySelector('.btt [data-cell="' + value + '"]');
      if (!cell) return;
      cells().forEach(function (c) { c.removeAttribute("data-last-move"); });
      var mark = cell.querySelector("use");
      if (mark) mark.setAttribute("href", player === 2 ? "#btt-o" : "#btt-x");
      cell.setAttribute("data-state", String(player));
      cell.setAttribute("data-last-move", String(player));
    },
    tray: function () {
      var all = cells();
      return all.length ? all.map(function (c) { return c.getAttribute("data-state"); }).join("") : "";
    },
    ready: function () { scores(true); },
  });

  scores(document.documentElement.getAttribute("data-ready") === "true");
})();
