"""The match statistics (:mod:`tournoyons_gui.arbitre.stats`) against the published outputs
of the tools they follow: fastchess's own test figures (``app/tests/elo_test.cpp``,
``app/tests/sprt_test.cpp``, given to two decimals), fastchess's and cutechess-cli's
printed reports for given counts (issues and pull requests where engine authors pasted
them), and the properties any such figures must have."""

from __future__ import annotations

import math
from typing import Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournoyons_gui.arbitre.stats import (
    Sprt,
    elo_from_score,
    estimate_pentanomial,
    estimate_wdl,
    pentanomial,
)

Model = Literal["normalized", "logistic"]


def fastchess_penta(ll: int, ld: int, wl: int, dd: int, wd: int, ww: int) -> list[int]:
    """Return fastchess's six pair counts (its ``Stats(ll, ld, wl, dd, wd, ww)``) as our
    five: a pair won and lost (WL) and a pair of draws (DD) both score 1 point."""
    return [ll, ld, wl + dd, wd, ww]


def half_width(low: float, high: float) -> float:
    return (high - low) / 2.0


# fastchess app/tests/elo_test.cpp: (wins, losses, draws) -> nElo, its +/-, LOS, score;
# Elo and its +/- where the test gives them.
@pytest.mark.parametrize(
    ("wins", "losses", "draws", "nelo", "nelo_error", "los", "score", "elo", "error"),
    [
        (76, 89, 123, -20.76, 40.13, 15.53, 0.477, None, None),
        (136, 96, 111, 49.77, 36.77, 99.60, 0.558, 40.70, 30.43),
        (34, 356, 0, -508.44, 34.48, None, 0.087, None, None),
    ],
)
def test_trinomial_figures_are_fastchess_s(
    wins: int,
    losses: int,
    draws: int,
    nelo: float,
    nelo_error: float,
    los: float | None,
    score: float,
    elo: float | None,
    error: float | None,
) -> None:
    found = estimate_wdl(wins, draws, losses)
    assert found.units == wins + draws + losses
    assert found.nelo == pytest.approx(nelo, abs=0.01)
    assert half_width(found.nelo_low, found.nelo_high) == pytest.approx(nelo_error, abs=0.01)
    assert found.score == pytest.approx(score, abs=0.001)
    if los is not None:
        assert f"{found.los * 100:.2f}" == f"{los:.2f}"
    if elo is not None:
        assert found.elo == pytest.approx(elo, abs=0.01)
        assert found.error == pytest.approx(error, abs=0.01)


@pytest.mark.parametrize(
    ("counts", "nelo", "nelo_error", "elo", "error", "los", "score"),
    [
        # fastchess app/tests/elo_test.cpp, "EloPentanomial 1" to "3".
        (fastchess_penta(34, 54, 31, 32, 64, 75), 57.94, 28.28, 55.58, 27.65, "100.00", 0.579),
        (fastchess_penta(332, 433, 457, 41, 333, 334), -9.17, 10.96, -8.64, 10.33, "5.05", 0.488),
        (
            fastchess_penta(7895, 8757, 5485, 200, 568, 9999),
            -19.01,
            2.65,
            -21.04,
            2.95,
            "0.00",
            0.470,
        ),
        # fastchess's report pasted in its issue 807 (120 games, 60 pairs): "Elo: -168.40
        # +/- 73.37, nElo: -170.08 +/- 62.16, LOS: 0.00 %, Points: 33.0 (27.50 %),
        # Ptnml(0-2): [30, 6, 18, 0, 6]".
        ([30, 6, 18, 0, 6], -170.08, 62.16, -168.40, 73.37, "0.00", 0.275),
    ],
)
def test_pentanomial_figures_are_fastchess_s(
    counts: list[int],
    nelo: float,
    nelo_error: float,
    elo: float,
    error: float,
    los: str,
    score: float,
) -> None:
    found = estimate_pentanomial(counts)
    assert found.units == sum(counts)
    assert found.elo == pytest.approx(elo, abs=0.01)
    assert found.error == pytest.approx(error, abs=0.01)
    assert found.nelo == pytest.approx(nelo, abs=0.01)
    assert half_width(found.nelo_low, found.nelo_high) == pytest.approx(nelo_error, abs=0.01)
    assert f"{found.los * 100:.2f}" == los
    assert found.score == pytest.approx(score, abs=0.001)


# cutechess-cli's reports as engine authors pasted them ("Score of A vs B: W - L - D ...
# Elo difference: E +/- M, LOS: P %"): JoAnnP38/Pedantic #8 and #10, kelseyde/calvin-
# chess-engine #97 and #106. cutechess takes its 1.96 from an approximation of erf's
# inverse (Winitzki's: 1.9572), so its margin may be 0.05 under ours: the tolerance is
# the printed figure's last digit.
@pytest.mark.parametrize(
    ("wins", "losses", "draws", "elo", "margin", "los"),
    [
        (332, 316, 352, 5.6, 17.3, 73.5),
        (143, 129, 368, 7.6, 17.5, 80.2),
        (540, 531, 1590, 1.2, 8.4, 60.8),
        (1342, 1317, 1341, 2.2, 8.8, 68.6),
        (215, 158, 612, 20.1, 13.3, 99.8),
    ],
)
def test_elo_and_margin_are_cutechess_s(
    wins: int, losses: int, draws: int, elo: float, margin: float, los: float
) -> None:
    found = estimate_wdl(wins, draws, losses)
    assert f"{found.elo:.1f}" == f"{elo:.1f}"
    assert found.error == pytest.approx(margin, abs=0.1)
    assert found.los * 100 == pytest.approx(los, abs=0.1)


# fastchess app/tests/sprt_test.cpp: counts, (elo0, elo1), model -> LLR to two decimals.
@pytest.mark.parametrize(
    ("wins", "losses", "draws", "elo0", "elo1", "model", "llr"),
    [
        (36433, 36027, 68692, 0, 2, "normalized", 0.92),
        (10871, 10650, 20431, -1.75, 0.25, "normalized", 2.30),
        (4250, 0, 0, 0, 10, "normalized", 120.56),
        (21404, 21184, 40708, 0.5, 2.5, "logistic", -1.57),
        (57433, 57030, 106593, 0, 2, "logistic", -2.59),
    ],
)
def test_trinomial_llr_is_fastchess_s(
    wins: int, losses: int, draws: int, elo0: float, elo1: float, model: Model, llr: float
) -> None:
    sprt = Sprt(elo0, elo1, model=model)
    assert sprt.llr_wdl(wins, draws, losses) == pytest.approx(llr, abs=0.005)


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1", "model", "llr"),
    [
        (fastchess_penta(365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),
        (fastchess_penta(127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
        (fastchess_penta(0, 0, 0, 0, 0, 5550), 0, 5, "normalized", 111.82),
        (fastchess_penta(223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
        (fastchess_penta(871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98),
    ],
)
def test_pentanomial_llr_is_fastchess_s(
    counts: list[int], elo0: float, elo1: float, model: Model, llr: float
) -> None:
    sprt = Sprt(elo0, elo1, model=model)
    assert sprt.llr(counts) == pytest.approx(llr, abs=0.005)


def test_bounds_are_wald_s() -> None:
    sprt = Sprt(0, 5)
    assert sprt.lower == pytest.approx(-2.944, abs=0.001)  # fastchess prints (-2.94, 2.94)
    assert sprt.upper == pytest.approx(2.944, abs=0.001)
    assert (sprt.verdict(2.95), sprt.verdict(-2.95), sprt.verdict(0.0)) == ("H1", "H0", None)
    sprt = Sprt(0, 10, 0.01, 0.01)  # cutechess's test: bounds -4.6 and 4.6
    assert (round(sprt.lower, 1), round(sprt.upper, 1)) == (-4.6, 4.6)


def test_a_sure_win_and_a_sure_loss() -> None:
    won = estimate_wdl(10, 0, 0)
    assert (won.elo, won.los) == (math.inf, 1.0)
    assert math.isnan(won.nelo)
    lost = estimate_pentanomial([7, 0, 0, 0, 0])
    assert (lost.elo, lost.elo_low, lost.los) == (-math.inf, -math.inf, 0.0)
    # Normalized Elo's noise is measured from the games: one-sided pairs need more of them.
    assert Sprt(0, 50).verdict(Sprt(0, 50).llr([0, 0, 0, 0, 20])) == "H1"
    assert Sprt(0, 50).verdict(Sprt(0, 50).llr([20, 0, 0, 0, 0])) == "H0"
    assert Sprt(0, 50).verdict(Sprt(0, 50).llr([0, 0, 0, 0, 10])) is None


def test_nothing_played() -> None:
    assert Sprt(0, 5).llr([0, 0, 0, 0, 0]) == 0.0
    assert Sprt(0, 5).llr_wdl(0, 0, 0) == 0.0
    with pytest.raises(ValueError, match="no games"):
        estimate_wdl(0, 0, 0)
    with pytest.raises(ValueError, match="no games"):
        estimate_pentanomial([0] * 5)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("5,0", "ELO0 \\(5\\) must be less than ELO1 \\(0\\)"),
        ("3,3", "must be less than"),
        ("0,5,0.5,0.05", "alpha is between 0 and 0.5"),
        ("0,5,0.05,0", "beta is between 0 and 0.5"),
        ("0,5,-0.1,0.05", "alpha"),
        ("0,5,0.05", "give ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA"),
        ("0", "give ELO0,ELO1"),
        ("zero,five", "not numbers"),
        ("0,inf", "finite"),
        ("nan,5", "finite"),
    ],
)
def test_a_test_that_cannot_be_run_is_refused_with_its_reason(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        Sprt.parse(text)


def test_parse() -> None:
    assert Sprt.parse("0, 5") == Sprt(0.0, 5.0, 0.05, 0.05)
    assert Sprt.parse("-1.5,2.5,0.1,0.2") == Sprt(-1.5, 2.5, 0.1, 0.2)


def test_pentanomial_counts_pairs_by_points() -> None:
    assert pentanomial([2, 1.5, 1, 1, 0.5, 0, 2]) == (1, 1, 2, 1, 2)
    for bad in (2.5, -0.5, 0.25, math.nan):
        with pytest.raises(ValueError, match="a pair scores"):
            pentanomial([bad])


def test_elo_from_score() -> None:
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)  # 400 log10(3)
    assert (elo_from_score(0.0), elo_from_score(1.0)) == (-math.inf, math.inf)


counts5 = st.lists(st.integers(0, 400), min_size=5, max_size=5).filter(lambda c: sum(c) > 0)


@given(counts5)
def test_the_other_side_sees_the_opposite(counts: list[int]) -> None:
    mine, theirs = estimate_pentanomial(counts), estimate_pentanomial(counts[::-1])
    assert mine.score == pytest.approx(1 - theirs.score)
    assert mine.los == pytest.approx(1 - theirs.los, abs=1e-9)
    if math.isfinite(mine.elo):
        assert mine.elo == pytest.approx(-theirs.elo, abs=1e-6)
        assert mine.elo_low <= mine.elo <= mine.elo_high


@given(counts5, st.integers(2, 5))
def test_more_of_the_same_narrows_the_interval_and_grows_the_llr(
    counts: list[int], times: int
) -> None:
    once, more = estimate_pentanomial(counts), estimate_pentanomial([c * times for c in counts])
    assert more.score == pytest.approx(once.score)
    if 0 < once.error < math.inf and more.error < math.inf:
        assert more.error < once.error
    sprt = Sprt(0, 5)
    if all(counts):  # no regularized zero, whose weight does not scale
        assert sprt.llr([c * times for c in counts]) == pytest.approx(
            sprt.llr(counts) * times, rel=1e-3, abs=1e-3
        )
