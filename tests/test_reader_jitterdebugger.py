"""jitterdebugger reader (src/latmon/inputs/readers/jitterdebugger.py) on one real run: results.json
and samples.raw must agree, and both with values decoded here independently (struct)."""

from __future__ import annotations

import json
import struct
from collections import Counter
from pathlib import Path

import pytest

from latmon.errors import InputError
from latmon.inputs.ingest import detect_format, load

DATA = Path(__file__).parent / "data" / "third-party"


def raw_records(data: bytes) -> list[tuple[int, int, int, int]]:
    return [struct.unpack_from("<IqqQ", data, o) for o in range(0, len(data) - 27, 28)]


def test_formats_are_detected() -> None:
    assert detect_format(DATA / "jitterdebugger-results.json") == "jitterdebugger"
    assert detect_format(DATA / "jitterdebugger-samples.raw") == "jitterdebugger-raw"


def test_results_json() -> None:
    doc = json.loads((DATA / "jitterdebugger-results.json").read_text())
    (run,) = load(DATA / "jitterdebugger-results.json")
    assert run.meta["source"] == "jitterdebugger"
    for s in run.series:
        cpu = doc["cpu"][s.meta["cpu"]]
        h = s.histogram
        assert h is not None and s.resolution == 1000
        assert dict(zip((h.lo // 1000).tolist(), h.count.tolist(), strict=True)) == {
            int(k): v for k, v in cpu["histogram"].items()
        }
        assert s.counters["events"] == cpu["count"]
        assert h.overflow == cpu["count"] - sum(cpu["histogram"].values())


def test_raw_samples_agree_with_the_histogram_of_the_same_run() -> None:
    data = (DATA / "jitterdebugger-samples.raw").read_bytes()
    records = raw_records(data)
    (run,) = load(DATA / "jitterdebugger-samples.raw")
    (hist_run,) = load(DATA / "jitterdebugger-results.json")
    for s, h in zip(run.series, hist_run.series, strict=True):
        mine = [r for r in records if r[0] == int(s.meta["cpu"])]
        assert s.latency.tolist() == [r[3] * 1000 for r in mine]
        # every raw sample is counted in results.json (which may hold a few more: the last
        # samples can still be in the writer's buffer when the file is closed)
        counted = Counter((s.latency // 1000).tolist())
        assert h.histogram is not None
        hist = dict(zip((h.histogram.lo // 1000).tolist(), h.histogram.count.tolist(), strict=True))
        assert all(hist.get(v, 0) >= c for v, c in counted.items())
        assert 0 <= sum(hist.values()) - len(s.latency) <= 2
        t = s.columns["t"]
        assert t[0] >= 0 and all(t[1:] >= t[:-1])


def test_cut_raw_file_keeps_the_whole_records(tmp_path: Path) -> None:
    data = (DATA / "jitterdebugger-samples.raw").read_bytes()
    cut = tmp_path / "samples.raw"
    cut.write_bytes(data[: 28 * 10 + 5])
    with pytest.raises(InputError, match="5 bytes after the last whole 28-byte record"):
        load(cut, fmt="jitterdebugger-raw")
    (run,) = load(cut, fmt="jitterdebugger-raw", keep_going=True)
    assert sum(len(s.latency) for s in run.series) == 10 and run.damaged
