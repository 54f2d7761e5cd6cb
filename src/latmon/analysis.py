"""Statistics per series of any input, the one path every command takes: run files and large
text inputs are streamed batch by batch into a :class:`~latmon.distribution.Distribution`
(memory bounded by its bins), everything else is read whole; then :func:`latmon.stats.summarize`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from latmon.distribution import MAX_BINS, Distribution
from latmon.model import Run, Series
from latmon.runfile import iter_latency, read_run_header
from latmon.stats import PERCENTILES, Summary, deadline_in_unit, summarize


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
) -> list[SeriesStats]:
    """Statistics of every series of a run file, read one batch at a time; the run comes back
    without samples. Stage series (a subset of another series) are left out."""
    run, rows = read_run_header(path)
    dists = [Distribution(s.unit, s.clock_hz, max_bins) for s in run.series]
    for index, values in iter_latency(path):
        dists[index].add(values)
        if progress is not None:
            progress(len(values))
    out = []
    for index, (series, dist, n) in enumerate(zip(run.series, dists, rows, strict=True)):
        if series.is_stages:
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
    """Statistics of every (non-stage) series of runs read into memory."""
    out = []
    for run in runs:
        for series in run.series:
            if series.is_stages:
                continue  # a subset of another series, split into stages: see latmon report
            deadline = None if deadline_ns is None else deadline_in_unit(series, deadline_ns)
            dist = Distribution.from_series(series, max_bins)
            out.append(
                SeriesStats(run, series, dist, summarize(dist, percentiles, confidence, deadline))
            )
    return out
