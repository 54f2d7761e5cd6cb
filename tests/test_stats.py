"""Statistics (latmon.analysis.stats.summarize) against values computed independently: by hand, by
plain numpy, by term-by-term binomial sums."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from latmon.analysis.distribution.counts import Distribution
from latmon.analysis.files import run_file_stats
from latmon.analysis.stats import PERCENTILES, Summary, stat_cell, summarize
from latmon.inputs.runfile import write_run
from latmon.model import Histogram, Run, Series
from latmon.tables import plain


def stats_of(values: np.ndarray | list[int], **kw: object) -> Summary:
    return summarize(Distribution.from_samples(np.asarray(values, dtype=np.int64)), **kw)  # type: ignore[arg-type]


def numpy_reference(v: np.ndarray) -> dict[str, float]:
    """The same statistics the slow, obvious way (float64 numpy)."""
    f = v.astype(np.float64)
    mean = float(np.mean(f))
    out = {
        "count": len(v),
        "min": int(v.min()),
        "max": int(v.max()),
        "mean": mean,
        "median": float(np.median(f)),
        "stdev": float(np.std(f, ddof=1)) if len(v) > 1 else math.nan,
        "jitter": max(float(v.max()) - mean, mean - float(v.min())),
    }
    ordered = np.sort(v)
    for key, q in PERCENTILES.items():
        rank = math.ceil(Fraction(repr(q)) * len(v))  # nearest rank, exact
        out[key] = int(ordered[rank - 1])
        assert out[key] == np.quantile(v, q, method="inverted_cdf")
    out["rsd_pct"] = 100 * out["stdev"] / mean if len(v) > 1 and mean else math.nan
    return out


def test_which_numpy_call_equals_nearest_rank() -> None:
    """docs/statistics.md: np.quantile(x, q, method="inverted_cdf") gives the nearest rank
    ⌈q·n⌉ for every percentile latmon reports and every n checked; np.percentile(x, 100·q)
    does not at p99.9 (99.9 / 100 rounds above 0.999), and np.quantile does not for every q
    (the float 0.07 lies above 7/100)."""
    sizes = [*range(1, 3001), 10_000, 20_000, 100_000, 1_000_000, 12_345_678]
    for n in sizes:
        a = np.arange(1, n + 1)  # the k-th smallest value is k
        for q in PERCENTILES.values():
            rank = math.ceil(Fraction(repr(q)) * n)
            assert np.quantile(a, q, method="inverted_cdf") == rank, (q, n)
    a = np.arange(1, 1001)
    assert np.percentile(a, 99.9, method="inverted_cdf") == 1000 != 999  # nearest rank: 999
    a = np.arange(1, 101)
    assert np.quantile(a, 0.07, method="inverted_cdf") == 8 != 7  # nearest rank: 7


def test_known_answer_by_hand() -> None:
    # 10 samples: 1..9 and 100
    s = stats_of([5, 1, 9, 3, 7, 100, 2, 8, 4, 6])
    got = s.as_dict()
    assert (got["count"], got["min"], got["max"]) == (10, 1, 100)
    assert got["mean"] == 14.5  # 145 / 10
    assert got["median"] == 5.5  # (5 + 6) / 2
    assert {k: got[k] for k in PERCENTILES} == {
        "p50": 5,
        "p90": 9,
        "p99": 100,
        "p99_9": 100,
        "p99_99": 100,
        "p99_999": 100,
    }
    assert got["jitter"] == 85.5  # max(100 - 14.5, 14.5 - 1)
    # sum of squared deviations: sum(v^2) - n*mean^2 = 10285 - 2102.5 = 8182.5
    assert got["stdev"] == math.sqrt(8182.5 / 9)
    assert got["stdev_pop"] == math.sqrt(8182.5 / 10)
    assert got["rsd_pct"] == pytest.approx(100 * math.sqrt(8182.5 / 9) / 14.5, rel=1e-15)
    assert s.exact and s.bin_error == 0


@pytest.mark.parametrize(
    "values",
    [
        np.random.default_rng(1).integers(1000, 60000, 100_000),
        np.random.default_rng(2).integers(0, 2**40, 5000),  # wide span: distinct values
        np.random.default_rng(3).lognormal(10, 1.2, 200_000).astype(np.int64),
        np.array([7]),
        np.array([3, 3, 3, 3]),
        np.array([-5, 0, 5]),
    ],
    ids=["dense", "wide", "lognormal", "one", "constant", "negative"],
)
def test_equals_numpy(values: np.ndarray) -> None:
    v = values.astype(np.int64)
    got = stats_of(v).as_dict()
    want = numpy_reference(v)
    for key, expected in want.items():
        actual = got[key]
        if isinstance(expected, float) and math.isnan(expected):
            assert actual is None, key
        elif key in ("count", "min", "max", *PERCENTILES):
            assert actual == expected, key
        else:
            assert actual == pytest.approx(expected, rel=1e-12, abs=1e-9), key


def test_mean_and_stdev_are_exact_where_float_accumulation_is_not() -> None:
    # 2^53 + 1 cannot be a float64; a float sum loses the 1s, the integer sums do not.
    v = np.array([2**53 + 1] * 1000 + [2**53 + 3] * 1000, dtype=np.int64)
    got = stats_of(v).as_dict()
    assert got["mean"] == 2**53 + 2
    assert got["median"] == 2**53 + 2
    assert got["stdev"] == math.sqrt(2000 / 1999)  # correctly rounded from the exact 2000/1999


def test_stdev_is_identical_for_every_batching() -> None:
    rng = np.random.default_rng(11)
    v = rng.lognormal(9, 1.5, 300_001).astype(np.int64)
    reference = stats_of(v).as_dict()["stdev"]
    for parts in (1, 2, 7, 64, 1000):
        d = Distribution(max_bins=1 << 12)  # narrow bins: the widened path too
        for part in np.array_split(v, parts):
            d.add(part)
        assert summarize(d).as_dict()["stdev"] == reference  # bit for bit


def test_int64_extremes_do_not_overflow() -> None:
    got = stats_of([-(2**63), 2**63 - 1, 0, 1]).as_dict()
    assert got["min"] == -(2**63) and got["max"] == 2**63 - 1
    assert got["mean"] == 0  # (-2^63 + 2^63 - 1 + 0 + 1) / 4
    assert got["p99_9"] == 2**63 - 1


def test_empty() -> None:
    got = stats_of([]).as_dict()
    assert got["count"] == 0 and got["mean"] is None and got["p99"] is None


def test_floats_are_refused() -> None:
    with pytest.raises(TypeError, match="integers"):
        Distribution.from_samples(np.array([1.5, 2.0]))


@settings(max_examples=200, deadline=None)
@given(arrays(np.int64, st.integers(1, 300), elements=st.integers(-(10**12), 10**12)))
def test_any_integer_samples_match_numpy(v: np.ndarray) -> None:
    got = stats_of(v).as_dict()
    want = numpy_reference(v)
    assert {k: got[k] for k in PERCENTILES} == {k: want[k] for k in PERCENTILES}
    assert (got["min"], got["max"], got["count"]) == (want["min"], want["max"], want["count"])
    assert got["mean"] == pytest.approx(want["mean"], rel=1e-12, abs=1e-6)
    assert got["median"] == pytest.approx(want["median"], rel=1e-12, abs=1e-6)


def test_histogram_statistics_bound_the_exact_ones() -> None:
    """A histogram and the samples it was built from: every value at its bin's lower edge, so
    the order statistics are at most one bin below, and the stated bounds hold the truth."""
    rng = np.random.default_rng(9)
    v = rng.lognormal(9, 0.8, 100_000).astype(np.int64)
    width = 250
    edges = np.arange(0, v.max() + width, width)
    counts, _ = np.histogram(v, edges)
    h = Histogram(edges[:-1], edges[1:], counts)
    exact = stats_of(v)
    counters = {"min": int(v.min()), "max": int(v.max()), "sum": int(v.sum())}
    approx = summarize(Distribution.from_histogram(h, counters))
    assert approx.count == exact.count and not approx.exact and approx.bin_error == width
    assert approx.value("mean") == exact.value("mean")  # the producer's exact sum
    for key in PERCENTILES:
        a, e = approx.value(key), exact.value(key)
        assert a is not None and e is not None
        assert 0 <= e - a < width, key
        lo, hi = approx.bounds(key)
        assert lo is not None and hi is not None and lo <= e <= hi, key
    assert abs(approx.as_dict()["stdev"] - exact.as_dict()["stdev"]) < width / 2  # type: ignore[operator]


def test_cyclictest_histogram_with_overflows() -> None:
    """0.4 % overflows: the tail percentiles are "≥ 100 µs", never the 230.7 ms maximum; the
    mean (overflows at their lower edge) stays near the bulk, with its bounds stated."""
    bins = np.arange(5, 100)
    rng = np.random.default_rng(4)
    counts = np.bincount(rng.integers(5, 30, 99_600) // 1, minlength=100)[5:100]
    h = Histogram(bins * 1000, (bins + 1) * 1000, counts, overflow=400, overflow_lo=100_000)
    s = summarize(Distribution.from_histogram(h, {"min": 5000, "max": 230_700_000}))
    got = s.as_dict()
    for key in ("p99_9", "p99_99", "p99_999"):
        assert got[key] is None
        assert s.bounds(key) == (100_000, 230_700_000)
        assert stat_cell(s, key).text == "≥100,000"
    assert got["max"] == 230_700_000
    bulk = np.repeat(bins * 1000, counts)
    expected_mean = (int(bulk.sum()) + 400 * 100_000) / 100_000
    assert got["mean"] == pytest.approx(expected_mean, rel=1e-15)
    assert got["mean"] < 20_000  # not 942 µs
    lo, hi = s.bounds("mean")
    assert lo == Fraction(int(bulk.sum()) + 400 * 100_000, 100_000)
    assert hi == Fraction(
        int(np.repeat(bins * 1000 + 999, counts).sum()) + 400 * 230_700_000, 100_000
    )


def test_constant_histogram_is_consistent() -> None:
    h = Histogram([42_000], [43_000], [500])
    got = summarize(Distribution.from_histogram(h, {"min": 42_000, "max": 42_000})).as_dict()
    assert (got["mean"], got["max"], got["jitter"], got["stdev"]) == (42_000, 42_000, 0, 0.0)


def binomial_cdf(n: int, q: float) -> list[float]:
    """P(B <= k) for k = 0..n, B ~ B(n, q), summed term by term (independent of latmon)."""
    pmf = [math.comb(n, i) * q**i * (1 - q) ** (n - i) for i in range(n + 1)]
    return [math.fsum(pmf[: k + 1]) for k in range(n + 1)]


def ci_ranks_by_hand(q: float, n: int, confidence: float) -> tuple[int | None, int | None]:
    alpha = 1 - confidence
    cdf = binomial_cdf(n, q)
    lo = next(k for k in range(n + 1) if cdf[k] >= alpha / 2)
    hi = next(k for k in range(n + 1) if cdf[k] >= 1 - alpha / 2) + 1
    return (lo if lo >= 1 else None), (hi if hi <= n else None)


def test_percentile_ci_known_answer() -> None:
    v = np.array([5, 1, 9, 3, 7, 100, 2, 8, 4, 6], dtype=np.int64)
    ordered = np.sort(v)
    s = stats_of(v, confidence=0.95)
    assert ci_ranks_by_hand(0.5, 10, 0.95) == (2, 9)
    assert s.percentile_ci["p50"] == (2, 9)
    for key, q in PERCENTILES.items():
        lo, hi = ci_ranks_by_hand(q, 10, 0.95)
        want = (None if lo is None else ordered[lo - 1], None if hi is None else ordered[hi - 1])
        assert s.percentile_ci[key] == want, key
    assert s.percentile_ci["p99"][1] is None
    assert s.ci_dict()["p99_ci"] == [9, None]


@pytest.mark.parametrize("n,q", [(200, 0.9), (1000, 0.99), (50, 0.5), (1000, 0.999)])
def test_percentile_ci_ranks_match_the_binomial_sums(n: int, q: float) -> None:
    s = stats_of(np.arange(1, n + 1), percentiles={"p": q}, confidence=0.95)
    assert s.percentile_ci["p"] == ci_ranks_by_hand(q, n, 0.95)  # sample k is value k


def test_percentile_ci_coverage_by_simulation() -> None:
    """The interval holds the true quantile in at least ~95 % of repeated experiments."""
    rng = np.random.default_rng(7)
    trials, n, q = 2000, 300, 0.9
    true_q = int(0.9 * 10**9)
    hits = 0
    for _ in range(trials):
        s = stats_of(rng.integers(0, 10**9, n), percentiles={"p90": q}, confidence=0.95)
        lo, hi = s.percentile_ci["p90"]
        assert lo is not None and hi is not None
        hits += lo <= true_q <= hi
    assert hits / trials >= 0.935


def test_deadline_verdict_counts_samples_above() -> None:
    v = np.array([100, 200, 300, 400, 3000, 3001], dtype=np.int64)
    d = stats_of(v, deadline=3000).deadline_dict()
    assert (d["above_deadline"], d["worst"], d["margin"], d["verdict"]) == (1, 3001, -1, "FAIL")
    assert d["above_fraction"] == pytest.approx(1 / 6)
    d = stats_of(v, deadline=5000).deadline_dict()
    assert (d["above_deadline"], d["margin"], d["verdict"]) == (0, 1999, "pass")
    d = stats_of([0, 2**40, 5, 7], deadline=6).deadline_dict()
    assert d["above_deadline"] == 2
    # binned: a bin straddling the deadline counts as above (conservative)
    h = Histogram([0, 1000], [1000, 2000], [5, 5])
    d = summarize(Distribution.from_histogram(h), deadline=1500).deadline_dict()
    assert d["above_deadline"] == 5 and d["verdict"] == "FAIL"


def test_run_file_is_streamed_exactly_within_its_bin_budget(tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    narrow = rng.integers(10_000, 20_000, 50_000)
    wide = rng.integers(0, 10**12, 30_000)
    run = Run(
        {"source": "t"},
        [
            Series("narrow", "ns", columns={"latency": narrow}),
            Series("wide", "ns", columns={"latency": wide}),
        ],
    )
    write_run(run, tmp_path / "r.parquet")
    a, b = run_file_stats(tmp_path / "r.parquet", 0.95, max_bins=2048)
    assert len(b.dist._dense.counts) <= 2048  # memory bounded by the bins
    # both exact: the wide one by a second pass for the ranks it needs
    assert a.summary.as_dict() == stats_of(narrow).as_dict() and a.summary.exact
    assert b.summary.as_dict() == stats_of(wide).as_dict() and b.summary.exact
    assert b.summary.ci_dict() == stats_of(wide).ci_dict()


def test_stdev_of_a_histogram_with_overflow_is_a_range() -> None:
    """The issue's case: most samples near 100 µs, many in the overflow above 1 ms with the
    max recorded at 10 ms. The convention (overflow at its edge) prints a stdev far below the
    truth; the table shows the range every placement allows, and the truth lies in it."""
    h = Histogram(np.arange(0, 1000, 10) * 1000, np.arange(10, 1010, 10) * 1000, [0] * 100)
    h.count[10] = 900  # [100, 110) µs
    h = Histogram(h.lo, h.hi, h.count, overflow=100, overflow_lo=1_000_000)
    truth = np.r_[np.full(900, 105_000), np.full(100, 10_000_000)]  # one placement allowed
    s = summarize(Distribution.from_histogram(h, {"max": 10_000_000}))
    true_stdev = float(np.std(truth, ddof=1))
    lo, hi = s.bounds("stdev")
    assert lo is not None and hi is not None and lo <= true_stdev <= hi
    assert float(s.value("stdev")) < true_stdev / 5  # type: ignore[arg-type]
    cell = stat_cell(s, "stdev")
    assert "…" in cell.text and cell.plain == f"{plain(lo)};{plain(hi)}"
    assert s.range_dict()["stdev_range"] == [float(lo), float(hi)]
    # no max recorded: no upper bound; the table says "at least"
    s = summarize(Distribution.from_histogram(h, {}))
    assert s.bounds("stdev")[1] is None and stat_cell(s, "stdev").text.startswith("≥")


@pytest.mark.parametrize("seed", range(6))
def test_mean_jitter_and_rsd_of_a_histogram_with_overflow_are_ranges_that_hold_the_truth(
    seed: int,
) -> None:
    """Samples binned by 1 µs with an overflow above a cut, as cyclictest -h records them
    (min and max counters exact): the true mean, jitter and %RSD of the samples (numpy on the
    samples themselves) lie in the ranges the table shows, and the table shows ranges."""
    rng = np.random.default_rng(seed)
    v = (rng.pareto(1.5 + seed / 4, 5_000) * 20_000 + 3_000).astype(np.int64)
    cut = int(np.quantile(v, 0.99 - seed / 100))
    inside = v[v < cut]
    edges = np.arange(0, cut + 1000, 1000)
    edges = edges[edges <= cut]
    counts, _ = np.histogram(inside, np.r_[edges, cut])
    over = int(np.count_nonzero(v >= cut))
    assert over > 0
    h = Histogram(edges, np.r_[edges[1:], cut], counts, overflow=over, overflow_lo=cut)
    s = summarize(Distribution.from_histogram(h, {"min": int(v.min()), "max": int(v.max())}))
    assert s.open_bins
    mean = float(v.mean())
    truth = {
        "mean": mean,
        "jitter": max(float(v.max()) - mean, mean - float(v.min())),
        "rsd_pct": 100 * float(np.std(v, ddof=1)) / mean,
        "stdev": float(np.std(v, ddof=1)),
    }
    for key, value in truth.items():
        lo, hi = s.bounds(key)
        assert lo is not None and hi is not None, key
        assert float(lo) <= value * (1 + 1e-12) and value <= float(hi) * (1 + 1e-12), key
        assert "…" in stat_cell(s, key).text, key
    # the convention's figure (overflows at the cut) is the range's low end, not the truth
    assert s.value("mean") == s.bounds("mean")[0] < mean
