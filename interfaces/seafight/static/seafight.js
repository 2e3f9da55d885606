/* Seafight (Bataille navale): firing at the opponent's board.
 *
 * Methods Standard, Inverse, Double: both boards name their cells A0..J9, so the cells the
 * person may fire at are those of the board marked data-target (the opponent's board of
 * the player asked); the cell fired at keeps a pulsing crosshair until the next page
 * brings the result. The Prepare page (svg.sf[data-prepare]) is seafight-prepare.js's.
 */
(function () {
  "use strict";

  if (document.querySelector("svg.sf[data-prepare]")) return;

  var T = window.tournoyons;

  function all(scope, selector) {
    return scope ? Array.prototype.slice.call(scope.querySelectorAll(selector)) : [];
  }

  function board(player) { return document.querySelector('.sf [data-board="' + player + '"]'); }

  /* --- firing -------------------------------------------------------------------------- */

  function target() { return document.querySelector('.sf [data-target="true"]'); }

  function tray() {
    var one = board(1), two = board(2);
    if (!one || !two) return T.config.tray || "";
    return [one, two].map(function (b) {
      return all(b, "[data-cell]").map(function (c) { return c.getAttribute("data-state"); }).join("");
    }).join("***");
  }

  function controls(value) {
    var b = target();
    var cell = b && all(b, "[data-cell]").filter(function (c) {
      return c.getAttribute("data-cell") === value;
    })[0];
    return cell ? [cell] : [];
  }

  /* Only the target board's cells are playable; the first of them takes the keyboard. */
  function fireInput(on) {
    var b = target();
    all(document, ".sf [data-cell][data-playable]").forEach(function (cell) {
      if (b && b.contains(cell)) return;
      cell.removeAttribute("data-playable");
      cell.setAttribute("aria-disabled", "true");
      cell.setAttribute("tabindex", "-1");
    });
    if (!on || !b) return;
    var cells = all(b, '[data-cell][data-playable="true"]');
    if (cells.length && !cells.some(function (c) { return c.getAttribute("tabindex") === "0"; })) {
      cells[0].setAttribute("tabindex", "0");
    }
  }

  function fired(value) {
    controls(value).forEach(function (cell) { cell.setAttribute("data-aimed", "true"); });
  }

  /* --- the controller ------------------------------------------------------------------ */

  T.define({
    show: fired,
    tray: tray,
    controls: controls,
    input: fireInput,
  });
})();
