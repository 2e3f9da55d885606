"""BigTicTacToe (Morpion) in real Chromium against the real server: what a person sees and plays.

Spec ``interface-protocol.md`` sections 2, 3, 4 (BigTicTacToe) and 6 (DOM contract). Cells
are ``[data-cell="A0"]``..``[data-cell="J9"]`` with their Tray code in ``data-state``; a
cell's mark is its ``use`` (``#btt-x`` a cross for player one, ``#btt-o`` a ring for player
two), seen when its opacity is 1. Alignments are ``line[data-alignment="D3H3"]`` whose
``data-state`` is the player, ``""`` while the line waits for ``Wait``.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser import helpers as h
from tests.interfaces.test_bigtictactoe import (
    KNOWN_GAIN2,
    ONE_CELLS,
    TWO_CELLS,
    replay,
    tray,
)
from tournoyons_gui.interfaces.bigtictactoe.board import read_cell

# Screen coordinates of both ends of a line, through the board's scaling.
LINE_ENDS = """line => {
  const m = line.getScreenCTM();
  const at = (x, y) => new DOMPoint(x, y).matrixTransform(m);
  const a = at(line.x1.baseVal.value, line.y1.baseVal.value);
  const b = at(line.x2.baseVal.value, line.y2.baseVal.value);
  return [[a.x, a.y], [b.x, b.y]];
}"""

# What a person sees of the Wait test's page at one instant.
SNAPSHOT = """() => {
  const opacity = el => getComputedStyle(el).opacity;
  const h3 = document.querySelector('[data-cell="H3"]');
  return {
    ready: document.documentElement.getAttribute("data-ready"),
    lines: Object.fromEntries(Array.from(document.querySelectorAll("[data-alignment]"),
      l => [l.getAttribute("data-alignment"), [l.getAttribute("data-state"), opacity(l)]])),
    gains: Array.from(document.querySelectorAll("[data-gain]"), g => g.textContent),
    playable: document.querySelectorAll("[data-playable='true']").length,
    h3: [h3.getAttribute("data-state"), h3.getAttribute("data-last-move"),
         opacity(h3.querySelector("use"))],
  };
}"""

# Plays moves in the tester's frame, each once the page after the previous one takes input.
PLAY_IN_TESTER = """async ([moves, played]) => {
  const frame = document.getElementById("interface");
  const deadline = Date.now() + 60000;
  for (let i = 0; i < moves.length; i++) {
    for (;;) {
      const w = frame.contentWindow, d = frame.contentDocument;
      const count = d && d.querySelector("[data-count]");
      if (w && w.tournoyons && w.tournoyons.inputOn && count
          && count.textContent === String(played + i)) break;
      if (Date.now() > deadline) throw new Error("no page for move " + (played + i + 1));
      await new Promise(resolve => setTimeout(resolve, 10));
    }
    if (!frame.contentWindow.tournoyons.play(moves[i])) throw new Error("refused " + moves[i]);
  }
}"""

SET = "BigTicTacToe"
# Cells clicked on a page that takes no input.
UNPLAYABLE = ("A0", "E5", "J9")
INK = {1: "rgb(194, 59, 34)", 2: "rgb(29, 95, 166)"}
SAMPLE = tray("D3 E3 F3 G3 H3 C5", "E4 F4 G5 D6 E2")


def expect_mark(page: Page, name: str, player: int | None) -> None:
    """Assert that cell ``name`` visibly shows ``player``'s mark, or no mark at all."""
    mark = h.cell(page, name).locator("use")
    expect(mark).to_have_css("opacity", "0" if player is None else "1")
    if player is not None:
        expect(mark).to_have_attribute("href", "#btt-x" if player == 1 else "#btt-o")


def expect_line(page: Page, code: str, player: int) -> None:
    """Assert that alignment ``code`` is drawn in ``player``'s ink from its first to last cell."""
    line = page.locator(f"line[data-alignment='{code}']")
    expect(line).to_have_attribute("data-state", str(player))
    expect(line).to_have_css("stroke", INK[player])
    assert float(line.evaluate("l => getComputedStyle(l).opacity")) > 0.4
    for (x, y), name in zip(line.evaluate(LINE_ENDS), (code[:2], code[2:]), strict=True):
        box = h.cell(page, name).bounding_box()
        assert box is not None
        assert box["x"] < x < box["x"] + box["width"], (code, name)
        assert box["y"] < y < box["y"] + box["height"], (code, name)


# --- drawing the board ------------------------------------------------------------------------


@pytest.mark.parametrize("tray_param", [None, "Init"])
def test_start_position_is_an_empty_squared_board_with_its_coordinates(
    live_server: str, page: Page, watch: h.PageWatch, tray_param: str | None
) -> None:
    h.expect_empty_start(page, live_server, SET, tray_param, 100)
    for name in ("A0", "E5", "J9"):
        expect_mark(page, name, None)
    expect(page.locator("[data-alignment]")).to_have_count(0)
    expect(page.locator("[data-gain='1']")).to_have_text("0")
    expect(page.locator("[data-gain='2']")).to_have_text("0")
    # Letters above and below the columns, digits left and right of the rows, no words.
    texts = page.locator(".coords text").all_text_contents()
    assert sorted(texts) == sorted([*"ABCDEFGHIJ", *"0123456789"] * 2)
    a_top = page.locator(".coords text", has_text="A").first.bounding_box()
    a0 = h.cell(page, "A0").bounding_box()
    assert a_top is not None and a0 is not None
    assert a_top["y"] + a_top["height"] <= a0["y"] + 1
    assert a0["x"] < a_top["x"] + a_top["width"] / 2 < a0["x"] + a0["width"]


def test_marks_alignments_and_scores_are_drawn(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    t = tray("A0 B1 C2 D3 E4 D0 D1 D2 D4 A9", "J5 I6 H7 G8 F9 J0 J1 J2 J3 J4 B9")
    h.open_page(page, live_server, {"Tray": t, "Gain1": "A0E4D0D4", "Gain2": "F9J5J0J4"}, SET)
    assert h.states(page) == t
    assert page.evaluate("() => window.tournoyons.tray()") == t
    for name in ("A0", "D3", "A9"):
        expect_mark(page, name, 1)
    for name in ("J5", "F9", "B9"):
        expect_mark(page, name, 2)
    expect_mark(page, "C3", None)
    expect(page.locator("#btt-x")).to_have_css("stroke", INK[1])
    expect(page.locator("#btt-o")).to_have_css("stroke", INK[2])
    expect(page.locator("[data-alignment]")).to_have_count(4)
    expect_line(page, "A0E4", 1)  # diagonal
    expect_line(page, "D0D4", 1)  # column
    expect_line(page, "J5F9", 2)  # anti-diagonal, written from its top cell
    expect_line(page, "J0J4", 2)
    expect(page.locator("[data-gain='1']")).to_have_text("2")
    expect(page.locator("[data-gain='2']")).to_have_text("2")
    expect(page.locator("[data-error]")).to_have_count(0)
    # Lines do not catch the pointer.
    expect(page.locator(".lines")).to_have_css("pointer-events", "none")


def test_a_row_alignment_crosses_its_five_marks(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_page(page, live_server, {"Tray": SAMPLE, "Gain1": "D3H3", "Method": "End"}, SET)
    expect_line(page, "D3H3", 1)
    [[x1, y1], [x2, y2]] = page.locator("[data-alignment='D3H3']").evaluate(LINE_ENDS)
    assert abs(y1 - y2) < 0.5
    for name in ("D3", "E3", "F3", "G3", "H3"):
        box = h.cell(page, name).bounding_box()
        assert box is not None
        assert x1 < box["x"] + box["width"] / 2 < x2
        assert box["y"] < y1 < box["y"] + box["height"]


@pytest.mark.parametrize(
    ("gain1", "drawn"),
    [
        ("D3H3D3G3", ["D3H3"]),  # four cells
        ("D3H3E3I3", ["D3H3"]),  # shares cells in the same direction
        ("A0E0D3H3C", ["D3H3"]),  # not on the player's marks, and a piece left over
    ],
)
def test_bad_alignment_shows_an_error_and_is_not_drawn(
    live_server: str, page: Page, watch: h.PageWatch, gain1: str, drawn: list[str]
) -> None:
    h.open_page(page, live_server, {"Tray": SAMPLE, "Gain1": gain1, "Name1": "MissOne"}, SET)
    error = page.locator("[data-error]")
    expect(error).to_be_visible()
    assert (error.get_attribute("data-error") or "").split() == ["gain1"]
    codes = page.locator("[data-alignment]").evaluate_all(
        "ls => ls.map(l => l.getAttribute('data-alignment'))"
    )
    assert codes == drawn
    expect(page.locator("[data-gain='1']")).to_have_text(str(len(drawn)))
    assert h.states(page) == SAMPLE
    expect(page.locator("[data-name='1']")).to_have_text("MissOne")


@pytest.mark.parametrize(
    ("params", "name", "player"),
    [
        ({"Tray": "Init", "Move1": "E5"}, "E5", 1),
        ({"Tray": tray("E5"), "Move2": "J9"}, "J9", 2),
        ({"Tray": tray("E5", "A0"), "Move2": "A0"}, "A0", 2),  # already in the Tray
    ],
)
def test_move_puts_the_mark_and_marks_the_last_move(
    live_server: str, page: Page, watch: h.PageWatch, params: dict[str, str], name: str, player: int
) -> None:
    h.open_move(page, live_server, params, SET, name, player)
    # The last move's square is tinted in the player's ink; an ordinary mark's is not.
    tint = h.cell(page, name).locator("rect").evaluate("r => getComputedStyle(r).fill")
    assert tint.startswith(INK[player].replace("rgb(", "rgba(").rstrip(")"))
    plain = h.cell(page, "C7").locator("rect").evaluate("r => getComputedStyle(r).fill")
    assert plain != tint
    expect_mark(page, name, player)


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"Tray": tray("E5"), "Move2": "E5"}, "move2"),
        ({"Tray": "Init", "Move1": "K3"}, "move1"),
        ({"Tray": "0" * 99, "Input": "One"}, "tray"),
        ({"Tray": "3" + "0" * 99, "Input": "One"}, "tray"),
    ],
)
def test_unreadable_input_shows_an_error_and_still_draws_the_board(
    live_server: str, page: Page, watch: h.PageWatch, params: dict[str, str], code: str
) -> None:
    h.open_with_error(page, live_server, params, SET, code)
    h.expect_counts(page, {"[data-board] [data-cell]": 100, "[data-last-move]": 0})
    if code == "tray":
        assert h.states(page) == "0" * 100
        h.expect_nothing_playable(page, UNPLAYABLE)


# --- input --------------------------------------------------------------------------------


def test_input_plays_an_empty_cell_and_returns_it_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_returning(
        page, live_server, {"Tray": SAMPLE, "Move1": "H3", "Gain1": "D3H3", "Input": "Two"}, SET
    )
    expect(page.locator("[data-playable='true']")).to_have_count(SAMPLE.count("0"))
    for name in ("H3", "E4", "C5"):
        expect(h.cell(page, name)).not_to_have_attribute("data-playable", "true")
    expect(h.cell(page, "A0")).to_have_attribute("data-playable", "true")
    expect(page.locator("[data-player='2']")).to_have_attribute("data-turn", "true")
    # Under the pointer an empty cell shows the ring to be played, on a lit square.
    unlit = h.cell(page, "C7").locator("rect").evaluate("r => getComputedStyle(r).fill")
    h.cell(page, "C7").hover()
    expect(h.cell(page, "C7").locator("use")).to_have_css("opacity", "0.4")
    expect(h.cell(page, "C7").locator("use")).to_have_attribute("href", "#btt-o")
    assert h.cell(page, "C7").locator("rect").evaluate("r => getComputedStyle(r).fill") != unlit
    # A taken cell does nothing.
    h.cell(page, "E4").click(force=True)
    assert h.return_loads(page) == []

    h.cell(page, "C7").click()
    h.expect_last_move(page, "C7", 2)
    page.mouse.move(0, 0)
    expect_mark(page, "C7", 2)
    h.expect_single_return(page, live_server, tag, "C7")
    index = read_cell("C7")
    assert index is not None
    assert page.evaluate("() => window.tournoyons.tray()") == (
        SAMPLE[:index] + "2" + SAMPLE[index + 1 :]
    )


def test_rapid_clicks_on_two_cells_return_a_single_value(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_returning(page, live_server, {"Tray": "Init", "Input": "One"}, SET)
    page.evaluate("""() => ['B2', 'G7', 'B2'].forEach(n =>
        document.querySelector(`[data-cell="${n}"]`).dispatchEvent(
            new MouseEvent('click', {bubbles: true})))""")
    expect(h.cell(page, "B2")).to_have_attribute("data-state", "1")
    expect(h.cell(page, "G7")).to_have_attribute("data-state", "0")
    h.expect_single_return(page, live_server, tag, "B2")


def test_keyboard_arrows_and_enter_play_a_cell(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_returning(page, live_server, {"Tray": tray("A0", "B0"), "Input": "One"}, SET)
    h.press_to(page, h.cell(page, "C0"), "Tab")  # the first playable cell
    # The focused cell is ringed in the focus colour and previews the cross.
    expect(h.cell(page, "C0").locator("rect")).to_have_css("stroke", "rgb(124, 58, 237)")
    expect(h.cell(page, "C0").locator("use")).to_have_css("opacity", "0.4")
    h.press_to(page, h.cell(page, "B0"), "ArrowLeft")
    page.keyboard.press("Enter")  # a taken cell: nothing happens
    assert h.return_loads(page) == []
    h.press_to(page, h.cell(page, "A0"), "ArrowLeft", "ArrowLeft")  # the edge: focus stays
    h.press_to(page, h.cell(page, "A0"), "ArrowUp")
    h.press_to(page, h.cell(page, "A9"), *["ArrowDown"] * 9)
    h.press_to(page, h.cell(page, "A9"), "ArrowDown")  # the bottom edge
    h.press_to(page, h.cell(page, "E8"), *["ArrowRight"] * 4, "ArrowUp")
    page.keyboard.press("Enter")
    expect(h.cell(page, "E8")).to_have_attribute("data-state", "1")
    expect_mark(page, "E8", 1)
    h.expect_single_return(page, live_server, tag, "E8")
    # Input is over: keys no longer play.
    h.press(page, "ArrowRight", "Enter")
    expect(h.cell(page, "F8")).to_have_attribute("data-state", "0")
    assert len(h.return_loads(page)) == 1


def test_without_input_nothing_is_playable(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_page(page, live_server, {"Tray": SAMPLE, "URLReturn": "/return"}, SET)
    expect(page.locator("[data-turn]")).to_have_count(0)
    h.expect_nothing_playable(page, UNPLAYABLE)


# --- Methods ------------------------------------------------------------------------------


def test_method_end_shows_the_winner_and_takes_no_input(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    t = tray("A0 B0 C0 D0 E0 A2", "A1 B1 C1 D1 J9")
    h.open_page(
        page,
        live_server,
        {"Tray": t, "Gain1": "A0E0", "Method": "End", "Input": "Two", "URLReturn": "/return"},
        SET,
    )
    expect(page.locator("html")).to_have_attribute("data-method", "end")
    expect(page.locator("[data-board]")).to_have_attribute("data-winner", "1")
    expect(page.locator(".player[data-player='1']")).to_have_css(
        "background-color", "rgb(255, 240, 179)"
    )
    assert (
        page.locator(".player[data-player='2']").evaluate(
            "p => getComputedStyle(p).backgroundColor"
        )
        != "rgb(255, 240, 179)"
    )
    expect_line(page, "A0E0", 1)
    h.expect_nothing_playable(page, UNPLAYABLE)


def test_method_none_shows_names_and_scores_without_board(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_method_none(page, live_server, {"Tray": SAMPLE, "Gain1": "D3H3", "Input": "One"}, SET)
    expect(page.locator("[data-gain='1']")).to_be_visible()
    expect(page.locator("[data-gain='1']")).to_have_text("1")


# --- Wait ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_wait_shows_the_move_then_the_alignments_it_completed(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    t = tray(
        "D3 E3 F3 G3 H3 H4 H5 H6 H7 A0 B0 C0 D0 E0", "A9 B9 C9 D9 E9 J0 J1 J2 J3 J4 J5 J6 J7 J8"
    )
    asked = time.monotonic()
    page.goto(
        h.interface_url(
            live_server,
            {
                "Tray": t,
                "Move1": "H3",
                "Gain1": "A0E0D3H3H3H7",
                "Gain2": "A9E9J0J4",
                "Wait": "30",
                "Input": "Two",
            },
            SET,
        )
    )
    # First the move, the old alignments and scores; the new lines are not drawn yet. All
    # read at one instant, before the three seconds are over.
    first = page.evaluate(SNAPSHOT)
    assert first["ready"] == "false"
    assert first["lines"] == {
        "A0E0": ["1", "0.55"],
        "D3H3": ["", "0"],
        "H3H7": ["", "0"],
        "A9E9": ["2", "0.55"],
        "J0J4": ["2", "0.55"],
    }
    assert first["gains"] == ["1", "2"]
    assert first["playable"] == 0
    assert first["h3"] == ["1", "1", "1"]
    # Then, three seconds after, both lines, the score, and input.
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=8000)
    assert time.monotonic() - asked >= 2.9
    expect_line(page, "D3H3", 1)
    expect_line(page, "H3H7", 1)
    expect(page.locator("[data-gain='1']")).to_have_text("3")
    expect(page.locator("[data-playable='true']")).to_have_count(t.count("0"))
    page.wait_for_function("() => window.tournoyons.sounds.includes('win')")


# --- size ---------------------------------------------------------------------------------


def test_the_final_page_of_a_game_is_small(live_server: str, page: Page) -> None:
    moves = [c for pair in zip(ONE_CELLS, TWO_CELLS, strict=True) for c in pair]
    final = replay(moves)[-1].params  # 59 alignments
    answer = page.request.get(h.interface_url(live_server, {**final, "Name1": "MissOne"}, SET))
    assert answer.status == 200
    assert len(answer.body()) < 25_000


# --- a whole game in the tester ------------------------------------------------------------


@pytest.mark.slow
def test_hot_seat_game_through_the_tester(live_server: str, page: Page, watch: h.PageWatch) -> None:
    frame = h.start_hot_seat(page, live_server, SET)
    html = frame.locator("html")
    expect(frame.locator("[data-cell][data-state='0']")).to_have_count(100)

    moves = [c for pair in zip(ONE_CELLS, TWO_CELLS, strict=True) for c in pair]
    count = frame.locator("[data-count]")

    def check(number: int, scores: tuple[int, int]) -> None:
        """Assert what the page after ``number`` moves shows: the last move, the board, lines."""
        name, player = moves[number - 1], "1" if number % 2 else "2"
        expect(count).to_have_text(str(number))
        expect(html).to_have_attribute("data-ready", "true")
        last = frame.locator("[data-last-move]")
        expect(last).to_have_attribute("data-cell", name)
        expect(last).to_have_attribute("data-last-move", player)
        for p, score in zip((1, 2), scores, strict=True):
            expect(frame.locator(f"[data-gain='{p}']")).to_have_text(str(score))
            expect(frame.locator(f"[data-alignment][data-state='{p}']")).to_have_count(score)
        assert h.states(frame) == replay(moves[:number])[-1].params["Tray"]

    def click(first: int, last: int) -> None:
        """Play moves ``first``..``last`` (1-based) by clicking their cells."""
        for number in range(first, last + 1):
            # A click waits for the cell to take input (the page ready, the player asked).
            frame.locator(f"[data-cell='{moves[number - 1]}'][data-playable='true']").click()
            expect(count).to_have_text(str(number))

    def script(first: int, last: int) -> None:
        """Play moves ``first``..``last`` quickly: each as soon as its page takes input."""
        page.evaluate(PLAY_IN_TESTER, [moves[first - 1 : last], first - 1])
        expect(count).to_have_text(str(last))

    # Hand clicks at the start and the end, the middle played by script (a page load each).
    # Scores: rows 0 (moves 9, 10), then at E4/J4 the first columns and diagonals.
    click(1, 9)
    check(9, (1, 0))
    script(10, 10)
    check(10, (1, 1))
    script(11, 40)
    check(40, (4, 4))
    script(41, 63)
    check(63, (16, 16))
    script(64, 90)
    check(90, (24, 24))
    script(91, 94)
    click(95, 100)

    expect(html).to_have_attribute("data-method", "end")
    h.expect_counts(
        frame,
        {
            "[data-playable='true']": 0,
            "[data-alignment][data-state='1']": 29,
            "[data-alignment][data-state='2']": 30,
        },
    )
    expect(frame.locator("[data-gain='1']")).to_have_text("29")
    expect(frame.locator("[data-gain='2']")).to_have_text("30")
    expect(frame.locator("[data-board]")).to_have_attribute("data-winner", "2")
    drawn = frame.locator("[data-alignment][data-state='2']").evaluate_all(
        "ls => ls.map(l => l.getAttribute('data-alignment')).join('')"
    )
    assert drawn == KNOWN_GAIN2
    assert page.evaluate("() => window.tester.game().over") is True
    assert h.values_returned(page) == moves
