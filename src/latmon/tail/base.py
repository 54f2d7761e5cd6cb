"""The extreme-value analysis' settings, its result types (a check, a quantile), quiet
numerics."""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

import numpy as np

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
#: The heavy-tail and mixture screen fits the SCREEN_PER_ROOT · √n largest samples (twice
#: the lowest candidate threshold's exceedances): a tail that is heavy from there on is refused
#: even when the fit's own threshold sees too few samples to tell (ξ = 0.2 was refused in 85-92 %
#: of 20,000-sample series at the fit's threshold alone), and a second, rarer path whose samples
#: make the tail heavier there is refused as a mixture.
SCREEN_PER_ROOT = 6.0
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
    #: The upper end is the light (ξ = 0) tail's quantile (:func:`light_bound`), not the
    #: profile likelihood's.
    light_bound: bool = False

    def as_dict(self, factor: float = 1.0, deadline: float | None = None) -> dict[str, object]:
        """JSON: values times ``factor`` (a unit change); with a deadline (in the values'
        own unit), ``verdict`` is pass when the interval's upper end is within it."""
        out: dict[str, object] = {
            "probability": self.probability,
            "estimate": self.estimate * factor,
            "ci": [self.low * factor, _finite_or_none(self.high * factor)],
            "upper_end": "light tail (ξ = 0)" if self.light_bound else "profile likelihood",
        }
        if deadline is not None:
            out["verdict"] = "pass" if self.high <= deadline else "FAIL"
        return out


def light_bound(q: Quantile, xi: float, light: float) -> Quantile:
    """A fit that finds a bounded tail (ξ̂ < 0) keeps the light-tail model in its interval: the
    upper end is at least ``light``, the quantile of the exponential (ξ = 0) tail fitted to the
    same data. An unbounded light tail whose shape converges slowly to 0 (Weibull, normal,
    gamma) shows ξ < 0 at any threshold a series reaches, and the bounded GPD extrapolated to
    10⁻⁶ falls short of it (coverage of the true 10⁻⁶ quantile of a Weibull tail 78-87 %
    without this, docs/tail.md); far out, the exponential tail lies above every tail whose
    hazard rate grows. For block maxima ``light`` is the Gumbel fit's quantile."""
    if xi >= 0 or not math.isfinite(light) or light <= q.high:
        return q
    return Quantile(q.probability, q.estimate, q.low, light, light_bound=True)


P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def _quiet_numerics() -> Iterator[None]:
    """The likelihood is inf outside the support, and optimisers step there: no warnings."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def quiet(func: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with _quiet_numerics():
            return func(*args, **kwargs)

    return wrapper


def _finite_or_none(v: float) -> float | None:
    return v if math.isfinite(v) else None
