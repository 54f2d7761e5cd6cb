"""Figures of the extreme-value analysis (latmon.tail) for the report: the exceedance curve
extrapolated with its confidence band, and the threshold diagnostics (mean residual life and
the stability of ξ)."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from latmon.tail import GpdFit, Quantile, TailAnalysis

#: The extrapolated curve is drawn down to this probability per activation.
LOWEST_PROBABILITY = 1e-12
#: The measured curve: its top values all drawn, the body below them thinned to as many.
CURVE_POINTS = 2000


def _unit(largest_ns: float) -> tuple[float, str]:
    if largest_ns >= 10_000_000:
        return 1e-6, "ms"
    if largest_ns >= 10_000:
        return 1e-3, "µs"
    return 1.0, "ns"


def band_probabilities(rate: float) -> list[float]:
    """Probabilities at which the band is computed: every decade below the threshold's rate
    down to LOWEST_PROBABILITY."""
    out: list[float] = []
    p = 10.0 ** math.floor(math.log10(rate))
    if p >= rate:
        p /= 10
    while p >= LOWEST_PROBABILITY * 0.999:
        out.append(p)
        p /= 10
    return out


def exceedance_band_figure(
    values: np.ndarray,
    analysis: TailAnalysis,
    to_ns: float,
    title: str,
    deadline_ns: int | None = None,
) -> Figure | None:
    """Empirical exceedance P(X > x) of the samples, the POT fit extrapolated to 1e-12 with
    its pointwise profile-likelihood band, and the pWCETs: latency on x, probability on a
    log y axis."""
    pot = analysis.pot
    if pot is None or not isinstance(pot.fit, GpdFit) or not pot.valid:
        return None
    fit = pot.fit
    # the curve starts at the threshold, exceeded by a fraction `rate` of the samples
    probabilities = [fit.rate, *band_probabilities(fit.rate)]
    quantiles = [Quantile(fit.rate, fit.threshold, fit.threshold, fit.threshold)]
    quantiles += [fit.quantile_ci(p) for p in probabilities[1:]]
    largest = max(max(q.high for q in quantiles if math.isfinite(q.high)), float(values.max()))
    factor, unit = _unit(largest * to_ns)
    scale = factor * to_ns
    fig, ax = plt.subplots(figsize=(7.5, 3.8), dpi=100)
    # the measured curve from the distinct values and their counts (never one point per sample)
    distinct, counts = np.unique(np.asarray(values), return_counts=True)
    n = int(counts.sum())
    above = (n - np.cumsum(counts)) / n
    if len(distinct) > 2 * CURVE_POINTS:  # thin the body, keep the top CURVE_POINTS values
        body = len(distinct) - CURVE_POINTS
        keep = np.concatenate((np.linspace(0, body - 1, CURVE_POINTS).astype(np.int64),
                               np.arange(body, len(distinct))))  # fmt: skip
        distinct, above = distinct[keep], above[keep]
    ax.step(distinct.astype(np.float64) * scale, above, where="post", color="#333", lw=1.2,
            label=f"measured ({n:,} samples)")  # fmt: skip
    est = np.array([q.estimate for q in quantiles]) * scale
    low = np.array([q.low for q in quantiles]) * scale
    high = np.array([q.high if math.isfinite(q.high) else np.nan for q in quantiles]) * scale
    ax.plot(est, probabilities, color="#1f5fa8", lw=1.6, label="GPD fit, extrapolated")
    ax.fill_betweenx(probabilities, low, high, color="#1f5fa8", alpha=0.18,
                     label=f"{analysis.confidence:.0%} profile-likelihood band")  # fmt: skip
    ax.axvline(fit.threshold * scale, color="#888", ls=":", lw=1, label="threshold")
    if deadline_ns is not None and deadline_ns * factor <= 2 * largest * scale:
        ax.axvline(deadline_ns * factor, color="#b33", ls="--", lw=1, label="deadline")
    elif deadline_ns is not None:  # far beyond the tail: say so instead of squashing it
        ax.set_title(f"deadline {deadline_ns * factor:,.4g} {unit}: off the scale", fontsize=8,
                     loc="right")  # fmt: skip
    for q in pot.quantiles:
        ax.plot([q.estimate * scale], [q.probability], "o", color="#1f5fa8", ms=4)
    ax.set_yscale("log")
    ax.set_ylim(LOWEST_PROBABILITY / 2, 1)
    ax.set_xlabel(f"latency ({unit})")
    ax.set_ylabel("P(latency > x) per activation")
    ax.set_title(f"{title}: tail extrapolated", fontsize=10, loc="left")
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    return fig


def threshold_figure(analysis: TailAnalysis, to_ns: float, title: str) -> Figure | None:
    """Mean residual life (linear above a valid threshold) and ξ at every candidate threshold
    with its normal interval (constant above a valid threshold); the chosen threshold marked."""
    mrl = analysis.mean_excess
    if mrl is None or not analysis.stability:
        return None
    largest = float(np.nanmax(mrl.high)) if len(mrl.high) else 1.0
    factor, unit = _unit(max(float(mrl.threshold.max()), largest) * to_ns)
    scale = factor * to_ns
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.5, 3.0), dpi=100)
    left.plot(mrl.threshold * scale, mrl.mean_excess * scale, color="#1f5fa8", lw=1.3)
    left.fill_between(mrl.threshold * scale, mrl.low * scale, mrl.high * scale,
                      color="#1f5fa8", alpha=0.18)  # fmt: skip
    left.set_xlabel(f"threshold ({unit})")
    left.set_ylabel(f"mean excess ({unit})")
    left.set_title("mean residual life", fontsize=9)
    points = analysis.stability
    u = np.array([p.threshold for p in points]) * scale
    xi = np.array([p.xi for p in points])
    se = np.array([p.xi_se for p in points])
    right.errorbar(u, xi, yerr=1.96 * se, fmt="o", ms=3, color="#1f5fa8", capsize=2)
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
    fig.suptitle(f"{title}: threshold diagnostics", fontsize=10)
    fig.tight_layout()
    return fig


def close(fig: Figure) -> None:
    plt.close(fig)
