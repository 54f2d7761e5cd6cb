"""The one distribution type of latmon: integer latencies with their counts.

A :class:`Distribution` is built from samples (in memory, or streamed batch by batch from a run
file or a text file), from a histogram (bins, underflow, overflow, the producer's min/max/sum),
or by pooling other distributions; every statistic is one of its methods, computed with exact
integer arithmetic (docs/statistics.md):

- :meth:`Distribution.add` counts a batch of int64 samples (``numpy.bincount`` into dense bins
  one integer wide; memory is the bins, never the samples);
- :meth:`Distribution.from_histogram`, :meth:`Distribution.from_samples`,
  :meth:`Distribution.from_series`, :meth:`Distribution.pool` build one;
- :meth:`at_rank`, :meth:`percentile`, :meth:`interval`, :meth:`minimum`, :meth:`maximum` give
  order statistics as :class:`Bounded` values; :meth:`mean`, :meth:`variance`,
  :meth:`stdev`, :meth:`count_above`, :meth:`values_and_counts` the rest.

**Binned data, one convention.** A value known only to lie in a bin [lo, hi) stands at the bin's
lower edge ``lo`` — the value a truncating tool such as cyclictest wrote (bucket k is k µs) —
raised to the producer's recorded minimum and never above its recorded maximum; every statistic
(order statistics, mean, variance, jitter) uses that one value, and order statistics also carry
the bounds of the true value. An overflow bin (values at or above ``overflow_lo``) and an
underflow bin are *open*: an order statistic that falls into one has no value, only bounds
(``≥ overflow_lo``), and is never reported as the maximum.

Samples spread over more integers than ``max_bins`` are counted in coarser bins (width doubled
until they fit); count, min, max, Σx and Σx² stay exact, and :meth:`refine` makes chosen ranks
exact again from a second pass over the data (a run file or a text file can be read again).
Over 500 lines on purpose: one class whose methods share its invariants (exact integer
bins, the bounds each statistic carries, the batch-streaming state); split, each part would
reach into the others' state.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from latmon.analysis.exact import binomial_ppf, exact_sums, sqrt_rational, weighted_offset_sums

if TYPE_CHECKING:
    from latmon.model import Histogram, Series

#: Default bound on the dense bins (512 MiB of int64 counts at most; ns latencies spread over
#: up to 67 ms stay one integer per bin).
MAX_BINS = 1 << 26
#: Samples per bincount call (a slice that stays in the CPU cache).
BATCH = 1 << 20
#: Samples already in memory are counted densely when they span at most this many integers (8
#: MiB of counts) or at most four per sample; else by their distinct values. A run of 50,000
#: emulated wake-ups with one 35 ms outlier would otherwise cost 269 MiB of mostly empty bins,
#: and a report holds one such distribution per series.
DENSE_SPAN = 1 << 20
#: Sentinels of an open bound (values themselves are limited to |x| < 2^62 by every reader).
NO_LOWER = -(1 << 63)
NO_UPPER = (1 << 63) - 1


class Bounded(NamedTuple):
    """An order statistic: ``value`` by the binned-data convention (None when it falls into an
    open overflow or underflow bin) and the bounds ``lo`` <= true value <= ``hi`` (None: no
    bound on that side). For exact data value == lo == hi."""

    value: int | None
    lo: int | None
    hi: int | None

    @property
    def exact(self) -> bool:
        return self.value is not None and self.lo == self.hi == self.value


@dataclass
class _Finished:
    """Sorted representatives with bounds and counts (the finished view of a distribution)."""

    rep: np.ndarray  # int64, sorted ascending
    lo: np.ndarray  # int64 lower bounds (NO_LOWER: open)
    hi: np.ndarray  # int64 upper bounds, inclusive (NO_UPPER: open)
    count: np.ndarray  # int64
    open_bin: np.ndarray  # bool: an overflow/underflow bin
    cum: np.ndarray  # cumulative counts in rep order


_Part = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


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
        # dense part (streamed samples): bin i holds [base + i*width, base + (i+1)*width)
        self._base = 0
        self._width = 1
        self._counts = np.zeros(0, dtype=np.int64)
        self._dense_n = 0
        self._dense_min = 0
        self._dense_max = 0
        # exact (Σx, Σx²) of the dense samples once the bins are wider than 1
        self._coarse_sums: tuple[int, int] | None = None
        # sparse part: sorted bins from histograms and pooled distributions
        self._parts: list[_Part] = []
        self._parts_n = 0
        self._parts_sum = 0
        self._parts_sumsq = 0
        self._parts_exact = True
        #: exact Σx of the sparse part: its exact values plus the producers' recorded sums of
        #: binned data (None when a binned part has no recorded sum)
        self._parts_true_sum: int | None = 0
        self._bin_error = 0
        #: the smallest and largest value when exactly known (samples, producer counters)
        self._known_min: int | None = None
        self._known_max: int | None = None
        # exact values at ranks found by refine()
        self._rank_values: dict[int, int] = {}
        self._finished: _Finished | None = None

    # -- construction --------------------------------------------------------------------------

    @property
    def ns_per_unit(self) -> Fraction:
        """Exact nanoseconds per unit."""
        if self.unit == "ns":
            return Fraction(1)
        assert self.clock_hz
        return Fraction(1_000_000_000, self.clock_hz)

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
        if (
            self._dense_n
            and self._width == 1
            and self._base == 0
            and self._coarse_sums is None
            and int(v.max()) < self.max_bins
        ):
            # the common case: bincount refuses negative values itself, and min and max follow
            # from the counts when they are needed. The largest value is checked first:
            # bincount allocates max + 1 counts (terabytes for one outlier of 10^12, and at
            # 2^63 - 1 the length wraps and it writes outside its memory)
            try:
                c = np.bincount(v, minlength=len(self._counts))
            except ValueError:
                pass  # a negative value: the general path below
            else:
                if len(c) > len(self._counts):
                    grown = min(self.max_bins, max(len(c), 2 * len(self._counts)))
                    counts = np.zeros(grown, dtype=np.int64)
                    counts[: len(self._counts)] = self._counts
                    self._counts = counts
                self._counts[: len(c)] += c
                self._dense_n += len(v)
                self._extremes_known = False
                return
        self._sync_extremes()
        lo, hi = int(v.min()), int(v.max())
        if self._dense_n == 0:
            self._dense_min, self._dense_max = lo, hi
            # start the bins at 0 when the data allow it: bincount then needs no subtraction
            if 0 <= lo <= max(4096, hi - lo) and hi < self.max_bins:
                self._base, self._counts = 0, np.zeros(hi + 1, dtype=np.int64)
        else:
            self._dense_min = min(self._dense_min, lo)
            self._dense_max = max(self._dense_max, hi)
        self._fit()
        if self._coarse_sums is not None:
            s1, s2 = exact_sums(v)
            self._coarse_sums = (self._coarse_sums[0] + s1, self._coarse_sums[1] + s2)
        self._dense_n += len(v)
        self._counts += np.bincount(self._offsets(v), minlength=len(self._counts))

    def _offsets(self, v: np.ndarray) -> np.ndarray:
        """The dense bin of each value: (v - base) // width, computed as v // width - base //
        width (the base is a multiple of the width) in int64 arithmetic that wraps. The
        result lies in [0, max_bins), so it is right even when the values span the whole int64
        range (the latmon-log allows any int64) or the base lies below -2^63."""
        w = self._width
        k = self._base // w
        if w == 1 and k == 0:
            return v
        if w == 1:
            q = v
        elif w < 1 << 63:
            q = v // np.int64(w)
        else:  # a bin 2^63 wide (a few bins over the whole int64 range): -1 or 0
            q = -(v < 0).astype(np.int64)
        return q - np.int64((k + (1 << 63)) % (1 << 64) - (1 << 63))

    _extremes_known = True

    def _sync_extremes(self) -> None:
        """Min and max of the dense samples from the counts, after fast-path batches."""
        if self._extremes_known or not self._dense_n:
            self._extremes_known = True
            return
        nonzero = np.flatnonzero(self._counts)
        self._dense_min = self._base + int(nonzero[0]) * self._width
        self._dense_max = self._base + int(nonzero[-1]) * self._width
        self._extremes_known = True

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
        self._sync_extremes()
        lo, hi = int(v.min()), int(v.max())
        low = min(lo, self._dense_min) if self._dense_n else lo
        high = max(hi, self._dense_max) if self._dense_n else hi
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
        if self._dense_n == 0:
            self._dense_min, self._dense_max = lo, hi
        else:
            self._dense_min = min(self._dense_min, lo)
            self._dense_max = max(self._dense_max, hi)
        self._fit()
        if self._coarse_sums is not None:
            vl, cl = v.tolist(), c.tolist()
            s1 = sum(x * k for x, k in zip(vl, cl, strict=True))
            s2 = sum(x * x * k for x, k in zip(vl, cl, strict=True))
            self._coarse_sums = (self._coarse_sums[0] + s1, self._coarse_sums[1] + s2)
        self._dense_n += int(c.sum())
        np.add.at(self._counts, self._offsets(v), c)

    def _fit(self) -> None:
        """Make the dense bins cover [min, max] of the samples so far: grow the array (with
        headroom) and, only when the span exceeds ``max_bins``, widen the bins."""
        while True:
            w = self._width
            first = self._dense_min - self._dense_min % w
            if (self._dense_max - first) // w + 1 <= self.max_bins:
                break
            self._widen()
        have = len(self._counts)
        end = self._base + have * w
        if have and first >= self._base and self._dense_max < end:
            return
        needed = (self._dense_max - first) // w + 1
        if not have:
            new_base, size = first, needed
        elif first >= self._base:  # growing upwards: headroom above
            from_base = (self._dense_max - self._base) // w + 1
            if from_base <= self.max_bins:
                new_base, size = self._base, min(self.max_bins, max(from_base, 2 * have))
            else:
                new_base, size = first, needed
        else:  # growing downwards: headroom below
            size = min(self.max_bins, max(needed, 2 * have))
            new_base = first - (size - needed) * w
        counts = np.zeros(size, dtype=np.int64)
        if have:
            offset = (self._base - new_base) // w
            src_from = max(0, -offset)
            src_to = min(have, size - offset)
            if src_to > src_from:
                counts[offset + src_from : offset + src_to] = self._counts[src_from:src_to]
        self._counts, self._base = counts, new_base

    def _widen(self) -> None:
        """Double the bin width (pairs merged, base aligned to the new width); the exact sums
        of what was counted so far are kept first."""
        if self._coarse_sums is None:
            self._coarse_sums = self._dense_sums()
        width = self._width * 2
        new_base = self._base - self._base % width
        pad = (self._base - new_base) // self._width
        counts = np.concatenate((np.zeros(pad, dtype=np.int64), self._counts))
        if len(counts) % 2:
            counts = np.concatenate((counts, np.zeros(1, dtype=np.int64)))
        self._counts = counts[0::2] + counts[1::2]
        self._base, self._width = new_base, width

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
        """Add bins sorted by ``rep``; ``sums`` are (Σrep·c, Σrep²·c) when the caller has them,
        ``true_sum`` the exact Σx of binned values when a producer recorded it."""
        keep = count > 0
        rep, lo, hi, count, open_bin = rep[keep], lo[keep], hi[keep], count[keep], open_bin[keep]
        if not len(count):
            return
        self._finished = None
        self._rank_values = {}
        self._parts.append((rep, lo, hi, count, open_bin))
        self._parts_n += int(count.sum())
        if sums is None:
            r, c = rep.tolist(), count.tolist()
            sums = (
                sum(x * k for x, k in zip(r, c, strict=True)),
                sum(x * x * k for x, k in zip(r, c, strict=True)),
            )
        self._parts_sum += sums[0]
        self._parts_sumsq += sums[1]
        binned = bool(np.any(lo != hi)) or bool(np.any(open_bin))
        if binned:
            self._parts_exact = False
        else:
            true_sum = sums[0]
        if self._parts_true_sum is not None and true_sum is not None:
            self._parts_true_sum += true_sum
        else:
            self._parts_true_sum = None

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
        known_min = counters.get("min")
        known_max = counters.get("max")
        lo = h.lo.astype(np.int64)
        hi = h.hi.astype(np.int64) - 1
        if known_min is not None:
            lo = np.maximum(lo, known_min)
        if known_max is not None:
            hi = np.minimum(hi, known_max)
            lo = np.minimum(lo, known_max)
        hi = np.maximum(hi, lo)
        rep = lo.copy()
        count = h.count.astype(np.int64)
        open_bin = np.zeros(len(lo), bool)
        extra: list[tuple[int, int, int, int]] = []  # rep, lo, hi, count
        if h.underflow:
            first = int(h.lo[0]) if len(h.lo) else 0
            top = (h.underflow_hi if h.underflow_hi is not None else first) - 1
            if known_min is not None:
                extra.append((known_min, known_min, max(top, known_min), h.underflow))
            else:
                extra.append((top, NO_LOWER, top, h.underflow))
        if h.overflow:
            last = int(h.hi[-1]) if len(h.hi) else 0
            start = h.overflow_lo if h.overflow_lo is not None else last
            if known_min is not None:
                start = max(start, known_min)
            top = known_max if known_max is not None and known_max >= start else NO_UPPER
            extra.append((start, start, top, h.overflow))
        if extra:
            rep = np.concatenate((rep, np.asarray([e[0] for e in extra], np.int64)))
            lo = np.concatenate((lo, np.asarray([e[1] for e in extra], np.int64)))
            hi = np.concatenate((hi, np.asarray([e[2] for e in extra], np.int64)))
            count = np.concatenate((count, np.asarray([e[3] for e in extra], np.int64)))
            open_bin = np.concatenate((open_bin, np.ones(len(extra), bool)))
        order = np.argsort(rep, kind="stable")
        total = counters.get("sum")
        # a saturated producer counter (all ones) is not a sum
        measured = int(total) if total is not None and total < (1 << 63) else None
        d._add_part(rep[order], lo[order], hi[order], count[order], open_bin[order], None, measured)
        d._bin_error = h.max_bin_width
        if d.n:
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
        mine = (_exact_extreme(self.minimum()), _exact_extreme(self.maximum())) if self.n else None
        theirs = (_exact_extreme(other.minimum()), _exact_extreme(other.maximum()))
        f = other._finish()
        self._add_part(f.rep, f.lo, f.hi, f.count, f.open_bin, other._sums(), other.exact_sum())
        dense_width = other._width if other._dense_n and other._width > 1 else 0
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

    def _dense_part(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self._sync_extremes()
        nonzero = np.flatnonzero(self._counts)
        # in uint64, which wraps: the true lo is an int64, and hi is clamped where it is not
        # (bins may be 2^63 wide when the values span the whole int64 range)
        lo = (
            nonzero.astype(np.uint64) * np.uint64(self._width)
            + np.uint64(self._base & 0xFFFF_FFFF_FFFF_FFFF)
        ).view(np.int64)
        hi = lo + np.int64(self._width - 1)
        hi = np.where(lo > NO_UPPER - (self._width - 1), NO_UPPER, hi)
        if self._width > 1 and len(lo):
            lo = np.maximum(lo, self._dense_min)
            hi = np.minimum(hi, self._dense_max)
        return lo, hi, self._counts[nonzero]

    def _finish(self) -> _Finished:
        if self._finished is not None:
            return self._finished
        parts: list[_Part] = []
        if self._dense_n:
            lo, hi, c = self._dense_part()
            parts.append((lo, lo, hi, c, np.zeros(len(c), bool)))
        parts.extend(self._parts)
        if not parts:
            e = np.zeros(0, np.int64)
            self._finished = _Finished(e, e, e, e, np.zeros(0, bool), e)
        elif len(parts) == 1:
            rep, lo, hi, c, o = parts[0]
            self._finished = _Finished(rep, lo, hi, c, o, np.cumsum(c))
        else:
            rep = np.concatenate([p[0] for p in parts])
            order = np.argsort(rep, kind="stable")
            lo, hi = np.concatenate([p[1] for p in parts]), np.concatenate([p[2] for p in parts])
            c, o = np.concatenate([p[3] for p in parts]), np.concatenate([p[4] for p in parts])
            c = c[order]
            self._finished = _Finished(rep[order], lo[order], hi[order], c, o[order], np.cumsum(c))
        return self._finished

    # -- sums ----------------------------------------------------------------------------------

    def _dense_sums(self) -> tuple[int, int]:
        """Exact (Σx, Σx²) of the streamed samples, also after the bins widened."""
        if not self._dense_n:
            return 0, 0
        if self._coarse_sums is not None:
            return self._coarse_sums
        c0, c1, c2 = weighted_offset_sums(self._counts)
        b = self._base
        return b * c0 + c1, b * b * c0 + 2 * b * c1 + c2

    def _sums(self) -> tuple[int, int]:
        """(Σx, Σx²) of the values by the convention: samples as they are (exact), binned data
        at their representatives."""
        d1, d2 = self._dense_sums()
        return d1 + self._parts_sum, d2 + self._parts_sumsq

    def exact_sum(self) -> int | None:
        """Σx exactly: of the samples, plus the producers' recorded sums of binned data; None
        when a binned part has none."""
        if self._parts_true_sum is None:
            return None
        return self._dense_sums()[0] + self._parts_true_sum

    # -- properties ----------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """The number of values."""
        return self._dense_n + self._parts_n

    @property
    def exact(self) -> bool:
        """True when every value is known exactly (no bin wider than one integer, no open
        bin)."""
        return self._parts_exact and self._width == 1

    @property
    def has_open_bin(self) -> bool:
        """True when some values lie in an overflow or underflow bin."""
        return any(bool(np.any(p[4])) for p in self._parts)

    @property
    def bin_error(self) -> int:
        """The widest bin: a binned order statistic's true value lies in [value, value +
        bin_error) (0 when exact)."""
        if self.exact:
            return 0
        return max(self._bin_error, self._width if self._dense_n else 0, 1)

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
        if not self._parts_exact and len(self._parts) + (1 if self._dense_n else 0) > 1:
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
        self._sync_extremes()
        known = self._known_min if smallest else self._known_max
        if self._parts and known is None and not self._parts_exact:
            return self.at_rank(1 if smallest else self.n)
        candidates = []
        if self._dense_n:
            candidates.append(self._dense_min if smallest else self._dense_max)
        if self._parts:
            if known is None:  # exact parts: their first or last value
                known = (min if smallest else max)(
                    int(p[0][0] if smallest else p[0][-1]) for p in self._parts
                )
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
        if self._width == 1 or self._parts or not self._dense_n:
            return
        self._sync_extremes()
        wanted = sorted({r for r in ranks if 1 <= r <= self.n} - set(self._rank_values))
        # (bin start, bin width, rank within the bin) per wanted rank
        targets: dict[int, tuple[int, int, int]] = {}
        f = self._finish()
        nonzero = np.flatnonzero(self._counts)
        for r in wanted:
            i = int(np.searchsorted(f.cum, r))
            start = self._base + int(nonzero[i]) * self._width
            before = int(f.cum[i - 1]) if i else 0
            targets[r] = (start, self._width, r - before)
        while targets:
            spans = sorted({(s, w) for s, w, _ in targets.values()})
            budget = max(2, self.max_bins // max(1, len(spans)))
            fine_width = {sw: max(1, _pow2_ceil(-(-sw[1] // budget))) for sw in spans}
            counts = {sw: np.zeros(-(-sw[1] // fine_width[sw]), np.int64) for sw in spans}
            starts = np.asarray([s for s, _ in spans], np.int64)
            for batch in reread():
                v = np.asarray(batch, dtype=np.int64)
                if not len(v):
                    continue
                index = np.searchsorted(starts, v, side="right") - 1
                inside = index >= 0
                for k, sw in enumerate(spans):
                    sel = v[inside & (index == k)]
                    sel = sel[sel < sw[0] + sw[1]]
                    if len(sel):
                        off = (sel - sw[0]) // fine_width[sw]
                        counts[sw] += np.bincount(off, minlength=len(counts[sw]))
            nxt: dict[int, tuple[int, int, int]] = {}
            for r, (s, w, k) in targets.items():
                sw = (s, w)
                cum = np.cumsum(counts[sw])
                j = int(np.searchsorted(cum, k))
                fw = fine_width[sw]
                before = int(cum[j - 1]) if j else 0
                if fw == 1:
                    self._rank_values[r] = s + j
                else:
                    nxt[r] = (s + j * fw, fw, k - before)
            targets = nxt

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
        dense = self._dense_sums()[0]
        lo_sum = hi_sum = dense
        lo_open = hi_open = False
        for _, lo, hi, c, _ in self._parts:
            lo_open |= bool(np.any(lo == NO_LOWER))
            hi_open |= bool(np.any(hi == NO_UPPER))
            cl = c.tolist()
            if not lo_open:
                lo_sum += sum(x * k for x, k in zip(lo.tolist(), cl, strict=True))
            if not hi_open:
                hi_sum += sum(x * k for x, k in zip(hi.tolist(), cl, strict=True))
        return (
            None if lo_open else Fraction(lo_sum, n),
            None if hi_open else Fraction(hi_sum, n),
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
        (None: unbounded — an open bin without a recorded max leaves the top open; a lower
        bound is not computed beyond VARIANCE_BOUND_BINS bins). Equal to the variance when
        every value is exact. Exact rationals.

        Upper: for any centre c, Σ(x - mean)² <= Σ(x - c)² <= Σ max over the bin of (x - c)²,
        taken at a few centres. Lower: Σ(x - mean)² = min over c of Σ(x - c)² >= min over c of
        g(c) = Σ dist(c, bin)², a convex piecewise quadratic whose minimum is found exactly
        (the sign of g' by binary search over the bin edges, then the quadratic between two
        edges)."""
        n = self.n
        if n <= ddof:
            return None, None
        if self._parts_exact:
            v = self.variance(ddof)
            return v, v
        d1, d2 = self._dense_sums()
        dn = self._dense_n
        lo: list[int] = [x for _, p_lo, _, _, _ in self._parts for x in p_lo.tolist()]
        hi: list[int] = [x for _, _, p_hi, _, _ in self._parts for x in p_hi.tolist()]
        w: list[int] = [x for _, _, _, c, _ in self._parts for x in c.tolist()]
        bins = list(zip(lo, hi, w, strict=True))
        upper = None
        if all(a != NO_LOWER and b != NO_UPPER for a, b, _ in bins):
            total_lo = d1 + sum(a * k for a, _, k in bins)
            total_hi = d1 + sum(b * k for _, b, k in bins)
            centres = {total_lo // n, -(-total_lo // n), total_hi // n, -(-total_hi // n)}
            centres |= {(total_lo + total_hi) // (2 * n)}

            def spread(c: int) -> int:
                out: int = d2 - 2 * c * d1 + dn * c * c
                for a, b, k in bins:
                    out += k * max((a - c) * (a - c), (b - c) * (b - c))
                return out

            upper = Fraction(min(spread(c) for c in centres), n - ddof)
        lower = None
        if len(bins) <= VARIANCE_BOUND_BINS:
            lower = Fraction(_least_spread(dn, d1, d2, bins), n - ddof)
        return lower, upper

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

    def values_and_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """Distinct values (by the convention for binned data) with their counts, ascending."""
        f = self._finish()
        if not len(f.rep):
            return f.rep, f.count
        change = np.flatnonzero(np.diff(f.rep)) + 1
        starts = np.concatenate(([0], change))
        return f.rep[starts], np.add.reduceat(f.count, starts)


#: Binned parts with more bins than this get no lower bound of the variance (a Python loop).
VARIANCE_BOUND_BINS = 200_000


def _least_spread(dn: int, d1: int, d2: int, bins: list[tuple[int, int, int]]) -> Fraction:
    """min over real c of g(c) = Σ(x - c)² over exact values (dn of them, sums d1, d2) +
    Σ k·dist(c, [a, b])² over bins (a, b, k); an open side (NO_LOWER / NO_UPPER) adds nothing
    on that side. g is convex: g'(c)/2 = dn·c - d1 + Σ_{b<c} k(c - b) - Σ_{a>c} k(a - c)."""
    points = sorted({e for a, b, _ in bins for e in (a, b) if e not in (NO_LOWER, NO_UPPER)})
    if dn:
        points = sorted(set(points) | {d1 // dn, -(-d1 // dn)})

    def slope(c: int) -> int:
        out = dn * c - d1
        for a, b, k in bins:
            if b != NO_UPPER and b < c:
                out += k * (c - b)
            elif a != NO_LOWER and a > c:
                out -= k * (a - c)
        return out

    def quadratic_min(left: int | None, right: int | None) -> Fraction:
        """The minimum of g on [left, right], where the bins below and above c are fixed."""
        probe = left if left is not None else right
        assert probe is not None
        mid = Fraction(probe) + (Fraction(1, 2) if left is not None else Fraction(-1, 2))
        # g(c) = A c² - 2 B c + C on this piece
        a_sum, b_sum, c_sum = dn, d1, d2
        for a, b, k in bins:
            if b != NO_UPPER and b < mid:
                a_sum, b_sum, c_sum = a_sum + k, b_sum + k * b, c_sum + k * b * b
            elif a != NO_LOWER and a > mid:
                a_sum, b_sum, c_sum = a_sum + k, b_sum + k * a, c_sum + k * a * a
        if a_sum == 0:
            return Fraction(0)
        c = Fraction(b_sum, a_sum)
        if left is not None:
            c = max(c, Fraction(left))
        if right is not None:
            c = min(c, Fraction(right))
        return a_sum * c * c - 2 * b_sum * c + c_sum

    if not points:
        return Fraction(0)
    # the last edge where g' <= 0: the minimum lies between it and the next edge
    lo_i, hi_i = 0, len(points) - 1
    if slope(points[0]) > 0:
        return quadratic_min(None, points[0])
    while lo_i < hi_i:
        mid_i = (lo_i + hi_i + 1) // 2
        if slope(points[mid_i]) <= 0:
            lo_i = mid_i
        else:
            hi_i = mid_i - 1
    right = points[lo_i + 1] if lo_i + 1 < len(points) else None
    return quadratic_min(points[lo_i], right)


def _exact_extreme(b: Bounded) -> int | None:
    return b.value if b.exact else None


def _pow2_ceil(x: int) -> int:
    return 1 << max(0, (x - 1).bit_length())


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
