"""The choice of the POT threshold: parameter stability over candidate thresholds and the mean
residual life."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from latmon.analysis.chunks import chunks, largest
from latmon.tail import probability
from latmon.tail.base import (
    CONFIDENCE,
    EXCEEDANCES_PER_ROOT,
    MIN_DISTINCT,
    MIN_EXCEEDANCES,
    STABILITY_CONFIDENCE,
    THRESHOLD_STEP,
    quiet,
)
from latmon.tail.gpd import fit_gpd, grid_excesses


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
    #: The fit's σ and its negative log-likelihood (for :func:`latmon.tail.gpd.fit_pot` at the
    #: chosen candidate, which fits the same excesses: not fitted twice).
    sigma: float = math.nan
    nll: float = math.nan

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


@quiet
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
        sigma, xi, nll = fit_gpd(y, tick)
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
            StabilityPoint(
                q,
                u,
                k,
                xi,
                math.sqrt(var_xi),
                sigma - xi * start,
                math.sqrt(var_star),
                sigma,
                nll,
            )
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
        z = probability.norm_ppf(1 - (1 - confidence) / (2 * family))
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
    values: np.ndarray | None,
    points: int = 60,
    confidence: float = CONFIDENCE,
    median: float | None = None,
    distinct: tuple[np.ndarray, np.ndarray] | None = None,
    n: int | None = None,
    batches: Callable[[], Iterable[np.ndarray]] | None = None,
    top: np.ndarray | None = None,
) -> MeanExcess:
    """The mean excess at ``points`` thresholds from the median to the value with 10 samples
    above it, summed in chunks (``median``: the series' median when the caller knows it;
    ``distinct``: the series' distinct values and how often each occurs, when the caller has
    them exactly — then the sums are taken over the distinct values, each times its count,
    without another pass over the series). A series not in memory (``values`` None) comes
    with its length ``n``, its ``median``, ``batches`` that read it in order and its ``top``
    10 values (or more)."""
    x = np.asarray(values) if values is not None else None
    parts: Callable[[], Iterable[np.ndarray]]
    if x is not None:
        n = len(x)
        whole = x

        def parts() -> Iterable[np.ndarray]:
            return (whole[start:stop] for start, stop, _ in chunks(len(whole)))

        middle = float(np.median(x)) if median is None else median
    elif n is None or batches is None or median is None or top is None:
        raise ValueError("a series not in memory needs n, median, batches and top")
    else:
        parts = batches
        middle = median
    if distinct is not None:
        value = np.asarray(distinct[0], dtype=np.float64)
        weight = np.asarray(distinct[1], dtype=np.float64)
        # the 10th largest sample: where the count from the top reaches 10
        from_top = np.cumsum(weight[::-1])
        tenth = float(value[::-1][int(np.searchsorted(from_top, 10))])
        top_value = tenth if n > 10 else float(value[0])
    elif x is None:
        assert top is not None
        top_value = float(np.sort(top)[-10]) if n > 10 else float(np.min(top))
    else:
        top_value = (
            float(np.partition(tail_pool(x, 10, keep=10), 0)[0]) if n > 10 else float(x.min())
        )
    thresholds = np.unique(np.linspace(middle, top_value, points))
    z = probability.norm_ppf(0.5 + confidence / 2)
    m = len(thresholds)
    # per value: how many thresholds lie below it; sums of (x - middle) and its square per
    # count, then from the top down: the sums over the values above each threshold
    count = np.zeros(m + 1)
    total = np.zeros(m + 1)
    square = np.zeros(m + 1)
    if distinct is not None:
        below = np.searchsorted(thresholds, value, side="left")
        centred = value - middle
        count += np.bincount(below, weights=weight, minlength=m + 1)
        total += np.bincount(below, weights=weight * centred, minlength=m + 1)
        square += np.bincount(below, weights=weight * centred * centred, minlength=m + 1)
    else:
        for part in parts():
            chunk = np.asarray(part, dtype=np.float64)
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


def tail_pool(
    values: np.ndarray, min_exceedances: int = MIN_EXCEEDANCES, keep: int | None = None
) -> np.ndarray:
    """The largest values, from the lowest candidate threshold up (what the POT fits use):
    EXCEEDANCES_PER_ROOT · √n + 1 of them (or ``keep``), unsorted; kept chunk by chunk, so
    nothing of the size of the series is copied."""
    n = len(values)
    return largest(
        values, keep if keep is not None else round(EXCEEDANCES_PER_ROOT * math.sqrt(n)) + 1
    )


def count_above(values: np.ndarray, level: float) -> int:
    """How many values exceed ``level`` (in chunks)."""
    x = np.asarray(values)
    return sum(int(np.count_nonzero(x[a:b] > level)) for a, b, _ in chunks(len(x)))
