"""An added game (chapter VI) in real Chromium: a new user adds a Set from an interface URL
and a referee URL (one of ours served as if it were outside: its page and its referee, not
its Python rules), starts a game against an engine URL, plays it to the end through the
outside interface, and replays it."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.arbitre_helpers import (
    RECORD_PAGE,
    board,
    board_query,
    expect_end_shown,
    play_game,
    record,
    strategy_for,
    wait_over,
    wait_turn,
)
from tests.browser.helpers import PageWatch
from tournoyons_gui.interfaces.tictactoe.rules import TicTacToeRules


def test_a_person_adds_a_game_and_plays_it_through_its_referee(
    live_server: str, elsewhere: str, page: Page, watch: PageWatch
) -> None:
    page.add_init_script(RECORD_PAGE)
    page.goto(live_server + "/arbitre/new")
    page.get_by_role("link", name="Add a game").click()
    form = page.locator("[data-add-set]")
    form.locator("input[name='name']").fill("Morpion3Outside")
    form.locator("input[name='interface_url']").fill(f"{elsewhere}/tictactoe/")
    form.locator("input[name='referee_url']").fill(f"{elsewhere}/referee/tictactoe")
    form.locator("[data-add]").click()

    # Back on the new-game form, the added game chosen.
    page.wait_for_url(re.compile(r"/arbitre/new\?set=Morpion3Outside$"))
    new_game = page.locator("[data-new-game]")
    expect(new_game.locator("[data-set-select]")).to_have_value("Morpion3Outside")
    seat1, seat2 = new_game.locator("[data-seat='1']"), new_game.locator("[data-seat='2']")
    seat1.locator("[data-kind]").select_option("person")
    seat2.locator("[data-kind]").select_option("engine")
    url = seat2.locator("input[name='seat2_url']")
    expect(url).to_be_visible()
    url.fill(f"{elsewhere}/engines/tictactoe/random")
    new_game.locator("input[name='wait']").fill("0")
    new_game.locator("[data-start]").click()

    page.wait_for_url(re.compile(r"/games/[A-Z0-9]+\?seat=[A-Z0-9]+$"))
    game_id = page.url.split("/games/", 1)[1].split("?", 1)[0]
    assert wait_turn(page) == "asked"
    src = page.locator("[data-board]").get_attribute("src") or ""
    assert src.startswith(f"{elsewhere}/tictactoe/?Set=Morpion3Outside&")
    query = board_query(page)
    assert query["Input"] == "One" and query["Tray"] == "Init"
    # The outside page runs sandboxed, with a return good for this one move.
    expect(page.locator("[data-board]")).to_have_attribute("sandbox", "allow-scripts allow-forms")
    assert "/play/once/" in query["URLReturn"] and "seat=" not in query["URLReturn"]
    expect(board(page).locator("html")).to_have_attribute("data-set", "TicTacToe")

    played = play_game(page, strategy_for("TicTacToe"), max_moves=5, seconds=60)
    assert 3 <= played <= 5
    rec = wait_over(live_server, game_id)
    assert rec["set"] == "Morpion3Outside" and rec["status"] == "over", rec["reason"]
    expect_end_shown(page)

    # The referee's verdicts agree with our rules on every move, and the result with them.
    rules = TicTacToeRules()
    state = rules.start().state
    for move in rec["moves"]:
        state = rules.play(state, move["value"]).state
        assert move["tray"] == state["tray"], rec["moves"]
    result = rules.result(state)
    assert result is not None
    expected = "draw" if result.winner is None else f"seat{int(result.winner)}"
    assert rec["result"] == expected
    assert [e for e in rec["exchanges"] if e["kind"] == "referee"]

    # Replayed: the first position, then the last, through the outside interface.
    page.goto(f"{live_server}/games/{game_id}?move=0")
    expect(page.locator("[data-game]")).to_have_attribute("data-move", "0")
    assert board_query(page)["Tray"] == "Init"
    page.keyboard.press("End")
    expect(page.locator("[data-game]")).to_have_attribute("data-move", str(len(rec["moves"])))
    expect(page.locator("[data-board]")).to_have_attribute(
        "src", re.compile(re.escape(f"Tray={rec['moves'][-1]['tray']}"))
    )
    final = record(live_server, game_id)
    assert final["moves"] == rec["moves"]
