"""Bins from histograms, pooled distributions and values spread too wide for dense bins: parts of
bins sorted by representative, kept as added, with their count and exact sums."""

from __future__ import annotations

import numpy as np

from latmon.analysis.distribution.bins import NO_LOWER, NO_UPPER, Part


class SparseBins:
    """The parts added so far; ``n`` values, (``sum``, ``sumsq``) = (Σrep·c, Σrep²·c)."""

    def __init__(self) -> None:
        self.parts: list[Part] = []
        self.n = 0
        self.sum = 0
        self.sumsq = 0
        #: no bin wider than one integer, no open bin
        self.exact = True
        #: exact Σx: the exact values plus the producers' recorded sums of binned data (None
        #: when a binned part has no recorded sum)
        self.true_sum: int | None = 0

    def add(
        self,
        rep: np.ndarray,
        lo: np.ndarray,
        hi: np.ndarray,
        count: np.ndarray,
        open_bin: np.ndarray,
        sums: tuple[int, int] | None = None,
        true_sum: int | None = None,
    ) -> bool:
        """Add bins sorted by ``rep`` (those with a zero count dropped); ``sums`` are (Σrep·c,
        Σrep²·c) when the caller has them, ``true_sum`` the exact Σx of binned values when a
        producer recorded it. False when no bin had a value."""
        keep = count > 0
        rep, lo, hi, count, open_bin = rep[keep], lo[keep], hi[keep], count[keep], open_bin[keep]
        if not len(count):
            return False
        self.parts.append((rep, lo, hi, count, open_bin))
        self.n += int(count.sum())
        if sums is None:
            r, c = rep.tolist(), count.tolist()
            sums = (
                sum(x * k for x, k in zip(r, c, strict=True)),
                sum(x * x * k for x, k in zip(r, c, strict=True)),
            )
        self.sum += sums[0]
        self.sumsq += sums[1]
        binned = bool(np.any(lo != hi)) or bool(np.any(open_bin))
        if binned:
            self.exact = False
        else:
            true_sum = sums[0]
        if self.true_sum is not None and true_sum is not None:
            self.true_sum += true_sum
        else:
            self.true_sum = None
        return True

    @property
    def has_open_bin(self) -> bool:
        """True when some values lie in an overflow or underflow bin."""
        return any(bool(np.any(p[4])) for p in self.parts)

    def extreme(self, smallest: bool) -> int:
        """The smallest or largest representative (the extreme value when every part is
        exact)."""
        if smallest:
            return min(int(p[0][0]) for p in self.parts)
        return max(int(p[0][-1]) for p in self.parts)

    def bound_sums(self) -> tuple[int | None, int | None]:
        """(Σlo·c, Σhi·c): the sum with every value at its bin's lower, upper bound (None: an
        open bin leaves that side unbounded)."""
        lo_sum = hi_sum = 0
        lo_open = hi_open = False
        for _, lo, hi, c, _ in self.parts:
            lo_open |= bool(np.any(lo == NO_LOWER))
            hi_open |= bool(np.any(hi == NO_UPPER))
            cl = c.tolist()
            if not lo_open:
                lo_sum += sum(x * k for x, k in zip(lo.tolist(), cl, strict=True))
            if not hi_open:
                hi_sum += sum(x * k for x, k in zip(hi.tolist(), cl, strict=True))
        return (None if lo_open else lo_sum), (None if hi_open else hi_sum)

    def bins(self) -> list[tuple[int, int, int]]:
        """Every bin as (lo, hi inclusive, count)."""
        lo: list[int] = [x for _, p_lo, _, _, _ in self.parts for x in p_lo.tolist()]
        hi: list[int] = [x for _, _, p_hi, _, _ in self.parts for x in p_hi.tolist()]
        w: list[int] = [x for _, _, _, c, _ in self.parts for x in c.tolist()]
        return list(zip(lo, hi, w, strict=True))
