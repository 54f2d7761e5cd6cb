"""Exact, integer-aware statistics of latency samples (docs/statistics.md).

Definitions:

- ``mean``: the exact integer sum divided by n (one rounding, to float64, at the end);
- ``median``: the middle value, or the mean of the two middle values for even n;
- ``pXX``: nearest rank — the smallest sample with at least ceil(q·n) samples at or below it,
  the same as numpy's ``percentile(..., method="inverted_cdf")``. It is always a measured value;
- ``stdev``: the sample standard deviation (n - 1); ``stdev_pop`` divides by n; computed in
  float64 around the exact mean (relative error below 1e-12 for any latency data);
- ``jitter``: max(max - mean, mean - min), as in the published studies; shown beside n, the
  resolution and min so that it can be checked;
- ``rsd_pct``: 100 · stdev / mean.

Samples whose range is small compared to their number go through an exact integer histogram
(``numpy.bincount``), which gives every order statistic in one pass; others are sorted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from latmon.model import Histogram, Series

# The percentiles of `latmon stats`: key -> quantile.
PERCENTILES: dict[str, float] = {"p50": 0.50, "p90": 0.90, "p99": 0.99, "p99_9": 0.999}
# Key names of the JSON output, in order (the foundation's contract; more may follow them).
SUMMARY_KEYS = (
    "count",
    "min",
    "max",
    "mean",
    "median",
    "stdev",
    "jitter",
    "rsd_pct",
    "p50",
    "p90",
    "p99",
    "p99_9",
)
# Use an exact integer histogram when the value range is at most this many bins ...
BINCOUNT_MAX_SPAN = 1 << 26
# ... or not much larger than the number of samples.
BINCOUNT_SPAN_PER_SAMPLE = 4


def nearest_rank(q: float, n: int) -> int:
    """1-based rank ceil(q·n) in 1..n, with q taken as the decimal it is written as (0.07 is
    7/100, not the binary float just above it), so the rank is exact for any n.

    For the quantiles of PERCENTILES this equals numpy's ``method="inverted_cdf"``, which
    multiplies in float64; for other quantiles numpy can be one rank higher when q·n is an
    integer that float64 rounding pushes up."""
    return min(max(math.ceil(Fraction(repr(q)) * n), 1), n)


@dataclass
class Summary:
    """Statistics of one series, in the series' unit."""

    count: int
    min: float
    max: float
    mean: float
    median: float
    stdev: float
    stdev_pop: float
    jitter: float
    rsd_pct: float
    #: nearest-rank percentiles: measured values (ints) from samples
    percentiles: dict[str, float | int] = field(default_factory=dict)
    exact: bool = True
    #: For statistics from a histogram: the widest bin, the bound of the percentile error.
    bin_error: int = 0

    def as_dict(self) -> dict[str, float | int | None]:
        out: dict[str, float | int] = {
            "count": self.count,
            "min": self.min,
            "max": self.max,
            "mean": self.mean,
            "median": self.median,
            "stdev": self.stdev,
            "jitter": self.jitter,
            "rsd_pct": self.rsd_pct,
        }
        out.update(self.percentiles)
        out["stdev_pop"] = self.stdev_pop
        return {k: _json_number(v) for k, v in out.items()}

    def scaled(self, factor: Fraction) -> Summary:
        """The same statistics in another unit (e.g. cycles -> ns); count and rsd unchanged."""
        f = float(factor)
        if factor == 1:
            return self
        return Summary(
            count=self.count,
            min=self.min * f,
            max=self.max * f,
            mean=self.mean * f,
            median=self.median * f,
            stdev=self.stdev * f,
            stdev_pop=self.stdev_pop * f,
            jitter=self.jitter * f,
            rsd_pct=self.rsd_pct,
            percentiles={k: v * f if f != 1 else v for k, v in self.percentiles.items()},
            exact=self.exact,
            bin_error=self.bin_error,
        )


def _json_number(v: float | int) -> float | int | None:
    if isinstance(v, float):
        if math.isnan(v):
            return None
        if v.is_integer() and abs(v) < 2**53:
            return int(v)
    return v


def _exact_sum(values: np.ndarray) -> int:
    """Exact sum of int64 values without overflow: high and low 32-bit halves separately."""
    if len(values) == 0:
        return 0
    if len(values) < (1 << 31):
        high = int(np.sum(values >> 32, dtype=np.int64))
        low = int(np.sum(values & 0xFFFFFFFF, dtype=np.int64))
        return (high << 32) + low
    half = len(values) // 2
    return _exact_sum(values[:half]) + _exact_sum(values[half:])


def _finish(
    n: int, lo: int, hi: int, total: int, sq: float, median: float, pct: dict[str, float | int]
) -> Summary:
    mean = total / n if n else math.nan
    stdev = math.sqrt(sq / (n - 1)) if n > 1 else math.nan
    stdev_pop = math.sqrt(sq / n) if n else math.nan
    jitter = max(hi - mean, mean - lo) if n else math.nan
    rsd = 100.0 * stdev / mean if n > 1 and mean != 0 else math.nan
    return Summary(
        count=n,
        min=lo,
        max=hi,
        mean=mean,
        median=median,
        stdev=stdev,
        stdev_pop=stdev_pop,
        jitter=jitter,
        rsd_pct=rsd,
        percentiles=pct,
    )


def summarize(values: np.ndarray, percentiles: dict[str, float] = PERCENTILES) -> Summary:
    """Exact statistics of integer samples."""
    v = np.asarray(values)
    if v.dtype.kind not in "iu":
        raise TypeError("latency samples must be integers")
    v = v.astype(np.int64, copy=False)
    n = len(v)
    if n == 0:
        nan = math.nan
        empty: dict[str, float | int] = dict.fromkeys(percentiles, nan)
        return Summary(0, nan, nan, nan, nan, nan, nan, nan, nan, empty)
    lo, hi = int(v.min()), int(v.max())
    span = hi - lo + 1
    ranks = {k: nearest_rank(q, n) for k, q in percentiles.items()}
    mid = (n + 1) // 2, n // 2 + 1  # the middle rank(s), 1-based
    if span <= BINCOUNT_MAX_SPAN or span <= BINCOUNT_SPAN_PER_SAMPLE * n:
        counts = np.bincount((v - lo).astype(np.intp, copy=False), minlength=span)
        cum = np.cumsum(counts)

        def at_rank(rank: int) -> int:
            return lo + int(np.searchsorted(cum, rank))

        offsets = np.arange(span, dtype=np.float64)
        total = lo * n + int(np.dot(np.arange(span, dtype=np.int64), counts))
        mean_off = (total - lo * n) / n  # exact integers, one rounding
        sq = float(np.dot(counts, (offsets - mean_off) ** 2))
    else:
        wanted = sorted({r - 1 for r in [*ranks.values(), *mid]})
        part = np.partition(v, wanted)

        def at_rank(rank: int) -> int:
            return int(part[rank - 1])

        total = _exact_sum(v)
        if span < (1 << 62):
            shift = total // n
            d = v - shift  # exact integer shift keeps the float64 residuals small
            rest = (total - shift * n) / n
            sq = float(np.sum((d.astype(np.float64) - rest) ** 2))
        else:  # values spread over most of int64: float64 throughout (no overflow)
            sq = float(np.sum((v.astype(np.float64) - total / n) ** 2))
    median = (at_rank(mid[0]) + at_rank(mid[1])) / 2
    pct: dict[str, float | int] = {k: at_rank(r) for k, r in ranks.items()}
    return _finish(n, lo, hi, total, sq, median, pct)


def summarize_histogram(
    h: Histogram,
    counters: dict[str, int] | None = None,
    percentiles: dict[str, float] = PERCENTILES,
) -> Summary:
    """Statistics from a histogram: percentiles are the upper end of their bin (inclusive,
    never above the maximum) and exact to within ``bin_error``; the mean is exact when the
    producer counted the sum (``counters['sum']``), else from bin midpoints; stdev from bin
    midpoints."""
    counters = counters or {}
    n = h.total
    if n == 0:
        return summarize(np.empty(0, dtype=np.int64), percentiles)
    nonzero = np.nonzero(h.count)[0]
    lo_bound = int(h.lo[nonzero[0]]) if len(nonzero) else (h.overflow_lo or 0)
    hi_bound = int(h.hi[nonzero[-1]]) - 1 if len(nonzero) else (h.overflow_lo or 0)
    if h.underflow:
        lo_bound = min(lo_bound, (h.underflow_hi or lo_bound) - 1)
    lo = int(counters.get("min", lo_bound))
    hi = int(counters.get("max", hi_bound if not h.overflow else max(hi_bound, h.overflow_lo or 0)))
    # order: underflow, bins, overflow
    counts = np.concatenate(([h.underflow], h.count, [h.overflow])).astype(np.int64)
    upper = np.concatenate(([lo], h.hi - 1, [hi])).astype(np.int64)
    upper = np.minimum(upper, hi)
    cum = np.cumsum(counts)

    def at_rank(rank: int) -> int:
        return int(upper[int(np.searchsorted(cum, rank))])

    mids = np.concatenate(([lo], (h.lo + h.hi - 1) / 2, [hi])).astype(np.float64)
    total = float(counters["sum"]) if "sum" in counters else float(np.dot(counts, mids))
    mean = total / n
    sq = float(np.dot(counts, (mids - mean) ** 2))
    mid = (n + 1) // 2, n // 2 + 1
    median = (at_rank(mid[0]) + at_rank(mid[1])) / 2
    pct: dict[str, float | int] = {k: at_rank(nearest_rank(q, n)) for k, q in percentiles.items()}
    s = _finish(n, lo, hi, 0, sq, median, pct)
    s.mean = mean
    s.jitter = max(hi - mean, mean - lo)
    s.rsd_pct = 100.0 * s.stdev / mean if n > 1 and mean else math.nan
    s.exact = False
    s.bin_error = h.max_bin_width
    return s


def summarize_series(series: Series, percentiles: dict[str, float] = PERCENTILES) -> Summary:
    """Statistics of a series from its samples, or from its histogram when it has none."""
    if series.has_samples:
        return summarize(series.latency, percentiles)
    if series.histogram is not None:
        return summarize_histogram(series.histogram, series.counters, percentiles)
    return summarize(np.empty(0, dtype=np.int64), percentiles)
