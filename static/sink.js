/* The local return sink's page (GET /return): tell the tester, the top window, what came. */
(function () {
  "use strict";
  var out = document.querySelector("[data-return-value]");
  if (!out || window.top === window) return;
  try {
    window.top.postMessage({
      type: "tournoyons:sink",
      id: Number(out.getAttribute("data-id")),
      value: out.textContent,
      search: window.location.search,
    }, window.location.origin);
  } catch (e) {
    /* The top window is another site's: nothing to tell. */
  }
})();
