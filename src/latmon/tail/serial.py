"""The serial sums of the tail's i.i.d. checks, gathered chunk by chunk in one pass over a
series read in order: the lagged products Σ (x_t - x̄)(x_{t+k} - x̄) of Ljung–Box and KPSS, the
partial sums of KPSS's numerator, and the runs about the median. The same for a series in
memory (its chunks) and one streamed from a run file (its batches): :mod:`latmon.tail.checks`
reads them from here.

The C extension ``latmon.tail._serial`` adds a chunk in about a quarter of numpy's time; where it
was not built, :meth:`SerialSums.add` sums the same with numpy. For whole numbers it also gathers
:class:`SerialMoments`: the same sums exact, in a pass that does not know the mean and the median
yet (the statistics' own pass over a run file); whole numbers in memory are checked from those
too (:func:`exact_sums`), so both give the same, exactly rounded, statistics.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from fractions import Fraction

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


_c_moments: Callable[..., None] | None
try:
    from latmon.tail._serial import moments as _c_moments
except ImportError:  # pragma: no cover - without a compiler
    _c_moments = None

#: :class:`SerialMoments` follows the runs about every threshold within eight times its
#: first chunk's median's uncertainty of that median (at least MIN_WINDOW units either side, at
#: most MAX_WINDOW): a series whose median lies outside has drifted, and is summed again.
MIN_WINDOW, MAX_WINDOW = 64, 1 << 14


class SerialMoments:
    """The serial sums of :class:`SerialSums`, gathered in the same pass as the statistics,
    before the mean and the median are known: exact integer sums about a whole number near
    the mean (the first chunk's), from which the sums about the exact mean follow exactly
    (:meth:`about`); and the changes of side about every threshold near the first chunk's
    median (the runs test about the median, when it is one of them). Whole numbers only, in
    C (``latmon.tail._serial.moments``); :attr:`exact` turns False (and the caller sums in a
    second pass) when a value is 2^40 or more from the offset or a sum leaves 128 bits."""

    def __init__(self, lags: int) -> None:
        self.lags = lags
        self.width = 0
        self.offset: int | None = None
        self.n = 0
        self.total = 0  # Σ x
        self.head: list[int] = []  # the first ``lags`` samples
        self.prev = np.zeros(lags, dtype=np.int64)  # the last lags samples less the offset
        self.state = np.zeros(2 * (lags + 1) + 8, dtype=np.int64)
        self.window = np.zeros(6, dtype=np.int64)

    @property
    def exact(self) -> bool:
        return _c_moments is not None and not bool(self.state[-1])

    def add(self, chunk: np.ndarray) -> None:
        """The next samples (whole numbers)."""
        x = np.ascontiguousarray(chunk, dtype=np.int64)
        if not len(x) or not self.exact:
            return
        assert _c_moments is not None
        if self.offset is None:
            self.offset = round(float(x.mean()))
            self._place_window(x)
        if len(self.head) < self.lags:
            self.head += x[: self.lags - len(self.head)].tolist()
        self.n += len(x)
        _c_moments(x, self.offset, self.prev, self.state, self.window)

    def _place_window(self, x: np.ndarray) -> None:
        """The thresholds followed: about the chunk's median, eight times the half-width of
        its distribution-free 95 % interval (ranks m/2 ± √m) either side."""
        m = len(x)
        reach = max(int(math.sqrt(m)), 1)
        ranks = sorted({max(m // 2 - reach, 0), m // 2, min(m // 2 + reach, m - 1)})
        low, middle, high = (int(v) for v in np.partition(x, ranks)[[ranks[0], m // 2, ranks[-1]]])
        half = min(max(8 * (high - low), MIN_WINDOW), MAX_WINDOW)
        if abs(middle) >= 2**61:  # keep base + 2 W within 64 bits
            half = 0
        self.width = 2 * half
        self.window = np.zeros(5 + 4 * self.width + 1, dtype=np.int64)
        self.window[:2] = middle - half, self.width

    def _int(self, i: int) -> int:
        low, high = int(self.state[2 * i]), int(self.state[2 * i + 1])
        return (high << 64) | (low & (2**64 - 1))

    def about(self, total: int, median: float, above: int, below: int) -> SerialSums | None:
        """The sums about the exact mean ``total`` / n and ``median`` (with ``above`` samples
        above it and ``below`` below), each the exact value rounded once to a float; None when
        they are not exact or the median is not a threshold the runs were followed about."""
        if not self.exact or self.offset is None or not self.n:
            return None
        lags, n = self.lags, self.n
        twice = 2 * (median - int(self.window[0]))
        if not float(twice).is_integer() or not 0 <= twice < 2 * self.width:
            return None
        j = int(twice)
        changes = int(np.cumsum(self.window[5 : 5 + j + 1])[-1]) + int(
            self.window[5 + 2 * self.width + 1 + j]
        )
        offset = self.offset
        head = [v - offset for v in self.head]
        # the last lags values of y = x - offset (zeros before the start of a shorter series)
        tail = [int(v) for v in self.prev][max(self.lags - n, 0) :]
        y_sum = total - n * offset
        delta = Fraction(total, n) - offset  # the exact mean less the offset
        sums = np.zeros(lags + 1)
        for k in range(lags + 1):
            # Σ_{t=k}^{n-1} (y_t - δ)(y_{t-k} - δ): the products less δ times the sums of
            # y_t over t >= k and over t < n - k, plus (n - k) δ²
            edges = 2 * y_sum - sum(head[:k]) - sum(tail[len(tail) - k :] if k else [])
            exact = self._int(k) - delta * edges + (n - k) * delta * delta
            sums[k] = float(exact)
        t_sum, squares, scaled = (self._int(lags + 1 + i) for i in range(3))
        assert t_sum == y_sum
        # S_t = T_t - t δ: Σ S_t² = Σ T_t² - 2 δ Σ t T_t + δ² Σ t²
        eta = squares - 2 * delta * scaled + delta * delta * Fraction(n * (n + 1) * (2 * n + 1), 6)
        out = SerialSums(float(Fraction(total, n)), median, lags, use_c=False)
        out.sums = sums
        out.kpss = np.array([0.0, float(eta)])
        out.runs = np.array([above, below, changes, -1], dtype=np.int64)
        return out


def moments_built() -> bool:
    """The C extension gathers :class:`SerialMoments` (else the sums take a second pass)."""
    return _c_moments is not None


def exact_total(x: np.ndarray) -> int:
    """Σ x of whole numbers, exactly (in Python's integers where 64 bits could overflow)."""
    if not len(x):
        return 0
    big = max(abs(int(x.min())), abs(int(x.max())))
    if big * len(x) < 2**62:
        return int(x.sum(dtype=np.int64))
    return sum(int(v) for v in x)


def exact_sums(x: np.ndarray, median: float, lags: int, chunk: int = 1 << 20) -> SerialSums | None:
    """:class:`SerialSums` of whole numbers in memory about their exact mean and ``median``,
    from :class:`SerialMoments` (each sum the exact value rounded once); None where those are
    not exact (or not built)."""
    if _c_moments is None or x.dtype.kind not in "iu" or not len(x):
        return None
    if x.dtype.kind == "u" and x.dtype.itemsize == 8 and int(x.max()) >= 2**63:
        return None
    moments = SerialMoments(lags)
    for at in range(0, len(x), chunk):
        moments.add(x[at : at + chunk])
    above = sum(int(np.count_nonzero(x[a : a + chunk] > median)) for a in range(0, len(x), chunk))
    below = sum(int(np.count_nonzero(x[a : a + chunk] < median)) for a in range(0, len(x), chunk))
    return moments.about(exact_total(x), median, above, below)
