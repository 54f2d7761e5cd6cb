"""The report's section "Probabilistic worst case": per series the i.i.d. checks, then — only
where they pass — each method's fit and checks, the pWCETs with their intervals (a verdict
against the deadline), the tail extrapolated with its band and the threshold diagnostics; or
the reasons why there is no number (docs/tail.md).

Self-contained: :class:`TailSection` takes the series with their labels and a function that
embeds a figure, and returns HTML; it knows nothing else of the report's layout.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from matplotlib.figure import Figure

from latmon.model import Series
from latmon.stats import deadline_in_unit
from latmon.tables import Column, Table, fmt, render
from latmon.tail import TailAnalysis, analyse_series, time_ordered
from latmon.tail_plots import tail_figure
from latmon.tail_tables import checks_table, fit_text, pwcet_table

#: Embeds a figure: (figure, file name stem, alt text) -> HTML.
ImageWriter = Callable[[Figure, str, str], str]

INTRODUCTION = (
    '<p class="note">The latency exceeded with probability p per activation (pWCET), '
    "extrapolated beyond the samples by extreme-value theory: peaks over a threshold "
    "(generalised Pareto) and block maxima (GEV), with profile-likelihood intervals. Only for "
    "samples that pass the checks: independence (Ljung–Box, runs test) and identical "
    "distribution (KPSS, KS between the halves), the four as one family; enough exceedances; "
    "and a tail that is not heavy (ξ &gt; 0 has no bound: no number). Values in ns. Also: "
    "<code>latmon tail</code>; see docs/tail.md.</p>"
)


@dataclass
class TailSection:
    """The section for a list of (label, series); stage series are left out by the caller."""

    deadline_ns: int | None = None

    def render(self, series: Sequence[tuple[str, Series]], image: ImageWriter) -> str:
        parts = ["<h2>Probabilistic worst case (extreme-value analysis)</h2>", INTRODUCTION]
        unavailable = Table(
            [Column("series", "series", "l"), Column("n", "samples"), Column("why", "why", "l")]
        )
        for label, s in series:
            a = analyse_series(s)
            if a.unavailable is not None:  # too few samples, a histogram: one line each below
                unavailable.add({"series": label, "n": a.n, "why": a.unavailable})
                continue
            parts.append(f"<h3>{html.escape(label)}</h3>")
            parts.append(self._series(label, s, a, image))
        if unavailable.rows:
            parts.append("<h3>Series without an analysis</h3>")
            parts.append(render(unavailable, "html"))
        return "\n".join(parts)

    def _series(self, label: str, s: Series, a: TailAnalysis, image: ImageWriter) -> str:
        parts = [
            f'<p class="note">{fmt(a.n)} samples in time order; i.i.d. checks as one family at '
            f"{a.alpha:g} (each test at {a.alpha / 4:g}).</p>",
            render(checks_table(a.checks), "html"),
        ]
        if not a.iid:
            failed = "; ".join(c.name for c in a.checks if not c.passed)
            parts.append(
                '<p class="bad">no pWCET: the samples are not i.i.d. (failed: '
                f"{html.escape(failed)}), so an extreme-value model does not apply to them. "
                "See docs/tail.md for measurements that can pass.</p>"
            )
            return "\n".join(parts)
        to_ns = float(s.ns_per_unit)
        for m in (a.pot, a.gev):
            if m is None:
                continue
            parts.append(
                f'<p class="note"><b>{html.escape(m.method)}</b>: '
                f"{html.escape(fit_text(m, to_ns, 'ns'))}</p>"
            )
            parts.append(render(checks_table(m.checks), "html"))
        if not a.valid:
            parts.append(f'<p class="bad">no pWCET: {html.escape("; ".join(a.reasons()))}</p>')
            return "\n".join(parts)
        deadline = None if self.deadline_ns is None else deadline_in_unit(s, self.deadline_ns)
        note = f"pWCET per activation in ns, with the {a.confidence:.0%} interval."
        if self.deadline_ns is not None:
            note += (
                f" Verdict against the {fmt(self.deadline_ns)} ns deadline: pass when the "
                "interval's upper end is within it."
            )
        parts.append(f'<p class="note">{note}</p>')
        parts.append(render(pwcet_table(a, to_ns, deadline), "html"))
        values = time_ordered(s)
        figure = None if values is None else tail_figure(values, a, to_ns, label, self.deadline_ns)
        if figure is not None:
            alt = f"tail of {label} extrapolated, with the threshold diagnostics"
            parts.append(image(figure, f"{label}-tail", alt))
        return "\n".join(parts)
