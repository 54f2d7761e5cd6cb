"""latmon.analysis.files: the streamed paths (text files, run files) give exactly what reading the
whole input gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from latmon.analysis.files import run_file_stats, series_stats, text_stats
from latmon.inputs.ingest import load
from latmon.inputs.readers import ReadOptions
from latmon.inputs.runfile import write_run
from latmon.model import Run, Series

DATA = Path(__file__).parent / "data" / "third-party"


def test_streamed_text_equals_the_whole_file(tmp_path: Path) -> None:
    rng = np.random.default_rng(12)
    values = rng.lognormal(9, 1.3, 50_000).astype(np.int64)
    path = tmp_path / "n.txt"
    path.write_text("# latency in ns\n" + "\n".join(map(str, values.tolist())) + "\n")
    (streamed,) = text_stats(path, "plain", ReadOptions(), 0.95, deadline_ns=30_000)
    (whole,) = series_stats(load(path), 0.95, deadline_ns=30_000)
    assert streamed.summary.as_dict() == whole.summary.as_dict()
    assert streamed.summary.ci_dict() == whole.summary.ci_dict()
    assert streamed.summary.deadline_dict() == whole.summary.deadline_dict()
    # narrow bins force the second pass: still the same figures
    (narrow,) = text_stats(path, "plain", ReadOptions(), 0.95, max_bins=1024)
    assert narrow.summary.as_dict() == whole.summary.as_dict() and narrow.summary.exact


def test_streamed_cyclictest_verbose_equals_the_whole_file() -> None:
    path = DATA / "cyclictest-verbose.txt"
    streamed = text_stats(path, "cyclictest-verbose", ReadOptions(), 0.95)
    whole = series_stats(load(path), 0.95)
    assert [s.series.name for s in streamed] == [s.series.name for s in whole]
    for a, b in zip(streamed, whole, strict=True):
        assert a.summary.as_dict() == b.summary.as_dict()


def test_run_file_streamed_equals_loaded(tmp_path: Path) -> None:
    rng = np.random.default_rng(13)
    series = [
        Series("cpu0", "ns", columns={"latency": rng.integers(1000, 90_000, 30_000)}),
        Series("t1", "cycles", clock_hz=100_000_000, columns={"latency": rng.integers(5, 99, 500)}),
    ]
    write_run(Run({"source": "t"}, series), tmp_path / "r.parquet")
    streamed = run_file_stats(tmp_path / "r.parquet", 0.95)
    whole = series_stats(load(tmp_path / "r.parquet"), 0.95)
    for a, b in zip(streamed, whole, strict=True):
        assert a.summary.as_dict() == b.summary.as_dict() and a.summary.unit == b.summary.unit
