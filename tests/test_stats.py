"""Statistics against values computed independently: by hand, and by plain numpy."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from latmon.model import Histogram
from latmon.stats import (
    BINCOUNT_MAX_SPAN,
    PERCENTILES,
    nearest_rank,
    summarize,
    summarize_histogram,
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
    assert s.percentiles == {"p50": 5, "p90": 9, "p99": 100, "p99_9": 100}
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
