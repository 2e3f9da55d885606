"""Helpers of the Arbitre's browser tests: games made through the JSON API, a person who
plays on the game page (one small strategy per Set), and a person who plays over HTTP alone
(for tests that only need a finished game)."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlencode

from playwright.sync_api import FrameLocator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.helpers import (
    frame_query,
    get_json,
    get_status,
    playable_values,
    query_of,
)

# --- HTTP ------------------------------------------------------------------------------


def create_game(
    base: str, set_name: str, seats: list[dict[str, str]] | None = None, **options: Any
) -> dict[str, Any]:
    """``POST /api/games``: a game of ``set_name`` (default: a person against the built-in
    ``random``, Wait 0); return the answer (``id``, ``urls``, ``persons``)."""
    body = {
        "set": set_name,
        "seats": seats or [{"kind": "person"}, {"kind": "builtin", "engine": "random"}],
        "options": {"timeout": 20, "wait": 0, **options},
    }
    request = urllib.request.Request(
        base + "/api/games",
        json.dumps(body).encode(),
        {"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 201
        created: dict[str, Any] = json.load(answer)
    return created


def record(base: str, game_id: str) -> dict[str, Any]:
    """Return the game's whole record (``/games/<id>.json``)."""
    found: dict[str, Any] = get_json(base, f"/games/{game_id}.json")
    return found


def token_of(person_url: str) -> str:
    """Return the seat token of a person's game URL."""
    return query_of(person_url)["seat"]


def view(base: str, game_id: str, **params: str) -> dict[str, Any]:
    """Return ``/games/<id>/view`` for ``params`` (``move``, ``seat``)."""
    found: dict[str, Any] = get_json(base, f"/games/{game_id}/view?{urlencode(params)}")
    return found


def wait_asked(base: str, game_id: str, token: str, timeout: float = 30) -> dict[str, Any]:
    """Poll the view of the person holding ``token`` until they are asked or the game is
    over; return that view."""
    deadline = time.monotonic() + timeout
    while True:
        now = view(base, game_id, seat=token)
        if now["status"] != "playing" or now["asked"] is not None:
            return now
        assert time.monotonic() < deadline, f"game {game_id} asks nobody: {now}"
        time.sleep(0.02)


def tictactoe_cells(tray: str) -> str:
    """Return the 9 cells of a TicTacToe Tray (``Init``: empty)."""
    return "0" * 9 if tray == "Init" else tray


def http_tictactoe(base: str, game_id: str, token: str, stop_after: int | None = None) -> int:
    """Play the person's moves of a TicTacToe game over HTTP alone (the first empty cell,
    each time), to the end or after ``stop_after`` person moves; return the moves played."""
    played = 0
    while stop_after is None or played < stop_after:
        now = wait_asked(base, game_id, token)
        if now["status"] != "playing":
            break
        query = query_of(now["src"])
        cell = tictactoe_cells(query["Tray"]).index("0") + 1
        status = get_status(query["URLReturn"] + f"?ReturnValue={cell}")
        assert status == 200, (query, cell, status)
        played += 1
    return played


def wait_over(base: str, game_id: str, timeout: float = 30) -> dict[str, Any]:
    """Poll the record until the game is no longer in play; return it."""
    deadline = time.monotonic() + timeout
    while True:
        found = record(base, game_id)
        if found["status"] != "playing":
            return found
        assert time.monotonic() < deadline, f"game {game_id} does not end"
        time.sleep(0.05)


# --- the game page ---------------------------------------------------------------------

# Installed before the game page loads: every value the board returned to the page
# (``tournoyons:return`` messages), and every URL given to the board's iframe.
RECORD_PAGE = """
(() => {
  if (window.__arbitre) return;
  window.__arbitre = {returns: [], srcs: [], srcsAtReturn: []};
  window.addEventListener("message", event => {
    if (event.data && event.data.type === "tournoyons:return") {
      window.__arbitre.returns.push(String(event.data.value));
      window.__arbitre.srcsAtReturn.push(window.__arbitre.srcs.length);
    }
  });
  const desc = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, "src");
  Object.defineProperty(HTMLIFrameElement.prototype, "src", {
    configurable: true,
    get() { return desc.get.call(this); },
    set(value) {
      if (this.hasAttribute("data-board")) window.__arbitre.srcs.push(String(value));
      desc.set.call(this, value);
    },
  });
})();
"""

# Once the board has returned ``returned`` values: "over" once the game page says the game
# is not in play; "asked" once the board now in its iframe is the one the page gave it,
# ready, asking the person, not played yet. A board the test cannot read (an outside page
# in a sandboxed frame) is followed through what the game page heard of it: a new
# board given after each return, ready and asking.
ASKED_OR_OVER = """returned => {
  if (window.__arbitre.returns.length < returned) return false;
  const root = document.querySelector("[data-game]");
  if (!root) return false;
  if (root.dataset.status !== "playing") return "over";
  const iframe = root.querySelector("[data-board]");
  const doc = iframe.contentDocument;
  if (!doc) {
    const given = returned ? window.__arbitre.srcsAtReturn[returned - 1] : -1;
    if (window.__arbitre.srcs.length <= given) return false;  // still the board played
    return root.dataset.boardReady === "true" && root.dataset.boardInput ? "asked" : false;
  }
  const html = doc && doc.documentElement;
  if (!html || doc.location.href !== iframe.src) return false;
  if (html.dataset.ready === "true" && html.dataset.input && !html.hasAttribute("data-played"))
    return "asked";
  return false;
}"""


def board(page: Page) -> FrameLocator:
    """Return the game page's board (the Set's page in ``iframe[data-board]``)."""
    return page.frame_locator("[data-board]")


def board_query(page: Page) -> dict[str, str]:
    """Return the query of the URL now given to the game page's iframe."""
    return frame_query(page, "[data-board]")


def open_game(page: Page, base: str, url: str) -> None:
    """Open a game page (a person's or a watcher's), recording its returns and iframe URLs."""
    page.add_init_script(RECORD_PAGE)
    page.goto(base + url)
    expect(page.locator("[data-game]")).to_be_visible()


#: What the game page knew when :func:`wait_turn` gave up (for the failure's message).
PAGE_STATE = """() => {
  const root = document.querySelector("[data-game]");
  const iframe = root && root.querySelector("[data-board]");
  return {data: root ? {...root.dataset} : null, src: iframe ? iframe.src : null,
          sandbox: iframe ? iframe.getAttribute("sandbox") : null,
          readable: Boolean(iframe && iframe.contentDocument), recorded: window.__arbitre};
}"""


def wait_turn(page: Page, returned: int = 0, timeout: float = 30) -> str:
    """Wait until the board has returned ``returned`` values, then until the person is
    asked (``"asked"``) or the game is over (``"over"``); on time out, fail with what the
    game page knew."""
    try:
        handle = page.wait_for_function(
            ASKED_OR_OVER, arg=returned, polling=25, timeout=timeout * 1000
        )
    except PlaywrightTimeoutError:
        raise AssertionError(f"no turn within {timeout:g} s: {page.evaluate(PAGE_STATE)}") from None
    return str(handle.json_value())


def expect_end_shown(page: Page) -> None:
    """The game over, the page shows its last position: the board's ``Method=End``."""
    root = page.locator("[data-game]")
    expect(root).not_to_have_attribute("data-status", "playing")
    expect(page.locator("[data-board]")).to_have_attribute("src", re.compile("[?&]Method=End(&|$)"))
    expect(root).to_have_attribute("data-board-ready", "true")
    expect(board(page).locator("html")).to_have_attribute("data-method", "end")
    expect(board(page).locator("html")).not_to_have_attribute("data-input", re.compile(".*"))


Strategy = Callable[[Page, FrameLocator, random.Random], None]


def play_game(
    page: Page, strategy: Strategy, *, max_moves: int = 400, seconds: float = 180, seed: int = 1
) -> int:
    """Play as the person on the open game page with ``strategy`` until the game is over;
    return the number of moves played. Bounded by ``max_moves`` and ``seconds``."""
    rng = random.Random(seed)
    frame = board(page)
    deadline = time.monotonic() + seconds
    played = 0
    while wait_turn(page, played) == "asked":
        assert played < max_moves, f"still playing after {played} moves"
        assert time.monotonic() < deadline, f"still playing after {seconds} s"
        strategy(page, frame, rng)
        played += 1
    return played


# --- one person strategy per Set -------------------------------------------------------

PICK = """(html, order) => {
  const cells = [...document.querySelectorAll("[data-playable='true']")];
  const value = el => el.getAttribute("data-value") || el.getAttribute("data-cell");
  const values = cells.map(value);
  for (const wanted of order) if (values.includes(wanted)) return wanted;
  return null;
}"""


def click_value(frame: FrameLocator, value: str) -> None:
    """Click the playable control returning ``value``."""
    frame.locator(
        f"[data-playable='true'][data-cell='{value}'], [data-playable='true'][data-value='{value}']"
    ).first.click()


def first_playable(page: Page, frame: FrameLocator, rng: random.Random) -> None:
    """Click the first playable cell or control."""
    frame.locator("[data-playable='true']").first.click()


def random_playable(page: Page, frame: FrameLocator, rng: random.Random) -> None:
    """Click a playable cell or control at random."""
    values = playable_values(frame)
    assert values, "asked, yet nothing is playable"
    click_value(frame, rng.choice(values))


def pente(page: Page, frame: FrameLocator, rng: random.Random) -> None:
    """Stones along one line far from the centre (after the forced ``JJ``): five in a row
    are soon there, the random engine seldom in the way; else any playable point."""
    order = ["JJ", *[f"{c}C" for c in "ABCDEFGHIJKLMNOPQRS"]]
    wanted = frame.locator("html").evaluate(PICK, order)
    if wanted is None:
        random_playable(page, frame, rng)
    else:
        click_value(frame, wanted)


SEAFIGHT_TARGET = """html => {
  const L = "ABCDEFGHIJ";
  const opponent = 3 - Number(html.dataset.input);
  const board = document.querySelector(`[data-board='${opponent}']`);
  const state = {};
  const open = new Set();
  board.querySelectorAll("[data-cell]").forEach(c => {
    state[c.dataset.cell] = c.getAttribute("data-state");
    if (c.getAttribute("data-playable") === "true") open.add(c.dataset.cell);
  });
  const at = (x, y) => (x < 0 || x > 9 || y < 0 || y > 9) ? null : L[x] + y;
  const hit = n => n !== null && state[n] === "2";
  const hits = Object.keys(state).filter(n => state[n] === "2");
  // A line of hits: fire just past either end of it.
  for (const n of hits) {
    const x = L.indexOf(n[0]), y = Number(n.slice(1));
    for (const [dx, dy] of [[1, 0], [0, 1]]) {
      if (!hit(at(x + dx, y + dy))) continue;
      for (const s of [1, -1]) {
        let k = 1;
        while (hit(at(x + s * k * dx, y + s * k * dy))) k += 1;
        const end = at(x + s * k * dx, y + s * k * dy);
        if (end && open.has(end)) return end;
      }
    }
  }
  // A lone hit: one of its neighbours.
  for (const n of hits) {
    const x = L.indexOf(n[0]), y = Number(n.slice(1));
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const next = at(x + dx, y + dy);
      if (next && open.has(next)) return next;
    }
  }
  // Hunting: every other cell (no ship is shorter than 2).
  const even = [...open].filter(n => (L.indexOf(n[0]) + Number(n.slice(1))) % 2 === 0);
  const pool = even.length ? even : [...open];
  return pool.length ? pool[Math.floor(Math.random() * pool.length)] : null;
}"""


def connectfour(page: Page, frame: FrameLocator, rng: random.Random) -> None:
    """Columns from the centre out: the first of D, C, E, B, F, A, G not full, clicked at
    its top cell (the disc drops to the bottom)."""
    wanted = frame.locator("html").evaluate(PICK, list("DCEBFAG"))
    assert wanted, "asked, yet no column is open"
    click_value(frame, wanted)


def seafight(page: Page, frame: FrameLocator, rng: random.Random) -> None:
    """Prepare: a fleet placed at random, validated; then fire: hunt every other cell, and
    finish the ships hit."""
    html = frame.locator("html")
    if html.get_attribute("data-method") == "prepare":
        frame.locator("[data-action='random']").click()
        expect(frame.locator("svg.sf")).to_have_attribute("data-legal", "true")
        frame.locator("[data-action='validate']").click()
        return
    cell = html.evaluate(SEAFIGHT_TARGET)
    assert cell, "asked to fire, yet no cell is open"
    opponent = 3 - int(html.get_attribute("data-input") or "1")
    frame.locator(f"[data-board='{opponent}'] [data-cell='{cell}']").click()


def mastermind(page: Page, frame: FrameLocator, rng: random.Random) -> None:
    """A code, then guesses, of colours at random: from the first hole of the row being
    composed, four colours from the palette, then validate."""
    row = frame.locator("[data-composing='true']")
    row.locator("[data-peg]").first.click()
    for _ in range(4):
        frame.locator(f"[data-pick='{rng.choice('ABCDEFGH')}']").click()
    validate = frame.locator("[data-validate]")
    expect(validate).to_have_attribute("data-playable", "true")
    validate.click()


POKER_STATE = """html => {
  const playable = JSON.parse(document.getElementById("tournoyons-context").textContent).playable;
  const enabled = name => {
    const el = document.querySelector(`.pk-controls [data-control='${name}']`);
    return el && !el.disabled ? el.getAttribute("data-value") : null;
  };
  return {playable, call: enabled("call"), bet: enabled("bet"), ack: enabled("acknowledge")};
}"""


def poker(page: Page, frame: FrameLocator, rng: random.Random) -> None:
    """Acknowledge a verdict; else all in (the highest total): the deal goes to the
    showdown at once unless the engine folds."""
    state = frame.locator("html").evaluate(POKER_STATE)
    if state["ack"] is not None:
        frame.locator(".pk-controls [data-control='acknowledge']").click()
        return
    top = str(max(int(v) for v in state["playable"]))
    if state["call"] == top or state["bet"] is None:
        assert state["call"] == top, state
        frame.locator(".pk-controls [data-control='call']").click()
        return
    frame.locator(".pk-controls [data-control='slider']").focus()
    page.keyboard.press("End")
    bet = frame.locator(".pk-controls [data-control='bet']")
    expect(bet).to_have_attribute("data-value", top)
    bet.click()


STRATEGIES: Mapping[str, Strategy] = {
    "TicTacToe": first_playable,
    "BigTicTacToe": random_playable,
    "ConnectFour": connectfour,
    "Pente": pente,
    "Reversi": first_playable,
    "Rochambeau": random_playable,
    "MasterMind": mastermind,
    "Seafight": seafight,
    "Poker": poker,
}


def strategy_for(set_name: str) -> Strategy:
    """Return the person's strategy for ``set_name`` (a Set from elsewhere, like the
    third-party Nim: a playable control at random)."""
    return STRATEGIES.get(set_name, random_playable)
