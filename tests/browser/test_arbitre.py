"""The Arbitre in real Chromium against the real server: a person plays whole games against
the built-in engines on the game page (the Set's own page in ``iframe[data-board]``),
watchers follow live, a finished game is replayed, and what is refused is refused.

The game page (``arbitre/templates/arbitre/game.html``, ``arbitre/static/arbitre.js``): the
root ``[data-game]`` carries ``data-status``, ``data-moves``, ``data-move`` and
``data-board-ready``; the person asked has an iframe URL with ``Input`` and ``URLReturn``
(``/play/<token>/<n>``); ``/games/<id>.json`` is the whole record.
"""

from __future__ import annotations

import random
import re
import sys
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.arbitre_helpers import (
    RECORD_PAGE,
    board,
    board_query,
    create_game,
    expect_end_shown,
    http_tictactoe,
    open_game,
    play_game,
    record,
    strategy_for,
    token_of,
    view,
    wait_asked,
    wait_over,
    wait_turn,
)
from tests.browser.helpers import (
    PageWatch,
    get_json,
    get_status,
    query_of,
)
from tests.runs import sets_of


def arbitre_sets() -> list[str]:
    """The Sets the Arbitre plays with two seats: those whose rules have the Arbitre's part
    (the third-party Nim of tests/plugins included, tests/conftest.py puts it on the path).
    Four-seat Tarot's whole deal through the Arbitre is ``test_arbitre_tarot.py``'s."""
    from tournoyons_gui.interfaces.plugin import seat_count
    from tournoyons_gui.interfaces.registry import load_registry

    assert any(p.endswith("plugins") for p in sys.path)
    return sorted(
        s.name for s in load_registry() if s.arbitre is not None and seat_count(s.arbitre) == 2
    )


# A finished game's final Status of each seat (engine protocol section 3.3), by result.
STATUSES = {"seat1": [1, 4], "seat2": [3, 2], "draw": [5, 5]}


def check_finished(rec: dict[str, Any], page: Page, engine: str) -> None:
    """Check the record of a finished person (seat 1) against ``engine`` (seat 2) game, and
    that the page shows what the record says."""
    assert rec["status"] == "over", rec["reason"]
    assert rec["result"] in STATUSES, rec
    assert [s["status"] for s in rec["seats"]] == STATUSES[rec["result"]], rec["seats"]
    assert rec["winner"] == {"seat1": 0, "seat2": 1, "draw": None}[rec["result"]]
    assert rec["reason"] and rec["ended_at"]
    assert [s["error"] for s in rec["seats"]] == ["", ""], rec["seats"]
    moves = rec["moves"]
    assert moves, "no move recorded"
    assert [m["number"] for m in moves] == list(range(1, len(moves) + 1))
    assert {m["seat"] for m in moves} == {0, 1}

    # The page: every move, the result, the person's values as the board returned them.
    root = page.locator("[data-game]")
    expect(root).to_have_attribute("data-status", "over")
    expect(root).to_have_attribute("data-moves", str(len(moves)))
    expect(root).to_have_attribute("data-move", str(len(moves)))
    expect(page.locator("[data-slider]")).to_have_attribute("max", str(len(moves)))
    expect(page.locator("[data-moves-list] li")).to_have_count(len(moves))
    said = {
        "seat1": f"{rec['seats'][0]['name']} wins.",
        "seat2": f"{engine} wins.",
        "draw": "draw.",
    }[rec["result"]]
    expect(page.locator("[data-state]")).to_have_text(said)
    returned = page.evaluate("() => window.__arbitre.returns")
    assert [m["value"] for m in moves if m["seat"] == 0] == returned
    expect_end_shown(page)
    assert board_query(page).get("Tray", "") == moves[-1]["tray"]

    # The engine: one request and its callback per move it played, then its final call.
    exchanges = rec["exchanges"]
    engine_moves = [m for m in moves if m["seat"] == 1]
    requests = [e for e in exchanges if e["seat"] == 1 and e["kind"] == "request"]
    callbacks = [e for e in exchanges if e["seat"] == 1 and e["kind"] == "callback"]
    assert len(requests) == len(callbacks) == len(engine_moves), exchanges
    for request, callback, move in zip(requests, callbacks, engine_moves, strict=True):
        assert f"/engines/{rec['set'].lower()}/{engine}?" in request["detail"]
        assert "Referee=" in request["detail"] and "MoveId=" in request["detail"]
        assert request["move"] == callback["move"] == str(move["number"])
        assert re.search(r"(^|&)value=", callback["detail"], re.IGNORECASE), callback
    finals = [e for e in exchanges if e["seat"] == 1 and e["kind"] == "final"]
    assert len(finals) == 1 and f"Status={rec['seats'][1]['status']}&" in finals[0]["detail"]
    assert not [e for e in exchanges if e["seat"] == 0], "a person has no exchanges"


# --- 1. a new user, through the form ---------------------------------------------------


def test_a_tictactoe_game_started_with_the_form_played_to_the_end(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    page.add_init_script(RECORD_PAGE)  # on the game page it leads to
    page.goto(live_server + "/arbitre")  # the front page: the form one click away
    page.get_by_role("link", name="Start a game").click()
    page.wait_for_url(re.compile(r"/arbitre/new$"))
    form = page.locator("[data-new-game]")
    form.locator("[data-set-select]").select_option("TicTacToe")
    seat1, seat2 = form.locator("[data-seat='1']"), form.locator("[data-seat='2']")
    seat1.locator("[data-kind]").select_option("person")
    seat2.locator("[data-kind]").select_option("builtin")
    expect(seat2.locator("[data-builtin]")).to_be_visible()
    seat2.locator("[data-builtin]").select_option("random")
    form.locator("input[name='wait']").fill("0")
    form.locator("[data-start]").click()

    page.wait_for_url(re.compile(r"/games/[A-Z0-9]+\?seat=[A-Z0-9]+$"))
    game_id = page.url.split("/games/", 1)[1].split("?", 1)[0]
    root = page.locator("[data-game]")
    expect(root).to_have_attribute("data-game", game_id)
    assert wait_turn(page) == "asked"
    expect(page.locator("[data-state]")).to_have_text("Your move.")
    query = board_query(page)
    assert query["Set"] == "TicTacToe" and query["Input"] == "One"
    assert query["URLReturn"] == f"{live_server}/play/{token_of(page.url)}/1"
    assert "Wait" not in query  # Wait 0
    expect(page.locator("[data-seat-row='0']")).to_contain_text("(you)")
    expect(page.locator("[data-seat-row='1']")).not_to_contain_text("(you)")

    played = play_game(page, strategy_for("TicTacToe"), max_moves=5, seconds=60)
    assert 3 <= played <= 5
    rec = record(live_server, game_id)
    assert rec["set"] == "TicTacToe" and rec["options"]["wait"] == 0
    assert [(s["kind"], s["builtin"]) for s in rec["seats"]] == [
        ("person", ""),
        ("builtin", "random"),
    ]
    check_finished(rec, page, "random")
    assert len([m for m in rec["moves"] if m["seat"] == 0]) == played
    # TicTacToe: the first empty cell each time, so the person's moves are known.
    cells = ["0"] * 9
    for move in rec["moves"]:
        assert cells[int(move["value"]) - 1] == "0", rec["moves"]
        if move["seat"] == 0:
            assert move["value"] == str(cells.index("0") + 1)
        cells[int(move["value"]) - 1] = str(move["seat"] + 1)
    # The Status column is the server's: it shows the final Status once the page is loaded.
    page.reload()
    for index in (0, 1):
        expect(page.locator(f"[data-seat-row='{index}'] [data-final-status]")).to_have_text(
            str(rec["seats"][index]["status"])
        )
    expect(page.locator("[data-state]")).to_contain_text(rec["reason"])


def test_the_form_shows_the_fields_of_the_kind_chosen(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    page.goto(live_server + "/arbitre/new")
    form = page.locator("[data-new-game]")
    seat = form.locator("[data-seat='2']")
    builtin, url = seat.locator("[data-builtin]"), seat.locator("input[name='seat2_url']")
    seat.locator("[data-kind]").select_option("builtin")
    expect(builtin).to_be_visible()
    expect(url).to_be_hidden()
    seat.locator("[data-kind]").select_option("engine")
    expect(url).to_be_visible()
    expect(builtin).to_be_hidden()
    seat.locator("[data-kind]").select_option("person")
    expect(url).to_be_hidden()
    expect(builtin).to_be_hidden()
    # Only Poker has levels; each Set offers its own built-in engines.
    form.locator("[data-set-select]").select_option("TicTacToe")
    expect(form.locator("[data-level]")).to_be_hidden()
    form.locator("[data-set-select]").select_option("Poker")
    expect(form.locator("[data-level]")).to_be_visible()
    seat.locator("[data-kind]").select_option("builtin")
    form.locator("[data-set-select]").select_option("Nim")
    expect(form.locator("[data-level]")).to_be_hidden()
    enabled = builtin.locator("option:enabled")
    expect(enabled).to_have_text(["perfect", "random"])
    expect(builtin.locator("option", has_text=re.compile("^greedy$"))).to_be_disabled()
    expect(builtin).to_have_value(re.compile("^(perfect|random)$"))  # never another Set's


# --- 2. a whole game of every Set the Arbitre plays ------------------------------------


#: The default run's whole games (tests/runs.py): a grid, a board with gravity, a long
#: line, a hidden secret, simultaneous moves and the third party's Set; the long run
#: plays every Set (Seafight's preparation, BigTicTacToe, Reversi's passes, Poker).
WHOLE_GAMES = ("TicTacToe", "ConnectFour", "Pente", "MasterMind", "Rochambeau", "Nim")


@pytest.mark.slow
@pytest.mark.parametrize("set_name", sets_of(arbitre_sets(), WHOLE_GAMES))
def test_a_person_plays_a_whole_game_against_the_random_engine(
    live_server: str, page: Page, watch: PageWatch, set_name: str
) -> None:
    assert set_name in get_json(live_server, "/healthz")["sets"]
    created = create_game(live_server, set_name)
    assert [p["seat"] for p in created["persons"]] == [0]
    open_game(page, live_server, created["persons"][0]["url"])
    played = play_game(page, strategy_for(set_name), max_moves=400, seconds=180)
    assert played >= 1
    rec = wait_over(live_server, created["id"])
    assert rec["set"] == set_name
    check_finished(rec, page, "random")


@pytest.mark.parametrize(
    ("set_name", "secret"),
    [("MasterMind", r"[A-H]{4}"), ("Seafight", r"(?:[HV][2-5][A-J][0-9].){5}")],
)
def test_the_engines_prepared_secret_is_not_shown_to_the_person_during_the_game(
    live_server: str, page: Page, watch: PageWatch, set_name: str, secret: str
) -> None:
    # Move 1 is the person's code or fleet, move 2 the engine's: the person must not be
    # able to read it while the game is played, neither on the page nor in its record.
    created = create_game(live_server, set_name)
    game_id, token = created["id"], token_of(created["persons"][0]["url"])
    open_game(page, live_server, created["persons"][0]["url"])
    assert wait_turn(page) == "asked"
    strategy_for(set_name)(page, board(page), random.Random(2))
    assert wait_turn(page, 1) == "asked"
    expect(page.locator("[data-game]")).to_have_attribute("data-moves", "2")
    shown = page.locator("[data-moves-list] [data-move-link='2'] code")
    expect(shown).to_have_count(1)
    assert not re.fullmatch(secret, shown.inner_text()), "the engine's secret is on the page"
    listed = view(live_server, game_id, seat=token, list="1")["list"]
    assert not re.fullmatch(secret, listed[1]["value"]), "the engine's secret is in /view"
    assert not any(
        re.fullmatch(secret, m["value"])
        for m in record(live_server, game_id)["moves"]
        if m["seat"] == 1
    ), "the engine's secret is in the record"


# --- 3. replay -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished_game(live_server: str) -> dict[str, Any]:
    """A TicTacToe game, the person (first empty cell) against ``random``, played to the
    end over HTTP; its record."""
    created = create_game(live_server, "TicTacToe")
    http_tictactoe(live_server, created["id"], token_of(created["persons"][0]["url"]))
    rec = wait_over(live_server, created["id"])
    assert len(rec["moves"]) >= 5
    return rec


@pytest.mark.slow
def test_replay_with_the_links_the_slider_and_the_keys(
    live_server: str, page: Page, watch: PageWatch, finished_game: dict[str, Any]
) -> None:
    rec = finished_game
    game_id, last = rec["id"], len(rec["moves"])
    open_game(page, live_server, f"/games/{game_id}")
    page.evaluate("() => { window.__same = true; }")
    root = page.locator("[data-game]")
    iframe = page.locator("[data-board]")
    frame = board(page)

    def shows(move: int) -> None:
        expect(root).to_have_attribute("data-move", str(move))
        expected = view(live_server, game_id, move=str(move))["src"]
        expect(iframe).to_have_attribute("src", expected)
        if move:
            assert query_of(expected)["Tray"] == rec["moves"][move - 1]["tray"]
        expect(root).to_have_attribute("data-board-ready", "true")
        frame_src = frame.locator("html").evaluate("() => location.pathname + location.search")
        assert frame_src == expected
        expect(page.locator("[data-slider]")).to_have_value(str(move))
        expect(page.locator("[data-position]")).to_have_text(f"{move} / {last}")
        assert page.evaluate("() => window.__same") is True, "the page was reloaded"
        assert page.url.endswith(f"/games/{game_id}") or page.url.endswith(f"?move={move}")

    shows(last)
    assert board_query(page)["Method"] == "End"
    nav = {
        name: page.locator(f"[data-nav='{name}']") for name in ("first", "previous", "next", "last")
    }
    nav["first"].click()
    shows(0)
    assert board_query(page)["Tray"] != rec["moves"][0]["tray"]
    assert "Method" not in board_query(page) or board_query(page)["Method"] != "End"
    nav["previous"].click()
    shows(0)
    nav["next"].click()
    shows(1)
    nav["next"].click()
    shows(2)
    nav["previous"].click()
    shows(1)
    nav["last"].click()
    shows(last)
    assert board_query(page)["Method"] == "End"
    nav["next"].click()
    shows(last)

    page.locator("[data-slider]").evaluate(
        "(s, v) => { s.value = String(v); s.dispatchEvent(new Event('input')); }", 3
    )
    shows(3)
    page.locator("[data-moves-list] [data-move-link='2']").click()
    shows(2)
    expect(page.locator("[data-moves-list] li[aria-current='step']")).to_have_attribute(
        "value", "2"
    )

    page.locator("h1").click()  # keys work from the page itself
    page.keyboard.press("Home")
    shows(0)
    page.keyboard.press("ArrowRight")
    shows(1)
    page.keyboard.press("ArrowRight")
    shows(2)
    page.keyboard.press("ArrowLeft")
    shows(1)
    page.keyboard.press("End")
    shows(last)
    page.keyboard.press("ArrowLeft")
    shows(last - 1)
    # A watcher of a finished game is never asked to play.
    srcs = page.evaluate("() => window.__arbitre.srcs")
    assert len(srcs) >= 10
    for src in [*srcs, iframe.get_attribute("src") or ""]:
        assert "Input" not in query_of(src) and "URLReturn" not in query_of(src), src


def test_a_deep_link_opens_the_game_at_a_move(
    live_server: str, page: Page, watch: PageWatch, finished_game: dict[str, Any]
) -> None:
    rec = finished_game
    game_id = rec["id"]
    page.goto(f"{live_server}/games/{game_id}?move=3")
    root = page.locator("[data-game]")
    expect(root).to_have_attribute("data-move", "3")
    expect(root).to_have_attribute("data-moves", str(len(rec["moves"])))
    expected = view(live_server, game_id, move="3")
    assert expected["move"] == 3
    expect(page.locator("[data-board]")).to_have_attribute("src", expected["src"])
    assert board_query(page)["Tray"] == query_of(expected["src"])["Tray"]
    assert board_query(page)["Tray"] == rec["moves"][2]["tray"]
    assert "Method" not in board_query(page) or board_query(page)["Method"] != "End"
    expect(root).to_have_attribute("data-board-ready", "true")
    expect(page.locator("[data-slider]")).to_have_value("3")
    expect(page.locator("[data-moves-list] li[aria-current='step']")).to_have_attribute(
        "value", "3"
    )
    # The board shows the position of move 3: three marks.
    expect(board(page).locator("[data-cell]:not([data-state='0'])")).to_have_count(3)


# --- 4. watching live ------------------------------------------------------------------


@pytest.mark.slow
def test_two_watchers_follow_the_person_live(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    created = create_game(live_server, "TicTacToe")
    game_id = created["id"]
    watchers = [page.context.new_page() for _ in range(2)]
    for watcher in watchers:
        open_game(watcher, live_server, f"/games/{game_id}")
        expect(watcher.locator("[data-game]")).to_have_attribute("data-board-ready", "true")
        watcher.evaluate("() => { window.__same = true; }")
    open_game(page, live_server, created["persons"][0]["url"])
    page.bring_to_front()  # the person's tab is the one shown; the watchers' are behind
    seen = [[0], [0]]
    trays: list[set[str]] = [set(), set()]
    played = 0
    while wait_turn(page, played) == "asked":
        page.frame_locator("[data-board]").locator("[data-playable='true']").first.click()
        played += 1
        # The person's move, then the engine's (unless the game is over): both watchers
        # follow, without a reload, and are never given Input or URLReturn.
        state = wait_turn(page, played)
        moves = len(record(live_server, game_id)["moves"])
        assert moves > seen[0][-1]
        for number, watcher in enumerate(watchers):
            root = watcher.locator("[data-game]")
            expect(root).to_have_attribute("data-moves", str(moves))
            expect(root).to_have_attribute("data-move", str(moves))
            expect(root).to_have_attribute("data-board-ready", "true")
            src = watcher.locator("[data-board]").get_attribute("src") or ""
            query = query_of(src)
            assert "Input" not in query and "URLReturn" not in query, src
            assert query["Tray"] == record(live_server, game_id)["moves"][moves - 1]["tray"]
            expect(board(watcher).locator("html")).not_to_have_attribute(
                "data-input", re.compile(".*")
            )
            expect(board(watcher).locator("[data-playable]")).to_have_count(0)
            assert watcher.evaluate("() => window.__same") is True, "the watcher reloaded"
            seen[number].append(moves)
            trays[number].add(query["Tray"])
        if state == "over":
            break
    rec = wait_over(live_server, game_id)
    for number, watcher in enumerate(watchers):
        assert seen[number] == sorted(set(seen[number])) and seen[number][-1] == len(rec["moves"])
        assert len(trays[number]) == len(seen[number]) - 1  # a new Tray at each step
        srcs = watcher.evaluate("() => window.__arbitre.srcs")
        assert len(srcs) >= len(seen[number]) - 1
        for src in srcs:
            assert "Input" not in query_of(src) and "URLReturn" not in query_of(src), src
        expect_end_shown(watcher)
        expect(watcher.locator("[data-state]")).to_have_text(
            page.locator("[data-state]").inner_text()
        )
        watcher.close()


# --- 5. what the Arbitre refuses from a person -----------------------------------------


def test_an_illegal_or_misdirected_return_changes_nothing(live_server: str) -> None:
    created = create_game(live_server, "TicTacToe")
    game_id, token = created["id"], token_of(created["persons"][0]["url"])
    assert http_tictactoe(live_server, game_id, token, stop_after=1) == 1
    asked = wait_asked(live_server, game_id, token)
    assert asked["status"] == "playing" and asked["asked"] == 0
    before = record(live_server, game_id)
    assert len(before["moves"]) == 2
    url_return = query_of(asked["src"])["URLReturn"]
    assert url_return == f"{live_server}/play/{token}/3"
    taken = tictactoe_taken(before)

    assert get_status(f"{url_return}?ReturnValue={taken[0]}") == 422
    assert get_status(f"{url_return}?ReturnValue={taken[1]}") == 422
    assert get_status(f"{url_return}?ReturnValue=10") == 422
    assert get_status(f"{live_server}/play/{'Z' * 26}/3?ReturnValue=9") == 404
    assert get_status(f"{live_server}/play/{token}/1?ReturnValue=9") == 404  # an old page
    assert get_status(f"{live_server}/play/{token}/4?ReturnValue=9") == 404
    after = record(live_server, game_id)
    assert after["moves"] == before["moves"] and after["status"] == "playing"
    assert after["exchanges"] == before["exchanges"]
    still = view(live_server, game_id, seat=token)
    assert still["asked"] == 0 and still["src"] == asked["src"]

    # The same return with a free cell is taken.
    free = next(str(c) for c in range(1, 10) if str(c) not in taken)
    assert get_status(f"{url_return}?ReturnValue={free}") == 200
    moved = wait_asked(live_server, game_id, token)
    assert record(live_server, game_id)["moves"][2]["value"] == free
    assert moved["status"] != "playing" or moved["move"] >= 4


ILLEGAL_RETURN = """(html, cell) => {
  const back = new URLSearchParams(location.search).get("URLReturn");
  const frame = document.createElement("iframe");
  frame.hidden = true;
  document.body.appendChild(frame);
  frame.src = back + "?ReturnValue=" + cell;
  parent.postMessage({type: "tournoyons:return", value: cell, set: "TicTacToe"}, "*");
}"""


@pytest.mark.slow
def test_the_page_waits_for_a_slow_return_and_redraws_a_refused_one(
    live_server: str, page: Page
) -> None:
    # A move whose return takes 2.5 s (a slow network, a busy server) is not drawn again
    # while it is on its way: the game page waits for what the return page says (the
    # version that redrew after 1.5 s gave the person a board to play twice on). Then a
    # board that returns a taken cell is drawn again at once, asked again.
    created = create_game(live_server, "TicTacToe")
    game_id = created["id"]
    open_game(page, live_server, created["persons"][0]["url"])
    assert wait_turn(page) == "asked"

    def slow(route: Any) -> None:
        time.sleep(2.5)
        route.continue_()

    played_on = page.locator("[data-board]").get_attribute("src")
    page.route(re.compile(r".*/play/.*"), slow)
    board(page).locator("[data-playable='true'][data-cell='5']").click()
    assert wait_turn(page, 1) == "asked"
    page.unroute(re.compile(r".*/play/.*"))
    srcs: list[str] = page.evaluate("() => window.__arbitre.srcs")
    given = page.evaluate("() => window.__arbitre.srcsAtReturn[0]")
    assert played_on not in srcs[given:], "the board played on was given again"
    mine = [m for m in record(live_server, game_id)["moves"] if m["seat"] == 0]
    assert [m["value"] for m in mine] == ["5"]

    before = len(page.evaluate("() => window.__arbitre.srcs"))
    asked_src = page.locator("[data-board]").get_attribute("src")
    board(page).locator("html").evaluate(ILLEGAL_RETURN, "5")
    page.wait_for_function(
        "n => window.__arbitre.srcs.length > n", arg=before, polling=25, timeout=4000
    )
    assert page.evaluate("() => window.__arbitre.srcs").pop() == asked_src
    assert wait_turn(page, 2) == "asked"
    assert [m["value"] for m in record(live_server, game_id)["moves"] if m["seat"] == 0] == ["5"]


def tictactoe_taken(rec: dict[str, Any]) -> list[str]:
    """Return the cells taken in a TicTacToe game."""
    return [m["value"] for m in rec["moves"]]


# --- 6. the form refuses what it cannot start ------------------------------------------


def game_count(page: Page, base: str) -> str:
    """Return the games list's total, as it says it."""
    page.goto(base + "/games")
    return page.locator("[data-total]").inner_text()


def test_the_form_refuses_bad_input_and_stores_nothing(live_server: str, page: Page) -> None:
    # The refusals are 400 pages (the console says so); no script may fail on them.
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and "status of 400" not in message.text
            else None
        ),
    )
    total = game_count(page, live_server)
    assert re.fullmatch(r"\d+ games?\.", total)
    form = page.locator("[data-new-game]")
    error = page.locator("[data-form-error]")

    def fresh_form() -> None:
        page.goto(live_server + "/arbitre/new")
        expect(error).to_have_count(0)
        form.locator("[data-set-select]").select_option("TicTacToe")
        form.locator("input[name='wait']").fill("0")

    def posted(message: str) -> None:
        page.wait_for_url(re.compile(r"/arbitre/games$"))
        expect(error).to_be_visible()
        expect(error).to_contain_text(message)
        expect(form).to_be_visible()

    # TimeOut 3 and 55: the browser's own check first, then the Arbitre's.
    for timeout in ("3", "55"):
        fresh_form()
        form.locator("input[name='timeout']").fill(timeout)
        form.locator("[data-start]").click()
        expect(form.locator("input[name='timeout']:invalid")).to_have_count(1)
        assert page.url.endswith("/arbitre/new")
        form.evaluate("f => { f.noValidate = true; }")
        form.locator("[data-start]").click()
        posted("TimeOut is 4 to 54 seconds")
        expect(form.locator("input[name='timeout']")).to_have_value(timeout)

    # An engine URL that is no http(s) URL.
    fresh_form()
    form.locator("[data-seat='2'] [data-kind]").select_option("engine")
    form.locator("input[name='seat2_url']").fill("javascript:alert(1)")
    form.locator("[data-start]").click()
    posted("seat 2: an engine URL is http:// or https:// with a host")
    expect(form.locator("input[name='seat2_url']")).to_have_value("javascript:alert(1)")
    expect(form.locator("[data-seat='2'] [data-kind]")).to_have_value("engine")

    # A Set the Arbitre does not know, posted as the form would post it.
    fresh_form()
    form.locator("[data-set-select] option[value='TicTacToe']").evaluate(
        "o => { o.value = 'Chess'; }"
    )
    form.locator("[data-start]").click()
    posted("unknown Set 'Chess'")
    answer = page.request.post(
        live_server + "/arbitre/games",
        form={
            "set": "Chess",
            "seat1_kind": "person",
            "seat2_kind": "builtin",
            "seat2_builtin": "random",
            "timeout": "20",
            "wait": "0",
        },
    )
    assert answer.status == 400 and "data-form-error" in answer.text()

    assert game_count(page, live_server) == total
    assert errors == []
