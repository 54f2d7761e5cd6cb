"""Exact arithmetic (latmon.analysis.exact) against Python integers, Decimal and term-by-term
sums."""

from __future__ import annotations

import decimal
import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from latmon.analysis.exact import binomial_ppf, exact_sums, sqrt_rational, weighted_offset_sums


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=300))
def test_exact_sums_of_any_int64(values: list[int]) -> None:
    assert exact_sums(np.asarray(values, np.int64)) == (sum(values), sum(v * v for v in values))


def test_weighted_offset_sums() -> None:
    c = np.random.default_rng(1).integers(0, 2**30, 70_000)
    cl = c.tolist()
    assert weighted_offset_sums(c) == (
        sum(cl),
        sum(i * x for i, x in enumerate(cl)),
        sum(i * i * x for i, x in enumerate(cl)),
    )


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**40), st.integers(1, 10**30))
def test_sqrt_is_correctly_rounded(p: int, q: int) -> None:
    x = Fraction(p, q)
    decimal.getcontext().prec = 120
    want = float((decimal.Decimal(p) / decimal.Decimal(q)).sqrt())
    assert sqrt_rational(x) == want


def binomial_ppf_by_hand(n: int, q: float, p: float) -> int:
    pmf = [math.comb(n, i) * q**i * (1 - q) ** (n - i) for i in range(n + 1)]
    total = 0.0
    for k in range(n + 1):
        total = math.fsum(pmf[: k + 1])
        if total >= p:
            return k
    return n


def test_binomial_quantiles_match_term_by_term_sums() -> None:
    for n in (1, 2, 10, 57, 300, 1000):
        for q in (0.5, 0.9, 0.99, 0.999):
            for p in (0.025, 0.975):
                assert binomial_ppf(n, q, p) == binomial_ppf_by_hand(n, q, p), (n, q, p)


def test_binomial_quantiles_at_large_n_against_the_normal_limit() -> None:
    n, q = 10**8, 0.5
    k = binomial_ppf(n, q, 0.975)
    mean, sd = n * q, math.sqrt(n * q * (1 - q))
    assert abs(k - (mean + 1.959963984540054 * sd)) <= 2
