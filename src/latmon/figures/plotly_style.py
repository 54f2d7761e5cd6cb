"""What every Plotly figure of the report shares: the colours and dash patterns, the figure
type with its caption, the layout, the log/linear switch of an axis, the deadline mark and
plotly.js itself (inlined once into the report from the pinned ``plotly`` package, so the file
works offline). The figures: :mod:`latmon.figures.interactive`, :mod:`latmon.tail.interactive`.

Colours: the Okabe-Ito palette (distinguishable with the common colour-vision deficiencies), the
yellow left out for contrast on white; past seven series the dash pattern changes too (28
distinct styles). A deadline far above the data is written as an annotation instead of being
drawn, so that it never squashes the data into the bottom of the plot.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import plotly.graph_objects as go

from latmon.tables import say_ns

#: Okabe & Ito (2008), without yellow (too light on white): blue, vermillion, bluish green,
#: orange, reddish purple, sky blue, black.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#000000")
DASHES = ("solid", "dash", "dot", "dashdot")
DEADLINE_COLOR = "#B2182B"
#: The deadline is drawn when it lies below this multiple of the largest value plotted.
DEADLINE_DRAWN_BELOW = 1.6


def style(index: int) -> tuple[str, str]:
    """Colour and dash pattern of the index-th series of a figure."""
    return PALETTE[index % len(PALETTE)], DASHES[(index // len(PALETTE)) % len(DASHES)]


@cache
def plotly_js() -> str:
    """plotly.min.js of the pinned plotly package (its version is in the file's banner)."""
    from plotly.offline import get_plotlyjs

    return str(get_plotlyjs())


#: The Plotly template every figure is drawn with. Its spec (about 7 KB) is written once into the
#: page (:func:`template_json`) and given to each figure by the page's script, not put into every
#: figure: one copy per page, and no Python-side check of its entries per figure (plotly
#: validates a named template for each figure it is set on).
TEMPLATE = "plotly_white"


def no_template() -> dict[str, Any]:
    """The layout's template while a figure is built: an empty one, so that plotly applies
    neither TEMPLATE nor its own default (the page applies TEMPLATE)."""
    return {}


@cache
def template_json() -> str:
    """TEMPLATE's spec as plotly ships it (the file ``plotly.io.templates`` reads), safe inside
    a ``<script>`` element."""
    path = resources.files("plotly").joinpath(f"package_data/templates/{TEMPLATE}.json")
    spec = json.loads(path.read_text(encoding="utf-8"))
    return script_safe(json.dumps(spec, separators=(",", ":")))


def script_safe(text: str) -> str:
    """JSON text that cannot end the ``<script>`` element it is written into."""
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


@dataclass
class Figure:
    """A figure of the report: a Plotly spec with a name (file names, ids) and a caption."""

    name: str
    title: str
    spec: go.Figure
    caption: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        """The spec as JSON that is safe inside a ``<script>`` element."""
        text = str(self.spec.to_json(validate=False, pretty=False))
        return script_safe(text)


def plotly_label(text: str) -> str:
    """A label from an input file, as plotly shows text (it reads a few HTML tags)."""
    return html.escape(text, quote=False)


def layout(title: str, xaxis: str, yaxis: str, log_x: bool, log_y: bool) -> dict[str, Any]:
    return {
        "meta": {"title": plotly_label(title)},
        "xaxis": {
            "title": {"text": xaxis},
            "type": "log" if log_x else "linear",
            "zeroline": False,
        },
        "yaxis": {
            "title": {"text": yaxis},
            "type": "log" if log_y else "linear",
            "zeroline": False,
        },
        "margin": {"l": 70, "r": 20, "t": 40, "b": 55},
        "height": 420,
        "template": no_template(),
        "hovermode": "closest",
        "legend": {"font": {"size": 11}, "itemclick": "toggle", "itemdoubleclick": "toggleothers"},
        "font": {"family": "system-ui, sans-serif", "size": 12},
    }


def axis_switch(axis: str, log_default: bool, x: float = 1.0) -> dict[str, Any]:
    """Buttons that switch one axis between log and linear, above the plot (x = 0: at its
    left, else at its right)."""
    name = axis.replace("axis", "")
    buttons = [
        {"label": f"{name}: log", "method": "relayout", "args": [{f"{axis}.type": "log"}]},
        {"label": f"{name}: linear", "method": "relayout", "args": [{f"{axis}.type": "linear"}]},
    ]
    return {
        "type": "buttons",
        "direction": "right",
        "showactive": True,
        "active": 0 if log_default else 1,
        "buttons": buttons,
        "x": x,
        "xanchor": "left" if x == 0 else "right",
        "y": 1.02,
        "yanchor": "bottom",
        "pad": {"t": 0, "b": 0},
        "font": {"size": 11},
    }


def deadline_mark(
    fig: go.Figure, deadline_ns: int | None, factor: int, unit: str, largest_ns: float, axis: str
) -> None:
    """The deadline as a line when it is near the data, else as a note at the plot's edge."""
    if deadline_ns is None:
        return
    text = f"deadline {say_ns(deadline_ns)}"
    if deadline_ns <= largest_ns * DEADLINE_DRAWN_BELOW:
        # a shape in data coordinates with its own label: right on log and linear axes alike
        line = {"color": DEADLINE_COLOR, "width": 1.5, "dash": "dash"}
        label = {"text": text, "font": {"color": DEADLINE_COLOR, "size": 11}}
        if axis == "x":
            # upright, to the left of the line at its top (a vertical label runs into the
            # axis buttons above the plot)
            upright = {"textposition": "end", "textangle": 0, "xanchor": "right", "yanchor": "top"}
            fig.add_vline(x=deadline_ns / factor, line=line, label={**label, **upright})
        else:
            fig.add_hline(
                y=deadline_ns / factor, line=line, label={**label, "textposition": "start"}
            )
        return
    times = deadline_ns / largest_ns
    note = f"{text}: {times:,.3g} times the largest value, above the plotted range"
    arrow = "→" if axis == "x" else "↑"
    fig.add_annotation(
        x=1, y=1, xref="paper", yref="paper", text=f"{note} {arrow}", showarrow=False,
        xanchor="right", yanchor="top", font={"color": DEADLINE_COLOR, "size": 11},
        bgcolor="rgba(255,255,255,0.8)",
    )  # fmt: skip


def ticks_125(low: float, high: float) -> list[float]:
    """Ticks at 1, 2 and 5 times the powers of ten from ``low`` to ``high`` (a log axis shorter
    than a decade or two gets readable labels, not plotly's digits or odd values)."""
    if not (0 < low <= high) or not np.isfinite(high):
        return []
    ticks = [
        m * 10.0**k
        for k in range(int(np.floor(np.log10(low))), int(np.floor(np.log10(high))) + 1)
        for m in (1, 2, 5)
    ]
    inside = [t for t in ticks if low <= t <= high]
    return inside if len(inside) >= 2 else [low, high]


def spec_json(fig: Figure) -> str:
    """The figure's spec and its config as JSON, safe inside a ``<script>`` element."""
    config = {
        "responsive": True,
        "displaylogo": False,
        "scrollZoom": False,
        "modeBarButtonsToRemove": ["select2d", "lasso2d"],
        "toImageButtonOptions": {"format": "png", "filename": fig.name, "scale": 2},
    }
    spec = json.loads(fig.to_json())
    spec["layout"].pop("template", None)  # the page's script sets TEMPLATE
    spec["config"] = config
    return script_safe(json.dumps(spec, separators=(",", ":")))
