"""MasterMind in real Chromium against the real server: what a person sees and plays.

Spec ``interface-protocol.md`` sections 2, 3, 4 (MasterMind) and 6. Board 1 (left) holds
player one's code and player two's lines against it; board 2 player two's code and player
one's lines. Each board: its code ``[data-code]`` (``data-state`` ``hidden`` under the
cover, ``shown``, ``open`` while chosen) and lines ``[data-line="1"]``..``[data-line="8"]``
(``data-guess``, ``data-marks``), each peg a ``.peg[data-colour]`` and each mark a
``.mark[data-mark]`` (``well`` red, ``misplaced`` white). The person composes with the
palette ``[data-pick]`` and returns with ``[data-validate]``.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, FrameLocator, Locator, Page, expect

from tests.browser import helpers as h

SET = "MasterMind"
SAMPLE = {
    "Tray": "11BBCC00DEFA***21ABCD30AEBF",
    "Gain1": "GCCH",
    "Input": "One",
    "Name1": "MissOne",
    "Name2": "MrTwo",
    "Count": "6",
}

GOLD_SOFT = "rgb(255, 240, 179)"


def board(page: Page | FrameLocator, number: int) -> Locator:
    """Return board ``number`` (1: player one's code, 2: player two's)."""
    return page.locator(f"[data-board='{number}']")


def line(page: Page | FrameLocator, number: int, row: int) -> Locator:
    """Return line ``row`` (1..8) of board ``number``."""
    return board(page, number).locator(f"[data-line='{row}']")


def code(page: Page | FrameLocator, number: int) -> Locator:
    """Return the code row of board ``number``."""
    return board(page, number).locator("[data-code]")


# What a row shows, read in one call: per peg its colour when its face is drawn (and its hole
# hidden), " " for an empty hole, "!" for anything else; per mark R (red), W (white), "." (a
# hole) or "?" from the computed fill.
ROW_LOOK = """(row, fills) => ({
  pegs: [...row.querySelectorAll('.peg')].map(p => {
    const face = getComputedStyle(p.querySelector('.face')).display !== 'none';
    const hole = getComputedStyle(p.querySelector('.hole')).display !== 'none';
    const colour = p.getAttribute('data-colour');
    if (face && !hole && p.querySelector('.face').getAttribute('href') === '#mm-' + colour)
      return colour;
    return hole && !face && colour === '' ? ' ' : '!';
  }).join(''),
  marks: [...row.querySelectorAll('.mark')].map(m => fills[getComputedStyle(m).fill] || '?')
    .join(''),
})"""
MARK_FILLS = {"rgb(208, 32, 42)": "R", "rgb(251, 251, 246)": "W", "rgb(42, 26, 16)": "."}


def look(row: Locator) -> dict[str, str]:
    """Return what ``row`` shows: ``{"pegs": "AB  ", "marks": "RW.."}``."""
    shown: dict[str, str] = row.evaluate(ROW_LOOK, MARK_FILLS)
    return shown


def expect_pegs(row: Locator, colours: str) -> None:
    """Assert that ``row`` visibly holds ``colours`` (``" "``: an empty hole) in its 4 holes."""
    assert look(row)["pegs"] == colours


def expect_marks(row: Locator, well: int, misplaced: int) -> None:
    """Assert that ``row`` shows ``well`` red marks, then ``misplaced`` white ones."""
    assert look(row)["marks"] == "R" * well + "W" * misplaced + "." * (4 - well - misplaced)


def expect_covered(page: Page | FrameLocator, number: int) -> None:
    """Assert that board ``number``'s code is under its cover, and not in the page."""
    row = code(page, number)
    expect(row).to_have_attribute("data-state", "hidden")
    expect(row.locator(".cover")).to_have_css("opacity", "1")
    expect(row.locator(".shield")).to_be_visible()
    expect(row.locator(".peg[data-colour='']")).to_have_count(4)
    expect(row).not_to_have_attribute("data-colours", "")


def expect_code_shown(page: Page | FrameLocator, number: int, colours: str) -> None:
    """Assert that board ``number`` shows its code ``colours``, the cover drawn away."""
    row = code(page, number)
    expect(row).to_have_attribute("data-state", "shown")
    expect(row).to_have_attribute("data-colours", colours)
    expect(row.locator(".cover")).to_have_css("opacity", "0")
    expect_pegs(row, colours)


def validate(page: Page | FrameLocator) -> Locator:
    """Return the validate control."""
    return page.locator("[data-validate]")


def compose(page: Page | FrameLocator, colours: str) -> None:
    """Click the palette's ``colours`` in turn (each fills the selected hole, then the next)."""
    for colour in colours:
        page.locator(f"[data-pick='{colour}']").click()


def expect_single_return(page: Page, base: str, tag: str, value: str) -> None:
    """Assert that the page returned ``value`` once, and takes no more input: neither from
    the palette nor from the person asked."""
    h.expect_single_return(page, base, tag, value)
    expect(page.locator("[data-pick][aria-disabled='true']")).to_have_count(8)
    expect(page.locator("html")).not_to_have_attribute("data-input", "1")
    expect(page.locator("html")).not_to_have_attribute("data-input", "2")


# --- drawing the Tray and the codes --------------------------------------------------------


def test_sample_draws_both_boards_with_lines_marks_and_codes(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_page(page, live_server, SAMPLE, SET)
    expect(page.locator("html")).to_have_attribute("data-set", "MasterMind")
    expect(page.locator("[data-board]")).to_have_count(2)
    for number in (1, 2):
        expect(board(page, number).locator("[data-line]")).to_have_count(8)
    # Board 1: player two's lines against player one's code, which player one sees.
    expect_pegs(line(page, 1, 1), "BBCC")
    expect_marks(line(page, 1, 1), 1, 1)
    expect_pegs(line(page, 1, 2), "DEFA")
    expect_marks(line(page, 1, 2), 0, 0)
    expect_code_shown(page, 1, "GCCH")
    # Board 2: player one's lines; player two's code stays covered.
    expect_pegs(line(page, 2, 1), "ABCD")
    expect_marks(line(page, 2, 1), 2, 1)
    expect_pegs(line(page, 2, 2), "AEBF")
    expect_marks(line(page, 2, 2), 3, 0)
    expect_covered(page, 2)
    # Empty lines are drawn as empty holes.
    for row in range(3, 9):
        expect(line(page, 1, row)).to_have_attribute("data-state", "empty")
        expect_pegs(line(page, 1, row), "    ")
        expect_marks(line(page, 1, row), 0, 0)
    # The line player two played last is marked.
    expect(page.locator("[data-last-move]")).to_have_count(1)
    expect(line(page, 1, 2)).to_have_attribute("data-last-move", "2")
    expect(page.locator("[data-error]")).to_have_count(0)
    assert page.evaluate("() => [tournoyons.tray(), Webmaster('tray')]") == [SAMPLE["Tray"]] * 2
    h.expect_texts(page, {"Name1": "MissOne", "Count": "6"})


def test_each_colour_has_its_own_hue_and_its_own_glyph(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_page(page, live_server, {"Tray": "00ABCD00EFGH***", "Input": "One"}, SET)
    looks = page.evaluate("""() => [...'ABCDEFGH'].map(c => {
        const symbol = document.getElementById('mm-' + c);
        const glyph = symbol.querySelector('.glyph');
        return {body: getComputedStyle(symbol.querySelector('.body')).fill,
                glyph: glyph.tagName + (glyph.getAttribute('d') || '') +
                       (glyph.getAttribute('transform') || '') + (glyph.getAttribute('class')),
                glyphFill: getComputedStyle(glyph).fill};
    })""")
    assert len({look["body"] for look in looks}) == 8
    # A shape per colour, so that no two colours differ by hue alone.
    assert len({look["glyph"] for look in looks}) == 8
    assert all(look["glyph"] for look in looks)
    expect_pegs(line(page, 1, 1), "ABCD")
    expect_pegs(line(page, 1, 2), "EFGH")
    for colour in "ABCDEFGH":
        swatch = page.locator(f"[data-pick='{colour}'] use")
        expect(swatch).to_be_visible()
        expect(swatch).to_have_attribute("href", f"#mm-{colour}")


def test_the_opponents_code_is_not_in_the_page_of_the_person_asked(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_page(page, live_server, {**SAMPLE, "Gain2": "AEBD"}, SET)
    expect_code_shown(page, 1, "GCCH")
    expect_covered(page, 2)
    assert "AEBD" not in page.content().replace("21ABCD30AEBF", "")
    # A spectator (no Input) sees both codes.
    spectator = {k: v for k, v in SAMPLE.items() if k != "Input"}
    h.open_page(page, live_server, {**spectator, "Gain2": "AEBD"}, SET)
    expect_code_shown(page, 1, "GCCH")
    expect_code_shown(page, 2, "AEBD")
    expect(page.locator("[data-pick]")).to_have_count(0)


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "error"),
    [
        ({"Tray": "11BBCC00DEFA"}, "tray"),  # no ***
        ({"Tray": "11BBC***"}, "tray"),  # a line of the wrong length
        ({"Tray": "11BBCZ***"}, "tray"),  # an unknown colour
        ({"Tray": "***32ABCD"}, "tray"),  # marks above 4
        ({"Tray": "00ABCD" * 9 + "***"}, "tray"),  # more than 8 lines
        ({"Tray": "***", "Gain1": "ABCX"}, "gain1"),
        ({"Tray": "<b>***</b>", "Gain2": "<i>"}, "tray"),
    ],
)
def test_bad_input_shows_an_error_sign_and_never_breaks(
    live_server: str, page: Page, watch: h.PageWatch, params: dict[str, str], error: str
) -> None:
    h.open_with_error(
        page, live_server, {**params, "Input": "One", "URLReturn": "/return"}, SET, error
    )
    expect(page.locator("[data-board]")).to_have_count(2)
    expect_covered(page, 1)
    if error == "tray":
        h.expect_counts(page, {"[data-line][data-state='empty']": 16, "[data-pick]": 0})
        assert page.evaluate("() => tournoyons.tray()") == "***"
        assert page.evaluate("() => tournoyons.play('00ABCD')") is False
    assert h.return_loads(page) == []


# --- composing a guess ----------------------------------------------------------------------


def test_a_guess_composed_with_the_mouse_is_returned_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_returning(page, live_server, {"Tray": "***", "Gain1": "GCCH", "Input": "One"}, SET)
    expect(page.locator("html")).to_have_attribute("data-input", "1")
    expect(page.locator(".player[data-player='1']")).to_have_attribute("data-turn", "true")
    # Player one composes on line 1 of board 2 (player two's code), from empty holes.
    target = line(page, 2, 1)
    expect(target).to_have_attribute("data-composing", "true")
    expect_pegs(target, "    ")
    expect(validate(page)).to_have_attribute("aria-disabled", "true")
    expect(page.locator("[data-playable='true']")).to_have_count(0)
    validate(page).click(force=True)  # incomplete: the empty holes are shown, nothing returned
    expect(target.locator(".peg[data-missing='true']")).to_have_count(4)
    compose(page, "BCC")
    expect_pegs(target, "BCC ")
    expect(page.locator("[data-playable='true']")).to_have_count(0)
    # A hole is chosen by a click (anywhere on it, not only on its centre); the next colour
    # goes there.
    target.locator("[data-peg='2']").click(position={"x": 9, "y": 24})
    expect(target.locator("[data-peg='2']")).to_have_attribute("data-selected", "true")
    compose(page, "G")
    expect_pegs(target, "BGC ")
    compose(page, "H")  # then the next empty hole
    expect_pegs(target, "BGCH")
    expect(validate(page)).to_have_attribute("data-playable", "true")
    expect(validate(page)).to_have_attribute("data-value", "00BGCH")
    validate(page).dblclick()
    expect_single_return(page, live_server, tag, "00BGCH")
    # The line is played: its pegs stay, its marks are the Arbitre's to give.
    expect(target).to_have_attribute("data-state", "played")
    expect(target).to_have_attribute("data-last-move", "1")
    expect_pegs(target, "BGCH")
    expect_marks(target, 0, 0)
    assert page.evaluate("() => tournoyons.tray()") == "***00BGCH"
    # Nothing changes it any more.
    page.locator("[data-pick='A']").click(force=True)
    target.locator("[data-peg='1']").click(force=True)
    page.keyboard.press("d")
    expect_pegs(target, "BGCH")
    assert len(h.return_loads(page)) == 1


def test_a_guess_composed_by_touch_is_returned_once(live_server: str, browser: Browser) -> None:
    tag = h.new_tag()
    context = browser.new_context(has_touch=True, viewport={"width": 736, "height": 660})
    try:
        touch = context.new_page()
        watcher = h.PageWatch(touch)
        h.open_page(touch, live_server, {**SAMPLE, "URLReturn": h.sink(live_server, tag)}, SET)
        target = line(touch, 2, 3)
        target.locator("[data-peg='3']").tap()
        touch.locator("[data-pick='H']").tap()
        expect_pegs(target, "AEHF")
        validate(touch).tap()
        validate(touch).tap(force=True)
        expect_single_return(touch, live_server, tag, "00AEHF")
        assert watcher.errors == []
    finally:
        context.close()


def test_the_previous_guess_is_where_the_next_one_starts(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_returning(page, live_server, SAMPLE, SET)
    target = line(page, 2, 3)
    expect(target).to_have_attribute("data-composing", "true")
    expect_pegs(target, "AEBF")
    expect_pegs(line(page, 2, 2), "AEBF")
    expect(validate(page)).to_have_attribute("data-value", "00AEBF")
    target.locator("[data-peg='4']").click()
    compose(page, "D")
    expect_pegs(target, "AEBD")
    # The erase control empties the selected hole: the guess cannot be returned.
    target.locator("[data-peg='1']").click()
    page.locator("[data-erase]").click()
    expect_pegs(target, " EBD")
    expect(page.locator("[data-playable='true']")).to_have_count(0)
    compose(page, "A")
    expect(validate(page)).to_have_attribute("data-value", "00AEBD")
    validate(page).click(click_count=3)
    expect_single_return(page, live_server, tag, "00AEBD")
    assert page.evaluate("() => tournoyons.tray()") == SAMPLE["Tray"] + "00AEBD"


def test_the_keyboard_composes_and_validates_and_enter_held_returns_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_returning(
        page, live_server, {"Tray": "00EEEE***00FFFF", "Gain2": "ABCD", "Input": "Two"}, SET
    )
    target = line(page, 1, 2)  # player two plays on player one's board
    expect(target).to_have_attribute("data-composing", "true")
    expect_pegs(target, "EEEE")
    # Tab reaches the selected hole first, then the palette: arrows move in it, Enter puts
    # the colour in the hole.
    h.press_to(page, target.locator("[data-peg='1']"), "Tab")
    h.press_to(page, page.locator("[data-pick='A']"), "Tab")
    h.press_to(page, page.locator("[data-pick='D']"), "ArrowRight", "ArrowDown")
    page.keyboard.press("Enter")
    expect_pegs(target, "DEEE")
    # Letters and digits put colours in the selected hole.
    h.press(page, "b", "8")
    expect_pegs(target, "DBHE")
    # Back to the holes: arrows choose a hole, up and down change its colour.
    h.press_to(page, target.locator("[data-peg='4']"), "Shift+Tab")
    page.keyboard.press("ArrowUp")
    expect_pegs(target, "DBHF")
    h.press(page, "ArrowDown", "ArrowDown")
    expect_pegs(target, "DBHD")
    h.press_to(page, target.locator("[data-peg='3']"), "ArrowLeft")
    page.keyboard.press("Backspace")
    expect_pegs(target, "DB D")
    page.keyboard.press("Enter")  # incomplete: nothing returned
    expect(target.locator(".peg[data-missing='true']")).to_have_count(1)
    h.press(page, "Delete", "Home", "g")
    expect_pegs(target, "GB D")
    page.keyboard.press("a")  # the next empty hole
    expect_pegs(target, "GBAD")
    assert h.return_loads(page) == []
    h.hold_enter(page)
    expect_single_return(page, live_server, tag, "00GBAD")
    assert page.evaluate("() => tournoyons.tray()") == "00EEEE00GBAD***00FFFF"
    h.press(page, "c", "Enter")
    expect_pegs(target, "GBAD")
    assert len(h.return_loads(page)) == 1


def test_play_checks_the_syntax_of_a_guess(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_returning(page, live_server, {"Tray": "***", "Input": "One"}, SET)
    results = page.evaluate("""() => ['ABCD', '00ABC', '00ABCI', '10ABCD', '00abcd', '',
                                      '00ABCD', '00ABCD', '00EFGH'].map(v => tournoyons.play(v))""")
    assert results == [False] * 6 + [True, False, False]
    expect_single_return(page, live_server, tag, "00ABCD")
    expect_pegs(line(page, 2, 1), "ABCD")


@pytest.mark.parametrize(
    "params",
    [
        {"Tray": "***40ABCD", "Input": "One"},  # found: nothing more to guess
        {"Tray": "00ABCD" * 8 + "***" + "00ABCD" * 8, "Input": "One"},  # a full board
        {"Tray": "***00ABCD"},  # no Input
    ],
)
def test_no_guess_when_nothing_can_be_played(
    live_server: str, page: Page, watch: h.PageWatch, params: dict[str, str]
) -> None:
    h.open_page(page, live_server, {**params, "URLReturn": "/return"}, SET)
    h.expect_counts(page, {"[data-pick]": 0, "[data-composing]": 0})
    expect(page.locator("html")).not_to_have_attribute("data-input", "1")
    h.press(page, "a", "Enter")
    assert page.evaluate("() => tournoyons.play('00ABCD')") is False
    assert h.return_loads(page) == []


# --- Prepare --------------------------------------------------------------------------------


def test_prepare_returns_the_chosen_code_once(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_returning(
        page,
        live_server,
        {
            "Method": "Prepare",
            "Input": "Two",
            "Tray": "Init",
            "Gain1": "GCCH",
            "Legend": "Your code",
        },
        SET,
    )
    expect(page.locator("html")).to_have_attribute("data-method", "prepare")
    expect(page.locator("html")).to_have_attribute("data-input", "2")
    expect(page.locator("[data-legend]")).to_have_text("Your code")
    # Player two chooses on their own board; player one's code is not shown to them.
    row = code(page, 2)
    expect(row).to_have_attribute("data-state", "open")
    expect(row).to_have_attribute("data-composing", "true")
    expect_pegs(row, "    ")
    expect_covered(page, 1)
    assert "GCCH" not in page.content()
    expect(page.locator("[data-line][data-state='empty']")).to_have_count(16)
    compose(page, "HAH")
    expect(page.locator("[data-playable='true']")).to_have_count(0)
    page.keyboard.press("e")
    expect_pegs(row, "HAHE")
    expect(validate(page)).to_have_attribute("data-value", "HAHE")
    validate(page).dblclick()
    expect_single_return(page, live_server, tag, "HAHE")
    # The code closes under its cover; the Tray is unchanged.
    expect(row).to_have_attribute("data-state", "closed")
    expect(row.locator(".shield")).to_be_visible()
    assert page.evaluate("() => tournoyons.tray()") == "***"


def test_prepare_without_input_asks_player_one_and_checks_the_code(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    tag = h.open_returning(page, live_server, {"Method": "Prepare"}, SET)
    expect(page.locator("html")).to_have_attribute("data-input", "1")
    expect(code(page, 1)).to_have_attribute("data-composing", "true")
    expect_covered(page, 2)
    results = page.evaluate(
        "() => ['00ABCD', 'ABC', 'ABCI', 'abcd', 'ABCD', 'EFGH'].map(v => tournoyons.play(v))"
    )
    assert results == [False] * 4 + [True, False]
    expect_single_return(page, live_server, tag, "ABCD")
    expect_pegs(code(page, 1), "ABCD")


# --- End, None, Wait ---------------------------------------------------------------------------


def test_method_end_reveals_both_codes_and_the_winner(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    h.open_page(
        page,
        live_server,
        {
            "Method": "End",
            "Tray": "11BBCC00DEFA20GCFF***21ABCD30AEBF40AEBD",
            "Gain1": "GCCH",
            "Gain2": "AEBD",
            "Input": "One",
            "URLReturn": "/return",
        },
        SET,
    )
    expect(page.locator("html")).to_have_attribute("data-method", "end")
    expect_code_shown(page, 1, "GCCH")
    expect_code_shown(page, 2, "AEBD")
    # Player one found on line 3: that line is in gold, the winner's name too.
    found = line(page, 2, 3)
    expect(found).to_have_attribute("data-found", "true")
    expect(found.locator(".row")).to_have_css("fill", GOLD_SOFT)
    expect_marks(found, 4, 0)
    expect(page.locator(".mm")).to_have_attribute("data-winner", "1")
    expect(page.locator("[data-result='1'] .star")).to_be_visible()
    expect(page.locator(".player[data-player='1']")).to_have_css("background-color", GOLD_SOFT)
    h.expect_counts(page, {"[data-pick]": 0, "[data-playable]": 0})
    assert page.evaluate("() => tournoyons.play('00ABCD')") is False


def test_method_end_of_a_draw(live_server: str, page: Page, watch: h.PageWatch) -> None:
    h.open_page(
        page, live_server, {"Method": "End", "Tray": "00ABCD" * 8 + "***" + "00ABCD" * 8}, SET
    )
    expect(page.locator(".mm")).to_have_attribute("data-winner", "0")
    expect(page.locator("[data-result='draw'] .equal")).to_be_visible()
    expect(page.locator("[data-found]")).to_have_count(0)
    expect_covered(page, 1)  # codes not given stay covered


def test_method_none_shows_no_board(live_server: str, page: Page, watch: h.PageWatch) -> None:
    h.open_page(page, live_server, {**SAMPLE, "Method": "None", "Legend": "Next game"}, SET)
    expect(page.locator("html")).to_have_attribute("data-method", "none")
    h.expect_counts(page, {"[data-board]": 0, "[data-line]": 0})
    h.expect_texts(page, {"Legend": "Next game", "Name2": "MrTwo"})
    assert page.evaluate("() => tournoyons.play('00ABCD')") is False


def test_wait_shows_the_marks_of_the_last_line_after_its_pegs(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    asked = time.monotonic()
    page.goto(h.interface_url(live_server, {"Tray": "11BBCC***21ABCD", "Wait": "15"}, SET))
    last = line(page, 1, 1)
    expect(last).to_have_attribute("data-last-move", "2")
    expect(page.locator("html")).to_have_attribute("data-ready", "false")
    expect(last.locator(".marks")).to_have_attribute("data-state", "pending")
    expect_pegs(last, "BBCC")
    expect_marks(last, 0, 0)
    expect_marks(line(page, 2, 1), 2, 1)  # an earlier line: its marks are there
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=5000)
    assert time.monotonic() - asked >= 1.4
    expect(last.locator(".marks")).to_have_attribute("data-state", "shown")
    expect_marks(last, 1, 1)


def test_input_comes_after_the_wait(live_server: str, page: Page, watch: h.PageWatch) -> None:
    tag = h.open_returning(page, live_server, {**SAMPLE, "Wait": "8"}, SET)
    expect(line(page, 2, 3)).to_have_attribute("data-composing", "true")
    # the selected hole, the palette, the validate control
    h.press_to(page, validate(page), *["Tab"] * 3)
    page.keyboard.press("Enter")
    expect_single_return(page, live_server, tag, "00AEBF")


# --- a whole game in the tester ----------------------------------------------------------------


@pytest.mark.slow
def test_a_whole_hot_seat_game_in_the_tester(
    live_server: str, page: Page, watch: h.PageWatch
) -> None:
    page.set_default_timeout(5000)
    frame = h.start_hot_seat(page, live_server, SET)
    html = frame.locator("html")
    log = page.locator("#log li")

    def turn(count: int, method: str, player: int) -> None:
        expect(frame.locator("[data-count]")).to_have_text(str(count))
        expect(html).to_have_attribute("data-ready", "true")
        expect(html).to_have_attribute("data-method", method)
        expect(html).to_have_attribute("data-input", str(player))
        expect(log).to_have_count(count)

    # Player one prepares a code; player two then prepares without seeing it.
    turn(0, "prepare", 1)
    expect(code(frame, 1)).to_have_attribute("data-composing", "true")
    compose(frame, "GCCH")
    validate(frame).click()
    turn(1, "prepare", 2)
    expect_covered(frame, 1)
    assert "Gain1" not in h.frame_query(page)
    compose(frame, "AEB")
    frame.locator("[data-pick='D']").press("Enter")  # the keyboard, for once
    validate(frame).press("Enter")
    # Guesses: player one at player two's code (board 2), then player two at one's.
    turn(2, "standard", 1)
    expect_code_shown(frame, 1, "GCCH")
    expect_covered(frame, 2)
    expect(line(frame, 2, 1)).to_have_attribute("data-composing", "true")
    compose(frame, "ABCD")
    validate(frame).click()
    turn(3, "standard", 2)
    expect_pegs(line(frame, 2, 1), "ABCD")
    expect_marks(line(frame, 2, 1), 2, 1)
    expect_covered(frame, 1)
    expect_code_shown(frame, 2, "AEBD")
    expect(line(frame, 1, 1)).to_have_attribute("data-composing", "true")
    compose(frame, "BBCC")
    validate(frame).click()
    turn(4, "standard", 1)
    expect_marks(line(frame, 1, 1), 1, 1)
    expect_pegs(line(frame, 2, 2), "ABCD")  # player one's last guess, to change
    line(frame, 2, 2).locator("[data-peg='2']").click()
    compose(frame, "EB")
    validate(frame).click()
    # Player one found on line 2: player two still plays line 2, and finds too.
    turn(5, "standard", 2)
    expect(line(frame, 2, 2)).to_have_attribute("data-found", "true")
    expect_marks(line(frame, 2, 2), 4, 0)
    compose(frame, "GCCH")
    validate(frame).click()
    expect(frame.locator("[data-count]")).to_have_text("6")
    expect(html).to_have_attribute("data-method", "end")
    expect(html).to_have_attribute("data-ready", "true")
    expect(frame.locator(".mm")).to_have_attribute("data-winner", "0")  # a draw
    expect(line(frame, 1, 2)).to_have_attribute("data-found", "true")
    expect_code_shown(frame, 1, "GCCH")
    expect_code_shown(frame, 2, "AEBD")
    expect(frame.locator("[data-playable]")).to_have_count(0)
    assert h.frame_query(page)["Tray"] == "11BBCC40GCCH***21ABCD40AEBD"
    assert page.evaluate("() => window.tester.game().over") is True
    assert h.values_returned(page) == ["GCCH", "AEBD", "00ABCD", "00BBCC", "00AEBD", "00GCCH"]
