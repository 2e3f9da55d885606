/* Seafight (Bataille navale), Method=Prepare: the person places a fleet.
 *
 * The classic fleet (sizes 5, 4, 3, 3, 2) waits in the dock. A ship is placed by dragging
 * it onto the board (mouse, pen or touch: pointer events), or by selecting it and clicking
 * (or pressing Enter on) a cell; a placed ship is dragged elsewhere, or back to the dock.
 * The rotate control, the R key, or a click on the selected ship turns it; arrow keys move
 * the focused ship, Escape docks it. The dice control lays a random legal fleet. The
 * validate control (labelled by Legend) is enabled only while the fleet is legal: every
 * ship on the board, none on another. It returns the fleet, `H5A01V4C21...` (state 1:
 * intact), once, through tournoyons.play.
 *
 * It is the Set's controller on the Prepare page (svg.sf[data-prepare]) and does nothing
 * on the others, where seafight.js fires.
 */
(function () {
  "use strict";

  var svg = document.querySelector("svg.sf[data-prepare]");
  if (!svg) return;

  var T = window.tournoyons;
  var C = 32;   /* a cell, in SVG units */
  var M = 20;   /* the coordinates' margin */
  var N = 10;
  var LETTERS = "ABCDEFGHIJ";
  var CLASSIC = [5, 4, 3, 3, 2];
  var SHIP = /^([VH])([2-5])([A-J])([0-9])([1I])$/;

  function all(scope, selector) {
    return scope ? Array.prototype.slice.call(scope.querySelectorAll(selector)) : [];
  }

  /* --- fleets: the manual's syntax and the legal layout ------------------------------- */

  function parseFleet(value) {
    if (typeof value !== "string" || !value.length || value.length % 5) return null;
    var ships = [];
    for (var i = 0; i < value.length; i += 5) {
      var m = SHIP.exec(value.slice(i, i + 5));
      if (!m) return null;
      ships.push({ vertical: m[1] === "V", size: Number(m[2]), col: LETTERS.indexOf(m[3]), row: Number(m[4]) });
    }
    return ships;
  }

  function shipCells(ship) {
    var out = [];
    for (var k = 0; k < ship.size; k++) {
      var col = ship.col + (ship.vertical ? 0 : k);
      var row = ship.row + (ship.vertical ? k : 0);
      if (col >= N || row >= N) return null;
      out.push(row * N + col);
    }
    return out;
  }

  function legalFleet(ships) {
    var sizes = ships.map(function (s) { return s.size; }).sort().join("");
    if (sizes !== CLASSIC.slice().sort().join("")) return false;
    var taken = {};
    return ships.every(function (ship) {
      var cells = shipCells(ship);
      if (!cells) return false;
      return cells.every(function (c) { if (taken[c]) return false; taken[c] = true; return true; });
    });
  }

  function code(ship) {
    return (ship.vertical ? "V" : "H") + ship.size + LETTERS[ship.col] + ship.row + "1";
  }

  /* --- the fleet on the board ---------------------------------------------------------- */

  var prep = {
    layer: svg.querySelector(".prep-ships"),
    board: svg.querySelector("[data-board]"),
    dockX: Number(svg.getAttribute("data-dock-x")) || 0,
    ships: [],
    selected: null,
    vertical: false,
    editable: false,
    drag: null,
    lastUp: null,
    rotate: svg.querySelector('[data-action="rotate"]'),
    random: svg.querySelector('[data-action="random"]'),
    validate: svg.querySelector('[data-action="validate"]'),
  };

  prep.ships = all(prep.layer, ".pship").map(function (el) {
    return {
      el: el,
      index: Number(el.getAttribute("data-index")),
      size: Number(el.getAttribute("data-size")),
      placed: el.getAttribute("data-placed") === "true",
      vertical: el.getAttribute("data-dir") === "V",
      col: Number(el.getAttribute("data-col")) || 0,
      row: Number(el.getAttribute("data-row")) || 0,
    };
  });

  function slot(ship) { return { x: prep.dockX + 170 - 16 * ship.size, y: 34 + 50 * ship.index }; }

  function topLeft(ship) {
    return ship.placed ? { x: M + C * ship.col, y: M + C * ship.row } : slot(ship);
  }

  function moveTo(ship, x, y, vertical) {
    ship.el.setAttribute("transform", vertical
      ? "translate(" + (x + C) + " " + y + ") rotate(90)"
      : "translate(" + x + " " + y + ")");
  }

  function draw(ship) {
    var at = topLeft(ship);
    moveTo(ship, at.x, at.y, ship.placed && ship.vertical);
    ship.el.setAttribute("data-placed", String(ship.placed));
    ship.el.setAttribute("data-dir", ship.vertical ? "V" : "H");
    ship.el.setAttribute("data-col", String(ship.col));
    ship.el.setAttribute("data-row", String(ship.row));
    ship.el.setAttribute("data-ship", ship.placed ? code(ship) : "");
    ship.el.removeAttribute("data-dragging");
  }

  function composed() { return prep.ships.map(code).join(""); }

  function legalNow() {
    return prep.ships.every(function (s) { return s.placed; }) && legalFleet(prep.ships);
  }

  function refresh() {
    var count = {};
    prep.ships.forEach(function (ship) {
      if (!ship.placed) return;
      shipCells(ship).forEach(function (c) { count[c] = (count[c] || 0) + 1; });
    });
    prep.ships.forEach(function (ship) {
      var overlap = ship.placed && shipCells(ship).some(function (c) { return count[c] > 1; });
      ship.el.setAttribute("data-overlap", String(Boolean(overlap)));
      ship.el.setAttribute("data-selected", String(ship === prep.selected));
      ship.el.setAttribute("aria-pressed", String(ship === prep.selected));
    });
    var legal = legalNow();
    svg.setAttribute("data-legal", String(legal));
    svg.setAttribute("data-composed", prep.ships.filter(function (s) { return s.placed; }).map(code).join(""));
    var orientation = prep.selected && prep.selected.placed ? prep.selected.vertical : prep.vertical;
    prep.rotate.setAttribute("data-dir", orientation ? "V" : "H");
    prep.rotate.disabled = !prep.editable;
    prep.random.disabled = !prep.editable;
    prep.validate.disabled = !(prep.editable && legal);
  }

  function clamp(ship) {
    var cols = ship.vertical ? N - 1 : N - ship.size;
    var rows = ship.vertical ? N - ship.size : N - 1;
    ship.col = Math.max(0, Math.min(cols, ship.col));
    ship.row = Math.max(0, Math.min(rows, ship.row));
  }

  function select(ship) {
    prep.selected = ship;
    if (ship && ship.placed) prep.vertical = ship.vertical;
    refresh();
  }

  function place(ship, col, row, vertical) {
    ship.placed = true;
    ship.vertical = vertical;
    ship.col = col;
    ship.row = row;
    clamp(ship);
    draw(ship);
    prep.vertical = vertical;
    refresh();
  }

  function dock(ship) {
    ship.placed = false;
    ship.vertical = false;
    draw(ship);
    refresh();
  }

  function rotate() {
    var ship = prep.selected;
    if (ship && ship.placed) {
      ship.vertical = !ship.vertical;
      clamp(ship);
      draw(ship);
      prep.vertical = ship.vertical;
    } else {
      prep.vertical = !prep.vertical;
    }
    refresh();
  }

  /* The first position, row by row, where `ship` lies on no other placed ship. */
  function firstFree(ship, vertical) {
    var taken = {};
    prep.ships.forEach(function (other) {
      if (other !== ship && other.placed) shipCells(other).forEach(function (c) { taken[c] = true; });
    });
    for (var row = 0; row < N; row++) {
      for (var col = 0; col < N; col++) {
        var cells = shipCells({ vertical: vertical, size: ship.size, col: col, row: row });
        if (cells && cells.every(function (c) { return !taken[c]; })) return { col: col, row: row };
      }
    }
    return { col: 0, row: 0 };
  }

  /* A random legal fleet: each ship drawn among the positions still free. */
  function randomFleet() {
    for (var attempt = 0; attempt < 20; attempt++) {
      var taken = {};
      var chosen = [];
      var ok = prep.ships.every(function (ship) {
        var options = [];
        [false, true].forEach(function (vertical) {
          for (var row = 0; row < N; row++) {
            for (var col = 0; col < N; col++) {
              var spot = { vertical: vertical, size: ship.size, col: col, row: row };
              var cells = shipCells(spot);
              if (cells && cells.every(function (c) { return !taken[c]; })) options.push(spot);
            }
          }
        });
        if (!options.length) return false;
        var pick = options[Math.floor(Math.random() * options.length)];
        shipCells(pick).forEach(function (c) { taken[c] = true; });
        chosen.push(pick);
        return true;
      });
      if (ok) {
        prep.ships.forEach(function (ship, i) {
          ship.placed = true;
          ship.vertical = chosen[i].vertical;
          ship.col = chosen[i].col;
          ship.row = chosen[i].row;
          draw(ship);
        });
        prep.selected = null;
        refresh();
        return;
      }
    }
  }

  /* Draw a fleet given as a value (the one returned): each ship on the one of its size. */
  function showFleet(value) {
    var ships = parseFleet(value) || [];
    var used = [];
    prep.ships.forEach(function (ship) {
      for (var i = 0; i < ships.length; i++) {
        if (used.indexOf(i) < 0 && ships[i].size === ship.size) {
          used.push(i);
          ship.placed = true;
          ship.vertical = ships[i].vertical;
          ship.col = ships[i].col;
          ship.row = ships[i].row;
          draw(ship);
          return;
        }
      }
    });
    prep.selected = null;
    svg.setAttribute("data-validated", "true");
    refresh();
  }

  function prepInput(on) {
    prep.editable = on;
    if (!on && prep.drag) endDrag(null);
    prep.ships.forEach(function (ship) { ship.el.setAttribute("tabindex", on ? "0" : "-1"); });
    all(prep.board, "[data-cell]").forEach(function (cell, i) {
      if (on) cell.removeAttribute("aria-disabled");
      else cell.setAttribute("aria-disabled", "true");
      cell.setAttribute("tabindex", on && i === 0 ? "0" : "-1");
    });
    refresh();
  }

  function shipOf(el) {
    var g = el && el.closest ? el.closest(".pship") : null;
    return g ? prep.ships[Number(g.getAttribute("data-index"))] : null;
  }

  function cellPosition(cell) {
    var name = cell.getAttribute("data-cell");
    return { col: LETTERS.indexOf(name.charAt(0)), row: Number(name.charAt(1)) };
  }

  function placeAtCell(cell) {
    var ship = prep.selected || prep.ships.filter(function (s) { return !s.placed; })[0];
    if (!ship) return;
    var at = cellPosition(cell);
    prep.selected = ship;
    place(ship, at.col, at.row, ship.placed ? ship.vertical : prep.vertical);
  }

  function local(event) {
    var point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    var matrix = prep.layer.getScreenCTM();
    return matrix ? point.matrixTransform(matrix.inverse()) : point;
  }

  function endDrag(event) {
    var drag = prep.drag;
    prep.drag = null;
    if (!drag) return;
    var ship = drag.ship;
    if (ship.el.hasPointerCapture && ship.el.hasPointerCapture(drag.id)) ship.el.releasePointerCapture(drag.id);
    /* A touch's click lands where the finger was, maybe on a cell the ship has left. */
    if (event) prep.lastUp = { time: Date.now(), x: event.clientX, y: event.clientY };
    if (!event || !drag.moved) {
      draw(ship);
      if (event && drag.wasSelected && ship.placed) rotate();
      return;
    }
    var p = local(event);
    var x = p.x - (drag.vertical ? C / 2 : drag.grab * C + C / 2);
    var y = p.y - (drag.vertical ? drag.grab * C + C / 2 : C / 2);
    var onBoard = p.x > M - C / 2 && p.x < M + N * C + C / 2 && p.y > M - C / 2 && p.y < M + N * C + C / 2;
    if (onBoard) place(ship, Math.round((x - M) / C), Math.round((y - M) / C), drag.vertical);
    else dock(ship);
  }

  function definePrepare() {
    prep.layer.addEventListener("pointerdown", function (event) {
      var ship = shipOf(event.target);
      if (!ship || !prep.editable || prep.drag || event.button > 0) return;
      event.preventDefault();
      var wasSelected = prep.selected === ship;
      select(ship);
      if (ship.el.focus) ship.el.focus({ preventScroll: true });
      var p = local(event);
      var at = topLeft(ship);
      var along = ship.placed && ship.vertical ? p.y - at.y : p.x - at.x;
      prep.drag = {
        ship: ship, id: event.pointerId, x0: event.clientX, y0: event.clientY, moved: false,
        wasSelected: wasSelected, vertical: ship.placed ? ship.vertical : prep.vertical,
        grab: Math.max(0, Math.min(ship.size - 1, Math.floor(along / C))),
      };
      if (ship.el.setPointerCapture) {
        try { ship.el.setPointerCapture(event.pointerId); } catch (e) { /* a synthetic pointer */ }
      }
    });

    prep.layer.addEventListener("pointermove", function (event) {
      var drag = prep.drag;
      if (!drag || event.pointerId !== drag.id) return;
      if (!drag.moved && Math.abs(event.clientX - drag.x0) + Math.abs(event.clientY - drag.y0) < 6) return;
      drag.moved = true;
      drag.ship.el.setAttribute("data-dragging", "true");
      var p = local(event);
      var x = p.x - (drag.vertical ? C / 2 : drag.grab * C + C / 2);
      var y = p.y - (drag.vertical ? drag.grab * C + C / 2 : C / 2);
      moveTo(drag.ship, x, y, drag.vertical);
    });

    prep.layer.addEventListener("pointerup", function (event) {
      if (prep.drag && event.pointerId === prep.drag.id) endDrag(event);
    });
    prep.layer.addEventListener("pointercancel", function (event) {
      if (prep.drag && event.pointerId === prep.drag.id) endDrag(null);
    });

    prep.board.addEventListener("click", function (event) {
      var cell = event.target instanceof Element ? event.target.closest("[data-cell]") : null;
      var up = prep.lastUp;
      if (up && Date.now() - up.time < 600 &&
          Math.abs(event.clientX - up.x) + Math.abs(event.clientY - up.y) < 12) return;
      if (cell && prep.editable) placeAtCell(cell);
    });

    prep.rotate.addEventListener("click", function () { if (prep.editable) rotate(); });
    prep.random.addEventListener("click", function () { if (prep.editable) randomFleet(); });
    prep.validate.addEventListener("click", function () {
      if (prep.editable && legalNow()) T.play(composed());
    });

    var STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    document.addEventListener("keydown", function (event) {
      if (!prep.editable || event.ctrlKey || event.metaKey || event.altKey) return;
      var el = event.target instanceof Element ? event.target : null;
      if (event.key === "r" || event.key === "R") {
        event.preventDefault();
        rotate();
        return;
      }
      var ship = shipOf(el);
      if (ship) {
        var step = STEPS[event.key];
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          select(ship);
          if (!ship.placed) {
            var free = firstFree(ship, prep.vertical);
            place(ship, free.col, free.row, prep.vertical);
          }
        } else if (step && ship.placed) {
          event.preventDefault();
          select(ship);
          place(ship, ship.col + step[0], ship.row + step[1], ship.vertical);
        } else if (event.key === "Escape" || event.key === "Delete" || event.key === "Backspace") {
          event.preventDefault();
          dock(ship);
        }
        return;
      }
      var cell = el && el.closest("[data-cell]");
      if (cell && prep.board.contains(cell) && (event.key === "Enter" || event.key === " ")) {
        placeAtCell(cell);
      }
    });
    refresh();
  }

  /* --- the controller ------------------------------------------------------------------ */

  T.define({
    show: showFleet,
    /* The Prepare page draws no shots: the board value is the Tray as sent. */
    tray: function () { return T.config.tray || ""; },
    /* The cells place ships and return nothing: the value is composed (accepts). */
    controls: function () { return []; },
    input: prepInput,
    accepts: function (value) {
      var ships = parseFleet(value);
      return Boolean(ships && legalFleet(ships));
    },
  });
  definePrepare();
})();
