/* ConnectFour: drops the disc the person plays in the column chosen (a click anywhere in the
   column or the strip above it, keys 1-7, or Enter/Space on a focused cell, the arrows moving
   the focus), lights the four it completes, and shows the column aimed at, by the pointer or
   the keyboard focus, with the disc about to drop above it. The board value is the cells'
   states, bottom row first (A1..G1, then A2..G2, ... A6..G6). */
(function () {
  "use strict";
  var COLUMNS = "ABCDEFG";
  var WIDTH = 7;
  var HEIGHT = 6;
  var CELL = 60;
  var LEFT = 40;
  var TOP = 68;
  var BOTTOM = 440; /* the foot of the panel, in SVG units */
  var SVG = "http://www.w3.org/2000/svg";
  var LINES = [[1, 0], [0, 1], [1, 1], [1, -1]];

  var board = document.querySelector(".cf[data-board]");
  var aimer = board ? board.querySelector(".cf-aim") : null;

  function cellAt(column, row) {
    return board.querySelector('[data-cell="' + COLUMNS[column] + (row + 1) + '"]');
  }

  function stateAt(column, row) {
    var cell = cellAt(column, row);
    return cell ? cell.getAttribute("data-state") : "0";
  }

  function owner(code) {
    if (code === "1" || code === "3") return 1;
    if (code === "2" || code === "4") return 2;
    return 0;
  }

  /* The row (0 at the bottom) where a disc dropped in `column` lands; -1 when it is full. */
  function landing(column) {
    for (var row = HEIGHT - 1; row >= 0; row -= 1) {
      if (stateAt(column, row) !== "0") return row === HEIGHT - 1 ? -1 : row + 1;
    }
    return 0;
  }

  function playable(column) {
    var cell = column === null ? null : cellAt(column, 0);
    return Boolean(cell && cell.getAttribute("data-playable") === "true");
  }

  /* Show the column aimed at and the disc above it, or nothing (`column` null). */
  function aim(column) {
    if (!board) return;
    if (!window.tournoyons.inputOn || !playable(column)) {
      board.removeAttribute("data-aim");
      return;
    }
    board.setAttribute("data-aim", COLUMNS[column]);
    if (aimer) aimer.setAttribute("transform", "translate(" + (LEFT + CELL * column) + " 0)");
  }

  /* The column under a pointer event, anywhere from the strip above the board to its foot. */
  function columnAt(event) {
    var matrix = board.getScreenCTM();
    if (!matrix || !window.DOMPoint) return null;
    var point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    if (point.y < 0 || point.y > BOTTOM) return null;
    var column = Math.floor((point.x - LEFT) / CELL);
    return column >= 0 && column < WIDTH ? column : null;
  }

  function columnOf(el) {
    var cell = el && el.closest ? el.closest("[data-cell]") : null;
    return cell ? COLUMNS.indexOf(cell.getAttribute("data-cell").charAt(0)) : null;
  }

  function centre(column, row) {
    return [LEFT + CELL * column + CELL / 2, TOP + CELL * (HEIGHT - 1 - row) + CELL / 2];
  }

  /* Light every line of four or more through the disc at `column`, `row` of `player`. */
  function light(column, row, player) {
    var lines = board.querySelector(".cf-lines");
    LINES.forEach(function (step) {
      var run = [[column, row]];
      [1, -1].forEach(function (sign) {
        var x = column + sign * step[0];
        var y = row + sign * step[1];
        while (x >= 0 && x < WIDTH && y >= 0 && y < HEIGHT && owner(stateAt(x, y)) === player) {
          if (sign > 0) run.push([x, y]);
          else run.unshift([x, y]);
          x += sign * step[0];
          y += sign * step[1];
        }
      });
      if (run.length < 4) return;
      run.forEach(function (at) {
        cellAt(at[0], at[1]).setAttribute("data-state", String(player + 2));
      });
      if (!lines) return;
      var from = centre(run[0][0], run[0][1]);
      var to = centre(run[run.length - 1][0], run[run.length - 1][1]);
      var line = document.createElementNS(SVG, "line");
      line.setAttribute("class", "cf-line");
      line.setAttribute("data-state", String(player));
      line.setAttribute("x1", String(from[0]));
      line.setAttribute("y1", String(from[1]));
      line.setAttribute("x2", String(to[0]));
      line.setAttribute("y2", String(to[1]));
      line.setAttribute("pathLength", "100");
      lines.appendChild(line);
      board.setAttribute("data-winner", String(player));
    });
  }

  function drop(value, player) {
    var column = COLUMNS.indexOf(value);
    var row = column < 0 ? -1 : landing(column);
    if (row < 0 || (player !== 1 && player !== 2)) return;
    board.querySelectorAll("[data-last-move]").forEach(function (c) {
      c.removeAttribute("data-last-move");
    });
    var cell = cellAt(column, row);
    cell.removeAttribute("data-before");
    cell.setAttribute("data-state", String(player));
    cell.setAttribute("data-last-move", String(player));
    cell.setAttribute("data-drop", "true");
    light(column, row, player);
  }

  if (board) {
    board.addEventListener("pointermove", function (event) { aim(columnAt(event)); });
    board.addEventListener("pointerleave", function () {
      aim(columnOf(document.activeElement));
    });
    /* A click outside the cells (the strip above the board, the panel's rim) plays the
       column under it; the runtime plays a click on a cell. */
    board.addEventListener("click", function (event) {
      if (!(event.target instanceof Element) || event.target.closest("[data-cell]")) return;
      var column = columnAt(event);
      if (column !== null) window.tournoyons.play(COLUMNS[column]);
    });
    /* Listened for on the document: Chromium makes an SVG element with focus listeners
       focusable itself. */
    document.addEventListener("focusin", function (event) {
      var target = event.target instanceof Element ? event.target : null;
      if (target && board.contains(target)) aim(columnOf(target));
    });
    document.addEventListener("focusout", function (event) {
      var target = event.target instanceof Element ? event.target : null;
      if (target && board.contains(target)) aim(null);
    });
  }

  /* Keys 1-7 play columns A-G; an arrow with the focus off the board brings it there. */
  document.addEventListener("keydown", function (event) {
    if (!board || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target instanceof Element ? event.target : null;
    if (target && target.closest("input, textarea, select")) return;
    var digit = "1234567".indexOf(event.key);
    if (digit >= 0 && event.key.length === 1) {
      if (window.tournoyons.play(COLUMNS[digit])) event.preventDefault();
      return;
    }
    if ((event.key === "ArrowLeft" || event.key === "ArrowRight") && window.tournoyons.inputOn
        && !(target && target.closest("[data-cell]"))) {
      var first = board.querySelector('[data-cell][tabindex="0"]');
      if (first) {
        event.preventDefault();
        first.focus();
      }
    }
  });

  window.tournoyons.define({
    show: function (value, player) {
      if (board) drop(value, player);
    },
    input: function (on) {
      if (!on) aim(null);
    },
    tray: function () {
      if (!board) return "";
      var out = [];
      for (var row = 0; row < HEIGHT; row += 1) {
        for (var column = 0; column < WIDTH; column += 1) out.push(stateAt(column, row));
      }
      return out.join("");
    },
  });
})();
