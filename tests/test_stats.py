"""Statistics against values computed independently: by hand, and by plain numpy."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from latmon.counting import Counter
from latmon.model import Histogram, Run, Series
from latmon.runfile import write_run
from latmon.stats import (
    BINCOUNT_MAX_SPAN,
    PERCENTILES,
    StreamSummarizer,
    nearest_rank,
    summarize,
    summarize_counter,
    summarize_histogram,
    summarize_run_file,
)


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
        # for these quantiles numpy's inverted_cdf picks the same sample
        assert out[key] == np.quantile(v, q, method="inverted_cdf")
    out["rsd_pct"] = 100 * out["stdev"] / mean if len(v) > 1 and mean else math.nan
    return out


def test_known_answer_by_hand() -> None:
    # 10 samples: 1..9 and 100
    v = np.array([5, 1, 9, 3, 7, 100, 2, 8, 4, 6], dtype=np.int64)
    s = summarize(v)
    assert (s.count, s.min, s.max) == (10, 1, 100)
    assert s.mean == 14.5  # 145 / 10
    assert s.median == 5.5  # (5 + 6) / 2
    assert s.percentiles == {
        "p50": 5,
        "p90": 9,
        "p99": 100,
        "p99_9": 100,
        "p99_99": 100,
        "p99_999": 100,
    }
    assert s.jitter == 85.5  # max(100 - 14.5, 14.5 - 1)
    # sum of squared deviations: sum(v^2) - n*mean^2 = 10285 - 2102.5 = 8182.5
    assert s.stdev == pytest.approx(math.sqrt(8182.5 / 9), rel=1e-15)
    assert s.stdev_pop == pytest.approx(math.sqrt(8182.5 / 10), rel=1e-15)
    assert s.rsd_pct == pytest.approx(100 * math.sqrt(8182.5 / 9) / 14.5, rel=1e-15)


def test_nearest_rank_definition() -> None:
    assert nearest_rank(0.5, 10) == 5
    assert nearest_rank(0.51, 10) == 6
    assert nearest_rank(0.999, 10) == 10
    assert nearest_rank(0.29, 100) == 29  # 28.999999999999996 rounds up to 29, as numpy does
    assert nearest_rank(0.000001, 5) == 1
    assert nearest_rank(0.07, 100) == 7  # float64 gives 7.000000000000001 and numpy rank 8


@pytest.mark.parametrize(
    "values",
    [
        np.random.default_rng(1).integers(1000, 60000, 100_000),  # bincount path
        np.random.default_rng(2).integers(0, 2**40, 5000),  # wide span: partition path
        np.random.default_rng(3).lognormal(10, 1.2, 200_000).astype(np.int64),  # latency-like
        np.array([7]),
        np.array([3, 3, 3, 3]),
        np.array([-5, 0, 5]),
    ],
    ids=["bincount", "partition", "lognormal", "one", "constant", "negative"],
)
def test_equals_numpy(values: np.ndarray) -> None:
    v = values.astype(np.int64)
    got = summarize(v).as_dict()
    want = numpy_reference(v)
    for key, expected in want.items():
        actual = got[key]
        if isinstance(expected, float) and math.isnan(expected):
            assert actual is None, key
        elif key in ("count", "min", "max", *PERCENTILES):
            assert actual == expected, key
        else:
            assert actual == pytest.approx(expected, rel=1e-12, abs=1e-9), key


def test_mean_is_exact_where_float_accumulation_is_not() -> None:
    # 2^53 + 1 cannot be a float64; a float sum loses the 1s, the integer sum does not.
    v = np.array([2**53 + 1] * 1000 + [2**53 + 3] * 1000, dtype=np.int64)
    s = summarize(v)
    assert s.mean == float(2**53 + 2)  # exact sum / n, rounded once
    assert s.median == 2**53 + 2
    assert s.stdev == pytest.approx(math.sqrt(2000 / 1999), rel=1e-12)


def test_int64_extremes_do_not_overflow() -> None:
    v = np.array([-(2**63), 2**63 - 1, 0, 1], dtype=np.int64)
    s = summarize(v)
    assert s.min == -(2**63) and s.max == 2**63 - 1
    assert s.mean == 0.0  # (-2^63 + 2^63 - 1 + 0 + 1) / 4
    assert s.percentiles["p99_9"] == 2**63 - 1


def test_empty() -> None:
    s = summarize(np.empty(0, dtype=np.int64)).as_dict()
    assert s["count"] == 0 and s["mean"] is None and s["p99"] is None


def test_floats_are_refused() -> None:
    with pytest.raises(TypeError, match="integers"):
        summarize(np.array([1.5, 2.0]))


@settings(max_examples=200, deadline=None)
@given(arrays(np.int64, st.integers(1, 300), elements=st.integers(-(10**12), 10**12)))
def test_any_integer_samples_match_numpy(v: np.ndarray) -> None:
    got = summarize(v)
    want = numpy_reference(v)
    assert got.percentiles == {k: want[k] for k in PERCENTILES}
    assert (got.min, got.max, got.count) == (want["min"], want["max"], want["count"])
    assert got.mean == pytest.approx(want["mean"], rel=1e-12, abs=1e-6)
    assert got.median == pytest.approx(want["median"], rel=1e-12, abs=1e-6)


def test_both_paths_agree() -> None:
    rng = np.random.default_rng(5)
    v = rng.integers(0, 1000, 50_000)
    a = summarize(v)
    wide = v.copy()
    wide[0] = BINCOUNT_MAX_SPAN * 1000  # forces the partition path
    b = summarize(np.concatenate([v, [wide[0]]]))
    c = summarize(np.concatenate([v, [v[0]]]))
    assert b.percentiles["p50"] == c.percentiles["p50"]
    assert a.count + 1 == b.count


def test_histogram_statistics_bound_the_exact_ones() -> None:
    """A histogram and the samples it was built from agree within the bin width."""
    rng = np.random.default_rng(9)
    v = rng.lognormal(9, 0.8, 100_000).astype(np.int64)
    width = 250
    edges = np.arange(0, v.max() + width, width)
    counts, _ = np.histogram(v, edges)
    h = Histogram(edges[:-1], edges[1:], counts)
    exact = summarize(v)
    approx = summarize_histogram(h, {"min": int(v.min()), "max": int(v.max()), "sum": int(v.sum())})
    assert approx.count == exact.count and not approx.exact and approx.bin_error == width
    assert approx.mean == exact.mean  # the producer's exact sum
    for key in PERCENTILES:
        assert 0 <= approx.percentiles[key] - exact.percentiles[key] < width, key
    assert abs(approx.stdev - exact.stdev) < width / 2


def test_histogram_with_overflow_and_sparse_bins() -> None:
    h = Histogram([0, 3000], [1000, 4000], [98, 1], overflow=1, overflow_lo=20000)
    s = summarize_histogram(h, {"min": 10, "max": 25000})
    assert s.count == 100
    assert s.percentiles["p50"] == 999
    assert s.percentiles["p99"] == 3999
    assert s.percentiles["p99_9"] == 25000  # the overflow bin: only the maximum is known


def binomial_cdf(n: int, q: float) -> list[float]:
    """P(B <= k) for k = 0..n, B ~ B(n, q), summed term by term (independent of scipy)."""
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
    s = summarize(v, confidence=0.95)
    # B(10, 0.5): P(B <= 1) = 11/1024 < 0.025 <= P(B <= 2) = 56/1024 -> ranks 2 and 9
    assert ci_ranks_by_hand(0.5, 10, 0.95) == (2, 9)
    assert s.percentile_ci["p50"] == (2, 9)
    for key, q in PERCENTILES.items():
        lo, hi = ci_ranks_by_hand(q, 10, 0.95)
        want = (None if lo is None else ordered[lo - 1], None if hi is None else ordered[hi - 1])
        assert s.percentile_ci[key] == want, key
    # p99 of 10 samples cannot be bounded above: the 10 samples may all lie below it
    assert s.percentile_ci["p99"][1] is None
    assert s.ci_dict()["p99_ci"] == [9, None]  # P(B <= 8) < 0.025 <= P(B <= 9) for B(10, 0.99)


@pytest.mark.parametrize("n,q", [(200, 0.9), (1000, 0.99), (50, 0.5)])
def test_percentile_ci_ranks_match_the_binomial_sums(n: int, q: float) -> None:
    s = summarize(np.arange(1, n + 1, dtype=np.int64), {"p": q}, confidence=0.95)
    lo, hi = ci_ranks_by_hand(q, n, 0.95)
    assert s.percentile_ci["p"] == (lo, hi)  # sample k is value k


def test_percentile_ci_coverage_by_simulation() -> None:
    """The interval holds the true quantile in at least ~95 % of repeated experiments."""
    rng = np.random.default_rng(7)
    trials, n, q = 2000, 300, 0.9
    true_q = int(0.9 * 10**9)  # quantile of the uniform integers 0 .. 1e9 - 1
    hits = 0
    for _ in range(trials):
        s = summarize(rng.integers(0, 10**9, n), {"p90": q}, confidence=0.95)
        lo, hi = s.percentile_ci["p90"]
        assert lo is not None and hi is not None
        hits += lo <= true_q <= hi
    # exact coverage of these ranks is >= 0.95; 2000 trials: standard error 0.005
    assert hits / trials >= 0.935


def test_deadline_verdict_counts_samples_above() -> None:
    v = np.array([100, 200, 300, 400, 3000, 3001], dtype=np.int64)
    d = summarize(v, deadline=3000).deadline
    assert d is not None
    assert (d.above, d.worst, d.margin, d.verdict) == (1, 3001, -1, "FAIL")
    assert d.fraction == pytest.approx(1 / 6)
    d = summarize(v, deadline=5000).deadline
    assert d is not None and (d.above, d.margin, d.verdict) == (0, 1999, "pass")
    wide = np.array([0, 2**40, 5, 7], dtype=np.int64)  # partition path
    d = summarize(wide, deadline=6).deadline
    assert d is not None and d.above == 2


def test_counter_in_batches_equals_one_array() -> None:
    rng = np.random.default_rng(5)
    v = rng.lognormal(9, 1.0, 300_000).astype(np.int64) - 2000  # negatives too
    counter = Counter()
    for part in np.array_split(v, 37):
        counter.add(part)
    a, b = summarize_counter(counter), summarize(v)
    assert a.as_dict() == b.as_dict()
    assert a.percentile_ci == b.percentile_ci
    assert a.exact


def test_counter_with_few_bins_is_bounded_and_states_its_error() -> None:
    rng = np.random.default_rng(6)
    v = rng.integers(0, 1_000_000, 200_000)
    counter = Counter(max_bins=1000)
    for part in np.array_split(v, 10):
        counter.add(part)
    assert len(counter.counts) <= 1000
    s, exact = summarize_counter(counter), summarize(v)
    assert not s.exact and s.bin_error == counter.width == 1024
    # count, min, max and mean stay exact; stdev is merged exactly up to float rounding
    assert (s.count, s.min, s.max) == (exact.count, exact.min, exact.max)
    assert s.mean == exact.mean
    assert s.stdev == pytest.approx(float(np.std(v, ddof=1)), rel=1e-12)
    for key in PERCENTILES:
        assert 0 <= s.percentiles[key] - exact.percentiles[key] < s.bin_error, key


def test_run_file_is_streamed_within_its_bin_budget(tmp_path: Path) -> None:
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
    _, (a, b) = summarize_run_file(tmp_path / "r.parquet", max_bins=20_000)
    assert a is not None and b is not None
    # narrow fits the bins: exact; wide does not, but all of it is kept: exact as well
    assert a.as_dict() == summarize(narrow).as_dict() and a.exact
    assert b.as_dict() == summarize(wide).as_dict() and b.exact
    # with nothing kept the wide series gets bin-width statistics, and says so
    stream = StreamSummarizer(max_bins=20_000, keep=0)
    for part in np.array_split(wide, 7):
        stream.add(part)
    s = stream.summary()
    assert not s.exact and len(stream.counter.counts) <= 20_000
    assert s.count == len(wide) and s.max == wide.max() and s.mean == summarize(wide).mean
    assert 0 <= s.percentiles["p99"] - summarize(wide).percentiles["p99"] < s.bin_error
