"""The serial sums of the tail's i.i.d. checks, gathered chunk by chunk in one pass over a
series read in order: the lagged products Σ (x_t - x̄)(x_{t+k} - x̄) of Ljung–Box and KPSS, the
partial sums of KPSS's numerator, and the runs about the median. The same for a series in
memory (its chunks) and one streamed from a run file (its batches): :mod:`latmon.tail.checks`
reads them from here.

The C extension ``latmon.tail._serial`` adds a chunk in about a quarter of numpy's time; where it
was not built, :meth:`SerialSums.add` sums the same with numpy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

_c_add: Callable[..., None] | None
try:
    from latmon.tail._serial import add as _c_add
except ImportError:  # pragma: no cover - without a compiler
    _c_add = None

#: numpy multiplies blocks of this many samples with all their lags at once (in cache).
LAG_BLOCK = 1 << 15


class SerialSums:
    """The sums of samples added in order, about a known ``mean`` and ``median``."""

    def __init__(self, mean: float, median: float, lags: int, use_c: bool = True) -> None:
        self.mean = float(mean)
        self.median = float(median)
        self.lags = lags
        #: c_k for k = 0..lags
        self.sums = np.zeros(lags + 1)
        #: the last ``lags`` centred samples, oldest first (zeros before the start)
        self.prev = np.zeros(lags)
        #: KPSS: the partial sum of the centred samples so far, the sum of its squares
        self.kpss = np.zeros(2)
        #: runs: samples above the median, below it, changes of side, the last side (-1: none)
        self.runs = np.array([0, 0, 0, -1], dtype=np.int64)
        self._c = _c_add if use_c else None

    def add(self, chunk: np.ndarray) -> None:
        """The next samples (whole numbers in C; other values, or without it, numpy)."""
        x = np.asarray(chunk)
        if not len(x):
            return
        if self._c is not None and x.dtype.kind in "iu":
            x = np.ascontiguousarray(x, dtype=np.int64)
            self._c(x, self.mean, self.median, self.sums, self.prev, self.kpss, self.runs)
            return
        self._add_numpy(x)

    def _add_numpy(self, x: np.ndarray) -> None:
        lags = self.lags
        d = np.concatenate((self.prev, x.astype(np.float64) - self.mean))
        a = d[lags:]
        for at in range(0, len(a), LAG_BLOCK):
            block = a[at : at + LAG_BLOCK]
            # row i of the window: d at the block's i-th sample and the lags before it
            window = sliding_window_view(d[at : at + len(block) + lags], lags + 1)
            self.sums += np.einsum("i,ij->j", block, window[:, ::-1])
        self.prev = d[len(d) - lags :].copy() if lags else self.prev
        partial = np.cumsum(a) + self.kpss[0]
        self.kpss[1] += float(np.einsum("i,i->", partial, partial))
        self.kpss[0] = float(partial[-1])
        off = x[x != self.median]
        if len(off):
            side = (off > self.median).astype(np.int64)
            k = int(side.sum())
            self.runs[0] += k
            self.runs[1] += len(side) - k
            self.runs[2] += int(np.count_nonzero(side[1:] != side[:-1]))
            if self.runs[3] >= 0 and side[0] != self.runs[3]:
                self.runs[2] += 1
            self.runs[3] = side[-1]

    def add_all(self, chunks: Iterable[np.ndarray]) -> SerialSums:
        for chunk in chunks:
            self.add(chunk)
        return self

    @property
    def run_counts(self) -> tuple[int, int, int]:
        """(above the median, below it, runs = changes + 1)."""
        return int(self.runs[0]), int(self.runs[1]), int(self.runs[2]) + 1

    @property
    def eta(self) -> float:
        """Σ_t S_t² of the partial sums S_t of the centred samples."""
        return float(self.kpss[1])


def serial_built() -> bool:
    """The C extension is there (else the sums are numpy's)."""
    return _c_add is not None
