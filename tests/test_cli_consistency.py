"""stats, compare and report print identical figures for the same input: the installed command,
on samples, on a cyclictest histogram with overflows (binned data), on cycles shown in ns."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from latmon.inputs.logformat import LogWriter

DATA = Path(__file__).parent / "data" / "third-party"
SHARED = ["min", "mean", "median", "max", "stdev", "jitter", "rsd_pct", "p50", "p99", "p99_9"]


def run(cli: Path, *args: str, cwd: Path) -> str:
    proc = subprocess.run(
        [str(cli), *args], capture_output=True, text=True, cwd=cwd, check=False, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def markdown_rows(text: str) -> list[dict[str, str]]:
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    heads = [h.strip().replace("\\", "") for h in lines[0].strip("|").split(" | ")]
    return [
        dict(zip(heads, (c.strip() for c in line.strip("|").split(" | ")), strict=True))
        for line in lines[1:]
    ]


def samples_log(tmp: Path) -> str:
    rng = np.random.default_rng(5)
    f = io.StringIO()
    w = LogWriter(f, source="latprobe", unit="ns", scenario="idle")
    sid = w.series("cpu0")
    w.samples(sid, (int(v) for v in rng.lognormal(np.log(20_000), 0.7, 30_000)))
    w.close()
    (tmp / "s.log").write_text(f.getvalue())
    return "s.log"


def cycles_log(tmp: Path) -> str:
    rng = np.random.default_rng(6)
    f = io.StringIO()
    w = LogWriter(f, source="latmon-core", unit="cycles", clock_hz=100_000_000, scenario="fpga")
    sid = w.series("cpu0")
    w.samples(sid, (int(v) for v in rng.integers(50, 900, 5000)))
    w.close()
    (tmp / "c.log").write_text(f.getvalue())
    return "c.log"


def histogram_with_overflow(tmp: Path) -> str:
    (tmp / "h.txt").write_text((DATA / "cyclictest-hist.txt").read_text())
    return "h.txt"


@pytest.mark.parametrize("make", [samples_log, cycles_log, histogram_with_overflow])
def test_stats_compare_and_report_agree(latmon_cli: Path, tmp_path: Path, make) -> None:  # type: ignore[no-untyped-def]
    name = make(tmp_path)
    stats = json.loads(run(latmon_cli, "stats", "--json", "--unit", "ns", name, cwd=tmp_path))
    for row in stats:
        assert row["unit"] == "ns"
    rows = json.loads(run(latmon_cli, "compare", "--output-format", "json", name, cwd=tmp_path))
    by_series = {r["series"]: r for r in stats}
    for c in rows:
        # each compare group here is one series: "scenario / series", or the cpu pool of one
        s = by_series[c["scenario"].split(" / ")[-1]] if " / " in c["scenario"] else stats[0]
        for key in SHARED:
            assert c[key] == s[key], key
        assert c["p99_ci"] == s["p99_ci"]
    # the tables: stats (Markdown) and the report's Markdown summary, cell for cell
    table = markdown_rows(
        run(latmon_cli, "stats", "--unit", "ns", "--output-format", "markdown", name, cwd=tmp_path)
    )
    report = markdown_rows(run(latmon_cli, "report", "--markdown", "-", name, cwd=tmp_path))
    compare_md = markdown_rows(
        run(latmon_cli, "compare", "--output-format", "markdown", name, cwd=tmp_path)
    )
    for t, r in zip(table, report, strict=True):
        for key in ("min", "mean", "median", "max", "stdev", "jitter", "p50", "p99", "p99_9"):
            assert t[key] == r[key], key
        assert t["p99 CI"] == r["p99 95% CI"]
    if len(table) == 1:
        (t,) = table
        (c,) = compare_md
        pairs = {"min": "min", "mean": "avg", "median": "median", "p99": "p99", "max": "max"}
        for a, b in pairs.items():
            assert t[a] == c[b], a
        assert t["p99_9"] == c["p99.9"]


def test_overflow_shown_as_a_bound_everywhere(latmon_cli: Path, tmp_path: Path) -> None:
    """cyclictest thread 0 has one overflow in 1000 samples: p99.99 (rank 1000) lies in it —
    "≥200,000", never the 232 µs maximum — while p99.9 (rank 999) is a bin's value."""
    name = histogram_with_overflow(tmp_path)
    (row, _) = json.loads(run(latmon_cli, "stats", "--json", name, cwd=tmp_path))
    assert row["p99_99"] is None and row["p99_99_range"] == [200_000, 232_000]
    assert row["p99_9"] == 64_000 and row["max"] == 232_000
    stats_md = run(latmon_cli, "stats", "--output-format", "markdown", name, cwd=tmp_path)
    assert markdown_rows(stats_md)[0]["p99_99"] == "≥200,000"
    report = markdown_rows(run(latmon_cli, "report", "--markdown", "-", name, cwd=tmp_path))
    assert report[0]["p99_99"] == "≥200,000"
