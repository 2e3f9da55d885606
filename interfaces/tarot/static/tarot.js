/* Tarot: playing from the viewer's hand, the bids and the écart (tarot.md section 3).
 *
 * The server lists what may be played now (the bids not refused, the legal cards) and the
 * shared runtime returns one of them once; this script adds the keyboard (Tab to the hand or
 * the bids, the arrows along them, Enter or Space), the écart composed on the page (the
 * cards the server marked data-selectable, 6 of them, at most data-ecart-trumps trumps:
 * the validation control then carries the 12 digits and is playable), and draws the value
 * played: a bid on the seat's plate, a card from the hand to the trick, the écart from the
 * hand to the dog. The board value (tray()) follows what is drawn. */
(function () {
  "use strict";
  var api = window.tournoyons;
  var table = document.querySelector(".tarot");
  if (!table) return;
  var config = api.config;
  var shownTray = config.tray || "";
  var hand = table.querySelector(".tr-mine");
  var confirm = table.querySelector("[data-ecart]");
  var trumpsAllowed = parseInt(table.getAttribute("data-ecart-trumps") || "0", 10);
  var selected = [];
  var inputOn = false;

  function all(selector, within) {
    return Array.prototype.slice.call((within || document).querySelectorAll(selector));
  }

  function handCards() { return hand ? all('.tr-card[role="button"]', hand) : []; }
  function bidControls() { return all(".tr-bid"); }
  function isTrump(code) { var n = parseInt(code, 10); return n >= 56 && n <= 76; }
  function cardOf(code) {
    return handCards().filter(function (el) { return el.getAttribute("data-card") === code; })[0] || null;
  }

  /* --- the écart --------------------------------------------------------------------- */

  /* Whether `value` is an écart the taker may put aside: 6 different cards of the hand
     that the server marked selectable, with no more trumps than it allows. */
  function accepts(value) {
    if (!confirm || typeof value !== "string" || !/^\d{12}$/.test(value)) return false;
    var seen = {};
    var trumps = 0;
    for (var i = 0; i < 12; i += 2) {
      var code = value.slice(i, i + 2);
      var el = cardOf(code);
      if (seen[code] || !el || el.getAttribute("data-selectable") !== "true") return false;
      seen[code] = true;
      if (isTrump(code)) trumps += 1;
    }
    return trumps <= trumpsAllowed;
  }

  function ecartValue() { return selected.slice().sort().join(""); }

  function refreshEcart() {
    all(".tr-dot").forEach(function (dot, k) {
      dot.setAttribute("data-on", String(k < selected.length));
    });
    if (!confirm) return;
    var value = ecartValue();
    var ready = inputOn && accepts(value);
    if (ready) {
      confirm.setAttribute("data-value", value);
      confirm.setAttribute("data-playable", "true");
      confirm.removeAttribute("aria-disabled");
    } else {
      confirm.removeAttribute("data-value");
      confirm.removeAttribute("data-playable");
      confirm.setAttribute("aria-disabled", "true");
    }
  }

  function toggle(el) {
    if (!confirm || !inputOn || el.getAttribute("data-playable") !== "true") return;
    var code = el.getAttribute("data-card");
    var at = selected.indexOf(code);
    if (at >= 0) selected.splice(at, 1);
    else if (selected.length < 6) selected.push(code);
    else return;
    el.setAttribute("data-selected", String(at < 0));
    el.setAttribute("aria-pressed", String(at < 0));
    refreshEcart();
  }

  /* --- input on and off, the keyboard's stops ---------------------------------------- */

  function rove(controls, first) {
    controls.forEach(function (el) { el.setAttribute("tabindex", el === first ? "0" : "-1"); });
  }

  function input(on) {
    inputOn = on;
    if (confirm) {
      handCards().forEach(function (el) {
        if (on && el.getAttribute("data-selectable") === "true") {
          el.setAttribute("data-playable", "true");
          el.removeAttribute("aria-disabled");
          el.setAttribute("aria-pressed", String(selected.indexOf(el.getAttribute("data-card")) >= 0));
        } else {
          el.removeAttribute("data-playable");
          el.setAttribute("aria-disabled", "true");
        }
      });
      confirm.setAttribute("tabindex", on ? "0" : "-1");
      refreshEcart();
    }
    var playable = function (el) { return on && el.getAttribute("data-playable") === "true"; };
    var cards = handCards();
    /* A hand may be read card by card when it is not its turn: its first card is a stop. */
    rove(cards, cards.filter(playable)[0] || (cards.length && !on ? cards[0] : null));
    if (!on) cards.forEach(function (el) { el.setAttribute("aria-disabled", "true"); });
    var bids = bidControls();
    rove(bids, bids.filter(playable)[0] || null);
  }

  function step(controls, el, by) {
    var at = controls.indexOf(el) + by;
    if (at < 0 || at >= controls.length) return;
    rove(controls, controls[at]);
    controls[at].focus();
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var el = target.closest('.tr-mine .tr-card[role="button"], .tr-bid, [data-ecart]');
    if (!el) return;
    var controls = el.classList.contains("tr-bid") ? bidControls() : handCards();
    var key = event.key;
    if (key === "Enter" || key === " ") {
      event.preventDefault();
      if (el.getAttribute("data-playable") !== "true") return;
      if (confirm && el.classList.contains("tr-card")) toggle(el);
      else api.play(el.getAttribute("data-value") || "");
      return;
    }
    if (el === confirm) return;
    if (key === "ArrowLeft" || key === "ArrowUp") { event.preventDefault(); step(controls, el, -1); }
    else if (key === "ArrowRight" || key === "ArrowDown") { event.preventDefault(); step(controls, el, 1); }
    else if (key === "Home") { event.preventDefault(); step(controls, el, -controls.indexOf(el)); }
    else if (key === "End") { event.preventDefault(); step(controls, el, controls.length - 1 - controls.indexOf(el)); }
  });

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element) || !confirm) return;
    var el = target.closest('.tr-mine .tr-card[role="button"]');
    if (el) toggle(el);
  });

  /* --- drawing the value played ------------------------------------------------------- */

  var SVG = "http://www.w3.org/2000/svg";

  /* The Tray's field `index` (0-based) as `edit` returns it. */
  function editTray(index, edit) {
    var fields = shownTray.split(".");
    if (fields.length !== 9) return;
    fields[index] = edit(fields[index]);
    shownTray = fields.join(".");
  }

  function withoutCards(field, codes) {
    var kept = [];
    for (var i = 0; i + 2 <= field.length; i += 2) {
      var code = field.slice(i, i + 2);
      if (codes.indexOf(code) < 0) kept.push(code);
    }
    return kept.join("");
  }

  function showBid(value, player) {
    editTray(1, function (bids) {
      return bids.slice(0, player - 1) + value + bids.slice(player);
    });
    var said = table.querySelector('[data-said="' + player + '"]');
    if (said) {
      said.setAttribute("data-bid-said", value);
      said.setAttribute("data-last-move", String(player));
      said.setAttribute("aria-label", value);
      var text = said.querySelector("text");
      if (text) text.textContent = value;
    }
    var chosen = table.querySelector('.tr-bid[data-bid="' + value + '"]');
    if (chosen) chosen.setAttribute("data-chosen", "true");
  }

  function showCard(value, player) {
    var el = cardOf(value);
    var label = el ? el.getAttribute("aria-label") : value;
    if (el) el.parentNode.parentNode.removeChild(el.parentNode);
    editTray(1 + player, function (field) { return withoutCards(field, [value]); });
    editTray(7, function (trick) {
      var at = 1 + 2 * (player - 1);
      return trick.length === 9 ? trick.slice(0, at) + value + trick.slice(at + 2) : trick;
    });
    var slot = table.querySelector('.tr-slot[data-seat="' + player + '"]');
    var trick = table.querySelector("[data-trick]");
    if (!slot || !trick) return;
    var at = document.createElementNS(SVG, "g");
    at.setAttribute("class", "tr-at");
    at.setAttribute("transform", "translate(" + slot.getAttribute("x") + " " + slot.getAttribute("y") + ")");
    var card = document.createElementNS(SVG, "g");
    card.setAttribute("class", "tr-card");
    card.setAttribute("data-card", value);
    card.setAttribute("data-seat", String(player));
    card.setAttribute("data-last-move", String(player));
    card.setAttribute("data-arrives", "bottom");
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", label);
    var use = document.createElementNS(SVG, "use");
    use.setAttribute("href", "#tr-c" + value);
    use.setAttribute("width", "64");
    use.setAttribute("height", "100");
    card.appendChild(use);
    at.appendChild(card);
    trick.appendChild(at);
  }

  function showEcart(value, player) {
    var codes = [];
    for (var i = 0; i < 12; i += 2) codes.push(value.slice(i, i + 2));
    codes.forEach(function (code) {
      var el = cardOf(code);
      if (el) el.parentNode.parentNode.removeChild(el.parentNode);
    });
    editTray(1 + player, function (field) { return withoutCards(field, codes); });
    editTray(6, function () { return codes.slice().sort().join(""); });
    var dog = table.querySelector("[data-dog]");
    if (!dog) return;
    dog.setAttribute("data-last-move", String(player));
    all("[data-card]", dog).forEach(function (card, k) {
      if (k >= codes.length) return;
      card.setAttribute("data-card", codes[k]);
      var use = card.querySelector("use");
      if (use) use.setAttribute("href", "#tr-c" + codes[k]);
    });
  }

  api.define({
    show: function (value, player) {
      if (value.length === 1) showBid(value, player);
      else if (value.length === 2) showCard(value, player);
      else if (value.length === 12) showEcart(value, player);
    },
    tray: function () { return shownTray; },
    input: input,
    accepts: accepts,
  });
  /* The runtime starts as soon as the document is parsed, maybe before this script: input
     may be on already. */
  input(api.inputOn);
})();
