"""The one distribution type of latmon: integer latencies with their counts.

A :class:`Distribution` is built from samples (in memory, or streamed batch by batch from a run
file or a text file), from a histogram (bins, underflow, overflow, the producer's min/max/sum),
or by pooling other distributions; every statistic is one of its methods, computed with exact
integer arithmetic (docs/statistics.md):

- :meth:`Distribution.add` counts a batch of int64 samples (``numpy.bincount`` into dense bins
  one integer wide, :mod:`.dense`; memory is the bins, never the samples);
- :meth:`Distribution.from_histogram` (the bins by :mod:`.histogram`),
  :meth:`Distribution.from_samples`, :meth:`Distribution.from_series`,
  :meth:`Distribution.pool` build one;
- :meth:`at_rank`, :meth:`percentile`, :meth:`interval`, :meth:`minimum`, :meth:`maximum` give
  order statistics as :class:`~.bins.Bounded` values (ranks by :mod:`.ranks`); :meth:`mean`,
  :meth:`variance` (its bounds by :mod:`.spread`), :meth:`stdev`, :meth:`count_above`,
  :meth:`values_and_counts` the rest.

Binned data follow the package's one convention (:mod:`latmon.analysis.distribution`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from latmon.analysis.distribution.bins import (
    BATCH,
    DENSE_SPAN,
    MAX_BINS,
    NO_LOWER,
    NO_UPPER,
    Bounded,
    Finished,
    Part,
)
from latmon.analysis.distribution.dense import DenseBins
from latmon.analysis.distribution.histogram import histogram_bins
from latmon.analysis.distribution.ranks import nearest_rank, quantile_ci_ranks
from latmon.analysis.distribution.refine import exact_values
from latmon.analysis.distribution.sparse import SparseBins
from latmon.analysis.distribution.spread import variance_bounds
from latmon.analysis.exact import exact_sums, sqrt_rational
from latmon.model import ns_per_unit

if TYPE_CHECKING:
    from latmon.model import Histogram, Series


class Distribution:
    """Integer values of one unit (``ns``, or ``cycles`` of ``clock_hz``) with their counts."""

    def __init__(
        self, unit: str = "ns", clock_hz: int | None = None, max_bins: int = MAX_BINS
    ) -> None:
        if max_bins < 2:
            raise ValueError("a distribution needs at least 2 bins")
        self.unit = unit
        self.clock_hz = clock_hz
        self.max_bins = max_bins
        # dense part: streamed samples
        self._dense = DenseBins()
        # sparse part: sorted bins from histograms and pooled distributions
        self._parts = SparseBins()
        self._bin_error = 0
        #: the smallest and largest value when exactly known (samples, producer counters)
        self._known_min: int | None = None
        self._known_max: int | None = None
        # exact values at ranks found by refine()
        self._rank_values: dict[int, int] = {}
        self._finished: Finished | None = None

    # -- construction --------------------------------------------------------------------------

    @property
    def ns_per_unit(self) -> Fraction:
        """Exact nanoseconds per unit (:func:`latmon.model.ns_per_unit`)."""
        return ns_per_unit(self.unit, self.clock_hz)

    def add(self, values: np.ndarray) -> None:
        """Count a batch of integer samples."""
        v = np.asarray(values)
        if v.dtype != np.int64:
            if v.dtype.kind not in "iu":
                raise TypeError("latency samples must be integers")
            if v.dtype == np.uint64 and len(v) and int(v.max()) >= 1 << 63:
                raise OverflowError("latency samples above 2**63 - 1 cannot be counted")
            v = v.astype(np.int64)
        if len(v) == 0:
            return
        if len(v) > BATCH:
            for start in range(0, len(v), BATCH):
                self.add(v[start : start + BATCH])
            return
        self._finished = None
        self._rank_values = {}
        self._dense.add(v, self.max_bins)

    def add_counts(self, values: np.ndarray, counts: np.ndarray) -> None:
        """Count each of ``values`` (integers) ``counts`` times (HdrHistogram's
        ``record_value(v, count)``): what a batch of that many samples would add."""
        v = np.asarray(values, dtype=np.int64)
        c = np.asarray(counts, dtype=np.int64)
        if len(v) != len(c):
            raise ValueError("values and counts must have the same length")
        if np.any(c < 0):
            raise ValueError("counts must not be negative")
        keep = c > 0
        v, c = v[keep], c[keep]
        if not len(v):
            return
        self._finished = None
        self._rank_values = {}
        lo, hi = int(v.min()), int(v.max())
        low, high = lo, hi
        if self._dense.n:
            dense_min, dense_max = self._dense.extremes()
            low, high = min(lo, dense_min), max(hi, dense_max)
        if high - low >= min(self.max_bins, max(1 << 16, 8 * len(v))):
            # few values spread wide: kept exactly as distinct values (no dense bins between)
            order = np.argsort(v, kind="stable")
            u, start = np.unique(v[order], return_index=True)
            summed = np.add.reduceat(c[order], start)
            self._add_part(u, u, u, summed, np.zeros(len(u), bool))
            if self._known_min is not None:
                self._known_min = min(self._known_min, lo)
            if self._known_max is not None:
                self._known_max = max(self._known_max, hi)
            return
        self._dense.add_counts(v, c, self.max_bins)

    def _add_part(
        self,
        rep: np.ndarray,
        lo: np.ndarray,
        hi: np.ndarray,
        count: np.ndarray,
        open_bin: np.ndarray,
        sums: tuple[int, int] | None = None,
        true_sum: int | None = None,
    ) -> None:
        """Add bins sorted by ``rep`` to the sparse part (:meth:`.sparse.SparseBins.add`)."""
        if self._parts.add(rep, lo, hi, count, open_bin, sums, true_sum):
            self._finished = None
            self._rank_values = {}

    @classmethod
    def from_samples(
        cls,
        values: np.ndarray,
        unit: str = "ns",
        clock_hz: int | None = None,
        max_bins: int = MAX_BINS,
    ) -> Distribution:
        """Exact distribution of in-memory samples: dense counts when the values span at most
        ``DENSE_SPAN`` integers (or not many more than there are samples), else their distinct
        values (one sort)."""
        d = cls(unit, clock_hz, max_bins)
        v = np.asarray(values)
        if v.dtype.kind not in "iu":
            raise TypeError("latency samples must be integers")
        v = v.astype(np.int64, copy=False)
        if not len(v):
            return d
        lo, hi = int(v.min()), int(v.max())
        if hi - lo < max(min(max_bins, DENSE_SPAN), 4 * len(v)):
            d.max_bins = max(max_bins, hi - lo + 1)
            d.add(v)
            d.max_bins = max_bins
            return d
        u, c = np.unique(v, return_counts=True)
        d._add_part(u, u, u, c.astype(np.int64), np.zeros(len(u), bool), exact_sums(v))
        d._known_min, d._known_max = lo, hi
        return d

    @classmethod
    def from_histogram(
        cls,
        h: Histogram,
        counters: dict[str, int] | None = None,
        unit: str = "ns",
        clock_hz: int | None = None,
    ) -> Distribution:
        """A histogram's distribution: each bin [lo, hi) at its lower edge (raised to the
        producer's ``min``, at most its ``max``); underflow and overflow as open bins bounded
        by ``min``/``max`` when the producer recorded them. ``counters['sum']`` (an exact sum
        counted by the producer) makes the mean exact."""
        counters = counters or {}
        d = cls(unit, clock_hz)
        b = histogram_bins(h, counters)
        d._add_part(b.rep, b.lo, b.hi, b.count, b.open_bin, None, b.measured_sum)
        d._bin_error = h.max_bin_width
        if d.n:
            known_min, known_max = counters.get("min"), counters.get("max")
            d._known_min = None if known_min is None else int(known_min)
            d._known_max = None if known_max is None else int(known_max)
        return d

    @classmethod
    def from_series(cls, series: Series, max_bins: int = MAX_BINS) -> Distribution:
        """The distribution of a series: its samples, else its histogram (empty without)."""
        if series.has_samples:
            return cls.from_samples(series.latency, series.unit, series.clock_hz, max_bins)
        if series.histogram is not None and series.histogram.total:
            return cls.from_histogram(
                series.histogram, series.counters, series.unit, series.clock_hz
            )
        return cls(series.unit, series.clock_hz, max_bins)

    @classmethod
    def pool(cls, parts: Sequence[Distribution]) -> Distribution:
        """One distribution of all of ``parts``: in their unit when they share it, else each
        converted to ns (:meth:`in_ns`)."""
        if not parts:
            return cls()
        units = {(p.unit, p.clock_hz) for p in parts}
        if len(units) == 1:
            unit, clock = units.pop()
            members = list(parts)
        else:
            unit, clock = "ns", None
            members = [p.in_ns() for p in parts]
        out = cls(unit, clock)
        for p in members:
            out.merge(p)
        return out

    def merge(self, other: Distribution) -> None:
        """Add every value of ``other`` (same unit)."""
        if (other.unit, other.clock_hz) != (self.unit, self.clock_hz):
            raise ValueError("distributions of different units cannot be merged; use pool()")
        if not other.n:
            return
        mine = (self.minimum().exact_value, self.maximum().exact_value) if self.n else None
        theirs = (other.minimum().exact_value, other.maximum().exact_value)
        f = other._finish()
        self._add_part(f.rep, f.lo, f.hi, f.count, f.open_bin, other._sums(), other.exact_sum())
        dense_width = other._dense.width if other._dense.n and other._dense.width > 1 else 0
        self._bin_error = max(self._bin_error, other._bin_error, dense_width)
        if mine is None:
            self._known_min, self._known_max = theirs
        else:
            lows = [x for x in (mine[0], theirs[0]) if x is not None]
            highs = [x for x in (mine[1], theirs[1]) if x is not None]
            self._known_min = min(lows) if len(lows) == 2 else None
            self._known_max = max(highs) if len(highs) == 2 else None

    def in_ns(self) -> Distribution:
        """The same distribution in ns: exact when a cycle is a whole number of ns, else each
        value rounded to the nearest ns and bounded by the ns on either side."""
        if self.unit == "ns":
            return self
        f = self._finish()
        scale = self.ns_per_unit
        out = Distribution("ns")
        if scale.denominator == 1:
            k = scale.numerator
            s1, s2 = self._sums()
            true_sum = self.exact_sum()
            out._add_part(
                f.rep * k,
                np.where(f.lo == NO_LOWER, NO_LOWER, f.lo * k),
                np.where(f.hi == NO_UPPER, NO_UPPER, f.hi * k),
                f.count,
                f.open_bin,
                (s1 * k, s2 * k * k),
                None if true_sum is None else true_sum * k,
            )
            out._bin_error = self.bin_error * k
            lo_b, hi_b = self.minimum(), self.maximum()
            out._known_min = None if not lo_b.exact else int(lo_b.lo) * k  # type: ignore[arg-type]
            out._known_max = None if not hi_b.exact else int(hi_b.hi) * k  # type: ignore[arg-type]
            return out
        p, q = scale.numerator, scale.denominator
        reps = np.asarray([round(Fraction(x * p, q)) for x in f.rep.tolist()], np.int64)
        lo = np.asarray([x if x == NO_LOWER else x * p // q for x in f.lo.tolist()], np.int64)
        hi = np.asarray([x if x == NO_UPPER else -(-x * p // q) for x in f.hi.tolist()], np.int64)
        order = np.argsort(reps, kind="stable")
        out._add_part(reps[order], lo[order], hi[order], f.count[order], f.open_bin[order])
        out._bin_error = max(1, math.ceil(self.bin_error * scale))
        return out

    # -- the finished view ---------------------------------------------------------------------

    def _finish(self) -> Finished:
        if self._finished is not None:
            return self._finished
        parts: list[Part] = []
        if self._dense.n:
            lo, hi, c = self._dense.bins()
            parts.append((lo, lo, hi, c, np.zeros(len(c), bool)))
        parts.extend(self._parts.parts)
        if not parts:
            e = np.zeros(0, np.int64)
            self._finished = Finished(e, e, e, e, np.zeros(0, bool), e)
        elif len(parts) == 1:
            rep, lo, hi, c, o = parts[0]
            self._finished = Finished(rep, lo, hi, c, o, np.cumsum(c))
        else:
            rep = np.concatenate([p[0] for p in parts])
            order = np.argsort(rep, kind="stable")
            lo, hi = np.concatenate([p[1] for p in parts]), np.concatenate([p[2] for p in parts])
            c, o = np.concatenate([p[3] for p in parts]), np.concatenate([p[4] for p in parts])
            c = c[order]
            self._finished = Finished(rep[order], lo[order], hi[order], c, o[order], np.cumsum(c))
        return self._finished

    # -- sums ----------------------------------------------------------------------------------

    def _sums(self) -> tuple[int, int]:
        """(Σx, Σx²) of the values by the convention: samples as they are (exact), binned data
        at their representatives."""
        d1, d2 = self._dense.sums()
        return d1 + self._parts.sum, d2 + self._parts.sumsq

    def exact_sum(self) -> int | None:
        """Σx exactly: of the samples, plus the producers' recorded sums of binned data; None
        when a binned part has none."""
        if self._parts.true_sum is None:
            return None
        return self._dense.sums()[0] + self._parts.true_sum

    # -- properties ----------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """The number of values."""
        return self._dense.n + self._parts.n

    @property
    def exact(self) -> bool:
        """True when every value is known exactly (no bin wider than one integer, no open
        bin)."""
        return self._parts.exact and self._dense.width == 1

    @property
    def has_open_bin(self) -> bool:
        """True when some values lie in an overflow or underflow bin."""
        return self._parts.has_open_bin

    def overflow(self) -> tuple[int, int, int | None] | None:
        """The values in open bins above every other value, as (their lowest possible value,
        how many, the largest value or None when nobody recorded it); None without such
        values. Where between those bounds each of them lies is unknown."""
        if not self.has_open_bin:
            return None
        f = self._finish()
        above = self._overflow_bins(f)
        if not above.any():
            return None
        return int(f.lo[above].min()), int(f.count[above].sum()), self.maximum().hi

    @staticmethod
    def _overflow_bins(f: Finished) -> np.ndarray:
        """Which bins are open ones above every closed bin (a histogram's overflow)."""
        closed = f.rep[~f.open_bin]
        return f.open_bin & (f.rep >= (closed.max() if len(closed) else np.iinfo(np.int64).min))

    @property
    def bin_error(self) -> int:
        """The widest bin: a binned order statistic's true value lies in [value, value +
        bin_error) (0 when exact)."""
        if self.exact:
            return 0
        return max(self._bin_error, self._dense.width if self._dense.n else 0, 1)

    # -- order statistics ------------------------------------------------------------------------

    def at_rank(self, rank: int) -> Bounded:
        """The rank-th smallest value (1-based)."""
        n = self.n
        if not 1 <= rank <= n:
            raise ValueError(f"rank {rank} outside 1..{n}")
        if rank in self._rank_values:
            v = self._rank_values[rank]
            return Bounded(v, v, v)
        f = self._finish()
        i = int(np.searchsorted(f.cum, rank))
        value = None if bool(f.open_bin[i]) else int(f.rep[i])
        lo, hi = int(f.lo[i]), int(f.hi[i])
        if not self._parts.exact and len(self._parts.parts) + (1 if self._dense.n else 0) > 1:
            # pooled bins may overlap: the true k-th value lies between the k-th smallest
            # lower bound and the k-th smallest upper bound
            order = np.argsort(f.lo, kind="stable")
            lo = int(f.lo[order][int(np.searchsorted(np.cumsum(f.count[order]), rank))])
            order = np.argsort(f.hi, kind="stable")
            hi = int(f.hi[order][int(np.searchsorted(np.cumsum(f.count[order]), rank))])
        return Bounded(value, None if lo == NO_LOWER else lo, None if hi == NO_UPPER else hi)

    def percentile(self, q: float) -> Bounded:
        """Nearest-rank q-quantile: the value at rank ⌈q·n⌉ (q as the decimal it is written)."""
        return self.at_rank(nearest_rank(q, self.n))

    def interval(self, q: float, confidence: float) -> tuple[int | None, int | None]:
        """Distribution-free confidence interval of the q-quantile: the lower bound of the order
        statistic at the binomial rank l and the upper bound of the one at u (Hahn & Meeker);
        None on a side that n values cannot bound."""
        low_rank, high_rank = quantile_ci_ranks(q, self.n, confidence)
        low = None if low_rank is None else self.at_rank(low_rank).lo
        high = None if high_rank is None else self.at_rank(high_rank).hi
        return low, high

    def _extreme(self, smallest: bool) -> Bounded:
        known = self._known_min if smallest else self._known_max
        if self._parts.n and known is None and not self._parts.exact:
            return self.at_rank(1 if smallest else self.n)
        candidates = []
        if self._dense.n:
            dense_min, dense_max = self._dense.extremes()
            candidates.append(dense_min if smallest else dense_max)
        if self._parts.n:
            if known is None:  # exact parts: their first or last value
                known = self._parts.extreme(smallest)
            candidates.append(known)
        value = (min if smallest else max)(candidates)
        return Bounded(value, value, value)

    def minimum(self) -> Bounded:
        """The smallest value (exact when samples or the producer's min say it)."""
        if not self.n:
            raise ValueError("the minimum of no values")
        return self._extreme(True)

    def maximum(self) -> Bounded:
        """The largest value (exact when samples or the producer's max say it)."""
        if not self.n:
            raise ValueError("the maximum of no values")
        return self._extreme(False)

    def refine(self, reread: Callable[[], Iterable[np.ndarray]], ranks: Iterable[int]) -> None:
        """Make the values at ``ranks`` exact after the bins had to widen: read the same samples
        again (``reread()`` yields them in batches, as :meth:`add` got them) and count only
        those inside the bins that hold the ranks, one integer per bin, pass after pass."""
        dense = self._dense
        if dense.width == 1 or self._parts.n or not dense.n:
            return
        wanted = sorted({r for r in ranks if 1 <= r <= self.n} - set(self._rank_values))
        # (bin start, bin width, rank within the bin) per wanted rank
        targets: dict[int, tuple[int, int, int]] = {}
        f = self._finish()
        nonzero = np.flatnonzero(dense.counts)
        for r in wanted:
            i = int(np.searchsorted(f.cum, r))
            start = dense.base + int(nonzero[i]) * dense.width
            before = int(f.cum[i - 1]) if i else 0
            targets[r] = (start, dense.width, r - before)
        self._rank_values.update(exact_values(reread, targets, self.max_bins))

    # -- moments -------------------------------------------------------------------------------

    def mean(self) -> Fraction:
        """Σx / n exactly: of the samples, or the producer's recorded sum of binned data, else
        of binned values by the convention."""
        if not self.n:
            raise ValueError("the mean of no values")
        total = self.exact_sum()
        return Fraction(self._sums()[0] if total is None else total, self.n)

    def mean_bounds(self) -> tuple[Fraction | None, Fraction | None]:
        """Bounds of the true mean: every binned value at its lower and at its upper bound
        (None: an open bin leaves that side unbounded); equal when the sum is known."""
        if self.exact_sum() is not None:
            m = self.mean()
            return m, m
        n = self.n
        dense = self._dense.sums()[0]
        lo_sum, hi_sum = self._parts.bound_sums()
        return (
            None if lo_sum is None else Fraction(dense + lo_sum, n),
            None if hi_sum is None else Fraction(dense + hi_sum, n),
        )

    def variance(self, ddof: int = 1) -> Fraction | None:
        """Σ(x - mean)² / (n - ddof) as an exact rational, from exact integer Σx and Σx² (of
        the values by the convention for binned data); None when n <= ddof."""
        n = self.n
        if n <= ddof:
            return None
        s1, s2 = self._sums()
        return Fraction(n * s2 - s1 * s1, n * (n - ddof))

    def variance_bounds(self, ddof: int = 1) -> tuple[Fraction | None, Fraction | None]:
        """Bounds of the true variance when values are binned: the least and the most
        Σ(x - mean)² / (n - ddof) over every placement of each binned value inside its bin
        (:func:`~.spread.variance_bounds`; None: unbounded). Equal to the variance when every
        value is exact. Exact rationals."""
        n = self.n
        if n <= ddof:
            return None, None
        if self._parts.exact:
            v = self.variance(ddof)
            return v, v
        d1, d2 = self._dense.sums()
        return variance_bounds(n, ddof, (self._dense.n, d1, d2), self._parts.bins())

    def stdev(self, ddof: int = 1) -> float | None:
        """√variance, correctly rounded to float64 (the same bits on every machine)."""
        var = self.variance(ddof)
        return None if var is None else sqrt_rational(var)

    def count_above(self, threshold: int) -> tuple[int, int]:
        """(at least, at most) values above ``threshold``: equal when exact, else the bins that
        straddle it make the difference."""
        f = self._finish()
        surely = int(f.count[f.lo > threshold].sum())
        maybe = int(f.count[f.hi > threshold].sum())
        return surely, maybe

    def values_and_counts(self, overflow: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Distinct values (by the convention for binned data) with their counts, ascending;
        without the :meth:`overflow`'s values when ``overflow`` is False."""
        f = self._finish()
        rep, count = f.rep, f.count
        if not overflow and self.has_open_bin:
            keep = ~self._overflow_bins(f)
            rep, count = rep[keep], count[keep]
        if not len(rep):
            return rep, count
        change = np.flatnonzero(np.diff(rep)) + 1
        starts = np.concatenate(([0], change))
        return rep[starts], np.add.reduceat(count, starts)
