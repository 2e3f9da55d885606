"""The tester at ``/``: every Set in an iframe, and hot-seat games played with the Set's rules.

The tester plays the Arbitre: it loads an interface page in ``iframe#interface``, the page
returns the person's move through its hidden iframe to the local sink (``/return``), the
sink tells the tester, which asks the Set's rules (``POST /tester/<set>/play``) for the next
context and reloads the iframe with it.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from playwright.sync_api import FrameLocator, Page, expect

from tests.browser.helpers import (
    PageWatch,
    expect_counts,
    expect_texts,
    frame_query,
    get_json,
    open_tester,
    start_hot_seat,
    states,
    values_returned,
)

TTT_WINNING_LINES = (
    (1, 2, 3),
    (4, 5, 6),
    (7, 8, 9),
    (1, 4, 7),
    (2, 5, 8),
    (3, 6, 9),
    (1, 5, 9),
    (3, 5, 7),
)


def registered_sets(base: str) -> list[str]:
    """Return the names of the Sets the server serves, from ``/healthz``."""
    names: list[str] = get_json(base, "/healthz")["sets"]
    return names


# --- the form --------------------------------------------------------------------------


def show_page(page: Page, set_name: str, fields: Mapping[str, str]) -> None:
    """Fill the tester's form for ``set_name`` with ``fields`` (by parameter), then show the
    page."""
    page.locator("#set").select_option(set_name)
    for name, value in fields.items():
        if name == "Input":
            page.locator("select[name='Input']").select_option(value)
        else:
            page.locator(f"input[name='{name}']").fill(value)
    page.locator("#show").click()


def test_tester_lists_every_registered_set(live_server: str, page: Page, watch: PageWatch) -> None:
    open_tester(page, live_server)
    names = registered_sets(live_server)
    assert {"TicTacToe", "Rochambeau", "Nim"} <= set(names)
    options = page.locator("#set option")
    expect(options).to_have_count(len(names))
    assert sorted(options.all_inner_texts()) == sorted(names)
    expect(page.locator("iframe#interface")).to_have_attribute("width", "736")
    expect(page.locator("iframe#interface")).to_have_attribute("height", "660")


def test_show_page_loads_the_form_parameters(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    frame = open_tester(page, live_server)
    show_page(
        page,
        "TicTacToe",
        {
            "Input": "One",
            "Tray": "120000000",
            "Move2": "2",
            "Count": "2",
            "Name1": "Ana",
            "Name2": "Bo",
            "Legend": "round one",
            "Wait": "0",
        },
    )
    expect(frame.locator("html")).to_have_attribute("data-set", "TicTacToe")
    expect(frame.locator("html")).to_have_attribute("data-ready", "true")
    expect_texts(frame, {"Name1": "Ana", "Name2": "Bo", "Legend": "round one", "Count": "2"})
    expect(frame.locator("[data-cell='1']")).to_have_attribute("data-state", "1")
    expect(frame.locator("[data-cell='2']")).to_have_attribute("data-state", "2")
    expect(frame.locator("[data-cell='2']")).to_have_attribute("data-last-move", "2")
    expect(frame.locator("[data-playable='true']")).to_have_count(7)
    expect(frame.locator("html")).to_have_attribute("data-input", "1")
    query = frame_query(page)
    assert query["Set"] == "TicTacToe" and query["Tray"] == "120000000"
    assert query["Name1"] == "Ana" and query["Input"] == "One"
    expect(page.locator("#page-url")).to_have_text(
        page.locator("#interface").get_attribute("src") or ""
    )

    # Another Set, same form.
    show_page(
        page,
        "Rochambeau",
        {"Input": "", "Tray": "", "Move1": "3", "Move2": "1", "Gain1": "1", "Gain2": "4"},
    )
    expect(frame.locator("html")).to_have_attribute("data-set", "Rochambeau")
    expect(frame.locator("[data-side='1']")).to_have_attribute("data-hand", "3")
    expect(frame.locator("[data-side='2']")).to_have_attribute("data-state", "win")
    expect(frame.locator("[data-gain='2']")).to_have_text("4")


@pytest.mark.slow
def test_sample_context_draws_every_set_without_error(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    frame = open_tester(page, live_server)
    for name in registered_sets(live_server):
        page.locator("#set").select_option(name)
        page.locator("#sample").click()
        expect(frame.locator("html")).to_have_attribute("data-set", name)
        expect(frame.locator("html")).to_have_attribute("data-ready", "true")
        expect(frame.locator("[data-error]")).to_have_count(0)
        expect(frame.locator("[data-board]").first).to_be_visible()


def test_new_game_is_enabled_for_sets_with_rules(
    live_server: str, page: Page, watch: PageWatch
) -> None:
    # Every served Set carries rules now, the third-party Nim too (its own rules.py).
    open_tester(page, live_server)
    button = page.locator("#new-game")
    for name in ("Nim", "TicTacToe", "Rochambeau", "Nim"):
        page.locator("#set").select_option(name)
        expect(button).to_be_enabled()
    page.locator("input[name='Wait']").fill("0")
    button.click()
    frame = page.frame_locator("#interface")
    expect(frame.locator("[data-matches]")).to_have_attribute("data-matches", "12")
    frame.locator("button[data-value='3']").click()
    expect(frame.locator("[data-matches]")).to_have_attribute("data-matches", "9")
    assert frame_query(page)["Move1"] == "3"


# --- the rules API ---------------------------------------------------------------------


def test_rules_api_refuses_illegal_values(live_server: str, page: Page) -> None:
    api = page.request
    first = api.post(f"{live_server}/tester/tictactoe/new")
    assert first.status == 200
    turn = first.json()
    assert turn["params"]["Input"] == "One" and turn["over"] is False
    second = api.post(
        f"{live_server}/tester/tictactoe/play", data={"state": turn["state"], "value": "5"}
    )
    assert second.status == 200
    after = second.json()
    assert after["params"]["Tray"] == "000010000"
    assert after["params"]["Move1"] == "5" and after["params"]["Input"] == "Two"

    taken = api.post(
        f"{live_server}/tester/tictactoe/play", data={"state": after["state"], "value": "5"}
    )
    assert taken.status == 422
    assert "taken" in taken.json()["error"]
    for value in ("0", "10", "x"):
        bad = api.post(
            f"{live_server}/tester/tictactoe/play", data={"state": after["state"], "value": value}
        )
        assert bad.status == 422, value
    rps = api.post(
        f"{live_server}/tester/rochambeau/play",
        data={"state": {"score1": 0, "score2": 0, "rounds": 0, "pending": None}, "value": "4"},
    )
    assert rps.status == 422

    for path in ("/tester/chess/new", "/tester/chess/play"):
        missing = api.post(f"{live_server}{path}", data={"state": {}, "value": "1"})
        assert missing.status == 404, path
        assert missing.json()["error"]
    # The tester's routes are /new and /play: another action is no route at all.
    assert api.post(f"{live_server}/tester/nim/jump").status == 404


# --- hot-seat games --------------------------------------------------------------------


def expected_tray(moves: list[int]) -> str:
    """Return the TicTacToe Tray after ``moves`` (player one first), winning cells as 3/4."""
    cells = ["0"] * 9
    for index, cell in enumerate(moves):
        cells[cell - 1] = "1" if index % 2 == 0 else "2"
    for line in TTT_WINNING_LINES:
        marks = {cells[i - 1] for i in line}
        if marks in ({"1"}, {"2"}):
            for i in line:
                cells[i - 1] = "3" if marks == {"1"} else "4"
    return "".join(cells)


def play_tictactoe(page: Page, frame: FrameLocator, moves: list[int]) -> None:
    """Click ``moves`` in turn in the tester's iframe, checking each next page."""
    log = page.locator("#log li")
    expect(log).to_have_count(0)
    for number, cell in enumerate(moves, start=1):
        player = "1" if number % 2 == 1 else "2"
        expect(frame.locator("html")).to_have_attribute("data-input", player)
        expect(frame.locator(f"[data-cell='{cell}']")).to_have_attribute("data-playable", "true")
        frame.locator(f"[data-cell='{cell}']").click()
        # The next page: its Count is the number of moves played (the old page's is not).
        expect(frame.locator("[data-count]")).to_have_text(str(number))
        expect(frame.locator("html")).to_have_attribute("data-ready", "true")
        tray = expected_tray(moves[:number])
        shown = states(frame)
        assert shown == tray, (number, shown, tray)
        last = frame.locator("[data-last-move]")
        expect(last).to_have_count(1)
        expect(last).to_have_attribute("data-cell", str(cell))
        expect(last).to_have_attribute("data-last-move", player)
        query = frame_query(page)
        assert query[f"Move{player}"] == str(cell)
        assert query["Tray"] == tray and query["Wait"] == "0"
        expect(log).to_have_count(number)
        expect(log.first).to_have_attribute("data-value", str(cell))


def test_hot_seat_tictactoe_player_one_wins(live_server: str, page: Page, watch: PageWatch) -> None:
    frame = start_hot_seat(page, live_server, "TicTacToe")
    expect(frame.locator("[data-cell][data-state='0']")).to_have_count(9)
    expect(frame.locator("[data-count]")).to_have_text("0")
    moves = [1, 4, 2, 5, 3]
    play_tictactoe(page, frame, moves)

    html = frame.locator("html")
    expect(html).to_have_attribute("data-method", "end")
    for cell in ("1", "2", "3"):
        expect(frame.locator(f"[data-cell='{cell}']")).to_have_attribute("data-state", "3")
    expect(frame.locator("[data-cell='4']")).to_have_attribute("data-state", "2")
    expect(frame.locator("[data-playable='true']")).to_have_count(0)
    expect(html).not_to_have_attribute("data-input", "2")
    assert frame.locator("html").evaluate("() => window.tournoyons.play('9')") is False
    expect(page.locator("#log li")).to_have_count(len(moves))
    assert page.evaluate("() => window.tester.game().over") is True
    assert values_returned(page) == [str(m) for m in moves]


@pytest.mark.slow
def test_hot_seat_tictactoe_draw(live_server: str, page: Page, watch: PageWatch) -> None:
    frame = start_hot_seat(page, live_server, "TicTacToe")
    moves = [1, 2, 3, 5, 4, 6, 8, 7, 9]
    play_tictactoe(page, frame, moves)
    expect(frame.locator("html")).to_have_attribute("data-method", "end")
    expect_counts(
        frame,
        {
            "[data-cell][data-state='3']": 0,
            "[data-cell][data-state='4']": 0,
            "[data-playable='true']": 0,
        },
    )
    expect(page.locator("#log li")).to_have_count(9)


ROUNDS = [
    ("1", "1"),
    ("1", "3"),
    ("2", "3"),
    ("3", "3"),
    ("2", "1"),
    ("3", "2"),
    ("1", "3"),
    ("2", "1"),
]  # tie, one, two, tie, one, one, one, one: 5-1 after 8 rounds


@pytest.mark.slow
def test_hot_seat_rochambeau_match_to_five(live_server: str, page: Page, watch: PageWatch) -> None:
    frame = start_hot_seat(page, live_server, "Rochambeau")
    html = frame.locator("html")
    side1, side2 = frame.locator("[data-side='1']"), frame.locator("[data-side='2']")
    log = page.locator("#log li")
    expect(frame.locator("[data-gain='1']")).to_have_text("0")
    expect(frame.locator("[data-gain='2']")).to_have_text("0")
    score = {"1": 0, "2": 0}
    played = 0
    for round_number, (hand1, hand2) in enumerate(ROUNDS, start=1):
        # Player one chooses (from round 2, the page still shows the last round's hands).
        expect(frame.locator("[data-choices='1']")).to_be_visible()
        if round_number == 1:
            expect(side1).to_have_attribute("data-hand", "")
        frame.locator(f"[data-value='{hand1}']").click()
        played += 1
        expect(log).to_have_count(played)
        # Player two shares the screen: the log does not tell player one's hand.
        expect(log.first.locator("strong")).to_have_text("\u2022\u2022\u2022")

        # Player two's page: player one's hand is not shown.
        expect(frame.locator("[data-choices='2']")).to_be_visible()
        expect(html).to_have_attribute("data-ready", "true")
        expect(side1).to_have_attribute("data-hand", "")
        expect(side2).to_have_attribute("data-hand", "")
        expect(frame.locator("[data-side][data-state='win']")).to_have_count(0)
        assert "Move1" not in frame_query(page)
        expect(frame.locator("[data-gain='1']")).to_have_text(str(score["1"]))
        frame.locator(f"[data-value='{hand2}']").click()
        played += 1

        # The next page: both hands, the outcome, the scores.
        winner = {1: "1", 2: "2"}.get((int(hand1) - int(hand2)) % 3)
        if winner:
            score[winner] += 1
        expect(side1).to_have_attribute("data-hand", hand1)
        expect(frame.locator("[data-count]")).to_have_text(str(round_number))
        expect(side2).to_have_attribute("data-hand", hand2)
        expect(html).to_have_attribute("data-ready", "true")
        expect(side1).to_have_attribute(
            "data-state", "tie" if not winner else ("win" if winner == "1" else "lose")
        )
        expect(side2).to_have_attribute(
            "data-state", "tie" if not winner else ("win" if winner == "2" else "lose")
        )
        expect(frame.locator("[data-gain='1']")).to_have_text(str(score["1"]))
        expect(frame.locator("[data-gain='2']")).to_have_text(str(score["2"]))
        expect(log).to_have_count(played)
        if max(score.values()) == 5:
            break
    assert score == {"1": 5, "2": 1} and round_number == len(ROUNDS)

    expect(html).to_have_attribute("data-method", "end")
    expect(frame.locator("[data-value]")).to_have_count(0)
    expect(frame.locator("[data-gain='1']")).to_have_text("5")
    expect(frame.locator("[data-board]")).to_have_attribute("data-winner", "1")
    assert page.evaluate("() => window.tester.game().over") is True
    expect(log).to_have_count(2 * len(ROUNDS))
    # The match over, every value is shown, newest first.
    expected = [hand for pair in reversed(ROUNDS) for hand in reversed(pair)]
    assert log.locator("strong").all_inner_texts() == expected
