"""Figures of the report (matplotlib, Agg backend), drawn from integer histograms.

Raw samples are never handed to matplotlib: a series of millions of samples is first binned
with numpy (an exact integer histogram), then drawn as steps, so a plot costs the same for a
thousand samples as for a hundred million.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from latmon.model import Series

#: Bins of a plotted histogram, at most.
PLOT_BINS = 400


@dataclass
class Binned:
    """Counts in equal bins [edges[i], edges[i+1]) of the series' unit."""

    edges: np.ndarray
    counts: np.ndarray


def bin_samples(values: np.ndarray, resolution: int = 1, max_bins: int = PLOT_BINS) -> Binned:
    """Exact integer binning: bin width a multiple of the resolution, at most max_bins bins."""
    lo, hi = int(values.min()), int(values.max())
    if hi - lo >= (1 << 62):  # values spread over most of int64: float bins, for drawing only
        counts, edges = np.histogram(values.astype(np.float64), bins=max_bins)
        return Binned(edges, counts)
    step = max(resolution, 1)
    width = max(step, -(-(hi - lo + 1) // max_bins))
    width = -(-width // step) * step
    start = lo - (lo % step)
    counts = np.bincount((values - start) // width)
    edges = start + width * np.arange(len(counts) + 1, dtype=np.int64)
    return Binned(edges, counts)


def display_scale(series: Series, largest: float) -> tuple[Fraction, str]:
    """Factor from the series unit to a readable display unit (ns, µs or ms), and its name."""
    to_ns = series.ns_per_unit
    largest_ns = largest * float(to_ns)
    if largest_ns >= 10_000_000:
        return to_ns / 1_000_000, "ms"
    if largest_ns >= 10_000:
        return to_ns / 1_000, "µs"
    return to_ns, "ns"


def histogram_figure(series: Series, title: str) -> Figure | None:
    """Log-y latency histogram (OSADL style) of a series, or None if it has no data."""
    if series.has_samples:
        binned = bin_samples(series.latency, series.resolution)
        edges, counts = binned.edges, binned.counts
    elif series.histogram is not None and series.histogram.total:
        h = series.histogram
        edges = np.concatenate((h.lo, h.hi[-1:])) if len(h.lo) else np.empty(0)
        counts = h.count
        if len(h.lo) and np.any(h.lo[1:] != h.hi[:-1]):
            # sparse bins: draw each bin as its own bar
            edges = None
    else:
        return None
    fig, ax = plt.subplots(figsize=(7.5, 3.2), dpi=100)
    if edges is None:
        assert series.histogram is not None
        h = series.histogram
        scale, unit = display_scale(series, float(h.hi.max()))
        ax.bar(
            h.lo * float(scale),
            h.count,
            width=(h.hi - h.lo) * float(scale),
            align="edge",
            color="#3b6ea5",
        )
    else:
        scale, unit = display_scale(series, float(edges[-1]))
        ax.stairs(counts, edges * float(scale), fill=True, color="#3b6ea5")
    ax.set_yscale("log")
    ax.set_ylim(bottom=0.8)
    ax.set_xlabel(f"latency ({unit})")
    ax.set_ylabel("samples")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    fig.tight_layout()
    return fig


STAGE_COLORS = ("#3b6ea5", "#7fa7d4", "#e3a33b", "#c0504d", "#6a9f58", "#8064a2")


def stage_figure(series: Series, title: str, max_points: int = 2000) -> Figure | None:
    """Stage plot: left, the mean of each stage stacked into one bar; right, the share of each
    stage in every matched wake-up, sorted by latency (thinned to max_points), so the stage
    that makes the tail is the one whose band widens on the right. A negative first stage (an
    interrupt that began before the expiry) counts as 0 in the shares."""
    names = series.stage_names
    if not names or not series.has_samples:
        return None
    order = np.argsort(series.latency, kind="stable")
    if len(order) > max_points:
        order = order[np.linspace(0, len(order) - 1, max_points).round().astype(np.int64)]
    scale, unit = display_scale(series, float(series.latency.max()))
    factor = float(scale)
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(9.5, 3.4), dpi=100, gridspec_kw={"width_ratios": [1, 4]}
    )
    bottom = 0.0
    x = np.arange(len(order))
    stack_low = np.zeros(len(order))
    parts = np.stack([np.maximum(series.columns[n][order], 0) for n in names]).astype(np.float64)
    totals = parts.sum(axis=0)
    totals[totals == 0] = 1.0
    shares = parts / totals * 100.0
    for i, name in enumerate(names):
        column = series.columns[name].astype(np.float64) * factor
        color = STAGE_COLORS[i % len(STAGE_COLORS)]
        label = name.removeprefix("stage_")
        mean = float(column.mean())
        left.bar(0, mean, bottom=bottom, color=color, label=label, width=0.6)
        bottom += mean
        values = shares[i]
        right.fill_between(x, stack_low, stack_low + values, color=color, step="mid", lw=0)
        stack_low = stack_low + values
    left.set_xticks([])
    left.set_ylabel(f"mean ({unit})")
    left.set_title("mean per stage", fontsize=9)
    right.set_xlabel("matched wake-ups, sorted by latency")
    right.set_ylabel("share of the latency (%)")
    right.set_ylim(0, 100)
    right.set_xlim(0, max(len(order) - 1, 1))
    right.set_title(title, fontsize=10)
    right.grid(True, alpha=0.3)
    left.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
    fig.tight_layout()
    return fig


def to_png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()
