"""Streamed samples counted in dense bins (``numpy.bincount``; memory is the bins, never the
samples): one integer wide until the samples span more integers than the bound on the bins allows,
then widened (pairs merged) with the exact Σx and Σx² of what was counted kept aside."""

from __future__ import annotations

import numpy as np

from latmon.analysis.distribution.bins import NO_UPPER
from latmon.analysis.exact import exact_sums, weighted_offset_sums


class DenseBins:
    """Bin i holds [base + i*width, base + (i+1)*width); ``n`` samples counted so far."""

    def __init__(self) -> None:
        self.base = 0
        self.width = 1
        self.counts = np.zeros(0, dtype=np.int64)
        self.n = 0
        self._min = 0
        self._max = 0
        # False after fast-path batches: min and max then follow from the counts
        self._extremes_known = True
        #: exact (Σx, Σx²) of the samples once the bins are wider than 1
        self.coarse_sums: tuple[int, int] | None = None

    def add(self, v: np.ndarray, max_bins: int) -> None:
        """Count a non-empty batch of int64 samples in at most ``max_bins`` bins."""
        if (
            self.n
            and self.width == 1
            and self.base == 0
            and self.coarse_sums is None
            and int(v.max()) < max_bins
        ):
            # the common case: bincount refuses negative values itself, and min and max follow
            # from the counts when they are needed. The largest value is checked first:
            # bincount allocates max + 1 counts (terabytes for one outlier of 10^12, and at
            # 2^63 - 1 the length wraps and it writes outside its memory)
            try:
                c = np.bincount(v, minlength=len(self.counts))
            except ValueError:
                pass  # a negative value: the general path below
            else:
                if len(c) > len(self.counts):
                    grown = min(max_bins, max(len(c), 2 * len(self.counts)))
                    counts = np.zeros(grown, dtype=np.int64)
                    counts[: len(self.counts)] = self.counts
                    self.counts = counts
                self.counts[: len(c)] += c
                self.n += len(v)
                self._extremes_known = False
                return
        self._sync_extremes()
        lo, hi = int(v.min()), int(v.max())
        if self.n == 0:
            self._min, self._max = lo, hi
            # start the bins at 0 when the data allow it: bincount then needs no subtraction
            if 0 <= lo <= max(4096, hi - lo) and hi < max_bins:
                self.base, self.counts = 0, np.zeros(hi + 1, dtype=np.int64)
        else:
            self._min = min(self._min, lo)
            self._max = max(self._max, hi)
        self._fit(max_bins)
        if self.coarse_sums is not None:
            s1, s2 = exact_sums(v)
            self.coarse_sums = (self.coarse_sums[0] + s1, self.coarse_sums[1] + s2)
        self.n += len(v)
        self.counts += np.bincount(self._offsets(v), minlength=len(self.counts))

    def add_counts(self, v: np.ndarray, c: np.ndarray, max_bins: int) -> None:
        """Count each of the int64 ``v`` the positive ``c`` times, in at most ``max_bins`` bins."""
        self._sync_extremes()
        lo, hi = int(v.min()), int(v.max())
        if self.n == 0:
            self._min, self._max = lo, hi
        else:
            self._min = min(self._min, lo)
            self._max = max(self._max, hi)
        self._fit(max_bins)
        if self.coarse_sums is not None:
            vl, cl = v.tolist(), c.tolist()
            s1 = sum(x * k for x, k in zip(vl, cl, strict=True))
            s2 = sum(x * x * k for x, k in zip(vl, cl, strict=True))
            self.coarse_sums = (self.coarse_sums[0] + s1, self.coarse_sums[1] + s2)
        self.n += int(c.sum())
        np.add.at(self.counts, self._offsets(v), c)

    def extremes(self) -> tuple[int, int]:
        """(min, max) of the samples counted (when n > 0)."""
        self._sync_extremes()
        return self._min, self._max

    def _offsets(self, v: np.ndarray) -> np.ndarray:
        """The dense bin of each value: (v - base) // width, computed as v // width - base //
        width (the base is a multiple of the width) in int64 arithmetic that wraps. The
        result lies in [0, max_bins), so it is right even when the values span the whole int64
        range (the latmon-log allows any int64) or the base lies below -2^63."""
        w = self.width
        k = self.base // w
        if w == 1 and k == 0:
            return v
        if w == 1:
            q = v
        elif w < 1 << 63:
            q = v // np.int64(w)
        else:  # a bin 2^63 wide (a few bins over the whole int64 range): -1 or 0
            q = -(v < 0).astype(np.int64)
        return q - np.int64((k + (1 << 63)) % (1 << 64) - (1 << 63))

    def _sync_extremes(self) -> None:
        """Min and max of the samples from the counts, after fast-path batches."""
        if self._extremes_known or not self.n:
            self._extremes_known = True
            return
        nonzero = np.flatnonzero(self.counts)
        self._min = self.base + int(nonzero[0]) * self.width
        self._max = self.base + int(nonzero[-1]) * self.width
        self._extremes_known = True

    def _fit(self, max_bins: int) -> None:
        """Make the bins cover [min, max] of the samples so far: grow the array (with headroom)
        and, only when the span exceeds ``max_bins``, widen the bins."""
        while True:
            w = self.width
            first = self._min - self._min % w
            if (self._max - first) // w + 1 <= max_bins:
                break
            self._widen()
        have = len(self.counts)
        end = self.base + have * w
        if have and first >= self.base and self._max < end:
            return
        needed = (self._max - first) // w + 1
        if not have:
            new_base, size = first, needed
        elif first >= self.base:  # growing upwards: headroom above
            from_base = (self._max - self.base) // w + 1
            if from_base <= max_bins:
                new_base, size = self.base, min(max_bins, max(from_base, 2 * have))
            else:
                new_base, size = first, needed
        else:  # growing downwards: headroom below
            size = min(max_bins, max(needed, 2 * have))
            new_base = first - (size - needed) * w
        counts = np.zeros(size, dtype=np.int64)
        if have:
            offset = (self.base - new_base) // w
            src_from = max(0, -offset)
            src_to = min(have, size - offset)
            if src_to > src_from:
                counts[offset + src_from : offset + src_to] = self.counts[src_from:src_to]
        self.counts, self.base = counts, new_base

    def _widen(self) -> None:
        """Double the bin width (pairs merged, base aligned to the new width); the exact sums
        of what was counted so far are kept first."""
        if self.coarse_sums is None:
            self.coarse_sums = self.sums()
        width = self.width * 2
        new_base = self.base - self.base % width
        pad = (self.base - new_base) // self.width
        counts = np.concatenate((np.zeros(pad, dtype=np.int64), self.counts))
        if len(counts) % 2:
            counts = np.concatenate((counts, np.zeros(1, dtype=np.int64)))
        self.counts = counts[0::2] + counts[1::2]
        self.base, self.width = new_base, width

    def bins(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The non-empty bins: (lo, hi inclusive, count), bounds clamped to the samples' min and
        max."""
        self._sync_extremes()
        nonzero = np.flatnonzero(self.counts)
        # in uint64, which wraps: the true lo is an int64, and hi is clamped where it is not
        # (bins may be 2^63 wide when the values span the whole int64 range)
        lo = (
            nonzero.astype(np.uint64) * np.uint64(self.width)
            + np.uint64(self.base & 0xFFFF_FFFF_FFFF_FFFF)
        ).view(np.int64)
        hi = lo + np.int64(self.width - 1)
        hi = np.where(lo > NO_UPPER - (self.width - 1), NO_UPPER, hi)
        if self.width > 1 and len(lo):
            lo = np.maximum(lo, self._min)
            hi = np.minimum(hi, self._max)
        return lo, hi, self.counts[nonzero]

    def sums(self) -> tuple[int, int]:
        """Exact (Σx, Σx²) of the samples, also after the bins widened."""
        if not self.n:
            return 0, 0
        if self.coarse_sums is not None:
            return self.coarse_sums
        c0, c1, c2 = weighted_offset_sums(self.counts)
        b = self.base
        return b * c0 + c1, b * b * c0 + 2 * b * c1 + c2
