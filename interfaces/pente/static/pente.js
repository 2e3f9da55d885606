/* Pente: puts the stone the person plays; the board value is the points' states.
   It also gives each point its role and name (kept out of the markup: 361 points), and
   lights the coordinates of the point under the pointer or the keyboard focus. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var board = document.querySelector(".pente[data-board]");
  var each = function (selector, action) {
    if (board) Array.prototype.forEach.call(board.querySelectorAll(selector), action);
  };

  each("[data-cell]", function (point) {
    point.setAttribute("role", "button");
    point.setAttribute("aria-label", point.getAttribute("data-cell"));
    if (point.getAttribute("data-playable") !== "true") point.setAttribute("aria-disabled", "true");
  });

  /* The labels of a column (.cols, top and bottom) and a row (.rows, left and right), in
     order A..S: the point's cx and cy are its column and row. */
  function light(point) {
    each(".coords .lit", function (label) { label.classList.remove("lit"); });
    if (!point) return;
    var column = Number(point.getAttribute("cx"));
    var row = Number(point.getAttribute("cy"));
    each(".cols", function (group) { group.children[column].classList.add("lit"); });
    each(".rows", function (group) { group.children[row].classList.add("lit"); });
  }

  if (board) {
    var lit = function (event) {
      var target = event.target;
      var point = target instanceof Element ? target.closest(".pente [data-cell]") : null;
      light(point);
    };
    board.addEventListener("pointerover", lit);
    board.addEventListener("pointerleave", function () {
      var focused = document.activeElement;
      light(focused && board.contains(focused) ? focused.closest("[data-cell]") : null);
    });
    /* On the document: Chromium makes an SVG element with focus listeners focusable, and
       the board itself must not take a Tab stop. */
    document.addEventListener("focusin", lit);
    document.addEventListener("focusout", function () { light(null); });
  }

  window.tournoyons.define({
    show: function (value, player) {
      var point = board && board.querySelector('[data-cell="' + CSS.escape(value) + '"]');
      if (!point) return;
      each("[data-last-move]", function (p) { p.removeAttribute("data-last-move"); });
      each(".last-mark", function (mark) { mark.remove(); });
      point.setAttribute("data-state", String(player));
      point.setAttribute("data-last-move", String(player));
      var mark = document.createElementNS(SVG, "circle");
      mark.setAttribute("class", "last-mark");
      mark.setAttribute("data-mark", String(player));
      mark.setAttribute("cx", point.getAttribute("cx"));
      mark.setAttribute("cy", point.getAttribute("cy"));
      mark.setAttribute("r", "0.15");
      board.appendChild(mark);
    },
    tray: function () {
      var states = [];
      each("[data-cell]", function (p) { states.push(p.getAttribute("data-state")); });
      return states.join("");
    },
  });
})();
