/* The tournaments' pages. The new-tournament form: each entrant row shows the field of its
 * kind, the built-in and registered engines of the chosen Set, and "Add an entrant" adds a
 * row (without this script the form has eight rows, empty ones ignored). A running
 * tournament's page reads /tournaments/<id>.json every 2 s and redraws its progress, status,
 * standings, cross table and game lists, until the tournament is over (without this script
 * the page has a plain "Refresh" link). Text is only ever set with textContent. */
(function () {
  "use strict";

  function readConfig() {
    var node = document.getElementById("tournament-config");
    try { return node ? JSON.parse(node.textContent) : null; } catch (e) { return null; }
  }

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  /* --- the new-tournament form ------------------------------------------------------ */
  function newTournamentForm(form) {
    var setSelect = form.querySelector("[data-set-select]");
    var format = form.querySelector("[data-format]");
    var rounds = form.querySelector("[data-rounds]");
    var level = form.querySelector("[data-level]");
    var rows = form.querySelector("[data-entrants]");
    var add = form.querySelector("[data-add-entrant]");

    function filter(select, keep) {
      each(select.options, function (o) {
        var shown = o.value === "" || keep(o);
        o.hidden = !shown;
        o.disabled = !shown;
      });
      if (select.selectedOptions[0] && select.selectedOptions[0].disabled) { select.value = ""; }
    }

    function refresh() {
      var option = setSelect.selectedOptions[0];
      var setName = option ? option.value : "";
      var engines = option ? option.dataset.engines.split(" ") : [];
      var levels = option ? option.dataset.levels.split(" ") : ["1"];
      each(rows.querySelectorAll("[data-entrant-row]"), function (row) {
        var kind = row.querySelector("[data-kind]").value;
        each(row.querySelectorAll("[data-for]"), function (label) {
          label.hidden = label.dataset.for !== kind;
        });
        filter(row.querySelector("[data-builtin]"), function (o) {
          return engines.indexOf(o.value) >= 0;
        });
        filter(row.querySelector("[data-registered]"), function (o) {
          return (o.dataset.sets || "").split("|").indexOf(setName) >= 0;
        });
      });
      each(level.options, function (o) { o.disabled = levels.indexOf(o.value) < 0; });
      if (level.selectedOptions[0].disabled) { level.value = levels[0]; }
      level.closest("label").hidden = levels.length < 2;
      rounds.closest("label").hidden = format.value === "round-robin";
    }

    function addRow() {
      var all = rows.querySelectorAll("[data-entrant-row]");
      var last = all[all.length - 1];
      var number = all.length + 1;
      var row = last.cloneNode(true);
      row.dataset.entrantRow = String(number);
      row.querySelector("legend").textContent = "Entrant " + number;
      each(row.querySelectorAll("[name]"), function (field) {
        field.name = field.name.replace(/^entrant\d+_/, "entrant" + number + "_");
        if (field.tagName === "INPUT") { field.value = ""; }
      });
      row.querySelector("[data-kind]").value = last.querySelector("[data-kind]").value;
      row.querySelector("[data-builtin]").value = "";
      row.querySelector("[data-registered]").value = "";
      rows.appendChild(row);
      add.hidden = number >= 64;
      refresh();
      row.querySelector("[data-kind]").focus();
    }

    form.addEventListener("change", refresh);
    add.hidden = false;
    add.addEventListener("click", addRow);
    refresh();
  }

  /* --- a tournament's page ---------------------------------------------------------- */
  function resultText(game, names) {
    if (game.status === "playing") { return ""; }
    if (game.result_text !== undefined) { return game.result_text; }  /* tables of four */
    if (game.status === "interrupted") { return "interrupted"; }
    if (game.status !== "over" || game.result === "error") { return "error"; }
    if (game.result === "draw") { return "draw"; }
    if (game.winner === 0 || game.winner === 1) {
      var seat = game.winner === 0 ? game.first : game.second;
      if (seat !== null && names[seat] !== undefined) { return names[seat] + " wins"; }
    }
    return "error";
  }

  function element(tag, text, attributes) {
    var node = document.createElement(tag);
    if (text !== null && text !== undefined) { node.textContent = String(text); }
    Object.keys(attributes || {}).forEach(function (name) {
      node.setAttribute(name, attributes[name]);
    });
    return node;
  }

  function tournamentPage(root, config) {
    var progress = root.querySelector("[data-progress]");
    var progressText = root.querySelector("[data-progress-text]");
    var status = root.querySelector("[data-status]");
    var refreshLink = root.querySelector("[data-refresh]");
    var standings = root.querySelector("[data-standings] tbody");
    var cross = root.querySelector("[data-cross] tbody");
    var atTables = root.querySelector("[data-at-tables]") !== null;
    var playing = root.querySelector("[data-playing]");
    var finished = root.querySelector("[data-finished]");
    var swiss = false;
    var drawn = {};
    var every = config.every || 2000;
    var updates = 0;

    function changed(key, value) {
      var text = JSON.stringify(value);
      if (drawn[key] === text) { return false; }
      drawn[key] = text;
      return true;
    }

    function versus(link, game, names) {
      if (game.seats) {  /* a table of four: every seat's name */
        link.appendChild(document.createTextNode(
          game.seats.map(function (s) { return s.name; }).join(" \u00b7 ")));
        return;
      }
      link.appendChild(document.createTextNode(
        (game.first !== null ? names[game.first] : "?") + " "));
      link.appendChild(element("span", "\u2013", {"aria-hidden": "true"}));
      link.appendChild(element("span", "against", {"class": "visually-hidden"}));
      link.appendChild(document.createTextNode(
        " " + (game.second !== null ? names[game.second] : "?")));
    }

    function gameItem(game, names, over) {
      var li = element("li", null, {"data-game-id": game.id});
      var link = element("a", null, {href: "/games/" + encodeURIComponent(game.id)});
      versus(link, game, names);
      li.appendChild(link);
      if (over) {
        li.appendChild(document.createTextNode(": "));
        li.appendChild(element("span", resultText(game, names), {"data-result": ""}));
      }
      if (swiss) {
        li.appendChild(document.createTextNode(" "));
        li.appendChild(element("small", "round " + game.round));
      }
      li.appendChild(document.createTextNode(" "));
      li.appendChild(element("small", "(" + game.moves + " moves" + (over ? ")" : ", watch)")));
      return li;
    }

    function drawList(list, games, names, over, none) {
      list.textContent = "";
      games.forEach(function (game) { list.appendChild(gameItem(game, names, over)); });
      root.querySelector(none).hidden = games.length > 0;
    }

    function drawStandings(rows) {
      standings.textContent = "";
      rows.forEach(function (s) {
        var tr = element("tr", null, {"data-entrant": String(s.entrant)});
        tr.appendChild(element("td", s.rank, {"data-rank": ""}));
        tr.appendChild(element("th", s.name, {scope: "row", "data-name": ""}));
        var cells = atTables
          ? [["played", s.played], ["firsts", s.firsts], ["errors", s.errors],
             ["points", s.points], ["score", s.score], ["buchholz", s.buchholz]]
          : [["played", s.played], ["wins", s.wins], ["draws", s.draws], ["losses", s.losses],
             ["errors", s.errors], ["points", s.points], ["sb", s.sonneborn_berger],
             ["buchholz", s.buchholz]];
        cells.forEach(function (pair) {
          var attributes = {};
          attributes["data-" + pair[0]] = "";
          tr.appendChild(element("td", pair[1], attributes));
        });
        tr.appendChild(element("td", s.mu.toFixed(2) + " \u00b1 " + s.sigma.toFixed(2),
                               {"data-rating": ""}));
        standings.appendChild(tr);
      });
    }

    function drawCross(table, names) {
      cross.textContent = "";
      table.forEach(function (row, i) {
        var tr = element("tr", null, {"data-cross-row": String(i)});
        tr.appendChild(element("th", names[i], {scope: "row"}));
        row.forEach(function (cell, j) {
          tr.appendChild(element("td", cell, j === i ? {"class": "self"} : {}));
        });
        cross.appendChild(tr);
      });
    }

    function render(summary) {
      var names = summary.entrants.map(function (e) { return e.name; });
      var p = summary.progress;
      swiss = summary.format !== "round-robin";  /* rounds shown: Swiss, tables */
      progress.max = Math.max(p.planned, 1);
      progress.value = p.over;
      progress.textContent = p.over + " / " + p.planned;
      progressText.textContent = p.over + " of " + p.planned + " games over, " +
        p.playing + " in play.";
      status.textContent = summary.status;
      status.dataset.status = summary.status;
      if (refreshLink && summary.status !== "running") { refreshLink.hidden = true; }
      if (changed("standings", summary.standings)) { drawStandings(summary.standings); }
      if (changed("cross", summary.cross_table)) { drawCross(summary.cross_table, names); }
      var games = summary.games;
      // Every game in play (the tournament's first page of games lists the oldest).
      var inPlay = summary.in_play || games.filter(function (g) { return g.status === "playing"; });
      var over = games.filter(function (g) { return g.status !== "playing"; });
      if (changed("playing", inPlay)) {
        drawList(playing, inPlay, names, false, "[data-playing-none]");
      }
      if (changed("finished", over)) {
        drawList(finished, over, names, true, "[data-finished-none]");
      }
      updates += 1;
      root.dataset.updates = String(updates);
    }

    function tick() {
      fetch(config.json, {cache: "no-store"})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (summary) {
          if (summary) { render(summary); }
          if (!summary || summary.status === "running") { setTimeout(tick, every); }
        })
        .catch(function () { setTimeout(tick, every * 2); });
    }

    if (config.status === "running") { setTimeout(tick, every); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("[data-new-tournament]");
    if (form) { newTournamentForm(form); }
    var root = document.querySelector("[data-tournament]");
    var config = readConfig();
    if (root && config) { tournamentPage(root, config); }
  });
}());
