"""Figures of the report (matplotlib, Agg backend), drawn from integer histograms.

Raw samples are never handed to matplotlib: a series of millions of samples is first binned
with numpy (an exact integer histogram), then drawn as steps, so a plot costs the same for a
thousand samples as for a hundred million.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from latmon.analysis.distribution.counts import Distribution
from latmon.figures.data import (
    display_scale,
    display_unit,
    largest_value,
    overflow_of,
    timeline_points,
    values_without_overflow,
)
from latmon.model import Series
from latmon.tables import fmt

# Labels come from file names and metadata: a character the font lacks is drawn as a box, not
# reported once per glyph and figure.
warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from", category=UserWarning)

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
    over = None if series.has_samples else overflow_of(Distribution.from_series(series))
    top = over.hi if over is not None else None
    fig, ax = plt.subplots(figsize=(7.5, 3.2), dpi=100)
    if edges is None:
        assert series.histogram is not None
        h = series.histogram
        scale, unit = display_scale(series, float(max(h.hi.max(), top or 0)))
        ax.bar(
            h.lo * float(scale),
            h.count,
            width=(h.hi - h.lo) * float(scale),
            align="edge",
            color="#3b6ea5",
        )
    else:
        scale, unit = display_scale(series, float(max(edges[-1], top or 0)))
        ax.stairs(counts, edges * float(scale), fill=True, color="#3b6ea5")
    if over is not None:
        # the histogram's overflow: its values lie between its bound and the recorded maximum,
        # where is not recorded: a dotted bar over that span, not a peak at the bound
        f, lo, k = float(scale), over.lo, over.count
        end = top if top is not None and top > lo else None
        span = f"{fmt(lo * f)}–{fmt(end * f)}" if end is not None else f"≥{fmt(lo * f)}"
        label = f"overflow: {k:,} samples, {span} {unit}, where in it not recorded"
        if end is not None:
            ax.hlines(k, lo * f, end * f, color="#c0504d", ls=":", lw=2, label=label)
        ax.plot([lo * f], [k], ">", color="#c0504d", ms=5, label=None if end else label)
        ax.legend(fontsize=7, loc="upper right")
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


# -- figures over several series ----------------------------------------------------------------

SERIES_COLORS = ("#3b6ea5", "#c0504d", "#6a9f58", "#e3a33b", "#8064a2", "#4bacc6", "#7f7f7f")


@dataclass
class Labelled:
    """A distribution to draw, in ns, with its legend label."""

    label: str
    dist: Distribution

    @property
    def n(self) -> int:
        return self.dist.n

    def values_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """Distinct values (ns, float for drawing) with their counts."""
        v, c = self.dist.values_and_counts()
        return v.astype(np.float64), c


def labelled(series: Series, label: str) -> Labelled | None:
    """A series' distribution in ns
    (:class:`latmon.analysis.distribution.counts.Distribution`), or None without data."""
    d = Distribution.from_series(series)
    return Labelled(label, d.in_ns()) if d.n else None


def _short(label: str, width: int = 28) -> str:
    return label if len(label) <= width else label[: width - 1] + "…"


def exceedance_figure(dists: list[Labelled], deadline_ns: int | None = None) -> Figure | None:
    """Exceedance (complementary CDF) on log-log scales: the fraction of samples at or above
    each latency, down to 1/n — the tail that a histogram's linear axis hides."""
    dists = [d for d in dists if d.n]
    if not dists:
        return None
    drawn = [(d, *d.values_counts()) for d in dists]
    factor, unit = display_unit(max(largest_value(d.dist) for d in dists))
    fig, ax = plt.subplots(figsize=(7.5, 3.6), dpi=100)
    for i, (d, values, counts) in enumerate(drawn):
        at_or_above = (d.n - np.cumsum(counts) + counts) / d.n
        color = SERIES_COLORS[i % len(SERIES_COLORS)]
        ax.step(
            np.maximum(values * factor, 1e-9),
            at_or_above,
            where="post",
            color=color,
            label=_short(d.label),
            lw=1.3,
        )
        over = overflow_of(d.dist)
        if over is not None and over.hi is not None and over.hi > over.lo:
            # a histogram's overflow: from k/n at its bound to 1/n at the recorded maximum,
            # dotted (the values between are not recorded), the maximum marked
            ax.plot(
                [over.lo * factor, over.hi * factor],
                [over.count / over.n, 1 / over.n],
                color=color,
                ls=":",
                lw=1.3,
            )
            ax.plot([over.hi * factor], [1 / over.n], color=color, marker="x", ms=5)
    if deadline_ns is not None:
        ax.axvline(deadline_ns * factor, color="#b33", ls="--", lw=1, label="deadline")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(f"latency ({unit})")
    ax.set_ylabel("fraction of samples ≥ latency")
    ax.set_title("Exceedance", fontsize=10)
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    return fig


#: Violin bodies: bins along the latency axis, and the narrowest drawn width of a nonzero bin
#: (as a fraction of the widest) so that single outliers in the tail stay visible.
VIOLIN_BINS = 160
VIOLIN_MIN_WIDTH = 0.04


def violin_figure(dists: list[Labelled], deadline_ns: int | None = None) -> Figure | None:
    """Violin plot drawn from counts (no kernel smoothing): each body's half-width is the
    share of samples in a latency bin, every nonzero bin at least VIOLIN_MIN_WIDTH wide;
    white dot: median, black bar: p99, red bar: maximum."""
    dists = [d for d in dists if d.n]
    if not dists:
        return None
    drawn = [(d, *values_without_overflow(d.dist)) for d in dists]
    top = max(largest_value(d.dist) for d in dists)
    bottom = min(float(v[0]) if len(v) else top for _, v, _ in drawn)
    factor, unit = display_unit(top)
    # Latencies are skewed: bins and axis go logarithmic when the range spans decades.
    log_axis = bottom > 0 and top / bottom > 20
    if log_axis:
        edges = np.geomspace(bottom, top * (1 + 1e-9), VIOLIN_BINS + 1)
    elif top > bottom:
        edges = np.linspace(bottom, top, VIOLIN_BINS + 1)
    else:
        edges = np.array([bottom, top + 1])
    fig, ax = plt.subplots(figsize=(max(4.5, 1.3 * len(dists) + 2), 3.8), dpi=100)
    for i, (d, values, weights) in enumerate(drawn):
        counts, _ = np.histogram(values, bins=edges, weights=weights)
        width = counts / max(int(counts.max()), 1)
        width[(counts > 0) & (width < VIOLIN_MIN_WIDTH)] = VIOLIN_MIN_WIDTH
        centers = np.sqrt(edges[:-1] * edges[1:]) if log_axis else (edges[:-1] + edges[1:]) / 2
        centers = centers * factor
        color = SERIES_COLORS[i % len(SERIES_COLORS)]
        ax.fill_betweenx(centers, i - 0.4 * width, i + 0.4 * width, color=color, alpha=0.75, lw=0)
        median = float(d.dist.at_rank((d.n + 1) // 2).lo or 0) * factor
        p99 = float(d.dist.percentile(0.99).lo or 0) * factor
        ax.plot([i], [median], "o", color="white", mec="black", ms=5, zorder=3)
        ax.hlines(p99, i - 0.18, i + 0.18, color="black", lw=1.5, zorder=3)
        over = overflow_of(d.dist)
        if over is not None:
            # a histogram's overflow: somewhere between its bound and the recorded maximum
            ax.vlines(
                i, over.lo * factor, (over.hi or over.lo) * factor, color=color, ls=":", lw=1.5
            )
        largest = largest_value(d.dist) * factor
        ax.hlines(largest, i - 0.25, i + 0.25, color="#b33", lw=1.5, zorder=3)
    if deadline_ns is not None and deadline_ns <= top * 1.5:
        ax.axhline(deadline_ns * factor, color="#b33", ls="--", lw=1)
    if log_axis:
        ax.set_yscale("log")
    ax.set_xticks(range(len(dists)), [_short(d.label, 18) for d in dists], fontsize=7, rotation=15)
    ax.set_ylabel(f"latency ({unit})")
    ax.set_title("Distribution (median ●, p99 ▬ black, max ▬ red)", fontsize=10)
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def timeline_figure(series: Series, title: str, deadline_ns: int | None = None) -> Figure | None:
    """Latency over time (the ``t`` column, else the sample index), from the figure data the
    HTML report draws too (:func:`latmon.figures.data.timeline_points`): every sample when
    there are few, else the max and min of each bucket as a band (a spike is never averaged
    away); the spikes marked."""
    tl = timeline_points(series, deadline_ns)
    if tl is None:
        return None
    factor, unit = display_unit(float(tl.y.max()))
    xlabel = "time since the first sample (s)" if tl.x_is_time else "sample"
    fig, ax = plt.subplots(figsize=(7.5, 3.0), dpi=100)
    if tl.decimated:
        ax.fill_between(
            tl.band_x, tl.band_low * factor, tl.band_high * factor, color="#3b6ea5", lw=0.5
        )
    else:
        ax.plot(tl.x, tl.y * factor, lw=0.6, color="#3b6ea5")
    if deadline_ns is not None:
        ax.axhline(deadline_ns * factor, color="#b33", ls="--", lw=1, label="deadline")
    ax.plot(tl.spike_x, tl.spike_y * factor, "x", color="#b33", ms=5, label="largest samples")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"latency ({unit})")
    ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    return fig


def save(fig: Figure, fmt: str, close: bool = True) -> bytes:
    """The figure as PNG or SVG bytes (closed afterwards unless told otherwise)."""
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt)
    if close:
        plt.close(fig)
    return buf.getvalue()
