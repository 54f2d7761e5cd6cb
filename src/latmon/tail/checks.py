"""Validity checks of a series for extreme-value analysis: independence (Ljung–Box, runs) and
identical distribution (KPSS, two-half Kolmogorov–Smirnov), read in chunks."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from latmon.analysis.chunks import chunks
from latmon.tables import fmt
from latmon.tail import probability
from latmon.tail.base import ALPHA, CHECK_NAMES, LJUNG_BOX_LAGS, Check
from latmon.tail.serial import SerialSums, exact_sums, serial_built

# --- validity checks ----------------------------------------------------------------------


#: Above this many samples the two halves' KS distance is computed from their value counts
#: (both halves > 10,000: scipy's asymptotic p-value, the same formula) instead of by sorting.
KS_COUNTS_FROM = 100_000
#: The value counts have at most this many bins (8 bytes each, per half).
COUNT_BINS = 1 << 22


#: lagged_products multiplies blocks of this many samples with all their lags at once: a
#: block and its lags stay in the CPU's cache (a dot product per lag over a whole chunk read
#: the chunk from memory once per lag).
LAG_BLOCK = 1 << 15


def lagged_products(
    x: np.ndarray, mean: float, lags: int, known: np.ndarray | None = None
) -> np.ndarray:
    """Σ_t (x_t - mean)(x_{t+k} - mean) for k = 0..lags, in chunks; the lags in ``known``
    (the same sums for lags 0..len(known)-1) are not summed again. Each block of LAG_BLOCK
    samples is multiplied with the window of its lags in one einsum (not np.dot: a BLAS
    product spins its threads on a busy machine, ten times slower here)."""
    first = 0 if known is None else len(known)
    out = np.zeros(lags + 1)
    if known is not None:
        out[: min(first, lags + 1)] = known[: lags + 1]
    if first > lags:
        return out
    if serial_built() and x.dtype.kind in "iu":  # C, chunk by chunk (all lags: faster)
        sums = SerialSums(mean, math.nan, lags).add_all(
            x[start:stop] for start, stop, _ in chunks(len(x))
        )
        out[first:] = sums.sums[first:]
        return out
    width = lags + 1 - first
    for start, stop, ahead in chunks(len(x), lags):
        # the chunk, the samples after it, then zeros: a product past the series' end is 0
        b = np.zeros(stop - start + lags)
        b[: ahead - start] = x[start:ahead]
        b[: ahead - start] -= mean
        a = b[: stop - start]
        for at in range(0, len(a), LAG_BLOCK):
            block = a[at : at + LAG_BLOCK]
            window = sliding_window_view(b[at + first : at + first + len(block) + width - 1], width)
            out[first:] += np.einsum("i,ij->j", block, window)
    return out


def _kpss_covlags(n: int) -> int:
    """The autocovariances the KPSS bandwidth rule starts from (Hobijn et al. 1998)."""
    return int(n ** (2.0 / 9.0))


def summed_lags(n: int) -> int:
    """The lags summed in the one pass that serves Ljung–Box and KPSS: Ljung–Box's, and twice
    the autocovariances KPSS's bandwidth rule starts from. On an independent series the rule
    asks for more than int(n^(2/9)) lags about half the time and for more than twice that
    about one time in twenty (its bandwidth is about 1.25 |Z|^(2/3) int(n^(2/9)), Z standard
    normal): a second pass over the series for a few lags more costs far more than summing
    them in the first. A lag's sum does not depend on how many are summed beside it."""
    h = max(1, min(LJUNG_BOX_LAGS, n // 5))
    return min(max(h, 2 * _kpss_covlags(n)), n - 1)


def ljung_box(
    values: np.ndarray,
    level: float,
    lags: int = LJUNG_BOX_LAGS,
    products: np.ndarray | None = None,
) -> Check:
    """Ljung–Box Q = n(n+2) Σ r_k²/(n-k) over ``lags`` autocorrelations r_k = c_k / c_0 with
    c_k = Σ (x_t - x̄)(x_{t+k} - x̄) (statsmodels' acf, unadjusted), χ²(lags) under
    independence. The lagged sums are read in chunks: O(lags · n) time in bounded memory."""
    x = np.asarray(values)
    n = len(x)
    h = max(1, min(lags, n // 5))
    if n == 0 or float(x.max()) == float(x.min()):
        return Check(CHECK_NAMES[0], False, "the series is constant: nothing to test")
    c = lagged_products(x, float(x.mean()), h, products)
    return ljung_box_of(c, n, level, h)


def ljung_box_of(c: np.ndarray, n: int, level: float, h: int) -> Check:
    """:func:`ljung_box` from the lagged sums ``c`` (at least ``h`` + 1) of n samples that are
    not all equal."""
    r = c[1 : h + 1] / c[0]
    q = float(n * (n + 2) * np.sum(r * r / (n - np.arange(1, h + 1))))
    p = probability.chi2_sf(q, h)
    passed = p >= level
    detail = f"Q = {q:.4g} over {h} lags, lag-1 autocorrelation {float(r[0]):+.3f}" + (
        "" if passed else ": successive latencies are correlated"
    )
    return Check(CHECK_NAMES[0], passed, detail, q, p, level)


def runs_test(values: np.ndarray, level: float, median: float | None = None) -> Check:
    """Wald–Wolfowitz runs test about the median (samples equal to the median are left out):
    the number of runs R against its mean 2 n₁n₂/n + 1 and variance under independence, as a
    two-sided normal z test. Counted in chunks (``median``: the series' median when the caller
    knows it)."""
    x = np.asarray(values)
    m = float(np.median(x)) if median is None else median
    n1 = n2 = changes = 0
    last: bool | None = None
    for start, stop, _ in chunks(len(x)):
        chunk = x[start:stop]
        above = chunk[chunk != m] > m
        if not len(above):
            continue
        k = int(np.count_nonzero(above))
        n1 += k
        n2 += len(above) - k
        changes += int(np.count_nonzero(above[1:] != above[:-1]))
        if last is not None and bool(above[0]) != last:
            changes += 1
        last = bool(above[-1])
    return runs_test_of(n1, n2, 1 + changes, level)


def runs_test_of(n1: int, n2: int, runs: int, level: float) -> Check:
    """:func:`runs_test` from the samples above (n1) and below (n2) the median and the
    number of runs."""
    if n1 < 2 or n2 < 2:
        return Check(CHECK_NAMES[1], False, "too few samples on one side of the median", None)
    n = n1 + n2
    mean = 2.0 * n1 * n2 / n + 1.0
    var = 2.0 * n1 * n2 * (2.0 * n1 * n2 - n) / (n * n * (n - 1.0))
    z = (runs - mean) / math.sqrt(var)
    p = 2 * probability.norm_sf(abs(z))
    passed = p >= level
    what = "fewer runs than chance: latencies come in streaks" if z < 0 else "more runs than chance"
    detail = f"{runs} runs, {mean:.1f} expected, z = {z:+.2f}" + ("" if passed else f": {what}")
    return Check(CHECK_NAMES[1], passed, detail, z, p, level)


#: KPSS level stationarity: the critical values of Kwiatkowski et al. (1992), Table 1, at
#: these p-values (statsmodels' table).
KPSS_CRITICAL = (0.347, 0.463, 0.574, 0.739)
KPSS_P = (0.10, 0.05, 0.025, 0.01)


def kpss_statistic(x: np.ndarray, products: np.ndarray | None = None) -> tuple[float, float, int]:
    """(KPSS statistic, p, lags) as statsmodels' ``kpss(x, "c", nlags="auto")`` computes
    them — the residuals' partial sums over the Newey–West long-run variance, the bandwidth
    of Hobijn et al. (1998) from int(n^(2/9)) autocovariances, the p-value interpolated in
    the table — with the sums taken in chunks."""
    n = len(x)
    mean = float(x.mean())
    covlags = _kpss_covlags(n)
    c = lagged_products(x, mean, covlags, products)

    def eta() -> float:
        total, carry = 0.0, 0.0
        for start, stop, _ in chunks(n):
            partial = np.cumsum(np.asarray(x[start:stop], dtype=np.float64) - mean) + carry
            total += float(np.einsum("i,i->", partial, partial))  # not BLAS: lagged_products
            carry = float(partial[-1])
        return total

    return kpss_of(c, n, lambda lags, known: lagged_products(x, mean, lags, known), eta)


def kpss_of(
    c: np.ndarray,
    n: int,
    more: Callable[[int, np.ndarray], np.ndarray],
    eta: Callable[[], float],
) -> tuple[float, float, int]:
    """:func:`kpss_statistic` from the lagged sums ``c`` (lags 0..int(n^(2/9)) at least),
    a function that extends them to more lags, and one that gives Σ_t S_t² of the partial
    sums of the centred samples."""
    covlags = _kpss_covlags(n)
    s0 = c[0] / n
    s1 = 0.0
    for i in range(1, covlags + 1):
        product = c[i] / (n / 2.0)
        s0 += product
        s1 += i * product
    ratio = s1 / s0
    lags = min(int(1.1447 * (ratio * ratio) ** (1.0 / 3.0) * n ** (1.0 / 3.0)), n - 1)
    if lags >= len(c):
        c = more(lags, c)
    s_hat = (c[0] + sum(2 * c[i] * (1.0 - i / (lags + 1.0)) for i in range(1, lags + 1))) / n
    stat = eta() / (n * n) / s_hat
    p = float(np.interp(stat, KPSS_CRITICAL, KPSS_P))
    return stat, p, lags


def kpss_level(values: np.ndarray, level: float, products: np.ndarray | None = None) -> Check:
    """KPSS test of level stationarity (:func:`kpss_statistic`: statsmodels' ``kpss``,
    regression "c", automatic Newey–West bandwidth). Its p-value is interpolated in the
    published table, so it is only known within [0.01, 0.1]: p = 0.1 means "at least 0.1",
    p = 0.01 "at most 0.01"."""
    x = np.asarray(values)
    if len(x) == 0 or float(x.max()) == float(x.min()):
        return Check(CHECK_NAMES[2], True, "the series is constant", 0.0, 1.0, level)
    return kpss_check(*kpss_statistic(x, products), level)


def kpss_check(stat: float, p: float, lags: int, level: float) -> Check:
    """The KPSS check from :func:`kpss_statistic`'s result."""
    passed = p >= level
    bound = "≥ " if p >= 0.1 else "≤ " if p <= 0.01 else "= "
    detail = f"KPSS = {stat:.3f} ({lags} lags), p {bound}{p:.3g}" + (
        "" if passed else ": the level drifts over the run"
    )
    return Check(CHECK_NAMES[2], passed, detail, stat, p, level)


@dataclass(frozen=True)
class HalfCounts:
    """The values of the two halves of a whole-number series counted in bins of ``width``
    from ``low`` (width 1: exact), for the KS distance and the median without sorting."""

    low: int
    width: int
    first: np.ndarray
    second: np.ndarray

    @classmethod
    def of(cls, x: np.ndarray) -> HalfCounts:
        low, high = int(x.min()), int(x.max())
        width = max(1, -(-(high - low + 1) // COUNT_BINS))
        bins = (high - low) // width + 1
        half = len(x) // 2
        counts = []
        for part in (x[:half], x[half:]):
            c = np.zeros(bins, dtype=np.int64)
            for start, stop, _ in chunks(len(part)):
                offset = part[start:stop] - low
                if width > 1:
                    offset //= width
                c += np.bincount(offset, minlength=bins)
            counts.append(c)
        return cls(low, width, counts[0], counts[1])

    @classmethod
    def streamed(cls, batches: Iterable[np.ndarray], n: int, low: int, high: int) -> HalfCounts:
        """:meth:`of` for a series of n samples from ``low`` to ``high`` read in order, batch
        by batch: the same bins, the same counts."""
        counter = HalfCounter(n, low, high)
        for batch in batches:
            counter.add(batch)
        return counter.result()

    @classmethod
    def of_exact(
        cls,
        low: int,
        high: int,
        first: tuple[np.ndarray, np.ndarray],
        whole: tuple[np.ndarray, np.ndarray],
    ) -> HalfCounts | None:
        """:meth:`of` from exact counts (distinct values and their counts) of the first half
        and of the whole series, without reading it; None when its span needs wider bins."""
        bins = high - low + 1
        if bins > COUNT_BINS:
            return None
        counts = []
        for values, n in (first, whole):
            c = np.zeros(bins, dtype=np.int64)
            c[np.asarray(values, dtype=np.int64) - low] = n
            counts.append(c)
        return cls(low, 1, counts[0], counts[1] - counts[0])

    def median(self) -> float:
        """The median (the mean of the two middle values, as numpy's); with bins wider than
        1, the lower edge of the bin that holds it."""
        total = self.first + self.second
        n = int(total.sum())
        cumulative = np.cumsum(total)
        lower = int(np.searchsorted(cumulative, (n - 1) // 2 + 1))
        upper = int(np.searchsorted(cumulative, n // 2 + 1))
        return self.low + self.width * (lower + upper) / 2

    def values(self) -> tuple[np.ndarray, np.ndarray]:
        """The bins in use (each at its lower edge; every distinct value when the width is
        1) and how many samples of the whole series fall in each."""
        total = self.first + self.second
        where = np.flatnonzero(total)
        return self.low + self.width * where, total[where]

    def ks(self) -> float:
        """max |F₁ - F₂| over the bin edges (every value when the width is 1)."""
        f1 = np.cumsum(self.first) / max(int(self.first.sum()), 1)
        f2 = np.cumsum(self.second) / max(int(self.second.sum()), 1)
        return float(np.max(np.abs(f1 - f2)))


class HalfCounter:
    """:class:`HalfCounts` of a series of n samples from ``low`` to ``high``, counted batch
    by batch as it is read in order."""

    def __init__(
        self,
        n: int,
        low: int,
        high: int,
        whole: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> None:
        """``whole``: the series' distinct values and their exact counts, when known: then
        only the first half is counted, the second is the rest."""
        self.low = low
        self.whole = whole
        self.width = max(1, -(-(high - low + 1) // COUNT_BINS))
        self.bins = (high - low) // self.width + 1
        self.half = n // 2
        self.at = 0
        self.counts = [np.zeros(self.bins, dtype=np.int64), np.zeros(self.bins, dtype=np.int64)]

    def add(self, batch: np.ndarray) -> None:
        offset = np.asarray(batch, dtype=np.int64) - self.low
        if self.width > 1:
            offset //= self.width
        cut = min(max(self.half - self.at, 0), len(offset))
        if cut:
            self.counts[0] += np.bincount(offset[:cut], minlength=self.bins)
        if cut < len(offset) and (self.whole is None or self.width > 1):
            self.counts[1] += np.bincount(offset[cut:], minlength=self.bins)
        self.at += len(offset)

    def result(self) -> HalfCounts:
        second = self.counts[1]
        if self.whole is not None and self.width == 1:
            values, counts = self.whole
            second = np.zeros(self.bins, dtype=np.int64)
            second[np.asarray(values, dtype=np.int64) - self.low] = counts
            second -= self.counts[0]
        return HalfCounts(self.low, self.width, self.counts[0], second)


def halves_ks(
    values: np.ndarray, level: float, unit: str = "", counts: HalfCounts | None = None
) -> Check:
    """Two-sample Kolmogorov–Smirnov test between the first and the second half (scipy for
    up to KS_COUNTS_FROM samples; above, the distance from the halves' value counts and
    scipy's asymptotic p-value for it); the detail names the halves' medians and maxima in
    ``unit``."""
    x = np.asarray(values)
    half = len(x) // 2
    first, second = x[:half], x[half:]
    if counts is None or len(x) <= KS_COUNTS_FROM:
        from scipy import stats  # short series only: scipy.stats is slow to import

        result = stats.ks_2samp(first, second)
        d, p = float(result.statistic), float(result.pvalue)
        medians = float(np.median(first)), float(np.median(second))
    else:
        return halves_ks_of(counts, len(x), int(first.max()), int(second.max()), level, unit)
    return _ks_check(d, p, medians, (int(first.max()), int(second.max())), level, unit)


def halves_ks_of(
    counts: HalfCounts, n: int, first_max: int, second_max: int, level: float, unit: str = ""
) -> Check:
    """:func:`halves_ks` of a long series from its halves' value counts and maxima."""
    half = n // 2
    d = counts.ks()
    en = half * (n - half) / n
    p = probability.kstwo_sf(d, round(en))
    medians = (
        HalfCounts(counts.low, counts.width, counts.first, 0 * counts.first).median(),
        HalfCounts(counts.low, counts.width, 0 * counts.second, counts.second).median(),
    )
    return _ks_check(d, p, medians, (first_max, second_max), level, unit)


def _ks_check(
    d: float,
    p: float,
    medians: tuple[float, float],
    maxima: tuple[int, int],
    level: float,
    unit: str,
) -> Check:
    passed = p >= level
    suffix = f" {unit}" if unit else ""
    detail = (
        f"D = {d:.4f}; medians {fmt(medians[0])} and "
        f"{fmt(medians[1])}{suffix}, maxima {fmt(maxima[0])} and "
        f"{fmt(maxima[1])}{suffix}"
    )
    if not passed:
        detail += ": the two halves differ"
    return Check(CHECK_NAMES[3], passed, detail, d, p, level)


def value_counts(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values and their counts (np.unique), for a long series of whole numbers
    counted in chunks in at most COUNT_BINS bins (exact when they span fewer values; else each
    bin at its lower edge, as a histogram draws it)."""
    x = np.asarray(values)
    if len(x) <= KS_COUNTS_FROM or x.dtype.kind not in "iu":
        distinct, counts = np.unique(x, return_counts=True)
        return distinct, counts
    return HalfCounts.of(x).values()


def half_counts(x: np.ndarray) -> HalfCounts | None:
    """The halves' value counts of a long series of whole numbers (None otherwise)."""
    return HalfCounts.of(x) if len(x) > KS_COUNTS_FROM and x.dtype.kind in "iu" else None


def iid_checks(
    values: np.ndarray, alpha: float = ALPHA, unit: str = "", counts: HalfCounts | None = None
) -> list[Check]:
    """The four i.i.d. tests, each at alpha / 4 (``unit`` names the values' unit in details).
    A long series of whole numbers is counted once (:class:`HalfCounts`, or ``counts``) for
    the median of the runs test and the KS distance; nothing is sorted or copied whole."""
    x = np.asarray(values)
    level = alpha / 4
    if counts is None:
        counts = half_counts(x)
    median = counts.median() if counts is not None else None
    if len(x) > 1 and float(x.max()) != float(x.min()) and x.dtype.kind in "iu":
        # whole numbers: the serial sums exact about the exact mean (one pass)
        middle = float(np.median(x)) if median is None else median
        serial = exact_sums(x, middle, summed_lags(len(x)))
        if serial is not None:
            n, mean = len(x), float(x.mean())
            return [
                ljung_box_of(serial.sums, n, level, max(1, min(LJUNG_BOX_LAGS, n // 5))),
                runs_test_of(*serial.run_counts, level),
                kpss_check(
                    *kpss_of(
                        serial.sums,
                        n,
                        lambda lags, known: lagged_products(x, mean, lags, known),
                        lambda: serial.eta,
                    ),
                    level,
                ),
                halves_ks(x, level, unit, counts),
            ]
    products = None
    if len(x) and float(x.max()) != float(x.min()):  # one pass for Ljung–Box and KPSS
        products = lagged_products(x, float(x.mean()), summed_lags(len(x)))
    return [
        ljung_box(x, level, products=products),
        runs_test(x, level, median),
        kpss_level(x, level, products),
        halves_ks(x, level, unit, counts),
    ]


def streamed_iid_checks(
    n: int,
    constant: bool,
    mean: float,
    median: float,
    counts: Callable[[], HalfCounts],
    maxima: tuple[int, int],
    batches: Callable[[], Iterable[np.ndarray]],
    alpha: float = ALPHA,
    unit: str = "",
    serial: SerialSums | None = None,
) -> list[Check]:
    """:func:`iid_checks` of a long series of whole numbers (more than KS_COUNTS_FROM) read
    in order from ``batches`` — its serial sums (:class:`SerialSums`) in one pass, a second
    only when KPSS's bandwidth asks for more lags — from its length, mean, median (that of
    :meth:`HalfCounts.median`), halves' counts (asked for after the pass: they may be
    counted in it) and maxima: the same tests on the same sums, in memory bounded by a
    batch. ``serial``: the sums when the caller has them (exact, gathered in the pass that
    counted the series: :class:`latmon.tail.serial.SerialMoments`): no pass then."""
    level = alpha / 4
    if n <= KS_COUNTS_FROM:
        raise ValueError(f"{n} samples: read a series this short whole (iid_checks)")
    if constant:
        return [  # as iid_checks answers for a constant series
            Check(CHECK_NAMES[0], False, "the series is constant: nothing to test"),
            runs_test_of(0, 0, 1, level),
            Check(CHECK_NAMES[2], True, "the series is constant", 0.0, 1.0, level),
            halves_ks_of(counts(), n, *maxima, level, unit),
        ]
    h = max(1, min(LJUNG_BOX_LAGS, n // 5))
    sums = serial if serial is not None else SerialSums(mean, median, summed_lags(n))
    if serial is None:
        sums.add_all(batches())

    def more(lags: int, known: np.ndarray) -> np.ndarray:
        again = SerialSums(mean, median, lags).add_all(batches())
        out = again.sums.copy()
        out[: len(known)] = known
        return out

    return [
        ljung_box_of(sums.sums, n, level, h),
        runs_test_of(*sums.run_counts, level),
        kpss_check(*kpss_of(sums.sums, n, more, lambda: sums.eta), level),
        halves_ks_of(counts(), n, *maxima, level, unit),
    ]
