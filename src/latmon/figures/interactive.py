"""Interactive figures of the HTML report: Plotly figure specs, in the look every figure shares
(:mod:`latmon.figures.plotly_style`: colours, layout, axis switch, deadline mark, plotly.js).

Every figure is drawn from counts or from a bounded number of points, whatever the size of the
series, and never loses a maximum:

- **latency over time**: every sample when a series has at most ``2 * TIMELINE_BUCKETS``, else the
  minimum and the maximum of each of ``TIMELINE_BUCKETS`` buckets in time order (an envelope
  that keeps every bucket's maximum: a spike is never averaged or thinned away); the largest
  samples (above p99.9, or above the deadline) marked one by one with their exact value;
- **exceedance** (fraction of samples ≥ latency, log-log): the exact curve, thinned to at most
  ``EXCEEDANCE_POINTS`` on the log latency axis, the last ``EXCEEDANCE_TAIL`` steps (the
  extreme tail, up to the maximum) kept exactly;
- **histogram**: exact integer bins (at most ``HISTOGRAM_BINS``), log counts;
- **percentiles per configuration**: min, p50 … p99.99 and max of each group.

Latencies are shown in the unit that fits the figure (:func:`latmon.tables.unit_for`: the same rule
as the tables); what each figure shows comes from :mod:`latmon.figures.data`. Each figure has a
log/linear switch, hover values, zoom and pan; a click on a legend entry hides or shows that
series.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from latmon.analysis.distribution.counts import Distribution
from latmon.figures.data import (
    TIMELINE_BUCKETS,
    Overflow,
    Timeline,
    largest_value,
    overflow_of,
    timeline_points,
    values_without_overflow,
)
from latmon.figures.plotly_style import (
    PALETTE,
    Figure,
    axis_switch,
    deadline_mark,
    layout,
    plotly_label,
    style,
    ticks_125,
)
from latmon.model import Series
from latmon.tables import unit_for

EXCEEDANCE_POINTS = 1500
EXCEEDANCE_TAIL = 200
HISTOGRAM_BINS = 400
#: The largest value a latency (int64) can hold.
INT64_MAX = 2**63 - 1


# -- latency over time -------------------------------------------------------------------------


def _round_unit(values: np.ndarray, factor: int, exact: bool = False) -> np.ndarray:
    """Values in ns shown in a unit of ``factor`` ns: float32 for drawing (7 significant
    digits, half the JSON), float64 where hover must show the exact value."""
    shown = np.round(values / factor, len(str(factor)) - 1)
    return shown if exact else shown.astype(np.float32)


def timeline_figure(
    series: Sequence[tuple[str, Series | Timeline]], title: str, deadline_ns: int | None = None
) -> Figure | None:
    """Latency over time of several series (one trace each, with its marked spikes); a series
    may come as its :class:`Timeline` already (a series streamed from its file)."""
    drawn = [
        (label, tl)
        for label, s in series
        if (tl := s if isinstance(s, Timeline) else timeline_points(s, deadline_ns))
    ]
    if not drawn:
        return None
    largest = max(float(tl.y.max()) for _, tl in drawn)
    unit, factor = unit_for(largest)
    x_is_time = all(tl.x_is_time for _, tl in drawn)
    xlabel = "time since the series' first sample (s)" if x_is_time else "sample"
    fig = go.Figure(layout=layout(title, xlabel, f"latency ({unit})", False, False))
    many = len(drawn) > len(PALETTE)
    for i, (label, tl) in enumerate(drawn):
        color, dash = style(i)
        name = plotly_label(label)
        how = "min and max per bucket" if tl.decimated else "every sample"
        fig.add_scatter(
            x=np.round(tl.x, 6),
            y=_round_unit(tl.y, factor),
            mode="lines" if len(tl.x) > 60 else "lines+markers",
            name=name,
            legendgroup=name,
            line={"color": color, "dash": dash, "width": 1},
            marker={"size": 4},
            hovertemplate=f"{name}<br>%{{y:,.6~g}} {unit} at %{{x:,.6~g}}<extra>{how}</extra>",
            visible=True if not many or i < len(PALETTE) else "legendonly",
        )
        fig.add_scatter(
            x=np.round(tl.spike_x, 6),
            y=_round_unit(tl.spike_y, factor, exact=True),
            customdata=tl.spike_index,
            mode="markers",
            name=f"{name}: largest",
            legendgroup=name,
            showlegend=False,
            marker={"color": color, "symbol": "x", "size": 8, "line": {"width": 1}},
            hovertemplate=(
                f"{name}<br>sample %{{customdata}}: %{{y:,.6~g}} {unit} at %{{x:,.6~g}}"
                "<extra>largest samples</extra>"
            ),
            visible=True if not many or i < len(PALETTE) else "legendonly",
        )
    deadline_mark(fig, deadline_ns, factor, unit, largest, "y")
    fig.update_layout(updatemenus=[axis_switch("yaxis", False)], dragmode="zoom")
    caption = (
        "Drag to zoom into a spike (double-click: whole run); the x markers are the largest "
        "samples (above p99.9 or the deadline, at most 50 per series). Series longer than "
        f"{2 * TIMELINE_BUCKETS:,} samples are drawn as the minimum and maximum of "
        f"{TIMELINE_BUCKETS:,} buckets: every bucket's maximum is drawn."
    )
    if many:
        caption += f" The first {len(PALETTE)} series are shown; click a legend entry for others."
    return Figure("timeline", title, fig, caption, {"series": len(drawn)})


# -- distributions -----------------------------------------------------------------------------


@dataclass
class Dist:
    """A distribution to draw, in ns, with its label."""

    label: str
    dist: Distribution

    def values_counts(self) -> tuple[np.ndarray, np.ndarray]:
        v, c = self.dist.values_and_counts()
        return v.astype(np.int64), c.astype(np.int64)


def exceedance_points(
    values: np.ndarray, counts: np.ndarray, points: int = EXCEEDANCE_POINTS
) -> tuple[np.ndarray, np.ndarray]:
    """(latency, fraction of samples ≥ latency) at each distinct value, thinned to about
    ``points`` on a log latency axis; the last EXCEEDANCE_TAIL values (the maximum among them)
    are kept exactly."""
    n = int(counts.sum())
    at_or_above = (n - np.cumsum(counts) + counts) / n
    m = len(values)
    if m <= points + EXCEEDANCE_TAIL:
        return values, at_or_above
    body = m - EXCEEDANCE_TAIL
    positive = np.maximum(values[:body].astype(np.float64), 1.0)
    grid = np.log10(positive)
    cells = np.floor((grid - grid[0]) / max(grid[-1] - grid[0], 1e-12) * points).astype(np.int64)
    first = np.flatnonzero(np.r_[True, cells[1:] != cells[:-1]])
    keep = np.r_[first, np.arange(body, m)]
    return values[keep], at_or_above[keep]


def exceedance_figure(dists: list[Dist], title: str, deadline_ns: int | None) -> Figure | None:
    """Exceedance (complementary CDF) on log-log axes: the fraction of samples at or above each
    latency, down to 1/n."""
    drawn = [(d, *d.values_counts()) for d in dists if d.dist.n]
    if not drawn:
        return None
    largest = max(largest_value(d.dist) for d, _, _ in drawn)
    unit, factor = unit_for(largest)
    fig = go.Figure(
        layout=layout(title, f"latency ({unit})", "fraction of samples ≥ latency", True, True)
    )
    for i, (d, values, counts) in enumerate(drawn):
        x, y = exceedance_points(values, counts)
        color, dash = style(i)
        name = plotly_label(d.label)
        fig.add_scatter(
            x=_round_unit(x.astype(np.float64), factor),
            y=y,
            mode="lines",
            line={"color": color, "dash": dash, "width": 1.6, "shape": "hv"},
            name=name,
            hovertemplate=(
                f"{name}<br>%{{y:.3~g}} of the samples ≥ %{{x:,.6~g}} {unit}<extra></extra>"
            ),
            legendgroup=name,
        )
        over = overflow_of(d.dist)
        if over is not None and over.hi is not None and over.hi > over.lo:
            # from k/n at the overflow's bound to 1/n at the maximum: the values between are
            # not recorded, so the line is dotted, with the maximum marked
            fig.add_scatter(
                x=_round_unit(np.array([over.lo, over.hi], dtype=np.float64), factor),
                y=[over.count / over.n, 1 / over.n],
                mode="lines+markers",
                line={"color": color, "dash": "dot", "width": 1.6},
                marker={"color": color, "size": [0, 7], "symbol": "x"},
                name=name,
                legendgroup=name,
                showlegend=False,
                hovertemplate=f"{name}<br>{_hover_text(over.says(unit, 1 / factor))}"
                "<extra></extra>",
            )
    deadline_mark(fig, deadline_ns, factor, unit, largest, "x")
    fig.update_yaxes(exponentformat="power")  # 10⁻⁴, not 100µ: a fraction, not a latency
    fig.update_layout(updatemenus=[axis_switch("xaxis", True, 0), axis_switch("yaxis", True, 1.0)])
    caption = (
        "Each curve falls to 1/n at its maximum; the further right a curve ends, the worse its "
        "tail. Click a legend entry to hide or show it."
    )
    if any(overflow_of(d.dist) for d, _, _ in drawn):
        caption += (
            " A dotted end: the samples above a histogram's range, from their lower bound to "
            "the recorded maximum (a cross); where they lie between is not recorded."
        )
    return Figure("exceedance", title, fig, caption)


def histogram_edges(lo: int, hi: int, log: bool, resolution: int = 1) -> np.ndarray:
    """Integer bin edges covering [lo, hi]: at most HISTOGRAM_BINS bins, each a multiple of the
    resolution wide; equal widths, or growing geometrically (``log``) for a heavy tail. The
    edges are int64: an edge beyond the largest int64 (the bin holding 2^63 - 1, which the
    latmon-log allows) is that largest value, and the last bin then holds it (see
    :func:`bin_index`)."""
    step = max(resolution, 1)
    start = lo - (lo % step)
    if log and hi > 2 * max(start, 1):
        first = max(start, step)
        grid = np.geomspace(first, hi + 1, HISTOGRAM_BINS + 1)
        ints = sorted({min(-(-int(x) // step) * step, INT64_MAX) for x in np.ceil(grid)})
        if start < first:
            ints = [start, *ints]
        if ints[-1] <= hi and ints[-1] < INT64_MAX:
            ints.append(min(ints[-1] + step, INT64_MAX))
        return np.asarray(ints, dtype=np.int64)
    width = max(step, -(-(hi - start + 1) // HISTOGRAM_BINS))
    width = -(-width // step) * step
    count = -(-(hi - start + 1) // width)
    edges = sorted({min(start + width * k, INT64_MAX) for k in range(count + 1)})
    if len(edges) < 2:  # a single value at the largest int64
        edges = [edges[0] - 1, edges[0]]
    return np.asarray(edges, dtype=np.int64)


def bin_index(edges: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The bin of each value: bin i is [edges[i], edges[i + 1]); the last bin also holds its
    upper edge (it is the largest int64 when that is the largest value)."""
    index = np.searchsorted(edges, values, side="right") - 1
    return np.minimum(index, len(edges) - 2)


def heavy_tail(dists: list[Dist]) -> bool:
    """A largest value more than 50 times the largest median: log bins and a log axis."""
    largest = max(int(d.dist.maximum().hi or d.dist.maximum().lo or 0) for d in dists)
    medians = [d.dist.percentile(0.5).lo for d in dists]
    return largest > 50 * max(max((m or 0) for m in medians), 1)


def histogram_steps(
    edges: np.ndarray, binned: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The outline of the non-empty bins: per run of adjacent non-empty bins a staircase (each
    bin's lower edge and count, drawn "hv", closed at the run's upper edge), the runs apart
    (NaN between them, so that no line crosses empty bins). Also each point's bin [lower,
    upper) for hovering. A bin's count is at the point whose x is its lower edge."""
    nonzero = np.flatnonzero(binned)
    runs = np.split(nonzero, np.flatnonzero(np.diff(nonzero) > 1) + 1) if len(nonzero) else []
    xs, ys, bins = [], [], []
    for run in runs:
        last = run[-1]
        xs.append(np.r_[edges[run], edges[last + 1], np.nan])
        ys.append(np.r_[binned[run], binned[last], np.nan])
        lows = np.r_[edges[run], edges[last], np.nan]
        bins.append(np.stack((lows, np.r_[edges[run + 1], edges[last + 1], np.nan]), axis=-1))
    if not runs:
        return np.empty(0), np.empty(0), np.empty((0, 2))
    return np.concatenate(xs)[:-1], np.concatenate(ys)[:-1], np.concatenate(bins)[:-1]


def histogram_figure(dists: list[Dist], title: str, deadline_ns: int | None) -> Figure | None:
    """Latency histograms (log counts), one outline per distribution, the same bins for all:
    equal widths, or geometric ones on a log latency axis when the tail is heavy."""
    drawn = [(d, *values_without_overflow(d.dist)) for d in dists if d.dist.n]
    if not drawn:
        return None
    largest = int(max(largest_value(d.dist) for d, _, _ in drawn))
    unit, factor = unit_for(largest)
    log_x = heavy_tail([d for d, _, _ in drawn])
    low = min(int(v[0]) if len(v) else largest for _, v, _ in drawn)
    edges = histogram_edges(low, largest, log_x)
    fig = go.Figure(layout=layout(title, f"latency ({unit})", "samples", log_x, True))
    for i, (d, values, counts) in enumerate(drawn):
        over = overflow_of(d.dist)
        if over is not None:
            _overflow_bar(fig, over, plotly_label(d.label), style(i)[0], unit, factor)
        index = bin_index(edges, values)
        binned = np.zeros(len(edges) - 1, dtype=np.int64)
        np.add.at(binned, index, counts)
        color, dash = style(i)
        name = plotly_label(d.label)
        x, y, bin_of = histogram_steps(_round_unit(edges.astype(np.float64), factor, True), binned)
        fig.add_scatter(
            x=x,
            y=y,
            customdata=bin_of,
            mode="markers+lines",
            line={"color": color, "dash": dash, "width": 1.2, "shape": "hv"},
            marker={"color": color, "size": 3},
            name=name,
            connectgaps=False,
            hovertemplate=(
                f"{name}<br>%{{y:,}} samples in [%{{customdata[0]:,.6~g}}, "
                f"%{{customdata[1]:,.6~g}}) {unit}<extra></extra>"
            ),
            legendgroup=name,
        )
    deadline_mark(fig, deadline_ns, factor, unit, largest, "x")
    fig.update_layout(updatemenus=[axis_switch("xaxis", log_x, 0), axis_switch("yaxis", True, 1.0)])
    bins = "geometric bins (each a fixed ratio wider)" if log_x else "bins of equal width"
    caption = (
        f"Counts in {bins}, log scale: single samples in the tail stay visible; each point is a "
        "bin's lower edge, empty bins are gaps. Click a legend entry to hide or show it."
    )
    if any(overflow_of(d.dist) for d, _, _ in drawn):
        caption += (
            " A dotted bar: the samples above a histogram's range, over the span from its end "
            "to the recorded maximum; where they lie in it is not recorded."
        )
    return Figure("histogram", title, fig, caption, {"edges": len(edges), "log": log_x})


def _hover_text(text: str) -> str:
    """Plain text inside a Plotly hover template (its braces and percent signs escaped)."""
    return text.replace("%", "%%").replace("{", "{{").replace("}", "}}")


def _overflow_bar(
    fig: go.Figure, over: Overflow, name: str, color: str, unit: str, factor: int
) -> None:
    """A histogram's overflow as a dotted bar at its count over [lower bound, maximum] (a point
    at the bound when the maximum is not recorded)."""
    xs = [over.lo] if over.hi is None or over.hi <= over.lo else [over.lo, over.hi]
    fig.add_scatter(
        x=_round_unit(np.array(xs, dtype=np.float64), factor),
        y=[over.count] * len(xs),
        mode="lines+markers",
        line={"color": color, "dash": "dot", "width": 2},
        marker={"color": color, "size": 6, "symbol": "triangle-right"},
        name=name,
        legendgroup=name,
        showlegend=False,
        hovertemplate=f"{name}<br>{_hover_text(over.says(unit, 1 / factor))}<extra></extra>",
    )


#: Characters of tick labels that fit side by side under a figure of the report's grid.
TICK_CHARACTERS = 64

#: Suffix of a percentile figure's key whose value is only a lower bound: the percentile lies in
#: a histogram's overflow (one open marker per row at the lowest such bound).
AT_LEAST = "_at_least"

#: Statistics of the percentile figure: key, legend name, marker symbol.
LADDER = (
    ("min", "min", "line-ew"),
    ("p50", "p50", "circle"),
    ("p99", "p99", "diamond"),
    ("p99_9", "p99.9", "square"),
    ("p99_99", "p99.99", "triangle-up"),
    ("max", "max", "x"),
)


def percentile_figure(
    rows: list[tuple[str, dict[str, float | None]]], title: str, deadline_ns: int | None
) -> Figure | None:
    """Per configuration the range from min to max and its percentiles (ns), on a log latency
    axis."""
    if len(rows) < 2:
        return None
    values = [v for _, stats in rows for v in stats.values() if v is not None]  # with bounds
    if not values:
        return None
    largest = max(values)
    unit, factor = unit_for(largest)
    labels = [plotly_label(label) for label, _ in rows]
    fig = go.Figure(layout=layout(title, "", f"latency ({unit})", False, True))
    xs: list[str | None] = []
    ys: list[float | None] = []
    for label, (_, stats) in zip(labels, rows, strict=True):
        if stats.get("min") is not None and stats.get("max") is not None:
            xs += [label, label, None]
            ys += [stats["min"] / factor, stats["max"] / factor, None]  # type: ignore[operator]
    fig.add_scatter(
        x=xs, y=ys, mode="lines", line={"color": "#999999", "width": 6}, name="min to max",
        hoverinfo="skip", opacity=0.5,
    )  # fmt: skip
    for i, (key, name, symbol) in enumerate(LADDER):
        shown = [
            (lab, s[key])
            for lab, (_, s) in zip(labels, rows, strict=True)
            if s.get(key) is not None
        ]
        if not shown:
            continue
        fig.add_scatter(
            x=[lab for lab, _ in shown],
            y=[float(v) / factor for _, v in shown],  # type: ignore[arg-type]
            mode="markers",
            name=name,
            marker={
                "symbol": symbol,
                "size": 12 if symbol == "line-ew" else 10,
                "color": PALETTE[i % len(PALETTE)],
                "line": {"width": 2, "color": PALETTE[i % len(PALETTE)]},
            },
            hovertemplate=f"%{{x}}<br>{name}: %{{y:,.6~g}} {unit}<extra></extra>",
        )
    # percentiles in a histogram's overflow: one open marker per row at the lowest lower bound
    bounded = []
    for lab, (_, stats) in zip(labels, rows, strict=True):
        held = [(name, stats.get(key + AT_LEAST)) for key, name, _ in LADDER]
        bounds = [(name, v) for name, v in held if v is not None]
        if bounds:
            names = ", ".join(name for name, _ in bounds)
            bounded.append((lab, min(float(v) for _, v in bounds), names))
    if bounded:
        fig.add_scatter(
            x=[lab for lab, _, _ in bounded],
            y=[v / factor for _, v, _ in bounded],
            customdata=[names for _, _, names in bounded],
            mode="markers",
            name="≥ (overflow)",
            marker={"symbol": "triangle-up-open", "size": 11, "color": "#555555"},
            hovertemplate=f"%{{x}}<br>%{{customdata}} ≥ %{{y:,.6~g}} {unit}: in the "
            "histogram's overflow, only its lower bound is known<extra></extra>",
        )
    deadline_mark(fig, deadline_ns, factor, unit, largest, "y")
    fig.update_layout(updatemenus=[axis_switch("yaxis", True)])
    # a label "file / series" on two lines, so that neighbouring labels do not run together
    # (slanted when even their longest lines would not fit side by side)
    parts = [label.split(" / ") for label, _ in rows]
    ticks = ["<br>".join(plotly_label(part) for part in lines) for lines in parts]
    widest = max(len(part) for lines in parts for part in lines)
    slant = len(rows) > 6 or widest * len(rows) > TICK_CHARACTERS
    fig.update_xaxes(
        type="category", tickangle=-30 if slant else 0, tickvals=labels, ticktext=ticks
    )
    caption = (
        "The bar spans min to max; the markers are the nearest-rank percentiles (those that "
        "n samples can tell apart). Click a legend entry to hide or show a statistic."
    )
    if bounded:
        caption += (
            " ≥ (overflow): the percentiles that lie in a histogram's overflow, at or above "
            "that marker (its lower bound; hover for which)."
        )
    return Figure("percentiles", title, fig, caption)


# -- stages ------------------------------------------------------------------------------------


def stage_figure(series: Series, title: str, max_points: int = 2000) -> Figure | None:
    """The stages of the interrupt path: each stage's share of the latency of every matched
    wake-up, the wake-ups sorted by latency (thinned to ``max_points``, the largest kept), and
    the latency itself on a second axis. The stage whose band widens on the right makes the
    tail. A negative stage (an interrupt that began before the expiry) counts as 0."""
    names = series.stage_names
    if not names or not series.has_samples:
        return None
    order = np.argsort(series.latency, kind="stable")
    if len(order) > max_points:
        order = order[np.unique(np.linspace(0, len(order) - 1, max_points).round().astype(int))]
    lat = series.latency[order].astype(np.float64) * float(series.ns_per_unit)
    unit, factor = unit_for(float(lat.max()))
    parts = np.stack([np.maximum(series.columns[n][order], 0) for n in names]).astype(np.float64)
    totals = parts.sum(axis=0)
    totals[totals == 0] = 1.0
    shares = parts / totals * 100.0
    fig = go.Figure(
        layout=layout(title, "matched wake-ups, sorted by latency", "share (%)", False, False)
    )
    for i, name in enumerate(names):
        label = name.removeprefix("stage_")
        color = PALETTE[i % len(PALETTE)]
        fig.add_scatter(
            x0=0,
            dx=1,
            y=np.round(shares[i], 1).astype(np.float32),
            stackgroup="stages",
            name=label,
            mode="lines",
            line={"width": 0.5, "color": color},
            hovertemplate=f"{label}: %{{y:.1f}} %<extra></extra>",
        )
    fig.add_scatter(
        x0=0,
        dx=1,
        y=_round_unit(lat, factor),
        name=f"latency ({unit})",
        yaxis="y2",
        mode="lines",
        line={"color": "#000000", "width": 1},
        hovertemplate=f"latency %{{y:,.6~g}} {unit}<extra></extra>",
    )
    fig.update_layout(
        yaxis={"range": [0, 100]},
        yaxis2={"title": {"text": f"latency ({unit})"}, "overlaying": "y", "side": "right",
                "type": "log", "showgrid": False, "tickmode": "array",
                "tickvals": ticks_125(float(lat.min()) / factor, float(lat.max()) / factor)},
        legend={"x": 1.08, "xanchor": "left"},
        margin={"r": 20},
        updatemenus=[axis_switch("yaxis2", True, 1.0)],
    )  # fmt: skip
    caption = (
        "Stacked: the share of each stage in each wake-up's latency; line: the latency "
        "(right axis). The stage whose band widens on the right makes the tail."
    )
    return Figure("stages", title, fig, caption)
