"""What a match's page draws, as numbers its template writes into SVG (server-side, readable
without JavaScript): the SPRT's LLR pair by pair between its two bounds, the LLR's and the
LOS's gauges, and the pentanomial counts as bars. Pure: figures in, coordinates out.

The LLR plot is bounded whatever the match's length: past :data:`MOST_POINTS` points the
history is cut into buckets of consecutive pairs and each bucket keeps its lowest and its
highest point (in their order), so every excursion towards a bound is still drawn, as
fishtest's and OpenBench's plots keep the curve's extremes (M4 downsampling: Jugel et al.,
"M4: A Visualization-Oriented Time Series Data Aggregation", VLDB 2014, keeps each
bucket's first, last, lowest and highest; its first and last add nothing to a line this
dense). The gauges are half dials as fishtest shows an SPRT's LLR and LOS: the needle at
the value, the ends the bounds (the LLR's) or 0 and 100 % (the LOS's).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from tournoyons_gui.arbitre.web.chart import box, ticks

__all__ = ["MOST_POINTS", "downsample", "gauge", "llr_chart", "pentanomial_bars"]

#: The most points of the LLR's line, whatever the pairs' count.
MOST_POINTS = 400
#: The pentanomial outcomes' labels: a pair's points for the first entrant.
PAIR_LABELS = ("0", "½", "1", "1½", "2")


def downsample(
    points: Sequence[tuple[float, float]], most: int = MOST_POINTS
) -> list[tuple[float, float]]:
    """Return at most ``most`` (4 or more) of ``points`` (x increasing), in order: all of
    them when they are that few, else the first, the last and each bucket's lowest and
    highest (see the module)."""
    if len(points) <= most:
        return list(points)
    inner = points[1:-1]
    buckets = max(1, (most - 2) // 2)
    size = math.ceil(len(inner) / buckets)
    kept = [points[0]]
    for start in range(0, len(inner), size):
        bucket = inner[start : start + size]
        low = min(range(len(bucket)), key=lambda i: bucket[i][1])
        high = max(range(len(bucket)), key=lambda i: bucket[i][1])
        kept += [bucket[i] for i in sorted({low, high})]
    kept.append(points[-1])
    return kept


def llr_chart(
    history: Sequence[Sequence[float]],
    lower: float,
    upper: float,
    *,
    width: int = 640,
    height: int = 260,
) -> dict[str, Any]:
    """Return the LLR plot of an SPRT: ``history`` its ``[games, llr]`` after each pair
    completed (the match document's ``sprt.history``), ``lower`` and ``upper`` its bounds.
    The line starts at 0 games, LLR 0; the y axis always shows both bounds. Returns the
    box (``left``, ``right``, ``top``, ``bottom``), the line (``points``, SVG's list, and
    ``count``), the bounds' and zero's heights (``lower_y``, ``upper_y``, ``zero_y``), the
    axes' ``xticks`` and ``yticks``, and the last point (``last``)."""
    left, right, top, bottom = 52, 16, 14, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    points = [(0.0, 0.0), *((float(g), float(v)) for g, v in history)]
    values = [v for _, v in points]
    low = min(lower, *values)
    high = max(upper, *values)
    margin = (high - low) * 0.06
    low, high = low - margin, high + margin
    yticks = ticks(low, high)
    games = max(points[-1][0], 1.0)

    def x(value: float) -> float:
        return left + plot_w * value / games

    def y(value: float) -> float:
        return top + plot_h * (high - value) / (high - low)

    shown = downsample(points)
    last = points[-1]
    return {
        **box(width, height, (left, right, top, bottom)),
        "points": " ".join(f"{x(g):.1f},{y(v):.1f}" for g, v in shown),
        "count": len(shown),
        "pairs": len(history),
        "lower": lower,
        "upper": upper,
        "lower_y": round(y(lower), 1),
        "upper_y": round(y(upper), 1),
        "zero_y": round(y(0.0), 1),
        "yticks": [{"y": round(y(v), 1), "label": f"{v:g}"} for v in yticks if low <= v <= high],
        "xticks": [
            {"x": round(x(v), 1), "label": f"{v:g}"}
            for v in ticks(0.0, games, 6)
            if 0.0 <= v <= games and v == int(v)
        ],
        "last": {
            "games": int(last[0]),
            "llr": last[1],
            "x": round(x(last[0]), 1),
            "y": round(y(last[1]), 1),
        },
    }


def _arc(cx: float, cy: float, r: float, start: float, end: float) -> str:
    """Return the SVG path of the half dial's arc from fraction ``start`` to ``end`` (0 the
    left end, 1 the right), over the top."""
    x0, y0 = _on(cx, cy, r, start)
    x1, y1 = _on(cx, cy, r, end)
    return f"M {x0:.1f} {y0:.1f} A {r:g} {r:g} 0 0 1 {x1:.1f} {y1:.1f}"


def _on(cx: float, cy: float, r: float, fraction: float) -> tuple[float, float]:
    angle = math.pi * (1.0 - fraction)
    return cx + r * math.cos(angle), cy - r * math.sin(angle)


def gauge(
    value: float,
    low: float,
    high: float,
    *,
    zones: Sequence[tuple[float, float, str]] = (),
    size: int = 180,
) -> dict[str, Any]:
    """Return a half dial from ``low`` (left) to ``high`` (right) with its needle at
    ``value`` (held to the dial: ``clipped`` says so), each of ``zones`` (``(from, to,
    kind)`` in the dial's units) an arc of its own. Returns the box, the dial's arc
    (``arc``), the zones' arcs, the needle's tip (``tip_x``, ``tip_y``) from the centre
    (``cx``, ``cy``) and where on the dial it points (``fraction``, 0 to 1)."""
    span = high - low
    fraction = (value - low) / span if span > 0 else 0.5
    clipped = not 0.0 <= fraction <= 1.0
    fraction = min(1.0, max(0.0, fraction))
    r = size / 2 - 24
    cx, cy = size / 2, size / 2 + 4
    tip_x, tip_y = _on(cx, cy, r - 12, fraction)
    return {
        "width": size,
        "height": int(size / 2 + 34),
        "cx": cx,
        "cy": cy,
        "r": r,
        "arc": _arc(cx, cy, r, 0.0, 1.0),
        "zones": [
            {"kind": kind, "path": _arc(cx, cy, r, (a - low) / span, (b - low) / span)}
            for a, b, kind in zones
            if span > 0
        ],
        "tip_x": round(tip_x, 1),
        "tip_y": round(tip_y, 1),
        "fraction": round(fraction, 4),
        "clipped": clipped,
        "value": value,
        "low": low,
        "high": high,
    }


def pentanomial_bars(
    counts: Sequence[int], *, width: int = 320, height: int = 170
) -> dict[str, Any]:
    """Return the five pentanomial counts (pairs of 0, ½, 1, 1½ and 2 points for the first
    entrant) as bars: each bar's ``x``, ``y``, ``height``, ``label``, ``count`` and share
    of the pairs (``share``, 0 to 1), the tallest the plot's height."""
    left, right, top, bottom = 10, 10, 22, 30
    plot_w, plot_h = width - left - right, height - top - bottom
    most = max(max(counts), 1)
    total = sum(counts)
    step = plot_w / len(counts)
    bar_w = step * 0.64
    bars = []
    for index, count in enumerate(counts):
        tall = plot_h * count / most
        bars.append(
            {
                "index": index,
                "label": PAIR_LABELS[index],
                "count": count,
                "share": count / total if total else 0.0,
                "x": round(left + step * index + (step - bar_w) / 2, 1),
                "width": round(bar_w, 1),
                "y": round(top + plot_h - tall, 1),
                "height": round(tall, 1),
                "middle": round(left + step * index + step / 2, 1),
            }
        )
    return {
        "width": width,
        "height": height,
        "baseline": top + plot_h,
        "left": left,
        "right": width - right,
        "bars": bars,
        "total": total,
    }
