/* The page a person's return lands on (GET /play/...): it tells the game page on top, of
 * our own origin only, whether the move was taken (200), not legal (422: the board is
 * asked again) or not asked now (404), so that the game page never guesses from a clock
 * (arbitre.js). Not the interface protocol's: a message between the Arbitre's pages. */
(function () {
  "use strict";
  var code = parseInt(document.body.getAttribute("data-returned"), 10);
  if (window.top === window) { return; }
  try {
    window.top.postMessage({type: "arbitre:returned", code: code}, window.location.origin);
  } catch (e) { /* a sandboxed frame has no origin to name: the game page's clock does */ }
}());
