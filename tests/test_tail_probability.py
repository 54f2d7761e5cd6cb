"""latmon.tail.probability against scipy.stats, which evaluates the same special functions: the
report's tail checks use these so that they need not import scipy.stats."""

from __future__ import annotations

import math

import pytest
from scipy import stats

from latmon.tail import probability


def close(a: float, b: float, rel: float = 1e-12) -> bool:
    return a == b or abs(a - b) <= rel * max(abs(a), abs(b)) or abs(a - b) < 1e-300


@pytest.mark.parametrize("x", [-8.0, -2.5, -0.3, 0.0, 0.7, 1.96, 5.0, 12.0, 37.0])
def test_norm(x: float) -> None:
    assert close(probability.norm_sf(x), float(stats.norm.sf(x)))
    q = float(stats.norm.cdf(x))
    if 0 < q < 1:
        assert close(probability.norm_ppf(q), float(stats.norm.ppf(q)))


@pytest.mark.parametrize("df", [1, 2, 20, 118])
@pytest.mark.parametrize("x", [0.01, 0.5, 3.84, 23.45, 150.0, 900.0])
def test_chi2(df: int, x: float) -> None:
    assert close(probability.chi2_sf(x, df), float(stats.chi2.sf(x, df)))


@pytest.mark.parametrize("df", [1, 2, 20])
@pytest.mark.parametrize("q", [0.05, 0.5, 0.95, 0.99, 0.999999])
def test_chi2_ppf(df: int, q: float) -> None:
    assert close(probability.chi2_ppf(q, df), float(stats.chi2.ppf(q, df)))


@pytest.mark.parametrize(
    ("k", "n", "p"),
    [
        (-1, 50, 0.1),
        (0, 50, 0.1),
        (3, 50_000_000, 1e-7),
        (30, 50_000_000, 4e-7),
        (10, 1000, 0.02),
        (999, 1000, 0.5),
        (1000, 1000, 0.5),
    ],
)
def test_binom(k: int, n: int, p: float) -> None:
    assert close(probability.binom_sf(k, n, p), float(stats.binom.sf(k, n, p)))


@pytest.mark.parametrize("n", [1000, 100_001, 250_000, 25_000_000])
def test_kstwo(n: int) -> None:
    """Every regime of kstwo.sf: Pelz–Good, Smirnov's tail, 0 far out, scipy's own for small
    n and near the extremes of d."""
    root = math.sqrt(n)
    for z in (0.05, 0.2, 0.5, 0.8, 1.0, 1.2, 1.48, 1.49, 2.0, 3.0, 10.0, 19.3, 20.0):
        d = z / root
        assert close(probability.kstwo_sf(d, n), float(stats.kstwo.sf(d, n)), 1e-12), (n, z)
    for d in (0.6 / n, 2.0 / n, 0.49, 0.7):
        assert close(probability.kstwo_sf(d, n), float(stats.kstwo.sf(d, n)), 1e-12), (n, d)
