"""Rank arithmetic of quantiles: the nearest rank of a quantile and the ranks of the order
statistics that bound it with a given confidence (distribution-free, from the binomial law)."""

from __future__ import annotations

import math
from fractions import Fraction

from latmon.analysis.exact import binomial_ppf


def nearest_rank(q: float, n: int) -> int:
    """1-based rank ⌈q·n⌉ in 1..n, with q taken as the decimal it is written as (0.07 is 7/100,
    not the binary float just above it), so the rank is exact for any n."""
    return min(max(math.ceil(Fraction(repr(q)) * n), 1), n)


def quantile_ci_ranks(q: float, n: int, confidence: float) -> tuple[int | None, int | None]:
    """1-based ranks (l, u) of the order statistics X(l) <= ξq <= X(u) with probability at least
    ``confidence``: the number of values below the quantile is B(n, q), so l is the alpha/2 quantile
    of B(n, q) and u - 1 its 1 - alpha/2 quantile. A rank outside 1..n is None (that side cannot be
    bounded with n values)."""
    if n <= 0:
        return None, None
    alpha = 1.0 - confidence
    low = binomial_ppf(n, q, alpha / 2)
    high = binomial_ppf(n, q, 1 - alpha / 2) + 1
    return (low if low >= 1 else None), (high if high <= n else None)
