/* The compare page: one game through two interfaces, stepped together. Each step asks the
 * game's view for both interfaces (/games/<id>/view?move=N&interface=ID) and loads each
 * frame with its URL; the controls, the slider and the arrow, Home and End keys drive
 * both. Every control is also a plain link. */
(function () {
  "use strict";

  document.addEventListener("DOMContentLoaded", function () {
    var node = document.getElementById("compare-config");
    var root = document.querySelector("[data-compare]");
    if (!node || !root) { return; }
    var config = JSON.parse(node.textContent);
    var frames = {a: root.querySelector('[data-frame="a"]'), b: root.querySelector('[data-frame="b"]')};
    var slider = document.querySelector("[data-slider]");
    var position = document.querySelector("[data-position]");
    var moves = config.moves;
    var shown = config.number;
    var requested = 0;

    function address(move) {
      return "?a=" + encodeURIComponent(config.a) + "&b=" + encodeURIComponent(config.b) +
        "&move=" + move;
    }

    function view(side, move) {
      var url = "/games/" + encodeURIComponent(config.id) + "/view?move=" + move +
        "&interface=" + encodeURIComponent(config[side]);
      return fetch(url, {cache: "no-store"}).then(function (r) { return r.json(); });
    }

    function go(move) {
      move = Math.max(0, Math.min(move, moves));
      var ticket = ++requested;
      Promise.all([view("a", move), view("b", move)]).then(function (answers) {
        if (ticket !== requested || answers[0].error || answers[1].error) { return; }
        shown = answers[0].move;
        moves = answers[0].moves;
        ["a", "b"].forEach(function (side, k) {
          if (frames[side].getAttribute("src") !== answers[k].src) { frames[side].src = answers[k].src; }
        });
        root.dataset.move = String(shown);
        root.dataset.moves = String(moves);
        slider.max = String(moves);
        slider.value = String(shown);
        position.textContent = shown + " / " + moves;
        document.querySelectorAll("[data-nav]").forEach(function (link) {
          var target = {first: 0, previous: Math.max(shown - 1, 0),
                        next: Math.min(shown + 1, moves), last: moves}[link.dataset.nav];
          link.href = address(target);
        });
        history.replaceState(null, "", address(shown));
      });
    }

    window.tournoyonsSteps(document, "[data-nav]", slider,
      function () { return {shown: shown, moves: moves}; }, go);
  });
}());
