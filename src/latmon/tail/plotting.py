"""The figure of the extreme-value analysis (latmon.tail) for the report, one per series: on
top the measured exceedance curve with the fit extrapolated to 10⁻¹² and its pointwise
profile-likelihood band, below the threshold diagnostics (mean residual life and the stability
of ξ over the candidate thresholds, the chosen one marked).

One figure with fixed margins (no tight layout: measuring every label's box costs more than
drawing it), the measured curve from distinct values with its body thinned: the figure costs
the same for a thousand samples as for ten million.
"""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from latmon.figures.data import display_unit
from latmon.tail.base import Quantile
from latmon.tail.curve import CURVE_POINTS, LOWEST_PROBABILITY, extrapolated
from latmon.tail.gpd import GpdFit
from latmon.tail.result import MethodResult, TailAnalysis
from latmon.tail.source import Digest, maximum_of, value_counts_of

FIT_COLOR = "#1f5fa8"


def tail_figure(
    values: np.ndarray | Digest,
    analysis: TailAnalysis,
    to_ns: float,
    title: str,
    deadline_ns: int | None = None,
) -> Figure | None:
    """The tail figure of one series (values in its unit, ``to_ns`` ns per unit), or None when
    no method gives a pWCET."""
    method = next((m for m in (analysis.pot, analysis.gev) if m is not None and m.valid), None)
    if method is None:
        return None
    quantiles = extrapolated(method)
    finite_high = [q.high for q in quantiles if math.isfinite(q.high)]
    largest = max([*finite_high, maximum_of(values)])
    factor, unit = display_unit(largest * to_ns)
    fig = plt.figure(figsize=(7.5, 6.4), dpi=100)
    grid = fig.add_gridspec(2, 2, height_ratios=(1.35, 1), left=0.1, right=0.97, bottom=0.08,
                            top=0.93, hspace=0.42, wspace=0.3)  # fmt: skip
    top = fig.add_subplot(grid[0, :])
    _exceedance(top, values, method, quantiles, analysis, factor * to_ns, unit)
    if deadline_ns is not None and deadline_ns <= 2 * largest * to_ns:
        top.axvline(deadline_ns * factor, color="#b33", ls="--", lw=1, label="deadline")
    elif deadline_ns is not None:  # far beyond the tail: say so instead of squashing it
        top.set_title(f"deadline {deadline_ns * factor:,.4g} {unit}: off the scale", fontsize=8,
                      loc="right")  # fmt: skip
    top.legend(fontsize=7, loc="upper right")
    _diagnostics(fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[1, 1]), analysis, to_ns)
    fig.suptitle(f"{title}: tail extrapolated ({method.method})", fontsize=10, x=0.1, ha="left")
    return fig


def _exceedance(
    ax: Axes,
    values: np.ndarray | Digest,
    method: MethodResult,
    quantiles: list[Quantile],
    analysis: TailAnalysis,
    scale: float,
    unit: str,
) -> None:
    # the measured curve from the distinct values and their counts (never one point per sample)
    distinct, counts = value_counts_of(values)
    n = int(counts.sum())
    above = (n - np.cumsum(counts)) / n
    if len(distinct) > 2 * CURVE_POINTS:  # thin the body, keep the top CURVE_POINTS values
        body = len(distinct) - CURVE_POINTS
        keep = np.concatenate((np.linspace(0, body - 1, CURVE_POINTS).astype(np.int64),
                               np.arange(body, len(distinct))))  # fmt: skip
        distinct, above = distinct[keep], above[keep]
    ax.step(distinct.astype(np.float64) * scale, above, where="post", color="#333", lw=1.2,
            label=f"measured ({n:,} samples)")  # fmt: skip
    if quantiles:
        p = [q.probability for q in quantiles]
        est = np.array([q.estimate for q in quantiles]) * scale
        low = np.array([q.low for q in quantiles]) * scale
        high = np.array([q.high if math.isfinite(q.high) else np.nan for q in quantiles]) * scale
        kind = "GPD" if isinstance(method.fit, GpdFit) else "GEV"
        ax.plot(est, p, color=FIT_COLOR, lw=1.6, label=f"{kind} fit, extrapolated")
        ax.fill_betweenx(p, low, high, color=FIT_COLOR, alpha=0.18,
                         label=f"{analysis.confidence:.0%} profile-likelihood band")  # fmt: skip
    if isinstance(method.fit, GpdFit):
        ax.axvline(method.fit.threshold * scale, color="#888", ls=":", lw=1, label="threshold")
    for q in method.quantiles:
        ax.plot([q.estimate * scale], [q.probability], "o", color=FIT_COLOR, ms=4)
    ax.set_yscale("log")
    ax.set_ylim(LOWEST_PROBABILITY / 2, 1)
    ax.set_xlabel(f"latency ({unit})")
    ax.set_ylabel("P(latency > x) per activation")
    ax.grid(True, which="both", alpha=0.25)


def _diagnostics(left: Axes, right: Axes, analysis: TailAnalysis, to_ns: float) -> None:
    """Mean residual life (linear above a valid threshold) and ξ at every candidate threshold
    with its interval (constant above a valid threshold)."""
    mrl = analysis.mean_excess
    points = analysis.stability
    if mrl is None or not points:
        for ax in (left, right):
            ax.set_axis_off()
        return
    largest = float(np.nanmax(mrl.high)) if len(mrl.high) else 1.0
    factor, unit = display_unit(max(float(mrl.threshold.max()), largest) * to_ns)
    scale = factor * to_ns
    left.plot(mrl.threshold * scale, mrl.mean_excess * scale, color=FIT_COLOR, lw=1.3)
    left.fill_between(mrl.threshold * scale, mrl.low * scale, mrl.high * scale,
                      color=FIT_COLOR, alpha=0.18)  # fmt: skip
    left.set_xlabel(f"threshold ({unit})")
    left.set_ylabel(f"mean excess ({unit})")
    left.set_title("mean residual life", fontsize=9)
    u = np.array([p.threshold for p in points]) * scale
    xi = np.array([p.xi for p in points])
    se = np.array([p.xi_se for p in points])
    right.errorbar(u, xi, yerr=1.96 * se, fmt="o", ms=3, color=FIT_COLOR, capsize=2)
    right.axhline(0, color="#888", lw=0.8)
    right.set_xlabel(f"threshold ({unit})")
    right.set_ylabel("shape ξ")
    right.set_title("parameter stability", fontsize=9)
    pot = analysis.pot
    if pot is not None and isinstance(pot.fit, GpdFit):
        for ax in (left, right):
            ax.axvline(pot.fit.threshold * scale, color="#b33", ls=":", lw=1)
    for ax in (left, right):
        ax.grid(True, alpha=0.25)
