"""What the tail analysis reads of a series in time order, from memory or from a stream.

:class:`Samples` is a series held in memory. :class:`Digest` is the same series summarised in
one pass over a run file (:func:`latmon.tail.stream.digest_run_file`): its length, extremes and
exact sum, the largest values of the whole series and of each half, the block maxima, the
halves' value counts, and a way to read the samples again in order for the serial sums
(:mod:`latmon.tail.serial`) — so that a series of 10^8 samples is analysed in memory bounded by
√n, not n. Both answer the same questions with the same numbers: the largest values come back
sorted, the serial sums are taken chunk by chunk in either case.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from latmon.analysis.chunks import CHUNK, largest
from latmon.tail.checks import COUNT_BINS, HalfCounter, HalfCounts, half_counts, value_counts
from latmon.tail.gev import block_maxima
from latmon.tail.serial import SerialMoments, SerialSums


class Samples:
    """A series in memory, in time order."""

    def __init__(self, values: np.ndarray) -> None:
        self.values = np.asarray(values)

    @property
    def n(self) -> int:
        return len(self.values)

    def maximum(self) -> float:
        return float(self.values.max())

    def minimum(self) -> float:
        return float(self.values.min())

    def mean(self) -> float:
        return float(self.values.mean())

    def batches(self) -> Iterator[np.ndarray]:
        for start in range(0, self.n, CHUNK):
            yield self.values[start : start + CHUNK]

    def counts(self) -> HalfCounts | None:
        return half_counts(self.values)

    def top(self, keep: int, part: str = "all") -> np.ndarray:
        """The ``keep`` largest values of the series (or of its ``first`` or ``second``
        half), sorted."""
        return np.sort(largest(self._part(part), keep))

    def half_max(self, part: str) -> int:
        return int(self._part(part).max())

    def maxima(self, block: int, part: str = "all") -> np.ndarray:
        return block_maxima(self._part(part), block)

    def count_above(self, level: float, part: str = "all") -> int:
        x = self._part(part)
        return sum(int(np.count_nonzero(x[a : a + CHUNK] > level)) for a in range(0, len(x), CHUNK))

    def _part(self, part: str) -> np.ndarray:
        half = self.n // 2
        return {"all": self.values, "first": self.values[:half], "second": self.values[half:]}[part]


@dataclass
class Digest:
    """A series summarised in one pass (see the module's docstring); ``keep`` largest values
    of the whole and of each half, the maxima of blocks of ``block`` samples."""

    n: int
    low: int
    high: int
    total: int
    keep: int
    block: int
    tops: dict[str, np.ndarray]
    half_maxima: dict[str, int]
    block_maxima: np.ndarray
    reread: Callable[[], Iterable[np.ndarray]]
    #: np.median of the series, when known exactly (else the halves' counts give it)
    median: float | None = None
    #: the series' distinct values and their exact counts, when known (the halves' counts
    #: then count the first half only)
    distinct: tuple[np.ndarray, np.ndarray] | None = None
    #: the halves' value counts, when known (else the first pass of :meth:`batches` counts)
    half_counts: HalfCounts | None = None
    #: the i.i.d. checks' serial sums gathered in the pass that digested the series (exact;
    #: :meth:`serial_sums`), when it gathered them
    serial: SerialMoments | None = None
    _counted: bool = field(default=False, repr=False)

    def __post_init__(self) -> None:
        self._counted = self.half_counts is not None

    def maximum(self) -> float:
        return float(self.high)

    def minimum(self) -> float:
        return float(self.low)

    def mean(self) -> float:
        return self.total / self.n

    def batches(self) -> Iterator[np.ndarray]:
        """The samples in order; the first pass read to its end also counts the halves."""
        counter = None if self._counted else HalfCounter(self.n, self.low, self.high, self.distinct)
        for chunk in self.reread():
            if counter is not None:
                counter.add(chunk)
            yield chunk
        if counter is not None and counter.at == self.n and not self._counted:
            self.half_counts = counter.result()
            self._counted = True

    def set_half_counts(self, counts: HalfCounts | None) -> None:
        """The halves' value counts, known without a pass (None: the pass counts them)."""
        if counts is not None:
            self.half_counts = counts
            self._counted = True

    def counts(self) -> HalfCounts:
        if not self._counted:
            for _ in self.batches():
                pass
        assert self.half_counts is not None
        return self.half_counts

    def middle(self) -> float:
        """The median as :meth:`HalfCounts.median` gives it: exact (``median``) when the
        halves are counted value by value, else from their bins (a pass if not yet
        counted)."""
        exact_bins = self.high - self.low + 1 <= COUNT_BINS
        if self.median is not None and exact_bins:
            return self.median
        return self.counts().median()

    def serial_sums(self) -> SerialSums | None:
        """The serial sums about the exact mean and the median (:meth:`middle`) from
        :attr:`serial`: when it holds them exactly, the median is the exact one and the
        exact counts tell the samples on either side of it (else None: a pass sums them)."""
        exact_bins = self.high - self.low + 1 <= COUNT_BINS
        if self.serial is None or self.median is None or self.distinct is None or not exact_bins:
            return None
        values, counts = self.distinct
        above = int(counts[values > self.median].sum())
        below = int(counts[values < self.median].sum())
        return self.serial.about(self.total, self.median, above, below)

    def top(self, keep: int, part: str = "all") -> np.ndarray:
        if keep > self.keep:
            values = self.batches() if part == "all" else self._half_batches(part)
            kept = np.zeros(0, dtype=np.int64)
            for chunk in values:
                kept = largest(np.concatenate((kept, chunk)), keep)
            return np.sort(kept)
        return np.sort(self.tops[part])[len(self.tops[part]) - min(keep, len(self.tops[part])) :]

    def half_max(self, part: str) -> int:
        return self.half_maxima[part]

    def maxima(self, block: int, part: str = "all") -> np.ndarray:
        if block != self.block:
            raise ValueError(f"the digest holds blocks of {self.block}, not {block}")
        if part == "all":
            return self.block_maxima
        if part == "first":
            return self.block_maxima[: (self.n // 2) // block]
        raise ValueError("block maxima of the second half are not kept")

    def count_above(self, level: float, part: str = "all") -> int:
        top = self.tops[part]
        if len(top) and level >= float(top.min()) and len(top) == self.keep:
            return int(np.count_nonzero(top > level))
        chunks = self.batches() if part == "all" else self._half_batches(part)
        return sum(int(np.count_nonzero(c > level)) for c in chunks)

    def _half_batches(self, part: str) -> Iterator[np.ndarray]:
        half, at = self.n // 2, 0
        for chunk in self.batches():
            lo, hi = at, at + len(chunk)
            at = hi
            if part == "first" and lo < half:
                yield chunk[: half - lo]
            elif part == "second" and hi > half:
                yield chunk[max(half - lo, 0) :]


def value_counts_of(values: np.ndarray | Digest) -> tuple[np.ndarray, np.ndarray]:
    """:func:`latmon.tail.checks.value_counts` of samples in memory or of a digest (a long
    series: its halves' counts, as value_counts counts a long series)."""
    if isinstance(values, Digest):
        counts = values.counts()
        assert counts is not None
        return counts.values()
    return value_counts(values)


def maximum_of(values: np.ndarray | Digest) -> float:
    return values.maximum() if isinstance(values, Digest) else float(np.max(values))
