"""Exact integer arithmetic for the statistics: sums of int64 samples and of their squares as
Python integers, the correctly rounded square root of a rational, binomial order-statistic ranks.

numpy has no exact 128-bit accumulation, so sums are split into limbs small enough that every
partial sum fits int64 and then recombined as Python integers: the result is the same bit for bit
on every machine and for every way the samples were cut into batches.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

#: Elements per chunk of the limb sums: 2^18 products of at most 2^44 each stay below 2^63.
_CHUNK = 1 << 18
_MASK22 = np.uint64((1 << 22) - 1)


def exact_sums(values: np.ndarray) -> tuple[int, int]:
    """(Σv, Σv²) of int64 values, exactly, as Python integers."""
    v = np.asarray(values)
    n = len(v)
    if n == 0:
        return 0, 0
    vmin = int(v.min())
    # u = v - vmin in [0, 2^64): exact in wrapping uint64 arithmetic for any int64 values
    u = v.astype(np.uint64) - np.uint64(vmin & ((1 << 64) - 1))
    s1 = 0
    s2 = 0
    for start in range(0, n, _CHUNK):
        part = u[start : start + _CHUNK]
        a = (part >> np.uint64(44)).astype(np.int64)
        b = ((part >> np.uint64(22)) & _MASK22).astype(np.int64)
        c = (part & _MASK22).astype(np.int64)
        sa, sb, sc = int(a.sum()), int(b.sum()), int(c.sum())
        s1 += (sa << 44) + (sb << 22) + sc
        aa, ab, ac = int(np.dot(a, a)), int(np.dot(a, b)), int(np.dot(a, c))
        bb, bc, cc = int(np.dot(b, b)), int(np.dot(b, c)), int(np.dot(c, c))
        s2 += (aa << 88) + (ab << 67) + ((2 * ac + bb) << 44) + (bc << 23) + cc
    total = s1 + n * vmin
    squares = s2 + 2 * vmin * s1 + n * vmin * vmin
    return total, squares


#: Bins per chunk of the weighted sums over dense counts.
_BIN_CHUNK = 1 << 12


def weighted_offset_sums(counts: np.ndarray) -> tuple[int, int, int]:
    """(Σc, Σc·i, Σc·i²) over dense counts c_i, i = 0, 1, ..., exactly."""
    c = np.asarray(counts, dtype=np.int64)
    n_bins = len(c)
    if n_bins == 0:
        return 0, 0, 0
    pad = (-n_bins) % _BIN_CHUNK
    if pad:
        c = np.concatenate((c, np.zeros(pad, dtype=np.int64)))
    rows = c.reshape(-1, _BIN_CHUNK)
    s0 = rows.sum(axis=1)
    j = np.arange(_BIN_CHUNK, dtype=np.int64)
    # per chunk Σc·j² <= Σc · 2^24: exact in int64 while a chunk holds fewer than 2^39 counts
    if int(s0.max()) < (1 << 39):
        s1 = rows @ j
        s2 = rows @ (j * j)
        s0_l, s1_l, s2_l = s0.tolist(), s1.tolist(), s2.tolist()
    else:  # astronomically many samples: Python integers, chunk by chunk
        s0_l, s1_l, s2_l = [], [], []
        jl = j.tolist()
        for row in rows:
            rl = row.tolist()
            s0_l.append(sum(rl))
            s1_l.append(sum(x * y for x, y in zip(rl, jl, strict=True)))
            s2_l.append(sum(x * y * y for x, y in zip(rl, jl, strict=True)))
    t0 = t1 = t2 = 0
    for k, (a0, a1, a2) in enumerate(zip(s0_l, s1_l, s2_l, strict=True)):
        if a0 == 0:
            continue
        base = k * _BIN_CHUNK
        t0 += a0
        t1 += base * a0 + a1
        t2 += base * base * a0 + 2 * base * a1 + a2
    return t0, t1, t2


def sqrt_rational(x: Fraction) -> float:
    """The float nearest to √x (x >= 0), correctly rounded: identical on every machine."""
    if x < 0:
        raise ValueError("square root of a negative number")
    if x == 0:
        return 0.0
    p, q = x.numerator, x.denominator
    # scale by 4^k so that the integer root has at least 66 significant bits
    k = max(0, (132 - (p.bit_length() - q.bit_length())) // 2 + 1)
    scaled_num = p << (2 * k)
    root = math.isqrt(scaled_num // q)
    if root * root * q != scaled_num:
        root |= 1  # sticky bit: the true root lies strictly above `root`
    return float(Fraction(root, 1 << k))


def binomial_cdf_table(n: int, q: float) -> tuple[int, np.ndarray]:
    """(k0, cdf) with cdf[i] = P(B <= k0 + i) for B ~ Binomial(n, q), over the window of k where
    the distribution has any mass above 1e-300 (outside it the CDF is 0 or 1 to float precision).
    Computed in log space from lgamma and the ratio recurrence, without scipy."""
    if n <= 0:
        return 0, np.ones(1)
    if q <= 0.0:
        return 0, np.ones(n + 1)
    if q >= 1.0:
        cdf = np.zeros(n + 1)
        cdf[-1] = 1.0
        return 0, cdf
    mean = n * q
    sd = math.sqrt(n * q * (1 - q))
    lo = max(0, int(mean - 40 * sd - 50))
    hi = min(n, int(mean + 40 * sd + 50))
    k = np.arange(lo, hi + 1, dtype=np.float64)
    log_pmf_lo = (
        math.lgamma(n + 1)
        - math.lgamma(lo + 1)
        - math.lgamma(n - lo + 1)
        + lo * math.log(q)
        + (n - lo) * math.log1p(-q)
    )
    # log pmf(k+1) - log pmf(k) = log((n-k)/(k+1)) + log(q/(1-q))
    steps = np.log((n - k[:-1]) / (k[:-1] + 1)) + (math.log(q) - math.log1p(-q))
    log_pmf = np.concatenate(([log_pmf_lo], log_pmf_lo + np.cumsum(steps)))
    pmf = np.exp(log_pmf - log_pmf.max())
    pmf *= math.exp(log_pmf.max()) if log_pmf.max() > -700 else 0.0
    total = math.fsum(pmf.tolist()) if len(pmf) < 4096 else float(pmf.sum())
    cdf = np.cumsum(pmf) / total if total > 0 else np.cumsum(pmf)
    return lo, cdf


def binomial_ppf(n: int, q: float, p: float) -> int:
    """The smallest k with P(B <= k) >= p for B ~ Binomial(n, q)."""
    k0, cdf = binomial_cdf_table(n, q)
    index = int(np.searchsorted(cdf, p * (1 - 1e-12), side="left"))
    # the tolerance guards against the CDF's last float ulp; re-check the neighbour exactly
    while index > 0 and cdf[index - 1] >= p:
        index -= 1
    while index < len(cdf) - 1 and cdf[index] < p:
        index += 1
    return k0 + index
