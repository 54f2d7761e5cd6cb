"""A producer's histogram as bins by the binned-data convention: each bin [lo, hi) at its lower
edge, raised to the producer's recorded minimum and never above its recorded maximum; underflow
and overflow as open bins, bounded by that minimum and maximum when the producer recorded them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from latmon.analysis.distribution.bins import NO_LOWER, NO_UPPER

if TYPE_CHECKING:
    from latmon.model import Histogram


@dataclass(frozen=True)
class HistogramBins:
    """The bins sorted by representative, and the producer's exact Σx when it recorded one."""

    rep: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    count: np.ndarray
    open_bin: np.ndarray
    measured_sum: int | None


def histogram_bins(h: Histogram, counters: dict[str, int]) -> HistogramBins:
    """The bins of ``h``; ``counters`` are the producer's (``min``, ``max``, ``sum``)."""
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
    return HistogramBins(rep[order], lo[order], hi[order], count[order], open_bin[order], measured)
