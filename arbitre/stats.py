"""The statistics of a match between two entrants: score, Elo difference with its 95%
interval, normalized Elo, LOS, the pentanomial counts of paired games and the SPRT's
log-likelihood ratio. Pure functions over counts, no I/O.

A game counts from the first entrant's side: a win 1, a draw ½, a loss 0 (a loss by fault
is a loss). Games come in **pairs** (one opening or one deal, played twice with the seats
swapped); a pair's points, 0, ½, 1, 1½ or 2, are its **pentanomial** outcome, and its five
counts ``(LL, LD, WL+DD, WD, WW)`` are indexed by points × 2. Scoring pairs instead of games
takes out the luck of the opening: the two games of a pair are correlated, so the
trinomial model (W/D/L, independent games) overstates the variance and an SPRT on it needs
more games (Michel Van den Bergh's pentanomial SPRT, github.com/vdbergh/pentanomial, after
Kai Laskos's observation on TalkChess).

The formulas are fastchess's (``app/src/matchmaking/elo/elo_wdl.cpp``,
``elo_pentanomial.cpp``, ``sprt/sprt.cpp``, MIT licence), themselves fishtest's
(``server/fishtest/stats/``); the Elo difference and its error margin are also
cutechess's (``projects/lib/src/elo.cpp``). :mod:`tests.arbitre.test_stats` checks them
against those tools' published outputs for given counts.

- Score ``s``: the mean points per game (per pair ÷ 2).
- Logistic Elo: ``-400 log10(1/s - 1)``; its 95% interval maps ``s ± 1.96 σ/√n`` the same
  way (σ² the sample variance of the outcomes, ``n`` the games, or pairs).
- Normalized Elo (nElo): ``(s - ½) / σ × 800/ln 10`` per game, with ``σ√2`` for pairs
  (Van den Bergh, "Normalized Elo", https://www.cantate.be/Fishtest/normalized_elo.pdf):
  Elo in units of the match's own noise, so a bound such as ``0,5`` means the same for a
  drawish Set as for a decisive one.
- LOS, the likelihood of superiority: ``Φ((s - ½) / (σ/√n))``, the normal approximation's
  probability that the first entrant is the stronger.
- SPRT (Wald's sequential test of H0: nElo = ELO0 against H1: nElo = ELO1): the
  generalized log-likelihood ratio of the two maximum-likelihood distributions with the
  hypotheses' expectations, fastchess's default **normalized** model (Van den Bergh,
  "Comments on normalized Elo", section 4.1,
  https://www.cantate.be/Fishtest/normalized_elo_practical.pdf); bounds
  ``log(β/(1-α))`` and ``log((1-β)/α)`` (Wald, 1945). ``model="logistic"`` takes ELO0 and
  ELO1 as logistic Elo instead (Van den Bergh, "Comparing the approximations for the
  generalized log likelihood ratio of a multinomial distribution", proposition 1.1).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "PAIR_POINTS",
    "Estimate",
    "Sprt",
    "Verdict",
    "elo_from_score",
    "estimate_pentanomial",
    "estimate_wdl",
    "nearest_rank",
    "pentanomial",
    "think_times",
]

#: The points of a pair from the first entrant's side, by index in the pentanomial counts.
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)
#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
#: Logistic Elo per unit of normalized score: 800 / ln 10 (Van den Bergh, "Normalized Elo").
NELO_SCALE = 800.0 / math.log(10.0)
#: A count of zero as fastchess's SPRT reads it (``regularize``), so that every outcome
#: keeps a little probability and the likelihoods' logarithms exist.
REGULARIZED_ZERO = 1e-3

Verdict = Literal["H0", "H1"]


def elo_from_score(score: float) -> float:
    """Return the logistic Elo difference of a mean ``score`` (0 to 1 per game):
    ``-400 log10(1/s - 1)``; ``-inf`` at 0 or below, ``inf`` at 1 or above."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class Estimate:
    """A match's figures from the first entrant's side.

    ``units``: the games (trinomial) or pairs (pentanomial) counted; ``score`` the mean
    points per game, 0 to 1; ``elo`` the logistic Elo difference and ``elo_low``,
    ``elo_high`` its 95% interval (``±inf`` where the score's interval leaves (0, 1), and
    ``elo`` itself for a match won or lost whole); ``nelo`` and its interval the normalized
    Elo (``nan`` when every outcome was the same: no noise to measure it by); ``los`` the
    likelihood of superiority, 0 to 1."""

    units: int
    score: float
    elo: float
    elo_low: float
    elo_high: float
    nelo: float
    nelo_low: float
    nelo_high: float
    los: float

    @property
    def error(self) -> float:
        """Return the interval's half width in Elo, the ``+/-`` of fastchess and cutechess:
        ``(elo_high - elo_low) / 2``."""
        return (self.elo_high - self.elo_low) / 2.0


def _estimate(
    units: int, scores: Sequence[float], counts: Sequence[float], pairs: bool
) -> Estimate:
    """Return the :class:`Estimate` of ``counts`` outcomes of ``scores`` (per game or pair,
    as a fraction of the most points); ``pairs``: the outcomes are pairs (normalized Elo's
    ``σ√2``). Sources: fastchess ``EloWDL`` and ``EloPentanomial``."""
    if units <= 0:
        raise ValueError("no games to estimate from")
    probs = [c / units for c in counts]
    score = sum(a * p for a, p in zip(scores, probs, strict=True))
    variance = sum(p * (a - score) ** 2 for a, p in zip(scores, probs, strict=True))
    half = Z95 * math.sqrt(variance / units)
    low, high = score - half, score + half
    sigma = math.sqrt(2.0 * variance if pairs else variance)
    if sigma > 0.0:
        nelo = (score - 0.5) / sigma * NELO_SCALE
        nelo_low = (low - 0.5) / sigma * NELO_SCALE
        nelo_high = (high - 0.5) / sigma * NELO_SCALE
        los = 0.5 * (1.0 + math.erf((score - 0.5) / math.sqrt(2.0 * variance / units)))
    else:
        nelo = nelo_low = nelo_high = math.nan
        los = 1.0 if score > 0.5 else 0.0 if score < 0.5 else 0.5
    return Estimate(
        units,
        score,
        elo_from_score(score),
        elo_from_score(low),
        elo_from_score(high),
        nelo,
        nelo_low,
        nelo_high,
        los,
    )


def estimate_wdl(wins: int, draws: int, losses: int) -> Estimate:
    """Return the :class:`Estimate` of ``wins``, ``draws`` and ``losses`` counted as
    independent games (the trinomial model: unpaired games); ``ValueError`` with no game
    or a negative count. Source: fastchess ``EloWDL``; the Elo and its margin are
    cutechess's ``Elo::diff`` and ``Elo::errorMargin``."""
    counts = (losses, draws, wins)
    if min(counts) < 0:
        raise ValueError("a count is negative")
    return _estimate(sum(counts), (0.0, 0.5, 1.0), counts, pairs=False)


def estimate_pentanomial(counts: Sequence[int]) -> Estimate:
    """Return the :class:`Estimate` of the five pentanomial ``counts`` (pairs of 0, ½, 1,
    1½ and 2 points); ``ValueError`` with not five counts, a negative one or no pair.
    Source: fastchess ``EloPentanomial``."""
    counts = _five(counts)
    return _estimate(sum(counts), tuple(p / 2.0 for p in PAIR_POINTS), counts, pairs=True)


def pentanomial(pair_points: Iterable[float]) -> tuple[int, int, int, int, int]:
    """Return the pentanomial counts of pairs scoring ``pair_points`` (each 0, 0.5, 1, 1.5
    or 2 from the first entrant's side); ``ValueError`` for another value."""
    counts = [0, 0, 0, 0, 0]
    for points in pair_points:
        index = round(points * 2) if math.isfinite(points) else -1
        if not 0 <= index <= 4 or index / 2 != points:
            raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, not {points!r}")
        counts[index] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


def _five(counts: Sequence[int]) -> tuple[int, int, int, int, int]:
    """Return ``counts`` as five non-negative counts; ``ValueError`` otherwise."""
    if len(counts) != 5:
        raise ValueError(f"pentanomial counts are five, not {len(counts)}")
    if min(counts) < 0:
        raise ValueError("a count is negative")
    return counts[0], counts[1], counts[2], counts[3], counts[4]


@dataclass(frozen=True)
class Sprt:
    """Wald's sequential probability ratio test of H0: Elo = ``elo0`` against H1: Elo =
    ``elo1``, with false positive rate ``alpha`` and false negative rate ``beta``.

    ``model``: ``"normalized"`` (the default, fastchess's: ``elo0`` and ``elo1`` are
    normalized Elo) or ``"logistic"`` (logistic Elo). ``ValueError`` when ``elo0 >=
    elo1``, ``alpha`` or ``beta`` is outside (0, 0.5), or the model is another.
    :attr:`lower` and :attr:`upper` are the LLR's bounds: at or below ``lower`` H0 is
    accepted, at or above ``upper`` H1 (:meth:`verdict`). Source: fastchess ``SPRT``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: Literal["normalized", "logistic"] = "normalized"

    def __post_init__(self) -> None:
        if not all(math.isfinite(x) for x in (self.elo0, self.elo1, self.alpha, self.beta)):
            raise ValueError("ELO0, ELO1, ALPHA and BETA are finite numbers")
        if self.elo0 >= self.elo1:
            raise ValueError(f"ELO0 ({self.elo0:g}) must be less than ELO1 ({self.elo1:g})")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 0.5:
                raise ValueError(f"{name} is between 0 and 0.5 (both excluded), not {value:g}")
        if self.model not in ("normalized", "logistic"):
            raise ValueError(f"the SPRT model is normalized or logistic, not {self.model!r}")

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """Return the test ``ELO0,ELO1[,ALPHA,BETA]`` asks for (``0,5``, ``0,5,0.05,0.1``);
        ``ValueError`` with the reason for anything else."""
        parts = [p.strip() for p in text.split(",")]
        if len(parts) not in (2, 4):
            raise ValueError("give ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA")
        try:
            numbers = [float(p) for p in parts]
        except ValueError:
            raise ValueError(f"not numbers: {text!r}") from None
        alpha, beta = numbers[2:] if len(numbers) == 4 else (0.05, 0.05)
        return cls(numbers[0], numbers[1], alpha, beta)

    @property
    def lower(self) -> float:
        """Return the LLR at or below which H0 is accepted: ``log(β / (1 - α))``."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Return the LLR at or above which H1 is accepted: ``log((1 - β) / α)``."""
        return math.log((1.0 - self.beta) / self.alpha)

    def verdict(self, llr: float) -> Verdict | None:
        """Return ``"H1"`` at or above :attr:`upper`, ``"H0"`` at or below :attr:`lower`,
        else ``None`` (play on)."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def llr(self, counts: Sequence[int]) -> float:
        """Return the log-likelihood ratio of the pentanomial ``counts`` (0.0 with no
        pair); ``ValueError`` as :func:`estimate_pentanomial`. Source: fastchess
        ``SPRT::getLLR`` (its five cells, zeros read as 1e-3)."""
        counts = _five(counts)
        if not sum(counts):
            return 0.0
        scores = tuple(p / 2.0 for p in PAIR_POINTS)
        return self._llr(scores, counts, math.sqrt(2.0))

    def llr_wdl(self, wins: int, draws: int, losses: int) -> float:
        """Return the log-likelihood ratio of games counted as independent (the trinomial
        model, for games that are not paired; 0.0 with no game); ``ValueError`` for a
        negative count. Source: fastchess ``SPRT::getLLR(win, draw, loss)``."""
        counts = (losses, draws, wins)
        if min(counts) < 0:
            raise ValueError("a count is negative")
        if not sum(counts):
            return 0.0
        return self._llr((0.0, 0.5, 1.0), counts, 1.0)

    def _llr(self, scores: Sequence[float], counts: Sequence[int], nelo_factor: float) -> float:
        """Return ``total × Σ p̂ (log p1 - log p0)``, ``p0`` and ``p1`` the maximum-likelihood
        distributions of ``scores`` under H0 and H1, ``p̂`` the observed one."""
        regular = [float(c) if c else REGULARIZED_ZERO for c in counts]
        total = sum(regular)
        observed = [c / total for c in regular]
        if self.model == "normalized":
            p0 = _mle_normalized(scores, observed, nelo_factor * self.elo0 / NELO_SCALE)
            p1 = _mle_normalized(scores, observed, nelo_factor * self.elo1 / NELO_SCALE)
        else:
            p0 = _mle_expectation(scores, observed, _logistic_score(self.elo0))
            p1 = _mle_expectation(scores, observed, _logistic_score(self.elo1))
        return total * sum(
            p * (math.log(b) - math.log(a)) for p, a, b in zip(observed, p0, p1, strict=True)
        )


def _logistic_score(elo: float) -> float:
    """Return the expected score of a logistic Elo difference: ``1 / (1 + 10^(-elo/400))``."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def _root(f: Callable[[float], float], low: float, high: float, epsilon: float) -> float:
    """Return a root of ``f``, decreasing on (``low``, ``high``), from ``+inf`` at ``low``
    to ``-inf`` at ``high``: bisection to ``epsilon`` (fastchess uses ITP, Oliveira and
    Takahashi 2020: the same root, found in fewer steps)."""
    while high - low > 2.0 * epsilon:
        middle = (low + high) / 2.0
        value = f(middle)
        if value == 0.0:
            return middle
        if value > 0.0:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


def _mle_expectation(scores: Sequence[float], observed: Sequence[float], s: float) -> list[float]:
    """Return the distribution over ``scores`` nearest ``observed`` (maximum likelihood)
    whose expectation is ``s``: ``p_i = p̂_i / (1 + θ (a_i - s))``, θ the root of
    ``Σ p̂_i (a_i - s) / (1 + θ (a_i - s)) = 0`` (Van den Bergh, "Comparing the
    approximations ...", equations 1.2 and 1.3)."""
    shifted = [a - s for a in scores]

    def f(theta: float) -> float:
        return sum(p * x / (1.0 + theta * x) for p, x in zip(observed, shifted, strict=True))

    theta = _root(f, -1.0 / max(shifted), -1.0 / min(shifted), 1e-12)
    return [p / (1.0 + theta * x) for p, x in zip(observed, shifted, strict=True)]


def _mle_normalized(scores: Sequence[float], observed: Sequence[float], t: float) -> list[float]:
    """Return the distribution over ``scores`` nearest ``observed`` (maximum likelihood)
    whose normalized score ``(μ - ½) / σ`` is ``t``: a fixed point iterated from the
    uniform distribution, at most 10 times or until no probability moves by 1e-4 (Van den
    Bergh, "Comments on normalized Elo", section 4.1, equation 4.9)."""
    size = len(scores)
    p = [1.0 / size] * size
    for _ in range(10):
        mu = sum(a * q for a, q in zip(scores, p, strict=True))
        sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(scores, p, strict=True)))
        phi = [a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma) ** 2) for a in scores]

        def f(theta: float, phi: list[float] = phi) -> float:
            return sum(q * x / (1.0 + theta * x) for q, x in zip(observed, phi, strict=True))

        theta = _root(f, -1.0 / max(phi), -1.0 / min(phi), 1e-7)
        moved = 0.0
        for i in range(size):
            new = observed[i] / (1.0 + theta * phi[i])
            moved = max(moved, abs(new - p[i]))
            p[i] = new
        if moved < 1e-4:
            break
    return p


def nearest_rank(ordered: Sequence[int], percent: float) -> int:
    """Return the ``percent`` percentile (0 < percent <= 100) of ``ordered`` (sorted, not
    empty) by the nearest-rank method: the smallest value with at least ``percent`` % of
    the values at or below it, ``ordered[ceil(percent/100 × n) - 1]`` (Hyndman and Fan's
    definition 1, the inverse of the empirical distribution function): always one of the
    values measured, never an interpolation between two."""
    rank = max(1, math.ceil(percent / 100 * len(ordered) - 1e-9))
    return ordered[min(rank, len(ordered)) - 1]


def think_times(ms: Iterable[int]) -> dict[str, int] | None:
    """Return ``{"p50", "p95", "max"}`` of thinking times in milliseconds (each move's,
    from the request to the answer, as the Arbitre measured it), by the nearest rank
    (:func:`nearest_rank`); ``None`` with none (an entrant that played no move)."""
    ordered = sorted(ms)
    if not ordered:
        return None
    return {
        "p50": nearest_rank(ordered, 50),
        "p95": nearest_rank(ordered, 95),
        "max": ordered[-1],
    }
