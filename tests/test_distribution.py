"""The one distribution type against an independent oracle: order statistics by walking sorted
(value, count) pairs in plain Python, sums as Python integers, the mean and variance as
fractions — for sizes from one sample to far beyond 2^23 (as counts, never as arrays), for
histograms with overflow, constant data, and samples counted in bins too narrow for them."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from latmon.analysis.distribution.counts import Distribution
from latmon.analysis.distribution.ranks import nearest_rank, quantile_ci_ranks
from latmon.model import Histogram

QUANTILES = (0.5, 0.9, 0.99, 0.999, 0.9999, 0.99999)


def oracle_rank(pairs: list[tuple[int, int]], rank: int) -> int:
    """The rank-th smallest value (1-based) of sorted (value, count) pairs, by walking them."""
    seen = 0
    for value, count in pairs:
        seen += count
        if seen >= rank:
            return value
    raise AssertionError("rank beyond the data")


def oracle_rank_of(n: int, q: float) -> int:
    """⌈q·n⌉ with q as the decimal it is written as, independently of latmon."""
    num, den = Fraction(str(q)).as_integer_ratio()
    return max(1, min(n, -(-num * n // den)))


def check_against_oracle(d: Distribution, pairs: list[tuple[int, int]]) -> None:
    n = sum(c for _, c in pairs)
    assert d.n == n
    total = sum(v * c for v, c in pairs)
    squares = sum(v * v * c for v, c in pairs)
    assert d.mean() == Fraction(total, n)
    if n > 1:
        assert d.variance() == Fraction(n * squares - total * total, n * (n - 1))
        # correctly rounded: the float nearest to the exact root
        exact = Fraction(n * squares - total * total, n * (n - 1))
        got = d.stdev()
        assert got is not None
        below, above = math.nextafter(got, -math.inf), math.nextafter(got, math.inf)
        assert abs(Fraction(got) ** 2 - exact) <= abs(Fraction(below) ** 2 - exact)
        assert abs(Fraction(got) ** 2 - exact) <= abs(Fraction(above) ** 2 - exact)
    else:
        assert d.variance() is None
    assert d.minimum().value == pairs[0][0] and d.maximum().value == pairs[-1][0]
    for q in QUANTILES:
        rank = oracle_rank_of(n, q)
        assert nearest_rank(q, n) == rank
        b = d.percentile(q)
        assert b.exact and b.value == oracle_rank(pairs, rank), q


value_counts = st.dictionaries(
    st.integers(-(10**12), 10**12), st.integers(1, 2**40), min_size=1, max_size=40
)


@settings(max_examples=150, deadline=None)
@given(value_counts)
def test_any_counts_any_size_exact(counts: dict[int, int]) -> None:
    """Counts up to 2^40 per value: sizes far across 2^23 and 2^24, exactly."""
    pairs = sorted(counts.items())
    d = Distribution()
    values = np.asarray([v for v, _ in pairs], np.int64)
    d.add_counts(values, np.asarray([c for _, c in pairs], np.int64))
    check_against_oracle(d, pairs)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.integers(0, 50_000), st.integers(2**22, 2**26), min_size=1, max_size=8))
def test_sizes_across_2_to_the_23_and_24(counts: dict[int, int]) -> None:
    """Dense counts (values within 50,000): every example holds at least 2^22 values and
    usually more than 2^24."""
    pairs = sorted(counts.items())
    d = Distribution()
    d.add_counts(np.asarray([v for v, _ in pairs]), np.asarray([c for _, c in pairs]))
    check_against_oracle(d, pairs)


def test_a_real_array_beyond_2_to_the_24_in_batches() -> None:
    """The samples path itself (bincount batch by batch), 2^24 + 3 samples: the size at which
    p90 ... p99.99 used to come out one value too high."""
    n = (1 << 24) + 3
    rng = np.random.default_rng(23)
    v = rng.integers(1000, 33_000, n)
    d = Distribution.from_samples(v)
    ordered = np.sort(v)
    for q in QUANTILES:
        assert d.percentile(q).value == ordered[oracle_rank_of(n, q) - 1], q
    streamed = Distribution()
    for part in np.array_split(v, 37):
        streamed.add(part)
    for q in QUANTILES:
        assert streamed.percentile(q) == d.percentile(q)
    assert streamed.stdev() == d.stdev()  # bit for bit, whatever the batching


def test_few_samples_over_a_wide_span_are_counted_by_value() -> None:
    """50,000 wake-ups of tens of microseconds and one 35 ms outlier (an emulated run): exact,
    and without 35 million mostly empty bins (269 MiB per series; a report of 60 such series
    needed 13 GB)."""
    import tracemalloc

    rng = np.random.default_rng(5)
    v = np.append(rng.integers(20_000, 90_000, 50_000), 35_194_976)
    tracemalloc.start()
    d = Distribution.from_samples(v)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 32 << 20, peak
    ordered = np.sort(v)
    for q in QUANTILES:
        assert d.percentile(q).value == ordered[oracle_rank_of(len(v), q) - 1], q
    assert d.percentile(1.0).value == 35_194_976


@pytest.mark.parametrize("values", [[7], [3, 3, 3, 3], [5, 9], [-(2**62), 2**62 - 1]])
def test_one_two_and_constant_samples(values: list[int]) -> None:
    d = Distribution.from_samples(np.asarray(values, np.int64))
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    check_against_oracle(d, sorted(counts.items()))


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(-(10**9), 10**9), min_size=1, max_size=400),
    st.integers(2, 64),
    st.integers(1, 9),
)
def test_narrow_bins_widen_and_refine_makes_ranks_exact(
    samples: list[int], max_bins: int, batches: int
) -> None:
    v = np.asarray(samples, np.int64)
    d = Distribution(max_bins=max_bins)
    for part in np.array_split(v, batches):
        d.add(part)
    assert len(d._dense.counts) <= max_bins
    pairs = sorted({x: samples.count(x) for x in set(samples)}.items())
    n = len(samples)
    ranks = [oracle_rank_of(n, q) for q in QUANTILES] + [1, n]
    for r in ranks:  # before refining: the true value lies within the stated bounds
        b = d.at_rank(r)
        assert b.lo is not None and b.hi is not None
        assert b.lo <= oracle_rank(pairs, r) <= b.hi
    d.refine(lambda: np.array_split(v, 3), ranks)
    for r in ranks:
        assert d.at_rank(r).value == oracle_rank(pairs, r)
    assert d.mean() == Fraction(sum(samples), n)  # sums stay exact in coarse bins


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.integers(-(2**63), 2**63 - 1) | st.sampled_from([-(2**63), 2**63 - 1, 0]),
        min_size=2,
        max_size=200,
    ),
    st.integers(2, 64),
    st.integers(1, 5),
)
def test_values_spanning_the_whole_int64_range(
    samples: list[int], max_bins: int, batches: int
) -> None:
    """The latmon-log allows any int64: a series from -2^63 to 2^63 - 1 spans more than an
    int64 difference holds; bins, bounds and refined ranks stay right (a bound at the int64
    limit itself reads as open: None)."""
    v = np.asarray(samples, np.int64)
    d = Distribution(max_bins=max_bins)
    for part in np.array_split(v, batches):
        d.add(part)
    pairs = sorted({x: samples.count(x) for x in set(samples)}.items())
    n = len(samples)
    ranks = [oracle_rank_of(n, q) for q in QUANTILES] + [1, n]
    for r in ranks:
        b, truth = d.at_rank(r), oracle_rank(pairs, r)
        assert (b.lo is None or b.lo <= truth) and (b.hi is None or truth <= b.hi)
    d.refine(lambda: np.array_split(v, 3), ranks)
    for r in ranks:
        assert d.at_rank(r).value == oracle_rank(pairs, r)
    assert d.mean() == Fraction(sum(samples), n)


@pytest.mark.parametrize("outlier", [10**12, 2**62 - 1, 2**63 - 1])
def test_a_far_outlier_in_a_later_batch(outlier: int) -> None:
    """After a batch of small values, one far outlier: counted as what it is (bincount on it
    would allocate terabytes, or at 2^63 - 1 wrap its length and write outside its memory)."""
    d = Distribution()
    d.add(np.asarray([5, 6, 7], np.int64))
    d.add(np.asarray([6, outlier], np.int64))
    assert d.n == 5 and d.mean() == Fraction(24 + outlier, 5)
    assert d.minimum().value == 5 and d.maximum().value == outlier
    pairs = [(5, 1), (6, 2), (7, 1), (outlier, 1)]
    for q in QUANTILES:  # in widened bins: bounds that hold the value
        b, truth = d.percentile(q), oracle_rank(pairs, oracle_rank_of(5, q))
        assert b.lo is not None and b.lo <= truth and (b.hi is None or truth <= b.hi)


def test_histogram_convention_constant_data() -> None:
    """A cyclictest histogram where every sample was 42 µs: bin [42, 43) µs, min = max = 42."""
    h = Histogram([42_000], [43_000], [1000])
    d = Distribution.from_histogram(h, {"min": 42_000, "max": 42_000})
    assert d.mean() == 42_000 and d.stdev() == 0.0
    assert d.maximum().value == 42_000 and d.percentile(0.99).value == 42_000
    # min = max = 42 µs pins the bin to one value at the tool's resolution (whole µs)
    assert d.exact
    wide = Distribution.from_histogram(h)  # without min/max: the bin's lower edge, bounded
    assert wide.mean() == 42_000 and wide.stdev() == 0.0 and not wide.exact
    assert wide.percentile(0.5) == (42_000, 42_000, 42_999)


def test_histogram_overflow_is_open_never_the_max() -> None:
    # 996 samples in [10, 20) µs, 4 overflows above the 100 µs range, max 230.7 ms
    h = Histogram([10_000], [20_000], [996], overflow=4, overflow_lo=100_000)
    d = Distribution.from_histogram(h, {"min": 10_000, "max": 230_700_000})
    p999 = d.percentile(0.999)
    assert p999.value is None and p999.lo == 100_000 and p999.hi == 230_700_000
    assert d.percentile(0.99).value == 10_000
    assert d.maximum().value == 230_700_000
    # the overflow stands at its lower edge: a lower bound of the true mean
    assert d.mean() == Fraction(996 * 10_000 + 4 * 100_000, 1000)
    lo, hi = d.mean_bounds()
    assert lo == Fraction(996 * 10_000 + 4 * 100_000, 1000)
    assert hi == Fraction(996 * 19_999 + 4 * 230_700_000, 1000)
    without_max = Distribution.from_histogram(h, {"min": 10_000})
    assert without_max.percentile(0.999).hi is None and without_max.mean_bounds()[1] is None


def test_producer_sum_makes_the_mean_exact() -> None:
    h = Histogram([0, 64], [64, 128], [3, 1])
    d = Distribution.from_histogram(h, {"min": 5, "max": 100, "sum": 5 + 7 + 9 + 100})
    assert d.mean() == Fraction(121, 4) and d.exact_sum() == 121
    saturated = Distribution.from_histogram(h, {"sum": 2**64 - 1})
    assert saturated.exact_sum() is None


def test_pool_and_units() -> None:
    a = Distribution.from_samples(np.array([1, 2, 3]), "cycles", 100_000_000)
    b = Distribution.from_samples(np.array([15, 25]), "ns")
    pooled = Distribution.pool([a, b])
    assert pooled.unit == "ns" and pooled.n == 5
    assert [pooled.at_rank(r).value for r in range(1, 6)] == [10, 15, 20, 25, 30]
    assert pooled.exact and pooled.mean() == Fraction(100, 5)
    odd = Distribution.from_samples(np.array([3]), "cycles", 150_000_000).in_ns()
    b1 = odd.at_rank(1)  # 3 cycles at 150 MHz = 20 ns exactly; 1 cycle = 6.67 ns
    assert b1.value == 20
    one = Distribution.from_samples(np.array([1]), "cycles", 150_000_000).in_ns().at_rank(1)
    assert (one.value, one.lo, one.hi) == (7, 6, 7)


def test_ci_ranks_are_binomial_quantiles() -> None:
    # B(10, 0.5): P(B <= 1) = 11/1024 < 0.025 <= P(B <= 2) = 56/1024 -> ranks 2 and 9
    assert quantile_ci_ranks(0.5, 10, 0.95) == (2, 9)
    assert quantile_ci_ranks(0.99, 10, 0.95) == (9, None)


def test_count_above_and_values() -> None:
    d = Distribution.from_samples(np.array([5, 5, 7, 9, 9, 9]))
    assert d.count_above(7) == (3, 3) and d.count_above(4) == (6, 6)
    values, counts = d.values_and_counts()
    assert values.tolist() == [5, 7, 9] and counts.tolist() == [2, 1, 3]
    h = Distribution.from_histogram(Histogram([0, 100], [100, 200], [4, 6]))
    assert h.count_above(150) == (0, 6)  # the bin [100, 199] straddles 150


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(-20, 20), st.integers(0, 3), st.integers(1, 2)), max_size=4),
    st.lists(st.integers(-30, 30), max_size=3),
    st.sampled_from([0, 1]),
)
def test_variance_bounds_hold_every_placement(
    bins: list[tuple[int, int, int]], samples: list[int], ddof: int
) -> None:
    """Every placement of the binned values at integers inside their bins (enumerated by brute
    force) has a variance within variance_bounds; bins may overlap (pooled producers)."""
    import itertools

    if not bins:
        return
    d = Distribution()
    if samples:
        d.add(np.asarray(samples, np.int64))
    lo = np.asarray([a for a, _, _ in bins], np.int64)
    hi = lo + np.asarray([wd for _, wd, _ in bins], np.int64)
    count = np.asarray([k for _, _, k in bins], np.int64)
    order = np.argsort(lo, kind="stable")
    d._add_part(lo[order], lo[order], hi[order], count[order], np.zeros(len(bins), bool))
    n = d.n
    if n <= ddof:
        return
    low, high = d.variance_bounds(ddof)
    assert low is not None and high is not None
    slots = [range(a, a + wd + 1) for a, wd, k in bins for _ in range(k)]
    spreads = []
    for choice in itertools.product(*slots):
        xs = [*samples, *choice]
        mean = Fraction(sum(xs), len(xs))
        spreads.append(sum((x - mean) ** 2 for x in xs) / (len(xs) - ddof))
    assert low <= min(spreads) and max(spreads) <= high
    # the lower bound is the least over real placements: within reach of the integer ones
    assert min(spreads) - low <= Fraction(len(xs), 4 * (len(xs) - ddof)) + 1


def test_variance_bounds_with_an_overflow() -> None:
    """A histogram with an overflow above 30 and no recorded max: the variance has a lower
    bound only; with the max recorded, an upper bound that puts the overflow there."""
    h = Histogram([0, 10, 20], [10, 20, 30], [5, 5, 5], overflow=3, overflow_lo=30)
    low, high = Distribution.from_histogram(h, {}).variance_bounds()
    assert high is None and low is not None and low > 0
    low, high = Distribution.from_histogram(h, {"max": 10_000}).variance_bounds()
    assert low is not None and high is not None
    at_max = [0] * 5 + [10] * 5 + [20] * 5 + [10_000] * 3
    mean = Fraction(sum(at_max), 18)
    assert high >= sum((x - mean) ** 2 for x in at_max) / 17
    exact = Distribution.from_samples(np.asarray([1, 5, 9], np.int64))
    assert exact.variance_bounds() == (exact.variance(), exact.variance())


def test_overflow_of_pooled_histograms_and_the_values_without_it() -> None:
    """Two histograms, each with an overflow above both's bins (200 and 300 µs): the pool's
    overflow is both (from the lower bound, up to the recorded max), and the values without it
    are exactly the closed bins; an overflow below the other's bins is not the pool's."""
    a = Histogram([0, 100_000], [100_000, 150_000], [5, 3], overflow=2, overflow_lo=200_000)
    b = Histogram([50_000], [150_000], [7], overflow=4, overflow_lo=300_000)
    pool = Distribution.pool(
        [
            Distribution.from_histogram(a, {"max": 900_000}),
            Distribution.from_histogram(b, {"max": 400_000}),
        ]
    )
    assert pool.overflow() == (200_000, 6, 900_000)
    values, counts = pool.values_and_counts(overflow=False)
    assert values.tolist() == [0, 50_000, 100_000] and counts.tolist() == [5, 7, 3]
    assert int(counts.sum()) + 6 == pool.n
    c = Histogram([0, 250_000], [250_000, 260_000], [1, 1])  # a closed bin above a's overflow
    mixed = Distribution.pool(
        [Distribution.from_histogram(a, {"max": 900_000}), Distribution.from_histogram(c, {})]
    )
    assert mixed.overflow() is None  # a's overflow is not above every closed bin
    assert Distribution.from_samples(np.array([1, 2, 3])).overflow() is None
