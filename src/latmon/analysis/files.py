"""Statistics per series of any input, the one path every command takes: run files and large
text inputs are streamed batch by batch into a
:class:`~latmon.analysis.distribution.counts.Distribution` (memory bounded by its bins), everything
else is read whole; then :func:`latmon.analysis.stats.summarize`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from latmon.analysis.distribution.bins import MAX_BINS
from latmon.analysis.distribution.counts import Distribution
from latmon.analysis.stats import PERCENTILES, Summary, deadline_in_unit, summarize
from latmon.errors import InputError
from latmon.inputs.readers import Problems, ReadOptions, cyclictest_verbose, plain
from latmon.inputs.runfile import iter_latency, iter_samples, read_run_header
from latmon.model import Run, Series, record_measures

#: Text formats that are streamed instead of read whole.
STREAMED_TEXT = (plain.NAME, cyclictest_verbose.NAME)


@dataclass
class SeriesStats:
    """A series (without its samples when streamed) with its distribution and statistics."""

    run: Run
    series: Series
    dist: Distribution
    summary: Summary


def _run_file_batches(path: Path, index: int) -> Callable[[], Iterator[np.ndarray]]:
    def batches() -> Iterator[np.ndarray]:
        for i, values in iter_latency(path):
            if i == index:
                yield values

    return batches


def run_file_stats(
    path: Path,
    confidence: float,
    deadline_ns: int | None = None,
    max_bins: int = MAX_BINS,
    progress: Callable[[int], None] | None = None,
    percentiles: dict[str, float] = PERCENTILES,
    observe: Callable[[int, np.ndarray, np.ndarray | None], None] | None = None,
    with_time: bool = False,
    batch_rows: int = 1 << 20,
    halfway: Callable[[int, Distribution], None] | None = None,
) -> list[SeriesStats]:
    """Statistics of every series of a run file, read one batch at a time; the run comes back
    without samples. Stage series (a subset of another series) are left out. ``observe``
    sees every batch too (series index, latency, its time column when ``with_time`` and the
    series has one), in the same pass; ``halfway`` sees each series' distribution when it
    has counted exactly the first half of its samples (n // 2)."""
    run, rows = read_run_header(path)
    record_measures(run)
    dists = [Distribution(s.unit, s.clock_hz, max_bins) for s in run.series]
    seen = [0] * len(rows)
    before_half = {i for i, n in enumerate(rows) if n} if halfway is not None else set()
    for index, values, t in iter_samples(path, batch_rows, with_time=with_time):
        if index in before_half and seen[index] + len(values) >= rows[index] // 2:
            assert halfway is not None
            cut = rows[index] // 2 - seen[index]
            dists[index].add(values[:cut])
            halfway(index, dists[index])
            dists[index].add(values[cut:])
            before_half.discard(index)
        else:
            dists[index].add(values)
        seen[index] += len(values)
        if observe is not None:
            observe(index, values, t)
        if progress is not None:
            progress(len(values))
    out = []
    for index, (series, dist, n) in enumerate(zip(run.series, dists, rows, strict=True)):
        if series.is_derived:
            continue
        deadline = None if deadline_ns is None else deadline_in_unit(series, deadline_ns)
        if not (n and dist.n):  # a histogram-only series
            dist = Distribution.from_series(series, max_bins)
            summary = summarize(dist, percentiles, confidence, deadline)
        else:
            reread = _run_file_batches(path, index)
            summary = summarize(dist, percentiles, confidence, deadline, reread)
        out.append(SeriesStats(run, series, dist, summary))
    return out


def series_stats(
    runs: list[Run],
    confidence: float,
    deadline_ns: int | None = None,
    max_bins: int = MAX_BINS,
    percentiles: dict[str, float] = PERCENTILES,
) -> list[SeriesStats]:
    """Statistics of every latency series (not stages, not spikes) of runs read into memory."""
    out = []
    for run in runs:
        for series in run.series:
            if series.is_derived:
                continue  # stages or spike explanations of another series: see latmon report
            deadline = None if deadline_ns is None else deadline_in_unit(series, deadline_ns)
            dist = Distribution.from_series(series, max_bins)
            out.append(
                SeriesStats(run, series, dist, summarize(dist, percentiles, confidence, deadline))
            )
    return out


def text_stats(
    path: Path,
    fmt: str,
    options: ReadOptions,
    confidence: float,
    deadline_ns: int | None = None,
    max_bins: int = MAX_BINS,
    percentiles: dict[str, float] = PERCENTILES,
) -> list[SeriesStats]:
    """Statistics of a plain-number or cyclictest -v file, streamed: memory bounded by the
    bins and the read block, whatever the size of the file."""
    if fmt == plain.NAME:
        streamed = plain.stream(path, options)
        (series,) = streamed.run.series
        dist = Distribution("ns", None, max_bins)
        for values in streamed.batches():
            dist.add(values)
        if not dist.n:
            raise InputError(str(path), None, "no latency values")
        series.counters = {"events": dist.n}
        deadline = None if deadline_ns is None else deadline_in_unit(series, deadline_ns)
        summary = summarize(dist, percentiles, confidence, deadline, streamed.batches)
        return [SeriesStats(streamed.run, series, dist, summary)]
    problems = Problems(str(path), options.keep_going)
    state = cyclictest_verbose.State()
    dists: dict[int, Distribution] = {}
    for thread, _, latency in cyclictest_verbose.scan_threads(path, options, problems, state):
        dists.setdefault(thread, Distribution("ns", None, max_bins)).add(latency)
    if not dists:
        raise InputError(
            str(path), None, "no thread:cycle:latency lines: is this cyclictest -v output?"
        )
    run = cyclictest_verbose.run_of(path, options, problems, state, {})
    out = []
    for thread in sorted(dists):
        dist = dists[thread]
        series = cyclictest_verbose.series_of(thread, state, options, path, {})
        series.counters = {"events": dist.n}
        run.series.append(series)

        def reread(thread: int = thread) -> Iterator[np.ndarray]:
            quiet = Problems(str(path), True)
            again = cyclictest_verbose.State()
            for t, _, lat in cyclictest_verbose.scan_threads(path, options, quiet, again):
                if t == thread:
                    yield lat

        deadline = None if deadline_ns is None else deadline_in_unit(series, deadline_ns)
        summary = summarize(dist, percentiles, confidence, deadline, reread)
        out.append(SeriesStats(run, series, dist, summary))
    return out
