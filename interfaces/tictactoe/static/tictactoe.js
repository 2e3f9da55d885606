/* TicTacToe: draws the mark the person plays; the board value is the cells' states. */
(function () {
  "use strict";
  var cells = function () {
    return Array.prototype.slice.call(document.querySelectorAll(".ttt [data-cell]"));
  };
  window.tournoyons.define({
    show: function (value, player) {
      var cell = document.querySelector('.ttt [data-cell="' + value + '"]');
      if (!cell) return;
      cells().forEach(function (c) { c.removeAttribute("data-last-move"); });
      cell.setAttribute("data-state", String(player));
      cell.setAttribute("data-last-move", String(player));
    },
    tray: function () {
      var all = cells();
      return all.length ? all.map(function (c) { return c.getAttribute("data-state"); }).join("") : "";
    },
  });
})();
