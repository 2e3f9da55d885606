"""What a match's page draws (``arbitre/web/match_chart.py``): the LLR's plot bounded
whatever the match's length, its extremes kept; the gauges' needles; the pentanomial
bars."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from tournoyons_gui.arbitre.web.match_chart import (
    MOST_POINTS,
    downsample,
    gauge,
    llr_chart,
    pentanomial_bars,
)


def walk(pairs: int, seed: int = 5) -> list[list[float]]:
    """Return an LLR history of ``pairs`` pairs: a random walk, two games a pair."""
    rng = random.Random(seed)
    value, history = 0.0, []
    for pair in range(1, pairs + 1):
        value += rng.choice((-0.21, -0.05, 0.0, 0.06, 0.2))
        history.append([2 * pair, round(value, 4)])
    return history


def points_of(chart: dict[str, Any]) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in str(chart["points"]).split())]


def test_a_short_history_is_drawn_whole_from_zero() -> None:
    history = [[2, 0.18], [4, 0.36], [6, -0.1]]
    chart = llr_chart(history, -2.94, 2.94)
    points = points_of(chart)
    assert chart["count"] == len(points) == 4 and chart["pairs"] == 3
    assert points[0] == (chart["left"], chart["zero_y"])
    assert points[-1] == (chart["right"], chart["last"]["y"])
    # Heights follow the values: 0.36 higher on the page than 0.18, -0.1 lower than 0.
    assert points[2][1] < points[1][1] < points[0][1] < points[3][1]
    assert chart["top"] < chart["upper_y"] < chart["zero_y"] < chart["lower_y"] < chart["bottom"]


def test_the_bounds_stay_in_sight_and_a_line_past_them_too() -> None:
    chart = llr_chart([[2, 5.0], [4, 7.5]], -2.94, 2.94)
    top, bottom = float(chart["top"]), float(chart["bottom"])
    points = points_of(chart)
    assert all(top <= y <= bottom for _, y in points)
    assert min(y for _, y in points) < float(chart["upper_y"])
    assert top <= float(chart["lower_y"]) <= bottom and top <= min(y for _, y in points)
    labels = [float(t["label"]) for t in chart["yticks"]]
    assert min(labels) <= 0 and max(labels) >= 5  # round values, both sides of the bounds


@pytest.mark.parametrize("pairs", [MOST_POINTS, 10_000])
def test_a_long_history_is_drawn_with_few_points_its_extremes_kept(pairs: int) -> None:
    history = walk(pairs)
    chart = llr_chart(history, -2.94, 2.94)
    points = points_of(chart)
    assert chart["pairs"] == pairs and len(points) == chart["count"] <= MOST_POINTS
    left, right = float(chart["left"]), float(chart["right"])
    top, bottom = float(chart["top"]), float(chart["bottom"])
    assert all(left <= x <= right and top <= y <= bottom for x, y in points)
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    # The highest and lowest LLR of the whole history are drawn.
    values = [v for _, v in history]
    drawn = [y for _, y in points]
    span = (float(chart["lower_y"]) - float(chart["upper_y"])) / (2 * 2.94)
    for value in (max(values), min(values)):
        expected = float(chart["zero_y"]) - value * span
        assert min(abs(y - expected) for y in drawn) < 0.11, value
    assert points[-1][0] == right


def test_downsampling_keeps_each_buckets_lowest_and_highest_in_order() -> None:
    points = [(float(i), math.sin(i / 7)) for i in range(2_000)]
    kept = downsample(points, 100)
    assert len(kept) <= 100 and kept[0] == points[0] and kept[-1] == points[-1]
    assert kept == sorted(kept)
    assert max(v for _, v in kept) == max(v for _, v in points)
    assert min(v for _, v in kept) == min(v for _, v in points)
    assert downsample(points[:50], 100) == points[:50]


def test_a_gauges_needle_points_at_its_value_and_stops_at_its_ends() -> None:
    middle = gauge(0.0, -2.94, 2.94)
    assert middle["fraction"] == 0.5 and not middle["clipped"]
    assert middle["tip_x"] == pytest.approx(middle["cx"]) and middle["tip_y"] < middle["cy"]
    low = gauge(-10.0, -2.94, 2.94)
    assert low["fraction"] == 0.0 and low["clipped"] and low["tip_x"] < low["cx"]
    high = gauge(75.0, 0, 100, zones=((0, 5, "h0"), (95, 100, "h1")))
    assert high["fraction"] == 0.75 and high["tip_x"] > high["cx"]
    assert [z["kind"] for z in high["zones"]] == ["h0", "h1"]


def test_the_pairs_bars_are_as_tall_as_their_counts() -> None:
    chart = pentanomial_bars([2, 0, 10, 5, 3])
    bars = chart["bars"]
    assert [b["label"] for b in bars] == ["0", "½", "1", "1½", "2"]
    tallest = bars[2]["height"]
    assert tallest == chart["baseline"] - 22  # the plot's whole height
    for bar, count in zip(bars, [2, 0, 10, 5, 3], strict=True):
        assert bar["height"] == pytest.approx(tallest * count / 10, abs=0.06)
        assert bar["y"] + bar["height"] == pytest.approx(chart["baseline"])
    assert chart["total"] == 20 and bars[2]["share"] == 0.5
    assert all(b["height"] == 0 for b in pentanomial_bars([0] * 5)["bars"])
