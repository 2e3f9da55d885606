"""The rating chart of an engine's page, drawn as SVG by the template from the coordinates
computed here: the line of mu after each rated game, the band of mu ± sigma, a dot per game
and the axes' round ticks; and the leaderboard's sparklines (a rating's line, small).
Pure: points in, numbers and SVG point lists out.
"""

from __future__ import annotations

import math
import re
import urllib.parse
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

__all__ = ["box", "rating_chart", "sparkline", "ticks"]


def ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Return round tick values covering ``low``..``high``."""
    span = max(high - low, 1e-9)
    raw = span / max(count - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-6:
        ticks.append(round(value, 6))
        value += step
    if ticks[-1] < high:
        ticks.append(round(value, 6))
    return ticks


def box(width: int, height: int, margins: tuple[int, int, int, int]) -> dict[str, int]:
    """Return a chart's box: its ``width`` and ``height`` and its plot's edges (``left``,
    ``right``, ``top``, ``bottom``) inside the ``margins`` (left, right, top, bottom)."""
    left, right, top, bottom = margins
    return {
        "width": width,
        "height": height,
        "left": left,
        "right": width - right,
        "top": top,
        "bottom": height - bottom,
    }


def rating_chart(
    points: Sequence[Mapping[str, Any]], width: int = 560, height: int = 220
) -> dict[str, Any] | None:
    """Return what the engine page's SVG chart draws for a rating history (``mu`` and
    ``sigma`` after each rated game, oldest first): the line of mu, the band of mu ± sigma,
    a dot per game, the axes' ticks. A point's ``number`` (its rated game's, from 1) labels
    it when given (a long history is shown by a spread of its points), else its place.
    ``None`` when there is no point."""
    if not points:
        return None
    left, right, top, bottom = 52, 14, 12, 36
    plot_w, plot_h = width - left - right, height - top - bottom
    mus = [float(p["mu"]) for p in points]
    sigmas = [float(p["sigma"]) for p in points]
    low = min(m - s for m, s in zip(mus, sigmas, strict=True))
    high = max(m + s for m, s in zip(mus, sigmas, strict=True))
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    yticks = ticks(low, high)
    low, high = min(low, yticks[0]), max(high, yticks[-1])
    count = len(points)
    numbers = [int(p.get("number", i + 1)) for i, p in enumerate(points)]

    span = numbers[-1] - numbers[0]

    def x(index: int) -> float:
        if count < 2 or span <= 0:
            return left + plot_w / 2
        return left + plot_w * (numbers[index] - numbers[0]) / span

    def y(value: float) -> float:
        return top + plot_h * (high - value) / (high - low)

    def pairs(coordinates: Sequence[tuple[float, float]]) -> str:
        return " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in coordinates)

    line = [(x(i), y(m)) for i, m in enumerate(mus)]
    upper = [(x(i), y(m + s)) for i, (m, s) in enumerate(zip(mus, sigmas, strict=True))]
    lower = [(x(i), y(m - s)) for i, (m, s) in enumerate(zip(mus, sigmas, strict=True))]
    if count == 1:  # a band needs a width: one game is drawn as a short stretch
        half = plot_w / 40
        upper = [(upper[0][0] - half, upper[0][1]), (upper[0][0] + half, upper[0][1])]
        lower = [(lower[0][0] - half, lower[0][1]), (lower[0][0] + half, lower[0][1])]
    shown = sorted({0, count - 1, *range(0, count, max(1, math.ceil(count / 8)))})
    return {
        **box(width, height, (left, right, top, bottom)),
        "line": pairs(line),
        "band": pairs([*upper, *reversed(lower)]),
        "dots": [
            {
                "x": round(cx, 1),
                "y": round(cy, 1),
                "number": numbers[i],
                "mu": mus[i],
                "sigma": sigmas[i],
                "game": points[i].get("game", ""),
            }
            for i, (cx, cy) in enumerate(line)
        ],
        "yticks": [{"y": round(y(v), 1), "label": f"{v:g}"} for v in yticks],
        # A long history draws 200 dots a Set, each twice (the chart, the table of its
        # figures): their markup written here once (numbers, and game ids escaped
        # unless plainly the Arbitre's), where a template's loop took most of an
        # engine's page's time.
        "dots_svg": Markup(
            "".join(
                f'    <circle class="dot" cx="{round(cx, 1)}" cy="{round(cy, 1)}" r="3">'
                f"<title>{_tip(numbers[i], mus[i], sigmas[i])}</title></circle>\n"
                for i, (cx, cy) in enumerate(line)
            )
        ),
        "dots_rows": Markup(
            "".join(
                f'        <tr><th scope="row">{numbers[i]}</th><td>{mus[i]:.3f}</td>'
                f"<td>{sigmas[i]:.3f}</td><td>{_game_link(points[i].get('game', ''))}</td></tr>\n"
                for i in range(count)
            )
        ),
        "xticks": [{"x": round(x(i), 1), "label": str(numbers[i])} for i in shown],
        "games": numbers[-1],
        "first": {"mu": mus[0], "sigma": sigmas[0]},
        "last": {"mu": mus[-1], "sigma": sigmas[-1]},
        "low": min(mus),
        "high": max(mus),
    }


def sparkline(values: Sequence[float], width: int = 120, height: int = 24) -> dict[str, Any] | None:
    """Return what a leaderboard's sparkline draws for a rating's history (oldest first):
    the SVG ``points`` of its line in a ``width`` x ``height`` box (1 pixel of margin),
    its ``first``, ``last``, ``low`` and ``high`` values; ``None`` for fewer than two."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (width - 2) / (len(values) - 1)
    points = " ".join(
        f"{1 + i * step:.1f},{1 + (height - 2) * (high - v) / span:.1f}"
        for i, v in enumerate(values)
    )
    return {
        "width": width,
        "height": height,
        "points": points,
        "first": values[0],
        "last": values[-1],
        "low": low,
        "high": high,
    }


def _tip(number: int, mu: float, sigma: float) -> str:
    """Return a dot's tooltip: the rated game and the rating after it."""
    return f"Game {number}: {mu:.2f} ± {sigma:.2f}"


#: A game id as the Arbitre makes them: nothing in it to quote or escape.
_PLAIN_ID = re.compile(r"[A-Za-z0-9]{1,40}")


def _game_link(game: Any) -> str:
    """Return the link to a rating point's game (``""`` without one), as markup: an id of
    the Arbitre's own as it is, any other quoted and escaped."""
    if not game:
        return ""
    text = str(game)
    if _PLAIN_ID.fullmatch(text):
        return f'<a href="/games/{text}">{text}</a>'
    # quote() leaves nothing HTML reads as markup; the text is escaped.
    return f'<a href="/games/{urllib.parse.quote(text, safe="")}">{escape(text)}</a>'
