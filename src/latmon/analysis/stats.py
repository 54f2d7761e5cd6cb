"""The statistics of one series, from its :class:`~latmon.analysis.distribution.counts.Distribution`
(docs/statistics.md). Every command — ``stats``, ``compare``, ``report`` — gets its figures from
:func:`summarize`, so they print the same numbers for the same data.

Definitions:

- ``mean``: the exact integer sum divided by n (a rational, rounded once for output);
- ``median``: the middle value, or the mean of the two middle values for even n;
- ``pXX``: nearest rank — the smallest value with at least ⌈q·n⌉ values at or below it, the
  rank computed exactly (for these six q the same as numpy's ``quantile(x, q,
  method="inverted_cdf")``, which works on the float of q); always a measured value;
- ``stdev``: √(Σ(x - mean)² / (n - 1)) from exact integer Σx and Σx², correctly rounded;
  ``stdev_pop`` divides by n; for binned data also the range every placement of the values in
  their bins allows (``stdev_range``), shown in tables where an overflow or underflow bin
  makes it matter;
- ``jitter``: max(max - mean, mean - min), as in the published studies;
- ``rsd_pct``: 100 · stdev / mean;
- ``pXX_ci``: distribution-free confidence interval of each percentile (binomial order
  statistics, Hahn & Meeker); None on a side that n values cannot bound.

Binned data (histograms, coarsened bins): every value stands at its bin's lower edge (see
:mod:`latmon.analysis.distribution.counts`); order statistics and the mean also carry the bounds of
the true value (``<key>_range``), and an order statistic inside an open overflow bin has no value,
only its lower bound ("≥ bound").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from latmon.analysis.distribution.bins import Bounded
from latmon.analysis.distribution.counts import Distribution
from latmon.analysis.distribution.ranks import nearest_rank, quantile_ci_ranks
from latmon.analysis.exact import sqrt_rational
from latmon.model import Series
from latmon.tables import Cell, plain

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

Number = int | float


def number(value: Fraction | int | None) -> Number | None:
    """A JSON number: an int when whole, else the float nearest to the exact value."""
    if value is None:
        return None
    if isinstance(value, int):
        return value
    if value.denominator == 1:
        return int(value.numerator)
    return float(value)


@dataclass
class Deadline:
    """How a series meets a deadline (native unit): values above it, at least and at most
    (they differ only when bins straddle the deadline; the verdict uses the larger)."""

    deadline: int
    above: int
    above_at_most: int
    count: int
    worst: Bounded

    @property
    def verdict(self) -> str:
        return "pass" if self.above_at_most == 0 else "FAIL"


@dataclass
class Summary:
    """The statistics of one distribution, exact, in its native unit; ``scale`` converts to the
    shown unit (ns per cycle, or 1)."""

    unit: str
    count: int
    minimum: Bounded
    maximum: Bounded
    mean: Fraction | None
    mean_bounds: tuple[Fraction | None, Fraction | None]
    median: Fraction | None
    median_bounds: tuple[int | None, int | None]
    variance: Fraction | None
    variance_pop: Fraction | None
    percentiles: dict[str, Bounded]
    percentile_ci: dict[str, tuple[int | None, int | None]]
    confidence: float
    exact: bool
    bin_error: int
    deadline: Deadline | None = None
    scale: Fraction = field(default_factory=lambda: Fraction(1))
    #: bounds of the true variance (n - 1, and n) of binned data (None: unbounded)
    variance_bounds: tuple[Fraction | None, Fraction | None] = (None, None)
    variance_pop_bounds: tuple[Fraction | None, Fraction | None] = (None, None)
    #: some values lie in an overflow or underflow bin
    open_bins: bool = False

    # -- values in the shown unit ----------------------------------------------------------

    def _s(self, value: Fraction | int | None) -> Fraction | None:
        return None if value is None else Fraction(value) * self.scale

    def value(self, key: str) -> Fraction | float | None:
        """A statistic in the shown unit (exact rational, or a float for the roots)."""
        if key == "count":
            return Fraction(self.count)
        if key == "min":
            return self._s(self.minimum.value)
        if key == "max":
            return self._s(self.maximum.value)
        if key == "mean":
            return self._s(self.mean)
        if key == "median":
            return self._s(self.median)
        if key in ("stdev", "stdev_pop"):
            var = self.variance if key == "stdev" else self.variance_pop
            return None if var is None else sqrt_rational(var * self.scale * self.scale)
        if key == "jitter":
            return self._s(self.jitter)
        if key == "rsd_pct":
            stdev = self.value("stdev")
            if stdev is None or not self.mean:
                return None
            return 100.0 * float(stdev) / float(self.mean * self.scale)
        if key in self.percentiles:
            return self._s(self.percentiles[key].value)
        raise KeyError(key)

    def bounds(self, key: str) -> tuple[Fraction | None, Fraction | None]:
        """(lowest, highest) possible true value of a statistic in the shown unit (binned
        data); equal to the value when exact."""
        if key == "min":
            return self._s(self.minimum.lo), self._s(self.minimum.hi)
        if key == "max":
            return self._s(self.maximum.lo), self._s(self.maximum.hi)
        if key == "mean":
            return self._s(self.mean_bounds[0]), self._s(self.mean_bounds[1])
        if key == "median":
            return self._s(self.median_bounds[0]), self._s(self.median_bounds[1])
        if key in self.percentiles:
            b = self.percentiles[key]
            return self._s(b.lo), self._s(b.hi)
        if key in ("stdev", "stdev_pop"):
            low, high = self.variance_bounds if key == "stdev" else self.variance_pop_bounds
            return self._root(low, math.nextafter, -math.inf), self._root(
                high, math.nextafter, math.inf
            )
        if key == "jitter" and not self.exact:
            low, high = self._jitter_bounds()
            return self._s(low), self._s(high)
        if key == "rsd_pct" and not self.exact:
            (s_lo, s_hi), (m_lo, m_hi) = self.bounds("stdev"), self.bounds("mean")
            if s_lo is None or not m_lo or m_lo < 0:
                return None, None
            low = None if m_hi is None else Fraction(100) * s_lo / m_hi
            high = None if s_hi is None else Fraction(100) * s_hi / m_lo
            return low, high
        v = self.value(key)
        f = None if v is None else Fraction(v)
        return f, f

    def _root(
        self, variance: Fraction | None, step: Callable[[float, float], float], to: float
    ) -> Fraction | None:
        """√variance in the shown unit, rounded outwards by one float step (a bound stays one)."""
        if variance is None:
            return None
        root = sqrt_rational(variance * self.scale * self.scale)
        return Fraction(max(0.0, step(root, to)) if root else root)

    def ci(self, key: str) -> tuple[Fraction | None, Fraction | None]:
        lo, hi = self.percentile_ci[key]
        return self._s(lo), self._s(hi)

    @property
    def jitter(self) -> Fraction | None:
        """max(max - mean, mean - min), native unit."""
        if self.mean is None or self.minimum.value is None or self.maximum.value is None:
            return None
        return max(self.maximum.value - self.mean, self.mean - self.minimum.value)

    def _jitter_bounds(self) -> tuple[Fraction | None, Fraction | None]:
        """Bounds of max(max - mean, mean - min) over every placement of binned values, native
        unit: the highest from the extreme mean and extremes, the lowest from each term's
        least value and half the least spread (the jitter is at least either term, and at least
        half of max - min whatever the mean)."""
        (m_lo, m_hi), lo_min, hi_min = self.mean_bounds, self.minimum.lo, self.minimum.hi
        lo_max, hi_max = self.maximum.lo, self.maximum.hi
        if m_lo is None or lo_min is None or lo_max is None:
            return None, None
        candidates = [Fraction(lo_max - hi_min, 2)] if hi_min is not None else []
        if m_hi is not None:
            candidates.append(lo_max - m_hi)
        if hi_min is not None:
            candidates.append(m_lo - hi_min)
        low = max(candidates) if candidates else None
        high = None
        if hi_max is not None and m_hi is not None:
            high = max(hi_max - m_lo, m_hi - lo_min)
        return (None if low is None else max(low, Fraction(0))), high

    def in_unit(self, unit: str, scale: Fraction) -> Summary:
        """The same statistics shown in another unit (e.g. cycles in ns)."""
        out = Summary(**{k: getattr(self, k) for k in self.__dataclass_fields__})
        out.unit, out.scale = unit, scale
        return out

    def as_dict(self) -> dict[str, Number | None]:
        """The statistics as JSON numbers: SUMMARY_KEYS, then stdev_pop and EXTRA_KEYS."""
        out: dict[str, Number | None] = {"count": self.count}
        for key in (*SUMMARY_KEYS[1:], "stdev_pop", *EXTRA_KEYS):
            if key.startswith("p") and key not in self.percentiles:
                continue
            v = self.value(key)
            out[key] = v if isinstance(v, float) or v is None else number(v)
        return out

    def ci_dict(self) -> dict[str, list[Number | None]]:
        """``pXX_ci`` -> [low, high] (None: unbounded with this many values)."""
        return {f"{k}_ci": [number(b) for b in self.ci(k)] for k in self.percentile_ci}

    def range_dict(self) -> dict[str, list[Number | None]]:
        """``<key>_range`` -> [lowest, highest] possible true value, for binned data only."""
        if self.exact:
            return {}
        keys = ("min", "max", "mean", "median", "stdev", "jitter", "rsd_pct", *self.percentiles)
        return {f"{k}_range": [number(b) for b in self.bounds(k)] for k in keys}

    def deadline_dict(self) -> dict[str, object]:
        d = self.deadline
        if d is None:
            return {}
        worst = self._s(d.worst.value)
        return {
            "deadline": number(self._s(d.deadline)),
            "above_deadline": d.above_at_most,
            "above_fraction": d.above_at_most / d.count if d.count else None,
            "worst": number(worst),
            "margin": number(None if worst is None else self._s(d.deadline) - worst),  # type: ignore[operator]
            "verdict": d.verdict,
        }


def summarize(
    dist: Distribution,
    percentiles: dict[str, float] = PERCENTILES,
    confidence: float = CONFIDENCE,
    deadline: int | None = None,
    reread: Callable[[], Iterable[np.ndarray]] | None = None,
) -> Summary:
    """Every statistic of ``dist``. When its bins had to widen and the samples can be read
    again (``reread``), the order statistics used are made exact first."""
    n = dist.n
    if n == 0:
        none = Bounded(None, None, None)
        return Summary(
            dist.unit,
            0,
            none,
            none,
            None,
            (None, None),
            None,
            (None, None),
            None,
            None,
            dict.fromkeys(percentiles, none),
            dict.fromkeys(percentiles, (None, None)),
            confidence,
            True,
            0,
        )
    mid = [(n + 1) // 2, n // 2 + 1]
    ranks = {k: nearest_rank(q, n) for k, q in percentiles.items()}
    ci_ranks = {k: quantile_ci_ranks(q, n, confidence) for k, q in percentiles.items()}
    wanted = {*mid, *ranks.values(), *(r for pair in ci_ranks.values() for r in pair if r)}
    if not dist.exact and reread is not None:
        dist.refine(reread, wanted | {1, n})
    at = {r: dist.at_rank(r) for r in sorted(wanted)}
    m1, m2 = at[mid[0]], at[mid[1]]
    median = None
    if m1.value is not None and m2.value is not None:
        median = Fraction(m1.value + m2.value, 2)
    med_lo = None if m1.lo is None or m2.lo is None else (m1.lo + m2.lo) // 2
    med_hi = None if m1.hi is None or m2.hi is None else -(-(m1.hi + m2.hi) // 2)
    pct = {k: at[r] for k, r in ranks.items()}
    cis = {
        k: (None if lo is None else at[lo].lo, None if hi is None else at[hi].hi)
        for k, (lo, hi) in ci_ranks.items()
    }
    used = [dist.minimum(), dist.maximum(), m1, m2, *pct.values()]
    exact = dist.exact or all(b.exact for b in used)
    s = Summary(
        unit=dist.unit,
        count=n,
        minimum=dist.minimum(),
        maximum=dist.maximum(),
        mean=dist.mean(),
        mean_bounds=dist.mean_bounds(),
        median=median,
        median_bounds=(med_lo, med_hi),
        variance=dist.variance(1),
        variance_pop=dist.variance(0),
        percentiles=pct,
        percentile_ci=cis,
        confidence=confidence,
        exact=exact and (dist.exact_sum() is not None),
        bin_error=0 if exact else dist.bin_error,
        variance_bounds=dist.variance_bounds(1),
        variance_pop_bounds=dist.variance_bounds(0),
        open_bins=dist.has_open_bin,
    )
    if deadline is not None:
        surely, maybe = dist.count_above(deadline)
        if not dist.exact and reread is not None and surely != maybe:
            surely = maybe = sum(int(np.count_nonzero(np.asarray(b) > deadline)) for b in reread())
        s.deadline = Deadline(deadline, surely, maybe, n, s.maximum)
    return s


def summarize_series(
    series: Series,
    percentiles: dict[str, float] = PERCENTILES,
    confidence: float = CONFIDENCE,
    deadline: int | None = None,
) -> Summary:
    """Statistics of a series from its samples, or from its histogram when it has none.
    ``deadline`` is in the series' unit."""
    return summarize(Distribution.from_series(series), percentiles, confidence, deadline)


def deadline_in_unit(series: Series, deadline_ns: int) -> int:
    """A deadline in ns as a whole number of the series' units (cycles: rounded down; a
    latency of more cycles than that is above the deadline)."""
    if series.unit == "ns":
        return deadline_ns
    return int(Fraction(deadline_ns) / series.ns_per_unit)


# Statistics of every value (not order statistics) that a value in an open bin moves without
# bound: with such a bin a table shows their range, not the convention's figure.
_RANGED = ("mean", "jitter", "stdev", "stdev_pop", "rsd_pct")


def stat_cell(summary: Summary, key: str) -> Cell:
    """One statistic as a table cell, the same in every command: an order statistic inside an
    open overflow bin as "≥ bound" (never as the maximum), interval keys (``p99_ci``) as
    "[low, high]", rsd_pct with two decimals."""
    if key.endswith("_ci"):
        lo, hi = summary.ci(key[:-3])
        return Cell.made_of("[{0}, {1}]", lo, hi, plain_text=f"{plain(lo)};{plain(hi)}")
    value = summary.value(key)
    if key in _RANGED and summary.open_bins and value is not None:
        # an overflow value could lie anywhere above its bin's edge: the range, not the value
        # of the convention (which places it at the edge and can be far too small)
        lo, hi = summary.bounds(key)
        digits = 2 if key == "rsd_pct" else 1
        if lo is None:
            return Cell.of(None)
        if hi is None:
            return Cell.made_of("≥{0}", lo, plain_text=f">={plain(lo)}", digits=digits)
        return Cell.made_of("{0}…{1}", lo, hi, plain_text=f"{plain(lo)};{plain(hi)}", digits=digits)
    if value is None and summary.count and key in (*summary.percentiles, "min", "max", "median"):
        lo, hi = summary.bounds(key)
        if lo is not None:
            return Cell.made_of("≥{0}", lo, plain_text=f">={plain(lo)}")
        if hi is not None:
            return Cell.made_of("≤{0}", hi, plain_text=f"<={plain(hi)}")
    return Cell.of(value, 2 if key == "rsd_pct" else 1)
