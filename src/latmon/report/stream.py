"""The report of a large run file, streamed as ``latmon stats`` streams it: the samples are read
batch by batch and never held whole.

One pass (the statistics' own, :func:`latmon.analysis.files.run_file_stats`) gathers, per series
besides its exact distribution, what the other sections draw from (:class:`Digester`): the
extremes and the exact sum; the largest values of the whole series and of each half, and the
block maxima (the tail's fits, :class:`latmon.tail.source.Digest`); each timeline bucket's lowest
and highest sample and the largest samples with their indices (the latency-over-time figure).
The first half's exact value counts are the distribution's as it stands halfway through the
series (the second half's: the whole's less those). A worker thread takes the serial sums of the
tail's i.i.d. checks from the same batches, exact before the mean and the median are known
(:class:`latmon.tail.serial.SerialMoments`); where they cannot be exact, the checks read the file
once more for them. The timeline's count of
samples at or above its spike threshold comes from the exact distribution. The results are the
in-memory report's: the same samples, counted and compared, chunk by chunk
(tests/test_report_stream.py).

A run file is streamed when its latency series together hold at least STREAM_FROM samples and
it has no series derived from them (stages, spike explanations: those are drawn sample by
sample and read whole).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from latmon.analysis.chunks import largest
from latmon.analysis.distribution.counts import Distribution
from latmon.analysis.files import SeriesStats, run_file_stats
from latmon.analysis.stats import CONFIDENCE
from latmon.figures.data import MAX_SPIKES, TIMELINE_BUCKETS, Timeline
from latmon.inputs.runfile import iter_samples, read_run_header
from latmon.model import Run
from latmon.tail.analysis import screen_size
from latmon.tail.checks import COUNT_BINS, KS_COUNTS_FROM, HalfCounts, summed_lags
from latmon.tail.gev import default_block_size
from latmon.tail.serial import SerialMoments, moments_built
from latmon.tail.source import Digest

_scan: Callable[..., tuple[int, int]] | None
try:
    from latmon.report._digest import scan as _scan
except ImportError:  # pragma: no cover - without a compiler
    _scan = None

#: Run files with at least this many latency samples are streamed (smaller ones read whole).
STREAM_FROM = 4_000_000
#: The passes after the first read batches of this many samples.
REREAD_ROWS = 1 << 20
#: Batches of the first pass that may wait for the serial sums' worker (bounded memory).
SERIAL_AHEAD = 2


@dataclass
class StreamedSeries:
    """A series of a streamed run file: its statistics, its tail digest, its timeline."""

    stats: SeriesStats
    digest: Digest
    timeline: Timeline


def should_stream(path: Path) -> bool:
    """A run file large enough to stream, with nothing derived from its latency series."""
    run, rows = read_run_header(path)
    if any(s.is_derived for s in run.series):
        return False
    return sum(rows) >= STREAM_FROM


class _Top:
    """The ``keep`` largest values seen. Once ``keep`` are held, a batch's values above the
    lowest held (an equal one changes nothing kept) wait beside them and are merged in once as
    many wait as are held: one partition per ``keep`` values taken rather than one per batch.
    :attr:`floor` is the lowest held at the last merge: at most the lowest of the ``keep``
    largest so far, so every value that could be one of them reaches it."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._held = np.zeros(0, dtype=np.int64)
        self._waiting: list[np.ndarray] = []
        self._waiting_count = 0
        self.floor = 0

    @property
    def full(self) -> bool:
        return len(self._held) >= self.keep

    @property
    def values(self) -> np.ndarray:
        """The ``keep`` largest values seen (all of them while fewer), unsorted."""
        if self._waiting:
            self._merge()
        return self._held

    def _merge(self) -> None:
        self._held = largest(np.concatenate((self._held, *self._waiting)), self.keep)
        self._waiting, self._waiting_count = [], 0
        if self.full:
            self.floor = int(self._held.min())

    def add(self, chunk: np.ndarray) -> None:
        if not len(chunk) or not self.keep:
            return
        if not self.full:
            self._waiting.append(chunk)
            self._merge()
            return
        chunk = chunk[chunk > self.floor]
        if len(chunk):
            self._waiting.append(chunk)
            self._waiting_count += len(chunk)
            if self._waiting_count >= self.keep:
                self._merge()


class Digester:
    """Everything but the distribution that the report reads of one series of ``n`` samples,
    gathered batch by batch in time order (``t``: the series' time column, when it has one)."""

    def __init__(
        self, n: int, to_ns: float, buckets: int = TIMELINE_BUCKETS, use_c: bool = True
    ) -> None:
        self.n = n
        self.to_ns = to_ns
        self.at = 0
        self.has_time = False
        self.low: int | None = None
        self.high: int | None = None
        self.total = 0
        self.keep = screen_size(n) + 1
        self.block = default_block_size(n)
        # each half's pool holds as many as the whole series' needs (the tail's and the
        # timeline's top 0.1 %): the whole series' largest are the largest of the two
        self.pooled = max(self.keep, n // 1000, MAX_SPIKES)
        self.tops = {"first": _Top(self.pooled), "second": _Top(self.pooled)}
        self.top_all = np.zeros(0, dtype=np.int64)
        self.half_maxima: dict[str, int] = {}
        self.maxima: list[np.ndarray] = []
        self._partial: int | None = None  # the running maximum of an unfinished block
        self._filled = 0
        # the timeline: buckets as timeline_points cuts them, each one's min and max
        self.edges = np.linspace(0, n, buckets + 1).astype(np.int64)
        self.lo_index = np.full(buckets, -1, dtype=np.int64)
        self.hi_index = np.full(buckets, -1, dtype=np.int64)
        self.lo_value = np.zeros(buckets, dtype=np.int64)
        self.hi_value = np.zeros(buckets, dtype=np.int64)
        self.times: dict[int, int] = {}  # t at the indices the figure draws
        # the largest (value, index) pairs: the spikes' candidates
        self.spike_value = np.zeros(0, dtype=np.int64)
        self.spike_index = np.zeros(0, dtype=np.int64)
        self.spike_time = np.zeros(0, dtype=np.int64)
        self._scan = _scan if use_c else None
        #: the tail checks' serial sums, exact, fed by the caller (:func:`stream_run_file`:
        #: beside the pass, in a thread); None where they cannot be gathered in C
        self.serial = SerialMoments(summed_lags(n)) if moments_built() and n > 1 else None

    def add(self, values: np.ndarray, t: np.ndarray | None = None) -> None:
        x = np.asarray(values, dtype=np.int64)
        if not len(x):
            return
        if self._scan is not None:
            self._add_scanned(np.ascontiguousarray(x), t)
            return
        start, stop = self.at, self.at + len(x)
        self.at = stop
        self.has_time = t is not None
        lo, hi = int(x.min()), int(x.max())
        self.low = lo if self.low is None else min(self.low, lo)
        self.high = hi if self.high is None else max(self.high, hi)
        if max(abs(lo), abs(hi)) * len(x) < 2**62:
            self.total += int(x.sum())
        else:
            self.total += sum(int(v) for v in x)
        for part, a, b in self._halves(start, stop):
            self._pool(part, x, t, start, a, b)
            top = int(x[a - start : b - start].max())
            self.half_maxima[part] = max(self.half_maxima.get(part, top), top)
        self._block_maxima(x)
        self._timeline(x, t, start)

    def _halves(self, start: int, stop: int) -> list[tuple[str, int, int]]:
        """The parts of samples [start, stop) in each half: (half, first, past the last)."""
        half = self.n // 2
        parts = (("first", start, min(stop, half)), ("second", max(start, half), stop))
        return [(part, a, b) for part, a, b in parts if a < b]

    def _pool(
        self,
        part: str,
        x: np.ndarray,
        t: np.ndarray | None,
        start: int,
        a: int,
        b: int,
        picked: np.ndarray | None = None,
    ) -> None:
        """Samples [a, b) of the batch ``x`` that starts at ``start``, to the half's pool of
        largest values and to the spikes' candidates (``picked``: the offsets in the piece of
        those at or above the full pool's lowest, when the caller found them)."""
        piece = x[a - start : b - start]
        times = None if t is None else t[a - start : b - start]
        pool = self.tops[part]
        if pool.full:
            # one comparison for both: the pool takes those above its lowest (an equal one
            # changes nothing), the spikes those that reach it (a later equal sample wins a tie)
            where = picked if picked is not None else np.flatnonzero(piece >= self._floor(part))
            pool.add(piece[where])
            self._spikes(piece[where], where + a, None if times is None else times[where])
        else:
            pool.add(piece)
            self._spikes(piece, np.arange(a, b), times)

    def _floor(self, part: str) -> int:
        """The lowest value of the half's full pool at its last merge (its candidates reach
        it)."""
        return self.tops[part].floor

    def _add_scanned(self, x: np.ndarray, t: np.ndarray | None) -> None:
        """:meth:`add` with one pass in C (latmon.report._digest) for the sum, each piece's
        extremes (the batch cut where a timeline bucket, a block or a half starts: each piece's
        lowest and highest value with its first index) and the samples that reach a full
        pool's lowest value. The same results as numpy's."""
        assert self._scan is not None
        start, stop = self.at, self.at + len(x)
        self.at = stop
        self.has_time = t is not None
        b = self.block
        within = np.searchsorted(self.edges, [start, stop], "right")
        inner = [
            self.edges[within[0] : within[1]],
            np.arange(-(-start // b) * b, stop, b, dtype=np.int64),
        ]
        if start < self.n // 2 < stop:
            inner.append(np.array([self.n // 2], dtype=np.int64))
        cuts = np.unique(np.concatenate([np.array([start, stop], dtype=np.int64), *inner]))
        cuts = cuts[(cuts >= start) & (cuts <= stop)] - start
        m = len(cuts) - 1
        begins = cuts[:-1] + start  # each piece's first index in the series
        halves = self._halves(start, stop)
        # each piece's floor: its half's full pool's lowest (none while the pool fills)
        floors = np.full(m, np.iinfo(np.int64).max, dtype=np.int64)
        full = {part for part, _, _ in halves if self.tops[part].full}
        for part, a, z in halves:
            if part in full:
                floors[(begins >= a) & (begins < z)] = self._floor(part)
        low, low_at, high, high_at = (np.empty(m, dtype=np.int64) for _ in range(4))
        picked = np.empty(len(x), dtype=np.int64)
        total, count = self._scan(x, cuts, low, low_at, high, high_at, floors, picked)
        self.total += total
        picked = picked[:count]
        lo, hi = int(low.min()), int(high.max())
        self.low = lo if self.low is None else min(self.low, lo)
        self.high = hi if self.high is None else max(self.high, hi)
        for part, a, z in halves:
            mine = None
            if part in full:
                mine = picked[(picked >= a - start) & (picked < z - start)] - (a - start)
            self._pool(part, x, t, start, a, z, mine)
            inside = (begins >= a) & (begins < z)
            top = int(high[inside].max())
            self.half_maxima[part] = max(self.half_maxima.get(part, top), top)
        # the block maxima: the pieces of each block (a block's pieces are consecutive)
        blocks = begins // b
        first = np.flatnonzero(np.concatenate(([True], blocks[1:] != blocks[:-1])))
        maxima = np.maximum.reduceat(high, first)
        ids = blocks[first]
        if self._filled and ids[0] == start // b:
            assert self._partial is not None
            maxima[0] = max(int(maxima[0]), self._partial)
        whole = (ids + 1) * b <= stop
        if whole.any():
            self.maxima.append(maxima[whole].astype(np.float64))
        if not whole[-1]:
            self._partial, self._filled = int(maxima[-1]), stop - int(ids[-1]) * b
        else:
            self._partial, self._filled = None, 0
        # the timeline: each bucket's lowest and highest sample, first occurrence
        for bucket, a, z in self._buckets(start, stop, t):
            s0, s1 = np.searchsorted(begins, a), np.searchsorted(begins, z)
            i = s0 + int(np.argmin(low[s0:s1]))
            j = s0 + int(np.argmax(high[s0:s1]))
            lo, hi = start + int(low_at[i]), start + int(high_at[j])
            self._keep(bucket, lo, low[i], hi, high[j], t, start)

    def _block_maxima(self, x: np.ndarray) -> None:
        b, at = self.block, 0
        if self._filled:
            take = min(b - self._filled, len(x))
            head = int(x[:take].max())
            self._partial = head if self._partial is None else max(self._partial, head)
            self._filled += take
            at = take
            if self._filled == b:
                self.maxima.append(np.array([self._partial], dtype=np.float64))
                self._partial, self._filled = None, 0
        whole = (len(x) - at) // b
        if whole:
            block = x[at : at + whole * b].reshape(whole, b).max(axis=1)
            self.maxima.append(block.astype(np.float64))
            at += whole * b
        if at < len(x):
            self._partial = int(x[at:].max())
            self._filled = len(x) - at

    def _timeline(self, x: np.ndarray, t: np.ndarray | None, start: int) -> None:
        for bucket, a, b in self._buckets(start, start + len(x), t):
            piece = x[a - start : b - start]
            # the first occurrence of the bucket's min and max (np.argmin over the bucket)
            i, j = int(np.argmin(piece)), int(np.argmax(piece))
            self._keep(bucket, a + i, piece[i], a + j, piece[j], t, start)

    def _buckets(
        self, start: int, stop: int, t: np.ndarray | None
    ) -> Iterator[tuple[int, int, int]]:
        """The timeline buckets that samples [start, stop) reach: (bucket, first, end) of their
        part of it; the time of a bucket's first sample is kept when it lies in the range."""
        first = int(np.searchsorted(self.edges, start, side="right")) - 1
        for bucket in range(max(first, 0), len(self.edges) - 1):
            a, b = int(self.edges[bucket]), int(self.edges[bucket + 1])
            if a >= stop:
                break
            if t is not None and start <= a < stop:
                self.times[a] = int(t[a - start])
            a, b = max(a, start), min(b, stop)
            if a < b:
                yield bucket, a, b

    def _keep(
        self,
        bucket: int,
        lo: int,
        lo_value: int,
        hi: int,
        hi_value: int,
        t: np.ndarray | None,
        start: int,
    ) -> None:
        """A part's lowest (at index lo) and highest (at hi) sample, where they beat the
        bucket's so far, with their times (``t`` holds the times from index ``start``)."""
        if self.lo_index[bucket] < 0 or lo_value < self.lo_value[bucket]:
            self.lo_index[bucket], self.lo_value[bucket] = lo, lo_value
            if t is not None:
                self.times[lo] = int(t[lo - start])
        if self.hi_index[bucket] < 0 or hi_value > self.hi_value[bucket]:
            self.hi_index[bucket], self.hi_value[bucket] = hi, hi_value
            if t is not None:
                self.times[hi] = int(t[hi - start])

    def _spikes(self, x: np.ndarray, at: np.ndarray, t: np.ndarray | None) -> None:
        """The MAX_SPIKES largest (value, index) pairs so far (a later index wins a tie, as
        the stable sort of timeline_points keeps it), from samples ``x`` at indices ``at``
        (their times ``t``); the caller passes at least every sample that could be one."""
        if len(self.spike_value) >= MAX_SPIKES:
            floor = int(self.spike_value.min())
            where = np.flatnonzero(x >= floor)
        elif len(x) <= MAX_SPIKES:
            where = np.arange(len(x))
        else:
            kth = np.partition(x, len(x) - MAX_SPIKES)[len(x) - MAX_SPIKES]
            where = np.flatnonzero(x >= kth)
        if not len(where):
            return
        value = np.concatenate((self.spike_value, x[where]))
        index = np.concatenate((self.spike_index, at[where]))
        time = np.concatenate(
            (self.spike_time, t[where] if t is not None else np.zeros(len(where), np.int64))
        )
        order = np.lexsort((index, value))[-MAX_SPIKES:]
        self.spike_value, self.spike_index, self.spike_time = (
            value[order],
            index[order],
            time[order],
        )

    # -- results -------------------------------------------------------------------------------

    def digest(self, reread: Callable[[], Iterator[np.ndarray]]) -> Digest:
        assert self.low is not None and self.high is not None and self.at == self.n
        both = np.concatenate((self.tops["first"].values, self.tops["second"].values))
        self.top_all = top = largest(both, self.pooled)
        return Digest(
            n=self.n,
            low=self.low,
            high=self.high,
            total=self.total,
            keep=self.keep,
            block=self.block,
            tops={
                "all": np.sort(top)[max(len(top) - self.keep, 0) :],
                "first": np.sort(self.tops["first"].values)[-self.keep :],
                "second": np.sort(self.tops["second"].values)[-self.keep :],
            },
            half_maxima=self.half_maxima,
            block_maxima=np.concatenate(self.maxima) if self.maxima else np.zeros(0),
            reread=reread,
            serial=self.serial if self.serial is not None and self.serial.n == self.n else None,
        )

    def timeline(
        self,
        deadline_ns: int | None,
        median: Callable[[], float],
        count_at_least: Callable[[float], int],
    ) -> Timeline:
        """:func:`latmon.figures.data.timeline_points` of the series (decimated: it is long);
        ``median`` and ``count_at_least`` (samples at or above a latency in ns) answer what
        the pools do not."""
        to_ns = self.to_ns
        has_time = self.has_time
        starts = self.edges[:-1]
        t0 = self.times.get(0, 0)

        def x_at(index: np.ndarray) -> np.ndarray:
            if not has_time:
                return index.astype(np.float64)
            t = np.array([self.times[int(i)] for i in index], dtype=np.int64)
            return np.asarray((t.astype(np.float64) * to_ns - float(t0) * to_ns) / 1e9)

        lo, hi = self.lo_index, self.hi_index
        idx = np.sort(np.concatenate((lo, hi)))
        value_at = dict(zip(lo.tolist(), self.lo_value.tolist(), strict=True))
        value_at.update(zip(hi.tolist(), self.hi_value.tolist(), strict=True))
        py = np.array([value_at[int(i)] for i in idx], dtype=np.int64).astype(np.float64) * to_ns
        band = (
            x_at(starts),
            self.lo_value.astype(np.float64) * to_ns,
            self.hi_value.astype(np.float64) * to_ns,
        )
        # the spike rule of timeline_points: its candidates are every sample from some value
        # up, so the largest MAX_SPIKES of them are among the largest MAX_SPIKES overall
        pool = self.top_all
        k = max(1, self.n // 1000)
        kth = int(np.partition(pool, len(pool) - k)[len(pool) - k])
        threshold = float(kth) * to_ns
        if deadline_ns is not None:
            threshold = min(threshold, float(deadline_ns))
        reach = pool.astype(np.float64) * to_ns >= threshold
        # when every pooled value reaches the threshold, the pool may not hold every sample
        # that does: they are counted in the file
        at_least = count_at_least(threshold) if reach.all() else int(np.count_nonzero(reach))
        above_median = None
        if 2 * at_least >= self.n:
            above_median = median() * to_ns
        v = self.spike_value.astype(np.float64) * to_ns
        keep = v >= threshold
        if above_median is not None:
            keep &= v > above_median
        if deadline_ns is not None:
            keep |= v > deadline_ns
        order = np.argsort(self.spike_index[keep])
        spikes = self.spike_index[keep][order]
        spike_ns = v[keep][order]
        if has_time:
            spike_x = np.asarray(
                (self.spike_time[keep][order].astype(np.float64) * to_ns - float(t0) * to_ns) / 1e9
            )
        else:
            spike_x = spikes.astype(np.float64)
        return Timeline(x_at(idx), py, spike_x, spike_ns, spikes, True, has_time, *band)


def stream_run_file(
    path: Path,
    deadline_ns: int | None,
    confidence: float = CONFIDENCE,
    batch_rows: int = 1 << 20,
    reread_rows: int = REREAD_ROWS,
) -> tuple[Run, dict[int, StreamedSeries]]:
    """The run of a large run file without its samples, and per series (by ``id``) what the
    report draws from it, in one pass over the file (and the tail checks' second where their sums
    cannot be exact); the passes read batches of ``batch_rows`` and ``reread_rows`` samples."""
    run, rows = read_run_header(path)
    digesters = [
        Digester(n, float(s.ns_per_unit)) if n > KS_COUNTS_FROM else None
        for s, n in zip(run.series, rows, strict=True)
    ]

    # the serial sums of the tail's checks, gathered by one worker beside the pass (in C,
    # without the GIL) in the batches' order; at most SERIAL_AHEAD batches wait for it
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="latmon-serial")
    pending: deque[Future[None]] = deque()

    def observe(index: int, values: np.ndarray, t: np.ndarray | None) -> None:
        d = digesters[index]
        if d is not None:
            d.add(values, t)
            if d.serial is not None:
                pending.append(worker.submit(d.serial.add, values))
                while len(pending) > SERIAL_AHEAD:
                    pending.popleft().result()

    first_half: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def halfway(index: int, dist: Distribution) -> None:
        # the first half's exact value counts, for the KS check and the median (the second
        # half's are the whole series' less those): no counting in the serial sums' pass
        low, high = dist.minimum().value, dist.maximum().value
        exact = digesters[index] is not None and dist.exact and dist.n
        if exact and low is not None and high is not None and high - low < COUNT_BINS:
            first_half[index] = dist.values_and_counts()

    try:
        results = run_file_stats(
            path,
            confidence,
            deadline_ns,
            observe=observe,
            with_time=True,
            batch_rows=batch_rows,
            halfway=halfway,
        )
        while pending:
            pending.popleft().result()
    finally:
        worker.shutdown(cancel_futures=True)
    out: dict[int, StreamedSeries] = {}
    for r in results:
        index = next(i for i, s in enumerate(r.run.series) if s is r.series)
        d = digesters[index]
        if d is None or not r.dist.n:
            continue

        def reread(index: int = index) -> Iterator[np.ndarray]:
            # the first pass checked the file's checksum
            for i, values, _ in iter_samples(path, reread_rows, verify=False):
                if i == index:
                    yield values

        digest = d.digest(reread)
        digest.median = _median_of(r.dist, reread)
        if r.dist.exact and r.dist.n == d.n:
            digest.distinct = r.dist.values_and_counts()
            if index in first_half:
                halves = HalfCounts.of_exact(
                    digest.low, digest.high, first_half[index], digest.distinct
                )
                digest.set_half_counts(halves)

        def median(
            digest: Digest = digest,
            dist: Distribution = r.dist,
            reread: Callable[[], Iterator[np.ndarray]] = reread,
        ) -> float:
            return digest.median if digest.median is not None else _median_of(dist, reread)

        def count_at_least(
            ns: float,
            reread: Callable[[], Iterator[np.ndarray]] = reread,
            to_ns: float = d.to_ns,
            distinct: tuple[np.ndarray, np.ndarray] | None = digest.distinct,
        ) -> int:
            if distinct is not None:  # the exact counts: no pass over the file
                values, counts = distinct
                return int(counts[values.astype(np.float64) * to_ns >= ns].sum())
            return sum(int(np.count_nonzero(c.astype(np.float64) * to_ns >= ns)) for c in reread())

        timeline = d.timeline(deadline_ns, median, count_at_least)
        out[id(r.series)] = StreamedSeries(r, digest, timeline)
    return results[0].run if results else run, out


def _median_of(dist: Distribution, reread: Callable[[], Iterator[np.ndarray]]) -> float:
    """np.median of a series too wide for exact counts: its two middle order statistics."""
    n = dist.n
    ranks = sorted({(n - 1) // 2 + 1, n // 2 + 1})
    dist.refine(reread, ranks)
    values = [dist.at_rank(r).value for r in ranks]
    assert all(v is not None for v in values)
    return sum(float(v) for v in values if v is not None) / len(values)
