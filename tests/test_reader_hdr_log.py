"""HdrHistogram interval logs, written here by the HdrHistogram_py library itself."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from hdrh.histogram import HdrHistogram
from hdrh.log import HistogramLogWriter

from latmon.analysis.distribution.counts import Distribution
from latmon.analysis.stats import summarize, summarize_series
from latmon.errors import InputError
from latmon.inputs.ingest import detect_format, load
from latmon.inputs.readers import ReadOptions

DATA = Path(__file__).parent / "data" / "third-party"


def write_log(path: Path, intervals: dict[str, list[np.ndarray]], digits: int = 3) -> None:
    """An .hlog as HistogramLogWriter writes it; tags as the Java writer prefixes them."""
    out = io.StringIO()
    writer = HistogramLogWriter(out)
    writer.output_log_format_version()
    writer.output_legend()
    for tag, parts in intervals.items():
        for i, values in enumerate(parts):
            h = HdrHistogram(1, 3_600_000_000_000, digits)
            for v in values.tolist():
                h.record_value(v)
            line = io.StringIO()
            HistogramLogWriter(line).output_interval_histogram(h, 1.0 + i, 2.0 + i)
            out.write((f"Tag={tag}," if tag else "") + line.getvalue())
    path.write_text(out.getvalue())


def test_bins_hold_exactly_the_recorded_samples(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    a = [rng.lognormal(np.log(20_000), 0.5, 3000).astype(np.int64) for _ in range(4)]
    b = [rng.integers(500, 900_000, 2000) for _ in range(2)]
    write_log(tmp_path / "x.hlog", {"": a, "B": b})
    assert detect_format(tmp_path / "x.hlog") == "hdr-log"
    (run,) = load(tmp_path / "x.hlog")
    assert [s.name for s in run.series] == ["hdr", "B"]
    for series, parts in zip(run.series, (a, b), strict=True):
        samples = np.concatenate(parts)
        h = series.histogram
        assert h is not None and h.total == len(samples)
        # every sample lies in its bucket: counting the samples into the reader's bins
        # (independently, with numpy) gives the decoded counts exactly
        index = np.searchsorted(h.lo, samples, side="right") - 1
        assert np.all(samples < h.hi[index])
        assert np.array_equal(np.bincount(index, minlength=len(h.lo)), h.count)
        s, exact = summarize_series(series), summarize(Distribution.from_samples(samples))
        assert not s.exact and s.bin_error == int(np.max(h.hi - h.lo))
        for key in ("p50", "p99", "p99_9"):
            # each value at its bucket's lower edge: at most one bucket below the truth
            assert 0 <= exact.value(key) - s.value(key) < s.bin_error, key  # type: ignore[operator]
            lo, hi = s.bounds(key)
            assert lo <= exact.value(key) <= hi, key  # type: ignore[operator]
        assert abs(s.value("mean") - exact.value("mean")) < s.bin_error  # type: ignore[operator]
        assert series.meta["intervals"] == str(len(parts))


def test_the_checked_in_log_and_its_unit(tmp_path: Path) -> None:
    (run,) = load(DATA / "hdrhistogram.hlog")
    (series,) = run.series
    assert series.histogram is not None and series.histogram.total == 1500
    assert run.meta["source"] == "hdrhistogram" and run.meta["unit_assumed"] == "ns"
    (us,) = load(DATA / "hdrhistogram.hlog", options=ReadOptions(input_unit="us"))
    assert us.series[0].histogram is not None
    assert np.array_equal(us.series[0].histogram.lo, series.histogram.lo * 1000)


def test_a_damaged_interval_names_its_line_and_keep_going_keeps_the_rest(tmp_path: Path) -> None:
    lines = (DATA / "hdrhistogram.hlog").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if ",HIST" in line)
    lines[at] = lines[at][:-30] + "AAAA"  # a cut payload
    bad = tmp_path / "bad.hlog"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError) as error:
        load(bad)
    assert f"{bad}:{at + 1}" in str(error.value) and "cannot decode" in str(error.value)
    (run,) = load(bad, keep_going=True)
    assert run.damaged and run.series[0].histogram is not None
    assert run.series[0].histogram.total == 1000  # the two intact intervals
    empty = tmp_path / "empty.hlog"
    empty.write_text("#[Histogram log format version 1.2]\n")
    with pytest.raises(InputError, match="no interval histograms"):
        load(empty)
