"""From latmon-log to the run model: units, fields, histograms, detection."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from latmon.errors import InputError
from latmon.ingest import detect_format, load
from latmon.logformat import LogWriter


def write_log(path: Path, **header: object) -> None:
    f = io.StringIO()
    w = LogWriter(f, source="test", **header)  # type: ignore[arg-type]
    a = w.series("cpu0", fields=("t", "latency", "stage_irq", "stage_sched"), cpu=0)
    for k in range(5):
        w.sample(a, k * 1000, 100 + k, 40, 60 + k)
    b = w.series("hw", clock_hz=250_000_000, unit="cycles", resolution=2)
    w.sample(b, 10)
    w.bin(b, None, 0, 1)
    w.bin(b, 0, 16, 5)
    w.bin(b, 32, None, 2)
    w.counters(b, overruns=3)
    w.close()
    path.write_text(f.getvalue())


def test_latmon_log_to_run(tmp_path: Path) -> None:
    path = tmp_path / "x.log"
    write_log(path, unit="ns", scenario="idle")
    (run,) = load(path)
    assert run.meta["source"] == "test" and run.meta["scenario"] == "idle"
    cpu, hw = run.series
    assert (
        cpu.unit == "ns"
        and cpu.clock_hz is None
        and cpu.meta
        == {
            "cpu": "0",
            # what the series measures, recorded by the reader (an unknown producer: unspecified)
            "quantity": "latency",
            "path": "unspecified",
        }
    )
    assert list(cpu.columns) == ["t", "latency", "stage_irq", "stage_sched"]
    assert cpu.stage_names == ["stage_irq", "stage_sched"]
    assert np.array_equal(cpu.latency, [100, 101, 102, 103, 104])
    # per-series keys override the run's
    assert (hw.unit, hw.clock_hz, hw.resolution) == ("cycles", 250_000_000, 2)
    assert hw.latency.tolist() == [10]
    h = hw.histogram
    assert h is not None
    assert (h.underflow, h.underflow_hi, h.overflow, h.overflow_lo) == (1, 0, 2, 32)
    assert h.lo.tolist() == [0] and h.count.tolist() == [5]
    assert hw.counters["overruns"] == 3


def test_detection_by_content_not_name(tmp_path: Path) -> None:
    path = tmp_path / "data.parquet"  # a latmon-log with a misleading name
    write_log(path, unit="ns")
    assert detect_format(path) == "latmon-log"
    numbers = tmp_path / "x.log"  # a list of numbers is read as plain, whatever its name
    numbers.write_text("1\n2\n3\n")
    assert detect_format(numbers) == "plain"
    other = tmp_path / "notes.txt"
    other.write_text("lab notes\nnothing measured here\n")
    with pytest.raises(
        InputError, match=r"notes.txt:1: unrecognised format: .lab notes.; not a latmon run file"
    ):
        load(other)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, "no such file"),
        (lambda p: p.mkdir(), "is a folder"),
    ],
)
def test_file_errors(tmp_path: Path, make, message: str) -> None:
    path = tmp_path / "input"
    make(path)
    with pytest.raises(InputError, match=message):
        load(path)
