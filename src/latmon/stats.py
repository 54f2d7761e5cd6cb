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

- ``pXX_ci``: a distribution-free confidence interval of each percentile: the order statistics
  at the ranks the binomial distribution B(n, q) gives (Hahn & Meeker); exact coverage of at
  least the stated confidence for any n and any (also quantised) data. A bound that would need
  a rank outside 1..n is ``None``: there are too few samples to bound that tail.

Samples whose range is small compared to their number are counted batch by batch into an exact
integer histogram (:class:`latmon.counting.Counter`), which gives every order statistic at
once; others are partially sorted.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np
from scipy import stats as sps

from latmon.counting import MAX_BINS, Counter, exact_sum
from latmon.model import Histogram, Run, Series
from latmon.runfile import iter_latency, read_run_header

# The percentiles of `latmon stats`: key -> quantile.
PERCENTILES: dict[str, float] = {
    "p50": 0.50,
    "p90": 0.90,
    "p99": 0.99,
    "p99_9": 0.999,
    "p99_99": 0.9999,
    "p99_999": 0.99999,
}
#: Default confidence of the percentile intervals.
CONFIDENCE = 0.95
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
# Keys added after the foundation's, in order.
EXTRA_KEYS = ("p99_99", "p99_999")
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


def quantile_ci_ranks(q: float, n: int, confidence: float) -> tuple[int | None, int | None]:
    """1-based ranks (l, u) of the order statistics X(l) <= xi_q <= X(u) with probability at
    least ``confidence``: the number of samples below the quantile is B(n, q), so
    l = the alpha/2 quantile of B(n, q) and u - 1 = its 1 - alpha/2 quantile. A rank outside
    1..n is returned as None (that side is unbounded with n samples)."""
    return ci_ranks({"q": q}, n, confidence)["q"]


def ci_ranks(
    quantiles: dict[str, float], n: int, confidence: float
) -> dict[str, tuple[int | None, int | None]]:
    """:func:`quantile_ci_ranks` for several quantiles in one vectorised scipy call."""
    if n <= 0:
        return dict.fromkeys(quantiles, (None, None))
    alpha = 1.0 - confidence
    qs = np.asarray(list(quantiles.values()), dtype=np.float64)
    los = sps.binom.ppf(alpha / 2, n, qs).astype(np.int64)
    his = sps.binom.ppf(1 - alpha / 2, n, qs).astype(np.int64) + 1
    return {
        key: ((int(lo) if lo >= 1 else None), (int(hi) if hi <= n else None))
        for key, lo, hi in zip(quantiles, los, his, strict=True)
    }


@dataclass
class Deadline:
    """How a series meets a deadline (same unit as the series)."""

    deadline: int
    above: int
    fraction: float
    worst: float
    margin: float

    @property
    def verdict(self) -> str:
        return "pass" if self.above == 0 else "FAIL"

    def as_dict(self) -> dict[str, object]:
        return {
            "deadline": self.deadline,
            "above_deadline": self.above,
            "above_fraction": self.fraction,
            "worst": self.worst,
            "margin": self.margin,
            "verdict": self.verdict,
        }


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
    #: CI of each percentile (key -> (low, high), None where unbounded) at ``confidence``.
    percentile_ci: dict[str, tuple[float | None, float | None]] = field(default_factory=dict)
    confidence: float = CONFIDENCE
    deadline: Deadline | None = None

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

    def ci_dict(self) -> dict[str, list[float | int | None]]:
        """``pXX_ci`` -> [low, high] for JSON (None: unbounded with this many samples)."""
        return {
            f"{k}_ci": [None if b is None else _json_number(b) for b in bounds]
            for k, bounds in self.percentile_ci.items()
        }

    def scaled(self, factor: Fraction) -> Summary:
        """The same statistics in another unit (e.g. cycles -> ns); count and rsd unchanged."""
        f = float(factor)
        if factor == 1:
            return self

        def scale(v: float | None) -> float | None:
            return None if v is None else v * f

        deadline = None
        if self.deadline is not None:
            d = self.deadline
            deadline = Deadline(
                round(d.deadline * f), d.above, d.fraction, d.worst * f, d.margin * f
            )
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
            percentile_ci={k: (scale(a), scale(b)) for k, (a, b) in self.percentile_ci.items()},
            confidence=self.confidence,
            deadline=deadline,
        )


def _json_number(v: float | int) -> float | int | None:
    if isinstance(v, float):
        if math.isnan(v):
            return None
        if v.is_integer() and abs(v) < 2**53:
            return int(v)
    return v


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


def _order_statistics(
    summary: Summary,
    at_rank: Callable[[list[int]], dict[int, int]],
    percentiles: dict[str, float],
    confidence: float,
) -> None:
    """Fill median, percentiles and their CIs of ``summary`` from a rank lookup."""
    n = summary.count
    mid = [(n + 1) // 2, n // 2 + 1]  # the middle rank(s), 1-based
    ranks = {k: nearest_rank(q, n) for k, q in percentiles.items()}
    cis = ci_ranks(percentiles, n, confidence)
    wanted = {*mid, *ranks.values(), *(r for pair in cis.values() for r in pair if r is not None)}
    value = at_rank(sorted(wanted))
    summary.median = (value[mid[0]] + value[mid[1]]) / 2
    summary.percentiles = {k: value[r] for k, r in ranks.items()}
    summary.percentile_ci = {
        k: (None if lo is None else value[lo], None if hi is None else value[hi])
        for k, (lo, hi) in cis.items()
    }
    summary.confidence = confidence


def _deadline(deadline: int, n: int, above: int, worst: float) -> Deadline:
    return Deadline(deadline, above, above / n if n else math.nan, worst, deadline - worst)


def _empty(percentiles: dict[str, float], confidence: float) -> Summary:
    nan = math.nan
    empty: dict[str, float | int] = dict.fromkeys(percentiles, nan)
    s = Summary(0, nan, nan, nan, nan, nan, nan, nan, nan, empty)
    s.percentile_ci = dict.fromkeys(percentiles, (None, None))
    s.confidence = confidence
    return s


def summarize_counter(
    counter: Counter,
    percentiles: dict[str, float] = PERCENTILES,
    confidence: float = CONFIDENCE,
    deadline: int | None = None,
) -> Summary:
    """Statistics of everything a :class:`Counter` has counted: exact while its bins are one
    value wide; otherwise the order statistics are bin upper values (``bin_error``)."""
    n = counter.n
    if n == 0:
        return _empty(percentiles, confidence)
    s = _finish(n, counter.lo, counter.hi, counter.total, counter.m2, math.nan, {})
    _order_statistics(s, counter.ranks, percentiles, confidence)
    if not counter.exact:
        s.exact = False
        s.bin_error = counter.width
    if deadline is not None:
        first_above = (deadline - counter.base) // counter.width + (1 if counter.exact else 0)
        above = int(counter.counts[max(first_above, 0) :].sum())
        s.deadline = _deadline(deadline, n, above, counter.hi)
    return s


def summarize(
    values: np.ndarray,
    percentiles: dict[str, float] = PERCENTILES,
    confidence: float = CONFIDENCE,
    deadline: int | None = None,
) -> Summary:
    """Exact statistics of integer samples."""
    v = np.asarray(values)
    if v.dtype.kind not in "iu":
        raise TypeError("latency samples must be integers")
    v = v.astype(np.int64, copy=False)
    n = len(v)
    if n == 0:
        return _empty(percentiles, confidence)
    lo, hi = int(v.min()), int(v.max())
    span = hi - lo + 1
    if span <= BINCOUNT_MAX_SPAN or span <= BINCOUNT_SPAN_PER_SAMPLE * n:
        counter = Counter(max_bins=max(span, 2))
        counter.add(v)
        return summarize_counter(counter, percentiles, confidence, deadline)
    total = exact_sum(v)
    if span < (1 << 62):
        shift = total // n
        d = v - shift  # exact integer shift keeps the float64 residuals small
        rest = (total - shift * n) / n
        sq = float(np.sum((d.astype(np.float64) - rest) ** 2))
    else:  # values spread over most of int64: float64 throughout (no overflow)
        sq = float(np.sum((v.astype(np.float64) - total / n) ** 2))
    s = _finish(n, lo, hi, total, sq, math.nan, {})

    def at_ranks(ranks: list[int]) -> dict[int, int]:
        part = np.partition(v, [r - 1 for r in ranks])
        return {r: int(part[r - 1]) for r in ranks}

    _order_statistics(s, at_ranks, percentiles, confidence)
    if deadline is not None:
        s.deadline = _deadline(deadline, n, int(np.count_nonzero(v > deadline)), hi)
    return s


def summarize_histogram(
    h: Histogram,
    counters: dict[str, int] | None = None,
    percentiles: dict[str, float] = PERCENTILES,
    confidence: float = CONFIDENCE,
    deadline: int | None = None,
) -> Summary:
    """Statistics from a histogram: percentiles are the upper end of their bin (inclusive,
    never above the maximum) and exact to within ``bin_error``; the mean is exact when the
    producer counted the sum (``counters['sum']``), else from bin midpoints; stdev from bin
    midpoints. Samples above a deadline are counted by bin upper values (conservative)."""
    counters = counters or {}
    n = h.total
    if n == 0:
        return _empty(percentiles, confidence)
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

    def at_ranks(ranks: list[int]) -> dict[int, int]:
        return {r: int(upper[int(np.searchsorted(cum, r))]) for r in ranks}

    mids = np.concatenate(([lo], (h.lo + h.hi - 1) / 2, [hi])).astype(np.float64)
    total = float(counters["sum"]) if "sum" in counters else float(np.dot(counts, mids))
    mean = total / n
    sq = float(np.dot(counts, (mids - mean) ** 2))
    s = _finish(n, lo, hi, 0, sq, math.nan, {})
    _order_statistics(s, at_ranks, percentiles, confidence)
    s.mean = mean
    s.jitter = max(hi - mean, mean - lo)
    s.rsd_pct = 100.0 * s.stdev / mean if n > 1 and mean else math.nan
    s.exact = False
    s.bin_error = h.max_bin_width
    if deadline is not None:
        s.deadline = _deadline(deadline, n, int(counts[upper > deadline].sum()), hi)
    return s


def summarize_series(
    series: Series,
    percentiles: dict[str, float] = PERCENTILES,
    confidence: float = CONFIDENCE,
    deadline: int | None = None,
) -> Summary:
    """Statistics of a series from its samples, or from its histogram when it has none.
    ``deadline`` is in the series' unit."""
    if series.has_samples:
        return summarize(series.latency, percentiles, confidence, deadline)
    if series.histogram is not None:
        return summarize_histogram(
            series.histogram, series.counters, percentiles, confidence, deadline
        )
    return _empty(percentiles, confidence)


#: Samples kept beside the counter while streaming, so that a wide-spread series that is not
#: too large is still summarised exactly (256 MiB of int64).
STREAM_KEEP = 1 << 25


class StreamSummarizer:
    """Statistics of a series that arrives in batches, in bounded memory.

    Every batch goes into a :class:`Counter` (at most ``max_bins`` bins). The batches are also
    kept while they total at most ``keep`` samples: if the counter had to widen its bins but
    all samples are still at hand, the exact in-memory statistics are computed instead. Only a
    series both too large to keep and too widely spread for ``max_bins`` gets bin-width
    statistics (``exact`` False, ``bin_error`` stated)."""

    def __init__(self, max_bins: int = MAX_BINS, keep: int = STREAM_KEEP) -> None:
        self.counter = Counter(max_bins=max_bins)
        self.keep = keep
        self.kept: list[np.ndarray] | None = []

    def add(self, values: np.ndarray) -> None:
        self.counter.add(values)
        if self.kept is not None:
            if self.counter.n <= self.keep:
                self.kept.append(values)
            else:
                self.kept = None

    def summary(
        self,
        percentiles: dict[str, float] = PERCENTILES,
        confidence: float = CONFIDENCE,
        deadline: int | None = None,
    ) -> Summary:
        if not self.counter.exact and self.kept is not None:
            return summarize(np.concatenate(self.kept), percentiles, confidence, deadline)
        return summarize_counter(self.counter, percentiles, confidence, deadline)


def deadline_in_unit(series: Series, deadline_ns: int) -> int:
    """A deadline in ns as a whole number of the series' units (cycles: rounded down; a
    latency of more cycles than that is above the deadline)."""
    if series.unit == "ns":
        return deadline_ns
    return int(Fraction(deadline_ns) / series.ns_per_unit)


def summarize_run_file(
    path: Path,
    percentiles: dict[str, float] = PERCENTILES,
    confidence: float = CONFIDENCE,
    deadline_ns: int | None = None,
    max_bins: int = MAX_BINS,
    progress: Callable[[int], None] | None = None,
) -> tuple[Run, list[Summary | None]]:
    """Statistics of every series of a run file, read one batch at a time (memory bounded by
    ``max_bins`` and the batch, not by the file). The run comes back without samples; its
    stage series get None. ``progress`` is called with the rows of each batch."""
    run, rows = read_run_header(path)
    streams = [StreamSummarizer(max_bins) for _ in run.series]
    for index, values in iter_latency(path):
        streams[index].add(values)
        if progress is not None:
            progress(len(values))
    out: list[Summary | None] = []
    for series, stream, n in zip(run.series, streams, rows, strict=True):
        if series.is_derived:
            out.append(None)
            continue
        deadline = None if deadline_ns is None else deadline_in_unit(series, deadline_ns)
        if n and stream.counter.n:
            out.append(stream.summary(percentiles, confidence, deadline))
        else:  # a histogram-only series, or one without samples
            out.append(summarize_series(series, percentiles, confidence, deadline))
    return run, out
