/* Rochambeau: shows the hand the person chose on their side. */
(function () {
  "use strict";
  window.tournoyons.define({
    show: function (value, player) {
      var side = document.querySelector('.rps [data-side="' + player + '"]');
      if (!side) return;
      side.setAttribute("data-hand", value);
      side.setAttribute("data-last-move", String(player));
      side.setAttribute("aria-label", player + ": " + value);
    },
    tray: function () { return ""; },
  });
})();
