"""From latmon-log to the run model: units, fields, histograms, detection."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from latmon.errors import InputError
from latmon.inputs.ingest import detect_format, load
from latmon.inputs.logformat import LogWriter


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


def test_plain_numbers_are_ingested_as_a_stream(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """latmon ingest writes a plain-number file block by block (a row group per block read,
    so memory is bounded by the block): the run file holds what reading it whole gives, the
    resolution and the problems found on the way included."""
    import pyarrow.parquet as pq

    import latmon.inputs.textscan as textscan
    from latmon.cli import main
    from latmon.inputs.runfile import read_run

    monkeypatch.setattr(textscan, "BLOCK", 4096)
    monkeypatch.setattr(textscan, "MAX_LINE", 4096)
    lat = np.random.default_rng(3).integers(1000, 99_999, 20_000)
    text = "latency_us\n" + "".join(f"{v / 1000:.3f}\n" for v in lat)
    (tmp_path / "lat.csv").write_text(text)
    assert main(["ingest", "-o", str(tmp_path / "out"), str(tmp_path / "lat.csv")]) == 0
    stored = tmp_path / "out" / "lat.parquet"
    assert pq.ParquetFile(stored).metadata.num_row_groups > 20  # written as it was read
    (whole,) = load(tmp_path / "lat.csv")
    run = read_run(stored)  # the checksum verified
    (s,) = run.series
    assert s.latency.tolist() == whole.series[0].latency.tolist() == lat.tolist()
    assert s.resolution == whole.series[0].resolution == 1
    assert (
        s.counters == {"events": 20_000} and s.meta["quantity"] == whole.series[0].meta["quantity"]
    )
    # --keep-going: the bad line is left out and recorded in the run file
    (tmp_path / "bad.txt").write_text("10\n-3\n20\n")
    with pytest.raises(SystemExit) as done:  # the damaged-input status, as the CLI exits
        main(["ingest", "-o", str(tmp_path / "out"), "--keep-going", str(tmp_path / "bad.txt")])
    assert done.value.code == 3
    kept = read_run(tmp_path / "out" / "bad.parquet")
    assert kept.series[0].latency.tolist() == [10, 20] and "line 2" in kept.problems[0]
    capsys.readouterr()


def test_ingest_writes_all_or_nothing(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A bad line found while the last input streams: no run file is left, not the ones of
    the inputs before it, and not the output folder ingest would have made."""
    from latmon.cli import main

    (tmp_path / "a.txt").write_text("1\n2\n")
    make_log = io.StringIO()
    w = LogWriter(make_log, source="t", unit="ns")
    w.samples(w.series("cpu0"), [5, 6])
    w.close()
    (tmp_path / "b.log").write_text(make_log.getvalue())
    (tmp_path / "c.txt").write_text("1\n" * 5000 + "x\n")
    out = tmp_path / "out"
    names = [str(tmp_path / n) for n in ("a.txt", "b.log", "c.txt")]
    assert main(["ingest", "-o", str(out), *names]) == 2
    assert not out.exists()
    assert "c.txt:5001: not a latency" in capsys.readouterr().err
    assert main(["ingest", "-o", str(out), *names[:2]]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["a.parquet", "b.parquet"]
