"""The streamed report (latmon.report.stream) against the report of the same samples read into
memory: the same page, byte for byte but the generation time, for series long enough to be
streamed, read in batches that cut across the halves, the blocks and the timeline's buckets.
And the pieces it rests on: the serial sums (C and numpy) against their definitions, the tail
analysis from a digest against the analysis of the array on series whose checks take the rarer
paths (KPSS asking for more lags, a span too wide for exact value counts)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from latmon.commands import report as report_command
from latmon.inputs.readers import ReadOptions
from latmon.inputs.runfile import read_run, write_run
from latmon.model import Run, Series, record_measures
from latmon.report import HtmlReport
from latmon.report import stream as report_stream
from latmon.report.stream import Digester, stream_run_file
from latmon.tail import analyse_tail
from latmon.tail import serial as tail_serial
from latmon.tail.checks import COUNT_BINS, HalfCounts
from latmon.tail.serial import SerialMoments, SerialSums, moments_built, serial_built

DEADLINE = 3_000_000


def _run_file(path: Path, n: int, seed: int, with_time: bool = True) -> Path:
    rng = np.random.default_rng(seed)
    lat = rng.lognormal(np.log(20_000), 0.6, n).astype(np.int64)
    spikes = rng.choice(n, max(1, n // 5000), replace=False)
    lat[spikes] = rng.integers(200_000, 4_000_000, len(spikes))
    columns = {"latency": lat}
    if with_time:
        columns["t"] = np.arange(n, dtype=np.int64) * 1000 + rng.integers(0, 10, n)
    run = Run({"source": "latprobe", "scenario": "s"}, [Series("cpu0", "ns", columns=columns)])
    write_run(run, path)
    return path


def _page(text: str) -> str:
    return re.sub(r"on \d{4}-\d\d-\d\d \d\d:\d\d UTC", "", text)


@pytest.mark.parametrize(
    ("with_time", "deadline", "moments"),
    # 15 µs, below the median: every pooled value reaches the spike threshold, so the
    # timeline counts the samples at or above it (from the exact distribution); without
    # the exact serial sums of the first pass (moments False) the checks take their pass
    [
        (True, DEADLINE, True),
        (False, DEADLINE, True),
        (True, 15_000, True),
        (True, DEADLINE, False),
    ],
)
def test_streamed_report_is_the_in_memory_report(
    tmp_path: Path, with_time: bool, deadline: int, moments: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if moments:
        assert moments_built(), "latmon.tail._serial is not built (see pip's output in make setup)"
    else:
        monkeypatch.setattr(tail_serial, "_c_moments", None)
    path = _run_file(tmp_path / "run.parquet", 120_001, 3, with_time)
    run = read_run(path)
    record_measures(run)  # as latmon report reads a run file whole (and the stream records)
    whole = HtmlReport("r", deadline).render([run])
    run, streamed = stream_run_file(path, deadline, batch_rows=12_345, reread_rows=7_777)
    assert not run.series[0].has_samples and len(streamed) == 1  # nothing held whole
    # the first pass gathered the checks' serial sums (else they take a pass of their own)
    digest = next(iter(streamed.values())).digest
    assert (digest.serial_sums() is not None) is moments
    page = HtmlReport("r", deadline).render([run], streamed)
    assert _page(page) == _page(whole)
    # not vacuous: the page holds the tail's checks and the timeline with its spikes (the
    # fits themselves: test_tail_analysis_of_a_digest_is_that_of_the_array)
    assert "independence: Ljung-Box" in page and "largest samples" in page


def test_report_command_streams_a_large_run_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _run_file(tmp_path / "run.parquet", 120_000, 5)
    options = ReadOptions()
    runs, streamed = report_command.load_for_report([str(path)], "auto", False, options, None)
    assert not streamed and runs[0].series[0].has_samples  # small: read whole
    whole = HtmlReport("r").render(runs)
    monkeypatch.setattr(report_stream, "STREAM_FROM", 100_000)
    runs, streamed = report_command.load_for_report([str(path)], "auto", False, options, None)
    assert streamed and not runs[0].series[0].has_samples
    assert _page(HtmlReport("r").render(runs, streamed)) == _page(whole)


@pytest.mark.parametrize("data", ["ties", "few at the median", "none at the median"])
@pytest.mark.parametrize("use_c", [True, False])
def test_serial_sums_are_their_definitions(use_c: bool, data: str) -> None:
    if use_c:  # make setup builds it: a compile error must not hide behind numpy's twin
        assert serial_built(), "latmon.tail._serial is not built (see pip's output in make setup)"
    rng = np.random.default_rng(8)
    median_shift = 0.0
    if data == "ties":  # many samples at the median: every block skips some
        x = rng.integers(0, 50, 20_011)
    elif data == "few at the median":  # most blocks have none, a few have one
        x = rng.lognormal(np.log(20_000), 0.6, 20_011).astype(np.int64)
        x[[3, 9_000, 15_000]] = int(np.median(x))
    else:
        x = rng.integers(0, 1000, 20_011)
        median_shift = 0.5  # between two whole numbers: every sample is off it
    mean, median, lags = float(x.mean()), float(np.median(x)) + median_shift, 13
    sums = SerialSums(mean, median, lags, use_c=use_c)
    for a, b in ((0, 5), (5, 7), (7, 9000), (9000, 20_011)):  # shorter and longer than lags
        sums.add(x[a:b])
    d = x - mean
    for k in range(lags + 1):
        assert sums.sums[k] == pytest.approx(float(np.dot(d[: len(d) - k], d[k:])), rel=1e-9)
    assert sums.eta == pytest.approx(float(np.sum(np.cumsum(d) ** 2)), rel=1e-9)
    off = x[x != median]
    side = off > median
    runs = 1 + int(np.count_nonzero(side[1:] != side[:-1]))
    assert sums.run_counts == (int(side.sum()), int((~side).sum()), runs)


def _exact_serial(x: np.ndarray, lags: int, median: float) -> tuple[list[float], float, tuple]:
    """The serial sums about the exact mean S/n in Python's integers, scaled by n (n d_t =
    n x_t - S is a whole number), each rounded once: the independent reference."""
    v = [int(a) for a in x]
    n, total = len(v), sum(v)
    d = [n * a - total for a in v]
    sums = [
        float(Fraction(sum(d[t] * d[t - k] for t in range(k, n)), n * n)) for k in range(lags + 1)
    ]
    partial, eta = 0, 0
    for a in d:
        partial += a
        eta += partial * partial
    off = [a for a in v if a != median]
    side = [a > median for a in off]
    runs = 1 + sum(1 for a, b in itertools.pairwise(side) if a != b)
    return sums, float(Fraction(eta, n * n)), (sum(side), len(side) - sum(side), runs)


@pytest.mark.parametrize("data", ["ties", "outliers", "negative", "half median"])
def test_serial_moments_are_the_exact_sums(data: str) -> None:
    """The first pass's serial sums (before the mean and median are known) against Python's
    integers: every lag sum, KPSS's Σ S_t² and the runs are the exact values rounded once, on
    chunks shorter than the lags and across the C code's blocks of 4096, with samples far
    beyond its clamp (2^20 from the offset: summed in 128-bit integers)."""
    assert moments_built(), "latmon.tail._serial is not built (see pip's output in make setup)"
    rng = np.random.default_rng(21)
    n, lags = 9_001, 17
    if data == "ties":
        x = rng.integers(0, 50, n)
    elif data == "outliers":
        x = rng.lognormal(np.log(20_000), 0.6, n).astype(np.int64)
        x[rng.choice(n, 40, replace=False)] = rng.integers(2_000_000, 2**38, 40)
    elif data == "negative":  # and outliers far below the clamp
        x = rng.integers(-5_000, 3_000, n)
        x[rng.choice(n, 40, replace=False)] = -rng.integers(2**21, 2**38, 40)
    else:  # an even count of whole numbers whose middle two differ: the median is x.5
        x = rng.permutation(np.repeat(np.arange(1000, 1100), n // 100 + 1)[: n - 1])
    median = float(np.median(x))
    moments = SerialMoments(lags)
    for a, b in ((0, 6_000), (6_000, 6_005), (6_005, 6_040), (6_040, len(x))):
        moments.add(x[a:b])
    above, below = int((x > median).sum()), int((x < median).sum())
    got = moments.about(int(x.sum()), median, above, below)
    assert got is not None
    sums, eta, runs = _exact_serial(x, lags, median)
    assert got.sums.tolist() == sums and got.eta == eta and got.run_counts == runs


def test_serial_moments_refuse_what_they_cannot_sum_exactly() -> None:
    """A median outside the thresholds followed (a drifting series) and a sample 2^40 from the
    offset give no sums (the caller sums in a pass); the in-memory checks then sum in floats."""
    rng = np.random.default_rng(22)
    x = rng.integers(0, 1000, 20_000)
    drifted = np.concatenate((x, x + 100_000, x + 100_000))
    moments = SerialMoments(5)
    for a in range(0, len(drifted), 20_000):
        moments.add(drifted[a : a + 20_000])
    median = float(np.median(drifted))
    assert moments.exact and moments.about(int(drifted.sum()), median, 1, 1) is None
    far = x.copy()
    far[-1] = 2**41
    moments = SerialMoments(5)
    moments.add(far)
    assert not moments.exact
    assert tail_serial.exact_sums(far, float(np.median(far)), 5) is None


def test_a_lag_sum_does_not_depend_on_the_lags_beside_it() -> None:
    """The first pass sums more lags than KPSS may need (checks._summed_lags): the sums it
    would have taken with fewer lags are the same to the last bit (C and numpy)."""
    rng = np.random.default_rng(4)
    x = rng.lognormal(np.log(20_000), 0.6, 50_001).astype(np.int64)
    mean, median = float(x.mean()), float(np.median(x))
    for use_c in (True, False):
        wide = SerialSums(mean, median, 70, use_c=use_c)
        for lags in (13, 35, 36, 37, 38):
            narrow = SerialSums(mean, median, lags, use_c=use_c)
            for a in range(0, len(x), 9_999):
                narrow.add(x[a : a + 9_999])
                if lags == 13:
                    wide.add(x[a : a + 9_999])
            assert np.array_equal(narrow.sums, wide.sums[: lags + 1]), (use_c, lags)
            assert narrow.eta == wide.eta and narrow.run_counts == wide.run_counts


def _digester_state(d: Digester) -> tuple:
    maxima = np.concatenate(d.maxima).tolist() if d.maxima else []
    pools = {part: top.values.tolist() for part, top in d.tops.items()}
    timeline = (d.lo_index, d.hi_index, d.lo_value, d.hi_value)
    spikes = (d.spike_value, d.spike_index, d.spike_time)
    return (
        (d.low, d.high, d.total, pools, d.half_maxima, maxima, d._partial, d._filled, d.times),
        [a.tolist() for a in (*timeline, *spikes)],
    )


@pytest.mark.parametrize("with_time", [True, False])
def test_digester_in_c_is_its_numpy_twin(with_time: bool) -> None:
    """latmon.report._digest's one pass (sum, each bucket's, block's and half's extremes with
    their first indices) gives the digester numpy's state, on batches that cut across them,
    with ties everywhere, and a sum beyond 64 bits."""
    assert report_stream._scan is not None, "latmon.report._digest is not built (make setup)"
    rng = np.random.default_rng(12)
    for trial, (n, high) in enumerate(((60_001, 7), (150_000, 10**9), (99_999, 2**62))):
        x = rng.integers(0, high, n)
        t = np.arange(n, dtype=np.int64) * 7 + 3 if with_time else None
        twins = [Digester(n, 1.0, 500, use_c=use_c) for use_c in (True, False)]
        cuts = np.sort(rng.choice(np.arange(1, n), 25, replace=False))
        for part in np.split(np.arange(n), cuts):
            for d in twins:
                d.add(x[part], None if t is None else t[part])
        assert _digester_state(twins[0]) == _digester_state(twins[1]), trial
    assert twins[0].total == sum(int(v) for v in x) > 2**64  # the last: beyond 64 bits


def test_halves_counted_from_exact_counts_are_the_halves_counted() -> None:
    rng = np.random.default_rng(6)
    x = rng.lognormal(np.log(20_000), 0.6, 100_001).astype(np.int64)
    half = len(x) // 2
    known = HalfCounts.of_exact(
        int(x.min()),
        int(x.max()),
        np.unique(x[:half], return_counts=True),
        np.unique(x, return_counts=True),
    )
    counted = HalfCounts.of(x)
    assert known is not None and known.low == counted.low and known.width == counted.width == 1
    assert np.array_equal(known.first, counted.first)
    assert np.array_equal(known.second, counted.second)
    wide = np.array([0, COUNT_BINS + 5])  # a span that needs wider bins: not from exact counts
    assert (
        HalfCounts.of_exact(
            0,
            COUNT_BINS + 5,
            np.unique(wide[:1], return_counts=True),
            np.unique(wide, return_counts=True),
        )
        is None
    )


def _digest_of(x: np.ndarray, batch: int) -> object:
    digester = Digester(len(x), 1.0)
    for a in range(0, len(x), batch):
        digester.add(x[a : a + batch])

    def reread() -> Iterator[np.ndarray]:
        for a in range(0, len(x), batch + 1):
            yield x[a : a + batch + 1]

    return digester.digest(reread)


def _same(a: object, b: object) -> None:
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys()
        for key in a:
            _same(a[key], b[key])
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b)
        for u, v in zip(a, b, strict=True):
            _same(u, v)
    elif isinstance(a, float):
        assert b == pytest.approx(a, rel=1e-9, abs=1e-12, nan_ok=True)
    else:
        assert a == b


@pytest.mark.parametrize(
    "kind",
    ["iid", "correlated", "wide"],
)
def test_tail_analysis_of_a_digest_is_that_of_the_array(kind: str) -> None:
    rng = np.random.default_rng(11)
    n = 140_001
    if kind == "iid":
        x = rng.gamma(3.0, 2000.0, n).astype(np.int64) + 5000
    elif kind == "correlated":  # AR(1): KPSS's bandwidth asks for more lags than it summed
        e = rng.normal(0, 100, n)
        y = np.empty(n)
        y[0] = 0.0
        for i in range(1, n):
            y[i] = 0.97 * y[i - 1] + e[i]
        x = (y - y.min()).astype(np.int64) + 1000
    else:  # a span wider than the exact counts: the halves are counted in bins
        x = rng.integers(0, 3 * COUNT_BINS, n)
    memory = analyse_tail(x)
    streamed = analyse_tail(_digest_of(x, 9_999))  # type: ignore[arg-type]
    _same(memory.as_dict(), streamed.as_dict())
    assert memory.checks and [c.detail for c in memory.checks] == [
        c.detail for c in streamed.checks
    ]
    if kind == "correlated":
        assert not memory.iid
    if kind == "iid":
        assert memory.valid  # the fits ran on the digest's pools and block maxima
