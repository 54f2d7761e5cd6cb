"""rtla timerlat hist text: one histogram series per IRQ/thread column and CPU, counts equal to
the tool's own count: line, min/max kept, overflow above the last bucket."""

from __future__ import annotations

from pathlib import Path

import pytest

from latmon.errors import InputError
from latmon.inputs.ingest import load
from latmon.inputs.readers import ReadOptions

DATA = Path(__file__).parent / "data" / "third-party" / "rtla-timerlat-hist.txt"


def columns_by_hand(path: Path) -> dict[str, list[int]]:
    """The file's summary lines, read independently of the reader: name -> values."""
    out = {}
    for line in path.read_text().splitlines():
        if line.split() and line.split()[0] in ("over:", "count:", "min:", "max:"):
            out[line.split()[0].rstrip(":")] = [int(v) for v in line.split()[1:]]
    return out


def test_series_and_counts_match_the_summary_lines() -> None:
    (run,) = load(DATA)
    assert run.meta["tool"] == "rtla timerlat" and run.meta["bucket"] == "1000"
    names = [s.name for s in run.series]
    assert names == ["irq-cpu0", "thread-cpu0", "irq-cpu1", "thread-cpu1"]
    summary = columns_by_hand(DATA)
    for k, s in enumerate(run.series):
        h = s.histogram
        assert h is not None
        assert int(h.count.sum()) + h.overflow == summary["count"][k]
        assert h.overflow == summary["over"][k]
        assert h.overflow_lo == 256_000  # the default 256 buckets of 1 us
        assert s.counters["min"] == summary["min"][k] * 1000
        assert s.counters["max"] == summary["max"][k] * 1000
        assert int(h.lo.min()) == summary["min"][k] * 1000  # the first non-empty bucket
    assert not run.problems


def test_a_lost_row_is_named(tmp_path) -> None:
    lines = DATA.read_text().splitlines()
    cut = tmp_path / "cut.txt"
    cut.write_text("\n".join(line for line in lines if not line.startswith("84 ")) + "\n")
    with pytest.raises(InputError, match="rows lost"):
        load(cut)
    (run,) = load(cut, keep_going=True, options=ReadOptions(keep_going=True))
    assert any("rows lost" in p for p in run.problems)


def test_not_rtla_is_refused(tmp_path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("# RTLA timerlat histogram\n1 2 3\n")
    with pytest.raises(InputError, match="Index"):
        load(bad, fmt="rtla-timerlat-hist")
