"""Who meets whom on the ladder (arbitre/ladder/pairing.py, pure), the owner's settings'
bounds (arbitre/ladder/settings.py) and the leaderboard's sparkline (arbitre/web/chart.py),
without a server."""

from __future__ import annotations

import datetime as dt

import pytest

from tournoyons_gui.arbitre.ladder import MAX_CONCURRENCY, MAX_REST, Waiting, pairings, window
from tournoyons_gui.arbitre.ladder.pairing import BETA, FILLER, WIDEN_EVERY
from tournoyons_gui.arbitre.ladder.settings import (
    DEFAULT_GAMES,
    MAX_GAMES,
    check_concurrency,
    check_ladder,
    check_rest,
)
from tournoyons_gui.arbitre.match import DEFAULT_TIMEOUT, MAX_TIMEOUT, MIN_TIMEOUT
from tournoyons_gui.arbitre.web.chart import sparkline
from tournoyons_gui.server.cli import common

NOW = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


def engine(
    name: str,
    mu: float = 25.0,
    *,
    sigma: float = 2.0,
    games: int = 0,
    held: int = 0,
    concurrency: int = 1,
    rest: float | None = None,
    waited: float = 0.0,
) -> Waiting:
    """An engine on the ladder: ``rest`` seconds of rest left, ``waited`` seconds waited."""
    rest_until = None if rest is None else NOW + dt.timedelta(seconds=rest)
    since = NOW - dt.timedelta(seconds=waited)
    return Waiting(name, mu, sigma, games, held, concurrency, rest_until, since)


def test_the_fewest_games_play_first_with_the_nearest_in_rating() -> None:
    engines = [
        engine("a", 25, games=9),
        engine("b", 30, games=1),
        engine("c", 31, games=5),
        engine("d", 20, games=3),
    ]
    # b (fewest games) meets c (nearest); then d (fewer games than a) meets a.
    assert pairings(engines, now=NOW, room=4) == [("b", "c"), ("d", "a")]
    # Room for one pair only: the fewest games' first.
    assert pairings(engines, now=NOW, room=1) == [("b", "c")]
    assert pairings(engines, now=NOW, room=0) == []


def test_an_engine_never_meets_itself_nor_plays_beyond_its_slots_or_in_its_rest() -> None:
    assert pairings([engine("a"), engine("a")], now=NOW, room=4) == []
    assert pairings([engine("a")], now=NOW, room=4) == []
    busy = [engine("a", held=1), engine("b"), engine("c", rest=30), engine("d", rest=-1)]
    # a holds its one slot, c rests: b meets d, whose rest is over.
    assert pairings(busy, now=NOW, room=4) == [("b", "d")]
    # An engine of concurrency 2 holding one pair may be in one more, not in two more at once.
    wide = [engine("a", held=1, concurrency=2), engine("b"), engine("c")]
    made = pairings(wide, now=NOW, room=4)
    assert len(made) == 1 and "a" in made[0]


def test_the_window_widens_with_waiting_as_lichess_pools_do() -> None:
    near, far = engine("a", 25), engine("b", 25 + 3 * BETA)
    base = window(near, far, NOW)
    assert base == pytest.approx(2 * BETA + 2 + 2)
    # Too far apart at first: they wait.
    assert pairings([near, far], now=NOW, room=4) == []
    # The longer waiter's wait widens the window: doubled after WIDEN_EVERY seconds.
    waited = engine("b", 25 + 3 * BETA, waited=WIDEN_EVERY)
    assert window(near, waited, NOW) == pytest.approx(2 * base)
    # (b, who waited longer, is taken first.)
    assert pairings([near, waited], now=NOW, room=4) == [("b", "a")]
    # Uncertain ratings (new engines) are near: sigma counts in the window.
    new = [engine("a", 25, sigma=8.3), engine("b", 25 + 3 * BETA, sigma=8.3)]
    assert pairings(new, now=NOW, room=4) == [("a", "b")]


def test_tables_of_four_take_the_nearest_three_and_fill_the_rest() -> None:
    engines = [engine(name, mu) for name, mu in (("a", 25), ("b", 26), ("c", 24), ("d", 27))]
    engines.append(engine("e", 60))
    assert pairings(engines, now=NOW, room=4, seats=4) == [("a", "b", "c", "d")]
    # Two engines alone sit with two of the Set's built-in engines; one alone waits.
    assert pairings(engines[:2], now=NOW, room=4, seats=4) == [("a", "b", FILLER, FILLER)]
    assert pairings(engines[:1], now=NOW, room=4, seats=4) == []


def test_the_settings_are_bounded_and_the_command_line_says_the_same() -> None:
    assert check_ladder(True) is True and check_ladder(False) is False
    assert check_concurrency(1) == 1 and check_concurrency(MAX_CONCURRENCY) == MAX_CONCURRENCY
    assert check_rest(0) == 0 and check_rest(MAX_REST) == MAX_REST
    for bad, check, field in (
        ("yes", check_ladder, "ladder"),
        (1, check_ladder, "ladder"),
        (0, check_concurrency, "ladder_concurrency"),
        (9, check_concurrency, "ladder_concurrency"),
        (True, check_concurrency, "ladder_concurrency"),
        (2.0, check_concurrency, "ladder_concurrency"),
        (-1, check_rest, "ladder_rest"),
        (MAX_REST + 1, check_rest, "ladder_rest"),
    ):
        with pytest.raises(ValueError, match=f"^{field} is"):
            check(bad)
    # The command line imports nothing but the standard library: its copies must agree.
    assert (common.DEFAULT_LADDER_GAMES, common.MAX_LADDER_GAMES) == (DEFAULT_GAMES, MAX_GAMES)
    assert (common.DEFAULT_TIMEOUT, common.MIN_TIMEOUT, common.MAX_TIMEOUT) == (
        DEFAULT_TIMEOUT,
        MIN_TIMEOUT,
        MAX_TIMEOUT,
    )


def test_a_sparkline_spans_its_box() -> None:
    assert sparkline([]) is None and sparkline([3.0]) is None
    line = sparkline([0.0, 10.0, 5.0], width=12, height=12)
    assert line is not None
    assert line["points"] == "1.0,11.0 6.0,1.0 11.0,6.0"
    assert (line["first"], line["last"], line["low"], line["high"]) == (0.0, 5.0, 0.0, 10.0)
    flat = sparkline([2.0, 2.0], width=12, height=12)
    assert flat is not None and flat["points"] == "1.0,1.0 11.0,1.0"
