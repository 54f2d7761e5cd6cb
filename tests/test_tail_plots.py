"""latmon.tail.plotting: the tail figure draws the measured curve (thinned, never one point per
sample), the fit's own extrapolated quantiles with their band, and the diagnostics; nothing for
a series without a pWCET."""

from __future__ import annotations

import math

import numpy as np
import pytest
from synthetic_tails import MODELS, ar1

from latmon import tail
from latmon.tail.curve import CURVE_POINTS, LOWEST_PROBABILITY, band_probabilities, extrapolated
from latmon.tail.plotting import tail_figure


def test_band_probabilities_are_the_decades_below_the_start() -> None:
    assert band_probabilities(0.03) == pytest.approx([10.0**-k for k in range(2, 13)])
    assert band_probabilities(0.01) == pytest.approx([10.0**-k for k in range(3, 13)])
    assert band_probabilities(LOWEST_PROBABILITY) == []


@pytest.fixture(scope="module")
def analysis() -> tuple[np.ndarray, tail.TailAnalysis]:
    x = MODELS["exponential"].draw(np.random.default_rng(21), 20_000)
    a = tail.analyse_tail(x, block=len(x))  # POT only: keeps the test short
    assert a.pot is not None and a.pot.valid
    return x, a


def test_tail_figure_draws_the_fit_and_the_thinned_curve(analysis) -> None:
    x, a = analysis
    assert a.pot is not None and isinstance(a.pot.fit, tail.GpdFit)
    fig = tail_figure(x, a, 1.0, "cpu0", deadline_ns=60_000)
    assert fig is not None
    top, mrl, stability = fig.axes
    measured, fitted = top.get_lines()[:2]
    # measured: distinct values in µs, P(X > x) at each; the body thinned, the top kept
    distinct = np.unique(x)
    assert len(distinct) > 2 * CURVE_POINTS
    xs, ys = measured.get_data()
    assert len(xs) == 2 * CURVE_POINTS
    assert xs[-1] == pytest.approx(distinct[-1] / 1000) and ys[-1] == 0
    assert np.asarray(xs[-CURVE_POINTS:]) * 1000 == pytest.approx(distinct[-CURVE_POINTS:])
    # fitted: from the threshold at its rate, then the fit's quantiles decade by decade
    px, py = fitted.get_data()
    fit = a.pot.fit
    assert py[0] == pytest.approx(fit.rate) and px[0] == pytest.approx(fit.threshold / 1000)
    q9 = fit.quantile(1e-9)
    k = list(py).index(pytest.approx(1e-9))
    assert px[k] == pytest.approx(q9 / 1000)
    assert py[-1] == pytest.approx(LOWEST_PROBABILITY)
    assert stability.get_lines() and mrl.get_lines()


def test_extrapolated_intervals_are_the_fits_own(analysis) -> None:
    _, a = analysis
    assert a.pot is not None and isinstance(a.pot.fit, tail.GpdFit)
    quantiles = extrapolated(a.pot)
    q6 = next(q for q in quantiles if q.probability == 1e-6)
    assert q6 == a.pot.fit.quantile_ci(1e-6)
    # the pWCETs are reused, not profiled a second time
    assert all(any(q is mine for q in quantiles) for mine in a.pot.quantiles)
    assert all(q.low <= q.estimate <= q.high for q in quantiles)
    assert all(math.isfinite(q.low) for q in quantiles)


def test_no_figure_without_a_pwcet() -> None:
    x = ar1(np.random.default_rng(22), 3000, 0.4)
    a = tail.analyse_tail(x)
    assert not a.iid and tail_figure(x, a, 1.0, "cpu0") is None
