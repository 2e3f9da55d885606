/* Rochambeau: shows the hand the person chose on their side.
 *
 * Choosing starts a new round: the last round's hands and outcome (Move1/Move2 of the
 * Arbitre's page) are cleared, so the new hand is never shown against the opponent's old
 * one, nor under the old round's win/lose marks. */
(function () {
  "use strict";
  window.tournoyons.define({
    show: function (value, player) {
      var side = document.querySelector('.rps [data-side="' + player + '"]');
      if (!side) return;
      document.querySelectorAll(".rps [data-side]").forEach(function (el) {
        el.setAttribute("data-state", "");
        el.removeAttribute("data-before");
        el.removeAttribute("data-after");
        el.removeAttribute("data-last-move");
        if (el !== side) {
          el.setAttribute("data-hand", "");
          el.setAttribute("aria-label", el.getAttribute("data-side") + ": ?");
        }
      });
      side.setAttribute("data-hand", value);
      side.setAttribute("data-last-move", String(player));
      side.setAttribute("aria-label", player + ": " + value);
    },
    tray: function () { return ""; },
  });
})();
