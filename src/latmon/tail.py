"""Probabilistic worst case: extreme-value analysis of a latency tail (docs/tail.md).

A maximum observed in n samples says nothing about one event in 10⁹. Measurement-based
probabilistic timing analysis fits an extreme-value model to the tail and reports the latency
exceeded with a stated probability per activation (the pWCET) — but only for samples that are
fit for it. This module does both, in this order:

1. **Validity checks** on the series in time order, one family at significance ``alpha``
   (Bonferroni: each of the four tests at ``alpha / 4``, so perfectly i.i.d. data are refused
   at most ``alpha`` of the time):

   - independence: Ljung–Box on the autocorrelations (statsmodels) and the Wald–Wolfowitz runs
     test above/below the median;
   - identical distribution: KPSS level stationarity (statsmodels) and the two-sample
     Kolmogorov–Smirnov test between the first and the second half;
   - enough exceedances above the selected threshold (and blocks for the block maxima);
   - the sign of the shape parameter ξ: a tail shown to be heavy (the ξ confidence interval
     lies above 0) has no upper bound and its quantiles grow as a power of 1/p; no number is
     given for it.

2. **Two fits** by maximum likelihood:

   - peaks over threshold (POT): the excesses over a threshold u follow a generalised Pareto
     distribution GPD(σ, ξ); u is chosen among high quantiles as the lowest one whose ξ agrees
     with the ξ at every higher candidate (parameter stability, automated); the pWCET at p is
     x_p = u + σ/ξ ((ζ/p)^ξ - 1), ζ the fraction of samples above u;
   - block maxima: the maxima of blocks of b samples follow a GEV(μ, σ, ξ); the pWCET at p per
     activation is the GEV quantile at (1 - p)^b.

   Confidence intervals of ξ and of every quantile are **profile likelihood** intervals (Coles
   2001, §2.6.6, §4.3.3), which are not symmetric and follow the likelihood far into the tail,
   where the normal (delta-method) interval is known to be poor. The exceedance rate ζ is taken
   as known (its binomial error is small against the shape's).

Samples must be in time order: a histogram has no order, so histogram-only series get no
pWCET (a reason says so).
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import ParamSpec, TypeVar

import numpy as np
from scipy import optimize
from scipy import stats as sps

from latmon.errors import LatmonError
from latmon.model import Series
from latmon.tables import fmt

#: Probabilities per activation at which the pWCET is given by default.
PROBABILITIES: tuple[float, ...] = (1e-6, 1e-9, 1e-12)
#: Family-wise significance of the four i.i.d. tests.
ALPHA = 0.05
#: Confidence of the profile-likelihood intervals.
CONFIDENCE = 0.95
#: Fewest exceedances a POT fit accepts, and fewest blocks a GEV fit accepts.
MIN_EXCEEDANCES = 50
MIN_BLOCKS = 30
#: Fewest distinct values among the exceedances (a tail quantised to a few values cannot be
#: fitted by a continuous model).
MIN_DISTINCT = 10
#: Candidate thresholds: the lowest leaves EXCEEDANCES_PER_ROOT · √n samples above it, each
#: next one THRESHOLD_STEP times fewer, down to MIN_EXCEEDANCES. A lower threshold gives more
#: exceedances but a tail that is not yet GPD: a Gumbel-domain tail such as the lognormal looks
#: bounded (ξ < 0) over its top 20 % and the extrapolation falls short; with about 3√n the
#: profile intervals cover the true 1e-6 quantile (docs/tail.md has the measured coverage).
EXCEEDANCES_PER_ROOT = 3.0
THRESHOLD_STEP = 1.5
#: Family confidence of the threshold-stability comparisons (see select_threshold).
STABILITY_CONFIDENCE = 0.99
#: Autocorrelation lags of the Ljung–Box test (fewer when n < 5 · LJUNG_BOX_LAGS).
LJUNG_BOX_LAGS = 20
#: The shape parameter is searched in this range: below -1 the GPD/GEV likelihood is
#: unbounded (Smith 1985); above 2 the mean of a tail does not even exist and nothing sensible
#: can be extrapolated.
XI_MIN = -0.99
XI_MAX = 2.0
#: Half-width of the ξ bracket searched first around the ξ of the previous profile point.
PROFILE_XI_STEP = 0.15
#: Below this |ξ| the exponential (GPD) or Gumbel (GEV) limit is used.
XI_ZERO = 1e-7
#: The heavy-tail screen: a light tail (ξ ≤ 0) is rejected by a one-sided likelihood-ratio
#: test at this level; the tail then gets no pWCET (a one-sided 5 % test refuses ξ = 0.2 in
#: about 96 % of 20,000-sample series, where the two-sided 95 % interval's lower end above 0
#: refused ξ = 0.25 in 90 %).
HEAVY_LEVEL = 0.05
#: The held-out check: the fit on the first half of the samples predicts how many of the
#: second half exceed its quantiles at these expected counts (p = count / samples held out).
HELD_OUT_COUNTS = (5, 20)
#: Significance of the held-out check (Bonferroni over its levels).
HELD_OUT_ALPHA = 0.05
#: The refit on the first half needs at least this many exceedances (POT) or blocks (block
#: maxima): half of what the fit itself needs, so that every series long enough for a fit
#: (278 samples: 50 exceedances) is long enough for its check.
HELD_OUT_MIN_EXCEEDANCES = 20
HELD_OUT_MIN_BLOCKS = MIN_BLOCKS // 2

#: Reasons a fit is refused or a check fails, as short keys (JSON) with one line of text.
CHECK_NAMES = (
    "independence: Ljung-Box",
    "independence: runs test",
    "identical distribution: KPSS",
    "identical distribution: KS halves",
)


@dataclass(frozen=True)
class Check:
    """One validity check: passed, with its statistic, p-value and one line that explains."""

    name: str
    passed: bool
    detail: str
    statistic: float | None = None
    p_value: float | None = None
    #: The significance the p-value is compared with (None for checks without a p-value).
    level: float | None = None

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "passed": self.passed,
            "statistic": self.statistic,
            "p_value": self.p_value,
            "level": self.level,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Quantile:
    """The latency exceeded with probability ``probability`` per activation, with its
    profile-likelihood interval (``high`` is inf when the likelihood does not bound it)."""

    probability: float
    estimate: float
    low: float
    high: float

    def as_dict(self, factor: float = 1.0, deadline: float | None = None) -> dict[str, object]:
        """JSON: values times ``factor`` (a unit change); with a deadline (in the values'
        own unit), ``verdict`` is pass when the interval's upper end is within it."""
        out: dict[str, object] = {
            "probability": self.probability,
            "estimate": self.estimate * factor,
            "ci": [self.low * factor, _finite_or_none(self.high * factor)],
        }
        if deadline is not None:
            out["verdict"] = "pass" if self.high <= deadline else "FAIL"
        return out


P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def _quiet_numerics() -> Iterator[None]:
    """The likelihood is inf outside the support, and optimisers step there: no warnings."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def _quiet(func: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with _quiet_numerics():
            return func(*args, **kwargs)

    return wrapper


def _finite_or_none(v: float) -> float | None:
    return v if math.isfinite(v) else None


# --- validity checks ----------------------------------------------------------------------


#: The checks read the series in chunks of this many samples: their memory does not grow
#: with the series (a 10⁸-sample series is 800 MB; an FFT of it, as statsmodels' acf does,
#: needed 13 times that).
CHUNK = 1 << 20
#: Above this many samples the two halves' KS distance is computed from their value counts
#: (both halves > 10,000: scipy's asymptotic p-value, the same formula) instead of by sorting.
KS_COUNTS_FROM = 100_000
#: The value counts have at most this many bins (8 bytes each, per half).
COUNT_BINS = 1 << 22


def _chunks(n: int, overlap: int = 0) -> Iterator[tuple[int, int, int]]:
    """(start, stop, stop + overlap clipped to n) of consecutive chunks."""
    for start in range(0, n, CHUNK):
        stop = min(start + CHUNK, n)
        yield start, stop, min(stop + overlap, n)


def lagged_products(
    x: np.ndarray, mean: float, lags: int, known: np.ndarray | None = None
) -> np.ndarray:
    """Σ_t (x_t - mean)(x_{t+k} - mean) for k = 0..lags, in chunks; the lags in ``known``
    (the same sums for lags 0..len(known)-1) are not summed again. (einsum, not np.dot: a
    BLAS dot product spins its threads on a busy machine, ten times slower here.)"""
    first = 0 if known is None else len(known)
    out = np.zeros(lags + 1)
    if known is not None:
        out[: min(first, lags + 1)] = known[: lags + 1]
    if first > lags:
        return out
    for start, stop, ahead in _chunks(len(x), lags):
        a = np.asarray(x[start:stop], dtype=np.float64) - mean
        b = np.asarray(x[start:ahead], dtype=np.float64) - mean
        for k in range(first, lags + 1):
            m = min(len(a), len(b) - k)
            if m > 0:
                out[k] += float(np.einsum("i,i->", a[:m], b[k : k + m]))
    return out


def _kpss_covlags(n: int) -> int:
    """The autocovariances the KPSS bandwidth rule starts from (Hobijn et al. 1998)."""
    return int(n ** (2.0 / 9.0))


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
    r = c[1 : h + 1] / c[0]
    q = float(n * (n + 2) * np.sum(r * r / (n - np.arange(1, h + 1))))
    p = float(sps.chi2.sf(q, h))
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
    for start, stop, _ in _chunks(len(x)):
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
    if n1 < 2 or n2 < 2:
        return Check(CHECK_NAMES[1], False, "too few samples on one side of the median", None)
    runs = 1 + changes
    n = n1 + n2
    mean = 2.0 * n1 * n2 / n + 1.0
    var = 2.0 * n1 * n2 * (2.0 * n1 * n2 - n) / (n * n * (n - 1.0))
    z = (runs - mean) / math.sqrt(var)
    p = float(2 * sps.norm.sf(abs(z)))
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
    s0 = c[0] / n
    s1 = 0.0
    for i in range(1, covlags + 1):
        product = c[i] / (n / 2.0)
        s0 += product
        s1 += i * product
    ratio = s1 / s0
    lags = min(int(1.1447 * (ratio * ratio) ** (1.0 / 3.0) * n ** (1.0 / 3.0)), n - 1)
    if lags > covlags:
        c = lagged_products(x, mean, lags, c)
    s_hat = (c[0] + sum(2 * c[i] * (1.0 - i / (lags + 1.0)) for i in range(1, lags + 1))) / n
    eta, carry = 0.0, 0.0
    for start, stop, _ in _chunks(n):
        partial = np.cumsum(np.asarray(x[start:stop], dtype=np.float64) - mean) + carry
        eta += float(np.dot(partial, partial))
        carry = float(partial[-1])
    stat = eta / (n * n) / s_hat
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
    stat, p, lags = kpss_statistic(x, products)
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
            for start, stop, _ in _chunks(len(part)):
                c += np.bincount((part[start:stop] - low) // width, minlength=bins)
            counts.append(c)
        return cls(low, width, counts[0], counts[1])

    def median(self) -> float:
        """The median (the mean of the two middle values, as numpy's); with bins wider than
        1, the lower edge of the bin that holds it."""
        total = self.first + self.second
        n = int(total.sum())
        cumulative = np.cumsum(total)
        lower = int(np.searchsorted(cumulative, (n - 1) // 2 + 1))
        upper = int(np.searchsorted(cumulative, n // 2 + 1))
        return self.low + self.width * (lower + upper) / 2

    def ks(self) -> float:
        """max |F₁ - F₂| over the bin edges (every value when the width is 1)."""
        f1 = np.cumsum(self.first) / max(int(self.first.sum()), 1)
        f2 = np.cumsum(self.second) / max(int(self.second.sum()), 1)
        return float(np.max(np.abs(f1 - f2)))


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
        result = sps.ks_2samp(first, second)
        d, p = float(result.statistic), float(result.pvalue)
        medians = float(np.median(first)), float(np.median(second))
    else:
        d = counts.ks()
        en = half * (len(x) - half) / len(x)
        p = float(sps.kstwo.sf(d, round(en)))
        medians = (
            HalfCounts(counts.low, counts.width, counts.first, 0 * counts.first).median(),
            HalfCounts(counts.low, counts.width, 0 * counts.second, counts.second).median(),
        )
    passed = p >= level
    suffix = f" {unit}" if unit else ""
    detail = (
        f"D = {d:.4f}; medians {fmt(medians[0])} and "
        f"{fmt(medians[1])}{suffix}, maxima {fmt(int(first.max()))} and "
        f"{fmt(int(second.max()))}{suffix}"
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
    c = HalfCounts.of(x)
    total = c.first + c.second
    where = np.flatnonzero(total)
    return c.low + c.width * where, total[where]


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
    products = None
    if len(x) and float(x.max()) != float(x.min()):  # one pass for Ljung–Box and KPSS
        lags = max(min(LJUNG_BOX_LAGS, len(x) // 5, len(x) - 1), _kpss_covlags(len(x)))
        products = lagged_products(x, float(x.mean()), min(lags, len(x) - 1))
    return [
        ljung_box(x, level, products=products),
        runs_test(x, level, median),
        kpss_level(x, level, products),
        halves_ks(x, level, unit, counts),
    ]


# --- generalised Pareto (peaks over threshold) --------------------------------------------


def gpd_nll(sigma: float, xi: float, y: np.ndarray, tick: float = 0.0) -> float:
    """Negative log-likelihood of GPD(σ, ξ) for excesses y ≥ 0 (inf outside the support).

    With ``tick`` h > 0 the excesses are measured on a grid: each y (a multiple of h, at least
    h) stands for a true excess somewhere in [y - h, y) and contributes the probability of that
    cell, S(y - h) - S(y) with S the GPD survival function (an interval-censored likelihood,
    see :func:`fit_pot` for how the cells are placed). A continuous density on tied values
    would see an atom at every grid value and no mass below the first one: on a 1 µs grid it
    fitted a bounded tail far below the truth."""
    if not sigma > 0:
        return math.inf
    k = len(y)
    if tick > 0:
        return _gpd_censored_nll(sigma, xi, y, tick)
    if abs(xi) < XI_ZERO:
        return k * math.log(sigma) + float(y.sum()) / sigma
    t = xi * y / sigma
    if xi < 0 and float(t.min()) <= -1.0:
        return math.inf
    return k * math.log(sigma) + (1.0 + 1.0 / xi) * float(np.log1p(t).sum())


def _gpd_censored_nll(sigma: float, xi: float, y: np.ndarray, tick: float) -> float:
    """-Σ log(S(y - h) - S(y)), computed as log S(y - h) + log(1 - S(y)/S(y - h)) so that a
    cell much narrower than σ keeps its precision."""
    k = len(y)
    if abs(xi) < XI_ZERO:  # S(t) = exp(-t/σ): every cell has the factor 1 - exp(-h/σ)
        return float(y.sum() - k * tick) / sigma - k * math.log(-math.expm1(-tick / sigma))
    if xi < 0 and xi * (float(y.max()) - tick) / sigma <= -1.0:
        return math.inf  # a cell that starts at or beyond the endpoint has no probability
    log_low = -np.log1p(xi * (y - tick) / sigma) / xi
    # beyond a bounded tail's endpoint S = 0: log1p(-1) = -inf gives log S = -inf
    log_high = -np.log1p(np.maximum(xi * y / sigma, -1.0)) / xi
    return -float(log_low.sum() + np.log(-np.expm1(log_high - log_low)).sum())


#: How a value y recorded on a grid of tick h stands for the true latency: "round" — the
#: true value lies in [y - h/2, y + h/2) (a cycle counter, a value rounded for printing);
#: "floor" — in [y, y + h) (a tool that truncates, as cyclictest does when it divides ns by
#: 1000). The value is the part of the cell below y, in ticks.
QUANTISATION = {"round": 0.5, "floor": 0.0}


def data_tick(values: np.ndarray, declared: int = 1) -> int:
    """The grid the values lie on: the greatest common divisor of their distances to the
    smallest one (0 for values that are not whole numbers: a continuous sample). The run's
    recorded resolution (``declared``) is the finest the grid can be; values recorded finer
    than their grid (whole ns that are all multiples of 250) get the coarser grid they show."""
    x = np.asarray(values)
    if x.size == 0:
        return max(declared, 0)
    if x.dtype.kind not in "iu":
        if not bool(np.all(np.isfinite(x))) or not bool(np.all(x == np.round(x))):
            return 0
        x = x.astype(np.int64)
    g = int(np.gcd.reduce(np.asarray(x - x.min(), dtype=np.int64)))
    if g == 0:
        return max(declared, 1)
    return g if declared <= 1 or g % declared == 0 else math.gcd(g, declared)


def gpd_pwm(y: np.ndarray) -> tuple[float, float]:
    """Probability-weighted-moment estimates (σ, ξ) (Hosking & Wallis 1987): the start of the
    likelihood search."""
    s = np.sort(y)
    k = len(s)
    a0 = float(s.mean())
    a1 = float(np.dot((k - 1 - np.arange(k)) / (k - 1), s) / k)
    denominator = a0 - 2 * a1
    if denominator <= 0:
        return a0, 0.0
    xi = 2.0 - a0 / denominator
    sigma = 2.0 * a0 * a1 / denominator
    return max(sigma, 1e-12 * a0), float(np.clip(xi, XI_MIN + 0.05, XI_MAX - 0.05))


def _sigma_for_xi(xi: float, y: np.ndarray, tick: float = 0.0) -> tuple[float, float]:
    """The σ that maximises the GPD likelihood for a fixed ξ, and the negative log-likelihood
    there."""
    ymax = float(y.max())
    mean = float(y.mean())
    low = max(-xi * (ymax - tick), 0.0) * (1 + 1e-10) + 1e-12 * mean
    high = max(100.0 * ymax, low * 10)
    result = optimize.minimize_scalar(
        lambda ls: gpd_nll(math.exp(ls), xi, y, tick),
        bounds=(math.log(low), math.log(high)),
        method="bounded",
        options={"xatol": 1e-9},
    )
    return math.exp(float(result.x)), float(result.fun)


def _maximise_1d(
    nll: Callable[[float], float], low: float, high: float, points: int = 11
) -> tuple[float, float]:
    """Minimise a 1-D function that may be inf on parts of [low, high]: a grid, then Brent's
    method around the best grid point. Returns (argmin, min). (11 points find the same
    profile intervals as 25 on the synthetic tails of the tests, in half the time.)"""
    grid = np.linspace(low, high, points)
    values = np.array([nll(float(g)) for g in grid])
    best = int(np.argmin(values))
    if not math.isfinite(values[best]):
        return float(grid[best]), math.inf
    a = float(grid[max(best - 1, 0)])
    b = float(grid[min(best + 1, points - 1)])
    result = optimize.minimize_scalar(nll, bounds=(a, b), method="bounded")
    if float(result.fun) < values[best]:
        return float(result.x), float(result.fun)
    return float(grid[best]), float(values[best])


@_quiet
def fit_gpd(y: np.ndarray, tick: float = 0.0) -> tuple[float, float, float]:
    """Maximum-likelihood (σ, ξ) of excesses y (on a grid of ``tick``: :func:`gpd_nll`), and
    the minimised negative log-likelihood.

    Nelder–Mead on (log σ, ξ) from the PWM estimate (of the cells' midpoints) and from the
    exponential fit; the better optimum wins."""
    y = np.asarray(y, dtype=np.float64)
    middle = y - tick / 2
    starts = [gpd_pwm(middle), (float(middle.mean()), 0.0)]
    best: tuple[float, float, float] | None = None

    def objective(v: np.ndarray) -> float:
        if not XI_MIN <= v[1] <= XI_MAX:
            return math.inf
        return gpd_nll(math.exp(float(v[0])), float(v[1]), y, tick)

    for sigma0, xi0 in starts:
        with np.errstate(invalid="ignore"):  # inf outside the support is expected
            result = optimize.minimize(
                objective,
                np.array([math.log(sigma0), xi0]),
                method="Nelder-Mead",
                options={"xatol": 1e-7, "fatol": 1e-9, "maxiter": 4000},
            )
        if math.isfinite(result.fun) and (best is None or result.fun < best[2]):
            best = (math.exp(float(result.x[0])), float(result.x[1]), float(result.fun))
    if best is None:
        raise LatmonError("the generalised Pareto fit did not converge")
    # polish along the profile in ξ (Nelder–Mead can stop early on a flat ridge)
    xi, nll = _maximise_1d(
        lambda x: _sigma_for_xi(x, y, tick)[1],
        max(best[1] - 0.05, XI_MIN),
        min(best[1] + 0.05, XI_MAX),
        5,
    )
    if nll < best[2]:
        best = (_sigma_for_xi(xi, y, tick)[0], xi, nll)
    return best


def gpd_quantile(u: float, sigma: float, xi: float, zeta: float, p: float) -> float:
    """x_p = u + σ/ξ ((ζ/p)^ξ - 1): the value exceeded with probability p when a fraction ζ
    of the samples exceed u (p ≤ ζ)."""
    ratio = zeta / p
    if abs(xi) < XI_ZERO:
        return u + sigma * math.log(ratio)
    return u + sigma * math.expm1(xi * math.log(ratio)) / xi


#: Below this shape the likelihood is not regular (Smith 1985): the tail has an endpoint
#: that the largest sample approaches faster than 1/√n.
XI_REGULAR = -0.5


def _chi2_limit(confidence: float, xi: float = 0.0) -> float:
    """The deviance limit of a profile-likelihood interval: the χ²₁ quantile where the
    likelihood is regular; for a bounded tail with ξ < -1/2 the χ²₂ quantile, because there
    the quantiles near the endpoint are estimated like the endpoint itself, whose likelihood
    ratio tends to twice an exponential, χ²₂ (exactly so for the uniform, ξ = -1); with χ²₁
    the interval would end a few resolution steps above the largest sample and miss the true
    endpoint about one time in six (measured: docs/tail.md)."""
    return float(sps.chi2.ppf(confidence, 2 if xi < XI_REGULAR else 1))


def _profile_bounds(
    deviance: Callable[[float], float],
    estimate: float,
    limit: float,
    floor: float,
    scale: float,
) -> tuple[float, float]:
    """The interval {θ : deviance(θ) ≤ limit} around ``estimate`` (deviance 0 there), for a
    parameter above ``floor``.

    Each side marches outward from the estimate on the signed root deviance r(θ), which is
    close to linear in θ (exactly so for a normal likelihood): every next point is the linear
    extrapolation of r to √limit, between one and eight times the last step; then Brent's
    method between the last two points. About seven deviances a side, where doubling steps
    and a root finder on the deviance itself took fifteen. The upper side is inf when the
    deviance stays below the limit out to 10¹² · scale; the lower one is ``floor`` when it
    stays below it down there."""
    target = math.sqrt(limit)
    known: dict[float, float] = {}  # each θ evaluated once: the bracket's signs stay as found

    def root(theta: float) -> float:
        if theta not in known:
            d = deviance(theta)
            known[theta] = math.sqrt(max(d, 0.0)) if math.isfinite(d) else 1e6
        return known[theta]

    def bound(direction: float) -> float:
        previous, r_previous, step = estimate, 0.0, scale
        for _ in range(80):
            candidate = previous + direction * step
            if direction < 0 and candidate <= floor + (previous - floor) * 1e-3:
                candidate = floor + (previous - floor) * 1e-3  # approach the floor, never reach
            r = root(candidate)
            if r >= target:
                if root(previous) >= target:  # the profile failed nearer in: the outer point
                    return candidate
                a, b = sorted((previous, candidate))
                return float(
                    optimize.brentq(
                        lambda t: root(t) - target, a, b, xtol=1e-7 * abs(candidate) + 1e-12
                    )
                )
            moved = abs(candidate - previous)
            if direction < 0 and candidate - floor <= 1e-12 * scale:
                return floor
            if direction > 0 and candidate - estimate > 1e12 * scale:
                return math.inf
            slope = (r - r_previous) / moved if moved > 0 else 0.0
            ahead = 1.1 * (target - r) / slope if slope > 0 else 2.0 * moved
            previous, r_previous, step = candidate, r, min(max(ahead, moved), 8.0 * moved)
        return math.inf if direction > 0 else floor

    return bound(-1.0), bound(1.0)


@dataclass
class GpdFit:
    """A generalised Pareto fit of the excesses over ``threshold``."""

    threshold: float
    #: Samples above the threshold, and the fraction ζ they are of all samples.
    exceedances: int
    rate: float
    sigma: float
    xi: float
    nll: float
    xi_ci: tuple[float, float]
    excesses: np.ndarray = field(repr=False)
    confidence: float = CONFIDENCE
    #: The grid of the samples (0: continuous) and where the true latency's threshold lies
    #: above the recorded one: a value recorded above ``threshold`` is a true latency above
    #: threshold + offset (:func:`fit_pot`).
    tick: float = 0.0
    offset: float = 0.0
    #: The negative log-likelihood with ξ held at 0 (the test of a light tail).
    light_nll: float = math.nan

    @property
    def start(self) -> float:
        """The threshold of the true latencies: exceeded with probability ``rate``."""
        return self.threshold + self.offset

    def quantile(self, p: float) -> float:
        return gpd_quantile(self.start, self.sigma, self.xi, self.rate, p)

    def _profile_nll(self, xp: float, p: float, xi_low: float, xi_high: float) -> float:
        """min over ξ of the negative log-likelihood with x_p held at ``xp``."""
        excess = xp - self.start
        if excess <= 0:
            return math.inf
        log_ratio = math.log(self.rate / p)
        y = self.excesses
        tick = self.tick

        def nll(xi: float) -> float:
            if abs(xi) < XI_ZERO:
                sigma = excess / log_ratio
            else:
                sigma = excess * xi / math.expm1(xi * log_ratio)
            return gpd_nll(sigma, xi, y, tick)

        return _maximise_1d(nll, xi_low, xi_high)[1]

    @_quiet
    def quantile_ci(self, p: float) -> Quantile:
        """The profile-likelihood interval of x_p at the fit's confidence."""
        estimate = self.quantile(p)
        limit = _chi2_limit(self.confidence, self.xi)
        # the profile maximum over ξ lies well inside ξ's own interval widened a little
        width = max(self.xi_ci[1] - self.xi_ci[0], 0.05)
        xi_low = max(XI_MIN, self.xi_ci[0] - width)
        xi_high = min(XI_MAX, self.xi_ci[1] + width)

        def deviance(xp: float) -> float:
            return 2.0 * (self._profile_nll(xp, p, xi_low, xi_high) - self.nll)

        scale = max(estimate - self.start, self.sigma) * 0.05
        low, high = _profile_bounds(deviance, estimate, limit, self.start, scale)
        return Quantile(p, estimate, low, high)


def _xi_profile_ci(
    profile_nll: Callable[[float], float], xi_hat: float, nll_hat: float, confidence: float
) -> tuple[float, float]:
    """The profile-likelihood interval of ξ, clipped to [XI_MIN, XI_MAX]."""
    limit = _chi2_limit(confidence)

    def excess(xi: float) -> float:
        return 2.0 * (profile_nll(xi) - nll_hat) - limit

    def bound(edge: float) -> float:
        step = 0.02 if edge > xi_hat else -0.02
        previous = xi_hat
        while True:
            candidate = xi_hat + step
            if (step > 0 and candidate >= edge) or (step < 0 and candidate <= edge):
                candidate = edge
            if excess(candidate) > 0:
                a, b = sorted((previous, candidate))
                return float(optimize.brentq(excess, a, b, xtol=1e-6))
            if candidate == edge:
                return edge
            previous = candidate
            step *= 2

    return bound(XI_MIN), bound(XI_MAX)


def grid_excesses(
    above: np.ndarray, threshold: float, tick: float, quantisation: str = "round"
) -> tuple[np.ndarray, float]:
    """The excesses of the recorded values ``above`` a threshold, as the likelihood takes
    them, and the offset of the true latencies' threshold.

    Continuous (tick 0): y - threshold, offset 0. On a grid of tick h: the recorded values
    above the threshold are those from g, the first grid value above it; the cell of a value
    y spans [y - c h, y - c h + h) (c from :data:`QUANTISATION`), so "recorded above the
    threshold" means "true latency at least g - c h", and each excess is counted in the cells
    [0, h), [h, 2h), ... above that point: y - g + h, a multiple of h, with the offset
    g - c h - threshold."""
    if tick <= 0:
        return above - threshold, 0.0
    lowest = float(above.min())
    first = lowest - tick * (math.ceil((lowest - threshold) / tick) - 1)
    start = first - QUANTISATION[quantisation] * tick
    return above - first + tick, start - threshold


@_quiet
def fit_pot(
    values: np.ndarray,
    threshold: float,
    confidence: float = CONFIDENCE,
    tick: float | None = None,
    quantisation: str = "round",
    n: int | None = None,
) -> GpdFit | None:
    """A GPD fit of the samples above ``threshold``, or None when there are fewer than two
    distinct excesses. ``tick``: the grid of the samples (None: found in the samples above
    the threshold by :func:`data_tick`; 0: continuous), each value standing for its cell as
    ``quantisation`` says (:func:`grid_excesses`). ``n``: the values are the largest of a
    series of n samples (all those above the threshold among them)."""
    x = np.asarray(values)
    above = np.asarray(x[x > threshold], dtype=np.float64)
    if len(np.unique(above)) < 2:
        return None
    if tick is None:
        tick = float(data_tick(x[x > threshold]))
    excesses, offset = grid_excesses(above, threshold, tick, quantisation)
    sigma, xi, nll = fit_gpd(excesses, tick)
    xi_ci = _xi_profile_ci(lambda v: _sigma_for_xi(v, excesses, tick)[1], xi, nll, confidence)
    return GpdFit(
        threshold=threshold,
        exceedances=len(excesses),
        rate=len(excesses) / (len(x) if n is None else n),
        sigma=sigma,
        xi=xi,
        nll=nll,
        xi_ci=xi_ci,
        excesses=excesses,
        confidence=confidence,
        tick=tick,
        offset=offset,
        light_nll=_sigma_for_xi(0.0, excesses, tick)[1],
    )


@dataclass(frozen=True)
class StabilityPoint:
    """Parameter-stability diagnostic at one candidate threshold: ξ and the modified scale
    σ* = σ_u - ξ u (both constant above a threshold where the GPD holds), with standard errors
    from the GPD's Fisher information (Coles 2001, §4.3.4). The standard error of ξ is the
    conservative max(1, 1 + ξ)/√k: the information at ξ = 0 for a bounded tail (below
    ξ = -1/2 the Fisher information does not apply, and (1 + ξ)/√k would claim a precision
    the estimate does not have), the information at ξ for a heavier one."""

    quantile: float
    threshold: float
    exceedances: int
    xi: float
    xi_se: float
    modified_scale: float
    modified_scale_se: float

    def as_dict(self, factor: float = 1.0) -> dict[str, float | int]:
        return {
            "quantile": self.quantile,
            "threshold": self.threshold * factor,
            "exceedances": self.exceedances,
            "xi": self.xi,
            "xi_se": self.xi_se,
            "modified_scale": self.modified_scale * factor,
            "modified_scale_se": self.modified_scale_se * factor,
        }


def threshold_candidates(
    values: np.ndarray, min_exceedances: int, n: int | None = None
) -> list[tuple[float, float]]:
    """(quantile, threshold) of every candidate, lowest first: thresholds are measured values
    with from EXCEEDANCES_PER_ROOT · √n down to ``min_exceedances`` samples, and at least
    ``MIN_DISTINCT`` distinct values, above them. ``n``: the values are the largest of a
    series of n samples (:func:`tail_pool`), not the whole series."""
    x = np.sort(np.asarray(values))
    total = len(x) if n is None else n
    out: list[tuple[float, float]] = []
    k = EXCEEDANCES_PER_ROOT * math.sqrt(total)
    while round(k) >= min_exceedances and round(k) < len(x):
        u = float(x[len(x) - round(k) - 1])
        above = x[np.searchsorted(x, u, side="right") :]
        new = not out or u > out[-1][1]
        if new and len(above) >= min_exceedances and len(np.unique(above)) >= MIN_DISTINCT:
            out.append((1 - len(above) / total, u))
        k /= THRESHOLD_STEP
    return out


@_quiet
def stability(
    values: np.ndarray,
    min_exceedances: int = MIN_EXCEEDANCES,
    tick: float = 0.0,
    quantisation: str = "round",
    n: int | None = None,
) -> list[StabilityPoint]:
    """ξ and σ* at every candidate threshold (on a grid of ``tick``: :func:`fit_pot`;
    ``n``: the values are the largest of n, :func:`threshold_candidates`)."""
    x = np.asarray(values, dtype=np.float64)
    points = []
    for q, u in threshold_candidates(x, min_exceedances, n):
        y, offset = grid_excesses(x[x > u], u, tick, quantisation)
        sigma, xi, _ = fit_gpd(y, tick)
        k = len(y)
        # inverse Fisher information of the GPD (valid for ξ > -1/2): Var ξ = (1+ξ)²/k,
        # Var σ = 2σ²(1+ξ)/k, Cov = -σ(1+ξ)/k; with 1 + ξ raised to at least 1 (see above)
        one = max(1.0 + xi, 1.0)
        var_xi = one * one / k
        var_sigma = 2.0 * sigma * sigma * one / k
        cov = -sigma * one / k
        var_star = var_sigma - 2.0 * (u + offset) * cov + (u + offset) ** 2 * var_xi
        start = u + offset
        points.append(
            StabilityPoint(q, u, k, xi, math.sqrt(var_xi), sigma - xi * start, math.sqrt(var_star))
        )
    return points


def select_threshold(
    points: Sequence[StabilityPoint], confidence: float = STABILITY_CONFIDENCE
) -> int:
    """Index of the lowest candidate whose ξ agrees with ξ at every higher candidate: the
    parameter-stability plot, automated.

    Under a GPD above the lower threshold u_j the estimate at a higher u_h uses a subset of
    the same excesses, and ξ̂_h - ξ̂_j has the variance v_h - v_j of nested efficient
    estimators, v = c/k with c = max(1, 1 + ξ̂_j)² (the conservative information of
    :class:`StabilityPoint`, taken at the lower candidate for both). A difference beyond
    z · √(v_h - v_j) says that u_j is not yet in the tail. The comparisons of one candidate
    are one family (Bonferroni) at ``confidence``, which is high (0.99) on purpose: every move
    away from the lowest candidate is a choice made with the same data the interval then
    treats as given, and moves on noise cost coverage (docs/tail.md has the measurements);
    a tail that is not yet GPD at the lowest candidate — a rare slow path above a fast one —
    still moves it."""
    for i, low in enumerate(points):
        family = max(len(points) - 1 - i, 1)
        z = float(sps.norm.ppf(1 - (1 - confidence) / (2 * family)))
        c = max(1.0, 1.0 + low.xi) ** 2
        if all(
            abs(high.xi - low.xi)
            <= z * math.sqrt(max(c * (1 / high.exceedances - 1 / low.exceedances), 1e-12))
            for high in points[i + 1 :]
        ):
            return i
    return len(points) - 1


@dataclass(frozen=True)
class MeanExcess:
    """Mean residual life: the mean excess over u with a normal interval, linear in u (slope
    ξ / (1 - ξ)) above a threshold where the GPD holds."""

    threshold: np.ndarray
    mean_excess: np.ndarray
    low: np.ndarray
    high: np.ndarray
    exceedances: np.ndarray


def mean_residual_life(
    values: np.ndarray,
    points: int = 60,
    confidence: float = CONFIDENCE,
    median: float | None = None,
) -> MeanExcess:
    """The mean excess at ``points`` thresholds from the median to the value with 10 samples
    above it, summed in chunks (``median``: the series' median when the caller knows it)."""
    x = np.asarray(values)
    n = len(x)
    middle = float(np.median(x)) if median is None else median
    top = float(np.partition(tail_pool(x, 10, keep=10), 0)[0]) if n > 10 else float(x.min())
    thresholds = np.unique(np.linspace(middle, top, points))
    z = float(sps.norm.ppf(0.5 + confidence / 2))
    m = len(thresholds)
    # per value: how many thresholds lie below it; sums of (x - middle) and its square per
    # count, then from the top down: the sums over the values above each threshold
    count = np.zeros(m + 1)
    total = np.zeros(m + 1)
    square = np.zeros(m + 1)
    for start, stop, _ in _chunks(n):
        chunk = np.asarray(x[start:stop], dtype=np.float64)
        below = np.searchsorted(thresholds, chunk, side="left")
        centred = chunk - middle
        count += np.bincount(below, minlength=m + 1)
        total += np.bincount(below, weights=centred, minlength=m + 1)
        square += np.bincount(below, weights=centred * centred, minlength=m + 1)
    # values above threshold j: those with more than j thresholds below them
    above_count = np.cumsum(count[::-1])[::-1][1:]
    above_sum = np.cumsum(total[::-1])[::-1][1:]
    above_square = np.cumsum(square[::-1])[::-1][1:]
    means, lows, highs, counts = [], [], [], []
    for j, u in enumerate(thresholds):
        k = int(above_count[j])
        counts.append(k)
        if k < 2:
            means.append(math.nan)
            lows.append(math.nan)
            highs.append(math.nan)
            continue
        mean = above_sum[j] / k + middle - u
        var = max((above_square[j] - above_sum[j] ** 2 / k) / (k - 1), 0.0)
        half = z * math.sqrt(var / k)
        means.append(mean)
        lows.append(mean - half)
        highs.append(mean + half)
    return MeanExcess(
        thresholds, np.array(means), np.array(lows), np.array(highs), np.array(counts)
    )


# --- generalised extreme value (block maxima) ---------------------------------------------


def gev_nll(mu: float, sigma: float, xi: float, m: np.ndarray) -> float:
    """Negative log-likelihood of GEV(μ, σ, ξ) for block maxima m (inf outside the support)."""
    if not sigma > 0:
        return math.inf
    s = (m - mu) / sigma
    if abs(xi) < XI_ZERO:
        return len(m) * math.log(sigma) + float(s.sum()) + float(np.exp(-s).sum())
    t = 1.0 + xi * s
    if float(t.min()) <= 0:
        return math.inf
    log_t = np.log(t)
    return (
        len(m) * math.log(sigma)
        + (1.0 + 1.0 / xi) * float(log_t.sum())
        + float(np.exp(-log_t / xi).sum())
    )


def gev_quantile(mu: float, sigma: float, xi: float, y: float) -> float:
    """z with G(z) = exp(-y), i.e. the level a block maximum exceeds with probability
    1 - exp(-y): z = μ - σ/ξ (1 - y^-ξ)."""
    if abs(xi) < XI_ZERO:
        return mu - sigma * math.log(y)
    return mu + sigma * math.expm1(-xi * math.log(y)) / xi


def block_maxima(values: np.ndarray, block: int) -> np.ndarray:
    """Maxima of consecutive blocks of ``block`` samples (an incomplete last block is left
    out)."""
    x = np.asarray(values)
    blocks = len(x) // block
    return np.asarray(x[: blocks * block].reshape(blocks, block).max(axis=1), dtype=np.float64)


def default_block_size(n: int) -> int:
    """√n samples per block (as many blocks as samples per block), at least 10."""
    return max(10, round(math.sqrt(n)))


def _nelder_mead(
    fun: Callable[[np.ndarray], float], starts: list[np.ndarray]
) -> tuple[np.ndarray, float]:
    best: tuple[np.ndarray, float] | None = None
    for start in starts:
        with np.errstate(invalid="ignore"):  # inf outside the support is expected
            result = optimize.minimize(
                fun,
                start,
                method="Nelder-Mead",
                options={"xatol": 1e-6, "fatol": 1e-7, "maxiter": 4000},
            )
        if math.isfinite(result.fun) and (best is None or result.fun < best[1]):
            best = (np.asarray(result.x), float(result.fun))
    if best is None:
        raise LatmonError("the GEV fit did not converge")
    return best


@dataclass
class GevFit:
    """A GEV fit of the maxima of blocks of ``block`` samples."""

    block: int
    blocks: int
    mu: float
    sigma: float
    xi: float
    nll: float
    xi_ci: tuple[float, float]
    maxima: np.ndarray = field(repr=False)
    confidence: float = CONFIDENCE
    #: The negative log-likelihood with ξ held at 0 (the test of a light tail).
    light_nll: float = math.nan

    def _y(self, p: float) -> float:
        # per activation p -> per block: 1 - (1-p)^b = 1 - exp(-y), y = -b log(1-p)
        return -self.block * math.log1p(-p)

    def quantile(self, p: float) -> float:
        return gev_quantile(self.mu, self.sigma, self.xi, self._y(p))

    def _profile_nll(self, z: float, y: float, hint: float | None = None) -> tuple[float, float]:
        """min over (σ, ξ) of the negative log-likelihood with the quantile held at z, and the
        ξ where it is reached: for each ξ, μ = z - σ c(ξ) with c = (y^-ξ - 1)/ξ, and the
        support 1 + ξ(m - μ)/σ > 0 becomes σ > ξ (z - m) y^ξ for every maximum m, a lower
        bound for a 1-D search in σ. With ``hint`` (the ξ of a nearby z) Brent's method within
        ±PROFILE_XI_STEP of it first; a grid over ξ's whole range when the minimum is not
        inside that bracket."""
        m = self.maxima
        log_y = math.log(y)
        m_low, m_high = float(m.min()), float(m.max())

        def nll_xi(xi: float) -> float:
            c = -log_y if abs(xi) < XI_ZERO else math.expm1(-xi * log_y) / xi
            edge = max(xi * (z - m_low), xi * (z - m_high), 0.0) * math.exp(xi * log_y)
            low = edge * (1 + 1e-9) + 1e-9 * self.sigma
            high = max(low, self.sigma) * 1e3

            def nll_sigma(log_sigma: float) -> float:
                sigma = math.exp(log_sigma)
                return gev_nll(z - sigma * c, sigma, xi, m)

            result = optimize.minimize_scalar(
                nll_sigma, bounds=(math.log(low), math.log(high)), method="bounded"
            )
            return float(result.fun)

        width = max(self.xi_ci[1] - self.xi_ci[0], 0.05)
        xi_low = max(XI_MIN, self.xi_ci[0] - width)
        xi_high = min(XI_MAX, self.xi_ci[1] + width)
        if hint is not None:
            a = max(xi_low, hint - PROFILE_XI_STEP)
            b = min(xi_high, hint + PROFILE_XI_STEP)
            local = optimize.minimize_scalar(nll_xi, bounds=(a, b), method="bounded")
            x, value = float(local.x), float(local.fun)
            inner_edge = (x - a < 1e-3 and a > xi_low) or (b - x < 1e-3 and b < xi_high)
            if math.isfinite(value) and not inner_edge:
                return value, x
        x, value = _maximise_1d(nll_xi, xi_low, xi_high)
        return value, x

    @_quiet
    def quantile_ci(self, p: float) -> Quantile:
        estimate = self.quantile(p)
        y = self._y(p)
        limit = _chi2_limit(self.confidence, self.xi)
        hint = [self.xi]  # the ξ of the last z: the profile moves little between evaluations

        def deviance(z: float) -> float:
            value, hint[0] = self._profile_nll(z, y, hint[0])
            return 2.0 * (value - self.nll)

        scale = max(estimate - self.mu, self.sigma) * 0.05
        floor = float(self.maxima.min()) - 10 * self.sigma
        low, high = _profile_bounds(deviance, estimate, limit, floor, scale)
        return Quantile(p, estimate, low, high)


@_quiet
def fit_gev(maxima: np.ndarray, block: int, confidence: float = CONFIDENCE) -> GevFit:
    """Maximum-likelihood GEV of block maxima, with the profile interval of ξ."""
    m = np.asarray(maxima, dtype=np.float64)
    sd = float(m.std()) or 1.0
    sigma0 = math.sqrt(6) * sd / math.pi
    mu0 = float(m.mean()) - 0.5772 * sigma0

    def nll3(v: np.ndarray) -> float:
        if not XI_MIN <= v[2] <= XI_MAX:
            return math.inf
        return gev_nll(float(v[0]), math.exp(float(v[1])), float(v[2]), m)

    starts = [np.array([mu0, math.log(sigma0), xi]) for xi in (-0.1, 0.0, 0.1)]
    v, nll = _nelder_mead(nll3, starts)
    mu, sigma, xi = float(v[0]), math.exp(float(v[1])), float(v[2])

    def profile_xi(x: float) -> float:
        def nll2(w: np.ndarray) -> float:
            return gev_nll(float(w[0]), math.exp(float(w[1])), x, m)

        try:
            return _nelder_mead(nll2, [np.array([mu, math.log(sigma)])])[1]
        except LatmonError:
            return math.inf

    xi_ci = _xi_profile_ci(profile_xi, xi, nll, confidence)
    return GevFit(block, len(m), mu, sigma, xi, nll, xi_ci, m, confidence, profile_xi(0.0))


# --- the analysis of one series -----------------------------------------------------------


@dataclass
class MethodResult:
    """One method's fit (POT or block maxima), its own checks and its pWCETs (none when a
    check failed)."""

    method: str
    fit: GpdFit | GevFit | None
    checks: list[Check]
    quantiles: list[Quantile]

    @property
    def valid(self) -> bool:
        return self.fit is not None and all(c.passed for c in self.checks)

    def as_dict(self, factor: float = 1.0, deadline: float | None = None) -> dict[str, object]:
        out: dict[str, object] = {"method": self.method, "valid": self.valid}
        fit = self.fit
        if isinstance(fit, GpdFit):
            out.update(
                threshold=fit.threshold * factor,
                exceedances=fit.exceedances,
                rate=fit.rate,
                scale=fit.sigma * factor,
                shape=fit.xi,
                shape_ci=list(fit.xi_ci),
            )
        elif isinstance(fit, GevFit):
            out.update(
                block=fit.block,
                blocks=fit.blocks,
                location=fit.mu * factor,
                scale=fit.sigma * factor,
                shape=fit.xi,
                shape_ci=list(fit.xi_ci),
            )
        out["checks"] = [c.as_dict() for c in self.checks]
        out["pwcet"] = [q.as_dict(factor, deadline) for q in self.quantiles]
        return out


@dataclass
class TailAnalysis:
    """Everything ``latmon tail`` says about one series, in the series' unit."""

    n: int
    #: Why nothing could be analysed at all (histogram only, too few samples), else None.
    unavailable: str | None
    checks: list[Check]
    pot: MethodResult | None = None
    gev: MethodResult | None = None
    stability: list[StabilityPoint] = field(default_factory=list)
    mean_excess: MeanExcess | None = None
    alpha: float = ALPHA
    confidence: float = CONFIDENCE
    probabilities: tuple[float, ...] = PROBABILITIES
    #: The empirical exceedance curve: sorted values and P(X > value) (for plots).
    sample_max: float = math.nan

    @property
    def iid(self) -> bool:
        return self.unavailable is None and all(c.passed for c in self.checks)

    @property
    def valid(self) -> bool:
        """At least one method gives a pWCET."""
        return any(m is not None and m.valid for m in (self.pot, self.gev))

    def reasons(self) -> list[str]:
        """Why no pWCET (or a method's pWCET) is given: one line each."""
        if self.unavailable is not None:
            return [self.unavailable]
        out = [
            f"{c.name}: p = {_p(c.p_value)} < {c.level:g}: {c.detail}"
            if c.level is not None
            else f"{c.name}: {c.detail}"
            for c in self.checks
            if not c.passed
        ]
        if out:
            return out
        for m in (self.pot, self.gev):
            if m is None:
                continue
            out += [f"{m.method}: {c.name}: {c.detail}" for c in m.checks if not c.passed]
        return out

    def as_dict(self, factor: float = 1.0, deadline: float | None = None) -> dict[str, object]:
        """JSON: values times ``factor``; ``deadline`` (in the series' unit) adds a verdict to
        every pWCET."""
        return {
            "n": self.n,
            "valid": self.valid,
            "reasons": self.reasons(),
            "alpha": self.alpha,
            "confidence": self.confidence,
            "checks": [c.as_dict() for c in self.checks],
            "pot": None if self.pot is None else self.pot.as_dict(factor, deadline),
            "block_maxima": None if self.gev is None else self.gev.as_dict(factor, deadline),
            "threshold_stability": [s.as_dict(factor) for s in self.stability],
        }


def _p(p: float | None) -> str:
    return "—" if p is None else f"{p:.3g}"


def _shape_check(
    xi: float, xi_ci: tuple[float, float], confidence: float, nll: float, light_nll: float
) -> Check:
    """The heavy-tail screen: the signed root of the likelihood ratio of ξ̂ against the best
    fit with ξ = 0, r = sign(ξ̂) √(2 (nll(0) - nll(ξ̂))), is standard normal at the boundary of a
    light tail; the tail is called heavy when the one-sided p = 1 - Φ(r) is below
    HEAVY_LEVEL."""
    lo, hi = xi_ci
    text = f"ξ = {xi:+.3f}, {confidence:.0%} interval [{lo:+.3f}, {hi:+.3f}]"
    deviance = max(2.0 * (light_nll - nll), 0.0) if math.isfinite(light_nll) else 0.0
    r = math.copysign(math.sqrt(deviance), xi)
    p = float(sps.norm.sf(r))
    if p < HEAVY_LEVEL:
        return Check(
            "shape",
            False,
            text + ": a heavy tail (a light one, ξ ≤ 0, is rejected): the latency has no upper "
            "bound in this model and its quantiles grow as a power of 1/p, so an "
            "extrapolation to small p is not supported by the data",
            r,
            p,
            HEAVY_LEVEL,
        )
    kind = "bounded" if hi < 0 else "light or bounded"
    return Check("shape", True, f"{text}: {kind} tail", r, p, HEAVY_LEVEL)


def _count_check(name: str, have: int, need: int, what: str) -> Check:
    ok = have >= need
    return Check(name, ok, f"{have:,} {what}" + ("" if ok else f", at least {need} needed"))


@_quiet
def analyse_tail(
    values: np.ndarray,
    probabilities: Sequence[float] = PROBABILITIES,
    alpha: float = ALPHA,
    confidence: float = CONFIDENCE,
    threshold: float | None = None,
    block: int | None = None,
    min_exceedances: int = MIN_EXCEEDANCES,
    unit: str = "",
    resolution: int = 1,
    quantisation: str = "round",
) -> TailAnalysis:
    """Checks, then (when they pass) the POT and block-maxima fits of samples in time order.

    ``threshold`` fixes the POT threshold (a value in the samples' unit) instead of the
    automatic choice; ``block`` fixes the block size; ``unit`` names the samples' unit in the
    checks' details; ``resolution`` is the run's recorded resolution and ``quantisation`` how
    a recorded value stands for the true latency (:data:`QUANTISATION`)."""
    x = np.asarray(values)
    n = len(x)
    probs = tuple(sorted(set(probabilities), reverse=True))
    min_n = math.ceil((min_exceedances / EXCEEDANCES_PER_ROOT) ** 2)
    result = TailAnalysis(n, None, [], alpha=alpha, confidence=confidence, probabilities=probs)
    if n < min_n:
        result.unavailable = (
            f"{n:,} samples: too few for an extreme-value analysis (at least {min_n:,} give "
            f"{min_exceedances} exceedances; see latmon plan)"
        )
        return result
    result.sample_max = float(x.max())
    counts = half_counts(x)
    result.checks = iid_checks(x, alpha, unit, counts)
    if not result.iid:
        return result
    result.pot, result.gev, result.stability = fit_tail(
        x,
        probs,
        confidence,
        threshold,
        block,
        min_exceedances,
        resolution=resolution,
        quantisation=quantisation,
        unit=unit,
    )
    median = counts.median() if counts is not None else None
    result.mean_excess = mean_residual_life(x, confidence=confidence, median=median)
    return result


def tail_pool(
    values: np.ndarray, min_exceedances: int = MIN_EXCEEDANCES, keep: int | None = None
) -> np.ndarray:
    """The largest values, from the lowest candidate threshold up (what the POT fits use):
    EXCEEDANCES_PER_ROOT · √n + 1 of them (or ``keep``), unsorted; kept chunk by chunk, so
    nothing of the size of the series is copied."""
    x = np.asarray(values)
    n = len(x)
    k = min(n, keep if keep is not None else round(EXCEEDANCES_PER_ROOT * math.sqrt(n)) + 1)
    if k == 0:
        return x[:0]
    top = x[:0]
    for start, stop, _ in _chunks(n):
        merged = np.concatenate((top, x[start:stop]))
        top = (
            np.partition(merged, len(merged) - k)[len(merged) - k :] if len(merged) > k else merged
        )
    return top


def count_above(values: np.ndarray, level: float) -> int:
    """How many values exceed ``level`` (in chunks)."""
    x = np.asarray(values)
    return sum(int(np.count_nonzero(x[a:b] > level)) for a, b, _ in _chunks(len(x)))


@_quiet
def fit_tail(
    values: np.ndarray,
    probabilities: Sequence[float] = PROBABILITIES,
    confidence: float = CONFIDENCE,
    threshold: float | None = None,
    block: int | None = None,
    min_exceedances: int = MIN_EXCEEDANCES,
    resolution: int = 1,
    quantisation: str = "round",
    unit: str = "",
    held_out: bool = True,
) -> tuple[MethodResult, MethodResult, list[StabilityPoint]]:
    """The POT and block-maxima fits with their own checks (exceedances, blocks, shape, the
    held-out check) and pWCETs, and the threshold-stability points — without the i.i.d.
    checks (which :func:`analyse_tail` runs first).

    The grid of the samples is found in the largest values (:func:`data_tick`, at least the
    recorded ``resolution``): POT fits it by the interval-censored likelihood, block maxima
    take each maximum at the middle of its cell. A tail that POT shows heavy gets no number
    from block maxima either (POT sees √n times more of the tail)."""
    x = np.asarray(values)
    probs = tuple(sorted(set(probabilities), reverse=True))
    if quantisation not in QUANTISATION:
        raise LatmonError(f"quantisation must be one of {', '.join(QUANTISATION)}")
    n = len(x)
    # POT sees only the largest values: every candidate threshold's exceedances are among them
    pool = tail_pool(x, min_exceedances)
    if threshold is not None and (len(pool) == 0 or threshold < float(pool.min())):
        pool = x[x > threshold]
    tick = float(data_tick(pool, resolution))
    grid = Grid(tick, quantisation, resolution)
    points = stability(pool, min_exceedances, tick, quantisation, n)
    pot = _pot(pool, n, points, probs, confidence, threshold, min_exceedances, grid)
    gev = _block_maxima(x, probs, confidence, block, grid)
    if held_out:
        half = len(x) // 2
        first, second = x[:half], x[half:]
        for method in (pot, gev):
            if method.valid and isinstance(method.fit, GpdFit | GevFit):
                check = held_out_check(method.fit, first, second, min_exceedances, grid, unit)
                method.checks.append(check)
                if not check.passed:
                    method.quantiles = []
    heavy = next((c for c in pot.checks if c.name == "shape" and not c.passed), None)
    if heavy is not None and gev.fit is not None:
        gev.checks.append(
            Check(
                "shape (POT)", False, "the peaks over threshold show a heavy tail: " + heavy.detail
            )
        )
        gev.quantiles = []
    return pot, gev, points


@dataclass(frozen=True)
class Grid:
    """The grid the samples lie on: ``tick`` (0: continuous), how a value stands for its
    cell (:data:`QUANTISATION`) and the run's recorded resolution."""

    tick: float
    quantisation: str = "round"
    resolution: int = 1

    def midpoint_shift(self) -> float:
        """From a recorded value to the middle of its cell."""
        return (0.5 - QUANTISATION[self.quantisation]) * self.tick

    def text(self) -> str:
        if self.tick <= 0:
            return "continuous values"
        cell = "[y - h/2, y + h/2)" if self.quantisation == "round" else "[y, y + h)"
        text = f"on a grid of h = {fmt(self.tick)}: each value y stands for {cell}"
        if self.tick > self.resolution > 0:
            text += f" (the run records a resolution of {fmt(self.resolution)}; the values show h)"
        return text


def held_out_check(
    fit: GpdFit | GevFit,
    first: np.ndarray,
    second: np.ndarray,
    min_exceedances: int,
    grid: Grid,
    unit: str = "",
) -> Check:
    """The reliability test of the MBPTA literature: the method fitted, as it was fitted to
    the whole series, to the first half of the samples alone; its quantiles at p = c / m (m
    the samples of the second half, c each of HELD_OUT_COUNTS, where p lies beyond the data
    the fit starts from) must not be exceeded by the second half more often than a binomial
    count of mean c allows: the count above the upper end of the quantile's interval is
    tested one-sided (Bonferroni over the levels at HELD_OUT_ALPHA). A fit that underestimates
    the tail fails; one that overestimates it passes (it is only conservative)."""
    name = "held-out exceedances"
    m = len(second)
    suffix = f" {unit}" if unit else ""
    part: GpdFit | GevFit | None
    if isinstance(fit, GpdFit):
        # the same threshold rule on the first half: the same exceedance rate
        k = max(round(fit.rate * len(first)), 2)
        if k < min(min_exceedances, HELD_OUT_MIN_EXCEEDANCES) or k >= len(first):
            part = None
        else:
            top = tail_pool(first, keep=k + 1)  # the threshold and the k values above it
            u = float(top.min())
            part = fit_pot(top, u, fit.confidence, grid.tick, grid.quantisation, len(first))
        limit = fit.rate
    else:
        maxima = block_maxima(first, fit.block)
        part = None
        if len(maxima) >= HELD_OUT_MIN_BLOCKS and len(np.unique(maxima)) >= MIN_DISTINCT:
            part = fit_gev(maxima + grid.midpoint_shift(), fit.block, fit.confidence)
        limit = 1.0 / fit.block
    if part is None:
        return Check(
            name,
            False,
            f"the first half ({len(first):,} samples) is too short to fit the model again and "
            "test it on the second half: no pWCET without that check",
        )
    levels = [c / m for c in HELD_OUT_COUNTS if c / m < limit]
    if not levels:
        return Check(name, False, f"the second half ({m:,} samples) is too short to test the tail")
    worst_p, parts = 1.0, []
    for p in levels:
        q = part.quantile_ci(p)
        observed = count_above(second, q.high) if math.isfinite(q.high) else 0
        pv = float(sps.binom.sf(observed - 1, m, p))
        worst_p = min(worst_p, pv)
        high = "∞" if not math.isfinite(q.high) else fmt(q.high)
        parts.append(
            f"{observed} above its {p:.2g} quantile's upper end {high}{suffix} "
            f"({fmt(p * m)} expected at most)"
        )
    level = HELD_OUT_ALPHA / len(levels)
    passed = worst_p * len(levels) >= HELD_OUT_ALPHA
    detail = f"fitted to the first {len(first):,} samples, tested on the last {m:,}: " + "; ".join(
        parts
    )
    if not passed:
        detail += ": the fit underestimates the tail of the samples it did not see"
    return Check(name, passed, detail, None, worst_p, level)


def _pot(
    x: np.ndarray,
    n: int,
    points: list[StabilityPoint],
    probs: tuple[float, ...],
    confidence: float,
    threshold: float | None,
    min_exceedances: int,
    grid: Grid,
) -> MethodResult:
    method = "POT/GPD"
    if threshold is None:
        if not points:
            check = Check(
                "exceedances",
                False,
                f"no threshold has {min_exceedances} samples with {MIN_DISTINCT} distinct "
                f"values above it ({grid.text()}): too few distinct values in the tail to fit "
                "its shape; record with a finer resolution or more samples",
            )
            return MethodResult(method, None, [check], [])
        chosen = select_threshold(points)
        threshold = points[chosen].threshold
        choice = Check("threshold", True, _threshold_choice(points, chosen))
    else:
        choice = Check("threshold", True, "given (--threshold)")
    fit = fit_pot(x, threshold, confidence, grid.tick, grid.quantisation, n)
    above = x[x > threshold]
    checks = [
        choice,
        Check("resolution", True, grid.text() + " (interval-censored likelihood)")
        if grid.tick > 0
        else Check("resolution", True, "continuous values"),
        _count_check("exceedances", len(above), min_exceedances, "samples above the threshold"),
    ]
    distinct = len(np.unique(above))
    if distinct < MIN_DISTINCT:
        checks.append(
            _count_check(
                "distinct exceedances",
                distinct,
                MIN_DISTINCT,
                f"distinct values above the threshold ({grid.text()})",
            )
        )
    if fit is None:
        return MethodResult(method, None, checks, [])
    checks.append(_shape_check(fit.xi, fit.xi_ci, confidence, fit.nll, fit.light_nll))
    bad = [p for p in probs if p > fit.rate]
    if bad:
        checks.append(
            Check(
                "probability",
                False,
                f"p = {bad[0]:g} is not beyond the threshold's exceedance rate {fit.rate:.3g}: "
                "read it from the samples (latmon stats)",
            )
        )
    result = MethodResult(method, fit, checks, [])
    if result.valid:
        result.quantiles = [fit.quantile_ci(p) for p in probs]
    return result


def _threshold_choice(points: Sequence[StabilityPoint], chosen: int) -> str:
    """How the automatic threshold was chosen, in one line."""
    first = f"{len(points)} candidates from {points[0].exceedances:,} down to "
    first += f"{points[-1].exceedances:,} exceedances"
    if chosen == 0:
        return (
            f"the lowest of {first}: its ξ agrees with ξ at every higher one "
            f"({STABILITY_CONFIDENCE:.0%} family)"
        )
    return (
        f"candidate {chosen + 1} of {first}: ξ at the {chosen} lower one(s) disagrees with ξ "
        "higher up (the tail is not yet generalised Pareto there; see the stability plot)"
    )


def _block_maxima(
    x: np.ndarray, probs: tuple[float, ...], confidence: float, block: int | None, grid: Grid
) -> MethodResult:
    method = "block maxima/GEV"
    b = block or default_block_size(len(x))
    maxima = block_maxima(x, b)
    checks = [_count_check("blocks", len(maxima), MIN_BLOCKS, f"blocks of {b:,} samples")]
    if len(maxima) < MIN_BLOCKS or len(np.unique(maxima)) < MIN_DISTINCT:
        if len(maxima) >= MIN_BLOCKS:
            checks.append(
                Check("distinct maxima", False, f"{len(np.unique(maxima))} distinct block maxima")
            )
        return MethodResult(method, None, checks, [])
    # on a grid, each maximum at the middle of the cell it stands for
    fit = fit_gev(maxima + grid.midpoint_shift(), b, confidence)
    checks.append(_shape_check(fit.xi, fit.xi_ci, confidence, fit.nll, fit.light_nll))
    result = MethodResult(method, fit, checks, [])
    if result.valid:
        result.quantiles = [fit.quantile_ci(p) for p in probs]
    return result


def time_ordered(series: Series) -> np.ndarray | None:
    """The series' samples in time order (sorted by its time column ``t`` when it has one and
    that column is not already in order), or None for a histogram-only series."""
    if not series.has_samples:
        return None
    latency = series.latency
    t = series.columns.get("t")
    if t is not None and len(t) > 1 and bool(np.any(np.diff(t) < 0)):
        return np.asarray(latency[np.argsort(t, kind="stable")])
    return latency


def analyse_series(
    series: Series,
    probabilities: Sequence[float] = PROBABILITIES,
    alpha: float = ALPHA,
    confidence: float = CONFIDENCE,
    threshold: float | None = None,
    block: int | None = None,
    min_exceedances: int = MIN_EXCEEDANCES,
    quantisation: str = "round",
) -> TailAnalysis:
    """:func:`analyse_tail` of a series in time order (on the series' recorded resolution, its
    values standing for their cells as ``quantisation`` says); a histogram-only series gets a
    reason instead."""
    values = time_ordered(series)
    if values is None:
        kind = "a histogram only" if series.histogram is not None else "no samples"
        return TailAnalysis(
            0,
            f"{kind}: an extreme-value analysis needs the samples in time order (for the "
            "independence and stationarity checks and the block maxima); record samples "
            "(e.g. latprobe without --hist, latctl read) to get a pWCET",
            [],
            alpha=alpha,
            confidence=confidence,
            probabilities=tuple(sorted(set(probabilities), reverse=True)),
        )
    return analyse_tail(
        values,
        probabilities,
        alpha,
        confidence,
        threshold,
        block,
        min_exceedances,
        series.unit,
        series.resolution,
        quantisation,
    )


def quantisation_of(meta: dict[str, str]) -> str:
    """How a run's tool turns a latency into the value it records (:data:`QUANTISATION`):
    cyclictest truncates (its µs are ns divided by 1000); every other source is taken as
    rounding to its grid (a cycle counter's count is the elapsed time to within a cycle)."""
    return "floor" if meta.get("source") == "cyclictest" else "round"
