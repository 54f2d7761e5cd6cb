"""Exact integer counting of latency samples, batch by batch, in memory bounded by the bins.

:class:`Counter` takes samples in batches (an in-memory array cut into slices, or the row groups
of a run file read one at a time) and keeps one count per integer value: an exact histogram
from which every order statistic, the mean and the standard deviation follow. Its memory is the
number of bins, never the number of samples, so inputs larger than RAM are summarised exactly.

When the values spread over more than ``max_bins`` distinct integers the bins double in width
(pairs merged) until they fit; from then on order statistics are known to within the bin width
(stated as ``bin_error``), while count, min, max and the mean stay exact (the sum is kept as a
Python integer) and the standard deviation is merged batch by batch (Chan et al.'s parallel
update, float64 around each batch's mean).

Working batch by batch is also what makes it fast: ``numpy.bincount`` on a slice that fits the
CPU cache, with no full-size temporary array, is several times faster than on 100 million
values at once.
"""

from __future__ import annotations

import math

import numpy as np

#: Samples per batch when an in-memory array is counted.
BATCH = 1 << 20
#: Default bound on the number of bins (512 MiB of int64 counts at most; a series of
#: latencies in ns spanning up to 67 ms stays exact).
MAX_BINS = 1 << 26


def exact_sum(values: np.ndarray) -> int:
    """Exact sum of int64 values without overflow: high and low 32-bit halves separately."""
    if len(values) == 0:
        return 0
    if len(values) < (1 << 31):
        high = int(np.sum(values >> 32, dtype=np.int64))
        low = int(np.sum(values & 0xFFFFFFFF, dtype=np.int64))
        return (high << 32) + low
    half = len(values) // 2
    return exact_sum(values[:half]) + exact_sum(values[half:])


class Counter:
    """Counts of integer samples in bins [base + i·width, base + (i+1)·width)."""

    def __init__(self, max_bins: int = MAX_BINS) -> None:
        if max_bins < 2:
            raise ValueError("a counter needs at least 2 bins")
        self.max_bins = max_bins
        self.base = 0
        self.width = 1
        self.counts = np.zeros(0, dtype=np.int64)
        self.n = 0
        self._lo = 0  # exact once the bins widen; before, the counts say it
        self.hi = 0
        # Set when the bins first widen: exact sum and the running (mean, M2) from then on.
        self._total: int | None = None
        self._m2: float = 0.0

    @property
    def lo(self) -> int:
        """The smallest sample."""
        if self.width == 1 and self.n:
            return self.base + int(np.argmax(self.counts > 0))
        return self._lo

    @property
    def exact(self) -> bool:
        """True while every bin holds one integer value."""
        return self.width == 1

    def add(self, values: np.ndarray) -> None:
        """Count one batch of int64 samples."""
        v = np.asarray(values)
        if v.dtype != np.int64:
            if v.dtype.kind not in "iu":
                raise TypeError("latency samples must be integers")
            if v.dtype == np.uint64 and len(v) and int(v.max()) >= 1 << 63:
                raise OverflowError("latency samples above 2**63 - 1 cannot be counted")
            v = v.astype(np.int64)
        if len(v) > BATCH:
            for start in range(0, len(v), BATCH):
                self.add(v[start : start + BATCH])
            return
        if len(v) == 0:
            return
        hi = int(v.max())
        if self.n and self.width == 1 and self.base == 0 and hi < self.max_bins:
            # The common case, one pass besides max: bincount refuses negative values itself.
            self._fit(0, hi)
            try:
                c = np.bincount(v, minlength=len(self.counts))
            except ValueError:
                pass  # a negative value: the general path below
            else:
                self.counts += c
                self.hi = max(self.hi, hi)
                self.n += len(v)
                return
        lo = int(v.min())
        self._fit(lo, hi)
        if self.n == 0:
            self._lo, self.hi = lo, hi
        else:
            self._lo, self.hi = min(self._lo, lo), max(self.hi, hi)
        if self._total is not None:
            self._merge_moments(v)
        self.n += len(v)
        if self.width == 1:
            if self.base == 0:
                c = np.bincount(v, minlength=len(self.counts))
            else:
                c = np.bincount(v - self.base, minlength=len(self.counts))
        else:
            c = np.bincount((v - self.base) // self.width, minlength=len(self.counts))
        self.counts += c

    def _fit(self, lo: int, hi: int) -> None:
        """Grow (and if need be widen) the bins so that [lo, hi] is covered; called before
        the batch is counted."""
        if self.n == 0:
            # Start at 0 when the data allow it: bincount then needs no subtraction.
            self.base = 0 if 0 <= lo <= max(4096, hi - lo) and hi < self.max_bins else lo
        while True:
            base = min(self.base, lo - lo % self.width)
            if (hi - base) // self.width + 1 <= self.max_bins:
                break
            self._widen()
        if base < self.base:
            shift = (self.base - base) // self.width
            self.counts = np.concatenate((np.zeros(shift, dtype=np.int64), self.counts))
            self.base = base
        needed = (hi - self.base) // self.width + 1
        if needed > len(self.counts):
            grown = min(max(needed, 2 * len(self.counts)), self.max_bins)
            self.counts = np.concatenate(
                (self.counts, np.zeros(grown - len(self.counts), dtype=np.int64))
            )

    def _widen(self) -> None:
        """Double the bin width (pairs of bins merged, base aligned to the new width)."""
        if self._total is None:
            # Leaving exact counting: freeze the min, sum and M2 of what was counted so far.
            self._lo = self.lo
            self._total = self._sum_from_counts()
            if self.n:
                mean = self._total / self.n
                values = self.base + np.arange(len(self.counts), dtype=np.float64)
                self._m2 = float(np.dot(self.counts, (values - mean) ** 2))
        width = self.width * 2
        new_base = self.base - self.base % width
        pad = (self.base - new_base) // self.width
        counts = np.concatenate((np.zeros(pad, dtype=np.int64), self.counts))
        if len(counts) % 2:
            counts = np.concatenate((counts, np.zeros(1, dtype=np.int64)))
        self.counts = counts[0::2] + counts[1::2]
        self.base, self.width = new_base, width

    def _merge_moments(self, v: np.ndarray) -> None:
        """Chan's update of (sum, M2) with one batch, before self.n includes it."""
        assert self._total is not None
        total_b = exact_sum(v)
        n_a, n_b = self.n, len(v)
        mean_b = total_b / n_b
        m2_b = float(np.sum((v.astype(np.float64) - mean_b) ** 2))
        if n_a:
            delta = mean_b - self._total / n_a
            self._m2 += m2_b + delta * delta * n_a * n_b / (n_a + n_b)
        else:
            self._m2 = m2_b
        self._total += total_b

    def _sum_from_counts(self) -> int:
        offsets = np.arange(len(self.counts), dtype=np.int64)
        if len(self.counts) * max(self.n, 1) < (1 << 62):
            weighted = int(np.dot(offsets, self.counts))
        else:  # could overflow int64: Python integers
            weighted = sum(int(i) * int(c) for i, c in zip(offsets, self.counts, strict=True) if c)
        return self.base * self.n + weighted

    # -- results ----------------------------------------------------------------------------

    @property
    def total(self) -> int:
        """Exact sum of all samples."""
        return self._total if self._total is not None else self._sum_from_counts()

    @property
    def m2(self) -> float:
        """Sum of squared deviations from the mean."""
        if self._total is not None:
            return self._m2
        if self.n == 0:
            return math.nan
        mean_off = (self.total - self.base * self.n) / self.n
        offsets = np.arange(len(self.counts), dtype=np.float64)
        return float(np.dot(self.counts, (offsets - mean_off) ** 2))

    def ranks(self, ranks: list[int]) -> dict[int, int]:
        """The rank-th smallest sample (1-based) for each rank; the bin's upper value (capped
        at the maximum) when bins are wider than 1."""
        cum = np.cumsum(self.counts)
        out = {}
        for rank in ranks:
            index = int(np.searchsorted(cum, rank))
            upper = self.base + (index + 1) * self.width - 1
            out[rank] = min(upper, self.hi)
        return out
