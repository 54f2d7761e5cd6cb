"""The interactive figure of the extreme-value analysis (latmon.tail) for the HTML report, one
per series, drawn with plotly like the report's other figures (latmon.figures.plotly_style): on
top the measured exceedance curve with the fit extrapolated to 10⁻¹² and its pointwise
profile-likelihood band, below the threshold diagnostics (mean residual life and the stability
of ξ over the candidate thresholds, the chosen threshold marked). The static version for
``--figures`` is latmon.tail.plotting.

The measured curve is drawn from the distinct values (thinned as in latmon.tail.plotting: every
one of the top values kept, so the maximum is always drawn), so that the figure costs the same
for a thousand samples as for ten million. Latencies in the unit that fits the figure (the rule
of the tables); the deadline a line when near the data, else a note (never stretching an axis).
"""

from __future__ import annotations

import math
import re

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from latmon.figures.plotly_style import (
    DEADLINE_COLOR,
    DEADLINE_DRAWN_BELOW,
    PALETTE,
    Figure,
    axis_switch,
    no_template,
    plotly_label,
)
from latmon.tables import say_ns, unit_for
from latmon.tail.base import Quantile
from latmon.tail.curve import CURVE_POINTS, LOWEST_PROBABILITY, extrapolated
from latmon.tail.gpd import GpdFit
from latmon.tail.result import MethodResult, TailAnalysis
from latmon.tail.source import Digest, maximum_of, value_counts_of

MEASURED_COLOR = "#000000"
FIT_COLOR = PALETTE[0]
THRESHOLD_COLOR = PALETTE[1]


def measured_curve(values: np.ndarray | Digest) -> tuple[np.ndarray, np.ndarray, int]:
    """(latency, fraction of samples above it, n) at the distinct values; the body thinned to
    CURVE_POINTS, the top CURVE_POINTS values (the maximum among them) kept."""
    distinct, counts = value_counts_of(values)
    n = int(counts.sum())
    above = (n - np.cumsum(counts)) / n
    if len(distinct) > 2 * CURVE_POINTS:
        body = len(distinct) - CURVE_POINTS
        keep = np.concatenate(
            (
                np.linspace(0, body - 1, CURVE_POINTS).astype(np.int64),
                np.arange(body, len(distinct)),
            )
        )
        distinct, above = distinct[keep], above[keep]
    return distinct.astype(np.float64), above, n


def tail_figure(
    values: np.ndarray | Digest,
    analysis: TailAnalysis,
    to_ns: float,
    title: str,
    deadline_ns: int | None = None,
) -> Figure | None:
    """The interactive tail figure of one series (``values`` in its unit, ``to_ns`` ns per
    unit), or None when no method gives a pWCET."""
    method = next((m for m in (analysis.pot, analysis.gev) if m is not None and m.valid), None)
    if method is None:
        return None
    quantiles = extrapolated(method)
    finite_high = [q.high for q in quantiles if math.isfinite(q.high)]
    largest_ns = max([*finite_high, maximum_of(values)]) * to_ns
    unit, factor = unit_for(largest_ns)
    scale = to_ns / factor
    fig = make_subplots(
        figure=go.Figure(layout={"template": no_template()}),
        rows=2,
        cols=2,
        specs=[[{"colspan": 2}, None], [{}, {}]],
        row_heights=[0.58, 0.42],
        vertical_spacing=0.16,
        horizontal_spacing=0.1,
        subplot_titles=("", "mean residual life", "parameter stability (shape ξ)"),
    )
    _exceedance(fig, values, method, quantiles, analysis, scale, unit)
    _deadline(fig, deadline_ns, factor, largest_ns)
    _diagnostics(fig, analysis, method, to_ns)
    fig.update_layout(
        height=640,
        hovermode="closest",
        margin={"l": 70, "r": 20, "t": 40, "b": 55},
        font={"family": "system-ui, sans-serif", "size": 12},
        legend={"font": {"size": 11}, "itemclick": "toggle", "itemdoubleclick": "toggleothers"},
        updatemenus=[axis_switch("xaxis", False, x=0)],
        meta={"title": plotly_label(title)},
    )
    fig.update_yaxes(type="log", range=[math.log10(LOWEST_PROBABILITY / 2), 0.05], row=1, col=1)
    fig.update_yaxes(title_text="P(latency > x) per activation", exponentformat="power",
                     row=1, col=1)  # fmt: skip
    fig.update_xaxes(title_text=f"latency ({unit})", row=1, col=1)
    caption = (
        f"{method.method}: the measured exceedance (black) and the fit extrapolated to "
        f"{LOWEST_PROBABILITY:g} per activation with its {analysis.confidence:.0%} "
        "profile-likelihood band; the dots are the pWCETs of the table. Below: mean residual "
        "life (linear above a valid threshold) and the shape ξ at every candidate threshold "
        "(constant above it), the chosen threshold dotted. Hover for values; click a legend "
        "entry to hide a curve."
    )
    # the name is a file name too (the PNG download): the label reduced to safe characters
    name = "tail-" + (re.sub(r"[^A-Za-z0-9_.-]+", "_", title).strip("_") or "series")
    return Figure(name, f"{title}: tail extrapolated", fig, caption,
                  {"method": method.method})  # fmt: skip


def _exceedance(
    fig: go.Figure,
    values: np.ndarray | Digest,
    method: MethodResult,
    quantiles: list[Quantile],
    analysis: TailAnalysis,
    scale: float,
    unit: str,
) -> None:
    x, above, n = measured_curve(values)
    fig.add_scatter(
        x=x * scale, y=np.maximum(above, LOWEST_PROBABILITY / 2), mode="lines",
        line={"color": MEASURED_COLOR, "width": 1.3, "shape": "hv"},
        name=f"measured ({n:,} samples)",
        hovertemplate=f"%{{x:,.6~g}} {unit}: P(>x) %{{y:.3g}}<extra>measured</extra>",
        row=1, col=1,
    )  # fmt: skip
    if quantiles:
        p = np.array([q.probability for q in quantiles])
        est = np.array([q.estimate for q in quantiles]) * scale
        low = np.array([q.low for q in quantiles]) * scale
        high = np.array([q.high if math.isfinite(q.high) else np.nan for q in quantiles]) * scale
        kind = "GPD" if isinstance(method.fit, GpdFit) else "GEV"
        band = f"{analysis.confidence:.0%} band"
        fig.add_scatter(
            x=np.concatenate((low, high[::-1])), y=np.concatenate((p, p[::-1])),
            fill="toself", fillcolor="rgba(0,114,178,0.18)", line={"width": 0},
            name=f"{analysis.confidence:.0%} profile-likelihood band", hoverinfo="skip",
            legendgroup="fit", row=1, col=1,
        )  # fmt: skip
        fig.add_scatter(
            x=est, y=p, mode="lines", line={"color": FIT_COLOR, "width": 1.8},
            name=f"{kind} fit, extrapolated", legendgroup="fit",
            customdata=np.stack((low, high), axis=-1),
            hovertemplate=(
                f"P(>x) %{{y:.3g}}: %{{x:,.6~g}} {unit} "
                f"[%{{customdata[0]:,.6~g}}, %{{customdata[1]:,.6~g}}]<extra>{band}</extra>"
            ),
            row=1, col=1,
        )  # fmt: skip
    if method.quantiles:
        q = method.quantiles
        fig.add_scatter(
            x=[v.estimate * scale for v in q], y=[v.probability for v in q], mode="markers",
            marker={"color": FIT_COLOR, "size": 7}, name="pWCET", legendgroup="fit",
            hovertemplate=f"pWCET at %{{y:g}}: %{{x:,.6~g}} {unit}<extra></extra>",
            row=1, col=1,
        )  # fmt: skip
    if isinstance(method.fit, GpdFit):
        fig.add_vline(
            x=method.fit.threshold * scale, line={"color": THRESHOLD_COLOR, "dash": "dot",
            "width": 1}, row=1, col=1,
        )  # fmt: skip


def _deadline(fig: go.Figure, deadline_ns: int | None, factor: int, largest_ns: float) -> None:
    if deadline_ns is None:
        return
    text = f"deadline {say_ns(deadline_ns)}"
    if deadline_ns <= largest_ns * DEADLINE_DRAWN_BELOW:
        fig.add_vline(
            x=deadline_ns / factor, line={"color": DEADLINE_COLOR, "width": 1.5, "dash": "dash"},
            label={"text": text, "textposition": "end",
                   "font": {"color": DEADLINE_COLOR, "size": 11}},
            row=1, col=1,
        )  # fmt: skip
        return
    note = f"{text}: {deadline_ns / largest_ns:,.3g} times the largest value plotted →"
    fig.add_annotation(
        x=1, y=1, xref="x domain", yref="y domain", text=note, showarrow=False,
        xanchor="right", yanchor="top", font={"color": DEADLINE_COLOR, "size": 11},
        bgcolor="rgba(255,255,255,0.8)",
    )  # fmt: skip


def _diagnostics(
    fig: go.Figure, analysis: TailAnalysis, method: MethodResult, to_ns: float
) -> None:
    mrl = analysis.mean_excess
    points = analysis.stability
    if mrl is None or not points:
        return
    largest = float(np.nanmax(mrl.high)) if len(mrl.high) else 1.0
    unit, factor = unit_for(max(float(mrl.threshold.max()), largest) * to_ns)
    scale = to_ns / factor
    u = mrl.threshold * scale
    fig.add_scatter(
        x=np.concatenate((u, u[::-1])),
        y=np.concatenate((mrl.low * scale, (mrl.high * scale)[::-1])),
        fill="toself", fillcolor="rgba(0,114,178,0.18)", line={"width": 0}, hoverinfo="skip",
        showlegend=False, row=2, col=1,
    )  # fmt: skip
    fig.add_scatter(
        x=u, y=mrl.mean_excess * scale, mode="lines", line={"color": FIT_COLOR, "width": 1.5},
        customdata=mrl.exceedances, showlegend=False, name="mean excess",
        hovertemplate=(f"threshold %{{x:,.6~g}} {unit}: mean excess %{{y:,.6~g}} {unit} "
                       "(%{customdata:,} above)<extra></extra>"),
        row=2, col=1,
    )  # fmt: skip
    tu = np.array([p.threshold for p in points]) * scale
    xi = np.array([p.xi for p in points])
    se = np.array([p.xi_se for p in points])
    fig.add_scatter(
        x=tu, y=xi, mode="markers", marker={"color": FIT_COLOR, "size": 5},
        error_y={"type": "data", "array": 1.96 * se, "color": FIT_COLOR, "thickness": 1},
        customdata=np.array([p.exceedances for p in points]), showlegend=False, name="ξ",
        hovertemplate=(f"threshold %{{x:,.6~g}} {unit}: ξ %{{y:+.3f}} "
                       "(%{customdata:,} above)<extra></extra>"),
        row=2, col=2,
    )  # fmt: skip
    fig.add_hline(y=0, line={"color": "#888", "width": 0.8}, row=2, col=2)
    pot = analysis.pot.fit if analysis.pot is not None else None
    if isinstance(pot, GpdFit):  # the threshold POT chose, whichever method is drawn above
        for col in (1, 2):
            fig.add_vline(
                x=pot.threshold * scale, line={"color": THRESHOLD_COLOR, "dash": "dot",
                "width": 1}, row=2, col=col,
            )  # fmt: skip
    for col, ytitle in ((1, f"mean excess ({unit})"), (2, "shape ξ")):
        fig.update_xaxes(title_text=f"threshold ({unit})", row=2, col=col)
        fig.update_yaxes(title_text=ytitle, row=2, col=col)
