"""latmon compare (src/latmon/analysis/compare.py, commands/compare.py) against values computed here
independently: brute-force A12 over all pairs, binomial CI ranks from math.comb sums, pooled
statistics with numpy."""

from __future__ import annotations

import io
import json
import math
import subprocess
from pathlib import Path

import numpy as np
import pytest

from latmon.analysis.compare import a12, compare, comparison_table, distribution_of, group_runs
from latmon.analysis.distribution.counts import Distribution
from latmon.inputs.logformat import LogWriter
from latmon.model import Histogram, Run, Series


def dist(values: list[int] | np.ndarray) -> Distribution:
    s = Series(name="x", unit="ns", columns={"latency": np.asarray(values, dtype=np.int64)})
    return distribution_of([s])


def brute_a12(x: list[int], y: list[int]) -> float:
    wins = sum((a > b) + 0.5 * (a == b) for a in x for b in y)
    return wins / (len(x) * len(y))


def binom_cdf(k: int, n: int, p: float) -> float:
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


@pytest.mark.parametrize("seed", range(5))
def test_a12_equals_the_pairwise_count(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 30, int(rng.integers(1, 60))).tolist()  # many ties
    y = rng.integers(5, 35, int(rng.integers(1, 60))).tolist()
    assert a12(dist(x), dist(y)) == pytest.approx(brute_a12(x, y), abs=1e-12)
    assert a12(dist(x), dist(x)) == pytest.approx(0.5)


def test_quantile_ci_ranks_are_the_binomial_ones() -> None:
    values = np.arange(1, 201)  # the k-th smallest value is k: values are ranks
    d = dist(values)
    for q in (0.5, 0.9, 0.99):
        lo, hi = d.interval(q, 0.95)
        # lo: the largest rank l with P(B <= l - 1) <= 0.025; hi: smallest u with
        # P(B <= u - 1) >= 0.975, B ~ Binomial(200, q)
        # lo: the smallest l with P(B <= l) >= 0.025; hi - 1: the smallest k with
        # P(B <= k) >= 0.975, B ~ Binomial(200, q); a rank above 200 cannot be had: None
        lo_expected = min(k for k in range(0, 201) if binom_cdf(k, 200, q) >= 0.025)
        hi_expected = min(k for k in range(0, 201) if binom_cdf(k, 200, q) >= 0.975) + 1
        assert lo == (lo_expected if lo_expected >= 1 else None)
        assert hi == (hi_expected if hi_expected <= 200 else None)
        assert lo is not None
        if hi is not None:  # the interval covers the quantile with at least 95 %
            assert binom_cdf(hi - 1, 200, q) - binom_cdf(lo - 1, 200, q) >= 0.95
    assert d.interval(0.99, 0.95)[1] is None  # P(B <= 199) = 0.866 < 0.975


def test_pooled_rows_match_numpy_and_the_deadline_count() -> None:
    rng = np.random.default_rng(7)
    a1, a2 = rng.integers(1000, 50_000, 3000), rng.integers(1000, 60_000, 2000)
    b = rng.integers(2000, 4_000_000, 4000)
    runs = [
        Run({"source": "t", "scenario": "idle"}, [Series("cpu0", "ns", columns={"latency": a1})]),
        Run({"source": "t", "scenario": "idle"}, [Series("cpu1", "ns", columns={"latency": a2})]),
        Run({"source": "t", "scenario": "load"}, [Series("cpu0", "ns", columns={"latency": b})]),
    ]
    rows = compare(group_runs(runs), deadline_ns=3_000_000)
    idle, load = rows
    pooled = np.concatenate([a1, a2])
    assert idle["n"] == 5000 and idle["runs"] == 2
    assert idle["min"] == pooled.min() and idle["max"] == pooled.max()
    assert idle["mean"] == pytest.approx(pooled.mean())
    assert idle["stdev"] == pytest.approx(pooled.std(ddof=1))
    assert idle["p99"] == np.percentile(pooled, 99, method="inverted_cdf")
    assert idle["verdict"] == "pass" and idle["above_deadline"] == 0
    assert load["above_deadline"] == int((b > 3_000_000).sum()) > 0
    assert load["verdict"] == "FAIL" and load["margin"] == 3_000_000 - b.max()
    assert load["vs"] == "idle"
    assert load["d_p50"] == np.percentile(b, 50, method="inverted_cdf") - np.percentile(
        pooled, 50, method="inverted_cdf"
    )
    lo, hi = load["d_p50_ci"]
    assert lo <= load["d_p50"] <= hi
    assert load["a12"] > 0.9 and load["effect"] == "large, higher"


def test_histogram_inputs_use_the_bins_lower_edges() -> None:
    h = Histogram(np.array([0, 1000, 2000]), np.array([1000, 2000, 3000]), np.array([5, 3, 2]))
    s = Series("cpu0", "ns", resolution=1000, histogram=h, counters={"max": 2500})
    d = distribution_of([s])
    assert not d.exact and d.bin_error == 1000
    values, counts = d.values_and_counts()
    assert values.tolist() == [0, 1000, 2000] and counts.tolist() == [5, 3, 2]
    assert d.maximum().value == 2500 and d.at_rank(10).hi == 2500


def test_overflow_is_the_same_in_compare_and_stats() -> None:
    """An overflow without a recorded maximum: compare and stats agree (the overflow is open,
    bounded below by the histogram's end) instead of placing it at different values."""
    from latmon.analysis.stats import summarize_series

    h = Histogram(
        np.array([0]), np.array([100_000]), np.array([990]), overflow=10, overflow_lo=100_000
    )
    s = Series("cpu0", "ns", resolution=1000, histogram=h)
    run = Run({"source": "t", "scenario": "x"}, [s])
    (row,) = compare(group_runs([run]))
    st = summarize_series(s).as_dict()
    assert row["max"] == st["max"] and row["p99_9"] == st["p99_9"] is None
    assert row["p99_9_range"] == [100_000, None]


def write_log(path: Path, scenario: str, values: np.ndarray) -> None:
    f = io.StringIO()
    w = LogWriter(f, source="latprobe", unit="ns", scenario=scenario)
    sid = w.series("cpu0")
    w.samples(sid, (int(v) for v in values))
    w.close()
    path.write_text(f.getvalue())


def test_cli_formats_and_errors(latmon_cli: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    write_log(tmp_path / "a.log", "base_line", rng.integers(1000, 9000, 500))
    write_log(tmp_path / "b.log", "100%_load", rng.integers(5000, 20000, 500))

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(latmon_cli), "compare", *args],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            check=False,
            timeout=60,
        )

    proc = run("a.log", "b.log", "--deadline", "15us", "--output-format", "json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert [r["scenario"] for r in rows] == ["base_line", "100%_load"]
    assert rows[1]["above_deadline"] > 0 and rows[1]["verdict"] == "FAIL"
    latex = run("a.log", "b.log", "--output-format", "latex")
    assert "100\\%\\_load" in latex.stdout and "\\begin{tabular}" in latex.stdout
    md = run("a.log", "b.log", "--output-format", "markdown", "--baseline", "100%_load")
    assert md.stdout.splitlines()[1].startswith("|---")
    csv_out = run("a.log", "b.log", "--output-format", "csv").stdout.splitlines()
    assert csv_out[0].startswith("scenario,runs,n,min") and len(csv_out) == 3
    bad = run("a.log", "b.log", "--baseline", "nope")
    assert bad.returncode == 2 and "no scenario named 'nope'" in bad.stderr
    assert "Traceback" not in bad.stderr
    bad = run("a.log", "--deadline", "soon")
    assert bad.returncode == 2 and "--deadline" in bad.stderr


def test_cpus_pool_but_hardware_channels_stay_apart() -> None:
    from latmon.analysis.compare import group_runs
    from latmon.model import Run, Series

    def series(name: str, values: list[int]) -> Series:
        return Series(name, "ns", columns={"latency": np.asarray(values, dtype=np.int64)})

    probe = Run(
        {"source": "latprobe", "scenario": "idle"}, [series("cpu0", [1, 2]), series("cpu1", [3])]
    )
    again = Run({"source": "latprobe", "scenario": "idle"}, [series("cpu0", [4])])
    board = Run(
        {"source": "refdesign-sim", "scenario": "fast"},
        [series("T1", [52]), series("T2", [31, 31])],
    )
    groups = group_runs([probe, again, board])
    # T1 and T2 are two paths of the core: two measures, one group each
    assert [(g.label, g.dist.n, g.runs, g.measure.path) for g in groups] == [
        ("idle", 4, 2, "timer expiry → user thread"),
        ("fast", 1, 1, "irq → ack, channel T1"),
        ("fast", 2, 1, "irq → ack, channel T2"),
    ]


def test_only_series_of_one_measure_are_compared() -> None:
    """The fabric's irq→ack and a CPU's wake-up are never differenced; channels of one path of
    two scenarios are, and a scenario's two channels of one path are two groups."""
    from latmon.analysis.compare import compare, comparison_table, group_runs
    from latmon.model import Run, Series
    from latmon.tables import render

    def series(name: str, values: list[int], **meta: str) -> Series:
        return Series(
            name, "ns", columns={"latency": np.asarray(values, dtype=np.int64)}, meta=meta
        )

    fabric = Run({"source": "latmon_core-sim", "scenario": "fabric"}, [series("core0", [600])])
    idle = Run({"source": "latprobe", "scenario": "idle"}, [series("cpu0", [20_000, 30_000])])
    stress = Run({"source": "latprobe", "scenario": "stress"}, [series("cpu0", [50_000])])
    two = Run(
        {"source": "liblatmon", "scenario": "prio"},
        [
            series("high", [700], channel="line0", path="line → ISR ack"),
            series("low", [900], channel="line1", path="line → ISR ack"),
        ],
    )
    groups = group_runs([fabric, idle, two, stress])
    assert [g.label for g in groups] == ["fabric", "idle", "stress", "prio / high", "prio / low"]
    rows = compare(groups, None, 3_000_000)
    vs = {str(r["scenario"]): r.get("vs") for r in rows}
    assert vs == {
        "fabric": None,
        "idle": None,
        "stress": "idle",
        "prio / high": None,
        "prio / low": "prio / high",
    }
    stress_row = next(r for r in rows if r["scenario"] == "stress")
    assert stress_row["d_p50"] == 50_000 - 20_000
    text = render(comparison_table(rows, True), "terminal")
    assert "measures" in text.splitlines()[0] and "wake-up latency, timer expiry" in text
    # --baseline names a group of one measure; the others keep their first
    rows = compare(groups, "stress", None)
    assert {str(r["scenario"]): r.get("vs") for r in rows}["idle"] == "stress"
    assert {str(r["scenario"]): r.get("vs") for r in rows}["prio / low"] == "prio / high"


def _rep_run(label: str, rep: int, values: list[int]) -> Run:
    return Run(
        meta={"scenario": label, "repetition": str(rep), "source": "latprobe"},
        series=[Series(name="cpu0", unit="ns", columns={"latency": np.asarray(values)})],
    )


def test_repetitions_give_each_comparison_its_spread() -> None:
    """Three repetitions per scenario: each row carries the lowest and highest repetition p99,
    each difference its interval over every pair of repetitions, and the effect is called only
    where that interval excludes 0 (nearest-rank p99 of 100 values: the 99th smallest)."""
    base = [list(range(1, 101)), list(range(11, 111)), list(range(21, 121))]  # p99 99, 109, 119
    near = [list(range(6, 106)), list(range(16, 116)), list(range(31, 131))]  # 104, 114, 129
    far = [[v + 1000 for v in r] for r in base]  # 1099, 1109, 1119
    runs = [
        _rep_run(name, i + 1, values[i])
        for i in range(3)
        for name, values in (("base", base), ("near", near), ("far", far))
    ]
    rows = {r["scenario"]: r for r in compare(group_runs(runs))}
    assert rows["base"]["rep_p99"] == [99, 119] and rows["base"]["runs"] == 3
    assert rows["near"]["rep_p99"] == [104, 129]
    assert rows["near"]["d_p99_reps"] == [104 - 119, 129 - 99]
    assert rows["near"]["effect"] == "none shown: repetitions overlap"
    assert rows["far"]["d_p99_reps"] == [1099 - 119, 1119 - 99]
    assert rows["far"]["effect"] == "p99 higher in every pair of repetitions; A12: large, higher"
    table = comparison_table(list(rows.values()), with_deadline=False)
    heads = [c.heading for c in table.columns]
    assert "p99 per repetition" in heads and "Δp99 over repetitions" in heads


def test_no_effect_is_called_where_a_repetition_cannot_place_its_p99() -> None:
    """Repeated runs whose p99 lies in a histogram's overflow (cyclictest beyond its range):
    no interval over repetitions, so no effect is called."""
    from latmon.model import Histogram

    def hist_run(label: str, rep: int, overflow: int) -> Run:
        h = Histogram(
            lo=np.asarray([0, 1]),
            hi=np.asarray([1, 2]),
            count=np.asarray([90, 5]),
            overflow=overflow,
        )
        return Run(
            meta={"scenario": label, "repetition": str(rep), "source": "cyclictest"},
            series=[Series(name="cpu0", unit="ns", resolution=1000, histogram=h)],
        )

    runs = [hist_run(n, r, o) for r in (1, 2) for n, o in (("a", 5), ("b", 50))]
    rows = {r["scenario"]: r for r in compare(group_runs(runs))}
    assert "rep_p99" not in rows["b"] and "d_p99_reps" not in rows["b"]
    assert rows["b"]["effect"] == "none called: a repetition's p99 is beyond its histogram"


def test_one_repetition_has_no_repetition_columns() -> None:
    runs = [_rep_run("a", 1, [1, 2, 3]), _rep_run("b", 1, [4, 5, 6])]
    rows = compare(group_runs(runs))
    assert all("rep_p99" not in r and "d_p99_reps" not in r for r in rows)
    heads = [c.heading for c in comparison_table(rows, with_deadline=False).columns]
    assert "p99 per repetition" not in heads and "Δp99 over repetitions" not in heads
