"""The vocabulary of counted values: the bounds on the bins, the sentinels of an open bound, an
order statistic with its bounds (:class:`Bounded`), and the finished, sorted view of a
distribution's bins (:class:`Finished`) that every statistic reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

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

    @property
    def exact_value(self) -> int | None:
        """The value when it is exact, else None."""
        return self.value if self.exact else None


#: Bins sorted by their representative: (rep, lo, hi, count, open_bin), int64 arrays but the last
#: (bool); lo/hi are inclusive bounds, NO_LOWER/NO_UPPER when open.
Part = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@dataclass
class Finished:
    """Sorted representatives with bounds and counts (the finished view of a distribution)."""

    rep: np.ndarray  # int64, sorted ascending
    lo: np.ndarray  # int64 lower bounds (NO_LOWER: open)
    hi: np.ndarray  # int64 upper bounds, inclusive (NO_UPPER: open)
    count: np.ndarray  # int64
    open_bin: np.ndarray  # bool: an overflow/underflow bin
    cum: np.ndarray  # cumulative counts in rep order
