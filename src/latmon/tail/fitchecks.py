"""The checks of a fitted tail model (docs/tail.md): the sign of its shape (a light tail, or a
heavy one refused), the counts it rests on, and the held-out test (the model fitted to the first
half of the samples must not be exceeded by the second half), on the grid the samples lie on
(:class:`Grid`). The i.i.d. checks of the samples themselves are :mod:`latmon.tail.checks`."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from latmon.tables import fmt
from latmon.tail import probability
from latmon.tail.base import (
    HEAVY_LEVEL,
    HELD_OUT_ALPHA,
    HELD_OUT_COUNTS,
    HELD_OUT_MIN_BLOCKS,
    HELD_OUT_MIN_EXCEEDANCES,
    MIN_DISTINCT,
    Check,
)
from latmon.tail.gev import GevFit, fit_gev
from latmon.tail.gpd import QUANTISATION, GpdFit, fit_pot
from latmon.tail.source import Digest, Samples


def shape_check(
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
    p = probability.norm_sf(r)
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


def count_check(name: str, have: int, need: int, what: str) -> Check:
    ok = have >= need
    return Check(name, ok, f"{have:,} {what}" + ("" if ok else f", at least {need} needed"))


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
    src: Samples | Digest,
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
    first_n = src.n // 2
    m = src.n - first_n
    suffix = f" {unit}" if unit else ""
    part: GpdFit | GevFit | None
    if isinstance(fit, GpdFit):
        # the same threshold rule on the first half: the same exceedance rate
        k = max(round(fit.rate * first_n), 2)
        if k < min(min_exceedances, HELD_OUT_MIN_EXCEEDANCES) or k >= first_n:
            part = None
        else:
            top = src.top(k + 1, "first")  # the threshold and the k values above it
            u = float(top.min())
            part = fit_pot(top, u, fit.confidence, grid.tick, grid.quantisation, first_n)
        limit = fit.rate
    else:
        maxima = src.maxima(fit.block, "first")
        part = None
        if len(maxima) >= HELD_OUT_MIN_BLOCKS and len(np.unique(maxima)) >= MIN_DISTINCT:
            part = fit_gev(maxima + grid.midpoint_shift(), fit.block, fit.confidence)
        limit = 1.0 / fit.block
    if part is None:
        return Check(
            name,
            False,
            f"the first half ({first_n:,} samples) is too short to fit the model again and "
            "test it on the second half: no pWCET without that check",
        )
    levels = [c / m for c in HELD_OUT_COUNTS if c / m < limit]
    if not levels:
        return Check(name, False, f"the second half ({m:,} samples) is too short to test the tail")
    worst_p, parts = 1.0, []
    for p in levels:
        q = part.quantile_ci(p)
        observed = src.count_above(q.high, "second") if math.isfinite(q.high) else 0
        pv = probability.binom_sf(observed - 1, m, p)
        worst_p = min(worst_p, pv)
        high = "∞" if not math.isfinite(q.high) else fmt(q.high)
        parts.append(
            f"{observed} above its {p:.2g} quantile's upper end {high}{suffix} "
            f"({fmt(p * m)} expected at most)"
        )
    level = HELD_OUT_ALPHA / len(levels)
    passed = worst_p * len(levels) >= HELD_OUT_ALPHA
    detail = f"fitted to the first {first_n:,} samples, tested on the last {m:,}: " + "; ".join(
        parts
    )
    if not passed:
        detail += ": the fit underestimates the tail of the samples it did not see"
    return Check(name, passed, detail, None, worst_p, level)
