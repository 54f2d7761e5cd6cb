"""cyclictest readers (src/latmon/inputs/readers/cyclictest_{hist,json,verbose}.py) on real outputs.

The text histogram and the JSON of one run must give the same histogram; the values are checked
against numbers read off the files independently here (plain string handling, not the reader's).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from latmon.errors import InputError
from latmon.inputs.ingest import detect_format, load
from latmon.inputs.readers import ReadOptions

DATA = Path(__file__).parent / "data" / "third-party"


def independent_rows(path: Path) -> dict[int, list[int]]:
    rows = {}
    for line in path.read_text().splitlines():
        if re.match(r"^\d{6} ", line):
            bucket, *counts = line.split()
            rows[int(bucket)] = [int(c) for c in counts]
    return rows


def summary_line(path: Path, key: str) -> list[int]:
    for line in path.read_text().splitlines():
        if line.startswith(f"# {key}:"):
            return [int(float(v)) for v in line.split(":", 1)[1].split()]
    raise AssertionError(key)


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("cyclictest-hist.txt", "cyclictest-hist"),
        ("cyclictest-2.7style-hist.txt", "cyclictest-hist"),
        ("cyclictest.json", "cyclictest-json"),
        ("cyclictest-quirky-ns.json", "cyclictest-json"),
        ("cyclictest-verbose.txt", "cyclictest-verbose"),
        ("cyclictest-histofall.txt", "cyclictest-hist"),
        ("cyclictest-histofall.json", "cyclictest-json"),
    ],
)
def test_detected_from_content(name: str, fmt: str) -> None:
    assert detect_format(DATA / name) == fmt


def test_histogram_text_matches_the_file_and_the_json_of_the_same_run() -> None:
    text = DATA / "cyclictest-hist.txt"
    (run,) = load(text)
    rows = independent_rows(text)
    overflows = summary_line(text, "Histogram Overflows")
    doc = json.loads((DATA / "cyclictest.json").read_text())
    (jrun,) = load(DATA / "cyclictest.json")
    assert run.meta["source"] == "cyclictest" and not run.damaged
    for i, (s, js) in enumerate(zip(run.series, jrun.series, strict=True)):
        h = s.histogram
        assert h is not None and s.unit == "ns" and s.resolution == 1000
        expected = {b * 1000: c[i] for b, c in rows.items() if c[i]}
        assert dict(zip(h.lo.tolist(), h.count.tolist(), strict=True)) == expected
        assert np.array_equal(h.hi, h.lo + 1000)  # truncated to whole µs: [k, k+1) µs
        assert h.overflow == overflows[i] == s.counters["overflows"]
        if h.overflow:
            assert h.overflow_lo == 200_000  # -h 200: every row is printed
        assert s.counters["min"] == summary_line(text, "Min Latencies")[i] * 1000
        assert s.counters["max"] == summary_line(text, "Max Latencies")[i] * 1000
        # the JSON of the same run: same histogram; its overflow = cycles - histogram sum
        jh = js.histogram
        assert jh is not None
        assert np.array_equal(jh.lo, h.lo) and np.array_equal(jh.count, h.count)
        cycles = doc["thread"][str(i)]["cycles"]
        assert jh.overflow == cycles - sum(doc["thread"][str(i)]["histogram"].values())
        assert jh.overflow == h.overflow and js.counters["events"] == cycles
        assert jh.overflow_lo == h.overflow_lo  # -h 200 on the JSON's command line
    assert jrun.meta["histogram_size"] == "200"
    assert jrun.meta["tool_version"] == doc["rt_test_version:"]
    assert jrun.meta["cmdline"] == doc["cmdline:"]


def test_rt_tests_2_7_style_without_zero_rows_and_total_reads_the_same() -> None:
    (full,) = load(DATA / "cyclictest-hist.txt")
    (short,) = load(DATA / "cyclictest-2.7style-hist.txt")
    assert short.meta["rt_tests_style"] == ">=2.7" and full.meta["rt_tests_style"].startswith("<=")
    for a, b in zip(full.series, short.series, strict=True):
        assert a.histogram is not None and b.histogram is not None
        assert np.array_equal(a.histogram.lo, b.histogram.lo)
        assert np.array_equal(a.histogram.count, b.histogram.count)
        assert a.histogram.overflow == b.histogram.overflow


def test_histofall_column_is_checked_and_left_out() -> None:
    """-H 200 with two threads: each row, # Total, # Max Latencies and # Histogram Overflows
    carry a third column (the threads together), # Min and # Avg Latencies do not. The run reads
    as the two threads, the same as the JSON of the same run."""
    text = DATA / "cyclictest-histofall.txt"
    rows = independent_rows(text)
    assert {len(c) for c in rows.values()} == {3}
    assert all(c[2] == c[0] + c[1] for c in rows.values())
    (run,) = load(text)
    (jrun,) = load(DATA / "cyclictest-histofall.json")
    assert not run.damaged and "histofall" in run.meta
    assert len(run.series) == 2
    overflows = summary_line(text, "Histogram Overflows")
    for i, (s, js) in enumerate(zip(run.series, jrun.series, strict=True)):
        h, jh = s.histogram, js.histogram
        assert h is not None and jh is not None
        expected = {b * 1000: c[i] for b, c in rows.items() if c[i]}
        assert dict(zip(h.lo.tolist(), h.count.tolist(), strict=True)) == expected
        assert np.array_equal(jh.lo, h.lo) and np.array_equal(jh.count, h.count)
        assert h.overflow == jh.overflow == overflows[i] > 0
        assert h.overflow_lo == jh.overflow_lo == 200_000
        assert (
            s.counters["max"] == js.counters["max"] == summary_line(text, "Max Latencies")[i] * 1000
        )


def test_histofall_column_that_is_not_the_sum_is_damage(tmp_path: Path) -> None:
    lines = (DATA / "cyclictest-histofall.txt").read_text().splitlines(keepends=True)
    busy = next(
        i for i, x in enumerate(lines) if re.match(r"^\d{6} ", x) and x.split()[3] != "000000"
    )
    bucket, a, b, both = lines[busy].split()
    lines[busy] = f"{bucket} {a}\t{b}\t{int(both) + 1:06d}\n"
    damaged = tmp_path / "histofall.txt"
    damaged.write_text("".join(lines))
    with pytest.raises(InputError, match=rf"bucket {int(bucket)}: the all-threads column"):
        load(damaged)
    (run,) = load(damaged, keep_going=True)
    assert run.damaged and len(run.series) == 2


def test_a_lost_row_is_caught_by_the_total_line(tmp_path: Path) -> None:
    lines = (DATA / "cyclictest-hist.txt").read_text().splitlines(keepends=True)
    busy = next(
        i for i, x in enumerate(lines) if re.match(r"^\d{6} ", x) and x.split()[1] != "000000"
    )
    damaged = tmp_path / "lost.txt"
    damaged.write_text("".join(lines[:busy] + lines[busy + 1 :]))
    with pytest.raises(InputError, match=r"'# Total' says .* the rows add up to"):
        load(damaged)
    (run,) = load(damaged, keep_going=True)
    assert run.damaged and "rows lost" in run.problems[0]


def test_quirky_json_with_unescaped_cmdline_and_ns_flag() -> None:
    path = DATA / "cyclictest-quirky-ns.json"
    with pytest.raises(json.JSONDecodeError):
        json.loads(path.read_text())  # as cyclictest writes it
    (run,) = load(path)
    assert run.meta["cmdline"].endswith('--json=cyclictest "quoted" \\back.json')
    (s,) = run.series
    assert s.resolution == 1 and run.meta["input_unit"] == "ns"  # resolution_in_ns: 1 is -N
    assert s.histogram is not None
    raw = re.findall(r'"(\d+)": (\d+)', path.read_text().split('"histogram"')[1].split("}")[0])
    assert dict(zip(s.histogram.lo.tolist(), s.histogram.count.tolist(), strict=True)) == {
        int(b): int(c) for b, c in raw
    }
    assert s.counters["events"] == 300


def test_verbose_samples_per_thread() -> None:
    path = DATA / "cyclictest-verbose.txt"
    (run,) = load(path)
    expected: dict[int, list[int]] = {}
    for line in path.read_text().splitlines():
        parts = line.replace(" ", "").split(":")
        if len(parts) == 3 and all(p.lstrip("-").isdigit() for p in parts):
            expected.setdefault(int(parts[0]), []).append(int(parts[2]) * 1000)
    assert [s.name for s in run.series] == [f"thread{t}" for t in sorted(expected)]
    for s in run.series:
        assert s.latency.tolist() == expected[int(s.meta["thread"])]
    assert len(run.series[0].latency) == 200  # -l 200 (the run ends with thread 0's loops)


def test_verbose_gap_is_reported(tmp_path: Path) -> None:
    lines = (DATA / "cyclictest-verbose.txt").read_text().splitlines(keepends=True)
    first = next(i for i, x in enumerate(lines) if re.match(r"^\s+0:\s+5:", x))
    path = tmp_path / "gap.txt"
    path.write_text("".join(lines[:first] + lines[first + 2 :]))
    with pytest.raises(
        InputError, match=r"gap.txt:\d+: thread 0: cycle 7 follows 4 \(2 lines lost\)"
    ):
        load(path)


def test_unit_override_for_text_and_bad_unit() -> None:
    (run,) = load(DATA / "cyclictest-hist.txt", options=ReadOptions(input_unit="ns"))
    assert run.series[0].resolution == 1
    with pytest.raises(InputError, match="in us or ns, not ms"):
        load(DATA / "cyclictest-hist.txt", options=ReadOptions(input_unit="ms"))
