/* Stepping through a game's moves, shared by the game page and the compare page: a click
 * on a link matching `links` (its href carries move=N), the slider, and the arrow, Home and
 * End keys (not while typing in another field) each call go(N). `where()` answers the
 * position shown and the moves there are, {shown, moves}. Every link stays a plain link
 * without JavaScript. */
window.tournoyonsSteps = function (scope, links, slider, where, go) {
  "use strict";
  scope.addEventListener("click", function (event) {
    var link = event.target.closest(links);
    if (!link) { return; }
    event.preventDefault();
    var match = /move=(\d+)/.exec(link.getAttribute("href"));
    if (match) { go(parseInt(match[1], 10)); }
  });
  slider.addEventListener("input", function () { go(parseInt(slider.value, 10)); });
  document.addEventListener("keydown", function (event) {
    var tag = event.target.tagName;
    if ((tag === "INPUT" && event.target !== slider) || tag === "SELECT" ||
        tag === "TEXTAREA") { return; }
    var at = where();
    var target = {ArrowLeft: at.shown - 1, ArrowRight: at.shown + 1, Home: 0, End: at.moves}[event.key];
    if (target === undefined) { return; }
    event.preventDefault();
    go(target);
  });
};
